/* perftable.c — reads the output of nccl-tests / rccl-tests (`*_perf`):
 * the "# nThread ..." parameter line, the "# Using devices" rank list, the
 * table header, result rows and the closing "Out of bounds" / "Avg bus
 * bandwidth" lines; and analyses one run's rows (busbw at the largest size,
 * bandwidth regime, BUSBW_DROP).
 *
 * Layouts seen in public output, all handled here:
 *   size count type redop root | time algbw busbw #wrong | time algbw busbw #wrong   (2.11+)
 *   size count type redop      | time algbw busbw error  | ...                      (older)
 *   size count type            | ...                                               (oldest)
 * with "N/A" for #wrong under -c 0 and for in-place columns some tests skip.
 * A row is anchored on "integer integer type-name" anywhere in its first
 * tokens, so extra leading columns (timestamps, ranks) do not matter; with no
 * header in sight the layout is guessed from the count of numeric columns
 * (4k+1 means a root column). Rows are recognised without regex: a digit
 * first, then a token scan. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "audit/audit_int.h"
#include "base/base.h"

static int is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

static int is_type_name(const char *t, size_t n)
{
    if (n == 0 || n > 15 || !is_alpha(t[0])) return 0;
    for (size_t i = 0; i < n; i++) {
        char c = t[i];
        if (!(is_alpha(c) || (c >= '0' && c <= '9') || c == '_')) return 0;
    }
    return 1;
}

static int is_na(const char *t, size_t n)
{
    return (n == 3 && (memcmp(t, "N/A", 3) == 0 || memcmp(t, "n/a", 3) == 0));
}

#define MAX_ROW_TOKENS 24

/* A #wrong value: a whole, non-negative count (NAN, "N/A", counts too). */
static int is_count(double v)
{
    return isnan(v) || (v >= 0 && v == floor(v));
}

int cf__perf_parse_row(const char *s, size_t n, const cf__perf_layout *lay, cf__perf_row *out)
{
    const char *p = s, *end = s + n;
    const char *tok[MAX_ROW_TOKENS];
    size_t tn[MAX_ROW_TOKENS];
    int nt = 0, a = -1, i, m, k;
    double vals[MAX_ROW_TOKENS];
    uint64_t u;
    int error_col = lay && lay->error_column;

    while (nt < MAX_ROW_TOKENS && cf__token(&p, end, &tok[nt], &tn[nt])) nt++;
    /* anchor: integer, integer, type name, within the first 6 tokens */
    for (i = 0; i + 1 < nt && i < 6; i++) {
        if (!cf__uint(tok[i], tn[i], &u) || !cf__uint(tok[i + 1], tn[i + 1], &u)) continue;
        if (i + 2 < nt && is_type_name(tok[i + 2], tn[i + 2])) {
            a = i;
            break;
        }
        if (i + 2 == nt && i == 0) {   /* "   128  32" cut after count */
            a = i;
            break;
        }
    }
    if (a < 0) return CF__ROW_NONE;
    memset(out, 0, sizeof *out);
    out->oop_time_us = out->oop_algbw = out->oop_busbw = out->oop_wrong = NAN;
    out->ip_time_us = out->ip_algbw = out->ip_busbw = out->ip_wrong = NAN;
    out->lead = NAN;
    out->root = NAN;
    if (a > 0) {
        double lv;
        if (cf__num(tok[a - 1], tn[a - 1], &lv)) out->lead = lv;
    }
    cf__num(tok[a], tn[a], &out->size);
    cf__num(tok[a + 1], tn[a + 1], &out->count);
    if (a + 2 >= nt) return CF__ROW_PARTIAL;
    cf__copy_n(out->type, sizeof out->type, tok[a + 2], tn[a + 2]);
    i = a + 3;
    if (lay && lay->known) {
        /* old tables leave redop empty for collectives without a reduction
         * (all_gather, broadcast): the column is there only when a word is */
        if (lay->has_redop && i < nt && is_type_name(tok[i], tn[i])) {
            cf__copy_n(out->redop, sizeof out->redop, tok[i], tn[i]);
            i++;
        }
        if (lay->has_root && i < nt) {
            if (!cf__num(tok[i], tn[i], &out->root)) out->root = NAN;
            i++;
            out->root_col = 1;
        }
    } else {
        if (i < nt && is_type_name(tok[i], tn[i])) {
            cf__copy_n(out->redop, sizeof out->redop, tok[i], tn[i]);
            i++;
        }
    }
    /* the remaining tokens must all be numbers (or N/A) */
    m = 0;
    for (k = i; k < nt; k++) {
        double v;
        if (is_na(tok[k], tn[k])) v = NAN;
        else if (!cf__num(tok[k], tn[k], &v)) return CF__ROW_NONE;
        vals[m++] = v;
    }
    if (!(lay && lay->known)) {
        /* a root column in a table whose header we have not seen: 4k+1
         * numbers; a row cut short (a last row without its #wrong) keeps
         * what the run's complete rows showed, so its columns stay aligned
         * from the left as theirs */
        int root = (m % 4) == 1;
        out->full = m == 8 || m == 9;
        if (lay && lay->guess_seen) root = lay->guess_root;
        if (root && m > 0) {
            out->root = vals[0];
            memmove(vals, vals + 1, (size_t)(m - 1) * sizeof vals[0]);
            m--;
            out->root_col = 1;
        }
    } else {
        out->full = m == 8;
    }
    if (m < 3) return CF__ROW_PARTIAL;
    out->oop_time_us = vals[0];
    out->oop_algbw = vals[1];
    out->oop_busbw = vals[2];
    /* without a header, a value that is not a whole count is a max error
     * ("2e-07", "0e+00" of old tables), not #wrong */
    if (m >= 4 && !error_col && !(lay && lay->known) && !is_count(vals[3])) error_col = 1;
    if (m >= 4 && !error_col) out->oop_wrong = vals[3];
    if (m >= 7) {
        out->ip_time_us = vals[4];
        out->ip_algbw = vals[5];
        out->ip_busbw = vals[6];
        if (m >= 8 && !error_col) out->ip_wrong = vals[7];
    }
    if (isnan(out->oop_busbw)) return CF__ROW_PARTIAL;
    return CF__ROW_OK;
}

/* Bytes of one element of an nccl-tests type name; 0 unknown. */
static double type_bytes(const char *t)
{
    static const struct { const char *name; double bytes; } types[] = {
        {"int8", 1}, {"uint8", 1}, {"char", 1}, {"f8e4m3", 1}, {"f8e5m2", 1}, {"fp8_e4m3", 1},
        {"fp8_e5m2", 1}, {"half", 2}, {"float16", 2}, {"bfloat16", 2}, {"bf16", 2}, {"int32", 4},
        {"uint32", 4}, {"int", 4}, {"float", 4}, {"float32", 4}, {"int64", 8}, {"uint64", 8},
        {"double", 8}, {"float64", 8},
    };
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (strcmp(t, types[i].name) == 0) return types[i].bytes;
    return 0;
}

cf_collective cf__perf_collective_of_rows(const cf__perf_row *rows, long n)
{
    /* nccl-tests prints size = the largest buffer and count = the
     * collective's per-rank element count (common.cu): all_reduce,
     * broadcast and reduce send the whole buffer (size = count x type);
     * reduce_scatter, all_gather and alltoall a rank's share (size = count
     * x type x ranks). The redop column tells a reduction from a copy
     * ("none"), the root column a rooted collective (root >= 0) from
     * all_reduce (-1). */
    const cf__perf_row *r = NULL;
    double tb, ratio;
    int reduces;
    for (long i = 0; i < n; i++)
        if (rows[i].size > 0 && rows[i].count > 0 && (!r || rows[i].size > r->size)) r = &rows[i];
    if (!r || !r->redop[0] || (tb = type_bytes(r->type)) <= 0) return CF_COLL_UNKNOWN;
    ratio = r->size / (r->count * tb);
    reduces = strcmp(r->redop, "none") != 0;
    if (ratio > 0.999 && ratio < 1.001) {
        if (!r->root_col || isnan(r->root)) return reduces && !r->root_col ? CF_COLL_ALL_REDUCE : CF_COLL_UNKNOWN;
        if (r->root < 0) return reduces ? CF_COLL_ALL_REDUCE : CF_COLL_UNKNOWN;
        return reduces ? CF_COLL_REDUCE : CF_COLL_BROADCAST;
    }
    if (ratio > 1.5 && fabs(ratio - floor(ratio + 0.5)) < 1e-6 && reduces) return CF_COLL_REDUCE_SCATTER;
    return CF_COLL_UNKNOWN;    /* all_gather and alltoall print alike */
}

/* --------------------------------------------------------------- comments */

/* 1 when the token after the first one is "size" and "count" follows it:
 * a header with a leading column of a summary table; *size at "size". */
static int is_lead_header(const char *p, const char *end, const char **size)
{
    const char *t, *q = p;
    size_t tn;
    if (!cf__token(&q, end, &t, &tn) || tn != 4 || memcmp(t, "size", 4) != 0) return 0;
    *size = t;
    return cf__token(&q, end, &t, &tn) && tn == 5 && memcmp(t, "count", 5) == 0;
}

static const char *after_word(const char *s, const char *end, const char *word)
{
    const char *f = cf__find(s, (size_t)(end - s), word);
    return f ? f + strlen(word) : NULL;
}

static long read_long_after(const char *s, const char *end, const char *word)
{
    const char *p = after_word(s, end, word), *t;
    size_t tn;
    double v;
    if (!p || !cf__token(&p, end, &t, &tn) || !cf__num(t, tn, &v)) return -1;
    return v < 0 ? (v > -1e9 ? (long)v : -1) : cf__dtol(v);
}

/* "N [Group G] [Pid P] on HOST device D [bus] NAME" after "Rank": one walk
 * over the tokens (a 16,384-rank list is as many lines), not a search per
 * word. */
static void parse_rank_line(const char *p, const char *end, cf__perf_comment *out)
{
    const char *t, *q;
    size_t tn;
    double v;
    if (!cf__token(&p, end, &t, &tn) || !cf__num(t, tn, &v) || v < 0) return;
    out->rank = cf__dtol(v);
    while (cf__token(&p, end, &t, &tn)) {
        if (tn == 3 && memcmp(t, "Pid", 3) == 0) {
            if (cf__token(&p, end, &t, &tn) && cf__num(t, tn, &v) && v >= 0) out->pid = cf__dtol(v);
        } else if (tn == 2 && memcmp(t, "on", 2) == 0) {
            if (!cf__token(&p, end, &t, &tn)) return;
            out->host = t;
            out->host_n = tn;
            q = memchr(p, ']', (size_t)(end - p));
            if (q) {
                q = cf__skip_ws(q + 1, end);
                cf__copy_n(out->gpu_name, sizeof out->gpu_name, q, (size_t)(end - q));
            }
            return;
        }
    }
}

static double read_num_after(const char *s, const char *end, const char *word)
{
    const char *p = after_word(s, end, word), *t;
    size_t tn;
    double v;
    if (!p || !cf__token(&p, end, &t, &tn) || !cf__num(t, tn, &v)) return NAN;
    return v;
}

static void parse_header(const char *s, const char *end, cf__perf_layout *lay)
{
    const char *p = s, *t;
    size_t tn;
    int after_type = 0;
    memset(lay, 0, sizeof *lay);
    lay->known = 1;
    while (cf__token(&p, end, &t, &tn)) {
        if (tn == 4 && memcmp(t, "type", 4) == 0) after_type = 1;
        else if (!after_type) continue;
        else if (tn == 5 && memcmp(t, "redop", 5) == 0) lay->has_redop = 1;
        else if (tn == 4 && memcmp(t, "root", 4) == 0) lay->has_root = 1;
        else if (tn == 5 && memcmp(t, "error", 5) == 0) lay->error_column = 1;
    }
    if (!after_type) lay->known = 0;
}

void cf__perf_parse_comment(const char *s, size_t n, cf__perf_comment *out)
{
    const char *end = s + n, *p, *t;
    size_t tn;
    memset(out, 0, sizeof *out);
    out->kind = CF__PC_OTHER;
    out->nthread = out->ngpus = -1;
    out->rank = out->pid = -1;
    out->oob = -1;
    out->min_bytes = out->max_bytes = NAN;
    out->avg = NAN;
    p = cf__skip_ws(s, end);
    if (p >= end || *p != '#') return;
    p = cf__skip_ws(p + 1, end);
    if (!cf__token(&p, end, &t, &tn)) return;
    if (tn == 7 && memcmp(t, "nThread", 7) == 0) {
        out->kind = CF__PC_PARAMS;
        out->nthread = read_long_after(t, end, "nThread");
        out->ngpus = read_long_after(t, end, "nGpus");
        out->min_bytes = read_num_after(t, end, "minBytes");
        out->max_bytes = read_num_after(t, end, "maxBytes");
    } else if (tn == 5 && memcmp(t, "Using", 5) == 0 && cf__find(p, (size_t)(end - p), "devices")) {
        out->kind = CF__PC_USING_DEVICES;
    } else if (tn == 4 && memcmp(t, "Rank", 4) == 0) {
        out->kind = CF__PC_RANK;
        parse_rank_line(p, end, out);
        if (out->rank < 0) out->kind = CF__PC_OTHER;
    } else if (tn == 4 && memcmp(t, "size", 4) == 0) {
        out->kind = CF__PC_HEADER;
        parse_header(t, end, &out->layout);
    } else if (is_lead_header(p, end, &t)) {
        /* a summary table's leading column ("#  nodes  size  count ..."):
         * the layout from "size" on */
        out->kind = CF__PC_HEADER;
        parse_header(t, end, &out->layout);
    } else if (tn == 3 && memcmp(t, "(B)", 3) == 0) {
        out->kind = CF__PC_UNITS;
    } else if (tn == 3 && memcmp(t, "Out", 3) == 0 && cf__find(p, (size_t)(end - p), "bounds")) {
        const char *q = after_word(p, end, ":");
        out->kind = CF__PC_OOB;
        if (q && cf__token(&q, end, &t, &tn)) {
            double v;
            if (cf__num(t, tn, &v)) out->oob = cf__dtol(v);
            if (cf__token(&q, end, &t, &tn) && tn >= 4 && memcmp(t, "FAIL", 4) == 0)
                out->oob_failed = 1;
        }
        if (out->oob > 0) out->oob_failed = 1;
    } else if (tn == 3 && memcmp(t, "Avg", 3) == 0) {
        const char *q = after_word(p, end, ":");
        out->kind = CF__PC_AVG;
        if (q && cf__token(&q, end, &t, &tn)) cf__num(t, tn, &out->avg);
    } else if (tn == 10 && memcmp(t, "Collective", 10) == 0 && cf__find(p, (size_t)(end - p), "starting")) {
        cf_collective c;
        out->kind = CF__PC_TEST_START;
        c = cf__perf_collective_in(p, (size_t)(end - p));
        if (c != CF_COLL_UNKNOWN) cf__copy_n(out->collective, sizeof out->collective,
                                           cf_collective_name(c), strlen(cf_collective_name(c)));
    } else if ((tn == 12 && memcmp(t, "out-of-place", 12) == 0) ||
               (tn == 8 && memcmp(t, "in-place", 8) == 0)) {
        out->kind = CF__PC_PLACE;
    }
}

/* ------------------------------------------------------------ collective */

static const struct { const char *bin; cf_collective c; } perf_bins[] = {
    {"all_reduce", CF_COLL_ALL_REDUCE},   {"allreduce", CF_COLL_ALL_REDUCE},
    {"all_gather", CF_COLL_ALL_GATHER},   {"allgather", CF_COLL_ALL_GATHER},
    {"reduce_scatter", CF_COLL_REDUCE_SCATTER}, {"alltoall", CF_COLL_ALLTOALL},
    {"alltoallv", CF_COLL_ALLTOALL},      {"broadcast", CF_COLL_BROADCAST},
    {"reduce", CF_COLL_REDUCE},           {"gather", CF_COLL_GATHER},
    {"scatter", CF_COLL_SCATTER},         {"sendrecv", CF_COLL_SENDRECV},
    {"hypercube", CF_COLL_HYPERCUBE},
};

static int ident_char(char c)
{
    return is_alpha(c) || (c >= '0' && c <= '9') || c == '_';
}

cf_collective cf__perf_collective_in(const char *s, size_t n)
{
    const char *p = s, *end = s + n;
    while (p < end) {
        const char *f = cf__find(p, (size_t)(end - p), "_perf");
        const char *b;
        if (!f) break;
        /* "_perf" must end the identifier or be followed by "_mpi" */
        if (f + 5 < end && ident_char(f[5]) && !cf__starts(f + 5, (size_t)(end - f - 5), "_mpi")) {
            p = f + 5;
            continue;
        }
        b = f;
        while (b > s && ident_char(b[-1])) b--;
        for (size_t i = 0; i < sizeof perf_bins / sizeof perf_bins[0]; i++) {
            size_t k = strlen(perf_bins[i].bin);
            if ((size_t)(f - b) == k && memcmp(b, perf_bins[i].bin, k) == 0) return perf_bins[i].c;
        }
        p = f + 5;
    }
    return CF_COLL_UNKNOWN;
}

/* -------------------------------------------------------------- analysis */

/* The bandwidth regime: nccl-tests' busbw approaches its asymptote only for
 * large messages; 256 MiB is where NCCL's ring reaches > 90 % of it on
 * today's fabrics (DESIGN §5). Below that a run counts only if busbw has
 * plateaued: over the sizes within 4x of the largest, the spread is at most
 * 10 % and the largest size holds at least 90 % of the run's peak. */
#define BW_REGIME_BYTES 268435456.0
#define PLATEAU_SPAN 4.0
#define PLATEAU_SPREAD 0.10
#define PLATEAU_OF_PEAK 0.90
/* BUSBW_DROP (DESIGN §5): a later size below 50 % of the peak before it,
 * counted only past the first size reaching 50 % of the run's peak. */
#define DROP_FRACTION 0.5
/* A step drop (issue 11, shared case 24: ~20 GB/s up to 6.2 GB, then
 * ~11 GB/s to the end): at some size busbw falls under STEP_FRACTION of the
 * mean of the STEP_BEFORE rows before it (themselves at half the peak or
 * more, past the ramp), the mean from there on stays under it too, no row
 * after comes back over STEP_RECOVER of that level, and at least
 * STEP_MIN_AFTER rows show it (a one-row dip is noise). */
#define STEP_FRACTION 0.70
#define STEP_RECOVER 0.80
#define STEP_BEFORE 4
#define STEP_MIN_AFTER 3

static int cmp_size(const void *x, const void *y)
{
    const cf__perf_row *const *a = x, *const *b = y;
    if ((*a)->size < (*b)->size) return -1;
    if ((*a)->size > (*b)->size) return 1;
    return (*a)->line < (*b)->line ? -1 : (*a)->line > (*b)->line;
}

/* The step drop of a run whose rows, sorted by size, are idx[0..n). */
static void step_drop(const cf__perf_row *rows, const cf__perf_row *const *idx, long n, cf__perf_analysis *out)
{
    long i;
    for (i = STEP_BEFORE; i + STEP_MIN_AFTER <= n && !out->drop; i++) {
        double before = 0, after = 0, top = 0, b = idx[i]->oop_busbw;
        long k, na = 0, ok = 1;
        for (k = i - STEP_BEFORE; k < i; k++) {
            if (isnan(idx[k]->oop_busbw) || idx[k]->oop_busbw < DROP_FRACTION * out->peak_busbw) ok = 0;
            before += idx[k]->oop_busbw;
        }
        before /= STEP_BEFORE;
        if (!ok || isnan(b) || b >= STEP_FRACTION * before) continue;
        for (k = i; k < n; k++) {
            if (isnan(idx[k]->oop_busbw)) continue;
            after += idx[k]->oop_busbw;
            if (idx[k]->oop_busbw > top) top = idx[k]->oop_busbw;
            na++;
        }
        if (na < STEP_MIN_AFTER) continue;
        after /= (double)na;
        if (after >= STEP_FRACTION * before || top >= STEP_RECOVER * before) continue;
        out->drop = out->step = 1;
        out->drop_row = (long)(idx[i] - rows);
        out->drop_busbw = b;
        out->drop_peak = before;
        out->drop_size = idx[i]->size;
        out->step_before = before;
        out->step_after = after;
        out->step_rows = na;
    }
}

void cf__perf_analyze(const cf__perf_row *rows, long n, cf__perf_analysis *out)
{
    const cf__perf_row *stack_idx[256];
    const cf__perf_row **idx = stack_idx;
    long i, i0 = -1;
    double run_peak = 0, lo = INFINITY, hi = 0;
    int sorted = 1;

    memset(out, 0, sizeof *out);
    out->busbw_largest = out->busbw_largest_ip = out->largest_size = out->peak_busbw = NAN;
    out->drop_row = -1;
    out->first_wrong_row = -1;
    out->nrows = n;
    if (n <= 0) return;
    if (n > 256) {
        idx = cf__malloc((size_t)n * sizeof *idx);
        if (!idx) {
            idx = stack_idx;
            n = 256;
        }
    }
    for (i = 0; i < n; i++) {
        idx[i] = &rows[i];
        if (i > 0 && rows[i].size < rows[i - 1].size) sorted = 0;
        if ((rows[i].oop_wrong > 0) || (rows[i].ip_wrong > 0)) {
            if (out->wrong_rows++ == 0) out->first_wrong_row = i;
        }
    }
    if (!sorted) qsort(idx, (size_t)n, sizeof *idx, cmp_size);
    out->largest_size = idx[n - 1]->size;
    out->busbw_largest = idx[n - 1]->oop_busbw;
    out->busbw_largest_ip = idx[n - 1]->ip_busbw;
    out->peak_busbw = 0;
    for (i = 0; i < n; i++)
        if (idx[i]->oop_busbw > out->peak_busbw) out->peak_busbw = idx[i]->oop_busbw;
    /* plateau */
    {
        long cnt = 0;
        for (i = 0; i < n; i++) {
            if (idx[i]->size * PLATEAU_SPAN < out->largest_size) continue;
            if (isnan(idx[i]->oop_busbw)) continue;
            cnt++;
            if (idx[i]->oop_busbw < lo) lo = idx[i]->oop_busbw;
            if (idx[i]->oop_busbw > hi) hi = idx[i]->oop_busbw;
        }
        out->plateaued = cnt >= 2 && hi > 0 && (hi - lo) <= PLATEAU_SPREAD * hi &&
                         out->busbw_largest >= PLATEAU_OF_PEAK * out->peak_busbw;
    }
    out->in_bw_regime = out->largest_size >= BW_REGIME_BYTES || out->plateaued;
    /* drop */
    for (i = 0; i < n; i++) {
        if (idx[i]->oop_busbw >= DROP_FRACTION * out->peak_busbw && out->peak_busbw > 0) {
            i0 = i;
            break;
        }
    }
    if (i0 >= 0) {
        run_peak = idx[i0]->oop_busbw;
        for (i = i0 + 1; i < n; i++) {
            double b = idx[i]->oop_busbw;
            if (isnan(b)) continue;
            if (b < DROP_FRACTION * run_peak && !out->drop) {
                out->drop = 1;
                out->drop_row = (long)(idx[i] - rows);
                out->drop_busbw = b;
                out->drop_peak = run_peak;
                out->drop_size = idx[i]->size;
            }
            if (b > run_peak) run_peak = b;
        }
    }
    if (!out->drop) step_drop(rows, idx, n, out);
    if (idx != stack_idx) cf__free(idx);
}
