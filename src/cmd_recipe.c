/* cmd_recipe.c — `clusterfit recipe OFFERING --nodes N --scheduler
 * slurm|kubernetes|skypilot|dstack [--image IMAGE] [--format text|json]`
 * (issues 12, 23): writes the job that verifies a rental (cf_recipe): an
 * sbatch script, an MPIJob manifest, a SkyPilot task or a dstack task that
 * runs `clusterfit probe --mpi` and nccl-tests with the fabric's settings
 * and hands both to `clusterfit audit --offering OFFERING`. */
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "opts.h"

#define CMD "recipe"

typedef struct recipe_args {
    long nodes;
    const char *scheduler;
    const char *image;
    cli_format fmt;
} recipe_args;

static const cli_opt recipe_opts[] = {
    {.name = "nodes", CLI_LONG_AT(recipe_args, nodes), .metavar = "N", .min = CF_RECIPE_NODES_MIN,
     .max = CF_RECIPE_NODES_MAX, .help = "nodes to verify (required), 2 to 2048"},
    {.name = "scheduler", CLI_STR_AT(recipe_args, scheduler), .metavar = "S",
     .help = "slurm (an sbatch script, default), kubernetes (a\nKubeflow MPIJob manifest), skypilot (a task YAML)\nor dstack (a distributed task)"},
    {.name = "image", CLI_STR_AT(recipe_args, image), .metavar = "IMAGE",
     .help = "the container image of the kubernetes, skypilot\nand dstack jobs (default clusterfit-verify:latest,\nbuilt by packaging/verify/Dockerfile)"},
    {.name = "format", CLI_FORMAT_AT(recipe_args, fmt), .metavar = "FMT",
     .formats = FMT_TEXT | FMT_JSON, .help = "text (the script, default) or json"},
    {.name = "help", .short_name = 'h', .kind = CLI_HELP, .help = "this help"},
    {.kind = CLI_END},
};

static const cli_cmd recipe_cmd = {
    .cmd = CMD,
    .usage = "Usage: clusterfit recipe OFFERING --nodes N\n"
             "                         [--scheduler slurm|kubernetes|skypilot|dstack]\n"
             "                         [--image IMAGE] [--format text|json]\n"
             "Write the job that verifies a rented cluster: clusterfit probe --mpi on every\n"
             "node and nccl-tests all_reduce_perf across every GPU with the provider's\n"
             "NCCL/libfabric settings (EFA provider and device RDMA, the TCPX/TCPXO plugin,\n"
             "RoCE GID index, all InfiniBand rails), both piped into\n"
             "clusterfit audit --offering OFFERING. A step that fails stops the job,\n"
             "saying which.\n"
             "\n",
    .opts = recipe_opts,
    .footer = "\n"
              "Exit status: 0 ok, 2 usage error, an offering without GPUs per node or\n"
              "network, or one SkyPilot cannot launch.\n",
    .col = 20,
};

int cmd_recipe(const cli_ctx *ctx, int argc, char **argv)
{
    recipe_args a = {0, "slurm", NULL, FMT_TEXT};
    cf_recipe_opts ro = {0};
    cf_catalog *cat = NULL;
    cf_offering *off = NULL;
    cf_error err;
    cf_status st;
    char *text = NULL;
    int first, rc;
    if ((first = cli_opts_parse(&recipe_cmd, argc, argv, &a, &rc)) < 0) return rc;
    if (first >= argc) return cli_usage_error(CMD, "an OFFERING id is required (see 'clusterfit list')");
    if (first + 1 < argc) return cli_usage_error(CMD, "unexpected argument '%s'", argv[first + 1]);
    if (a.nodes == 0) return cli_usage_error(CMD, "--nodes is required");
    cf_error_clear(&err);
    if (cf_recipe_scheduler_parse(a.scheduler, &ro.scheduler, &err) != CF_OK) return cli_param_error(CMD, &err);
    ro.nodes = a.nodes;
    ro.image = a.image;
    if ((rc = cli_open_catalog(ctx, CMD, &cat)) != EXIT_OK) return rc;
    st = cf_catalog_get(cat, argv[first], &off);
    cf_catalog_close(cat);
    if (st == CF_ENOTFOUND) return cli_usage_error(CMD, "no offering '%s' (see 'clusterfit list')", argv[first]);
    if (st != CF_OK) return cli_lib_error(CMD, st, NULL);
    cf_error_clear(&err);
    st = cf_recipe(off, &ro, &text, &err);
    if (st != CF_OK) {
        cf_offering_free(off);
        return st == CF_EINVAL ? cli_param_error(CMD, &err) : cli_lib_error(CMD, st, &err);
    }
    if (a.fmt == FMT_JSON) {
        json_t *j = json_pack("{s:s, s:s, s:I, s:I, s:s, s:s?, s:s}", "offering", off->id, "scheduler",
                              cf_recipe_scheduler_name(ro.scheduler), "nodes", (json_int_t)a.nodes,
                              "gpus_per_node", (json_int_t)off->gpus_per_node, "network",
                              cf_network_name(off->network), "image",
                              ro.scheduler == CF_RECIPE_SLURM ? NULL : (a.image ? a.image : "clusterfit-verify:latest"),
                              "script", text);
        rc = cli_print_json(j);
    } else {
        fputs(text, stdout);
        rc = EXIT_OK;
    }
    free(text);
    cf_offering_free(off);
    return rc;
}
