/* gpumem.c — memory per GPU of a workload and layout (DESIGN.md §4.3).
 *
 * LLM: model states (weights, gradients, Adam) of the most loaded pipeline
 * stage, divided by TP, sharded by ZeRO over the DP x CP ranks (Megatron's
 * distributed optimizer and FSDP both shard over data and context
 * parallel ranks; MoE experts split over EP x ETP and sharded over the
 * expert-data-parallel ranks, model/moe.c); activations per Korthikanti et al. 2022
 * (arXiv:2205.05198, §4 Table 2) with the attention core not stored (flash
 * attention, the default of every current framework), times the
 * micro-batches the stage holds in flight; a runtime reserve. Constants in
 * model/constants.def. Other kinds: parameters and per-sample activations
 * (data-parallel), per-cell state (stencil), the task's stated need
 * (embarrassingly parallel). Pure functions, no allocation. */
#include <math.h>
#include <string.h>
#include "clusterfit/hardware.h"
#include "model/model_int.h"

double cf__gpu_usable_bytes(const char *gpu)
{
    const cf_gpu_spec *g;
    if (!gpu || cf_gpu_lookup(gpu, &g) != CF_OK || !(g->memory_gb > 0)) return 0;
    return g->memory_gb * CF_K(GPU_GB_BYTES);
}

double cf_gpu_usable_gib(const char *gpu)
{
    double b = cf__gpu_usable_bytes(gpu);
    return b > 0 ? b / CF__GIB : NAN;
}

double cf__grad_bytes(const cf_workload *w)
{
    return w->grad_fp32 ? CF_K(BYTES_GRAD_FP32) : CF_K(BYTES_GRAD);
}

long cf__micro_batches(const cf_workload *w, const cf_layout *lay)
{
    long per = (long)lay->dp * (long)(lay->micro_batch > 0 ? lay->micro_batch : 1);
    long m = (w->global_batch_seqs + per - 1) / per;
    return m < 1 ? 1 : m;
}

void cf__mem_shape_init(const cf_workload *w, cf__mem_shape *ms)
{
    const cf_llm_shape *s = &w->llm;
    double h = (double)s->hidden, f = (double)s->ffn_hidden, fe = (double)s->moe.ffn_hidden;
    double per_f = cf__ffn_mats(s->family) == 3 ? 6.0 : 4.0;
    /* FP8 training keeps the routed experts' GEMM inputs (the dispatched
     * copy, fc2's input) in FP8 for their backward: 1 unit each instead of
     * 2 (MOE_FP8_INPUT_UNITS). */
    double in = w->precision == CF_PREC_FP8 ? CF_K(MOE_FP8_INPUT_UNITS) : 2.0;
    double heads = 1.0 + (cf__llm_is_moe(s) ? (double)s->mtp_layers : 0.0);
    memset(ms, 0, sizeof *ms);
    cf__shape_params_of(s, &ms->sp);
    ms->moe = cf__llm_is_moe(s);
    ms->h = h;
    ms->seq = (double)s->seq;
    ms->vocab = (double)s->vocab;
    ms->vocab_h = (double)s->vocab * (double)s->hidden;
    ms->logits_units = heads * 6.0 * (double)s->seq;
    ms->u0 = 4.0 + 3.0 + 4.0 * cf__llm_q_dim(s) / h + 4.0 * cf__llm_kv_dim(s) / h + 3.0;
    ms->ffn_dense = per_f * f / h;
    if (ms->moe) {
        ms->moe_a = (double)s->moe.shared_experts * per_f * fe / h;
        ms->moe_b = (double)s->moe.top_k * cf__moe_load_factor(s);
        ms->moe_c = 2.0 + in;
        ms->moe_d = (per_f - 2.0 + in) * fe / h;
    }
}

void cf__mem_shape_mix(cf__mem_shape *ms, const cf_llm_shape *s)
{
    for (int last = 0; last < 2; last++)
        for (int pp = 1; pp <= CF__MIX_PP_MAX; pp++)
            cf__stage_mix(s, pp, last, &ms->mix_nd[last][pp], &ms->mix_nm[last][pp]);
    ms->mix_ok = 1;
}

void cf__stage_mix_ms(const cf__mem_shape *ms, const cf_llm_shape *s, int pp, int last, double *nd,
                      double *nm)
{
    if (ms && ms->mix_ok && pp >= 1 && pp <= CF__MIX_PP_MAX) {
        *nd = ms->mix_nd[last != 0][pp];
        *nm = ms->mix_nm[last != 0][pp];
        return;
    }
    cf__stage_mix(s, pp, last, nd, nm);
}

/* Activation bytes of one layer for one micro-batch on one GPU. Korthikanti
 * et al. count, per token, in units of h bytes: layer-norm inputs 4;
 * attention 7 + 4r (QKV input 2, Q 2, K and V 2r each with r = kv_dim/h for
 * grouped-query attention, output-projection input 2, dropout mask 1); MLP
 * 3 + 4f/h for GELU (fc1 input 2, fc1 output 2f/h, GELU output 2f/h,
 * dropout mask 1) or 3 + 6f/h for SwiGLU (gate and up outputs, their
 * product). With MHA and f = 4h that is their 34. A stated head_dim widens
 * Q and the output-projection input to q = heads x head_dim: attention
 * 3 + 4q/h + 4kv/h (ms->u0 with the norms). An MoE layer (moe = 1;
 * docs/model-step.md) keeps, per token, the FFN units of its shared experts
 * and, for each of its top_k routed copies (x the load factor of the most
 * loaded rank), the dispatched input and the expert output (4, FP8 inputs
 * as the workload trains) and the expert's FFN units (split by etp, on etp
 * x the tokens). Without sequence parallelism 10 of those units (norm
 * inputs, QKV and fc1 inputs, dropout masks) are replicated on every TP
 * rank, the rest split by t: their 10 + 24/t. Full recompute stores only
 * the layer input (2 units). */
static double layer_activation_bytes(const cf__mem_shape *ms, const cf_layout *lay, int full_layer,
                                     int moe)
{
    double t = lay->tp > 0 ? lay->tp : 1;
    double tokens = ms->seq / (lay->cp > 0 ? lay->cp : 1) * (lay->micro_batch > 0 ? lay->micro_batch : 1);
    double ffn = ms->ffn_dense;
    double units, per_token;
    int sp = lay->sequence_parallel && t > 1;
    if (moe) {
        double etp = lay->etp > 0 ? lay->etp : 1;
        ffn = ms->moe_a + ms->moe_b * (ms->moe_c * etp + ms->moe_d);
    }
    units = ms->u0 + ffn;
    if (lay->recompute == CF_RECOMPUTE_FULL && !full_layer)
        per_token = sp ? 2.0 / t : 2.0;
    else
        per_token = sp ? units / t : 10.0 + (units - 10.0) / t;
    return per_token * tokens * ms->h;
}

double cf__recompute_frac(const cf_workload *w, const cf_layout *lay)
{
    double per_stage, v = lay->vp > 0 ? lay->vp : 1;
    if (lay->recompute != CF_RECOMPUTE_FULL) return 0;
    if (lay->recompute_layers <= 0 || cf__llm_is_moe(&w->llm)) return 1;
    per_stage = ceil((double)w->llm.layers / (lay->pp > 0 ? lay->pp : 1));
    return per_stage > 0 ? fmin(1.0, (double)lay->recompute_layers * v / per_stage) : 1;
}

double cf__fp8_dense_act_saving(const cf_workload *w, const cf_layout *lay)
{
    const cf_llm_shape *s = &w->llm;
    double h = (double)s->hidden, f = (double)s->ffn_hidden;
    double t = lay->tp > 0 ? lay->tp : 1;
    double tokens = (double)s->seq / (lay->cp > 0 ? lay->cp : 1) * (lay->micro_batch > 0 ? lay->micro_batch : 1);
    double per = 2.0 - CF_K(FP8_ACT_INPUT_BYTES);
    int sp = lay->sequence_parallel && t > 1;
    if (w->precision != CF_PREC_FP8 || !(per > 0)) return 0;
    /* the QKV and fc1 inputs are replicated on the TP ranks without
     * sequence parallelism (layer_activation_bytes), fc2's is split */
    return tokens * per * (2.0 * h / (sp ? t : 1.0) + f / t);
}

/* Model states of one stage on one GPU, bytes: `dense` parameters sharded
 * by ZeRO over `shard` ranks (dp x cp), `expert` ones over `eshard` (the
 * expert-data-parallel ranks); `gathered` = the parameters of the largest
 * layer (ZeRO-3 keeps two of them whole). */
static double stage_states(const cf_workload *w, int zero, double dense, double expert,
                           double shard, double eshard, double gathered)
{
    double g = cf__grad_bytes(w), o = w->optimizer_bytes_per_param, wb = CF_K(BYTES_WEIGHT);
    switch (zero) {
    case 0: return (dense + expert) * (wb + g + o);
    case 1: return dense * (wb + g + o / shard) + expert * (wb + g + o / eshard);
    case 2: return dense * (wb + (g + o) / shard) + expert * (wb + (g + o) / eshard);
    default:
        /* ZeRO-3 / FSDP: everything sharded, plus the gathered weights
         * and unsharded gradients of two layers (the one computing and
         * the prefetched one: FSDP's forward/backward prefetch). */
        return dense * (wb + g + o) / shard + expert * (wb + g + o) / eshard +
               2.0 * gathered * (wb + g);
    }
}

/* What a layout's memory reads besides its ZeRO stage and recompute: per
 * stage (the first and the last; with p = 1 they are one) its parameters
 * and layers, and the sharding. */
typedef struct mem_prep {
    int nstage;             /* 1 or 2 */
    double shard, eshard, gathered, inflight, logits;
    double dparams[2], eparams[2], nd[2], nm[2];
} mem_prep;

static void mem_prep_init(const cf_workload *w, const cf__mem_shape *ms, const cf_layout *lay,
                          mem_prep *mp)
{
    const cf_llm_shape *s = &w->llm;
    double t = lay->tp, p = lay->pp, v = lay->vp > 0 ? lay->vp : 1;
    double eps = (double)(lay->ep > 0 ? lay->ep : 1) * (double)(lay->etp > 0 ? lay->etp : 1);
    double layers_stage = ceil((double)s->layers / p);
    double emb_p = ms->vocab_h / t;
    long m = cf__micro_batches(w, lay);
    mp->shard = (double)lay->dp * (double)(lay->cp > 0 ? lay->cp : 1);
    mp->eshard = mp->shard * t / eps;
    mp->gathered = ms->sp.layer / t;
    mp->inflight = p > 1 ? fmin((double)m, p) : 1.0;
    if (v > 1 && p > 1) mp->inflight *= 1.0 + (p - 1.0) / (p * v);
    if (mp->eshard < 1) mp->eshard = 1;
    if (ms->moe) mp->gathered = fmax(mp->gathered, ms->sp.moe_dense / t + ms->sp.moe_expert / eps);
    /* bf16 and the fp32 copy of cross-entropy: 6 B per vocabulary entry
     * per token; one more per MTP head */
    mp->logits = ms->logits_units / (lay->cp > 0 ? lay->cp : 1) *
                 (lay->micro_batch > 0 ? lay->micro_batch : 1) * ms->vocab / t;
    mp->nstage = p > 1 ? 2 : 1;
    for (int stage = 0; stage < mp->nstage; stage++) {
        int first = stage == 0, last = p == 1 || stage == 1;
        if (ms->moe) {
            cf__stage_mix_ms(ms, s, lay->pp, last, &mp->nd[stage], &mp->nm[stage]);
            cf__stage_params_mix(s, &ms->sp, lay, first, last, mp->nd[stage], mp->nm[stage],
                                 &mp->dparams[stage], &mp->eparams[stage]);
        } else {
            /* dense: the fast path of the plan's hot loop, same figures */
            mp->nd[stage] = layers_stage;
            mp->nm[stage] = mp->eparams[stage] = 0;
            mp->dparams[stage] = layers_stage * mp->gathered + (first ? emb_p : 0) + (last ? emb_p : 0);
        }
    }
}

/* The activations of each stage at lay's recompute. The first stage
 * holds `inflight` micro-batches of its layers; the last stage one
 * micro-batch plus the logits. */
static void mem_act(const cf_workload *w, const cf__mem_shape *ms, const cf_layout *lay,
                    const mem_prep *mp, double act[2])
{
    double act_dense = layer_activation_bytes(ms, lay, 0, 0);
    double act_moe = ms->moe ? layer_activation_bytes(ms, lay, 0, 1) : 0;
    /* Dense layers: FP8 inputs kept in FP8, and a partial (block) full
     * recompute: the recomputed share of the stage keeps its inputs only,
     * the rest every activation (cf__recompute_frac). */
    if (!ms->moe) {
        double frac = cf__recompute_frac(w, lay), whole = layer_activation_bytes(ms, lay, 1, 0);
        double kept = whole - cf__fp8_dense_act_saving(w, lay);
        act_dense = frac >= 1 ? act_dense : frac * act_dense + (1.0 - frac) * kept;
    }
    for (int stage = 0; stage < mp->nstage; stage++) {
        int first = stage == 0, last = lay->pp == 1 || stage == 1;
        act[stage] = (mp->nd[stage] * act_dense + mp->nm[stage] * act_moe) * (first ? mp->inflight : 1.0);
        if (lay->recompute == CF_RECOMPUTE_FULL)    /* the layer being recomputed */
            act[stage] += layer_activation_bytes(ms, lay, 1, mp->nm[stage] > 0);
        if (last) act[stage] += mp->logits;
    }
}

/* The most loaded stage's states at ZeRO stage `zero` and activations,
 * with the runtime reserve, bytes. */
static double mem_total(const cf_workload *w, const mem_prep *mp, int zero, const double act[2],
                        cf__mem_parts *parts)
{
    double best = 0, best_states = 0, best_act = 0;
    for (int stage = 0; stage < mp->nstage; stage++) {
        double states = stage_states(w, zero, mp->dparams[stage], mp->eparams[stage], mp->shard,
                                     mp->eshard, mp->gathered);
        if (states + act[stage] > best) {
            best = states + act[stage];
            best_states = states;
            best_act = act[stage];
        }
    }
    if (parts) {
        parts->states_bytes = best_states;
        parts->activation_bytes = best_act;
        parts->reserve_bytes = CF_K(RUNTIME_RESERVE_GIB) * CF__GIB;
    }
    return best + CF_K(RUNTIME_RESERVE_GIB) * CF__GIB;
}

double cf__llm_memory_bytes_ms(const cf_workload *w, const cf__mem_shape *ms, const cf_layout *lay,
                               cf__mem_parts *parts)
{
    mem_prep mp;
    double act[2];
    mem_prep_init(w, ms, lay, &mp);
    mem_act(w, ms, lay, &mp, act);
    return mem_total(w, &mp, lay->zero, act, parts);
}

int cf__llm_least_recompute(const cf_workload *w, const cf__mem_shape *ms, const cf_layout *lay,
                            const int *zeros, int nz, double limit_gib)
{
    cf_layout l = *lay;
    mem_prep mp;
    mem_prep_init(w, ms, &l, &mp);
    for (int rc = 0; rc < 3; rc++) {
        double act[2];
        l.recompute = (cf_recompute)rc;
        mem_act(w, ms, &l, &mp, act);
        for (int zi = 0; zi < nz; zi++)
            if (mem_total(w, &mp, zeros[zi], act, NULL) / CF__GIB <= limit_gib) return rc;
    }
    return 3;
}

double cf__llm_memory_bytes(const cf_workload *w, const cf_layout *lay, cf__mem_parts *parts)
{
    cf__mem_shape ms;
    cf__mem_shape_init(w, &ms);
    return cf__llm_memory_bytes_ms(w, &ms, lay, parts);
}

double cf__memory_gib_memo(const cf_workload *w, const cf_layout *lay, const cf__step_memo *memo)
{
    if (w->kind == CF_WL_LLM && memo)
        return cf__llm_memory_bytes_ms(w, &memo->ms, lay, NULL) / CF__GIB;
    return cf__memory_gib(w, lay);
}

double cf__memory_gib(const cf_workload *w, const cf_layout *lay)
{
    if (w->kind == CF_WL_LLM) return cf__llm_memory_bytes(w, lay, NULL) / CF__GIB;
    return cf__other_memory_bytes(w, (long)lay->tp * lay->pp * lay->dp * lay->cp) / CF__GIB;
}

double cf__other_memory_bytes(const cf_workload *w, long gpus)
{
    double reserve = CF_K(RUNTIME_RESERVE_GIB) * CF__GIB;
    if (gpus < 1) gpus = 1;
    switch (w->kind) {
    case CF_WL_DATA_PARALLEL: {
        double b = ceil((double)w->dp_global_batch / (double)gpus);
        double g = cf__grad_bytes(w);
        return w->dp_params * (CF_K(BYTES_WEIGHT) + g + w->optimizer_bytes_per_param) +
               b * w->dp_activation_bytes_per_sample + reserve;
    }
    case CF_WL_STENCIL:
        return w->st_cells / (double)gpus * w->st_state_bytes_per_cell + reserve;
    case CF_WL_EMBARRASSING:
        return w->ep_memory_gib * CF__GIB + reserve;
    default:
        return 0;
    }
}
