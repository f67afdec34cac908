/* recipe.c — cf_recipe: the job that verifies a rental, for Slurm (an
 * sbatch script) or Kubernetes (a Kubeflow MPI Operator MPIJob): the probe
 * on every node, nccl-tests all_reduce_perf across every GPU with the
 * fabric's settings, then `clusterfit audit --offering ID` over both.
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
 * overridable from the environment the job is submitted from. */
#include <math.h>
#include <stdio.h>
#include "base/base.h"
#include "probe/probe_int.h"

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

/* The shell lines every node runs before NCCL: the rails function and the
 * fabric's exports, indented for YAML when indent is set; no single quote,
 * so that the Kubernetes launcher can pass them in `bash -c '...'`. */
static void node_env(cf__buf *b, cf_network n, const char *indent)
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

static void slurm(cf__buf *b, const cf_offering *o, long nodes)
{
    long g = o->gpus_per_node;
    cf__buf_printf(b,
                   "#!/bin/bash\n"
                   "# clusterfit recipe: verify %ld nodes of %s (%s %s, %ld x %s, %s)\n"
                   "# Submit with: sbatch THIS_FILE   Results: clusterfit-verify-JOBID/\n"
                   "#SBATCH --job-name=clusterfit-verify\n"
                   "#SBATCH --nodes=%ld\n"
                   "#SBATCH --ntasks-per-node=%ld\n"
                   "#SBATCH --gpus-per-node=%ld\n"
                   "#SBATCH --exclusive\n"
                   "#SBATCH --time=00:30:00\n"
                   "#SBATCH --output=clusterfit-verify-%%j.log\n"
                   "set -euo pipefail\n",
                   nodes, o->id, o->provider ? o->provider : "", o->offering ? o->offering : "", g,
                   o->gpu ? o->gpu : "GPU", cf_network_label(o->network), nodes, g, g);
    node_env(b, o->network, "");
    cf__buf_printf(b,
                   "OUT=\"clusterfit-verify-${SLURM_JOB_ID:-local}\"\n"
                   "mkdir -p \"$OUT\"\n"
                   "# 1. Every node from the inside, one rank per node (Slurm starts Open MPI\n"
                   "#    through PMIx; use --mpi=pmi2 where the site has no PMIx plugin).\n"
                   "srun --mpi=pmix --ntasks=%ld --ntasks-per-node=1 clusterfit probe --mpi --offering %s \\\n"
                   "    --format json > \"$OUT/probe.json\" || true\n"
                   "# 2. nccl-tests across all %ld GPUs, one rank per GPU.\n"
                   "srun --mpi=pmix --ntasks=%ld --ntasks-per-node=%ld --export=ALL \\\n"
                   "    all_reduce_perf -b 8 -e 8G -f 2 -g 1 -c 1 -n 20 > \"$OUT/nccl-tests.log\" 2>&1 || true\n"
                   "# 3. The verdict against the offering's promise.\n"
                   "clusterfit audit --offering %s \"$OUT/nccl-tests.log\" \"$OUT/probe.json\"\n",
                   nodes, o->id, nodes * g, nodes * g, g, o->id);
}

/* The device-plugin resources a worker needs besides its GPUs. */
static const char *extra_resources(cf_network n)
{
    switch (n) {
    case CF_NET_EFA: return "                vpc.amazonaws.com/efa: %ld\n";
    case CF_NET_IB:
    case CF_NET_ROCE: return "                rdma/rdma_shared_device_a: 1\n";   /* k8s-rdma-shared-dev-plugin */
    default: return "";
    }
}

static void kubernetes(cf__buf *b, const cf_offering *o, long nodes)
{
    long g = o->gpus_per_node;
    const char *extra = extra_resources(o->network);
    cf__buf_printf(b,
                   "# clusterfit recipe: verify %ld nodes of %s (%s %s, %ld x %s, %s)\n"
                   "# Kubeflow MPI Operator v2beta1. Apply with: kubectl apply -f THIS_FILE\n"
                   "# The image must hold clusterfit, Open MPI and nccl-tests (all_reduce_perf).\n"
                   "apiVersion: kubeflow.org/v2beta1\n"
                   "kind: MPIJob\n"
                   "metadata:\n"
                   "  name: clusterfit-verify\n"
                   "spec:\n"
                   "  slotsPerWorker: %ld\n"
                   "  runPolicy:\n"
                   "    cleanPodPolicy: Running\n"
                   "  mpiReplicaSpecs:\n"
                   "    Launcher:\n"
                   "      replicas: 1\n"
                   "      template:\n"
                   "        spec:\n"
                   "          containers:\n"
                   "            - name: launcher\n"
                   "              image: clusterfit-nccl-tests:latest\n"
                   "              command: [\"/bin/bash\", \"-c\"]\n"
                   "              args:\n"
                   "                - |\n"
                   "                  set -u\n"
                   "                  mpirun --allow-run-as-root -np %ld --npernode 1 \\\n"
                   "                    clusterfit probe --mpi --offering %s --format json < /dev/null > /tmp/probe.json\n"
                   "                  mpirun --allow-run-as-root -np %ld --npernode %ld -x PATH -x LD_LIBRARY_PATH \\\n"
                   "                    bash -c '\n",
                   nodes, o->id, o->provider ? o->provider : "", o->offering ? o->offering : "", g,
                   o->gpu ? o->gpu : "GPU", cf_network_label(o->network), g, nodes, o->id, nodes * g, g);
    node_env(b, o->network, "                      ");
    cf__buf_printf(b,
                   "                      exec all_reduce_perf -b 8 -e 8G -f 2 -g 1 -c 1 -n 20' > /tmp/nccl-tests.log 2>&1\n"
                   "                  clusterfit audit --offering %s /tmp/nccl-tests.log /tmp/probe.json\n"
                   "    Worker:\n"
                   "      replicas: %ld\n"
                   "      template:\n"
                   "        spec:\n"
                   "          containers:\n"
                   "            - name: worker\n"
                   "              image: clusterfit-nccl-tests:latest\n"
                   "              securityContext:\n"
                   "                capabilities:\n"
                   "                  add: [\"IPC_LOCK\"]\n"
                   "              resources:\n"
                   "                limits:\n"
                   "                  nvidia.com/gpu: %ld\n",
                   o->id, nodes, g);
    if (extra[0]) {
        cf__buf_add(b, "  ", 2);
        cf__buf_printf(b, extra, o->nics_per_node > 0 ? o->nics_per_node : 1);
    }
}

cf_status cf_recipe(const cf_offering *off, long nodes, cf_recipe_scheduler sched, char **out, cf_error *err)
{
    cf__buf b;
    if (!out) return CF_EINVAL;
    *out = NULL;
    if (!off || !off->id) {
        cf_error_set(err, NULL, 0, 0, "cf_recipe: no offering");
        return CF_EINVAL;
    }
    if (nodes < CF_RECIPE_NODES_MIN || nodes > CF_RECIPE_NODES_MAX) {
        cf_error_set_param(err, "nodes", "nodes must be %ld to %ld, got %ld", CF_RECIPE_NODES_MIN,
                           (long)CF_RECIPE_NODES_MAX, nodes);
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
    cf__buf_init(&b, 1L << 20);
    if (sched == CF_RECIPE_KUBERNETES) kubernetes(&b, off, nodes);
    else slurm(&b, off, nodes);
    *out = cf__buf_take(&b, NULL);
    return *out ? CF_OK : CF_ENOMEM;
}
