/* serve.h — the one header the server publishes to the tool: what
 * `clusterfit serve` asks for and the call that runs the server
 * (src/cmd_serve.c is its only user; the Makefile gives that file alone
 * -Iserver). Everything else of the server is private to server/ (server.h,
 * query.h). The server includes nothing from src/: it reports a cf_status,
 * which the tool maps to its exit code with cf_status_exit_code(). */
#ifndef CLUSTERFIT_SERVE_H
#define CLUSTERFIT_SERVE_H

#include "clusterfit/status.h"

/* What `clusterfit serve` was asked for. Strings are borrowed. */
typedef struct srv_config {
    const char *bind;       /* numeric IPv4 or IPv6 address */
    unsigned port;          /* 0 = a free port chosen by the system */
    const char *db_path;    /* catalog file (already resolved) */
    const char *now;        /* YYYY-MM-DD fixing "today" (CLUSTERFIT_NOW), NULL = today */
    double head_deadline_s; /* request head deadline; 0 = CF_HTTP_HEAD_DEADLINE_S */
    const char *const *allow_hosts; /* --allow-host names accepted in Host and Origin */
    size_t n_allow_hosts;   /* entries of allow_hosts */
} srv_config;

/* Runs the server until SIGINT, SIGTERM or SIGHUP, logging one line per request to
 * stderr. Prints "clusterfit serve: listening on http://ADDR:PORT/" once
 * ready; every failure is printed there too, once. Returns CF_OK after a
 * clean stop; CF_EINVAL for what the user settles with --bind or --port (not
 * a numeric address; the port in use, privileged, or of no interface: exit
 * 2); CF_EINTERNAL when the daemon cannot listen for another reason, CF_EDB when
 * the server cannot open the catalog (exit 4). */
cf_status srv_run(const srv_config *cfg);

#endif
