/* serve_plan.c — `plan` for a serve workload (issue 25, docs/model-serve.md
 * "Plan"): per offering the search of serve_search.c on its node type
 * (shared between offerings of the same hardware: the search reads only
 * the fabric and the largest cluster), the cheapest deployment, its cost
 * per million tokens at the offering's price, ranked by the whole
 * cluster's cost per million output tokens; offerings that cannot serve
 * the workload go to `unranked` with the reason. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "clusterfit/plan.h"
#include "clusterfit/units.h"
#include "base/base.h"
#include "model/model_int.h"
#include "plan/plan_int.h"
#include "plan/serve_int.h"

void cf_serve_opts_init(cf_serve_opts *o)
{
    o->tpot_ms = NAN;
    o->ttft_s = NAN;
}

cf_status cf_serve_opts_set(cf_serve_opts *o, const char *name, const char *value, cf_error *err)
{
    double v, lo, hi;
    int tpot;
    if (!o || !name || (strcmp(name, "tpot_ms") != 0 && strcmp(name, "ttft_s") != 0)) {
        cf_error_set_param(err, "", "unknown serve option '%s' (accepted: tpot_ms, ttft_s)",
                           name ? name : "");
        return CF_EINVAL;
    }
    tpot = name[1] == 'p';
    lo = tpot ? CF_SERVE_TPOT_MS_MIN : CF_SERVE_TTFT_S_MIN;
    hi = tpot ? CF_SERVE_TPOT_MS_MAX : CF_SERVE_TTFT_S_MAX;
    if (!value || cf_parse_double(value, &v) != CF_OK || !(v >= lo && v <= hi)) {
        cf_error_set_param(err, name, "%s expects %s from %g to %g, got '%s'", name,
                           tpot ? "milliseconds per output token" : "seconds to the first token",
                           lo, hi, value ? value : "");
        return CF_EINVAL;
    }
    if (tpot) o->tpot_ms = v;
    else o->ttft_s = v;
    return CF_OK;
}

/* The targets in seconds: the option's, else the workload's, else NAN. */
static void targets(const cf_workload *w, const cf_serve_opts *so, double *tpot_s, double *ttft_s)
{
    double tp = so && !isnan(so->tpot_ms) ? so->tpot_ms : w->serve.tpot_ms;
    double tt = so && !isnan(so->ttft_s) ? so->ttft_s : w->serve.ttft_s;
    *tpot_s = isnan(tp) ? NAN : tp / 1000.0;
    *ttft_s = tt;
}

static cf_status offering_fab(const void *user, int nodes, cf_fabric *out)
{
    return cf_fabric_for_nodes((const cf_offering *)user, nodes, out, NULL);
}

/* What the search of an offering depends on: its fabric and largest cluster. */
typedef struct memo_slot {
    int used;
    char gpu[CF_GPU_NAME_MAX];
    long gpn, nics, max_nodes;
    int intra, net, gdr, nb, ro, inr;
    double gbps;
    cf__serve_search s;
} memo_slot;

#define MEMO_SLOTS 128

static int same_key(const memo_slot *m, const cf_offering *o, long max_nodes)
{
    return m->used && strcmp(m->gpu, o->gpu) == 0 && m->gpn == o->gpus_per_node &&
           m->nics == o->nics_per_node && m->max_nodes == max_nodes && m->intra == (int)o->intra_link &&
           m->net == (int)o->network && m->gdr == (int)o->gpudirect_rdma &&
           m->nb == (int)o->non_blocking && m->ro == (int)o->rail_optimized &&
           m->inr == (int)o->in_network_reduction &&
           (m->gbps == o->network_gbps_per_node || (isnan(m->gbps) && isnan(o->network_gbps_per_node)));
}

static void set_key(memo_slot *m, const cf_offering *o, long max_nodes)
{
    m->used = 1;
    snprintf(m->gpu, sizeof m->gpu, "%s", o->gpu);
    m->gpn = o->gpus_per_node;
    m->nics = o->nics_per_node;
    m->max_nodes = max_nodes;
    m->intra = (int)o->intra_link;
    m->net = (int)o->network;
    m->gdr = (int)o->gpudirect_rdma;
    m->nb = (int)o->non_blocking;
    m->ro = (int)o->rail_optimized;
    m->inr = (int)o->in_network_reduction;
    m->gbps = o->network_gbps_per_node;
}

/* The plan's state across offerings. */
typedef struct run {
    const cf_workload *w;
    double tpot_s, ttft_s;
    const char *currency;
    memo_slot *memo;        /* MEMO_SLOTS */
    double min_tpot_s, min_ttft_s;      /* over every offering searched */
    int any_holds, n_searched, n_tpot, n_ttft, n_mem;
    size_t ranked_total;    /* rows that met the targets, before `top` */
    json_t *ranked, *unranked;
} run;

/* Appends o to unranked: `kind` the machine key of the reason (the
 * summary counts by it, docs/model-serve.md "Plan"), `reason` the sentence. */
static int unrank(run *r, const cf_offering *o, const char *kind, const char *reason)
{
    json_t *u = json_pack("{s:s?,s:s,s:[s]}", "offering_id", o->id, "kind", kind, "reasons", reason);
    return !u || json_array_append_new(r->unranked, u) != 0;
}

/* The search of o, from the memo or computed (into the memo). */
static cf_status search_of(run *r, const cf_offering *o, long max_nodes, const cf__serve_search **s,
                           cf_error *err)
{
    size_t i;
    cf_status st;
    for (i = 0; i < MEMO_SLOTS && r->memo[i].used; i++)
        if (same_key(&r->memo[i], o, max_nodes)) {
            *s = &r->memo[i].s;
            return CF_OK;
        }
    if (i == MEMO_SLOTS) i = MEMO_SLOTS - 1;    /* full: the last slot is recomputed */
    if ((st = cf__serve_search_run(r->w, offering_fab, o, (int)max_nodes, r->tpot_s, r->ttft_s,
                                   &r->memo[i].s, err)) != CF_OK)
        return st;
    set_key(&r->memo[i], o, max_nodes);
    *s = &r->memo[i].s;
    return CF_OK;
}

/* The row's predicted figures that carry a band (cf_serve_band): the
 * throughputs, and the costs per token (the inverse band). With traffic
 * stated, the figures are the rate asked (row_band). */
static const char *const row_rates[] = {"requests_per_s", "input_tokens_per_s",
                                        "output_tokens_per_s", NULL};
static const char *const row_costs[] = {"cost_per_m_output", "cost_per_m_input",
                                        "cost_per_m_output_decode", NULL};

/* The bands of a row (null where the traffic is stated: its figures are
 * the rate asked and the copies' price, not a prediction). 0 or -1. */
static int row_band(json_t *row, int stated)
{
    int bad = 0;
    if (!stated) return cf_serve_band_keys(row, row_rates, row_costs);
    for (size_t i = 0; row_rates[i]; i++)
        bad |= cf_serve_band_json_set(row, row_rates[i], NAN, CF_SERVE_BAND_RATE);
    for (size_t i = 0; row_costs[i]; i++)
        bad |= cf_serve_band_json_set(row, row_costs[i], NAN, CF_SERVE_BAND_TIME);
    return bad;
}

/* Prices the deployment of the search on o and appends its row. */
static cf_status rank_one(run *r, const cf_offering *o, const cf__serve_search *s, long max_nodes,
                          long cluster_nodes, double price, cf_error *err)
{
    cf__serve_deploy d;
    double O = (double)r->w->serve.output_tokens, S = (double)r->w->serve.input_tokens;
    double copies = 1, rps, cost_h, gpn = (double)o->gpus_per_node;
    json_t *row;
    char why[200];
    cf__serve_deploy_best(r->w, s, o->gpus_per_node, (int)max_nodes, &d);
    if (!d.ok) {
        const char *kind = cf__serve_none_reason(r->w, s, o->gpu, o->gpus_per_node, r->tpot_s,
                                                 r->ttft_s, why, sizeof why);
        return unrank(r, o, kind, why) ? CF_ENOMEM : CF_OK;
    }
    if (r->w->serve.rate_rps > 0) {
        copies = ceil(r->w->serve.rate_rps / d.rps);
        if (copies * d.nodes > cluster_nodes) {
            snprintf(why, sizeof why, "its largest cluster (%ld nodes) carries %.3g requests/s of "
                     "the %.3g asked", cluster_nodes, floor((double)cluster_nodes / d.nodes) * d.rps,
                     r->w->serve.rate_rps);
            return unrank(r, o, "traffic", why) ? CF_ENOMEM : CF_OK;
        }
    }
    rps = r->w->serve.rate_rps > 0 ? r->w->serve.rate_rps : d.rps;
    cost_h = copies * d.nodes * gpn * price;
    if (!(row = cf__serve_row_json(r->w, &d, o->gpus_per_node))) return CF_ENOMEM;
    (void)err;
    json_object_set_new(row, "offering_id", json_string(o->id ? o->id : ""));
    json_object_set_new(row, "provider", o->provider ? json_string(o->provider) : json_null());
    json_object_set_new(row, "offering", o->offering ? json_string(o->offering) : json_null());
    /* the provider table's rating and provisioning (issue 22), as a training plan's row */
    json_object_set_new(row, "provider_rating", o->provider_rating ? json_string(o->provider_rating) : json_null());
    json_object_set_new(row, "provider_provisioning",
                        o->provider_provisioning ? json_string(o->provider_provisioning) : json_null());
    json_object_set_new(row, "gpu", json_string(o->gpu));
    json_object_set_new(row, "gpus_per_node", json_integer(o->gpus_per_node));
    /* copies of a one-node deployment are independent: no network between them */
    json_object_set_new(row, "network", json_string(d.nodes > 1 ? cf_network_name(o->network) : "none"));
    json_object_set_new(row, "copies", json_integer((json_int_t)copies));
    json_object_set_new(row, "nodes", json_integer((json_int_t)(copies * d.nodes)));
    json_object_set_new(row, "gpus", json_integer((json_int_t)(copies * d.nodes * gpn)));
    json_object_set_new(row, "requests_per_s", json_real(rps));
    json_object_set_new(row, "input_tokens_per_s", json_real(rps * S));
    json_object_set_new(row, "output_tokens_per_s", json_real(rps * O));
    json_object_set_new(row, "price_gpu_hr", json_real(price));
    json_object_set_new(row, "cost_per_hour", json_real(cost_h));
    json_object_set_new(row, "cost_per_m_output", json_real(cost_h / (rps * O * 3600) * 1e6));
    json_object_set_new(row, "cost_per_m_input",
                        d.colocated ? json_null()
                                    : json_real(copies * d.pre_nodes * gpn * price / (rps * S * 3600) * 1e6));
    json_object_set_new(row, "cost_per_m_output_decode",
                        d.colocated ? json_null()
                                    : json_real(copies * d.dec_nodes * gpn * price / (rps * O * 3600) * 1e6));
    json_object_set_new(row, "max_cluster_stated", json_boolean(o->max_cluster_gpus > 0));
    /* what a training row of o says it assumed (the `*` and assumes: line) */
    if (row_band(row, r->w->serve.rate_rps > 0) || cf__plan_offering_flags(o, d.nodes, row) != CF_OK) {
        json_decref(row);
        return CF_ENOMEM;
    }
    return json_array_append_new(r->ranked, row) ? CF_ENOMEM : CF_OK;
}

/* The facts the plan needs of o, else its unranked entry: a price in the
 * currency, a GPU the hardware table has, the fabric, a precision the GPU
 * runs. 1 = unranked (or *st ENOMEM), 0 = go on. */
static int facts_missing(run *r, const cf_offering *o, double price, cf_status *st)
{
    const cf_gpu_spec *g;
    char why[sizeof ((cf_error *)0)->message + 8];
    const char *kind = NULL;
    cf_fabric f;
    cf_serve_layout l = {CF_SERVE_TP, 1, 1};
    cf_error e2;
    if (isnan(price)) {
        kind = "price_unknown";
        snprintf(why, sizeof why, "price unknown");
    } else if (!o->currency || cf__strcasecmp(o->currency, r->currency) != 0) {
        kind = "currency";
        snprintf(why, sizeof why, "currency %s", o->currency ? o->currency : "unknown");
    } else if (!o->gpu || cf_gpu_lookup(o->gpu, &g) != CF_OK) {
        kind = "gpu_unknown";
        if (o->gpu) snprintf(why, sizeof why, "gpu %s is not in the hardware table (data/gpus.csv)", o->gpu);
        else snprintf(why, sizeof why, "gpu unknown");
    } else if (o->gpus_per_node < 1) {
        kind = "gpus_per_node_unknown";
        snprintf(why, sizeof why, "gpus_per_node unknown");
    } else if (cf_fabric_for_nodes(o, 1, &f, &e2) != CF_OK) {
        kind = "fabric";
        snprintf(why, sizeof why, "%s", e2.message);
    } else if (cf_serve_layout_check(r->w, &f, &l, &e2) != CF_OK) {
        /* the GPU's facts are there, so what it lacks is the precision */
        kind = g->hbm_GBps > 0 && g->memory_gb > 0 ? "precision" : "gpu_facts";
        snprintf(why, sizeof why, "%s", e2.message);
    }
    if (!kind) return 0;
    if (unrank(r, o, kind, why)) *st = CF_ENOMEM;
    return 1;
}

/* One offering: the facts the plan needs, then the search and the row. */
static cf_status plan_one(run *r, const cf_offering *o, cf_error *err)
{
    const cf__serve_search *s;
    double price = cf_offering_list_price(o, NULL);
    long max_nodes, cap, cluster_nodes;
    cf_status st = CF_OK;
    if (facts_missing(r, o, price, &st)) return st;
    cap = o->max_cluster_gpus > 0 ? o->max_cluster_gpus : CF_PLAN_DEFAULT_MAX_GPUS;
    cluster_nodes = max_nodes = cap / o->gpus_per_node;
    /* one deployment (a copy) spans at most 4 of the largest instances; a
     * stated traffic takes as many copies as the cluster holds */
    if (max_nodes > CF_SERVE_MAX_INSTANCE_NODES * 4L) max_nodes = CF_SERVE_MAX_INSTANCE_NODES * 4L;
    if (max_nodes < 1)
        return unrank(r, o, "cluster", "its largest cluster is under one node") ? CF_ENOMEM : CF_OK;
    if ((st = search_of(r, o, max_nodes, &s, err)) != CF_OK) return st;
    r->n_searched++;
    r->any_holds |= s->holds;
    r->min_tpot_s = fmin(r->min_tpot_s, s->min_tpot_s);
    r->min_ttft_s = fmin(r->min_ttft_s, s->min_ttft_s);
    if (!s->dec.ok && s->holds && isfinite(s->min_tpot_s)) r->n_tpot++;
    else if (s->dec.ok && !s->pre.ok && !s->colo.ok && isfinite(s->min_ttft_s)) r->n_ttft++;
    if (!s->holds) r->n_mem++;
    return rank_one(r, o, s, max_nodes, cluster_nodes, price, err);
}

static int by_cost(const void *a, const void *b)
{
    double x = json_real_value(json_object_get(*(json_t *const *)a, "cost_per_m_output"));
    double y = json_real_value(json_object_get(*(json_t *const *)b, "cost_per_m_output"));
    return x < y ? -1 : x > y;
}

/* Orders r->ranked by cost per million output tokens and keeps `top`. */
static cf_status order(run *r, int top)
{
    size_t n = json_array_size(r->ranked);
    json_t **rows = n ? cf__malloc(n * sizeof *rows) : NULL, *sorted = json_array();
    if ((n && !rows) || !sorted) {
        cf__free(rows);
        json_decref(sorted);
        return CF_ENOMEM;
    }
    for (size_t i = 0; i < n; i++) rows[i] = json_incref(json_array_get(r->ranked, i));
    if (n) qsort(rows, n, sizeof *rows, by_cost);
    r->ranked_total = n;
    for (size_t i = 0; i < n; i++) {
        if (top <= 0 || (int)i < top) json_array_append(sorted, rows[i]);
        json_decref(rows[i]);
    }
    cf__free(rows);
    json_decref(r->ranked);
    r->ranked = sorted;
    return CF_OK;
}

/* Nothing ranked for one reason everywhere: the refusal naming the input. */
static cf_status refuse(const run *r, cf_error *err)
{
    if (json_array_size(r->ranked) > 0 || r->n_searched == 0) return CF_OK;
    if (r->n_mem == r->n_searched) {
        cf_error_set_param(err, "workload", "no offering holds %s and one request of %ld + %ld "
                           "tokens on any layout of up to %d nodes (the weights and the KV cache "
                           "leave no room)", r->w->name, r->w->serve.input_tokens,
                           r->w->serve.output_tokens, CF_SERVE_MAX_INSTANCE_NODES);
        return CF_EINVAL;
    }
    if (r->n_tpot + r->n_mem == r->n_searched && isfinite(r->min_tpot_s)) {
        cf_error_set_param(err, "tpot_ms", "tpot_ms %.3g is below one decode step of the smallest "
                           "batch on every offering (the fastest: %.3g ms at batch 1)",
                           r->tpot_s * 1e3, r->min_tpot_s * 1e3);
        return CF_EINVAL;
    }
    if (r->n_ttft + r->n_tpot + r->n_mem == r->n_searched && isfinite(r->min_ttft_s)) {
        cf_error_set_param(err, "ttft_s", "ttft_s %.3g is below one prompt's prefill on every "
                           "offering (the fastest: %.3g s)", r->ttft_s, r->min_ttft_s);
        return CF_EINVAL;
    }
    return CF_OK;
}

/* unranked counted by kind: [{kind, count, offering_ids[]}], most
 * frequent first (ties: first seen first). NULL on ENOMEM. */
static json_t *by_kind(json_t *unranked)
{
    json_t *out = json_array(), *u;
    size_t i;
    if (!out) return NULL;
    json_array_foreach(unranked, i, u) {
        const char *k = json_string_value(json_object_get(u, "kind"));
        json_t *e = NULL, *x;
        size_t j;
        json_array_foreach(out, j, x)
            if (strcmp(json_string_value(json_object_get(x, "kind")), k) == 0) e = x;
        if (!e && (!(e = json_pack("{s:s,s:i,s:[]}", "kind", k, "count", 0, "offering_ids")) ||
                   json_array_append_new(out, e))) {
            json_decref(out);
            return NULL;
        }
        json_object_set_new(e, "count", json_integer(json_integer_value(json_object_get(e, "count")) + 1));
        json_array_append(json_object_get(e, "offering_ids"), json_object_get(u, "offering_id"));
    }
    for (size_t a = 1; a < json_array_size(out); a++)      /* stable: most frequent first */
        for (size_t b = a; b > 0; b--) {
            json_t *x = json_array_get(out, b), *y = json_array_get(out, b - 1);
            if (json_integer_value(json_object_get(x, "count")) <=
                json_integer_value(json_object_get(y, "count")))
                break;
            json_incref(x);
            json_array_remove(out, b);
            json_array_insert_new(out, b - 1, x);
        }
    return out;
}

static json_t *doc_of(const run *r)
{
    char tpot_line[320];
    json_t *kinds = by_kind(r->unranked), *err_band = cf_serve_band_json();
    json_t *assumes = cf__serve_assumes(r->w);
    double lo, hi;
    cf_serve_band(1.0, CF_SERVE_BAND_TIME, &lo, &hi);
    snprintf(tpot_line, sizeof tpot_line, "the decode batch is the largest whose predicted TPOT "
             "meets the target; the TPOT is a prediction: sources the fit never saw measured "
             "%.2f-%.2f x it (p10-p90, decode tpot_ms_p10/_p90), so at p90 a row meeting %s "
             "runs up to %.0f %% over", lo, hi, isnan(r->tpot_s) ? "no target" : "its target",
             (hi - 1.0) * 100.0);
    if (!kinds || !err_band || !assumes || json_array_append_new(assumes, json_string(tpot_line))) {
        json_decref(kinds);
        json_decref(err_band);
        json_decref(assumes);
        return NULL;
    }
    return json_pack("{s:s,s:s,s:s,s:{s:o,s:o},s:{s:I,s:I},s:o,s:O,s:I,s:O,s:o,s:o,s:o}",
                     "workload", r->w->name, "kind", "serve", "currency", r->currency, "targets",
                     "tpot_ms", isnan(r->tpot_s) ? json_null() : json_real(r->tpot_s * 1e3),
                     "ttft_s", isnan(r->ttft_s) ? json_null() : json_real(r->ttft_s), "request",
                     "input_tokens", (json_int_t)r->w->serve.input_tokens, "output_tokens",
                     (json_int_t)r->w->serve.output_tokens, "traffic_rps",
                     r->w->serve.rate_rps > 0 ? json_real(r->w->serve.rate_rps) : json_string("max"),
                     "ranked", r->ranked, "ranked_total", (json_int_t)r->ranked_total, "unranked",
                     r->unranked, "unranked_by_kind", kinds, "error", err_band, "assumes", assumes);
}

cf_status cf_serve_plan_check_opts(const cf_plan_opts *po, cf_error *err)
{
    const char *p = NULL;
    if (!po) return CF_OK;
    if (!isnan(po->deadline_h)) p = "deadline_h";
    else if (!isnan(po->budget)) p = "budget";
    else if (po->objective_given && po->objective != CF_OBJ_COST) p = "objective"; /* cost: its own */
    else if (!isnan(po->margin_pct)) p = "margin_pct";
    else if (po->known_only) p = "known_only";
    if (!p) return CF_OK;
    cf_error_set_param(err, p, "a serve workload is ranked by cost per million output tokens "
                       "under its latency targets (TPOT, TTFT): %s is a training plan's option", p);
    return CF_EINVAL;
}

cf_status cf_serve_plan(cf_catalog *cat, const cf_filter *filter, const cf_workload *w,
                        const cf_serve_opts *so, const char *currency, int top, json_t **out,
                        cf_error *err)
{
    cf_offering_list list = {NULL, 0};
    cf_filter all;
    run r;
    cf_status st = CF_OK;
    *out = NULL;
    if (!w || w->kind != CF_WL_SERVE) {
        cf_error_set_param(err, "workload", "cf_serve_plan takes a serve workload (kind serve)");
        return CF_EINVAL;
    }
    memset(&r, 0, sizeof r);
    r.w = w;
    r.currency = currency ? currency : "USD";
    r.min_tpot_s = r.min_ttft_s = INFINITY;
    targets(w, so, &r.tpot_s, &r.ttft_s);
    if (!filter) {
        cf_filter_init(&all);
        filter = &all;
    }
    if ((st = cf_catalog_query(cat, filter, CF_SORT_PRICE, &list)) != CF_OK) {
        cf_error_set(err, NULL, 0, 0, "catalog query failed: %s", cf_strerror(st));
        return st;
    }
    r.memo = cf__calloc(MEMO_SLOTS, sizeof *r.memo);
    r.ranked = json_array();
    r.unranked = json_array();
    if (!r.memo || !r.ranked || !r.unranked) st = CF_ENOMEM;
    for (size_t i = 0; st == CF_OK && i < list.n; i++) st = plan_one(&r, &list.items[i], err);
    if (st == CF_OK) st = order(&r, top);
    if (st == CF_OK) st = refuse(&r, err);
    if (st == CF_OK && !(*out = doc_of(&r))) st = CF_ENOMEM;
    if (st == CF_OK) st = cf__plan_explain_empty(cat, filter, &list, *out, err);
    if (st != CF_OK && *out) {
        json_decref(*out);
        *out = NULL;
    }
    json_decref(r.ranked);
    json_decref(r.unranked);
    cf__free(r.memo);
    cf_offering_list_clear(&list);
    if (st == CF_ENOMEM) cf_error_set(err, NULL, 0, 0, "out of memory");
    return st;
}
