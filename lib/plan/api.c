/* api.c — the public entry points of the planner, bound to the real
 * models: cf_step_predict and the memory model (model/step.c, gpumem.c,
 * which also gives a GPU's usable memory), the fabric of an offering
 * for N nodes (plan/fabric.c, the one-node rule), the catalog. The engine itself (plan.c, scale.c,
 * search.c) takes the models as parameters so that unit tests can drive it
 * with hand-computable ones. */
#include <math.h>
#include "base/base.h"
#include "plan/plan_int.h"
#include "clusterfit/serve.h"
#include "clusterfit/hardware.h"
#include "model/model_int.h"
#include "model/serve_int.h"
#include "plan/serve_int.h"

/* The step model's memory per GPU without its time: lets the search reject
 * layouts that do not fit before predicting them. */
static double memory_gib(const cf_workload *w, const cf_fabric *fab, const cf_layout *lay)
{
    (void)fab;
    return cf__memory_gib(w, lay);
}

/* memory_gib with the search's memo (found bound to w by the search). */
static double memory_memo(const cf_workload *w, const cf_fabric *fab, const cf_layout *lay,
                          const struct cf__step_memo *memo)
{
    (void)fab;
    return cf__memory_gib_memo(w, lay, memo);
}

/* The least recompute that fits, the memory's shared parts computed once. */
static int least_recompute(const cf_workload *w, const cf_fabric *fab, const cf_layout *lay,
                           const int *zeros, int nz, double limit, const struct cf__step_memo *memo)
{
    cf__mem_shape ms;
    (void)fab;
    if (w->kind != CF_WL_LLM) {
        for (int rc = 0; rc < 3; rc++)
            for (int zi = 0; zi < nz; zi++) {
                cf_layout l = *lay;
                l.recompute = (cf_recompute)rc;
                l.zero = zeros[zi];
                if (cf__memory_gib(w, &l) <= limit) return rc;
            }
        return 3;
    }
    if (!memo) cf__mem_shape_init(w, &ms);
    return cf__llm_least_recompute(w, memo ? &memo->ms : &ms, lay, zeros, nz, limit);
}

const cf__plan_model cf__plan_model_default = {cf_step_predict, NULL, cf_fabric_for_nodes,
                                               cf__plan_mem_limit_gib, memory_gib,
                                               cf__step_predict_aided, memory_memo, least_recompute};

double cf__plan_mem_limit_gib(const char *gpu)
{
    /* The one usable figure, so that "fits" here means what it means in
     * `fit` and `predict step`. */
    return cf_gpu_usable_gib(gpu);
}

/* The document's `matched` (offerings that pass the filter) and, when none
 * does, `filters`: each filter alone against the whole catalog
 * (cf_filter_explain), so an empty plan says which filter or which
 * combination removed every offering. */
cf_status cf__plan_explain_empty(cf_catalog *cat, const cf_filter *filter,
                                const cf_offering_list *list, json_t *doc, cf_error *err)
{
    cf_filter any;
    cf_offering_list all = {NULL, 0};
    json_t *why;
    cf_status st;
    if (json_object_set_new(doc, "matched", json_integer((json_int_t)list->n))) goto nomem;
    if (list->n > 0) return CF_OK;
    cf_filter_init(&any);
    if ((st = cf_catalog_query(cat, &any, CF_SORT_PRICE, &all)) != CF_OK) {
        cf_error_set(err, NULL, 0, 0, "catalog query failed: %s", cf_strerror(st));
        return st;
    }
    why = cf_filter_explain(&all, filter);
    if (!why || json_object_set_new(doc, "filters", why) ||
        json_object_set_new(doc, "catalog_offerings", json_integer((json_int_t)all.n))) {
        cf_offering_list_clear(&all);
        goto nomem;
    }
    cf_offering_list_clear(&all);
    return CF_OK;
nomem:
    cf_error_set(err, NULL, 0, 0, "out of memory");
    return CF_ENOMEM;
}

cf_status cf_plan(cf_catalog *cat, const cf_filter *filter, const cf_workload *w,
                  const cf_plan_opts *opts, json_t **out, cf_error *err)
{
    cf_plan_opts defaults;
    cf_filter all;
    cf_offering_list list = {NULL, 0};
    cf_status st;
    *out = NULL;
    if (!opts) {
        cf_plan_opts_init(&defaults);
        opts = &defaults;
    }
    if ((st = cf__plan_check_opts(opts, err)) != CF_OK) return st;
    if (w && w->kind == CF_WL_SERVE)   /* serving: lib/plan/serve_plan.c */
        return cf_serve_plan_check_opts(opts, err) != CF_OK
                   ? CF_EINVAL
                   : cf_serve_plan(cat, filter, w, NULL, opts->currency, opts->top, out, err);
    if (!filter) {
        /* No filter: every offering; one rented as a single node or stating
         * no network is planned on one node. */
        cf_filter_init(&all);
        filter = &all;
    }
    st = cf_catalog_query(cat, filter, CF_SORT_PRICE, &list);
    if (st != CF_OK) {
        cf_error_set(err, NULL, 0, 0, "catalog query failed: %s", cf_strerror(st));
        return st;
    }
    st = cf__plan_run(&cf__plan_model_default, &list, w, opts, out, err);
    if (st == CF_OK) st = cf__plan_explain_empty(cat, filter, &list, *out, err);
    if (st != CF_OK && *out) {
        json_decref(*out);
        *out = NULL;
    }
    cf_offering_list_clear(&list);
    return st;
}

cf_status cf_scale(const cf_offering *o, const cf_workload *w, const int *nodes,
                   size_t n_nodes, json_t **out, cf_error *err)
{
    if (w && w->kind == CF_WL_SERVE) return cf_serve_scale(o, w, NULL, nodes, n_nodes, out, err);
    return cf__scale_run(&cf__plan_model_default, o, w, nodes, n_nodes, out, err);
}

cf_status cf_scale_goodput(const cf_offering *o, const cf_workload *w, const int *nodes,
                           size_t n_nodes, const cf_goodput_opts *g, json_t **out, cf_error *err)
{
    /* goodput is a training run's (failures, checkpoints, restarts) */
    if (cf__serve_refuse(w, "goodput", err) != CF_OK) return CF_EINVAL;
    return cf__scale_run_gp(&cf__plan_model_default, o, w, nodes, n_nodes, g, out, err);
}
