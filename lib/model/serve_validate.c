/* serve_validate.c — `validate serving FILE.csv` (issue 25,
 * docs/model-serve.md "Validation"): each row a published serving
 * measurement with its layout; the model predicts its throughput per GPU
 * at the row's stated latency, and the result is the validation of
 * validate.h (median APE; the rows' sources for the by-source medians).
 * Columns (by header; unknown ignored): id, source, workload (a preset or
 * file), gpu, gpus_per_node, network, nics, nic_gbps, non_blocking,
 * rail_optimized (fabric, as cf_fabric_set reads them), input_tokens,
 * output_tokens (the row's request shape, overriding the workload's),
 * precision (bf16 | fp8 | fp4) and kv_cache (bf16 | fp8), blank = the
 * workload's,
 * phase (prefill | decode), par (ep | tp), instance_nodes, tp, tpot_ms
 * (decode: the latency the throughput is stated at; blank = the KV
 * memory's batch), ttft_s (prefill: blank = none), batch_tokens_per_gpu
 * (prefill: the stated batch; blank = the best under ttft_s), batch_per_gpu
 * (decode: the stated batch, e.g. SGLang's cuda-graph-bs; blank = the KV
 * memory's or the TPOT's), ep_imbalance (1: the row states perfectly
 * balanced routing; blank = SERVE_EP_IMBALANCE), measured
 * (tokens/s per GPU: input for prefill, output for decode). The serving
 * efficiencies of lib/model/fitspec.def are fitted on these rows (make fit;
 * validate serving --cv source gives the error out of sample by source). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "clusterfit/serve.h"
#include "base/base.h"
#include "model/model_int.h"
#include "model/serve_int.h"

static const char *const fabric_cols[] = {"gpu", "gpus_per_node", "network", "nics", "nic_gbps",
                                          "non_blocking", "rail_optimized", NULL};

static cf_status row_fabric(const cf__csv_table *t, size_t r, cf_fabric *f, cf_error *err)
{
    const cf_gpu_spec *g;
    cf_status st;
    cf_fabric_init(f);
    for (size_t i = 0; fabric_cols[i]; i++) {
        const char *v = cf__csv_cell(t, r, cf__csv_col(t, fabric_cols[i]));
        if (v[0] && (st = cf_fabric_set(f, fabric_cols[i], v, err)) != CF_OK)
            return st;
    }
    if ((st = cf__gpu_check(f->gpu, &g, err)) != CF_OK) return st;
    if (f->gpus_per_node < 1) f->gpus_per_node = g->gpus_per_node;
    if (f->intra_link == CF_INTRA_UNKNOWN) f->intra_link = g->intra_link;
    return CF_OK;
}

/* A number cell, NAN when blank; CF_EPARSE naming the column. */
static cf_status cell_num(const cf__csv_table *t, const char *path, size_t r, const char *col,
                          double *out, cf_error *err)
{
    int blank = 0;
    cf_status st = cf__validate_num(t, path, r, cf__csv_col(t, col), col, out, &blank, err);
    if (st == CF_OK && blank) *out = NAN;
    return st;
}

/* The row's precision and kv_cache cells (blank = the workload's): bf16,
 * fp8 or fp4 weights; bf16 or fp8 KV cache. */
static cf_status precisions(const cf__csv_table *t, const char *path, size_t r, cf_workload *w,
                            cf_error *err)
{
    const char *p = cf__csv_cell(t, r, cf__csv_col(t, "precision"));
    const char *k = cf__csv_cell(t, r, cf__csv_col(t, "kv_cache"));
    if (p[0]) {
        w->serve.weight_bits = strcmp(p, "fp4") == 0 ? 4 : strcmp(p, "fp8") == 0 ? 8 :
                               strcmp(p, "bf16") == 0 ? 16 : 0;
        if (!w->serve.weight_bits) {
            cf_error_set(err, path, (long)r + 2, 0, "precision: expected bf16, fp8 or fp4, got "
                         "'%.20s'", p);
            return CF_EPARSE;
        }
        w->precision = w->serve.weight_bits == 16 ? CF_PREC_BF16 : CF_PREC_FP8;
    }
    if (k[0]) {
        if (strcmp(k, "fp8") != 0 && strcmp(k, "bf16") != 0) {
            cf_error_set(err, path, (long)r + 2, 0, "kv_cache: expected bf16 or fp8, got '%.20s'", k);
            return CF_EPARSE;
        }
        w->serve.kv_bits = k[0] == 'f' ? 8 : 16;
    }
    return CF_OK;
}

/* The weights one GPU holds at the layout, GiB (NAN when the model refuses
 * the layout). */
static double weights_gib(const cf_workload *w, const cf_fabric *f, const cf_serve_layout *lay)
{
    cf_serve_decode d;
    cf_error e;
    cf_error_clear(&e);
    return cf_serve_decode_at(w, f, lay, 1, &d, &e) == CF_OK ? d.weights_gib_gpu : NAN;
}

/* A decode row's prediction: at the stated batch per GPU (bd; the KV
 * memory's batch when that is smaller), else the largest batch meeting the
 * row's TPOT (tpot_ms; NAN: the KV memory's batch). */
static cf_status decode_row(const cf_workload *w, const cf_fabric *f, const cf_serve_layout *lay,
                            double tpot_ms, double bd, cf_serve_decode *d, cf_error *err)
{
    cf_status st = cf_serve_decode_best(w, f, lay, isnan(tpot_ms) ? NAN : tpot_ms / 1e3, d, err);
    double gpus = lay->par == CF_SERVE_EP ? lay->nodes * f->gpus_per_node : lay->tp * lay->nodes;
    if (st != CF_OK || isnan(bd) || d->batch <= bd * gpus) return st;
    return cf_serve_decode_at(w, f, lay, bd * gpus, d, err);
}

/* The row's workload, layout and prediction. *skip gets a reason when the
 * model cannot predict the row (a refusal of its inputs). */
static cf_status predict(const cf__csv_table *t, const char *path, size_t r, double *pred,
                         int *moe, char *note, size_t nn, char *skip, size_t ns, cf_error *err)
{
    cf_workload w;
    cf_fabric f;
    cf_serve_layout lay;
    cf_error e2;
    double in, outt, nodes, tp, tpot, ttft, bt, bd, imb;
    const char *phase = cf__csv_cell(t, r, cf__csv_col(t, "phase"));
    const char *par = cf__csv_cell(t, r, cf__csv_col(t, "par"));
    cf_status st;
    cf_error_clear(&e2);
    if (cf_workload_load(cf__csv_cell(t, r, cf__csv_col(t, "workload")), &w, &e2) != CF_OK ||
        w.kind != CF_WL_SERVE || row_fabric(t, r, &f, &e2) != CF_OK) {
        snprintf(skip, ns, "%.250s", e2.message[0] ? e2.message : "workload is not a serve workload");
        return CF_OK;
    }
    *moe = cf__llm_is_moe(&w.llm);
    if ((st = cell_num(t, path, r, "input_tokens", &in, err)) || (st = cell_num(t, path, r, "output_tokens", &outt, err)) ||
        (st = cell_num(t, path, r, "instance_nodes", &nodes, err)) || (st = cell_num(t, path, r, "tp", &tp, err)) ||
        (st = cell_num(t, path, r, "tpot_ms", &tpot, err)) || (st = cell_num(t, path, r, "ttft_s", &ttft, err)) ||
        (st = cell_num(t, path, r, "batch_tokens_per_gpu", &bt, err)) ||
        (st = cell_num(t, path, r, "batch_per_gpu", &bd, err)))
        return st;
    if ((st = precisions(t, path, r, &w, err)) != CF_OK) return st;
    if ((st = cell_num(t, path, r, "ep_imbalance", &imb, err)) != CF_OK) return st;
    if (imb >= 1) w.serve.ep_imbalance = imb;
    if (in >= 1) w.serve.input_tokens = (long)in;
    if (outt >= 1) w.serve.output_tokens = (long)outt;
    lay.par = strcmp(par, "ep") == 0 ? CF_SERVE_EP : CF_SERVE_TP;
    lay.nodes = nodes >= 1 ? (int)nodes : 1;
    lay.tp = lay.par == CF_SERVE_EP ? 1 : tp >= 1 ? (int)tp : f.gpus_per_node;
    if (strcmp(phase, "decode") == 0) {
        cf_serve_decode d;
        if (decode_row(&w, &f, &lay, tpot, bd, &d, &e2) != CF_OK) {
            snprintf(skip, ns, "%.250s", e2.message);
            return CF_OK;
        }
        *pred = d.tokens_per_s_gpu;
        snprintf(note, nn, "decode batch %.0f/GPU, %s", d.batch / (lay.par == CF_SERVE_EP ?
                 lay.nodes * f.gpus_per_node : lay.tp * lay.nodes), d.binds);
    } else if (strcmp(phase, "prefill") == 0) {
        cf_serve_prefill p;
        int gpus = lay.par == CF_SERVE_EP ? lay.nodes * f.gpus_per_node : lay.tp * lay.nodes;
        cf_status s2 = isnan(bt) ? cf_serve_prefill_best(&w, &f, &lay, ttft, &p, &e2)
                                 : cf_serve_prefill_at(&w, &f, &lay, bt * gpus, &p, &e2);
        if (s2 != CF_OK) {
            snprintf(skip, ns, "%.250s", e2.message);
            return CF_OK;
        }
        if (!(p.tokens_per_s_gpu > 0)) {
            snprintf(skip, ns, "the model holds no prompt beside the weights (%.0f GiB per GPU "
                     "at this layout; binds: %s)", weights_gib(&w, &f, &lay),
                     p.binds);
            return CF_OK;
        }
        *pred = p.tokens_per_s_gpu;
        snprintf(note, nn, "prefill %.0f tokens/GPU, %s", p.tokens / gpus, p.binds);
    } else {
        snprintf(skip, ns, "phase '%.20s': expected prefill or decode", phase);
    }
    return CF_OK;
}

/* Marks a serving row for the fit and the classes (serve_int.h): its phase
 * in `framework` ("prefill" or "decode", static), its GPU generation. */
static void mark_row(cf_validation_row *row, const char *phase, int moe, const char *gpu)
{
    row->size_class = CF__VROW_SERVING;
    row->moe = moe;
    row->framework = strcmp(phase, "decode") == 0 ? "decode" : "prefill";
    row->generation = cf__gpu_generation(gpu);
}

static cf_status serving_table(const cf__csv_table *t, const char *path, cf_validation *out,
                               cf_error *err)
{
    static const char *const req[] = {"id", "workload", "gpu", "phase", "par", "measured", NULL};
    cf_status st;
    for (size_t i = 0; req[i]; i++)
        if ((st = cf__validate_require(t, path, req[i], err)) != CF_OK) return st;
    for (size_t r = 0; r < t->nrows; r++) {
        const char *id = cf__csv_cell(t, r, cf__csv_col(t, "id"));
        const char *phase = cf__csv_cell(t, r, cf__csv_col(t, "phase"));
        char note[128] = "", skip[256] = "", metric[48], src[256];
        double measured, pred = NAN, nodes;
        int moe = 0;
        if ((st = cell_num(t, path, r, "measured", &measured, err)) != CF_OK) return st;
        if ((st = cell_num(t, path, r, "instance_nodes", &nodes, err)) != CF_OK) return st;
        if ((st = predict(t, path, r, &pred, &moe, note, sizeof note, skip, sizeof skip, err)) != CF_OK)
            return st;
        if (!skip[0] && !(measured > 0)) snprintf(skip, sizeof skip, "measured not stated");
        if (skip[0]) {
            if ((st = cf__validation_skip(out, id, skip)) != CF_OK) return st;
            continue;
        }
        snprintf(metric, sizeof metric, "%s_tok_s_gpu", strcmp(phase, "decode") == 0 ? "out" : "in");
        cf__validation_source_key(cf__csv_cell(t, r, cf__csv_col(t, "source")), src, sizeof src);
        if ((st = cf__validation_add(out, id, metric, pred, measured, nodes > 1, note, src)) != CF_OK)
            return st;
        mark_row(&out->rows[out->n_rows - 1], phase, moe, cf__csv_cell(t, r, cf__csv_col(t, "gpu")));
    }
    return cf__validation_finish(out, 0);
}

cf_status cf_validate_serving(const char *path, cf_validation *out, cf_error *err)
{
    return cf__validate_run(serving_table, path, NULL, 0, out, err);
}

cf_status cf__validate_serving_text(const char *name, const char *data, size_t len,
                                    cf_validation *out, cf_error *err)
{
    return cf__validate_run(serving_table, name, data, len, out, err);
}
