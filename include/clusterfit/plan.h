/* plan.h — rank catalog offerings for a workload by what the job will really
 * cost or how long it takes (DESIGN.md §4.5), and the scaling-efficiency
 * curve of one offering (`scale`). */
#ifndef CLUSTERFIT_PLAN_H
#define CLUSTERFIT_PLAN_H

#include <jansson.h>
#include "status.h"
#include "catalog.h"
#include "workload.h"
#include "step.h"

typedef enum cf_objective { CF_OBJ_COST = 0, CF_OBJ_TIME } cf_objective;

typedef struct cf_plan_opts {
    cf_objective objective;
    double deadline_h;      /* NAN = none: cost objective under a deadline */
    double budget;          /* NAN = none: time objective under a budget */
    const char *currency;   /* NULL = "USD"; prices are never converted */
    long max_gpus;          /* cap when max_cluster_gpus is unknown; 0 = 16384 */
    int top;                /* rows kept in `ranked`; 0 = all */
} cf_plan_opts;

CF_API void cf_plan_opts_init(cf_plan_opts *o);

/* Plans `w` over the offerings of `cat` passing `filter` (NULL = all multi-node
 * offerings). *out is the JSON of DESIGN §6 (plan → {workload, currency,
 * ranked[], unranked[]}); new reference owned by the caller. */
CF_API cf_status cf_plan(cf_catalog *cat, const cf_filter *filter, const cf_workload *w,
                         const cf_plan_opts *opts, json_t **out, cf_error *err);

/* Scaling curve of `w` on one offering over `nodes` (n_nodes counts; NULL =
 * N0 then powers of two up to the cluster limit). *out is the JSON array
 * [{nodes, step_time_s, throughput, scaling_efficiency, cost}]. */
CF_API cf_status cf_scale(const cf_offering *o, const cf_workload *w, const int *nodes,
                          size_t n_nodes, json_t **out, cf_error *err);

#endif
