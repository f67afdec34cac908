/* cmd_serve.c — `clusterfit serve [--bind ADDR] [--port N]`: the web page and
 * JSON API of DESIGN §6 (server/). This file only reads the options and
 * resolves the catalog path the same way the other commands do; the server
 * lives in server/. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/stat.h>
#include "cli.h"
#include "opts.h"
#include "serve.h"          /* the server's one published header (-Iserver) */

typedef struct serve_args {
    const char *bind;
    long port;
} serve_args;

static const cli_opt serve_opts[] = {
    {.name = "bind", CLI_STR_AT(serve_args, bind), .metavar = "ADDR",
     .help = "numeric IPv4 or IPv6 address to listen on (default 127.0.0.1;\n"
             "the API has no authentication: bind to loopback unless the\n"
             "network is trusted)"},
    {.name = "port", CLI_LONG_AT(serve_args, port), .metavar = "N",
     .min = 0, .max = 65535,
     .help = "TCP port, 0-65535 (default 8080; 0 picks a free port, printed)"},
    {.name = "help", .short_name = 'h', .kind = CLI_HELP, .help = "this help"},
    {.kind = CLI_END},
};

static const cli_cmd serve_cmd = {
    .cmd = "serve",
    .usage = "Usage: clusterfit serve [--bind ADDR] [--port N]\n"
             "Serve the comparison table, the planner and the audit as a web page, and\n"
             "the JSON API (GET /api/offerings, /api/offerings/ID, /api/predict/collective,\n"
             "/api/vocab, /healthz; POST /api/plan, /api/fabrics, /api/audit). Logs one\n"
             "line per request to stderr; stops cleanly on SIGINT or SIGTERM.\n"
             "\n",
    .opts = serve_opts,
    .col = 16,
    .no_args = 1,
};

/* The catalog path as cli_open_catalog() resolves it, for the server's
 * cache (which watches the file) and the catalog itself. */
static int resolve_db(const cli_ctx *ctx, char *path, size_t n)
{
    const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
    if (ctx->db_path && *ctx->db_path) {
        snprintf(path, n, "%s", ctx->db_path);
        return 0;
    }
    if (xdg && *xdg) snprintf(path, n, "%s/clusterfit/catalog.db", xdg);
    else if (home && *home) snprintf(path, n, "%s/.local/share/clusterfit/catalog.db", home);
    else snprintf(path, n, "clusterfit-catalog.db");
    for (char *p = path + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        if (mkdir(path, 0755) != 0 && errno != EEXIST) {
            fprintf(stderr, "clusterfit serve: cannot create the directory %s: %s\n", path, strerror(errno));
            *p = '/';
            return -1;
        }
        *p = '/';
    }
    return 0;
}

int cmd_serve(const cli_ctx *ctx, int argc, char **argv)
{
    serve_args a = {"127.0.0.1", 8080};
    srv_config cfg = {NULL, 0, NULL, NULL};
    char db[4096];
    int rc;

    if (cli_opts_parse(&serve_cmd, argc, argv, &a, &rc) < 0) return rc;
    cfg.bind = a.bind;
    cfg.port = (unsigned)a.port;
    if (resolve_db(ctx, db, sizeof db) != 0) return EXIT_INTERNAL;
    /* Open the catalog once here, as every command does, so that a bad --db
     * (a directory, not a catalog) is told once with its exit code before
     * any socket is opened; the server then opens it for itself. */
    {
        cf_catalog *cat = NULL;
        rc = cli_open_catalog(ctx, "serve", &cat);
        if (rc != EXIT_OK) return rc;
        cf_catalog_close(cat);
    }
    cfg.db_path = db;
    cfg.now = ctx->now;
    /* The server has printed what went wrong; the status gives the exit
     * code (0, 2 for --bind/--port, 4 otherwise). */
    return cf_status_exit_code(srv_run(&cfg));
}
