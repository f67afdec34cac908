/* cmd_predict.c — `clusterfit predict collective|step`.
 *
 * `predict collective` is here; `predict step` is dispatched to
 * cmd_predict_step (src/cmd_predict_step.c). The fabric options are parsed by
 * cli_fabric_from_opts, shared by both: either --offering ID (from the
 * catalog) or the explicit flags. */
#include <getopt.h>
#include <math.h>
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

int cli_fabric_from_opts(const cli_ctx *ctx, const char *cmd, const cli_fabric_opts *o,
                         cf_fabric *fab)
{
    long v;
    double d;
    memset(fab, 0, sizeof *fab);
    fab->gdr = CF_GDR_UNKNOWN;
    fab->non_blocking = fab->rail_optimized = CF_CAP_UNKNOWN;
    if (o->offering) {
        if (o->gpu || o->gpus_per_node || o->intra || o->network || o->nics || o->nic_gbps)
            return cli_usage_error(cmd, "--offering excludes the fabric flags (--gpu, --intra, ...)");
        {
            cf_catalog *cat = NULL;
            cf_offering *off = NULL;
            cf_error err;
            cf_status st;
            int rc = cli_open_catalog(ctx, cmd, &cat);
            if (rc != EXIT_OK) return rc;
            cf_error_clear(&err);
            st = cf_catalog_get(cat, o->offering, &off);
            if (st == CF_ENOTFOUND) {
                cf_catalog_close(cat);
                return cli_usage_error(cmd, "no offering '%s' (see 'clusterfit list')", o->offering);
            }
            if (st == CF_OK) st = cf_fabric_from_offering(off, fab, &err);
            if (st == CF_EUNSUPPORTED && off->gpu && off->gpus_per_node >= 1 &&
                off->network != CF_NET_NONE) {
                /* Network or its line rate unknown: fine within one node.
                 * network CF_NET_UNKNOWN marks the fabric as one-node only
                 * (see cli_one_node_fabric). */
                cf_offering one = *off;     /* shallow: only read during the call */
                one.network = CF_NET_NONE;
                one.network_gbps_per_node = NAN;
                one.nics_per_node = -1;
                cf_error_clear(&err);
                st = cf_fabric_from_offering(&one, fab, &err);
                fab->network = CF_NET_UNKNOWN;
            }
            cf_offering_free(off);
            cf_catalog_close(cat);
            if (st != CF_OK) return cli_lib_error(cmd, st, &err);
        }
    } else {
        const cf_gpu_spec *g;
        if (!o->gpu || !o->gpus_per_node || !o->intra || !o->network)
            return cli_usage_error(cmd, "give --offering ID, or --gpu, --gpus-per-node, --intra and --network");
        if (cf_gpu_lookup(o->gpu, &g) != CF_OK)
            return cli_usage_error(cmd, "unknown --gpu '%s' (accepted: %s)", o->gpu, cf_gpu_accepted());
        snprintf(fab->gpu, sizeof fab->gpu, "%s", g->name);
        if (cli_parse_int(cmd, "--gpus-per-node", o->gpus_per_node, 1, 1024, &v) != 0) return EXIT_USAGE;
        fab->gpus_per_node = (int)v;
        if (cf_intra_link_parse(o->intra, &fab->intra_link) != CF_OK || fab->intra_link == CF_INTRA_UNKNOWN)
            return cli_usage_error(cmd, "unknown --intra '%s' (accepted: %s)", o->intra,
                                   cf_intra_link_accepted());
        if (cf_network_parse(o->network, &fab->network) != CF_OK || fab->network == CF_NET_UNKNOWN)
            return cli_usage_error(cmd, "unknown --network '%s' (accepted: %s)", o->network,
                                   cf_network_accepted());
        if (fab->network != CF_NET_NONE) {
            if (!o->nics || !o->nic_gbps)
                return cli_usage_error(cmd, "--network %s needs --nics and --nic-gbps", o->network);
            if (cli_parse_int(cmd, "--nics", o->nics, 1, 1024, &v) != 0) return EXIT_USAGE;
            fab->nics_per_node = (int)v;
            if (cli_parse_num(cmd, "--nic-gbps", o->nic_gbps, CF_LINE_GBPS_MIN, CF_LINE_GBPS_MAX, &d) != 0) return EXIT_USAGE;
            fab->nic_gbps = d;
        }
    }
    if (o->gdr && (cf_gdr_parse(o->gdr, &fab->gdr) != CF_OK))
        return cli_usage_error(cmd, "unknown --gdr '%s' (accepted: %s)", o->gdr, cf_gdr_accepted());
    return EXIT_OK;
}

/* A fabric from an offering whose network or line rate is unknown has
 * network CF_NET_UNKNOWN and no NICs (cli_fabric_from_opts): usable on one
 * node, where no inter-node fabric is involved. For `nodes` = 1 it becomes
 * network none; for more, the error is printed and its exit code returned
 * (usage error, exit 2: the question needs a fabric the offering does not
 * state). EXIT_OK otherwise. */
int cli_one_node_fabric(const char *cmd, const char *offering, cf_fabric *fab, long nodes)
{
    if (fab->network != CF_NET_UNKNOWN) return EXIT_OK;
    if (nodes <= 1) {
        fab->network = CF_NET_NONE;
        return EXIT_OK;
    }
    return cli_usage_error(cmd, "%ld nodes need the network between them, and offering %s does not "
                           "state it or its line rate (one node works)", nodes,
                           offering ? offering : "?");
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
    long v;
    int c, rc;
    memset(&fo, 0, sizeof fo);
    memset(&q, 0, sizeof q);
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
    if (cf_collective_parse(coll, &q.collective) != CF_OK || q.collective == CF_COLL_UNKNOWN)
        return cli_usage_error(cmd, "unknown --collective '%s' (accepted: %s)", coll, cf_collective_accepted());
    if (cf_parse_size(bytes, &q.bytes) != CF_OK || q.bytes == 0)
        return cli_usage_error(cmd, "--bytes expects a size such as 1048576, 512M or 8G, got '%s'", bytes);
    if (cli_parse_int(cmd, "--nodes", nodes, 1, 1000000, &v) != 0) return EXIT_USAGE;
    q.nodes = (int)v;
    if (rpn) {
        if (cli_parse_int(cmd, "--ranks-per-node", rpn, 1, 1024, &v) != 0) return EXIT_USAGE;
        q.ranks_per_node = (int)v;
    }
    q.algo = CF_ALGO_AUTO;
    if (algo && cf_algo_parse(algo, &q.algo) != CF_OK)
        return cli_usage_error(cmd, "unknown --algo '%s' (accepted: %s)", algo, cf_algo_accepted());
    rc = cli_fabric_from_opts(ctx, cmd, &fo, &fab);
    if (rc != EXIT_OK) return rc;
    if (q.ranks_per_node > fab.gpus_per_node)
        return cli_usage_error(cmd, "--ranks-per-node %d exceeds the node's %d GPUs", q.ranks_per_node,
                               fab.gpus_per_node);
    if ((rc = cli_one_node_fabric(cmd, fo.offering, &fab, q.nodes)) != EXIT_OK) return rc;
    if (q.nodes > 1 && (fab.network == CF_NET_NONE || fab.network == CF_NET_UNKNOWN))
        return cli_usage_error(cmd, "--nodes %d needs a network between the nodes", q.nodes);
    if (cf_collective_predict(&fab, &q, &res) != CF_OK)
        return cli_usage_error(cmd, "the model cannot run --algo %s for %s on this fabric "
                               "(nvls needs NVSwitch NVLink4+ and one node; nvlstree and collnet several nodes; "
                               "collectives other than all_reduce use ring)",
                               cf_algo_name(q.algo), cf_collective_name(q.collective));
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
