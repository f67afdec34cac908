/* serve_row.c — a serve plan's row (docs/model-serve.md "Plan"): the
 * prefill and decode pools of a deployment and the why sentence, naming
 * what binds: the KV memory, HBM bandwidth, the all-to-all, compute, TTFT. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "base/base.h"
#include "plan/serve_int.h"

static json_t *step_json(const cf_serve_decode *d)
{
    return json_pack("{s:f,s:f,s:f}", "mem_ms", d->mem_s * 1e3, "compute_ms", d->compute_s * 1e3,
                     "comm_ms", d->comm_s * 1e3);
}

static json_t *decode_json(const cf__serve_phase *ph, int inst, int nodes, int gpn)
{
    char lay[64];
    cf_serve_layout_text(&ph->lay, gpn, lay, sizeof lay);
    return json_pack("{s:s,s:s,s:i,s:i,s:i,s:i,s:f,s:f,s:f,s:f,s:s,s:o,s:f}", "layout", lay, "par",
                     cf_serve_par_name(ph->lay.par), "tp", ph->lay.tp, "instance_nodes",
                     ph->lay.nodes, "instances", inst, "nodes", nodes, "batch", ph->d.batch,
                     "batch_per_gpu", ph->d.batch / ph->gpus, "tpot_ms", ph->d.tpot_s * 1e3,
                     "output_tokens_per_s_gpu", ph->d.tokens_per_s_gpu, "binds", ph->d.binds,
                     "step", step_json(&ph->d), "weights_gib_gpu", ph->d.weights_gib_gpu);
}

static json_t *prefill_json(const cf__serve_phase *ph, int inst, int nodes, int gpn)
{
    char lay[64];
    cf_serve_layout_text(&ph->lay, gpn, lay, sizeof lay);
    return json_pack("{s:s,s:s,s:i,s:i,s:i,s:i,s:f,s:f,s:f,s:f,s:s}", "layout", lay, "par",
                     cf_serve_par_name(ph->lay.par), "tp", ph->lay.tp, "instance_nodes",
                     ph->lay.nodes, "instances", inst, "nodes", nodes, "batch_tokens",
                     ph->p.tokens, "ttft_s", ph->p.ttft_s, "kv_transfer_ms",
                     ph->p.kv_transfer_s * 1e3, "input_tokens_per_s_gpu", ph->p.tokens_per_s_gpu,
                     "binds", ph->p.binds);
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
