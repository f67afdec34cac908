/* cmd_predict.c — `clusterfit predict collective` (and `predict --help`).
 *
 * `predict step` is its own command (src/cmd_predict_step.c), dispatched by
 * main.c. The fabric options, --offering ID (from the catalog) or the
 * explicit flags, are turned into a cf_fabric by src/fabric_opts.c, which
 * both commands use. */
#include <stddef.h>
#include <string.h>
#include "cli.h"
#include "fabric_opts.h"
#include "opts.h"
#include "textfmt.h"

typedef struct coll_args {
    const char *coll, *bytes, *nodes, *rpn, *algo;
    cli_fabric_opts fo;
    cli_format fmt;
} coll_args;

static const cli_opt coll_opts[] = {
    {.name = "collective", CLI_STR_AT(coll_args, coll), .metavar = "C",
     .help = "all_reduce, all_gather, reduce_scatter, alltoall,\n"
             "broadcast, reduce, gather, scatter, sendrecv, hypercube"},
    {.name = "bytes", CLI_STR_AT(coll_args, bytes), .metavar = "SIZE",
     .help = "nccl-tests' size column: 1048576, 512M, 8G (binary)"},
    {.name = "nodes", CLI_STR_AT(coll_args, nodes), .metavar = "N",
     .help = "nodes (trays for nvl72: 18 trays of 4 GPUs = one rack)"},
    {.name = "ranks-per-node", CLI_STR_AT(coll_args, rpn), .metavar = "R",
     .help = "ranks of the communicator per node (default: every GPU;\n"
             "1 for a data-parallel group under TP = 8)"},
    {.name = "offering", CLI_STR_AT(coll_args, fo.offering), .metavar = "ID",
     .help = "take the fabric from the catalog offering ID"},
    {.name = "gpu", CLI_STR_AT(coll_args, fo.gpu), .metavar = "G",
     .help = "GPU model (data/gpus.csv names, e.g. H100-SXM)"},
    {.name = "gpus-per-node", CLI_STR_AT(coll_args, fo.gpus_per_node), .metavar = "K",
     .help = "GPUs per node"},
    {.name = "intra", CLI_STR_AT(coll_args, fo.intra), .metavar = "L",
     .help = "none, pcie3, pcie4, pcie5, nvlink-bridge, nvlink2,\n"
             "nvswitch-nvlink3, nvswitch-nvlink4, nvswitch-nvlink5,\n"
             "nvl72, xgmi"},
    {.name = "network", CLI_STR_AT(coll_args, fo.network), .metavar = "NET",
     .help = "ib, roce, efa, tcpx, tcpxo, tcp, rdma, none"},
    {.name = "nics", CLI_STR_AT(coll_args, fo.nics), .metavar = "M", .help = "NICs per node"},
    {.name = "nic-gbps", CLI_STR_AT(coll_args, fo.nic_gbps), .metavar = "X",
     .help = "line rate of one NIC, Gbit/s"},
    {.name = "gdr", CLI_STR_AT(coll_args, fo.gdr), .metavar = "STATE",
     .help = "on, off, partial, na, unknown (default: fabric's usual)"},
    {.name = "non-blocking", CLI_STR_AT(coll_args, fo.non_blocking), .metavar = "CAP",
     .help = "yes, no, unknown (default; the model's documented\n"
             "assumption, flagged in the output)"},
    {.name = "rail-optimized", CLI_STR_AT(coll_args, fo.rail_optimized), .metavar = "CAP",
     .help = "yes, no, unknown (default; as --non-blocking)"},
    {.name = "algo", CLI_STR_AT(coll_args, algo), .metavar = "A",
     .help = "auto (NCCL's choice, default), ring, tree, nvls,\n"
             "nvlstree, collnet"},
    {.name = "format", CLI_FORMAT_AT(coll_args, fmt), .metavar = "F",
     .formats = FMT_TEXT | FMT_JSON, .help = "text (default) or json"},
    {.name = "help", .short_name = 'h', .kind = CLI_HELP, .help = "this help"},
    {.kind = CLI_END},
};

/* Also `predict --help`: it tells where the options of `predict step` are. */
static const cli_cmd coll_cmd = {
    .cmd = "predict collective",
    .usage = "Usage: clusterfit predict collective --collective C --bytes SIZE --nodes N\n"
             "           [--ranks-per-node R] (--offering ID | --gpu G --gpus-per-node K\n"
             "           --intra L --network NET --nics M --nic-gbps X [--gdr STATE]\n"
             "           [--non-blocking yes|no|unknown] [--rail-optimized yes|no|unknown])\n"
             "           [--algo auto|ring|tree|nvls|nvlstree|collnet] [--format text|json]\n"
             "       clusterfit predict step ...  (options: clusterfit predict step --help)\n"
             "Predict the time, algbw and busbw of one NCCL collective (nccl-tests'\n"
             "definitions) on a fabric, with the model of docs/model.md. 'predict step'\n"
             "predicts one training step of a workload with a parallel layout; run\n"
             "'clusterfit predict step --help' for its options.\n"
             "\n",
    .opts = coll_opts,
    .col = 24,
    .no_args = 1,
};

/* The field names of the JSON (units in their suffixes, DESIGN §2), each
 * value followed by a reading in everyday units where it helps. */
static void print_text(const cf_coll_result *r, const cf_fabric *fab)
{
    static const char *const bin[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double b = (double)r->message_bytes, t = r->time_us;
    char line[160];
    int k = 0;
    while (b >= 1024 && k < 4) { b /= 1024; k++; }
    printf("collective     %s\n", cf_collective_name(r->collective));
    if (k > 0) printf("message_bytes  %llu (%.4g %s)\n", (unsigned long long)r->message_bytes, b, bin[k]);
    else printf("message_bytes  %llu\n", (unsigned long long)r->message_bytes);
    printf("nodes          %d\n", r->nodes);
    printf("ranks          %d (%d per node)\n", r->ranks, r->nodes > 0 ? r->ranks / r->nodes : r->ranks);
    printf("algo           %s\n", cf_algo_name(r->algo));
    printf("protocol       %s\n", r->protocol ? r->protocol : "unknown");
    if (t >= 1e6) printf("time_us        %.1f (%.3g s)\n", t, t / 1e6);
    else if (t >= 1e3) printf("time_us        %.1f (%.3g ms)\n", t, t / 1e3);
    else printf("time_us        %.1f\n", t);
    printf("algbw_GBps     %.2f (GB/s = 10^9 B/s, as nccl-tests reports it)\n", r->algbw_GBps);
    printf("busbw_GBps     %.2f (GB/s)\n", r->busbw_GBps);
    {
        double p10, p90, lo, hi;
        cf_error_band(cf_error_class_collective(r->message_bytes), &p10, &p90);
        cf_busbw_band(r->busbw_GBps, r->message_bytes, &lo, &hi);
        char band[160];
        snprintf(band, sizeof band, "time %.2f-%.2f us, busbw %.2f-%.2f GB/s (the model's error "
                 "out of sample)", r->time_us * p10, r->time_us * p90, lo, hi);
        tf_wrap(stdout, "p10-p90        ", band, TF_WIDTH);   /* 80 columns */
    }
    printf("bottleneck     %s\n", cf_bottleneck_name(r->bottleneck));
    /* the line `audit` prints for the same node (one expectation, issue 20) */
    cf_coll_expect_text(line, sizeof line, r->busbw_GBps, r->algo, r->protocol,
                        r->algo_asked ? CF_ALGO_SOURCE_ASKED : CF_ALGO_SOURCE_MODEL);
    printf("expected       %s\n", line);
    cli_print_assumes(stdout, fab, r->nodes);
}

static int predict_collective(const cli_ctx *ctx, int argc, char **argv)
{
    const char *cmd = coll_cmd.cmd;
    coll_args a;
    cf_fabric fab;
    cf_coll_query q;
    cf_coll_result res;
    cf_status st;
    int rc;
    memset(&a, 0, sizeof a);
    cf_coll_query_init(&q);
    a.fmt = FMT_TEXT;
    if (cli_opts_parse(&coll_cmd, argc, argv, &a, &rc) < 0) return rc;
    if (!a.coll || !a.bytes || !a.nodes) return cli_usage_error(cmd, "--collective, --bytes and --nodes are required");
    {
        /* The query's values through the library's setter, in its order. */
        const char *const *names = cf_coll_query_param_names();
        cf_error err;
        cf_error_clear(&err);
        for (size_t i = 0; names[i]; i++) {
            const char *v;
            if (cli_opts_value(&coll_cmd, &a, names[i], &v) != 0) return EXIT_INTERNAL;
            if (v && cf_coll_query_set(&q, names[i], v, &err) != CF_OK) return cli_param_error(cmd, &err);
        }
        rc = cli_fabric_for_nodes(ctx, &coll_cmd, &a, q.nodes, &fab);
        if (rc != EXIT_OK) return rc;
        st = cf_collective_predict(&fab, &q, &res, &err);
        if (st != CF_OK) return st == CF_EINVAL ? cli_param_error(cmd, &err) : cli_lib_error(cmd, st, &err);
    }
    if (a.fmt == FMT_JSON) {
        json_t *j = cf_coll_result_to_json(&res);
        if (cli_add_flags(j, &fab, res.nodes) != 0) {
            json_decref(j);
            j = NULL;
        }
        return cli_print_json(j);
    }
    print_text(&res, &fab);
    return EXIT_OK;
}

int cmd_predict(const cli_ctx *ctx, int argc, char **argv)
{
    if (argc < 2) return cli_usage_error("predict", "expected 'collective' or 'step'");
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        cli_opts_help(&coll_cmd, stdout);
        return EXIT_OK;
    }
    if (strcmp(argv[1], "collective") == 0) return predict_collective(ctx, argc - 1, argv + 1);
    return cli_usage_error("predict", "unknown kind '%s' (accepted: collective, step)", argv[1]);
}
