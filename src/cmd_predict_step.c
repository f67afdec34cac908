/* cmd_predict_step.c — `clusterfit predict step`: time, throughput and
 * memory of one training step of a workload with a parallel layout on an
 * offering or on a fabric given by flags (DESIGN.md §4.3, §6). A thin front
 * end over cf_workload_load and cf_step_predict. */
#include <getopt.h>
#include <string.h>
#include "cli.h"

#define CMD "predict step"

static void usage(FILE *out)
{
    fprintf(out,
            "Usage: clusterfit predict step --workload W --tp T --pp P --dp D [--cp C] [--vp V]\n"
            "         [--micro-batch M] [--zero 0|1|2|3] [--recompute none|selective|full]\n"
            "         [--no-sequence-parallel] [--tp-overlap]\n"
            "         (--offering ID | --gpu G --gpus-per-node K --intra L --network NET\n"
            "          --nics M --nic-gbps X [--gdr on|off|partial|unknown|na])\n"
            "         [--format text|json]\n"
            "Predicts one training step (or stencil iteration, or whole embarrassingly\n"
            "parallel job) of workload W (a preset: %s; or a JSON file).\n"
            "Nodes = tp*pp*dp*cp / gpus-per-node. Output: step_time_s, tflops_per_gpu, mfu,\n"
            "tokens_per_s (samples, cell updates or tasks per second for other kinds),\n"
            "tokens_per_s_per_gpu, memory_per_gpu_gib and the breakdown of the step time.\n",
            cf_workload_presets());
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

static void print_text(const char *wl, const cf_layout *l, int nodes, const cf_fabric *fab,
                       const cf_step_result *r)
{
    printf("workload %s on %d node%s of %d x %s: tp %d, pp %d, dp %d, cp %d, vp %d, micro-batch %d, "
           "zero %d, recompute %s\n",
           wl, nodes, nodes == 1 ? "" : "s", fab->gpus_per_node, fab->gpu, l->tp, l->pp, l->dp,
           l->cp, l->vp, l->micro_batch, l->zero, cf_recompute_name(l->recompute));
    printf("step time            %.4g s\n", r->step_time_s);
    if (r->tflops_per_gpu == r->tflops_per_gpu) {
        printf("TFLOP/s per GPU      %.1f\n", r->tflops_per_gpu);
        printf("MFU                  %.3f\n", r->mfu);
    }
    printf("throughput           %.6g per s (%.6g per GPU)\n", r->tokens_per_s, r->tokens_per_s_per_gpu);
    printf("memory per GPU       %.1f GiB\n", r->memory_per_gpu_gib);
    printf("breakdown: compute %.4g s, tp_comm %.4g s, pp_bubble %.4g s, pp_comm %.4g s, "
           "dp_comm_exposed %.4g s, cp_comm %.4g s\n",
           r->breakdown.compute_s, r->breakdown.tp_comm_s, r->breakdown.pp_bubble_s,
           r->breakdown.pp_comm_s, r->breakdown.dp_comm_exposed_s, r->breakdown.cp_comm_s);
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
    long v, gpus;
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
    gpus = (long)lay.tp * lay.pp * lay.dp * lay.cp;
    if (gpus % fab.gpus_per_node != 0)
        return cli_usage_error(CMD, "tp*pp*dp*cp = %ld is not a multiple of %d GPUs per node", gpus,
                               fab.gpus_per_node);
    nodes = (int)(gpus / fab.gpus_per_node);
    st = cf_step_predict(&w, &fab, nodes, &lay, &res);
    if (st == CF_EINVAL)
        return cli_usage_error(CMD, "the layout does not suit the workload or fabric (tp must divide the "
                                    "heads, pp*vp at most the layers, cp divide seq; other kinds take "
                                    "tp = pp = cp = 1; several nodes need a network)");
    if (st != CF_OK) return cli_lib_error(CMD, st, NULL);
    if (fmt == FMT_JSON) return cli_print_json(cf_step_result_to_json(&res));
    print_text(w.name, &lay, nodes, &fab, &res);
    return EXIT_OK;
}
