/* search.c — the layout search of DESIGN §4.5 at one node count: the
 * fastest layout that fits (cf__plan_best_at) and the smallest node count on
 * which any fits (cf__plan_min_nodes).
 *
 * Space: the TP × CP × PP × DP splits of model/layouts.c (the one
 * enumeration `fit` uses too: tp within the NVLink domain, cp from 8192
 * tokens with 2·cp dividing the sequence, pp ≤ 64 and ≤ layers), and per
 * split: micro-batch mb ∈ {1,2,4,8} with dp·mb dividing the global batch;
 * vp ∈ {1,2} when pp > 1 (interleaving needs the micro-batch count to be a
 * multiple of pp, as Megatron-LM's interleaved 1F1B schedule requires);
 * ZeRO ∈ {0,1,3}; recompute ∈ {none, selective, full}. Sequence parallel is on whenever tp > 1 (Megatron-LM's
 * recommended setting).
 *
 * Pruning, all exact under the step model's monotonicity (DESIGN §4.3):
 *  - Time never decreases with more recompute (more FLOPs, same traffic)
 *    and memory never increases with it: for each ZeRO stage only the least
 *    recompute that fits is timed. ZeRO stages are all timed: a stage
 *    shards the optimizer step (faster) while ZeRO-3 moves more data (slower),
 *    so time is not monotone in the stage.
 *  - Memory grows with the micro-batch: the least recompute that fits a
 *    stage at micro-batch m is a lower bound at 2m, and when nothing fits at
 *    m nothing fits at any larger micro-batch.
 *  - With dp = 1 the ZeRO stages shard nothing: only stage 0 is evaluated.
 * One bound that is not exact: an MoE split is tried with etp = tp (the
 * experts' matrices split over the TP ranks; model/layouts.c) only when
 * nothing fits at etp 1 of the same split (tp, cp, pp, ep, vp). etp > 1
 * spreads the same tokens' all-to-all over a group etp times wider and
 * adds an all-gather and a reduce-scatter per expert layer; what it buys
 * is memory (expert weights, gradients and optimizer / etp). Timing etp =
 * tp everywhere took deepseek-v3's plan over the catalog from 798,946 to
 * 1,424,272 layouts (1.78x) and past its 2 s; with the bound 840,959
 * (1.05x) (`make bench`, docs/model-step.md §8).
 * Layouts the step model rejects (CF_EINVAL) are skipped. The loop only
 * writes to the caller's structs: no allocation.
 *
 * An LLM node count is searched by prune.c when the caller gives it room:
 * the same splits searched by the same rules, in the order of a lower
 * bound of their step times, stopping where the bound passes the fastest
 * found (the same point, most splits never timed); else, and when prune.c
 * gives it back, by the walk in the iterator's order below. */
#include <math.h>
#include <string.h>
#include "plan/plan_int.h"
#include "model/model_int.h"

static const int mb_values[] = {1, 2, 4, 8};
static const int zero_values[] = {0, 1, 3};
#define N_ZERO 3
#define N_RC 3              /* none, selective, full: CF_RECOMPUTE_* 0..2 */

static int better(const cf_step_result *a, const cf_step_result *b)
{
    return a->step_time_s < b->step_time_s;
}

double cf__plan_memory(const cf__search *s, const cf_layout *lay)
{
    if (s->memo_fits && s->model->memory_memo) return s->model->memory_memo(s->w, s->fab, lay, s->memo);
    return s->model->memory_gib(s->w, s->fab, lay);
}

/* Tries one layout; returns 1 if it fits (and keeps it when fastest), 0 if
 * it does not fit, -1 if the model rejects it. */
static int try_layout(cf__search *s, int nodes, const cf_layout *lay, cf__plan_point *best)
{
    cf_step_result r;
    cf__step_aid aid = {s->memo, NAN, 0, NULL, s->memo_fits};
    cf_status st;
    s->considered++;
    if (s->model->memory_gib) {
        aid.memory_gib = cf__plan_memory(s, lay);
        if (!(aid.memory_gib <= s->mem_limit_gib)) return 0;
    }
    s->evaluated++;
    if (s->model->step_aided) st = s->model->step_aided(s->w, s->fab, nodes, lay, &r, NULL, &aid);
    else st = s->model->step(s->w, s->fab, nodes, lay, &r, NULL);
    if (st != CF_OK) return -1;
    if (!(r.memory_per_gpu_gib <= s->mem_limit_gib) || !(r.step_time_s > 0)) return 0;
    if (!best->found || better(&r, &best->res)) {
        best->found = 1;
        best->lay = *lay;
        best->res = r;
    }
    return 1;
}

/* Whether the global batch splits evenly over the data-parallel ranks: the
 * least micro-batch (1) must divide each rank's share, as Megatron-LM
 * requires global batch = dp × micro-batch × micro-batches. */
static int batch_splits(const cf_workload *w, const cf_layout *lay)
{
    return w->global_batch_seqs % lay->dp == 0;
}

/* ZeRO × recompute over micro-batches for one (tp, cp, pp, ep, etp, vp).
 * Returns 1 when no micro-batch of the split fits (or the model refuses
 * it), else 0. */
int cf__plan_search_split(cf__search *s, int nodes, cf_layout *lay, long batch, cf__plan_point *best)
{
    int minrc[N_ZERO] = {0, 0, 0};
    int nz = lay->dp > 1 ? N_ZERO : 1, fitted = 0;
    for (size_t mi = 0; mi < sizeof mb_values / sizeof mb_values[0]; mi++) {
        int mb = mb_values[mi];
        long per = (long)lay->dp * mb;
        int any = 0;
        if (batch % per != 0) continue;
        if (lay->vp > 1 && (batch / per) % lay->pp != 0) continue;
        lay->micro_batch = mb;
        for (int zi = 0; zi < nz; zi++) {
            lay->zero = zero_values[zi];
            for (int rc = minrc[zi]; rc < N_RC; rc++) {
                int fit;
                lay->recompute = (cf_recompute)rc;
                fit = try_layout(s, nodes, lay, best);
                if (fit > 0) { any = 1; break; }
                if (fit < 0) return !fitted;    /* the model does not take this shape */
                minrc[zi] = rc + 1;
            }
        }
        if (!any) break;            /* larger micro-batches need more memory */
        fitted = 1;
    }
    return !fitted;
}

/* Whether s->memo is bound to s->w: once where a search of a node count
 * starts (the workload may change between them: the growing batch). */
static void check_memo(cf__search *s)
{
    s->memo_fits = s->memo && cf__step_memo_fits(s->memo, s->w);
}

void cf__plan_best_at(cf__search *s, int nodes, cf__plan_point *out)
{
    const cf_workload *w = s->w;
    long gpus = (long)nodes * s->fab->gpus_per_node;
    cf__layout_iter it;
    cf_layout lay;
    int bound[2] = {0, 0};      /* nothing fit at etp 1 of this split, by vp */

    memset(out, 0, sizeof *out);
    out->nodes = nodes;
    memset(&lay, 0, sizeof lay);
    check_memo(s);
    if (gpus < 1 || gpus > CF_MAX_DP) return;  /* beyond any layout's dp: none (issue 15) */
    if (w->kind != CF_WL_LLM) {
        /* Data-parallel, stencil and embarrassingly parallel work: one rank
         * per GPU, no model split (the layout the step model defines for
         * them). */
        lay.tp = lay.pp = lay.cp = lay.vp = lay.ep = lay.etp = 1;
        lay.dp = (int)gpus;
        lay.micro_batch = 1;
        lay.recompute = CF_RECOMPUTE_NONE;
        if (w->kind == CF_WL_DATA_PARALLEL && w->dp_global_batch > 0 && gpus > w->dp_global_batch) {
            out->batch_limited = 1;
            return;
        }
        (void)try_layout(s, nodes, &lay, out);
        return;
    }
    if (cf__plan_best_at_pruned(s, nodes, out)) return;
    memset(out, 0, sizeof *out);    /* searched in the iterator's order instead */
    out->nodes = nodes;
    cf__layout_iter_init(&it, w, gpus, cf__layout_domain(s->fab->gpus_per_node, s->fab->intra_link));
    out->batch_limited = 1;
    while (cf__layout_iter_next(&it, &lay)) {
        if (!batch_splits(w, &lay)) continue;
        out->batch_limited = 0;
        lay.sequence_parallel = lay.tp > 1;
        for (int vp = 1; vp <= (lay.pp > 1 ? 2 : 1); vp++) {
            if ((long)lay.pp * vp > w->llm.layers) continue;
            lay.vp = vp;
            /* etp = tp follows etp 1 of the same split (layouts.c): it
             * splits the experts' weights, so it is tried only where
             * nothing fit at etp 1 (see the header). */
            if (lay.etp > 1 && !bound[vp - 1]) continue;
            if (lay.etp == 1) bound[vp - 1] = cf__plan_search_split(s, nodes, &lay, w->global_batch_seqs, out);
            else (void)cf__plan_search_split(s, nodes, &lay, w->global_batch_seqs, out);
        }
    }
}

/* Whether any layout fits at `nodes`: memory never rises with ZeRO,
 * recompute or a smaller micro-batch, and interleaving only adds in-flight
 * activations, so only (mb 1, vp 1, ZeRO-3 when dp > 1, full recompute) is
 * checked for each (tp, cp, pp). */
static int fits_at(cf__search *s, int nodes)
{
    const cf_workload *w = s->w;
    long gpus = (long)nodes * s->fab->gpus_per_node;
    cf__layout_iter it;
    cf__plan_point dummy;
    cf_layout lay;
    memset(&lay, 0, sizeof lay);
    memset(&dummy, 0, sizeof dummy);
    lay.tp = lay.pp = lay.cp = lay.vp = lay.micro_batch = lay.ep = lay.etp = 1;
    check_memo(s);
    if (gpus < 1 || gpus > CF_MAX_DP) return 0;
    if (w->kind != CF_WL_LLM) {
        lay.dp = (int)gpus;
        return try_layout(s, nodes, &lay, &dummy) > 0;
    }
    lay.recompute = CF_RECOMPUTE_FULL;
    cf__layout_iter_init(&it, w, gpus, cf__layout_domain(s->fab->gpus_per_node, s->fab->intra_link));
    while (cf__layout_iter_next(&it, &lay)) {
        if (!batch_splits(w, &lay)) continue;
        lay.zero = lay.dp > 1 ? 3 : 0;
        lay.sequence_parallel = lay.tp > 1;
        if (try_layout(s, nodes, &lay, &dummy) > 0) return 1;
    }
    return 0;
}

int cf__plan_min_nodes(cf__search *s, int max_nodes)
{
    for (int n = 1; n <= max_nodes; n++)
        if (fits_at(s, n)) return n;
    return 0;
}

size_t cf__plan_node_counts(int n0, int gpus_per_node, long max_gpus, int *out, size_t cap)
{
    size_t k = 0;
    if (n0 < 1 || gpus_per_node < 1 || cap == 0) return 0;
    if ((long)n0 * gpus_per_node > max_gpus) return 0;
    out[k++] = n0;
    for (long n = 1; k < cap && n * gpus_per_node <= max_gpus; n *= 2)
        if (n > n0) out[k++] = (int)n;
    return k;
}

double cf__plan_steps(const cf_workload *w)
{
    switch (w->kind) {
    case CF_WL_LLM:
        if (w->global_batch_seqs < 1 || w->llm.seq < 1 || !(w->train_tokens > 0)) return NAN;
        return ceil(w->train_tokens / ((double)w->global_batch_seqs * (double)w->llm.seq));
    case CF_WL_DATA_PARALLEL:
        if (w->dp_global_batch < 1 || !(w->dp_samples > 0)) return NAN;
        return ceil(w->dp_samples / (double)w->dp_global_batch);
    case CF_WL_STENCIL:
        return w->st_iterations > 0 ? w->st_iterations : NAN;
    case CF_WL_EMBARRASSING:
        return 1;   /* the step model's "step" is the whole sweep */
    default:
        return NAN;
    }
}

double cf__plan_units_per_step(const cf_workload *w)
{
    switch (w->kind) {
    case CF_WL_LLM: return (double)w->global_batch_seqs * (double)w->llm.seq;
    case CF_WL_DATA_PARALLEL: return (double)w->dp_global_batch;
    case CF_WL_STENCIL: return 1;
    case CF_WL_EMBARRASSING: return w->ep_tasks;
    default: return NAN;
    }
}

double cf__plan_scaling_eff(int n, double step_s, int n0, double step0_s)
{
    if (n < 1 || n0 < 1 || !(step_s > 0) || !(step0_s > 0)) return NAN;
    return (step0_s * n0) / (step_s * n);
}

double cf__plan_free_step_s(const cf__plan_model *m, const cf_workload *w, const cf_fabric *fab,
                            struct cf__step_memo *memo, cf__split_room *room, int nodes,
                            unsigned long *evaluated)
{
    cf__search s = {m, w, fab, INFINITY, 0, 0, memo, room, 0};
    cf__plan_point pt;
    /* With the batch the search may grow to, in seconds per base batch of
     * work (ladder.c), as every E compares. */
    cf__plan_best_grow(&s, nodes, &pt);
    if (evaluated) *evaluated += s.evaluated;
    return pt.found ? cf__plan_pt_s(&pt) : NAN;
}

double cf__plan_free0_s(const cf__plan_model *m, const cf_workload *w, const cf_fabric *fab,
                        struct cf__step_memo *memo, cf__split_room *room,
                        const cf__plan_point *pts, size_t n, const cf__plan_point *p0,
                        unsigned long *evaluated)
{
    for (size_t i = 0; p0 && i < n; i++)
        if (pts[i].found && cf__plan_scaling_eff(pts[i].nodes, cf__plan_pt_s(&pts[i]), p0->nodes,
                                                 cf__plan_pt_s(p0)) > CF_PLAN_E_NOTE_MIN)
            return cf__plan_free_step_s(m, w, fab, memo, room, p0->nodes, evaluated);
    return NAN;
}
