/* units.h — sizes and numbers as users type them. */
#ifndef CLUSTERFIT_UNITS_H
#define CLUSTERFIT_UNITS_H

#include <stdint.h>
#include "status.h"

/* Parses a byte size as nccl-tests does (binary multiples).
 * - inputs: s, e.g. "1048576", "512M", "8G", "1K", "2T", "0.5G"; an
 *   optional trailing "B"/"iB" ("8GiB", "8GB" both = 8*2^30); case-insensitive
 * - output: *out, bytes; unchanged on error
 * - errors: CF_EINVAL for NULL, empty, a sign or anything but a digit first,
 *   a size that is not a whole number of bytes ("0.5", "1.3M"; "0.5G" is),
 *   hexadecimal (0x10), trailing junk, or over CF_MAX_MESSAGE_BYTES (2^50,
 *   limits.h)
 * - source: nccl-tests' -b/-e size parsing */
CF_API cf_status cf_parse_size(const char *s, uint64_t *out);

/* Strict numeric parses (strtol base 10 / strtod).
 * - inputs: s, the whole string a number: no leading blank, no trailing
 *   junk
 * - output: *out; unchanged on error
 * - errors: CF_EINVAL for NULL, empty, junk, out of range (errno), and for
 *   doubles NaN, infinity and hexadecimal (strtod's 0x10): every numeric
 *   flag, parameter and cell is decimal */
CF_API cf_status cf_parse_long(const char *s, long *out);
CF_API cf_status cf_parse_double(const char *s, double *out);

/* Whether a line break may not fall between two words of a text report:
 * 1 when prev (prev_len bytes) ends with a digit and next (next_len bytes)
 * is a unit the tool prints after a number ("%", "pp", "ms", "us", "s",
 * "h", "d", "y", "GB/s", "Gbit/s", "GB", "GiB", "TB", "MiB", "KiB", "B",
 * "USD", "USD/GPU-h", "EUR", "W"), a trailing ",", ";", ":", ")" or "."
 * aside; else 0. So "+9.5 %" is never split at a wrap (issue 23: "lost
 * work +9.5" / "%, restarts"). Used by every wrapper of text (lib/base/
 * wrap.c, the tool's tf_wrap). Pure; NULL or empty words give 0. */
CF_API int cf_unit_glues(const char *prev, size_t prev_len, const char *next, size_t next_len);

#endif
