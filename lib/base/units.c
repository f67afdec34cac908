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
