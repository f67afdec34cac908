/* fabrics.c — "is a better fabric worth it?" (fabrics.h; issue 9, item 4):
 * one workload on one node type, predicted over each fabric family at the
 * same NICs and line rate, and the premium per GPU-hour each may cost over a
 * baseline before the whole job costs more.
 *
 * Shape:
 *  1. the question: parameters by name (cf_fabrics_query_set: the fabric's
 *     through cf_fabric_set, the deadline through cf_plan_opts_set, so every
 *     front end refuses alike), then the defaults of the GPU's usual node
 *     (node_defaults), each one recorded as an `assumes` sentence;
 *  2. per family: plan's layout search (search.c) at the node count asked,
 *     or at the counts of plan's ladder (cf__plan_node_ladder: N0, then
 *     2^k and 3·2^(k-1)) until the time to train meets the deadline, the
 *     fewest nodes of plan's list that meet it; N0 and its point for E. At each
 *     count every family runs the same global batch, the one the search
 *     grows to there on ib (batch_ref): the same job on each fabric;
 *  3. the premium against the baseline (cf_worth_premium_pct) and the JSON;
 *  4. as sold: the same rows for each bundle the catalog sells with the
 *     GPU (fabrics_sold.c groups them and adds their offerings, prices,
 *     money and the headline), the member `sold`.
 * Under a deadline a count meets it by plan's rule, cf__plan_meets_deadline
 * with plan's margin (cf__plan_margin_pct).
 * The premium is the break-even of equal total cost: the job on family f
 * costs price_f × G_f (G = GPU-hours), on the baseline price_b × G_b, so f
 * may cost price_b × (G_b / G_f) per GPU-hour, premium = G_b / G_f − 1. At
 * a fixed node count G is nodes × GPUs per node × time to train, and the
 * premium is T_b / T_f − 1. Billing increments and minimum commitments are
 * left out: they are the offering's, and there is no offering here. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/base.h"
#include "plan/plan_int.h"
#include "clusterfit/fabrics.h"
#include "clusterfit/serve.h"
#include "clusterfit/hardware.h"
#include "clusterfit/limits.h"
#include "clusterfit/units.h"

static const cf_network families[] = {CF_NET_IB, CF_NET_ROCE, CF_NET_EFA, CF_NET_TCPXO,
                                      CF_NET_TCPX, CF_NET_TCP};
#define N_FAM (sizeof families / sizeof families[0])

static const char *const fabrics_params[] = {"gpu", "gpus_per_node", "intra", "nics", "nic_gbps",
                                             "non_blocking", "rail_optimized", "nodes",
                                             "deadline_h", "margin_pct", "baseline", NULL};
static const char fabrics_list[] = "gpu, gpus_per_node, intra, nics, nic_gbps, non_blocking, "
                                   "rail_optimized, nodes, deadline_h, margin_pct, baseline";

const cf_network *cf_fabrics_families(size_t *n)
{
    if (n) *n = N_FAM;
    return families;
}

const char *const *cf_fabrics_param_names(void)
{
    return fabrics_params;
}

double cf_worth_premium_pct(double base, double fab)
{
    if (!(base > 0) || !(fab > 0) || !isfinite(base) || !isfinite(fab)) return NAN;
    return 100.0 * (base / fab - 1.0);
}

/* ---- 1. the question ---- */

void cf_fabrics_query_init(cf_fabrics_query *q)
{
    memset(q, 0, sizeof *q);
    cf_fabric_init(&q->node);
    q->deadline_h = NAN;
    q->margin_pct = NAN;
    q->baseline = CF_NET_TCP;
}

static int is_family(cf_network n)
{
    for (size_t i = 0; i < N_FAM; i++)
        if (families[i] == n) return 1;
    return 0;
}

cf_status cf_fabrics_query_set(cf_fabrics_query *q, const char *name, const char *value,
                               cf_error *err)
{
    size_t i;
    if (!q || !name) {
        cf_error_set(err, NULL, 0, 0, "no question or no parameter name");
        return CF_EINVAL;
    }
    for (i = 0; fabrics_params[i] && strcmp(fabrics_params[i], name) != 0; i++) {}
    if (!fabrics_params[i]) {
        cf_error_set(err, NULL, 0, 0, "unknown fabrics parameter '%.64s' (accepted: %s)", name,
                     fabrics_list);
        return CF_EINVAL;
    }
    if (!value || !*value) {
        cf_error_set_param(err, name, "%s has no value", name);
        return CF_EINVAL;
    }
    if (strcmp(name, "nodes") == 0) {
        long v;
        if (cf_parse_long(value, &v) != CF_OK || v < 1 || v > CF_MAX_NODES) {
            cf_error_set_param(err, name, "nodes expects an integer from 1 to %d, got '%.64s'",
                               CF_MAX_NODES, value);
            return CF_EINVAL;
        }
        q->nodes = (int)v;
    } else if (strcmp(name, "deadline_h") == 0 || strcmp(name, "margin_pct") == 0) {
        /* plan's parser: the same bounds and words as `plan --deadline`
         * and `plan --margin`. */
        cf_plan_opts po;
        cf_plan_opts_init(&po);
        if (cf_plan_opts_set(&po, name, value, err) != CF_OK) return CF_EINVAL;
        if (name[0] == 'd') q->deadline_h = po.deadline_h;
        else q->margin_pct = po.margin_pct;
    } else if (strcmp(name, "baseline") == 0) {
        cf_network n;
        if (cf_network_parse(value, &n) != CF_OK || !is_family(n)) {
            cf_error_set_param(err, name, "unknown baseline '%.64s' (accepted: ib, roce, efa, tcpxo, "
                               "tcpx, tcp)", value);
            return CF_EINVAL;
        }
        q->baseline = n;
    } else {
        cf_fabric f = q->node;
        cf_status st = cf_fabric_set(&f, name, value, err);
        if (st != CF_OK) return st;
        q->node = f;
    }
    return CF_OK;
}

/* What the comparison works on, after the defaults. */
typedef struct job {
    const cf_workload *w;
    cf_fabric node;         /* the node type; network set per family */
    int nodes;              /* asked; 0 under a deadline */
    double deadline_h;      /* NAN without */
    double margin_pct;      /* the deadline margin (plan's rule), percent */
    cf_network baseline;
    double steps;           /* steps of the whole job */
    int max_nodes;          /* the largest count searched */
    json_t *assumes;        /* array of sentences (owned) */
} job;

static int assume(job *j, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static int assume(job *j, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return json_array_append_new(j->assumes, json_string(buf));
}

/* The most common (NICs, per-NIC Gbit/s) of the shipped offerings of `gpu`
 * that state both, keeping rows that agree with what the user gave (nics
 * given > 0, gbps given > 0); *of = rows counted, *total = rows with the
 * GPU that state them. CF_OK with *of = 0 when none. */
static cf_status usual_nics(const char *gpu, int nics_given, double gbps_given, int *nics,
                            double *gbps, int *of, int *total)
{
    size_t len;
    const char *csv = cf__embedded_find("data/offerings.csv", &len);
    cf_offering_list list = {NULL, 0};
    cf_status st;
    int best = 0;
    *of = *total = 0;
    if (!csv) return CF_OK;
    st = cf_offerings_parse("data/offerings.csv", csv, len, CF_IMPORT_CSV, NULL, &list, NULL);
    if (st != CF_OK) return st == CF_ENOMEM ? st : CF_EINTERNAL;
    for (size_t i = 0; i < list.n; i++) {
        const cf_offering *o = &list.items[i];
        double r;
        int count = 0;
        if (!o->gpu || cf__strcasecmp(o->gpu, gpu) != 0 || o->nics_per_node < 1 ||
            isnan(o->network_gbps_per_node) || o->network == CF_NET_NONE ||
            o->network == CF_NET_UNKNOWN)
            continue;
        (*total)++;
        r = o->network_gbps_per_node / (double)o->nics_per_node;
        if ((nics_given > 0 && o->nics_per_node != nics_given) || (gbps_given > 0 && r != gbps_given))
            continue;
        for (size_t k = 0; k < list.n; k++) {
            const cf_offering *p = &list.items[k];
            if (p->gpu && cf__strcasecmp(p->gpu, gpu) == 0 && p->nics_per_node == o->nics_per_node &&
                !isnan(p->network_gbps_per_node) && p->network != CF_NET_NONE &&
                p->network != CF_NET_UNKNOWN && p->network_gbps_per_node / (double)p->nics_per_node == r)
                count++;
        }
        if (count > best) {     /* ties: the first in file order */
            best = count;
            *nics = (int)o->nics_per_node;
            *gbps = r;
        }
    }
    *of = best;
    cf_offering_list_clear(&list);
    return CF_OK;
}

/* The NICs and line rate: as given, else the catalog's usual ones, else one
 * NIC per GPU; a line rate nobody states is refused. */
static cf_status nic_defaults(job *j, const cf_gpu_spec *g, cf_error *err)
{
    cf_fabric *f = &j->node;
    int nics = 0, of = 0, total = 0, bad = 0;
    double gbps = 0;
    cf_status st;
    if (f->nics_per_node > 0 && f->nic_gbps > 0) return CF_OK;
    st = usual_nics(g->name, f->nics_per_node, f->nic_gbps, &nics, &gbps, &of, &total);
    if (st != CF_OK) {
        cf_error_set(err, NULL, 0, 0, "the shipped catalog cannot be read: %s", cf_strerror(st));
        return st;
    }
    if (of == 0 && (f->nics_per_node > 0 || f->nic_gbps > 0))   /* what was given matches none */
        st = usual_nics(g->name, 0, 0, &nics, &gbps, &of, &total);
    if (st != CF_OK) return st;
    if (!(f->nic_gbps > 0) && of == 0) {
        cf_error_set_param(err, "nic_gbps", "nic_gbps not given, and no offering of %s in the shipped "
                           "catalog states its NICs' line rate: give it (Gbit/s per NIC)", g->name);
        return CF_EINVAL;
    }
    if (f->nics_per_node < 1) {
        if (of > 0) {
            f->nics_per_node = nics;
            bad |= assume(j, "nics %d: the most common NIC count of the shipped catalog's %s "
                          "offerings that state their NICs (%d of %d)", nics, g->name, of, total);
        } else {
            f->nics_per_node = f->gpus_per_node;
            bad |= assume(j, "nics %d: one NIC per GPU (no offering of %s states its NICs)",
                          f->nics_per_node, g->name);
        }
    }
    if (!(f->nic_gbps > 0)) {
        f->nic_gbps = gbps;
        bad |= assume(j, "nic_gbps %g: the most common line rate per NIC of the shipped catalog's %s "
                      "offerings that state their NICs (%d of %d)", gbps, g->name, of, total);
    }
    return bad ? CF_ENOMEM : CF_OK;
}

/* The node type after the defaults of the GPU's usual node. */
static cf_status node_defaults(job *j, cf_error *err)
{
    cf_fabric *f = &j->node;
    const cf_gpu_spec *g = NULL;
    int bad = 0;
    if (!f->gpu[0]) {
        cf_error_set_param(err, "gpu", "gpu is required (accepted: %s)", cf_gpu_accepted());
        return CF_EINVAL;
    }
    if (cf_gpu_lookup(f->gpu, &g) != CF_OK) {
        cf_error_set_param(err, "gpu", "unknown gpu '%.64s' (accepted: %s)", f->gpu, cf_gpu_accepted());
        return CF_EINVAL;
    }
    if (f->gpus_per_node < 1) {
        f->gpus_per_node = g->gpus_per_node;
        bad |= assume(j, "gpus_per_node %d: the usual %s node (data/gpus.csv)", f->gpus_per_node,
                      g->name);
    }
    if (f->intra_link == CF_INTRA_UNKNOWN) {
        f->intra_link = g->intra_link;
        bad |= assume(j, "intra %s: the usual %s board (data/gpus.csv)",
                      cf_intra_link_name(f->intra_link), g->name);
    }
    if (bad) return CF_ENOMEM;
    return nic_defaults(j, g, err);
}

/* ---- 2. per family ---- */

/* The goodput of point p (one place for the JSON row and the time): the
 * storage is not part of the question, so the class is assumed (goodput.h
 * CF_SC_ASSUMED, said in the row's goodput_detail) and the same for every
 * family. */
static cf_status fam_goodput(const job *j, const cf__plan_point *p, int gpus_per_node, cf_goodput_out *g)
{
    cf_goodput_opts o;
    cf__plan_gp gp;
    cf_goodput_opts_init(&o);
    gp.w = j->w;
    gp.storage = CF_SC_UNKNOWN;
    gp.opts = &o;
    return cf__plan_goodput(&gp, p, j->steps, gpus_per_node, g);
}

/* That point's wall time to train, hours; NAN when it has none. */
static double fam_time_h(const job *j, const cf__plan_point *p, int gpus_per_node)
{
    cf_goodput_out g;
    if (fam_goodput(j, p, gpus_per_node, &g) != CF_OK) return NAN;
    return g.wall_h;
}

/* What one family gives. */
typedef struct fam_result {
    cf_fabric fab;          /* the node type on this family */
    cf__plan_point pt;      /* the chosen count and its layout (pt.found) */
    cf__plan_point p0;      /* N0's point, for E (p0.found) */
    int missed;             /* deadline: no count of the list meets it */
    double fastest_h;       /* missed: the shortest time to train on the list */
    int fastest_nodes;      /* missed: its count (0 when none fits) */
    double time_h, gpu_h;   /* time to train, GPU-hours; NAN without a point */
    int sold_nodes;         /* as sold: the most nodes any offering of the bundle
                               rents (max_cluster_gpus); 0 = no bound known */
    int over_sold;          /* --nodes beyond sold_nodes: evaluated, flagged */
} fam_result;

/* The global batch of each node count: what the search grows it to on the
 * first family (ib, the best-connected) at that count, the same NICs and
 * line rate. Every family runs that batch there, so the rows compare the
 * same job, hyperparameters included: a slow fabric would otherwise grow
 * its batch further to hide its communication (cf__plan_best_grow), and
 * the premium would price a different job. The points of the first family
 * are kept per count (the other families ask for the same counts). */
typedef struct batch_ref {
    cf_fabric fab;          /* the node type on the first family */
    cf__search s;           /* its search (s.fab = &fab) */
    size_t n;               /* points kept */
    cf__plan_point pts[2 * CF_MAX_PLAN_NODE_COUNTS];
} batch_ref;

static void batch_ref_init(batch_ref *b, const job *j)
{
    memset(b, 0, sizeof *b);
    b->fab = j->node;
    b->fab.network = families[0];
    b->fab.gdr = CF_GDR_UNKNOWN;
    b->s.model = &cf__plan_model_default;
    b->s.w = j->w;
    b->s.fab = &b->fab;
    b->s.mem_limit_gib = cf__plan_mem_limit_gib(b->fab.gpu);
}

/* The first family's point at `nodes`, its batch grown. */
static void batch_ref_at(batch_ref *b, int nodes, cf__plan_point *out)
{
    for (size_t i = 0; i < b->n; i++)
        if (b->pts[i].nodes == nodes) {
            *out = b->pts[i];
            return;
        }
    cf__plan_best_grow(&b->s, nodes, out);
    out->nodes = nodes;
    if (b->n < sizeof b->pts / sizeof b->pts[0]) b->pts[b->n++] = *out;
}

/* The fastest layout of family s->fab at `nodes` with the global batch the
 * first family grows to there: the search of cf__plan_best_grow_from on a
 * workload whose batch_max is that batch, so it starts and stops there
 * (point.batch and batch_scale say so, as when grown). */
static void best_same_batch(cf__search *s, batch_ref *b, int nodes, cf__plan_point *out)
{
    const cf_workload *w0 = s->w;
    cf_workload wb;
    cf__plan_point ref;
    long batch;
    batch_ref_at(b, nodes, &ref);
    if (s->fab->network == b->fab.network && s->fab->gdr == b->fab.gdr &&
        s->fab->nics_per_node == b->fab.nics_per_node && s->fab->nic_gbps == b->fab.nic_gbps) {
        *out = ref;     /* the first family itself */
        return;
    }
    batch = ref.found ? cf__plan_pt_batch(&ref, w0) : w0->global_batch_seqs;
    wb = *w0;
    wb.global_batch_max_seqs = batch;
    s->w = &wb;
    cf__plan_best_grow_from(s, nodes, batch, out);
    s->w = w0;
}

/* N0's point: the first count from n0 (up to 2·n0) where a layout fits. */
static void reference(cf__search *s, batch_ref *b, int n0, cf__plan_point *p0)
{
    memset(p0, 0, sizeof *p0);
    for (int k = n0; k >= 1 && k <= 2 * n0 && !p0->found; k++) best_same_batch(s, b, k, p0);
}

/* One fabric's row: `fab` is the node type on one family (equal line
 * rate) or on one sold bundle; sold_nodes > 0 bounds a bundle's search to
 * the largest cluster its offerings rent (a deadline's search stops there;
 * a --nodes count beyond it is evaluated and flagged over_sold). */
static void run_fabric(const job *j, batch_ref *b, const cf_fabric *fab, int n0, int sold_nodes,
                       fam_result *r)
{
    int max_nodes = sold_nodes > 0 && sold_nodes < j->max_nodes ? sold_nodes : j->max_nodes;
    cf__search s;
    memset(r, 0, sizeof *r);
    r->fab = *fab;
    s.model = &cf__plan_model_default;
    s.w = j->w;
    s.fab = &r->fab;
    s.mem_limit_gib = cf__plan_mem_limit_gib(r->fab.gpu);
    s.evaluated = s.considered = 0;
    s.memo = NULL;
    s.room = NULL;
    s.memo_fits = 0;
    reference(&s, b, n0, &r->p0);
    r->sold_nodes = sold_nodes;
    r->over_sold = j->nodes > 0 && sold_nodes > 0 && j->nodes > sold_nodes;
    if (j->nodes > 0) {
        best_same_batch(&s, b, j->nodes, &r->pt);
    } else {
        int counts[CF_MAX_PLAN_NODE_COUNTS];
        size_t k = cf__plan_node_ladder(n0, r->fab.gpus_per_node,
                                        (long)max_nodes * r->fab.gpus_per_node, counts,
                                        CF_MAX_PLAN_NODE_COUNTS);
        r->missed = 1;
        r->fastest_h = NAN;
        for (size_t i = 0; i < k && r->missed; i++) {
            double t;
            best_same_batch(&s, b, counts[i], &r->pt);
            if (!r->pt.found) continue;
            t = fam_time_h(j, &r->pt, r->fab.gpus_per_node);
            if (cf__plan_meets_deadline(t, j->deadline_h, j->margin_pct)) r->missed = 0;
            else if (isnan(r->fastest_h) || t < r->fastest_h) {
                r->fastest_h = t;       /* what a later deadline could be met by */
                r->fastest_nodes = counts[i];
            }
        }
        if (r->missed) memset(&r->pt, 0, sizeof r->pt);
    }
    r->time_h = r->gpu_h = NAN;
    if (!r->missed) r->fastest_h = NAN;
    if (r->pt.found) {
        /* per base batch (cf__plan_pt_s): a grown batch takes fewer steps;
         * the wall time counts the goodput (goodput_plan.c) */
        r->time_h = fam_time_h(j, &r->pt, r->fab.gpus_per_node);
        r->gpu_h = r->time_h * r->pt.nodes * (double)r->fab.gpus_per_node;
    }
}

static void run_family(const job *j, batch_ref *b, cf_network net, int n0, fam_result *r)
{
    cf_fabric f = j->node;
    f.network = net;
    f.gdr = CF_GDR_UNKNOWN;    /* the family's usual state */
    run_fabric(j, b, &f, n0, 0, r);
}

/* ---- 3. JSON ---- */

/* goodput, steady_time_to_train_h, storage, goodput_detail of a row. */
static int fam_goodput_set(json_t *o, const job *j, const fam_result *r)
{
    cf_goodput_out g;
    if (fam_goodput(j, &r->pt, r->fab.gpus_per_node, &g) != CF_OK) return 0;
    return cf__plan_goodput_set(o, &g);
}

static json_t *row_json(const job *j, const fam_result *r, const fam_result *base)
{
    json_t *o = json_object(), *flags;
    double e = NAN, prem = NAN;
    int bad = 0;
    if (!o) return NULL;
    if (r->pt.found && r->p0.found)
        e = cf__plan_scaling_eff(r->pt.nodes, cf__plan_pt_s(&r->pt), r->p0.nodes,
                                 cf__plan_pt_s(&r->p0));
    if (!base) prem = NAN;
    else if (r == base && r->pt.found) prem = 0;
    else if (j->nodes > 0) prem = cf_worth_premium_pct(base->time_h, r->time_h);
    else prem = cf_worth_premium_pct(base->gpu_h, r->gpu_h);
    flags = cf_assumption_flags_json(cf_fabric_assumptions(&r->fab, r->pt.found ? r->pt.nodes : j->nodes));
    if (flags && !r->pt.found)
        bad |= json_array_append_new(flags, json_string(r->missed ? "deadline_missed" : "does_not_fit"));
    if (flags && r->over_sold) bad |= json_array_append_new(flags, json_string("larger_than_sold"));
    if (flags && !r->pt.found && r->missed && r->sold_nodes > 0 && r->sold_nodes < j->max_nodes)
        bad |= json_array_append_new(flags, json_string("deadline_needs_more_than_sold"));
    bad |= cf__json_set(o, "network", json_string(cf_network_name(r->fab.network)));
    bad |= cf__json_set(o, "nics", json_integer(r->fab.nics_per_node));
    bad |= cf__json_set(o, "nic_gbps", cf__json_num(r->fab.nic_gbps));
    bad |= cf__json_set(o, "nodes", r->pt.found ? json_integer(r->pt.nodes) : json_null());
    bad |= cf__json_set(o, "step_time_s", r->pt.found ? cf__json_num(r->pt.res.step_time_s) : json_null());
    bad |= cf__json_set(o, "scaling_efficiency", cf__json_num(e));
    bad |= cf__json_set(o, "time_to_train_h", cf__json_num(r->time_h));
    if (r->missed && !isnan(r->fastest_h)) {
        /* too slow: the fastest the list reaches, and the deadline it meets */
        bad |= cf__json_set(o, "fastest_time_to_train_h", cf__json_num(r->fastest_h));
        bad |= cf__json_set(o, "fastest_nodes", json_integer(r->fastest_nodes));
        bad |= cf__json_set(o, "deadline_met_h", cf__json_num(r->fastest_h * (1.0 + j->margin_pct / 100.0)));
    }
    if (r->pt.found) bad |= fam_goodput_set(o, j, r);
    bad |= cf__plan_band_set(o, j->w, r->time_h, NAN);
    bad |= cf__json_set(o, "gpu_hours", cf__json_num(r->gpu_h));
    bad |= cf__json_set(o, "worth_premium_pct", cf__json_num(prem));
    bad |= cf__json_set(o, "layout", r->pt.found ? cf__plan_layout_json(&r->pt.lay, j->w->kind == CF_WL_STENCIL)
                                                 : json_null());
    if (j->w->kind == CF_WL_LLM)
        bad |= cf__json_set(o, "global_batch_seqs",
                            r->pt.found ? json_integer(cf__plan_pt_batch(&r->pt, j->w)) : json_null());
    bad |= cf__json_set(o, "flags", flags);
    if (bad) {
        json_decref(o);
        return NULL;
    }
    return o;
}

static cf_status build(const job *j, const fam_result *rs, int n0, json_t **out)
{
    json_t *doc = json_object(), *arr = json_array();
    const fam_result *base = NULL;
    int bad = !doc || !arr;
    for (size_t i = 0; i < N_FAM; i++)
        if (rs[i].fab.network == j->baseline) base = &rs[i];
    for (size_t i = 0; !bad && i < N_FAM; i++) {
        json_t *r = row_json(j, &rs[i], base);
        bad |= !r || json_array_append_new(arr, r);
    }
    bad |= cf__json_set(doc, "workload", json_string(j->w->name));
    bad |= cf__json_set(doc, "gpu", json_string(j->node.gpu));
    bad |= cf__json_set(doc, "gpus_per_node", json_integer(j->node.gpus_per_node));
    bad |= cf__json_set(doc, "intra", json_string(cf_intra_link_name(j->node.intra_link)));
    bad |= cf__json_set(doc, "nodes", j->nodes > 0 ? json_integer(j->nodes) : json_null());
    bad |= cf__json_set(doc, "deadline_h", cf__json_num(j->deadline_h));
    bad |= cf__json_set(doc, "margin_pct", isnan(j->deadline_h) ? json_null() : cf__json_num(j->margin_pct));
    bad |= cf__json_set(doc, "baseline", json_string(cf_network_name(j->baseline)));
    bad |= cf__json_set(doc, "premium_basis", json_string(j->nodes > 0 ? "time" : "gpu_hours"));
    bad |= cf__json_set(doc, "n0", json_integer(n0));
    bad |= cf__json_set(doc, "assumes", json_incref(j->assumes));
    bad |= cf__json_set(doc, "error", cf__plan_error_json(j->w, isnan(j->deadline_h) ? NAN : j->margin_pct));
    bad |= cf__json_set(doc, "fabrics", arr);
    arr = NULL;
    if (bad) {
        json_decref(arr);
        json_decref(doc);
        return CF_ENOMEM;
    }
    *out = doc;
    return CF_OK;
}

/* ---- 4. as sold (fabrics_sold.c groups the bundles) ---- */

/* The offerings the bundles come from: the question's, else the shipped
 * catalog parsed into *own (cleared by the caller). */
static cf_status sold_list(const cf_fabrics_query *q, cf_offering_list *own,
                           const cf_offering_list **list)
{
    size_t len;
    const char *csv;
    cf_status st;
    *list = q->offerings ? q->offerings : own;
    if (q->offerings || !(csv = cf__embedded_find("data/offerings.csv", &len))) return CF_OK;
    st = cf_offerings_parse("data/offerings.csv", csv, len, CF_IMPORT_CSV, NULL, own, NULL);
    return st == CF_OK ? CF_OK : st == CF_ENOMEM ? st : CF_EINTERNAL;
}

/* The rows of the bundles, each through the rows' own search and JSON,
 * the premium against the baseline bundle; then fabrics_sold.c's
 * members (ids, prices, money, headline). */
static cf_status sold_rows(const job *j, batch_ref *b, int n0, const cf__bundles *bs, json_t **out)
{
    fam_result *rs = calloc(bs->n ? bs->n : 1, sizeof *rs);
    json_t *rows = json_array();
    unsigned char ok[CF__BUNDLES_MAX];
    size_t base;
    cf_status st = rs && rows ? CF_OK : CF_ENOMEM;
    for (size_t i = 0; st == CF_OK && i < bs->n; i++) {
        cf_fabric f = j->node;
        f.network = bs->b[i].fab.network;
        f.nics_per_node = bs->b[i].fab.nics_per_node;
        f.nic_gbps = bs->b[i].fab.nic_gbps;
        f.gdr = CF_GDR_UNKNOWN;     /* the family's usual state, as the equal-rate rows */
        run_fabric(j, b, &f, n0, bs->b[i].max_nodes, &rs[i]);
        ok[i] = rs[i].pt.found;
    }
    base = cf__fabrics_sold_baseline(bs, j->baseline, ok);
    for (size_t i = 0; st == CF_OK && i < bs->n; i++) {
        json_t *r = row_json(j, &rs[i], base < bs->n ? &rs[base] : NULL);
        if (!r || json_array_append_new(rows, r)) st = CF_ENOMEM;
    }
    if (st == CF_OK) st = cf__fabrics_sold_json(bs, rows, base, j->node.gpu, "USD", out);
    json_decref(rows);
    free(rs);
    return st;
}

static cf_status sold(const job *j, batch_ref *b, int n0, const cf_fabrics_query *q, json_t *doc)
{
    cf_offering_list own = {NULL, 0};
    const cf_offering_list *list;
    cf__bundles *bs = malloc(sizeof *bs);
    json_t *s = NULL;
    cf_status st = bs ? sold_list(q, &own, &list) : CF_ENOMEM;
    if (st == CF_OK) {
        cf__fabrics_bundles(list->items, list->n, j->node.gpu, j->node.gpus_per_node, "USD", bs);
        st = sold_rows(j, b, n0, bs, &s);
    }
    if (st == CF_OK && cf__json_set(doc, "sold", s)) st = CF_ENOMEM;
    cf_offering_list_clear(&own);
    free(bs);
    return st;
}

/* Checks the question and fills the job (defaults, steps, N0's search
 * bound). */
static cf_status prepare(job *j, const cf_workload *w, const cf_fabrics_query *q, cf_error *err)
{
    cf_status st;
    memset(j, 0, sizeof *j);
    j->w = w;
    j->node = q->node;
    j->nodes = q->nodes;
    j->deadline_h = q->deadline_h;
    j->margin_pct = cf__plan_margin_pct(w, q->margin_pct);
    j->baseline = is_family(q->baseline) ? q->baseline : CF_NET_TCP;
    if ((q->nodes > 0) == !isnan(q->deadline_h)) {
        cf_error_set_param(err, "nodes", "give either nodes or deadline_h (hours), not %s",
                           q->nodes > 0 ? "both" : "neither");
        return CF_EINVAL;
    }
    j->steps = cf__plan_steps(w);
    if (isnan(j->steps)) {
        cf_error_set_param(err, "workload", "workload %s states no amount of work (tokens, samples, "
                           "iterations or tasks)", w->name);
        return CF_EINVAL;
    }
    if (!(j->assumes = json_array())) return CF_ENOMEM;
    if ((st = node_defaults(j, err)) != CF_OK) return st;
    j->max_nodes = (int)(CF_PLAN_DEFAULT_MAX_GPUS / j->node.gpus_per_node);
    if (j->max_nodes < 1) j->max_nodes = 1;
    if (j->max_nodes > CF_FIT_MAX_NODES) j->max_nodes = (int)CF_FIT_MAX_NODES;
    if (assume(j, "gdr: each family's usual state (GPUDirect on for ib, roce, efa, tcpxo, tcpx; "
               "not applicable to tcp); at equal line rate every family at the same %d x %g Gbit/s "
               "NICs, as sold each bundle at its own",
               j->node.nics_per_node, j->node.nic_gbps))
        return CF_ENOMEM;
    return CF_OK;
}

/* N0: the smallest count on which a layout fits (memory does not depend on
 * the network, so one search serves every family). */
static int find_n0(const job *j)
{
    cf_fabric f = j->node;
    cf__search s;
    f.network = CF_NET_IB;
    s.model = &cf__plan_model_default;
    s.w = j->w;
    s.fab = &f;
    s.mem_limit_gib = cf__plan_mem_limit_gib(f.gpu);
    s.evaluated = s.considered = 0;
    s.memo = NULL;
    s.room = NULL;
    s.memo_fits = 0;
    return cf__plan_min_nodes(&s, j->max_nodes > j->nodes ? j->max_nodes : j->nodes);
}

cf_status cf_fabrics(const cf_workload *w, const cf_fabrics_query *q, json_t **out, cf_error *err)
{
    job j;
    fam_result rs[N_FAM];
    batch_ref b;
    int n0;
    cf_status st;
    if (out) *out = NULL;
    if (!w || !q || !out) {
        cf_error_set(err, NULL, 0, 0, "no workload, question or output");
        return CF_EINVAL;
    }
    if (w->kind == CF_WL_SERVE) return cf_serve_fabrics(w, q, out, err);
    st = prepare(&j, w, q, err);
    if (st == CF_OK) {
        n0 = find_n0(&j);
        if (n0 < 1) {
            cf_error_set_param(err, "workload", "workload %s does not fit in memory on up to %d nodes "
                               "of %d x %s", w->name, j.max_nodes, j.node.gpus_per_node, j.node.gpu);
            st = CF_EINVAL;
        } else {
            batch_ref_init(&b, &j);
            for (size_t i = 0; i < N_FAM; i++) run_family(&j, &b, families[i], n0, &rs[i]);
            st = build(&j, rs, n0, out);
            if (st == CF_OK && (st = sold(&j, &b, n0, q, *out)) != CF_OK) {
                json_decref(*out);
                *out = NULL;
            }
        }
    }
    if (st == CF_ENOMEM) cf_error_set(err, NULL, 0, 0, "out of memory");
    json_decref(j.assumes);
    return st;
}

cf_status cf__fabrics_node_defaults(const cf_fabrics_query *q, cf_fabric *node, json_t *assumes,
                                    cf_error *err)
{
    job j;
    cf_status st;
    memset(&j, 0, sizeof j);
    j.node = q->node;
    j.assumes = assumes;
    st = node_defaults(&j, err);
    *node = j.node;
    return st;
}
