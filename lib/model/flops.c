/* flops.c — floating-point operations of a transformer from its real layer
 * shapes (DESIGN.md §4.3), and its parameter count.
 *
 * One multiply-add is 2 FLOPs. Per layer and per sequence of s tokens,
 * forward (Narayanan et al. 2021, arXiv:2104.04473 Appendix; Korthikanti et
 * al. 2022 arXiv:2205.05198 §6):
 *   attention projections  2*s*(h*h [q] + 2*h*kv_dim [k, v] + h*h [o]),
 *                          kv_dim = kv_heads * h/heads (grouped-query attention)
 *   scores and values      4*s^2*h (Q*K^T and P*V, not halved for the causal
 *                          mask, as Megatron's papers count)
 *   FFN                    2*s*h*f per matrix: 2 matrices (GELU) or 3 (SwiGLU)
 * and once per sequence the logits 2*s*h*V. Backward is twice the forward;
 * full activation recompute adds one forward of the layers (not of the
 * logits); selective recompute adds the attention core only. For GELU,
 * f = 4h and MHA this gives Megatron's 72*B*s*l*h^2*(1 + s/6h + V/12lh) and,
 * with full recompute, 96*B*s*l*h^2*(1 + s/6h + V/16lh)
 * (tests/unit/model/test_flops.c checks both). */
#include "model/model_int.h"

int cf__ffn_mats(cf_model_family f)
{
    /* Llama uses SwiGLU (Touvron et al. 2023, arXiv:2302.13971 §2.2);
     * GPT, MPT, BLOOM and OPT use a 2-matrix GELU/ReLU FFN. */
    return f == CF_MODEL_LLAMA ? 3 : 2;
}

void cf__llm_flops_compute(const cf_llm_shape *s, cf__llm_flops *out)
{
    double h = (double)s->hidden, sq = (double)s->seq, f = (double)s->ffn_hidden;
    double v = (double)s->vocab;
    double proj = 2.0 * sq * cf__llm_attn_params(s);
    double ffn = 2.0 * sq * h * f * cf__ffn_mats(s->family);
    double nd = (double)s->layers, nm = 0, mtp = 0, layers_fwd;
    out->layer_gemm_fwd = proj + ffn;
    /* Scores (query/key width) and values (value width): 2*s^2 per head
     * and width each; 4*s^2*h when both widths are h/heads. */
    out->layer_attn_fwd = 2.0 * sq * sq * (double)s->heads *
                          (cf__llm_qk_head_dim(s) + cf__llm_head_dim(s));
    out->logits_fwd = 2.0 * sq * h * v;
    out->moe_layer_gemm_fwd = 0;
    if (cf__llm_is_moe(s)) {
        nd = (double)s->moe.dense_layers;
        nm = (double)cf__moe_layers(s) + (double)s->mtp_layers;
        mtp = (double)s->mtp_layers;
        out->moe_layer_gemm_fwd = sq * cf__moe_layer_gemm_flops(s);
    }
    layers_fwd = nd * (out->layer_gemm_fwd + out->layer_attn_fwd) +
                 nm * (out->moe_layer_gemm_fwd + out->layer_attn_fwd) + mtp * sq * cf__mtp_gemm_flops(s);
    out->model = 3.0 * (layers_fwd + (1.0 + mtp) * out->logits_fwd);
    out->recompute_full = out->model + layers_fwd;
    out->recompute_sel = out->model + (nd + nm) * out->layer_attn_fwd;
}

double cf__llm_flops_counted(const cf__llm_flops *f, cf_recompute r)
{
    return r == CF_RECOMPUTE_FULL ? f->recompute_full : f->model;
}

double cf__llm_layer_params(const cf_llm_shape *s)
{
    double h = (double)s->hidden, f = (double)s->ffn_hidden;
    return cf__llm_attn_params(s) + cf__ffn_mats(s->family) * h * f + 2.0 * h;
}

double cf__llm_params(const cf_llm_shape *s)
{
    return cf__llm_params_total(s);
}
