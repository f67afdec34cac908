/* serve_row.c — a serve plan's row (docs/model-serve.md "Plan"): the
 * prefill and decode pools of a deployment and the why sentence, naming
 * what binds: the KV memory, HBM bandwidth, the all-to-all, compute, TTFT. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "base/base.h"
#include "model/model_int.h"
#include "plan/serve_int.h"

static json_t *step_json(const cf_serve_decode *d)
{
    return json_pack("{s:f,s:f,s:f}", "mem_ms", d->mem_s * 1e3, "compute_ms", d->compute_s * 1e3,
                     "comm_ms", d->comm_s * 1e3);
}

/* o with its figures banded (cf_serve_band_keys), or NULL (o freed). */
static json_t *banded(json_t *o, const char *const *rates, const char *const *times)
{
    if (cf_serve_band_keys(o, rates, times) == 0) return o;
    json_decref(o);
    return NULL;
}

static json_t *decode_json(const cf__serve_phase *ph, int inst, int nodes, int gpn)
{
    static const char *const rates[] = {"output_tokens_per_s_gpu", NULL};
    static const char *const times[] = {"tpot_ms", NULL};
    char lay[64];
    cf_serve_layout_text(&ph->lay, gpn, lay, sizeof lay);
    return banded(json_pack("{s:s,s:s,s:i,s:i,s:i,s:i,s:f,s:f,s:f,s:f,s:s,s:o,s:f}", "layout", lay, "par",
                     cf_serve_par_name(ph->lay.par), "tp", ph->lay.tp, "instance_nodes",
                     ph->lay.nodes, "instances", inst, "nodes", nodes, "batch", ph->d.batch,
                     "batch_per_gpu", ph->d.batch / ph->gpus, "tpot_ms", ph->d.tpot_s * 1e3,
                     "output_tokens_per_s_gpu", ph->d.tokens_per_s_gpu, "binds", ph->d.binds,
                     "step", step_json(&ph->d), "weights_gib_gpu", ph->d.weights_gib_gpu),
                  rates, times);
}

static json_t *prefill_json(const cf__serve_phase *ph, int inst, int nodes, int gpn)
{
    static const char *const rates[] = {"input_tokens_per_s_gpu", NULL};
    static const char *const times[] = {"ttft_s", NULL};
    char lay[64];
    cf_serve_layout_text(&ph->lay, gpn, lay, sizeof lay);
    return banded(json_pack("{s:s,s:s,s:i,s:i,s:i,s:i,s:f,s:f,s:f,s:f,s:s}", "layout", lay, "par",
                     cf_serve_par_name(ph->lay.par), "tp", ph->lay.tp, "instance_nodes",
                     ph->lay.nodes, "instances", inst, "nodes", nodes, "batch_tokens",
                     ph->p.tokens, "ttft_s", ph->p.ttft_s, "kv_transfer_ms",
                     ph->p.kv_transfer_s * 1e3, "input_tokens_per_s_gpu", ph->p.tokens_per_s_gpu,
                     "binds", ph->p.binds),
                  rates, times);
}

/* The decode's binding part in words, with its share of the step. */
static void decode_words(char *buf, size_t n, const cf__serve_phase *ph)
{
    const cf_serve_decode *d = &ph->d;
    if (strcmp(d->binds, "KV memory") == 0)
        snprintf(buf, n, "decode batch %.0f per GPU is bound by KV memory (%.1f GiB of weights per "
                 "GPU), TPOT %.3g ms", d->batch / ph->gpus, d->weights_gib_gpu, d->tpot_s * 1e3);
    else
        snprintf(buf, n, "decode batch %.0f per GPU is bound by the TPOT target at %.3g ms: %s "
                 "dominates the step (HBM %.3g, compute %.3g, communication %.3g ms)",
                 d->batch / ph->gpus, d->tpot_s * 1e3, d->binds, d->mem_s * 1e3,
                 d->compute_s * 1e3, d->comm_s * 1e3);
}

static void why_text(char *buf, size_t n, const cf_workload *w, const cf__serve_deploy *d,
                     int gpn)
{
    char dec[256], lay[64], play[64];
    const cf__serve_phase *ph = &d->dec;
    decode_words(dec, sizeof dec, ph);
    cf_serve_layout_text(&ph->lay, gpn, lay, sizeof lay);
    if (d->colocated) {
        snprintf(buf, n, "one pool (%s) does both phases, cheaper per request than separate pools; "
                 "%s; prefill of %.0f-token prompts takes %.0f %% of the time", lay, dec,
                 (double)w->serve.input_tokens,
                 100.0 * ph->rate_gpu * (double)w->serve.input_tokens / ph->p.tokens_per_s_gpu);
        return;
    }
    cf_serve_layout_text(&d->pre.lay, gpn, play, sizeof play);
    snprintf(buf, n, "decode %s: %s; prefill %s bound by %s (TTFT %.2g s); %d prefill + %d decode "
             "nodes balance %ld-token prompts against %ld-token answers", lay, dec, play,
             d->pre.p.binds, d->pre.p.ttft_s, d->pre_nodes, d->dec_nodes, w->serve.input_tokens,
             w->serve.output_tokens);
}

static json_t *int_or_null(int ok, int v)
{
    return ok ? json_integer(v) : json_null();
}

int cf__serve_pools_json(json_t *row, const cf__serve_deploy *d, int copies)
{
    int pi = d->colocated ? d->dec_inst : d->pre_inst, pn = d->colocated ? d->dec_nodes : d->pre_nodes;
    return json_object_set_new(row, "decode_instances", int_or_null(d->ok, d->dec_inst)) ||
           json_object_set_new(row, "decode_nodes", int_or_null(d->ok, d->dec_nodes)) ||
           json_object_set_new(row, "prefill_instances", int_or_null(d->ok, pi)) ||
           json_object_set_new(row, "prefill_nodes", int_or_null(d->ok, pn)) ||
           json_object_set_new(row, "copies", int_or_null(d->ok, copies));
}

json_t *cf__serve_row_json(const cf_workload *w, const cf__serve_deploy *d, int gpn)
{
    char why[768];
    json_t *row = json_object(), *pre, *dec;
    if (!row) return NULL;
    why_text(why, sizeof why, w, d, gpn);
    if (d->colocated) {
        pre = prefill_json(&d->pre, d->dec_inst, d->dec_nodes, gpn);
        dec = decode_json(&d->dec, d->dec_inst, d->dec_nodes, gpn);
    } else {
        pre = prefill_json(&d->pre, d->pre_inst, d->pre_nodes, gpn);
        dec = decode_json(&d->dec, d->dec_inst, d->dec_nodes, gpn);
    }
    if (!pre || !dec || json_object_set_new(row, "mode", json_string(d->colocated ? "colocated"
                                                                                  : "disaggregated")) ||
        json_object_set_new(row, "prefill", pre) || json_object_set_new(row, "decode", dec) ||
        json_object_set_new(row, "why", json_string(why))) {
        json_decref(row);
        return NULL;
    }
    return row;
}

/* Why nothing serves on the offering, naming the binding fact: the
 * weights beyond the GPUs' memory, no KV room beside them, the TPOT or
 * TTFT target below one step, or the two targets together. Returns the
 * kind (static). */
const char *cf__serve_none_reason(const cf_workload *w, const cf__serve_search *s, const char *gpu,
                                  long gpn, double tpot_s, double ttft_s, char *buf, size_t n)
{
    const char *prec = w->serve.weight_bits == 16 ? "bf16" : w->serve.weight_bits == 8 ? "fp8" : "fp4";
    int k = s->min_weights_nodes;
    const char *cap = s->max_nodes < CF_SERVE_MAX_INSTANCE_NODES ? " (the cluster's size)" : "";
    if (!s->holds && isfinite(s->min_weights_gib) &&
        s->min_weights_gib * CF__GIB >= cf__gpu_usable_bytes(gpu)) {
        snprintf(buf, n, "the weights (%.0f GB at %s) do not fit %d node%s%s of %ld x %s: %.1f GiB "
                 "per GPU on the widest layout, more than the GPU holds",
                 cf_serve_weight_bytes(w) / 1e9, prec, k, k == 1 ? "" : "s", cap,
                 gpn, gpu, s->min_weights_gib);
        return "weights";
    }
    if (!s->holds && !isfinite(s->min_weights_gib)) {   /* no layout was valid */
        snprintf(buf, n, "no layout of up to %d nodes holds the weights and one request's KV cache",
                 s->max_nodes);
        return "kv_memory";
    }
    if (!s->holds) {
        snprintf(buf, n, "on %d node%s%s of %ld x %s the weights take %.1f GiB per GPU and leave no "
                 "room for one request's KV cache (%.0f MiB: its %ld-token prompt and half its "
                 "answer)", k, k == 1 ? "" : "s", cap, gpn, gpu, s->min_weights_gib,
                 cf_serve_kv_bytes_per_token(w) *
                 ((double)w->serve.input_tokens + 0.5 * (double)w->serve.output_tokens) / (1024.0 * 1024.0),
                 w->serve.input_tokens);
        return "kv_memory";
    }
    if (!s->dec.ok && isfinite(s->min_tpot_s)) {
        snprintf(buf, n, "TPOT target %.3g ms is below one decode step at batch 1 (%.3g ms at best)",
                 tpot_s * 1e3, s->min_tpot_s * 1e3);
        return "tpot";
    }
    if (!s->pre.ok && !s->colo.ok && isfinite(s->min_ttft_s)) {
        snprintf(buf, n, "TTFT target %.3g s is below one prompt's prefill (%.3g s at best)",
                 ttft_s, s->min_ttft_s);
        return "ttft";
    }
    if (!s->multinode)
        snprintf(buf, n, "on one node (no network to pools on other nodes) one pool does both "
                 "phases, and with prefill's share of its time no decode batch meets the TPOT "
                 "target %.3g ms", tpot_s * 1e3);
    else
        snprintf(buf, n, "no deployment meets both targets within %d nodes", s->max_nodes);
    return "targets";
}
