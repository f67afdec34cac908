/* prune.c — the layout search at one node count in the order of a lower
 * bound, and what it may skip (issue 20's search cost): the same fastest
 * layout as search.c's walk in the iterator's order, with most splits
 * never timed, nor their memory checked.
 *
 * A split is a (tp, cp, pp, dp, ep, etp) of the layout iterator with its
 * vp; search.c times its micro-batches, ZeRO stages and least recompute
 * that fits (cf__plan_search_split). Here, first, every split gets a
 * bound: the least recompute that fits at micro-batch 1 (memory only; a
 * layout the split times fits, and memory never falls with the micro-batch
 * nor with interleaving, so its recompute is at least that), then the
 * step model's bound (cf__step_aid.bound: the pipeline part of the step,
 * what the step time adds PP and DP communication and the optimizer step
 * to) at that recompute over the split's micro-batches and ZeRO stages.
 * Then the splits are searched in increasing bound, and the walk stops at
 * the first whose bound exceeds the fastest time found: none after it can
 * reach that time. A split whose bound is above the answer is never
 * searched, so it changes nothing; the ones searched are searched as
 * search.c does, and of equal times the one first in the iterator's order
 * wins, as there. The etp = tp split of an MoE model is searched only when
 * nothing fit at etp 1 of the same split (search.c's header): when it comes
 * first, its etp 1 split is searched first, for that answer alone.
 *
 * The bound is the step model's promise (test_prune checks it against the
 * step times it covers); here: a split whose bound the model does not give
 * (a refusal, NAN) gets 0 and is searched; a searched split faster than its
 * bound (a model that broke the bound's premises: caught where it shows)
 * and more splits than the caller's room send the node count back to
 * search.c's walk. One step question per micro-batch bounds the splits at
 * vp 1 and vp 2 (cf__step_aid.bound2). Allocation-free: the room is the
 * caller's. */
#include <math.h>
#include <string.h>
#include "plan/plan_int.h"
#include "model/model_int.h"

/* Relative slack of the bound against rounding (the step sums the same
 * terms in another order). */
#define BOUND_SLACK 1e-9

static const int mb_values[] = {1, 2, 4, 8};
#define N_MB ((int)(sizeof mb_values / sizeof mb_values[0]))
#define N_RC 3

/* The least recompute at which some ZeRO stage the split times fits at
 * micro-batch 1 without interleaving; N_RC when none does. */
static int least_recompute(cf__search *s, const cf_layout *base)
{
    static const int zeros[] = {3, 1, 0};
    cf_layout lay = *base;
    size_t z0 = lay.dp > 1 ? 0 : 2;
    lay.micro_batch = 1;
    lay.vp = 1;
    if (s->memo_fits && s->model->least_recompute)
        return s->model->least_recompute(s->w, s->fab, &lay, zeros + z0, (int)(3 - z0),
                                         s->mem_limit_gib, s->memo);
    for (int rc = 0; rc < N_RC; rc++) {
        lay.recompute = (cf_recompute)rc;
        for (size_t zi = lay.dp > 1 ? 0 : 2; zi < sizeof zeros / sizeof zeros[0]; zi++) {
            lay.zero = zeros[zi];
            s->considered++;
            if (cf__plan_memory(s, &lay) <= s->mem_limit_gib) return rc;
        }
    }
    return N_RC;
}

/* The bounds of the splits of one (tp, cp, pp, dp, ep, etp) `lay` at vp 1
 * (lb[0]) and vp 2 (lb[1], when `two`): the least of the step model's
 * bounds over the micro-batches search.c times for each, at ZeRO stages up
 * to the highest it times and the least recompute that fits at micro-batch
 * 1 (rc_min); 0 where the model gives none, INFINITY where no layout fits
 * or none is timed. One question per micro-batch serves both (interleaving
 * changes only the bubble). */
static void split_bounds(cf__search *s, int nodes, long batch, const cf_layout *base, int rc_min,
                         int two, double lb[2])
{
    cf_layout lay = *base;
    double b2 = NAN;
    cf__step_aid aid = {s->memo, NAN, 1, two ? &b2 : NULL, s->memo_fits};
    lb[0] = lb[1] = INFINITY;
    if (rc_min >= N_RC) return;
    lay.vp = 1;
    lay.zero = lay.dp > 1 ? 3 : 0;
    lay.recompute = (cf_recompute)rc_min;
    for (int mi = 0; mi < N_MB; mi++) {
        cf_step_result r;
        long per = (long)lay.dp * mb_values[mi];
        if (batch % per != 0) continue;
        lay.micro_batch = mb_values[mi];
        if (s->model->step_aided(s->w, s->fab, nodes, &lay, &r, NULL, &aid) != CF_OK) {
            lb[0] = lb[1] = 0;
            return;
        }
        lb[0] = isnan(r.step_time_s) || lb[0] == 0 ? 0 : r.step_time_s < lb[0] ? r.step_time_s : lb[0];
        if (two && (batch / per) % lay.pp == 0)   /* search.c's rule for vp 2 */
            lb[1] = isnan(b2) || lb[1] == 0 ? 0 : b2 < lb[1] ? b2 : lb[1];
    }
}

/* Every split of the node count into the room, in the iterator's order,
 * with its bound; out->batch_limited as search.c sets it. Returns the
 * count, or -1 when the room is too small. */
static long collect(cf__search *s, int nodes, cf__plan_point *out)
{
    const cf_workload *w = s->w;
    cf__split_room *room = s->room;
    cf__layout_iter it;
    cf_layout lay;
    long n = 0, sib[2] = {-1, -1};
    memset(&lay, 0, sizeof lay);
    cf__layout_iter_init(&it, w, (long)nodes * s->fab->gpus_per_node,
                         cf__layout_domain(s->fab->gpus_per_node, s->fab->intra_link));
    out->batch_limited = 1;
    while (cf__layout_iter_next(&it, &lay)) {
        int rc_min, two;
        double lb[2];
        if (w->global_batch_seqs % lay.dp != 0) continue;  /* search.c's batch_splits */
        out->batch_limited = 0;
        lay.sequence_parallel = lay.tp > 1;
        rc_min = least_recompute(s, &lay);
        two = lay.pp > 1 && (long)lay.pp * 2 <= w->llm.layers;
        split_bounds(s, nodes, w->global_batch_seqs, &lay, rc_min, two, lb);
        for (int vp = 1; vp <= (lay.pp > 1 ? 2 : 1); vp++) {
            cf__split *sp;
            if ((long)lay.pp * vp > w->llm.layers) continue;
            if (n >= CF__PLAN_SPLITS_MAX) return -1;
            sp = &room->split[n];
            sp->lay = lay;
            sp->lay.vp = vp;
            sp->rc_min = rc_min;
            /* etp = tp follows etp 1 of the same split and vp (layouts.c) */
            if (lay.etp == 1) sib[vp - 1] = n;
            sp->sibling = lay.etp > 1 ? sib[vp - 1] : -1;
            /* nothing fits at micro-batch 1: search_mb would say so */
            sp->state = rc_min >= N_RC ? 2 : 0;
            sp->lb = lb[vp - 1];
            room->rank[n].lb = sp->lb;
            room->rank[n].idx = n;
            n++;
        }
    }
    return n;
}

/* Whether rank a comes before b: the lesser bound, then the iterator's
 * order. */
static int before(const cf__split_rank *a, const cf__split_rank *b)
{
    return a->lb < b->lb || (a->lb == b->lb && a->idx < b->idx);
}

/* Moves r[i] down the min-heap r[0..n). */
static void sift(cf__split_rank *r, long n, long i)
{
    for (;;) {
        long l = 2 * i + 1, m = i;
        cf__split_rank t;
        if (l < n && before(&r[l], &r[m])) m = l;
        if (l + 1 < n && before(&r[l + 1], &r[m])) m = l + 1;
        if (m == i) return;
        t = r[i];
        r[i] = r[m];
        r[m] = t;
        i = m;
    }
}

/* The first rank of the heap r[0..*n), taken out of it. */
static cf__split_rank pop(cf__split_rank *r, long *n)
{
    cf__split_rank top = r[0];
    r[0] = r[--*n];
    sift(r, *n, 0);
    return top;
}

/* Searches split i as search.c does and keeps its fastest layout in out
 * when it beats out's (less time, or the same time earlier in the
 * iterator's order: *best_i). Returns 0 when the split was faster than its
 * bound. */
static int search_one(cf__search *s, int nodes, long i, cf__plan_point *out, long *best_i)
{
    cf__split *sp = &s->room->split[i];
    cf__plan_point local;
    cf_layout lay = sp->lay;
    memset(&local, 0, sizeof local);
    sp->state = cf__plan_search_split(s, nodes, &lay, s->w->global_batch_seqs, &local) ? 2 : 1;
    if (!local.found) return 1;
    if (local.res.step_time_s < sp->lb * (1.0 - BOUND_SLACK)) return 0;
    if (!out->found || local.res.step_time_s < out->res.step_time_s ||
        (local.res.step_time_s == out->res.step_time_s && i < *best_i)) {
        out->found = 1;
        out->lay = local.lay;
        out->res = local.res;
        *best_i = i;
    }
    return 1;
}

int cf__plan_best_at_pruned(cf__search *s, int nodes, cf__plan_point *out)
{
    cf__split_room *room = s->room;
    long n, best_i = -1;
    if (!room || !s->memo || !s->model->step_aided || !s->model->memory_gib) return 0;
    if ((n = collect(s, nodes, out)) < 0) return 0;
    /* A heap: the splits come out in the order of their bounds, and most
     * never do (the walk stops at the first bound above the answer). */
    for (long k = n / 2; k-- > 0;) sift(room->rank, n, k);
    while (n > 0) {
        long i = pop(room->rank, &n).idx;
        cf__split *sp = &room->split[i];
        if (out->found && sp->lb * (1.0 - BOUND_SLACK) > out->res.step_time_s) break;
        if (sp->state != 0) continue;               /* searched, or nothing fits */
        if (sp->sibling >= 0) {
            cf__split *sib = &room->split[sp->sibling];
            if (sib->state == 0 && !search_one(s, nodes, sp->sibling, out, &best_i)) return 0;
            if (sib->state == 1) {                  /* something fit at etp 1: not searched */
                sp->state = 1;
                continue;
            }
        }
        if (!search_one(s, nodes, i, out, &best_i)) return 0;
    }
    return 1;
}
