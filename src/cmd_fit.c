/* cmd_fit.c — `clusterfit fit`: does a workload fit one node of a GPU model,
 * else on how many nodes, and with which layout (DESIGN.md §4.3, §6). A thin
 * front end over cf_workload_load and cf_fit. */
#include <getopt.h>
#include <string.h>
#include <strings.h>
#include "cli.h"
#include "textfmt.h"

#define CMD "fit"

static void usage(FILE *out)
{
    fputs("Usage: clusterfit fit --workload W --gpu G [--gpus-per-node K]\n"
          "         [--format text|json]\n"
          "Says whether workload W fits in the memory of one node of K GPUs of model G,\n"
          "else the smallest number of nodes it fits on, with a layout that fits there\n"
          "(least model parallelism, then lowest ZeRO stage, then least recompute).\n"
          "It fits when the memory per GPU, a 3 GiB runtime reserve included, is at most\n"
          "the vendor's GB (10^9 B): 80 GB = 74.5 GiB.\n"
          "\n"
          "  --workload W        preset name or JSON workload file (required); presets:\n", out);
    tf_wrap(out, "                      ", cf_workload_presets(), TF_WIDTH);
    fputs("  --gpu G             GPU model (required), as in data/gpus.csv\n"
          "  --gpus-per-node K   GPUs per node (default 8; 4 for GH200, GB200, GB300)\n"
          "  --format F          text (default) or json\n"
          "  --help              this help\n", out);
}

static int default_gpn(const char *gpu)
{
    /* GH200 nodes and GB200/GB300 compute trays hold 4 GPUs. */
    if (strcasecmp(gpu, "GH200") == 0 || strcasecmp(gpu, "GB200") == 0 || strcasecmp(gpu, "GB300") == 0)
        return 4;
    return 8;
}

int cmd_fit(const cli_ctx *ctx, int argc, char **argv)
{
    static const struct option opts[] = {
        {"workload", required_argument, 0, 'w'}, {"gpu", required_argument, 0, 'g'},
        {"gpus-per-node", required_argument, 0, 'k'}, {"format", required_argument, 0, 'f'},
        {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
    const char *wl = NULL, *gpu = NULL, *gpn_s = NULL;
    long gpn = 0;
    cf_fabric node;
    cli_format fmt = FMT_TEXT;
    const cf_gpu_spec *spec;
    cf_workload w;
    cf_fit_result r;
    cf_error err;
    cf_status st;
    int c;
    (void)ctx;
    optind = 0;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'w': wl = optarg; break;
        case 'g': gpu = optarg; break;
        case 'k': gpn_s = optarg; break;
        case 'f': if (cli_parse_format(CMD, optarg, FMT_TEXT | FMT_JSON, &fmt)) return EXIT_USAGE; break;
        case 'h': usage(stdout); return EXIT_OK;
        default: return cli_usage_error(CMD, "unknown option");
        }
    }
    if (optind < argc) return cli_usage_error(CMD, "unexpected argument '%s'", argv[optind]);
    if (!wl || !gpu) return cli_usage_error(CMD, "--workload and --gpu are required");
    /* The GPU and its count through the library's setters (the bounds and
     * the accepted names of predict and the web API). */
    cf_fabric_init(&node);
    cf_error_clear(&err);
    if (cf_fabric_set(&node, "gpu", gpu, &err) != CF_OK ||
        (gpn_s && cf_fabric_set(&node, "gpus_per_node", gpn_s, &err) != CF_OK))
        return cli_param_error(CMD, &err);
    if (cf_gpu_lookup(node.gpu, &spec) != CF_OK) return cli_lib_error(CMD, CF_EINTERNAL, NULL);
    gpn = gpn_s ? node.gpus_per_node : default_gpn(spec->name);
    st = cf_workload_load(wl, &w, &err);
    if (st != CF_OK) return cli_lib_error(CMD, st, &err);
    st = cf_fit(&w, spec->name, (int)gpn, &r, &err);
    if (st != CF_OK) return cli_lib_error(CMD, st, &err);
    if (fmt == FMT_JSON) return cli_print_json(cf_fit_result_to_json(&r));
    if (r.min_nodes == 0) {
        printf("%s does not fit on up to %ld nodes of %ld x %s\n", w.name, (long)CF_FIT_MAX_NODES, gpn,
               spec->name);
        return EXIT_OK;
    }
    printf("%s %s one node of %ld x %s; minimum %d node%s\n", w.name,
           r.fits_one_node ? "fits" : "does not fit", gpn, spec->name, r.min_nodes,
           r.min_nodes == 1 ? "" : "s");
    {
        char lay[160];
        cf_layout_words(lay, sizeof lay, &r.layout, w.kind);
        printf("layout on %d node%s (%ld GPUs): %s%s", r.min_nodes, r.min_nodes == 1 ? "" : "s",
               (long)r.min_nodes * gpn, lay, w.kind == CF_WL_LLM ? "" : "\n");
        if (w.kind == CF_WL_LLM) printf(", micro-batch %d\n", r.layout.micro_batch);
        printf("memory per GPU %.1f GiB (the GPU has %.0f GB = %.1f GiB)\n", r.memory_per_gpu_gib,
               spec->memory_gb, spec->memory_gb * 1e9 / (1024.0 * 1024.0 * 1024.0));
    }
    return EXIT_OK;
}
