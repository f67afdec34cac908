/* scan.c — cheap scanning of byte ranges that are not NUL-terminated:
 * substring search, prefixes, blank-separated tokens and numbers.
 *
 * Numbers are parsed by a hand-written decimal reader (nccl-tests prints at
 * most ~10 significant digits; the result is within one ulp-scale of
 * strtod's for those), because strtod dominated the audit's profile. */
#include <string.h>
#include <math.h>
#include "base/base.h"

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
