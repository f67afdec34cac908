/* cmd_scale.c — `clusterfit scale`: the scaling-efficiency curve of a workload
 * on one offering (DESIGN §6): per node count the fastest layout that fits,
 * its step time, throughput, E relative to the smallest cluster that fits,
 * and the job's cost. A thin front end over cf_scale(). */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "serve_cli.h"
#include "opts.h"
#include "table.h"
#include "textfmt.h"
#include "goodput_text.h"

/* "1,2,4" -> counts; usage error on anything else. */
static int parse_nodes(const char *s, int *out, size_t cap, size_t *n)
{
    char buf[32];
    *n = 0;
    while (*s) {
        size_t len = strcspn(s, ",");
        long v;
        if (len == 0)
            return cli_usage_error("scale", "--nodes: an empty count in \"%s\" (counts are separated by "
                                   "one ',')", s), -1;
        if (len >= sizeof buf || *n == cap)
            return cli_usage_error("scale", "--nodes expects up to %zu comma-separated counts", cap), -1;
        memcpy(buf, s, len);
        buf[len] = '\0';
        if (cli_parse_int("scale", "--nodes", buf, 1, CF_MAX_NODES, &v)) return -1;
        out[(*n)++] = (int)v;
        s += len;
        /* "2," is refused, as ",2" and "2,,4" are (issue 21: a trailing
         * comma was taken as the end of the list). */
        if (*s == ',' && !*++s)
            return cli_usage_error("scale", "--nodes: an empty count after the last ','"), -1;
    }
    if (*n == 0) return cli_usage_error("scale", "--nodes expects at least one count"), -1;
    return 0;
}

typedef struct scale_args {
    const char *workload, *offering;
    struct scale_nodes {
        int n[CF_MAX_PLAN_NODE_COUNTS];
        size_t count;           /* 0 = not given */
    } nodes;
    cli_format fmt;
    cf_goodput_opts g;      /* --mtbf-gpu-h, --ckpt-interval (goodput.h) */
    int no_failures;        /* --no-failures given */
} scale_args;

#define OFF(m) offsetof(scale_args, m)

static int set_nodes(const char *cmd, const cli_opt *o, const char *val, void *dst)
{
    struct scale_nodes *nd = dst;
    (void)cmd;
    (void)o;
    return parse_nodes(val, nd->n, CF_MAX_PLAN_NODE_COUNTS, &nd->count);
}

static const cli_opt scale_opts[] = {
    {.name = "workload", CLI_STR_AT(scale_args, workload), .metavar = "W",
     .help = "preset name or JSON file (required)"},
    {.name = "offering", CLI_STR_AT(scale_args, offering), .metavar = "ID",
     .help = "catalog offering id (required)"},
    {.name = "nodes", .kind = CLI_CALL, .metavar = "LIST", .off = OFF(nodes), .set = set_nodes,
     .help = "comma-separated node counts (default: the smallest that\n"
             "fits, then powers of two up to the largest cluster)"},
    {.name = "no-failures", CLI_FLAG_AT(scale_args, no_failures),
     .help = "steady state: no interruption, checkpoint or input stall"},
    {.name = "mtbf-gpu-h", .kind = CLI_CALL, .off = CLI_OFF(scale_args, g, cf_goodput_opts),
     .set = goodput_set_opt, .metavar = "H",
     .help = "GPU-hours between unexpected interruptions"},
    {.name = "ckpt-interval", .kind = CLI_CALL, .off = CLI_OFF(scale_args, g, cf_goodput_opts),
     .set = goodput_set_opt, .metavar = "S",
     .help = "seconds between checkpoints (default: Young/Daly)"},
    {.name = "format", CLI_FORMAT_AT(scale_args, fmt), .metavar = "F",
     .formats = FMT_TABLE | FMT_JSON, .help = "text (default) or json"},
    {.name = "help", .kind = CLI_HELP, .help = "this help"},
    {.kind = CLI_END},
};

static const cli_cmd scale_cmd = {
    .cmd = "scale",
    .usage = "Usage: clusterfit scale --workload W --offering ID [--nodes 1,2,4,...]\n"
             "         [--format text|json]\n"
             "Scaling curve of a workload on one offering: step time, throughput, scaling\n"
             "efficiency (vs the smallest node count that fits) and job cost per node count.\n"
             "\n",
    .opts = scale_opts,
    .col = 19,
    .no_args = 1,
};

static const char *unit_of(const cf_workload *w)
{
    switch (w->kind) {
    case CF_WL_LLM: return "tokens/s";
    case CF_WL_DATA_PARALLEL: return "samples/s";
    case CF_WL_STENCIL: return "iter/s";
    default: return "tasks/s";
    }
}

/* Whole numbers with thousands separators ("1,234,567") from 1000 up;
 * below, `small` decimals, or 3 significant digits under 10 (0.00328, 7.56). */
static const char *grouped(char *buf, size_t cap, double v, int small)
{
    if (v < 10) {
        snprintf(buf, cap, "%.3g", v);
        return buf;
    }
    if (v < 1000) {
        snprintf(buf, cap, "%.*f", small, v);
        return buf;
    }
    return tf_thousands(buf, cap, v);
}

static double num_of(json_t *r, const char *k)
{
    json_t *v = json_object_get(r, k);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

/* "TP4 PP2v2 DP2 Z3 full-rc": the layout column (ZeRO stage and recompute
 * only when used). */
static void layout_cell(char *buf, size_t cap, json_t *l, int llm)
{
    long tp = (long)json_integer_value(json_object_get(l, "tp"));
    long pp = (long)json_integer_value(json_object_get(l, "pp"));
    long vp = (long)json_integer_value(json_object_get(l, "vp"));
    long cp = (long)json_integer_value(json_object_get(l, "cp"));
    long dp = (long)json_integer_value(json_object_get(l, "dp"));
    long ep = (long)json_integer_value(json_object_get(l, "ep"));
    long etp = (long)json_integer_value(json_object_get(l, "etp"));
    long zero = (long)json_integer_value(json_object_get(l, "zero"));
    const char *rc = json_string_value(json_object_get(l, "recompute"));
    size_t n = 0;
#define PUT(...) do { if (n < cap) n += (size_t)snprintf(buf + n, cap - n, __VA_ARGS__); } while (0)
    buf[0] = '\0';
    if (llm && tp > 1) PUT("TP%ld ", tp);
    if (llm && pp > 1) PUT("PP%ld%s ", pp, vp > 1 ? "v2" : "");
    if (llm && cp > 1) PUT("CP%ld ", cp);
    if (llm && ep > 1) PUT("EP%ld ", ep);
    if (llm && etp > 1) PUT("ETP%ld ", etp);
    if (json_is_null(json_object_get(l, "dp")))   /* MPI ranks (stencil) */
        PUT("%ld ranks", (long)json_integer_value(json_object_get(l, "ranks")));
    else
        PUT("DP%ld", dp);
    if (llm && zero > 0) PUT(" Z%ld", zero);
    if (llm && rc && strcmp(rc, "none") != 0) PUT(" %s-rc", strcmp(rc, "selective") == 0 ? "sel" : rc);
#undef PUT
}

/* The goodput each row's time counts (goodput_text.c), then what it rests
 * on, once (the same storage and rates on every row). */
static void print_goodput(FILE *out, json_t *arr)
{
    size_t i;
    json_t *r;
    const char *a = NULL;
    json_array_foreach(arr, i, r) {
        char line[600], lead[32];
        if (!goodput_text(line, sizeof line, r)[0]) continue;
        snprintf(lead, sizeof lead, "goodput, %lld nodes: ",
                 (long long)json_integer_value(json_object_get(r, "nodes")));
        tf_wrap(out, lead, line, TF_WIDTH);
        a = json_string_value(json_object_get(json_object_get(r, "goodput_detail"), "assumes"));
    }
    if (a) tf_wrap(out, "assumes: ", a, TF_WIDTH);
    /* a row slower to train than the one before: goodput or layout */
    json_array_foreach(arr, i, r) {
        const char *t = json_string_value(json_object_get(json_object_get(r, "time_note"), "text"));
        if (t) tf_wrap(out, "time: ", t, TF_WIDTH);
    }
}

/* What the model assumes on the offering's fabric (the rows' flags), one
 * "assumes:" line each. */
static void print_assumes(FILE *out, json_t *arr, const cf_offering *o)
{
    unsigned seen = 0;
    size_t i, k;
    json_t *r, *f;
    int single = 0;
    json_array_foreach(arr, i, r)
        json_array_foreach(json_object_get(r, "flags"), k, f) {
            if (json_string_value(f) && strcmp(json_string_value(f), "network_unknown") == 0) single = 1;
            for (unsigned bit = 1; bit && cf_assumption_code(bit); bit <<= 1)
                if (!(seen & bit) && json_string_value(f) &&
                    strcmp(json_string_value(f), cf_assumption_code(bit)) == 0) {
                    seen |= bit;
                    tf_wrap(out, "assumes: ", cf_assumption_text(bit), TF_WIDTH);
                }
        }
    if (single && o->network != CF_NET_UNKNOWN) {
        char line[320];
        snprintf(line, sizeof line, "one node only: the offering states its %s network but not its "
                 "Gbit/s per node (network_gbps_per_node unknown), so no larger cluster is modelled; "
                 "--nodes N asks for N nodes and says why it cannot", cf_network_name(o->network));
        tf_wrap(out, "note: ", line, TF_WIDTH);
    } else if (single)
        tf_wrap(out, "note: ", "one node only: the offering does not state its network or its line rate "
                "(network_unknown), so no larger cluster is modelled; --nodes N asks for N nodes and "
                "says why it cannot", TF_WIDTH);
}

/* The band the library set on each row (time_to_train_h_p10/_p90), as
 * the factors of the first row that has one. */
static void band_legend(FILE *out, json_t *arr)
{
    size_t i;
    json_t *r;
    char line[256];
    json_array_foreach(arr, i, r) {
        double t = num_of(r, "time_to_train_h"), lo = num_of(r, "time_to_train_h_p10"),
               hi = num_of(r, "time_to_train_h_p90");
        if (!(t > 0) || isnan(lo) || isnan(hi)) continue;
        snprintf(line, sizeof line, "p10-p90 of every time and cost: x %.2f-%.2f, the model's error "
                 "out of sample: the p10 and p90 of measured / predicted time on sources the model "
                 "was never fitted on (each row's in --format json).", lo / t, hi / t);
        tf_wrap(out, "", line, TF_WIDTH);
        return;
    }
}

/* What the columns mean, with N0 and its throughput (the first row's). */
static void legend(FILE *out, json_t *arr, const cf_workload *w)
{
    json_t *r0 = json_array_get(arr, 0);
    double n0 = num_of(r0, "n0"), thr0 = num_of(r0, "n0_throughput");
    char line[768], b0[64];
    if (!isnan(n0) && !isnan(thr0))
        snprintf(line, sizeof line, "Per node count the fastest layout that fits in memory. E: scaling "
                 "efficiency, throughput per GPU relative to N0 = %.0f node%s (the smallest cluster "
                 "that fits: %s %s); C: E with memory taken out (the fastest layouts without the "
                 "memory limit, against the best per GPU on N0 up to this count: communication and "
                 "bubbles alone, never above 1); both fractions, 1 = perfect (the parallel "
                 "efficiency P is in --format json); E = C x memory relief, what N0's memory "
                 "savers (and its GPU count's layouts) cost, won back with more nodes: an E above 1 "
                 "is that relief, never scaling better than linear. Time and cost: the whole job.", n0, n0 == 1 ? "" : "s",
                 grouped(b0, sizeof b0, thr0, 1), unit_of(w));
    else
        snprintf(line, sizeof line, "Per node count the fastest layout that fits in memory. E: scaling "
                 "efficiency relative to the smallest cluster that fits (none here); C: E with memory "
                 "taken out; both fractions, 1 = perfect (the parallel efficiency P is in --format "
                 "json). Time and cost: the whole job.");
    tf_wrap(out, "", line, TF_WIDTH);
    band_legend(out, arr);
    fputc('\n', out);
}

/* The footnote of the row b with the highest E above CF_PLAN_E_NOTE_MIN:
 * its scaling note, then its E as C times the memory relief, so that an E
 * above 1 is never read as super-linear scaling ("not 174 % scaling"). */
static void why_e_above_one(FILE *out, json_t *b)
{
    const char *note = json_string_value(json_object_get(json_object_get(b, "scaling_note"), "text"));
    char line[600];
    if (!note) return;
    snprintf(line, sizeof line, "Why E > 1: %s", note);
    tf_wrap(out, "", line, TF_WIDTH);
    if (isnan(num_of(b, "memory_relief"))) return;
    snprintf(line, sizeof line, "E %.2f = C %.2f (communication and bubbles) x memory relief %.2f: "
             "not %.0f %% scaling.", num_of(b, "scaling_efficiency"), num_of(b, "comm_efficiency"),
             num_of(b, "memory_relief"), 100 * num_of(b, "scaling_efficiency"));
    tf_wrap(out, "", line, TF_WIDTH);
}

static int print_table(FILE *out, json_t *arr, const cf_workload *w, const cf_offering *o)
{
    size_t i, best = (size_t)-1, missing = 0;
    json_t *r;
    double best_e = CF_PLAN_E_NOTE_MIN;
    const char *cur = o->currency ? o->currency : "unknown currency";
    char head[32], cost_head[32], net[96], buf[64];
    int llm = w->kind == CF_WL_LLM, rc;
    table *t = table_new();
    if (!t) return EXIT_INTERNAL;
    if (o->network == CF_NET_NONE)
        snprintf(net, sizeof net, "no network between nodes");
    else if (o->network == CF_NET_UNKNOWN || isnan(o->network_gbps_per_node))
        snprintf(net, sizeof net, "%s network, Gbit/s unknown", tf_net_label(o->network));
    else
        snprintf(net, sizeof net, "%.0f Gbit/s %s per node", o->network_gbps_per_node,
                 tf_net_label(o->network));
    {
        char line[512];
        snprintf(line, sizeof line, "Scaling of %s on %s (%s %s): %ld x %s per node, %s.", w->name,
                 o->id, o->provider ? o->provider : "unknown provider", o->offering ? o->offering : "",
                 o->gpus_per_node, o->gpu ? o->gpu : "unknown GPU", net);
        tf_wrap(out, "", line, TF_WIDTH);
    }
    legend(out, arr, w);
    snprintf(head, sizeof head, "%s", unit_of(w));
    snprintf(cost_head, sizeof cost_head, "cost %s", cur);
    if (table_column(t, "nodes", TABLE_RIGHT, 0, 5, 0) < 0 ||
        table_column(t, head, TABLE_RIGHT, 0, 8, 0) < 0 ||
        table_column(t, "time", TABLE_RIGHT, 0, 6, 0) < 0 ||
        table_column(t, "E", TABLE_RIGHT, 0, 4, 0) < 0 ||
        table_column(t, "C", TABLE_RIGHT, 0, 4, 0) < 0 ||
        table_column(t, cost_head, TABLE_RIGHT, 0, 8, 0) < 0 ||
        table_column(t, "layout", TABLE_LEFT, TABLE_SHRINK, 12, 0) < 0)
        goto fail;
    json_array_foreach(arr, i, r) {
        double e = num_of(r, "scaling_efficiency"), st = num_of(r, "step_time_s");
        json_t *lay = json_object_get(r, "layout");
        if (table_row(t) || table_cellf(t, 0, "%ld", (long)json_integer_value(json_object_get(r, "nodes"))))
            goto fail;
        if (isnan(st)) {
            missing++;
            if (table_cell(t, 1, "-") || table_cell(t, 2, "-") || table_cell(t, 3, "-") ||
                table_cell(t, 4, "-") || table_cell(t, 5, "-") ||
                table_cell(t, 6, json_string_value(json_object_get(r, "unfit_reason"))))
                goto fail;
            continue;
        }
        /* The step time stays in the JSON: with a batch that grows with the
         * cluster, the time to train is what compares across rows. */
        if (table_cell(t, 1, grouped(buf, sizeof buf, num_of(r, "throughput"), 1)) ||
            table_cell(t, 2, tf_hours(buf, sizeof buf, num_of(r, "time_to_train_h"))) ||
            (isnan(e) ? table_cell(t, 3, NULL) : table_cellf(t, 3, "%.2f", e)) ||
            (isnan(num_of(r, "comm_efficiency")) ? table_cell(t, 4, NULL)
                                                 : table_cellf(t, 4, "%.2f", num_of(r, "comm_efficiency"))) ||
            table_cell(t, 5, isnan(num_of(r, "cost")) ? NULL : grouped(buf, sizeof buf, num_of(r, "cost"), 2)))
            goto fail;
        layout_cell(buf, sizeof buf, lay, llm);
        if (table_cell(t, 6, buf)) goto fail;
        if (e > best_e && json_is_object(json_object_get(r, "scaling_note"))) {
            best_e = e;
            best = i;
        }
    }
    if (table_print(t, out, TABLE_WIDTH) != 0) goto fail;
    if (table_cut(t, TABLE_WIDTH, 6)) {   /* a layout is never lost to the cut (issue 23) */
        fputs("layouts in full (the column above is cut at 80 columns):\n", out);
        json_array_foreach(arr, i, r) {
            char lead[32];
            if (isnan(num_of(r, "step_time_s"))) continue;
            layout_cell(buf, sizeof buf, json_object_get(r, "layout"), llm);
            snprintf(lead, sizeof lead, "  %5ld nodes: ",
                     (long)json_integer_value(json_object_get(r, "nodes")));
            tf_wrap(out, lead, buf, TF_WIDTH);
        }
    }
    if (llm) {
        /* ETP is named only when a row shows it (etp > 1). */
        int etp = 0;
        json_array_foreach(arr, i, r)
            etp |= json_integer_value(json_object_get(json_object_get(r, "layout"), "etp")) > 1;
        fputs(etp ? "layout: TP, PP (v2 = interleaved), CP, EP (experts), ETP (expert tensor\n"
                    "parallel), DP degrees;\n"
                  : "layout: TP, PP (v2 = interleaved), CP, EP (experts), DP degrees;\n", out);
        fputs("Zn = ZeRO stage n; full-rc / sel-rc = full / selective activation recompute.\n", out);
    }
    if (missing)
        fputs("- : no layout of the search space at that many nodes; the layout column says why\n"
              "    (memory, or a global batch smaller than the data-parallel ranks).\n", out);
    print_assumes(out, arr, o);
    print_goodput(out, arr);
    if (best != (size_t)-1) why_e_above_one(out, json_array_get(arr, best));
    rc = ferror(out) ? EXIT_INTERNAL : EXIT_OK;
    table_free(t);
    return rc;
fail:
    table_free(t);
    return EXIT_INTERNAL;
}

int cmd_scale(const cli_ctx *ctx, int argc, char **argv)
{
    scale_args a;
    const char *workload, *id;
    int rc;
    cf_workload w;
    cf_catalog *cat = NULL;
    cf_offering *o = NULL;
    cf_error err;
    json_t *arr = NULL;
    cf_status st;

    memset(&a, 0, sizeof a);
    a.fmt = FMT_TABLE;
    cf_goodput_opts_init(&a.g);
    if (cli_opts_parse(&scale_cmd, argc, argv, &a, &rc) < 0) return rc;
    a.g.no_failures = a.no_failures;
    workload = a.workload;
    id = a.offering;
    if (!workload || !id) return cli_usage_error("scale", "--workload and --offering are required");
    cf_error_clear(&err);
    if ((st = cf_workload_load(workload, &w, &err)) != CF_OK) return cli_lib_error("scale", st, &err);
    if ((rc = cli_open_catalog(ctx, "scale", &cat)) != EXIT_OK) return rc;
    st = cf_catalog_get(cat, id, &o);
    if (st != CF_OK && st != CF_ENOTFOUND) {
        rc = cli_catalog_error("scale", cat, st);
        cf_catalog_close(cat);
        return rc;
    }
    if (st == CF_ENOTFOUND) cli_catalog_note("scale", cat);
    cf_catalog_close(cat);
    if (st == CF_ENOTFOUND) {
        fprintf(stderr, "clusterfit scale: no offering '%s' (see 'clusterfit list')\n", id);
        return EXIT_USAGE;
    }
    if (w.kind == CF_WL_SERVE)
        st = cf_serve_scale(o, &w, NULL, a.nodes.count ? a.nodes.n : NULL, a.nodes.count, &arr, &err);
    else
        st = cf_scale_goodput(o, &w, a.nodes.count ? a.nodes.n : NULL, a.nodes.count, &a.g, &arr, &err);
    if (st != CF_OK) {
        rc = cli_lib_error("scale", st, &err);
    } else if (a.fmt == FMT_JSON) {
        rc = cli_print_json(arr);
        arr = NULL;
    } else if (w.kind == CF_WL_SERVE) {
        rc = serve_cli_scale_table(stdout, arr, &w, o);
    } else {
        rc = print_table(stdout, arr, &w, o);
    }
    json_decref(arr);
    cf_offering_free(o);
    return rc;
}
