/* cmd_import.c — `clusterfit import FILE.csv|FILE.json`: adds the user's own
 * offerings (or replaces the user's earlier rows with the same id) in one
 * transaction. A bad cell rejects the whole file with FILE:LINE:COLUMN and
 * exit 3, and leaves the catalog unchanged; so does an as_of after today
 * (CLUSTERFIT_NOW, else the clock: the library is told, it never looks).
 * `import --remove ID...` deletes some of the user's rows (all or nothing:
 * an id the user never imported is a usage error naming it), `import
 * --reset` all of them; a shipped row with the same id shows again. */
#include <stddef.h>
#include <string.h>
#include "cli.h"
#include "opts.h"

typedef struct import_args {
    int remove, reset;
} import_args;

static const cli_opt import_opts[] = {
    {.name = "remove", CLI_FLAG_AT(import_args, remove), .metavar = "ID...",
     .help = "remove the rows you imported with these ids (a shipped\n"
             "row with the same id shows again); an id you did not\n"
             "import is an error (exit 2) and nothing is removed"},
    {.name = "reset", CLI_FLAG_AT(import_args, reset),
     .help = "remove every row you imported"},
    {.name = "help", .kind = CLI_HELP, .help = "this help"},
    {.kind = CLI_END},
};

static const cli_cmd import_cmd = {
    .cmd = "import",
    .usage = "Usage: clusterfit import FILE.csv|FILE.json\n"
             "       clusterfit import --remove ID [ID...]\n"
             "       clusterfit import --reset\n"
             "Add your own offerings to the catalog, or update the ones you imported\n"
             "before (by id). CSV: a header row with the columns of data/offerings.csv,\n"
             "in any order (id, provider, offering, source_url and as_of are required;\n"
             "sets ';'-separated; an empty cell is unknown). JSON: an array of objects\n"
             "with the same keys (sets as arrays, null for unknown), as 'clusterfit list\n"
             "--format json' writes. Your rows survive updates of the shipped catalog and\n"
             "win over shipped rows with the same id. Any bad row, or an as_of after\n"
             "today ($CLUSTERFIT_NOW when set), rejects the whole file (exit 3) and\n"
             "leaves the catalog unchanged.\n"
             "\n",
    .opts = import_opts,
    .col = 18,
};

static int remove_ids(const cli_ctx *ctx, int n, char **ids)
{
    cf_catalog *cat = NULL;
    cf_error err;
    size_t removed = 0;
    int rc = cli_open_catalog(ctx, "import", &cat);
    cf_status st;
    if (rc != EXIT_OK) return rc;
    cf_error_clear(&err);
    st = cf_catalog_remove_user(cat, (const char *const *)ids, (size_t)n, &removed, &err);
    if (st != CF_OK) {
        cf_catalog_close(cat);
        return cli_lib_error("import", st, &err);
    }
    printf("removed %zu offering%s you imported:", removed, removed == 1 ? "" : "s");
    for (int i = 0; i < n; i++) {
        int dup = 0;
        for (int k = 0; k < i; k++) dup |= strcmp(ids[k], ids[i]) == 0;
        if (!dup) printf(" %s", ids[i]);
    }
    printf("\n");
    /* Say which ids now show the shipped row again. */
    for (int i = 0; i < n; i++) {
        cf_offering *o = NULL;
        int dup = 0;
        for (int k = 0; k < i; k++) dup |= strcmp(ids[k], ids[i]) == 0;
        if (dup || cf_catalog_get(cat, ids[i], &o) != CF_OK) continue;
        if (!o->user_row) printf("%s: the shipped offering with this id shows again\n", ids[i]);
        cf_offering_free(o);
    }
    cf_catalog_close(cat);
    return EXIT_OK;
}

static int reset_all(const cli_ctx *ctx)
{
    cf_catalog *cat = NULL;
    cf_error err;
    size_t removed = 0;
    int rc = cli_open_catalog(ctx, "import", &cat);
    cf_status st;
    if (rc != EXIT_OK) return rc;
    cf_error_clear(&err);
    st = cf_catalog_reset_user(cat, &removed, &err);
    cf_catalog_close(cat);
    if (st != CF_OK) return cli_lib_error("import", st, &err);
    printf("removed %zu offering%s you imported\n", removed, removed == 1 ? "" : "s");
    return EXIT_OK;
}

int cmd_import(const cli_ctx *ctx, int argc, char **argv)
{
    import_args a = {0, 0};
    cf_catalog *cat = NULL;
    cf_import_opts io;
    cf_error err;
    char today[16];
    size_t n = 0;
    int first, rc;
    cf_status st;

    if ((first = cli_opts_parse(&import_cmd, argc, argv, &a, &rc)) < 0) return rc;
    if (a.remove && a.reset) return cli_usage_error("import", "--remove and --reset exclude each other");
    if (a.reset) {
        if (first < argc)
            return cli_usage_error("import", "--reset takes no argument; unexpected '%s'", argv[first]);
        return reset_all(ctx);
    }
    if (a.remove) {
        if (first >= argc)
            return cli_usage_error("import", "--remove needs the ids of offerings you imported");
        return remove_ids(ctx, argc - first, argv + first);
    }
    if (first >= argc) return cli_usage_error("import", "which file? give FILE.csv or FILE.json");
    if (first + 1 < argc) return cli_usage_error("import", "one file at a time; unexpected '%s'", argv[first + 1]);
    if (cli_today(ctx, today, sizeof today) != 0)
        return cli_usage_error("import", "CLUSTERFIT_NOW: expected a date YYYY-MM-DD, got \"%s\"",
                               ctx->now ? ctx->now : "");
    rc = cli_open_catalog(ctx, "import", &cat);
    if (rc != EXIT_OK) return rc;
    memset(&io, 0, sizeof io);
    io.today = today;
    cf_error_clear(&err);
    st = cf_catalog_import_file(cat, argv[first], &io, &n, &err);
    cf_catalog_close(cat);
    if (st != CF_OK) {
        rc = cli_lib_error("import", st, &err);
        return rc;
    }
    printf("imported %zu offering%s from %s\n", n, n == 1 ? "" : "s", argv[first]);
    return EXIT_OK;
}
