/* serve_fit.c — `fit` and `scale` for a serve workload (issue 25,
 * docs/model-serve.md "Fit and scale"). fit: does one node hold the model
 * with a useful batch (CF_SERVE_USEFUL_BATCH_PER_GPU sequences per GPU of
 * KV room beside the weights), else the fewest nodes of an instance that
 * do. scale: per cluster size of one offering, the cheapest deployment
 * (serve_search.c) in as many copies as the nodes hold, and its tokens/s. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "clusterfit/fabric.h"
#include "base/base.h"
#include "model/model_int.h"
#include "plan/serve_int.h"

/* The best layout of an instance of n nodes by KV room per GPU: its
 * decode at the target into *d, its layout into *lay; 0 when none is
 * valid. */
static int best_room(const cf_workload *w, const cf_fabric *fab, int n, double tpot_s,
                     cf_serve_layout *lay, cf_serve_decode *d, double *least_gib)
{
    int found = 0, gpn = fab->gpus_per_node;
    double best = -1;
    if (least_gib) *least_gib = INFINITY;
    for (int k = 0; k <= gpn; k++) {
        cf_serve_layout l = {k == 0 ? CF_SERVE_EP : CF_SERVE_TP, n, k == 0 ? 1 : k};
        cf_serve_decode x;
        int gpus = k == 0 ? n * gpn : k * n;
        if (k > 0 && (gpn % k != 0 || (n > 1 && k != gpn))) continue;
        if (cf_serve_layout_check(w, fab, &l, NULL) != CF_OK) continue;
        if (cf_serve_decode_best(w, fab, &l, tpot_s, &x, NULL) != CF_OK) continue;
        if (least_gib) *least_gib = fmin(*least_gib, x.weights_gib_gpu);
        if (x.max_batch / gpus > best) {
            best = x.max_batch / gpus;
            *lay = l;
            *d = x;
            found = 1;
        }
    }
    return found;
}

/* Why one node does not hold a useful batch: the weights alone beyond the
 * GPU's memory on the widest layout, or the KV room they leave (d1: the
 * one-node layout of most room, gpus1 its GPUs; least_gib the least
 * weights per GPU of any one-node layout). */
static void fit_why_not(const cf_workload *w, const cf_gpu_spec *g, int gpn,
                        const cf_serve_decode *d1, int gpus1, double least_gib, char *buf,
                        size_t n)
{
    const char *prec = w->serve.weight_bits == 16 ? "bf16" : w->serve.weight_bits == 8 ? "fp8" : "fp4";
    if (least_gib * CF__GIB >= cf__gpu_usable_bytes(g->name))
        snprintf(buf, n, "the weights (%.0f GB at %s) do not fit one node of %d x %s: %.1f GiB per "
                 "GPU on its widest layout, more than the GPU holds", cf_serve_weight_bytes(w) / 1e9,
                 prec, gpn, g->name, least_gib);
    else
        snprintf(buf, n, "one node of %d x %s holds the weights (%.1f GiB per GPU at %s) but leaves "
                 "KV room for %.0f sequences per GPU, fewer than a useful batch of %d", gpn, g->name,
                 d1->weights_gib_gpu, prec, d1->max_batch / gpus1, CF_SERVE_USEFUL_BATCH_PER_GPU);
}

static cf_status fit_fabric(const char *gpu, int gpn, cf_fabric *f, const cf_gpu_spec **g,
                            cf_error *err)
{
    cf_status st;
    cf_fabric_init(f);
    if ((st = cf_fabric_set(f, "gpu", gpu, err)) != CF_OK) return st;
    if ((st = cf_gpu_lookup(f->gpu, g)) != CF_OK) return st;
    f->gpus_per_node = gpn > 0 ? gpn : (*g)->gpus_per_node;
    f->intra_link = (*g)->intra_link;
    /* beyond one node: an InfiniBand NIC of 400 Gb/s per GPU; the KV room
     * does not depend on the network, only the decode rate shown does */
    f->network = CF_NET_IB;
    f->nics_per_node = f->gpus_per_node;
    f->nic_gbps = 400;
    return CF_OK;
}

cf_status cf_serve_fit(const cf_workload *w, const char *gpu, int gpn, const cf_serve_opts *so,
                       json_t **out, cf_error *err)
{
    cf_fabric f, one;
    const cf_gpu_spec *g;
    cf_serve_layout lay, l1;
    cf_serve_decode d, d1;
    double tpot_s = so && !isnan(so->tpot_ms) ? so->tpot_ms / 1e3
                  : isnan(w->serve.tpot_ms) ? NAN : w->serve.tpot_ms / 1e3;
    int fits1, min_n = 0, gpus1;
    double least;
    char lt[64] = "", mt[64] = "", why[256];
    cf_status st;
    cf_serve_layout probe = {CF_SERVE_TP, 1, 1};
    *out = NULL;
    if ((st = fit_fabric(gpu, gpn, &f, &g, err)) != CF_OK) return st;
    one = f;
    one.network = CF_NET_NONE;
    one.nics_per_node = 0;
    if ((st = cf_serve_layout_check(w, &one, &probe, err)) != CF_OK) return st;
    fits1 = best_room(w, &one, 1, tpot_s, &l1, &d1, &least);
    gpus1 = l1.par == CF_SERVE_EP ? f.gpus_per_node : l1.tp;
    fits1 = fits1 && d1.max_batch / gpus1 >= CF_SERVE_USEFUL_BATCH_PER_GPU;
    if (fits1) cf_serve_layout_text(&l1, f.gpus_per_node, lt, sizeof lt);
    for (int n = 1; n <= CF_SERVE_MAX_INSTANCE_NODES && !min_n; n++) {
        if (!best_room(w, n == 1 ? &one : &f, n, tpot_s, &lay, &d, NULL)) continue;
        if (d.max_batch / (lay.par == CF_SERVE_EP ? n * f.gpus_per_node : lay.tp * n) >=
            CF_SERVE_USEFUL_BATCH_PER_GPU) {
            min_n = n;
            cf_serve_layout_text(&lay, f.gpus_per_node, mt, sizeof mt);
        }
    }
    if (fits1)
        snprintf(why, sizeof why, "one node holds %.1f GiB of weights per GPU and KV room for %.0f "
                 "sequences per GPU (a useful batch is %d)", d1.weights_gib_gpu,
                 d1.max_batch / gpus1, CF_SERVE_USEFUL_BATCH_PER_GPU);
    else
        fit_why_not(w, g, f.gpus_per_node, &d1, gpus1, least, why, sizeof why);
    *out = json_pack("{s:s,s:s,s:i,s:b,s:o,s:f,s:f,s:i,s:o,s:o,s:s}", "workload", w->name, "gpu",
                     g->name, "gpus_per_node", f.gpus_per_node, "fits_one_node", fits1, "layout",
                     fits1 ? json_string(lt) : json_null(), "weight_gb_total",
                     cf_serve_weight_bytes(w) / 1e9, "kv_bytes_per_token",
                     cf_serve_kv_bytes_per_token(w), "useful_batch_per_gpu",
                     CF_SERVE_USEFUL_BATCH_PER_GPU, "min_nodes",
                     min_n ? json_integer(min_n) : json_null(), "min_nodes_layout",
                     min_n ? json_string(mt) : json_null(), "why", why);
    if (*out && fits1) {
        json_object_set_new(*out, "max_batch_per_gpu", json_real(d1.max_batch / gpus1));
        json_object_set_new(*out, "decode_tokens_per_s_gpu", json_real(d1.tokens_per_s_gpu));
        if (cf_serve_band_json_set(*out, "decode_tokens_per_s_gpu", d1.tokens_per_s_gpu,
                                   CF_SERVE_BAND_RATE)) {
            json_decref(*out);
            *out = NULL;
        }
        json_object_set_new(*out, "weights_gib_gpu", json_real(d1.weights_gib_gpu));
    }
    return *out ? CF_OK : CF_ENOMEM;
}

static cf_status offering_fab(const void *user, int nodes, cf_fabric *out)
{
    return cf_fabric_for_nodes((const cf_offering *)user, nodes, out, NULL);
}

/* A scale row with its figures banded (cf_serve_band_keys; null where
 * nothing serves), or NULL (r freed) on ENOMEM. */
static json_t *scale_banded(json_t *r)
{
    static const char *const rates[] = {"requests_per_s", "output_tokens_per_s",
                                        "output_tokens_per_s_node", "input_tokens_per_s", NULL};
    static const char *const times[] = {"tpot_ms", NULL};
    if (cf_serve_band_keys(r, rates, times) == 0) return r;
    json_decref(r);
    return NULL;
}

static json_t *scale_row(const cf_workload *w, int n, const cf__serve_search *s,
                         const cf__serve_deploy *d, const cf__serve_deploy *one, int copies,
                         const cf_fabric *f, double tpot_s, double ttft_s)
{
    char dl[64], pl[64], why[400];
    json_t *row;
    const cf__serve_phase *dec = &d->dec;
    int gpn = f->gpus_per_node;
    if (!d->ok) {   /* why nothing serves on this many nodes */
        const char *kind = cf__serve_none_reason(w, s, f->gpu, gpn, tpot_s, ttft_s, why, sizeof why);
        return json_pack("{s:i,s:n,s:n,s:n,s:n,s:n,s:n,s:s,s:s}", "nodes", n, "nodes_used", "mode",
                         "requests_per_s", "output_tokens_per_s", "output_tokens_per_s_node",
                         "decode_layout", "kind", kind, "why", why);
    }
    cf_serve_layout_text(&dec->lay, gpn, dl, sizeof dl);
    cf_serve_layout_text(&d->pre.lay, gpn, pl, sizeof pl);
    row = json_pack("{s:i,s:i,s:s,s:f,s:f,s:f,s:f,s:s,s:f,s:s,s:s}", "nodes", n, "nodes_used",
                     d->nodes, "mode", d->colocated ? "colocated" : "disaggregated",
                     "requests_per_s", d->rps, "output_tokens_per_s",
                     d->rps * (double)w->serve.output_tokens, "output_tokens_per_s_node",
                     d->rps * (double)w->serve.output_tokens / d->nodes, "input_tokens_per_s",
                     d->rps * (double)w->serve.input_tokens, "decode_layout", dl, "tpot_ms",
                     dec->d.tpot_s * 1e3, "decode_binds", dec->d.binds, "prefill_layout", pl);
    if (row && cf__serve_pools_json(row, one, copies)) {      /* the pools' instances and nodes */
        json_decref(row);
        row = NULL;
    }
    return row;
}

cf_status cf_serve_scale(const cf_offering *o, const cf_workload *w, const cf_serve_opts *so,
                         const int *nodes, size_t n_nodes, json_t **out, cf_error *err)
{
    static const int ladder[] = {1, 2, 4, 8, 16, 32, 64, 128};
    double tpot_s = so && !isnan(so->tpot_ms) ? so->tpot_ms / 1e3
                  : isnan(w->serve.tpot_ms) ? NAN : w->serve.tpot_ms / 1e3;
    double ttft_s = so && !isnan(so->ttft_s) ? so->ttft_s : w->serve.ttft_s;
    cf_fabric f;
    cf_status st;
    json_t *arr;
    *out = NULL;
    if ((st = cf_fabric_for_nodes(o, 1, &f, err)) != CF_OK) return st;
    if (!(arr = json_array())) return CF_ENOMEM;
    if (!nodes) {
        nodes = ladder;
        n_nodes = sizeof ladder / sizeof ladder[0];
    }
    for (size_t i = 0; i < n_nodes; i++) {
        cf__serve_search s;
        cf__serve_deploy d, one;
        int copies = 1;
        cf_fabric fn;
        json_t *row;
        if (nodes[i] > 1 && cf_fabric_for_nodes(o, nodes[i], &fn, NULL) != CF_OK) break;
        if ((st = cf__serve_search_run(w, offering_fab, o, nodes[i], tpot_s, ttft_s, &s, err)))
            break;
        cf__serve_deploy_best(w, &s, f.gpus_per_node, nodes[i], &d);
        one = d;
        if (d.ok) {     /* as many copies of the deployment as the nodes hold */
            copies = nodes[i] / d.nodes;
            d.rps *= copies;
            d.nodes *= copies;
        }
        if (!(row = scale_banded(scale_row(w, nodes[i], &s, &d, &one, copies, &f, tpot_s,
                                           ttft_s))) ||
            json_array_append_new(arr, row)) {
            st = CF_ENOMEM;
            break;
        }
    }
    if (st != CF_OK) {
        json_decref(arr);
        return st;
    }
    *out = arr;
    return CF_OK;
}
