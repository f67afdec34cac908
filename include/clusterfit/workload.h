/* workload.h — what a user wants to run (DESIGN.md §4.3, §6 --workload):
 * a preset name from data/workloads/ (embedded at build time) or a JSON file
 * with the same keys. */
#ifndef CLUSTERFIT_WORKLOAD_H
#define CLUSTERFIT_WORKLOAD_H

#include <jansson.h>
#include "status.h"
#include "limits.h"
#include "vocab.h"

typedef enum cf_workload_kind {
    CF_WL_LLM = 0,          /* transformer training: TP/PP/DP/CP, ZeRO */
    CF_WL_DATA_PARALLEL,    /* DDP training of a model that fits one GPU */
    CF_WL_STENCIL,          /* MPI halo exchange + scalar all_reduce per iteration */
    CF_WL_EMBARRASSING,     /* independent tasks: no communication */
    CF_WL_SERVE,            /* inference serving of an llm shape (serve.h, docs/model-serve.md) */
    CF_WL__COUNT
} cf_workload_kind;

/* A Mixture-of-Experts FFN (shape.moe, docs/workloads.md): experts = 0 is
 * a dense model, every other field then 0. */
typedef struct cf_moe_shape {
    long experts;           /* routed experts per MoE layer; 0 = dense */
    long top_k;             /* routed experts each token goes to, 1..experts */
    long ffn_hidden;        /* FFN hidden size of one expert (routed and shared) */
    long shared_experts;    /* experts every token goes through (DeepSeek: 1); 0 = none */
    long dense_layers;      /* first layers with a dense FFN of shape.ffn_hidden */
    double capacity_factor; /* token-drop capacity (x mean load); 0 = dropless */
} cf_moe_shape;

/* Multi-head latent attention (DeepSeek-V2/V3, shape.mla): low-rank query
 * and key/value projections; 0 everywhere = ordinary (grouped-query)
 * attention. head_dim is then the non-rotary query/key and the value head
 * width (qk_nope_head_dim = v_head_dim = 128 in DeepSeek-V3). */
typedef struct cf_mla_shape {
    long q_lora_rank;       /* rank of the query projection; 0 = a full h x q projection */
    long kv_lora_rank;      /* rank of the compressed key/value; 0 = not MLA */
    long rope_head_dim;     /* decoupled rotary key/query width per head */
} cf_mla_shape;
/* The framework class of an LLM training run: what its compute efficiency
 * is calibrated on (docs/model-step.md, "Compute efficiency by framework
 * and GPU"). */
typedef enum cf_framework {
    CF_FW_DEFAULT = 0,      /* not stated: fsdp for a ZeRO-3 layout, else megatron */
    CF_FW_MEGATRON,         /* Megatron-LM, NeMo, Megatron-Bridge, Megatron-DeepSpeed-style */
    CF_FW_FSDP,             /* PyTorch FSDP/FSDP2, torchtitan, llm-foundry, DeepSpeed ZeRO-3 */
    CF_FW__COUNT
} cf_framework;

typedef struct cf_llm_shape {
    cf_model_family family;
    long layers, hidden, ffn_hidden, heads, kv_heads, seq, vocab;
    double params_b;        /* stated parameter count in billions; NAN = derive */
    long head_dim;          /* attention head width; 0 = hidden / heads */
    cf_moe_shape moe;       /* experts 0 = dense FFN in every layer */
    cf_mla_shape mla;       /* kv_lora_rank 0 = no latent attention */
    long mtp_layers;        /* multi-token-prediction modules (DeepSeek-V3: 1), each
                             * one more MoE block and output head; 0 = none */
} cf_llm_shape;

/* A serving workload's request shape, latency targets, precision and
 * traffic (kind serve; the "request", "targets", "traffic" and "precision"
 * keys, docs/model-serve.md). */
typedef struct cf_serve_spec {
    long input_tokens;      /* prompt tokens per request, >= 1 */
    long output_tokens;     /* generated tokens per request, >= 1 */
    double ttft_s;          /* time-to-first-token target, s; NAN = none */
    double tpot_ms;         /* time-per-output-token (ITL) target, ms; NAN = none */
    double percentile;      /* the percentile the targets are stated at; NAN = not stated */
    double rate_rps;        /* offered requests/s; 0 = "max" (as much as the cluster takes) */
    int weight_bits;        /* weights and GEMM inputs: 16 (bf16), 8 (fp8) or 4 (fp4) */
    int kv_bits;            /* KV-cache values: 16 (bf16, default) or 8 (fp8) */
    double ep_imbalance;    /* EP: the most loaded GPU's routed tokens over the mean, >= 1;
                               0 = the model's SERVE_EP_IMBALANCE (a validation row that
                               states balanced routing sets 1) */
} cf_serve_spec;

typedef struct cf_workload {
    char name[CF_WORKLOAD_NAME_MAX];   /* the "name" key, or the file's base name */
    cf_workload_kind kind;
    cf_precision precision;     /* llm, data-parallel; others keep bf16 (the
                                 * stencil model computes in fp32) */
    int grad_fp32;          /* gradients reduced in fp32 (doubles DP bytes) */
    double optimizer_bytes_per_param;   /* Adam 12 (fp32 master, m, v), SGD 8 */
    int zero_hint;          /* preferred ZeRO stage (fine-tuning with FSDP: 3); -1 = none */
    /* CF_WL_LLM */
    cf_llm_shape llm;
    long global_batch_seqs;
    double train_tokens;    /* tokens to train on */
    /* CF_WL_DATA_PARALLEL */
    double dp_params;       /* parameters */
    double dp_flops_per_sample;         /* forward + backward */
    double dp_activation_bytes_per_sample;
    long dp_global_batch;
    double dp_samples;      /* samples to train on */
    /* CF_WL_STENCIL */
    double st_cells;        /* grid cells in total */
    double st_flops_per_cell;   /* per iteration */
    double st_bytes_per_cell;   /* HBM bytes moved per cell per iteration */
    double st_state_bytes_per_cell;     /* memory held per cell */
    double st_halo_bytes_per_neighbour_per_gpu; /* at the reference decomposition */
    long st_ref_gpus;           /* GPU count of that reference decomposition */
    int st_decomposed_dims;     /* 1 (slabs/strips), 2 or 3: halo ~ gpus^-(d-1)/d */
    int st_neighbours;          /* 2 x decomposed dims */
    double st_iterations;
    /* CF_WL_EMBARRASSING */
    double ep_tasks, ep_task_gpu_s, ep_startup_s;
    double ep_straggler_frac;   /* coefficient of variation of a task's time */
    double ep_memory_gib;       /* memory one task needs on its GPU */
    /* CF_WL_LLM: realistic plans (issue 10) */
    long global_batch_max_seqs; /* largest global batch the plan may grow to,
                                 * sequences (>= global_batch_seqs; the "batch_max"
                                 * key, default = batch) */
    cf_framework framework;     /* the "framework" key; CF_FW_DEFAULT = not stated */
    /* Goodput (issue 24, docs/goodput.md), every kind */
    double mtbf_gpu_h;          /* "mtbf_gpu_h": GPU-hours between unexpected
                                 * interruptions; 0 = not stated (the published rate) */
    int ckpt_async;             /* "ckpt_async": 1 = asynchronous checkpoints */
    double input_bytes_per_sample;  /* shape.input_bytes_per_sample (data-parallel):
                                 * bytes read from storage per sample; 0 = not stated */
    /* CF_WL_SERVE: llm holds the model's shape (no batch, no tokens) */
    cf_serve_spec serve;
} cf_workload;

/* The defaults every loader starts from.
 * - output: kind llm, bf16, Adam (12 bytes of optimizer state per
 *   parameter), no ZeRO hint (-1), params_b NAN (derive from the shape),
 *   a stencil reference decomposition of 1 GPU in 1 dimension with 2
 *   neighbours; every other field 0
 * - ownership: fills the caller's struct (not NULL) */
CF_API void cf_workload_init(cf_workload *w);

/* Loads a workload by preset name or from a JSON file.
 * - inputs: name_or_path: a preset (data/workloads/NAME.json, embedded at
 *   build time) when a name without '/' names one, else the path of a JSON
 *   file of at most CF_MAX_WORKLOAD_BYTES (keys: docs/workloads.md)
 * - output: *out, set only on success; name from the "name" key, else a
 *   file's base name
 * - errors: CF_EPARSE with err naming the file (and FILE:LINE:COLUMN for
 *   bad JSON) and the field: bad JSON, a bad field, a key not accepted at
 *   its level for the workload's kind (named, with the accepted keys), or a
 *   stated shape.params_b more than 25 % away from the shape's parameter
 *   count; CF_ENOTFOUND when a bare name (no '/', no .json ending) is
 *   neither a preset nor a readable file, err listing the presets; CF_EINVAL
 *   for a NULL or empty name; CF_EIO (a file that cannot be opened or read:
 *   missing, a directory), CF_ELIMIT (over CF_MAX_WORKLOAD_BYTES) and
 *   CF_ENOMEM reading the file
 * - ownership: err->file points into name_or_path (borrowed) */
CF_API cf_status cf_workload_load(const char *name_or_path, cf_workload *out, cf_error *err);

/* A workload from a JSON value (API bodies).
 * - inputs: j, an object with the keys of a workload file; origin names it
 *   in errors (NULL = "workload")
 * - output: *out, set only on success
 * - errors: CF_EPARSE as cf_workload_load (not an object, a bad field, a key
 *   not accepted, params_b off the shape)
 * - ownership: j is borrowed for the call; err->file points to origin */
CF_API cf_status cf_workload_from_json(const json_t *j, const char *origin,
                                       cf_workload *out, cf_error *err);

/* The framework class named `s` ("megatron" or "fsdp", case-insensitive).
 * - output: *out, set only on success
 * - errors: CF_EINVAL for NULL or another name (nothing is set in an error:
 *   the caller names the field)
 * - source: docs/workloads.md (`framework`) */
CF_API cf_status cf_framework_parse(const char *s, cf_framework *out);

/* "megatron", "fsdp", or "default" for CF_FW_DEFAULT; static storage. */
CF_API const char *cf_framework_name(cf_framework f);

/* The class a run of framework `f` with ZeRO stage `zero` is computed as:
 * `f` itself when stated, else CF_FW_FSDP for ZeRO-3 and CF_FW_MEGATRON
 * otherwise (docs/workloads.md). Never CF_FW_DEFAULT. */
CF_API cf_framework cf_framework_resolve(cf_framework f, int zero);

/* The preset names, for messages.
 * - output: the NAMEs of data/workloads/NAME.json, ", "-joined
 * - ownership: static storage */
CF_API const char *cf_workload_presets(void);

#endif
