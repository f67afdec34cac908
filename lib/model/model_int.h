/* model_int.h — what the model's files (lib/model/) share: the checks of
 * its inputs (params.c), FLOPs from layer shapes (flops.c), the memory model
 * (gpumem.c), the step model (step.c), and the validation readers
 * (validate.c, validate_training.c). Not installed; symbols are
 * cf__-prefixed and hidden. */
#ifndef CLUSTERFIT_MODEL_INT_H
#define CLUSTERFIT_MODEL_INT_H

#include <stdint.h>
#include "clusterfit/hardware.h"
#include "clusterfit/step.h"
#include "clusterfit/workload.h"
#include "clusterfit/validate.h"
#include "clusterfit/collective.h"
#include "clusterfit/limits.h"
#include "base/base.h"

/* ------------------------------------------------------------ constants
 * The model's one constant table, model/constants.def (collective, step and
 * memory constants, each with value, unit and source; model/constants.c
 * builds cf__model_constants[] from it, cf_model_constants() lists it).
 * Code reads a value by enum: CF_K(ETA_IB) is a double; a count is a whole
 * number and is cast where an integer is needed, (int)CF_K(NVL72_DOMAIN_GPUS).
 * model/, plan/ and audit/ include this header for CF_K. */
typedef enum cf__kid {
#define CF_CONSTANT(id, v, u, s) CF_K_##id,
#include "model/constants.def"
#undef CF_CONSTANT
    CF_K__COUNT
} cf__kid;

/* Read through CF_K. Only model/refit.c writes it (a refit sets the fitted
 * constants for the process: the tool's `validate refit` and `--cv
 * source`, single-threaded; the server never refits). */
extern cf_model_constant cf__model_constants[CF_K__COUNT];
/* constants.def's value of constant k (a cf__kid); 0 out of range. */
double cf__model_constant_shipped(int k);
/* Every constant back to constants.def's value. */
void cf__model_constants_restore(void);

#define CF_K(id) (cf__model_constants[CF_K_##id].value)
/* --------------------------------------------- the model's checks (params.c)
 * Shared by the setters and the model entry points, so a value the setter
 * refuses the model refuses with the same reason. Both format only when err
 * is not NULL. */

/* cf_gpu_lookup of `name` (*out may be NULL); on failure err names param
 * "gpu" (unknown: the accepted names). Returns cf_gpu_lookup's status. */
cf_status cf__gpu_check(const char *name, const cf_gpu_spec **out, cf_error *err);

/* CF_OK when min <= v <= max, else CF_EINVAL with err naming `param`. */
cf_status cf__int_check(const char *param, long v, long min, long max, cf_error *err);

/* The scale-out domains `nodes` nodes of `fab` form, as the collective
 * model counts them: the nodes, or for nvl72 the racks their trays fill
 * (CF_K(NVL72_DOMAIN_GPUS) GPUs each). More than one needs a network. */
int cf__scaleout_domains(const cf_fabric *fab, int nodes);

/* Whether `fab` states a network between nodes (not none, not unknown). */
int cf__has_scaleout_network(const cf_fabric *fab);

/* The refusal of `nodes` nodes on a fabric without a network between them:
 * CF_EINVAL, err->param "nodes", "nodes 16 needs a network between the
 * nodes; the fabric's network is none (for several nodes: ib, ...)", with
 * the NVLink domains for nvl72. The collective model's and the step
 * model's, each with its own node count. err may be NULL. */
cf_status cf__no_network(const cf_fabric *fab, int nodes, cf_error *err);

/* FLOPs of one sequence of `seq` tokens (batch 1) through the whole model,
 * not divided by any parallelism. Sources in model/flops.c. */
typedef struct cf__llm_flops {
    double layer_gemm_fwd;  /* all GEMMs of one layer, forward */
    double layer_attn_fwd;  /* attention scores and values, 4*s^2*h */
    double logits_fwd;      /* 2*s*h*V */
    double moe_layer_gemm_fwd;  /* all GEMMs of one MoE layer (active weights), forward */
    double model;           /* 3*(l*(gemm+attn) + logits): model FLOPs */
    double recompute_full;  /* model + l*(gemm+attn): with full recompute */
    double recompute_sel;   /* model + l*attn: with selective recompute */
} cf__llm_flops;

/* Fills *out for shape `s`. Pure. */
void cf__llm_flops_compute(const cf_llm_shape *s, cf__llm_flops *out);

/* Model FLOPs per sequence as Megatron counts them with a given recompute
 * (full adds one forward of the layers; others count none). */
double cf__llm_flops_counted(const cf__llm_flops *f, cf_recompute r);

/* Parameters of one transformer layer (weights, no biases: attention q,o
 * h*h; k,v h*kv_dim; FFN 2 or 3 matrices of h*f; two norms 2h). */
double cf__llm_layer_params(const cf_llm_shape *s);
/* Parameters of the whole model: layers + input embedding + output layer
 * (untied, as Llama; GPT's tied embedding is still stored on the first and
 * last pipeline stages, so memory counts both). */
double cf__llm_params(const cf_llm_shape *s);
/* Number of GEMM matrices in the FFN: 3 for SwiGLU (llama), 2 for GELU. */
int cf__ffn_mats(cf_model_family f);

/* Memory per GPU, bytes, of an LLM layout (the most loaded pipeline stage).
 * `parts` (may be NULL) gets weights+grads+optimizer, activations, other. */
typedef struct cf__mem_parts {
    double states_bytes;        /* weights + gradients + optimizer states, bytes */
    double activation_bytes;    /* activations kept for the backward pass, bytes */
    double reserve_bytes;       /* runtime reserve (CUDA context, NCCL buffers, allocator), bytes */
} cf__mem_parts;
double cf__llm_memory_bytes(const cf_workload *w, const cf_layout *lay, cf__mem_parts *parts);

/* Bytes per gradient value: CF_K(BYTES_GRAD_FP32) when the workload reduces
 * its gradients in fp32, else CF_K(BYTES_GRAD). Memory and step both. */
double cf__grad_bytes(const cf_workload *w);

/* Memory per GPU, bytes, of the other kinds with `gpus` GPUs in total. */
double cf__other_memory_bytes(const cf_workload *w, long gpus);

/* Memory per GPU, GiB, of any kind on a layout that uses tp*pp*dp*cp GPUs:
 * the figure cf_step_predict reports and the plan's search checks first. */
double cf__memory_gib(const cf_workload *w, const cf_layout *lay);

/* Usable bytes of one GPU of model `gpu` (vendor GB x CF_K(GPU_GB_BYTES));
 * 0 if the GPU is unknown. */
double cf__gpu_usable_bytes(const char *gpu);

/* Micro-batches per step per pipeline: ceil(global_batch / (dp*mb)), >= 1. */
long cf__micro_batches(const cf_workload *w, const cf_layout *lay);

/* The share (0..1) of a pipeline stage's layers that full recompute
 * recomputes: 1 for recompute full with recompute_layers 0, else
 * min(1, recompute_layers x vp / layers per stage) (Megatron's block method
 * takes the first recompute_layers of each of the vp chunks); 0 unless
 * recompute is full; 1 for an MoE model (its partial recompute is not
 * modelled: every layer counted). */
double cf__recompute_frac(const cf_workload *w, const cf_layout *lay);

/* Activation bytes one dense layer of one micro-batch saves when it trains
 * in FP8 and is not recomputed (Transformer Engine keeps the FP8 copy of
 * each FP8 GEMM's input for the weight gradient, not the bf16 one): the
 * QKV and fc1 inputs (h wide) and fc2's input (ffn_hidden wide) at
 * CF_K(FP8_ACT_INPUT_BYTES) instead of 2 bytes a value; 0 in bf16. */
double cf__fp8_dense_act_saving(const cf_workload *w, const cf_layout *lay);

/* The per-layer parameter counts of a shape that the stage's figures read
 * (cf__llm_layer_params, cf__moe_layer_dense_params and _expert_params, 0
 * for a dense shape; one MTP module's projection), computed once (moe.c). */
typedef struct cf__shape_params {
    double layer;           /* cf__llm_layer_params */
    double moe_dense;       /* cf__moe_layer_dense_params (MoE), else 0 */
    double moe_expert;      /* cf__moe_layer_expert_params (MoE), else 0 */
    double mtp_extra;       /* an MTP module's parameters beyond its MoE layer */
} cf__shape_params;

/* Pipeline depths whose stage layer mix cf__mem_shape keeps (the plan's
 * search goes to 64). */
#define CF__MIX_PP_MAX 64

/* What an LLM layout's memory (and step) reads of its workload alone
 * (gpumem.c), computed once: the same values as computed in place. */
typedef struct cf__mem_shape {
    cf__shape_params sp;    /* the shape's per-layer parameter counts */
    int moe;                /* an MoE shape */
    double h, seq, vocab;   /* hidden, seq, vocab as doubles */
    double vocab_h;         /* vocab x hidden */
    double logits_units;    /* (1 + MTP heads) x 6 x seq: the logits' bytes before / cp x mb x
                             * vocab / tp */
    double u0;              /* a layer's activation units without its FFN's */
    double ffn_dense;       /* a dense FFN's units */
    double moe_a, moe_b, moe_c, moe_d;  /* an MoE FFN's units: a + b (c etp + d) */
    int mix_ok;             /* 1: mix_nd, mix_nm hold the table (cf__mem_shape_mix) */
    double mix_nd[2][CF__MIX_PP_MAX + 1];   /* cf__stage_mix's dense layers by [last][pp] */
    double mix_nm[2][CF__MIX_PP_MAX + 1];   /* and its MoE layers */
} cf__mem_shape;

/* Fills *ms from w (an LLM), without the layer-mix table. */
void cf__mem_shape_init(const cf_workload *w, cf__mem_shape *ms);
/* Fills the layer-mix table of ms (pp 1..CF__MIX_PP_MAX): for a memo. */
void cf__mem_shape_mix(cf__mem_shape *ms, const cf_llm_shape *s);
/* cf__stage_mix(&w->llm, pp, last) from ms (ms NULL or pp beyond its
 * table: computed). */
void cf__stage_mix_ms(const cf__mem_shape *ms, const cf_llm_shape *s, int pp, int last, double *nd,
                      double *nm);
/* cf__llm_memory_bytes with ms = cf__mem_shape_init(w) given. */
double cf__llm_memory_bytes_ms(const cf_workload *w, const cf__mem_shape *ms, const cf_layout *lay,
                               cf__mem_parts *parts);
/* The least recompute (0..2) at which lay fits limit_gib (cf__memory_gib
 * <= limit) at one of the ZeRO stages zeros[0..nz), tried in that order;
 * 3 when none does. lay's own zero and recompute are not read. */
int cf__llm_least_recompute(const cf_workload *w, const cf__mem_shape *ms, const cf_layout *lay,
                            const int *zeros, int nz, double limit_gib);

/* ------------------------------ the search's step memo (model/stepmemo.c)
 * What one search keeps between step predictions on one fabric and one
 * workload shape (the batch may change): the collective model's answers,
 * the per-layer parts of an LLM step (model/step.c), the fabric's GPU, the
 * compute efficiency per ZeRO stage and the shape's FLOPs. The step model
 * looks each up before computing it and keeps what it computes; a kept
 * value is exactly what it would compute (the same function of the same
 * inputs). Direct-mapped tables: a question whose slot holds another is
 * computed again and takes the slot. */
#define CF__COLL_MEMO_SLOTS 4096    /* a power of two */
#define CF__LAYER_MEMO_SLOTS 1024   /* a power of two */

/* One collective question and its answer. */
typedef struct cf__coll_memo_slot {
    uint64_t bytes;         /* message size as the collective model takes it */
    int op;                 /* cf_collective + 1; 0 = an empty slot */
    int nodes, rpn;         /* the communicator: nodes, ranks per node */
    double time_s;          /* the model's time (auto algorithm), seconds */
} cf__coll_memo_slot;

/* What the per-layer part of an LLM step reads of the layout and of its
 * dimensions besides the workload shape and the fabric (model/step.c). */
typedef struct cf__layer_key {
    int tp, cp, micro_batch, ep, etp;   /* the layout's degrees, as given */
    int recompute;          /* cf_recompute */
    int sp, tp_overlap;     /* sequence parallel in effect; TP overlapped with GEMMs */
    double rc_frac;         /* share of the layers full recompute repeats */
    double peak, peak_attn; /* FLOP/s of the GEMMs and the attention core (the
                             * compute efficiency of the ZeRO stage's class in them) */
} cf__layer_key;

/* The per-layer part of an LLM step for one micro-batch (model/step.c):
 * compute of a dense-FFN layer and of an MoE layer, their TP, CP and EP
 * communication and the output layer, seconds. */
typedef struct cf__layer_parts {
    double d_gemm, d_attn, d_fwd, d_bwd;    /* dense-FFN layer: forward GEMMs, attention
                                             * core, forward, backward with recompute */
    double m_gemm, m_attn, m_fwd, m_bwd;    /* MoE layer, the same (= dense when dense) */
    double tp_d, tp_m;      /* TP communication of a dense / MoE layer */
    double cp;              /* CP communication of a layer */
    double ep;              /* EP (and ETP) communication of an MoE layer */
    double logits;          /* output layer, forward and backward */
} cf__layer_parts;

/* One kept per-layer part. */
typedef struct cf__layer_memo_slot {
    int used;               /* 0 = an empty slot */
    cf__layer_key key;      /* its question */
    cf__layer_parts parts;  /* its answer */
} cf__layer_memo_slot;

/* The memo of one search. */
typedef struct cf__step_memo {
    const cf_fabric *fab;   /* the fabric every value was computed on (borrowed) */
    const cf_gpu_spec *gpu; /* fab's GPU once a step has looked it up; NULL = not yet */
    int bound;              /* 1: bound to a workload shape (llm, precision, framework) */
    cf_llm_shape llm;       /* that shape (copied) */
    cf_precision precision; /* its precision */
    cf_framework framework; /* its framework */
    double eff[CF_MAX_ZERO_STAGE + 1];  /* cf__compute_eff per ZeRO stage; NAN = not yet */
    int flops_ok;           /* 1: flops holds the shape's FLOPs */
    cf__llm_flops flops;    /* cf__llm_flops_compute of the shape */
    cf__mem_shape ms;       /* cf__mem_shape_init of the workload (an LLM bound) */
    unsigned long hits, misses;             /* collective questions kept / computed */
    unsigned long layer_hits, layer_misses; /* per-layer parts kept / computed */
    cf__coll_memo_slot coll[CF__COLL_MEMO_SLOTS];       /* by a hash of the question */
    cf__layer_memo_slot layer[CF__LAYER_MEMO_SLOTS];    /* by a hash of the key */
} cf__step_memo;

/* Empties m and binds it to fab (and, w not NULL, to w's shape, precision
 * and framework), which must not change while m is used. The step model
 * uses only the collective times and the GPU of a memo whose workload
 * differs from the one it is asked about. */
void cf__step_memo_reset(cf__step_memo *m, const cf_fabric *fab, const cf_workload *w);
/* Whether m is bound to w's shape, precision and framework. */
int cf__step_memo_fits(const cf__step_memo *m, const cf_workload *w);
/* cf__memory_gib with the shape's figures from m, which the caller has
 * found bound to w (cf__step_memo_fits; NULL = none): the same value. */
double cf__memory_gib_memo(const cf_workload *w, const cf_layout *lay, const cf__step_memo *memo);
/* The kept time of a question into *time_s (1), or 0 when none is kept. */
int cf__coll_memo_get(cf__step_memo *m, int op, uint64_t bytes, int nodes, int rpn, double *time_s);
/* Keeps the model's answer to a question (replacing its slot's). */
void cf__coll_memo_put(cf__step_memo *m, int op, uint64_t bytes, int nodes, int rpn, double time_s);
/* The kept parts of a key into *out (1), or 0 when none are kept. */
int cf__layer_memo_get(cf__step_memo *m, const cf__layer_key *k, cf__layer_parts *out);
/* Keeps the parts computed for a key (replacing its slot's). */
void cf__layer_memo_put(cf__step_memo *m, const cf__layer_key *k, const cf__layer_parts *p);

/* What a search can hand the step model besides the layout (model/step.c):
 * neither changes the prediction, both spare work. */
typedef struct cf__step_aid {
    cf__step_memo *memo;    /* the search's memo (stepmemo.c); NULL, or bound to
                             * another fabric = none */
    double memory_gib;      /* cf__memory_gib(w, lay) when the caller has it; NAN =
                             * computed */
    int bound;              /* 1: an LLM's out->step_time_s is only a lower bound
                             * (the rest of out zero): of the step time of the layout
                             * at every ZeRO stage 0..lay->zero with its recompute or
                             * more (recompute_layers 0); the search's pruning */
    double *bound2;         /* with bound, not NULL: gets the same bound for the layout
                             * at vp 2 (pp > 1, recompute_layers 0; else NAN) */
    int fits;               /* 1: the caller has found memo bound to w's shape
                             * (cf__step_memo_fits); 0: the step checks */
} cf__step_aid;

/* cf_step_predict with the aid (NULL = none): the same result (or, with
 * aid->bound, the bound). */
cf_status cf__step_predict_aided(const cf_workload *w, const cf_fabric *fab, int nodes,
                                 const cf_layout *lay, cf_step_result *out, cf_error *err,
                                 const cf__step_aid *aid);

/* cf_collective_explain with the fabric's GPU already looked up (gpu NULL:
 * looked up as cf_collective_explain does): the same result. */
cf_status cf__collective_explain_gpu(const cf_fabric *fab, const cf_gpu_spec *gpu,
                                     const cf_coll_query *q, cf_coll_result *out,
                                     cf_coll_detail *detail, cf_error *err);

/* Predicts one training validation row's metric (model/validate_training.c):
 * recompute unknown = the cheapest that fits in memory for the step time
 * (none, selective, full of the first n layers of each chunk, full), FLOPs
 * counted as none; tflops_per_gpu counts recompute only when full. *used =
 * the layout the step was timed with (its recompute, recompute_layers, ep);
 * a refusal of the step model's is told in err (NULL = not wanted). */
cf_status cf__validate_training_row(const cf_workload *w, const cf_fabric *fab, int nodes,
                                    const cf_layout *lay, cf_metric metric, double *predicted,
                                    cf_layout *used, cf_error *err);

/* --------------------------------- MoE and attention shapes (model/moe.c)
 * docs/model-step.md "Mixture of Experts". A dense shape (moe.experts 0,
 * no MLA, head_dim 0) gives the dense model's figures. */

int cf__llm_is_moe(const cf_llm_shape *s);          /* moe.experts > 0 */
int cf__llm_is_mla(const cf_llm_shape *s);          /* mla.kv_lora_rank > 0 */
double cf__llm_head_dim(const cf_llm_shape *s);     /* head_dim, else hidden/heads */
double cf__llm_q_dim(const cf_llm_shape *s);        /* heads x head_dim */
double cf__llm_kv_dim(const cf_llm_shape *s);       /* kv_heads x head_dim */
double cf__llm_qk_head_dim(const cf_llm_shape *s);  /* head_dim (+ rope for MLA) */
/* Weights of one layer's attention projections (q, k, v, o; MLA's). */
double cf__llm_attn_params(const cf_llm_shape *s);
double cf__moe_expert_params(const cf_llm_shape *s);        /* one expert's FFN */
long cf__moe_layers(const cf_llm_shape *s);                 /* layers - dense_layers; 0 dense */
/* An MoE layer's weights outside the routed experts (attention, norms,
 * router, shared experts: split by TP), and its routed experts' (split
 * over EP x ETP). */
double cf__moe_layer_dense_params(const cf_llm_shape *s);
double cf__moe_layer_expert_params(const cf_llm_shape *s);
/* Parameters of the whole model (without MTP): total, and active per token. */
double cf__llm_params_total(const cf_llm_shape *s);
double cf__llm_params_active(const cf_llm_shape *s);
/* Forward FLOPs per token of an MoE layer's GEMMs (active weights), and of
 * one MTP module's projection. */
double cf__moe_layer_gemm_flops(const cf_llm_shape *s);
double cf__mtp_gemm_flops(const cf_llm_shape *s);
/* The most loaded EP rank's routed tokens / the mean: CF_K(MOE_LOAD_IMBALANCE),
 * at most the capacity factor. */
double cf__moe_load_factor(const cf_llm_shape *s);
/* Bytes one GPU sends in one dispatch (or combine) all-to-all for `tokens`
 * tokens: tokens x top_k x hidden x bytes_per_value; 0 for a dense model. */
double cf__moe_a2a_bytes(const cf_llm_shape *s, double tokens, double bytes_per_value);
/* Layers of a pipeline stage of `pp` (last = the last stage; pp 1 = the
 * whole model): dense-FFN layers and MoE layers (MTP modules included). */
void cf__stage_mix(const cf_llm_shape *s, int pp, int last, double *dense, double *moe);
/* Parameters one GPU holds of a stage: *dense (split by TP, ZeRO-sharded
 * over dp x cp; embeddings on the first/last stage) and *expert (split
 * over ep x etp, ZeRO-sharded over the expert-data-parallel ranks). */
void cf__stage_params(const cf_llm_shape *s, const cf_layout *lay, int first, int last,
                      double *dense, double *expert);
void cf__shape_params_of(const cf_llm_shape *s, cf__shape_params *p);
/* cf__stage_params with the shape's counts given (the same figures), and
 * with the stage's layer mix given too (cf__stage_mix of lay->pp, last). */
void cf__stage_params_of(const cf_llm_shape *s, const cf__shape_params *sp, const cf_layout *lay,
                         int first, int last, double *dense, double *expert);
void cf__stage_params_mix(const cf_llm_shape *s, const cf__shape_params *sp, const cf_layout *lay,
                          int first, int last, double nd, double nm, double *dense, double *expert);
/* Shape checks of shape.moe (top_k <= experts, a MoE layer left): CF_EPARSE
 * naming the key and the numbers, err->file = origin. */
cf_status cf__moe_check(const cf_llm_shape *s, const char *origin, cf_error *err);
/* Layout checks of ep and etp against the shape: CF_EINVAL, param ep or etp. */
cf_status cf__moe_layout_check(const cf_llm_shape *s, const cf_layout *lay, cf_error *err);
/* ------------------------------------------------ MPI (model/mpi.c)
 * The MPI costs of MPI workloads (the stencil): OSU-style latency per
 * transport, the collective model's bandwidth. */

/* The MPI library's small-message latency, us: across nodes (inter_node 1)
 * per fabric family, inside a node (CUDA IPC) otherwise. */
double cf__mpi_latency_us(const cf_fabric *fab, int inter_node);

/* One MPI point-to-point message of `bytes` between two GPUs of one node
 * (inter_node 0) or of two nodes: latency + bytes / the sendrecv limit of
 * the collective model. *out in seconds; the collective model's refusals
 * (err may be NULL). */
cf_status cf__mpi_p2p_s(const cf_fabric *fab, int inter_node, double bytes, double *out,
                        cf_error *err);

/* A short MPI_Allreduce (a residual, 8 bytes) over nodes x ranks_per_node
 * ranks: recursive doubling, one latency per step; seconds. */
double cf__mpi_allreduce_small_s(const cf_fabric *fab, int nodes, int ranks_per_node);

/* ------------------------------------------- layouts (model/layouts.c)
 *
 * The one enumeration of DESIGN §4.5's TP × CP × PP × DP space, used by
 * `fit` (model/fit.c) and the plan's search (plan/search.c):
 *   cf__layout_iter it;  cf_layout lay;
 *   cf__layout_iter_init(&it, w, gpus, cf__layout_domain(gpn, link));
 *   while (cf__layout_iter_next(&it, &lay)) ... lay.tp, lay.cp, lay.pp, lay.dp ...
 * The rules are in layouts.c's header. */

/* Where the iteration stands; read-only to callers. */
typedef struct cf__layout_iter {
    long gpus;          /* GPUs of the cluster (nodes × GPUs per node) */
    int domain;         /* tp divides this; 0 = no layouts (not an LLM, no GPUs) */
    long heads;         /* attention heads: tp divides them */
    long seq;           /* tokens per sequence: the context-parallel rule */
    long batch;         /* global batch, sequences: dp is at most this */
    long pp_max;        /* min(PP_MAX, layers) */
    int tp;             /* current tensor-parallel degree, 1..domain */
    int ci;             /* current index into the cp values {1, 2, 4, 8} */
    long pp;            /* current pipeline degree; 0 before the first */
    long experts;       /* routed experts of an MoE workload: ep divides them; 0 = dense */
    int ep;             /* current expert-parallel degree; 0 before the first of a split */
    long expert_ffn;    /* an expert's ffn_hidden: etp divides it */
    int etp;            /* current expert-tensor-parallel degree: 1, then tp */
} cf__layout_iter;

/* The NVLink domain tp may span: the GPUs of a node, or 72 on an NVL72
 * rack. */
int cf__layout_domain(int gpus_per_node, cf_intra_link link);

/* Starts an iteration over the layouts of `gpus` GPUs for workload `w`
 * (borrowed only during the call: the fields it needs are copied). Non-LLM
 * workloads have no layouts here (they run one rank per GPU). */
void cf__layout_iter_init(cf__layout_iter *it, const cf_workload *w, long gpus, int domain);

/* The next layout: writes tp, cp, pp, dp, ep and etp into *lay (its
 * other fields are left as they are) and returns 1; returns 0 when there
 * are no more. Order: tp, then cp, then pp, then ep, each increasing, then
 * etp 1 before etp = tp. Allocation-free. */
int cf__layout_iter_next(cf__layout_iter *it, cf_layout *lay);

/* --------------------------------------------------------- validation
 * Helpers shared by the validation readers (model/validate.c for
 * collectives, model/validate_training.c for training).
 *
 * How a reader is written (model/validate.c's collectives_table is the
 * example): a kind is one cf__validate_fill over the parsed table, and its
 * entry points hand it to cf__validate_run, which reads the table, frees it
 * and empties *out on failure:
 *   static cf_status fill(const cf__csv_table *t, const char *path, cf_validation *v, cf_error *err)
 *   int c_id = cf__csv_col(t, "id");            (-1 when the column is absent)
 *   st = cf__validate_require(t, path, "id", err);   (CF_EPARSE at line 1 if absent)
 *   for each row r: const char *s = cf__csv_cell(t, r, c_id); ...
 *     numbers: cf__validate_num(t, path, r, col, "header", &x, &blank, err)
 *       (CF_EPARSE at FILE:LINE:COLUMN naming the header if not a number)
 *     a row the model cannot predict: cf__validation_skip(v, id, "reason")
 *     a predicted row: cf__validation_add(v, id, metric, predicted, measured, multi_node, note, source)
 *   return cf__validation_finish(v, by_node_count);   (computes the medians)
 *   on error: return the status (cf__validate_run clears *v).
 * All strings passed in are copied. */
cf_status cf__validation_add(cf_validation *v, const char *id, const char *metric,
                             double predicted, double measured, int multi_node,
                             const char *note, const char *source);
/* The document part of a `source` cell (validate.c): the text before " (",
 * GitHub "/blob/COMMIT/" with the commit as a star, an arXiv id without its
 * table or section. Rows with one key are one source for --cv source. */
void cf__validation_source_key(const char *src, char *out, size_t n);
/* cf_refit, reusing the values `reuse` (fitspec.def order: the fit on
 * every row) for each group whose constants `exclude` holds no row of,
 * while no earlier group moved: what one fold of --cv source refits is
 * then only what the source can change (model/crossval.c). */
cf_status cf__refit_reusing(const cf_validation_set *set, const char *exclude, const double *reuse,
                            cf_refit_result *out, cf_error *err);
cf_status cf__validation_skip(cf_validation *v, const char *id, const char *reason);

/* Median of n values (NAN if n == 0); sorts `vals` in place. The medians
 * of cf__validation_finish; tests call it directly. */
double cf__median(double *vals, size_t n);

/* The factor on the GEMM and attention rate of an LLM step for GPU g and
 * framework class fw (CF_FW_DEFAULT resolved by the layout's ZeRO stage,
 * cf_framework_resolve): the EFF_* constant of its (class, generation) cell
 * (model/efficiency.c). */
double cf__compute_eff(const cf_gpu_spec *g, cf_framework fw, int zero);

/* 1 when published training rows stand behind the factor of GPU `gpu` for
 * framework fw with ZeRO stage zero (resolved as cf__compute_eff does):
 * Ampere and Hopper, both classes; Blackwell, Megatron class. 0 when the
 * factor is a neighbour's (AMD, older NVIDIA parts, FSDP on Blackwell):
 * plan flags it. */
int cf__compute_eff_validated(const char *gpu, cf_framework fw, int zero);
/* The generation a GPU name belongs to (model/efficiency.c): "ampere",
 * "hopper", "blackwell", "cdna2", "cdna3", "cdna4" or "other"; static. */
const char *cf__gpu_generation(const char *gpu);

/* Computes the medians; by_node_count = 1 for collectives. CF_ENOMEM. */
cf_status cf__validation_finish(cf_validation *v, int by_node_count);

/* CF_EPARSE (line 1, column past the header) when column `name` is absent. */
cf_status cf__validate_require(const cf__csv_table *t, const char *path, const char *name,
                               cf_error *err);

/* Parses the cell (row, col) as a finite number. *blank = 1 and CF_OK for an
 * empty cell (or an absent column); CF_EPARSE with FILE:LINE:COLUMN naming
 * `header` otherwise. */
cf_status cf__validate_num(const cf__csv_table *t, const char *path, size_t row, int col,
                           const char *header, double *out, int *blank, cf_error *err);

/* One kind of validation: fills *out (empty on entry) from the rows of the
 * parsed table `t` (borrowed; `path` names it in errors). On failure it
 * returns the status and may leave *out half-built: cf__validate_run
 * clears it. */
typedef cf_status (*cf__validate_fill)(const cf__csv_table *t, const char *path,
                                       cf_validation *out, cf_error *err);

/* The entry point of every kind (model/validate.c): empties *out without
 * reading it, reads the table — the file at `path` when data is NULL, else
 * the `len` bytes at data named `path` in errors (CF_ELIMIT over
 * CF_MAX_VALIDATION_BYTES) — runs `fill` over it and frees it. Errors: the
 * reader's (CF_EIO, CF_ELIMIT, CF_EPARSE, CF_ENOMEM) or fill's, with *out
 * empty. On success the caller frees *out with cf_validation_clear(). */
cf_status cf__validate_run(cf__validate_fill fill, const char *path, const char *data, size_t len,
                          cf_validation *out, cf_error *err);

/* The two readers on CSV text already in memory (`len` bytes, `name` in
 * errors) rather than a file: same contract as cf_validate_collectives and
 * cf_validate_training, CF_ELIMIT over CF_MAX_VALIDATION_BYTES. The fuzz
 * harness (tests/fuzz/fuzz_validate.c) parses through these. */
cf_status cf__validate_collectives_text(const char *name, const char *data, size_t len,
                                        cf_validation *out, cf_error *err);
cf_status cf__validate_training_text(const char *name, const char *data, size_t len,
                                     cf_validation *out, cf_error *err);

#endif
