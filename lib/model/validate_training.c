/* validate_training.c — the step model against published training
 * throughputs (DESIGN.md §4.4): `clusterfit validate training FILE.csv`.
 *
 * Columns are read by header name (base/csvtable.c; unknown columns are
 * ignored). Each row becomes a workload (shape, global batch, precision), a
 * fabric and a layout; blank cells take the defaults of §4.4 (micro_batch
 * 1, vp 1, zero 0, precision bf16, recompute unknown). The prediction for a
 * row whose recompute is unknown uses the cheapest recompute that fits in
 * memory (none, then selective, then full) — what the run must have done —
 * while its FLOPs are counted as none. `tflops_per_gpu` counts recomputed
 * FLOPs only when recompute = full (Megatron's convention). Rows without
 * nodes, without a fabric on more than one node, with a layout that does
 * not match the GPU count or an unknown GPU are skipped with the reason.
 * Mixture-of-Experts rows state experts, top_k, moe_ffn_hidden (and
 * shared_experts, dense_layers, head_dim, ep, etp; this repository's files
 * also q_lora_rank, kv_lora_rank, rope_head_dim and mtp_layers); a row that
 * states MoE columns without experts, or a params_b the shape does not give
 * (an MoE row without its MoE columns), is skipped with the reason: an MoE
 * row is never predicted as dense. An MoE row without ep takes the least
 * ep that fits in memory.
 * An optional `framework` column (megatron | fsdp) names the framework
 * class whose compute efficiency the row is predicted with; blank = by the
 * row's ZeRO stage (3: fsdp, else megatron), as a workload's default.
 * Nothing here is tuned per row. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "clusterfit/hardware.h"
#include "clusterfit/limits.h"
#include "clusterfit/units.h"
#include "model/model_int.h"
#include "base/base.h"


enum {
    C_ID, C_MODEL, C_PARAMS_B, C_LAYERS, C_HIDDEN, C_FFN, C_HEADS, C_KV, C_SEQ, C_VOCAB, C_GBS,
    C_MB, C_TP, C_PP, C_VP, C_DP, C_CP, C_ZERO, C_PREC, C_GPU, C_GPN, C_NODES, C_INTRA, C_NET,
    C_NICS, C_NICGBPS, C_RECOMP, C_METRIC, C_VALUE,
    /* Mixture of Experts (names fixed; blank = dense / not stated) */
    C_HEAD_DIM, C_EXPERTS, C_TOPK, C_MOE_FFN, C_SHARED, C_DENSE_L, C_EP, C_ETP,
    /* optional shape columns of this repository's MoE rows (blank = none) */
    C_QLORA, C_KVLORA, C_ROPE, C_MTP,
    /* optional framework class (megatron | fsdp; blank = by the ZeRO stage) */
    C_FRAMEWORK,
    /* optional: layers per pipeline chunk full recompute repeats (blank = all) */
    C_RC_LAYERS,
    /* the row's source (grouped by document for --cv source; blank = none) */
    C_SOURCE, C__N
};
static const char *const colnames[C__N] = {
    "id", "model", "params_b", "layers", "hidden", "ffn_hidden", "heads", "kv_heads", "seq",
    "vocab", "global_batch_seqs", "micro_batch", "tp", "pp", "vp", "dp", "cp", "zero",
    "precision", "gpu", "gpus_per_node", "nodes", "intra_link", "network", "nics_per_node",
    "nic_gbps", "recompute", "metric", "value", "head_dim", "experts", "top_k", "moe_ffn_hidden",
    "shared_experts", "dense_layers", "ep", "etp", "q_lora_rank", "kv_lora_rank", "rope_head_dim",
    "mtp_layers", "framework", "recompute_num_layers", "source"};

typedef struct row_in {
    const char *cell[C__N];
} row_in;

/* Largest count a cell may state: as validate.c's positive_int, 10^9. No
 * published run comes near it, and larger values would wrap the int fields
 * of cf_layout and cf_fabric they are stored in. */
#define MAX_COUNT 1000000000L

/* Integer cell: blank -> def; -1 on junk or over MAX_COUNT. */
static long int_cell(const char *s, long def)
{
    long v;
    if (!s || !*s) return def;
    if (cf_parse_long(s, &v) != CF_OK || v < 0 || v > MAX_COUNT) return -1;
    return v;
}

/* tp*pp*dp*cp of a layout whose factors are >= 1, or -1 when the product
 * does not fit a long (four factors of up to 10^9 can reach 10^36). */
static long layout_gpus(const cf_layout *l)
{
    const long f[] = {l->tp, l->pp, l->dp, l->cp};
    long p = 1;
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
        if (f[i] > LONG_MAX / p) return -1;
        p *= f[i];
    }
    return p;
}

/* The parts of a row below return NULL when it can go on, else the reason
 * the row is skipped (a static string or `why`); row_inputs asks them in
 * the order the reasons are checked. */

/* The integer cells into v[] (blank -> their default). */
static const char *row_counts(const row_in *r, long v[C__N], char *why, size_t whyn)
{
    static const int ints[] = {C_LAYERS, C_HIDDEN, C_FFN, C_HEADS, C_KV, C_SEQ, C_VOCAB, C_GBS,
                               C_MB, C_TP, C_PP, C_VP, C_DP, C_CP, C_ZERO, C_GPN, C_NODES,
                               C_NICS, C_HEAD_DIM, C_EXPERTS, C_TOPK, C_MOE_FFN, C_SHARED,
                               C_DENSE_L, C_EP, C_ETP, C_QLORA, C_KVLORA, C_ROPE, C_MTP,
                               C_RC_LAYERS};
    /* ep 0 = not stated (chosen below), etp 1, recompute_num_layers 0 = all */
    static const long defs[] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0,
                                0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0};
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) {
        v[ints[i]] = int_cell(r->cell[ints[i]], defs[i]);
        if (v[ints[i]] < 0) {
            snprintf(why, whyn, "%s: expected a whole number from 0 to 10^9, got '%s'",
                     colnames[ints[i]], r->cell[ints[i]]);
            return why;
        }
    }
    return NULL;
}

/* How far a row's params_b may be from its shape's count before the row is
 * skipped: as the workload loader's tolerance (model/workload.c). */
#define MOE_PARAMS_TOLERANCE 0.25

/* The MoE and attention-width columns into w's shape: experts > 0 makes it
 * an MoE row, which then needs top_k and moe_ffn_hidden; the shape's checks
 * of model/moe.c. NULL when the row can go on. */
static const char *row_moe(const row_in *r, const long v[C__N], cf_workload *w, char *why,
                           size_t whyn)
{
    cf_llm_shape *s = &w->llm;
    cf_error err;
    s->head_dim = v[C_HEAD_DIM];
    if (v[C_EXPERTS] == 0) {
        if (v[C_TOPK] > 0 || v[C_MOE_FFN] > 0 || v[C_EP] > 1 || v[C_ETP] > 1)
            return "top_k, moe_ffn_hidden, ep or etp stated without experts: an MoE row needs "
                   "experts (never read as dense)";
        if (v[C_MTP] > 0) return "mtp_layers stated without experts";
    } else {
        if (v[C_TOPK] < 1 || v[C_MOE_FFN] < 1)
            return "MoE row: experts stated without top_k or moe_ffn_hidden (never read as dense)";
        s->moe.experts = v[C_EXPERTS];
        s->moe.top_k = v[C_TOPK];
        s->moe.ffn_hidden = v[C_MOE_FFN];
        s->moe.shared_experts = v[C_SHARED];
        s->moe.dense_layers = v[C_DENSE_L];
        s->mtp_layers = v[C_MTP];
    }
    if (v[C_KVLORA] > 0) {
        if (s->head_dim < 1) return "kv_lora_rank (latent attention) needs head_dim";
        s->mla.q_lora_rank = v[C_QLORA];
        s->mla.kv_lora_rank = v[C_KVLORA];
        s->mla.rope_head_dim = v[C_ROPE];
    }
    if (s->head_dim == 0 && s->hidden % s->heads != 0) return "hidden not a multiple of heads (state head_dim)";
    if (s->kv_heads > s->heads || s->heads % s->kv_heads != 0) return "kv_heads does not divide heads";
    cf_error_clear(&err);
    if (cf__moe_check(s, r->cell[C_ID], &err) != CF_OK) {
        snprintf(why, whyn, "%.200s", err.message);
        return why;
    }
    return NULL;
}

/* The workload: model family and shape, global batch, precision. */
static const char *row_workload(const row_in *r, const long v[C__N], cf_workload *w, char *why,
                                size_t whyn)
{
    double d;
    const char *reason;
    cf_workload_init(w);
    snprintf(w->name, sizeof w->name, "%s", r->cell[C_ID]);
    if (cf_model_family_parse(r->cell[C_MODEL], &w->llm.family) != CF_OK) {
        snprintf(why, whyn, "model '%s' not one of %s", r->cell[C_MODEL], cf_model_family_accepted());
        return why;
    }
    w->llm.layers = v[C_LAYERS];
    w->llm.hidden = v[C_HIDDEN];
    w->llm.ffn_hidden = v[C_FFN];
    w->llm.heads = v[C_HEADS];
    w->llm.kv_heads = v[C_KV] > 0 ? v[C_KV] : v[C_HEADS];
    w->llm.seq = v[C_SEQ];
    w->llm.vocab = v[C_VOCAB];
    w->global_batch_seqs = v[C_GBS];
    if (w->llm.layers < 1 || w->llm.hidden < 1 || w->llm.ffn_hidden < 1 || w->llm.heads < 1 ||
        w->llm.seq < 1 || w->llm.vocab < 1 || w->global_batch_seqs < 1)
        return "model shape or global batch not stated";
    if ((reason = row_moe(r, v, w, why, whyn)) != NULL) return reason;
    if (*r->cell[C_PARAMS_B] && cf_parse_double(r->cell[C_PARAMS_B], &d) == CF_OK) {
        /* A stated parameter count far from the shape's is a row the shape
         * does not describe, most often an MoE row without its MoE columns:
         * never predicted as the dense model it is not. */
        double derived = cf__llm_params(&w->llm) / 1e9;
        w->llm.params_b = d;
        if (derived > 0 && fabs(d - derived) > MOE_PARAMS_TOLERANCE * derived) {
            snprintf(why, whyn, "params_b %g is %.0f %% away from the %.3g billion parameters of "
                     "the %s shape (an MoE row needs experts, top_k, moe_ffn_hidden)", d,
                     100.0 * fabs(d - derived) / derived, derived,
                     cf__llm_is_moe(&w->llm) ? "MoE" : "dense");
            return why;
        }
    }
    if (*r->cell[C_PREC] && cf_precision_parse(r->cell[C_PREC], &w->precision) != CF_OK) {
        snprintf(why, whyn, "precision '%s' not one of %s", r->cell[C_PREC], cf_precision_accepted());
        return why;
    }
    /* framework (optional column): blank = the documented default, by the
     * row's ZeRO stage (cf_framework_resolve). */
    if (r->cell[C_FRAMEWORK] && *r->cell[C_FRAMEWORK] &&
        cf_framework_parse(r->cell[C_FRAMEWORK], &w->framework) != CF_OK) {
        snprintf(why, whyn, "framework '%s' not one of megatron, fsdp", r->cell[C_FRAMEWORK]);
        return why;
    }
    w->train_tokens = 1e12;
    return NULL;
}

/* The fabric and the node count: a multi-node row must state its network,
 * NICs and line rate; a one-node row without a network has none. */
static const char *row_fabric(const row_in *r, const long v[C__N], cf_fabric *fab, int *nodes,
                              char *why, size_t whyn)
{
    const cf_gpu_spec *gs;
    memset(fab, 0, sizeof *fab);
    snprintf(fab->gpu, sizeof fab->gpu, "%s", r->cell[C_GPU]);
    if (cf_gpu_lookup(fab->gpu, &gs) != CF_OK) {
        snprintf(why, whyn, "unknown gpu '%s'", r->cell[C_GPU]);
        return why;
    }
    fab->gpus_per_node = (int)v[C_GPN];
    if (fab->gpus_per_node < 1) return "gpus_per_node not stated";
    *nodes = (int)v[C_NODES];
    if (*nodes < 1) return "nodes not stated";
    fab->intra_link = CF_INTRA_UNKNOWN;
    if (*r->cell[C_INTRA]) cf_intra_link_parse(r->cell[C_INTRA], &fab->intra_link);
    fab->network = CF_NET_UNKNOWN;
    if (*r->cell[C_NET] && cf_network_parse(r->cell[C_NET], &fab->network) != CF_OK) {
        snprintf(why, whyn, "network '%s' not one of %s", r->cell[C_NET], cf_network_accepted());
        return why;
    }
    fab->nics_per_node = (int)v[C_NICS];
    fab->nic_gbps = 0;
    if (*r->cell[C_NICGBPS]) cf_parse_double(r->cell[C_NICGBPS], &fab->nic_gbps);
    fab->gdr = CF_GDR_UNKNOWN;
    fab->non_blocking = CF_CAP_UNKNOWN;
    fab->rail_optimized = CF_CAP_UNKNOWN;
    fab->in_network_reduction = CF_CAP_UNKNOWN;
    if (*nodes > 1 && (fab->network == CF_NET_UNKNOWN || fab->network == CF_NET_NONE ||
                       fab->nics_per_node < 1 || !(fab->nic_gbps > 0)))
        return "fabric not stated for a multi-node row";
    if (*nodes == 1 && fab->network == CF_NET_UNKNOWN) fab->network = CF_NET_NONE;
    return NULL;
}

/* The layout: its degrees must use the row's nodes x gpus_per_node GPUs
 * (`gpus`); recompute blank = unknown. */
static const char *row_layout(const row_in *r, const long v[C__N], long gpus, cf_layout *lay,
                              char *why, size_t whyn)
{
    cf_layout_init(lay);
    lay->tp = (int)v[C_TP];
    lay->pp = (int)v[C_PP];
    lay->vp = (int)v[C_VP];
    lay->dp = (int)v[C_DP];
    lay->cp = (int)v[C_CP];
    lay->micro_batch = (int)v[C_MB];
    lay->zero = (int)v[C_ZERO];
    lay->ep = (int)v[C_EP];     /* 0 = not stated: cf__validate_training_row chooses */
    lay->etp = (int)v[C_ETP];
    if (lay->tp < 1 || lay->pp < 1 || lay->vp < 1 || lay->dp < 1 || lay->cp < 1 ||
        lay->micro_batch < 1 || lay->zero > CF_MAX_ZERO_STAGE)
        return "layout not stated";
    if (layout_gpus(lay) != gpus) {
        if (layout_gpus(lay) < 0)
            snprintf(why, whyn, "tp*pp*dp*cp is over %ld but nodes*gpus_per_node = %ld", LONG_MAX,
                     gpus);
        else
            snprintf(why, whyn, "tp*pp*dp*cp = %ld but nodes*gpus_per_node = %ld", layout_gpus(lay),
                     gpus);
        return why;
    }
    lay->recompute = CF_RECOMPUTE_UNKNOWN;
    if (*r->cell[C_RECOMP] && cf_recompute_parse(r->cell[C_RECOMP], &lay->recompute) != CF_OK) {
        snprintf(why, whyn, "recompute '%s' not one of %s", r->cell[C_RECOMP], cf_recompute_accepted());
        return why;
    }
    lay->recompute_layers = (int)v[C_RC_LAYERS];
    if (lay->recompute_layers > 0 && lay->recompute != CF_RECOMPUTE_FULL)
        return "recompute_num_layers stated without recompute full";
    if ((long)lay->recompute_layers * lay->pp * lay->vp > MAX_COUNT) return "recompute_num_layers too large";
    return NULL;
}

/* The metric and its measured value (> 0). */
static const char *row_measured(const row_in *r, cf_metric *metric, double *measured, char *why,
                                size_t whyn)
{
    if (cf_metric_parse(r->cell[C_METRIC], metric) != CF_OK) {
        snprintf(why, whyn, "metric '%s' not one of %s", r->cell[C_METRIC], cf_metric_accepted());
        return why;
    }
    if (cf_parse_double(r->cell[C_VALUE], measured) != CF_OK || !(*measured > 0)) {
        snprintf(why, whyn, "value '%s' is not a positive number", r->cell[C_VALUE]);
        return why;
    }
    return NULL;
}

/* Builds the inputs of one row. Returns NULL when it can be predicted,
 * else the reason it is skipped (static string or `why`). */
static const char *row_inputs(const row_in *r, cf_workload *w, cf_fabric *fab, int *nodes,
                              cf_layout *lay, cf_metric *metric, double *measured, char *why,
                              size_t whyn)
{
    long v[C__N];
    const char *reason;
    if ((reason = row_counts(r, v, why, whyn)) != NULL) return reason;
    if (!*r->cell[C_NODES]) return "nodes not stated";
    if ((reason = row_workload(r, v, w, why, whyn)) != NULL) return reason;
    if ((reason = row_fabric(r, v, fab, nodes, why, whyn)) != NULL) return reason;
    if ((reason = row_layout(r, v, (long)*nodes * fab->gpus_per_node, lay, why, whyn)) != NULL)
        return reason;
    return row_measured(r, metric, measured, why, whyn);
}

cf_status cf__validate_training_row(const cf_workload *w, const cf_fabric *fab, int nodes,
                                    const cf_layout *in, cf_metric metric, double *predicted,
                                    cf_layout *used, cf_error *err)
{
    cf_layout lay = *in;
    cf_step_result r;
    cf_status st;
    cf_recompute counted = in->recompute == CF_RECOMPUTE_FULL ? CF_RECOMPUTE_FULL : CF_RECOMPUTE_NONE;
    cf__llm_flops fl;
    double usable = cf__gpu_usable_bytes(fab->gpu);
    long gpus = (long)nodes * fab->gpus_per_node;

    if (lay.ep == 0 && !cf__llm_is_moe(&w->llm)) lay.ep = 1;
    if (lay.ep == 0) {
        /* An MoE row that does not state ep: the least that fits with full
         * recompute (what a run of that memory must have used), else the
         * largest the layout takes. */
        long inner = (long)lay.tp * lay.dp * lay.cp / (lay.etp > 0 ? lay.etp : 1);
        cf_layout probe = lay;
        probe.recompute = CF_RECOMPUTE_FULL;
        for (long e = 1; e <= w->llm.moe.experts && e <= inner; e++) {
            if (w->llm.moe.experts % e != 0 || inner % e != 0) continue;
            probe.ep = lay.ep = (int)e;
            if (cf__llm_memory_bytes(w, &probe, NULL) <= usable) break;
        }
        if (lay.ep == 0) lay.ep = 1;
    }
    if (in->recompute == CF_RECOMPUTE_UNKNOWN) {
        /* The cheapest recompute that fits: what the run must have used.
         * Between selective and full of every layer, full recompute of the
         * first n layers of each pipeline chunk, n = 1, 2, ... (Megatron's
         * block method, recompute_num_layers, as NVIDIA's recipes set it;
         * dense models: the memory of a partial recompute is modelled for
         * dense layers only). */
        static const cf_recompute order[] = {CF_RECOMPUTE_NONE, CF_RECOMPUTE_SELECTIVE, CF_RECOMPUTE_FULL};
        long chunk = (w->llm.layers + (long)lay.pp * lay.vp - 1) / ((long)lay.pp * lay.vp);
        lay.recompute_layers = 0;
        for (size_t i = 0; i < 3; i++) {
            lay.recompute = order[i];
            if (order[i] == CF_RECOMPUTE_FULL && !cf__llm_is_moe(&w->llm))
                for (long n = 1; n < chunk; n++) {
                    lay.recompute_layers = (int)n;
                    if (cf__llm_memory_bytes(w, &lay, NULL) <= usable) break;
                    lay.recompute_layers = 0;
                }
            if (cf__llm_memory_bytes(w, &lay, NULL) <= usable) break;
        }
        /* Nothing fits: the run used what the row does not state (a
         * sharded optimizer, offload); do not charge recompute for it. */
        if (cf__llm_memory_bytes(w, &lay, NULL) > usable) {
            lay.recompute = CF_RECOMPUTE_NONE;
            lay.recompute_layers = 0;
        }
    }
    st = cf_step_predict(w, fab, nodes, &lay, &r, err);
    if (st != CF_OK) return st;
    *used = lay;
    cf__llm_flops_compute(&w->llm, &fl);
    switch (metric) {
    case CF_METRIC_TFLOPS_PER_GPU:
        *predicted = cf__llm_flops_counted(&fl, counted) * (double)w->global_batch_seqs /
                     r.step_time_s / (double)gpus / 1e12;
        break;
    case CF_METRIC_MFU: *predicted = r.mfu; break;
    case CF_METRIC_TOKENS_PER_S_PER_GPU: *predicted = r.tokens_per_s_per_gpu; break;
    default: *predicted = r.step_time_s; break;
    }
    return CF_OK;
}

/* The training kind of cf__validate_run: predicts every row of `t` (named
 * `path` in errors) into *out. */
static cf_status training_table(const cf__csv_table *t, const char *path, cf_validation *out,
                                cf_error *err)
{
    static const int required[] = {C_ID, C_MODEL, C_LAYERS, C_HIDDEN, C_FFN, C_HEADS, C_SEQ,
                                   C_VOCAB, C_GBS, C_TP, C_PP, C_DP, C_GPU, C_GPN, C_NODES,
                                   C_NET, C_NICS, C_NICGBPS, C_METRIC, C_VALUE};
    cf_status st;
    int col[C__N];

    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++) {
        st = cf__validate_require(t, path, colnames[required[i]], err);
        if (st != CF_OK) return st;
    }
    for (int i = 0; i < C__N; i++) col[i] = cf__csv_col(t, colnames[i]);
    for (size_t i = 0; i < t->nrows; i++) {
        row_in r;
        cf_workload w;
        cf_fabric fab;
        cf_layout lay;
        cf_metric metric;
        int nodes = 0;
        double measured = 0, predicted = 0;
        cf_layout used;
        char why[256], note[128];
        const char *reason;
        for (int c = 0; c < C__N; c++) r.cell[c] = cf__csv_cell(t, i, col[c]);
        reason = row_inputs(&r, &w, &fab, &nodes, &lay, &metric, &measured, why, sizeof why);
        if (!reason) {
            cf_error perr;
            cf_status ps;
            cf_error_clear(&perr);
            ps = cf__validate_training_row(&w, &fab, nodes, &lay, metric, &predicted, &used, &perr);
            if (ps != CF_OK || !isfinite(predicted) || predicted <= 0) {
                snprintf(why, sizeof why, "the model cannot predict this row (%.200s)",
                         ps != CF_OK && perr.message[0] ? perr.message : cf_strerror(ps));
                reason = why;
            }
        }
        if (reason)
            st = cf__validation_skip(out, r.cell[C_ID], reason);
        else {
            /* The note says which recompute the step time assumed. */
            if (lay.recompute == CF_RECOMPUTE_UNKNOWN)
                snprintf(note, sizeof note, "recompute unknown, assumed %s", cf_recompute_name(used.recompute));
            else
                snprintf(note, sizeof note, "recompute %s", cf_recompute_name(used.recompute));
            if (used.recompute == CF_RECOMPUTE_FULL && used.recompute_layers > 0)
                snprintf(note + strlen(note), sizeof note - strlen(note), " (%d layers per chunk)",
                         used.recompute_layers);
            /* ... and which framework class its compute efficiency is. */
            snprintf(note + strlen(note), sizeof note - strlen(note), "; %s%s",
                     cf_framework_name(cf_framework_resolve(w.framework, lay.zero)),
                     w.framework == CF_FW_DEFAULT ? " (by ZeRO stage)" : "");
            st = cf__validation_add(out, r.cell[C_ID], cf_metric_name(metric), predicted, measured,
                                    nodes > 1, note, r.cell[C_SOURCE]);
            if (st == CF_OK) {
                cf_validation_row *vr = &out->rows[out->n_rows - 1];
                vr->moe = cf__llm_is_moe(&w.llm);
                vr->framework = cf_framework_name(cf_framework_resolve(w.framework, lay.zero));
                vr->generation = cf__gpu_generation(fab.gpu);
                vr->seq = w.llm.seq;
            }
        }
        if (st != CF_OK) return st;
    }
    return cf__validation_finish(out, 0);
}

cf_status cf_validate_training(const char *path, cf_validation *out, cf_error *err)
{
    return cf__validate_run(training_table, path, NULL, 0, out, err);
}

cf_status cf__validate_training_text(const char *name, const char *data, size_t len,
                                     cf_validation *out, cf_error *err)
{
    return cf__validate_run(training_table, name, data ? data : "", len, out, err);
}
