/* recipe.c — cf_recipe: the job that verifies a rental, for Slurm (an
 * sbatch script), Kubernetes (a Kubeflow MPI Operator MPIJob), SkyPilot (a
 * task YAML) or dstack (a distributed task): the probe on every node,
 * nccl-tests all_reduce_perf across every GPU with the fabric's settings,
 * then `clusterfit audit --offering ID` over both. This file holds what every
 * launcher shares (the checks, the fabric's environment, the steps and how
 * they stop); recipe_sched.c writes Slurm and Kubernetes, recipe_cloud.c
 * SkyPilot and dstack.
 *
 * The settings, by fabric (the providers' published values):
 * - InfiniBand: every rail in NCCL_IB_HCA, listed on the node from
 *   /sys/class/infiniband (the devices whose port 1 link layer is
 *   InfiniBand), so a front-end or storage HCA of another link layer is
 *   left out; NCCL documentation, NCCL_IB_HCA.
 * - RoCE: the Ethernet-link-layer devices the same way, NCCL_IB_GID_INDEX=3
 *   (the RoCE v2 IPv4-mapped GID on mlx5 ports, what OCI's and Azure's
 *   RoCE guides set).
 * - EFA: FI_PROVIDER=efa, FI_EFA_USE_DEVICE_RDMA=1 (GPUDirect RDMA over
 *   EFA; required on p4d), FI_EFA_FORK_SAFE=1: aws-ofi-nccl's
 *   documentation.
 * - GPUDirect-TCPXO (A3 Mega): Google's nccl-env-profile.sh from the
 *   plugin's directory (NCCL_LIB_DIR), and the values its guest config
 *   checker enforces (NCCL_CROSS_NIC=0, NCCL_ALGO=Ring,Tree,
 *   NCCL_PROTO=Simple, NCCL_MIN_NCHANNELS=4) when it is absent.
 * - GPUDirect-TCPX (A3 High): the NCCL_GPUDIRECTTCPX_* variables of
 *   Google's A3 High guide (4 GPU NICs eth1-eth4, control eth0, the RX/TX
 *   daemon's socket prefix /run/tcpx).
 * Values that depend on the host (interface names, the plugin's path) are
 * overridable from the environment the job is submitted from.
 *
 * nccl-tests must be built with MPI=1 for one job over many processes
 * (nccl-tests README: "NCCL tests rely on MPI to work on multiple
 * processes, hence multiple nodes"); a binary built without it runs one
 * independent job per rank, which the audit reports. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "probe/recipe_int.h"

/* The fabric's exports, one "NAME=VALUE" per entry. */
static const char *const ib_env[] = {"NCCL_IB_HCA=$(cf_rails InfiniBand)", NULL};
static const char *const roce_env[] = {"NCCL_IB_HCA=$(cf_rails Ethernet)", "NCCL_IB_GID_INDEX=3", NULL};
static const char *const efa_env[] = {"FI_PROVIDER=efa", "FI_EFA_USE_DEVICE_RDMA=1", "FI_EFA_FORK_SAFE=1", NULL};
static const char *const tcpxo_env[] = {"NCCL_CROSS_NIC=0", "NCCL_ALGO=Ring,Tree", "NCCL_PROTO=Simple",
                                        "NCCL_MIN_NCHANNELS=4", NULL};
static const char *const tcpx_env[] = {"NCCL_SOCKET_IFNAME=eth0",
                                       "NCCL_GPUDIRECTTCPX_CTRL_DEV=eth0",
                                       "NCCL_GPUDIRECTTCPX_SOCKET_IFNAME=eth1,eth2,eth3,eth4",
                                       "NCCL_GPUDIRECTTCPX_UNIX_CLIENT_PREFIX=/run/tcpx",
                                       "NCCL_CROSS_NIC=0",
                                       "NCCL_ALGO=Ring",
                                       "NCCL_PROTO=Simple",
                                       "NCCL_NET_GDR_LEVEL=PIX",
                                       "LD_LIBRARY_PATH=/var/lib/tcpx/lib64:${LD_LIBRARY_PATH:-}",
                                       NULL};
static const char *const none_env[] = {NULL};

static const char *const *fabric_env(cf_network n)
{
    switch (n) {
    case CF_NET_IB: return ib_env;
    case CF_NET_ROCE: return roce_env;
    case CF_NET_EFA: return efa_env;
    case CF_NET_TCPXO: return tcpxo_env;
    case CF_NET_TCPX: return tcpx_env;
    default: return none_env;
    }
}

void cf__recipe_node_env(cf__buf *b, cf_network n, const char *indent)
{
    const char *const *e = fabric_env(n);
    cf__buf_printf(b,
                   "%s# RDMA devices whose port 1 has link layer $1, comma-separated (all rails)\n"
                   "%scf_rails() { for d in /sys/class/infiniband/*; do\n"
                   "%s    [ \"$(cat \"$d/ports/1/link_layer\" 2>/dev/null)\" = \"$1\" ] && printf \"%%s,\" \"${d##*/}\"\n"
                   "%sdone | sed \"s/,\\$//\"; }\n",
                   indent, indent, indent, indent);
    if (n == CF_NET_TCPXO)
        cf__buf_printf(b,
                       "%s# GPUDirect-TCPXO: the plugin profile (Google) sets the NCCL_FASTRAK_* variables\n"
                       "%sexport NCCL_LIB_DIR=\"${NCCL_LIB_DIR:-/var/lib/tcpxo/lib64}\"\n"
                       "%sexport LD_LIBRARY_PATH=\"$NCCL_LIB_DIR:${LD_LIBRARY_PATH:-}\"\n"
                       "%sif [ -f \"$NCCL_LIB_DIR/nccl-env-profile.sh\" ]; then . \"$NCCL_LIB_DIR/nccl-env-profile.sh\"; fi\n",
                       indent, indent, indent, indent);
    for (; *e; e++) {
        const char *eq = strchr(*e, '=');
        cf__buf_printf(b, "%sexport %.*s=\"${%.*s:-%s}\"\n", indent, (int)(eq - *e), *e, (int)(eq - *e), *e, eq + 1);
    }
    cf__buf_printf(b, "%sexport NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET\n", indent);
}

void cf__recipe_fail_fn(cf__buf *b, const char *indent)
{
    cf__buf_printf(b, "%s# Every step that fails stops here, saying which and what to do.\n"
                      "%scf_fail() { echo \"clusterfit recipe: $*\" >&2; exit 1; }\n",
                   indent, indent);
}

void cf__recipe_title(cf__buf *b, const cf_offering *o, long nodes)
{
    cf__buf_printf(b, "%ld nodes of %s (%s %s, %ld x %s, %s)", nodes, o->id, o->provider ? o->provider : "",
                   o->offering ? o->offering : "", o->gpus_per_node, o->gpu ? o->gpu : "GPU",
                   cf_network_label(o->network));
}

void cf__recipe_mpirun_steps(cf__buf *b, const cf_offering *o, long nodes, const char *hosts, const char *dir,
                             const char *in)
{
    long g = o->gpus_per_node;
    const char *h = hosts[0] ? " " : "";
    char inner[64];
    snprintf(inner, sizeof inner, "%s    ", in);
    cf__recipe_fail_fn(b, in);
    cf__buf_printf(b,
                   "%sMPIRUN=\"mpirun --allow-run-as-root%s%s\"\n"
                   "%scommand -v clusterfit > /dev/null || cf_fail \"clusterfit is not on PATH: run the image\" \\\n"
                   "%s    \"packaging/verify/Dockerfile builds, or install clusterfit (make install)\"\n"
                   "%s$MPIRUN -np %ld --npernode 1 bash -c \"command -v all_reduce_perf > /dev/null\" || \\\n"
                   "%s    cf_fail \"all_reduce_perf is not on PATH on every node: build nccl-tests with\" \\\n"
                   "%s    \"MPI=1 (github.com/NVIDIA/nccl-tests) or run the image packaging/verify/Dockerfile builds\"\n"
                   "%smkdir -p %s\n"
                   "%s# 1. Every node from the inside, one rank per node (exit 1 = error findings:\n"
                   "%s#    a result for the audit, not a failure of the step).\n"
                   "%src=0; $MPIRUN -np %ld --npernode 1 clusterfit probe --mpi --offering %s --format json \\\n"
                   "%s    < /dev/null > %s/probe.json || rc=$?\n"
                   "%s[ \"$rc\" -le 1 ] || cf_fail \"step 1, clusterfit probe, failed (exit $rc): see the messages above\"\n"
                   "%s# 2. nccl-tests across all %ld GPUs, one rank per GPU, with the fabric's settings.\n"
                   "%s$MPIRUN -np %ld --npernode %ld -x PATH -x LD_LIBRARY_PATH bash -c '\n",
                   in, h, hosts, in, in, in, nodes, in, in, in, dir, in, in, in, nodes, o->id, in, dir, in, in,
                   nodes * g, in, nodes * g, g);
    cf__recipe_node_env(b, o->network, inner);
    cf__buf_printf(b,
                   "%s    exec all_reduce_perf -b 8 -e 8G -f 2 -g 1 -c 1 -n 20' > %s/nccl-tests.log 2>&1 || \\\n"
                   "%s    cf_fail \"step 2, nccl-tests, failed (exit $?); its last lines:\" \"$(tail -n 5 %s/nccl-tests.log)\"\n"
                   "%s# 3. The verdict against the offering's promise (its exit status is the job's).\n"
                   "%sclusterfit audit --offering %s %s/nccl-tests.log %s/probe.json\n",
                   in, dir, in, dir, in, in, o->id, dir, dir);
}

static const char *const sched_names[] = {"slurm", "kubernetes", "skypilot", "dstack"};

const char *cf_recipe_scheduler_name(cf_recipe_scheduler s)
{
    return (unsigned)s < sizeof sched_names / sizeof *sched_names ? sched_names[s] : "unknown";
}

cf_status cf_recipe_scheduler_parse(const char *name, cf_recipe_scheduler *out, cf_error *err)
{
    size_t i;
    for (i = 0; name && i < sizeof sched_names / sizeof *sched_names; i++)
        if (strcmp(name, sched_names[i]) == 0) {
            *out = (cf_recipe_scheduler)i;
            return CF_OK;
        }
    cf_error_set_param(err, "scheduler", "scheduler: expected one of slurm, kubernetes, skypilot, dstack, got \"%s\"",
                       name ? name : "");
    return CF_EINVAL;
}

/* An image reference of the characters Docker's grammar allows, so that it
 * goes into YAML and shell unquoted. */
static int image_ok(const char *s)
{
    size_t n = 0;
    for (; s[n]; n++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._/:@-", s[n])) return 0;
    return n > 0 && n <= CF_RECIPE_IMAGE_MAX && s[0] != '-';
}

static cf_status check(const cf_offering *off, const cf_recipe_opts *o, cf_error *err)
{
    if (o->nodes < CF_RECIPE_NODES_MIN || o->nodes > CF_RECIPE_NODES_MAX) {
        cf_error_set_param(err, "nodes", "nodes must be %ld to %ld, got %ld", CF_RECIPE_NODES_MIN,
                           (long)CF_RECIPE_NODES_MAX, o->nodes);
        return CF_EINVAL;
    }
    if (o->image && !image_ok(o->image)) {
        cf_error_set_param(err, "image", "image must be 1 to %d characters of A-Z a-z 0-9 . _ / : @ - "
                           "(a container image reference), not starting with -", CF_RECIPE_IMAGE_MAX);
        return CF_EINVAL;
    }
    if ((unsigned)o->scheduler > CF_RECIPE_DSTACK) {
        cf_error_set_param(err, "scheduler", "cf_recipe: unknown scheduler %d", (int)o->scheduler);
        return CF_EINVAL;
    }
    if (off->gpus_per_node <= 0) {
        cf_error_set(err, NULL, 0, 0, "offering %s: gpus_per_node is unknown; a recipe needs it", off->id);
        return CF_EUNSUPPORTED;
    }
    if (off->network == CF_NET_UNKNOWN || off->network == CF_NET_NONE) {
        cf_error_set(err, NULL, 0, 0, "offering %s: the network is %s; a multi-node recipe needs one", off->id,
                     cf_network_name(off->network));
        return CF_EUNSUPPORTED;
    }
    return CF_OK;
}

cf_status cf_recipe(const cf_offering *off, const cf_recipe_opts *opts, char **out, cf_error *err)
{
    cf_recipe_opts o = {CF_RECIPE_NODES_MIN, CF_RECIPE_SLURM, NULL};
    cf__buf b;
    cf_status st = CF_OK;
    if (!out) return CF_EINVAL;
    *out = NULL;
    if (!off || !off->id) {
        cf_error_set(err, NULL, 0, 0, "cf_recipe: no offering");
        return CF_EINVAL;
    }
    if (opts) o = *opts;
    if ((st = check(off, &o, err)) != CF_OK) return st;
    if (!o.image) o.image = CF__RECIPE_IMAGE;
    cf__buf_init(&b, 1L << 20);
    switch (o.scheduler) {
    case CF_RECIPE_KUBERNETES: cf__recipe_kubernetes(&b, off, &o); break;
    case CF_RECIPE_SKYPILOT: st = cf__recipe_skypilot(&b, off, &o, err); break;
    case CF_RECIPE_DSTACK: st = cf__recipe_dstack(&b, off, &o, err); break;
    default: cf__recipe_slurm(&b, off, &o); break;
    }
    *out = cf__buf_take(&b, NULL);
    if (st != CF_OK) {
        free(*out);
        *out = NULL;
        return st;
    }
    return *out ? CF_OK : CF_ENOMEM;
}
