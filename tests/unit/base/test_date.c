/* test_date.c — civil dates (base/date.c): parsing YYYY-MM[-DD], ages in
 * days and today's UTC date. Expected dates of time_t values were computed
 * with GNU date (date -u -d @SECONDS +%F). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "clusterfit/date.h"
#include "base/base.h"

static void parse(void **state)
{
    int y = 0, m = 0, d = -1;
    (void)state;
    assert_int_equal(cf__date_parse("2026-08", &y, &m, &d), 0);
    assert_int_equal(y, 2026);
    assert_int_equal(m, 8);
    assert_int_equal(d, 0);
    assert_int_equal(cf__date_parse("2024-02-29", &y, &m, &d), 0);  /* leap day */
    assert_int_equal(d, 29);
    assert_int_equal(cf__date_parse("2100-02-29", &y, &m, &d), -1); /* 2100 is not leap */
    assert_int_equal(cf__date_parse("2000-02-29", &y, &m, &d), 0);  /* 2000 is */
    assert_int_equal(cf__date_parse("1899-12-31", &y, &m, &d), -1);
    assert_int_equal(cf__date_parse("2026-13", &y, &m, &d), -1);
    assert_int_equal(cf__date_parse("2026-8-01", &y, &m, &d), -1);
    assert_int_equal(cf__date_parse("2026/08/01", &y, &m, &d), -1);
    assert_int_equal(cf__date_parse(NULL, &y, &m, &d), -1);
}

static void ages(void **state)
{
    long days = 0;
    (void)state;
    assert_int_equal(cf_age_days("1970-01-01", "2000-03-01", &days), CF_OK);
    assert_int_equal(days, 11017);
    assert_int_equal(cf_age_days("2026-03", "2026-03-01", &days), CF_OK);
    assert_int_equal(days, 0);
    assert_int_equal(cf_age_days("2026-03-01", "2026-03", &days), CF_EINVAL);
    assert_int_equal(cf_age_days("2026-03-01", "2026-03-01", NULL), CF_EINVAL);
}

static void today_is_the_utc_date(void **state)
{
    char out[CF_DATE_SIZE];
    (void)state;
    assert_int_equal(cf_today(0, out), CF_OK);
    assert_string_equal(out, "1970-01-01");
    assert_int_equal(cf_today(1796083199, out), CF_OK);   /* 2026-11-30T23:59:59Z */
    assert_string_equal(out, "2026-11-30");
    assert_int_equal(cf_today(1796083200, out), CF_OK);   /* one second later */
    assert_string_equal(out, "2026-12-01");
    assert_int_equal(cf_today(951782400, out), CF_OK);    /* 2000-02-29T00:00:00Z */
    assert_string_equal(out, "2000-02-29");
    assert_int_equal(cf_today(-1, out), CF_OK);           /* the last second of 1969 */
    assert_string_equal(out, "1969-12-31");
    assert_int_equal(cf_today(253402300799, out), CF_OK); /* 9999-12-31T23:59:59Z */
    assert_string_equal(out, "9999-12-31");
    assert_int_equal(cf_today(253402300800, out), CF_EINVAL);
    assert_string_equal(out, "");
    assert_int_equal(cf_today(-2208988800, out), CF_OK);  /* 1900-01-01T00:00:00Z */
    assert_string_equal(out, "1900-01-01");
    assert_int_equal(cf_today(-2208988801, out), CF_EINVAL); /* 1899-12-31T23:59:59Z */
    assert_int_equal(cf_today(0, NULL), CF_EINVAL);
}

/* What cf_today writes, cf_age_days reads: every day of four years round
 * trips, one day apart. */
static void today_round_trips(void **state)
{
    char a[CF_DATE_SIZE], b[CF_DATE_SIZE];
    long days;
    (void)state;
    for (long long t = 1704067200; t < 1704067200 + 4LL * 366 * 86400; t += 86400) {
        assert_int_equal(cf_today((time_t)t, a), CF_OK);
        assert_int_equal(cf_today((time_t)(t + 86400 + 3600), b), CF_OK);
        assert_int_equal(cf_age_days(a, b, &days), CF_OK);
        assert_int_equal(days, 1);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(parse),
        cmocka_unit_test(ages),
        cmocka_unit_test(today_is_the_utc_date),
        cmocka_unit_test(today_round_trips),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
