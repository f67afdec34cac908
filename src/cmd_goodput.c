/* cmd_goodput.c — `clusterfit goodput`: for one workload on one offering at
 * one node count, where the time to train goes besides the steady steps:
 * checkpoint stalls, work lost at interruptions, restarts, input reads, and
 * what each rests on (docs/goodput.md). A thin front end over
 * cf_scale_goodput (the layout the search picks at that count) and, with
 * --validate, cf_goodput_validate (the published runs). */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "opts.h"
#include "textfmt.h"
#include "goodput_text.h"

typedef struct goodput_args {
    const char *workload, *offering;
    long nodes;
    cf_goodput_opts g;
    int no_failures;        /* --no-failures given */
    int ckpt_async;         /* --ckpt-async given */
    int validate;           /* --validate given */
    cli_format fmt;
} goodput_args;

#define GP_OPT .kind = CLI_CALL, .off = CLI_OFF(goodput_args, g, cf_goodput_opts), .set = goodput_set_opt

static const cli_opt goodput_opts[] = {
    {.name = "workload", CLI_STR_AT(goodput_args, workload), .metavar = "W",
     .help = "preset name or JSON file (required)"},
    {.name = "offering", CLI_STR_AT(goodput_args, offering), .metavar = "ID",
     .help = "catalog offering id (required)"},
    {.name = "nodes", CLI_LONG_AT(goodput_args, nodes), .metavar = "N", .min = 1,
     .max = CF_MAX_NODES, .help = "node count (required)"},
    {.name = "mtbf-gpu-h", GP_OPT, .metavar = "H",
     .help = "GPU-hours between unexpected interruptions"},
    {.name = "ckpt-interval", GP_OPT, .metavar = "S",
     .help = "seconds between checkpoints (default: Young/Daly)"},
    {.name = "ckpt-async", CLI_FLAG_AT(goodput_args, ckpt_async),
     .help = "asynchronous checkpoints (the stall is the copy to host)"},
    {.name = "storage", GP_OPT, .metavar = "CLASS",
     .help = "storage class instead of the offering's: nfs, lustre,\n"
             "gpfs, vast, weka, object, local-nvme"},
    {.name = "no-failures", CLI_FLAG_AT(goodput_args, no_failures),
     .help = "steady state: no interruption or checkpoint"},
    {.name = "validate", CLI_FLAG_AT(goodput_args, validate),
     .help = "compare the model with Meta's published runs instead"},
    {.name = "format", CLI_FORMAT_AT(goodput_args, fmt), .metavar = "F",
     .formats = FMT_TABLE | FMT_JSON, .help = "text (default) or json"},
    {.name = "help", .kind = CLI_HELP, .help = "this help"},
    {.kind = CLI_END},
};

static const cli_cmd goodput_cmd = {
    .cmd = "goodput",
    .usage = "Usage: clusterfit goodput --workload W --offering ID --nodes N [options]\n"
             "       clusterfit goodput --validate [--format json]\n"
             "Where the time to train goes on a rented cluster: steady steps, checkpoint\n"
             "stalls, work lost at interruptions, restarts and input reads, each with what\n"
             "it assumes (docs/goodput.md).\n"
             "\n",
    .opts = goodput_opts,
    .col = 22,
    .no_args = 1,
};

static double num(const json_t *o, const char *k)
{
    const json_t *v = json_object_get(o, k);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

static void part(FILE *out, const char *what, double h, double steady)
{
    char t[32];
    fprintf(out, "  %-28s %10s  %6.1f %%\n", what, tf_hours(t, sizeof t, h), 100 * h / steady);
}

/* The input-read line, its figures adding up (issue 23: "3.2 available"
 * beside "12.5 GB/s per node, 51.2 GB/s in all" read as a contradiction):
 * what the step needs per node, and what each node gets, the smaller of
 * its own read rate and its share of the file system's aggregate; GB/s. */
static void input_line(char *line, size_t cap, const json_t *in, long nodes)
{
    double need = num(in, "read_need_GBps_per_node"), have = num(in, "read_have_GBps_per_node");
    double node = num(in, "read_node_GBps"), agg = num(in, "read_aggregate_GBps");
    const char *binds = json_is_true(json_object_get(in, "binds")) ? "binds" : "does not bind";
    if (isfinite(agg) && nodes > 0 && agg / (double)nodes < node)
        snprintf(line, cap, "input reads: %.3g GB/s per node needed; %.3g GB/s per node available "
                 "(the file system's %.3g GB/s read in all / %ld nodes, under the node's own %.3g "
                 "GB/s): %s", need, have, agg, nodes, node, binds);
    else
        snprintf(line, cap, "input reads: %.3g GB/s per node needed; %.3g GB/s per node available "
                 "(the node's own read rate%s): %s", need, have,
                 isfinite(agg) ? "; the file system's aggregate does not cap it" : "; no aggregate cap", binds);
}

static int print_breakdown(FILE *out, const json_t *row, const cf_workload *w, const char *id)
{
    const json_t *d = json_object_get(row, "goodput_detail");
    const json_t *b = json_object_get(d, "breakdown"), *c = json_object_get(d, "checkpoint");
    const json_t *f = json_object_get(d, "failures"), *in = json_object_get(d, "data");
    double s = num(b, "steady_h");
    char t[32], line[600];
    if (!d) {
        fprintf(out, "%s on %s at %ld nodes: %s\n", w->name, id, (long)num(row, "nodes"),
                json_string_value(json_object_get(row, "unfit_reason")) ? json_string_value(json_object_get(row, "unfit_reason")) : "nothing fits");
        return EXIT_OK;
    }
    fprintf(out, "%s on %s, %ld nodes: goodput %.3f\n", w->name, id, (long)num(row, "nodes"),
            num(row, "goodput"));
    fprintf(out, "  %-28s %10s  %8s\n", "", "hours", "of steady");
    part(out, "steady steps", s, s);
    part(out, "checkpoint stalls", num(b, "ckpt_stall_h"), s);
    part(out, "work lost at interruptions", num(b, "lost_work_h"), s);
    part(out, "restarts", num(b, "restart_h"), s);
    part(out, "input reads", num(b, "data_stall_h"), s);
    fprintf(out, "  %-28s %10s\n", "time to train", tf_hours(t, sizeof t, num(row, "time_to_train_h")));
    snprintf(line, sizeof line, "checkpoint: %.3g GB, written in %.0f s, stall %.1f s (%s), every "
             "%.0f s (%s); load on restart %.0f s", num(c, "bytes") / 1e9, num(c, "write_s"),
             num(c, "stall_s"), json_is_true(json_object_get(c, "async")) ? "asynchronous" : "synchronous",
             num(c, "interval_s"), json_string_value(json_object_get(c, "interval_from")),
             num(c, "load_s"));
    tf_wrap(out, "  ", line, TF_WIDTH);
    snprintf(line, sizeof line, "failures: one per %.4g GPU-hours, one per %.3g h for the job, "
             "%.*f interruptions expected, restart %.0f s each", num(f, "mtbf_gpu_h"),
             num(f, "job_mtbf_h"), goodput_count_prec(num(f, "interruptions")), num(f, "interruptions"), num(f, "restart_s"));
    tf_wrap(out, "  ", line, TF_WIDTH);
    input_line(line, sizeof line, in, (long)num(row, "nodes"));
    tf_wrap(out, "  ", line, TF_WIDTH);
    tf_wrap(out, "  assumes: ", json_string_value(json_object_get(d, "assumes")), TF_WIDTH);
    return ferror(out) ? EXIT_INTERNAL : EXIT_OK;
}

static int print_validation(FILE *out, const json_t *arr)
{
    size_t i;
    const json_t *r;
    fprintf(out, "%-22s %12s %12s %12s %9s\n", "run", "published", "steady", "with goodput", "gap");
    json_array_foreach(arr, i, r) {
        /* a gap of two fractions is in percentage points, of GPU-hours in
         * percent of the published figure (issue 23) */
        int pp = json_is_number(json_object_get(r, "gap_pp"));
        fprintf(out, "%-22s %12.4g %12.4g %12.4g %+6.1f %s\n",
                json_string_value(json_object_get(r, "run")), num(r, "published"),
                num(r, "steady"), num(r, "with_goodput"), num(r, pp ? "gap_pp" : "gap_pct"), pp ? "pp" : "%");
        tf_wrap(out, "  ", json_string_value(json_object_get(r, "note")), TF_WIDTH);
    }
    return ferror(out) ? EXIT_INTERNAL : EXIT_OK;
}

static int run_validate(const goodput_args *a)
{
    json_t *arr = NULL;
    cf_error err;
    cf_status st;
    int rc;
    cf_error_clear(&err);
    if ((st = cf_goodput_validate(&arr, &err)) != CF_OK) return cli_lib_error("goodput", st, &err);
    if (a->fmt == FMT_JSON) return cli_print_json(arr);
    rc = print_validation(stdout, arr);
    json_decref(arr);
    return rc;
}

static int load_offering(const cli_ctx *ctx, const char *id, cf_offering **o)
{
    cf_catalog *cat = NULL;
    int rc;
    cf_status st;
    if ((rc = cli_open_catalog(ctx, "goodput", &cat)) != EXIT_OK) return rc;
    st = cf_catalog_get(cat, id, o);
    if (st != CF_OK && st != CF_ENOTFOUND) {
        rc = cli_catalog_error("goodput", cat, st);
        cf_catalog_close(cat);
        return rc;
    }
    if (st == CF_ENOTFOUND) cli_catalog_note("goodput", cat);
    cf_catalog_close(cat);
    if (st == CF_ENOTFOUND) {
        fprintf(stderr, "clusterfit goodput: no offering '%s' (see 'clusterfit list')\n", id);
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

int cmd_goodput(const cli_ctx *ctx, int argc, char **argv)
{
    goodput_args a;
    cf_workload w;
    cf_offering *o = NULL;
    cf_error err;
    json_t *arr = NULL;
    cf_status st;
    int rc, nodes;

    memset(&a, 0, sizeof a);
    cf_goodput_opts_init(&a.g);
    a.fmt = FMT_TABLE;
    if (cli_opts_parse(&goodput_cmd, argc, argv, &a, &rc) < 0) return rc;
    if (a.validate) return run_validate(&a);
    if (!a.workload || !a.offering || a.nodes < 1)
        return cli_usage_error("goodput", "--workload, --offering and --nodes are required");
    a.g.no_failures = a.no_failures;
    if (a.ckpt_async) a.g.ckpt_async = 1;
    cf_error_clear(&err);
    if ((st = cf_workload_load(a.workload, &w, &err)) != CF_OK) return cli_lib_error("goodput", st, &err);
    if ((rc = load_offering(ctx, a.offering, &o)) != EXIT_OK) return rc;
    nodes = (int)a.nodes;
    st = cf_scale_goodput(o, &w, &nodes, 1, &a.g, &arr, &err);
    if (st != CF_OK) {
        cli_respell(&err);
        rc = cli_lib_error("goodput", st, &err);
    } else if (a.fmt == FMT_JSON) {
        rc = cli_print_json(json_incref(json_array_get(arr, 0)));
    } else {
        rc = print_breakdown(stdout, json_array_get(arr, 0), &w, a.offering);
    }
    json_decref(arr);
    cf_offering_free(o);
    return rc;
}
