/* workload.c — loads a workload (DESIGN.md §4.3, §6 --workload): a preset
 * embedded from data/workloads/NAME.json or a JSON file with the same keys.
 * docs/workloads.md documents every key (type, unit, default, accepted
 * values) with an example per kind.
 *
 * Keys: name, kind (llm | data-parallel | stencil | embarrassing | serve),
 * description, source, note (free text), shape (per kind, below), and per
 * kind (serve: the llm shape and the keys of model/serve_workload.c):
 * llm: precision (bf16 | fp16 | fp8), optimizer (adam | adamw | sgd),
 * grad_fp32, layout_hint.zero, batch (sequences), tokens, batch_max
 * (sequences, default batch), framework (megatron | fsdp); data-parallel:
 * precision, optimizer, grad_fp32, batch (samples), samples; stencil:
 * precision (fp32 only: the stencil model computes on the CUDA cores in
 * fp32, model/step.c), iterations; embarrassing: tasks.
 *   llm:          shape.{model, layers, hidden, ffn_hidden, heads, kv_heads,
 *                 seq, vocab, params_b, head_dim, mtp_layers}, shape.moe.{experts,
 *                 top_k, ffn_hidden, shared_experts, dense_layers,
 *                 capacity_factor}, shape.mla.{q_lora_rank, kv_lora_rank,
 *                 rope_head_dim} (model/moe.c checks the MoE shape)
 *   data-parallel shape.{params, flops_per_sample (forward+backward),
 *                 activation_bytes_per_sample}
 *   stencil:      shape.{cells, flops_per_cell, bytes_per_cell,
 *                 halo_bytes_per_neighbour, ref_gpus, decomposed_dims,
 *                 state_bytes_per_cell}
 *   embarrassing: shape.{task_gpu_s, startup_s, straggler_cv, memory_gib}
 * Parsing is jansson's; every check names the file and the dotted field
 * ("my.json: shape.hidden: expected a positive integer"). A key not in the
 * kind's list is an error naming it and the keys accepted at its level: a
 * typo ("token" for "tokens", "kv_head") must not fall back silently to a
 * default. A stated params_b more than CF_PARAMS_B_TOLERANCE away from the
 * count the shape gives is an error naming both: one of the two is wrong. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "clusterfit/limits.h"
#include "clusterfit/workload.h"
#include "base/base.h"
#include "model/model_int.h"
#include "model/serve_int.h"

#define PRESET_DIR "data/workloads/"

/* How far a stated params_b may be from the shape's count: published counts
 * round (GPT-3 "175B" for 175.2e9, Llama 3 "8B" for 8.03e9) and some shapes
 * share or add small tensors (tied embeddings, biases), a few percent;
 * 25 % catches a wrong layer count, hidden size or vocabulary. */
#define CF_PARAMS_B_TOLERANCE 0.25

/* Keys accepted at each level, per kind (NULL-terminated). */
static const char *const top_common[] = {"name", "kind", "description", "source", "note", "shape",
                                         "mtbf_gpu_h", "ckpt_async", NULL};
static const char *const top_llm[] = {"precision", "optimizer", "grad_fp32", "layout_hint", "batch",
                                      "tokens", "batch_max", "framework", NULL};
static const char *const top_dp[] = {"precision", "optimizer", "grad_fp32", "batch", "samples", NULL};
static const char *const top_stencil[] = {"precision", "iterations", NULL};
static const char *const top_ep[] = {"tasks", NULL};
static const char *const top_serve[] = {"precision", "kv_cache", "request", "targets", "traffic",
                                        NULL};
static const char *const shape_llm[] = {"model", "layers", "hidden", "ffn_hidden", "heads",
                                        "kv_heads", "seq", "vocab", "params_b", "head_dim", "moe",
                                        "mla", "mtp_layers", NULL};
static const char *const moe_keys[] = {"experts", "top_k", "ffn_hidden", "shared_experts",
                                       "dense_layers", "capacity_factor", NULL};
static const char *const mla_keys[] = {"q_lora_rank", "kv_lora_rank", "rope_head_dim", NULL};
static const char *const shape_dp[] = {"params", "flops_per_sample", "activation_bytes_per_sample",
                                       "input_bytes_per_sample",
                                       NULL};
static const char *const shape_stencil[] = {"cells", "flops_per_cell", "bytes_per_cell",
                                            "state_bytes_per_cell", "halo_bytes_per_neighbour",
                                            "ref_gpus", "decomposed_dims", NULL};
static const char *const shape_ep[] = {"task_gpu_s", "startup_s", "straggler_cv", "memory_gib", NULL};
static const char *const hint_keys[] = {"zero", NULL};
/* The kind's name in a workload document, by cf_workload_kind. */
static const char *const kind_names[CF_WL__COUNT] = {"llm", "data-parallel", "stencil", "embarrassing",
                                                    "serve"};

const char *cf_workload_presets(void)
{
    static char buf[1024];
    size_t used = 0, dl = strlen(PRESET_DIR);
    if (buf[0]) return buf;
    for (const cf__embedded_file *f = cf__embedded_files; f->path; f++) {
        size_t n = strlen(f->path);
        if (strncmp(f->path, PRESET_DIR, dl) != 0 || n < dl + 6 ||
            strcmp(f->path + n - 5, ".json") != 0)
            continue;
        int w = snprintf(buf + used, sizeof buf - used, "%s%.*s", used ? ", " : "",
                         (int)(n - dl - 5), f->path + dl);
        if (w < 0 || (size_t)w >= sizeof buf - used) break;
        used += (size_t)w;
    }
    return buf;
}

/* --- field readers: each sets err naming origin and the dotted field ------ */

typedef struct reader {
    const json_t *root;
    const char *origin;
    cf_error *err;
} reader;

static const json_t *get(const json_t *obj, const char *key)
{
    return json_is_object(obj) ? json_object_get(obj, key) : NULL;
}

/* A number of limits.h as a string literal (CF__STR(CF_MAX_ZERO_STAGE) is "3"). */
#define CF__STR_(x) #x
#define CF__STR(x) CF__STR_(x)

static cf_status bad(reader *r, const char *field, const char *what)
{
    cf_error_set(r->err, r->origin, 0, 0, "%s: expected %s", field, what);
    return CF_EPARSE;
}

/* A number from lo to hi (limits.h: CF_WL_*); `req` = 0 leaves *out
 * unchanged when absent. The refusal names the field and the range (issue
 * 21: without an upper bound, 1e308 reached the model as infinities). */
static cf_status num(reader *r, const json_t *obj, const char *prefix, const char *key,
                     int req, double lo, double hi, double *out)
{
    char field[96], what[96];
    const json_t *v = get(obj, key);
    double d;
    snprintf(field, sizeof field, "%s%s", prefix, key);
    snprintf(what, sizeof what, "a number from %g to %g", lo, hi);
    if (!v || json_is_null(v)) {
        if (req) return bad(r, field, what);
        return CF_OK;
    }
    if (!json_is_number(v)) return bad(r, field, what);
    d = json_number_value(v);
    if (!isfinite(d) || !(d >= lo) || !(d <= hi)) return bad(r, field, what);
    *out = d;
    return CF_OK;
}

static cf_status integer(reader *r, const json_t *obj, const char *prefix, const char *key,
                         int req, long *out)
{
    char field[96];
    const json_t *v = get(obj, key);
    snprintf(field, sizeof field, "%s%s", prefix, key);
    if (!v || json_is_null(v)) {
        if (req) return bad(r, field, "a positive integer");
        return CF_OK;
    }
    if (!json_is_integer(v) || json_integer_value(v) <= 0 ||
        json_integer_value(v) > 1000000000000LL)
        return bad(r, field, "a positive integer");
    *out = (long)json_integer_value(v);
    return CF_OK;
}

static cf_status string(reader *r, const json_t *obj, const char *key, int req, const char **out)
{
    const json_t *v = get(obj, key);
    if (!v || json_is_null(v)) {
        if (req) return bad(r, key, "a string");
        return CF_OK;
    }
    if (!json_is_string(v)) return bad(r, key, "a string");
    *out = json_string_value(v);
    return CF_OK;
}

#define TRY(x) do { st = (x); if (st != CF_OK) goto fail; } while (0)

static int listed(const char *const *names, const char *key)
{
    for (size_t i = 0; names && names[i]; i++)
        if (strcmp(names[i], key) == 0) return 1;
    return 0;
}

static void append_names(char *buf, size_t n, const char *const *names)
{
    for (size_t i = 0; names && names[i]; i++)
        snprintf(buf + strlen(buf), n - strlen(buf), "%s%s", buf[0] ? ", " : "", names[i]);
}

/* Every key of `obj` must be in `a` or `b`; else CF_EPARSE naming the key
 * (prefixed, "shape.") and the keys accepted at that level. */
static cf_status check_keys(reader *r, const json_t *obj, const char *prefix, const char *level,
                            const char *kind, const char *const *a, const char *const *b)
{
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)obj, key, v) {
        char acc[512] = "";
        if (listed(a, key) || listed(b, key)) continue;
        append_names(acc, sizeof acc, a);
        append_names(acc, sizeof acc, b);
        cf_error_set(r->err, r->origin, 0, 0, "%s%.60s: unknown key (accepted %s of a%s %s "
                     "workload: %s; see docs/workloads.md)", prefix, key, level,
                     kind[0] == 'e' ? "n" : "", kind, acc);
        return CF_EPARSE;
    }
    return CF_OK;
}

/* shape.moe (optional): experts, top_k and ffn_hidden required, the others
 * default to 0 (no shared expert, no dense layer, dropless). */
static cf_status load_moe(reader *r, const json_t *shape, cf_llm_shape *s)
{
    cf_status st = CF_OK;
    const json_t *m = get(shape, "moe");
    cf_moe_shape *o = &s->moe;
    double cf = 0;
    if (!m || json_is_null(m)) return CF_OK;
    if (!json_is_object(m)) return bad(r, "shape.moe", "an object (keys: docs/workloads.md)");
    TRY(integer(r, m, "shape.moe.", "experts", 1, &o->experts));
    TRY(integer(r, m, "shape.moe.", "top_k", 1, &o->top_k));
    TRY(integer(r, m, "shape.moe.", "ffn_hidden", 1, &o->ffn_hidden));
    TRY(integer(r, m, "shape.moe.", "shared_experts", 0, &o->shared_experts));
    TRY(integer(r, m, "shape.moe.", "dense_layers", 0, &o->dense_layers));
    TRY(num(r, m, "shape.moe.", "capacity_factor", 0, CF_WL_CAPACITY_FACTOR_MIN,
            CF_WL_CAPACITY_FACTOR_MAX, &cf));
    o->capacity_factor = cf;
fail:
    return st;
}

/* shape.mla (optional): kv_lora_rank and rope_head_dim required, q_lora_rank
 * 0 = a full query projection; needs shape.head_dim. */
static cf_status load_mla(reader *r, const json_t *shape, cf_llm_shape *s)
{
    cf_status st = CF_OK;
    const json_t *m = get(shape, "mla");
    if (!m || json_is_null(m)) return CF_OK;
    if (!json_is_object(m)) return bad(r, "shape.mla", "an object (keys: docs/workloads.md)");
    if (s->head_dim == 0) return bad(r, "shape.head_dim", "a positive integer beside shape.mla");
    TRY(integer(r, m, "shape.mla.", "q_lora_rank", 0, &s->mla.q_lora_rank));
    TRY(integer(r, m, "shape.mla.", "kv_lora_rank", 1, &s->mla.kv_lora_rank));
    TRY(integer(r, m, "shape.mla.", "rope_head_dim", 1, &s->mla.rope_head_dim));
fail:
    return st;
}

/* batch_max (sequences, >= batch; absent = batch): the largest global batch
 * the plan may grow to on larger clusters (lib/plan/ladder.c). */
static cf_status read_batch_max(reader *r, cf_workload *w)
{
    cf_status st;
    long bm = w->global_batch_seqs;
    if ((st = integer(r, r->root, "", "batch_max", 0, &bm)) != CF_OK) return st;
    if (bm < w->global_batch_seqs) {
        cf_error_set(r->err, r->origin, 0, 0, "batch_max: %ld (sequences) is below batch %ld: the "
                     "largest global batch cannot be smaller than the first", bm,
                     w->global_batch_seqs);
        return CF_EPARSE;
    }
    w->global_batch_max_seqs = bm;
    return CF_OK;
}

/* framework (megatron | fsdp; absent = CF_FW_DEFAULT, resolved per layout). */
static cf_status read_framework(reader *r, cf_workload *w)
{
    cf_status st;
    const char *fw = NULL;
    if ((st = string(r, r->root, "framework", 0, &fw)) != CF_OK) return st;
    if (fw && cf_framework_parse(fw, &w->framework) != CF_OK) {
        char what[160];
        snprintf(what, sizeof what, "megatron or fsdp (the framework class: Megatron-LM/NeMo-style "
                 "or PyTorch FSDP/ZeRO-3-style), got \"%.40s\"", fw);
        return bad(r, "framework", what);
    }
    return CF_OK;
}

cf_status cf_framework_parse(const char *s, cf_framework *out)
{
    if (!s || !out) return CF_EINVAL;
    if (cf__strcasecmp(s, "megatron") == 0) *out = CF_FW_MEGATRON;
    else if (cf__strcasecmp(s, "fsdp") == 0) *out = CF_FW_FSDP;
    else return CF_EINVAL;
    return CF_OK;
}

const char *cf_framework_name(cf_framework f)
{
    return f == CF_FW_MEGATRON ? "megatron" : f == CF_FW_FSDP ? "fsdp" : "default";
}

cf_framework cf_framework_resolve(cf_framework f, int zero)
{
    if (f == CF_FW_MEGATRON || f == CF_FW_FSDP) return f;
    return zero >= 3 ? CF_FW_FSDP : CF_FW_MEGATRON;
}

static cf_status load_llm_shape(reader *r, const json_t *shape, cf_workload *w)
{
    cf_status st = CF_OK;
    cf_llm_shape *s = &w->llm;
    double pb = NAN;
    const json_t *mv = get(shape, "model");
    if (!mv || !json_is_string(mv) ||
        cf_model_family_parse(json_string_value(mv), &s->family) != CF_OK) {
        char what[200];
        snprintf(what, sizeof what, "one of %s (the block shape: gpt, mpt, bloom, opt: GELU FFN "
                 "of 2 matrices; llama: SwiGLU FFN of 3)%s%.40s%s", cf_model_family_accepted(),
                 json_is_string(mv) ? ", got \"" : "", json_is_string(mv) ? json_string_value(mv) : "",
                 json_is_string(mv) ? "\"" : "");
        return bad(r, "shape.model", what);
    }
    TRY(integer(r, shape, "shape.", "layers", 1, &s->layers));
    TRY(integer(r, shape, "shape.", "hidden", 1, &s->hidden));
    TRY(load_moe(r, shape, s));
    /* An MoE model without dense layers needs no dense FFN width. */
    if (cf__llm_is_moe(s) && s->moe.dense_layers == 0) s->ffn_hidden = s->moe.ffn_hidden;
    TRY(integer(r, shape, "shape.", "ffn_hidden", !cf__llm_is_moe(s) || s->moe.dense_layers > 0,
                &s->ffn_hidden));
    TRY(integer(r, shape, "shape.", "heads", 1, &s->heads));
    s->kv_heads = s->heads;
    TRY(integer(r, shape, "shape.", "kv_heads", 0, &s->kv_heads));
    TRY(integer(r, shape, "shape.", "head_dim", 0, &s->head_dim));
    TRY(integer(r, shape, "shape.", "seq", 1, &s->seq));
    TRY(integer(r, shape, "shape.", "vocab", 1, &s->vocab));
    TRY(num(r, shape, "shape.", "params_b", 0, CF_WL_PARAMS_B_MIN, CF_WL_PARAMS_B_MAX, &pb));
    s->params_b = pb;
    if (s->head_dim == 0 && s->hidden % s->heads != 0)
        return bad(r, "shape.hidden", "a multiple of shape.heads (or a stated shape.head_dim)");
    if (s->kv_heads > s->heads || s->heads % s->kv_heads != 0)
        return bad(r, "shape.kv_heads", "a divisor of shape.heads");
    TRY(load_mla(r, shape, s));
    {
        long mtp = 0;
        TRY(integer(r, shape, "shape.", "mtp_layers", 0, &mtp));
        if (mtp > 0 && !cf__llm_is_moe(s))
            return bad(r, "shape.mtp_layers", "shape.moe beside it (MTP modules are counted as MoE "
                       "layers, docs/workloads.md)");
        s->mtp_layers = mtp;
    }
    if ((st = cf__moe_check(s, r->origin, r->err)) != CF_OK) return st;
    if (!isnan(pb)) {
        /* Parameters the shape gives (model/flops.c, model/moe.c: attention
         * with GQA or MLA, FFN of 2 or 3 matrices or the experts, norms,
         * router, input embedding and output layer). */
        double derived = cf__llm_params(s) / 1e9;
        if (fabs(pb - derived) > CF_PARAMS_B_TOLERANCE * derived) {
            char active[96] = "";
            if (cf__llm_is_moe(s))
                snprintf(active, sizeof active, "; params_b is the total count, the active "
                         "parameters per token are %.3g billion", cf__llm_params_active(s) / 1e9);
            cf_error_set(r->err, r->origin, 0, 0, "shape.params_b: %g (billion) is %.0f %% away "
                         "from the %.3g billion parameters the shape gives (layers, hidden, "
                         "ffn_hidden, heads, kv_heads, head_dim, vocab%s); more than %.0f %% means "
                         "one of them is wrong (leave params_b out to use the shape's count)%s", pb,
                         100.0 * fabs(pb - derived) / derived, derived,
                         cf__llm_is_moe(s) ? ", moe" : "", 100.0 * CF_PARAMS_B_TOLERANCE, active);
            return CF_EPARSE;
        }
    }
fail:
    return st;
}

static cf_status load_llm(reader *r, const json_t *shape, cf_workload *w)
{
    cf_status st = CF_OK;
    double tokens = NAN;
    TRY(load_llm_shape(r, shape, w));
    TRY(integer(r, r->root, "", "batch", 1, &w->global_batch_seqs));
    TRY(num(r, r->root, "", "tokens", 1, CF_WL_TOKENS_MIN, CF_WL_TOKENS_MAX, &tokens));
    w->train_tokens = tokens;
    TRY(read_batch_max(r, w));
    TRY(read_framework(r, w));
fail:
    return st;
}

static cf_status load_dp(reader *r, const json_t *shape, cf_workload *w)
{
    cf_status st = CF_OK;
    TRY(num(r, shape, "shape.", "params", 1, CF_WL_COUNT_MIN, CF_WL_COUNT_MAX, &w->dp_params));
    TRY(num(r, shape, "shape.", "flops_per_sample", 1, CF_WL_FLOPS_MIN, CF_WL_FLOPS_MAX,
            &w->dp_flops_per_sample));
    TRY(num(r, shape, "shape.", "activation_bytes_per_sample", 1, CF_WL_BYTES_MIN,
            CF_WL_BYTES_MAX, &w->dp_activation_bytes_per_sample));
    TRY(num(r, shape, "shape.", "input_bytes_per_sample", 0, CF_WL_BYTES_MIN, CF_WL_BYTES_MAX,
            &w->input_bytes_per_sample));
    TRY(integer(r, r->root, "", "batch", 1, &w->dp_global_batch));
    TRY(num(r, r->root, "", "samples", 1, CF_WL_COUNT_MIN, CF_WL_COUNT_MAX, &w->dp_samples));
fail:
    return st;
}

static cf_status load_stencil(reader *r, const json_t *shape, cf_workload *w)
{
    cf_status st = CF_OK;
    long ref = 1, dims = 1;
    TRY(num(r, shape, "shape.", "cells", 1, CF_WL_COUNT_MIN, CF_WL_COUNT_MAX, &w->st_cells));
    TRY(num(r, shape, "shape.", "flops_per_cell", 1, CF_WL_FLOPS_MIN, CF_WL_FLOPS_MAX, &w->st_flops_per_cell));
    TRY(num(r, shape, "shape.", "bytes_per_cell", 1, CF_WL_BYTES_MIN, CF_WL_BYTES_MAX, &w->st_bytes_per_cell));
    TRY(num(r, shape, "shape.", "state_bytes_per_cell", 1, CF_WL_BYTES_MIN, CF_WL_BYTES_MAX,
            &w->st_state_bytes_per_cell));
    TRY(num(r, shape, "shape.", "halo_bytes_per_neighbour", 1, CF_WL_BYTES_MIN, CF_WL_BYTES_MAX,
            &w->st_halo_bytes_per_neighbour_per_gpu));
    TRY(integer(r, shape, "shape.", "ref_gpus", 0, &ref));
    TRY(integer(r, shape, "shape.", "decomposed_dims", 0, &dims));
    if (dims > 3) return bad(r, "shape.decomposed_dims", "1, 2 or 3");
    w->st_ref_gpus = ref;
    w->st_decomposed_dims = (int)dims;
    w->st_neighbours = 2 * (int)dims;
    TRY(num(r, r->root, "", "iterations", 1, CF_WL_COUNT_MIN, CF_WL_ITERATIONS_MAX, &w->st_iterations));
fail:
    return st;
}

static cf_status load_ep(reader *r, const json_t *shape, cf_workload *w)
{
    cf_status st = CF_OK;
    w->ep_straggler_frac = 0;
    w->ep_startup_s = 0;
    TRY(num(r, shape, "shape.", "task_gpu_s", 1, CF_WL_SECONDS_MIN, CF_WL_SECONDS_MAX, &w->ep_task_gpu_s));
    TRY(num(r, shape, "shape.", "startup_s", 0, 0, CF_WL_SECONDS_MAX, &w->ep_startup_s));
    TRY(num(r, shape, "shape.", "straggler_cv", 0, 0, CF_WL_STRAGGLER_CV_MAX, &w->ep_straggler_frac));
    TRY(num(r, shape, "shape.", "memory_gib", 1, CF_WL_MEMORY_GIB_MIN, CF_WL_MEMORY_GIB_MAX, &w->ep_memory_gib));
    TRY(num(r, r->root, "", "tasks", 1, CF_WL_COUNT_MIN, CF_WL_COUNT_MAX, &w->ep_tasks));
fail:
    return st;
}

void cf_workload_init(cf_workload *w)
{
    memset(w, 0, sizeof *w);
    w->kind = CF_WL_LLM;
    w->precision = CF_PREC_BF16;
    w->llm.params_b = NAN;
    w->optimizer_bytes_per_param = CF_K(BYTES_ADAM);
    w->zero_hint = -1;
    w->st_ref_gpus = 1;
    w->st_decomposed_dims = 1;
    w->st_neighbours = 2;
}

/* The parts of a workload document, read in this order by
 * cf_workload_from_json; each sets r->err naming the field. */

/* name (optional) and kind (required). */
static cf_status read_kind(reader *r, const json_t *j, cf_workload *w)
{
    cf_status st;
    const char *name = NULL, *kind = NULL;
    char what[160];
    if ((st = string(r, j, "name", 0, &name)) != CF_OK) return st;
    if (name) snprintf(w->name, sizeof w->name, "%s", name);
    if ((st = string(r, j, "kind", 1, &kind)) != CF_OK) return st;
    for (int k = 0; k < CF_WL__COUNT; k++) {
        if (strcmp(kind, kind_names[k]) == 0) {
            w->kind = (cf_workload_kind)k;
            return CF_OK;
        }
    }
    if (strcmp(kind, "embarrassingly-parallel") == 0) {    /* the long spelling */
        w->kind = CF_WL_EMBARRASSING;
        return CF_OK;
    }
    snprintf(what, sizeof what, "one of llm, data-parallel, stencil, embarrassing, serve, got "
             "\"%.40s\"",
             kind);
    return bad(r, "kind", what);
}

/* Every key at every level is one the kind accepts; the free texts are
 * strings. */
static cf_status read_keys(reader *r, const json_t *j, cf_workload_kind k)
{
    static const char *const *const tops[] = {top_llm, top_dp, top_stencil, top_ep, top_serve};
    static const char *const *const shapes[] = {shape_llm, shape_dp, shape_stencil, shape_ep,
                                                shape_llm};
    int llm = k == CF_WL_LLM || k == CF_WL_SERVE;
    static const char *const texts[] = {"description", "source", "note"};
    const char *kn = kind_names[k];
    cf_status st = CF_OK;
    TRY(check_keys(r, j, "", "at the top level", kn, top_common, tops[k]));
    if (json_is_object(get(j, "shape")))
        TRY(check_keys(r, get(j, "shape"), "shape.", "in shape", kn, shapes[k], NULL));
    if (llm && json_is_object(get(get(j, "shape"), "moe")))
        TRY(check_keys(r, get(get(j, "shape"), "moe"), "shape.moe.", "in shape.moe", kn, moe_keys, NULL));
    if (llm && json_is_object(get(get(j, "shape"), "mla")))
        TRY(check_keys(r, get(get(j, "shape"), "mla"), "shape.mla.", "in shape.mla", kn, mla_keys, NULL));
    if (json_is_object(get(j, "layout_hint")))
        TRY(check_keys(r, get(j, "layout_hint"), "layout_hint.", "in layout_hint", kn, hint_keys,
                       NULL));
    for (int i = 0; i < 3; i++) {
        const char *t = NULL;
        TRY(string(r, j, texts[i], 0, &t));
    }
fail:
    return st;
}

/* precision: the kind's (stencil: fp32 only); absent = the default. */
static cf_status read_precision(reader *r, const json_t *j, cf_workload *w)
{
    cf_status st;
    const char *prec = NULL;
    if (w->kind == CF_WL_SERVE) return CF_OK;   /* bf16 | fp8 | fp4: model/serve_workload.c */
    if ((st = string(r, j, "precision", 0, &prec)) != CF_OK) return st;
    if (prec && w->kind == CF_WL_STENCIL) {
        /* The stencil model computes in fp32 on the CUDA cores (model/step.c:
         * bf16 tensor peak x CF_K(FP32_FRAC_OF_BF16)); bytes_per_cell and
         * state_bytes_per_cell carry the data size. */
        if (strcmp(prec, "fp32") != 0) {
            char what[200];
            snprintf(what, sizeof what, "fp32 for kind stencil (the model computes stencils in "
                     "fp32 on the CUDA cores; leave precision out or write fp32), got \"%.20s\"",
                     prec);
            return bad(r, "precision", what);
        }
    } else if (prec && cf_precision_parse(prec, &w->precision) != CF_OK) {
        char what[96];
        snprintf(what, sizeof what, "one of %s, got \"%.20s\"", cf_precision_accepted(), prec);
        return bad(r, "precision", what);
    }
    return CF_OK;
}

/* optimizer: the optimizer-state bytes per parameter; absent = Adam's. */
static cf_status read_optimizer(reader *r, const json_t *j, cf_workload *w)
{
    cf_status st;
    const char *opt = NULL;
    if ((st = string(r, j, "optimizer", 0, &opt)) != CF_OK) return st;
    if (!opt) return CF_OK;
    /* Adam keeps fp32 master, m, v (12 B); SGD with momentum fp32 master
     * and momentum (8 B) (ZeRO paper §3.1). */
    if (cf__strcasecmp(opt, "adam") == 0 || cf__strcasecmp(opt, "adamw") == 0)
        w->optimizer_bytes_per_param = CF_K(BYTES_ADAM);
    else if (cf__strcasecmp(opt, "sgd") == 0)
        w->optimizer_bytes_per_param = CF_K(BYTES_SGD);
    else {
        char what[96];
        snprintf(what, sizeof what, "one of adam, adamw, sgd, got \"%.40s\"", opt);
        return bad(r, "optimizer", what);
    }
    return CF_OK;
}

/* grad_fp32 (a boolean) and layout_hint.zero (0-3), both optional. */
static cf_status read_hints(reader *r, const json_t *j, cf_workload *w)
{
    const json_t *gf = get(j, "grad_fp32"), *hint;
    if (gf && !json_is_null(gf)) {
        if (!json_is_boolean(gf)) return bad(r, "grad_fp32", "true or false");
        w->grad_fp32 = json_is_true(gf);
    }
    hint = get(get(j, "layout_hint"), "zero");
    if (hint && !json_is_null(hint)) {
        if (!json_is_integer(hint) || json_integer_value(hint) < 0 ||
            json_integer_value(hint) > CF_MAX_ZERO_STAGE)
            return bad(r, "layout_hint.zero", "an integer from 0 to " CF__STR(CF_MAX_ZERO_STAGE));
        w->zero_hint = (int)json_integer_value(hint);
    }
    /* Goodput (docs/goodput.md): a failure rate and the checkpoint mode. */
    gf = get(j, "ckpt_async");
    if (gf && !json_is_null(gf)) {
        if (!json_is_boolean(gf)) return bad(r, "ckpt_async", "true or false");
        w->ckpt_async = json_is_true(gf);
    }
    return num(r, j, "", "mtbf_gpu_h", 0, CF_MTBF_GPU_H_MIN, CF_MTBF_GPU_H_MAX, &w->mtbf_gpu_h);
}

/* shape (an object) and the kind's size keys, by the kind's loader. */
static cf_status read_shape(reader *r, const json_t *j, cf_workload *w)
{
    const json_t *shape = get(j, "shape");
    if (!json_is_object(shape)) return bad(r, "shape", "an object");
    switch (w->kind) {
    case CF_WL_LLM: return load_llm(r, shape, w);
    case CF_WL_DATA_PARALLEL: return load_dp(r, shape, w);
    case CF_WL_STENCIL: return load_stencil(r, shape, w);
    case CF_WL_SERVE: {
        cf_status st = load_llm_shape(r, shape, w);
        return st != CF_OK ? st : cf__serve_spec_read(j, r->origin, w, r->err);
    }
    default: return load_ep(r, shape, w);
    }
}

cf_status cf_workload_from_json(const json_t *j, const char *origin, cf_workload *out,
                                cf_error *err)
{
    cf_status st = CF_OK;
    reader r = {j, origin ? origin : "workload", err};
    cf_workload w;

    cf_workload_init(&w);
    if (!json_is_object(j)) {
        cf_error_set(err, r.origin, 0, 0, "expected a JSON object");
        return CF_EPARSE;
    }
    TRY(read_kind(&r, j, &w));
    TRY(read_keys(&r, j, w.kind));
    TRY(read_precision(&r, j, &w));
    TRY(read_optimizer(&r, j, &w));
    TRY(read_hints(&r, j, &w));
    TRY(read_shape(&r, j, &w));
    *out = w;
    return CF_OK;
fail:
    return st;
}

static cf_status parse_text(const char *text, size_t len, const char *origin, cf_workload *out,
                            cf_error *err)
{
    json_error_t je;
    cf_status st;
    json_t *j = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
    if (!j) {
        cf_error_set(err, origin, je.line > 0 ? je.line : 0, je.column > 0 ? je.column : 0,
                     "invalid JSON: %s", je.text);
        return CF_EPARSE;
    }
    st = cf_workload_from_json(j, origin, out, err);
    json_decref(j);
    return st;
}

/* Whether a workload argument names a file rather than a preset: it holds a
 * '/' or ends in ".json". */
static int looks_like_path(const char *s)
{
    size_t n = strlen(s);
    return strchr(s, '/') != NULL || (n > 5 && strcmp(s + n - 5, ".json") == 0);
}

cf_status cf_workload_load(const char *name_or_path, cf_workload *out, cf_error *err)
{
    char path[128];
    size_t len = 0;
    const char *text;
    char *buf = NULL;
    cf_status st;
    FILE *probe;

    if (!name_or_path || !*name_or_path) {
        cf_error_set(err, NULL, 0, 0, "no workload given (presets: %s)", cf_workload_presets());
        return CF_EINVAL;
    }
    if (strlen(name_or_path) < 64 && !strchr(name_or_path, '/')) {
        snprintf(path, sizeof path, PRESET_DIR "%s.json", name_or_path);
        text = cf__embedded_find(path, &len);
        if (text) return parse_text(text, len, name_or_path, out, err);
    }
    /* A bare name that is neither a preset nor a file is an unknown preset
     * (a usage error, exit 2); a name that reads as a path (a '/' or a .json
     * ending) is an input file, and the reader says why it cannot be read
     * (CF_EIO, exit 3: missing, a directory, no permission). */
    if (!looks_like_path(name_or_path)) {
        probe = fopen(name_or_path, "rb");
        if (!probe) {
            cf_error_set(err, NULL, 0, 0, "unknown workload '%s': neither a preset (%s) nor a readable file",
                         name_or_path, cf_workload_presets());
            return CF_ENOTFOUND;
        }
        fclose(probe);
    }
    st = cf__read_file(name_or_path, (size_t)CF_MAX_WORKLOAD_BYTES, "CF_MAX_WORKLOAD_BYTES", &buf, &len, err);
    if (st != CF_OK) return st;
    st = parse_text(buf, len, name_or_path, out, err);
    cf__free(buf);
    if (st == CF_OK && !out->name[0]) {
        const char *base = strrchr(name_or_path, '/');
        snprintf(out->name, sizeof out->name, "%s", base ? base + 1 : name_or_path);
    }
    return st;
}
