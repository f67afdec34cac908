/* refit.c — fitting as code (issue 20): the constants model/fitspec.def
 * names are fitted here, from validation files, and leave-one-source-out
 * tells their error on sources a fit never saw.
 *
 * A set is the files read once; a run predicts every row of them at the
 * process's current constants (validate.c, validate_training.c). A fit is
 * coordinate descent over a grid: each constant in fitspec.def's order
 * takes the grid value that minimises the median |ln(measured time /
 * predicted time)| of its rows (the median, as the APE the project
 * reports, so one odd row cannot pull a constant), the middle of a flat
 * minimum, pass after pass until none moves. Grid values keep the result
 * a function of the rows alone: the same rows give the same constants on
 * every machine, which `validate refit --check` compares with
 * constants.def. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "clusterfit/limits.h"
#include "model/model_int.h"
#include "model/serve_int.h"

/* Which rows a constant is fitted on. */
enum { FIT_COLL, FIT_DENSE, FIT_MOE, FIT_SERVE };

/* The kinds of validation file of a set. */
enum { KIND_COLL, KIND_TRAINING, KIND_SERVING };

/* One row of fitspec.def. */
typedef struct fit_spec {
    int k;                      /* the constant (cf__kid) */
    double start, lo, hi, step; /* search start and grid */
    int rows;                   /* FIT_COLL, FIT_DENSE, FIT_MOE or FIT_SERVE */
    const char *framework;      /* training rows of this class only, serving
                                   rows of this phase; NULL any */
    const char *generation;     /* ... of this GPU generation; NULL any */
    int network;                /* collectives rows on this network; -1 any */
    int size_class;             /* ... of this size class; -1 any */
} fit_spec;

static const fit_spec specs[] = {
#define FIT(id, st, lo, hi, step, rows, fw, gen, net, size) \
    {CF_K_##id, st, lo, hi, step, rows, fw, gen, net, size},
#include "model/fitspec.def"
#undef FIT
};
#define N_SPECS (sizeof specs / sizeof specs[0])

struct cf_validation_set {
    size_t n;               /* files */
    char **name;            /* n paths, owned */
    char **data;            /* n contents, NUL-terminated, owned */
    size_t *len;            /* n lengths */
    int *training;          /* n: KIND_TRAINING, KIND_COLL or KIND_SERVING */
};

/* 1 when the first line that is not a comment names column `col`. */
static int header_has(const char *d, const char *col)
{
    const char *e;
    size_t n = strlen(col);
    while (*d == '#') {
        d = strchr(d, '\n');
        if (!d) return 0;
        d++;
    }
    e = strchr(d, '\n');
    for (const char *p = d; (p = strstr(p, col)) && (!e || p < e); p++) {
        int before = p == d || p[-1] == ',';
        char after = p[n];
        if (before && (after == ',' || after == '\n' || after == '\r' || after == '\0')) return 1;
    }
    return 0;
}

/* The kind of a validation file by its header: a `collective` column
 * (collectives), a `phase` column (serving), else training. */
static int header_kind(const char *d)
{
    if (header_has(d, "collective")) return KIND_COLL;
    return header_has(d, "phase") ? KIND_SERVING : KIND_TRAINING;
}

/* The kind of file the rows of group g come from. */
static int group_kind(int g)
{
    return g == FIT_COLL ? KIND_COLL : g == FIT_SERVE ? KIND_SERVING : KIND_TRAINING;
}

void cf_validation_set_free(cf_validation_set *set)
{
    if (!set) return;
    for (size_t i = 0; i < set->n; i++) {
        if (set->name) cf__free(set->name[i]);
        if (set->data) cf__free(set->data[i]);
    }
    cf__free(set->name);
    cf__free(set->data);
    cf__free(set->len);
    cf__free(set->training);
    cf__free(set);
}

cf_status cf_validation_set_load(const char *const *paths, size_t n, cf_validation_set **out,
                                 cf_error *err)
{
    cf_validation_set *s;
    *out = NULL;
    if (n == 0 || n > CF_MAX_VALIDATION_FILES) {
        cf_error_set(err, NULL, 0, 0, "expected 1 to %d validation files, got %zu",
                     CF_MAX_VALIDATION_FILES, n);
        return CF_EINVAL;
    }
    s = cf__calloc(1, sizeof *s);
    if (!s) return CF_ENOMEM;
    s->name = cf__calloc(n, sizeof *s->name);
    s->data = cf__calloc(n, sizeof *s->data);
    s->len = cf__calloc(n, sizeof *s->len);
    s->training = cf__calloc(n, sizeof *s->training);
    if (!s->name || !s->data || !s->len || !s->training) {
        cf_validation_set_free(s);
        return CF_ENOMEM;
    }
    s->n = n;
    for (size_t i = 0; i < n; i++) {
        cf_status st = cf__read_file(paths[i], (size_t)CF_MAX_VALIDATION_BYTES,
                                     "CF_MAX_VALIDATION_BYTES", &s->data[i], &s->len[i], err);
        if (st == CF_OK && !(s->name[i] = cf__strdup(paths[i]))) st = CF_ENOMEM;
        if (st != CF_OK) {
            cf_validation_set_free(s);
            return st;
        }
        s->training[i] = header_kind(s->data[i]);
    }
    *out = s;
    return CF_OK;
}

/* Moves every row of `from` to the end of `to` (from is left empty). */
static cf_status append_rows(cf_validation *to, cf_validation *from)
{
    cf_validation_row *r;
    cf_validation_skip *k;
    if (from->n_rows) {
        r = cf__realloc(to->rows, (to->n_rows + from->n_rows) * sizeof *r);
        if (!r) return CF_ENOMEM;
        memcpy(r + to->n_rows, from->rows, from->n_rows * sizeof *r);
        to->rows = r;
        to->n_rows += from->n_rows;
        from->n_rows = 0;
    }
    if (from->n_skipped) {
        k = cf__realloc(to->skipped, (to->n_skipped + from->n_skipped) * sizeof *k);
        if (!k) return CF_ENOMEM;
        memcpy(k + to->n_skipped, from->skipped, from->n_skipped * sizeof *k);
        to->skipped = k;
        to->n_skipped += from->n_skipped;
        from->n_skipped = 0;
    }
    cf_validation_clear(from);
    return CF_OK;
}

/* The rows of the files of one kind (want: a KIND_*, -1 every kind) into
 * *out (empty on entry). */
static cf_status run_kind(const cf_validation_set *set, int want, cf_validation *out,
                          cf_error *err)
{
    cf_status st = CF_OK;
    int any_coll = 0;
    memset(out, 0, sizeof *out);
    cf_validation_clear(out);
    for (size_t i = 0; i < set->n && st == CF_OK; i++) {
        cf_validation one;
        if (want >= 0 && set->training[i] != want) continue;
        memset(&one, 0, sizeof one);
        if (set->training[i] == KIND_TRAINING)
            st = cf__validate_training_text(set->name[i], set->data[i], set->len[i], &one, err);
        else if (set->training[i] == KIND_SERVING)
            st = cf__validate_serving_text(set->name[i], set->data[i], set->len[i], &one, err);
        else
            st = cf__validate_collectives_text(set->name[i], set->data[i], set->len[i], &one, err);
        any_coll |= set->training[i] == KIND_COLL;
        if (st == CF_OK) st = append_rows(out, &one);
        cf_validation_clear(&one);
    }
    if (st == CF_OK) st = cf__validation_finish(out, any_coll);
    if (st != CF_OK) cf_validation_clear(out);
    return st;
}

cf_status cf_validation_set_run(const cf_validation_set *set, cf_validation *out, cf_error *err)
{
    return run_kind(set, -1, out, err);
}

/* 1 when row r is one of the rows spec s is fitted on. */
static int spec_row(const fit_spec *s, const cf_validation_row *r)
{
    if (s->rows == FIT_COLL) {
        if (r->size_class < 0) return 0;
        return (s->network < 0 || (int)r->network == s->network) &&
               (s->size_class < 0 || r->size_class == s->size_class);
    }
    if (s->rows == FIT_SERVE)
        return r->size_class == CF__VROW_SERVING &&
               (!s->framework || (r->framework && strcmp(r->framework, s->framework) == 0));
    if (r->size_class != -1 || r->moe != (s->rows == FIT_MOE)) return 0;
    return (!s->framework || (r->framework && strcmp(r->framework, s->framework) == 0)) &&
           (!s->generation || (r->generation && strcmp(r->generation, s->generation) == 0));
}

/* The objective of spec s at the current constants: the median |ln ratio|
 * over its rows, those of source `exclude` left out; *n_rows how many; a
 * huge value when a row cannot be predicted (a grid value that breaks the
 * model is never chosen). */
static cf_status objective(const cf_validation_set *set, const fit_spec *s, const char *exclude,
                           double *obj, size_t *n_rows, double *ape, cf_error *err)
{
    cf_validation v;
    double *vals, *apes;
    size_t n = 0;
    cf_status st = run_kind(set, group_kind(s->rows), &v, err);
    if (st != CF_OK) return st;
    vals = cf__malloc((v.n_rows ? v.n_rows : 1) * 2 * sizeof *vals);
    if (!vals) {
        cf_validation_clear(&v);
        return CF_ENOMEM;
    }
    apes = vals + (v.n_rows ? v.n_rows : 1);
    for (size_t i = 0; i < v.n_rows; i++) {
        const cf_validation_row *r = &v.rows[i];
        if (!spec_row(s, r) || (exclude && strcmp(r->source, exclude) == 0)) continue;
        apes[n] = r->ape_pct;
        vals[n++] = r->time_ratio > 0 ? fabs(log(r->time_ratio)) : 1e9;
    }
    *n_rows = n;
    *obj = n ? cf__median(vals, n) : 0.0;
    if (ape) *ape = n ? cf__median(apes, n) : NAN;
    cf__free(vals);
    cf_validation_clear(&v);
    return CF_OK;
}

/* Grid point i of spec s. */
static double grid(const fit_spec *s, long i)
{
    return s->lo + (double)i * s->step;
}

/* One constant's search: every grid value, the middle of the flat minimum.
 * *moved 1 when the value changed. */
static cf_status fit_one(const cf_validation_set *set, const fit_spec *s, const char *exclude,
                         int *moved, cf_error *err)
{
    long n = (long)floor((s->hi - s->lo) / s->step + 0.5) + 1, best_lo = -1, best_hi = -1;
    double best = INFINITY, before = cf__model_constants[s->k].value;
    size_t rows = 0;
    for (long i = 0; i < n; i++) {
        double o;
        cf_status st;
        cf__model_constants[s->k].value = grid(s, i);
        st = objective(set, s, exclude, &o, &rows, NULL, err);
        if (st != CF_OK) return st;
        /* too few rows to stand behind a fit: the start (the prior) */
        if (rows < CF_REFIT_MIN_ROWS) {
            rows = 0;
            break;
        }
        if (o < best - 1e-12) { best = o; best_lo = best_hi = i; }
        else if (o <= best + 1e-12 && best_hi == i - 1) best_hi = i;
    }
    cf__model_constants[s->k].value = rows == 0 || best_lo < 0 ? before
                                      : grid(s, (best_lo + best_hi) / 2);
    *moved = fabs(cf__model_constants[s->k].value - before) > s->step / 2;
    return CF_OK;
}

void cf_refit_restore(void)
{
    cf__model_constants_restore();
}

void cf_refit_clear(cf_refit_result *r)
{
    if (!r) return;
    cf__free(r->c);
    memset(r, 0, sizeof *r);
}

/* Spec s's rows in words: "training dense, megatron, hopper",
 * "collectives ib, large". */
static void describe(const fit_spec *s, char *out, size_t n)
{
    static const char *const sizes[CF_VSIZE__COUNT] = {"small", "mid", "large"};
    if (s->rows == FIT_COLL) {
        snprintf(out, n, "collectives%s%s%s%s", s->network >= 0 ? " " : "",
                 s->network >= 0 ? cf_network_name((cf_network)s->network) : "",
                 s->size_class >= 0 ? ", " : "", s->size_class >= 0 ? sizes[s->size_class] : "");
        return;
    }
    if (s->rows == FIT_SERVE) {
        snprintf(out, n, "serving%s%s", s->framework ? " " : "", s->framework ? s->framework : "");
        return;
    }
    snprintf(out, n, "training %s%s%s%s%s", s->rows == FIT_MOE ? "moe" : "dense",
             s->framework ? ", " : "", s->framework ? s->framework : "",
             s->generation ? ", " : "", s->generation ? s->generation : "");
}

/* The report of the fit just made. */
static cf_status report(const cf_validation_set *set, const char *exclude, cf_refit_result *out,
                        cf_error *err)
{
    out->c = cf__calloc(N_SPECS, sizeof *out->c);
    if (!out->c) return CF_ENOMEM;
    out->n = N_SPECS;
    for (size_t i = 0; i < N_SPECS; i++) {
        const fit_spec *s = &specs[i];
        cf_refit_constant *c = &out->c[i];
        double o;
        cf_status st = objective(set, s, exclude, &o, &c->n_rows, &c->median_ape_pct, err);
        if (st != CF_OK) return st;
        c->name = cf__model_constants[s->k].name;
        c->unit = cf__model_constants[s->k].unit;
        c->start = s->start;
        c->lo = s->lo;
        c->hi = s->hi;
        c->step = s->step;
        c->value = cf__model_constants[s->k].value;
        c->shipped = cf__model_constant_shipped(s->k);
        describe(s, c->rows, sizeof c->rows);
    }
    return CF_OK;
}

/* Fits the constants of one group (FIT_COLL, FIT_DENSE, FIT_MOE, FIT_SERVE) to
 * convergence; *passes gets the passes it took. */
static cf_status fit_group(const cf_validation_set *set, int group, const char *exclude,
                           int *passes, cf_error *err)
{
    int moved = 1, p = 0;
    while (moved && p < CF_REFIT_MAX_PASSES) {
        moved = 0;
        p++;
        for (size_t i = 0; i < N_SPECS; i++) {
            int m = 0;
            cf_status st;
            if (specs[i].rows != group) continue;
            st = fit_one(set, &specs[i], exclude, &m, err);
            if (st != CF_OK) return st;
            moved |= m;
        }
    }
    if (p > *passes) *passes = p;
    return CF_OK;
}

/* 1 when source `exclude` holds none of the rows of group g's constants
 * (leaving it out cannot change their fit). */
static cf_status group_untouched(const cf_validation_set *set, int g, const char *exclude,
                                 int *untouched, cf_error *err)
{
    *untouched = 1;
    for (size_t i = 0; i < N_SPECS && *untouched; i++) {
        double o;
        size_t all = 0, kept = 0;
        cf_status st;
        if (specs[i].rows != g) continue;
        st = objective(set, &specs[i], NULL, &o, &all, NULL, err);
        if (st == CF_OK) st = objective(set, &specs[i], exclude, &o, &kept, NULL, err);
        if (st != CF_OK) return st;
        *untouched = all == kept;
    }
    return CF_OK;
}

cf_status cf__refit_reusing(const cf_validation_set *set, const char *exclude, const double *reuse,
                            cf_refit_result *out, cf_error *err)
{
    cf_status st;
    int changed = 0;
    memset(out, 0, sizeof *out);
    cf__model_constants_restore();
    /* A constant with rows in the set starts from its start (and keeps it
     * when the left-out source held all its rows: the prior, honestly out
     * of sample); one without any keeps constants.def's value. */
    for (size_t i = 0; i < N_SPECS; i++) {
        double o;
        size_t n = 0;
        st = objective(set, &specs[i], NULL, &o, &n, NULL, err);
        if (st != CF_OK) return st;
        if (n > 0) cf__model_constants[specs[i].k].value = specs[i].start;
    }
    /* Groups in order: collectives feed the step model, dense constants
     * the MoE rows, all of them the serving model; nothing runs the other
     * way. With `reuse`, a group the
     * source holds no row of keeps the full fit's values while no earlier
     * group moved, or when the source has no row in any later group either
     * (its own rows then never read this group's constants). */
    int untouched[FIT_SERVE + 1] = {0, 0, 0, 0};
    for (int g = FIT_COLL; reuse && g <= FIT_SERVE; g++) {
        st = group_untouched(set, g, exclude, &untouched[g], err);
        if (st != CF_OK) return st;
    }
    for (int g = FIT_COLL; g <= FIT_SERVE; g++) {
        int later = 0;
        for (int h = g + 1; h <= FIT_SERVE; h++) later |= !untouched[h];
        if (reuse && untouched[g] && (!changed || !later)) {
            for (size_t i = 0; i < N_SPECS; i++)
                if (specs[i].rows == g) cf__model_constants[specs[i].k].value = reuse[i];
            continue;
        }
        st = fit_group(set, g, exclude, &out->passes, err);
        if (st != CF_OK) return st;
        for (size_t i = 0; reuse && i < N_SPECS; i++)
            if (specs[i].rows == g && fabs(cf__model_constants[specs[i].k].value - reuse[i]) > 1e-15)
                changed = 1;
    }
    st = report(set, exclude, out, err);
    if (st != CF_OK) cf_refit_clear(out);
    return st;
}

cf_status cf_refit(const cf_validation_set *set, const char *exclude, cf_refit_result *out,
                   cf_error *err)
{
    return cf__refit_reusing(set, exclude, NULL, out, err);
}

json_t *cf_refit_to_json(const cf_refit_result *r, const cf_validation *v)
{
    json_t *j = json_object(), *a = json_array();
    int bad = !j || !a;
    for (size_t i = 0; !bad && i < r->n; i++) {
        const cf_refit_constant *c = &r->c[i];
        json_t *o = json_object();
        bad = !o || json_array_append_new(a, o) || cf__json_set(o, "name", cf__json_str(c->name)) ||
              cf__json_set(o, "unit", cf__json_str(c->unit)) ||
              cf__json_set(o, "start", cf__json_num(c->start)) ||
              cf__json_set(o, "lo", cf__json_num(c->lo)) || cf__json_set(o, "hi", cf__json_num(c->hi)) ||
              cf__json_set(o, "step", cf__json_num(c->step)) ||
              cf__json_set(o, "value", cf__json_num(c->value)) ||
              cf__json_set(o, "shipped", cf__json_num(c->shipped)) ||
              cf__json_set(o, "differs", json_boolean(fabs(c->value - c->shipped) > c->step / 2)) ||
              cf__json_set(o, "rows", cf__json_str(c->rows)) ||
              cf__json_set(o, "n_rows", json_integer((json_int_t)c->n_rows)) ||
              cf__json_set(o, "median_ape_pct", cf__json_num(c->median_ape_pct));
    }
    if (bad || cf__json_set(j, "constants", a)) {
        if (bad) json_decref(a);
        json_decref(j);
        return NULL;
    }
    if (cf__json_set(j, "passes", json_integer(r->passes)) ||
        cf__json_set(j, "residuals", cf_validation_to_json(v))) {
        json_decref(j);
        return NULL;
    }
    return j;
}
