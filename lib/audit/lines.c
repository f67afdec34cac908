/* lines.c — the audit's streaming line splitter.
 *
 * Design: input arrives in chunks of any size. Complete lines that lie inside
 * a chunk are handed to the callback in place (no copy: this is the hot path
 * of a multi-GB log); only a line split across chunks is assembled in a
 * buffer whose size is fixed when created (CF_MAX_LINE_BYTES). A longer line
 * is cut: its first cap bytes are delivered with `cut` set and the rest is
 * skipped up to the next '\n', so memory never grows with the input.
 * The launcher prefixes in front of a line are prefixes.c's. */
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
