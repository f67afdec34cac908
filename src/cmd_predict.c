/* cmd_predict.c — `clusterfit predict collective|step`.
 *
 * `predict collective` is here; `predict step` is dispatched to
 * cmd_predict_step (src/cmd_predict_step.c). The fabric options are parsed by
 * cli_fabric_for_nodes, shared by both: either --offering ID (from the
 * catalog) or the explicit flags. Every value goes through the library's
 * setters and every refusal is the library's reason, as in the web API. */
#include <getopt.h>
#include <limits.h>
#include <string.h>
#include "cli.h"

static const char predict_usage[] =
    "Usage: clusterfit predict collective --collective C --bytes SIZE --nodes N\n"
    "           [--ranks-per-node R] (--offering ID | --gpu G --gpus-per-node K\n"
    "           --intra L --network NET --nics M --nic-gbps X [--gdr STATE])\n"
    "           [--algo auto|ring|tree|nvls|nvlstree|collnet] [--format text|json]\n"
    "       clusterfit predict step ...  (options: clusterfit predict step --help)\n"
    "Predict the time, algbw and busbw of one NCCL collective (nccl-tests'\n"
    "definitions) on a fabric, with the model of docs/model.md. 'predict step'\n"
    "predicts one training step of a workload with a parallel layout; run\n"
    "'clusterfit predict step --help' for its options.\n"
    "\n"
    "  --collective C      all_reduce, all_gather, reduce_scatter, alltoall,\n"
    "                      broadcast, reduce, gather, scatter, sendrecv, hypercube\n"
    "  --bytes SIZE        nccl-tests' size column: 1048576, 512M, 8G (binary)\n"
    "  --nodes N           nodes (trays for nvl72: 18 trays of 4 GPUs = one rack)\n"
    "  --ranks-per-node R  ranks of the communicator per node (default: every GPU;\n"
    "                      1 for a data-parallel group under TP = 8)\n"
    "  --offering ID       take the fabric from the catalog offering ID\n"
    "  --gpu G             GPU model (data/gpus.csv names, e.g. H100-SXM)\n"
    "  --gpus-per-node K   GPUs per node\n"
    "  --intra L           none, pcie3, pcie4, pcie5, nvlink-bridge, nvlink2,\n"
    "                      nvswitch-nvlink3, nvswitch-nvlink4, nvswitch-nvlink5,\n"
    "                      nvl72, xgmi\n"
    "  --network NET       ib, roce, efa, tcpx, tcpxo, tcp, rdma, none\n"
    "  --nics M            NICs per node\n"
    "  --nic-gbps X        line rate of one NIC, Gbit/s\n"
    "  --gdr STATE         on, off, partial, na, unknown (default: fabric's usual)\n"
    "  --algo A            auto (NCCL's choice, default), ring, tree, nvls,\n"
    "                      nvlstree, collnet\n"
    "  --format F          text (default) or json\n"
    "  --help              this help\n";

/* The fabric from the flags, each value through the library's setter. */
static int fabric_from_flags(const char *cmd, const cli_fabric_opts *o, cf_fabric *fab)
{
    static const char *const names[] = {"gpu", "gpus_per_node", "intra", "network", "nics", "nic_gbps"};
    const char *values[] = {o->gpu, o->gpus_per_node, o->intra, o->network, o->nics, o->nic_gbps};
    cf_error err;
    if (!o->gpu || !o->gpus_per_node || !o->intra || !o->network)
        return cli_usage_error(cmd, "give --offering ID, or --gpu, --gpus-per-node, --intra and --network");
    cf_error_clear(&err);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        /* The NICs are asked for once the network is known. */
        if (i == 4 && fab->network != CF_NET_NONE && (!o->nics || !o->nic_gbps))
            return cli_usage_error(cmd, "--network %s needs --nics and --nic-gbps", o->network);
        if (values[i] && cf_fabric_set(fab, names[i], values[i], &err) != CF_OK)
            return cli_param_error(cmd, &err);
    }
    return EXIT_OK;
}

int cli_fabric_for_nodes(const cli_ctx *ctx, const char *cmd, const cli_fabric_opts *o, long nodes,
                         cf_fabric *fab)
{
    cf_error err;
    int rc;
    cf_fabric_init(fab);
    cf_error_clear(&err);
    if (o->offering) {
        cf_catalog *cat = NULL;
        cf_offering *off = NULL;
        cf_status st;
        if (o->gpu || o->gpus_per_node || o->intra || o->network || o->nics || o->nic_gbps)
            return cli_usage_error(cmd, "--offering excludes the fabric flags (--gpu, --intra, ...)");
        rc = cli_open_catalog(ctx, cmd, &cat);
        if (rc != EXIT_OK) return rc;
        st = cf_catalog_get(cat, o->offering, &off);
        if (st == CF_ENOTFOUND) {
            cf_catalog_close(cat);
            return cli_usage_error(cmd, "no offering '%s' (see 'clusterfit list')", o->offering);
        }
        /* The one-node rule (a network the offering does not state matters
         * only between nodes) is the library's. */
        if (st == CF_OK) st = cf_fabric_for_nodes(off, nodes > INT_MAX ? INT_MAX : (int)nodes, fab, &err);
        cf_offering_destroy(off);
        cf_catalog_close(cat);
        if (st != CF_OK) return cli_lib_error(cmd, st, &err);
    } else if ((rc = fabric_from_flags(cmd, o, fab)) != EXIT_OK) {
        return rc;
    }
    if (o->gdr && cf_fabric_set(fab, "gdr", o->gdr, &err) != CF_OK) return cli_param_error(cmd, &err);
    return EXIT_OK;
}

int cli_fabric_from_opts(const cli_ctx *ctx, const char *cmd, const cli_fabric_opts *o,
                         cf_fabric *fab)
{
    return cli_fabric_for_nodes(ctx, cmd, o, 1, fab);
}

/* The field names of the JSON (units in their suffixes, DESIGN §2), each
 * value followed by a reading in everyday units where it helps. */
static void print_text(const cf_coll_result *r)
{
    static const char *const bin[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double b = (double)r->message_bytes, t = r->time_us;
    int k = 0;
    while (b >= 1024 && k < 4) { b /= 1024; k++; }
    printf("collective     %s\n", cf_collective_name(r->collective));
    if (k > 0) printf("message_bytes  %llu (%.4g %s)\n", (unsigned long long)r->message_bytes, b, bin[k]);
    else printf("message_bytes  %llu\n", (unsigned long long)r->message_bytes);
    printf("nodes          %d\n", r->nodes);
    printf("ranks          %d (%d per node)\n", r->ranks, r->nodes > 0 ? r->ranks / r->nodes : r->ranks);
    printf("algo           %s\n", cf_algo_name(r->algo));
    if (t >= 1e6) printf("time_us        %.1f (%.3g s)\n", t, t / 1e6);
    else if (t >= 1e3) printf("time_us        %.1f (%.3g ms)\n", t, t / 1e3);
    else printf("time_us        %.1f\n", t);
    printf("algbw_GBps     %.2f (GB/s = 10^9 B/s, as nccl-tests reports it)\n", r->algbw_GBps);
    printf("busbw_GBps     %.2f (GB/s)\n", r->busbw_GBps);
    printf("bottleneck     %s\n", cf_bottleneck_name(r->bottleneck));
}

static int predict_collective(const cli_ctx *ctx, int argc, char **argv)
{
    static const struct option opts[] = {
        {"collective", required_argument, NULL, 'c'}, {"bytes", required_argument, NULL, 'b'},
        {"nodes", required_argument, NULL, 'n'}, {"ranks-per-node", required_argument, NULL, 'r'},
        {"offering", required_argument, NULL, 'o'}, {"gpu", required_argument, NULL, 'g'},
        {"gpus-per-node", required_argument, NULL, 'k'}, {"intra", required_argument, NULL, 'i'},
        {"network", required_argument, NULL, 'N'}, {"nics", required_argument, NULL, 'm'},
        {"nic-gbps", required_argument, NULL, 'x'}, {"gdr", required_argument, NULL, 'G'},
        {"algo", required_argument, NULL, 'a'}, {"format", required_argument, NULL, 'f'},
        {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    const char *cmd = "predict collective";
    const char *coll = NULL, *bytes = NULL, *nodes = NULL, *rpn = NULL, *algo = NULL;
    cli_fabric_opts fo;
    cli_format fmt = FMT_TEXT;
    cf_fabric fab;
    cf_coll_query q;
    cf_coll_result res;
    cf_status st;
    int c, rc;
    memset(&fo, 0, sizeof fo);
    cf_coll_query_init(&q);
    optind = 0;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'c': coll = optarg; break;
        case 'b': bytes = optarg; break;
        case 'n': nodes = optarg; break;
        case 'r': rpn = optarg; break;
        case 'o': fo.offering = optarg; break;
        case 'g': fo.gpu = optarg; break;
        case 'k': fo.gpus_per_node = optarg; break;
        case 'i': fo.intra = optarg; break;
        case 'N': fo.network = optarg; break;
        case 'm': fo.nics = optarg; break;
        case 'x': fo.nic_gbps = optarg; break;
        case 'G': fo.gdr = optarg; break;
        case 'a': algo = optarg; break;
        case 'f':
            if (cli_parse_format(cmd, optarg, FMT_TEXT | FMT_JSON, &fmt) != 0) return EXIT_USAGE;
            break;
        case 'h': fputs(predict_usage, stdout); return EXIT_OK;
        default: return cli_usage_error(cmd, "bad option");
        }
    }
    if (optind < argc) return cli_usage_error(cmd, "unexpected argument '%s'", argv[optind]);
    if (!coll || !bytes || !nodes) return cli_usage_error(cmd, "--collective, --bytes and --nodes are required");
    {
        static const char *const names[] = {"collective", "bytes", "nodes", "ranks_per_node", "algo"};
        const char *values[] = {coll, bytes, nodes, rpn, algo};
        cf_error err;
        cf_error_clear(&err);
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
            if (values[i] && cf_coll_query_set(&q, names[i], values[i], &err) != CF_OK)
                return cli_param_error(cmd, &err);
        rc = cli_fabric_for_nodes(ctx, cmd, &fo, q.nodes, &fab);
        if (rc != EXIT_OK) return rc;
        st = cf_collective_predict(&fab, &q, &res, &err);
        if (st != CF_OK) return st == CF_EINVAL ? cli_param_error(cmd, &err) : cli_lib_error(cmd, st, &err);
    }
    if (fmt == FMT_JSON) return cli_print_json(cf_coll_result_to_json(&res));
    print_text(&res);
    return EXIT_OK;
}

int cmd_predict(const cli_ctx *ctx, int argc, char **argv)
{
    if (argc < 2) return cli_usage_error("predict", "expected 'collective' or 'step'");
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        fputs(predict_usage, stdout);
        return EXIT_OK;
    }
    if (strcmp(argv[1], "collective") == 0) return predict_collective(ctx, argc - 1, argv + 1);
    if (strcmp(argv[1], "step") == 0) return cmd_predict_step(ctx, argc - 1, argv + 1);
    return cli_usage_error("predict", "unknown kind '%s' (accepted: collective, step)", argv[1]);
}
