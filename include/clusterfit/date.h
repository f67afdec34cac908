/* date.h — calendar dates as the catalog writes them (YYYY-MM-DD, or
 * YYYY-MM for a month), and today's date.
 *
 * Today is the UTC civil date: every front end asks cf_today() for it (or
 * takes CLUSTERFIT_NOW), so the CLI and the server count the same ages.
 * Dates are proleptic Gregorian, years 1900 to 9999. */
#ifndef CLUSTERFIT_DATE_H
#define CLUSTERFIT_DATE_H

#include <time.h>
#include "status.h"

/* Bytes of a YYYY-MM-DD string with its NUL. */
#define CF_DATE_SIZE 11

/* Today's date.
 * - computes: the UTC civil date of `now` (seconds since 1970-01-01 UTC, as
 *   time() returns), by integer arithmetic: no time zone, no libc state
 * - output: `out` gets "YYYY-MM-DD" and its NUL (CF_DATE_SIZE bytes)
 * - errors: CF_EINVAL when out is NULL or the year is outside 1900..9999
 *   (out is then "")
 * - ownership: writes into the caller's out; the library never reads the
 *   clock
 * - source: H. Hinnant, "chrono-Compatible Low-Level Date Algorithms",
 *   civil_from_days */
CF_API cf_status cf_today(time_t now, char out[CF_DATE_SIZE]);

/* Age of a fact.
 * - computes: days from `as_of` to `today`, negative when as_of is after
 *   today
 * - inputs: as_of "YYYY-MM-DD", or "YYYY-MM" read as the 1st of the month
 *   (so the age is an upper bound); today "YYYY-MM-DD"
 * - output: *days, in days; unchanged on error
 * - errors: CF_EINVAL on a NULL pointer, a malformed or impossible date
 *   (2026-02-30) or one before 1900, or a today without its day
 * - ownership: pure
 * - source: H. Hinnant, "chrono-Compatible Low-Level Date Algorithms",
 *   days_from_civil */
CF_API cf_status cf_age_days(const char *as_of, const char *today, long *days);

#endif
