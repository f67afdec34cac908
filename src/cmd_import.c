/* cmd_import.c — `clusterfit import FILE.csv|FILE.json`: adds the user's own
 * offerings (or replaces the user's earlier rows with the same id) in one
 * transaction. A bad cell rejects the whole file with FILE:LINE:COLUMN and
 * exit 3, and leaves the catalog unchanged; so does an as_of after today
 * (CLUSTERFIT_NOW, else the clock: the library is told, it never looks).
 * `import --remove ID...` deletes some of the user's rows (all or nothing:
 * an id the user never imported is a usage error naming it), `import
 * --reset` all of them and every imported price, in one transaction
 * (cf_catalog_reset); a shipped row with the same id shows again.
 * `import --format skypilot FILE [--as-of DATE] [--cloud NAME]` reads a
 * SkyPilot catalog vms.csv: its prices refresh the offerings that
 * data/skypilot-map.csv maps its instance types to (a price overlay that
 * survives rebuilds), and the other GPU types become rows of your own
 * (cf_catalog_import_prices). */
#include <math.h>
#include <stddef.h>
#include <string.h>
#include "cli.h"
#include "opts.h"
#include "import_catalog.h"

typedef struct import_args {
    int remove, reset, catalog, builtin;
    const char *format, *as_of, *cloud;
} import_args;

static const cli_opt import_opts[] = {
    {.name = "remove", CLI_FLAG_AT(import_args, remove), .metavar = "ID...",
     .help = "remove the rows you imported with these ids (a shipped\n"
             "row with the same id shows again); an id you did not\n"
             "import is an error (exit 2) and nothing is removed"},
    {.name = "reset", CLI_FLAG_AT(import_args, reset),
     .help = "remove every row and price you imported"},
    {.name = "catalog", CLI_FLAG_AT(import_args, catalog), .metavar = "FILE",
     .help = "FILE is a catalog release file (a dated offerings CSV):\n"
             "it replaces the built-in catalog; your rows and prices\n"
             "stay (see clusterfit version)"},
    {.name = "builtin-catalog", CLI_FLAG_AT(import_args, builtin),
     .help = "remove the catalog release: back to the built-in one"},
    {.name = "format", CLI_STR_AT(import_args, format), .metavar = "F",
     .help = "skypilot: FILE is a SkyPilot catalog vms.csv\n"
             "(catalogs/v7/<cloud>/vms.csv); gcp-catalog: FILE is a\n"
             "page of GCP's Cloud Billing Catalog SKUs (JSON), whose\n"
             "GPU, vCPU and RAM SKUs price the machine types\n"
             "data/skypilot-map.csv describes. Prices refresh the\n"
             "offerings the map maps, other GPU types become rows\n"
             "of your own (CSV and JSON offerings are told by the\n"
             "file's name)"},
    {.name = "as-of", CLI_STR_AT(import_args, as_of), .metavar = "DATE",
     .help = "with --format: the date of the file's prices,\n"
             "YYYY-MM-DD (default today, $CLUSTERFIT_NOW)"},
    {.name = "cloud", CLI_STR_AT(import_args, cloud), .metavar = "NAME",
     .help = "with --format skypilot: the SkyPilot cloud (default:\n"
             "the folder holding FILE, e.g. aws)"},
    {.name = "help", .kind = CLI_HELP, .help = "this help"},
    {.kind = CLI_END},
};

static const cli_cmd import_cmd = {
    .cmd = "import",
    .usage = "Usage: clusterfit import FILE.csv|FILE.json\n"
             "       clusterfit import --format skypilot FILE [--as-of DATE] [--cloud NAME]\n"
             "       clusterfit import --format gcp-catalog FILE.json [--as-of DATE]\n"
             "       clusterfit import --remove ID [ID...]\n"
             "       clusterfit import --reset\n"
             "       clusterfit import --catalog FILE | --builtin-catalog\n"
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

/* The applied prices past CF_PRICE_CHANGE_WARN_PCT either way: a warning
 * line each, old -> new with their dates. */
static void print_large_changes(const json_t *s)
{
    const json_t *e;
    size_t i;
    json_array_foreach(json_object_get(s, "priced"), i, e) {
        const json_t *prev = json_object_get(e, "previous_price_on_demand_gpu_hr");
        if (!json_is_true(json_object_get(e, "large_change"))) continue;
        printf("warning: %s: on-demand price %.4g (%s) -> %.4g USD/GPU-h (%s), %+.0f %%; "
               "check the file (its date, its accelerator counts) before you rely on it\n",
               json_string_value(json_object_get(e, "id")), json_number_value(prev),
               json_string_value(json_object_get(e, "previous_price_as_of")),
               json_number_value(json_object_get(e, "price_on_demand_gpu_hr")),
               json_string_value(json_object_get(s, "as_of")),
               json_number_value(json_object_get(e, "change_pct")));
    }
}

/* The price import's summary (cf_catalog_import_prices) as text. */
static void print_prices(const json_t *s, const char *file, int as_of_given)
{
    const json_t *p = json_object_get(s, "priced"), *na = json_object_get(s, "not_applied");
    const json_t *ad = json_object_get(s, "added"), *sk = json_object_get(s, "skipped");
    const json_t *e, *names = json_object_get(sk, "unknown_names");
    size_t i;
    int gcp = strcmp(json_string_value(json_object_get(s, "format")), "gcp-catalog") == 0;
    printf("imported prices from %s\n(%s, cloud %s: %s), %zu %s; prices dated %s%s\n", file,
           gcp ? "Cloud Billing Catalog SKUs" : "SkyPilot catalog",
           json_string_value(json_object_get(s, "cloud")),
           json_string_value(json_object_get(s, "provider")),
           (size_t)json_integer_value(json_object_get(s, "rows")), gcp ? "SKUs" : "rows",
           json_string_value(json_object_get(s, "as_of")),
           as_of_given ? " (--as-of)" : " (today: give --as-of for the file's own date)");
    if (json_array_size(p))
        printf("priced %zu offering%s (price overlay, kept when the shipped catalog is rebuilt):\n",
               json_array_size(p), json_array_size(p) == 1 ? "" : "s");
    else
        printf("priced 0 offerings of the catalog (no type in the file maps to one%s)\n",
               json_array_size(na) ? " whose prices could be applied" : "");
    json_array_foreach(p, i, e) {
        double spot = json_number_value(json_object_get(e, "price_spot_gpu_hr"));
        printf("  %-26s %.4g USD/GPU-h on-demand (%s)", json_string_value(json_object_get(e, "id")),
               json_number_value(json_object_get(e, "price_on_demand_gpu_hr")),
               json_string_value(json_object_get(e, "region")));
        if (json_is_number(json_object_get(e, "price_spot_gpu_hr")))
            printf(", spot %.4g (%s)", spot, json_string_value(json_object_get(e, "spot_region")));
        printf("\n");
    }
    print_large_changes(s);
    if (json_array_size(na)) {
        printf("not applied to %zu mapped offering%s:\n", json_array_size(na),
               json_array_size(na) == 1 ? "" : "s");
        json_array_foreach(na, i, e)
            printf("  %-26s %s\n", json_string_value(json_object_get(e, "id")),
                   json_string_value(json_object_get(e, "reason")));
    }
    printf("added %zu offering%s of your own (instance types not in data/skypilot-map.csv; "
           "multi-node unknown)%s\n", json_array_size(ad), json_array_size(ad) == 1 ? "" : "s",
           json_array_size(ad) ? ":" : "");
    json_array_foreach(ad, i, e) {
        const json_t *od = json_object_get(e, "price_on_demand_gpu_hr");
        const json_t *cnt = json_object_get(e, "accelerator_count");
        char gpu[96];
        /* The map's accelerator name is known even where it does not say
         * the form factor (gpus.csv's name: the row's gpu stays unknown). */
        if (json_is_string(json_object_get(e, "gpu")))
            snprintf(gpu, sizeof gpu, "%s", json_string_value(json_object_get(e, "gpu")));
        else
            snprintf(gpu, sizeof gpu, "%s (form factor not stated)",
                     json_string_value(json_object_get(e, "accelerator")));
        if (json_is_number(cnt))
            snprintf(gpu + strlen(gpu), sizeof gpu - strlen(gpu), " x%.0f", json_number_value(cnt));
        printf("  %-34s %-11s ", json_string_value(json_object_get(e, "id")), gpu);
        if (json_is_number(od)) printf("%.4g USD/GPU-h on-demand\n", json_number_value(od));
        else printf("no on-demand price\n");
    }
    if (gcp) {
        printf("skipped: %lld SKU%s of no machine in data/skypilot-map.csv (gcp_machine), %lld GPU "
               "SKU%s of no mapped machine",
               (long long)json_integer_value(json_object_get(sk, "no_accelerator")),
               json_integer_value(json_object_get(sk, "no_accelerator")) == 1 ? "" : "s",
               (long long)json_integer_value(json_object_get(sk, "unknown_accelerator")),
               json_integer_value(json_object_get(sk, "unknown_accelerator")) == 1 ? "" : "s");
        json_array_foreach(names, i, e) printf("%s%s", i ? ", " : " (", json_string_value(e));
        printf("%s, %lld commitment SKU%s, %lld region%s missing a part\n",
               json_array_size(names) ? ")" : "",
               (long long)json_integer_value(json_object_get(sk, "unpriced_rows")),
               json_integer_value(json_object_get(sk, "unpriced_rows")) == 1 ? "" : "s",
               (long long)json_integer_value(json_object_get(sk, "host_without_gpu_row")),
               json_integer_value(json_object_get(sk, "host_without_gpu_row")) == 1 ? "" : "s");
    } else {
    printf("skipped: %lld row%s without an accelerator (CPU-only, or GCP host rows),\n"
           "  %lld accelerator row%s without an instance type, %lld row%s with an accelerator\n"
           "  outside data/gpus.csv", (long long)json_integer_value(json_object_get(sk, "no_accelerator")),
           json_integer_value(json_object_get(sk, "no_accelerator")) == 1 ? "" : "s",
           (long long)json_integer_value(json_object_get(sk, "accelerator_without_instance")),
           json_integer_value(json_object_get(sk, "accelerator_without_instance")) == 1 ? "" : "s",
           (long long)json_integer_value(json_object_get(sk, "unknown_accelerator")),
           json_integer_value(json_object_get(sk, "unknown_accelerator")) == 1 ? "" : "s");
    json_array_foreach(names, i, e) printf("%s%s", i ? ", " : " (", json_string_value(e));
    printf("%s, %lld row%s without any price\n", json_array_size(names) ? ")" : "",
           (long long)json_integer_value(json_object_get(sk, "unpriced_rows")),
           json_integer_value(json_object_get(sk, "unpriced_rows")) == 1 ? "" : "s");
    }
    if (json_integer_value(json_object_get(sk, "other_currency")))
        printf("skipped %lld SKU%s priced in another currency (prices are never converted)\n",
               (long long)json_integer_value(json_object_get(sk, "other_currency")),
               json_integer_value(json_object_get(sk, "other_currency")) == 1 ? "" : "s");
    if (gcp) return;
    if (json_integer_value(json_object_get(s, "host_rows_with_gpus")) ||
        json_integer_value(json_object_get(sk, "host_without_gpu_row")))
        printf("host rows priced with their GPUs' row of the same region (data/skypilot-map.csv "
               "host_gpus): %lld; without a GPU row in their region: %lld\n",
               (long long)json_integer_value(json_object_get(s, "host_rows_with_gpus")),
               (long long)json_integer_value(json_object_get(sk, "host_without_gpu_row")));
}

static int import_prices(const cli_ctx *ctx, const import_args *a, const char *file)
{
    cf_catalog *cat = NULL;
    cf_price_import_opts po;
    cf_price_format fmt;
    cf_error err;
    json_t *sum = NULL;
    char today[16];
    int rc;
    cf_status st;
    if (cf_price_format_parse(a->format, &fmt) != CF_OK)
        return cli_usage_error("import", "--format: expected %s, got \"%s\" (CSV and JSON "
                               "offerings are told by the file's name)", cf_price_format_accepted(),
                               a->format);
    if (cli_today(ctx, today, sizeof today) != 0)
        return cli_usage_error("import", "CLUSTERFIT_NOW: expected a date YYYY-MM-DD, got \"%s\"",
                               ctx->now ? ctx->now : "");
    memset(&po, 0, sizeof po);
    po.as_of = a->as_of ? a->as_of : today;
    po.today = today;
    po.cloud = a->cloud;
    rc = cli_open_catalog(ctx, "import", &cat);
    if (rc != EXIT_OK) return rc;
    cf_error_clear(&err);
    st = cf_catalog_import_prices_file(cat, file, fmt, &po, &sum, &err);
    cf_catalog_close(cat);
    if (st == CF_EINVAL && err.message[0]) {
        if (strcmp(err.param, "as_of") == 0)
            return cli_usage_error("import", "--as-of: %s", err.message + (strncmp(err.message, "as_of: ", 7) == 0 ? 7 : 0));
        return cli_usage_error("import", "%s", err.message);
    }
    if (st != CF_OK) {
        rc = cli_lib_error("import", st, &err);
        return st == CF_EIO ? EXIT_BAD_INPUT : rc;
    }
    print_prices(sum, file, a->as_of != NULL);
    json_decref(sum);
    return EXIT_OK;
}

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
    size_t removed = 0, prices = 0;
    int rc = cli_open_catalog(ctx, "import", &cat);
    cf_status st;
    if (rc != EXIT_OK) return rc;
    cf_error_clear(&err);
    st = cf_catalog_reset(cat, &removed, &prices, &err); /* one transaction: both or neither */
    cf_catalog_close(cat);
    if (st != CF_OK) return cli_lib_error("import", st, &err);
    printf("removed %zu offering%s you imported\n", removed, removed == 1 ? "" : "s");
    if (prices)
        printf("removed the imported prices of %zu offering%s (their shipped prices show again)\n",
               prices, prices == 1 ? "" : "s");
    return EXIT_OK;
}

int cmd_import(const cli_ctx *ctx, int argc, char **argv)
{
    import_args a = {0, 0, 0, 0, NULL, NULL, NULL};
    cf_catalog *cat = NULL;
    cf_import_opts io;
    cf_error err;
    char today[16];
    size_t n = 0;
    int first, rc;
    cf_status st;

    if ((first = cli_opts_parse(&import_cmd, argc, argv, &a, &rc)) < 0) return rc;
    if (a.remove && a.reset) return cli_usage_error("import", "--remove and --reset exclude each other");
    if (a.catalog + a.builtin + a.remove + a.reset + (a.format != NULL) > 1)
        return cli_usage_error("import", "--catalog, --builtin-catalog, --remove, --reset and "
                               "--format exclude each other");
    if (a.builtin)
        return first < argc ? cli_usage_error("import", "--builtin-catalog takes no argument; "
                                              "unexpected '%s'", argv[first])
                            : cli_builtin_catalog(ctx);
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
    if (a.format) return import_prices(ctx, &a, argv[first]);
    if (a.as_of || a.cloud)
        return cli_usage_error("import", "%s goes with --format skypilot or gcp-catalog", a.as_of ? "--as-of" : "--cloud");
    if (a.catalog) return cli_import_catalog(ctx, argv[first]);
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
