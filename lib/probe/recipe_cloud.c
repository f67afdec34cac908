/* recipe_cloud.c — the verification job for the launchers renters use over
 * several clouds: a SkyPilot task YAML (`sky launch`) and a dstack
 * distributed task (`dstack apply`). Both start the nodes and a container
 * of the verify image on each, then the head node runs the steps of
 * recipe.c with mpirun over the others.
 *
 * Where each can launch:
 * - SkyPilot: the provider's SkyPilot cloud, from the `cloud` rows of
 *   data/skypilot-map.csv (the same map that reads SkyPilot's price
 *   catalog), with the instance type where an `instance` row maps one to
 *   this offering; else `infra: k8s` when the offering offers Kubernetes
 *   (SkyPilot runs on any Kubernetes cluster in the kubeconfig). Its task
 *   environment: SKYPILOT_NODE_RANK, SKYPILOT_NODE_IPS (one per line, head
 *   first), SKYPILOT_NUM_GPUS_PER_NODE (SkyPilot's distributed-jobs guide,
 *   docs.skypilot.co). `network_tier: best` asks SkyPilot to set up the
 *   cloud's RDMA or GPUDirect-TCPX(O) networking where it knows how (GCP,
 *   Nebius, AWS EFA, Kubernetes on GKE, Nebius, CoreWeave; SkyPilot's YAML
 *   reference, resources.network_tier).
 * - dstack: the provider's backend (data/dstack-backends.csv), else an SSH
 *   fleet over the rented nodes (dstack's fleets guide). The task keys
 *   nodes, startup_order: workers-first, stop_criteria: master-done and
 *   DSTACK_MPI_HOSTFILE are those of dstack's own nccl-tests example
 *   (dstackai/dstack examples/clusters/nccl-tests). */
#include <stdio.h>
#include <string.h>
#include "probe/recipe_int.h"

/* The GPU's name as the launchers write it: the part before the first '-'
 * of the catalog's name (H100-SXM -> H100), and its memory when the name
 * ends in one (A100-SXM-80 -> "80"). */
static void gpu_parts(const char *gpu, char *name, size_t nn, char *mem, size_t mn)
{
    const char *dash = strchr(gpu, '-'), *last = strrchr(gpu, '-');
    size_t k = dash ? (size_t)(dash - gpu) : strlen(gpu);
    snprintf(name, nn, "%.*s", (int)k, gpu);
    mem[0] = 0;
    if (last && last[1] >= '0' && last[1] <= '9') snprintf(mem, mn, "%.*s", (int)strspn(last + 1, "0123456789"), last + 1);
}

/* ---- the SkyPilot map ---------------------------------------------------- */

typedef struct sky_target {
    char infra[64];    /* SkyPilot cloud, or "k8s" */
    char instance[96]; /* instance type, "" when the map names none */
    char acc[64];      /* accelerator name */
} sky_target;

/* The row of kind `kind` whose `match` column (key or value) equals `s`;
 * the index, or -1. */
static long map_find(const cf__csv_table *t, const char *kind, int col_match, const char *s)
{
    int ck = cf__csv_col(t, "kind");
    size_t r;
    for (r = 0; s && r < t->nrows; r++)
        if (strcmp(cf__csv_cell(t, r, ck), kind) == 0 && strcmp(cf__csv_cell(t, r, col_match), s) == 0)
            return (long)r;
    return -1;
}

static cf_status sky_lookup(const cf_offering *o, sky_target *tg, cf_error *err)
{
    size_t len = 0;
    const char *csv = cf__embedded_find("data/skypilot-map.csv", &len);
    cf__csv_table t = {0};
    int ckey, cval;
    long r;
    char name[32], mem[16], cand[64];
    memset(tg, 0, sizeof *tg);
    if (!csv || cf__csv_table_parse(csv, len, "data/skypilot-map.csv", (size_t)CF_MAX_IMPORT_ROWS, &t, err) != CF_OK)
        return CF_EUNSUPPORTED;
    ckey = cf__csv_col(&t, "key");
    cval = cf__csv_col(&t, "value");
    if ((r = map_find(&t, "instance", cval, o->id)) >= 0) {
        const char *k = cf__csv_cell(&t, (size_t)r, ckey), *slash = strchr(k, '/');
        if (slash) {
            snprintf(tg->infra, sizeof tg->infra, "%.*s", (int)(slash - k), k);
            snprintf(tg->instance, sizeof tg->instance, "%s", slash + 1);
        }
    }
    if (!tg->infra[0] && (r = map_find(&t, "cloud", cval, o->provider)) >= 0)
        snprintf(tg->infra, sizeof tg->infra, "%s", cf__csv_cell(&t, (size_t)r, ckey));
    if (!tg->infra[0] && o->orchestration_known && (o->orchestration & CF_ORCH_KUBERNETES))
        snprintf(tg->infra, sizeof tg->infra, "k8s");
    gpu_parts(o->gpu ? o->gpu : "", name, sizeof name, mem, sizeof mem);
    /* SkyPilot names a memory variant NAME-NNGB (A100-80GB) and the other
     * without it (A100 is the 40 GB part): the variant only where the map
     * knows that name. */
    snprintf(cand, sizeof cand, "%s-%sGB", name, mem);
    snprintf(tg->acc, sizeof tg->acc, "%s", mem[0] && map_find(&t, "accelerator", ckey, cand) >= 0 ? cand : name);
    cf__csv_table_clear(&t);
    if (tg->infra[0]) return CF_OK;
    cf_error_set(err, NULL, 0, 0,
                 "offering %s: SkyPilot has no cloud for %s (data/skypilot-map.csv) and the offering lists no "
                 "Kubernetes; use --scheduler slurm or dstack (an SSH fleet)",
                 o->id, o->provider ? o->provider : "its provider");
    return CF_EUNSUPPORTED;
}

static int sky_network_tier(const char *infra)
{
    return !strcmp(infra, "gcp") || !strcmp(infra, "nebius") || !strcmp(infra, "aws") || !strcmp(infra, "k8s");
}

cf_status cf__recipe_skypilot(cf__buf *b, const cf_offering *o, const cf_recipe_opts *opts, cf_error *err)
{
    sky_target tg;
    cf_status st = sky_lookup(o, &tg, err);
    if (st != CF_OK) return st;
    cf__buf_printf(b, "# clusterfit recipe: verify ");
    cf__recipe_title(b, o, opts->nodes);
    cf__buf_printf(b,
                   "\n# SkyPilot task. Launch with: sky launch -c clusterfit-verify THIS_FILE\n"
                   "# The image (%s) holds clusterfit, Open MPI and nccl-tests built with\n"
                   "# MPI=1: build it with docker build -f packaging/verify/Dockerfile and push it\n"
                   "# where the nodes pull from (recipe --image names another).\n"
                   "name: clusterfit-verify\n"
                   "num_nodes: %ld\n"
                   "resources:\n"
                   "  infra: %s%s\n",
                   opts->image, opts->nodes, tg.infra,
                   strcmp(tg.infra, "k8s") ? "" : "  # a Kubernetes cluster of this provider in your kubeconfig");
    if (tg.instance[0]) cf__buf_printf(b, "  instance_type: %s\n", tg.instance);
    else cf__buf_printf(b, "  accelerators: %s:%ld\n", tg.acc, o->gpus_per_node);
    cf__buf_printf(b, "  image_id: docker:%s\n", opts->image);
    if (sky_network_tier(tg.infra))
        cf__buf_printf(b, "  network_tier: best  # SkyPilot sets up the cloud's RDMA / GPUDirect networking\n");
    cf__buf_printf(b,
                   "run: |\n"
                   "  set -u\n"
                   "  # The head node runs every step with mpirun over all nodes; the others wait.\n"
                   "  if [ \"$SKYPILOT_NODE_RANK\" != 0 ]; then exit 0; fi\n"
                   "  F=/tmp/clusterfit-hosts; : > \"$F\"\n"
                   "  for ip in $SKYPILOT_NODE_IPS; do echo \"$ip slots=$SKYPILOT_NUM_GPUS_PER_NODE\" >> \"$F\"; done\n");
    cf__recipe_mpirun_steps(b, o, opts->nodes, "--hostfile /tmp/clusterfit-hosts", "/tmp/clusterfit-verify", "  ");
    return CF_OK;
}

/* ---- dstack ---------------------------------------------------------------- */

/* The provider's dstack backend into `out`, "" when dstack has none. */
static void dstack_backend(const cf_offering *o, char *out, size_t n)
{
    size_t len = 0, r;
    const char *csv = cf__embedded_find("data/dstack-backends.csv", &len);
    cf__csv_table t = {0};
    cf_error e;
    out[0] = 0;
    cf_error_clear(&e);
    if (!csv || !o->provider ||
        cf__csv_table_parse(csv, len, "data/dstack-backends.csv", (size_t)CF_MAX_IMPORT_ROWS, &t, &e) != CF_OK)
        return;
    for (r = 0; r < t.nrows; r++)
        if (strcmp(cf__csv_cell(&t, r, cf__csv_col(&t, "provider")), o->provider) == 0) {
            snprintf(out, n, "%s", cf__csv_cell(&t, r, cf__csv_col(&t, "backend")));
            break;
        }
    cf__csv_table_clear(&t);
}

cf_status cf__recipe_dstack(cf__buf *b, const cf_offering *o, const cf_recipe_opts *opts, cf_error *err)
{
    char backend[64], name[32], mem[16];
    (void)err;
    dstack_backend(o, backend, sizeof backend);
    gpu_parts(o->gpu ? o->gpu : "", name, sizeof name, mem, sizeof mem);
    cf__buf_printf(b, "# clusterfit recipe: verify ");
    cf__recipe_title(b, o, opts->nodes);
    cf__buf_printf(b,
                   "\n# dstack distributed task. Run with: dstack apply -f THIS_FILE (a fleet with\n"
                   "# placement: cluster first). The image (%s) holds clusterfit, Open MPI\n"
                   "# and nccl-tests built with MPI=1: build it with docker build -f\n"
                   "# packaging/verify/Dockerfile and push it (recipe --image names another).\n"
                   "type: task\n"
                   "name: clusterfit-verify\n"
                   "nodes: %ld\n"
                   "startup_order: workers-first\n"
                   "stop_criteria: master-done\n"
                   "image: %s\n",
                   opts->image, opts->nodes, opts->image);
    if (backend[0]) cf__buf_printf(b, "backends: [%s]\n", backend);
    else
        cf__buf_printf(b, "# dstack has no backend for %s: create an SSH fleet over the rented nodes\n"
                          "# (placement: cluster) and run this task on it.\n",
                       o->provider ? o->provider : "this provider");
    cf__buf_printf(b,
                   "# privileged: true  # where the backend needs it for /dev/infiniband (Kubernetes)\n"
                   "resources:\n"
                   "  gpu: %s%s%s%s:%ld\n"
                   "  shm_size: 16GB\n"
                   "commands:\n"
                   "  - |\n"
                   "    set -u\n"
                   "    # The master node runs every step with mpirun over all nodes; the others wait.\n"
                   "    if [ \"$DSTACK_NODE_RANK\" -ne 0 ]; then sleep infinity; fi\n",
                   name, mem[0] ? ":" : "", mem, mem[0] ? "GB" : "", o->gpus_per_node);
    cf__recipe_mpirun_steps(b, o, opts->nodes, "--hostfile $DSTACK_MPI_HOSTFILE", "/tmp/clusterfit-verify",
                            "    ");
    return CF_OK;
}
