/* step_internal.h — what flops.c, memory.c, step.c, fit.c and
 * validate_training.c share inside libclusterfit: FLOPs from layer shapes and
 * the memory model. Not installed; symbols are cf__-prefixed and hidden. */
#ifndef CLUSTERFIT_STEP_INTERNAL_H
#define CLUSTERFIT_STEP_INTERNAL_H

#include "clusterfit/step.h"
#include "clusterfit/workload.h"

/* FLOPs of one sequence of `seq` tokens (batch 1) through the whole model,
 * not divided by any parallelism. Sources in lib/flops.c. */
typedef struct cf__llm_flops {
    double layer_gemm_fwd;  /* all GEMMs of one layer, forward */
    double layer_attn_fwd;  /* attention scores and values, 4*s^2*h */
    double logits_fwd;      /* 2*s*h*V */
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
    double states_bytes, activation_bytes, reserve_bytes;
} cf__mem_parts;
double cf__llm_memory_bytes(const cf_workload *w, const cf_layout *lay, cf__mem_parts *parts);

/* Memory per GPU, bytes, of the other kinds with `gpus` GPUs in total. */
double cf__other_memory_bytes(const cf_workload *w, long gpus);

/* Usable bytes of one GPU of model `gpu` (vendor GB x CF_HBM_USABLE_FRAC);
 * 0 if the GPU is unknown. */
double cf__gpu_usable_bytes(const char *gpu);

/* Micro-batches per step per pipeline: ceil(global_batch / (dp*mb)), >= 1. */
long cf__micro_batches(const cf_workload *w, const cf_layout *lay);

/* Predicts one training validation row's metric (lib/validate_training.c):
 * recompute unknown = the cheapest that fits in memory for the step time,
 * FLOPs counted as none; tflops_per_gpu counts recompute only when full. */
cf_status cf__validate_training_row(const cf_workload *w, const cf_fabric *fab, int nodes,
                                    const cf_layout *lay, cf_metric metric, double *predicted,
                                    cf_recompute *used);

#endif
