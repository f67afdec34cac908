/* snapshots.c — the price snapshots shipped in data/prices/ (issue 22):
 * dated copies of SkyPilot catalog vms.csv rows, applied to the shipped rows
 * when the catalog is built, through the importer's own reading (prices.c)
 * and data/skypilot-map.csv.
 *
 * data/prices/provenance.csv names each snapshot (cloud, file, commit,
 * read_on, source_url). A snapshot that does not parse, or a row of a mapped
 * instance type whose AcceleratorCount is not the mapped offering's
 * gpus_per_node, refuses the whole build with FILE:LINE:COLUMN and the
 * reason: the shipped rows are priced all or not at all. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "clusterfit/catalog.h"
#include "clusterfit/date.h"
#include "clusterfit/limits.h"
#include "catalog/catalog_int.h"
#include "base/base.h"

static const char provenance_name[] = "data/prices/provenance.csv";

/* Six months (183 days, the six of `list --stale`'s default): a row's own
 * price older than this before a snapshot was read gives way to it. */
enum { CF_SNAPSHOT_OVERRIDE_DAYS = 183 };

cf_status cf__snapshots_embedded(cf__csv_table *prov, cf__snapshot **out, size_t *n,
                                 cf_error *err)
{
    static const char *const want[] = {"cloud", "file", "commit", "read_on", "source_url"};
    size_t len = 0;
    const char *csv = cf__embedded_find(provenance_name, &len);
    cf__csv_table provenance;
    int c[5];
    cf_status st;
    *out = NULL;
    *n = 0;
    memset(prov, 0, sizeof *prov);
    if (!csv) return CF_OK;
    st = cf__csv_table_parse(csv, len, provenance_name, 1000, &provenance, err);
    if (st != CF_OK) return st;
    *prov = provenance;
    if (provenance.nrows == 0) return CF_OK;
    for (int i = 0; i < 5; i++) {
        if ((c[i] = cf__csv_col(&provenance, want[i])) >= 0) continue;
        cf_error_set(err, provenance_name, 1, 0, "missing column %s (expected cloud, file, "
                     "commit, read_on, source_url)", want[i]);
        return CF_EPARSE;
    }
    *out = cf__calloc(provenance.nrows, sizeof **out);
    if (!*out) return CF_ENOMEM;
    for (size_t r = 0; r < provenance.nrows; r++) {
        cf__snapshot *s = &(*out)[r];
        const char *date = cf__csv_cell(&provenance, r, c[3]);
        s->cloud = cf__csv_cell(&provenance, r, c[0]);
        s->name = cf__csv_cell(&provenance, r, c[1]);
        s->commit = cf__csv_cell(&provenance, r, c[2]);
        s->as_of = date;
        s->data = cf__embedded_find(s->name, &s->len);
        /* Messages name the file by the embedded table's own (static) path,
         * which outlives *prov. */
        for (const cf__embedded_file *f = cf__embedded_files; s->data && f->path; f++)
            if ((const char *)f->data == s->data) s->name = f->path;
        if (s->data && *s->cloud && strlen(s->commit) >= 7 && strlen(date) == 10) continue;
        cf_error_set(err, provenance_name, provenance.line[r], 0, "%s", !s->data
                     ? "names a file this clusterfit was not built with" :
                     "expected a cloud, a commit of at least 7 hex digits and read_on YYYY-MM-DD");
        cf__free(*out);
        *out = NULL;
        return CF_EPARSE;
    }
    *n = provenance.nrows;
    return CF_OK;
}

/* The offering of l with this id, NULL when none. */
static cf_offering *find(cf_offering_list *l, const char *id)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->items[i].id, id) == 0) return &l->items[i];
    return NULL;
}

/* Every row of a mapped instance type must count the mapped offering's GPUs:
 * CF_EPARSE at the first that does not. */
static cf_status check_counts(const import *im, const price_map *m, cf_offering_list *l,
                              cf_error *err)
{
    for (size_t r = 0; r < im->t->nrows; r++) {
        char key[256];
        const char *id, *cnt = cf__csv_cell(im->t, r, im->c_count);
        const cf_offering *o;
        double x;
        if (!*cf__csv_cell(im->t, r, im->c_acc)) continue; /* a host row (GCP) */
        snprintf(key, sizeof key, "%s/%s", im->cloud, cf__csv_cell(im->t, r, im->c_inst));
        id = cf__price_map_get(m, "instance", key);
        if (!id || !*id || !(o = find(l, id)) || o->gpus_per_node < 1) continue;
        if (cf__parse_decimal(cnt, &x) == CF_OK && x == (double)o->gpus_per_node) continue;
        cf_error_set(err, im->name, im->t->line[r], im->c_count + 1, "AcceleratorCount \"%.20s\" "
                     "contradicts offering '%s' (gpus_per_node %ld) that data/skypilot-map.csv "
                     "maps %s to; the snapshot is not applied", cnt, id, o->gpus_per_node, key);
        return CF_EPARSE;
    }
    return CF_OK;
}

/* 1 when offering o has no listed price of its own, or one dated more than
 * CF_SNAPSHOT_OVERRIDE_DAYS before the snapshot was read: the index that
 * snapshots are read from does not give a commit's date, so a provider's
 * page read within six months keeps its price. */
static int stale_or_unpriced(const cf_offering *o, const char *read_on)
{
    const char *d = o->price_as_of ? o->price_as_of : o->as_of;
    long days = 0;
    if (isnan(cf_offering_list_price(o, NULL))) return 1;
    return !d || cf_age_days(d, read_on, &days) != CF_OK || days > CF_SNAPSHOT_OVERRIDE_DAYS;
}

/* One price change, decided before any is made. */
typedef struct change {
    cf_offering *o;
    double od, spot;
    char source[192];
    const char *as_of;
} change;

/* Reads snapshot s and appends the changes it makes to ch (cap: l->n). */
static cf_status read_one(const cf__snapshot *s, const price_map *m, cf_offering_list *l,
                          change *ch, size_t *nch, cf_error *err)
{
    cf__csv_table t;
    import im;
    cf_status st;
    memset(&t, 0, sizeof t);
    memset(&im, 0, sizeof im);
    im.name = s->name;
    im.fmt = CF_PRICE_SKYPILOT;
    im.cloud = s->cloud;
    st = cf__csv_table_parse(s->data, s->len, s->name, (size_t)CF_MAX_IMPORT_ROWS, &t, err);
    if (st == CF_OK) {
        im.t = &t;
        im.nrows = t.nrows;
        st = cf__price_find_columns(&im, err);
    }
    if (st == CF_OK) st = cf__price_read_rows(&im, m, err);
    if (st == CF_OK) st = check_counts(&im, m, l, err);
    for (size_t i = 0; st == CF_OK && i < im.n; i++) {
        char key[256];
        const char *id;
        cf_offering *o;
        snprintf(key, sizeof key, "%s/%s", s->cloud, im.types[i].inst);
        id = cf__price_map_get(m, "instance", key);
        if (!id || !*id || !(o = find(l, id)) || isnan(im.types[i].od)) continue;
        if (o->currency && strcmp(o->currency, "USD") != 0) continue; /* never converted */
        if (!stale_or_unpriced(o, s->as_of)) continue;
        if (*nch >= l->n) break;
        ch[*nch].o = o;
        ch[*nch].od = im.types[i].od;
        ch[*nch].spot = im.types[i].spot;
        ch[*nch].as_of = s->as_of;
        snprintf(ch[*nch].source, sizeof ch[0].source,
                 "pipeline snapshot skypilot-catalog@%.12s (%s %s, %s, read %s)", s->commit,
                 s->cloud, im.types[i].inst, im.types[i].od_region ? im.types[i].od_region : "",
                 s->as_of);
        (*nch)++;
    }
    cf__price_import_clear(&im);
    cf__csv_table_clear(&t);
    return st;
}

/* Makes one decided change. */
static cf_status apply_change(const change *c)
{
    cf_offering *o = c->o;
    char *src = cf__strdup(c->source), *date = cf__strdup(c->as_of), *cur = NULL;
    if (!o->currency) cur = cf__strdup("USD");
    if (!src || !date || (!o->currency && !cur)) {
        cf__free(src);
        cf__free(date);
        cf__free(cur);
        return CF_ENOMEM;
    }
    cf__free(o->price_source);
    o->price_source = src;
    cf__free(o->price_as_of);
    o->price_as_of = date;
    if (cur) o->currency = cur;
    o->price_on_demand_gpu_hr = c->od;
    if (!isnan(c->spot)) o->price_spot_gpu_hr = c->spot;
    return CF_OK;
}

cf_status cf__snapshots_apply(cf_offering_list *l, const cf__snapshot *s, size_t n,
                              size_t *applied, cf_error *err)
{
    price_map m;
    change *ch;
    size_t nch = 0;
    cf_status st;
    if (applied) *applied = 0;
    if (!n) return CF_OK;
    if ((st = cf__price_map_load(&m, err)) != CF_OK) return st;
    ch = cf__calloc(l->n ? l->n : 1, sizeof *ch);
    if (!ch) {
        cf__csv_table_clear(&m.t);
        return CF_ENOMEM;
    }
    for (size_t i = 0; st == CF_OK && i < n; i++) st = read_one(&s[i], &m, l, ch, &nch, err);
    /* Every snapshot is read and checked before any row changes. */
    for (size_t i = 0; st == CF_OK && i < nch; i++) st = apply_change(&ch[i]);
    if (st == CF_OK && applied) *applied = nch;
    if (st == CF_ENOMEM && err && !err->message[0]) cf_error_set(err, NULL, 0, 0, "out of memory");
    cf__free(ch);
    cf__csv_table_clear(&m.t);
    return st;
}
