/* cmd_serve.c — `clusterfit serve [--bind ADDR] [--port N]`: the web page and
 * JSON API of DESIGN §6 (server/). This file only reads the options and
 * resolves the catalog path the same way the other commands do; the server
 * lives in server/. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/stat.h>
#include "cli.h"
#include "serve.h"          /* the server's one published header (-Iserver) */

static void usage(FILE *out)
{
    fprintf(out,
            "Usage: clusterfit serve [--bind ADDR] [--port N]\n"
            "Serve the comparison table, the planner and the audit as a web page, and\n"
            "the JSON API (GET /api/offerings, /api/offerings/ID, /api/predict/collective,\n"
            "/healthz; POST /api/plan, /api/audit). Logs one line per request to stderr;\n"
            "stops cleanly on SIGINT or SIGTERM.\n"
            "\n"
            "  --bind ADDR   numeric IPv4 or IPv6 address to listen on (default 127.0.0.1;\n"
            "                the API has no authentication: bind to loopback unless the\n"
            "                network is trusted)\n"
            "  --port N      TCP port, 0-65535 (default 8080; 0 picks a free port, printed)\n"
            "  --help        this help\n");
}

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
    static const struct option opts[] = {
        {"bind", required_argument, NULL, 'b'},
        {"port", required_argument, NULL, 'p'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    srv_config cfg = {"127.0.0.1", 8080, NULL, NULL};
    char db[4096];
    long port;
    int c;

    optind = 0;
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        switch (c) {
        case 'b':
            cfg.bind = optarg;
            break;
        case 'p':
            if (cli_parse_int("serve", "--port", optarg, 0, 65535, &port) != 0) return EXIT_USAGE;
            cfg.port = (unsigned)port;
            break;
        case 'h':
            usage(stdout);
            return EXIT_OK;
        case ':':
            return cli_usage_error("serve", "%s needs a value", argv[optind - 1]);
        default:
            return cli_usage_error("serve", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind < argc) return cli_usage_error("serve", "unexpected argument '%s'", argv[optind]);
    if (resolve_db(ctx, db, sizeof db) != 0) return EXIT_INTERNAL;
    /* Open the catalog once here, as every command does, so that a bad --db
     * (a directory, not a catalog) is told once with its exit code before
     * any socket is opened; the server then opens it for itself. */
    {
        cf_catalog *cat = NULL;
        int rc = cli_open_catalog(ctx, "serve", &cat);
        if (rc != EXIT_OK) return rc;
        cf_catalog_close(cat);
    }
    cfg.db_path = db;
    cfg.now = ctx->now;
    /* The server has printed what went wrong; the status gives the exit
     * code (0, 2 for --bind/--port, 4 otherwise). */
    return cf_status_exit_code(srv_run(&cfg));
}
