/* cmd_fit.c — `clusterfit fit`: does a workload fit one node of a GPU model,
 * else on how many nodes, and with which layout (DESIGN.md §4.3, §6). A thin
 * front end over cf_workload_load and cf_fit. */
#include <stddef.h>
#include <string.h>
#include "cli.h"
#include "serve_cli.h"
#include "opts.h"
#include "textfmt.h"

#define CMD "fit"

typedef struct fit_args {
    const char *workload, *gpu;
    const char *gpn;            /* NULL = the GPU's usual node */
    cli_format fmt;
} fit_args;

static const cli_opt fit_opts[] = {
    {.name = "workload", CLI_STR_AT(fit_args, workload), .metavar = "W",
     .help = "preset name or JSON workload file (required); presets:", .more = cf_workload_presets},
    {.name = "gpu", CLI_STR_AT(fit_args, gpu), .metavar = "G",
     .help = "GPU model (required), as in data/gpus.csv"},
    {.name = "gpus-per-node", CLI_STR_AT(fit_args, gpn), .metavar = "K",
     .help = "GPUs per node (default 8; 4 for GH200, GB200, GB300)"},
    {.name = "format", CLI_FORMAT_AT(fit_args, fmt), .metavar = "F",
     .formats = FMT_TEXT | FMT_JSON, .help = "text (default) or json"},
    {.name = "help", .kind = CLI_HELP, .help = "this help"},
    {.kind = CLI_END},
};

static const cli_cmd fit_cmd = {
    .cmd = CMD,
    .usage = "Usage: clusterfit fit --workload W --gpu G [--gpus-per-node K]\n"
             "         [--format text|json]\n"
             "Says whether workload W fits in the memory of one node of K GPUs of model G,\n"
             "else the smallest number of nodes it fits on, with a layout that fits there\n"
             "(least model parallelism, then lowest ZeRO stage, then least recompute).\n"
             "It fits when the memory per GPU, a 3 GiB runtime reserve included, is at most\n"
             "the vendor's GB (10^9 B): 80 GB = 74.5 GiB.\n"
             "\n",
    .opts = fit_opts,
    .col = 22,
    .no_args = 1,
};

int cmd_fit(const cli_ctx *ctx, int argc, char **argv)
{
    fit_args a = {NULL, NULL, NULL, FMT_TEXT};
    const char *wl, *gpu;
    long gpn;
    cf_fabric node;
    const cf_gpu_spec *spec;
    cf_workload w;
    cf_fit_result r;
    cf_error err;
    cf_status st;
    int rc;
    (void)ctx;
    if (cli_opts_parse(&fit_cmd, argc, argv, &a, &rc) < 0) return rc;
    wl = a.workload;
    gpu = a.gpu;
    if (!wl || !gpu) return cli_usage_error(CMD, "--workload and --gpu are required");
    /* The GPU and its count through the library's setters (the bounds and
     * the accepted names of predict and the web API). */
    cf_fabric_init(&node);
    cf_error_clear(&err);
    if (cf_fabric_set(&node, "gpu", gpu, &err) != CF_OK ||
        (a.gpn && cf_fabric_set(&node, "gpus_per_node", a.gpn, &err) != CF_OK))
        return cli_param_error(CMD, &err);
    if (cf_gpu_lookup(node.gpu, &spec) != CF_OK) return cli_lib_error(CMD, CF_EINTERNAL, NULL);
    /* data/gpus.csv: 4 for GH200, GB200, GB300 */
    gpn = a.gpn ? node.gpus_per_node : spec->gpus_per_node;
    st = cf_workload_load(wl, &w, &err);
    if (st != CF_OK) return cli_lib_error(CMD, st, &err);
    if (w.kind == CF_WL_SERVE) return serve_cli_fit(&w, spec->name, (int)gpn, a.fmt);
    st = cf_fit(&w, spec->name, (int)gpn, &r, &err);
    if (st != CF_OK) return cli_lib_error(CMD, st, &err);
    if (a.fmt == FMT_JSON) return cli_print_json(cf_fit_result_to_json(&r));
    if (r.min_nodes == 0) {
        printf("%s does not fit on up to %ld nodes of %ld x %s\n", w.name, (long)CF_FIT_MAX_NODES, gpn,
               spec->name);
        return EXIT_OK;
    }
    printf("%s %s one node of %ld x %s; minimum %d node%s\n", w.name,
           r.fits_one_node ? "fits" : "does not fit", gpn, spec->name, r.min_nodes,
           r.min_nodes == 1 ? "" : "s");
    {
        char lay[160], head[64], text[224];
        cf_layout_words(lay, sizeof lay, &r.layout, w.kind);
        snprintf(head, sizeof head, "layout on %d node%s (%ld GPUs): ", r.min_nodes,
                 r.min_nodes == 1 ? "" : "s", (long)r.min_nodes * gpn);
        if (w.kind == CF_WL_LLM)
            snprintf(text, sizeof text, "%s, micro-batch %d", lay, r.layout.micro_batch);
        else
            snprintf(text, sizeof text, "%s", lay);
        tf_wrap(stdout, head, text, TF_WIDTH);    /* 80 columns, as every report */
        printf("memory per GPU %.1f GiB (the GPU has %.0f GB = %.1f GiB)\n", r.memory_per_gpu_gib,
               spec->memory_gb, cf_gpu_usable_gib(spec->name));
        if (r.why[0]) {
            char line[600];
            snprintf(line, sizeof line, "%s.", r.why);
            tf_wrap(stdout, "why: ", line, 79);
        }
    }
    if (r.precision_note[0]) {
        char line[320];
        snprintf(line, sizeof line, "%s.", r.precision_note);
        tf_wrap(stdout, "assumes: ", line, 79);
    }
    return EXIT_OK;
}
