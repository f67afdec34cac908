/* plan.c — `plan` and `scale` (DESIGN §4.5, §6): rank the catalog's
 * offerings for a workload by the job's real cost or time, with the reason.
 *
 * Shape: offerings are first checked for what the plan cannot do without
 * (price, currency, GPU, GPUs per node, fabric); those that fail go to
 * `unranked` with every reason, never dropped or guessed. The rest are
 * grouped by node type (fabric + GPU): offerings of the same hardware share
 * one search, since step times do not depend on the price. Per group and
 * node count, plan_search.c finds the fastest layout that fits; at a fixed
 * node count that is also the cheapest, so the choice per offering is a scan
 * over node counts with the offering's price, billing and max cluster size
 * (cf__plan_choose). Rows are sorted by the objective and built into the
 * JSON of DESIGN §6 with jansson. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/base.h"
#include "plan/plan_int.h"
#include "clusterfit/hardware.h"
#include "clusterfit/limits.h"

/* Below this share of the step, no communication or bubble term is called
 * the bottleneck: the row is compute-bound. */
#define WHY_MIN_SHARE 0.05

void cf_plan_opts_init(cf_plan_opts *o)
{
    memset(o, 0, sizeof *o);
    o->objective = CF_OBJ_COST;
    o->deadline_h = NAN;
    o->budget = NAN;
}

/* ---- choosing one configuration per offering ---- */

/* Time to train (h) and cost of point i; NAN cost when the price is. */
static void point_tc(const cf__plan_point *p, double steps, int gpus_per_node,
                     const cf__plan_price *pr, double *t, double *c)
{
    *t = steps * p->res.step_time_s / 3600.0;
    *c = cf_job_cost(p->nodes, gpus_per_node, pr->price_gpu_hr, *t, pr->increment_s,
                     pr->min_commitment_h, NULL);
}

int cf__plan_choose(const cf__plan_point *pts, size_t n, double steps, int gpus_per_node,
                    const cf__plan_price *pr, const cf__plan_goal *g, int *why_none)
{
    int best = -1, any = 0, deadline_ok = 0, time_obj = g->objective == CF_OBJ_TIME;
    double best_v = 0, tie_v = 0, t, c;
    /* Pass 1: the best value of the objective among the feasible points. */
    for (size_t i = 0; i < n; i++) {
        double v;
        if (!pts[i].found) continue;
        any = 1;
        point_tc(&pts[i], steps, gpus_per_node, pr, &t, &c);
        if (!isnan(g->deadline_h) && t > g->deadline_h) continue;
        deadline_ok = 1;
        if (!isnan(g->budget) && !(c <= g->budget)) continue;
        v = time_obj ? t : c;
        if (best < 0 || v < best_v) { best = (int)i; best_v = v; }
    }
    if (why_none) *why_none = best >= 0 ? 0 : !any ? 1 : !deadline_ok ? 2 : 3;
    if (best < 0 || isnan(best_v)) return best;
    /* Pass 2 (CF_PLAN_NEAR_TIE_PCT): among the feasible points within the
     * near-tie band of that value, the best on the other criterion (cost for
     * the time objective, time for cost); exact ties keep the first. */
    {
        double band = best_v * (1.0 + CF_PLAN_NEAR_TIE_PCT / 100.0);
        int pick = best;
        point_tc(&pts[best], steps, gpus_per_node, pr, &t, &c);
        tie_v = time_obj ? c : t;
        for (size_t i = 0; i < n; i++) {
            double v, other;
            if (!pts[i].found) continue;
            point_tc(&pts[i], steps, gpus_per_node, pr, &t, &c);
            if (!isnan(g->deadline_h) && t > g->deadline_h) continue;
            if (!isnan(g->budget) && !(c <= g->budget)) continue;
            v = time_obj ? t : c;
            other = time_obj ? c : t;
            if (v <= band && other < tie_v) { pick = (int)i; tie_v = other; }
        }
        return pick;
    }
}

/* ---- the why line ---- */

static const char *net_label(cf_network n)
{
    switch (n) {
    case CF_NET_IB: return "InfiniBand";
    case CF_NET_ROCE: return "RoCE";
    case CF_NET_EFA: return "EFA";
    case CF_NET_TCPX: return "GPUDirect-TCPX";
    case CF_NET_TCPXO: return "GPUDirect-TCPXO";
    case CF_NET_TCP: return "TCP";
    case CF_NET_RDMA: return "RDMA";
    default: return cf_network_name(n);
    }
}

/* "over 3200 Gbit/s EFA", or the NVLink domain for one node. */
static void over_text(char *buf, size_t cap, const cf_offering *o, int nodes)
{
    if (nodes <= 1 || o->network == CF_NET_NONE)
        snprintf(buf, cap, "within the node (%s)", cf_intra_link_name(o->intra_link));
    else if (!isnan(o->network_gbps_per_node))
        snprintf(buf, cap, "over %.0f Gbit/s %s", o->network_gbps_per_node, net_label(o->network));
    else
        snprintf(buf, cap, "over %s", net_label(o->network));
}

void cf_layout_words(char *buf, size_t cap, const cf_layout *l, cf_workload_kind kind)
{
    int llm = kind == CF_WL_LLM;
    size_t n = 0;
    const char *rc;
#define PUT(...) do { if (n < cap) n += (size_t)snprintf(buf + n, cap - n, __VA_ARGS__); } while (0)
    if (cap == 0) return;
    buf[0] = '\0';
    if (!llm) { PUT("DP%d", l->dp); return; }
    if (l->tp > 1) PUT("TP%d ", l->tp);
    if (l->pp > 1) PUT("PP%d%s ", l->pp, l->vp > 1 ? "v2" : "");
    if (l->cp > 1) PUT("CP%d ", l->cp);
    PUT("DP%d", l->dp);
    rc = l->recompute == CF_RECOMPUTE_FULL ? "full" : l->recompute == CF_RECOMPUTE_SELECTIVE ? "selective" : "no";
    if (l->zero > 0) PUT(" with ZeRO-%d and %s recompute", l->zero, rc);
    else PUT(" with %s recompute", rc);
#undef PUT
}

void cf__plan_e_reason(char *buf, size_t cap, const cf__plan_point *p0, const cf__plan_point *pt,
                       int llm, int memory_bound)
{
    char l0[96], l1[96];
    cf_layout_words(l0, sizeof l0, &p0->lay, llm ? CF_WL_LLM : CF_WL_DATA_PARALLEL);
    cf_layout_words(l1, sizeof l1, &pt->lay, llm ? CF_WL_LLM : CF_WL_DATA_PARALLEL);
    if (memory_bound)
        snprintf(buf, cap, "above 1 because memory binds on %d node%s: the fastest layout that fits "
                 "there is %s, while %d nodes have room for %s", p0->nodes, p0->nodes == 1 ? "" : "s",
                 l0, pt->nodes, l1);
    else
        snprintf(buf, cap, "above 1: on %d node%s the fastest layout is %s, and even without the "
                 "memory limit no layout of its %ld GPUs is as fast per GPU as %s on %d nodes",
                 p0->nodes, p0->nodes == 1 ? "" : "s", l0,
                 (long)p0->lay.tp * p0->lay.pp * p0->lay.dp * p0->lay.cp,
                 l1, pt->nodes);
}

double cf__plan_free_step_s(const cf__plan_model *m, const cf_workload *w, const cf_fabric *fab,
                            int nodes, unsigned long *evaluated)
{
    cf__search s = {m, w, fab, INFINITY, 0, 0};
    cf__plan_point pt;
    cf__plan_best_at(&s, nodes, &pt);
    if (evaluated) *evaluated += s.evaluated;
    return pt.found ? pt.res.step_time_s : NAN;
}

/* Whether E at pt is above 1 only because memory binds on N0 (see plan.h). */
static int memory_bound(const cf__plan_point *pt, const cf__plan_point *p0, double free0_s)
{
    double ef = cf__plan_scaling_eff(pt->nodes, pt->res.step_time_s, p0->nodes, free0_s);
    return !(ef > 1.0 + 1e-9);
}

void cf__plan_why(char *buf, size_t cap, const cf_offering *o, const cf__plan_point *pt,
                  const cf__plan_point *p0, int n0, double e, double p, double sticker,
                  double effective, const char *currency, int llm, double free0_s)
{
    const cf_step_breakdown *b = &pt->res.breakdown;
    const cf_layout *l = &pt->lay;
    double st = pt->res.step_time_s;
    double terms[5] = {b->tp_comm_s, b->pp_bubble_s, b->pp_comm_s, b->dp_comm_exposed_s,
                       b->cp_comm_s};
    int k = 0;
    char what[160], over[96], eff[512];
    for (int i = 1; i < 5; i++)
        if (terms[i] > terms[k]) k = i;
    over_text(over, sizeof over, o, pt->nodes);
    if (!(st > 0) || !(terms[k] / st >= WHY_MIN_SHARE)) {
        double comm = 0;
        for (int i = 0; i < 5; i++) comm += terms[i] > 0 ? terms[i] : 0;
        char mfu[32] = "";
        if (pt->res.mfu > 0) snprintf(mfu, sizeof mfu, " (MFU %.0f%%)", pt->res.mfu * 100);
        snprintf(what, sizeof what, "no communication bottleneck: communication and bubble %.0f%% of the step%s",
                 st > 0 ? 100 * comm / st : 0.0, mfu);
    } else {
        int pct = (int)lround(100 * terms[k] / st);
        switch (k) {
        case 0: {
            char tpover[96];
            int span = (o->intra_link == CF_INTRA_NVL72 || l->tp <= o->gpus_per_node) ? 1 : pt->nodes;
            over_text(tpover, sizeof tpover, o, span);
            snprintf(what, sizeof what, "TP %s %s exposes %d%% of the step",
                     l->sequence_parallel ? "all-gather/reduce-scatter" : "all-reduce", tpover, pct);
            break;
        }
        case 1:
            snprintf(what, sizeof what, "pipeline bubble (PP%d%s) takes %d%% of the step", l->pp,
                     l->vp > 1 ? " interleaved" : "", pct);
            break;
        case 2:
            snprintf(what, sizeof what, "PP send/recv %s exposes %d%% of the step", over, pct);
            break;
        case 3:
            snprintf(what, sizeof what, "DP %s %s exposes %d%% of the step",
                     l->zero == 3 ? "all-gather/reduce-scatter (ZeRO-3)" : "all-reduce", over, pct);
            break;
        default:
            snprintf(what, sizeof what, "CP K/V exchange %s exposes %d%% of the step", over, pct);
            break;
        }
    }
    if (pt->nodes == n0)
        snprintf(eff, sizeof eff, "E %.2f on the smallest cluster that fits (%d node%s)", e, n0,
                 n0 == 1 ? "" : "s");
    else if (e > CF_PLAN_E_NOTE_MIN && p0) {
        char reason[400];
        cf__plan_e_reason(reason, sizeof reason, p0, pt, llm, memory_bound(pt, p0, free0_s));
        snprintf(eff, sizeof eff, "E %.2f at %d nodes vs %d, %s", e, pt->nodes, n0, reason);
    } else
        snprintf(eff, sizeof eff, "E %.2f at %d nodes vs %d", e, pt->nodes, n0);
    snprintf(buf, cap, "%s; %s; P %.2f: %.2f %s/GPU-h sticker is %.2f effective", what, eff, p,
             sticker, currency, effective);
}

/* ---- groups of offerings with the same node type ---- */

typedef struct group {
    cf_fabric fab;
    double mem_gib;
    int max_nodes;          /* the largest any member may use */
    int n0;                 /* from cf_fit; 0 = fits nowhere */
    double free0_s;         /* step time on N0 without the memory limit; NAN = not needed */
    size_t npts;
    cf__plan_point pts[CF_MAX_PLAN_NODE_COUNTS];
    char fail[128];         /* reason when the group cannot be planned; "" = none */
} group;

typedef struct entry {
    const cf_offering *o;
    long g;                 /* group index, -1 = unranked before search */
    json_t *reasons;
    unsigned flags;         /* F_* */
    double price;
    int max_nodes;
} entry;

enum {
    F_MAX_CLUSTER_UNKNOWN = 1u << 0, F_RESERVED_PRICE = 1u << 1,
    F_INCREMENT_UNKNOWN = 1u << 2, F_COMMITMENT_UNKNOWN = 1u << 3,
    F_GDR_UNKNOWN = 1u << 4, F_NICS_UNKNOWN = 1u << 5
};
static const char *const flag_names[] = {
    "max_cluster_unknown", "reserved_price", "billing_increment_unknown",
    "min_commitment_unknown", "gdr_unknown", "nics_per_node_unknown"
};

typedef struct row {
    size_t e;               /* entry index */
    int pt;                 /* point index in the group */
    double time_h, cost;
} row;

static int same_fabric(const cf_fabric *a, const cf_fabric *b)
{
    return strcmp(a->gpu, b->gpu) == 0 && a->gpus_per_node == b->gpus_per_node &&
           a->intra_link == b->intra_link && a->network == b->network &&
           a->nics_per_node == b->nics_per_node && a->nic_gbps == b->nic_gbps &&
           a->gdr == b->gdr && a->non_blocking == b->non_blocking &&
           a->rail_optimized == b->rail_optimized;
}

static int add_reason(json_t *reasons, const char *fmt, const char *arg)
{
    char buf[CF_ERROR_MSG_MAX + 64];
    snprintf(buf, sizeof buf, fmt, arg ? arg : "");
    return json_array_append_new(reasons, json_string(buf));
}

/* Checks what the plan needs of one offering; adds a reason to e->reasons for
 * each thing it lacks. CF_ENOMEM only when a reason could not be stored. */
static cf_status check_offering(const cf__plan_model *m, entry *e, const char *currency,
                                long default_max)
{
    const cf_offering *o = e->o;
    int nomem = 0;
    e->price = o->price_on_demand_gpu_hr;
    if (isnan(e->price) && !isnan(o->price_reserved_gpu_hr)) {
        e->price = o->price_reserved_gpu_hr;
        e->flags |= F_RESERVED_PRICE;
    }
    if (isnan(e->price)) nomem |= add_reason(e->reasons, "price unknown", NULL);
    else if (!o->currency) nomem |= add_reason(e->reasons, "currency unknown", NULL);
    if (o->currency && cf__strcasecmp(o->currency, currency) != 0)
        nomem |= add_reason(e->reasons, "currency %s", o->currency);
    if (!o->gpu) nomem |= add_reason(e->reasons, "gpu unknown", NULL);
    else if (isnan(m->mem_limit_gib(o->gpu)))
        nomem |= add_reason(e->reasons, "gpu %s not in the hardware table", o->gpu);
    if (o->gpus_per_node < 1) nomem |= add_reason(e->reasons, "gpus_per_node unknown", NULL);
    if (o->multinode == CF_CAP_NO) {
        /* Rented as one node: the inter-node network does not matter. */
    } else if (o->network == CF_NET_UNKNOWN) {
        nomem |= add_reason(e->reasons, "network unknown", NULL);
    } else if (o->network != CF_NET_NONE && isnan(o->network_gbps_per_node))
        nomem |= add_reason(e->reasons, "network_gbps_per_node unknown", NULL);
    if (o->intra_link == CF_INTRA_UNKNOWN) nomem |= add_reason(e->reasons, "intra_link unknown", NULL);
    if (nomem) return CF_ENOMEM;
    if (json_array_size(e->reasons) > 0) return CF_OK;
    if (o->network == CF_NET_NONE || o->multinode == CF_CAP_NO) {
        e->max_nodes = 1;
    } else {
        long max = o->max_cluster_gpus;
        if (max < 1) {
            max = default_max;
            e->flags |= F_MAX_CLUSTER_UNKNOWN;
        }
        max /= o->gpus_per_node;
        e->max_nodes = max > 1000000 ? 1000000 : (int)max;
    }
    if (e->max_nodes > 1 && o->gpudirect_rdma == CF_CAP_UNKNOWN) e->flags |= F_GDR_UNKNOWN;
    if (e->max_nodes > 1 && o->nics_per_node < 1) e->flags |= F_NICS_UNKNOWN;
    return CF_OK;
}

/* The fabric of an offering for the most nodes the plan may rent of it:
 * one rented as a single node gets network none whatever its (irrelevant)
 * scale-out network says (cf_fabric_for_nodes' one-node rule). */
static cf_status single_node_fabric(const cf__plan_model *m, const entry *e, cf_fabric *fab,
                                    cf_error *err)
{
    return m->fabric(e->o, e->max_nodes > 1 ? e->max_nodes : 1, fab, err);
}

/* Runs the search for one group over N0 and the powers of two. */
static void search_group(const cf__plan_model *m, const cf_workload *w, group *g,
                         unsigned long *evaluated)
{
    cf_fit_result fr;
    int counts[CF_MAX_PLAN_NODE_COUNTS];
    cf__search s = {m, w, &g->fab, g->mem_gib, 0, 0};
    size_t k, first = 0;
    memset(&fr, 0, sizeof fr);
    if (m->fit ? m->fit(w, g->fab.gpu, g->fab.gpus_per_node, &fr, NULL) != CF_OK
               : (fr.min_nodes = cf__plan_min_nodes(&s, g->max_nodes)) < 0)
        fr.min_nodes = 0;
    if (fr.min_nodes < 1) {
        snprintf(g->fail, sizeof g->fail, "does not fit in memory on up to %d nodes", g->max_nodes);
        *evaluated += s.evaluated;
        return;
    }
    g->n0 = fr.min_nodes;
    k = cf__plan_node_counts(fr.min_nodes, g->fab.gpus_per_node,
                             (long)g->max_nodes * g->fab.gpus_per_node, counts,
                             CF_MAX_PLAN_NODE_COUNTS);
    for (size_t i = 0; i < k; i++) {
        cf__plan_best_at(&s, counts[i], &g->pts[g->npts]);
        /* N0 is the first count of the list on which a layout of the search
         * space fits (cf_fit's count, unless its layout is outside the space). */
        if (g->npts == first && !g->pts[g->npts].found) { first++; }
        g->npts++;
    }
    if (first < g->npts) g->n0 = g->pts[first].nodes;
    *evaluated += s.evaluated;
    /* An E above CF_PLAN_E_NOTE_MIN is explained: is it memory alone? */
    g->free0_s = NAN;
    if (first < g->npts)
        for (size_t i = first + 1; i < g->npts; i++)
            if (g->pts[i].found &&
                cf__plan_scaling_eff(g->pts[i].nodes, g->pts[i].res.step_time_s, g->pts[first].nodes,
                                     g->pts[first].res.step_time_s) > CF_PLAN_E_NOTE_MIN) {
                g->free0_s = cf__plan_free_step_s(m, w, &g->fab, g->pts[first].nodes, evaluated);
                break;
            }
}

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

static json_t *real_or_null(double v) { return isnan(v) || isinf(v) ? json_null() : json_real(v); }

/* {tp, pp, vp, dp, cp, zero, recompute, micro_batch} of a layout; NULL on ENOMEM. */
static json_t *layout_json(const cf_layout *l)
{
    json_t *j = json_object();
    if (!j) return NULL;
    if (json_object_set_new(j, "tp", json_integer(l->tp)) ||
        json_object_set_new(j, "pp", json_integer(l->pp)) ||
        json_object_set_new(j, "vp", json_integer(l->vp)) ||
        json_object_set_new(j, "dp", json_integer(l->dp)) ||
        json_object_set_new(j, "cp", json_integer(l->cp)) ||
        json_object_set_new(j, "zero", json_integer(l->zero)) ||
        json_object_set_new(j, "recompute", json_string(cf_recompute_name(l->recompute))) ||
        json_object_set_new(j, "micro_batch", json_integer(l->micro_batch))) {
        json_decref(j);
        return NULL;
    }
    return j;
}

/* The scaling_note of plan.h for pt against p0: null when E is not above
 * CF_PLAN_E_NOTE_MIN. NULL on ENOMEM. */
static json_t *note_json(const cf__plan_point *pt, const cf__plan_point *p0, double e, int llm,
                         double free0_s)
{
    char reason[400], text[480];
    int mem;
    json_t *j;
    if (!p0 || !pt->found || pt == p0 || !(e > CF_PLAN_E_NOTE_MIN)) return json_null();
    mem = memory_bound(pt, p0, free0_s);
    cf__plan_e_reason(reason, sizeof reason, p0, pt, llm, mem);
    snprintf(text, sizeof text, "E %.2f at %d nodes is %s.", e, pt->nodes, reason);
    j = json_object();
    if (!j) return NULL;
    if (json_object_set_new(j, "text", json_string(text)) ||
        json_object_set_new(j, "cause", json_string(mem ? "memory" : "other")) ||
        json_object_set_new(j, "n0", json_integer(p0->nodes)) ||
        json_object_set_new(j, "n0_layout", layout_json(&p0->lay))) {
        json_decref(j);
        return NULL;
    }
    return j;
}

static json_t *row_json(const entry *e, const group *g, const row *r, const cf_workload *w,
                        const char *currency)
{
    const cf__plan_point *pt = &g->pts[r->pt];
    const cf__plan_point *p0 = NULL;
    const cf_offering *o = e->o;
    double eff, par, effective;
    char why[1024];
    int llm = w->kind == CF_WL_LLM;
    json_t *j = json_object(), *flags = json_array();
    unsigned fl = e->flags;
    if (!j || !flags) goto fail;
    for (size_t i = 0; i < g->npts; i++)
        if (g->pts[i].found && g->pts[i].nodes == g->n0) { p0 = &g->pts[i]; break; }
    eff = p0 ? cf__plan_scaling_eff(pt->nodes, pt->res.step_time_s, p0->nodes, p0->res.step_time_s) : NAN;
    par = pt->res.ideal_step_time_s > 0 ? pt->res.ideal_step_time_s / pt->res.step_time_s : NAN;
    effective = par > 0 ? e->price / par : NAN;
    {
        unsigned bf = 0;
        (void)cf_billed_hours(r->time_h, o->billing_increment_s, o->min_commitment_h, &bf);
        if (bf & CF_BILL_INCREMENT_UNKNOWN) fl |= F_INCREMENT_UNKNOWN;
        if (bf & CF_BILL_COMMITMENT_UNKNOWN) fl |= F_COMMITMENT_UNKNOWN;
    }
    for (unsigned i = 0; i < sizeof flag_names / sizeof flag_names[0]; i++)
        if ((fl & (1u << i)) && json_array_append_new(flags, json_string(flag_names[i])) != 0) goto fail;
    cf__plan_why(why, sizeof why, o, pt, p0, g->n0, eff, par, e->price, effective, currency,
                 llm, g->free0_s);
    if (json_object_set_new(j, "offering_id", json_string(o->id ? o->id : "")) ||
        json_object_set_new(j, "provider", o->provider ? json_string(o->provider) : json_null()) ||
        json_object_set_new(j, "offering", o->offering ? json_string(o->offering) : json_null()) ||
        json_object_set_new(j, "nodes", json_integer(pt->nodes)) ||
        json_object_set_new(j, "gpus", json_integer((json_int_t)pt->nodes * o->gpus_per_node)) ||
        json_object_set_new(j, "tp", json_integer(pt->lay.tp)) ||
        json_object_set_new(j, "pp", json_integer(pt->lay.pp)) ||
        json_object_set_new(j, "vp", json_integer(pt->lay.vp)) ||
        json_object_set_new(j, "dp", json_integer(pt->lay.dp)) ||
        json_object_set_new(j, "cp", json_integer(pt->lay.cp)) ||
        json_object_set_new(j, "micro_batch", json_integer(pt->lay.micro_batch)) ||
        json_object_set_new(j, "zero", json_integer(pt->lay.zero)) ||
        json_object_set_new(j, "recompute", json_string(cf_recompute_name(pt->lay.recompute))) ||
        json_object_set_new(j, "step_time_s", real_or_null(pt->res.step_time_s)) ||
        json_object_set_new(j, "time_to_train_h", real_or_null(r->time_h)) ||
        json_object_set_new(j, "scaling_efficiency", real_or_null(eff)) ||
        json_object_set_new(j, "parallel_efficiency", real_or_null(par)) ||
        json_object_set_new(j, "cost", real_or_null(r->cost)) ||
        json_object_set_new(j, "sticker_price_gpu_hr", real_or_null(e->price)) ||
        json_object_set_new(j, "effective_price_gpu_hr", real_or_null(effective)))
        goto fail;
    {
        int bad = json_object_set_new(j, "flags", flags);  /* steals flags either way */
        flags = NULL;
        if (bad) goto fail;
    }
    if (json_object_set_new(j, "why", json_string(why))) goto fail;
    {
        json_t *note = note_json(pt, p0, eff, llm, g->free0_s);
        if (!note || json_object_set_new(j, "scaling_note", note)) goto fail;
    }
    return j;
fail:
    json_decref(flags);
    json_decref(j);
    return NULL;
}

cf_status cf__plan_run(const cf__plan_model *m, const cf_offering_list *list,
                          const cf_workload *w, const cf_plan_opts *opts, json_t **out,
                          cf_error *err)
{
    const char *currency = opts->currency && *opts->currency ? opts->currency : "USD";
    long default_max = opts->max_gpus > 0 ? opts->max_gpus : CF_PLAN_DEFAULT_MAX_GPUS;
    double steps = cf__plan_steps(w);
    cf__plan_goal goal = {opts->objective, opts->deadline_h, opts->budget};
    entry *es = NULL;
    group *gs = NULL;
    row *rows = NULL;
    size_t ng = 0, nrows = 0;
    unsigned long evaluated = 0;
    json_t *doc = NULL, *ranked = NULL, *unranked = NULL;
    cf_status st = CF_ENOMEM;

    *out = NULL;
    if (isnan(steps)) {
        cf_error_set(err, NULL, 0, 0, "workload %s states no amount of work (tokens, samples, iterations or tasks)", w->name);
        return CF_EINVAL;
    }
    es = cf__calloc(list->n, sizeof *es);
    gs = cf__calloc(list->n, sizeof *gs);
    rows = cf__calloc(list->n, sizeof *rows);
    doc = json_object();
    ranked = json_array();
    unranked = json_array();
    if (!es || !gs || !rows || !doc || !ranked || !unranked) goto fail;

    for (size_t i = 0; i < list->n; i++) {
        entry *e = &es[i];
        cf_fabric fab;
        cf_error ferr;
        size_t gi;
        e->o = &list->items[i];
        e->g = -1;
        if (!(e->reasons = json_array())) goto fail;
        if (check_offering(m, e, currency, default_max) != CF_OK) goto fail;
        if (json_array_size(e->reasons) > 0) continue;
        memset(&fab, 0, sizeof fab);
        cf_error_clear(&ferr);
        if (single_node_fabric(m, e, &fab, &ferr) != CF_OK) {
            if (add_reason(e->reasons, "fabric: %s", ferr.message[0] ? ferr.message : "unsupported")) goto fail;
            continue;
        }
        for (gi = 0; gi < ng; gi++)
            if (same_fabric(&gs[gi].fab, &fab)) break;
        if (gi == ng) {
            gs[ng].fab = fab;
            gs[ng].mem_gib = m->mem_limit_gib(fab.gpu);
            ng++;
        }
        if (e->max_nodes > gs[gi].max_nodes) gs[gi].max_nodes = e->max_nodes;
        e->g = (long)gi;
    }
    for (size_t gi = 0; gi < ng; gi++) {
        search_group(m, w, &gs[gi], &evaluated);
        if (opts->progress) opts->progress(opts->progress_user, gi + 1, ng);
    }
    for (size_t i = 0; i < list->n; i++) {
        entry *e = &es[i];
        group *g;
        cf__plan_price pr;
        size_t n = 0;
        int why = 0, k;
        char buf[256];
        if (e->g < 0) continue;
        g = &gs[e->g];
        if (g->fail[0]) {
            if (add_reason(e->reasons, "%s", g->fail)) goto fail;
            e->g = -1;
            continue;
        }
        while (n < g->npts && g->pts[n].nodes <= e->max_nodes) n++;
        pr.price_gpu_hr = e->price;
        pr.increment_s = e->o->billing_increment_s;
        pr.min_commitment_h = e->o->min_commitment_h;
        k = cf__plan_choose(g->pts, n, steps, g->fab.gpus_per_node, &pr, &goal, &why);
        if (k < 0) {
            if (why == 1 && g->n0 > e->max_nodes)
                snprintf(buf, sizeof buf, "needs %d nodes to fit in memory; the largest cluster is %d nodes",
                         g->n0, e->max_nodes);
            else if (why == 1)
                snprintf(buf, sizeof buf, "no layout fits in memory on up to %d nodes", e->max_nodes);
            else if (why == 2)
                snprintf(buf, sizeof buf, "deadline %g h not met on up to %d nodes", goal.deadline_h,
                         e->max_nodes);
            else
                snprintf(buf, sizeof buf, "budget %g %s exceeded on every node count", goal.budget, currency);
            if (add_reason(e->reasons, "%s", buf)) goto fail;
            e->g = -1;
            continue;
        }
        rows[nrows].e = i;
        rows[nrows].pt = k;
        rows[nrows].time_h = steps * g->pts[k].res.step_time_s / 3600.0;
        rows[nrows].cost = cf_job_cost(g->pts[k].nodes, g->fab.gpus_per_node, e->price,
                                       rows[nrows].time_h, pr.increment_s, pr.min_commitment_h, NULL);
        nrows++;
    }
    qsort(rows, nrows, sizeof *rows, opts->objective == CF_OBJ_TIME ? cmp_rows_time : cmp_rows_cost);
    for (size_t r = 0; r < nrows && (opts->top <= 0 || r < (size_t)opts->top); r++) {
        const entry *e = &es[rows[r].e];
        json_t *j = row_json(e, &gs[e->g], &rows[r], w, currency);
        if (!j || json_array_append_new(ranked, j)) goto fail;
    }
    for (size_t i = 0; i < list->n; i++) {
        json_t *u;
        if (es[i].g >= 0) continue;
        u = json_object();
        if (!u || json_array_append_new(unranked, u) ||
            json_object_set_new(u, "offering_id", json_string(es[i].o->id ? es[i].o->id : "")))
            goto fail;
        if (json_object_set(u, "reasons", es[i].reasons)) goto fail;
    }
    if (json_object_set_new(doc, "workload", json_string(w->name)) ||
        json_object_set_new(doc, "currency", json_string(currency)))
        goto fail;
    st = json_object_set_new(doc, "ranked", ranked) ? CF_ENOMEM : CF_OK;
    ranked = NULL;
    if (st != CF_OK) goto fail;
    st = json_object_set_new(doc, "unranked", unranked) ? CF_ENOMEM : CF_OK;
    unranked = NULL;
    if (st != CF_OK) goto fail;
    if (opts->evaluated) *opts->evaluated = evaluated;
    *out = doc;
    doc = NULL;
fail:
    if (st == CF_ENOMEM) cf_error_set(err, NULL, 0, 0, "out of memory");
    if (es)
        for (size_t i = 0; i < list->n; i++) json_decref(es[i].reasons);
    cf__free(es);
    cf__free(gs);
    cf__free(rows);
    json_decref(ranked);
    json_decref(unranked);
    json_decref(doc);
    return st;
}

cf_status cf__plan_check_opts(const cf_plan_opts *o, cf_error *err)
{
    if (o->objective != CF_OBJ_COST && o->objective != CF_OBJ_TIME) {
        cf_error_set(err, NULL, 0, 0, "objective must be cost or time");
        return CF_EINVAL;
    }
    if (!isnan(o->deadline_h) && !(o->deadline_h > 0)) {
        cf_error_set(err, NULL, 0, 0, "deadline must be a positive number of hours");
        return CF_EINVAL;
    }
    if (!isnan(o->budget) && !(o->budget > 0)) {
        cf_error_set(err, NULL, 0, 0, "budget must be a positive amount");
        return CF_EINVAL;
    }
    if (o->max_gpus < 0 || o->top < 0) {
        cf_error_set(err, NULL, 0, 0, "max_gpus and top must not be negative");
        return CF_EINVAL;
    }
    return CF_OK;
}

/* ---- scale ---- */

static json_t *scale_row(const cf__plan_point *pt, const cf__plan_point *p0, double steps,
                         double units, const cf_offering *o, double price, int llm, double free0_s)
{
    json_t *j = json_object();
    double e = NAN, thr = NAN, cost = NAN, par = NAN;
    if (!j) return NULL;
    if (pt->found) {
        double t_h = steps * pt->res.step_time_s / 3600.0;
        thr = units / pt->res.step_time_s;
        if (pt->res.ideal_step_time_s > 0) par = pt->res.ideal_step_time_s / pt->res.step_time_s;
        if (p0) e = cf__plan_scaling_eff(pt->nodes, pt->res.step_time_s, p0->nodes, p0->res.step_time_s);
        cost = cf_job_cost(pt->nodes, (int)o->gpus_per_node, price, t_h, o->billing_increment_s,
                           o->min_commitment_h, NULL);
    }
    if (json_object_set_new(j, "nodes", json_integer(pt->nodes)) ||
        json_object_set_new(j, "step_time_s", pt->found ? real_or_null(pt->res.step_time_s) : json_null()) ||
        json_object_set_new(j, "throughput", real_or_null(thr)) ||
        json_object_set_new(j, "scaling_efficiency", real_or_null(e)) ||
        json_object_set_new(j, "parallel_efficiency", real_or_null(par)) ||
        json_object_set_new(j, "cost", real_or_null(cost)) ||
        json_object_set_new(j, "layout", pt->found ? layout_json(&pt->lay) : json_null()) ||
        json_object_set_new(j, "scaling_note", pt->found ? note_json(pt, p0, e, llm, free0_s) : json_null()) ||
        json_object_set_new(j, "n0", p0 ? json_integer(p0->nodes) : json_null()) ||
        json_object_set_new(j, "n0_throughput", p0 ? real_or_null(units / p0->res.step_time_s) : json_null())) {
        json_decref(j);
        return NULL;
    }
    return j;
}

cf_status cf__scale_run(const cf__plan_model *m, const cf_offering *o, const cf_workload *w,
                        const int *nodes, size_t n_nodes, json_t **out, cf_error *err)
{
    cf_fabric fab;
    cf_fit_result fr;
    cf__search s;
    cf__plan_point *pts = NULL, ref;
    const cf__plan_point *p0 = NULL;
    int counts[CF_MAX_PLAN_NODE_COUNTS];
    size_t n;
    double steps = cf__plan_steps(w), units = cf__plan_units_per_step(w), price, free0_s = NAN;
    json_t *arr = NULL;
    cf_status st;
    int single = 0;         /* network unknown: one node only */

    *out = NULL;
    if (!o->gpu || isnan(m->mem_limit_gib(o->gpu)) || o->gpus_per_node < 1) {
        cf_error_set(err, NULL, 0, 0, "offering %s: %s", o->id ? o->id : "?",
                     !o->gpu ? "gpu unknown" : o->gpus_per_node < 1 ? "gpus_per_node unknown"
                                                                   : "gpu not in the hardware table");
        return CF_EINVAL;
    }
    if (n_nodes > CF_MAX_PLAN_NODE_COUNTS) {
        cf_error_set(err, NULL, 0, 0, "at most %d node counts", CF_MAX_PLAN_NODE_COUNTS);
        return CF_ELIMIT;
    }
    for (size_t i = 0; nodes && i < n_nodes; i++)
        if (nodes[i] < 1) {
            cf_error_set(err, NULL, 0, 0, "node counts must be at least 1");
            return CF_EINVAL;
        }
    /* The offering's whole fabric (the search for N0 may go past the counts
     * asked). A network or line rate the offering does not state matters
     * only between nodes: when only one node is asked (or the counts are
     * scale's own), one node is still a question scale can answer
     * (cf_fabric_for_nodes' one-node rule). */
    {
        int most = 1;
        for (size_t i = 0; nodes && i < n_nodes; i++)
            if (nodes[i] > most) most = nodes[i];
        st = m->fabric(o, most > 1 ? most : 2, &fab, err);
        if (st != CF_OK && st != CF_ENOMEM && most == 1 && o->network != CF_NET_NONE) {
            st = m->fabric(o, 1, &fab, err);
            if (st == CF_OK) {
                cf_error_clear(err);
                single = 1;
            }
        }
        if (st != CF_OK) return st == CF_ENOMEM ? st : CF_EINVAL;
    }
    memset(&fr, 0, sizeof fr);
    s.model = m; s.w = w; s.fab = &fab; s.mem_limit_gib = m->mem_limit_gib(fab.gpu);
    s.evaluated = 0; s.considered = 0;
    if (m->fit) {
        st = m->fit(w, fab.gpu, fab.gpus_per_node, &fr, NULL);
        if (st != CF_OK) {
            cf_error_set(err, NULL, 0, 0, "fit: %s", cf_strerror(st));
            return st;
        }
    } else {
        long maxn = (o->max_cluster_gpus > 0 ? o->max_cluster_gpus : CF_PLAN_DEFAULT_MAX_GPUS) /
                    o->gpus_per_node;
        for (size_t i = 0; nodes && i < n_nodes; i++)
            if (nodes[i] > maxn) maxn = nodes[i];
        fr.min_nodes = cf__plan_min_nodes(&s, maxn > 1000000 ? 1000000 : (int)maxn);
    }
    if (single && !nodes && fr.min_nodes != 1) {
        cf_error_set(err, NULL, 0, 0, "offering %s: network or its line rate unknown, and the workload "
                     "does not fit on one node", o->id ? o->id : "?");
        return CF_EINVAL;
    }
    price = isnan(o->price_on_demand_gpu_hr) ? o->price_reserved_gpu_hr : o->price_on_demand_gpu_hr;
    if (nodes) {
        memcpy(counts, nodes, n_nodes * sizeof *nodes);
        n = n_nodes;
    } else {
        long max = o->max_cluster_gpus > 0 ? o->max_cluster_gpus : CF_PLAN_DEFAULT_MAX_GPUS;
        if (o->network == CF_NET_NONE || o->network == CF_NET_UNKNOWN || single) max = o->gpus_per_node;
        n = fr.min_nodes > 0 ? cf__plan_node_counts(fr.min_nodes, (int)o->gpus_per_node, max, counts,
                                                    CF_MAX_PLAN_NODE_COUNTS)
                             : 0;
    }
    pts = cf__calloc(n ? n : 1, sizeof *pts);
    arr = json_array();
    if (!pts || !arr) goto nomem;
    for (size_t i = 0; i < n; i++) cf__plan_best_at(&s, counts[i], &pts[i]);
    /* The reference N0: cf_fit's count, or the next count where a layout of
     * the search space fits. */
    for (int k = fr.min_nodes; k >= 1 && !p0 && k <= 2 * fr.min_nodes; k++) {
        for (size_t i = 0; i < n && !p0; i++)
            if (pts[i].nodes == k && pts[i].found) p0 = &pts[i];
        if (!p0) {
            cf__plan_best_at(&s, k, &ref);
            if (ref.found) p0 = &ref;
        }
    }
    /* An E above CF_PLAN_E_NOTE_MIN is explained: is it memory alone? */
    for (size_t i = 0; p0 && i < n && isnan(free0_s); i++)
        if (pts[i].found && cf__plan_scaling_eff(pts[i].nodes, pts[i].res.step_time_s, p0->nodes,
                                                 p0->res.step_time_s) > CF_PLAN_E_NOTE_MIN)
            free0_s = cf__plan_free_step_s(m, w, &fab, p0->nodes, NULL);
    for (size_t i = 0; i < n; i++) {
        json_t *r = scale_row(&pts[i], p0, steps, units, o, price, w->kind == CF_WL_LLM, free0_s);
        if (!r || json_array_append_new(arr, r)) goto nomem;
    }
    cf__free(pts);
    *out = arr;
    return CF_OK;
nomem:
    cf__free(pts);
    json_decref(arr);
    cf_error_set(err, NULL, 0, 0, "out of memory");
    return CF_ENOMEM;
}

