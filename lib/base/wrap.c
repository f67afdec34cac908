/* wrap.c — text reports broken at blanks to a terminal's width, as `plan`
 * prints them (issue 23: audit findings ran to 190 columns). One function
 * over finished text, so a report is written once, unwrapped, and every
 * line is wrapped by the same rule. */
#include <string.h>
#include "clusterfit/units.h"
#include "base/base.h"

/* Columns of n bytes of UTF-8: continuation bytes do not count. */
static size_t cols(const char *s, size_t n)
{
    size_t c = 0;
    for (size_t i = 0; i < n; i++) c += ((unsigned char)s[i] & 0xC0) != 0x80;
    return c;
}

/* The indent of a continuation of line s (n bytes). */
static size_t hang_of(const char *s, size_t n, size_t width)
{
    size_t lead = 0;
    const char *colon;
    while (lead < n && s[lead] == ' ') lead++;
    colon = cf__find(s, n, ": ");
    if (colon && cols(s, (size_t)(colon - s)) + 2 <= width / 3) return cols(s, (size_t)(colon - s)) + 2;
    return lead + 4 < width / 2 ? lead + 4 : lead;
}

static cf_status wrap_one(cf__buf *b, const char *s, size_t n, size_t width)
{
    size_t hang = hang_of(s, n, width), at = 0, col;
    const char *end = s + n, *p = s;
    static const char blanks[] = "                                        ";
    /* the line's own indent stays as it is */
    while (p < end && *p == ' ') p++;
    cf__buf_add(b, s, (size_t)(p - s));
    col = (size_t)(p - s);
    at = 0;
    while (p < end) {
        const char *w = p, *we;
        size_t wc;
        while (w < end && *w == ' ') w++;
        we = w;
        while (we < end && *we != ' ') we++;
        if (w == end) break;
        {   /* a number and its unit stay on one line ("+9.5 %") */
            const char *n2 = we, *ne2;
            while (n2 < end && *n2 == ' ') n2++;
            ne2 = n2;
            while (ne2 < end && *ne2 != ' ') ne2++;
            if (n2 < end && cf_unit_glues(w, (size_t)(we - w), n2, (size_t)(ne2 - n2))) we = ne2;
        }
        wc = cols(w, (size_t)(we - w));
        if (at > 0 && col + 1 + wc > width) {
            cf__buf_add(b, "\n", 1);
            cf__buf_add(b, blanks, hang < sizeof blanks - 1 ? hang : sizeof blanks - 1);
            col = hang;
        } else if (at > 0) {
            /* the blanks between two words as they were ("ranks: 2   nodes: 1") */
            cf__buf_add(b, p, (size_t)(w - p));
            col += cols(p, (size_t)(w - p));
        }
        cf__buf_add(b, w, (size_t)(we - w));
        col += wc;
        at++;
        p = we;
    }
    return cf__buf_add(b, "\n", 1);
}

cf_status cf__wrap_lines(cf__buf *b, const char *text, size_t width)
{
    const char *p = text;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        if (cols(p, n) <= width) {
            cf__buf_add(b, p, n);
            cf__buf_add(b, "\n", 1);
        } else {
            wrap_one(b, p, n, width);
        }
        p += n + (nl ? 1 : 0);
    }
    return b->st;
}
