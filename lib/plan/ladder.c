/* ladder.c — what `plan` and `scale` search besides the layouts (issue 10):
 * the node counts of plan's ladder, finer than powers of two, and the
 * global batch per node count, which may grow with the cluster up to the
 * workload's batch_max.
 *
 * Node ladder: N0, then every count 2^k and 3·2^(k-1) above it (1, 2, 3, 4,
 * 6, 8, 12, 16, 24, ...) while the GPUs fit the largest cluster: a step of
 * at most 1.5× where powers of two step 2×, for at most twice the counts
 * (and twice the searches). A 384-node plan that meets a deadline which 256
 * nodes miss and 512 nodes meet at a higher cost is now on the list.
 *
 * Growing batch: an LLM workload with batch_max above batch is searched at
 * batch, 2·batch, 4·batch, ... (the last capped at batch_max). The tokens
 * to train on are fixed, so a larger batch means fewer steps; a larger
 * batch is taken only when it shortens the time to train by more than
 * CF_PLAN_BATCH_GROW_MIN_PCT, since the model does not price what it may
 * cost in convergence (the batch_max of a workload is the largest batch its
 * authors trained at: Llama 3 405B ramped 4M -> 16M tokens, arXiv:2407.21783
 * §3.4.1). The doubling stops at the first that does not gain that much
 * (returns diminish: a larger batch only shrinks the pipeline bubble and the
 * per-step costs, or admits more DP ranks); and none is tried where the
 * step's non-compute share (1 - P) is already under that threshold. A point keeps its batch and the
 * ratio base batch / batch (cf__plan_point.batch_scale), so its seconds per
 * base batch of work (cf__plan_pt_s) compare across batches: time to train,
 * E and throughput read that. plan walks its ladder upwards starting each
 * count's doubling from the batch the count below chose (the batch never
 * shrinks as the cluster grows: what a cluster needs to stay busy, a larger
 * one needs too), so a count whose batch is already batch_max is searched
 * once. */
#include <math.h>
#include <string.h>
#include "plan/plan_int.h"

size_t cf__plan_node_ladder(int n0, int gpus_per_node, long max_gpus, int *out, size_t cap)
{
    size_t k = 0;
    if (n0 < 1 || gpus_per_node < 1 || cap == 0) return 0;
    if ((long)n0 * gpus_per_node > max_gpus) return 0;
    out[k++] = n0;
    for (long p = 1; k < cap && p * gpus_per_node <= max_gpus; p *= 2) {
        /* 2^k, then 3·2^(k-1) (1.5 × 2^k) before the next power. */
        long step[2] = {p, p + p / 2};
        for (int i = 0; i < (p > 1 ? 2 : 1) && k < cap; i++)
            if (step[i] > n0 && step[i] * gpus_per_node <= max_gpus) out[k++] = (int)step[i];
    }
    return k;
}

double cf__plan_pt_s(const cf__plan_point *p)
{
    return p->batch_scale > 0 ? p->res.step_time_s * p->batch_scale : p->res.step_time_s;
}

long cf__plan_pt_batch(const cf__plan_point *p, const cf_workload *w)
{
    return p->batch > 0 ? p->batch : w->global_batch_seqs;
}

void cf__plan_best_grow_from(cf__search *s, int nodes, long from, cf__plan_point *out)
{
    const cf_workload *w0 = s->w;
    long b0 = w0->global_batch_seqs, bmax = w0->global_batch_max_seqs, first;
    cf_workload wb;
    cf__plan_point cand;
    if (w0->kind != CF_WL_LLM || b0 < 1 || bmax <= b0) {
        cf__plan_best_at(s, nodes, out);
        return;
    }
    first = from > b0 ? (from < bmax ? from : bmax) : b0;
    wb = *w0;
    s->w = &wb;
    wb.global_batch_seqs = first;
    cf__plan_best_at(s, nodes, out);
    if (out->found && first != b0) {
        out->batch = first;
        out->batch_scale = (double)b0 / (double)first;
    }
    /* A larger batch gains by amortising what is not compute (the bubble,
     * exposed communication) and by admitting layouts with fewer model
     * splits, whose communication is part of that share too: when it is
     * under CF_PLAN_BATCH_GROW_MIN_PCT of the step, no larger batch can
     * gain that much, and none is searched. */
    if (out->found && out->res.ideal_step_time_s > 0 &&
        out->res.step_time_s - out->res.ideal_step_time_s <
            out->res.step_time_s * CF_PLAN_BATCH_GROW_MIN_PCT / 100.0) {
        s->w = w0;
        return;
    }
    for (long b = 2 * first, prev = first; prev < bmax; prev = b, b *= 2) {
        if (b > bmax) b = bmax;
        wb.global_batch_seqs = b;
        cf__plan_best_at(s, nodes, &cand);
        if (!cand.found) continue;
        cand.batch = b;
        cand.batch_scale = (double)b0 / (double)b;
        if (out->found &&
            !(cf__plan_pt_s(&cand) < cf__plan_pt_s(out) * (1.0 - CF_PLAN_BATCH_GROW_MIN_PCT / 100.0)))
            break;
        *out = cand;
    }
    s->w = w0;
}

void cf__plan_best_grow(cf__search *s, int nodes, cf__plan_point *out)
{
    cf__plan_best_grow_from(s, nodes, 0, out);
}
