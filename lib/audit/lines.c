/* lines.c — the audit's streaming line splitter and the launcher prefixes
 * stripped in front of a line.
 *
 * Design: input arrives in chunks of any size. Complete lines that lie inside
 * a chunk are handed to the callback in place (no copy: this is the hot path
 * of a multi-GB log); only a line split across chunks is assembled in a
 * buffer whose size is fixed when created (CF_MAX_LINE_BYTES). A longer line
 * is cut: its first cap bytes are delivered with `cut` set and the rest is
 * skipped up to the next '\n', so memory never grows with the input. */
#include <string.h>
#include "audit/audit_int.h"

cf_status cf__linebuf_init(cf__linebuf *lb, size_t cap)
{
    memset(lb, 0, sizeof *lb);
    lb->buf = cf__malloc(cap ? cap : 1);
    if (!lb->buf) return CF_ENOMEM;
    lb->cap = cap;
    return CF_OK;
}

void cf__linebuf_clear(cf__linebuf *lb)
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
        } else if (*s == '|' || (*s == ' ' && end - s > 2 && (s[1] == '|' || (s[1] == ' ' && s[2] == '|')))) {
            /* a log viewer's table ("  | 2024-11-28T07:42:11.528Z | host:pid..."):
             * blanks, a bar, the timestamp and its bar */
            const char *q = s;
            while (q < end && *q == ' ') q++;
            if (q < end && *q == '|') {
                q++;
                while (q < end && *q == ' ') q++;
                if (q < end && is_digit(*q)) p = strip_timestamp(q, end);
                if (p == q) p = s;
            }
        } else if ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z')) {
            /* pdsh "host: host:pid:tid [0] NCCL ..." or "host: #..." */
            /* the first blank must follow the ':' ("host: "): one memchr
             * instead of walking the host name */
            const char *q = memchr(s, ' ', (size_t)(end - s));
            if (q) q--;
            if (q && q > s && q + 1 < end && *q == ':' && !memchr(s, '\t', (size_t)(q - s)) &&
                !memchr(s, ':', (size_t)(q - s))) {
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
