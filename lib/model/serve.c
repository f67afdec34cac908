/* serve.c — the serving step model (issue 25; docs/model-serve.md gives
 * every formula with its source). One instance of the model on `nodes`
 * nodes, TP or EP (serve.h):
 *
 * Decode (one step, every sequence of the batch gets one token):
 *   HBM time   (weight bytes read + KV-cache bytes read) / (HBM x HBM_EFF):
 *              decode is bandwidth-bound at small batches (Pope et al. 2022,
 *              "Efficiently Scaling Transformer Inference", arXiv:2211.05102
 *              §2; the roofline of Williams et al. 2009). Each routed
 *              expert is read when at least one token goes to it: the
 *              expected share of a GPU's experts touched is
 *              1 - exp(-tokens x top_k / experts) (Poisson arrivals).
 *   compute    2 x active weights x tokens at the GEMM rate (GEMM_EFF_MAX x
 *              the efficiency factor of model/efficiency.c), attention at
 *              ATTN_EFF of the bf16 peak: 4 x context x q_dim per token and
 *              layer, MLA absorbed 2 x context x heads x (2 kv_lora_rank +
 *              rope) (arXiv:2405.04434 §2.1.3, FlashMLA)
 *   comm       TP: two all-reduces per layer of the batch's activations
 *              (Megatron-LM, arXiv:1909.08053 §3), pipeline hand-offs
 *              across nodes; EP: per MoE layer the dispatch and combine
 *              all-to-all (cf_serve_a2a_bytes) over the instance, the
 *              collective model's per-transport latency and bandwidth
 *              (model/collective.c), x SERVE_EP_IMBALANCE on the most loaded
 *              GPU (SGLang's EPLB figures); on InfiniBand or RoCE with
 *              GPUDirect RDMA DeepEP's kernels: the collective model's
 *              latency, the NIC line rate x SERVE_RDMA_EFF (DeepEP's
 *              published bandwidths)
 *   step       TP: mem + compute + comm (no overlap). EP: two-batch overlap
 *              (DeepSeek's inference system, SGLang TBO): each half-batch's
 *              communication runs under the other's compute, so the step is
 *              at least max(mem + compute, comm) with each half reading the
 *              weights once (twice per step), and at most SERVE_TBO_GAIN
 *              faster than the step without overlap (SGLang's measured TBO
 *              gain).
 *   memory     weights on a GPU + batch x KV per sequence (input + output/2
 *              tokens on average over a request's life) within
 *              SERVE_MEM_FRACTION of the GPU's memory.
 *   The decode step's HBM and compute time are over SERVE_DECODE_EFF (the
 *   decode kernels' share of the roofline, fitted on the serving decode
 *   rows: lib/model/fitspec.def).
 * Prefill (one batch of whole prompts): the same GEMM model x
 *   SERVE_PREFILL_EFF (DeepGEMM's grouped FP8 rate as the start, fitted on
 *   the prefill rows) and the attention model at the batch's token count
 *   (causal attention: half the square), TP all-reduces or the all-to-all
 *   in normal (bandwidth-bound) mode, two-batch overlap for EP with the
 *   overlapped half on 1 - SERVE_A2A_SM_SHARE of the SMs (DeepSeek-V3
 *   §3.2.2: 20 of 132 run the all-to-all); TTFT = 2 x the batch time (a request waits for
 *   the batch in progress, then runs in its own) + the KV transfer of one
 *   prompt to the decode pool over the fabric (RDMA bulk, the collective
 *   model's send/receive). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "clusterfit/serve.h"
#include "model/model_int.h"
#include "model/serve_int.h"

/* What one evaluation reads of the workload, the GPU and the layout. */
typedef struct sv {
    const cf_llm_shape *s;
    const cf_gpu_spec *g;
    int gpus, gpn, tp, pp, nodes, ep;   /* instance GPUs; EP degree (1 for TP) */
    double wb, kvb;             /* bytes per weight, KV bytes per token (whole model) */
    double peak, peak_attn;     /* GEMM FLOP/s (at the precision, x efficiency), attention */
    double hbm;                 /* HBM bytes/s x HBM_EFF */
    double hbm_dec;             /* ... x SERVE_DECODE_EFF: decode's kernels */
    double p_dense, p_exp;      /* parameters outside the routed experts / routed experts */
    double moe_layers, layers;
    double ctx;                 /* mean context of a decoding sequence, tokens */
    double mem_free;            /* bytes per GPU for KV after weights (may be < 0) */
    double weights_gpu;         /* weight bytes resident per GPU */
    double imb;                 /* EP load imbalance (SERVE_EP_IMBALANCE unless stated) */
} sv;

double cf_serve_kv_bytes_per_token(const cf_workload *w)
{
    const cf_llm_shape *s;
    double b;
    if (!w || (w->kind != CF_WL_SERVE && w->kind != CF_WL_LLM)) return 0;
    s = &w->llm;
    b = w->kind == CF_WL_SERVE && w->serve.kv_bits == 8 ? 1.0 : 2.0;
    if (cf__llm_is_mla(s))
        return (double)(s->mla.kv_lora_rank + s->mla.rope_head_dim) * (double)s->layers * b;
    return 2.0 * (double)s->layers * (double)s->kv_heads * cf__llm_head_dim(s) * b;
}

static double weight_bytes_per_param(const cf_workload *w)
{
    return w->serve.weight_bits / 8.0;
}

double cf_serve_weight_bytes(const cf_workload *w)
{
    if (!w || w->kind != CF_WL_SERVE) return 0;
    return cf__llm_params_total(&w->llm) * weight_bytes_per_param(w);
}

double cf_serve_a2a_bytes(const cf_workload *w, double tokens, int combine)
{
    double b;
    if (!w || !cf__llm_is_moe(&w->llm) || !(tokens > 0)) return 0;
    b = combine ? 2.0 : (w->serve.weight_bits < 16 ? 1.0 : 2.0);
    return tokens * (double)w->llm.moe.top_k * (double)w->llm.hidden * b;
}

const char *cf_serve_par_name(cf_serve_par p)
{
    return p == CF_SERVE_EP ? "ep" : "tp";
}

void cf_serve_layout_text(const cf_serve_layout *lay, int gpus_per_node, char *buf, size_t n)
{
    if (lay->par == CF_SERVE_EP)
        snprintf(buf, n, "EP%d (DP attention) on %d node%s", lay->nodes * gpus_per_node,
                 lay->nodes, lay->nodes == 1 ? "" : "s");
    else if (lay->nodes > 1)
        snprintf(buf, n, "TP%d x PP%d on %d nodes", lay->tp, lay->nodes, lay->nodes);
    else
        snprintf(buf, n, "TP%d on 1 node", lay->tp);
}

/* The GEMM peak at the workload's precision (fp4: 2 x fp8 on Blackwell,
 * NVIDIA's B200 datasheet: 9 PFLOPS dense FP4 beside 4.5 FP8); NAN when
 * the GPU has no such rate. */
static double precision_peak(const cf_workload *w, const cf_gpu_spec *g)
{
    if (w->serve.weight_bits == 16) return g->bf16_tflops > 0 ? g->bf16_tflops : g->fp16_tflops;
    if (w->serve.weight_bits == 8) return g->fp8_tflops;
    if (strcmp(cf__gpu_generation(g->name), "blackwell") == 0) return 2.0 * g->fp8_tflops;
    return NAN;
}

cf_status cf_serve_layout_check(const cf_workload *w, const cf_fabric *fab,
                                const cf_serve_layout *lay, cf_error *err)
{
    const cf_gpu_spec *g;
    cf_status st;
    if (!w || w->kind != CF_WL_SERVE) {
        cf_error_set_param(err, "workload", "the serving model takes a serve workload (kind serve)");
        return CF_EINVAL;
    }
    if ((st = cf__gpu_check(fab->gpu, &g, err)) != CF_OK) return st;
    if (!(precision_peak(w, g) > 0) || !(g->hbm_GBps > 0) || !(g->memory_gb > 0)) {
        /* name the fact that is missing, not all three (the trial read
         * "no fp8 tensor rate, HBM bandwidth or memory" for an A100) */
        const char *prec = w->serve.weight_bits == 16 ? "bf16" : w->serve.weight_bits == 8 ? "fp8"
                                                                                         : "fp4";
        if (!(precision_peak(w, g) > 0))
            cf_error_set_param(err, "gpu", "%s has no %s tensor cores (data/gpus.csv states no %s "
                               "rate%s) and %s runs %s weights", g->name, prec, prec,
                               w->serve.weight_bits == 4 ? "; fp4 is Blackwell's" : "", w->name, prec);
        else
            cf_error_set_param(err, "gpu", "data/gpus.csv states no %s for %s",
                               g->hbm_GBps > 0 ? "memory size" : "HBM bandwidth", g->name);
        return CF_EINVAL;
    }
    if (lay->nodes < 1 || lay->nodes > CF_FIT_MAX_NODES || fab->gpus_per_node < 1) {
        cf_error_set_param(err, "layout", "an instance spans 1 to %ld nodes", CF_FIT_MAX_NODES);
        return CF_EINVAL;
    }
    if (lay->nodes > 1 && !cf__has_scaleout_network(fab)) return cf__no_network(fab, lay->nodes, err);
    if (lay->par == CF_SERVE_EP && !cf__llm_is_moe(&w->llm)) {
        cf_error_set_param(err, "layout", "expert parallelism needs an MoE model (%s is dense)",
                           w->name);
        return CF_EINVAL;
    }
    if (lay->par == CF_SERVE_TP &&
        (lay->tp < 1 || lay->tp > fab->gpus_per_node || w->llm.heads % lay->tp != 0)) {
        cf_error_set_param(err, "layout", "tp %d must divide the %ld heads and fit the node's %d "
                           "GPUs", lay->tp, w->llm.heads, fab->gpus_per_node);
        return CF_EINVAL;
    }
    return CF_OK;
}

/* Fills v for w on fab in lay (checked). */
static void sv_init(sv *v, const cf_workload *w, const cf_fabric *fab, const cf_serve_layout *lay,
                    const cf_gpu_spec *g)
{
    const cf_llm_shape *s = &w->llm;
    double total = cf__llm_params_total(s), usable;
    memset(v, 0, sizeof *v);
    v->s = s;
    v->g = g;
    v->gpn = fab->gpus_per_node;
    v->nodes = lay->nodes;
    v->ep = lay->par == CF_SERVE_EP;
    v->tp = v->ep ? 1 : lay->tp;
    v->pp = v->ep ? 1 : lay->nodes;
    v->gpus = v->ep ? lay->nodes * fab->gpus_per_node : v->tp * v->pp;
    v->wb = weight_bytes_per_param(w);
    v->kvb = cf_serve_kv_bytes_per_token(w);
    v->peak = precision_peak(w, g) * 1e12 * CF_K(GEMM_EFF_MAX) * cf__compute_eff(g, CF_FW_MEGATRON, 0);
    v->peak_attn = (g->bf16_tflops > 0 ? g->bf16_tflops : g->fp16_tflops) * 1e12 * CF_K(ATTN_EFF);
    v->hbm = g->hbm_GBps * 1e9 * CF_K(HBM_EFF);
    v->hbm_dec = v->hbm * CF_K(SERVE_DECODE_EFF);
    v->imb = w->serve.ep_imbalance >= 1 ? w->serve.ep_imbalance : CF_K(SERVE_EP_IMBALANCE);
    v->moe_layers = (double)cf__moe_layers(s);
    v->layers = (double)s->layers;
    v->p_exp = v->moe_layers * cf__moe_layer_expert_params(s);
    v->p_dense = total - v->p_exp;
    v->ctx = (double)w->serve.input_tokens + 0.5 * (double)w->serve.output_tokens;
    /* EP: the dense part on every GPU, the experts split over all of them;
     * TP x PP: everything split over tp x pp. */
    v->weights_gpu = v->ep ? (v->p_dense + v->p_exp / v->gpus) * v->wb : total * v->wb / v->gpus;
    usable = cf__gpu_usable_bytes(g->name) * CF_K(SERVE_MEM_FRACTION) -
             CF_K(RUNTIME_RESERVE_GIB) * CF__GIB;
    v->mem_free = usable - v->weights_gpu;
}

/* KV bytes one GPU holds per token of a sequence it serves: EP (DP
 * attention) the whole token's; TP the kv heads it holds of a stage's
 * layers (MLA's latent is not split by heads: every TP rank keeps it). */
static double kv_per_token_gpu(const sv *v)
{
    double share;
    if (v->ep) return v->kvb;
    if (cf__llm_is_mla(v->s)) share = 1.0;
    else share = fmax(1.0, (double)v->s->kv_heads / v->tp) / (double)v->s->kv_heads;
    return v->kvb * share / v->pp;
}

/* Sequences the instance's KV memory holds. */
static double max_batch(const sv *v)
{
    double per_seq = kv_per_token_gpu(v) * v->ctx;
    if (v->mem_free <= 0 || per_seq <= 0) return 0;
    /* EP: each GPU holds its own sequences; TP x PP: every GPU a share of each. */
    return floor(v->mem_free / per_seq) * (v->ep ? v->gpus : 1);
}

/* Attention FLOPs per token per layer over a context of c tokens. */
static double attn_flops(const cf_llm_shape *s, double c, int decode)
{
    if (cf__llm_is_mla(s)) {
        double r = (double)s->mla.kv_lora_rank, rope = (double)s->mla.rope_head_dim;
        if (decode) return 2.0 * c * (double)s->heads * (2.0 * r + rope);
        /* prefill, not absorbed: QK over head_dim + rope, PV over head_dim */
        return 2.0 * c * (double)s->heads * (2.0 * cf__llm_head_dim(s) + rope);
    }
    return 4.0 * c * cf__llm_q_dim(s);
}

/* Collective time, s (the collective model; 0 for one rank). */
static cf_status coll_s(const cf_fabric *fab, cf_collective c, double bytes, int nodes, int rpn,
                        double *out, cf_error *err)
{
    cf_coll_query q;
    cf_coll_result r;
    cf_status st;
    *out = 0;
    if (bytes < 1 || nodes * rpn < 2) return CF_OK;
    cf_coll_query_init(&q);
    q.collective = c;
    q.bytes = (uint64_t)ceil(bytes);
    q.nodes = nodes;
    q.ranks_per_node = rpn;
    if ((st = cf_collective_predict(fab, &q, &r, err)) != CF_OK) return st;
    *out = r.time_us * 1e-6;
    return CF_OK;
}

/* Prepares v for w on fab in lay, after cf_serve_layout_check. */
static cf_status sv_prepare(sv *v, const cf_workload *w, const cf_fabric *fab,
                            const cf_serve_layout *lay, cf_error *err)
{
    const cf_gpu_spec *g;
    cf_status st;
    if ((st = cf_serve_layout_check(w, fab, lay, err)) != CF_OK) return st;
    if ((st = cf__gpu_check(fab->gpu, &g, err)) != CF_OK) return st;
    sv_init(v, w, fab, lay, g);
    return CF_OK;
}

/* The share of a GPU's routed experts at least one of `tokens` tokens goes
 * to (Poisson arrivals at tokens x top_k / experts per expert). */
static double touched(const cf_llm_shape *s, double tokens)
{
    if (!cf__llm_is_moe(s)) return 1.0;
    return 1.0 - exp(-tokens * (double)s->moe.top_k / (double)s->moe.experts);
}

/* Whether the instance's all-to-all runs DeepEP-style kernels (GPU-
 * initiated RDMA, IBGDA): InfiniBand or RoCE with GPUDirect RDMA, several
 * nodes. Elsewhere (EFA, TCP, GPUDirect off; an instance inside one NVL72
 * rack, on NVLink) the collective model's all-to-all carries it. */
static int deepep(const sv *v, const cf_fabric *fab)
{
    /* inside one NVL72 rack the all-to-all stays on NVLink: the collective
     * model's NVLink domain carries it */
    if (fab->intra_link == CF_INTRA_NVL72 && v->gpus <= (int)CF_K(NVL72_DOMAIN_GPUS)) return 0;
    return v->nodes > 1 && (fab->network == CF_NET_IB || fab->network == CF_NET_ROCE) &&
           fab->gdr != CF_GDR_OFF && fab->nic_gbps > 0 && fab->nics_per_node > 0;
}

/* Expected distinct nodes among a token's top_k experts spread evenly over
 * n nodes: n (1 - (1 - 1/n)^top_k). Normal (prefill) mode sends a token once
 * per node over the network and forwards it by NVLink (DeepSeek-V3 paper
 * arXiv:2412.19437 §3.2.2, DeepEP's normal kernels). */
static double node_copies(const cf_llm_shape *s, int n)
{
    if (n <= 1) return (double)s->moe.top_k;
    return fmin((double)s->moe.top_k, n * (1.0 - pow(1.0 - 1.0 / n, (double)s->moe.top_k)));
}

/* One all-to-all of `bytes` per GPU: DeepEP, the collective model's
 * latency (an 8-byte all-to-all of the same communicator) plus the off-node
 * share over the GPU's NIC bandwidth x SERVE_RDMA_EFF; else the collective
 * model's all-to-all. */
static cf_status a2a_s(const sv *v, const cf_fabric *fab, double bytes, double *out,
                       cf_error *err)
{
    double lat, nic;
    cf_status st;
    if (!deepep(v, fab)) return coll_s(fab, CF_COLL_ALLTOALL, bytes, v->nodes, v->gpn, out, err);
    if ((st = coll_s(fab, CF_COLL_ALLTOALL, 8.0 * v->gpus, v->nodes, v->gpn, &lat, err)) != CF_OK)
        return st;
    nic = fab->nic_gbps * fab->nics_per_node / v->gpn / 8.0 * 1e9 * CF_K(SERVE_RDMA_EFF);
    *out = lat + bytes * (v->nodes - 1.0) / v->nodes / nic;
    return CF_OK;
}

/* The EP all-to-alls of one step (decode: low-latency mode, a copy per
 * expert) or batch (prefill, normal mode: a copy per node): per MoE layer,
 * two halves (two-batch overlap), each a dispatch and a combine of
 * `tokens_gpu` / 2 tokens on the most loaded GPU. */
static cf_status ep_comm(const sv *v, const cf_workload *w, const cf_fabric *fab,
                         double tokens_gpu, int prefill, double *out, double *bytes, cf_error *err)
{
    double imb = v->imb, half = 0.5 * tokens_gpu * imb, td, tc;
    double share = prefill ? node_copies(v->s, v->nodes) / (double)v->s->moe.top_k : 1.0;
    double bd = cf_serve_a2a_bytes(w, half, 0) * share, bc = cf_serve_a2a_bytes(w, half, 1) * share;
    cf_status st;
    if ((st = a2a_s(v, fab, bd, &td, err)) != CF_OK) return st;
    if ((st = a2a_s(v, fab, bc, &tc, err)) != CF_OK) return st;
    *out = v->moe_layers * 2.0 * (td + tc);
    *bytes = v->moe_layers * 2.0 * (bd + bc);
    return CF_OK;
}

/* A step or batch under two-batch overlap: `serial` without overlap
 * (compute one pass, then the communication), `halves` the compute when it
 * runs as two halves; the overlap hides communication under the other
 * half's compute (DeepSeek's inference system; SGLang TBO) and is bounded
 * by its published gain, SERVE_TBO_GAIN. */
static double tbo(double serial, double halves, double comm)
{
    return fmax(fmax(halves, comm), (serial + comm) / CF_K(SERVE_TBO_GAIN));
}

/* One EP decode step with `batch` sequences over the instance. */
static cf_status decode_ep(const sv *v, const cf_workload *w, const cf_fabric *fab, double batch,
                           cf_serve_decode *o, cf_error *err)
{
    const cf_llm_shape *s = v->s;
    double b = batch / v->gpus, vh = (double)s->vocab * (double)s->hidden, imb = v->imb;
    double p_act_exp = v->moe_layers * (double)s->moe.top_k * cf__moe_expert_params(s);
    double gemm = 2.0 * (v->p_dense - vh) * b + 2.0 * p_act_exp * b * imb;
    double attn = b * v->layers * attn_flops(s, v->ctx, 1);
    cf_status st;
    double w1 = (v->p_dense - vh) * v->wb + touched(s, batch) * v->p_exp * v->wb / v->gpus;
    double w2 = 2.0 * ((v->p_dense - vh) * v->wb + touched(s, 0.5 * batch) * v->p_exp * v->wb /
                       v->gpus);
    o->weight_bytes_gpu = w1;
    o->kv_bytes_gpu = b * v->ctx * v->kvb;
    o->mem_s = (w1 + o->kv_bytes_gpu) / v->hbm_dec;
    o->compute_s = (gemm / v->peak + attn / v->peak_attn) / CF_K(SERVE_DECODE_EFF);
    if ((st = ep_comm(v, w, fab, b, 0, &o->comm_s, &o->a2a_bytes_gpu, err)) != CF_OK) return st;
    /* Two-batch overlap: each half reads the weights once (w2), so the step
     * is at least max(HBM + compute, comm); and it gains at most
     * SERVE_TBO_GAIN over the step without overlap. */
    o->tpot_s = tbo(o->mem_s + o->compute_s, (w2 + o->kv_bytes_gpu) / v->hbm_dec + o->compute_s,
                    o->comm_s);
    return CF_OK;
}

/* One TP x PP decode step: pp micro-batches of batch / pp, each through
 * every stage; TPOT = pp stage times. */
static cf_status decode_tp(const sv *v, const cf_workload *w, const cf_fabric *fab, double batch,
                           cf_serve_decode *o, cf_error *err)
{
    const cf_llm_shape *s = v->s;
    double m = batch / v->pp, share = 1.0 / (v->tp * v->pp), ar = 0, pp = 0;
    double vh = (double)s->vocab * (double)s->hidden;
    double p_act = cf__llm_params_active(s) - vh;
    double act_bytes = m * (double)s->hidden * 2.0;
    cf_status st;
    (void)w;
    o->weight_bytes_gpu = ((v->p_dense - vh) + touched(s, m) * v->p_exp) * v->wb * share;
    o->kv_bytes_gpu = m * v->ctx * kv_per_token_gpu(v);
    o->mem_s = (o->weight_bytes_gpu + o->kv_bytes_gpu) / v->hbm_dec;
    o->compute_s = (2.0 * p_act * m * share / v->peak +
                    m * v->layers / v->pp * attn_flops(s, v->ctx, 1) / v->tp / v->peak_attn) /
                   CF_K(SERVE_DECODE_EFF);
    if ((st = coll_s(fab, CF_COLL_ALL_REDUCE, act_bytes, 1, v->tp, &ar, err)) != CF_OK) return st;
    if (v->pp > 1 && (st = coll_s(fab, CF_COLL_SENDRECV, act_bytes, 2, 1, &pp, err)) != CF_OK)
        return st;
    o->comm_s = 2.0 * v->layers / v->pp * ar + pp;
    o->a2a_bytes_gpu = 0;
    o->tpot_s = v->pp * (o->mem_s + o->compute_s + o->comm_s);
    return CF_OK;
}

/* What binds a decode step: its largest part. */
static const char *decode_binds(const cf_serve_decode *o, int ep)
{
    if (o->comm_s >= o->mem_s && o->comm_s >= o->compute_s)
        return ep ? "the all-to-all" : "the TP all-reduce";
    return o->mem_s >= o->compute_s ? "HBM bandwidth" : "compute";
}

static cf_status decode_eval(const sv *v, const cf_workload *w, const cf_fabric *fab, double batch,
                             cf_serve_decode *out, cf_error *err)
{
    cf_status st;
    memset(out, 0, sizeof *out);
    out->batch = batch;
    out->max_batch = max_batch(v);
    out->weights_gib_gpu = v->weights_gpu / CF__GIB;
    st = v->ep ? decode_ep(v, w, fab, batch, out, err) : decode_tp(v, w, fab, batch, out, err);
    if (st != CF_OK) return st;
    out->tokens_per_s_gpu = batch / out->tpot_s / v->gpus;
    out->binds = decode_binds(out, v->ep);
    return CF_OK;
}

cf_status cf_serve_decode_at(const cf_workload *w, const cf_fabric *fab, const cf_serve_layout *lay,
                             double batch, cf_serve_decode *out, cf_error *err)
{
    sv v;
    cf_status st;
    if (!(batch >= 1) || !isfinite(batch)) {
        cf_error_set_param(err, "batch", "a decode batch is at least one sequence");
        return CF_EINVAL;
    }
    if ((st = sv_prepare(&v, w, fab, lay, err)) != CF_OK) return st;
    return decode_eval(&v, w, fab, batch, out, err);
}

cf_status cf_serve_decode_best(const cf_workload *w, const cf_fabric *fab,
                               const cf_serve_layout *lay, double tpot_s, cf_serve_decode *out,
                               cf_error *err)
{
    sv v;
    cf_status st;
    double lo = 1, hi, cap;
    cf_serve_decode d;
    if ((st = sv_prepare(&v, w, fab, lay, err)) != CF_OK) return st;
    cap = max_batch(&v);
    if (cap < 1) {     /* the weights leave no room for one sequence */
        if ((st = decode_eval(&v, w, fab, 1, out, err)) != CF_OK) return st;
        out->batch = 0;
        out->binds = "KV memory";
        return CF_OK;
    }
    if ((st = decode_eval(&v, w, fab, cap, &d, err)) != CF_OK) return st;
    if (isnan(tpot_s) || d.tpot_s <= tpot_s) {
        *out = d;
        out->binds = "KV memory";
        return CF_OK;
    }
    if ((st = decode_eval(&v, w, fab, 1, out, err)) != CF_OK) return st;
    if (out->tpot_s > tpot_s) {
        out->batch = 0;
        out->binds = "TPOT";
        return CF_OK;
    }
    hi = cap;   /* tpot(lo) <= target < tpot(hi) */
    while (hi - lo > 1) {
        double mid = floor(0.5 * (lo + hi));
        if ((st = decode_eval(&v, w, fab, mid, &d, err)) != CF_OK) return st;
        if (d.tpot_s <= tpot_s) lo = mid;
        else hi = mid;
    }
    return decode_eval(&v, w, fab, lo, out, err);
}

/* GEMM rate of a per-GPU M x K x N GEMM of the prefill, FLOP/s: the
 * additive roofline of model/step.c's gemm_eff (GEMM_EFF_MAX,
 * GEMM_TILE_K), its operand traffic scaled to the weights' bytes per value
 * (2 at bf16), x SERVE_PREFILL_EFF (DeepGEMM's FP8 grouped GEMMs reach
 * 1214-1346 of H800's 1979 TFLOPS at DeepSeek-V3's expert shapes; fitted
 * on the serving prefill rows). */
static double gemm_rate(const sv *v, double m, double k, double n)
{
    double raw = v->peak / CF_K(GEMM_EFF_MAX);
    double poh = raw / (v->g->hbm_GBps * 1e9) * v->wb / 2.0;
    return CF_K(SERVE_PREFILL_EFF) * raw /
           (1.0 / CF_K(GEMM_EFF_MAX) + CF_K(GEMM_TILE_K) * poh * (1.0 / m + 1.0 / n + 1.0 / k));
}

/* Compute time of a prefill: EP, `m` tokens on each GPU (its own prompts;
 * the instance's tokens reach each expert); TP x PP, a micro-batch of `m`
 * tokens through one stage, each GPU 1/tp of it. Prompts of `len` tokens. */
static double prefill_compute(const sv *v, double m, double len)
{
    const cf_llm_shape *s = v->s;
    double h = (double)s->hidden, vh = (double)s->vocab * h, split = v->ep ? 1.0 : v->tp * v->pp;
    double dense = 2.0 * (v->p_dense - vh) * m / split;
    double attn = m * v->layers * attn_flops(s, 0.5 * len, 0) / split;
    double time = dense / gemm_rate(v, m, h, h / v->tp) + attn / v->peak_attn;
    if (cf__llm_is_moe(s)) {
        double imb = v->ep ? v->imb : 1.0;
        double tokens = v->ep ? m * v->gpus : m;     /* tokens through the layer */
        double per_expert = tokens * (double)s->moe.top_k / (double)s->moe.experts * imb;
        double fl = 2.0 * v->moe_layers * (double)s->moe.top_k * cf__moe_expert_params(s) * m *
                    imb / split;
        time += fl / gemm_rate(v, per_expert, h, (double)s->moe.ffn_hidden / v->tp);
    }
    return time;
}

/* The KV transfer of one prompt of `len` tokens to a decode node: the
 * prompt's KV bytes, each GPU of the node its share, over the fabric's
 * send/receive (RDMA bulk: Mooncake, NIXL); 0 without a network (one node
 * serves both phases). */
static cf_status kv_transfer(const sv *v, const cf_fabric *fab, double len, double *out,
                             cf_error *err)
{
    *out = 0;
    if (!cf__has_scaleout_network(fab)) return CF_OK;
    return coll_s(fab, CF_COLL_SENDRECV, len * v->kvb / v->gpn, 2, v->gpn, out, err);
}

static cf_status prefill_eval(const sv *v, const cf_workload *w, const cf_fabric *fab,
                              double prompts, cf_serve_prefill *o, cf_error *err)
{
    double len = (double)w->serve.input_tokens, tokens = prompts * len, a2a_b = 0, ar = 0;
    cf_status st;
    memset(o, 0, sizeof *o);
    o->tokens = tokens;
    if (v->ep) {
        double m = tokens / v->gpus;
        o->compute_s = prefill_compute(v, m, len);
        if ((st = ep_comm(v, w, fab, m, 1, &o->comm_s, &a2a_b, err)) != CF_OK) return st;
        /* two-batch overlap: while the all-to-all of one half runs, its
         * kernels hold SERVE_A2A_SM_SHARE of the SMs (DeepSeek-V3 §3.2.2:
         * 20 of 132), so the other half's compute runs on the rest */
        o->batch_s = tbo(o->compute_s, o->comm_s > 0 ? o->compute_s / (1.0 - CF_K(SERVE_A2A_SM_SHARE))
                                                     : o->compute_s, o->comm_s);
    } else {
        double m = tokens / v->pp, pp = 0;
        if ((st = coll_s(fab, CF_COLL_ALL_REDUCE, m * (double)w->llm.hidden * 2.0, 1, v->tp, &ar,
                         err)) != CF_OK)
            return st;
        if (v->pp > 1 && (st = coll_s(fab, CF_COLL_SENDRECV, m * (double)w->llm.hidden * 2.0, 2, 1,
                                      &pp, err)) != CF_OK)
            return st;
        o->compute_s = prefill_compute(v, m, len);
        o->comm_s = 2.0 * v->layers / v->pp * ar + pp;
        /* pp micro-batches through pp stages: 2 pp - 1 stage times */
        o->batch_s = (2.0 * v->pp - 1.0) * (o->compute_s + o->comm_s);
    }
    if ((st = kv_transfer(v, fab, len, &o->kv_transfer_s, err)) != CF_OK) return st;
    o->ttft_s = 2.0 * o->batch_s + o->kv_transfer_s;
    o->tokens_per_s_gpu = tokens / o->batch_s / v->gpus;
    o->binds = o->comm_s > o->compute_s ? "the all-to-all" : "compute";
    if (!v->ep && o->comm_s > o->compute_s) o->binds = "the TP all-reduce";
    return CF_OK;
}

cf_status cf_serve_prefill_at(const cf_workload *w, const cf_fabric *fab,
                              const cf_serve_layout *lay, double tokens, cf_serve_prefill *out,
                              cf_error *err)
{
    sv v;
    cf_status st;
    if (!(tokens >= 1) || !isfinite(tokens)) {
        cf_error_set_param(err, "tokens", "a prefill batch holds at least one token");
        return CF_EINVAL;
    }
    if ((st = sv_prepare(&v, w, fab, lay, err)) != CF_OK) return st;
    return prefill_eval(&v, w, fab, ceil(tokens / (double)w->serve.input_tokens), out, err);
}

cf_status cf_serve_prefill_best(const cf_workload *w, const cf_fabric *fab,
                                const cf_serve_layout *lay, double ttft_s, cf_serve_prefill *out,
                                cf_error *err)
{
    sv v;
    cf_status st;
    double len, unit, best = -1;
    cf_serve_prefill p;
    if ((st = sv_prepare(&v, w, fab, lay, err)) != CF_OK) return st;
    len = (double)w->serve.input_tokens;
    unit = v.ep ? v.gpus : 1;       /* EP: one prompt on each GPU at least */
    memset(out, 0, sizeof *out);
    out->binds = "TTFT";
    for (double n = unit; n * len / v.gpus <= CF_SERVE_PREFILL_TOKENS_MAX || n == unit; n *= 2) {
        /* the batch's KV must fit beside the weights */
        if ((v.ep ? n / v.gpus : n) * len * kv_per_token_gpu(&v) > v.mem_free) {
            if (best < 0) out->binds = "KV memory";
            break;
        }
        if ((st = prefill_eval(&v, w, fab, n, &p, err)) != CF_OK) return st;
        if (!isnan(ttft_s) && p.ttft_s > ttft_s) break;     /* TTFT grows with the batch */
        if (p.tokens_per_s_gpu > best) {
            best = p.tokens_per_s_gpu;
            *out = p;
        }
    }
    return CF_OK;
}
