/* validate.c — the collective model against published nccl-tests rows
 * (DESIGN §4.4), and the result machinery both validation kinds share
 * (medians, skips, JSON; see model_int.h for the helper contract).
 *
 * Rows are read by header name. A cell the file states wrongly (a word where a
 * number belongs, a name outside the vocabulary) makes the file malformed:
 * CF_EPARSE at FILE:LINE:COLUMN. A row that states too little for the model
 * (no node count; no fabric on a multi-node row) is skipped with its reason,
 * never guessed. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "clusterfit/collective.h"
#include "clusterfit/hardware.h"
#include "clusterfit/limits.h"
#include "clusterfit/units.h"
#include "clusterfit/validate.h"
#include "base/base.h"
#include "model/model_int.h"

/* Blank message_bytes = a large message (DESIGN §4.4): 8 GiB. */
#define DEFAULT_MESSAGE_BYTES (8ULL << 30)

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double cf__median(double *vals, size_t n)
{
    if (n == 0) return NAN;
    qsort(vals, n, sizeof *vals, cmp_double);
    return n % 2 ? vals[n / 2] : (vals[n / 2 - 1] + vals[n / 2]) / 2.0;
}

void cf_validation_clear(cf_validation *v)
{
    if (!v) return;
    for (size_t i = 0; i < v->n_rows; i++) {
        cf__free(v->rows[i].id);
        cf__free(v->rows[i].metric);
        cf__free(v->rows[i].note);
        cf__free(v->rows[i].source);
    }
    cf__free(v->rows);
    for (size_t i = 0; i < v->n_skipped; i++) {
        cf__free(v->skipped[i].id);
        cf__free(v->skipped[i].reason);
    }
    cf__free(v->skipped);
    memset(v, 0, sizeof *v);
    v->median_ape_pct = v->median_ape_pct_single_node = v->median_ape_pct_multi_node = NAN;
    for (int i = 0; i < CF_VSIZE__COUNT; i++) v->median_ape_pct_by_size[i] = NAN;
    for (int i = 0; i < CF_NET__COUNT; i++) v->median_ape_pct_by_network[i] = NAN;
}

/* Copies the document part of a source cell into out[n]: what comes
 * before the first " (" (the section a row was read from), with a GitHub
 * "/blob/<commit>/" read as "/blob/" + "*" + "/" (versions of one page are one
 * document) and an arXiv id cut after its number ("arXiv:2104.04473
 * Table 1" -> "arXiv:2104.04473"); "https://arxiv.org/abs/ID" reads as
 * "arXiv:ID". Surrounding blanks are dropped. */
void cf__validation_source_key(const char *src, char *out, size_t n)
{
    char buf[1024];
    const char *p, *e;
    size_t len, o = 0;
    if (!n) return;
    out[0] = '\0';
    if (!src) return;
    while (*src == ' ' || *src == '\t') src++;
    if (strncmp(src, "https://arxiv.org/abs/", 22) == 0 || strncmp(src, "http://arxiv.org/abs/", 21) == 0) {
        snprintf(buf, sizeof buf, "arXiv:%s", strstr(src, "/abs/") + 5);
        src = buf;
    }
    e = strstr(src, " (");
    len = e ? (size_t)(e - src) : strlen(src);
    if (strncmp(src, "arXiv:", 6) == 0) {
        size_t k = 6;
        while (k < len && src[k] != ' ' && src[k] != ',' && src[k] != ';') k++;
        len = k;
    }
    while (len > 0 && (src[len - 1] == ' ' || src[len - 1] == '\t')) len--;
    for (size_t i = 0; i < len && o + 1 < n; i++) {
        /* "/blob/<commit>/" -> "/blob/" "*" "/" */
        if (strncmp(src + i, "/blob/", 6) == 0 && (p = memchr(src + i + 6, '/', len - i - 6))) {
            const char *c = "/blob/*";
            while (*c && o + 1 < n) out[o++] = *c++;
            i = (size_t)(p - src) - 1;
            continue;
        }
        out[o++] = src[i];
    }
    out[o] = '\0';
}

/* measured time / predicted time of a row's work: throughputs (busbw,
 * tokens/s, TFLOP/s, MFU) run the other way from times. */
static double time_ratio(const char *metric, double predicted, double measured)
{
    int is_time = strcmp(metric, "time_us") == 0 || strcmp(metric, "step_time_s") == 0;
    if (!(predicted > 0) || !(measured > 0)) return NAN;
    return is_time ? measured / predicted : predicted / measured;
}

cf_status cf__validation_add(cf_validation *v, const char *id, const char *metric,
                             double predicted, double measured, int multi_node,
                             const char *note, const char *source)
{
    char key[512];
    cf_validation_row *rows = cf__realloc(v->rows, (v->n_rows + 1) * sizeof *rows);
    cf_validation_row *r;
    if (!rows) return CF_ENOMEM;
    v->rows = rows;
    r = &rows[v->n_rows];
    memset(r, 0, sizeof *r);
    r->id = cf__strdup(id ? id : "");
    r->metric = cf__strdup(metric ? metric : "");
    r->note = note ? cf__strdup(note) : NULL;
    cf__validation_source_key(source, key, sizeof key);
    r->source = cf__strdup(key);
    if (!r->id || !r->metric || (note && !r->note) || !r->source) {
        cf__free(r->id);
        cf__free(r->metric);
        cf__free(r->note);
        cf__free(r->source);
        return CF_ENOMEM;
    }
    r->predicted = predicted;
    r->measured = measured;
    r->ape_pct = measured != 0 ? fabs(predicted - measured) / fabs(measured) * 100.0 : NAN;
    r->time_ratio = time_ratio(r->metric, predicted, measured);
    r->multi_node = multi_node;
    r->size_class = -1;
    r->network = CF_NET_UNKNOWN;
    v->n_rows++;
    return CF_OK;
}

cf_status cf__validation_skip(cf_validation *v, const char *id, const char *reason)
{
    cf_validation_skip *s = cf__realloc(v->skipped, (v->n_skipped + 1) * sizeof *s);
    if (!s) return CF_ENOMEM;
    v->skipped = s;
    s[v->n_skipped].id = cf__strdup(id ? id : "");
    s[v->n_skipped].reason = cf__strdup(reason ? reason : "");
    if (!s[v->n_skipped].id || !s[v->n_skipped].reason) {
        cf__free(s[v->n_skipped].id);
        cf__free(s[v->n_skipped].reason);
        return CF_ENOMEM;
    }
    v->n_skipped++;
    return CF_OK;
}

cf_status cf__validation_finish(cf_validation *v, int by_node_count)
{
    double *all, *single, *multi;
    size_t na = 0, ns = 0, nm = 0;
    size_t cap = v->n_rows ? v->n_rows : 1;
    all = cf__malloc(3 * cap * sizeof *all);
    if (!all) return CF_ENOMEM;
    single = all + cap;
    multi = single + cap;
    for (size_t i = 0; i < v->n_rows; i++) {
        double a = v->rows[i].ape_pct;
        if (isnan(a)) continue;
        all[na++] = a;
        if (v->rows[i].multi_node) multi[nm++] = a;
        else single[ns++] = a;
    }
    v->median_ape_pct = cf__median(all, na);
    v->by_node_count = by_node_count;
    v->median_ape_pct_single_node = by_node_count ? cf__median(single, ns) : NAN;
    v->median_ape_pct_multi_node = by_node_count ? cf__median(multi, nm) : NAN;
    /* By size class and by network (collectives): `all` is free again. */
    for (int c = 0; c < CF_VSIZE__COUNT + CF_NET__COUNT; c++) {
        size_t n = 0;
        for (size_t i = 0; by_node_count && i < v->n_rows; i++) {
            const cf_validation_row *r = &v->rows[i];
            int in = c < CF_VSIZE__COUNT ? r->size_class == c
                                         : (int)r->network == c - CF_VSIZE__COUNT;
            if (in && !isnan(r->ape_pct)) all[n++] = r->ape_pct;
        }
        if (c < CF_VSIZE__COUNT) v->median_ape_pct_by_size[c] = cf__median(all, n);
        else v->median_ape_pct_by_network[c - CF_VSIZE__COUNT] = cf__median(all, n);
    }
    cf__free(all);
    return CF_OK;
}

cf_status cf__validate_require(const cf__csv_table *t, const char *path, const char *name,
                               cf_error *err)
{
    if (cf__csv_col(t, name) >= 0) return CF_OK;
    cf_error_set(err, path, 1, (long)t->ncols + 1, "missing column '%s' in the header", name);
    return CF_EPARSE;
}

cf_status cf__validate_num(const cf__csv_table *t, const char *path, size_t row, int col,
                           const char *header, double *out, int *blank, cf_error *err)
{
    const char *s = cf__csv_cell(t, row, col);
    *blank = 0;
    if (!*s) {
        *blank = 1;
        return CF_OK;
    }
    if (cf_parse_double(s, out) != CF_OK) {
        cf_error_set(err, path, t->line[row], col + 1, "%s: expected a number, got '%s'", header, s);
        return CF_EPARSE;
    }
    return CF_OK;
}

/* Column indexes of a collectives file. */
typedef struct ccols {
    int id, gpu, gpn, nodes, intra, network, nics, nic_gbps, gdr, coll, algo, bytes, busbw;
    int time;   /* time_us, -1 when the file has no such column */
    int source; /* source, -1 when the file has no such column */
} ccols;

static cf_status bad_word(const cf__csv_table *t, const char *path, size_t r, int col,
                          const char *header, const char *accepted, cf_error *err)
{
    cf_error_set(err, path, t->line[r], col + 1, "%s: unknown value '%s' (accepted: %s)", header,
                 cf__csv_cell(t, r, col), accepted);
    return CF_EPARSE;
}

static cf_status positive_int(const cf__csv_table *t, const char *path, size_t r, int col,
                              const char *header, long min, long *out, int *blank, cf_error *err)
{
    double d;
    cf_status st = cf__validate_num(t, path, r, col, header, &d, blank, err);
    if (st != CF_OK || *blank) return st;
    if (d != floor(d) || d < (double)min || d > 1e9) {
        cf_error_set(err, path, t->line[r], col + 1, "%s: expected a whole number >= %ld, got '%s'",
                     header, min, cf__csv_cell(t, r, col));
        return CF_EPARSE;
    }
    *out = (long)d;
    return CF_OK;
}

/* The row's measurement: time_us where the file has it and the cell is
 * stated (*timed 1), else busbw_GBps (*timed 0); *skip when neither. */
static cf_status read_measured(const cf__csv_table *t, const char *path, const ccols *c, size_t r,
                               double *measured, int *timed, const char **skip, cf_error *err)
{
    int blank;
    cf_status st;
    *timed = 0;
    if (c->time >= 0) {
        st = cf__validate_num(t, path, r, c->time, "time_us", measured, &blank, err);
        if (st != CF_OK) return st;
        if (!blank && !(*measured > 0)) {
            cf_error_set(err, path, t->line[r], c->time + 1, "time_us: expected a time > 0, got '%s'",
                         cf__csv_cell(t, r, c->time));
            return CF_EPARSE;
        }
        *timed = !blank;
    }
    if (!*timed) {
        st = cf__validate_num(t, path, r, c->busbw, "busbw_GBps", measured, &blank, err);
        if (st != CF_OK) return st;
        if (blank || *measured <= 0)
            *skip = c->time >= 0 ? "neither time_us nor busbw_GBps stated" : "busbw_GBps not stated";
    }
    return CF_OK;
}

/* The node: gpu, gpus_per_node (*gpn), the nodes cell (*nodes, *nodes_blank;
 * judged later, after the rest of the row) and the intra-node link. */
static cf_status read_node(const cf__csv_table *t, const char *path, const ccols *c, size_t r,
                           cf_fabric *fab, long *gpn, long *nodes, int *nodes_blank,
                           const char **skip, cf_error *err)
{
    int blank;
    const char *s = cf__csv_cell(t, r, c->gpu);
    cf_status st;
    if (!*s) { *skip = "gpu not stated"; return CF_OK; }
    if (cf_gpu_lookup(s, NULL) != CF_OK || strlen(s) >= sizeof fab->gpu)
        return bad_word(t, path, r, c->gpu, "gpu", cf_gpu_accepted(), err);
    memcpy(fab->gpu, s, strlen(s) + 1);

    st = positive_int(t, path, r, c->gpn, "gpus_per_node", 1, gpn, &blank, err);
    if (st != CF_OK) return st;
    if (blank) { *skip = "gpus_per_node not stated"; return CF_OK; }
    fab->gpus_per_node = (int)*gpn;

    st = positive_int(t, path, r, c->nodes, "nodes", 1, nodes, nodes_blank, err);
    if (st != CF_OK) return st;

    s = cf__csv_cell(t, r, c->intra);
    if (!*s) {
        if (*gpn > 1) { *skip = "intra_link not stated"; return CF_OK; }
        fab->intra_link = CF_INTRA_NONE;
    } else if (cf_intra_link_parse(s, &fab->intra_link) != CF_OK ||
               fab->intra_link == CF_INTRA_UNKNOWN) {
        if (cf__strcasecmp(s, "unknown") != 0 || *gpn > 1)
            return bad_word(t, path, r, c->intra, "intra_link", cf_intra_link_accepted(), err);
        fab->intra_link = CF_INTRA_NONE;
    }
    return CF_OK;
}

/* The network between nodes: family, NICs (*nics, *nics_blank), line rate
 * (*gbps_blank when not stated) and GPUDirect RDMA. */
static cf_status read_network(const cf__csv_table *t, const char *path, const ccols *c, size_t r,
                              cf_fabric *fab, long *nics, int *nics_blank, int *gbps_blank,
                              cf_error *err)
{
    double nic_gbps = 0;
    const char *s = cf__csv_cell(t, r, c->network);
    cf_status st;
    if (!*s) fab->network = CF_NET_UNKNOWN;
    else if (cf_network_parse(s, &fab->network) != CF_OK)
        return bad_word(t, path, r, c->network, "network", cf_network_accepted(), err);

    st = positive_int(t, path, r, c->nics, "nics_per_node", 0, nics, nics_blank, err);
    if (st != CF_OK) return st;
    st = cf__validate_num(t, path, r, c->nic_gbps, "nic_gbps", &nic_gbps, gbps_blank, err);
    if (st != CF_OK) return st;
    if (!*gbps_blank && nic_gbps < 0) {
        cf_error_set(err, path, t->line[r], c->nic_gbps + 1, "nic_gbps: expected a rate >= 0, got '%s'",
                     cf__csv_cell(t, r, c->nic_gbps));
        return CF_EPARSE;
    }
    fab->nics_per_node = (int)*nics;
    fab->nic_gbps = nic_gbps;

    s = cf__csv_cell(t, r, c->gdr);
    if (*s && cf_gdr_parse(s, &fab->gdr) != CF_OK)
        return bad_word(t, path, r, c->gdr, "gdr", cf_gdr_accepted(), err);
    return CF_OK;
}

/* The operation: collective, algorithm (auto when empty) and message size
 * (DEFAULT_MESSAGE_BYTES when empty). */
static cf_status read_query(const cf__csv_table *t, const char *path, const ccols *c, size_t r,
                            cf_coll_query *q, const char **skip, cf_error *err)
{
    const char *s = cf__csv_cell(t, r, c->coll);
    if (!*s) { *skip = "collective not stated"; return CF_OK; }
    if (cf_collective_parse(s, &q->collective) != CF_OK || q->collective == CF_COLL_UNKNOWN)
        return bad_word(t, path, r, c->coll, "collective", cf_collective_accepted(), err);

    s = cf__csv_cell(t, r, c->algo);
    q->algo = CF_ALGO_AUTO;
    if (*s && cf_algo_parse(s, &q->algo) != CF_OK)
        return bad_word(t, path, r, c->algo, "algo", cf_algo_accepted(), err);

    s = cf__csv_cell(t, r, c->bytes);
    if (!*s) {
        q->bytes = DEFAULT_MESSAGE_BYTES;
    } else if (cf_parse_size(s, &q->bytes) != CF_OK || q->bytes == 0) {
        cf_error_set(err, path, t->line[r], c->bytes + 1,
                     "message_bytes: expected a size in bytes (e.g. 8589934592 or 8G), got '%s'", s);
        return CF_EPARSE;
    }
    return CF_OK;
}

/* Reads one row into fab/q; *skip gets a reason (static string) when the
 * row states too little. *timed: 1 when *measured is the row's time_us,
 * 0 when it is its busbw_GBps. Cells are judged in column order (an error
 * or a skip in an earlier one wins), the node count last. */
static cf_status read_row(const cf__csv_table *t, const char *path, const ccols *c, size_t r,
                          cf_fabric *fab, cf_coll_query *q, double *measured, int *timed,
                          const char **skip, cf_error *err)
{
    long gpn = 0, nodes = 0, nics = 0;
    int nodes_blank = 0, nics_blank = 0, gbps_blank = 0;
    cf_status st;
    memset(fab, 0, sizeof *fab);
    memset(q, 0, sizeof *q);
    *skip = NULL;
    fab->non_blocking = fab->rail_optimized = CF_CAP_UNKNOWN;
    fab->in_network_reduction = CF_CAP_UNKNOWN;
    fab->gdr = CF_GDR_UNKNOWN;

    st = read_measured(t, path, c, r, measured, timed, skip, err);
    if (st == CF_OK && !*skip) st = read_node(t, path, c, r, fab, &gpn, &nodes, &nodes_blank, skip, err);
    if (st == CF_OK && !*skip) st = read_network(t, path, c, r, fab, &nics, &nics_blank, &gbps_blank, err);
    if (st == CF_OK && !*skip) st = read_query(t, path, c, r, q, skip, err);
    if (st != CF_OK || *skip) return st;

    if (nodes_blank) { *skip = "nodes not stated"; return CF_OK; }
    q->nodes = (int)nodes;
    if (nodes > 1) {
        if (fab->network == CF_NET_UNKNOWN) { *skip = "multi-node row without a network"; return CF_OK; }
        if (fab->network == CF_NET_NONE) { *skip = "multi-node row with network none"; return CF_OK; }
        if (nics_blank || gbps_blank || nics < 1 || fab->nic_gbps <= 0) {
            *skip = "multi-node row without nics_per_node or nic_gbps";
            return CF_OK;
        }
    }
    return CF_OK;
}

/* The collectives kind of cf__validate_run: predicts every row of `t`
 * (named `path` in errors) into *out. */
static cf_status collectives_table(const cf__csv_table *t, const char *path, cf_validation *out,
                                   cf_error *err)
{
    static const char *const required[] = {"id", "gpu", "gpus_per_node", "nodes", "collective"};
    ccols c;
    cf_status st;
    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++) {
        st = cf__validate_require(t, path, required[i], err);
        if (st != CF_OK) return st;
    }
    /* A file states busbw_GBps, time_us or both. */
    if (cf__csv_col(t, "time_us") < 0) {
        st = cf__validate_require(t, path, "busbw_GBps", err);
        if (st != CF_OK) return st;
    }
    c.id = cf__csv_col(t, "id");
    c.gpu = cf__csv_col(t, "gpu");
    c.gpn = cf__csv_col(t, "gpus_per_node");
    c.nodes = cf__csv_col(t, "nodes");
    c.intra = cf__csv_col(t, "intra_link");
    c.network = cf__csv_col(t, "network");
    c.nics = cf__csv_col(t, "nics_per_node");
    c.nic_gbps = cf__csv_col(t, "nic_gbps");
    c.gdr = cf__csv_col(t, "gdr");
    c.coll = cf__csv_col(t, "collective");
    c.algo = cf__csv_col(t, "algo");
    c.bytes = cf__csv_col(t, "message_bytes");
    c.busbw = cf__csv_col(t, "busbw_GBps");
    c.time = cf__csv_col(t, "time_us");
    c.source = cf__csv_col(t, "source");
    for (size_t r = 0; r < t->nrows; r++) {
        cf_fabric fab;
        cf_coll_query q;
        cf_coll_result res;
        double measured = 0;
        int timed = 0;
        const char *skip = NULL;
        const char *id = cf__csv_cell(t, r, c.id);
        char idbuf[32];
        if (!*id) {
            snprintf(idbuf, sizeof idbuf, "line %ld", t->line[r]);
            id = idbuf;
        }
        st = read_row(t, path, &c, r, &fab, &q, &measured, &timed, &skip, err);
        if (st != CF_OK) return st;
        if (skip) {
            st = cf__validation_skip(out, id, skip);
            if (st != CF_OK) return st;
            continue;
        }
        if (cf_collective_predict(&fab, &q, &res, NULL) != CF_OK) {
            st = cf__validation_skip(out, id, "the model cannot predict this algorithm on this fabric");
            if (st != CF_OK) return st;
            continue;
        }
        st = cf__validation_add(out, id, timed ? "time_us" : "busbw_GBps",
                                timed ? res.time_us : res.busbw_GBps, measured, q.nodes > 1,
                                cf_algo_name(res.algo), cf__csv_cell(t, r, c.source));
        if (st != CF_OK) return st;
        out->rows[out->n_rows - 1].size_class =
            q.bytes <= CF_VALIDATION_SMALL_MAX_BYTES ? CF_VSIZE_SMALL
            : q.bytes <= CF_VALIDATION_MID_MAX_BYTES ? CF_VSIZE_MID : CF_VSIZE_LARGE;
        out->rows[out->n_rows - 1].network = q.nodes > 1 ? fab.network : CF_NET_NONE;
    }
    return cf__validation_finish(out, 1);
}

/* The one entry point of both kinds (model_int.h): the table in, the kind's
 * fill over it, the table out, and *out empty unless it all succeeded. */
cf_status cf__validate_run(cf__validate_fill fill, const char *path, const char *data, size_t len,
                          cf_validation *out, cf_error *err)
{
    cf__csv_table t;
    cf_status st;
    /* Empty, without reading what *out held (it may be uninitialized). */
    memset(out, 0, sizeof *out);
    cf_validation_clear(out);
    if (!data) {
        st = cf__csv_table_load(path, CF_MAX_VALIDATION_BYTES, "CF_MAX_VALIDATION_BYTES",
                                (size_t)CF_MAX_VALIDATION_ROWS, &t, err);
    } else if (len > (size_t)CF_MAX_VALIDATION_BYTES) {
        cf_error_set(err, path, 0, 0, "file larger than %ld bytes", CF_MAX_VALIDATION_BYTES);
        return CF_ELIMIT;
    } else {
        st = cf__csv_table_parse(data, len, path, (size_t)CF_MAX_VALIDATION_ROWS, &t, err);
    }
    if (st != CF_OK) return st;
    st = fill(&t, path, out, err);
    cf__csv_table_clear(&t);
    if (st != CF_OK) cf_validation_clear(out);
    return st;
}

cf_status cf_validate_collectives(const char *path, cf_validation *out, cf_error *err)
{
    return cf__validate_run(collectives_table, path, NULL, 0, out, err);
}

cf_status cf__validate_collectives_text(const char *name, const char *data, size_t len,
                                        cf_validation *out, cf_error *err)
{
    return cf__validate_run(collectives_table, name, data ? data : "", len, out, err);
}

/* A number, or null where it is NAN or infinite (an APE over a measured
 * 1e-307): JSON has no infinity, and json_real refuses one (which once
 * failed the whole document as "out of memory"). */
static json_t *num_or_null(double x)
{
    return isfinite(x) ? json_real(x) : json_null();
}

/* {small, mid, large} and {network: median} of a collectives result. */
static int set_class_medians(json_t *j, const cf_validation *v)
{
    static const char *const size_names[CF_VSIZE__COUNT] = {"small", "mid", "large"};
    json_t *bs = json_object(), *bn = json_object();
    if (!bs || !bn) goto fail;
    for (int i = 0; i < CF_VSIZE__COUNT; i++)
        if (json_object_set_new(bs, size_names[i], num_or_null(v->median_ape_pct_by_size[i])))
            goto fail;
    for (int i = 0; i < CF_NET__COUNT; i++) {
        if (isnan(v->median_ape_pct_by_network[i])) continue;
        if (json_object_set_new(bn, cf_network_name((cf_network)i),
                                num_or_null(v->median_ape_pct_by_network[i])))
            goto fail;
    }
    if (json_object_set_new(j, "median_ape_pct_by_size", bs)) { bs = NULL; goto fail; }
    bs = NULL;
    if (json_object_set_new(j, "median_ape_pct_by_network", bn)) { bn = NULL; goto fail; }
    return 0;
fail:
    json_decref(bs);
    json_decref(bn);
    return -1;
}

json_t *cf_validation_to_json(const cf_validation *v)
{
    json_t *j = json_object(), *rows = json_array(), *skipped = json_array();
    if (!j || !rows || !skipped) goto fail;
    for (size_t i = 0; i < v->n_rows; i++) {
        const cf_validation_row *r = &v->rows[i];
        json_t *o = json_object();
        if (!o || json_array_append_new(rows, o) ||
            json_object_set_new(o, "id", json_string(r->id)) ||
            json_object_set_new(o, "metric", json_string(r->metric)) ||
            json_object_set_new(o, "predicted", num_or_null(r->predicted)) ||
            json_object_set_new(o, "measured", num_or_null(r->measured)) ||
            json_object_set_new(o, "ape_pct", num_or_null(r->ape_pct)) ||
            json_object_set_new(o, "time_ratio", num_or_null(r->time_ratio)) ||
            json_object_set_new(o, "source", json_string(r->source ? r->source : "")))
            goto fail;
    }
    for (size_t i = 0; i < v->n_skipped; i++) {
        json_t *o = json_object();
        if (!o || json_array_append_new(skipped, o) ||
            json_object_set_new(o, "id", json_string(v->skipped[i].id)) ||
            json_object_set_new(o, "reason", json_string(v->skipped[i].reason)))
            goto fail;
    }
    if (json_object_set_new(j, "rows", rows)) { rows = NULL; goto fail; }
    rows = NULL;
    if (json_object_set_new(j, "skipped", skipped)) { skipped = NULL; goto fail; }
    skipped = NULL;
    if (json_object_set_new(j, "median_ape_pct", num_or_null(v->median_ape_pct))) goto fail;
    if (v->by_node_count &&
        (json_object_set_new(j, "median_ape_pct_single_node", num_or_null(v->median_ape_pct_single_node)) ||
         json_object_set_new(j, "median_ape_pct_multi_node", num_or_null(v->median_ape_pct_multi_node)) ||
         set_class_medians(j, v)))
        goto fail;
    return j;
fail:
    json_decref(rows);
    json_decref(skipped);
    json_decref(j);
    return NULL;
}
