/* recipe_int.h — what the recipe files share (recipe.c: the checks, the
 * fabric's environment and the verification steps every launcher runs;
 * recipe_sched.c: Slurm and Kubernetes; recipe_cloud.c: SkyPilot and
 * dstack). Not installed; cf__ names. */
#ifndef CLUSTERFIT_RECIPE_INT_H
#define CLUSTERFIT_RECIPE_INT_H

#include "base/base.h"
#include "clusterfit/limits.h"
#include "clusterfit/probe.h"

/* The image every launcher but Slurm runs when --image is not given: the one
 * packaging/verify/Dockerfile builds (clusterfit, Open MPI, nccl-tests built
 * with MPI=1 on NVIDIA's CUDA development image). */
#define CF__RECIPE_IMAGE "clusterfit-verify:latest"

/* The shell lines every node runs before NCCL: the rails function and the
 * fabric's exports, each line prefixed by `indent`; they hold no single quote,
 * so a launcher can pass them inside bash -c '...'. */
void cf__recipe_node_env(cf__buf *b, cf_network n, const char *indent);

/* The function the steps stop through (cf_fail MESSAGE: the message on
 * stderr, exit 1), prefixed by `indent`. */
void cf__recipe_fail_fn(cf__buf *b, const char *indent);

/* The three steps from one launching shell that reaches every node with
 * mpirun: the probe (one rank per node), nccl-tests (one rank per GPU, with
 * the fabric's environment), the audit of both under `dir`. `hosts` is the
 * mpirun host argument ("" when the launcher's MPI knows the hosts, else
 * e.g. "--hostfile \"$F\""); every line is prefixed by `indent`. A step that
 * fails stops the script with what failed and what to do. */
void cf__recipe_mpirun_steps(cf__buf *b, const cf_offering *o, long nodes, const char *hosts,
                             const char *dir, const char *indent);

/* The one-line description "N nodes of ID (provider offering, G x GPU,
 * network)" the first comment of every recipe carries. */
void cf__recipe_title(cf__buf *b, const cf_offering *o, long nodes);

void cf__recipe_slurm(cf__buf *b, const cf_offering *o, const cf_recipe_opts *opts);
void cf__recipe_kubernetes(cf__buf *b, const cf_offering *o, const cf_recipe_opts *opts);
/* SkyPilot and dstack refuse (CF_EUNSUPPORTED, err set) an offering whose
 * provider the launcher cannot provision and that offers no Kubernetes. */
cf_status cf__recipe_skypilot(cf__buf *b, const cf_offering *o, const cf_recipe_opts *opts, cf_error *err);
cf_status cf__recipe_dstack(cf__buf *b, const cf_offering *o, const cf_recipe_opts *opts, cf_error *err);

#endif
