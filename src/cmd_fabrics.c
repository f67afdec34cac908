/* cmd_fabrics.c — `clusterfit fabrics`: is a better fabric worth it for my
 * job? One workload on one node type over each fabric family (ib, roce,
 * efa, tcpxo, tcpx, tcp) at the same NICs and line rate: step time, scaling
 * efficiency, time to train, and the worth premium, how many percent more
 * per GPU-hour each family may cost than the baseline before the whole job
 * costs more; and, as sold, each bundle the catalog sells with the GPU
 * (fabrics_sold_text.c prints them). A thin front end over cf_fabrics
 * (fabrics.h): every option goes through cf_fabrics_query_set as it is
 * parsed, the one parser POST /api/fabrics uses too; the catalog's
 * offerings are read here and handed over (q.offerings). */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "serve_cli.h"
#include "opts.h"
#include "table.h"
#include "textfmt.h"
#include "goodput_text.h"
#include "fabrics_sold_text.h"

#define CMD "fabrics"

typedef struct fabrics_args {
    const char *workload;
    cf_fabrics_query q;
    cli_format fmt;
} fabrics_args;

static int set_fab_opt(const char *cmd, const cli_opt *o, const char *arg, void *dst)
{
    char name[32];
    cf_error err;
    cf_error_clear(&err);
    if (cf_fabrics_query_set(dst, cli_lib_name(o->name, name, sizeof name), arg, &err) == CF_OK) return 0;
    cli_respell(&err);
    cli_param_error(cmd, &err);
    return -1;
}

#define FAB_OPT .kind = CLI_CALL, .off = CLI_OFF(fabrics_args, q, cf_fabrics_query), .set = set_fab_opt

static const cli_opt fabrics_opts[] = {
    {.name = "workload", CLI_STR_AT(fabrics_args, workload), .metavar = "W",
     .help = "preset or JSON workload file (required); presets:", .more = cf_workload_presets},
    {.name = "gpu", FAB_OPT, .metavar = "G", .help = "GPU model (required), data/gpus.csv names"},
    {.name = "gpus-per-node", FAB_OPT, .metavar = "K",
     .help = "GPUs per node (default: the GPU's usual node)"},
    {.name = "intra", FAB_OPT, .metavar = "L",
     .help = "intra-node link (default: the GPU's usual board)"},
    {.name = "nics", FAB_OPT, .metavar = "M", .help = "NICs per node and Gbit/s per NIC (default:\n"
             "the catalog's most common for the GPU)"},
    {.name = "nic-gbps", FAB_OPT, .metavar = "X", .join = 1},
    {.name = "non-blocking", FAB_OPT, .metavar = "CAP",
     .help = "ib/roce topology: yes, no or\n"
             "unknown (default; the model's assumption, flagged)"},
    {.name = "rail-optimized", FAB_OPT, .metavar = "CAP", .join = 1},
    {.name = "nodes", FAB_OPT, .metavar = "N", .help = "compare at N nodes, or"},
    {.name = "deadline", FAB_OPT, .metavar = "HOURS",
     .help = "each at its fewest nodes that train in time"},
    {.name = "margin", FAB_OPT, .metavar = "PCT",
     .help = "deadline margin, as plan's (default: the\n"
             "model's p90 error out of sample)"},
    {.name = "baseline", FAB_OPT, .metavar = "NET",
     .help = "premiums are measured against (default tcp)"},
    {.name = "format", CLI_FORMAT_AT(fabrics_args, fmt), .metavar = "F",
     .formats = FMT_TEXT | FMT_JSON, .help = "text (default) or json"},
    {.name = "help", .short_name = 'h', .kind = CLI_HELP, .help = "this help"},
    {.kind = CLI_END},
};

static const cli_cmd fabrics_cmd = {
    .cmd = CMD,
    .usage = "Usage: clusterfit fabrics --workload W --gpu G [--gpus-per-node K --intra L\n"
             "         --nics M --nic-gbps X] (--nodes N | --deadline HOURS [--margin PCT])\n"
             "         [--baseline NET] [--format text|json]\n"
             "Is a better fabric worth it for this job? As sold: each bundle the catalog\n"
             "sells with the GPU (family, NICs, line rate; the offerings that sell it and\n"
             "their cheapest price; rdma: RDMA, fabric not named, modelled as ib), and the\n"
             "USD per GPU-hour a renter may pay over the baseline bundle and break even.\n"
             "At equal line rate: step time, scaling\n"
             "efficiency and time to train over each fabric family (ib, roce, efa, tcpxo,\n"
             "tcpx, tcp) at the same NICs and line rate, and the worth premium: how many\n"
             "percent more per GPU-hour each may cost than the baseline before the whole\n"
             "job costs more (equal total cost: premium = T_baseline / T_fabric - 1; under\n"
             "--deadline, the same with GPU-hours, each family at its smallest node count\n"
             "of plan's list that meets the deadline). At each node count every fabric\n"
             "runs the global batch the search grows to there on ib: the same job.\n"
             "\n",
    .opts = fabrics_opts,
    .col = 24,
    .no_args = 1,
};

static double num(json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

/* Hours in the unit that reads best: "34.3 s", "12 min", "5.2 h", "12.3
 * d", "1.4 y" (plan's and scale's d and y). */
static const char *hours(char *buf, size_t cap, double h)
{
    if (isnan(h)) snprintf(buf, cap, "-");
    else if (h < 1.0 / 60) snprintf(buf, cap, "%.3g s", h * 3600);
    else if (h < 1) snprintf(buf, cap, "%.3g min", h * 60);
    else if (h < 48) snprintf(buf, cap, "%.3g h", h);
    else if (h < 24 * 730) snprintf(buf, cap, "%.1f d", h / 24);     /* plan's units: d, y */
    else snprintf(buf, cap, "%.1f y", h / (24 * 365.25));
    return buf;
}

/* The row's flags as the notes column shows them: the topology facts the
 * model assumes as "topology?", a row without result as its reason. */
static void flags_words(char *buf, size_t cap, json_t *flags)
{
    size_t i, n = 0;
    int topo = 0;
    json_t *f;
    buf[0] = '\0';
    json_array_foreach(flags, i, f) {
        const char *c = json_string_value(f), *words = NULL;
        if (!c || n >= cap) continue;
        if (strcmp(c, "does_not_fit") == 0) words = "does not fit";
        else if (strcmp(c, "deadline_missed") == 0) words = "too slow";
        else if (!topo) words = "topology?", topo = 1;
        if (words) n += (size_t)snprintf(buf + n, cap - n, "%s%s", n ? ", " : "", words);
    }
}

/* Whole numbers with separators from 1000 up, 3 significant digits below. */
static const char *amount(char *buf, size_t cap, double v)
{
    if (v < 1000) {
        snprintf(buf, cap, "%.3g", v);
        return buf;
    }
    return tf_thousands(buf, cap, v);
}

/* Decimals for the step column, the same down the column (7.372 above
 * 14.94 reads as two precisions): two, or enough that the shortest step
 * keeps three significant digits (an MPI stencil's steps are milliseconds). */
static int step_decimals(json_t *arr)
{
    double lo = INFINITY;
    size_t i;
    json_t *r;
    json_array_foreach(arr, i, r) {
        double v = num(r, "step_time_s");
        if (!isnan(v) && v > 0 && v < lo) lo = v;
    }
    if (!(lo < 1)) return 2;
    int d = 2 - (int)floor(log10(lo));
    return d > 9 ? 9 : d;
}

static const char *label_of(const char *name);

/* The batch line: every family runs the same global batch at a node count,
 * the one the search grows to there on the first family (ib); said once,
 * as the batch column alone does not say why. Nothing for a workload
 * without a batch (an MPI stencil). */
static void print_batch(FILE *out, json_t *doc)
{
    json_t *r0 = json_array_get(json_object_get(doc, "fabrics"), 0);
    json_t *b = json_object_get(r0, "global_batch_seqs"), *n = json_object_get(doc, "nodes");
    const char *first = label_of(json_string_value(json_object_get(r0, "network")));
    char line[512];
    if (!json_object_get(r0, "global_batch_seqs")) return;
    if (json_is_integer(n) && json_is_integer(b))
        snprintf(line, sizeof line, "batch: every fabric at the global batch of %ld sequences the "
                 "cluster grows to on %s at %ld node%s: the same job on each fabric.",
                 (long)json_integer_value(b), first, (long)json_integer_value(n),
                 json_integer_value(n) == 1 ? "" : "s");
    else
        snprintf(line, sizeof line, "batch: at each node count every fabric runs the global batch "
                 "the cluster grows to there on %s: the same job on each fabric.", first);
    tf_wrap(out, "", line, TF_WIDTH);
}

static int print_rows(FILE *out, json_t *doc)
{
    json_t *arr = json_object_get(doc, "fabrics"), *r;
    const char *base = json_string_value(json_object_get(doc, "baseline"));
    char head[48], buf[64];
    size_t i;
    int rc = EXIT_INTERNAL;
    table *t = table_new();
    int dec = step_decimals(arr);
    if (!t) return EXIT_INTERNAL;
    snprintf(head, sizeof head, "+%% vs %s", base ? base : "?");
    if (table_column(t, "fabric", TABLE_LEFT, 0, 6, 0) < 0 ||
        table_column(t, "nodes", TABLE_RIGHT, 0, 5, 0) < 0 ||
        table_column(t, "batch", TABLE_RIGHT, 0, 5, 0) < 0 ||
        table_column(t, "step s", TABLE_RIGHT, 0, 6, 0) < 0 ||
        table_column(t, "E", TABLE_RIGHT, 0, 4, 0) < 0 ||
        table_column(t, "to train", TABLE_RIGHT, 0, 8, 0) < 0 ||
        table_column(t, "GPU-hours", TABLE_RIGHT, 0, 9, 0) < 0 ||
        table_column(t, head, TABLE_RIGHT, 0, 10, 0) < 0 ||
        table_column(t, "notes", TABLE_LEFT, TABLE_SHRINK, 5, 0) < 0)
        goto done;
    json_array_foreach(arr, i, r) {
        const char *net = json_string_value(json_object_get(r, "network"));
        double st = num(r, "step_time_s"), e = num(r, "scaling_efficiency"), p = num(r, "worth_premium_pct");
        double gh = num(r, "gpu_hours");
        char notes[160];
        if (table_row(t) || table_cell(t, 0, net)) goto done;
        if (json_is_integer(json_object_get(r, "nodes"))
                ? table_cellf(t, 1, "%ld", (long)json_integer_value(json_object_get(r, "nodes")))
                : table_cell(t, 1, "-"))
            goto done;
        /* The global batch beside the step: a fabric whose layout grows
         * the batch (batch_max) has a longer step and fewer of them, so the
         * step alone does not compare fabrics; the time to train does. */
        if (json_is_integer(json_object_get(r, "global_batch_seqs"))
                ? table_cellf(t, 2, "%ld", (long)json_integer_value(json_object_get(r, "global_batch_seqs")))
                : table_cell(t, 2, "-"))
            goto done;
        if ((isnan(st) ? table_cell(t, 3, "-") : table_cellf(t, 3, "%.*f", dec, st)) ||
            (isnan(e) ? table_cell(t, 4, "-") : table_cellf(t, 4, "%.2f", e)) ||
            table_cell(t, 5, hours(buf, sizeof buf, num(r, "time_to_train_h"))) ||
            (isnan(gh) ? table_cell(t, 6, "-") : table_cell(t, 6, amount(buf, sizeof buf, gh))))
            goto done;
        if (net && base && strcmp(net, base) == 0 && !isnan(p)) {
            if (table_cell(t, 7, "baseline")) goto done;
        } else if (isnan(p) ? table_cell(t, 7, "-") : table_cellf(t, 7, "%+.1f %%", tf_nonneg_zero(p, 1))) {
            goto done;
        }
        flags_words(notes, sizeof notes, json_object_get(r, "flags"));
        if (table_cell(t, 8, notes[0] ? notes : "")) goto done;
    }
    if (table_print(t, out, TABLE_WIDTH) != 0) goto done;
    print_batch(out, doc);
    json_array_foreach(arr, i, r) {
        if (num(r, "scaling_efficiency") > CF_PLAN_E_NOTE_MIN) {
            fputs("E > 1: N0 needs memory savers (recompute, ZeRO, pipeline stages) that more\n"
                  "nodes make unnecessary; 'clusterfit scale' shows the layouts.\n", out);
            break;
        }
    }
    json_array_foreach(arr, i, r) {
        char notes[160];
        flags_words(notes, sizeof notes, json_object_get(r, "flags"));
        if (strstr(notes, "topology?")) {
            fputs("topology?: the model assumes a fact of the topology the fabric leaves unknown\n"
                  "(assumes: below).\n", out);
            break;
        }
    }
    rc = EXIT_OK;
done:
    table_free(t);
    return rc;
}

/* "InfiniBand" for "ib": the family's name in words. */
static const char *label_of(const char *name)
{
    cf_network n;
    if (!name || cf_network_parse(name, &n) != CF_OK) return name ? name : "?";
    return tf_net_label(n);
}

/* The first lines: the job and the node type every family shares. */
static void print_head(FILE *out, json_t *doc)
{
    json_t *r0 = json_array_get(json_object_get(doc, "fabrics"), 0);
    char line[600], when[160];
    if (json_is_integer(json_object_get(doc, "nodes")))
        snprintf(when, sizeof when, "on %ld node%s", (long)json_integer_value(json_object_get(doc, "nodes")),
                 json_integer_value(json_object_get(doc, "nodes")) == 1 ? "" : "s");
    else
        snprintf(when, sizeof when, "within %g h with a %g %% margin (each fabric on the fewest nodes "
                 "that meet it)", num(doc, "deadline_h"), num(doc, "margin_pct"));
    snprintf(line, sizeof line, "At equal line rate: %s %s: %ld x %s per node (%s), %ld x %g Gbit/s NICs per "
             "node on every fabric; E: scaling efficiency vs N0 = %ld node%s (the smallest that fits).",
             json_string_value(json_object_get(doc, "workload")), when,
             (long)json_integer_value(json_object_get(doc, "gpus_per_node")),
             json_string_value(json_object_get(doc, "gpu")),
             json_string_value(json_object_get(doc, "intra")),
             (long)json_integer_value(json_object_get(r0, "nics")), num(r0, "nic_gbps"),
             (long)json_integer_value(json_object_get(doc, "n0")),
             json_integer_value(json_object_get(doc, "n0")) == 1 ? "" : "s");
    tf_wrap(out, "", line, TF_WIDTH);
    fputc('\n', out);
}

/* The break-even sentence: the most each family may cost over the
 * baseline per GPU-hour, best first as the table orders nothing. */
static void print_break_even(FILE *out, json_t *doc)
{
    json_t *arr = json_object_get(doc, "fabrics"), *r, *best = NULL;
    const char *base = json_string_value(json_object_get(doc, "baseline"));
    int gpu_h = strcmp(json_string_value(json_object_get(doc, "premium_basis")), "gpu_hours") == 0;
    char line[1024], list[640];
    size_t i, n = 0;
    list[0] = '\0';
    json_array_foreach(arr, i, r) {
        const char *net = json_string_value(json_object_get(r, "network"));
        double p = num(r, "worth_premium_pct");
        if (!net || !base || strcmp(net, base) == 0 || isnan(p)) continue;
        if (!best || p > num(best, "worth_premium_pct")) best = r;
        if (n < sizeof list)
            n += (size_t)snprintf(list + n, sizeof list - n, "%s%s %+.1f %%", n ? ", " : "",
                                  label_of(net), tf_nonneg_zero(p, 1));
    }
    snprintf(line, sizeof line, "+%% vs %s, the worth premium: how many percent more per GPU-hour a "
             "fabric may cost than %s before the whole job costs more (equal total cost: %s).",
             base ? base : "?", label_of(base),
             gpu_h ? "GPU-hours on the baseline / GPU-hours on the fabric - 1"
                   : "T_baseline / T_fabric - 1");
    tf_wrap(out, "", line, TF_WIDTH);
    {
        json_t *e = json_object_get(doc, "error");
        snprintf(line, sizeof line, "p10-p90 of each time: x %.2f-%.2f, the model's error out of "
                 "sample (each row's in --format json); the fabrics share the step model, so "
                 "the premiums err less than the times.", num(e, "p10"), num(e, "p90"));
        tf_wrap(out, "", line, TF_WIDTH);
    }
    if (!best) {
        json_t *b = NULL;
        int missed = 0;
        json_array_foreach(arr, i, r)
            if (base && strcmp(json_string_value(json_object_get(r, "network")), base) == 0) b = r;
        json_array_foreach(json_object_get(b, "flags"), i, r)
            if (strcmp(json_string_value(r), "deadline_missed") == 0) missed = 1;
        if (missed)
            snprintf(line, sizeof line, "Break-even: %s cannot train within the deadline on any node "
                     "count of the list, so no premium is defined: every fabric that can is worth "
                     "what meeting the deadline is worth to you.", label_of(base));
        else
            snprintf(line, sizeof line, "Break-even: not computed, %s has no result here (see its "
                     "notes).", label_of(base));
    } else {
        double p = num(best, "worth_premium_pct");
        const char *bn = label_of(json_string_value(json_object_get(best, "network")));
        if (p > 0)
            snprintf(line, sizeof line, "Break-even: %s pays for itself up to %.1f %% more per GPU-hour "
                     "than %s for this job; any fabric is worth its price over %s while its premium "
                     "stays below its figure (%s).", bn, p, label_of(base), label_of(base), list);
        else
            snprintf(line, sizeof line, "Break-even: no fabric is worth more per GPU-hour than %s for "
                     "this job; each must cost at most this much more (negative: less) to break even: "
                     "%s.", label_of(base), list);
    }
    tf_wrap(out, "", line, TF_WIDTH);
}

/* The assumptions of the defaults and of the rows' flags. */
static void print_assumes(FILE *out, json_t *doc)
{
    json_t *a, *r, *f;
    size_t i, k;
    unsigned seen = 0;
    json_array_foreach(json_object_get(doc, "assumes"), i, a)
        tf_wrap(out, "assumes: ", json_string_value(a), TF_WIDTH);
    /* The goodput the times count, and what it rests on (goodput_text.c). */
    json_array_foreach(json_object_get(doc, "fabrics"), i, r) {
        char line[600];
        const json_t *d = json_object_get(r, "goodput_detail");
        if (!d || !goodput_text(line, sizeof line, r)[0]) continue;
        tf_wrap(out, "goodput: ", line, TF_WIDTH);
        tf_wrap(out, "assumes: ", json_string_value(json_object_get(d, "assumes")), TF_WIDTH);
        break;
    }
    json_array_foreach(json_object_get(doc, "fabrics"), i, r)
        json_array_foreach(json_object_get(r, "flags"), k, f) {
            const char *code = json_string_value(f);
            for (unsigned bit = 1; bit && code; bit <<= 1) {
                const char *c = cf_assumption_code(bit);
                if (!c) break;
                if (strcmp(c, code) == 0 && !(seen & bit)) {
                    seen |= bit;
                    tf_wrap(out, "assumes: ", cf_assumption_text(bit), TF_WIDTH);
                }
            }
        }
    json_array_foreach(json_object_get(doc, "fabrics"), i, r)
        json_array_foreach(json_object_get(r, "flags"), k, f) {
            const char *code = json_string_value(f);
            if (code && strcmp(code, "does_not_fit") == 0 && !(seen & 0x10000)) {
                seen |= 0x10000;
                tf_wrap(out, "", "does not fit: no layout fits in memory on that many nodes (does_not_fit).", TF_WIDTH);
            }
            if (code && strcmp(code, "deadline_missed") == 0 && !(seen & 0x20000)) {
                seen |= 0x20000;
                tf_wrap(out, "", "too slow: no node count of plan's ladder (N0, then 2^k and 3x2^(k-1) up to "
                        "16384 GPUs) trains within the deadline on that fabric (deadline_missed).", TF_WIDTH);
            }
        }
}

/* When no fabric meets the deadline: the shortest deadline one would meet,
 * the fastest time any family reaches on the ladder with the margin
 * (deadline_met_h of the library's rows), so the answer is not a dead end. */
static void print_shortest_deadline(FILE *out, json_t *doc)
{
    json_t *r, *best = NULL;
    size_t i;
    char line[400], t[32];
    json_array_foreach(json_object_get(doc, "fabrics"), i, r) {
        if (json_is_integer(json_object_get(r, "nodes"))) return;     /* one meets it */
        if (num(r, "deadline_met_h") > 0 && (!best || num(r, "deadline_met_h") < num(best, "deadline_met_h")))
            best = r;
    }
    if (!best) return;
    snprintf(line, sizeof line, "Every fabric is too slow for %g h. The fastest, %s, trains in %s on %lld "
             "nodes; with the %g %% margin it meets --deadline %.0f (h) or more.", num(doc, "deadline_h"),
             label_of(json_string_value(json_object_get(best, "network"))),
             hours(t, sizeof t, num(best, "fastest_time_to_train_h")),
             (long long)json_integer_value(json_object_get(best, "fastest_nodes")), num(doc, "margin_pct"),
             ceil(num(best, "deadline_met_h")));
    tf_wrap(out, "", line, TF_WIDTH);
}

/* The catalog's offerings, cheapest first (the bundles' ids in that
 * order), into *list for cf_fabrics' as-sold view. */
static int catalog_list(const cli_ctx *ctx, cf_offering_list *list)
{
    cf_catalog *cat = NULL;
    cf_filter f;
    cf_status st;
    int rc = cli_open_catalog(ctx, CMD, &cat);
    if (rc != EXIT_OK) return rc;
    cf_filter_init(&f);
    st = cf_catalog_query(cat, &f, CF_SORT_PRICE, list);
    if (st != CF_OK) {
        cf_error err;
        cf_error_clear(&err);
        snprintf(err.message, sizeof err.message, "%s", cf_catalog_note(cat));
        cf_catalog_close(cat);
        return cli_lib_error(CMD, st, &err);
    }
    cli_catalog_note(CMD, cat);
    cf_catalog_close(cat);
    return EXIT_OK;
}

int cmd_fabrics(const cli_ctx *ctx, int argc, char **argv)
{
    cf_offering_list list = {NULL, 0};
    fabrics_args a;
    cf_workload w;
    cf_error err;
    json_t *doc = NULL;
    cf_status st;
    int rc;
    memset(&a, 0, sizeof a);
    cf_fabrics_query_init(&a.q);
    a.fmt = FMT_TEXT;
    if (cli_opts_parse(&fabrics_cmd, argc, argv, &a, &rc) < 0) return rc;
    if (!a.workload) return cli_usage_error(CMD, "--workload is required (presets: %s)", cf_workload_presets());
    if (!a.q.node.gpu[0]) return cli_usage_error(CMD, "--gpu is required");
    cf_error_clear(&err);
    if ((st = cf_workload_load(a.workload, &w, &err)) != CF_OK) return cli_lib_error(CMD, st, &err);
    if (w.kind != CF_WL_SERVE && (a.q.nodes > 0) == !isnan(a.q.deadline_h))
        return cli_usage_error(CMD, "give either --nodes N or --deadline HOURS");
    if (w.kind != CF_WL_SERVE) {
        if ((rc = catalog_list(ctx, &list)) != EXIT_OK) return rc;
        a.q.offerings = &list;
    }
    st = cf_fabrics(&w, &a.q, &doc, &err);
    cf_offering_list_clear(&list);
    if (st != CF_OK) {
        cli_respell(&err);
        return st == CF_EINVAL && err.param[0] ? cli_param_error(CMD, &err) : cli_lib_error(CMD, st, &err);
    }
    if (a.fmt == FMT_JSON) return cli_print_json(doc);
    if (w.kind == CF_WL_SERVE) {
        rc = serve_cli_fabrics_text(stdout, doc);
        json_decref(doc);
        return rc;
    }
    print_head(stdout, doc);
    rc = print_rows(stdout, doc);
    if (rc == EXIT_OK) {
        print_break_even(stdout, doc);
        print_shortest_deadline(stdout, doc);
        if (fabrics_sold_text(stdout, doc) != 0) rc = EXIT_INTERNAL;
        print_assumes(stdout, doc);
        fabrics_sold_assumes(stdout, doc);
        if (ferror(stdout)) rc = EXIT_INTERNAL;
    }
    json_decref(doc);
    return rc;
}
