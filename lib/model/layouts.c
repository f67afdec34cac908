/* layouts.c — parallel layouts as a concept of their own: which
 * TP × CP × PP × DP splits of a cluster an LLM may take, and the words a
 * layout is shown in.
 *
 * The space (DESIGN §4.5) is enumerated here once, for `fit` (the least
 * model parallelism that fits), `plan` and `scale` (the fastest layout that
 * fits), so that a layout one command considers the others consider too:
 *  - tp divides the NVLink domain (the GPUs of a node, or the 72 GPUs of an
 *    NVL72 rack), the attention heads and the GPU count;
 *  - cp ∈ {1, 2, 4, 8}; cp > 1 only from CF_K(CP_MIN_SEQ) tokens, and only when
 *    2·cp divides the sequence: Megatron-LM's load-balanced context parallel
 *    cuts the sequence into 2·cp chunks (each rank takes one from each end
 *    of the causal mask);
 *  - pp from 1 to PP_MAX and at most the layers (uneven stages allowed);
 *  - dp = GPUs / (tp·cp·pp) is at most the global batch (every
 *    data-parallel rank gets a sequence);
 *  - for a Mixture-of-Experts workload, ep is every divisor of the experts
 *    that divides tp·dp·cp (Megatron-Core's etp·ep·edp = tp·dp·cp), and
 *    for each, etp 1 (an expert's matrices whole) and, when tp > 1, etp =
 *    tp (each expert split like the dense layers, Megatron-Core's default
 *    before ETP was its own setting) when tp divides the expert's
 *    ffn_hidden and ep·tp divides tp·dp·cp. Only the two ends of the
 *    divisors of tp: the intermediate ones would multiply the space by
 *    the divisor count of tp (4 at tp 8) for layouts between the two in
 *    memory and in traffic, and `make bench` holds deepseek-v3's plan to
 *    2 s;
 *    a dense workload takes ep 1 only, so its space is unchanged. How the batch is then cut into
 *    micro-batches (the plan's dp·mb dividing it, `fit`'s micro-batch 1) is
 *    the caller's dimension, like ZeRO and recompute.
 * The iterator is a resumable loop over (tp, cp, pp, ep), in increasing
 * order of each, with no allocation; what a caller adds per layout
 * (micro-batch, interleaving, ZeRO, recompute) stays with the caller.
 * The words ("TP4 PP2v2 CP2 DP2 with ZeRO-3 and full recompute") are shared
 * by `plan`'s why line, `scale`'s notes, `fit` and `predict step` so that one
 * layout always reads the same. */
#include <stdio.h>
#include "model/model_int.h"

/* DESIGN §4.5 bounds of the space. */
#define PP_MAX 64           /* pipeline stages */

static const int cp_values[] = {1, 2, 4, 8};
#define N_CP ((int)(sizeof cp_values / sizeof cp_values[0]))

int cf__layout_domain(int gpus_per_node, cf_intra_link link)
{
    return link == CF_INTRA_NVL72 ? (int)CF_K(NVL72_DOMAIN_GPUS) : gpus_per_node;
}

void cf__layout_iter_init(cf__layout_iter *it, const cf_workload *w, long gpus, int domain)
{
    it->gpus = gpus;
    it->domain = w->kind == CF_WL_LLM && gpus > 0 ? domain : 0;   /* 0: no layouts */
    it->heads = w->llm.heads;
    it->seq = w->llm.seq;
    it->batch = w->global_batch_seqs;
    it->pp_max = w->llm.layers < PP_MAX ? w->llm.layers : PP_MAX;
    it->experts = w->kind == CF_WL_LLM ? w->llm.moe.experts : 0;
    it->expert_ffn = w->kind == CF_WL_LLM ? w->llm.moe.ffn_hidden : 0;
    it->etp = 1;
    it->tp = 1;
    it->ci = 0;
    it->pp = 0;
    it->ep = 0;
}

static int tp_ok(const cf__layout_iter *it)
{
    return it->domain % it->tp == 0 && it->gpus % it->tp == 0 && it->heads % it->tp == 0;
}

static int cp_ok(const cf__layout_iter *it, int cp)
{
    if (cp > 1 && (it->seq < (long)CF_K(CP_MIN_SEQ) || it->seq % (2L * cp) != 0)) return 0;
    return it->gpus % ((long)it->tp * cp) == 0;
}

/* dp = GPUs / (tp·cp·pp) when whole and at most the batch, else 0. */
static long dp_of(const cf__layout_iter *it, int cp)
{
    long split = (long)it->tp * cp * it->pp, dp;
    if (it->gpus % split != 0) return 0;
    dp = it->gpus / split;
    return dp <= it->batch ? dp : 0;
}

/* The next expert-parallel degree after `ep` for a split whose tp·dp·cp
 * ranks are `inner`: the least divisor of the experts above ep that
 * divides inner; 0 when none is left. A dense model takes ep 1 only. */
static int next_ep(const cf__layout_iter *it, long inner, int ep)
{
    if (it->experts <= 0) return ep == 0 ? 1 : 0;
    for (long e = ep + 1; e <= it->experts && e <= inner; e++)
        if (it->experts % e == 0 && inner % e == 0) return (int)e;
    return 0;
}

/* Whether etp = tp may follow etp 1 at expert-parallel degree ep of a
 * split whose tp·dp·cp ranks are `inner` (an MoE workload, tp > 1). */
static int etp_tp_ok(const cf__layout_iter *it, long inner, int ep)
{
    return it->experts > 0 && it->tp > 1 && it->expert_ffn % it->tp == 0 &&
           inner % ((long)ep * it->tp) == 0;
}

int cf__layout_iter_next(cf__layout_iter *it, cf_layout *lay)
{
    for (; it->tp <= it->domain; it->tp++, it->ci = 0, it->pp = 0, it->ep = 0, it->etp = 1) {
        if (!tp_ok(it)) continue;
        for (; it->ci < N_CP; it->ci++, it->pp = 0, it->ep = 0, it->etp = 1) {
            int cp = cp_values[it->ci];
            if (!cp_ok(it, cp)) continue;
            if (it->pp == 0) it->pp = 1;
            for (; it->pp <= it->pp_max; it->pp++, it->ep = 0, it->etp = 1) {
                long dp = dp_of(it, cp), inner = (long)it->tp * cp * dp;
                if (dp == 0) continue;
                /* etp 1 at this ep was returned: etp = tp next, if it may */
                if (it->ep > 0 && it->etp == 1 && etp_tp_ok(it, inner, it->ep)) it->etp = it->tp;
                else {
                    it->ep = next_ep(it, inner, it->ep);
                    it->etp = 1;
                }
                if (it->ep == 0) continue;
                lay->tp = it->tp;
                lay->cp = cp;
                lay->pp = (int)it->pp;
                lay->dp = (int)dp;
                lay->ep = it->ep;
                lay->etp = it->etp;
                return 1;
            }
        }
    }
    return 0;
}

void cf_layout_words(char *buf, size_t cap, const cf_layout *l, cf_workload_kind kind)
{
    int llm = kind == CF_WL_LLM;
    size_t n = 0;
    const char *rc;
#define PUT(...) do { if (n < cap) n += (size_t)snprintf(buf + n, cap - n, __VA_ARGS__); } while (0)
    if (cap == 0) return;
    buf[0] = '\0';
    if (kind == CF_WL_STENCIL) { PUT("%d ranks", l->dp); return; }   /* MPI ranks (issue 9) */
    if (!llm) { PUT("DP%d", l->dp); return; }
    if (l->tp > 1) PUT("TP%d ", l->tp);
    if (l->pp > 1) PUT("PP%d%s ", l->pp, l->vp > 1 ? "v2" : "");
    if (l->cp > 1) PUT("CP%d ", l->cp);
    if (l->ep > 1) PUT("EP%d ", l->ep);
    if (l->etp > 1) PUT("ETP%d ", l->etp);
    PUT("DP%d", l->dp);
    rc = l->recompute == CF_RECOMPUTE_FULL ? "full" : l->recompute == CF_RECOMPUTE_SELECTIVE ? "selective" : "no";
    if (l->zero > 0) PUT(" with ZeRO-%d and %s recompute", l->zero, rc);
    else PUT(" with %s recompute", rc);
#undef PUT
}
