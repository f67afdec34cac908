/* units.c — strict number and size parsing (strtol/strtod with end and
 * errno checks; docs/architecture.md bans atoi). Sizes are binary multiples as in
 * nccl-tests' -b/-e parsing (1K = 1024). */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "clusterfit/limits.h"
#include "clusterfit/units.h"
#include "base/base.h"

cf_status cf_parse_long(const char *s, long *out)
{
    char *end;
    long v;
    if (!s || !*s || isspace((unsigned char)*s)) return CF_EINVAL;
    errno = 0;
    v = strtol(s, &end, 10);
    if (errno || *end) return CF_EINVAL;
    *out = v;
    return CF_OK;
}

cf_status cf_parse_double(const char *s, double *out)
{
    char *end;
    double v;
    if (!s || !*s || isspace((unsigned char)*s)) return CF_EINVAL;
    if (strpbrk(s, "xX")) return CF_EINVAL;    /* decimal only: no hex anywhere (issue 15) */
    errno = 0;
    v = strtod(s, &end);
    if (errno || *end || !isfinite(v)) return CF_EINVAL;
    *out = v;
    return CF_OK;
}

cf_status cf_parse_size(const char *s, uint64_t *out)
{
    char *end;
    double v;
    double mult = 1;
    if (!s || !*s || !isdigit((unsigned char)*s) || strpbrk(s, "xX")) return CF_EINVAL;
    errno = 0;
    v = strtod(s, &end);
    if (errno || !isfinite(v) || v < 0) return CF_EINVAL;
    switch (toupper((unsigned char)*end)) {
    case 'K': mult = 1024.0; end++; break;
    case 'M': mult = 1024.0 * 1024; end++; break;
    case 'G': mult = 1024.0 * 1024 * 1024; end++; break;
    case 'T': mult = 1024.0 * 1024 * 1024 * 1024; end++; break;
    default: break;
    }
    if (mult > 1 && toupper((unsigned char)*end) == 'I') end++;
    if (toupper((unsigned char)*end) == 'B') end++;
    if (*end) return CF_EINVAL;
    v *= mult;
    /* A whole number of bytes: "0.5G" is, "0.5" and "1.3M" are not (issue
     * 21: "0.5" was rounded to 1 byte while "0.49999" was refused). */
    if (v > CF_MAX_MESSAGE_BYTES || v != floor(v)) return CF_EINVAL;
    *out = (uint64_t)llround(v);
    return CF_OK;
}

int cf_unit_glues(const char *prev, size_t prev_len, const char *next, size_t next_len)
{
    static const char *const units[] = {"%", "pp", "ms", "us", "s", "h", "d", "y", "GB/s",
                                        "Gbit/s", "GB", "GiB", "TB", "MiB", "KiB", "B", "USD",
                                        "USD/GPU-h", "EUR", "W", NULL};
    if (!prev || !next || prev_len == 0 || next_len == 0) return 0;
    if (!isdigit((unsigned char)prev[prev_len - 1])) return 0;
    while (next_len > 0 && strchr(",;:).", next[next_len - 1])) next_len--;
    for (size_t i = 0; units[i]; i++)
        if (strlen(units[i]) == next_len && memcmp(units[i], next, next_len) == 0) return 1;
    return 0;
}
