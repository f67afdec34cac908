/* import_catalog.c — the catalog release file commands of `clusterfit
 * import` (issue 26): `--catalog FILE` installs a dated offerings CSV
 * (release.h) in place of the catalog built into clusterfit, checked whole
 * first (a bad line refuses the file with FILE:LINE:COLUMN, exit 3, and
 * nothing changes); `--builtin-catalog` goes back to the built-in rows.
 * Your own rows and imported prices stay as they are either way. */
#include <string.h>
#include "import_catalog.h"

/* "release 2026-12-01 (source URL)" or "built-in (2026-11-30)" of an info. */
static void describe(const json_t *info, char *buf, size_t n)
{
    const char *date = json_string_value(json_object_get(info, "date"));
    if (strcmp(json_string_value(json_object_get(info, "origin")), "release") == 0)
        snprintf(buf, n, "the catalog release of %s (%s)", date,
                 json_string_value(json_object_get(info, "source")));
    else
        snprintf(buf, n, "the built-in catalog (%lld rows, newest as_of %s)",
                 (long long)json_integer_value(json_object_get(info, "rows")),
                 date ? date : "unknown");
}

int cli_import_catalog(const cli_ctx *ctx, const char *file)
{
    cf_catalog *cat = NULL;
    json_t *before = NULL, *after = NULL;
    char today[16], was[600];
    cf_error err;
    size_t n = 0;
    int rc;
    cf_status st;
    if (cli_today(ctx, today, sizeof today) != 0)
        return cli_usage_error("import", "CLUSTERFIT_NOW: expected a date YYYY-MM-DD, got \"%s\"",
                               ctx->now ? ctx->now : "");
    if ((rc = cli_open_catalog(ctx, "import", &cat)) != EXIT_OK) return rc;
    cf_error_clear(&err);
    if ((st = cf_catalog_info(cat, &before)) == CF_OK)
        st = cf_catalog_release_install_file(cat, file, today, &n, &err);
    if (st == CF_OK) st = cf_catalog_info(cat, &after);
    cf_catalog_close(cat);
    if (st != CF_OK) {
        json_decref(before);
        rc = cli_lib_error("import", st, &err);
        return st == CF_EIO ? EXIT_BAD_INPUT : rc;
    }
    describe(before, was, sizeof was);
    printf("installed the catalog release %s from %s: %zu offering%s (newest as_of %s)\n"
           "source: %s\nreplaces %s; your own rows and imported prices are kept\n",
           json_string_value(json_object_get(after, "date")), file, n, n == 1 ? "" : "s",
           json_string_value(json_object_get(after, "newest_as_of")),
           json_string_value(json_object_get(after, "source")), was);
    json_decref(before);
    json_decref(after);
    return EXIT_OK;
}

int cli_builtin_catalog(const cli_ctx *ctx)
{
    cf_catalog *cat = NULL;
    json_t *info = NULL;
    char now[600];
    cf_error err;
    int removed = 0, rc;
    cf_status st;
    if ((rc = cli_open_catalog(ctx, "import", &cat)) != EXIT_OK) return rc;
    cf_error_clear(&err);
    st = cf_catalog_release_remove(cat, &removed, &err);
    if (st == CF_OK) st = cf_catalog_info(cat, &info);
    cf_catalog_close(cat);
    if (st != CF_OK) return cli_lib_error("import", st, &err);
    describe(info, now, sizeof now);
    json_decref(info);
    printf("%s %s\n", removed ? "removed the catalog release; back to" : "no catalog release "
           "installed: already", now);
    return EXIT_OK;
}
