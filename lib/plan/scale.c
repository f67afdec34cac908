/* scale.c — `scale` (DESIGN §4.1, §6): the scaling curve of one workload on
 * one offering — per node count the fastest layout that fits, its step
 * time, throughput, scaling efficiency E against N0, parallel efficiency P
 * and the job's cost.
 *
 * Shape: the offering's fabric first (an offering whose network is not
 * stated can still answer for one node), then N0 (cf_fit's count when the
 * model has a fit, else the search's own), the node counts (the caller's,
 * or N0 and the powers of two up to the largest cluster), one search per
 * count (search.c), and the reference point N0 for E: the first count from
 * cf_fit's on which a layout of the search space fits. Rows are the same
 * numbers, layout JSON and scaling notes as `plan`'s ranked rows. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "base/base.h"
#include "plan/plan_int.h"
#include "clusterfit/limits.h"
#include "clusterfit/fabrics.h"

/* The offering and node counts scale can work with (CF_EINVAL, CF_ELIMIT
 * with err set otherwise). */
static cf_status check_args(const cf__plan_model *m, const cf_offering *o, const int *nodes,
                            size_t n_nodes, cf_error *err)
{
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
    return CF_OK;
}

/* The fabric of o for the most nodes asked (the search for N0 may go past
 * the counts asked). A network or line rate the offering does not state
 * matters only between nodes: when every count asked for is 1 (or none is
 * given), one node is still a question scale can answer (*single = 1;
 * cf_fabric_for_nodes' one-node rule). */
static cf_status scale_fabric(const cf__plan_model *m, const cf_offering *o, const int *nodes,
                              size_t n_nodes, cf_fabric *fab, int *single, cf_error *err)
{
    cf_status st;
    int most = 1;
    memset(fab, 0, sizeof *fab);
    *single = 0;
    for (size_t i = 0; nodes && i < n_nodes; i++)
        if (nodes[i] > most) most = nodes[i];
    st = m->fabric(o, most > 1 ? most : 2, fab, err);
    if (st != CF_OK && st != CF_ENOMEM && most == 1 && o->network != CF_NET_NONE) {
        st = m->fabric(o, 1, fab, err);
        if (st == CF_OK) {
            cf_error_clear(err);
            *single = 1;
        }
    }
    if (st != CF_OK) return st == CF_ENOMEM ? st : CF_EINVAL;
    return CF_OK;
}

/* N0 into *n0: cf_fit's count with the model's fit, else the smallest count
 * up to the largest cluster (or the largest count asked for) on which a
 * layout of the search space fits; 0 when none. */
static cf_status scale_n0(cf__search *s, const cf_offering *o, const int *nodes, size_t n_nodes,
                          int *n0, cf_error *err)
{
    const cf__plan_model *m = s->model;
    cf_fit_result fr;
    memset(&fr, 0, sizeof fr);
    if (m->fit) {
        cf_status st = m->fit(s->w, s->fab->gpu, s->fab->gpus_per_node, &fr, NULL);
        if (st != CF_OK) {
            cf_error_set(err, NULL, 0, 0, "fit: %s", cf_strerror(st));
            return st;
        }
    } else {
        long maxn = (o->max_cluster_gpus > 0 ? o->max_cluster_gpus : CF_PLAN_DEFAULT_MAX_GPUS) /
                    o->gpus_per_node;
        for (size_t i = 0; nodes && i < n_nodes; i++)
            if (nodes[i] > maxn) maxn = nodes[i];
        fr.min_nodes = cf__plan_min_nodes(s, maxn > CF_MAX_NODES ? CF_MAX_NODES : (int)maxn);
    }
    *n0 = fr.min_nodes;
    return CF_OK;
}

/* The node counts of the curve into counts[] (CF_MAX_PLAN_NODE_COUNTS):
 * the caller's, else N0 then the powers of two up to the largest cluster
 * (one node when the offering has no known network). Returns how many. */
static size_t scale_counts(const cf_offering *o, const int *nodes, size_t n_nodes, int n0,
                           int single, int *counts)
{
    long max = o->max_cluster_gpus > 0 ? o->max_cluster_gpus : CF_PLAN_DEFAULT_MAX_GPUS;
    if (nodes) {
        memcpy(counts, nodes, n_nodes * sizeof *nodes);
        return n_nodes;
    }
    if (o->network == CF_NET_NONE || o->network == CF_NET_UNKNOWN || single) max = o->gpus_per_node;
    return n0 > 0 ? cf__plan_node_counts(n0, (int)o->gpus_per_node, max, counts, CF_MAX_PLAN_NODE_COUNTS)
                  : 0;
}

/* The reference N0 for E: the first count from n0 (up to 2·n0) on which a
 * layout of the search space fits, from pts[] when it holds that count,
 * else searched into *ref. NULL when none. */
static const cf__plan_point *reference(cf__search *s, const cf__plan_point *pts, size_t n, int n0,
                                       cf__plan_point *ref)
{
    const cf__plan_point *p0 = NULL;
    for (int k = n0; k >= 1 && !p0 && k <= 2 * n0; k++) {
        for (size_t i = 0; i < n && !p0; i++)
            if (pts[i].nodes == k && pts[i].found) p0 = &pts[i];
        if (!p0) {
            cf__plan_best_grow(s, k, ref);
            if (ref->found) p0 = ref;
        }
    }
    return p0;
}

/* Why no layout is found at pt's node count, for the row's unfit_reason,
 * into buf: the global batch (no data-parallel split of it over this many
 * GPUs) or memory. */
static const char *unfit_reason(const cf__plan_point *pt, const cf_workload *w, char *buf, size_t cap)
{
    if (!pt->batch_limited) return "does not fit in memory";
    if (w->kind == CF_WL_LLM)
        snprintf(buf, cap, "batch of %ld seqs too small", w->global_batch_seqs);
    else
        snprintf(buf, cap, "batch of %ld too small", w->dp_global_batch);
    return buf;
}

/* comm_efficiency of row i: its per-GPU throughput without the memory
 * limit (free_s[i]: seconds per base batch on counts[i] nodes) against the
 * best such throughput on N0 (free_ref_s) or on any count of the curve
 * from N0 up to this one. Why not against N0 alone: N0 is the first count
 * that fits, often one whose GPU count the workload's degrees divide badly
 * (12 nodes = 96 GPUs for 405B's batch of 512 and 126 layers; 5 nodes of
 * p4d for 70B), so its fastest layout without the memory limit is slower
 * per GPU than a larger, rounder count's: C came out above 1 (1.12 at 16
 * nodes against 12) although only communication and bubbles were to lower
 * it. Against the best on as many nodes or fewer it is at most 1 by
 * construction, 1 on N0, and E / C (memory_relief) keeps what N0's memory
 * savers and its GPU count's layouts cost. NAN when a time is missing. */
static double comm_eff(const cf__plan_point *p0, double free_ref_s, const int *counts,
                       const double *free_s, size_t n, size_t i)
{
    double best;
    if (!p0 || !(free_ref_s > 0) || !(free_s[i] > 0)) return NAN;
    best = free_ref_s * p0->nodes;      /* GPU-seconds per base batch: lower is better */
    for (size_t j = 0; j < n; j++)
        if (counts[j] >= p0->nodes && counts[j] <= counts[i] && free_s[j] > 0 &&
            free_s[j] * counts[j] < best)
            best = free_s[j] * counts[j];
    return best / (free_s[i] * counts[i]);
}

static double row_num(const json_t *r, const char *k)
{
    const json_t *v = json_object_get(r, k);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

/* time_note of each row that takes longer to train than the row before
 * it: goodput (failures and checkpoints) when its steady time still falls,
 * else the layout (the step itself is slower per token). null on the
 * others. Nonzero on ENOMEM. */
static int time_notes(json_t *arr)
{
    int bad = 0;
    for (size_t i = 0; i < json_array_size(arr); i++) {
        json_t *r = json_array_get(arr, i), *p = i ? json_array_get(arr, i - 1) : NULL, *note;
        double t1 = row_num(r, "time_to_train_h"), t0 = p ? row_num(p, "time_to_train_h") : NAN;
        double s1 = row_num(r, "steady_time_to_train_h"), s0 = p ? row_num(p, "steady_time_to_train_h") : NAN;
        char text[320];
        int gp;
        if (!(t1 > t0) || !(s1 > 0) || !(s0 > 0)) {
            bad |= cf__json_set(r, "time_note", json_null());
            continue;
        }
        gp = s1 < s0;
        if (gp)
            snprintf(text, sizeof text, "%lld nodes take longer than %lld (%.3g d vs %.3g d) although "
                     "the steady time falls (%.3g d vs %.3g d): goodput, not the layout: %.2f vs %.2f "
                     "(work lost at interruptions, restarts, checkpoint stalls)",
                     (long long)json_integer_value(json_object_get(r, "nodes")),
                     (long long)json_integer_value(json_object_get(p, "nodes")), t1 / 24, t0 / 24, s1 / 24,
                     s0 / 24, row_num(r, "goodput"), row_num(p, "goodput"));
        else
            snprintf(text, sizeof text, "%lld nodes take longer than %lld (%.3g d vs %.3g d): the "
                     "steady time rises too (%.3g d vs %.3g d): the fastest layout found is slower "
                     "per token", (long long)json_integer_value(json_object_get(r, "nodes")),
                     (long long)json_integer_value(json_object_get(p, "nodes")), t1 / 24, t0 / 24, s1 / 24,
                     s0 / 24);
        note = json_pack("{s:s, s:s}", "text", text, "cause", gp ? "goodput" : "layout");
        bad |= !note || cf__json_set(r, "time_note", note);
    }
    return bad;
}

/* One row of the curve; NULL on ENOMEM. */
static json_t *scale_row(const cf__plan_point *pt, const cf__plan_point *p0, double steps,
                         double units, const cf_offering *o, const cf_fabric *fab, double price,
                         const cf_workload *w, double free0_s, double ce, const cf__plan_gp *gp)
{
    cf_goodput_out g;
    int have_gp = 0;
    json_t *j = json_object();
    int llm = w->kind == CF_WL_LLM;
    double e = NAN, thr = NAN, cost = NAN, par = NAN, t_h = NAN, relief = NAN;
    char why[240];
    const char *never = NULL;
    int bad = 0;
    if (!j) return NULL;
    if (pt->found) {
        cf__plan_price pr;
        cf__plan_price_terms(o, price, &pr);
        pr.gp = gp;
        thr = units / cf__plan_pt_s(pt);
        if (pt->res.ideal_step_time_s > 0) par = pt->res.ideal_step_time_s / pt->res.step_time_s;
        if (p0) e = cf__plan_scaling_eff(pt->nodes, cf__plan_pt_s(pt), p0->nodes, cf__plan_pt_s(p0));
        /* What memory relief adds: E = comm_efficiency x memory_relief
         * (comm_efficiency: comm_eff below; docs/model-step.md §9). */
        if (p0 && ce > 0) relief = e / ce;
        cf__plan_time_cost(pt, steps, (int)o->gpus_per_node, &pr, &t_h, &cost);
        have_gp = cf__plan_goodput(gp, pt, steps, (int)o->gpus_per_node, &g) == CF_OK;
        if (have_gp) never = cf__plan_goodput_never(&g, why, sizeof why);
    }
    bad |= cf__json_set(j, "nodes", json_integer(pt->nodes));
    bad |= cf__json_set(j, "step_time_s", pt->found ? cf__json_num(pt->res.step_time_s) : json_null());
    bad |= cf__json_set(j, "throughput", cf__json_num(thr));
    bad |= cf__json_set(j, "scaling_efficiency", cf__json_num(e));
    bad |= cf__json_set(j, "parallel_efficiency", cf__json_num(par));
    bad |= cf__json_set(j, "comm_efficiency", cf__json_num(ce));
    bad |= cf__json_set(j, "memory_relief", cf__json_num(relief));
    bad |= cf__json_set(j, "cost", cf__json_num(cost));
    bad |= cf__json_set(j, "time_to_train_h", cf__json_num(t_h));
    if (have_gp) bad |= cf__plan_goodput_set(j, &g);
    bad |= cf__plan_band_set(j, w, t_h, cost);
    if (llm)
        bad |= cf__json_set(j, "global_batch_seqs",
                            pt->found ? json_integer(cf__plan_pt_batch(pt, w)) : json_null());
    bad |= cf__json_set(j, "layout", pt->found ? cf__plan_layout_json(&pt->lay, w->kind == CF_WL_STENCIL)
                                               : json_null());
    bad |= cf__json_set(j, "scaling_note",
                        pt->found ? cf__plan_scaling_note(pt, p0, e, w->kind == CF_WL_LLM, free0_s)
                                  : json_null());
    /* no layout, or one that never finishes (goodput 0) */
    bad |= cf__json_set(j, "unfit_reason", pt->found ? (never ? json_string(never) : json_null())
                                                     : json_string(unfit_reason(pt, w, why, sizeof why)));
    bad |= cf__json_set(j, "n0", p0 ? json_integer(p0->nodes) : json_null());
    bad |= cf__json_set(j, "n0_throughput", p0 ? cf__json_num(units / cf__plan_pt_s(p0)) : json_null());
    /* What the model assumes on this fabric at this count (fabrics.h). */
    bad |= cf__json_set(j, "flags", cf_assumption_flags_json(cf_fabric_assumptions(fab, pt->nodes)));
    if (bad) {
        json_decref(j);
        return NULL;
    }
    return j;
}

cf_status cf__scale_run(const cf__plan_model *m, const cf_offering *o, const cf_workload *w,
                        const int *nodes, size_t n_nodes, json_t **out, cf_error *err)
{
    return cf__scale_run_gp(m, o, w, nodes, n_nodes, NULL, out, err);
}

cf_status cf__scale_run_gp(const cf__plan_model *m, const cf_offering *o, const cf_workload *w,
                           const int *nodes, size_t n_nodes, const cf_goodput_opts *gopts,
                           json_t **out, cf_error *err)
{
    cf_goodput_opts dflt;
    cf__plan_gp gp;
    cf_fabric fab;
    cf__search s;
    cf__plan_point *pts = NULL, ref;
    const cf__plan_point *p0;
    int counts[CF_MAX_PLAN_NODE_COUNTS], n0 = 0, single = 0;
    size_t n;
    double steps = cf__plan_steps(w), units = cf__plan_units_per_step(w), free0_s, free_ref_s;
    double *free_s = NULL;
    json_t *arr = NULL;
    cf_status st;

    *out = NULL;
    cf_goodput_opts_init(&dflt);
    gp.w = w;
    gp.storage = cf__plan_storage(o);
    gp.opts = gopts ? gopts : &dflt;
    if ((st = check_args(m, o, nodes, n_nodes, err)) != CF_OK) return st;
    if ((st = scale_fabric(m, o, nodes, n_nodes, &fab, &single, err)) != CF_OK) return st;
    s.model = m; s.w = w; s.fab = &fab; s.mem_limit_gib = m->mem_limit_gib(fab.gpu);
    s.evaluated = 0; s.considered = 0; s.memo = NULL; s.room = NULL; s.memo_fits = 0;
    if ((st = scale_n0(&s, o, nodes, n_nodes, &n0, err)) != CF_OK) return st;
    if (single && !nodes && n0 != 1) {
        cf_error_set(err, NULL, 0, 0, "offering %s: network or its line rate unknown, and the workload "
                     "does not fit on one node", o->id ? o->id : "?");
        return CF_EINVAL;
    }
    n = scale_counts(o, nodes, n_nodes, n0, single, counts);
    pts = cf__calloc(n ? n : 1, sizeof *pts);
    arr = json_array();
    if (!pts || !arr) goto nomem;
    for (size_t i = 0; i < n; i++) cf__plan_best_grow(&s, counts[i], &pts[i]);
    p0 = reference(&s, pts, n, n0, &ref);
    /* An E above CF_PLAN_E_NOTE_MIN is explained: is it memory alone? */
    free0_s = cf__plan_free0_s(m, w, &fab, NULL, NULL, pts, n, p0, NULL);
    /* N0 and every count without the memory limit, for comm_efficiency. */
    free_ref_s = !p0 ? NAN : !isnan(free0_s) ? free0_s
                           : cf__plan_free_step_s(m, w, &fab, NULL, NULL, p0->nodes, NULL);
    if (!(free_s = cf__calloc(n ? n : 1, sizeof *free_s))) goto nomem;
    for (size_t i = 0; i < n; i++)
        free_s[i] = pts[i].found && !isnan(free_ref_s)
                        ? cf__plan_free_step_s(m, w, &fab, NULL, NULL, pts[i].nodes, NULL) : NAN;
    for (size_t i = 0; i < n; i++) {
        json_t *r = scale_row(&pts[i], p0, steps, units, o, &fab, cf__plan_sticker_price(o, NULL), w,
                              free0_s, comm_eff(p0, free_ref_s, counts, free_s, n, i), &gp);
        /* One node only because the offering states no network or line
         * rate: the row says so (plan's flag of the same name). */
        if (r && single && json_array_append_new(json_object_get(r, "flags"), json_string("network_unknown"))) {
            json_decref(r);
            goto nomem;
        }
        if (!r || json_array_append_new(arr, r)) goto nomem;
    }
    if (time_notes(arr)) goto nomem;
    cf__free(pts);
    cf__free(free_s);
    *out = arr;
    return CF_OK;
nomem:
    cf__free(pts);
    cf__free(free_s);
    json_decref(arr);
    cf_error_set(err, NULL, 0, 0, "out of memory");
    return CF_ENOMEM;
}
