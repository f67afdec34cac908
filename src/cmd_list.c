/* cmd_list.c — `clusterfit list`: the offerings passing the filters of
 * DESIGN §6, sorted, as a table (fitted to 80 columns, or --wide), CSV (the
 * columns of data/offerings.csv, importable back) or JSON (an array of
 * offerings). Filters and sort keys are parsed by the library
 * (cf_filter_set, cf_sort_parse), as the server and `plan` parse them. */
#include <math.h>
#include <stddef.h>
#include <string.h>
#include <csv.h>
#include "cli.h"
#include "opts.h"
#include "table.h"

typedef struct list_args {
    cf_filter filter;
    cf_sort sort;
    int wide;
    cli_format fmt;
} list_args;

#define OFF(m) offsetof(list_args, m)

static int set_sort(const char *cmd, const cli_opt *o, const char *val, void *dst)
{
    (void)o;
    if (cf_sort_parse(val, dst) != CF_OK)
        return cli_usage_error(cmd, "--sort: expected one of %s, got \"%s\"", cf_sort_accepted(), val), -1;
    return 0;
}

/* The kind, offset and check of a filter option: the library's parser,
 * shared with `plan` and the server (cli_set_filter). */
#define FILTER CLI_FILTER_AT(list_args, filter)

static const cli_opt list_opts[] = {
    {.kind = CLI_SECTION, .help = "Filters:"},
    {.name = "multinode", FILTER, .metavar = "yes|no|any",
     .help = "rentable as an interconnected multi-node cluster"},
    {.name = "network", FILTER, .metavar = "N",
     .help = "fabric: ib (or infiniband), roce, efa, tcpx, tcpxo,\n"
             "tcp, rdma, none, unknown"},
    {.name = "gdr", FILTER, .metavar = "yes|no", .help = "GPUDirect RDMA available"},
    {.name = "rdma", FILTER, .metavar = "yes|no", .help = "RDMA between nodes"},
    {.name = "gpu", FILTER, .metavar = "G", .help = "GPU model, e.g. H100-SXM"},
    {.name = "min-gbps", FILTER, .metavar = "X",
     .help = "at least X Gbit/s of scale-out network per node"},
    {.name = "orchestration", FILTER, .metavar = "O[,O]",
     .help = "every one of slurm, kubernetes, vm, managed"},
    {.name = "provisioning", FILTER, .metavar = "P[,P]",
     .help = "every one of on-demand, spot, reserved, waitlist,\n"
             "flex (queued capacity such as DWS flex-start)"},
    {.name = "storage", FILTER, .metavar = "yes",
     .help = "shared storage (lustre, weka, vast, gpfs, nfs, object)"},
    {.name = "max-price", FILTER, .metavar = "X",
     .help = "on-demand price per GPU-hour at most X, in --currency\n"
             "(default USD; prices are never converted)"},
    {.name = "currency", FILTER, .metavar = "C",
     .help = "priced in currency C (ISO 4217, e.g. USD, EUR)"},
    {.name = "provider", FILTER, .metavar = "NAME", .help = "one provider (case-insensitive)"},
    {.name = "stale", FILTER, .metavar = "MONTHS",
     .help = "only rows dated more than MONTHS months before today\n"
             "(price_as_of where set, else as_of; $CLUSTERFIT_NOW)"},
    {.kind = CLI_SECTION, .help = "\nOutput:"},
    {.name = "sort", .kind = CLI_CALL, .metavar = "KEY", .off = OFF(sort), .set = set_sort,
     .help = "price (cheapest first, grouped by currency), gbps,\n"
             "gpus, max-cluster (largest first), provider (default),\n"
             "as-of (newest first); unknown values last"},
    {.name = "wide", CLI_FLAG_AT(list_args, wide),
     .help = "every column, nothing cut (default: fit 80 columns)"},
    {.name = "format", CLI_FORMAT_AT(list_args, fmt), .metavar = "F",
     .formats = FMT_TABLE | FMT_CSV | FMT_JSON,
     .help = "text (default), csv (the columns of\n"
             "data/offerings.csv) or json"},
    {.name = "help", .kind = CLI_HELP, .help = "this help"},
    {.kind = CLI_END},
};

static const cli_cmd list_cmd = {
    .cmd = "list",
    .usage = "Usage: clusterfit list [OPTIONS]\n"
             "List cluster offerings of the catalog (shipped and your imports), filtered\n"
             "and sorted. Unknown facts show as 'unknown' and never pass a filter.\n"
             "\n",
    .opts = list_opts,
    .col = 26,
    .no_args = 1,
};

/* Writes one CSV cell, quoted only when it must be (RFC 4180). A cell
 * starting with = + - @ TAB or CR, which a spreadsheet would run as a
 * formula, gets a leading "'" (OWASP's CSV-injection rule); `import` reads
 * it back without the quote. */
static int csv_cell(FILE *out, const char *s, int first)
{
    if (!first && fputc(',', out) == EOF) return -1;
    if (*s && strchr("=+-@\t\r", *s)) {
        size_t n = strlen(s);
        char *q = malloc(n + 2);
        int rc;
        if (!q) return -1;
        q[0] = '\'';
        memcpy(q + 1, s, n + 1);
        rc = csv_fwrite(out, q, n + 1) == 0 ? 0 : -1;
        free(q);
        return rc;
    }
    if (strpbrk(s, ",\"\r\n") || (s[0] == ' ') || (*s && s[strlen(s) - 1] == ' '))
        return csv_fwrite(out, s, strlen(s)) == 0 ? 0 : -1;
    return fputs(s, out) == EOF ? -1 : 0;
}

static int print_csv(const cf_offering_list *l)
{
    char *buf = malloc(CF_MAX_FIELD_BYTES * 2);
    int rc = 0;
    if (!buf) return EXIT_INTERNAL;
    for (int c = 0; c < CF_OFFERING_NCOLS && rc == 0; c++)
        rc = csv_cell(stdout, cf_offering_column_name(c), c == 0);
    if (fputc('\n', stdout) == EOF) rc = -1;
    for (size_t i = 0; i < l->n && rc == 0; i++) {
        for (int c = 0; c < CF_OFFERING_NCOLS && rc == 0; c++)
            rc = csv_cell(stdout,
                          cf_offering_column_text(&l->items[i], c, buf, CF_MAX_FIELD_BYTES * 2),
                          c == 0);
        if (fputc('\n', stdout) == EOF) rc = -1;
    }
    free(buf);
    return rc == 0 ? EXIT_OK : EXIT_INTERNAL;
}

static int print_json(const cf_offering_list *l)
{
    json_t *arr = json_array();
    for (size_t i = 0; arr && i < l->n; i++) {
        json_t *o = cf_offering_to_json(&l->items[i]);
        if (!o || json_array_append_new(arr, o) != 0) {
            json_decref(arr);
            arr = NULL;
        }
    }
    return cli_print_json(arr);
}

/* The date --stale judges a row by: price_as_of where set, else as_of. */
#define DATED_COL (-2)

/* The table's columns: header (with its unit), catalog column (-1: price
 * with currency), alignment, flags, minimum width, drop rank. */
static const struct list_col {
    const char *header;
    int col;
    int align;
    unsigned flags;
    int min_width, drop;
} list_cols[] = {
    /* The ID is the offering's only text in the fitted table and the key
     * `show` takes: cut (with a footnote) only as a last resort, once the
     * droppable columns (As of, GPUs, then GDR) are gone; the GPU, whose
     * name tells 40 from 80 GB, is never cut. */
    {"ID", 0, TABLE_LEFT, TABLE_SHRINK | TABLE_SHRINK_LAST, 20, 0},
    {"Provider", 1, TABLE_LEFT, TABLE_WIDE_ONLY, 0, 0},
    {"Offering", 2, TABLE_LEFT, TABLE_WIDE_ONLY, 0, 0},
    {"GPU", 3, TABLE_LEFT, 0, 0, 0},
    {"GPUs", 4, TABLE_RIGHT, 0, 0, 2},
    {"Mem GB", 5, TABLE_RIGHT, TABLE_WIDE_ONLY, 0, 0},
    {"Intra-node", 6, TABLE_LEFT, TABLE_WIDE_ONLY, 0, 0},
    {"Network", 7, TABLE_LEFT, 0, 0, 0},
    {"Gbit/s", 8, TABLE_RIGHT, 0, 0, 0},
    {"NICs", 9, TABLE_RIGHT, TABLE_WIDE_ONLY, 0, 0},
    {"RDMA", 10, TABLE_LEFT, TABLE_WIDE_ONLY, 0, 0},
    {"GDR", 11, TABLE_LEFT, 0, 0, 1},
    {"Non-blocking", 13, TABLE_LEFT, TABLE_WIDE_ONLY, 0, 0},
    {"Rail-opt", 14, TABLE_LEFT, TABLE_WIDE_ONLY, 0, 0},
    {"Max GPUs", 15, TABLE_RIGHT, TABLE_WIDE_ONLY, 0, 0},
    {"Multi-node", 25, TABLE_LEFT, TABLE_WIDE_ONLY, 0, 0},
    {"Orchestration", 16, TABLE_LEFT, TABLE_WIDE_ONLY, 0, 0},
    {"Provisioning", 17, TABLE_LEFT, TABLE_WIDE_ONLY, 0, 0},
    {"Min commit h", 18, TABLE_RIGHT, TABLE_WIDE_ONLY, 0, 0},
    {"Billing s", 19, TABLE_RIGHT, TABLE_WIDE_ONLY, 0, 0},
    {"Per GPU-h", 20, TABLE_RIGHT, 0, 0, 0},
    {"Reserved GPU-h", 21, TABLE_RIGHT, TABLE_WIDE_ONLY, 0, 0},
    {"Spot GPU-h", 30, TABLE_RIGHT, TABLE_WIDE_ONLY, 0, 0},
    {"Prices as of", 31, TABLE_LEFT, TABLE_WIDE_ONLY, 0, 0},
    {"In-net reduce", 29, TABLE_LEFT, TABLE_WIDE_ONLY, 0, 0},
    {"Storage", 23, TABLE_LEFT, TABLE_WIDE_ONLY, 0, 0},
    {"Regions", 24, TABLE_LEFT, TABLE_WIDE_ONLY, 0, 0},
    {"As of", 28, TABLE_LEFT, 0, 0, 3},
    {"Dated", DATED_COL, TABLE_LEFT, TABLE_WIDE_ONLY, 0, 0}, /* shown with --stale */
};

#define N_LIST_COLS (sizeof list_cols / sizeof list_cols[0])

static int add_row(table *t, const cf_offering *o)
{
    char buf[CF_MAX_FIELD_BYTES];
    if (table_row(t) != 0) return -1;
    for (size_t i = 0; i < N_LIST_COLS; i++) {
        int c = list_cols[i].col, rc;
        if (c == 20) {  /* the listed price: on-demand, else reserved (marked) */
            int reserved;
            double p = cf_offering_list_price(o, &reserved);
            if (isnan(p)) continue;
            rc = table_cellf(t, (int)i, "%.2f %s%s", p, o->currency ? o->currency : "?",
                             reserved ? "*" : "");
            if (rc != 0) return -1;
            continue;
        }
        if (c == DATED_COL) {
            const char *d = o->price_as_of ? o->price_as_of : o->as_of;
            if (d && table_cell(t, (int)i, d) != 0) return -1;
            continue;
        }
        if (cf_offering_column_unknown(o, c)) continue; /* prints "unknown" */
        cf_offering_column_text(o, c, buf, sizeof buf);
        if (c == 20 || c == 21 || c == 30) /* never without its currency; exact in csv/json */
            rc = table_cellf(t, (int)i, "%.2f %s", c == 20 ? o->price_on_demand_gpu_hr
                                                   : c == 21 ? o->price_reserved_gpu_hr
                                                             : o->price_spot_gpu_hr,
                             o->currency ? o->currency : "?");
        else
            rc = table_cell(t, (int)i, buf);
        if (rc != 0) return -1;
    }
    return 0;
}

/* The fitted table's columns by mode: with --stale the row's date shows
 * (and the As of column, GPUs, Gbit/s and GDR go to --wide, to keep 80 columns). */
static unsigned col_flags(size_t i, int stale)
{
    int c = list_cols[i].col;
    if (!stale) return list_cols[i].flags;
    if (c == DATED_COL) return 0;
    if (c == 28 || c == 8 || c == 11 || c == 4) return TABLE_WIDE_ONLY;
    return list_cols[i].flags;
}

static int print_table(const cf_offering_list *l, int wide, int stale, int by_provider)
{
    table *t = table_new();
    size_t user = 0, reserved_only = 0;
    int rc = t ? 0 : -1, id_cut;
    for (size_t i = 0; i < N_LIST_COLS && rc == 0; i++)
        rc = table_column(t, list_cols[i].header, list_cols[i].align, col_flags(i, stale),
                          list_cols[i].min_width, list_cols[i].drop) < 0 ? -1 : 0;
    for (size_t i = 0; i < l->n && rc == 0; i++) {
        int r;
        /* Sorted by provider (the default): a heading per provider, so the
         * order reads as sorted (--wide has a Provider column instead). */
        if (by_provider && !wide &&
            (i == 0 || strcmp(l->items[i].provider, l->items[i - 1].provider) != 0)) {
            char head[160];
            snprintf(head, sizeof head, "== %s ==", l->items[i].provider);
            rc = table_group(t, head);
            if (rc != 0) break;
        }
        rc = add_row(t, &l->items[i]);
        user += l->items[i].user_row != 0;
        (void)cf_offering_list_price(&l->items[i], &r);
        reserved_only += r != 0;
    }
    if (rc == 0 && l->n == 0) {
        table_free(t);
        fprintf(stderr, "clusterfit list: no offering matches these filters\n");
        return EXIT_OK;
    }
    id_cut = rc == 0 && !wide && table_cut(t, TABLE_WIDTH, 0);
    if (rc == 0) rc = table_print(t, stdout, wide ? 0 : TABLE_WIDTH);
    table_free(t);
    if (rc != 0) return EXIT_INTERNAL;
    if (user)
        printf("%zu offering%s (%zu of them imported by you)\n", l->n, l->n == 1 ? "" : "s", user);
    else
        printf("%zu offering%s\n", l->n, l->n == 1 ? "" : "s");
    if (reserved_only)
        printf("*: reserved price; the offering states no on-demand price\n");
    if (id_cut)
        printf("\xe2\x80\xa6: an ID cut to fit %d columns; --wide (or --format csv) shows it whole\n",
               TABLE_WIDTH);
    if (stale)
        printf("Dated: the date each row is judged by (price_as_of where set, else as_of)\n");
    return EXIT_OK;
}

int cmd_list(const cli_ctx *ctx, int argc, char **argv)
{
    list_args a;
    int rc;
    cf_catalog *cat = NULL;
    cf_offering_list l = {NULL, 0};
    cf_status st;
    char today[16];

    cf_filter_init(&a.filter);
    a.sort = CF_SORT_PROVIDER;
    a.wide = 0;
    a.fmt = FMT_TABLE;
    if (cli_opts_parse(&list_cmd, argc, argv, &a, &rc) < 0) return rc;
    if (a.filter.stale_months > 0) { /* --stale counts months back from today */
        if (cli_today(ctx, today, sizeof today) != 0)
            return cli_usage_error("list", "CLUSTERFIT_NOW: expected a date YYYY-MM-DD, got \"%s\"",
                                   ctx->now ? ctx->now : "");
        a.filter.today = today;
    }
    rc = cli_open_catalog(ctx, "list", &cat);
    if (rc != EXIT_OK) return rc;
    st = cf_catalog_query(cat, &a.filter, a.sort, &l);
    if (st != CF_OK) {
        rc = cli_catalog_error("list", cat, st);
        cf_catalog_close(cat);
        return rc;
    }
    cli_catalog_note("list", cat);
    switch (a.fmt) {
    case FMT_CSV: rc = print_csv(&l); break;
    case FMT_JSON: rc = print_json(&l); break;
    default:
        rc = print_table(&l, a.wide, a.filter.stale_months > 0, a.sort == CF_SORT_PROVIDER);
        break;
    }
    cf_offering_list_clear(&l);
    cf_catalog_close(cat);
    return rc;
}
