/* fabrics.h — "is a better fabric worth it, for my job?": one workload on
 * one node type, predicted over each fabric family at the same NICs and
 * line rate, with the premium per GPU-hour each family may cost over a
 * baseline before the whole job costs more (`clusterfit fabrics`,
 * POST /api/fabrics, the page's chart); and the assumption flags a fabric
 * puts on any prediction made on it (`predict`, `scale`, `plan`). */
#ifndef CLUSTERFIT_FABRICS_H
#define CLUSTERFIT_FABRICS_H

#include <jansson.h>
#include "status.h"
#include "collective.h"
#include "workload.h"

/* ---- assumption flags ---------------------------------------------------- */

/* What a prediction on a fabric assumes because the fabric leaves a fact
 * unknown (a bit each; cf_fabric_assumptions). */
enum {
    CF_FLAG_NON_BLOCKING_UNKNOWN = 1u << 0,   /* code "non_blocking_unknown" */
    CF_FLAG_RAIL_OPTIMIZED_UNKNOWN = 1u << 1  /* code "rail_optimized_unknown" */
};

/* The facts a prediction on `nodes` nodes of `fab` rests on without the
 * fabric stating them.
 * - computes: CF_FLAG_NON_BLOCKING_UNKNOWN (CF_FLAG_RAIL_OPTIMIZED_UNKNOWN)
 *   when the traffic crosses more than one leaf switch (nodes > 2) over any
 *   scale-out network and fab->non_blocking (rail_optimized) is
 *   CF_CAP_UNKNOWN: the congestion model's rule for every fabric family
 *   (the network efficiency's decay with node count, docs/model.md
 *   "Congestion"; the same facts as cf_coll_result.assumed). What the model
 *   then assumes is that one documented assumption (not non-blocking, not
 *   rail-optimized)
 * - output: the bits; 0 for a NULL fab
 * - ownership: pure */
CF_API unsigned cf_fabric_assumptions(const cf_fabric *fab, int nodes);

/* The codes of `flags` as a JSON array of strings, in bit order
 * (["non_blocking_unknown", "rail_optimized_unknown"]), the `flags` member
 * of predict, scale and fabrics rows (plan rows use the same codes).
 * - errors: NULL on ENOMEM
 * - ownership: a new reference (json_decref) */
CF_API json_t *cf_assumption_flags_json(unsigned flags);

/* The code of one flag bit ("non_blocking_unknown"), NULL for a bit that is
 * no flag; and the sentence a text output prints after "assumes: " ("the
 * network is not known to be non-blocking: ib efficiency falls 3 % per
 * doubling of nodes beyond 2"). Static storage. */
CF_API const char *cf_assumption_code(unsigned bit);
CF_API const char *cf_assumption_text(unsigned bit);

/* ---- the comparison of fabric families ------------------------------------ */

/* The question: a node type and either a node count or a deadline.
 * cf_fabrics_query_init, then cf_fabrics_query_set by name. */
typedef struct cf_fabrics_query {
    cf_fabric node;         /* gpu, gpus_per_node, intra_link, nics_per_node,
                               nic_gbps, non_blocking, rail_optimized as
                               given (0 / unknown = not given: the GPU's usual
                               node); network is set per family */
    int nodes;              /* nodes of the cluster; 0 = not given */
    double deadline_h;      /* hours; NAN = not given */
    double margin_pct;      /* deadline margin, percent; NAN = plan's default
                               (cf_default_margin_pct of the workload) */
    cf_network baseline;    /* the family premiums are measured against */
    const struct cf_offering_list *offerings;
                            /* the catalog whose bundles are compared as sold
                               (borrowed for the call); NULL = the shipped
                               catalog (data/offerings.csv, embedded) */
} cf_fabrics_query;

/* A question with nothing set: node as cf_fabric_init, nodes 0, deadline
 * and margin NAN, baseline tcp, offerings NULL.
 * - ownership: fills the caller's struct (not NULL) */
CF_API void cf_fabrics_query_init(cf_fabrics_query *q);

/* Sets one parameter of the question from its text, the one parser of
 * `clusterfit fabrics`' flags and POST /api/fabrics' members.
 * - inputs: `name` and its value:
 *     gpu, gpus_per_node, intra, nics, nic_gbps, non_blocking,
 *     rail_optimized   as cf_fabric_set reads them
 *     nodes            integer, 1..CF_MAX_NODES
 *     deadline_h       hours, CF_PLAN_DEADLINE_H_MIN..CF_PLAN_DEADLINE_H_MAX
 *                      (the CLI's --deadline, as for plan)
 *     margin_pct       percent, CF_PLAN_MARGIN_PCT_MIN..CF_PLAN_MARGIN_PCT_MAX
 *                      (the CLI's --margin, as for plan)
 *     baseline         one of the families ib, roce, efa, tcpxo, tcpx, tcp
 * - output: the field of *q; unchanged on error
 * - errors: CF_EINVAL with err->param = name and the bound or the accepted
 *   values; an unknown name (network among them: the comparison sets it)
 *   is CF_EINVAL with param "" and the accepted names. err may be NULL
 * - ownership: `value` is read during the call only */
CF_API cf_status cf_fabrics_query_set(cf_fabrics_query *q, const char *name, const char *value,
                                      cf_error *err);

/* The names cf_fabrics_query_set accepts, in the order a front end sets
 * them: gpu, gpus_per_node, intra, nics, nic_gbps, non_blocking,
 * rail_optimized, nodes, deadline_h, margin_pct, baseline.
 * - ownership: static storage, NULL-terminated */
CF_API const char *const *cf_fabrics_param_names(void);

/* The families compared, in the order of the output: ib, roce, efa,
 * tcpxo, tcpx, tcp (n of them into *n, may be NULL). Static storage. */
CF_API const cf_network *cf_fabrics_families(size_t *n);

/* Predicts workload w over each family of cf_fabrics_families on the node
 * type of q, and the worth premium of each against q->baseline.
 * - computes, per family (the same GPUs, NICs and line rate; GPUDirect in
 *   the family's usual state): with q->nodes, the fastest layout that fits
 *   on that many nodes (plan's layout search, DESIGN §4.5); with
 *   q->deadline_h, the smallest node count of plan's list (N0, then powers
 *   of two up to CF_PLAN_DEFAULT_MAX_GPUS GPUs) whose time to train meets
 *   the deadline with plan's margin (cf__plan_meets_deadline: time x (1 +
 *   margin_pct / 100) must not pass it; q->margin_pct, NAN = plan's
 *   default). At each node count every family runs the same global
 *   batch (LLM workloads): the one plan's search grows to there on the
 *   first family, ib (up to batch_max); the others are searched at that
 *   batch, so the rows compare the same job. Then step_time_s,
 *   scaling_efficiency (E of DESIGN §4.1 against N0 on the same family,
 *   at ib's batch on N0), time_to_train_h (the workload's steps × step
 *   time × batch / global_batch_seqs),
 *   gpu_hours (nodes × GPUs per node × time to train) and
 *   worth_premium_pct: how many percent more per GPU-hour the family may
 *   cost than the baseline before the job costs more. Equal total cost:
 *   price_f × G_f = price_b × G_b, so premium = G_b / G_f − 1 with G the
 *   GPU-hours; at a fixed node count G is proportional to the time to
 *   train, premium = T_b / T_f − 1. In percent; 0 for the baseline; null
 *   when either side has no result
 * - defaults (each said in the output's `assumes`): gpus_per_node and
 *   intra from the GPU's usual node (data/gpus.csv); nics and nic_gbps the
 *   most common ones among the shipped catalog's offerings of that GPU that
 *   state them (data/offerings.csv), nics one per GPU when none does
 * - as sold (issue 23, item 4): the same rows for each bundle the
 *   catalog (q->offerings, NULL = the shipped one) sells with this GPU and
 *   node size: offerings grouped by network family, stated NICs per node
 *   and Gbit/s per node (multi-node offerings whose network, line rate and
 *   node size are stated), each with its offerings' ids and the cheapest
 *   list price in USD among them. The baseline bundle is the one of
 *   q->baseline's family with the lowest Gbit/s per node, else the lowest
 *   Gbit/s per node sold (a priced one first; among the bundles with a
 *   result first). Money: break_even_price_gpu_hr = price_b x G_b /
 *   G_f (the most the bundle may cost per GPU-hour before the job costs
 *   more than on the baseline at its cheapest price), worth_gpu_hr =
 *   break-even - price_b, job_cost = price_f x G_f. Families with no
 *   bundle are listed in not_sold with the offerings that name them
 *   without a line rate: nothing is invented
 * - output: *out = {workload, gpu, gpus_per_node, intra, nodes (as asked;
 *   null with a deadline), deadline_h (null without), margin_pct (null
 *   without a deadline), baseline,
 *   premium_basis ("time" at a fixed node count, "gpu_hours" under a
 *   deadline), n0, assumes: [strings], fabrics: [{network, nics, nic_gbps,
 *   nodes, step_time_s, scaling_efficiency, time_to_train_h, gpu_hours,
 *   worth_premium_pct, layout, global_batch_seqs (LLM only; equal across
 *   rows on the same node count), flags}]}: layout as plan's ({tp, pp, vp, dp,
 *   cp, zero, recompute, micro_batch}); flags the assumption codes of
 *   cf_fabric_assumptions plus "does_not_fit" (no layout fits on that
 *   count) or "deadline_missed" (no count of the list meets it), as sold
 *   also "larger_than_sold" and "deadline_needs_more_than_sold"; values
 *   that do not exist are null; sold: {currency, baseline (index into
 *   bundles, null when none is sold), best (index of the largest premium),
 *   headline (the sentence that names the line rates compared), bundles:
 *   [the row's members plus nics_stated, gbps_per_node, offerings,
 *   n_offerings, price_gpu_hr, price_offering, price_reserved,
 *   break_even_price_gpu_hr, worth_gpu_hr, job_cost, is_baseline,
 *   largest_sold_nodes (the most nodes any offering of it rents; null when
 *   one states no max_cluster_gpus: a deadline's search stops there, a
 *   larger --nodes row is flagged "larger_than_sold"), price_other (no USD
 *   price: {price_gpu_hr, currency, offering} in its own currency, not
 *   compared; else null), note (string or null)],
 *   not_sold: [{network, n_unstated, unstated_offerings}],
 *   no_network_offerings: [ids], n_no_network} (docs/schema/fabrics.schema.json)
 * - errors: CF_EINVAL with err->param naming the input: gpu not given or
 *   not in the hardware table (gpu), neither or both of nodes and
 *   deadline_h (nodes), nic_gbps neither given nor stated by any offering
 *   of the GPU (nic_gbps), a workload that states no amount of work
 *   (workload), no layout that fits on up to CF_FIT_MAX_NODES nodes
 *   (workload); CF_ENOMEM. *out is NULL on error
 * - ownership: *out is a new reference (json_decref); w and q are borrowed
 *   for the call, q->offerings too. Reads only embedded data and that list:
 *   no catalog file, no I/O
 * - source: DESIGN §4.1 (E), §4.5 (search space); the premium is the
 *   break-even of equal total cost */
CF_API cf_status cf_fabrics(const cf_workload *w, const cf_fabrics_query *q, json_t **out,
                            cf_error *err);

/* The worth premium in percent: 100 × (base / fab − 1) for two amounts of
 * the same kind (times to train at equal node counts, or GPU-hours); NAN
 * when either is not a positive number. Pure. */
CF_API double cf_worth_premium_pct(double base, double fab);

#endif
