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
    int ep;                 /* expert parallel: ranks the experts of an MoE layer are
                               split over; 1 for a dense model (0 is read as 1) */
    int etp;                /* expert tensor parallel: ranks one expert's matrices are
                               split over; etp*ep divides tp*dp*cp (Megatron-Core);
                               1 by default (0 is read as 1) */
    int recompute_layers;   /* with recompute full: layers of each pipeline chunk
                               recomputed (Megatron's recompute_num_layers, method
                               block: the chunk's first N layers); 0 = all of them */
} cf_layout;

/* The layout of one GPU.
 * - output: tp=pp=dp=cp=vp=ep=etp=1, micro-batch 1, ZeRO 0, no recompute,
 *   sequence parallel on (it takes effect when tp > 1), no TP overlap
 * - ownership: fills the caller's struct (not NULL) */
CF_API void cf_layout_init(cf_layout *l);

/* Sets one layout parameter from its text, as cf_fabric_set does for a
 * fabric: the one parser of `predict step`'s layout flags.
 * - inputs: `name` in snake_case and its value:
 *     tp, pp, cp       integer, 1..CF_MAX_LAYOUT_DEGREE
 *     ep, etp          expert (tensor) parallel, integer, 1..CF_MAX_LAYOUT_DEGREE
 *     dp               integer, 1..CF_MAX_DP
 *     vp               integer, 1..CF_MAX_VP
 *     micro_batch      sequences, integer, 1..CF_MAX_MICRO_BATCH
 *     zero             ZeRO stage, integer, 0..CF_MAX_ZERO_STAGE
 *     recompute        none, selective or full ("unknown" refused)
 *     sequence_parallel  yes or no (sequence_parallel)
 *     tp_overlap       yes or no (tp_comm_overlap)
 * - output: the field of *lay; unchanged on error. The layout against the
 *   workload and the GPU count (tp dividing the heads, tp*pp*dp*cp filling
 *   the nodes, ...) is cf_step_predict's check
 * - errors: CF_EINVAL with err->param = name and a message giving the bound
 *   or the accepted values ("tp expects an integer from 1 to 4096, got
 *   '5000'"; a NULL or empty value: "has no value"); an unknown name, a NULL
 *   lay or name is CF_EINVAL with param "" and the accepted names. err may
 *   be NULL
 * - ownership: `value` is read during the call only */
CF_API cf_status cf_layout_set(cf_layout *lay, const char *name, const char *value, cf_error *err);

/* The names cf_layout_set accepts: tp, pp, dp, cp, vp, micro_batch, zero,
 * recompute, sequence_parallel, tp_overlap, ep, etp (none depends on
 * another).
 * - output: a NULL-terminated list of snake_case names
 * - ownership: static storage, never to be freed or changed */
CF_API const char *const *cf_layout_param_names(void);

/* A layout in words, as `plan`, `scale`, `fit` and `predict step` show it.
 * - output: into buf, e.g. "TP4 PP2v2 CP2 DP2 with ZeRO-3 and full
 *   recompute": degrees of 1 left out except DP, "v2" for an interleaved
 *   pipeline, ZeRO 0 left out, "no recompute" stated; for data-parallel and
 *   embarrassingly parallel kinds only "DP16" (one rank per GPU); for an MPI
 *   stencil "16 ranks"
 * - ownership: writes at most cap bytes into the caller's buf, always
 *   terminated (cutting) when cap > 0; l (not NULL) is read only */
CF_API void cf_layout_words(char *buf, size_t cap, const cf_layout *l, cf_workload_kind kind);

/* Where a step's time goes, seconds per step. */
typedef struct cf_step_breakdown {
    double compute_s, tp_comm_s, pp_bubble_s, pp_comm_s, dp_comm_exposed_s, cp_comm_s;
    double ep_comm_s;       /* exposed expert-parallel all-to-all (dispatch and combine of
                               every MoE layer, forward and backward); 0 for a dense model */
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

/* Predicts one training step (stencil iteration, embarrassingly parallel
 * job) of `w` on `nodes` nodes of `fab` with layout `lay`.
 * - computes: compute time per GPU, the exposed TP, CP, PP and DP
 *   communication (each from cf_collective_predict on its communicator's
 *   real shape), the pipeline bubble, the optimizer step; the memory per GPU
 * - inputs: the workload, the fabric (as cf_collective_predict takes it),
 *   the node count, the layout (degrees, micro-batch in sequences, ZeRO
 *   stage, recompute)
 * - output: *out: step_time_s (seconds), tflops_per_gpu (TFLOP/s), mfu
 *   (0-1), tokens_per_s (work units per second), memory_per_gpu_gib (GiB),
 *   the breakdown in seconds
 * - errors, err (may be NULL) saying why with err->param naming the input:
 *   CF_EINVAL for a NULL w, fab, lay or out (param ""), nodes below 1 (nodes), gpus_per_node outside
 *   1..CF_MAX_GPUS_PER_NODE, a GPU not in the hardware table (gpu), a layout
 *   degree below 1 or a ZeRO stage outside 0..3 (tp, pp, dp, cp, vp,
 *   micro_batch, zero), tp*pp*dp*cp other than nodes*gpus_per_node (param
 *   "": the layout against the GPU count), tp not dividing the heads (tp),
 *   pp*vp over the layers (pp), vp > 1 without pp > 1 (vp), cp not dividing
 *   seq (cp), tp, pp or cp above 1 for a kind other than LLM; several
 *   nodes (NVLink domains for nvl72) on network none or unknown when a
 *   collective of the step crosses them (nodes: "nodes 16 needs a network
 *   between the nodes; ...", the step's node count), refused before any
 *   collective is asked; and any collective of the step that
 *   cf_collective_predict refuses (its reason);
 *   CF_EUNSUPPORTED when the hardware table states no peak FLOP/s or HBM
 *   bandwidth for the GPU (gpu). With err NULL a refusal formats nothing
 * - ownership: pure; no allocation, no I/O (plan calls it for every layout)
 * - source: docs/model-step.md */
CF_API cf_status cf_step_predict(const cf_workload *w, const cf_fabric *fab, int nodes,
                                 const cf_layout *lay, cf_step_result *out, cf_error *err);

/* A step prediction as JSON (DESIGN §6).
 * - output: {step_time_s, tflops_per_gpu, mfu, tokens_per_s,
 *   tokens_per_s_per_gpu, memory_per_gpu_gib, breakdown: {compute_s,
 *   tp_comm_s, pp_bubble_s, pp_comm_s, dp_comm_exposed_s, cp_comm_s,
 *   ep_comm_s}}, a
 *   value that is not finite as null
 * - errors: NULL on ENOMEM
 * - ownership: a new reference (json_decref); r (not NULL) is read only */
CF_API json_t *cf_step_result_to_json(const cf_step_result *r);

typedef struct cf_fit_result {
    int fits_one_node;      /* 1 when min_nodes is 1 */
    int min_nodes;          /* 0 if it fits nowhere up to the search limit */
    double memory_per_gpu_gib;  /* GiB, of that layout; NAN when it fits nowhere */
    cf_layout layout;       /* the layout that fits on min_nodes */
    char why[480];          /* LLMs: why that many nodes, in words (parameters, their
                               states, the memory per GPU by part); "" otherwise */
    char precision_note[256];/* the GPU computes another precision than the
                               workload's (cf_precision_note); "" otherwise */
} cf_fit_result;

/* Smallest node count on which the workload fits in GPU memory, and a
 * layout that fits there.
 * - computes: for 1, 2, ... CF_FIT_MAX_NODES nodes of `gpus_per_node` GPUs
 *   of model `gpu`, the layouts of the search space (least model
 *   parallelism, then lowest ZeRO stage, then least recompute) against the
 *   GPU's usable memory
 * - output: *out: fits_one_node, min_nodes (0 = fits nowhere up to the
 *   limit), memory_per_gpu_gib (GiB), the layout, why (LLMs: the total and,
 *   for MoE, active parameters, the bytes of their weights, gradients and
 *   optimizer states, and the layout's memory per GPU by part)
 * - errors, err (may be NULL) saying why: CF_EINVAL for a NULL argument or
 *   gpus_per_node outside 1..CF_MAX_GPUS_PER_NODE (gpus_per_node);
 *   CF_ENOTFOUND for a GPU not in the hardware table (or a table that could
 *   not be built) or one whose memory it does not state (gpu)
 * - ownership: pure; no allocation, no I/O
 * - source: the memory model of docs/model-step.md */
CF_API cf_status cf_fit(const cf_workload *w, const char *gpu, int gpus_per_node,
                        cf_fit_result *out, cf_error *err);

/* A fit as JSON (DESIGN §6).
 * - output: {fits_one_node, min_nodes, memory_per_gpu_gib, layout: {tp, ep,
 *   etp, pp, dp, cp, micro_batch, zero, recompute}, why (a string, "" when
 *   the library has no sentence), precision_note (null, or the sentence of
 *   a precision the GPU has no tensor cores for: cf_precision_note)}; memory_per_gpu_gib and layout
 *   null when it fits nowhere
 * - errors: NULL on ENOMEM
 * - ownership: a new reference (json_decref); r (not NULL) is read only */
CF_API json_t *cf_fit_result_to_json(const cf_fit_result *r);

#endif
