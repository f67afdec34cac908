/* crossval.c — error out of sample (issue 20): leave-one-source-out over a
 * validation set, and the error by class (dense / MoE, framework, GPU
 * generation, context length; size class and transport) that the
 * intervals of every prediction come from (constants.def ERR_*).
 *
 * A source is a document (cf_validation_row.source): a paper, a README, a
 * results page at any commit. Leaving out one source at a time is what
 * tells how the model does on a document it never saw; leaving out rows at
 * random would keep a page's siblings in the fit. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "model/model_int.h"
#include "model/serve_int.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double cf_quantile(double *vals, size_t n, double q)
{
    double pos, frac;
    size_t i;
    if (n == 0) return NAN;
    qsort(vals, n, sizeof *vals, cmp_double);
    if (q <= 0) return vals[0];
    if (q >= 1) return vals[n - 1];
    pos = q * (double)(n - 1);
    i = (size_t)pos;
    frac = pos - (double)i;
    return i + 1 < n ? vals[i] + frac * (vals[i + 1] - vals[i]) : vals[i];
}

/* The kinds of row: a collectives row (size_class >= 0), a training row
 * (-1), a serving row (CF__VROW_SERVING). */
enum { KIND_COLL, KIND_TRAINING, KIND_SERVING };
static const char *const kind_names[] = {"collectives", "training", "serving"};

static int row_kind(const cf_validation_row *r)
{
    return r->size_class >= 0 ? KIND_COLL : r->size_class == CF__VROW_SERVING ? KIND_SERVING
                                                                             : KIND_TRAINING;
}

/* The kind named `kind` (NULL: -1, any). */
static int kind_of(const char *kind)
{
    if (!kind) return -1;
    for (int k = KIND_COLL; k <= KIND_SERVING; k++)
        if (strcmp(kind, kind_names[k]) == 0) return k;
    return KIND_COLL;
}

/* Copies row r into the end of v (the strings duplicated). */
static cf_status copy_row(cf_validation *v, const cf_validation_row *r)
{
    cf_status st = cf__validation_add(v, r->id, r->metric, r->predicted, r->measured,
                                      r->multi_node, r->note, NULL);
    cf_validation_row *d;
    if (st != CF_OK) return st;
    d = &v->rows[v->n_rows - 1];
    cf__free(d->source);
    if (!(d->source = cf__strdup(r->source))) return CF_ENOMEM;
    d->size_class = r->size_class;
    d->network = r->network;
    d->moe = r->moe;
    d->framework = r->framework;
    d->generation = r->generation;
    d->seq = r->seq;
    return CF_OK;
}

/* The distinct sources of v's rows (of `kind`, NULL any), in order of
 * first appearance (pointers into v). */
static cf_status sources_of(const cf_validation *v, const char *kind, const char ***out,
                            size_t *n)
{
    const char **s = cf__malloc((v->n_rows ? v->n_rows : 1) * sizeof *s);
    size_t k = 0;
    int want = kind_of(kind);
    if (!s) return CF_ENOMEM;
    for (size_t i = 0; i < v->n_rows; i++) {
        size_t j = 0;
        if (want >= 0 && row_kind(&v->rows[i]) != want) continue;
        while (j < k && strcmp(s[j], v->rows[i].source) != 0) j++;
        if (j == k) s[k++] = v->rows[i].source;
    }
    *out = s;
    *n = k;
    return CF_OK;
}

/* Fits without `source` (reusing the full fit's values where it cannot
 * change them) and appends the rows of `source` to *oos. */
static cf_status one_fold(const cf_validation_set *set, const char *source, const double *reuse,
                          cf_validation *oos, cf_error *err)
{
    cf_refit_result fit;
    cf_validation v;
    cf_status st = cf__refit_reusing(set, source, reuse, &fit, err);
    cf_refit_clear(&fit);
    if (st != CF_OK) return st;
    memset(&v, 0, sizeof v);
    st = cf_validation_set_run(set, &v, err);
    for (size_t i = 0; st == CF_OK && i < v.n_rows; i++)
        if (strcmp(v.rows[i].source, source) == 0) st = copy_row(oos, &v.rows[i]);
    cf_validation_clear(&v);
    return st;
}

cf_status cf_validate_cv(const cf_validation_set *set, const char *kind,
                         cf_validation *in_sample, cf_validation *oos,
                         void (*progress)(size_t, size_t, void *), void *arg, cf_error *err)
{
    cf_refit_result fit;
    const char **src = NULL;
    double *reuse = NULL;
    size_t ns = 0;
    cf_status st;
    memset(oos, 0, sizeof *oos);
    cf_validation_clear(oos);
    memset(in_sample, 0, sizeof *in_sample);
    st = cf_refit(set, NULL, &fit, err);
    if (st == CF_OK && !(reuse = cf__malloc((fit.n ? fit.n : 1) * sizeof *reuse))) st = CF_ENOMEM;
    for (size_t i = 0; st == CF_OK && i < fit.n; i++) reuse[i] = fit.c[i].value;
    cf_refit_clear(&fit);
    if (st == CF_OK) st = cf_validation_set_run(set, in_sample, err);
    if (st == CF_OK) st = sources_of(in_sample, kind, &src, &ns);
    for (size_t i = 0; st == CF_OK && i < ns; i++) {
        st = one_fold(set, src[i], reuse, oos, err);
        if (progress) progress(i + 1, ns, arg);
    }
    if (st == CF_OK) st = cf__validation_finish(oos, in_sample->by_node_count);
    cf__free(src);
    cf__free(reuse);
    cf__model_constants_restore();
    if (st != CF_OK) {
        cf_validation_clear(in_sample);
        cf_validation_clear(oos);
    }
    return st;
}

/* ---------------------------------------------------------------- classes */

/* The class of row r under `by` into name[32]; 0 when r has none there. */
static int class_of(const cf_validation_row *r, cf_vclass_kind by, char name[32])
{
    int coll = r->size_class >= 0;
    static const char *const sizes[CF_VSIZE__COUNT] = {"small", "mid", "large"};
    if (r->size_class == CF__VROW_SERVING && by == CF_VCLASS_CONTEXT) return 0;
    switch (by) {
    case CF_VCLASS_ALL: snprintf(name, 32, "all"); return 1;
    case CF_VCLASS_MODEL: if (coll) return 0; snprintf(name, 32, "%s", r->moe ? "moe" : "dense"); return 1;
    case CF_VCLASS_FRAMEWORK:
        if (coll || !r->framework) return 0;
        snprintf(name, 32, "%s", r->framework);
        return 1;
    case CF_VCLASS_GENERATION:
        if (coll || !r->generation) return 0;
        snprintf(name, 32, "%s", r->generation);
        return 1;
    case CF_VCLASS_CONTEXT:
        if (coll) return 0;
        snprintf(name, 32, "%s", r->seq <= 4096 ? "<= 4k" : r->seq <= 8192 ? "8k"
                                  : r->seq <= 32768 ? "16k-32k" : "> 32k");
        return 1;
    case CF_VCLASS_SIZE: if (!coll) return 0; snprintf(name, 32, "%s", sizes[r->size_class]); return 1;
    case CF_VCLASS_NETWORK:
        if (!coll) return 0;
        snprintf(name, 32, "%s", r->network == CF_NET_NONE ? "one node" : cf_network_name(r->network));
        return 1;
    default: return 0;
    }
}

static const char *const by_names[CF_VCLASS__COUNT] = {"all", "model", "framework", "generation",
                                                       "context", "size", "network"};

/* 1 when row r is of `kind` (KIND_*) and in class `name` under `by`. */
static int in_class(const cf_validation_row *r, int kind, cf_vclass_kind by, const char *name)
{
    char here[32];
    return row_kind(r) == kind && class_of(r, by, here) && strcmp(here, name) == 0 &&
           r->time_ratio > 0;
}

/* The fraction of the class's rows whose ratio lies inside the p10-p90 of
 * the class's rows from the other sources: how often the band of a
 * prediction holds on a source that neither the fit nor the band saw.
 * `tmp` has room for every row. NAN when no row has another source. */
static double coverage(const cf_validation *v, int kind, cf_vclass_kind by, const char *name,
                       double *tmp)
{
    size_t in = 0, judged = 0;
    for (size_t i = 0; i < v->n_rows; i++) {
        const cf_validation_row *r = &v->rows[i];
        size_t m = 0;
        if (!in_class(r, kind, by, name)) continue;
        for (size_t k = 0; k < v->n_rows; k++)
            if (in_class(&v->rows[k], kind, by, name) && strcmp(v->rows[k].source, r->source) != 0)
                tmp[m++] = v->rows[k].time_ratio;
        if (m < 2) continue;
        judged++;
        {
            double lo = cf_quantile(tmp, m, 0.10), hi = cf_quantile(tmp, m, 0.90);
            in += r->time_ratio >= lo && r->time_ratio <= hi;
        }
    }
    return judged ? (double)in / (double)judged : NAN;
}

/* Fills c with the statistics of the rows of `kind` (KIND_*) in class
 * `name` under `by`; vals has room for every row. */
static void class_stats(const cf_validation *v, int kind, cf_vclass_kind by, cf_vclass *c,
                        double *vals, double *apes, const char **seen)
{
    size_t n = 0, ns = 0;
    char name[32];
    for (size_t i = 0; i < v->n_rows; i++) {
        const cf_validation_row *r = &v->rows[i];
        size_t j = 0;
        if (row_kind(r) != kind || !class_of(r, by, name) || strcmp(name, c->name) != 0 ||
            !(r->time_ratio > 0))
            continue;
        vals[n] = r->time_ratio;
        apes[n++] = r->ape_pct;
        while (j < ns && strcmp(seen[j], r->source) != 0) j++;
        if (j == ns) seen[ns++] = r->source;
    }
    c->n_rows = n;
    c->n_sources = ns;
    c->coverage = coverage(v, kind, by, c->name, apes + n);
    c->median_ape_pct = cf__median(apes, n);
    c->ratio_p10 = cf_quantile(vals, n, 0.10);
    c->ratio_p50 = cf_quantile(vals, n, 0.50);
    c->ratio_p90 = cf_quantile(vals, n, 0.90);
}

void cf_vclasses_free(cf_vclass *c)
{
    cf__free(c);
}

cf_status cf_validation_by_class(const cf_validation *v, cf_vclass **out, size_t *n)
{
    size_t cap = v->n_rows * CF_VCLASS__COUNT + 2, k = 0;
    cf_vclass *c = cf__calloc(cap, sizeof *c);
    /* ratios and APEs of one class's rows, and the sources seen */
    double *vals = cf__malloc((v->n_rows + 1) * 3 * sizeof *vals);
    const char **seen = cf__malloc((v->n_rows + 1) * sizeof *seen);
    *out = NULL;
    *n = 0;
    if (!c || !vals || !seen) {
        cf__free(c);
        cf__free(vals);
        cf__free(seen);
        return CF_ENOMEM;
    }
    /* training first, then collectives, then serving */
    static const int order[] = {KIND_TRAINING, KIND_COLL, KIND_SERVING};
    for (int o = 0; o < 3; o++)
        for (int by = 0; by < CF_VCLASS__COUNT; by++)
            for (size_t i = 0; i < v->n_rows; i++) {
                char name[32];
                size_t j = 0;
                const cf_validation_row *r = &v->rows[i];
                const char *kn = kind_names[order[o]];
                if (row_kind(r) != order[o] || !class_of(r, (cf_vclass_kind)by, name)) continue;
                while (j < k && !(strcmp(c[j].by, by_names[by]) == 0 &&
                                  strcmp(c[j].kind, kn) == 0 && strcmp(c[j].name, name) == 0))
                    j++;
                if (j < k) continue;
                c[k].kind = kn;
                c[k].by = by_names[by];
                snprintf(c[k].name, sizeof c[k].name, "%s", name);
                class_stats(v, order[o], (cf_vclass_kind)by, &c[k], vals, vals + v->n_rows + 1, seen);
                k++;
            }
    cf__free(vals);
    cf__free(seen);
    *out = c;
    *n = k;
    return CF_OK;
}

json_t *cf_cv_to_json(const char *kind, const cf_vclass *in, size_t nin, const cf_vclass *oos,
                      size_t noos, const cf_validation *rows)
{
    json_t *j = json_object(), *a = json_array();
    int bad = !j || !a;
    for (size_t i = 0; !bad && i < noos; i++) {
        const cf_vclass *o = &oos[i], *m = NULL;
        json_t *c;
        if (strcmp(o->kind, kind) != 0) continue;
        for (size_t k = 0; k < nin; k++)
            if (strcmp(in[k].kind, o->kind) == 0 && strcmp(in[k].by, o->by) == 0 &&
                strcmp(in[k].name, o->name) == 0)
                m = &in[k];
        c = json_object();
        bad = !c || json_array_append_new(a, c) || cf__json_set(c, "by", cf__json_str(o->by)) ||
              cf__json_set(c, "class", cf__json_str(o->name)) ||
              cf__json_set(c, "rows", json_integer((json_int_t)o->n_rows)) ||
              cf__json_set(c, "sources", json_integer((json_int_t)o->n_sources)) ||
              cf__json_set(c, "in_sample_median_ape_pct", cf__json_num(m ? m->median_ape_pct : NAN)) ||
              cf__json_set(c, "median_ape_pct", cf__json_num(o->median_ape_pct)) ||
              cf__json_set(c, "ratio_p10", cf__json_num(o->ratio_p10)) ||
              cf__json_set(c, "ratio_p50", cf__json_num(o->ratio_p50)) ||
              cf__json_set(c, "ratio_p90", cf__json_num(o->ratio_p90)) ||
              cf__json_set(c, "coverage", cf__json_num(o->coverage));
    }
    if (bad || cf__json_set(j, "classes", a)) {
        if (bad) json_decref(a);
        json_decref(j);
        return NULL;
    }
    if (cf__json_set(j, "cv", cf__json_str("source")) || cf__json_set(j, "kind", cf__json_str(kind)) ||
        cf__json_set(j, "rows", cf_validation_to_json(rows))) {
        json_decref(j);
        return NULL;
    }
    return j;
}

/* ------------------------------------------------------------- intervals */

/* The interval constants and the class and quantile each is. */
static const struct interval_spec {
    int k;                  /* the constant (cf__kid) */
    const char *kind, *by, *name;  /* the class (cf_vclass) */
    double q;               /* the quantile */
} ivals[] = {
    {CF_K_ERR_DENSE_P10, "training", "model", "dense", 0.10},
    {CF_K_ERR_DENSE_P90, "training", "model", "dense", 0.90},
    {CF_K_ERR_MOE_P10, "training", "model", "moe", 0.10},
    {CF_K_ERR_MOE_P90, "training", "model", "moe", 0.90},
    {CF_K_ERR_COLL_SMALL_P10, "collectives", "size", "small", 0.10},
    {CF_K_ERR_COLL_SMALL_P90, "collectives", "size", "small", 0.90},
    {CF_K_ERR_COLL_MID_P10, "collectives", "size", "mid", 0.10},
    {CF_K_ERR_COLL_MID_P90, "collectives", "size", "mid", 0.90},
    {CF_K_ERR_COLL_LARGE_P10, "collectives", "size", "large", 0.10},
    {CF_K_ERR_COLL_LARGE_P90, "collectives", "size", "large", 0.90},
    {CF_K_ERR_SERVE_P10, "serving", "all", "all", 0.10},
    {CF_K_ERR_SERVE_P90, "serving", "all", "all", 0.90},
};
#define N_IVALS (sizeof ivals / sizeof ivals[0])

cf_status cf_refit_intervals(const cf_validation *oos, cf_refit_result *out)
{
    cf_vclass *c = NULL;
    size_t nc = 0;
    cf_refit_constant *r;
    cf_status st = cf_validation_by_class(oos, &c, &nc);
    if (st != CF_OK) return st;
    r = cf__realloc(out->c, (out->n + N_IVALS) * sizeof *r);
    if (!r) {
        cf_vclasses_free(c);
        return CF_ENOMEM;
    }
    out->c = r;
    for (size_t i = 0; i < N_IVALS; i++) {
        cf_refit_constant *e = &out->c[out->n++];
        const cf_vclass *m = NULL;
        double v = NAN;
        for (size_t k = 0; k < nc; k++)
            if (strcmp(c[k].kind, ivals[i].kind) == 0 && strcmp(c[k].by, ivals[i].by) == 0 &&
                strcmp(c[k].name, ivals[i].name) == 0)
                m = &c[k];
        memset(e, 0, sizeof *e);
        e->name = cf__model_constants[ivals[i].k].name;
        e->unit = cf__model_constants[ivals[i].k].unit;
        e->shipped = cf__model_constant_shipped(ivals[i].k);
        e->step = 0.01;
        e->lo = 0;
        e->hi = INFINITY;
        e->start = NAN;
        if (m) v = ivals[i].q < 0.5 ? m->ratio_p10 : m->ratio_p90;
        /* rounded to the step: a figure of two decimals, as shipped */
        e->value = isnan(v) ? e->shipped : floor(v / e->step + 0.5) * e->step;
        e->n_rows = m ? m->n_rows : 0;
        e->median_ape_pct = m ? m->median_ape_pct : NAN;
        snprintf(e->rows, sizeof e->rows, "out of sample: %s %s, p%.0f", ivals[i].kind,
                 ivals[i].name, ivals[i].q * 100);
    }
    cf_vclasses_free(c);
    return CF_OK;
}
