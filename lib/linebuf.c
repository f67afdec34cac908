/* linebuf.c — the audit's streaming line splitter and the small scanning
 * helpers its parsers share.
 *
 * Design: input arrives in chunks of any size. Complete lines that lie inside
 * a chunk are handed to the callback in place (no copy: this is the hot path
 * of a multi-GB log); only a line split across chunks is assembled in a
 * buffer whose size is fixed when created (CF_MAX_LINE_BYTES). A longer line
 * is cut: its first cap bytes are delivered with `cut` set and the rest is
 * skipped up to the next '\n', so memory never grows with the input.
 * Numbers are parsed by a hand-written decimal reader (nccl-tests prints at
 * most ~10 significant digits; the result is within one ulp-scale of
 * strtod's for those), because strtod dominated the profile. */
#include <string.h>
#include <math.h>
#include "audit_int.h"
#include "internal.h"

cf_status cf__linebuf_init(cf__linebuf *lb, size_t cap)
{
    memset(lb, 0, sizeof *lb);
    lb->buf = cf__malloc(cap ? cap : 1);
    if (!lb->buf) return CF_ENOMEM;
    lb->cap = cap;
    return CF_OK;
}

void cf__linebuf_free(cf__linebuf *lb)
{
    if (!lb) return;
    cf__free(lb->buf);
    lb->buf = NULL;
}

void cf__linebuf_reset(cf__linebuf *lb)
{
    lb->len = 0;
    lb->discarding = 0;
    lb->cut = 0;
    lb->lineno = 0;
}

static cf_status deliver(cf__linebuf *lb, const char *s, size_t n, int cut, int no_nl,
                         cf__line_fn fn, void *ctx)
{
    if (n > 0 && s[n - 1] == '\r') n--;
    lb->lineno++;
    return fn(ctx, s, n, lb->lineno, cut, no_nl);
}

cf_status cf__linebuf_feed(cf__linebuf *lb, const char *buf, size_t n, cf__line_fn fn, void *ctx)
{
    const char *p = buf, *end = buf + n;
    cf_status st;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (lb->discarding) {
            if (!nl) return CF_OK;
            lb->discarding = 0;
            st = deliver(lb, lb->buf, lb->len, 1, 0, fn, ctx);
            lb->len = 0;
            lb->cut = 0;
            if (st != CF_OK) return st;
            p = nl + 1;
            continue;
        }
        if (lb->len == 0 && nl) {
            size_t ln = (size_t)(nl - p);
            if (ln <= lb->cap) {
                st = deliver(lb, p, ln, 0, 0, fn, ctx);
            } else {
                st = deliver(lb, p, lb->cap, 1, 0, fn, ctx);
            }
            if (st != CF_OK) return st;
            p = nl + 1;
            continue;
        }
        /* Assemble a line across chunks. */
        {
            size_t take = nl ? (size_t)(nl - p) : (size_t)(end - p);
            size_t room = lb->cap - lb->len;
            if (take > room) {
                memcpy(lb->buf + lb->len, p, room);
                lb->len += room;
                lb->cut = 1;
                if (nl) {
                    st = deliver(lb, lb->buf, lb->len, 1, 0, fn, ctx);
                    lb->len = 0;
                    lb->cut = 0;
                    if (st != CF_OK) return st;
                    p = nl + 1;
                } else {
                    lb->discarding = 1;
                    p = end;
                }
                continue;
            }
            memcpy(lb->buf + lb->len, p, take);
            lb->len += take;
            if (nl) {
                st = deliver(lb, lb->buf, lb->len, lb->cut, 0, fn, ctx);
                lb->len = 0;
                lb->cut = 0;
                if (st != CF_OK) return st;
                p = nl + 1;
            } else {
                p = end;
            }
        }
    }
    return CF_OK;
}

cf_status cf__linebuf_finish(cf__linebuf *lb, cf__line_fn fn, void *ctx)
{
    cf_status st = CF_OK;
    if (lb->len > 0 || lb->discarding)
        st = deliver(lb, lb->buf, lb->len, lb->cut || lb->discarding, 1, fn, ctx);
    lb->len = 0;
    lb->discarding = 0;
    lb->cut = 0;
    return st;
}

/* ------------------------------------------------------------- scanning */

const char *cf__find(const char *s, size_t n, const char *needle)
{
    /* memchr on the needle's first non-blank byte (blanks are the commonest
     * byte of a log line), then one memcmp per candidate */
    size_t k = strlen(needle), j = 0;
    const char *p, *end = s + n;
    if (k == 0) return s;
    if (k > n) return NULL;
    while (j + 1 < k && needle[j] == ' ') j++;
    p = s + j;
    while (p < end) {
        const char *q = memchr(p, needle[j], (size_t)(end - p));
        const char *start;
        if (!q) return NULL;
        start = q - j;
        if ((size_t)(end - start) < k) return NULL;
        if (memcmp(start, needle, k) == 0) return start;
        p = q + 1;
    }
    return NULL;
}

int cf__starts(const char *s, size_t n, const char *prefix)
{
    size_t k = strlen(prefix);
    return n >= k && memcmp(s, prefix, k) == 0;
}

const char *cf__skip_ws(const char *s, const char *end)
{
    while (s < end && (*s == ' ' || *s == '\t')) s++;
    return s;
}

int cf__token(const char **p, const char *end, const char **tok, size_t *tn)
{
    const char *s = cf__skip_ws(*p, end), *t;
    if (s >= end) {
        *p = end;
        return 0;
    }
    t = s;
    while (t < end && *t != ' ' && *t != '\t') t++;
    *tok = s;
    *tn = (size_t)(t - s);
    *p = t;
    return 1;
}

static const double pow10_tab[] = {
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14,
    1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22
};

static double scale10(double v, int e)
{
    while (e > 22) { v *= 1e22; e -= 22; }
    while (e < -22) { v /= 1e22; e += 22; }
    return e >= 0 ? v * pow10_tab[e] : v / pow10_tab[-e];
}

int cf__num(const char *s, size_t n, double *out)
{
    const char *p = s, *end = s + n;
    int neg = 0, digits = 0, fdigits = 0, e = 0;
    uint64_t mant = 0;
    if (p < end && (*p == '-' || *p == '+')) neg = (*p++ == '-');
    while (p < end && *p >= '0' && *p <= '9') {
        if (digits < 19) mant = mant * 10 + (uint64_t)(*p - '0');
        else e++;
        digits++;
        p++;
    }
    if (p < end && *p == '.') {
        p++;
        while (p < end && *p >= '0' && *p <= '9') {
            if (digits < 19) {
                mant = mant * 10 + (uint64_t)(*p - '0');
                e--;
            }
            digits++;
            fdigits++;
            p++;
        }
    }
    if (digits == 0) return 0;
    if (p < end && (*p == 'e' || *p == 'E')) {
        int eneg = 0, ev = 0, ed = 0;
        p++;
        if (p < end && (*p == '-' || *p == '+')) eneg = (*p++ == '-');
        while (p < end && *p >= '0' && *p <= '9') {
            if (ev < 10000) ev = ev * 10 + (*p - '0');
            ed++;
            p++;
        }
        if (ed == 0) return 0;
        e += eneg ? -ev : ev;
    }
    if (p < end && *p == '[' && fdigits == 0) {
        /* tagged integer "-1[0]": the tag is ignored */
        const char *q = memchr(p, ']', (size_t)(end - p));
        if (!q || q + 1 != end) return 0;
        p = end;
    }
    if (p != end) return 0;
    {
        double v = scale10((double)mant, e);
        *out = neg ? -v : v;
    }
    return 1;
}

int cf__uint(const char *s, size_t n, uint64_t *out)
{
    uint64_t v = 0;
    if (n == 0 || n > 19) return 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9') return 0;
        v = v * 10 + (uint64_t)(s[i] - '0');
    }
    *out = v;
    return 1;
}

uint64_t cf__hash(const char *s, size_t n, uint64_t seed)
{
    /* FNV-1a (Fowler, Noll, Vo); seed mixes in a previous hash. */
    uint64_t h = 1469598103934665603ULL ^ seed;
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 1099511628211ULL;
    }
    return h ? h : 1;
}

/* -------------------------------------------------------------- prefixes */

static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* "[...]" without blanks inside, then ":" or "<...>:" or a blank. */
static const char *strip_bracket(const char *s, const char *end)
{
    const char *p = s + 1;
    while (p < end && *p != ']' && *p != ' ' && *p != '\t' && *p != '[') p++;
    if (p >= end || *p != ']' || p == s + 1) return s;
    p++;
    if (p < end && *p == '<') {
        const char *q = p + 1;
        while (q < end && *q != '>' && *q != ' ') q++;
        if (q >= end || *q != '>') return s;
        p = q + 1;
    }
    if (p < end && *p == ':') p++;
    else if (!(p < end && (*p == ' ' || *p == '\t'))) return s;
    if (p < end && *p == ' ') p++;
    return p;
}

/* "2024-05-01 12:00:00,123 ", "2024-05-01T12:00:00.123456Z ", optional "|" */
static const char *strip_timestamp(const char *s, const char *end)
{
    const char *p = s;
    if (end - p < 10) return s;
    for (int i = 0; i < 10; i++) {
        if (i == 4 || i == 7) {
            if (p[i] != '-' && p[i] != '/') return s;
        } else if (!is_digit(p[i])) {
            return s;
        }
    }
    p += 10;
    if (p < end && (*p == 'T' || *p == ' ')) {
        const char *q = p + 1;
        if (q < end && is_digit(*q)) {
            while (q < end && (is_digit(*q) || *q == ':' || *q == '.' || *q == ',')) q++;
            p = q;
            if (p < end && *p == 'Z') p++;
            else if (p + 1 < end && (*p == '+' || *p == '-') && is_digit(p[1])) {
                p++;
                while (p < end && (is_digit(*p) || *p == ':')) p++;
            }
        }
    }
    if (p < end && *p == ']') p++;
    while (p < end && (*p == ' ' || *p == '\t' || *p == '|' || *p == ':')) p++;
    return p;
}

const char *cf__strip_prefixes(const char *s, size_t *n)
{
    const char *end = s + *n;
    for (int round = 0; round < 4 && s < end; round++) {
        const char *p = s;
        if (*s == '[') {
            if (end - s > 11 && is_digit(s[1]) && is_digit(s[4]) && s[5] == '-')
                p = strip_timestamp(s + 1, end);
            else
                p = strip_bracket(s, end);
        } else if (is_digit(*s)) {
            const char *q = s;
            while (q < end && is_digit(*q)) q++;
            if (q - s == 4 && q < end && *q == '-') {
                p = strip_timestamp(s, end);
            } else if (q < end && *q == ':' && q + 1 < end && q[1] == ' ' && q - s <= 6) {
                p = q + 2;          /* srun --label "12: " */
            }
        } else if ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z')) {
            /* pdsh "host: host:pid:tid [0] NCCL ..." or "host: #..." */
            const char *q = s;
            while (q < end && *q != ':' && *q != ' ' && *q != '\t') q++;
            if (q + 1 < end && *q == ':' && q[1] == ' ') {
                size_t hn = (size_t)(q - s);
                const char *r = q + 2;
                if ((size_t)(end - r) > hn && memcmp(r, s, hn) == 0 && r[hn] == ':')
                    p = r;
                else if (r < end && *r == '#')
                    p = r;
            }
        }
        if (p == s) break;
        s = p;
    }
    *n = (size_t)(end - s);
    return s;
}

/* ----------------------------------------------------------------- kvset */

void cf__kvset_init(cf__kvset *s, size_t max)
{
    memset(s, 0, sizeof *s);
    s->max = max;
}

void cf__kvset_free(cf__kvset *s)
{
    if (!s) return;
    cf__free(s->slots);
    s->slots = NULL;
    s->cap = s->n = 0;
}

cf__kv *cf__kvset_find(const cf__kvset *s, uint64_t key)
{
    size_t i;
    if (!s->slots || key == 0) return NULL;
    i = (size_t)(key & (s->cap - 1));
    while (s->slots[i].key) {
        if (s->slots[i].key == key) return &s->slots[i];
        i = (i + 1) & (s->cap - 1);
    }
    return NULL;
}

static int kv_grow(cf__kvset *s)
{
    size_t ncap = s->cap ? s->cap * 2 : 64;
    cf__kv *ns = cf__calloc(ncap, sizeof *ns);
    if (!ns) return -1;
    for (size_t k = 0; k < s->cap; k++) {
        if (!s->slots[k].key) continue;
        size_t i = (size_t)(s->slots[k].key & (ncap - 1));
        while (ns[i].key) i = (i + 1) & (ncap - 1);
        ns[i] = s->slots[k];
    }
    cf__free(s->slots);
    s->slots = ns;
    s->cap = ncap;
    return 0;
}

cf__kv *cf__kvset_get(cf__kvset *s, uint64_t key, int *oom)
{
    cf__kv *e;
    size_t i;
    if (key == 0) key = 1;
    e = cf__kvset_find(s, key);
    if (e) return e;
    if (s->n >= s->max) {
        s->dropped++;
        return NULL;
    }
    if ((s->n + 1) * 2 > s->cap && kv_grow(s) != 0) {
        if (oom) *oom = 1;
        return NULL;
    }
    i = (size_t)(key & (s->cap - 1));
    while (s->slots[i].key) i = (i + 1) & (s->cap - 1);
    s->slots[i].key = key;
    s->n++;
    return &s->slots[i];
}
