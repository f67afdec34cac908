/* serve_fabrics.c — `fabrics` for a serve workload (issue 25,
 * docs/model-serve.md "Fabrics"): on one node type and one cluster size,
 * the cheapest deployment of serve_search.c on each fabric family (the
 * same GPUs, NICs and line rate; GPUDirect in the family's usual state),
 * and what each family is worth: at the same nodes the cost per hour is
 * the same, so the break-even price per GPU-hour scales with the requests
 * per second per node the family carries (its deployment may use fewer
 * nodes than asked): premium = 100 x (rps_f / nodes_f / (rps_base /
 * nodes_base) - 1). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "clusterfit/fabrics.h"
#include "base/base.h"
#include "model/model_int.h"
#include "plan/plan_int.h"
#include "plan/serve_int.h"

/* The node type on one family, for serve_search (one node: no network). */
static cf_status family_fab(const void *user, int nodes, cf_fabric *out)
{
    *out = *(const cf_fabric *)user;
    if (nodes == 1) {
        out->network = CF_NET_NONE;
        out->nics_per_node = 0;
        out->gdr = CF_GDR_NA;
    }
    return CF_OK;
}

typedef struct fam {
    cf_fabric fab;
    cf__serve_search s;
    cf__serve_deploy d;
} fam;

static json_t *fam_json(const cf_workload *w, const fam *f, double base_rps);

/* A family's row, with why when nothing serves on it (tpot_s, ttft_s: the
 * targets searched). */
static json_t *fam_row(const cf_workload *w, const fam *f, double base_rps, double tpot_s,
                       double ttft_s)
{
    static const char *const rates[] = {"requests_per_s", "output_tokens_per_s", NULL};
    static const char *const times[] = {"decode_tpot_ms", NULL};
    json_t *r = fam_json(w, f, base_rps);
    char why[400];
    if (r && cf_serve_band_keys(r, rates, times)) {
        json_decref(r);
        return NULL;
    }
    if (r && !f->d.ok) {
        cf__serve_none_reason(w, &f->s, f->fab.gpu, f->fab.gpus_per_node, tpot_s, ttft_s, why,
                              sizeof why);
        if (json_object_set_new(r, "why", json_string(why))) {
            json_decref(r);
            return NULL;
        }
    }
    return r;
}

/* base_rps: the baseline's requests/s per node (0 = none). */
static json_t *fam_json(const cf_workload *w, const fam *f, double base_rps)
{
    char dl[64] = "", pl[64] = "";
    const cf__serve_phase *dec = &f->d.dec;
    int gpn = f->fab.gpus_per_node;
    if (f->d.ok) {
        cf_serve_layout_text(&dec->lay, gpn, dl, sizeof dl);
        cf_serve_layout_text(&f->d.pre.lay, gpn, pl, sizeof pl);
    }
    return json_pack("{s:s,s:i,s:f,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o}", "network",
                     cf_network_name(f->fab.network), "nics", f->fab.nics_per_node, "nic_gbps",
                     f->fab.nic_gbps, "mode",
                     f->d.ok ? json_string(f->d.colocated ? "colocated" : "disaggregated") : json_null(),
                     "nodes", f->d.ok ? json_integer(f->d.nodes) : json_null(), "requests_per_s",
                     f->d.ok ? json_real(f->d.rps) : json_null(), "output_tokens_per_s",
                     f->d.ok ? json_real(f->d.rps * (double)w->serve.output_tokens) : json_null(),
                     "decode_layout", f->d.ok ? json_string(dl) : json_null(), "decode_tpot_ms",
                     f->d.ok ? json_real(dec->d.tpot_s * 1e3) : json_null(), "decode_binds",
                     f->d.ok ? json_string(dec->d.binds) : json_null(), "worth_premium_pct",
                     f->d.ok && base_rps > 0 ? json_real(100.0 * (f->d.rps / f->d.nodes / base_rps - 1))
                                             : json_null(),
                     "prefill_layout", f->d.ok ? json_string(pl) : json_null(),
                     /* an empty list when it fits (a NULL item packed as [null]) */
                     "flags", f->d.ok ? json_array() : json_pack("[s]", "does_not_fit"));
}

static cf_status run_all(const cf_workload *w, const cf_fabric *node, int nodes, double tpot_s,
                         double ttft_s, fam *fs, size_t n, const cf_network *nets, cf_error *err)
{
    cf_status st;
    for (size_t i = 0; i < n; i++) {
        fs[i].fab = *node;
        fs[i].fab.network = nets[i];
        fs[i].fab.gdr = CF_GDR_UNKNOWN;
        if ((st = cf__serve_search_run(w, family_fab, &fs[i].fab, nodes, tpot_s, ttft_s, &fs[i].s,
                                       err)) != CF_OK)
            return st;
        cf__serve_deploy_best(w, &fs[i].s, node->gpus_per_node, nodes, &fs[i].d);
    }
    return CF_OK;
}

cf_status cf_serve_fabrics(const cf_workload *w, const struct cf_fabrics_query *q, json_t **out,
                           cf_error *err)
{
    size_t n;
    const cf_network *nets = cf_fabrics_families(&n);
    /* on the heap: each family's search keeps every instance size's best
     * phases (some 10 KB), too much for a server thread's stack x 8 */
    fam *fs = cf__calloc(8, sizeof *fs), *base = NULL;
    cf_fabric node;
    json_t *assumes = json_array(), *rows = json_array();
    double tpot_s = isnan(w->serve.tpot_ms) ? NAN : w->serve.tpot_ms / 1e3;
    int nodes;
    cf_status st;
    *out = NULL;
    if (!fs || !assumes || !rows || n > 8) st = CF_ENOMEM;
    else st = cf__fabrics_node_defaults(q, &node, assumes, err);
    if (st == CF_OK && !isnan(q->deadline_h)) {
        cf_error_set_param(err, "deadline_h", "a serve workload has no deadline: give nodes (the "
                           "cluster's size) or nothing (the cheapest deployment's size on ib)");
        st = CF_EINVAL;
    }
    nodes = q->nodes > 0 ? q->nodes : CF_SERVE_MAX_INSTANCE_NODES * 4;
    if (st == CF_OK) st = run_all(w, &node, nodes, tpot_s, w->serve.ttft_s, fs, n, nets, err);
    /* the premium is a ratio of the same model on both fabrics (docs/model-serve.md "Band") */
    if (st == CF_OK && json_array_append_new(assumes, json_string(
            "worth_premium_pct carries no band: a ratio of the same model on both fabrics, in which "
            "the node's share of the serving error cancels and the fabric's share is not measured "
            "apart (docs/model-serve.md \"Band\"); requests/s, tokens/s and TPOT carry "
            "the serving band (p10-p90 out of sample)")))
        st = CF_ENOMEM;
    if (st == CF_OK && q->nodes <= 0 && fs[0].d.ok) {     /* the ib deployment's size */
        nodes = fs[0].d.nodes;
        st = run_all(w, &node, nodes, tpot_s, w->serve.ttft_s, fs, n, nets, err);
    }
    if (st == CF_OK) {      /* the imbalance and where the targets are checked, as plan's */
        json_t *sa = cf__serve_assumes(w);
        if (!sa || json_array_append(assumes, json_array_get(sa, 1)) ||
            json_array_append(assumes, json_array_get(sa, 3)))
            st = CF_ENOMEM;
        json_decref(sa);
    }
    for (size_t i = 0; st == CF_OK && i < n; i++)
        if (nets[i] == q->baseline) base = &fs[i];
    for (size_t i = 0; st == CF_OK && i < n; i++) {
        json_t *r = fam_row(w, &fs[i], base && base->d.ok ? base->d.rps / base->d.nodes : 0, tpot_s,
                            w->serve.ttft_s);
        if (r && cf__serve_pools_json(r, &fs[i].d, 1)) {   /* the pools' instances and nodes */
            json_decref(r);
            r = NULL;
        }
        if (!r || json_array_append_new(rows, r)) st = CF_ENOMEM;
    }
    if (st == CF_OK && !(*out = json_pack("{s:s,s:s,s:s,s:i,s:i,s:s,s:s,s:O,s:O}", "workload",
                                          w->name, "kind", "serve", "gpu", node.gpu, "gpus_per_node",
                                          node.gpus_per_node, "nodes", nodes, "baseline",
                                          cf_network_name(q->baseline), "premium_basis",
                                          "requests_per_s", "assumes", assumes, "fabrics", rows)))
        st = CF_ENOMEM;
    json_decref(assumes);
    json_decref(rows);
    cf__free(fs);
    if (st == CF_ENOMEM) cf_error_set(err, NULL, 0, 0, "out of memory");
    return st;
}
