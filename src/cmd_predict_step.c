/* cmd_predict_step.c — `clusterfit predict step`: time, throughput and
 * memory of one training step of a workload with a parallel layout on an
 * offering or on a fabric given by flags (DESIGN.md §4.3, §6). A thin front
 * end over cf_workload_load and cf_step_predict. It also says whether the
 * layout fits in the GPU's memory: memory_per_gpu_gib against
 * cf_gpu_usable_gib (the vendor's GB, 10^9 B, DESIGN §2, in GiB), the one
 * usable figure that `fit` and `plan` use too. */
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <string.h>
#include "cli.h"
#include "fabric_opts.h"
#include "opts.h"
#include "textfmt.h"

#define CMD "predict step"

/* The layout's flags are strings until cf_layout_set reads them: the
 * library holds their bounds (limits.h) and their reasons. */
typedef struct step_args {
    const char *workload;
    const char *tp, *pp, *dp;   /* NULL = not given (required) */
    const char *cp, *vp, *micro_batch, *zero, *recompute; /* NULL = the layout's default */
    const char *ep, *etp;       /* expert (tensor) parallel; NULL = 1 */
    int no_sp, tp_overlap;
    cli_fabric_opts fo;
    cli_format fmt;
} step_args;

static const cli_opt step_opts[] = {
    {.name = "workload", CLI_STR_AT(step_args, workload), .metavar = "W",
     .help = "preset or JSON workload file (required); presets:", .more = cf_workload_presets},
    {.name = "tp", CLI_STR_AT(step_args, tp), .metavar = "T",
     .help = "tensor, pipeline, data parallel degrees (required)"},
    {.name = "pp", CLI_STR_AT(step_args, pp), .metavar = "P", .join = 1},
    {.name = "dp", CLI_STR_AT(step_args, dp), .metavar = "D", .join = 1},
    {.name = "cp", CLI_STR_AT(step_args, cp), .metavar = "C",
     .help = "context parallel degree (default 1)"},
    {.name = "ep", CLI_STR_AT(step_args, ep), .metavar = "E",
     .help = "expert parallel degree of an MoE workload (default 1)"},
    {.name = "etp", CLI_STR_AT(step_args, etp), .metavar = "E",
     .help = "expert tensor parallel degree (default 1)"},
    {.name = "vp", CLI_STR_AT(step_args, vp), .metavar = "V",
     .help = "interleaved pipeline chunks per stage (default 1)"},
    {.name = "micro-batch", CLI_STR_AT(step_args, micro_batch), .metavar = "M",
     .help = "sequences per micro-batch (default 1)"},
    {.name = "zero", CLI_STR_AT(step_args, zero), .metavar = "Z",
     .help = "ZeRO stage 0-3 (default 0)"},
    {.name = "recompute", CLI_STR_AT(step_args, recompute), .metavar = "R",
     .help = "none (default), selective, full"},
    {.name = "no-sequence-parallel", CLI_FLAG_AT(step_args, no_sp),
     .help = "turn off sequence parallelism under TP"},
    {.name = "tp-overlap", CLI_FLAG_AT(step_args, tp_overlap),
     .help = "overlap TP communication with compute"},
    {.name = "offering", CLI_STR_AT(step_args, fo.offering), .metavar = "ID",
     .help = "take the fabric from the catalog offering ID"},
    {.name = "gpu", CLI_STR_AT(step_args, fo.gpu), .metavar = "G",
     .help = "the fabric by hand, as for predict collective"},
    {.name = "gpus-per-node", CLI_STR_AT(step_args, fo.gpus_per_node), .metavar = "K", .join = 1},
    {.name = "intra", CLI_STR_AT(step_args, fo.intra), .metavar = "L", .join = 1},
    {.name = "network", CLI_STR_AT(step_args, fo.network), .metavar = "NET", .join = 1},
    {.name = "nics", CLI_STR_AT(step_args, fo.nics), .metavar = "M", .join = 1},
    {.name = "nic-gbps", CLI_STR_AT(step_args, fo.nic_gbps), .metavar = "X", .join = 1},
    {.name = "gdr", CLI_STR_AT(step_args, fo.gdr), .metavar = "STATE", .join = 1},
    {.name = "non-blocking", CLI_STR_AT(step_args, fo.non_blocking), .metavar = "CAP",
     .help = "yes, no or unknown\n(default unknown, flagged)"},
    {.name = "rail-optimized", CLI_STR_AT(step_args, fo.rail_optimized), .metavar = "CAP",
     .join = 1},
    {.name = "format", CLI_FORMAT_AT(step_args, fmt), .metavar = "F",
     .formats = FMT_TEXT | FMT_JSON, .help = "text (default) or json"},
    {.name = "help", .kind = CLI_HELP, .help = "this help"},
    {.kind = CLI_END},
};

static const cli_cmd step_cmd = {
    .cmd = CMD,
    .usage = "Usage: clusterfit predict step --workload W --tp T --pp P --dp D [--cp C]\n"
             "         [--ep E] [--etp E] [--vp V] [--micro-batch M] [--zero 0|1|2|3]\n"
             "         [--recompute none|selective|full] [--no-sequence-parallel]\n"
             "         [--tp-overlap] (--offering ID | --gpu G --gpus-per-node K\n"
             "         --intra L --network NET --nics M --nic-gbps X [--gdr STATE]\n"
             "         [--non-blocking yes|no|unknown] [--rail-optimized yes|no|unknown])\n"
             "         [--format text|json]\n"
             "Predicts one training step (or stencil iteration, or whole embarrassingly\n"
             "parallel job) of workload W. Nodes = tp*pp*dp*cp / gpus-per-node; one node\n"
             "needs no network. Output: step_time_s, tflops_per_gpu, mfu, tokens_per_s\n"
             "(samples, cell updates or tasks per second for other kinds),\n"
             "tokens_per_s_per_gpu, memory_per_gpu_gib, fits_memory (against the GPU's\n"
             "vendor GB, 10^9 bytes, in GiB), parallel_efficiency (ideal over predicted\n"
             "step time, 0-1), the breakdown of the step time and flags (facts of the\n"
             "fabric the model assumes: non_blocking_unknown, rail_optimized_unknown).\n"
             "\n",
    .opts = step_opts,
    .col = 26,
    .no_args = 1,
};

/* "tokens/s" for LLMs; the unit of work of the other kinds. */
static const char *rate_unit(const cf_workload *w)
{
    switch (w->kind) {
    case CF_WL_LLM: return "tokens/s";
    case CF_WL_DATA_PARALLEL: return "samples/s";
    case CF_WL_STENCIL: return "cell updates/s";
    default: return "tasks/s";
    }
}

/* A rate with thousands separators from 1000 up, else 4 significant digits. */
static const char *rate(char *buf, size_t cap, double v)
{
    if (!(v >= 1000) || v >= 1e9) {
        snprintf(buf, cap, "%.4g", v);
        return buf;
    }
    return tf_thousands(buf, cap, v);
}

/* Decimals that give v four significant digits (0 from 1000 s up, at most
 * 9): the precision the step time is printed in. */
static int decimals4(double v)
{
    if (!(v > 0) || !isfinite(v)) return 3;
    int d = 3 - (int)floor(log10(v));
    return d < 0 ? 0 : d > 9 ? 9 : d;
}

static void print_text(const cf_workload *w, const cf_layout *l, int nodes, const cf_fabric *fab,
                       const cf_step_result *r, double avail)
{
    char lay[160], a[64], b[64];
    const cf_step_breakdown *k = &r->breakdown;
    int dec = decimals4(r->step_time_s);
    cf_layout_words(lay, sizeof lay, l, w->kind);
    printf("%s on %d node%s of %d x %s (%ld GPUs)\n", w->name, nodes, nodes == 1 ? "" : "s",
           fab->gpus_per_node, fab->gpu, (long)nodes * fab->gpus_per_node);
    printf("%-21s%s", "layout", lay);
    if (w->kind == CF_WL_LLM)
        printf("\n%-21smicro-batch %d%s%s", "", l->micro_batch,
               l->tp > 1 ? (l->sequence_parallel ? ", sequence parallel" : ", no sequence parallel") : "",
               l->tp > 1 && l->tp_comm_overlap ? ", TP overlap" : "");
    printf("\n");
    printf("%-21s%.*f s", w->kind == CF_WL_EMBARRASSING ? "job time" : "step time", dec, r->step_time_s);
    if (r->step_time_s >= 2 * 86400) printf(" (%.1f d)", r->step_time_s / 86400);
    else if (r->step_time_s >= 7200) printf(" (%.1f h)", r->step_time_s / 3600);
    else if (r->step_time_s >= 120) printf(" (%.1f min)", r->step_time_s / 60);
    {
        int assumed = 0;
        double p10, p90;
        cf_error_band(cf_workload_error_class(w, &assumed), &p10, &p90);
        printf(" (p10-p90 %.*f-%.*f s%s)", dec, r->step_time_s * p10, dec, r->step_time_s * p90,
               assumed ? ", the dense band assumed" : "");
    }
    printf("%s\n", w->kind == CF_WL_EMBARRASSING ? ", the whole sweep" : "");
    printf("%-21s%s %s (%s per GPU)\n", "throughput", rate(a, sizeof a, r->tokens_per_s), rate_unit(w),
           rate(b, sizeof b, r->tokens_per_s_per_gpu));
    if (r->tflops_per_gpu == r->tflops_per_gpu) {
        printf("%-21s%.1f%s\n", "TFLOP/s per GPU", r->tflops_per_gpu,
               w->kind == CF_WL_LLM ? " (model FLOPs, recompute not counted)" : "");
        if (r->mfu == r->mfu)   /* none for a stencil (SIMT FLOPs, not model FLOPs) */
            printf("%-21s%.3f (fraction of peak dense FLOP/s)\n", "MFU", r->mfu);
    }
    if (r->ideal_step_time_s > 0)
        printf("%-21s%.2f: without exposed communication%s\n%-21sthe step would take %.*f s\n",
               "parallel efficiency", r->ideal_step_time_s / r->step_time_s,
               w->kind == CF_WL_LLM ? " and pipeline bubbles" : "", "", dec, r->ideal_step_time_s);
    if (isnan(avail))
        printf("%-21s%.1f GiB\n", "memory per GPU", r->memory_per_gpu_gib);
    else
        printf("%-21s%.1f GiB of %.1f GiB\n", "memory per GPU", r->memory_per_gpu_gib, avail);
    if (!isnan(avail) && r->memory_per_gpu_gib > avail)
        printf("does not fit: %.1f GiB needed per GPU, %.1f GiB available\n", r->memory_per_gpu_gib,
               avail);
    /* The parts in the step's own precision (its four significant digits),
     * so they read as parts of it: "DP comm exposed 0.01" of a 63.37 s
     * step, never a lone 0.009376. */
    if (w->kind == CF_WL_LLM) {
        printf("%-21scompute %.*f, TP comm %.*f, PP bubble %.*f,\n", "breakdown (s)", dec, k->compute_s,
               dec, k->tp_comm_s, dec, k->pp_bubble_s);
        printf("%-21sPP send/recv %.*f, DP comm exposed %.*f, CP comm %.*f\n", "", dec, k->pp_comm_s,
               dec, k->dp_comm_exposed_s, dec, k->cp_comm_s);
        if (k->ep_comm_s > 0)
            printf("%-21sEP all-to-all exposed %.*f\n", "", dec, k->ep_comm_s);
    } else {
        printf("%-21scompute %.*f, %s %.*f\n", "breakdown (s)", dec, k->compute_s,
               w->kind == CF_WL_STENCIL ? "halo + all_reduce exposed" : "DP comm exposed",
               dec, k->dp_comm_exposed_s);
    }
}

/* The layout from the flags: every name of cf_layout_param_names through
 * cf_layout_set, whose reason the error prints with the flag's spelling. */
static int layout_from_flags(const step_args *a, cf_layout *lay)
{
    const char *const *names = cf_layout_param_names();
    cf_error err;
    cf_layout_init(lay);
    cf_error_clear(&err);
    for (size_t i = 0; names[i]; i++) {
        const char *v;
        if (cli_opts_value(&step_cmd, a, names[i], &v) != 0) return EXIT_INTERNAL;
        if (v && cf_layout_set(lay, names[i], v, &err) != CF_OK) return cli_param_error(CMD, &err);
    }
    return EXIT_OK;
}

int cmd_predict_step(const cli_ctx *ctx, int argc, char **argv)
{
    step_args a;
    cf_layout lay;
    cf_workload w;
    cf_fabric fab;
    cf_step_result res;
    cf_error err;
    cf_status st;
    long gpus, reach;
    double avail;
    int rc, nodes;

    memset(&a, 0, sizeof a);
    a.fmt = FMT_TEXT;
    if (cli_opts_parse(&step_cmd, argc, argv, &a, &rc) < 0) return rc;
    /* The values first, as when the parse checked them. */
    if ((rc = layout_from_flags(&a, &lay)) != EXIT_OK) return rc;
    if (!a.workload) return cli_usage_error(CMD, "--workload is required");
    if (!a.tp || !a.pp || !a.dp) return cli_usage_error(CMD, "--tp, --pp and --dp are required");
    rc = cli_fabric_from_opts(ctx, &step_cmd, &a, &fab);
    if (rc != EXIT_OK) return rc;
    cf_error_clear(&err);
    st = cf_workload_load(a.workload, &w, &err);
    if (st != CF_OK) return cli_lib_error(CMD, st, &err);
    /* The nodes the layout reaches (a layout that does not fill whole nodes
     * is the model's to refuse, with its reason). */
    gpus = (long)lay.tp * lay.pp * lay.dp * lay.cp;
    reach = (gpus + fab.gpus_per_node - 1) / fab.gpus_per_node;
    nodes = reach > INT_MAX ? INT_MAX : (int)reach;
    if (nodes != 1 && a.fo.offering && (rc = cli_fabric_for_nodes(ctx, &step_cmd, &a, nodes, &fab)) != EXIT_OK)
        return rc;
    st = cf_step_predict(&w, &fab, nodes, &lay, &res, &err);
    if (st != CF_OK) {
        /* This command has no --nodes: the count comes from the layout. */
        if (strcmp(err.param, "nodes") == 0) err.param[0] = '\0';
        return st == CF_EINVAL ? cli_param_error(CMD, &err) : cli_lib_error(CMD, st, &err);
    }
    avail = cf_gpu_usable_gib(fab.gpu);   /* NAN when the table states no memory */
    if (a.fmt == FMT_JSON) {
        json_t *j = cf_step_result_to_json(&res);
        if (j && (json_object_set_new(j, "fits_memory",
                                      isnan(avail) ? json_null()
                                                   : json_boolean(res.memory_per_gpu_gib <= avail)) != 0 ||
                  json_object_set_new(j, "parallel_efficiency",
                                      res.ideal_step_time_s > 0
                                          ? json_real(res.ideal_step_time_s / res.step_time_s)
                                          : json_null()) != 0 ||
                  cli_add_band(j, &w, res.step_time_s) != 0 ||
                  cli_add_flags(j, &fab, nodes) != 0)) {
            json_decref(j);
            j = NULL;
        }
        return cli_print_json(j);
    }
    print_text(&w, &lay, nodes, &fab, &res, avail);
    cli_print_assumes(stdout, &fab, nodes);
    return EXIT_OK;
}
