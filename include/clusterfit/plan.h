/* plan.h — rank catalog offerings for a workload by what the job will really
 * cost or how long it takes (DESIGN.md §4.5), and the scaling-efficiency
 * curve of one offering (`scale`).
 *
 * Definitions (DESIGN §4.1): scaling efficiency E(N) = throughput(N) /
 * ((N/N0) × throughput(N0)), N0 = the smallest node count on which the
 * workload fits; parallel efficiency P = ideal step time (no exposed
 * communication, no bubble, same layout) / predicted step time; effective
 * price = sticker price / P; cost = nodes × gpus_per_node × price × billed
 * hours (billing increment and minimum commitment applied). */
#ifndef CLUSTERFIT_PLAN_H
#define CLUSTERFIT_PLAN_H

#include <jansson.h>
#include "status.h"
#include "catalog.h"
#include "workload.h"
#include "step.h"

typedef enum cf_objective { CF_OBJ_COST = 0, CF_OBJ_TIME } cf_objective;

/* Progress of a long plan: `done` of `total` search units (distinct node
 * types) finished. Called from cf_plan's thread; must not call back into the
 * plan. */
typedef void (*cf_progress_fn)(void *user, size_t done, size_t total);

typedef struct cf_plan_opts {
    cf_objective objective;
    double deadline_h;      /* NAN = none: cost objective under a deadline */
    double budget;          /* NAN = none: time objective under a budget */
    const char *currency;   /* NULL = "USD"; prices are never converted */
    long max_gpus;          /* cap when max_cluster_gpus is unknown; 0 = 16384 */
    int top;                /* rows kept in `ranked`; 0 = all */
    cf_progress_fn progress;/* NULL = none */
    void *progress_user;
    unsigned long *evaluated;/* out, NULL = not wanted: layouts whose step
                             * time was predicted (benchmarks) */
} cf_plan_opts;

/* Scaling efficiency above this gets its reason wherever it is shown: the
 * row's `scaling_note` in `plan` and `scale`, the plan's `why`, the page's
 * note under the chart. E > 1 is not an error of the definition (DESIGN
 * §4.1): on N0 the workload often fits only with full recompute, ZeRO-3 or
 * more pipeline stages, which more nodes make unnecessary. Excesses up to 5 %
 * are well inside the step model's own error (median 8-9 % on the training
 * validation rows, README) and get no sentence. */
#define CF_PLAN_E_NOTE_MIN 1.05

/* Near-tie rule of the choice per offering (`plan`, DESIGN §4.5): among the
 * configurations whose objective is within this many percent of the best
 * (time to train for --objective time, cost for --objective cost), the one
 * best on the other criterion wins (cheapest, resp. fastest). Why 1 %: the
 * step model's own error is 8-9 % median on the training validation rows
 * (README), so a 1 % gap in time or cost is not a real difference, while
 * paying twice the money for a 0.3 % faster run (4096 vs 2048 nodes) or
 * waiting twice as long for 0.5 % less money is never what a user means. */
#define CF_PLAN_NEAR_TIE_PCT 1.0

/* Default cap on a cluster whose largest size the provider does not state
 * (DESIGN §4.5); such rows carry the flag max_cluster_unknown. */
#define CF_PLAN_DEFAULT_MAX_GPUS 16384L

/* Objective cost, no deadline, no budget, currency NULL (USD), max_gpus 0
 * (= CF_PLAN_DEFAULT_MAX_GPUS), top 0 (all), no progress callback. */
CF_API void cf_plan_opts_init(cf_plan_opts *o);

/* Plans `w` over the offerings of `cat` passing `filter` (NULL = all multi-node
 * offerings). *out is the JSON of DESIGN §6 (plan → {workload, currency,
 * ranked[], unranked[]}); new reference owned by the caller. Each ranked row
 * also has `scaling_note`: null, or when its E > CF_PLAN_E_NOTE_MIN an object
 * {text, cause, n0, n0_layout} saying why: cause "memory" when the fastest
 * layout on N0 without the memory limit would be at least as fast per GPU
 * (memory alone makes N0 slower), else "other"; n0_layout is the layout on
 * N0 ({tp, pp, vp, dp, cp, zero, recompute, micro_batch}). Every offering
 * passing the filter is either in ranked (one row: its best configuration
 * under the objective) or in unranked with its reasons. Errors: CF_EINVAL for
 * bad options (negative deadline or budget, objective out of range), CF_EDB
 * from the catalog, CF_ENOMEM; *out is NULL on error. */
CF_API cf_status cf_plan(cf_catalog *cat, const cf_filter *filter, const cf_workload *w,
                         const cf_plan_opts *opts, json_t **out, cf_error *err);

/* Scaling curve of `w` on one offering over `nodes` (n_nodes counts; NULL =
 * N0 then powers of two up to the cluster limit). *out is the JSON array
 * [{nodes, step_time_s, throughput, scaling_efficiency, parallel_efficiency,
 * cost, layout, scaling_note, n0, n0_throughput}]: each row the fastest layout that fits on that
 * node count (`layout` as in scaling_note's n0_layout, null when nothing
 * fits; scaling_note as in cf_plan); throughput in the workload's
 * unit per second (tokens for LLMs, samples for data-parallel training,
 * iterations for stencils, tasks for embarrassingly parallel work);
 * scaling_efficiency relative to N0 (null when no layout fits); n0 the
 * baseline node count N0 and n0_throughput its throughput (the same in every
 * row, null when nothing fits anywhere; N0 need not be among `nodes`); cost of the
 * whole job in the offering's currency, null when its price is unknown.
 * Rows where nothing fits have null step time, throughput and cost.
 * Errors: CF_EINVAL for a node count < 1 or an offering whose GPU, GPUs per
 * node or fabric is unknown (err says which), CF_ENOMEM. */
CF_API cf_status cf_scale(const cf_offering *o, const cf_workload *w, const int *nodes,
                          size_t n_nodes, json_t **out, cf_error *err);

#endif
