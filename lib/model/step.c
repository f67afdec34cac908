/* step.c — time of one training step (or iteration, or job) of a workload on
 * a fabric with a parallel layout (DESIGN.md §4.3), and its JSON.
 *
 * LLM: per micro-batch and per layer on one GPU, the GEMMs of the layer at
 * an efficiency that depends on their per-GPU shapes (gemm_eff), the flash
 * attention core, the memory-bound element-wise work, a launch overhead;
 * backward = 2 x forward, recompute adds its forward; the TP collectives of
 * Megatron's layers (exposed), CP ring-attention K/V exchange (overlapped
 * with attention), the slowest pipeline stage (ceil(l/p) layers plus the
 * output layer) times m micro-batches, the 1F1B bubble (p-1)/(v*m), the
 * pipeline point-to-point transfers, the DP gradient reduction (DDP and
 * ZeRO-1/2: once per step, overlapped with the last micro-batch's backward;
 * ZeRO-3/FSDP: gathers and reduce-scatters every micro-batch, overlapped
 * with its forward and backward) and the optimizer step. Overlap is never
 * free: hidden communication slows the compute beside it by
 * CF_K(OVERLAP_SM_STEAL) of its time. Communication times come from the
 * collective model (cf_collective_predict) with the communicator's real
 * shape (ranks per node): ranks are ordered TP (innermost), CP, DP, PP, as
 * Megatron-LM orders them.
 *
 * Other kinds: data-parallel (compute at a batch-dependent efficiency plus
 * the bucketed DDP all_reduce), MPI stencil (memory-bound sweep, halo
 * exchange, a scalar all_reduce), embarrassingly parallel (start-up, waves
 * of tasks, the expected slowest task). Every constant is CF_K(...) from
 * model/constants.def. Allocation-free and I/O-free: `plan` calls it for
 * every layout it considers: a refusal formats its reason only when the
 * caller passed a cf_error. A search hands it its memo
 * (cf__step_predict_aided, model/stepmemo.c): the collective times and the
 * per-layer parts (layer_parts) it has computed before, the same values. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "clusterfit/hardware.h"
#include "clusterfit/limits.h"
#include "model/model_int.h"
#include "model/serve_int.h"

typedef struct ctx {
    const cf_fabric *fab;
    const cf_gpu_spec *gpu;
    int nodes, gpn;
    cf_status st;           /* the first refusal of a collective, CF_OK = none */
    cf_error *err;          /* the caller's, NULL = no reason wanted */
    cf__step_memo *memo;    /* the search's memo bound to fab (model/stepmemo.c): its
                             * collective times; NULL = none */
    cf__step_memo *wmemo;   /* the same memo when it is also bound to the workload's
                             * shape: its per-layer parts, efficiencies, FLOPs; NULL = none */
} ctx;

/* Time in seconds of one collective of nccl-tests size `bytes` on a
 * communicator of `cnodes` nodes with `rpn` ranks on each. */
static double coll(ctx *c, cf_collective op, double bytes, int cnodes, int rpn)
{
    cf_coll_query q;
    cf_coll_result r;
    cf_status st;
    double t;
    if (bytes <= 0 || (long)cnodes * rpn < 2) return 0;
    /* A message of 2^64 bytes or more (a shape of 10^9-wide layers) is past
     * what the collective model takes, and past what converts to uint64_t. */
    if (!(bytes < 18446744073709551616.0)) {
        if (c->st == CF_OK) {
            c->st = CF_EINVAL;
            cf_error_set(c->err, NULL, 0, 0, "a %s of %g bytes is past what the collective model "
                         "takes (2^64 bytes)", cf_collective_name(op), bytes);
        }
        return 0;
    }
    q.collective = op;
    q.bytes = (uint64_t)bytes;
    q.nodes = cnodes;
    q.ranks_per_node = rpn;
    q.algo = CF_ALGO_AUTO;
    if (c->memo && cf__coll_memo_get(c->memo, (int)op, q.bytes, cnodes, rpn, &t)) return t;
    /* Only the first refusal is told (and formatted). */
    st = cf__collective_explain_gpu(c->fab, c->gpu, &q, &r, NULL, c->st == CF_OK ? c->err : NULL);
    if (st != CF_OK) {
        if (c->st == CF_OK) c->st = st;
        return 0;
    }
    t = r.time_us * 1e-6;
    if (c->memo) cf__coll_memo_put(c->memo, (int)op, q.bytes, cnodes, rpn, t);
    return t;
}

/* A group of `size` ranks whose members are `stride` ranks apart, in a job
 * of gpn GPUs per node: how many nodes it spans and ranks it has per node. */
static void group_shape(int gpn, long stride, long size, int *cnodes, int *rpn)
{
    long r;
    if (stride >= gpn) r = 1;
    else {
        r = gpn / stride;
        if (r > size) r = size;
        if (r < 1) r = 1;
    }
    *rpn = (int)r;
    *cnodes = (int)((size + r - 1) / r);
}

/* A communicator as the step asks the collective model about it: nodes
 * and ranks per node; cnodes 0 = the part asks no collective. */
typedef struct comm_shape {
    int cnodes, rpn;
} comm_shape;

/* A group of n consecutive ranks (the TP group, the expert-tensor-parallel
 * group); none when n <= 1. */
static comm_shape consecutive_shape(const ctx *c, int n)
{
    comm_shape g = {0, 0};
    if (n > 1) group_shape(c->gpn, 1, n, &g.cnodes, &g.rpn);
    return g;
}

/* The TP group: tp consecutive ranks. */
static comm_shape tp_shape(const ctx *c, const cf_layout *lay)
{
    return consecutive_shape(c, lay->tp);
}

/* One ring-attention send/recv of the CP group (ranks tp apart): between
 * two nodes when the group spans several, else two ranks of one node. */
static comm_shape cp_shape(const ctx *c, const cf_layout *lay)
{
    comm_shape g = {0, 0};
    int cn, rpn;
    if (lay->cp <= 1) return g;
    group_shape(c->gpn, lay->tp, lay->cp, &cn, &rpn);
    g.cnodes = cn > 1 ? 2 : 1;
    g.rpn = cn > 1 ? c->gpn : 2;
    return g;
}

/* One pipeline send/recv between stages tp*cp*dp ranks apart. */
static comm_shape pp_shape(const ctx *c, const cf_layout *lay)
{
    comm_shape g = {0, 0};
    long stride = (long)lay->tp * lay->cp * lay->dp;
    if (lay->pp <= 1) return g;
    g.cnodes = stride >= c->gpn ? 2 : 1;
    g.rpn = stride >= c->gpn ? c->gpn : 2;
    return g;
}

/* The DP x CP group of the gradients (ranks tp apart). */
static comm_shape dp_shape(const ctx *c, const cf_layout *lay)
{
    comm_shape g = {0, 0};
    long dpg = (long)lay->dp * lay->cp;
    if (dpg > 1) group_shape(c->gpn, lay->tp, dpg, &g.cnodes, &g.rpn);
    return g;
}

/* The expert-parallel group of an MoE layer: ep ranks etp apart
 * (Megatron-Core orders the expert ranks ETP innermost, then EP, then
 * expert-DP, within the tp*dp*cp ranks of a pipeline stage). */
static comm_shape ep_shape(const ctx *c, const cf_layout *lay)
{
    comm_shape g = {0, 0};
    int ep = lay->ep > 0 ? lay->ep : 1, etp = lay->etp > 0 ? lay->etp : 1;
    if (ep > 1) group_shape(c->gpn, etp, ep, &g.cnodes, &g.rpn);
    return g;
}

/* The expert-tensor-parallel group: etp consecutive ranks. */
static comm_shape etp_shape(const ctx *c, const cf_layout *lay)
{
    return consecutive_shape(c, lay->etp);
}

/* The expert-data-parallel group of the expert gradients: tp*dp*cp /
 * (ep*etp) ranks, ep*etp apart. */
static comm_shape edp_shape(const ctx *c, const cf_layout *lay)
{
    comm_shape g = {0, 0};
    long eps = (long)(lay->ep > 0 ? lay->ep : 1) * (lay->etp > 0 ? lay->etp : 1);
    long edp = (long)lay->tp * lay->dp * lay->cp / eps;
    if (edp > 1) group_shape(c->gpn, eps, edp, &g.cnodes, &g.rpn);
    return g;
}

/* Whether a collective the step asks spans more than one scale-out domain
 * (a network between nodes): the communicators of tp_shape ... dp_shape for
 * an LLM, the job's nodes for the data-parallel all_reduce (when there are
 * gradients) and the stencil's, none for an embarrassingly parallel job. */
static int crosses_nodes(const ctx *c, const cf_workload *w, const cf_layout *lay)
{
    comm_shape g[7];
    switch (w->kind) {
    case CF_WL_LLM:
        g[0] = tp_shape(c, lay);
        g[1] = cp_shape(c, lay);
        g[2] = pp_shape(c, lay);
        g[3] = dp_shape(c, lay);
        g[4] = ep_shape(c, lay);
        g[5] = etp_shape(c, lay);
        g[6] = cf__llm_is_moe(&w->llm) ? edp_shape(c, lay) : g[3];
        for (size_t i = 0; i < sizeof g / sizeof g[0]; i++)
            if (g[i].cnodes > 1 && cf__scaleout_domains(c->fab, g[i].cnodes) > 1) return 1;
        return 0;
    case CF_WL_DATA_PARALLEL:
        if (!(w->dp_params * cf__grad_bytes(w) > 0)) return 0;
        return cf__scaleout_domains(c->fab, c->nodes) > 1;
    case CF_WL_STENCIL: return cf__scaleout_domains(c->fab, c->nodes) > 1;
    default: return 0;
    }
}

/* Overlap of `comm` seconds with `window` seconds of compute: what stays
 * exposed plus the SMs the hidden part takes from the compute. */
static double overlap(double comm, double window)
{
    double hidden = fmin(comm, window);
    return (comm - hidden) + CF_K(OVERLAP_SM_STEAL) * hidden;
}

/* GEMM efficiency for per-GPU shape M x K x N (docs/model-step.md): the
 * additive roofline of math at CF_K(GEMM_EFF_MAX) and of operand traffic
 * (1/M + 1/N + 1/K bytes per FLOP in 2-byte values, x CF_K(GEMM_TILE_K)). */
static double gemm_eff(double m, double k, double n, double peak_over_hbm)
{
    double inv = 1.0 / CF_K(GEMM_EFF_MAX) +
                 CF_K(GEMM_TILE_K) * peak_over_hbm * (1.0 / m + 1.0 / n + 1.0 / k);
    return 1.0 / inv;
}

static double gemm_time(double m, double k, double n, double peak, double poh)
{
    return 2.0 * m * k * n / (peak * gemm_eff(m, k, n, poh));
}

static double peak_flops(const cf_gpu_spec *g, cf_precision p)
{
    /* The one rule of the precision a GPU computes in (cf_gpu_precision):
     * FP8 without FP8 cores in BF16, without BF16 in FP16 (V100, T4). */
    cf_precision q = cf_gpu_precision(g, p);
    double v = q == CF_PREC_FP8 ? g->fp8_tflops : q == CF_PREC_FP16 ? g->fp16_tflops : g->bf16_tflops;
    return v * 1e12;
}

/* The HBM bandwidth memory-bound work reaches, bytes/s: the vendor's GB/s
 * at CF_K(HBM_EFF). */
static double hbm_rate(const cf_gpu_spec *g)
{
    return g->hbm_GBps * 1e9 * CF_K(HBM_EFF);
}

static void finish(cf_step_result *out, double step, double work_units, double flops,
                   long gpus, double peak)
{
    out->step_time_s = step;
    out->tokens_per_s = work_units / step;
    out->tokens_per_s_per_gpu = out->tokens_per_s / (double)gpus;
    if (isnan(flops)) {
        out->tflops_per_gpu = NAN;
        out->mfu = NAN;
    } else {
        out->tflops_per_gpu = flops / step / (double)gpus / 1e12;
        out->mfu = out->tflops_per_gpu * 1e12 / peak;
    }
}

/* ---------------------------------------------------------------- LLM --- */

/* What every part of an LLM step reads: the layout's degrees as doubles,
 * the model's shape, the per-GPU tokens of one micro-batch and the GPU's
 * rates. */
typedef struct llm_dims {
    double t, p, v, cp;         /* tp, pp, vp (>= 1), cp */
    double b, h, f, seq, kvd;   /* micro-batch, hidden, ffn_hidden, seq, K/V width */
    double qd;                  /* query width: heads x head_dim */
    double M;                   /* tokens per GPU per micro-batch */
    double peak, peak_attn;     /* dense FLOP/s: the GEMMs', the attention core's */
    double hbm, poh;            /* effective HBM B/s; peak over the vendor's HBM B/s */
    int sp, swiglu;             /* sequence parallel under TP; a 3-matrix FFN */
    long m;                     /* micro-batches per step */
    double layers_stage;        /* layers of the largest pipeline stage */
    double act_bytes, grad_bytes;   /* per activation value, per gradient */
    double peak_raw;            /* the GPU's dense peak (MFU's denominator), FLOP/s */
    double rc_frac;             /* share of the layers full recompute repeats (0..1) */
} llm_dims;

/* cf__compute_eff for the layout's ZeRO stage, kept in the memo. */
static double compute_eff(const ctx *c, const cf_workload *w, const cf_layout *lay)
{
    double e;
    if (c->wmemo && !isnan(c->wmemo->eff[lay->zero])) return c->wmemo->eff[lay->zero];
    e = cf__compute_eff(c->gpu, w->framework, lay->zero);
    if (c->wmemo) c->wmemo->eff[lay->zero] = e;
    return e;
}

static void llm_dims_init(llm_dims *d, const ctx *c, const cf_workload *w, const cf_layout *lay)
{
    const cf_llm_shape *s = &w->llm;
    const cf_gpu_spec *g = c->gpu;
    d->t = lay->tp;
    d->p = lay->pp;
    d->v = lay->vp > 0 ? lay->vp : 1;
    d->cp = lay->cp;
    d->b = lay->micro_batch;
    d->h = (double)s->hidden;
    d->f = (double)s->ffn_hidden;
    d->seq = (double)s->seq;
    d->kvd = cf__llm_kv_dim(s);
    d->qd = cf__llm_q_dim(s);
    d->M = d->b * d->seq / d->cp;
    d->peak = peak_flops(g, w->precision);
    d->peak_attn = peak_flops(g, w->precision == CF_PREC_FP8 ? CF_PREC_BF16 : w->precision);
    d->hbm = hbm_rate(g);
    d->poh = d->peak / (g->hbm_GBps * 1e9);
    d->sp = lay->sequence_parallel && lay->tp > 1;
    d->swiglu = cf__ffn_mats(s->family) == 3;
    d->m = cf__micro_batches(w, lay);
    d->layers_stage = ceil((double)s->layers / d->p);
    d->act_bytes = CF_K(BYTES_WEIGHT);
    d->grad_bytes = cf__grad_bytes(w);
    d->rc_frac = cf__recompute_frac(w, lay);
    /* The framework class and GPU generation (model/efficiency.c) scale the
     * GEMM and attention rate, not the peak MFU is counted against, nor the
     * roofline's traffic term (poh). Dense LLMs only: the MoE step's own
     * constants (MOE_*, docs/model-step.md §8) were fitted on the MoE rows
     * with no such factor, so it already holds their framework's efficiency
     * (Megatron-Core grouped GEMMs, whose rate differs from dense GEMMs'). */
    d->peak_raw = d->peak;
    if (!cf__llm_is_moe(s)) {
        double eff = compute_eff(c, w, lay);
        d->peak *= eff;
        d->peak_attn *= eff;
    }
}

/* Compute of one layer for one micro-batch on one GPU. */
typedef struct layer_times {
    double gemm, attn;          /* forward GEMMs; forward attention core */
    double fwd, bwd;            /* forward; backward with its recompute */
} layer_times;

/* Forward GEMMs of the attention projections of one layer on one GPU
 * (Megatron's column/row-parallel split: QKV splits its output, o-proj its
 * input). Latent attention (MLA): the down projections are whole on every
 * TP rank, the up projections and o-proj split (Megatron-Core MLA). */
static double attn_gemm_time(const llm_dims *d, const cf_llm_shape *s)
{
    double M = d->M, h = d->h, t = d->t, peak = d->peak, poh = d->poh;
    if (cf__llm_is_mla(s)) {
        double nh = (double)s->heads, hd = cf__llm_head_dim(s), rope = (double)s->mla.rope_head_dim;
        double ql = (double)s->mla.q_lora_rank, kvl = (double)s->mla.kv_lora_rank;
        double q = ql > 0 ? gemm_time(M, h, ql, peak, poh) +
                            gemm_time(M, ql, nh * (hd + rope) / t, peak, poh)
                          : gemm_time(M, h, nh * (hd + rope) / t, peak, poh);
        return q + gemm_time(M, h, kvl + rope, peak, poh) +
               gemm_time(M, kvl, nh * 2.0 * hd / t, peak, poh) + gemm_time(M, nh * hd / t, h, peak, poh);
    }
    return gemm_time(M, h, (d->qd + 2.0 * d->kvd) / t, peak, poh) + gemm_time(M, d->qd / t, h, peak, poh);
}

/* The FFN of an MoE layer on one GPU, forward (docs/model-step.md): the
 * router on this rank's M/t tokens; the shared experts split by TP like a
 * dense FFN; the routed experts: R = (M/t) x top_k x load x etp token
 * copies over the ep-local experts E/ep, each a GEMM of R/(E/ep) rows and
 * ffn_hidden/etp columns, and no faster than the host launches their
 * kernels: E/ep x CF_K(MOE_EXPERT_LAUNCH_S) (the grouped expert GEMM is
 * one GEMM per local expert, issued after the dropless dispatcher's
 * host synchronization, so the CPU cannot run ahead of it; Megatron-Core
 * MoE README, "CPU overhead bottleneck"). *elem = its memory-bound bytes
 * / HBM rate. */
static double moe_ffn_time(const llm_dims *d, const cf_llm_shape *s, const cf_layout *lay,
                           double *elem)
{
    double M = d->M, h = d->h, t = d->t, peak = d->peak, poh = d->poh;
    double fe = (double)s->moe.ffn_hidden, sh = (double)s->moe.shared_experts;
    double ep = lay->ep > 0 ? lay->ep : 1, etp = lay->etp > 0 ? lay->etp : 1;
    double local = (double)s->moe.experts / ep, mt = M / t;
    double R = mt * (double)s->moe.top_k * cf__moe_load_factor(s) * etp, rows = R / local;
    double up = d->swiglu ? 2.0 : 1.0, tm = 0, routed;
    double fb = d->swiglu ? CF_K(ELEM_BYTES_PER_F_SWIGLU) : CF_K(ELEM_BYTES_PER_F_GELU);
    tm += gemm_time(mt, h, (double)s->moe.experts, peak, poh);
    if (sh > 0)
        tm += gemm_time(M, h, up * sh * fe / t, peak, poh) + gemm_time(M, sh * fe / t, h, peak, poh);
    routed = local * (gemm_time(rows, h, up * fe / etp, peak, poh) + gemm_time(rows, fe / etp, h, peak, poh));
    tm += fmax(routed, local * CF_K(MOE_EXPERT_LAUNCH_S));
    *elem = 2.0 * (fb * (M * sh * fe / t + R * fe / etp) + CF_K(MOE_PERMUTE_VALUES_PER_COPY) * R * h) / d->hbm;
    return tm;
}

static void layer_compute(const llm_dims *d, const cf_workload *w, const cf_layout *lay, int moe,
                          layer_times *lt)
{
    double M = d->M, h = d->h, f = d->f, t = d->t, b = d->b, seq = d->seq, cp = d->cp;
    double peak = d->peak, poh = d->poh, hbm = d->hbm;
    const cf_llm_shape *s = &w->llm;
    int sp = d->sp, swiglu = d->swiglu;
    double gemm, attn, elem, fwd, bwd, fb = swiglu ? CF_K(ELEM_BYTES_PER_F_SWIGLU) : CF_K(ELEM_BYTES_PER_F_GELU);
    /* GEMMs of one layer, forward, per GPU (Megatron's column/row-parallel
     * split: QKV and fc1 split their output, o-proj and fc2 their input). */
    gemm = attn_gemm_time(d, s);
    attn = 2.0 * b * (seq / cp) * seq * (double)s->heads * (cf__llm_qk_head_dim(s) + cf__llm_head_dim(s)) /
           t / (d->peak_attn * CF_K(ATTN_EFF));
    elem = M * 2.0 * CF_K(ELEM_BYTES_PER_H) * h / (sp ? t : 1.0) / hbm;
    if (moe) {
        double moe_elem;
        gemm += moe_ffn_time(d, s, lay, &moe_elem);
        elem += moe_elem;
    } else {
        gemm += gemm_time(M, h, (swiglu ? 2.0 : 1.0) * f / t, peak, poh) + gemm_time(M, f / t, h, peak, poh);
        elem += M * 2.0 * fb * f / t / hbm;
    }
    fwd = gemm + attn + elem + CF_K(LAYER_OVERHEAD_S) + (moe ? CF_K(MOE_LAYER_OVERHEAD_S) : 0.0);
    bwd = 2.0 * fwd;
    if (lay->recompute == CF_RECOMPUTE_FULL) bwd += d->rc_frac * fwd;
    else if (lay->recompute == CF_RECOMPUTE_SELECTIVE) bwd += attn;
    lt->gemm = gemm;
    lt->attn = attn;
    lt->fwd = fwd;
    lt->bwd = bwd;
}

/* TP communication of one layer for one micro-batch (forward, backward and
 * recompute): messages of 2*b*s*h bytes (per CP rank: s/cp tokens); 0
 * without TP. `gemm` is the layer's forward GEMM time it may overlap. */
static double tp_comm_layer(ctx *c, const llm_dims *d, const cf_layout *lay, double gemm)
{
    double S, tp_layer;
    comm_shape g = tp_shape(c, lay);
    if (!g.cnodes) return 0;
    S = d->act_bytes * d->M * d->h;
    if (d->sp) {
        double ag = coll(c, CF_COLL_ALL_GATHER, S, g.cnodes, g.rpn);
        double rs = coll(c, CF_COLL_REDUCE_SCATTER, S, g.cnodes, g.rpn);
        /* 2 AG + 2 RS forward, 2 + 2 backward, 2 AG re-gathers in
         * backward; full recompute repeats the forward's 2 + 2. */
        tp_layer = 4.0 * (ag + rs) + 2.0 * ag;
        if (lay->recompute == CF_RECOMPUTE_FULL) tp_layer += d->rc_frac * 2.0 * (ag + rs);
    } else {
        double ar = coll(c, CF_COLL_ALL_REDUCE, S, g.cnodes, g.rpn);
        tp_layer = (4.0 + 2.0 * d->rc_frac) * ar;
    }
    if (lay->tp_comm_overlap) tp_layer = overlap(tp_layer, gemm * 3.0);
    return tp_layer;
}

/* CP communication of one layer for one micro-batch: ring attention passes
 * K and V chunks around the CP group, cp-1 steps forward; backward passes
 * K, V and their gradients (2x); overlapped with the attention core
 * (`attn`, forward). 0 without CP. */
static double cp_comm_layer(ctx *c, const llm_dims *d, const cf_layout *lay, double attn)
{
    double chunk, steps, sr;
    comm_shape g = cp_shape(c, lay);
    if (!g.cnodes) return 0;
    chunk = 2.0 * d->act_bytes * d->M * d->kvd / d->t;
    steps = 3.0 * (d->cp - 1.0);
    sr = coll(c, CF_COLL_SENDRECV, chunk, g.cnodes, g.rpn);
    return overlap(steps * sr, 3.0 * attn);
}

/* One dispatch (or combine) of `bytes` per GPU over the EP group `g`, as
 * the hierarchical dispatchers the published MoE recipes use do it
 * (DeepEP / HybridEP behind Megatron-Core's flex dispatcher; DeepSeek-V3
 * report §3.2.2): a token crosses the fabric once per remote scale-out
 * domain holding one of its top_k experts, and NVLink forwards it to the
 * experts there. With D domains and balanced routing a token reaches
 * D(1 - (1 - 1/D)^k) domains in expectation, so the fabric carries that
 * over k of the per-expert volume; the NVLink part is the whole volume
 * among the domain's ranks. The slower of the two sets the time (they
 * pipeline). One domain: a plain all-to-all. */
static double ep_a2a(ctx *c, const cf_llm_shape *s, double bytes, comm_shape g)
{
    int dom = g.cnodes > 1 ? cf__scaleout_domains(c->fab, g.cnodes) : 1;
    double k = (double)s->moe.top_k, D = dom, f, inter, intra;
    if (dom <= 1) return coll(c, CF_COLL_ALLTOALL, bytes, g.cnodes, g.rpn);
    f = D * (1.0 - pow(1.0 - 1.0 / D, k)) / k;
    if (f > 1.0) f = 1.0;
    inter = coll(c, CF_COLL_ALLTOALL, bytes * f, g.cnodes, g.rpn);
    intra = coll(c, CF_COLL_ALLTOALL, bytes, 1, g.rpn);
    return fmax(inter, intra);
}

/* Expert-parallel communication of one MoE layer for one micro-batch:
 * the dispatch and the combine all-to-all of the rank's M/t tokens x top_k
 * copies of h values (dispatch in fp8 when the workload trains in fp8),
 * forward; backward sends the gradients of both (bf16); full recompute
 * repeats the forward. With etp > 1 the etp ranks also all-gather the
 * dispatched tokens and reduce-scatter the expert outputs. The most loaded
 * rank sets the time (x the load factor). A fraction CF_K(MOE_A2A_HIDDEN)
 * runs behind the compute of another micro-batch (`window`, the layer's
 * forward and backward); the rest is exposed. 0 without EP and ETP. */
static double ep_comm_layer(ctx *c, const llm_dims *d, const cf_workload *w, const cf_layout *lay,
                            double window)
{
    const cf_llm_shape *s = &w->llm;
    comm_shape g = ep_shape(c, lay), ge = etp_shape(c, lay);
    double mt = d->M / d->t, load = cf__moe_load_factor(s), total = 0, hid;
    double disp_b = w->precision == CF_PREC_FP8 ? CF_K(BYTES_FP8_DISPATCH) : d->act_bytes;
    double fwd_n = lay->recompute == CF_RECOMPUTE_FULL ? 2.0 : 1.0;
    if (g.cnodes) {
        double disp = ep_a2a(c, s, cf__moe_a2a_bytes(s, mt, disp_b), g);
        double comb = ep_a2a(c, s, cf__moe_a2a_bytes(s, mt, d->act_bytes), g);
        total += load * (fwd_n * (disp + comb) + 2.0 * comb);
    }
    if (ge.cnodes) {
        double bytes = cf__moe_a2a_bytes(s, mt, d->act_bytes) * load * (double)lay->etp;
        double ag = coll(c, CF_COLL_ALL_GATHER, bytes, ge.cnodes, ge.rpn);
        double rs = coll(c, CF_COLL_REDUCE_SCATTER, bytes, ge.cnodes, ge.rpn);
        total += (fwd_n + 1.0) * (ag + rs);
    }
    hid = CF_K(MOE_A2A_HIDDEN) * total;
    return (total - hid) + overlap(hid, window);
}

/* Output layer (on the last stage), one micro-batch, forward and backward:
 * the logits GEMM and cross-entropy. */
static double logits_time(const llm_dims *d, const cf_llm_shape *s)
{
    return 3.0 * gemm_time(d->M, d->h, (double)s->vocab / d->t, d->peak, d->poh) +
           d->M * (double)s->vocab / d->t * CF_K(XENT_BYTES_PER_V) / d->hbm;
}

/* PP point-to-point of a step: 2*b*s*h bytes per micro-batch per boundary
 * per direction, split over the TP ranks (Megatron's scatter-gather), x v
 * when interleaved; interleaved schedules overlap them with the pipeline's
 * compute `pipe`. 0 without PP. */
static double pp_comm(ctx *c, const llm_dims *d, const cf_layout *lay, double pipe)
{
    double S, sr, total;
    comm_shape g = pp_shape(c, lay);
    if (!g.cnodes) return 0;
    S = d->act_bytes * d->M * d->h / d->t;
    sr = coll(c, CF_COLL_SENDRECV, S, g.cnodes, g.rpn);
    total = 2.0 * d->v * ((double)d->m + d->p - 1.0) * sr;
    return d->v > 1 ? overlap(total, pipe) : total;
}

/* DP: the exposed time of the gradients of the largest stage over the DP x
 * CP ranks (an MoE model's expert gradients over the expert-data-parallel
 * ranks), behind the stage's forward and backward of one micro-batch
 * (`stage_fwd`, `stage_bwd`); *opt = the optimizer step of its (ZeRO-
 * sharded) parameters. */
static double dp_comm(ctx *c, const llm_dims *d, const cf_workload *w, const cf_layout *lay,
                      double stage_fwd, double stage_bwd, double *opt)
{
    const cf_llm_shape *s = &w->llm;
    const cf__mem_shape *ms = c->wmemo ? &c->wmemo->ms : NULL;
    cf__shape_params sp;
    double t = d->t, act_bytes = d->act_bytes, grad_bytes = d->grad_bytes;
    double n1, m1;
    double layer_p, emb_p = (double)s->vocab * d->h / t;
    double emb_n = lay->pp > 1 ? 1.0 : 2.0;
    double eps = (double)(lay->ep > 0 ? lay->ep : 1) * (double)(lay->etp > 0 ? lay->etp : 1);
    long dpg = (long)lay->dp * lay->cp;
    double edp = (double)lay->tp * (double)dpg / eps;
    double dense_p, expert_p, nd, nm, dp_exposed = 0;
    int last = lay->pp <= 1;
    comm_shape g = dp_shape(c, lay), ge = edp_shape(c, lay);
    int cn = g.cnodes, rpn = g.rpn;
    if (ms) sp = ms->sp;
    else cf__shape_params_of(s, &sp);
    layer_p = sp.layer / t;
    cf__stage_mix_ms(ms, s, lay->pp, last, &n1, &m1);
    cf__stage_params_mix(s, &sp, lay, 1, last, n1, m1, &dense_p, &expert_p);
    if (lay->pp > 1) {
        double dl, el;
        cf__stage_mix_ms(ms, s, lay->pp, 1, &n1, &m1);
        cf__stage_params_mix(s, &sp, lay, 0, 1, n1, m1, &dl, &el);
        if (dl + el > dense_p + expert_p) {
            dense_p = dl;
            expert_p = el;
            last = 1;
        }
    }
    cf__stage_mix_ms(ms, s, lay->pp, last, &nd, &nm);
    if (dpg > 1 && lay->zero >= 3) {
        /* ZeRO-3/FSDP per micro-batch: all_gather of each layer's
         * weights forward and again backward, reduce_scatter of its
         * gradients; hidden behind that micro-batch's compute. */
        double mdp = cf__llm_is_moe(s) ? sp.moe_dense / t : 0;
        double mep = cf__llm_is_moe(s) ? sp.moe_expert / eps : 0;
        double ag = nd * coll(c, CF_COLL_ALL_GATHER, layer_p * act_bytes, cn, rpn) +
                    emb_n * coll(c, CF_COLL_ALL_GATHER, emb_p * act_bytes, cn, rpn);
        double rs = nd * coll(c, CF_COLL_REDUCE_SCATTER, layer_p * grad_bytes, cn, rpn) +
                    emb_n * coll(c, CF_COLL_REDUCE_SCATTER, emb_p * grad_bytes, cn, rpn);
        if (nm > 0) {
            ag += nm * (coll(c, CF_COLL_ALL_GATHER, mdp * act_bytes, cn, rpn) +
                        coll(c, CF_COLL_ALL_GATHER, mep * act_bytes, ge.cnodes, ge.rpn));
            rs += nm * (coll(c, CF_COLL_REDUCE_SCATTER, mdp * grad_bytes, cn, rpn) +
                        coll(c, CF_COLL_REDUCE_SCATTER, mep * grad_bytes, ge.cnodes, ge.rpn));
        }
        dp_exposed = (double)d->m * (overlap(ag, stage_fwd) + overlap(ag + rs, stage_bwd));
    } else if (dpg > 1 || edp > 1) {
        /* DDP, ZeRO-1/2: reduce (and gather) once per step, behind the
         * last micro-batch's backward. */
        double ar = (dpg > 1 ? coll(c, CF_COLL_ALL_REDUCE, dense_p * grad_bytes, cn, rpn) : 0) +
                    coll(c, CF_COLL_ALL_REDUCE, expert_p * grad_bytes, ge.cnodes, ge.rpn);
        dp_exposed = overlap(ar, stage_bwd);
    }
    if (lay->zero >= 1) *opt = (dense_p / (double)dpg + expert_p / (edp >= 1 ? edp : 1)) *
                               CF_K(ADAM_BYTES_PER_PARAM) / d->hbm;
    else *opt = (dense_p + expert_p) * CF_K(ADAM_BYTES_PER_PARAM) / d->hbm;
    return dp_exposed;
}

/* One pipeline stage's forward and backward of one micro-batch: its
 * dense-FFN and MoE layers with their TP, CP and EP communication. */
typedef struct stage_time {
    double fwd, bwd;
    double nd, nm;          /* its dense-FFN and MoE layers */
} stage_time;

static void stage_sum(const cf__mem_shape *ms, const cf_llm_shape *s, int pp, int last,
                      const layer_times *ld, const layer_times *lm, double comm_d, double comm_m,
                      stage_time *st)
{
    cf__stage_mix_ms(ms, s, pp, last, &st->nd, &st->nm);
    st->fwd = st->nd * (ld->fwd + comm_d / 3.0) + st->nm * (lm->fwd + comm_m / 3.0);
    st->bwd = st->nd * (ld->bwd + 2.0 * comm_d / 3.0) + st->nm * (lm->bwd + 2.0 * comm_m / 3.0);
}

/* The memo's key of a layout's per-layer parts: every value of the layout
 * and of its dimensions that layer_parts reads besides the workload shape
 * and the fabric (model/stepmemo.c). */
static void layer_key(const llm_dims *d, const cf_layout *lay, cf__layer_key *k)
{
    memset(k, 0, sizeof *k);
    k->tp = lay->tp;
    k->cp = lay->cp;
    k->micro_batch = lay->micro_batch;
    k->ep = lay->ep;
    k->etp = lay->etp;
    k->recompute = (int)lay->recompute;
    k->sp = d->sp;
    k->tp_overlap = lay->tp_comm_overlap;
    k->rc_frac = d->rc_frac;
    k->peak = d->peak;
    k->peak_attn = d->peak_attn;
}

/* The per-layer part of a step: a dense-FFN and an MoE layer's compute and
 * TP, CP and EP communication, the output layer (from the memo when it
 * holds them; kept there when every collective answered). */
static void layer_parts(ctx *c, const llm_dims *d, const cf_workload *w, const cf_layout *lay,
                        cf__layer_parts *p)
{
    layer_times lt, lm;
    cf__layer_key k;
    int moe = cf__llm_is_moe(&w->llm);
    if (c->wmemo) {
        layer_key(d, lay, &k);
        if (cf__layer_memo_get(c->wmemo, &k, p)) return;
    }
    layer_compute(d, w, lay, 0, &lt);
    lm = lt;
    if (moe) layer_compute(d, w, lay, 1, &lm);
    p->tp_d = tp_comm_layer(c, d, lay, lt.gemm);
    p->tp_m = moe ? tp_comm_layer(c, d, lay, lm.gemm) : 0;
    p->cp = cp_comm_layer(c, d, lay, lt.attn);
    p->ep = moe ? ep_comm_layer(c, d, w, lay, lm.fwd + lm.bwd) : 0;
    p->logits = logits_time(d, &w->llm);
    p->d_gemm = lt.gemm;
    p->d_attn = lt.attn;
    p->d_fwd = lt.fwd;
    p->d_bwd = lt.bwd;
    p->m_gemm = lm.gemm;
    p->m_attn = lm.attn;
    p->m_fwd = lm.fwd;
    p->m_bwd = lm.bwd;
    if (c->wmemo && c->st == CF_OK) cf__layer_memo_put(c->wmemo, &k, p);
}

/* The shape's FLOPs (kept in the memo). */
static void llm_flops(const ctx *c, const cf_workload *w, cf__llm_flops *fl)
{
    if (c->wmemo && c->wmemo->flops_ok) {
        *fl = c->wmemo->flops;
        return;
    }
    cf__llm_flops_compute(&w->llm, fl);
    if (c->wmemo) {
        c->wmemo->flops = *fl;
        c->wmemo->flops_ok = 1;
    }
}

/* The pipeline part of a step: the slowest stage's forward and backward of
 * one micro-batch with its TP, CP and EP communication (and the output
 * layer), its m micro-batches and the bubble. */
typedef struct llm_pipe {
    cf__layer_parts lp;     /* the per-layer part */
    stage_time sf;          /* the slowest stage */
    double stage_fwd, stage_bwd;    /* its forward and backward of one micro-batch */
    double pipe, bubble;    /* m micro-batches of it; the 1F1B bubble */
} llm_pipe;

/* The 1F1B bubble of `pipe` (interleaved over d->v chunks). */
static double bubble_of(const llm_dims *d, const cf_layout *lay, double pipe)
{
    return lay->pp > 1 ? pipe * (d->p - 1.0) / (d->v * (double)d->m) : 0.0;
}

static void pipeline(ctx *c, const llm_dims *d, const cf_workload *w, const cf_layout *lay, llm_pipe *pl)
{
    layer_times lt, lm;
    stage_time sl;
    const cf__layer_parts *lp = &pl->lp;
    const cf__mem_shape *ms = c->wmemo ? &c->wmemo->ms : NULL;
    double heads = 1.0 + (cf__llm_is_moe(&w->llm) ? (double)w->llm.mtp_layers : 0.0);
    double comm_d, comm_m;
    layer_parts(c, d, w, lay, &pl->lp);
    lt.gemm = lp->d_gemm; lt.attn = lp->d_attn; lt.fwd = lp->d_fwd; lt.bwd = lp->d_bwd;
    lm.gemm = lp->m_gemm; lm.attn = lp->m_attn; lm.fwd = lp->m_fwd; lm.bwd = lp->m_bwd;
    comm_d = lp->tp_d + lp->cp;
    comm_m = lp->tp_m + lp->cp + lp->ep;
    stage_sum(ms, &w->llm, lay->pp, 0, &lt, &lm, comm_d, comm_m, &pl->sf);
    stage_sum(ms, &w->llm, lay->pp, 1, &lt, &lm, comm_d, comm_m, &sl);
    if (sl.fwd + sl.bwd > pl->sf.fwd + pl->sf.bwd) pl->sf = sl;
    pl->stage_fwd = pl->sf.fwd + heads * lp->logits / 3.0;
    pl->stage_bwd = pl->sf.bwd + heads * 2.0 * lp->logits / 3.0;
    pl->pipe = (double)d->m * (pl->stage_fwd + pl->stage_bwd);
    pl->bubble = bubble_of(d, lay, pl->pipe);
}

/* One step: the pipeline part, and the PP and DP communication left
 * exposed. The collectives are asked in the order TP, CP, EP, PP, DP: the
 * first refusal is the one reported. */
static cf_status llm_step(ctx *c, const cf_workload *w, const cf_layout *lay, cf_step_result *out)
{
    llm_dims d;
    llm_pipe pl;
    double pp, dp_exposed, opt;
    cf__llm_flops fl;

    llm_dims_init(&d, c, w, lay);
    pipeline(c, &d, w, lay, &pl);
    pp = pp_comm(c, &d, lay, pl.pipe);
    dp_exposed = dp_comm(c, &d, w, lay, pl.stage_fwd, pl.stage_bwd, &opt);
    if (c->st != CF_OK) return c->st;

    llm_flops(c, w, &fl);
    memset(&out->breakdown, 0, sizeof out->breakdown);
    out->breakdown.tp_comm_s = (double)d.m * (pl.sf.nd * pl.lp.tp_d + pl.sf.nm * pl.lp.tp_m);
    out->breakdown.cp_comm_s = (double)d.m * (pl.sf.nd + pl.sf.nm) * pl.lp.cp;
    out->breakdown.ep_comm_s = (double)d.m * pl.sf.nm * pl.lp.ep;
    out->breakdown.compute_s = pl.pipe - out->breakdown.tp_comm_s - out->breakdown.cp_comm_s -
                               out->breakdown.ep_comm_s + opt;
    out->breakdown.pp_bubble_s = pl.bubble;
    out->breakdown.pp_comm_s = pp;
    out->breakdown.dp_comm_exposed_s = dp_exposed;
    out->ideal_step_time_s = out->breakdown.compute_s;
    finish(out, pl.pipe + pl.bubble + pp + dp_exposed + opt,
           (double)w->global_batch_seqs * d.seq, fl.model * (double)w->global_batch_seqs,
           (long)lay->tp * lay->pp * lay->dp * lay->cp, d.peak_raw);
    return CF_OK;
}

/* The search's lower bound (cf__step_aid.bound): the least pipeline part
 * (pipe + bubble) over the ZeRO stages 0..lay->zero, in step_time_s, and
 * into *bound2 (when not NULL) the same at vp 2. The step time adds to it
 * the PP and DP communication left exposed and the optimizer step, none
 * below 0, so it is never above the step time of the layout at any of
 * those stages; a stage changes the pipeline part only through the compute
 * efficiency of its class (a dense model's), so each efficiency is
 * computed once. More recompute only adds to the pipeline part
 * (recompute_layers 0: full repeats the whole forward). Interleaving
 * changes only the bubble (recompute_layers 0: it changes no layer). */
static cf_status llm_bound(ctx *c, const cf_workload *w, const cf_layout *lay, cf_step_result *out,
                           double *bound2)
{
    double lb = INFINITY, lb2 = INFINITY, seen[CF_MAX_ZERO_STAGE + 1];
    size_t nseen = 0;
    int moe = cf__llm_is_moe(&w->llm);
    int two = bound2 && lay->pp > 1 && lay->recompute_layers <= 0;
    for (int z = moe ? lay->zero : 0; z <= lay->zero; z++) {
        cf_layout lz = *lay;
        llm_dims d;
        llm_pipe pl;
        size_t i;
        double eff;
        lz.zero = z;
        /* llm_dims_init scales a dense model's rates by this, an MoE
         * model's by nothing: one stage stands for all */
        eff = moe ? 1.0 : compute_eff(c, w, &lz);
        for (i = 0; i < nseen && !(seen[i] == eff); i++) {}
        if (i < nseen) continue;    /* the same rate: the same pipeline part */
        seen[nseen++] = eff;
        llm_dims_init(&d, c, w, &lz);
        pipeline(c, &d, w, &lz, &pl);
        if (c->st != CF_OK) return c->st;
        if (two) {
            llm_dims d2 = d;
            double b2;
            d2.v = 2;
            b2 = pl.pipe + bubble_of(&d2, &lz, pl.pipe);
            lb2 = isnan(b2) || isnan(lb2) ? NAN : b2 < lb2 ? b2 : lb2;
        }
        if (isnan(pl.pipe + pl.bubble)) {   /* no bound */
            lb = NAN;
            break;
        }
        if (pl.pipe + pl.bubble < lb) lb = pl.pipe + pl.bubble;
    }
    memset(out, 0, sizeof *out);
    out->step_time_s = lb;
    if (bound2) *bound2 = two ? lb2 : NAN;
    return CF_OK;
}

/* ------------------------------------------------------ other kinds --- */

static cf_status dp_step(ctx *c, const cf_workload *w, long gpus, cf_step_result *out)
{
    double peak = peak_flops(c->gpu, w->precision);
    double hbm = hbm_rate(c->gpu);
    double bg = ceil((double)w->dp_global_batch / (double)gpus);
    /* Efficiency rises with the per-GPU batch: eff = max * b / (b + b_half),
     * i.e. a fixed cost of b_half samples per step. */
    double compute = w->dp_flops_per_sample * (bg + CF_K(DP_HALF_BATCH)) / (peak * CF_K(DP_EFF_MAX));
    double bwd = compute * 2.0 / 3.0;
    double gbytes = w->dp_params * cf__grad_bytes(w);
    double ar = coll(c, CF_COLL_ALL_REDUCE, gbytes, c->nodes, c->gpn);
    double last = CF_K(DDP_LAST_BUCKET_FRAC) * ar;
    double exposed = last + overlap(ar - last, bwd);
    double opt = w->dp_params * CF_K(ADAM_BYTES_PER_PARAM) / hbm;
    if (c->st != CF_OK) return c->st;
    memset(&out->breakdown, 0, sizeof out->breakdown);
    out->breakdown.compute_s = compute + opt;
    out->breakdown.dp_comm_exposed_s = exposed;
    out->ideal_step_time_s = w->dp_flops_per_sample * bg / (peak * CF_K(DP_EFF_MAX)) + opt;
    finish(out, compute + opt + exposed, (double)w->dp_global_batch,
           w->dp_flops_per_sample * (double)w->dp_global_batch, gpus, peak);
    return CF_OK;
}

/* One MPI halo message (model/mpi.c); the first refusal is kept in c. */
static cf_status mpi_p2p(ctx *c, int inter_node, double bytes, double *t)
{
    cf_status st = cf__mpi_p2p_s(c->fab, inter_node, bytes, t, c->st == CF_OK ? c->err : NULL);
    if (st != CF_OK && c->st == CF_OK) c->st = st;
    return st;
}

static cf_status stencil_step(ctx *c, const cf_workload *w, long gpus, cf_step_result *out)
{
    double peak = peak_flops(c->gpu, CF_PREC_BF16);
    double hbm = hbm_rate(c->gpu);
    double cells = w->st_cells / (double)gpus;
    double d = w->st_decomposed_dims > 0 ? w->st_decomposed_dims : 1;
    double compute = fmax(cells * w->st_bytes_per_cell / hbm,
                          cells * w->st_flops_per_cell / (peak * CF_K(FP32_FRAC_OF_BF16)));
    double halo = 0, ar, t;
    if (gpus > 1) {
        /* Halo per neighbour shrinks as gpus^-(d-1)/d; of the 2d neighbours
         * a fraction 1/k^(1/d) is on another node (a node's k GPUs form a
         * block of side k^(1/d) in the decomposition). MPI messages (issue
         * 9): the MPI library's latency over the fabric, model/mpi.c. */
        double hb = w->st_halo_bytes_per_neighbour_per_gpu *
                    pow((double)w->st_ref_gpus / (double)gpus, (d - 1.0) / d);
        double nb = 2.0 * d, ext = c->nodes > 1 ? 1.0 / pow((double)c->gpn, 1.0 / d) : 0.0;
        if (gpus == 2) nb = 1.0;
        if (c->gpn > 1 && mpi_p2p(c, 0, hb, &t) == CF_OK) halo = nb * (1.0 - ext) * t;
        if (c->nodes > 1 && mpi_p2p(c, 1, hb, &t) == CF_OK) halo += nb * ext * t;
    }
    /* The residual: a short MPI_Allreduce over every rank. */
    ar = cf__mpi_allreduce_small_s(c->fab, cf__scaleout_domains(c->fab, c->nodes), c->gpn);
    if (c->st != CF_OK) return c->st;
    memset(&out->breakdown, 0, sizeof out->breakdown);
    out->breakdown.compute_s = compute;
    out->breakdown.dp_comm_exposed_s = halo + ar;
    out->ideal_step_time_s = compute;
    finish(out, compute + halo + ar, w->st_cells, w->st_flops_per_cell * w->st_cells, gpus,
           peak * CF_K(FP32_FRAC_OF_BF16));
    /* MFU is a tensor-core figure of model FLOPs; a stencil's FLOPs run on
     * the SIMT cores and are reported as tflops_per_gpu only (issue 9: no
     * "MFU" for MPI codes). */
    out->mfu = NAN;
    return CF_OK;
}

static void ep_step(const cf_workload *w, long gpus, cf_step_result *out)
{
    /* Tasks are dealt in waves; the job ends with the slowest GPU: the
     * expected maximum of G task times of coefficient of variation cv is
     * about mean * (1 + cv * sqrt(2 ln G)) (Gumbel limit of the maximum of
     * normal variables). The "step" is the whole job. */
    double waves = ceil(w->ep_tasks / (double)gpus);
    double strag = gpus > 1 ? w->ep_straggler_frac * sqrt(2.0 * log((double)gpus)) : 0.0;
    double total = w->ep_startup_s + waves * w->ep_task_gpu_s + strag * w->ep_task_gpu_s;
    memset(&out->breakdown, 0, sizeof out->breakdown);
    out->breakdown.compute_s = total;
    out->ideal_step_time_s = w->ep_tasks * w->ep_task_gpu_s / (double)gpus;
    finish(out, total, w->ep_tasks, NAN, gpus, 1.0);
}

void cf_layout_init(cf_layout *l)
{
    memset(l, 0, sizeof *l);
    l->tp = l->pp = l->dp = l->cp = l->vp = 1;
    l->ep = l->etp = 1;
    l->micro_batch = 1;
    l->zero = 0;
    l->recompute = CF_RECOMPUTE_NONE;
    l->sequence_parallel = 1;
}

/* A layout degree below 1. */
static int degree_refused(const char *param, int v, cf_error *err)
{
    if (v >= 1) return 0;
    if (err) cf_error_set_param(err, param, "%s expects at least 1, got %d", param, v);
    return 1;
}

/* Whether the layout suits the workload and the GPU count; why not in err. */
static int valid_layout(const cf_workload *w, const cf_layout *lay, int nodes, int gpn, cf_error *err)
{
    long gpus = (long)nodes * gpn, used;
    if (degree_refused("tp", lay->tp, err) || degree_refused("pp", lay->pp, err) ||
        degree_refused("dp", lay->dp, err) || degree_refused("cp", lay->cp, err) ||
        degree_refused("vp", lay->vp, err) || degree_refused("micro_batch", lay->micro_batch, err))
        return 0;
    if (lay->zero < 0 || lay->zero > CF_MAX_ZERO_STAGE) {
        if (err) cf_error_set_param(err, "zero", "zero expects a ZeRO stage from 0 to %d, got %d",
                                    CF_MAX_ZERO_STAGE, lay->zero);
        return 0;
    }
    used = (long)lay->tp * lay->pp * lay->dp * lay->cp;
    if (used != gpus) {
        if (err) {
            char why[80] = "";
            if (used % gpn != 0) snprintf(why, sizeof why, "; %ld is not a multiple of %d GPUs per node", used, gpn);
            cf_error_set(err, NULL, 0, 0, "tp*pp*dp*cp = %ld does not equal nodes*gpus_per_node = "
                         "%d*%d = %ld%s", used, nodes, gpn, gpus, why);
        }
        return 0;
    }
    if (lay->ep < 0 || lay->etp < 0) {     /* 0 is read as 1 (a zeroed layout) */
        if (err) cf_error_set_param(err, lay->ep < 0 ? "ep" : "etp", "%s expects at least 1, got %d",
                                    lay->ep < 0 ? "ep" : "etp", lay->ep < 0 ? lay->ep : lay->etp);
        return 0;
    }
    if (cf__moe_layout_check(&w->llm, lay, err) != CF_OK) return 0;
    if (w->kind != CF_WL_LLM) {
        const char *p = lay->tp != 1 ? "tp" : lay->pp != 1 ? "pp" : lay->cp != 1 ? "cp" : NULL;
        if (p && err)
            cf_error_set_param(err, p, "%s %d: only an LLM workload takes tp, pp or cp above 1 "
                               "(the other kinds are data parallel: dp only)", p,
                               lay->tp != 1 ? lay->tp : lay->pp != 1 ? lay->pp : lay->cp);
        if (p) return 0;
        if (w->kind == CF_WL_DATA_PARALLEL && w->dp_global_batch > 0 && (long)lay->dp > w->dp_global_batch) {
            if (err) cf_error_set_param(err, "dp", "dp %d exceeds the workload's global batch of %ld "
                                        "samples: some ranks would have no sample", lay->dp,
                                        w->dp_global_batch);
            return 0;
        }
        return 1;
    }
    if (lay->vp > 1 && lay->pp == 1) {
        if (err) cf_error_set_param(err, "vp", "vp %d needs pp above 1 (it interleaves pipeline "
                                    "stages)", lay->vp);
        return 0;
    }
    if ((long)lay->pp * lay->vp > w->llm.layers) {
        if (err) cf_error_set_param(err, "pp", "pp %d x vp %d exceeds the workload's %ld layers",
                                    lay->pp, lay->vp, (long)w->llm.layers);
        return 0;
    }
    if (w->llm.heads % lay->tp != 0) {
        if (err) cf_error_set_param(err, "tp", "tp %d does not divide the workload's %ld heads",
                                    lay->tp, (long)w->llm.heads);
        return 0;
    }
    if (w->llm.seq % lay->cp != 0) {
        if (err) cf_error_set_param(err, "cp", "cp %d does not divide the workload's seq %ld",
                                    lay->cp, (long)w->llm.seq);
        return 0;
    }
    if ((long)lay->dp * lay->micro_batch > w->global_batch_seqs) {
        if (err) cf_error_set_param(err, "dp", "dp %d x micro-batch %d = %ld sequences per micro-batch "
                                    "round exceeds the workload's global batch of %ld sequences",
                                    lay->dp, lay->micro_batch, (long)lay->dp * lay->micro_batch,
                                    w->global_batch_seqs);
        return 0;
    }
    return 1;
}

cf_status cf_step_predict(const cf_workload *w, const cf_fabric *fab, int nodes,
                          const cf_layout *lay, cf_step_result *out, cf_error *err)
{
    if (cf__serve_refuse(w, "predict step", err) != CF_OK) return CF_EINVAL;
    return cf__step_predict_aided(w, fab, nodes, lay, out, err, NULL);
}

cf_status cf__step_predict_aided(const cf_workload *w, const cf_fabric *fab, int nodes,
                                 const cf_layout *lay, cf_step_result *out, cf_error *err,
                                 const cf__step_aid *aid)
{
    ctx c;
    long gpus;
    cf_status st = CF_OK;
    if (!w || !fab || !lay || !out) {
        cf_error_set(err, NULL, 0, 0, "no workload, fabric, layout or result");
        return CF_EINVAL;
    }
    if (nodes < 1) {
        if (err) cf_error_set_param(err, "nodes", "nodes expects at least 1, got %d", nodes);
        return CF_EINVAL;
    }
    if (cf__int_check("gpus_per_node", fab->gpus_per_node, 1, CF_MAX_GPUS_PER_NODE, err) != CF_OK)
        return CF_EINVAL;
    c.fab = fab;
    c.nodes = nodes;
    c.gpn = fab->gpus_per_node;
    c.st = CF_OK;
    c.err = err;
    c.memo = aid && aid->memo && aid->memo->fab == fab ? aid->memo : NULL;
    c.wmemo = c.memo && (aid->fits || cf__step_memo_fits(c.memo, w)) ? c.memo : NULL;
    if (c.memo && c.memo->gpu) c.gpu = c.memo->gpu;
    else if (cf__gpu_check(fab->gpu, &c.gpu, err) != CF_OK) return CF_EINVAL;
    if (c.memo) c.memo->gpu = c.gpu;
    if (!(peak_flops(c.gpu, CF_PREC_BF16) > 0) || !(c.gpu->hbm_GBps > 0)) {
        if (err)
            cf_error_set_param(err, "gpu", "the hardware table states no %s for gpu %s",
                               !(peak_flops(c.gpu, CF_PREC_BF16) > 0) ? "dense FLOP/s" : "HBM bandwidth",
                               c.gpu->name);
        return CF_EUNSUPPORTED;
    }
    gpus = (long)nodes * fab->gpus_per_node;
    if (!valid_layout(w, lay, nodes, fab->gpus_per_node, err)) return CF_EINVAL;
    /* Several nodes without a network between them: refused here, with the
     * step's node count, before any collective is asked (each would name
     * only its own communicator's nodes). */
    if (nodes > 1 && !cf__has_scaleout_network(fab) && crosses_nodes(&c, w, lay))
        return cf__no_network(fab, nodes, err);
    if (w->kind == CF_WL_LLM && aid && aid->bound) return llm_bound(&c, w, lay, out, aid->bound2);
    memset(out, 0, sizeof *out);
    switch (w->kind) {
    case CF_WL_LLM:
        st = llm_step(&c, w, lay, out);
        break;
    case CF_WL_DATA_PARALLEL: st = dp_step(&c, w, gpus, out); break;
    case CF_WL_STENCIL: st = stencil_step(&c, w, gpus, out); break;
    case CF_WL_EMBARRASSING: ep_step(w, gpus, out); break;
    default:
        cf_error_set(err, NULL, 0, 0, "workload kind %d is not one the step model knows", (int)w->kind);
        return CF_EINVAL;
    }
    /* valid_layout: tp*pp*dp*cp is nodes x gpus_per_node */
    if (st == CF_OK)
        out->memory_per_gpu_gib = aid && !isnan(aid->memory_gib) ? aid->memory_gib : cf__memory_gib(w, lay);
    return st;
}

json_t *cf_step_result_to_json(const cf_step_result *r)
{
    json_t *o = json_object(), *b = json_object();
    int e = 0;
    if (!o || !b) goto fail;
    e |= cf__json_set(o, "step_time_s", cf__json_num(r->step_time_s));
    e |= cf__json_set(o, "tflops_per_gpu", cf__json_num(r->tflops_per_gpu));
    e |= cf__json_set(o, "mfu", cf__json_num(r->mfu));
    e |= cf__json_set(o, "tokens_per_s", cf__json_num(r->tokens_per_s));
    e |= cf__json_set(o, "tokens_per_s_per_gpu", cf__json_num(r->tokens_per_s_per_gpu));
    e |= cf__json_set(o, "memory_per_gpu_gib", cf__json_num(r->memory_per_gpu_gib));
    e |= cf__json_set(b, "compute_s", cf__json_num(r->breakdown.compute_s));
    e |= cf__json_set(b, "tp_comm_s", cf__json_num(r->breakdown.tp_comm_s));
    e |= cf__json_set(b, "pp_bubble_s", cf__json_num(r->breakdown.pp_bubble_s));
    e |= cf__json_set(b, "pp_comm_s", cf__json_num(r->breakdown.pp_comm_s));
    e |= cf__json_set(b, "dp_comm_exposed_s", cf__json_num(r->breakdown.dp_comm_exposed_s));
    e |= cf__json_set(b, "cp_comm_s", cf__json_num(r->breakdown.cp_comm_s));
    e |= cf__json_set(b, "ep_comm_s", cf__json_num(r->breakdown.ep_comm_s));
    if (e) goto fail;
    if (cf__json_set(o, "breakdown", b) != 0) {
        b = NULL;   /* taken (and freed) by the set */
        goto fail;
    }
    return o;
fail:
    json_decref(o);
    json_decref(b);
    return NULL;
}
