/* recipe_sched.c — the verification job for the batch schedulers a rented
 * cluster comes with: Slurm (an sbatch script; srun starts every step, so
 * the nodes' own clusterfit, Open MPI and nccl-tests are used) and
 * Kubernetes (a Kubeflow MPI Operator v2beta1 MPIJob: its launcher runs
 * the steps of recipe.c with mpirun over the workers). */
#include <stdio.h>
#include "probe/recipe_int.h"

/* The Slurm steps: srun instead of mpirun, the same checks and stops. */
static void slurm_steps(cf__buf *b, const cf_offering *o, long nodes)
{
    long g = o->gpus_per_node;
    cf__recipe_fail_fn(b, "");
    cf__buf_printf(b,
                   "OUT=\"clusterfit-verify-${SLURM_JOB_ID:-local}\"\n"
                   "mkdir -p \"$OUT\"\n"
                   "srun --ntasks=%ld --ntasks-per-node=1 bash -c \"command -v clusterfit > /dev/null\" || \\\n"
                   "    cf_fail \"clusterfit is not on PATH on every node: install it there (make install)\"\n"
                   "srun --ntasks=%ld --ntasks-per-node=1 bash -c \"command -v all_reduce_perf > /dev/null\" || \\\n"
                   "    cf_fail \"all_reduce_perf is not on PATH on every node: build nccl-tests with MPI=1\" \\\n"
                   "    \"(github.com/NVIDIA/nccl-tests; without it each rank runs a job of its own)\"\n"
                   "# 1. Every node from the inside, one rank per node (Slurm starts Open MPI\n"
                   "#    through PMIx; use --mpi=pmi2 where the site has no PMIx plugin). Exit 1\n"
                   "#    (error findings) is a result for the audit, not a failure of the step.\n"
                   "rc=0; srun --mpi=pmix --ntasks=%ld --ntasks-per-node=1 clusterfit probe --mpi --offering %s \\\n"
                   "    --format json > \"$OUT/probe.json\" || rc=$?\n"
                   "[ \"$rc\" -le 1 ] || cf_fail \"step 1, clusterfit probe, failed (exit $rc): see $OUT/probe.json\" \\\n"
                   "    \"and clusterfit-verify-${SLURM_JOB_ID:-local}.log\"\n"
                   "# 2. nccl-tests across all %ld GPUs, one rank per GPU.\n"
                   "srun --mpi=pmix --ntasks=%ld --ntasks-per-node=%ld --export=ALL \\\n"
                   "    all_reduce_perf -b 8 -e 8G -f 2 -g 1 -c 1 -n 20 > \"$OUT/nccl-tests.log\" 2>&1 || \\\n"
                   "    cf_fail \"step 2, nccl-tests, failed (exit $?); its last lines:\" \"$(tail -n 5 \"$OUT/nccl-tests.log\")\"\n"
                   "# 3. The verdict against the offering's promise (its exit status is the job's).\n"
                   "clusterfit audit --offering %s \"$OUT/nccl-tests.log\" \"$OUT/probe.json\"\n",
                   nodes, nodes, nodes, o->id, nodes * g, nodes * g, g, o->id);
}

void cf__recipe_slurm(cf__buf *b, const cf_offering *o, const cf_recipe_opts *opts)
{
    long g = o->gpus_per_node, nodes = opts->nodes;
    cf__buf_printf(b, "#!/bin/bash\n# clusterfit recipe: verify ");
    cf__recipe_title(b, o, nodes);
    cf__buf_printf(b,
                   "\n"
                   "# Submit with: sbatch THIS_FILE   Results: clusterfit-verify-JOBID/\n"
                   "#SBATCH --job-name=clusterfit-verify\n"
                   "#SBATCH --nodes=%ld\n"
                   "#SBATCH --ntasks-per-node=%ld\n"
                   "#SBATCH --gpus-per-node=%ld\n"
                   "#SBATCH --exclusive\n"
                   "#SBATCH --time=00:30:00\n"
                   "#SBATCH --output=clusterfit-verify-%%j.log\n"
                   "set -euo pipefail\n",
                   nodes, g, g);
    cf__recipe_node_env(b, o->network, "");
    slurm_steps(b, o, nodes);
}

/* The device-plugin resources a worker needs besides its GPUs. */
static const char *extra_resources(cf_network n)
{
    switch (n) {
    case CF_NET_EFA: return "                  vpc.amazonaws.com/efa: %ld\n";
    case CF_NET_IB:
    case CF_NET_ROCE: return "                  rdma/rdma_shared_device_a: 1\n"; /* k8s-rdma-shared-dev-plugin */
    default: return "";
    }
}

void cf__recipe_kubernetes(cf__buf *b, const cf_offering *o, const cf_recipe_opts *opts)
{
    long g = o->gpus_per_node, nodes = opts->nodes;
    const char *extra = extra_resources(o->network);
    cf__buf_printf(b, "# clusterfit recipe: verify ");
    cf__recipe_title(b, o, nodes);
    cf__buf_printf(b,
                   "\n"
                   "# Kubeflow MPI Operator v2beta1. Apply with: kubectl apply -f THIS_FILE\n"
                   "# The image (%s) holds clusterfit, Open MPI and nccl-tests built with\n"
                   "# MPI=1: build it with docker build -f packaging/verify/Dockerfile and push it\n"
                   "# where the cluster pulls from (recipe --image names another).\n"
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
                   "              image: %s\n"
                   "              command: [\"/bin/bash\", \"-c\"]\n"
                   "              args:\n"
                   "                - |\n"
                   "                  set -u\n",
                   opts->image, g, opts->image);
    cf__recipe_mpirun_steps(b, o, nodes, "", "/tmp/clusterfit-verify", "                  ");
    cf__buf_printf(b,
                   "    Worker:\n"
                   "      replicas: %ld\n"
                   "      template:\n"
                   "        spec:\n"
                   "          containers:\n"
                   "            - name: worker\n"
                   "              image: %s\n"
                   "              securityContext:\n"
                   "                capabilities:\n"
                   "                  add: [\"IPC_LOCK\"]\n"
                   "              resources:\n"
                   "                limits:\n"
                   "                  nvidia.com/gpu: %ld\n",
                   nodes, opts->image, g);
    if (extra[0]) cf__buf_printf(b, extra, o->nics_per_node > 0 ? o->nics_per_node : 1);
}
