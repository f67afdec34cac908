/* cmd_providers.c — `clusterfit providers`: one line per provider, with how
 * many offerings it has, how many rent as multi-node clusters, the fabrics
 * of those multi-node offerings, and the fabric families of all its
 * offerings (a single-node pod's tcp is not a cluster fabric, so the two are
 * shown apart), and how old its facts are: the oldest date of its rows and
 * how many are stale (dated more than --stale months before today, 6 by
 * default; price_as_of where set, else as_of). The library builds the JSON
 * (cf_catalog_providers_at); the table is drawn from that JSON. */
#include <stddef.h>
#include <string.h>
#include "cli.h"
#include "opts.h"
#include "table.h"

typedef struct providers_args {
    cli_format fmt;
    cf_filter filter;   /* only its stale_months: --stale through the library's parser */
    int wide;
} providers_args;

static const cli_opt providers_opts[] = {
    {.name = "format", CLI_FORMAT_AT(providers_args, fmt), .metavar = "F",
     .formats = FMT_TABLE | FMT_JSON,
     .help = "text (default) or json ([{provider, offerings,\n"
             "multinode_offerings, networks[], multinode_networks[],\n"
             "oldest_as_of, stale_rows, stale_before}])"},
    /* The library's parser, as `list --stale` and the API's (issue 21:
     * "+5" was taken here and refused there). */
    {.name = "stale", CLI_FILTER_AT(providers_args, filter), .metavar = "MONTHS",
     .help = "a row is stale when dated more than MONTHS months\n"
             "before today (default 6; $CLUSTERFIT_NOW)"},
    {.name = "wide", CLI_FLAG_AT(providers_args, wide),
     .help = "every column, nothing cut (default: fit 80 columns)"},
    {.name = "help", .kind = CLI_HELP, .help = "this help"},
    {.kind = CLI_END},
};

static const cli_cmd providers_cmd = {
    .cmd = "providers",
    .usage = "Usage: clusterfit providers [--stale MONTHS] [--wide] [--format text|json]\n"
             "One line per provider: offerings, multi-node offerings, the fabrics of the\n"
             "multi-node offerings (\"unknown\" when no source states them; \"-\" when\n"
             "there are none), the fabrics of all its offerings, the oldest date of its\n"
             "rows and how many are stale (price_as_of where set, else as_of).\n"
             "\n",
    .opts = providers_opts,
    .col = 18,
    .no_args = 1,
};

/* The names of a JSON array of strings, ", "-joined, into buf. */
static void join_names(const json_t *a, char *buf, size_t n)
{
    size_t k;
    json_t *e;
    buf[0] = '\0';
    json_array_foreach(a, k, e)
        snprintf(buf + strlen(buf), n - strlen(buf), "%s%s", k ? ", " : "", json_string_value(e));
}

/* The rating column: the tier first ("Platinum, ClusterMAX 2.0,
 * 2025-11-06"), so the 80-column table, which cuts the cell, keeps the tier;
 * "-" for none. */
static const char *rating_cell(json_t *p, char *buf, size_t n)
{
    const json_t *r = json_object_get(p, "rating");
    const char *tier = json_string_value(json_object_get(r, "tier"));
    const char *sys = json_string_value(json_object_get(r, "system"));
    const char *date = json_string_value(json_object_get(r, "date"));
    if (!tier) return "-";
    snprintf(buf, n, "%s%s%s%s%s", tier, sys ? ", " : "", sys ? sys : "", date ? ", " : "", date ? date : "");
    return buf;
}

/* The terms column: the provisioning a renter meets before any offering
 * (sales contact, waitlist), "-" when the provider table states neither. */
static const char *terms_cell(json_t *p)
{
    int sales = 0, wait = 0;
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(p, "provisioning"), i, v) {
        const char *s = json_string_value(v);
        sales |= s && strcmp(s, "sales-contact") == 0;
        wait |= s && strcmp(s, "waitlist") == 0;
    }
    return sales && wait ? "sales-contact, waitlist" : sales ? "sales-contact"
           : wait ? "waitlist" : "-";
}

static int print_table(json_t *arr, long months, int wide)
{
    table *t = table_new();
    size_t i, total = 0, multi = 0, stale = 0, stale_providers = 0;
    const char *cutoff = NULL, *oldest = NULL;
    json_t *p;
    int rc = t ? 0 : -1;
    if (rc == 0 && (table_column(t, "Provider", TABLE_LEFT, TABLE_SHRINK, 16, 0) < 0 ||
                    table_column(t, "Offerings", TABLE_RIGHT, 0, 0, 0) < 0 ||
                    /* "MN", the legend under the table: the whole words
                     * took the width Stale needs (a header is never cut) */
                    table_column(t, "MN", TABLE_RIGHT, 0, 0, 0) < 0 ||
                    table_column(t, "MN fabrics", TABLE_LEFT, TABLE_SHRINK, 10, 0) < 0 ||
                    table_column(t, "Networks", TABLE_LEFT, TABLE_SHRINK, 10, 3) < 0 ||
                    table_column(t, "Oldest", TABLE_LEFT, 0, 0, 2) < 0 ||
                    table_column(t, "Stale", TABLE_RIGHT, 0, 0, 1) < 0 ||
                    table_column(t, "Rating", TABLE_LEFT, TABLE_SHRINK, 8, 0) < 0 ||
                    table_column(t, "Terms", TABLE_LEFT, TABLE_SHRINK, 8, 0) < 0))
        rc = -1;
    json_array_foreach(arr, i, p) {
        char nets[256], mnets[256], rating[128];
        long long n_multi = (long long)json_integer_value(json_object_get(p, "multinode_offerings"));
        long long n_stale = (long long)json_integer_value(json_object_get(p, "stale_rows"));
        const char *old = json_string_value(json_object_get(p, "oldest_as_of"));
        if (rc != 0) break;
        join_names(json_object_get(p, "networks"), nets, sizeof nets);
        join_names(json_object_get(p, "multinode_networks"), mnets, sizeof mnets);
        /* No multi-node offering: nothing to show; some, with no fabric
         * stated: unknown, the catalog's word for a missing fact. */
        if (!mnets[0]) snprintf(mnets, sizeof mnets, "%s", n_multi > 0 ? "unknown" : "-");
        total += (size_t)json_integer_value(json_object_get(p, "offerings"));
        multi += (size_t)n_multi;
        stale += (size_t)n_stale;
        stale_providers += n_stale > 0;
        cutoff = json_string_value(json_object_get(p, "stale_before"));
        if (old && (!oldest || strcmp(old, oldest) < 0)) oldest = old;
        if (table_row(t) != 0 ||
            table_cell(t, 0, json_string_value(json_object_get(p, "provider"))) != 0 ||
            table_cellf(t, 1, "%lld", (long long)json_integer_value(json_object_get(p, "offerings"))) != 0 ||
            table_cellf(t, 2, "%lld", n_multi) != 0 || table_cell(t, 3, mnets) != 0 ||
            (nets[0] && table_cell(t, 4, nets) != 0) || (old && table_cell(t, 5, old) != 0) ||
            table_cellf(t, 6, "%lld", n_stale) != 0 ||
            table_cell(t, 7, rating_cell(p, rating, sizeof rating)) != 0 || table_cell(t, 8, terms_cell(p)) != 0)
            rc = -1;
    }
    if (rc == 0) rc = table_print(t, stdout, wide ? 0 : TABLE_WIDTH);
    table_free(t);
    if (rc != 0) return EXIT_INTERNAL;
    printf("MN: multi-node (rented as an interconnected cluster): offerings, fabrics\n");
    printf("%zu provider%s, %zu offering%s, %zu of them multi-node\n", json_array_size(arr),
           json_array_size(arr) == 1 ? "" : "s", total, total == 1 ? "" : "s", multi);
    if (cutoff)
        printf("%zu stale offering%s (%zu provider%s): dated before %s, %ld month%s ago\n"
               "(price_as_of where set, else as_of); the oldest %s\n", stale,
               stale == 1 ? "" : "s", stale_providers, stale_providers == 1 ? "" : "s",
               cutoff, months, months == 1 ? "" : "s", oldest ? oldest : "unknown");
    return EXIT_OK;
}

/* Where the shipped rows come from (cf_catalog_info, issue 26): the
 * built-in catalog or a catalog release file, with its date and source. */
static void print_origin(const json_t *info)
{
    const char *date = json_string_value(json_object_get(info, "date"));
    if (strcmp(json_string_value(json_object_get(info, "origin")), "release") == 0)
        printf("catalog: release %s (%lld rows) from %s\n", date,
               (long long)json_integer_value(json_object_get(info, "rows")),
               json_string_value(json_object_get(info, "source")));
    else
        printf("catalog: built-in, %lld rows, newest as_of %s\n",
               (long long)json_integer_value(json_object_get(info, "rows")), date ? date : "unknown");
}

int cmd_providers(const cli_ctx *ctx, int argc, char **argv)
{
    providers_args a;
    cf_catalog *cat = NULL;
    json_t *arr = NULL, *info = NULL;
    char today[16];
    int rc;
    cf_status st;
    long months;

    memset(&a, 0, sizeof a);
    a.fmt = FMT_TABLE;
    cf_filter_init(&a.filter);
    if (cli_opts_parse(&providers_cmd, argc, argv, &a, &rc) < 0) return rc;
    if (cli_today(ctx, today, sizeof today) != 0)
        return cli_usage_error("providers", "CLUSTERFIT_NOW: expected a date YYYY-MM-DD, got \"%s\"",
                               ctx->now ? ctx->now : "");
    rc = cli_open_catalog(ctx, "providers", &cat);
    if (rc != EXIT_OK) return rc;
    months = a.filter.stale_months > 0 ? a.filter.stale_months : CF_STALE_MONTHS_DEFAULT;
    st = cf_catalog_providers_at(cat, today, months, &arr);
    if (st == CF_OK && a.fmt != FMT_JSON) st = cf_catalog_info(cat, &info);
    cf_catalog_close(cat);
    if (st != CF_OK) {
        json_decref(arr);
        return cli_lib_error("providers", st, NULL);
    }
    if (a.fmt == FMT_JSON) return cli_print_json(arr);
    rc = print_table(arr, months, a.wide);
    if (rc == EXIT_OK) print_origin(info);
    json_decref(arr);
    json_decref(info);
    return rc;
}
