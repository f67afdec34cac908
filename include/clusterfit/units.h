/* units.h — sizes and numbers as users type them. */
#ifndef CLUSTERFIT_UNITS_H
#define CLUSTERFIT_UNITS_H

#include <stdint.h>
#include "status.h"

/* Parses a byte size as nccl-tests does (binary multiples): "1048576", "512M",
 * "8G", "1K", "2T", optional trailing "B"/"iB" ("8GiB", "8GB" both = 8*2^30).
 * Returns CF_EINVAL on empty, negative, non-numeric, or > CF_MAX_MESSAGE_BYTES
 * (2^50, limits.h) input. */
CF_API cf_status cf_parse_size(const char *s, uint64_t *out);

/* Strict numeric parses: whole string, no trailing junk, errno checked.
 * CF_EINVAL on anything else (including NaN/inf for doubles). */
CF_API cf_status cf_parse_long(const char *s, long *out);
CF_API cf_status cf_parse_double(const char *s, double *out);

#endif
