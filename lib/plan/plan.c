/* plan.c — `plan` (DESIGN §4.5, §6): rank the catalog's offerings for a
 * workload by the job's real cost or time, each row with its reason.
 *
 * Shape, one step per section below:
 *  1. offerings: each is checked for what the plan cannot do without (price,
 *     currency, GPU, GPUs per node, fabric); one that fails goes to
 *     `unranked` with every reason, never dropped or guessed;
 *  2. groups: the rest are grouped by node type (fabric + GPU) — offerings
 *     of the same hardware share one search, since step times do not depend
 *     on the price; per group and node count (N0, then the ladder.c counts),
 *     search.c finds the fastest layout that fits;
 *  3. choice: per offering, choose.c picks one node count with its price,
 *     billing and largest cluster; an offering with no feasible count goes
 *     to `unranked` with the reason;
 *  4. JSON: rows sorted by the objective, built into DESIGN §6's document
 *     with jansson, each with its why line (why.c).
 * cf__plan_run takes the models as parameters (api.c binds the real ones)
 * so that unit tests drive it with hand-computable ones. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/base.h"
#include "clusterfit/validate.h"
#include "plan/plan_int.h"
#include "model/model_int.h"
#include "clusterfit/limits.h"
#include "clusterfit/fabrics.h"
#include "clusterfit/date.h"

/* ---- 1. offerings: what the plan needs of each ---- */

/* One offering of the list and what the plan knows of it. */
typedef struct entry {
    const cf_offering *o;   /* borrowed from the list */
    long g;                 /* group index; -1 = unranked */
    json_t *reasons;        /* array of strings: why unranked (owned) */
    unsigned flags;         /* F_* */
    double price;           /* sticker price per GPU-hour, the offering's currency */
    int max_nodes;          /* the largest cluster it may rent, nodes */
    unsigned assumed;       /* A_*: facts a multi-node configuration of it rests on */
    int known_capped;       /* 1: --known-only kept it to one node for want of them */
    cf__plan_gp gp;         /* what its goodput rests on (goodput_plan.c) */
} entry;

/* Facts the catalog does not state that a multi-node row rests on (the
 * row's `assumed_facts`), in the order of assumed_names: the largest
 * cluster (capped at max_gpus), the NICs per node (one per GPU assumed) and
 * the fabric topology (non-blocking not stated: the collective model's
 * default topology assumed). */
enum { A_MAX_CLUSTER = 1u << 0, A_NICS = 1u << 1, A_TOPOLOGY = 1u << 2 };
static const char *const assumed_names[] = {"max_cluster", "nics_per_node", "fabric_topology"};
static const char *const assumed_words[] = {"its largest cluster", "its NICs per node",
                                            "its fabric topology"};

/* Row flags (DESIGN §6), in the order of flag_names. */
enum {
    F_MAX_CLUSTER_UNKNOWN = 1u << 0, F_RESERVED_PRICE = 1u << 1,
    F_INCREMENT_UNKNOWN = 1u << 2, F_COMMITMENT_UNKNOWN = 1u << 3,
    F_GDR_UNKNOWN = 1u << 4, F_NICS_UNKNOWN = 1u << 5, F_NETWORK_UNKNOWN = 1u << 6,
    F_EFF_UNVALIDATED = 1u << 7, F_NETWORK_GBPS_UNKNOWN = 1u << 8, F_STALE_PRICE = 1u << 9
};
/* network_unknown: one node only, for want of a usable network between nodes
 * (its family or its line rate); network_gbps_unknown with it: the family is
 * stated, only the Gbit/s per node is not. */
static const char *const flag_names[] = {
    "max_cluster_unknown", "reserved_price", "billing_increment_unknown",
    "min_commitment_unknown", "gdr_unknown", "nics_per_node_unknown", "network_unknown",
    "compute_efficiency_unvalidated", "network_gbps_unknown", "stale_price"
};

static int add_reason(json_t *reasons, const char *fmt, const char *arg)
{
    char buf[CF_ERROR_MSG_MAX + 64];
    snprintf(buf, sizeof buf, fmt, arg ? arg : "");
    return json_array_append_new(reasons, json_string(buf));
}

double cf__plan_sticker_price(const cf_offering *o, int *reserved)
{
    return cf_offering_list_price(o, reserved);
}

/* Adds a reason to e->reasons for each fact the plan needs that the
 * offering lacks. Returns nonzero when a reason could not be stored. */
static int check_facts(const cf__plan_model *m, entry *e, const char *currency)
{
    const cf_offering *o = e->o;
    int nomem = 0;
    if (isnan(e->price)) nomem |= add_reason(e->reasons, "price unknown", NULL);
    else if (!o->currency) nomem |= add_reason(e->reasons, "currency unknown", NULL);
    if (o->currency && cf__strcasecmp(o->currency, currency) != 0)
        nomem |= add_reason(e->reasons, "currency %s", o->currency);
    if (!o->gpu) nomem |= add_reason(e->reasons, "gpu unknown", NULL);
    else if (isnan(m->mem_limit_gib(o->gpu)))
        nomem |= add_reason(e->reasons, "gpu %s not in the hardware table", o->gpu);
    if (o->gpus_per_node < 1) nomem |= add_reason(e->reasons, "gpus_per_node unknown", NULL);
    /* The network (or its line rate) unknown is no reason here: inside one
     * node it does not matter, so the offering is planned on one node
     * (check_offering; cf_fabric_for_nodes' one-node rule). */
    if (o->intra_link == CF_INTRA_UNKNOWN) nomem |= add_reason(e->reasons, "intra_link unknown", NULL);
    return nomem;
}

/* Whether the offering states its scale-out network and line rate (as
 * cf_fabric_for_nodes reads them: a rate above 0). */
static int network_known(const cf_offering *o)
{
    return o->network != CF_NET_UNKNOWN && o->network != CF_NET_NONE &&
           !isnan(o->network_gbps_per_node) && o->network_gbps_per_node > 0;
}

/* What is missing of the network of an offering planned on one node for want
 * of it (F_NETWORK_UNKNOWN): the network itself, or, with its family stated
 * (F_NETWORK_GBPS_UNKNOWN), only its Gbit/s per node. `paren` 1 gives the
 * form inside parentheses ("...: network unknown"). */
static void one_node_text(char *buf, size_t cap, const entry *e, int paren)
{
    if (e->flags & F_NETWORK_GBPS_UNKNOWN)
        snprintf(buf, cap, "the network's Gbit/s per node is not stated%snetwork %s, "
                 "network_gbps_per_node unknown%s", paren ? ": " : " (",
                 cf_network_name(e->o->network), paren ? "" : ")");
    else
        snprintf(buf, cap, "the network between nodes is not stated%snetwork unknown%s",
                 paren ? ": " : " (", paren ? "" : ")");
}

/* Checks what the plan needs of one offering (reasons in e->reasons), then
 * its largest cluster and flags. CF_ENOMEM only when a reason could not be
 * stored. */
static cf_status check_offering(const cf__plan_model *m, entry *e, const char *currency,
                                long default_max, const char *stale_before)
{
    const cf_offering *o = e->o;
    int reserved;
    e->price = cf__plan_sticker_price(o, &reserved);
    if (reserved) e->flags |= F_RESERVED_PRICE;
    /* A price dated before the cutoff is a stated fact, only old: flagged,
     * not assumed (no `*`, kept by --known-only). */
    if (stale_before[0] && cf_offering_stale(o, stale_before)) e->flags |= F_STALE_PRICE;
    if (check_facts(m, e, currency)) return CF_ENOMEM;
    if (json_array_size(e->reasons) > 0) return CF_OK;
    if (o->network == CF_NET_NONE || o->multinode == CF_CAP_NO) {
        e->max_nodes = 1;
    } else if (!network_known(o)) {
        /* One node only: the network between nodes, or its line rate, is
         * not stated. */
        e->max_nodes = 1;
        e->flags |= F_NETWORK_UNKNOWN;
        if (o->network != CF_NET_UNKNOWN) e->flags |= F_NETWORK_GBPS_UNKNOWN;
    } else {
        long max = o->max_cluster_gpus;
        if (max < 1) {
            max = default_max;
            e->flags |= F_MAX_CLUSTER_UNKNOWN;
        }
        max /= o->gpus_per_node;
        e->max_nodes = max > CF_MAX_NODES ? CF_MAX_NODES : (int)max;
    }
    if (e->max_nodes > 1 && o->gpudirect_rdma == CF_CAP_UNKNOWN) e->flags |= F_GDR_UNKNOWN;
    if (e->max_nodes > 1 && o->nics_per_node < 1) e->flags |= F_NICS_UNKNOWN;
    return CF_OK;
}

/* The fabric of an offering for the most nodes the plan may rent of it:
 * one rented as a single node gets network none whatever its (irrelevant)
 * scale-out network says (cf_fabric_for_nodes' one-node rule). */
static cf_status entry_fabric(const cf__plan_model *m, const entry *e, cf_fabric *fab, cf_error *err)
{
    return m->fabric(e->o, e->max_nodes > 1 ? e->max_nodes : 1, fab, err);
}

/* ---- 2. groups: one search per node type ---- */

/* Offerings of one node type, and the search over its node counts. */
typedef struct group {
    cf_fabric fab;          /* the node type (GPU name borrowed from the offering) */
    double mem_gib;         /* usable memory per GPU, GiB */
    int max_nodes;          /* the largest any member may use */
    int n0;                 /* N0: the first count where a layout fits; 0 = fits nowhere */
    double free0_s;         /* step time on N0 without the memory limit; NAN = not needed */
    size_t npts;            /* points searched, in pts */
    cf__plan_point pts[CF_MAX_PLAN_NODE_COUNTS];    /* per node count, increasing */
    char fail[128];         /* reason when the group cannot be planned; "" = none */
} group;

/* One plan run: its inputs and what each step leaves for the next. */
typedef struct run {
    const cf__plan_model *m;        /* the models (borrowed) */
    const cf_offering_list *list;   /* the offerings (borrowed) */
    const cf_workload *w;           /* the workload (borrowed) */
    const cf_plan_opts *opts;       /* the options (borrowed) */
    const char *currency;           /* the planning currency, "USD" by default */
    long default_max;               /* GPUs of a cluster whose size is unknown */
    double steps;                   /* steps in the whole job */
    cf__plan_goal goal;             /* objective, deadline, budget */
    entry *es;                      /* one per offering (owned) */
    group *gs;                      /* ng used, room for one per offering (owned) */
    size_t ng;
    struct row *rows;               /* nrows chosen configurations (owned) */
    size_t nrows;
    unsigned long evaluated;        /* step predictions made */
    cf__step_memo *memo;            /* the step memo of the group being searched
                                     * (owned); NULL = none (allocation failed) */
    cf__split_room *room;           /* the pruned search's room (owned); NULL = none */
    char stale_before[CF_DATE_SIZE];/* prices dated before it are stale; "" = no today */
    struct row *hz;                 /* cost objective, no deadline: the cheapest
                                     * configuration within CF_PLAN_HORIZON_H
                                     * (owned, one row); hz_n 0 = none */
    size_t hz_n;
} run;

static int same_fabric(const cf_fabric *a, const cf_fabric *b)
{
    return strcmp(a->gpu, b->gpu) == 0 && a->gpus_per_node == b->gpus_per_node &&
           a->intra_link == b->intra_link && a->network == b->network &&
           a->nics_per_node == b->nics_per_node && a->nic_gbps == b->nic_gbps &&
           a->gdr == b->gdr && a->non_blocking == b->non_blocking &&
           a->rail_optimized == b->rail_optimized &&
           a->in_network_reduction == b->in_network_reduction;
}

/* The facts a multi-node configuration of e rests on without the catalog
 * stating them; with known_only, e is kept to one node (which needs none
 * of them) and loses the flags only more nodes raise. */
static void mark_assumed(entry *e, int known_only)
{
    if (e->max_nodes <= 1) return;
    if (e->flags & F_MAX_CLUSTER_UNKNOWN) e->assumed |= A_MAX_CLUSTER;
    if (e->flags & F_NICS_UNKNOWN) e->assumed |= A_NICS;
    if (e->o->non_blocking == CF_CAP_UNKNOWN) e->assumed |= A_TOPOLOGY;
    if (known_only && e->assumed) {
        e->max_nodes = 1;
        e->known_capped = 1;
        e->flags &= ~(unsigned)(F_MAX_CLUSTER_UNKNOWN | F_NICS_UNKNOWN | F_GDR_UNKNOWN);
    }
}

/* "its largest cluster, its NICs per node" for e's assumed facts. */
static void assumed_text(char *buf, size_t cap, unsigned assumed)
{
    size_t n = 0;
    buf[0] = '\0';
    for (unsigned i = 0; i < sizeof assumed_names / sizeof assumed_names[0]; i++)
        if ((assumed & (1u << i)) && n < cap)
            n += (size_t)snprintf(buf + n, cap - n, "%s%s", n ? ", " : "", assumed_words[i]);
}

/* Checks every offering and puts each usable one in the group of its node
 * type. CF_ENOMEM. */
static cf_status group_offerings(run *r)
{
    for (size_t i = 0; i < r->list->n; i++) {
        entry *e = &r->es[i];
        cf_fabric fab;
        cf_error ferr;
        size_t gi;
        e->o = &r->list->items[i];
        e->g = -1;
        if (!(e->reasons = json_array())) return CF_ENOMEM;
        if (check_offering(r->m, e, r->currency, r->default_max, r->stale_before) != CF_OK)
            return CF_ENOMEM;
        if (json_array_size(e->reasons) > 0) continue;
        mark_assumed(e, r->opts->known_only);
        memset(&fab, 0, sizeof fab);
        cf_error_clear(&ferr);
        if (entry_fabric(r->m, e, &fab, &ferr) != CF_OK) {
            if (add_reason(e->reasons, "fabric: %s", ferr.message[0] ? ferr.message : "unsupported"))
                return CF_ENOMEM;
            continue;
        }
        for (gi = 0; gi < r->ng; gi++)
            if (same_fabric(&r->gs[gi].fab, &fab)) break;
        if (gi == r->ng) {
            r->gs[r->ng].fab = fab;
            r->gs[r->ng].mem_gib = r->m->mem_limit_gib(fab.gpu);
            r->ng++;
        }
        if (e->max_nodes > r->gs[gi].max_nodes) r->gs[gi].max_nodes = e->max_nodes;
        e->g = (long)gi;
    }
    return CF_OK;
}

/* Runs the search for one group over N0 and the node ladder (ladder.c),
 * each count with its grown batch. */
static void search_group(const cf__plan_model *m, const cf_workload *w, group *g,
                         cf__step_memo *memo, cf__split_room *room, unsigned long *evaluated)
{
    cf_fit_result fr;
    int counts[CF_MAX_PLAN_NODE_COUNTS];
    cf__search s = {m, w, &g->fab, g->mem_gib, 0, 0, memo, memo ? room : NULL, 0};
    size_t k, first = 0;
    memset(&fr, 0, sizeof fr);
    if (memo) cf__step_memo_reset(memo, &g->fab, w);
    if (m->fit ? m->fit(w, g->fab.gpu, g->fab.gpus_per_node, &fr, NULL) != CF_OK
               : (fr.min_nodes = cf__plan_min_nodes(&s, g->max_nodes)) < 0)
        fr.min_nodes = 0;
    if (fr.min_nodes < 1) {
        if (g->max_nodes == 1)
            snprintf(g->fail, sizeof g->fail, "does not fit in memory on one node");
        else
            snprintf(g->fail, sizeof g->fail, "does not fit in memory on up to %d nodes", g->max_nodes);
        *evaluated += s.evaluated;
        return;
    }
    g->n0 = fr.min_nodes;
    k = cf__plan_node_ladder(fr.min_nodes, g->fab.gpus_per_node,
                             (long)g->max_nodes * g->fab.gpus_per_node, counts,
                             CF_MAX_PLAN_NODE_COUNTS);
    for (size_t i = 0; i < k; i++) {
        /* The ladder rises: each count starts from the batch the last found
         * point ran (ladder.c). */
        long from = 0;
        for (size_t j = g->npts; j-- > 0;)
            if (g->pts[j].found) { from = g->pts[j].batch; break; }
        cf__plan_best_grow_from(&s, counts[i], from, &g->pts[g->npts]);
        /* N0 is the first count of the list on which a layout of the search
         * space fits (cf_fit's count, unless its layout is outside the space). */
        if (g->npts == first && !g->pts[g->npts].found) { first++; }
        g->npts++;
    }
    if (first < g->npts) g->n0 = g->pts[first].nodes;
    *evaluated += s.evaluated;
    /* An E above CF_PLAN_E_NOTE_MIN is explained: is it memory alone? */
    g->free0_s = cf__plan_free0_s(m, w, &g->fab, memo, s.room, g->pts, g->npts,
                                  first < g->npts ? &g->pts[first] : NULL, evaluated);
}

static void search_groups(run *r)
{
    for (size_t gi = 0; gi < r->ng; gi++) {
        search_group(r->m, r->w, &r->gs[gi], r->memo, r->room, &r->evaluated);
        if (r->opts->progress) r->opts->progress(r->opts->progress_user, gi + 1, r->ng);
    }
}

/* ---- 3. choice: one configuration per offering ---- */

/* The configuration chosen for one offering. */
typedef struct row {
    size_t e;               /* entry index */
    int pt;                 /* point index in the entry's group */
    double time_h, cost;    /* time to train (hours) and cost (the offering's currency) */
    unsigned bound;         /* CF__BOUND_*: what moved the choice (rental.c) */
} row;

/* Why an offering has no configuration (why_none of cf__plan_choose). */
static void no_choice_text(char *buf, size_t cap, const run *r, const entry *e, int n0, int why)
{
    char facts[128], net[160];
    assumed_text(facts, sizeof facts, e->assumed);
    one_node_text(net, sizeof net, e, why == 2);
    if (e->known_capped && (why == 1 || why == 2 || why == 3) && (n0 > 1 || why != 1))
        snprintf(buf, cap, "known-only: more than one node rests on facts the catalog does not "
                 "state (%s), and one node %s", facts,
                 why == 1 ? "does not fit the workload" : why == 2 ? "misses the deadline"
                                                                   : "exceeds the budget");
    else if (why == 1 && n0 > e->max_nodes && (e->flags & F_NETWORK_UNKNOWN))
        snprintf(buf, cap, "needs %d nodes to fit in memory; one node only: %s", n0, net);
    else if (why == 1 && n0 > e->max_nodes)
        snprintf(buf, cap, "needs %d nodes to fit in memory; the largest cluster is %d nodes", n0,
                 e->max_nodes);
    else if (why == 2 && (e->flags & F_NETWORK_UNKNOWN))
        snprintf(buf, cap, "deadline %g h not met on one node (%s)", r->goal.deadline_h, net);
    else if (why == 1)
        snprintf(buf, cap, "no layout fits in memory on up to %d nodes", e->max_nodes);
    else if (why == 2)
        snprintf(buf, cap, "deadline %g h not met on up to %d nodes (with the %g %% margin)",
                 r->goal.deadline_h, e->max_nodes, r->goal.margin_pct);
    else
        snprintf(buf, cap, "budget %g %s exceeded on every node count", r->goal.budget, r->currency);
}

/* With the cost objective and no deadline: offering i's cheapest point
 * within CF_PLAN_HORIZON_H (with the deadline margin, as --deadline would
 * judge it) into r->hz when it is cheaper than the one there. */
static void horizon_choice(run *r, size_t i, const group *g, size_t n, const cf__plan_price *pr)
{
    cf__plan_goal hg = r->goal;
    double t, c;
    int k;
    if (!r->hz || r->goal.objective != CF_OBJ_COST || !isnan(r->goal.deadline_h)) return;
    hg.deadline_h = CF_PLAN_HORIZON_H;
    if ((k = cf__plan_choose(g->pts, n, r->steps, g->fab.gpus_per_node, pr, &hg, NULL)) < 0) return;
    cf__plan_time_cost(&g->pts[k], r->steps, g->fab.gpus_per_node, pr, &t, &c);
    if (r->hz_n && !(c < r->hz->cost)) return;
    r->hz->e = i;
    r->hz->pt = k;
    r->hz->time_h = t;
    r->hz->cost = c;
    r->hz_n = 1;
}

/* Picks each grouped offering's configuration into r->rows; one its group
 * cannot serve, or with no feasible count, becomes unranked with the
 * reason. CF_ENOMEM. */
static cf_status choose_rows(run *r)
{
    for (size_t i = 0; i < r->list->n; i++) {
        entry *e = &r->es[i];
        group *g;
        cf__plan_price pr;
        size_t n = 0;
        int why = 0, k;
        char buf[512];
        if (e->g < 0) continue;
        g = &r->gs[e->g];
        if (g->fail[0]) {
            if (e->known_capped) {
                no_choice_text(buf, sizeof buf, r, e, 2, 1);
            } else if (e->flags & F_NETWORK_UNKNOWN) {
                char net[160];
                one_node_text(net, sizeof net, e, 0);
                snprintf(buf, sizeof buf, "%s; one node only: %s", g->fail, net);
            } else {
                snprintf(buf, sizeof buf, "%s", g->fail);
            }
            if (add_reason(e->reasons, "%s", buf)) return CF_ENOMEM;
            e->g = -1;
            continue;
        }
        while (n < g->npts && g->pts[n].nodes <= e->max_nodes) n++;
        cf__plan_price_terms(e->o, e->price, &pr);
        e->gp.w = r->w;
        e->gp.storage = cf__plan_storage(e->o);
        e->gp.opts = &r->opts->goodput;
        pr.gp = &e->gp;
        horizon_choice(r, i, g, n, &pr);
        k = cf__plan_choose_bound(g->pts, n, r->steps, g->fab.gpus_per_node, &pr, &r->goal, &why,
                                  &r->rows[r->nrows].bound);
        if (k < 0) {
            no_choice_text(buf, sizeof buf, r, e, g->n0, why);
            if (add_reason(e->reasons, "%s", buf)) return CF_ENOMEM;
            e->g = -1;
            continue;
        }
        r->rows[r->nrows].e = i;
        r->rows[r->nrows].pt = k;
        cf__plan_time_cost(&g->pts[k], r->steps, g->fab.gpus_per_node, &pr,
                           &r->rows[r->nrows].time_h, &r->rows[r->nrows].cost);
        r->nrows++;
    }
    return CF_OK;
}

/* By the objective, then the other criterion, then catalog order. */
static int cmp_rows(const row *x, const row *y, int by_time)
{
    double a1 = by_time ? x->time_h : x->cost, b1 = by_time ? y->time_h : y->cost;
    double a2 = by_time ? x->cost : x->time_h, b2 = by_time ? y->cost : y->time_h;
    if (a1 != b1) return a1 < b1 ? -1 : 1;
    if (a2 != b2) return a2 < b2 ? -1 : 1;
    return (x->e > y->e) - (x->e < y->e);
}
static int cmp_rows_cost(const void *a, const void *b) { return cmp_rows(a, b, 0); }
static int cmp_rows_time(const void *a, const void *b) { return cmp_rows(a, b, 1); }

/* ---- 4. JSON ---- */

json_t *cf__plan_layout_json(const cf_layout *l, int mpi_ranks)
{
    json_t *j = json_object();
    int bad = 0;
    bad |= cf__json_set(j, "tp", json_integer(l->tp));
    bad |= cf__json_set(j, "ep", json_integer(l->ep > 0 ? l->ep : 1));
    bad |= cf__json_set(j, "etp", json_integer(l->etp > 0 ? l->etp : 1));
    bad |= cf__json_set(j, "pp", json_integer(l->pp));
    bad |= cf__json_set(j, "vp", json_integer(l->vp));
    bad |= cf__json_set(j, "dp", mpi_ranks ? json_null() : json_integer(l->dp));
    bad |= cf__json_set(j, "cp", json_integer(l->cp));
    bad |= cf__json_set(j, "zero", json_integer(l->zero));
    bad |= cf__json_set(j, "recompute", json_string(cf_recompute_name(l->recompute)));
    bad |= cf__json_set(j, "micro_batch", json_integer(l->micro_batch));
    if (mpi_ranks) bad |= cf__json_set(j, "ranks", json_integer(l->dp));
    if (bad) {
        json_decref(j);
        return NULL;
    }
    return j;
}

/* The row's flags: the offering's, plus the billing terms it does not
 * state, plus `extra` (F_*), then the topology facts the model assumes on
 * its fabric at that node count (cf_fabric_assumptions: non_blocking_unknown,
 * rail_optimized_unknown). NULL on ENOMEM. */
static json_t *flags_json(const entry *e, const row *r, unsigned extra, const cf_fabric *fab, int nodes)
{
    json_t *flags = json_array(), *topo;
    unsigned fl = e->flags | extra, bf = 0;
    size_t k;
    json_t *f;
    if (!flags) return NULL;
    if (!isnan(r->time_h))      /* NAN: no rental time (a serve row, cf__plan_offering_flags) */
        (void)cf_billed_hours(r->time_h, e->o->billing_increment_s, e->o->min_commitment_h, &bf);
    if (bf & CF_BILL_INCREMENT_UNKNOWN) fl |= F_INCREMENT_UNKNOWN;
    if (bf & CF_BILL_COMMITMENT_UNKNOWN) fl |= F_COMMITMENT_UNKNOWN;
    for (unsigned i = 0; i < sizeof flag_names / sizeof flag_names[0]; i++)
        if ((fl & (1u << i)) && json_array_append_new(flags, json_string(flag_names[i])) != 0) {
            json_decref(flags);
            return NULL;
        }
    if (!(topo = cf_assumption_flags_json(cf_fabric_assumptions(fab, nodes)))) {
        json_decref(flags);
        return NULL;
    }
    json_array_foreach(topo, k, f)
        if (json_array_append(flags, f) != 0) {
            json_decref(topo);
            json_decref(flags);
            return NULL;
        }
    json_decref(topo);
    return flags;
}

/* The facts the row's place rests on: e's when the row uses more than one
 * node, none on one node. NULL on ENOMEM. */
static json_t *assumed_json(const entry *e, const cf__plan_point *pt)
{
    json_t *a = json_array();
    if (!a) return NULL;
    for (unsigned i = 0; pt->nodes > 1 && i < sizeof assumed_names / sizeof assumed_names[0]; i++)
        if ((e->assumed & (1u << i)) && json_array_append_new(a, json_string(assumed_names[i])) != 0) {
            json_decref(a);
            return NULL;
        }
    return a;
}

cf_status cf__plan_offering_flags(const cf_offering *o, int nodes, json_t *out)
{
    entry e;
    struct row rw;
    cf__plan_point pt;
    cf_fabric fab;
    json_t *flags = NULL, *facts = NULL;
    int bad;
    memset(&e, 0, sizeof e);
    memset(&rw, 0, sizeof rw);
    memset(&pt, 0, sizeof pt);
    e.o = o;
    rw.time_h = NAN;            /* billing: a serve row rents by the hour, no job length */
    pt.nodes = nodes;
    if (!(e.reasons = json_array())) return CF_ENOMEM;
    bad = check_offering(&cf__plan_model_default, &e, o->currency ? o->currency : "", CF_PLAN_DEFAULT_MAX_GPUS,
                         "") != CF_OK;
    if (nodes <= 1) e.flags &= ~(unsigned)(F_MAX_CLUSTER_UNKNOWN | F_NICS_UNKNOWN | F_GDR_UNKNOWN);
    else mark_assumed(&e, 0);
    json_decref(e.reasons);
    if (bad || cf_fabric_for_nodes(o, nodes > 1 ? nodes : 1, &fab, NULL) != CF_OK)
        memset(&fab, 0, sizeof fab);
    if (!bad) bad = !(flags = flags_json(&e, &rw, 0, &fab, nodes)) || !(facts = assumed_json(&e, &pt));
    bad = bad || cf__json_set(out, "flags", flags) || cf__json_set(out, "assumed_facts", facts) ||
          cf__json_set(out, "rests_on_assumptions", json_boolean(nodes > 1 && e.assumed));
    return bad ? CF_ENOMEM : CF_OK;
}

/* One ranked row of DESIGN §6; NULL on ENOMEM. */
static json_t *row_json(const entry *e, const group *g, const row *r, const cf_workload *w,
                        const char *currency)
{
    const cf__plan_point *pt = &g->pts[r->pt];
    const cf__plan_point *p0 = NULL;
    const cf_offering *o = e->o;
    double eff, par, effective;
    char why[1024];
    int llm = w->kind == CF_WL_LLM, bad = 0;
    json_t *j = json_object();
    for (size_t i = 0; i < g->npts; i++)
        if (g->pts[i].found && g->pts[i].nodes == g->n0) { p0 = &g->pts[i]; break; }
    eff = p0 ? cf__plan_scaling_eff(pt->nodes, cf__plan_pt_s(pt), p0->nodes, cf__plan_pt_s(p0)) : NAN;
    par = pt->res.ideal_step_time_s > 0 ? pt->res.ideal_step_time_s / pt->res.step_time_s : NAN;
    effective = par > 0 ? e->price / par : NAN;
    cf_goodput_out gout;
    int have_gp;
    cf__plan_why(why, sizeof why, o, pt, p0, g->n0, eff, par, e->price, effective, currency,
                 (int)w->kind, g->free0_s);
    have_gp = cf__plan_goodput(&e->gp, pt, cf__plan_steps(w), o->gpus_per_node, &gout) == CF_OK;
    if (have_gp) cf__plan_goodput_why(why, sizeof why, &gout);
    bad |= cf__json_set(j, "offering_id", json_string(o->id ? o->id : ""));
    bad |= cf__json_set(j, "provider", cf__json_str(o->provider));
    bad |= cf__json_set(j, "provider_rating", cf__json_str(o->provider_rating));
    bad |= cf__json_set(j, "provider_provisioning", cf__json_str(o->provider_provisioning));
    bad |= cf__json_set(j, "price_source", cf__json_str(o->price_source));
    bad |= cf__json_set(j, "offering", cf__json_str(o->offering));
    bad |= cf__json_set(j, "nodes", json_integer(pt->nodes));
    bad |= cf__json_set(j, "gpus", json_integer((json_int_t)pt->nodes * o->gpus_per_node));
    bad |= cf__json_set(j, "tp", json_integer(pt->lay.tp));
    bad |= cf__json_set(j, "ep", json_integer(pt->lay.ep > 0 ? pt->lay.ep : 1));
    bad |= cf__json_set(j, "etp", json_integer(pt->lay.etp > 0 ? pt->lay.etp : 1));
    bad |= cf__json_set(j, "pp", json_integer(pt->lay.pp));
    bad |= cf__json_set(j, "vp", json_integer(pt->lay.vp));
    /* An MPI stencil runs ranks, not data-parallel replicas (issue 9). */
    if (w->kind == CF_WL_STENCIL) {
        bad |= cf__json_set(j, "dp", json_null());
        bad |= cf__json_set(j, "ranks", json_integer((json_int_t)pt->lay.dp));
    } else {
        bad |= cf__json_set(j, "dp", json_integer(pt->lay.dp));
    }
    bad |= cf__json_set(j, "cp", json_integer(pt->lay.cp));
    bad |= cf__json_set(j, "micro_batch", json_integer(pt->lay.micro_batch));
    if (llm) bad |= cf__json_set(j, "global_batch_seqs", json_integer(cf__plan_pt_batch(pt, w)));
    bad |= cf__json_set(j, "zero", json_integer(pt->lay.zero));
    bad |= cf__json_set(j, "recompute", json_string(cf_recompute_name(pt->lay.recompute)));
    bad |= cf__json_set(j, "step_time_s", cf__json_num(pt->res.step_time_s));
    bad |= cf__json_set(j, "time_to_train_h", cf__json_num(r->time_h));
    bad |= cf__json_set(j, "scaling_efficiency", cf__json_num(eff));
    bad |= cf__json_set(j, "parallel_efficiency", cf__json_num(par));
    bad |= cf__json_set(j, "cost", cf__json_num(r->cost));
    if (have_gp) bad |= cf__plan_goodput_set(j, &gout);
    bad |= cf__plan_band_set(j, w, r->time_h, r->cost);
    bad |= cf__json_set(j, "sticker_price_gpu_hr", cf__json_num(e->price));
    bad |= cf__json_set(j, "effective_price_gpu_hr", cf__json_num(effective));
    /* No published training row behind the compute efficiency of this GPU
     * and the framework class of this layout (model/efficiency.c): the
     * row says it rests on a neighbour's. */
    bad |= cf__json_set(j, "flags", flags_json(e, r, llm && !cf__compute_eff_validated(
        o->gpu, w->framework, pt->lay.zero) ? F_EFF_UNVALIDATED : 0u, &g->fab, pt->nodes));
    bad |= cf__json_set(j, "assumed_facts", assumed_json(e, pt));
    bad |= cf__json_set(j, "rests_on_assumptions", json_boolean(pt->nodes > 1 && e->assumed));
    bad |= cf__json_set(j, "price_dated", cf__json_str(o->price_as_of ? o->price_as_of : o->as_of));
    cf__plan_bound_why(why, sizeof why, r->bound, isnan(o->min_commitment_h) ? CF_PLAN_DEFAULT_MIN_RENTAL_H
                                                                        : o->min_commitment_h);
    bad |= cf__json_set(j, "why", json_string(why));
    bad |= cf__json_set(j, "chosen_by", cf__plan_bound_json(r->bound));
    bad |= cf__json_set(j, "scaling_note", cf__plan_scaling_note(pt, p0, eff, llm, g->free0_s));
    if (bad) {
        json_decref(j);
        return NULL;
    }
    return j;
}

/* {offering_id, reasons} of an unranked offering; NULL on ENOMEM. */
static json_t *unranked_json(const entry *e)
{
    json_t *u = json_object();
    int bad = cf__json_set(u, "offering_id", json_string(e->o->id ? e->o->id : ""));
    if (bad || json_object_set(u, "reasons", e->reasons)) {
        json_decref(u);
        return NULL;
    }
    return u;
}

/* The ranks (1-based) of the rows shown after the first whose p10 lies
 * below the first row's p90 on the objective (cost, or time): rows the
 * model cannot tell apart from the first within its own error. [] when
 * none. Rows are sorted. NULL on ENOMEM. */
static json_t *same_within_error(const run *r)
{
    json_t *a = json_array();
    double p10, p90;
    int time = r->opts->objective == CF_OBJ_TIME;
    size_t n = r->opts->top > 0 && (size_t)r->opts->top < r->nrows ? (size_t)r->opts->top : r->nrows;
    if (!a || n == 0) return a;
    cf_error_band(cf_workload_error_class(r->w, NULL), &p10, &p90);
    for (size_t i = 1; i < n; i++) {
        double first = time ? r->rows[0].time_h : r->rows[0].cost;
        double here = time ? r->rows[i].time_h : r->rows[i].cost;
        if (!(here * p10 <= first * p90)) break;
        if (json_array_append_new(a, json_integer((json_int_t)i + 1))) {
            json_decref(a);
            return NULL;
        }
    }
    return a;
}

/* {horizon_h, offering_id, nodes, time_to_train_h, cost}: the cheapest
 * plan within CF_PLAN_HORIZON_H, what --deadline CF_PLAN_HORIZON_H would
 * rank first; offering_id null when none finishes within it. NULL on
 * ENOMEM. */
static json_t *horizon_json(const run *r)
{
    json_t *j = json_object();
    const row *h = r->hz_n ? r->hz : NULL;
    const entry *e = h ? &r->es[h->e] : NULL;
    int bad = !j;
    bad |= cf__json_set(j, "horizon_h", json_real(CF_PLAN_HORIZON_H));
    bad |= cf__json_set(j, "offering_id", e ? cf__json_str(e->o->id) : json_null());
    bad |= cf__json_set(j, "nodes", e ? json_integer(r->gs[e->g].pts[h->pt].nodes) : json_null());
    bad |= cf__json_set(j, "time_to_train_h", h ? cf__json_num(h->time_h) : json_null());
    bad |= cf__json_set(j, "cost", h ? cf__json_num(h->cost) : json_null());
    if (bad) {
        json_decref(j);
        return NULL;
    }
    return j;
}

/* The document {workload, currency, ranked, ranked_total, unranked} into
 * *out. CF_ENOMEM. */
static cf_status build_doc(run *r, json_t **out)
{
    json_t *doc = json_object(), *ranked = json_array(), *unranked = json_array();
    int bad = !ranked || !unranked;
    qsort(r->rows, r->nrows, sizeof *r->rows,
          r->opts->objective == CF_OBJ_TIME ? cmp_rows_time : cmp_rows_cost);
    for (size_t i = 0; !bad && i < r->nrows && (r->opts->top <= 0 || i < (size_t)r->opts->top); i++) {
        const entry *e = &r->es[r->rows[i].e];
        json_t *j = row_json(e, &r->gs[e->g], &r->rows[i], r->w, r->currency);
        bad |= !j || json_array_append_new(ranked, j);
    }
    for (size_t i = 0; !bad && i < r->list->n; i++) {
        json_t *u;
        if (r->es[i].g >= 0) continue;
        u = unranked_json(&r->es[i]);
        bad |= !u || json_array_append_new(unranked, u);
    }
    bad |= cf__json_set(doc, "workload", json_string(r->w->name));
    bad |= cf__json_set(doc, "currency", json_string(r->currency));
    bad |= cf__json_set(doc, "ranked", ranked);
    bad |= cf__json_set(doc, "ranked_total", json_integer((json_int_t)r->nrows)); /* before --top */
    bad |= cf__json_set(doc, "unranked", unranked);
    bad |= cf__json_set(doc, "margin_pct", cf__json_num(r->goal.margin_pct));
    bad |= cf__json_set(doc, "error", cf__plan_error_json(r->w, r->goal.margin_pct));
    bad |= cf__json_set(doc, "same_within_error", same_within_error(r));
    if (r->hz) bad |= cf__json_set(doc, "within_horizon", horizon_json(r));
    if (r->stale_before[0]) {
        bad |= cf__json_set(doc, "stale_months", json_integer(CF_STALE_MONTHS_DEFAULT));
        bad |= cf__json_set(doc, "stale_before", json_string(r->stale_before));
    }
    if (bad) {
        json_decref(doc);
        return CF_ENOMEM;
    }
    *out = doc;
    return CF_OK;
}

cf_status cf__plan_run(const cf__plan_model *m, const cf_offering_list *list,
                       const cf_workload *w, const cf_plan_opts *opts, json_t **out,
                       cf_error *err)
{
    run r;
    cf_status st = CF_ENOMEM;

    *out = NULL;
    memset(&r, 0, sizeof r);
    r.m = m;
    r.list = list;
    r.w = w;
    r.opts = opts;
    r.currency = opts->currency && *opts->currency ? opts->currency : "USD";
    r.default_max = opts->max_gpus > 0 ? opts->max_gpus : CF_PLAN_DEFAULT_MAX_GPUS;
    r.steps = cf__plan_steps(w);
    r.goal.objective = opts->objective;
    r.goal.deadline_h = opts->deadline_h;
    r.goal.budget = opts->budget;
    r.goal.margin_pct = cf__plan_margin_pct(w, opts->margin_pct);
    r.goal.e_floor = opts->objective == CF_OBJ_TIME ? CF_PLAN_TIME_E_FLOOR : 0;
    if (opts->today && cf_catalog_stale_cutoff(opts->today, CF_STALE_MONTHS_DEFAULT, r.stale_before) != CF_OK) {
        cf_error_set_param(err, "today", "today expects a date YYYY-MM-DD, got '%.64s'", opts->today);
        return CF_EINVAL;
    }
    if (isnan(r.steps)) {
        cf_error_set(err, NULL, 0, 0, "workload %s states no amount of work (tokens, samples, iterations or tasks)", w->name);
        return CF_EINVAL;
    }
    r.es = cf__calloc(list->n, sizeof *r.es);
    r.gs = cf__calloc(list->n, sizeof *r.gs);
    r.rows = cf__calloc(list->n, sizeof *r.rows);
    /* NULL: searched without them, the same result */
    r.memo = cf__malloc(sizeof *r.memo);
    r.room = cf__malloc(sizeof *r.room);
    if (opts->objective == CF_OBJ_COST && isnan(opts->deadline_h)) r.hz = cf__calloc(1, sizeof *r.hz);
    if ((r.hz || opts->objective != CF_OBJ_COST || !isnan(opts->deadline_h)) && r.es && r.gs && r.rows && group_offerings(&r) == CF_OK) {
        search_groups(&r);
        if (choose_rows(&r) == CF_OK && (st = build_doc(&r, out)) == CF_OK && opts->evaluated)
            *opts->evaluated = r.evaluated;
    }
    if (st == CF_ENOMEM) cf_error_set(err, NULL, 0, 0, "out of memory");
    if (r.es)
        for (size_t i = 0; i < list->n; i++) json_decref(r.es[i].reasons);
    cf__free(r.es);
    cf__free(r.gs);
    cf__free(r.rows);
    cf__free(r.memo);
    cf__free(r.room);
    cf__free(r.hz);
    return st;
}
