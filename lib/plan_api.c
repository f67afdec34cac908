/* plan_api.c — the public entry points of the planner, bound to the real
 * models: cf_step_predict and cf_fit (lib/step.c, lib/fit.c), the fabric of an
 * offering (lib/collective.c), the GPU table (lib/hardware.c), the catalog.
 * The engine itself (lib/plan.c, lib/plan_search.c) takes the models as
 * parameters so that unit tests can drive it with hand-computable ones. */
#include <math.h>
#include "plan_internal.h"
#include "clusterfit/hardware.h"

const cf__plan_model cf__plan_model_default = {cf_step_predict, cf_fit, cf_fabric_from_offering,
                                               cf__plan_mem_limit_gib, NULL};

double cf__plan_mem_limit_gib(const char *gpu)
{
    const cf_gpu_spec *spec;
    if (!gpu || cf_gpu_lookup(gpu, &spec) != CF_OK || isnan(spec->memory_gb)) return NAN;
    /* The vendor's "80 GB"/"141 GB" is, to within 0.5 %, the GiB that
     * nvidia-smi reports as total (H100 80 GB: 81559 MiB = 79.6 GiB; H200
     * 141 GB: 143771 MiB = 140.4 GiB). The step model adds its own runtime
     * reserve to memory_per_gpu_gib. */
    return spec->memory_gb * 0.995;
}

cf_status cf_plan(cf_catalog *cat, const cf_filter *filter, const cf_workload *w,
                  const cf_plan_opts *opts, json_t **out, cf_error *err)
{
    cf_plan_opts defaults;
    cf_filter multinode;
    cf_offering_list list = {NULL, 0};
    cf_status st;
    *out = NULL;
    if (!opts) {
        cf_plan_opts_init(&defaults);
        opts = &defaults;
    }
    if ((st = cf__plan_check_opts(opts, err)) != CF_OK) return st;
    if (!filter) {
        cf_filter_init(&multinode);
        multinode.multinode = CF_CAP_YES;
        filter = &multinode;
    }
    st = cf_catalog_query(cat, filter, CF_SORT_PRICE, &list);
    if (st != CF_OK) {
        cf_error_set(err, NULL, 0, 0, "catalog query failed: %s", cf_strerror(st));
        return st;
    }
    st = cf__plan_run(&cf__plan_model_default, &list, w, opts, out, err);
    cf_offering_list_free(&list);
    return st;
}

cf_status cf_scale(const cf_offering *o, const cf_workload *w, const int *nodes,
                   size_t n_nodes, json_t **out, cf_error *err)
{
    return cf__scale_run(&cf__plan_model_default, o, w, nodes, n_nodes, out, err);
}
