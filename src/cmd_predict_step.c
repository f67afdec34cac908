/* cmd_predict_step.c — `clusterfit predict step`: time, throughput and
 * memory of one training step of a workload with a parallel layout on an
 * offering or on a fabric given by flags (DESIGN.md §4.3, §6). A thin front
 * end over cf_workload_load and cf_step_predict. It also says whether the
 * layout fits in the GPU's memory: data/gpus.csv gives the vendor's GB
 * (10^9 B, DESIGN §2), compared in GiB with memory_per_gpu_gib, the same
 * rule as lib/memory.c's usable figure that `fit` and `plan` use. */
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <string.h>
#include "cli.h"
#include "textfmt.h"

#define GIB (1024.0 * 1024.0 * 1024.0)

#define CMD "predict step"

static void usage(FILE *out)
{
    fputs("Usage: clusterfit predict step --workload W --tp T --pp P --dp D [--cp C]\n"
          "         [--vp V] [--micro-batch M] [--zero 0|1|2|3]\n"
          "         [--recompute none|selective|full] [--no-sequence-parallel]\n"
          "         [--tp-overlap] (--offering ID | --gpu G --gpus-per-node K\n"
          "         --intra L --network NET --nics M --nic-gbps X [--gdr STATE])\n"
          "         [--format text|json]\n"
          "Predicts one training step (or stencil iteration, or whole embarrassingly\n"
          "parallel job) of workload W. Nodes = tp*pp*dp*cp / gpus-per-node; one node\n"
          "needs no network. Output: step_time_s, tflops_per_gpu, mfu, tokens_per_s\n"
          "(samples, cell updates or tasks per second for other kinds),\n"
          "tokens_per_s_per_gpu, memory_per_gpu_gib, fits_memory (against the GPU's\n"
          "vendor GB, 10^9 bytes, in GiB), parallel_efficiency (ideal over predicted\n"
          "step time, 0-1) and the breakdown of the step time.\n"
          "\n"
          "  --workload W            preset or JSON workload file (required); presets:\n", out);
    tf_wrap(out, "                          ", cf_workload_presets(), TF_WIDTH);
    fputs("  --tp T, --pp P, --dp D  tensor, pipeline, data parallel degrees (required)\n"
          "  --cp C                  context parallel degree (default 1)\n"
          "  --vp V                  interleaved pipeline chunks per stage (default 1)\n"
          "  --micro-batch M         sequences per micro-batch (default 1)\n"
          "  --zero Z                ZeRO stage 0-3 (default 0)\n"
          "  --recompute R           none (default), selective, full\n"
          "  --no-sequence-parallel  turn off sequence parallelism under TP\n"
          "  --tp-overlap            overlap TP communication with compute\n"
          "  --offering ID           take the fabric from the catalog offering ID\n"
          "  --gpu G, --gpus-per-node K, --intra L, --network NET, --nics M,\n"
          "  --nic-gbps X, --gdr STATE   the fabric by hand, as for predict collective\n"
          "  --format F              text (default) or json\n"
          "  --help                  this help\n", out);
}

enum { O_WORKLOAD = 1, O_TP, O_PP, O_DP, O_CP, O_VP, O_MB, O_ZERO, O_RECOMP, O_NOSP, O_TPOV,
       O_OFFERING, O_GPU, O_GPN, O_INTRA, O_NET, O_NICS, O_NICGBPS, O_GDR, O_FORMAT, O_HELP };

static const struct option opts[] = {
    {"workload", required_argument, 0, O_WORKLOAD}, {"tp", required_argument, 0, O_TP},
    {"pp", required_argument, 0, O_PP}, {"dp", required_argument, 0, O_DP},
    {"cp", required_argument, 0, O_CP}, {"vp", required_argument, 0, O_VP},
    {"micro-batch", required_argument, 0, O_MB}, {"zero", required_argument, 0, O_ZERO},
    {"recompute", required_argument, 0, O_RECOMP}, {"no-sequence-parallel", no_argument, 0, O_NOSP},
    {"tp-overlap", no_argument, 0, O_TPOV}, {"offering", required_argument, 0, O_OFFERING},
    {"gpu", required_argument, 0, O_GPU}, {"gpus-per-node", required_argument, 0, O_GPN},
    {"intra", required_argument, 0, O_INTRA}, {"network", required_argument, 0, O_NET},
    {"nics", required_argument, 0, O_NICS}, {"nic-gbps", required_argument, 0, O_NICGBPS},
    {"gdr", required_argument, 0, O_GDR}, {"format", required_argument, 0, O_FORMAT},
    {"help", no_argument, 0, O_HELP}, {0, 0, 0, 0}};

/* GiB of memory one GPU of the fabric offers (vendor GB = 10^9 B); NAN
 * when data/gpus.csv does not state it. */
static double available_gib(const cf_fabric *fab)
{
    const cf_gpu_spec *g;
    if (cf_gpu_lookup(fab->gpu, &g) != CF_OK || isnan(g->memory_gb) || !(g->memory_gb > 0))
        return NAN;
    return g->memory_gb * 1e9 / GIB;
}

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

static void print_text(const cf_workload *w, const cf_layout *l, int nodes, const cf_fabric *fab,
                       const cf_step_result *r, double avail)
{
    char lay[160], a[64], b[64];
    const cf_step_breakdown *k = &r->breakdown;
    cf_layout_words(lay, sizeof lay, l, w->kind);
    printf("%s on %d node%s of %d x %s (%ld GPUs)\n", w->name, nodes, nodes == 1 ? "" : "s",
           fab->gpus_per_node, fab->gpu, (long)nodes * fab->gpus_per_node);
    printf("%-21s%s", "layout", lay);
    if (w->kind == CF_WL_LLM)
        printf("\n%-21smicro-batch %d%s%s", "", l->micro_batch,
               l->tp > 1 ? (l->sequence_parallel ? ", sequence parallel" : ", no sequence parallel") : "",
               l->tp > 1 && l->tp_comm_overlap ? ", TP overlap" : "");
    printf("\n");
    printf("%-21s%.4g s", w->kind == CF_WL_EMBARRASSING ? "job time" : "step time", r->step_time_s);
    if (r->step_time_s >= 2 * 86400) printf(" (%.1f days)", r->step_time_s / 86400);
    else if (r->step_time_s >= 7200) printf(" (%.1f h)", r->step_time_s / 3600);
    else if (r->step_time_s >= 120) printf(" (%.1f min)", r->step_time_s / 60);
    printf("%s\n", w->kind == CF_WL_EMBARRASSING ? ", the whole sweep" : "");
    printf("%-21s%s %s (%s per GPU)\n", "throughput", rate(a, sizeof a, r->tokens_per_s), rate_unit(w),
           rate(b, sizeof b, r->tokens_per_s_per_gpu));
    if (r->tflops_per_gpu == r->tflops_per_gpu) {
        printf("%-21s%.1f%s\n", "TFLOP/s per GPU", r->tflops_per_gpu,
               w->kind == CF_WL_LLM ? " (model FLOPs, recompute not counted)" : "");
        printf("%-21s%.3f (fraction of peak dense FLOP/s)\n", "MFU", r->mfu);
    }
    if (r->ideal_step_time_s > 0)
        printf("%-21s%.2f (no exposed communication or bubble: %.4g s)\n", "parallel efficiency",
               r->ideal_step_time_s / r->step_time_s, r->ideal_step_time_s);
    if (isnan(avail))
        printf("%-21s%.1f GiB\n", "memory per GPU", r->memory_per_gpu_gib);
    else
        printf("%-21s%.1f GiB of %.1f GiB\n", "memory per GPU", r->memory_per_gpu_gib, avail);
    if (!isnan(avail) && r->memory_per_gpu_gib > avail)
        printf("does not fit: %.1f GiB needed per GPU, %.1f GiB available\n", r->memory_per_gpu_gib,
               avail);
    if (w->kind == CF_WL_LLM) {
        printf("%-21scompute %.4g, TP comm %.4g, PP bubble %.4g,\n", "breakdown (s)", k->compute_s,
               k->tp_comm_s, k->pp_bubble_s);
        printf("%-21sPP send/recv %.4g, DP comm exposed %.4g, CP comm %.4g\n", "", k->pp_comm_s,
               k->dp_comm_exposed_s, k->cp_comm_s);
    } else {
        printf("%-21scompute %.4g, %s %.4g\n", "breakdown (s)", k->compute_s,
               w->kind == CF_WL_STENCIL ? "halo + all_reduce exposed" : "DP comm exposed",
               k->dp_comm_exposed_s);
    }
}

int cmd_predict_step(const cli_ctx *ctx, int argc, char **argv)
{
    const char *wl = NULL, *recomp = NULL;
    cli_fabric_opts fa;
    cli_format fmt = FMT_TEXT;
    cf_layout lay;
    cf_workload w;
    cf_fabric fab;
    cf_step_result res;
    cf_error err;
    cf_status st;
    long v, gpus, reach;
    double avail;
    int c, rc, nodes, have_tp = 0, have_pp = 0, have_dp = 0;

    cf_layout_init(&lay);
    memset(&fa, 0, sizeof fa);
    optind = 0;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case O_WORKLOAD: wl = optarg; break;
        case O_TP: if (cli_parse_int(CMD, "--tp", optarg, 1, 4096, &v)) return EXIT_USAGE; lay.tp = (int)v; have_tp = 1; break;
        case O_PP: if (cli_parse_int(CMD, "--pp", optarg, 1, 4096, &v)) return EXIT_USAGE; lay.pp = (int)v; have_pp = 1; break;
        case O_DP: if (cli_parse_int(CMD, "--dp", optarg, 1, 1048576, &v)) return EXIT_USAGE; lay.dp = (int)v; have_dp = 1; break;
        case O_CP: if (cli_parse_int(CMD, "--cp", optarg, 1, 4096, &v)) return EXIT_USAGE; lay.cp = (int)v; break;
        case O_VP: if (cli_parse_int(CMD, "--vp", optarg, 1, 1024, &v)) return EXIT_USAGE; lay.vp = (int)v; break;
        case O_MB: if (cli_parse_int(CMD, "--micro-batch", optarg, 1, 65536, &v)) return EXIT_USAGE; lay.micro_batch = (int)v; break;
        case O_ZERO: if (cli_parse_int(CMD, "--zero", optarg, 0, 3, &v)) return EXIT_USAGE; lay.zero = (int)v; break;
        case O_RECOMP: recomp = optarg; break;
        case O_NOSP: lay.sequence_parallel = 0; break;
        case O_TPOV: lay.tp_comm_overlap = 1; break;
        case O_OFFERING: fa.offering = optarg; break;
        case O_GPU: fa.gpu = optarg; break;
        case O_GPN: fa.gpus_per_node = optarg; break;
        case O_INTRA: fa.intra = optarg; break;
        case O_NET: fa.network = optarg; break;
        case O_NICS: fa.nics = optarg; break;
        case O_NICGBPS: fa.nic_gbps = optarg; break;
        case O_GDR: fa.gdr = optarg; break;
        case O_FORMAT: if (cli_parse_format(CMD, optarg, FMT_TEXT | FMT_JSON, &fmt)) return EXIT_USAGE; break;
        case O_HELP: usage(stdout); return EXIT_OK;
        default: return cli_usage_error(CMD, "unknown option");
        }
    }
    if (optind < argc) return cli_usage_error(CMD, "unexpected argument '%s'", argv[optind]);
    if (!wl) return cli_usage_error(CMD, "--workload is required");
    if (!have_tp || !have_pp || !have_dp) return cli_usage_error(CMD, "--tp, --pp and --dp are required");
    if (recomp && (cf_recompute_parse(recomp, &lay.recompute) != CF_OK ||
                   lay.recompute == CF_RECOMPUTE_UNKNOWN))
        return cli_usage_error(CMD, "unknown --recompute '%s' (accepted: none, selective, full)", recomp);
    rc = cli_fabric_from_opts(ctx, CMD, &fa, &fab);
    if (rc != EXIT_OK) return rc;
    cf_error_clear(&err);
    st = cf_workload_load(wl, &w, &err);
    if (st != CF_OK) return cli_lib_error(CMD, st, &err);
    /* The nodes the layout reaches (a layout that does not fill whole nodes
     * is the model's to refuse, with its reason). */
    gpus = (long)lay.tp * lay.pp * lay.dp * lay.cp;
    reach = (gpus + fab.gpus_per_node - 1) / fab.gpus_per_node;
    nodes = reach > INT_MAX ? INT_MAX : (int)reach;
    if (nodes != 1 && fa.offering && (rc = cli_fabric_for_nodes(ctx, CMD, &fa, nodes, &fab)) != EXIT_OK)
        return rc;
    st = cf_step_predict(&w, &fab, nodes, &lay, &res, &err);
    if (st != CF_OK) {
        /* This command has no --nodes: the count comes from the layout. */
        if (strcmp(err.param, "nodes") == 0) err.param[0] = '\0';
        return st == CF_EINVAL ? cli_param_error(CMD, &err) : cli_lib_error(CMD, st, &err);
    }
    avail = available_gib(&fab);
    if (fmt == FMT_JSON) {
        json_t *j = cf_step_result_to_json(&res);
        if (j && (json_object_set_new(j, "fits_memory",
                                      isnan(avail) ? json_null()
                                                   : json_boolean(res.memory_per_gpu_gib <= avail)) != 0 ||
                  json_object_set_new(j, "parallel_efficiency",
                                      res.ideal_step_time_s > 0
                                          ? json_real(res.ideal_step_time_s / res.step_time_s)
                                          : json_null()) != 0)) {
            json_decref(j);
            j = NULL;
        }
        return cli_print_json(j);
    }
    print_text(&w, &lay, nodes, &fab, &res, avail);
    return EXIT_OK;
}
