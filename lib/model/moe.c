/* moe.c — Mixture-of-Experts and attention-shape rules of the model
 * (docs/model-step.md "Mixture of Experts"): the checks of shape.moe,
 * shape.mla and shape.head_dim, the total and active parameter counts, the
 * parameters a pipeline stage holds on one GPU (dense parts split by TP,
 * experts split over EP x ETP), the layer mix of a stage, and the token
 * volume of the expert-parallel all-to-all.
 *
 * Conventions (Megatron-Core, docs/model-step.md):
 *  - an MoE layer is attention + a router (an h x E linear) + E routed
 *    experts of which each token goes to top_k, + shared_experts that every
 *    token goes through; an expert is an FFN of moe.ffn_hidden (SwiGLU: 3
 *    matrices, GELU: 2). The first moe.dense_layers layers keep a dense FFN
 *    of shape.ffn_hidden (DeepSeek-V3: first_k_dense_replace = 3);
 *  - FLOPs are those of the active parameters: attention, router, top_k +
 *    shared experts per token (Fedus et al. 2021, arXiv:2101.03961 §2;
 *    DeepSeek-V3 report, arXiv:2412.19437, "37B activated for each token");
 *  - attention width: q = heads x head_dim, k and v = kv_heads x head_dim
 *    (head_dim = hidden/heads unless stated: Qwen3-235B-A22B 64 x 128 on a
 *    4096-wide model); latent attention (MLA, DeepSeek-V2 arXiv:2405.04434
 *    §2.1) is counted with its real projections: q down h x q_lora, q up
 *    q_lora x heads(head_dim + rope), kv down h x (kv_lora + rope), kv up
 *    kv_lora x heads x 2 head_dim, output heads x head_dim x h. The
 *    approximation: its GEMMs are timed as those projections, its core as
 *    ordinary attention with a query/key width of head_dim + rope; the
 *    activations it keeps are counted as attention of width q (the latent
 *    cache is smaller: an over-estimate of a few percent of a layer);
 *  - multi-token prediction (DeepSeek-V3 §2.2): each MTP module is counted
 *    as one more MoE layer plus an h x 2h projection and one more output
 *    head pass, on the last pipeline stage, and is not part of params_b
 *    (the report's 671B excludes the 14B of MTP).
 * Pure functions, no allocation. */
#include <math.h>
#include <stdio.h>
#include "model/model_int.h"

int cf__llm_is_moe(const cf_llm_shape *s)
{
    return s->moe.experts > 0;
}

int cf__llm_is_mla(const cf_llm_shape *s)
{
    return s->mla.kv_lora_rank > 0;
}

double cf__llm_head_dim(const cf_llm_shape *s)
{
    if (s->head_dim > 0) return (double)s->head_dim;
    return s->heads > 0 ? (double)s->hidden / (double)s->heads : 0;
}

double cf__llm_q_dim(const cf_llm_shape *s)
{
    return (double)s->heads * cf__llm_head_dim(s);
}

double cf__llm_kv_dim(const cf_llm_shape *s)
{
    long kvh = s->kv_heads > 0 ? s->kv_heads : s->heads;
    return (double)kvh * cf__llm_head_dim(s);
}

double cf__llm_qk_head_dim(const cf_llm_shape *s)
{
    return cf__llm_head_dim(s) + (cf__llm_is_mla(s) ? (double)s->mla.rope_head_dim : 0.0);
}

double cf__llm_attn_params(const cf_llm_shape *s)
{
    double h = (double)s->hidden, nh = (double)s->heads, hd = cf__llm_head_dim(s);
    if (cf__llm_is_mla(s)) {
        double rope = (double)s->mla.rope_head_dim, ql = (double)s->mla.q_lora_rank;
        double kvl = (double)s->mla.kv_lora_rank, qh = nh * (hd + rope);
        double q = ql > 0 ? h * ql + ql * qh + ql : h * qh;   /* + the q_a norm */
        double kv = h * (kvl + rope) + kvl * nh * 2.0 * hd + kvl;
        return q + kv + nh * hd * h;
    }
    return 2.0 * h * cf__llm_q_dim(s) + 2.0 * h * cf__llm_kv_dim(s);
}

double cf__moe_expert_params(const cf_llm_shape *s)
{
    return (double)cf__ffn_mats(s->family) * (double)s->hidden * (double)s->moe.ffn_hidden;
}

long cf__moe_layers(const cf_llm_shape *s)
{
    if (!cf__llm_is_moe(s)) return 0;
    return s->layers - s->moe.dense_layers;
}

double cf__moe_layer_dense_params(const cf_llm_shape *s)
{
    double h = (double)s->hidden;
    return cf__llm_attn_params(s) + 2.0 * h + h * (double)s->moe.experts +
           (double)s->moe.shared_experts * cf__moe_expert_params(s);
}

double cf__moe_layer_expert_params(const cf_llm_shape *s)
{
    return (double)s->moe.experts * cf__moe_expert_params(s);
}

/* One MTP module beyond its MoE layer: the h x 2h projection of the
 * embedding and the hidden state, two norms. */
static double mtp_extra_params(const cf_llm_shape *s)
{
    double h = (double)s->hidden;
    return 2.0 * h * h + 2.0 * h;
}

double cf__llm_params_total(const cf_llm_shape *s)
{
    double l = (double)s->layers, h = (double)s->hidden, v = (double)s->vocab;
    double layers;
    if (!cf__llm_is_moe(s)) layers = l * cf__llm_layer_params(s);
    else
        layers = (double)s->moe.dense_layers * cf__llm_layer_params(s) +
                 (double)cf__moe_layers(s) * (cf__moe_layer_dense_params(s) + cf__moe_layer_expert_params(s));
    return layers + 2.0 * v * h + h;
}

double cf__llm_params_active(const cf_llm_shape *s)
{
    double h = (double)s->hidden, v = (double)s->vocab;
    if (!cf__llm_is_moe(s)) return cf__llm_params_total(s);
    return (double)s->moe.dense_layers * cf__llm_layer_params(s) +
           (double)cf__moe_layers(s) * (cf__moe_layer_dense_params(s) +
                                        (double)s->moe.top_k * cf__moe_expert_params(s)) +
           2.0 * v * h + h;
}

double cf__moe_layer_gemm_flops(const cf_llm_shape *s)
{
    /* Per token, forward: 2 FLOPs per active weight of the projections,
     * the router and the top_k + shared experts. */
    double h = (double)s->hidden;
    return 2.0 * (cf__llm_attn_params(s) + h * (double)s->moe.experts +
                  (double)(s->moe.top_k + s->moe.shared_experts) * cf__moe_expert_params(s));
}

double cf__mtp_gemm_flops(const cf_llm_shape *s)
{
    return 2.0 * (2.0 * (double)s->hidden * (double)s->hidden);
}

double cf__moe_load_factor(const cf_llm_shape *s)
{
    double f = CF_K(MOE_LOAD_IMBALANCE);
    /* Token-drop training caps each expert at capacity_factor x the mean
     * load (GShard, Lepikhin et al. 2020 §2.2): the slowest rank does no
     * more than that. */
    if (s->moe.capacity_factor > 0 && s->moe.capacity_factor < f) f = s->moe.capacity_factor;
    return f;
}

double cf__moe_a2a_bytes(const cf_llm_shape *s, double tokens, double bytes_per_value)
{
    /* Each of `tokens` tokens is sent once per routed expert (Megatron-
     * Core's all-to-all dispatcher permutes tokens per expert), h values
     * each; the combine sends the same volume back. */
    if (!cf__llm_is_moe(s)) return 0;
    return tokens * (double)s->moe.top_k * (double)s->hidden * bytes_per_value;
}

void cf__stage_mix(const cf_llm_shape *s, int pp, int last, double *dense, double *moe)
{
    double ls = ceil((double)s->layers / (pp > 0 ? pp : 1));
    double nd = (double)(cf__llm_is_moe(s) ? s->moe.dense_layers : s->layers);
    double nm = (double)cf__moe_layers(s);
    if (pp <= 1) {
        *dense = nd;
        *moe = nm;
    } else if (!last) {
        *dense = fmin(nd, ls);
        *moe = ls - *dense;
    } else {
        *moe = fmin(nm, ls);
        *dense = ls - *moe;
    }
    /* MTP modules sit after the last layer (Megatron-Core places them on
     * the last pipeline stage). */
    if ((pp <= 1 || last) && cf__llm_is_moe(s)) *moe += (double)s->mtp_layers;
}

void cf__shape_params_of(const cf_llm_shape *s, cf__shape_params *p)
{
    p->layer = cf__llm_layer_params(s);
    p->moe_dense = cf__llm_is_moe(s) ? cf__moe_layer_dense_params(s) : 0;
    p->moe_expert = cf__llm_is_moe(s) ? cf__moe_layer_expert_params(s) : 0;
    p->mtp_extra = mtp_extra_params(s);
}

void cf__stage_params_of(const cf_llm_shape *s, const cf__shape_params *sp, const cf_layout *lay,
                         int first, int last, double *dense, double *expert)
{
    double nd, nm;
    cf__stage_mix(s, lay->pp, last, &nd, &nm);
    cf__stage_params_mix(s, sp, lay, first, last, nd, nm, dense, expert);
}

void cf__stage_params_mix(const cf_llm_shape *s, const cf__shape_params *sp, const cf_layout *lay,
                          int first, int last, double nd, double nm, double *dense, double *expert)
{
    double t = lay->tp > 0 ? lay->tp : 1, ep = lay->ep > 0 ? lay->ep : 1;
    double etp = lay->etp > 0 ? lay->etp : 1;
    double emb = (double)s->vocab * (double)s->hidden / t;
    int has_mtp = lay->pp <= 1 || last;
    *expert = 0;
    if (!cf__llm_is_moe(s)) {
        *dense = nd * sp->layer / t;
    } else {
        *dense = (nd * sp->layer + nm * sp->moe_dense +
                  (has_mtp ? (double)s->mtp_layers * sp->mtp_extra : 0.0)) / t;
        *expert = nm * sp->moe_expert / (ep * etp);
    }
    *dense += (first ? emb : 0) + (last ? emb : 0);
}

void cf__stage_params(const cf_llm_shape *s, const cf_layout *lay, int first, int last,
                      double *dense, double *expert)
{
    cf__shape_params sp;
    cf__shape_params_of(s, &sp);
    cf__stage_params_of(s, &sp, lay, first, last, dense, expert);
}

/* The shape's refusals, each naming its key and the numbers. */
static cf_status refuse(cf_error *err, const char *origin, const char *fmt, long a, long b)
{
    char msg[256];
    snprintf(msg, sizeof msg, fmt, a, b);
    cf_error_set(err, origin, 0, 0, "%s", msg);
    return CF_EPARSE;
}

cf_status cf__moe_check(const cf_llm_shape *s, const char *origin, cf_error *err)
{
    const cf_moe_shape *m = &s->moe;
    if (!cf__llm_is_moe(s)) return CF_OK;
    if (m->top_k > m->experts)
        return refuse(err, origin, "shape.moe.top_k: %ld is more than the %ld experts "
                      "(each token goes to top_k of shape.moe.experts)", m->top_k, m->experts);
    if (m->dense_layers >= s->layers)
        return refuse(err, origin, "shape.moe.dense_layers: %ld leaves no MoE layer of the %ld "
                      "layers (use a dense shape without shape.moe)", m->dense_layers, s->layers);
    return CF_OK;
}

cf_status cf__moe_layout_check(const cf_llm_shape *s, const cf_layout *lay, cf_error *err)
{
    long ep = lay->ep > 0 ? lay->ep : 1, etp = lay->etp > 0 ? lay->etp : 1;
    long inner = (long)lay->tp * lay->dp * lay->cp;
    if (!cf__llm_is_moe(s)) {
        if (ep != 1 || etp != 1) {
            if (err) cf_error_set_param(err, ep != 1 ? "ep" : "etp", "%s %ld: only a Mixture-of-"
                                        "Experts workload (shape.moe) takes ep or etp above 1",
                                        ep != 1 ? "ep" : "etp", ep != 1 ? ep : etp);
            return CF_EINVAL;
        }
        return CF_OK;
    }
    if (s->moe.experts % ep != 0) {
        if (err) cf_error_set_param(err, "ep", "ep %ld does not divide the workload's %ld experts",
                                    ep, (long)s->moe.experts);
        return CF_EINVAL;
    }
    if (s->moe.ffn_hidden % etp != 0) {
        if (err) cf_error_set_param(err, "etp", "etp %ld does not divide the expert ffn_hidden %ld",
                                    etp, (long)s->moe.ffn_hidden);
        return CF_EINVAL;
    }
    if (inner % (ep * etp) != 0) {
        if (err) cf_error_set_param(err, "ep", "ep %ld x etp %ld does not divide tp*dp*cp = %ld "
                                    "(Megatron-Core: etp*ep*edp = tp*dp*cp)", ep, etp, inner);
        return CF_EINVAL;
    }
    return CF_OK;
}
