/* cmd_version.c — `clusterfit version` and `clusterfit --version` (issue
 * 26): which clusterfit answered, so that an answer can be traced and
 * cited: the release and commit (cf_version, cf_version_commit), the
 * version of the model's constants (cf_model_constants_version) and where
 * the catalog's rows come from, its date and row count (cf_catalog_info:
 * the built-in catalog, or a catalog release file installed with `import
 * --catalog`). The catalog file is read when it exists and never made:
 * asking the version writes nothing. */
#include <string.h>
#include <sys/stat.h>
#include "cli.h"
#include "opts.h"

typedef struct version_args {
    cli_format fmt;
} version_args;

static const cli_opt version_opts[] = {
    {.name = "format", CLI_FORMAT_AT(version_args, fmt), .metavar = "F",
     .formats = FMT_TEXT | FMT_JSON,
     .help = "text (default) or json ({version, commit,\n"
             "model_constants, catalog{path, origin, date, rows,\n"
             "newest_as_of, source, file, installed, built_in}})"},
    {.name = "help", .kind = CLI_HELP, .help = "this help"},
    {.kind = CLI_END},
};

static const cli_cmd version_cmd = {
    .cmd = "version",
    .usage = "Usage: clusterfit version [--format text|json]\n"
             "The release, the commit it was built from, the version of the model's\n"
             "constants, and the catalog: built in, or the catalog release file\n"
             "installed with 'clusterfit import --catalog FILE' (its date, source and\n"
             "rows). 'clusterfit --version' prints the same text.\n"
             "\n",
    .opts = version_opts,
    .col = 14,
    .no_args = 1,
};

/* The catalog's info (cf_catalog_info) with its "path": the file when it
 * exists (opened, so a release in it is seen), else the built-in rows. */
static int catalog_info(const cli_ctx *ctx, json_t **out)
{
    char path[4096];
    struct stat sb;
    cf_catalog *cat = NULL;
    cf_status st;
    int rc;
    cli_catalog_path(ctx, path, sizeof path);
    if (stat(path, &sb) == 0) {
        if ((rc = cli_open_catalog(ctx, "version", &cat)) != EXIT_OK) return rc;
    }
    st = cf_catalog_info(cat, out);
    cf_catalog_close(cat);
    if (st != CF_OK) return cli_lib_error("version", st, NULL);
    if (json_object_set_new(*out, "path", cat ? json_string(path) : json_null()) != 0)
        return EXIT_INTERNAL;
    return EXIT_OK;
}

static const char *str(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "unknown";
}

static void print_text(const json_t *c)
{
    const json_t *b = json_object_get(c, "built_in");
    long long rows = (long long)json_integer_value(json_object_get(c, "rows"));
    printf("clusterfit %s\ncommit: %s\nmodel constants: %s\n", cf_version(), cf_version_commit(),
           cf_model_constants_version());
    if (strcmp(str(c, "origin"), "release") == 0) {
        printf("catalog: release %s, %lld rows (newest as_of %s)\n"
               "  source: %s\n  file: %s, installed %s\n", str(c, "date"), rows,
               str(c, "newest_as_of"), str(c, "source"), str(c, "file"), str(c, "installed"));
        printf("  replaces the built-in catalog: %lld rows, newest as_of %s\n",
               (long long)json_integer_value(json_object_get(b, "rows")), str(b, "newest_as_of"));
    } else {
        printf("catalog: built-in, %lld rows, dated %s (newest as_of)\n", rows, str(c, "date"));
    }
    if (json_is_string(json_object_get(c, "path")))
        printf("catalog file: %s\n", str(c, "path"));
    else
        printf("catalog file: none yet (made on first use)\n");
}

int cmd_version(const cli_ctx *ctx, int argc, char **argv)
{
    version_args a = {FMT_TEXT};
    json_t *cat = NULL, *j;
    int rc;
    if (cli_opts_parse(&version_cmd, argc, argv, &a, &rc) < 0) return rc;
    if ((rc = catalog_info(ctx, &cat)) != EXIT_OK) return rc;
    if (a.fmt != FMT_JSON) {
        print_text(cat);
        json_decref(cat);
        return EXIT_OK;
    }
    j = json_pack("{s:s,s:s,s:s,s:o}", "version", cf_version(), "commit", cf_version_commit(),
                  "model_constants", cf_model_constants_version(), "catalog", cat);
    return cli_print_json(j);
}
