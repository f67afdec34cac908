/* cmd_import.c — `clusterfit import FILE.csv|FILE.json`: adds the user's own
 * offerings (or replaces the user's earlier rows with the same id) in one
 * transaction. A bad cell rejects the whole file with FILE:LINE:COLUMN and
 * exit 3, and leaves the catalog unchanged. */
#include <getopt.h>
#include "cli.h"

static const char *const USAGE =
    "Usage: clusterfit import FILE.csv|FILE.json\n"
    "Add your own offerings to the catalog, or update the ones you imported\n"
    "before (by id). CSV: a header row with the columns of data/offerings.csv,\n"
    "in any order (id, provider, offering, source_url and as_of are required;\n"
    "sets ';'-separated; an empty cell is unknown). JSON: an array of objects\n"
    "with the same keys (sets as arrays, null for unknown), as 'clusterfit list\n"
    "--format json' writes. Your rows survive updates of the shipped catalog and\n"
    "win over shipped rows with the same id. Any bad row rejects the whole file\n"
    "(exit 3) and leaves the catalog unchanged.\n"
    "\n"
    "  --help   this help\n";

int cmd_import(const cli_ctx *ctx, int argc, char **argv)
{
    static const struct option opts[] = {
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    cf_catalog *cat = NULL;
    cf_error err;
    size_t n = 0;
    int c, rc;
    cf_status st;

    optind = 0;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
        if (c == 'h') {
            fputs(USAGE, stdout);
            return EXIT_OK;
        }
        return cli_usage_error("import", "unknown option '%s'", argv[optind - 1]);
    }
    if (optind >= argc) return cli_usage_error("import", "which file? give FILE.csv or FILE.json");
    if (optind + 1 < argc) return cli_usage_error("import", "one file at a time; unexpected '%s'", argv[optind + 1]);
    rc = cli_open_catalog(ctx, "import", &cat);
    if (rc != EXIT_OK) return rc;
    cf_error_clear(&err);
    st = cf_catalog_import_file(cat, argv[optind], &n, &err);
    cf_catalog_close(cat);
    if (st != CF_OK) {
        rc = cli_lib_error("import", st, &err);
        return st == CF_EIO ? EXIT_BAD_INPUT : rc; /* an unreadable input file is bad input */
    }
    printf("imported %zu offering%s from %s\n", n, n == 1 ? "" : "s", argv[optind]);
    return EXIT_OK;
}
