/* serve.h — the serving model (issue 25, docs/model-serve.md): what one
 * instance of a serve workload (kind serve, workload.h) does per decode
 * step and per prefill batch on a fabric, and the layouts it may run in.
 *
 * An instance is `nodes` nodes of the fabric serving one copy of the model:
 *   CF_SERVE_TP   tensor parallel inside each node (tp GPUs), pipeline
 *                 stages across its nodes (pp = nodes); an MoE model's
 *                 experts are split by TP too ("vanilla TP")
 *   CF_SERVE_EP   MoE only: data-parallel attention (each GPU its own
 *                 sequences and a copy of the attention, dense and shared
 *                 weights) and expert parallelism over every GPU of the
 *                 instance, with the dispatch/combine all-to-all of each MoE
 *                 layer and two-batch overlap (DeepSeek's and SGLang's
 *                 deployments)
 * Units: seconds, bytes, tokens; "per GPU" figures are the instance's
 * divided by its GPUs. Every function reads only its arguments and the
 * embedded tables; thread-safe. */
#ifndef CLUSTERFIT_SERVING_H
#define CLUSTERFIT_SERVING_H

#include <jansson.h>
#include "status.h"
#include "workload.h"
#include "collective.h"
#include "catalog.h"

/* The largest prefill batch searched, tokens per GPU: SGLang's prefill
 * runs chunks of 8K-16K tokens per GPU (--chunked-prefill-size) and
 * DeepSeek's prefill 16K-ish; 32K is past both, where throughput no longer
 * grows (the GEMMs are compute-bound long before). */
#define CF_SERVE_PREFILL_TOKENS_MAX 32768.0

typedef enum cf_serve_par { CF_SERVE_TP = 0, CF_SERVE_EP, CF_SERVE__COUNT } cf_serve_par;

/* One instance's layout. */
typedef struct cf_serve_layout {
    cf_serve_par par;       /* TP or EP (above) */
    int nodes;              /* nodes of the instance, >= 1 */
    int tp;                 /* TP: GPUs of a node the model is split over (the
                             * tensor-parallel degree); EP: 1 (DP attention) */
} cf_serve_layout;

/* One decode step of an instance at a batch. */
typedef struct cf_serve_decode {
    double batch;           /* sequences decoding together in the instance */
    double max_batch;       /* sequences the KV memory left after the weights holds */
    double tpot_s;          /* time per output token of each sequence, s */
    double tokens_per_s_gpu;/* output tokens/s per GPU (batch / tpot / GPUs) */
    double mem_s;           /* HBM time of a step: weights + KV-cache reads, s */
    double compute_s;       /* GEMM and attention time of a step, s */
    double comm_s;          /* TP all-reduce, PP hand-off, or EP dispatch + combine, s */
    double weight_bytes_gpu;/* weight bytes one GPU reads in a step */
    double kv_bytes_gpu;    /* KV-cache bytes one GPU reads in a step */
    double a2a_bytes_gpu;   /* bytes one GPU sends in the step's all-to-alls (EP) */
    double weights_gib_gpu; /* weights resident on one GPU, GiB */
    const char *binds;      /* what limits it: "KV memory", "HBM bandwidth",
                             * "the all-to-all", "compute", "TPOT" (static) */
} cf_serve_decode;

/* One prefill batch of an instance. */
typedef struct cf_serve_prefill {
    double tokens;          /* prompt tokens in the batch (whole prompts) */
    double batch_s;         /* time of the batch, s */
    double ttft_s;          /* time to first token: a request waits for the batch in
                             * progress, then its own, then its KV moves to decode */
    double kv_transfer_s;   /* one prompt's KV cache to the decode pool, s */
    double tokens_per_s_gpu;/* input tokens/s per GPU */
    double compute_s, comm_s;   /* parts of batch_s (before two-batch overlap), s */
    const char *binds;      /* "compute", "the all-to-all", "TTFT", "KV memory" (static) */
} cf_serve_prefill;

/* KV-cache bytes one token of the workload's model holds, all layers:
 * standard attention 2 x layers x kv_heads x head_dim x bytes; MLA
 * (kv_lora_rank + rope_head_dim) x layers x bytes (arXiv:2412.19437 §2.1.1);
 * bytes = kv_bits / 8. 0 for a workload that is not serve or llm. */
CF_API double cf_serve_kv_bytes_per_token(const cf_workload *w);

/* Bytes one GPU sends in one MoE layer's dispatch (combine = 0) or combine
 * (combine = 1) for `tokens` tokens it holds: tokens x top_k x hidden x
 * bytes, dispatch in fp8 (1 byte, DeepEP's low-latency dispatch) when the
 * weights are fp8 or fp4, else 2; combine in bf16 (2). 0 for a dense model. */
CF_API double cf_serve_a2a_bytes(const cf_workload *w, double tokens, int combine);

/* Weight bytes of the whole model at the workload's precision (MTP modules
 * not counted: not used for decoding here). */
CF_API double cf_serve_weight_bytes(const cf_workload *w);

/* Checks a layout against the workload and fabric.
 * - errors: CF_EINVAL, err->param "layout" (EP for a dense model, tp not a
 *   divisor of the heads or above the node's GPUs, nodes < 1, several nodes
 *   without a network), "gpu" (unknown GPU, or no fp8/fp4 rate for the
 *   precision), "workload" (not a serve workload) */
CF_API cf_status cf_serve_layout_check(const cf_workload *w, const cf_fabric *fab,
                                       const cf_serve_layout *lay, cf_error *err);

/* A decode step of the instance with `batch` sequences (>= 1) decoding.
 * - computes: docs/model-serve.md "Decode" (weights and KV bytes over HBM,
 *   GEMM and attention FLOPs, the layout's communication; EP with two-batch
 *   overlap); out->max_batch the KV memory's limit (0: the weights leave no
 *   room); binds from the largest part
 * - errors: cf_serve_layout_check's; the collective model's */
CF_API cf_status cf_serve_decode_at(const cf_workload *w, const cf_fabric *fab,
                                    const cf_serve_layout *lay, double batch,
                                    cf_serve_decode *out, cf_error *err);

/* The largest batch (up to max_batch) whose TPOT meets tpot_s (NAN = none:
 * max_batch), found by bisection on the step model (TPOT grows with the
 * batch). out->batch 0 when even batch 1 misses it (binds "TPOT") or no
 * sequence fits (binds "KV memory"). Errors as cf_serve_decode_at. */
CF_API cf_status cf_serve_decode_best(const cf_workload *w, const cf_fabric *fab,
                                      const cf_serve_layout *lay, double tpot_s,
                                      cf_serve_decode *out, cf_error *err);

/* A prefill batch of `tokens` prompt tokens (rounded up to whole prompts).
 * Errors as cf_serve_decode_at. */
CF_API cf_status cf_serve_prefill_at(const cf_workload *w, const cf_fabric *fab,
                                     const cf_serve_layout *lay, double tokens,
                                     cf_serve_prefill *out, cf_error *err);

/* The prefill batch of most throughput whose TTFT meets ttft_s (NAN =
 * none), among 1, 2, 4, ... prompts per GPU up to CF_SERVE_PREFILL_TOKENS_MAX
 * tokens per GPU. out->tokens 0 when one prompt misses it (binds "TTFT").
 * Errors as cf_serve_decode_at. */
CF_API cf_status cf_serve_prefill_best(const cf_workload *w, const cf_fabric *fab,
                                       const cf_serve_layout *lay, double ttft_s,
                                       cf_serve_prefill *out, cf_error *err);

/* "EP16 (DP attention) on 2 nodes", "TP8 x PP2 on 2 nodes" (EP degree =
 * nodes x gpus_per_node). */
CF_API void cf_serve_layout_text(const cf_serve_layout *lay, int gpus_per_node, char *buf,
                                 size_t n);

/* "tp" or "ep" (static). */
CF_API const char *cf_serve_par_name(cf_serve_par p);

/* Validates the serving model against a file of published serving
 * measurements (lib/model/serve_validate.c names the columns;
 * tests/data/validation/serving.csv): per row the predicted tokens/s per
 * GPU at its layout and stated latency against the measured.
 * - output: *out as cf_validate_training's (validate.h), each row's source
 *   its document (cf_validation_source_key), note the batch and what binds
 * - errors: CF_EIO, CF_ELIMIT, CF_EPARSE (a missing column, a bad number
 *   at FILE:LINE:COLUMN), CF_ENOMEM; rows the model refuses are skipped
 *   with the reason
 * - ownership: cf_validation_clear(out) */
struct cf_validation;
CF_API cf_status cf_validate_serving(const char *path, struct cf_validation *out, cf_error *err);

/* ---- the band of a serving prediction (lib/model/serve_band.c) ---- */

/* What a banded figure is: a rate (tokens/s, requests/s) or a time or a
 * cost per token (TPOT, TTFT, cost per million tokens). */
typedef enum cf_serve_band_kind {
    CF_SERVE_BAND_RATE = 0,     /* [v / ERR_SERVE_P90, v / ERR_SERVE_P10] */
    CF_SERVE_BAND_TIME          /* [v x ERR_SERVE_P10, v x ERR_SERVE_P90]; costs too */
} cf_serve_band_kind;

/* The p10-p90 band of a predicted serving figure v out of sample
 * (constants.def ERR_SERVE_*: measured/predicted time of the serving rows,
 * each predicted by a fit that left its source out): *lo is the p10 and
 * *hi the p90 of what 8 sources in 10 the fit never saw measured, so *lo
 * <= v <= *hi; a cost's band is the inverse of its throughput's. NaN when
 * v is not a finite number >= 0. Either pointer may be NULL. The one
 * place plan, scale, fit and fabrics take a serving band from. */
CF_API void cf_serve_band(double v, cf_serve_band_kind kind, double *lo, double *hi);
/* Sets KEY_p10 and KEY_p90 (cf_serve_band of v; null where NaN) on j.
 * Returns 0, or -1 on ENOMEM (j or key NULL included). */
CF_API int cf_serve_band_json_set(json_t *j, const char *key, double v, cf_serve_band_kind kind);
/* cf_serve_band_json_set for each key of the NULL-terminated lists (either
 * may be NULL) with o's own value of it (not a number: null bands): rates,
 * then times and costs. 0, or -1 on ENOMEM (o NULL included). */
CF_API int cf_serve_band_keys(json_t *o, const char *const *rates, const char *const *times);
/* The band a document's figures carry: {class "serve", p10, p90, basis}
 * (ERR_SERVE_*). New reference; NULL on ENOMEM. */
CF_API json_t *cf_serve_band_json(void);

/* ---- plan, fit, scale and fabrics for a serve workload (lib/plan/) ---- */

/* A decode batch below this many sequences per GPU is not a useful one:
 * each step then reads every weight for a handful of tokens, so a node
 * that holds the model with less KV room than this serves at a small
 * fraction of what more nodes do per GPU (`fit`'s rule). vLLM's and
 * SGLang's defaults admit hundreds of sequences per instance. */
#define CF_SERVE_USEFUL_BATCH_PER_GPU 8

/* The instance sizes searched, in nodes (DeepSeek's decode unit is 18
 * nodes, its prefill 4; SGLang's 9 and 3-4; the largest published EP
 * deployments are 40 nodes of 8). */
#define CF_SERVE_MAX_INSTANCE_NODES 40

/* Options of a serve plan: the latency targets, overriding the workload's
 * (NAN = the workload's; none there = no target), as `plan --tpot-ms
 * --ttft-s` and POST /api/plan set them. */
typedef struct cf_serve_opts {
    double tpot_ms;         /* ms; NAN = the workload's targets.tpot_ms */
    double ttft_s;          /* s; NAN = the workload's targets.ttft_s */
} cf_serve_opts;

/* Both NAN. */
CF_API void cf_serve_opts_init(cf_serve_opts *o);

/* Sets "tpot_ms" (CF_SERVE_TPOT_MS_MIN..MAX) or "ttft_s"
 * (CF_SERVE_TTFT_S_MIN..MAX) from text. CF_EINVAL with err->param = name
 * and the bounds; an unknown name is CF_EINVAL with param "". */
CF_API cf_status cf_serve_opts_set(cf_serve_opts *o, const char *name, const char *value,
                                   cf_error *err);

/* CF_EINVAL (err->param the option) when po sets a training plan's option
 * that a serve plan has no use for: deadline_h, budget, objective time
 * (cost is the serve plan's own), margin_pct, known_only (cf_plan, `plan` and POST /api/plan refuse them
 * with a serve workload rather than ignore them). CF_OK otherwise or when
 * po is NULL. */
struct cf_plan_opts;
CF_API cf_status cf_serve_plan_check_opts(const struct cf_plan_opts *po, cf_error *err);

/* Ranks the catalog's offerings for serving w.
 * - computes, per offering passing `filter`: on each instance size (1 ..
 *   CF_SERVE_MAX_INSTANCE_NODES nodes within the largest cluster) and
 *   layout (TP at each divisor tp of the node's GPUs that divides the heads,
 *   EP for MoE), the decode batch meeting the TPOT target and the prefill
 *   batch meeting the TTFT target (cf_serve_decode_best, _prefill_best);
 *   then the cheapest deployment: disaggregated (prefill and decode pools
 *   of whole instances, the node counts that balance input_tokens of
 *   prefill against output_tokens of decode per request) or colocated (one
 *   pool time-sharing both, the decode step stretched by the prefill's
 *   share of the time), at traffic "max" the smallest balanced cluster, at
 *   a rate the fewest copies of it that carry the rate
 * - output: *out = {workload, kind "serve", currency, targets {tpot_ms,
 *   ttft_s}, request {input_tokens, output_tokens}, ranked[], unranked[],
 *   assumes[]}; a ranked row: {offering_id, provider, offering,
 *   provider_rating, provider_provisioning (as a training plan's row), gpu,
 *   gpus_per_node, network, mode, nodes, gpus, prefill {layout, par, tp,
 *   instance_nodes, instances, nodes, batch_tokens, ttft_s,
 *   input_tokens_per_s_gpu, binds}, decode {layout, par, tp,
 *   instance_nodes, instances, nodes, batch, batch_per_gpu, tpot_ms,
 *   output_tokens_per_s_gpu, binds, step {mem_ms, compute_ms, comm_ms}},
 *   requests_per_s, input_tokens_per_s, output_tokens_per_s, price_gpu_hr,
 *   cost_per_hour, cost_per_m_output (the whole cluster's cost per
 *   million output tokens), cost_per_m_input (the prefill pool's per
 *   million input tokens), cost_per_m_output_decode (the decode pool's),
 *   why; each predicted figure with KEY_p10 / KEY_p90 (cf_serve_band;
 *   null at a stated traffic)}, ranked by cost_per_m_output; error
 *   (cf_serve_band_json); unranked {offering_id, kind,
 *   reasons[]} (kind: docs/model-serve.md "Plan"), unranked_by_kind
 *   [{kind, count, offering_ids[]}] most frequent first, matched (offerings
 *   passing the filter; when 0, filters and catalog_offerings as cf_plan's);
 *   docs/schema/serve-plan.schema.json
 * - errors: CF_EINVAL param "tpot_ms" when no offering is ranked because the
 *   TPOT target is below one decode step at batch 1 on every one (the
 *   message gives the fastest step), "ttft_s" likewise for one prompt's
 *   prefill, "workload" when no layout holds the model and one request on
 *   any offering, or when w is not a serve workload; the catalog's
 *   errors; CF_ENOMEM. *out is NULL on error
 * - ownership: *out is a new reference (json_decref); the rest borrowed */
CF_API cf_status cf_serve_plan(cf_catalog *cat, const cf_filter *filter, const cf_workload *w,
                               const cf_serve_opts *so, const char *currency, int top,
                               json_t **out, cf_error *err);

/* Whether one node of `gpu` x gpus_per_node (0 = the GPU's usual node)
 * holds the model with a useful batch (CF_SERVE_USEFUL_BATCH_PER_GPU
 * sequences per GPU of KV room) on its best layout.
 * - output: *out = {workload, gpu, gpus_per_node, fits_one_node, layout,
 *   weights_gib_gpu, memory_gib_gpu, max_batch, max_batch_per_gpu,
 *   useful_batch_per_gpu, decode_tokens_per_s_gpu (at the TPOT target),
 *   min_nodes (the fewest nodes of an instance with a useful batch; null
 *   beyond CF_SERVE_MAX_INSTANCE_NODES), min_nodes_layout, why}
 * - errors: CF_EINVAL (gpu unknown, no rate for the precision, workload
 *   not serve); CF_ENOMEM */
CF_API cf_status cf_serve_fit(const cf_workload *w, const char *gpu, int gpus_per_node,
                              const cf_serve_opts *so, json_t **out, cf_error *err);

/* Tokens/s against the instance's nodes on one offering: per node count
 * of 1 .. CF_SERVE_MAX_INSTANCE_NODES (powers of two and the counts given)
 * the best decode and prefill layouts under the targets.
 * - output: *out = [{nodes, nodes_used, mode, requests_per_s,
 *   output_tokens_per_s, output_tokens_per_s_node, input_tokens_per_s,
 *   decode_layout, tpot_ms, decode_binds, prefill_layout}]; where nothing
 *   serves, nulls and {kind, why} naming the binding fact (as the plan's
 *   unranked)
 * - errors: the offering's fabric (cf_fabric_for_nodes), CF_ENOMEM */
CF_API cf_status cf_serve_scale(const cf_offering *o, const cf_workload *w,
                                const cf_serve_opts *so, const int *nodes, size_t n_nodes,
                                json_t **out, cf_error *err);

/* The worth premium of each fabric family for serving on q's node type at
 * q->nodes nodes (default 2 x the smallest EP instance that holds the
 * model, or 2): per family the cheapest balanced deployment on that many
 * nodes (as cf_serve_plan's), its requests/s, and worth_premium_pct =
 * 100 x (throughput_f / throughput_baseline - 1): how much more per
 * GPU-hour the family may cost for the same cost per token.
 * - output: *out = {workload, kind "serve", gpu, gpus_per_node, nodes,
 *   baseline, premium_basis, assumes[], fabrics: [{network, nics, nic_gbps,
 *   mode, nodes, requests_per_s, output_tokens_per_s, decode_layout,
 *   decode_tpot_ms, decode_binds, prefill_layout, worth_premium_pct, flags
 *   ([] or ["does_not_fit"], then why)}]}; the deployment search is the
 *   same for every family, so a faster one never carries fewer requests
 *   per node (within the near-tie band); docs/schema/serve-fabrics.schema.json
 * - errors: as cf_fabrics (fabrics.h) */
struct cf_fabrics_query;
CF_API cf_status cf_serve_fabrics(const cf_workload *w, const struct cf_fabrics_query *q,
                                  json_t **out, cf_error *err);

#endif
