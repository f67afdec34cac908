/* date.c — civil dates: the YYYY-MM[-DD] of the catalog's as_of column,
 * the age of a fact in days, and "today".
 *
 * Day counts use H. Hinnant's days_from_civil and its inverse
 * civil_from_days ("chrono-Compatible Low-Level Date Algorithms",
 * https://howardhinnant.github.io/date_algorithms.html): exact integer
 * arithmetic on the proleptic Gregorian calendar, no time zone, no libc
 * state. Today is the UTC date of a time_t computed the same way, so the
 * CLI and the server agree whatever the machine's TZ, and the library never
 * reads the clock itself: the caller passes `now`. */
#include <stdio.h>
#include "clusterfit/date.h"
#include "base/base.h"

/* Dates the catalog accepts: an as_of before 1900 is a typo, and four
 * digits is the format. */
enum { YEAR_MIN = 1900, YEAR_MAX = 9999 };

static int days_in_month(int y, int m)
{
    static const int d[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return m == 2 && leap ? 29 : d[m - 1];
}

int cf__date_parse(const char *s, int *year, int *month, int *day)
{
    size_t len = s ? strlen(s) : 0;
    int y, m, d = 0;
    if (len != 7 && len != 10) return -1;
    for (size_t i = 0; i < len; i++) {
        int dash = i == 4 || i == 7;
        if (dash ? s[i] != '-' : (s[i] < '0' || s[i] > '9')) return -1;
    }
    y = (s[0] - '0') * 1000 + (s[1] - '0') * 100 + (s[2] - '0') * 10 + (s[3] - '0');
    m = (s[5] - '0') * 10 + (s[6] - '0');
    if (len == 10) d = (s[8] - '0') * 10 + (s[9] - '0');
    if (y < YEAR_MIN || m < 1 || m > 12) return -1;
    if (len == 10 && (d < 1 || d > days_in_month(y, m))) return -1;
    *year = y;
    *month = m;
    *day = d;
    return 0;
}

/* Days since 1970-01-01 of a proleptic Gregorian date (days_from_civil). */
static long days_from_civil(long y, long m, long d)
{
    long era, yoe, doy, doe;
    y -= m <= 2;
    era = (y >= 0 ? y : y - 399) / 400;
    yoe = y - era * 400;
    doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

/* The date `z` days after 1970-01-01 (civil_from_days, the inverse). */
static void civil_from_days(long long z, long long *y, int *m, int *d)
{
    long long era, doe, yoe, doy, mp;
    z += 719468;
    era = (z >= 0 ? z : z - 146096) / 146097;
    doe = z - era * 146097;
    yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    mp = (5 * doy + 2) / 153;
    *d = (int)(doy - (153 * mp + 2) / 5 + 1);
    *m = (int)(mp < 10 ? mp + 3 : mp - 9);
    *y = yoe + era * 400 + (*m <= 2);
}

cf_status cf_age_days(const char *as_of, const char *today, long *days)
{
    int y1, m1, d1, y2, m2, d2;
    if (!days || cf__date_parse(as_of, &y1, &m1, &d1) != 0 ||
        cf__date_parse(today, &y2, &m2, &d2) != 0 || d2 == 0)
        return CF_EINVAL;
    *days = days_from_civil(y2, m2, d2) - days_from_civil(y1, m1, d1 ? d1 : 1);
    return CF_OK;
}

cf_status cf_today(time_t now, char out[CF_DATE_SIZE])
{
    /* Floor division: the second before 1970 is still 1969-12-31. */
    long long t = (long long)now, z = t / 86400 - (t % 86400 < 0);
    long long y;
    int m, d;
    if (!out) return CF_EINVAL;
    out[0] = '\0';
    civil_from_days(z, &y, &m, &d);
    if (y < YEAR_MIN || y > YEAR_MAX) return CF_EINVAL;
    snprintf(out, CF_DATE_SIZE, "%04lld-%02d-%02d", y, m, d);
    return CF_OK;
}
