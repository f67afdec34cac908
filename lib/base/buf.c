/* buf.c — a growable byte buffer with a cap fixed when it is created
 * (curl's dynbuf, lib/curlx/dynbuf.h): it refuses to grow past the cap, and
 * on any failure it frees what it holds, so a caller checks once at the
 * end. The contents are always NUL-terminated. */
#include <stdarg.h>
#include <stdio.h>
#include "base/base.h"

void cf__buf_init(cf__buf *b, size_t cap)
{
    memset(b, 0, sizeof *b);
    b->max = cap;
}

void cf__buf_clear(cf__buf *b)
{
    cf__free(b->s);
    b->s = NULL;
    b->len = b->cap = 0;
}

static cf_status fail(cf__buf *b, cf_status st)
{
    cf__buf_clear(b);
    if (b->st == CF_OK) b->st = st;
    return st;
}

/* Makes room for `more` bytes plus the NUL. */
static cf_status reserve(cf__buf *b, size_t more)
{
    size_t want;
    char *ns;
    if (b->st != CF_OK) return b->st;
    if (more > b->max || b->len > b->max - more) return fail(b, CF_ELIMIT);
    if (b->len + more + 1 <= b->cap) return CF_OK;
    want = b->cap ? b->cap : 256;
    while (want < b->len + more + 1) want *= 2;
    if (want > b->max + 1) want = b->max + 1;
    ns = cf__realloc(b->s, want);
    if (!ns) return fail(b, CF_ENOMEM);
    b->s = ns;
    b->cap = want;
    return CF_OK;
}

cf_status cf__buf_add(cf__buf *b, const void *p, size_t n)
{
    cf_status st = reserve(b, n);
    if (st != CF_OK) return st;
    if (n) memcpy(b->s + b->len, p, n);
    b->len += n;
    b->s[b->len] = '\0';
    return CF_OK;
}

cf_status cf__buf_printf(cf__buf *b, const char *fmt, ...)
{
    va_list ap;
    int n;
    cf_status st;
    if (b->st != CF_OK) return b->st;
    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) return fail(b, CF_EINTERNAL);
    st = reserve(b, (size_t)n);
    if (st != CF_OK) return st;
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
    return CF_OK;
}

char *cf__buf_take(cf__buf *b, size_t *len)
{
    char *s;
    if (b->st != CF_OK) return NULL;
    if (!b->s && cf__buf_add(b, "", 0) != CF_OK) return NULL;
    s = b->s;
    if (len) *len = b->len;
    b->s = NULL;
    b->len = b->cap = 0;
    return s;
}
