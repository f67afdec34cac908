/* step.h — training-step time and memory per GPU for a workload on a fabric
 * with a parallel layout (DESIGN.md §4.3); `fit` (one node or how many). */
#ifndef CLUSTERFIT_STEP_H
#define CLUSTERFIT_STEP_H

#include <jansson.h>
#include "status.h"
#include "vocab.h"
#include "workload.h"
#include "collective.h"

typedef struct cf_layout {
    int tp, pp, dp, cp, vp;
    int micro_batch;
    int zero;               /* 0..3 */
    cf_recompute recompute;
    int sequence_parallel;  /* 1 = Megatron sequence parallel with TP > 1 */
    int tp_comm_overlap;    /* 1 = TP communication overlapped with GEMMs
                               (Transformer Engine userbuffers); 0 = exposed */
} cf_layout;

/* A layout of tp=pp=dp=cp=vp=1, micro-batch 1, ZeRO 0, no recompute,
 * sequence parallel on (it takes effect when tp > 1), no TP overlap. */
CF_API void cf_layout_init(cf_layout *l);

/* A layout in words.
 * - Output: into buf (cap bytes, always terminated when cap > 0), e.g.
 *   "TP4 PP2v2 CP2 DP2 with ZeRO-3 and full recompute": degrees of 1 left
 *   out except DP, "v2" for an interleaved pipeline, ZeRO 0 left out; for
 *   kinds other than CF_WL_LLM only "DP16" (one rank per GPU).
 * - Used by: `plan`'s why line and scaling_note, `fit`, `predict step`. */
CF_API void cf_layout_words(char *buf, size_t cap, const cf_layout *l, cf_workload_kind kind);

typedef struct cf_step_breakdown {
    double compute_s, tp_comm_s, pp_bubble_s, pp_comm_s, dp_comm_exposed_s, cp_comm_s;
} cf_step_breakdown;

typedef struct cf_step_result {
    double step_time_s;
    double tflops_per_gpu;  /* model FLOPs (no recompute) per GPU per second, TFLOP/s */
    double mfu;             /* fraction 0-1 */
    double tokens_per_s, tokens_per_s_per_gpu;
    double memory_per_gpu_gib;
    double ideal_step_time_s;   /* no exposed comm, no bubble: for parallel efficiency */
    cf_step_breakdown breakdown;
} cf_step_result;

/* Predicts one step for `nodes` nodes of `fab`. Allocation-free. Returns
 * CF_EINVAL when the layout does not match the GPU count (tp*pp*dp*cp !=
 * nodes*gpus_per_node for LLMs) or the workload kind. */
CF_API cf_status cf_step_predict(const cf_workload *w, const cf_fabric *fab, int nodes,
                                 const cf_layout *lay, cf_step_result *out);

/* JSON per DESIGN §6. New reference, NULL on ENOMEM. */
CF_API json_t *cf_step_result_to_json(const cf_step_result *r);

typedef struct cf_fit_result {
    int fits_one_node;
    int min_nodes;          /* 0 if it fits nowhere up to the search limit */
    double memory_per_gpu_gib;
    cf_layout layout;       /* the layout that fits on min_nodes */
} cf_fit_result;

/* Smallest node count (of `gpus_per_node` GPUs of model `gpu`) on which the
 * workload fits in memory, with the layout. */
CF_API cf_status cf_fit(const cf_workload *w, const char *gpu, int gpus_per_node,
                        cf_fit_result *out);
CF_API json_t *cf_fit_result_to_json(const cf_fit_result *r);

#endif
