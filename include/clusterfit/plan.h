/* plan.h — rank catalog offerings for a workload by what the job will really
 * cost or how long it takes (DESIGN.md §4.5), and the scaling-efficiency
 * curve of one offering (`scale`).
 *
 * Definitions (DESIGN §4.1): scaling efficiency E(N) = throughput(N) /
 * ((N/N0) × throughput(N0)), N0 = the smallest node count on which the
 * workload fits; parallel efficiency P = ideal step time (no exposed
 * communication, no bubble, same layout) / predicted step time; effective
 * price = sticker price / P; cost = nodes × gpus_per_node × price × billed
 * hours (billing increment and minimum commitment applied: billing.h). */
#ifndef CLUSTERFIT_PLAN_H
#define CLUSTERFIT_PLAN_H

#include <jansson.h>
#include "status.h"
#include "catalog.h"
#include "workload.h"
#include "step.h"
#include "goodput.h"

/* What cf_plan minimises: the job's cost, or its time to train. */
typedef enum cf_objective { CF_OBJ_COST = 0, CF_OBJ_TIME } cf_objective;

/* Progress of a long plan: `done` of `total` search units (distinct node
 * types) finished. Called from cf_plan's thread; must not call back into the
 * plan. */
typedef void (*cf_progress_fn)(void *user, size_t done, size_t total);

/* Options of cf_plan; cf_plan_opts_init gives the defaults. */
typedef struct cf_plan_opts {
    cf_objective objective; /* what is minimised */
    double deadline_h;      /* hours; NAN = none: cost objective under a deadline */
    double budget;          /* planning currency; NAN = none: time objective under a budget */
    const char *currency;   /* NULL = "USD"; prices are never converted (borrowed) */
    long max_gpus;          /* cap when max_cluster_gpus is unknown; 0 = 16384 */
    int top;                /* rows kept in `ranked`; 0 = all */
    cf_progress_fn progress;/* NULL = none */
    void *progress_user;    /* passed to progress as is */
    unsigned long *evaluated;/* out, NULL = not wanted: layouts whose step
                             * time was predicted (benchmarks) */
    int objective_given;    /* 1 once cf_plan_opts_set has set objective;
                             * read by cf_plan_opts_finish */
    double margin_pct;      /* deadline margin, percent; NAN = cf_default_margin_pct(workload) */
    int known_only;         /* 1: rank on stated facts alone (no assumed largest
                             * cluster, NIC count or fabric topology) */
    const char *today;      /* YYYY-MM-DD the plan is made on (the front end's
                             * CLUSTERFIT_NOW or clock: the library never reads
                             * it); NULL = no price is judged stale. A ranked row
                             * whose price is dated (price_as_of where set, else
                             * as_of) before today minus CF_STALE_MONTHS_DEFAULT
                             * months gets flag stale_price (cf_offering_stale);
                             * a stated fact, only old: no `*`, and --known-only
                             * keeps it (borrowed) */
    cf_goodput_opts goodput;/* failures, checkpoints, storage (goodput.h): set by
                             * cf_plan_opts_set's names no_failures, mtbf_gpu_h,
                             * ckpt_interval, ckpt_async; every row's
                             * time_to_train_h and cost count its goodput */
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

/* Growing the global batch (lib/plan/ladder.c): a workload whose batch_max
 * is above its batch is also searched at 2×, 4×, ... its batch on each
 * node count, and a larger batch is kept only when it shortens the time to
 * train by more than this many percent: the tokens are fixed, but the model
 * does not price what a larger batch may cost in convergence, so a gain
 * inside the step model's own error (median 8-9 %, README) is not worth it. */
#define CF_PLAN_BATCH_GROW_MIN_PCT 5.0

/* The default deadline margin (margin_pct, `plan --margin`) is the
 * model's own error out of sample: cf_default_margin_pct(workload), p90 - 1
 * of the workload's class (validate.h; constants.def ERR_*: dense 24 %,
 * MoE 54 % today), so a plan that meets a deadline meets it at the p90 of
 * how the model does on sources it never saw. */

/* The horizon of a plan with no deadline (hours; 2160 = 90 days): with the
 * cost objective and no deadline, `plan` also finds the cheapest plan that
 * finishes within it (the document's `within_horizon`), and the table says
 * before the legend what the cheapest plan takes and what --deadline
 * CF_PLAN_HORIZON_H would rank first. Why 90 days: a quarter, the planning
 * period of most training runs and of reserved-capacity terms (the
 * catalog's shortest stated reserved commitment is 8760 h, on-demand
 * clusters are rented by the hour); `make run` and the web page use it as
 * their deadline. */
#define CF_PLAN_HORIZON_H 2160.0

/* The shortest rental assumed where an offering states no minimum
 * commitment (min_commitment_h unknown), in hours: the billing unit of the
 * hourly-billed offerings of the catalog (billing_increment_s 3600, and
 * the one stated 1 h minimum), so a plan never assumes a cluster rented
 * for seconds. Runs shorter than the minimum rental are billed for it, and
 * under the time objective count as taking it: among them the cheapest
 * wins. Rows flag min_commitment_unknown. */
#define CF_PLAN_DEFAULT_MIN_RENTAL_H 1.0

/* The scaling-efficiency floor of the time objective: a node count whose E
 * against N0 is below it is not chosen for speed. Why 0.5: past it, each
 * added GPU buys less than half a GPU's worth of work, so the run costs
 * more than twice the money of N0 per unit of work; the cut-off at which
 * strong scaling is conventionally said to end (a convention, not a
 * measurement). Rows chosen under it say so (`chosen_by`
 * efficiency_floor). */
#define CF_PLAN_TIME_E_FLOOR 0.5

/* Default cap on a cluster whose largest size the provider does not state
 * (DESIGN §4.5); such rows carry the flag max_cluster_unknown. */
#define CF_PLAN_DEFAULT_MAX_GPUS 16384L

/* Default options.
 * - output: *o = objective cost, no deadline, no budget (NAN), currency NULL
 *   (USD), max_gpus 0 (= CF_PLAN_DEFAULT_MAX_GPUS), top 0 (all), no progress
 *   callback, evaluated NULL
 * - ownership: fills the caller's struct (not NULL) */
CF_API void cf_plan_opts_init(cf_plan_opts *o);

/* Sets one plan option from its text, as cf_fabric_set does for a fabric:
 * the one parser of `clusterfit plan`'s flags and POST /api/plan's members.
 * - Inputs: `name` (the JSON API's spelling) and its value:
 *     objective   cost or time (also marks the objective as given)
 *     deadline_h  hours, CF_PLAN_DEADLINE_H_MIN..CF_PLAN_DEADLINE_H_MAX
 *     budget      an amount in the planning currency,
 *                 CF_PLAN_BUDGET_MIN..CF_PLAN_BUDGET_MAX
 *     currency    an ISO 4217 code (three letters)
 *     max_gpus    integer, 1..CF_PLAN_MAX_GPUS_MAX
 *     top         integer, 1..CF_PLAN_TOP_MAX
 *     margin_pct  percent, CF_PLAN_MARGIN_PCT_MIN..CF_PLAN_MARGIN_PCT_MAX:
 *                 the deadline is met when time x (1 + margin/100) is
 *     known_only  true or false (also yes/no, 1/0): rank on stated facts
 *                 alone
 *   Numbers as cf_parse_double and cf_parse_long read them (whole string).
 * - Output: the field of *po; unchanged on error.
 * - Errors: CF_EINVAL with err->param = name and a message naming the
 *   accepted values ("top expects an integer from 1 to 100000 (rows), got
 *   '0'");
 *   an unknown name is CF_EINVAL with param "".
 * - Ownership: `value` is read during the call, except for currency, whose
 *   pointer po keeps (it must outlive po's use). */
CF_API cf_status cf_plan_opts_set(cf_plan_opts *po, const char *name, const char *value,
                                  cf_error *err);

/* cf_plan_opts_set for a value that is already a number (a JSON number):
 * the same names, bounds and messages (the value written back as its
 * shortest exact decimal); deadline_h and budget take any number in range,
 * max_gpus and top only integral ones (5.0 is 5); objective and currency
 * refuse every number. */
CF_API cf_status cf_plan_opts_set_num(cf_plan_opts *po, const char *name, double value,
                                      cf_error *err);

/* Completes options set by name, before cf_plan; both front ends call it.
 * - Computes: the objective's default: a budget without a deadline, and no
 *   objective given through cf_plan_opts_set, asks for the fastest plan
 *   within the budget (objective time); otherwise the objective stays as
 *   set (cost by default, also with a deadline). Then checks *po as cf_plan
 *   does (fields set directly are held to the bounds above; 0 for max_gpus
 *   and top and NAN for deadline_h and budget are the defaults).
 * - Errors: CF_EINVAL with err->param naming the field out of bounds.
 * - Idempotent; po is the caller's. */
CF_API cf_status cf_plan_opts_finish(cf_plan_opts *po, cf_error *err);

/* Ranks the catalog's offerings for a workload.
 * - computes: per offering passing `filter`, the configuration (node count
 *   and layout of DESIGN §4.5) best under the objective, and orders the
 *   offerings by it; E, P, effective price and cost as defined above
 * - inputs: cat (open catalog); filter (NULL = every offering: one rented
 *   as a single node, or stating no network or line rate, is planned on one
 *   node, the latter with flag network_unknown); w (the workload); opts (NULL = cf_plan_opts_init's defaults; hours,
 *   amounts in opts->currency, GPU counts)
 * - output: *out = the JSON of DESIGN §6 {workload, currency, ranked[],
 *   unranked[]}. Every offering passing the filter is either in ranked (one
 *   row: its best configuration; step_time_s seconds, time_to_train_h hours,
 *   cost and prices in the currency) or in unranked with its reasons. Each
 *   ranked row also has `scaling_note`: null, or when its E >
 *   CF_PLAN_E_NOTE_MIN an object {text, cause, n0, n0_layout} saying why —
 *   cause "memory" when the fastest layout on N0 without the memory limit
 *   would be at least as fast per GPU (memory alone makes N0 slower), else
 *   "other"; n0_layout = the layout on N0 {tp, pp, vp, dp, cp, zero,
 *   recompute, micro_batch}; *opts->evaluated, when not NULL, the layouts
 *   whose step time was predicted. Rows of LLM workloads also have
 *   global_batch_seqs (the batch the row ran, grown with the cluster up to
 *   the workload's batch_max: lib/plan/ladder.c); every row has
 *   assumed_facts (of "max_cluster", "nics_per_node", "fabric_topology":
 *   facts the catalog does not state that its multi-node configuration
 *   rests on; [] on one node) and rests_on_assumptions (assumed_facts not
 *   empty); price_dated (the date the price rests on: price_as_of where set,
 *   else as_of; null when neither); with opts->today the document also has
 *   stale_months (CF_STALE_MONTHS_DEFAULT) and stale_before (the cutoff
 *   date), and rows priced before it flag stale_price; with opts->known_only no row rests on any, an offering that
 *   would need them being unranked with the reason. A deadline is met when
 *   time_to_train_h x (1 + margin_pct / 100) does not pass it
 * - errors: CF_EINVAL for bad options (outside cf_plan_opts_set's bounds,
 *   or a malformed today; err->param naming the field) or a workload that states no amount of
 *   work; the errors of cf_catalog_query (CF_EINVAL for a NULL cat, CF_EDB);
 *   CF_ENOMEM. err says which; *out (out not NULL) is NULL on error
 * - ownership: *out is a new reference owned by the caller (json_decref);
 *   cat, filter, w and opts are borrowed for the call; opts->progress is
 *   called on the caller's thread
 * - source: DESIGN §4.5 (search space, objective, unranked reasons), §6 */
CF_API cf_status cf_plan(cf_catalog *cat, const cf_filter *filter, const cf_workload *w,
                         const cf_plan_opts *opts, json_t **out, cf_error *err);

/* The scaling curve of a workload on one offering.
 * - computes: per node count the fastest layout that fits (the search of
 *   cf_plan), its throughput, E against N0, P and the job's cost
 * - inputs: o (the offering); w (the workload); nodes[0..n_nodes) node
 *   counts (NULL = N0, then powers of two up to the largest cluster; at most
 *   CF_MAX_PLAN_NODE_COUNTS)
 * - output: *out = the JSON array [{nodes, step_time_s, throughput,
 *   scaling_efficiency, parallel_efficiency, comm_efficiency, memory_relief,
 *   cost, time_to_train_h, global_batch_seqs (LLM only), layout,
 *   scaling_note, n0, n0_throughput}] (comm_efficiency: E of the fastest
 *   layouts without the memory limit, at this count against the best per
 *   GPU on N0 or any count of the curve from N0 up to this one: the loss to
 *   communication and bubbles alone, <= 1, 1 on N0; memory_relief = E / comm_efficiency:
 *   what N0's memory savers cost, 1 on N0; scaling_efficiency keeps DESIGN
 *   §4.1's definition)
 *   (time_to_train_h: hours of the whole job, null where nothing fits;
 *   global_batch_seqs: the batch the row ran, lib/plan/ladder.c): layout as scaling_note's n0_layout (null when nothing
 *   fits on that count); scaling_note as in cf_plan; throughput in the
 *   workload's unit per second (tokens for LLMs, samples for data-parallel
 *   training, iterations for stencils, tasks for embarrassingly parallel
 *   work); scaling_efficiency relative to N0; n0 the baseline node count and
 *   n0_throughput its throughput (the same in every row; null when nothing
 *   fits anywhere; N0 need not be among `nodes`); cost of the whole job in
 *   the offering's currency, null when its price is unknown. Rows where
 *   nothing fits have null step time, throughput and cost
 * - errors: CF_EINVAL for a node count < 1, an offering whose GPU, GPUs
 *   per node or fabric is unknown (one node still works when only the
 *   network is unknown: then the workload must fit on one node), or a GPU
 *   not in the hardware table; CF_ELIMIT for too many counts; CF_ENOMEM; err
 *   says which; *out (out not NULL) is NULL on error
 * - ownership: *out is a new reference owned by the caller (json_decref);
 *   o, w and nodes are borrowed for the call
 * - source: DESIGN §4.1 (E, P), §4.5 (search space), §6 */
CF_API cf_status cf_scale(const cf_offering *o, const cf_workload *w, const int *nodes,
                          size_t n_nodes, json_t **out, cf_error *err);

/* cf_scale with the goodput model's options g (goodput.h; NULL = the
 * defaults, which cf_scale uses). Every row also has goodput,
 * steady_time_to_train_h, storage and goodput_detail (cf_goodput_json), and
 * its time_to_train_h and cost count the goodput. */
CF_API cf_status cf_scale_goodput(const cf_offering *o, const cf_workload *w, const int *nodes,
                                  size_t n_nodes, const cf_goodput_opts *g, json_t **out,
                                  cf_error *err);

#endif
