/* serve_search.c — the search of one node type for a serve workload
 * (docs/model-serve.md "Plan"): per instance size (CF_SERVE_MAX_INSTANCE_NODES
 * at most, the counts of `sizes`) and layout (TP at each tp dividing the
 * node's GPUs and the heads on one node, TP x PP over whole nodes beyond;
 * EP for MoE), the decode batch meeting the TPOT target and the prefill
 * batch meeting the TTFT target; the best of each phase and the best
 * colocated layout (one pool doing both: the decode step stretched by the
 * share of time the prefill takes, chunked-prefill style). Then the
 * deployment: the pool sizes that balance the two phases per request. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "clusterfit/plan.h"
#include "base/base.h"
#include "model/model_int.h"
#include "plan/serve_int.h"

/* Instance sizes searched, nodes (DeepSeek's 4 and 18, SGLang's 3, 4, 9,
 * and the powers of two). */
static const int sizes[CF__SERVE_SIZES] = {1, 2, 3, 4, 6, 8, 9, 12, 16, 18, 24, 32, 40};

/* Stretch factors of the colocated decode step tried: the step may take
 * this share of the TPOT target, the prefill the rest. */
static const double shares[] = {0.9, 0.75, 0.6, 0.45, 0.3};

/* Keeps (lay, gpus) with rate in *best when it beats it; 1 when kept. */
static int better(cf__serve_phase *best, const cf_serve_layout *lay, int gpus, double rate)
{
    if (!(rate > best->rate_gpu)) return 0;
    best->ok = 1;
    best->lay = *lay;
    best->gpus = gpus;
    best->rate_gpu = rate;
    return 1;
}

static void keep_decode(cf__serve_search *o, int at, const cf_serve_layout *lay, int gpus,
                        const cf_serve_decode *d)
{
    if (!(d->batch > 0)) return;
    if (better(&o->dec, lay, gpus, d->tokens_per_s_gpu)) o->dec.d = *d;
    if (better(&o->dec_at[at], lay, gpus, d->tokens_per_s_gpu)) o->dec_at[at].d = *d;
}

static void keep_prefill(cf__serve_search *o, int at, const cf_serve_layout *lay, int gpus,
                         const cf_serve_prefill *p)
{
    if (!(p->tokens > 0)) return;
    if (better(&o->pre, lay, gpus, p->tokens_per_s_gpu)) o->pre.p = *p;
    if (better(&o->pre_at[at], lay, gpus, p->tokens_per_s_gpu)) o->pre_at[at].p = *p;
}

static void keep_colo(cf__serve_phase *c, const cf_serve_layout *lay, int gpus, double r,
                      const cf_serve_decode *d, double stretch, const cf_serve_prefill *p)
{
    if (!better(c, lay, gpus, r)) return;
    c->d = *d;
    c->d.tpot_s = d->tpot_s * stretch;
    c->p = *p;
}

/* The colocated pool on one layout: requests/s per GPU when the decode step
 * takes `share` of the TPOT target and prefill batches run between steps. */
static cf_status colocated(const cf_workload *w, const cf_fabric *fab, const cf_serve_layout *lay,
                           int gpus, const cf_serve_prefill *p, double tpot_s,
                           cf__serve_search *o, int at, cf_error *err)
{
    double S = (double)w->serve.input_tokens, O = (double)w->serve.output_tokens;
    size_t n = isnan(tpot_s) ? 1 : sizeof shares / sizeof shares[0];
    cf_status st;
    for (size_t i = 0; i < n; i++) {
        cf_serve_decode d;
        double r, u;
        if ((st = cf_serve_decode_best(w, fab, lay, isnan(tpot_s) ? NAN : tpot_s * shares[i], &d,
                                       err)) != CF_OK)
            return st;
        if (!(d.batch > 0)) continue;
        r = 1.0 / (S / p->tokens_per_s_gpu + O / d.tokens_per_s_gpu);
        u = r * S / p->tokens_per_s_gpu;      /* the prefill's share of the time */
        if (!isnan(tpot_s) && d.tpot_s / (1.0 - u) > tpot_s) continue;
        keep_colo(&o->colo, lay, gpus, r, &d, 1.0 / (1.0 - u), p);
        keep_colo(&o->colo_at[at], lay, gpus, r, &d, 1.0 / (1.0 - u), p);
    }
    return CF_OK;
}

/* One layout on one fabric (fab2: the same nodes with the network the KV
 * transfer crosses; NULL = none, colocated only). */
static cf_status one_layout(const cf_workload *w, const cf_fabric *fab, const cf_fabric *fab2,
                            const cf_serve_layout *lay, double tpot_s, double ttft_s,
                            cf__serve_search *o, int at, cf_error *err)
{
    cf_serve_decode d;
    cf_serve_prefill p, p1;
    int gpus = lay->par == CF_SERVE_EP ? lay->nodes * fab->gpus_per_node : lay->tp * lay->nodes;
    cf_status st;
    if (cf_serve_layout_check(w, fab, lay, NULL) != CF_OK) return CF_OK;
    if ((st = cf_serve_decode_best(w, fab, lay, tpot_s, &d, err)) != CF_OK) return st;
    if (d.batch > 0 || strcmp(d.binds, "TPOT") == 0) o->holds = 1;
    if (d.weights_gib_gpu < o->min_weights_gib) {
        o->min_weights_gib = d.weights_gib_gpu;
        o->min_weights_nodes = lay->nodes;
    }
    if (d.batch == 0 && strcmp(d.binds, "TPOT") == 0) {
        cf_serve_decode one;
        if ((st = cf_serve_decode_at(w, fab, lay, 1, &one, err)) != CF_OK) return st;
        o->min_tpot_s = fmin(o->min_tpot_s, one.tpot_s);
    }
    keep_decode(o, at, lay, gpus, &d);
    if (fab2 && (st = cf_serve_prefill_best(w, fab2, lay, ttft_s, &p, err)) != CF_OK) return st;
    if (fab2) keep_prefill(o, at, lay, gpus, &p);
    /* colocated: no KV transfer (the same GPUs decode it) */
    if ((st = cf_serve_prefill_best(w, fab, lay, ttft_s, &p1, err)) != CF_OK) return st;
    if (p1.tokens == 0 && strcmp(p1.binds, "TTFT") == 0) {
        cf_serve_prefill one;
        if ((st = cf_serve_prefill_at(w, fab, lay, (double)w->serve.input_tokens *
                                      (lay->par == CF_SERVE_EP ? gpus : 1), &one, err)) != CF_OK)
            return st;
        o->min_ttft_s = fmin(o->min_ttft_s, one.ttft_s);
    }
    if (p1.tokens > 0 && d.batch > 0)
        return colocated(w, fab, lay, gpus, &p1, tpot_s, o, at, err);
    return CF_OK;
}

/* The layouts of an instance of `n` nodes of fab. */
static cf_status layouts_at(const cf_workload *w, const cf_fabric *fab, const cf_fabric *fab2,
                            int at, double tpot_s, double ttft_s, cf__serve_search *o,
                            cf_error *err)
{
    cf_status st;
    int gpn = fab->gpus_per_node, n = sizes[at];
    if (cf__llm_is_moe(&w->llm)) {
        cf_serve_layout ep = {CF_SERVE_EP, n, 1};
        if ((st = one_layout(w, fab, fab2, &ep, tpot_s, ttft_s, o, at, err)) != CF_OK) return st;
    }
    for (int tp = n == 1 ? 1 : gpn; tp <= gpn; tp++) {
        cf_serve_layout l = {CF_SERVE_TP, n, tp};
        if (gpn % tp != 0 || w->llm.heads % tp != 0) continue;
        if ((st = one_layout(w, fab, fab2, &l, tpot_s, ttft_s, o, at, err)) != CF_OK) return st;
    }
    return CF_OK;
}

cf_status cf__serve_search_run(const cf_workload *w, cf__serve_fab_fn fab_of, const void *user,
                               int max_nodes, double tpot_s, double ttft_s,
                               cf__serve_search *out, cf_error *err)
{
    cf_fabric one, two;
    cf_status st;
    memset(out, 0, sizeof *out);
    out->min_tpot_s = out->min_ttft_s = out->min_weights_gib = INFINITY;
    if (fab_of(user, 1, &one) != CF_OK) {
        snprintf(out->why_none, sizeof out->why_none, "no fabric for one node");
        return CF_OK;
    }
    out->multinode = max_nodes > 1 && fab_of(user, 2, &two) == CF_OK;
    for (int i = 0; i < CF__SERVE_SIZES && sizes[i] <= max_nodes; i++) {
        cf_fabric f;
        int n = sizes[i];
        if (n == 1) f = one;
        else if (fab_of(user, n, &f) != CF_OK) break;
        if ((st = layouts_at(w, &f, out->multinode ? (n == 1 ? &two : &f) : NULL, i, tpot_s,
                             ttft_s, out, err)) != CF_OK)
            return st;
        out->max_nodes = n;
    }
    return CF_OK;
}

/* Nodes of `inst` instances of `gpus` GPUs each. */
static int nodes_of(int inst, int gpus, int gpn)
{
    return (int)ceil((double)inst * gpus / gpn);
}

/* The disaggregated deployments of one pair of pools: prefill instances
 * pi of `pre` and decode instances di of `dec` on at most max_nodes nodes.
 * Pass 0 raises *top, the most requests per node of any; pass 1 keeps in
 * *best, among those within CF_PLAN_NEAR_TIE_PCT of *top, the fewest nodes
 * (the smallest cluster that balances the two pools). */
static void disagg_pair(const cf_workload *w, const cf__serve_phase *pre,
                        const cf__serve_phase *dec, int gpn, int max_nodes, int pass, double *top,
                        cf__serve_deploy *best)
{
    double S = (double)w->serve.input_tokens, O = (double)w->serve.output_tokens;
    double rp = pre->gpus * pre->rate_gpu / S, rd = dec->gpus * dec->rate_gpu / O;
    for (int pi = 1; pi <= 256 && nodes_of(pi, pre->gpus, gpn) < max_nodes; pi++) {
        int need = (int)ceil(pi * rp / rd), np = nodes_of(pi, pre->gpus, gpn);
        /* the most decode instances the nodes left hold: when fewer than the
         * balance needs, the pair runs decode-bound on those (prefill idles
         * part of the time), which may still carry the most per node */
        int fit = (max_nodes - np) * gpn / dec->gpus;
        int cand[3] = {need > 1 ? need - 1 : 1, need, fit < need - 1 ? fit : 0};
        for (int k = 0; k < 3; k++) {
            int di = cand[k], nd = nodes_of(di, dec->gpus, gpn);
            if (di < 1 || (k == 1 && need == cand[0])) continue;
            double rps = fmin(pi * rp, di * rd), per = rps / (np + nd);
            if (np + nd > max_nodes) continue;
            if (pass == 0) *top = fmax(*top, per);
            else if (per >= *top * (1 - CF_PLAN_NEAR_TIE_PCT / 100) &&
                     (!best->ok || np + nd < best->nodes)) {
                best->ok = 1;
                best->colocated = 0;
                best->pre = *pre;
                best->dec = *dec;
                best->pre_inst = pi;
                best->dec_inst = di;
                best->pre_nodes = np;
                best->dec_nodes = nd;
                best->nodes = np + nd;
                best->rps = rps;
            }
        }
    }
}

/* The disaggregated deployment over every pair of instance sizes. */
static void deploy_disagg(const cf_workload *w, const cf__serve_search *s, int gpn, int max_nodes,
                          cf__serve_deploy *best)
{
    double top = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < CF__SERVE_SIZES; i++)
            for (int j = 0; s->pre_at[i].ok && j < CF__SERVE_SIZES; j++)
                if (s->dec_at[j].ok)
                    disagg_pair(w, &s->pre_at[i], &s->dec_at[j], gpn, max_nodes, pass, &top, best);
}

/* The colocated pool at size index i when it carries more requests per
 * node than *out: whole nodes, gpn / gpus instances on a node, or one
 * instance on several. */
static void deploy_colo(const cf__serve_phase *c, int gpn, int max_nodes, cf__serve_deploy *out)
{
    int inst = c->gpus < gpn ? gpn / c->gpus : 1;
    int nodes = nodes_of(inst, c->gpus, gpn);
    double rps = c->rate_gpu * inst * c->gpus;
    if (nodes > max_nodes || (out->ok && !(rps / nodes > out->rps / out->nodes))) return;
    memset(out, 0, sizeof *out);
    out->ok = 1;
    out->colocated = 1;
    out->pre = out->dec = *c;
    out->dec_inst = inst;
    out->dec_nodes = out->nodes = nodes;
    out->rps = rps;
}

void cf__serve_deploy_best(const cf_workload *w, const cf__serve_search *s, int gpn, int max_nodes,
                           cf__serve_deploy *out)
{
    memset(out, 0, sizeof *out);
    if (s->multinode && s->pre.ok && s->dec.ok) deploy_disagg(w, s, gpn, max_nodes, out);
    for (int i = 0; i < CF__SERVE_SIZES; i++)
        if (s->colo_at[i].ok) deploy_colo(&s->colo_at[i], gpn, max_nodes, out);
}
