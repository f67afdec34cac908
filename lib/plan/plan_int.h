/* plan_int.h — what the planner's files (lib/plan/) share, and the pieces
 * unit tests drive directly:
 *   search.c  the layout search at one node count, N0, the node-count list;
 *   prune.c   the same search in the order of a lower bound (what it skips);
 *   choose.c  the choice of one configuration per offering;
 *   why.c     the why line and the scaling note;
 *   plan.c    offerings → groups → JSON (cf__plan_run);
 *   opts.c    the options: defaults, setters by name, their check;
 *   scale.c   the scaling curve of one offering (cf__scale_run);
 *   api.c     the public entry points, bound to the real models.
 * The step and fit models are passed in (cf__plan_model) so tests can
 * substitute a model whose numbers are computed by hand. Not installed;
 * cf__ symbols are hidden from the shared library. */
#ifndef CLUSTERFIT_PLAN_INT_H
#define CLUSTERFIT_PLAN_INT_H

#include "clusterfit/plan.h"
#include "clusterfit/billing.h"
#include "clusterfit/collective.h"
#include "clusterfit/fabric.h"

/* ------------------------------------------------------------ the models */

/* The models, with cf_step_predict's, cf_fit's and cf_fabric_for_nodes's
 * contracts; the planner passes err NULL where no one reads the reason. */
typedef cf_status (*cf__step_fn)(const cf_workload *w, const cf_fabric *fab, int nodes,
                                 const cf_layout *lay, cf_step_result *out, cf_error *err);
typedef cf_status (*cf__fit_fn)(const cf_workload *w, const char *gpu, int gpus_per_node,
                                cf_fit_result *out, cf_error *err);

typedef cf_status (*cf__fabric_fn)(const cf_offering *o, int nodes, cf_fabric *out, cf_error *err);

/* The step with what the search hands it besides the layout (model_int.h's
 * cf__step_aid: a memo of collective times, the memory already computed);
 * the same result as the step without it. */
struct cf__step_aid;
struct cf__step_memo;
typedef cf_status (*cf__step_aided_fn)(const cf_workload *w, const cf_fabric *fab, int nodes,
                                       const cf_layout *lay, cf_step_result *out, cf_error *err,
                                       const struct cf__step_aid *aid);

/* The models the planner calls. */
typedef struct cf__plan_model {
    cf__step_fn step;       /* one step's time and memory (cf_step_predict) */
    cf__fit_fn fit;         /* N0; NULL = cf__plan_min_nodes over the search space */
    cf__fabric_fn fabric;   /* the fabric for a question on N nodes (the one-node rule) */
    double (*mem_limit_gib)(const char *gpu); /* usable GiB per GPU; NAN = GPU unknown */
    /* Memory per GPU (GiB) of a layout without predicting its time: lets
     * the search reject layouts that do not fit cheaply. NULL = use the
     * step prediction's memory_per_gpu_gib. */
    double (*memory_gib)(const cf_workload *w, const cf_fabric *fab, const cf_layout *lay);
    /* `step` with an aid (cf__step_predict_aided), its memory_gib being
     * what `memory_gib` gives; NULL = `step` alone. */
    cf__step_aided_fn step_aided;
    /* `memory_gib` with the search's step memo (the workload's figures it
     * keeps): the same value; NULL = `memory_gib`. */
    double (*memory_memo)(const cf_workload *w, const cf_fabric *fab, const cf_layout *lay,
                          const struct cf__step_memo *memo);
    /* With the search's step memo: the least recompute (0..2; 3 = none) at
     * which lay's memory_gib is within limit at one of zeros[0..nz), as
     * asking memory_gib in that order finds it; NULL = asked so. */
    int (*least_recompute)(const cf_workload *w, const cf_fabric *fab, const cf_layout *lay,
                           const int *zeros, int nz, double limit, const struct cf__step_memo *memo);
} cf__plan_model;

/* cf_step_predict, the search's own N0, cf_fabric_for_nodes, the step
 * model's usable memory and memory per GPU (api.c). */
extern const cf__plan_model cf__plan_model_default;

/* Usable memory per GPU (GiB) for a GPU model, from data/gpus.csv; NAN when
 * the GPU is unknown. */
double cf__plan_mem_limit_gib(const char *gpu);

/* Sets doc's `matched` (list->n) and, when 0, `filters` (cf_filter_explain
 * of each filter alone) and `catalog_offerings` (lib/plan/api.c; the serve
 * plan's too). CF_ENOMEM, the catalog's errors. */
cf_status cf__plan_explain_empty(cf_catalog *cat, const cf_filter *filter,
                                 const cf_offering_list *list, json_t *doc, cf_error *err);

/* The node type of a fabrics question after the defaults of cf_fabrics
 * (the GPU's usual node, the catalog's usual NICs), each default said in
 * `assumes` (an array; borrowed) (plan/fabrics.c; plan/serve_fabrics.c
 * uses it). Errors as cf_fabrics' for the node. */
struct cf_fabrics_query;
cf_status cf__fabrics_node_defaults(const struct cf_fabrics_query *q, cf_fabric *node,
                                    json_t *assumes, cf_error *err);

/* -------------------------------------------------- the search (search.c) */

/* The fastest layout that fits at one node count. */
typedef struct cf__plan_point {
    int nodes;              /* node count */
    int found;              /* 0: no layout fits in memory at this count */
    int batch_limited;      /* 1 when not found because no layout's data-parallel
                             * degree splits the workload's global batch (more
                             * ranks than sequences or samples), not memory */
    cf_layout lay;          /* the fastest layout that fits (when found) */
    cf_step_result res;     /* its step prediction (when found; zero otherwise) */
    long batch;             /* its global batch, sequences; 0 = the workload's (ladder.c) */
    double batch_scale;     /* workload's batch / batch (<= 1); 0 = 1 (ladder.c) */
} cf__plan_point;

/* One split of the layout search (prune.c): a (tp, cp, pp, dp, ep, etp) of
 * the layout iterator with its vp, and what the pruned search knows of it. */
typedef struct cf__split {
    cf_layout lay;          /* its degrees and vp (micro-batch, ZeRO, recompute unset) */
    double lb;              /* no layout of it that the search times is faster;
                             * INFINITY = none is timed */
    int rc_min;             /* least recompute that fits at micro-batch 1; 3 = none */
    long sibling;           /* an etp = tp split: its etp 1 split; -1 = none */
    int state;              /* 0 not searched; 1 searched, a layout fit (or skipped:
                             * one fit at etp 1); 2 searched or known: none fits */
} cf__split;

/* A split's place in the order of bounds. */
typedef struct cf__split_rank {
    double lb;              /* its bound */
    long idx;               /* its index in the iterator's order */
} cf__split_rank;

/* Splits of one node count the pruned search can hold (405B and
 * deepseek-v3 on 16,384 GPUs: at most a few thousand); a node count with
 * more is searched in the iterator's order. */
#define CF__PLAN_SPLITS_MAX 16384

/* The room of the pruned search (prune.c), the caller's. */
typedef struct cf__split_room {
    cf__split split[CF__PLAN_SPLITS_MAX];       /* in the iterator's order */
    cf__split_rank rank[CF__PLAN_SPLITS_MAX];   /* sorted by bound */
} cf__split_room;

/* One search: a workload on one node type. */
typedef struct cf__search {
    const cf__plan_model *model;    /* the models (borrowed) */
    const cf_workload *w;           /* the workload (borrowed) */
    const cf_fabric *fab;           /* the node type (borrowed) */
    double mem_limit_gib;   /* memory_per_gpu_gib must not exceed this */
    unsigned long evaluated;/* step predictions made so far */
    unsigned long considered;/* layouts checked (memory or step) so far */
    struct cf__step_memo *memo;/* the step model's memo for step_aided (bound to
                             * fab, owned by the caller); NULL = none */
    cf__split_room *room;   /* room for the pruned search (prune.c, owned by the
                             * caller); NULL = the walk in the iterator's order */
    int memo_fits;          /* 1: memo is bound to w's shape (cf__step_memo_fits),
                             * found where a node count's search starts */
} cf__search;

/* Searches the layouts of DESIGN §4.5 at `nodes` nodes and keeps the one
 * with the smallest step time among those that fit (out->found = 0 when
 * none). Allocation-free. At a fixed node count the fastest layout is also
 * the cheapest (every node is billed for the whole run), so this is the only
 * candidate per node count any objective needs. */
void cf__plan_best_at(cf__search *s, int nodes, cf__plan_point *out);

/* The micro-batches, ZeRO stages and least recompute that fits of one
 * split `lay` (its degrees and vp set) at global batch `batch`, search.c's
 * rules; the fastest that fits goes to *best when faster than it. Returns
 * 1 when no micro-batch of the split fits (or the model refuses it). */
int cf__plan_search_split(cf__search *s, int nodes, cf_layout *lay, long batch, cf__plan_point *best);

/* The model's memory per GPU (GiB) of lay: memory_memo with s->memo when
 * both are there, else memory_gib (which must be there). */
double cf__plan_memory(const cf__search *s, const cf_layout *lay);

/* cf__plan_best_at for an LLM in the order of a lower bound (prune.c): the
 * same point, with fewer layouts timed. Needs s->room, s->memo, the model's
 * step_aided (its bound) and memory_gib; returns 0 without them, when the
 * node count has more than CF__PLAN_SPLITS_MAX splits or the model broke
 * its bound (*out then to be searched again), else 1. */
int cf__plan_best_at_pruned(cf__search *s, int nodes, cf__plan_point *out);

/* N0: the smallest node count (1..max_nodes) on which a layout of the
 * search space fits in memory; 0 when none does. */
int cf__plan_min_nodes(cf__search *s, int max_nodes);

/* Node counts of the search: n0, then the powers of two above n0 while
 * nodes × gpus_per_node <= max_gpus. Returns how many were written (at most
 * cap; at least 1 when n0 × gpus_per_node <= max_gpus, else 0). */
size_t cf__plan_node_counts(int n0, int gpus_per_node, long max_gpus, int *out, size_t cap);

/* Steps in the whole job, and work units (tokens, samples, iterations,
 * tasks) per step; NAN when the workload does not say. */
double cf__plan_steps(const cf_workload *w);
double cf__plan_units_per_step(const cf_workload *w);

/* E(N) = throughput(N) / ((N/N0) × throughput(N0)) with throughput = units
 * per step / step time: = (t0 × n0) / (t × n). NAN when a count is < 1 or a
 * time is not positive. */
double cf__plan_scaling_eff(int n, double step_s, int n0, double step0_s);

/* Step time at `nodes` of the fastest layout of the search space with no
 * memory limit (NAN when none is valid): what N0 would give if memory did
 * not bind; with the batch grown as cf__plan_best_grow does, in seconds per
 * base batch of work (cf__plan_pt_s). memo and room as cf__search's (may
 * be NULL). Adds the predictions made to *evaluated (may be NULL). */
double cf__plan_free_step_s(const cf__plan_model *m, const cf_workload *w, const cf_fabric *fab,
                            struct cf__step_memo *memo, cf__split_room *room, int nodes,
                            unsigned long *evaluated);

/* What the scaling notes of pts[0..n) need: NAN when no found point has an
 * E against p0 above CF_PLAN_E_NOTE_MIN (or p0 is NULL), else
 * cf__plan_free_step_s at p0's node count. */
double cf__plan_free0_s(const cf__plan_model *m, const cf_workload *w, const cf_fabric *fab,
                        struct cf__step_memo *memo, cf__split_room *room,
                        const cf__plan_point *pts, size_t n, const cf__plan_point *p0,
                        unsigned long *evaluated);

/* ------------------------------------ the ladder and the batch (ladder.c) */

/* Node counts of plan's search: n0, then every 2^k and 3·2^(k-1) above n0
 * (1, 2, 3, 4, 6, 8, 12, ...) while nodes × gpus_per_node <= max_gpus.
 * Returns how many were written (at most cap; 0 when n0 × gpus_per_node >
 * max_gpus). */
size_t cf__plan_node_ladder(int n0, int gpus_per_node, long max_gpus, int *out, size_t cap);

/* cf__plan_best_at with the global batch grown: for an LLM workload whose
 * batch_max is above its batch, also batch × 2, × 4, ... (capped at
 * batch_max), keeping a larger batch only when its time per base batch of
 * work is more than CF_PLAN_BATCH_GROW_MIN_PCT shorter; out->batch and
 * out->batch_scale say which was kept. s->w is restored. */
void cf__plan_best_grow(cf__search *s, int nodes, cf__plan_point *out);

/* cf__plan_best_grow starting from batch `from` (sequences; clamped to
 * [batch, batch_max]; 0 = the workload's batch) instead of the workload's:
 * smaller batches are not searched. plan's ladder passes the batch the
 * count below it chose. */
void cf__plan_best_grow_from(cf__search *s, int nodes, long from, cf__plan_point *out);

/* Seconds per base batch of work of a point: its step time × batch_scale
 * (= step time when it runs the workload's batch). Steps × this is the
 * time to train; units per base step / this, the throughput. */
double cf__plan_pt_s(const cf__plan_point *p);

/* The global batch of a point (sequences): p->batch, else w's. */
long cf__plan_pt_batch(const cf__plan_point *p, const cf_workload *w);

/* ------------------------------------------------- the choice (choose.c) */

/* What the goodput of an offering's points rests on (goodput_plan.c). */
typedef struct cf__plan_gp {
    const cf_workload *w;           /* the workload (borrowed) */
    cf_storage_class storage;       /* the offering's (CF_SC_UNKNOWN = not stated) */
    const cf_goodput_opts *opts;    /* the options (borrowed) */
} cf__plan_gp;

/* Price terms of an offering in the planning currency. */
typedef struct cf__plan_price {
    double price_gpu_hr;    /* sticker price per GPU-hour; NAN = unknown */
    double increment_s;     /* billing increment, seconds; NAN = unknown */
    double min_commitment_h;/* minimum billed hours; NAN = unknown */
    const cf__plan_gp *gp;  /* NULL = steady state; else time counts goodput */
} cf__plan_price;

/* ------------------------------------- goodput of a point (goodput_plan.c) */

/* The storage class an offering's shared_storage cell names (the fastest
 * of its set: cf_storage_class_of_set); CF_SC_UNKNOWN when empty. */
cf_storage_class cf__plan_storage(const cf_offering *o);

/* The goodput of point p of `steps` steps on nodes of gpus_per_node GPUs
 * (cf_goodput); returns its status. */
cf_status cf__plan_goodput(const cf__plan_gp *gp, const cf__plan_point *p, double steps,
                           int gpus_per_node, cf_goodput_out *out);

/* Appends to `why` (NUL-terminated, size cap) the goodput's sentence when
 * failures, checkpoint stalls or input reads cost more than
 * CF_GOODPUT_NOTE_PCT of the steady time. */
void cf__plan_goodput_why(char *why, size_t cap, const cf_goodput_out *g);
/* Why a row whose layout fits has no time to train: the job never
 * finishes (interruptions outpace its checkpoints and restarts), with the
 * checkpoint write and the job's MTBF, into buf; NULL when it finishes. */
const char *cf__plan_goodput_never(const cf_goodput_out *g, char *buf, size_t cap);

/* Sets goodput, steady_time_to_train_h, storage and goodput_detail on a
 * row (cf_goodput_json). Returns cf__json_set's bad flag. */
int cf__plan_goodput_set(json_t *row, const cf_goodput_out *g);

/* Constraints and objective for cf__plan_choose. */
typedef struct cf__plan_goal {
    cf_objective objective; /* what is minimised */
    double deadline_h;      /* most hours to train; NAN = none */
    double budget;          /* most cost, planning currency; NAN = none */
    double margin_pct;      /* deadline margin: time x (1 + margin/100) must meet it; 0 = none */
    double e_floor;         /* time objective: no point with E against N0 below it;
                             * 0 = none (CF_PLAN_TIME_E_FLOOR in plan) */
} cf__plan_goal;

/* The deadline rule of plan and fabrics (choose.c): time_h meets
 * deadline_h when time_h x (1 + margin_pct / 100) does not pass it; always
 * with no deadline (NAN). cf__plan_margin_pct: the margin given, or NAN
 * for the default, the model's p90 error out of sample
 * (cf_default_margin_pct). */
int cf__plan_meets_deadline(double time_h, double deadline_h, double margin_pct);
double cf__plan_margin_pct(const cf_workload *w, double given);

/* What moved a choice away from the plain best point on the objective
 * (cf__plan_choose_bound; a row's `chosen_by`, rental.c's words). */
enum {
    CF__BOUND_DEADLINE = 1u << 0,   /* a better point misses the deadline */
    CF__BOUND_BUDGET = 1u << 1,     /* a better point exceeds the budget */
    CF__BOUND_E_FLOOR = 1u << 2,    /* a faster point scales below the efficiency floor */
    CF__BOUND_MIN_RENTAL = 1u << 3, /* faster points finish inside the minimum rental */
    CF__BOUND_NEAR_TIE = 1u << 4    /* within CF_PLAN_NEAR_TIE_PCT: the other criterion */
};

/* Time to train (hours) and job cost of point p with `steps` steps on nodes
 * of gpus_per_node GPUs at the price terms pr (cf_job_cost; NAN cost when
 * the price is unknown). */
void cf__plan_time_cost(const cf__plan_point *p, double steps, int gpus_per_node,
                        const cf__plan_price *pr, double *time_h, double *cost);

/* Picks among pts[0..n) (found ones only) the best configuration for the
 * goal, with the near-tie rule of CF_PLAN_NEAR_TIE_PCT (within 1 % of the
 * best time, the cheapest; within 1 % of the best cost, the fastest).
 * Returns its index, or -1 when none is found (*why_none = 1: nothing
 * fits; 2: deadline missed by all; 3: budget exceeded by all; 0 when one
 * is found). why_none may be NULL. */
int cf__plan_choose(const cf__plan_point *pts, size_t n, double steps, int gpus_per_node,
                    const cf__plan_price *pr, const cf__plan_goal *g, int *why_none);

/* cf__plan_choose, and in *bound (may be NULL; 0 when none) the
 * CF__BOUND_* bits of what a better point on the objective hit. */
int cf__plan_choose_bound(const cf__plan_point *pts, size_t n, double steps, int gpus_per_node,
                          const cf__plan_price *pr, const cf__plan_goal *g, int *why_none,
                          unsigned *bound);

/* ------------------------------------- rental terms and bounds (rental.c) */

/* The price terms of o at sticker price `price`: its billing increment, and
 * its minimum rental, CF_PLAN_DEFAULT_MIN_RENTAL_H where it states none. */
void cf__plan_price_terms(const cf_offering *o, double price, cf__plan_price *pr);

/* The row's `chosen_by`: the names of the CF__BOUND_* bits in `bound`
 * ("deadline", "budget", "efficiency_floor", "min_rental", "near_tie"); []
 * when none. New reference; NULL on ENOMEM. */
json_t *cf__plan_bound_json(unsigned bound);

/* Appends to the why line in buf (size cap) the sentence of the bounds
 * under the time objective: "; chosen over faster counts that scale below
 * E 0.50 (the efficiency floor)" and/or "... finish inside the 1 h minimum
 * rental". Nothing for other bounds (the objective line says them). */
void cf__plan_bound_why(char *buf, size_t cap, unsigned bound, double min_rental_h);

/* ------------------------------------------------- the sentences (why.c) */

/* Why E > 1 at pt against p0 (the N0 point): "above 1 because memory binds
 * on 2 nodes: the fastest layout that fits there is ..., while 8 nodes have
 * room for ..." when memory_bound, else a sentence that does not blame
 * memory. */
void cf__plan_e_reason(char *buf, size_t cap, const cf__plan_point *p0, const cf__plan_point *pt,
                       int llm, int memory_bound);

/* The `why` line of a ranked row into buf (size cap). p0 is the N0 point
 * (NULL = unknown); free0_s the step time at N0 without the memory limit
 * (NAN = not computed) — together they explain an E above
 * CF_PLAN_E_NOTE_MIN; kind is the workload's (cf_wl_kind: the words of
 * its communication). */
void cf__plan_why(char *buf, size_t cap, const cf_offering *o, const cf__plan_point *pt,
                  const cf__plan_point *p0, int n0, double e, double p, double sticker,
                  double effective, const char *currency, int kind, double free0_s);

/* The scaling_note of plan.h for pt against p0 with efficiency e: JSON null
 * when E is not above CF_PLAN_E_NOTE_MIN (or p0 is NULL or pt itself), else
 * {text, cause, n0, n0_layout}. New reference; NULL on ENOMEM. */
json_t *cf__plan_scaling_note(const cf__plan_point *pt, const cf__plan_point *p0, double e,
                              int llm, double free0_s);

/* ------------------------------------------ offerings and JSON (plan.c) */

/* The sticker price per GPU-hour of an offering: on demand, else reserved
 * (*reserved = 1, may be NULL); NAN when neither is known. */
double cf__plan_sticker_price(const cf_offering *o, int *reserved);

/* Sets a training row's `flags`, `assumed_facts` and `rests_on_assumptions`
 * (plan.c, the same functions) on `row` for offering o used on `nodes` nodes
 * of one deployment, with no billing flags (no rental length), on `out`: the serve
 * plan's rows (serve_plan.c) say what the training rows say. CF_ENOMEM. */
cf_status cf__plan_offering_flags(const cf_offering *o, int nodes, json_t *out);

/* {tp, ep, etp, pp, vp, dp, cp, zero, recompute, micro_batch} of a layout;
 * with mpi_ranks (an MPI workload: the stencil) dp is null and `ranks`
 * holds the rank count, since its ranks are not data-parallel replicas.
 * New reference; NULL on ENOMEM. */
json_t *cf__plan_layout_json(const cf_layout *l, int mpi_ranks);

/* The band of a row (plan/interval.c): sets time_to_train_h_p10/_p90 and,
 * with a cost, cost_p10/_p90 on j, [x p10, x p90] of the model's error
 * out of sample for w's class (cf_error_band). Returns cf__json_set's
 * bad flag. */
int cf__plan_band_set(json_t *j, const cf_workload *w, double time_h, double cost);
/* {class, p10, p90, assumed, basis[, margin_pct]}: the band every row of a
 * document carries and what it rests on; margin_pct NAN leaves it out.
 * NULL on ENOMEM. */
json_t *cf__plan_error_json(const cf_workload *w, double margin_pct);

/* cf_plan over an offering list already read from the catalog, with the
 * model `m`. Same contract as cf_plan. */
cf_status cf__plan_run(const cf__plan_model *m, const cf_offering_list *list,
                       const cf_workload *w, const cf_plan_opts *opts, json_t **out,
                       cf_error *err);

/* Validates options against the bounds of cf_plan_opts_set (CF_EINVAL,
 * err->param naming the field); opts.c. */
cf_status cf__plan_check_opts(const cf_plan_opts *o, cf_error *err);

/* ------------------------------------------------ the curve (scale.c) */

/* cf_scale with the model `m`. Same contract as cf_scale. */
cf_status cf__scale_run(const cf__plan_model *m, const cf_offering *o, const cf_workload *w,
                        const int *nodes, size_t n_nodes, json_t **out, cf_error *err);
/* cf__scale_run with the goodput model's options (NULL = the defaults). */
cf_status cf__scale_run_gp(const cf__plan_model *m, const cf_offering *o, const cf_workload *w,
                           const int *nodes, size_t n_nodes, const cf_goodput_opts *gopts,
                           json_t **out, cf_error *err);

/* ------------------------------------------ fabrics as sold (fabrics_sold.c) */

/* A bundle the catalog sells with one GPU: offerings of that GPU and node
 * size grouped by network family, stated NICs per node and Gbit/s per node
 * (issue 23, item 4). The ids and the price's id are borrowed from the
 * offering list grouped. */
#define CF__BUNDLES_MAX 24          /* bundles kept; more are counted in n_more */
#define CF__BUNDLE_IDS_MAX 12       /* ids kept per bundle; n_ids counts them all */
typedef struct cf__bundle {
    cf_network network;     /* the family as the offerings state it */
    int nics;               /* NICs per node as stated; 0 = not stated */
    double gbps;            /* Gbit/s per node as stated */
    cf_fabric fab;          /* the first offering's fabric (cf_fabric_from_offering:
                               NICs not stated are one per GPU) */
    size_t n_ids;           /* offerings that sell it */
    const char *ids[CF__BUNDLE_IDS_MAX];    /* the first of them, catalog order */
    double price;           /* cheapest list price per GPU-hour in the currency; NAN none */
    const char *price_id;   /* the offering at that price; NULL when none */
    int price_reserved;     /* 1 when that price is a reserved one (cf_offering_list_price) */
    double other_price;     /* no price in the currency: the cheapest in the first other
                               currency met (shown, never compared); NAN none */
    const char *other_currency, *other_id;  /* its currency and offering; NULL none */
    long max_gpus;          /* the largest max_cluster_gpus among its offerings */
    int unbounded;          /* 1 when an offering states no max_cluster_gpus */
    int max_nodes;          /* !unbounded: max_gpus / GPUs per node (>= 1), the most
                               nodes any of its offerings rents; 0 = no bound known */
} cf__bundle;

/* Offerings of the GPU that name a network but cannot be a bundle: line
 * rate or node size not stated. */
typedef struct cf__unstated {
    size_t n;               /* how many */
    const char *ids[4];     /* the first of them */
} cf__unstated;

typedef struct cf__bundles {
    size_t n;                           /* bundles in b */
    size_t n_more;                      /* offerings of bundles past CF__BUNDLES_MAX, not kept */
    cf__bundle b[CF__BUNDLES_MAX];      /* in the order of first appearance */
    cf__unstated unstated[CF_NET__COUNT];   /* per family (index cf_network) */
    cf__unstated no_network;            /* the network itself not stated */
    size_t single_node;                 /* offerings of the GPU sold for one node only
                                           (multinode no, or network none) */
    size_t other_size;                  /* offerings of the GPU on another node size */
} cf__bundles;

/* Groups offs[0..n) into the bundles of `gpu` (case-insensitive) on nodes
 * of gpus_per_node GPUs: every offering not marked single-node (multinode
 * no, network none) whose network, Gbit/s per node and GPUs per node are
 * stated. The bundle's price is the cheapest cf_offering_list_price among
 * its offerings priced in `currency` (never converted). Pure. */
void cf__fabrics_bundles(const cf_offering *offs, size_t n, const char *gpu, int gpus_per_node,
                         const char *currency, cf__bundles *out);

/* The baseline bundle: the one of family `baseline` with the lowest Gbit/s
 * per node, else the lowest Gbit/s per node sold (ties: the first), a
 * priced one first; among the bundles with a result (ok[i] != 0; ok NULL:
 * all) first. bs->n when none is sold. */
size_t cf__fabrics_sold_baseline(const cf__bundles *bs, cf_network baseline, const unsigned char *ok);
/* Whether net is one of the six compared families (fabrics_sold.c); "rdma",
 * RDMA whose fabric is not named, is not. */
int cf__fabrics_family_named(cf_network net);

/* fabrics' `sold` member from the bundles and their rows (rows[i] the row
 * of bs->b[i], as the equal-rate rows, with gpu_hours and
 * worth_premium_pct against bundle `base`): each row gets the bundle's
 * ids, cheapest price and the money (fabrics.h), and the member the
 * headline and not_sold. *out a new reference; CF_ENOMEM. */
cf_status cf__fabrics_sold_json(const cf__bundles *bs, json_t *rows, size_t base, const char *gpu,
                                const char *currency, json_t **out);

#endif
