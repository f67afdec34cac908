/* test_billing.c — billed hours and job cost (DESIGN §4.5: cost = nodes ×
 * gpus_per_node × price × billed hours, billing increment and minimum
 * commitment applied), on cases computed by hand. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include "clusterfit/clusterfit.h"

static void increments_round_up(void **state)
{
    unsigned f = 0;
    (void)state;
    /* Hourly billing: 30.2 h is billed 31 h; exactly 10 h stays 10 h. */
    assert_float_equal(cf_billed_hours(30.2, 3600, 0, &f), 31.0, 1e-12);
    assert_float_equal(cf_billed_hours(10.0, 3600, 0, &f), 10.0, 1e-12);
    /* 10 h written as 36000 s / 3600 must not become 11 h by rounding. */
    assert_float_equal(cf_billed_hours(36000.0 / 3600.0, 3600, 0, &f), 10.0, 1e-12);
    /* Per-second billing: 1.0001 h = 3600.36 s -> 3601 s. */
    assert_float_equal(cf_billed_hours(1.0001, 1, 0, &f), 3601.0 / 3600.0, 1e-12);
    /* Weekly blocks (604800 s = 168 h): 200 h -> 2 weeks = 336 h. */
    assert_float_equal(cf_billed_hours(200, 604800, 0, &f), 336.0, 1e-9);
    assert_int_equal(f, 0);
}

static void commitment_is_a_floor(void **state)
{
    unsigned f = 0;
    (void)state;
    /* 10.2 h on hourly billing with a 24 h minimum -> 24 h; 30.2 h -> 31 h. */
    assert_float_equal(cf_billed_hours(10.2, 3600, 24, &f), 24.0, 1e-12);
    assert_float_equal(cf_billed_hours(30.2, 3600, 24, &f), 31.0, 1e-12);
    /* A 1-month (730 h) commitment dominates a 100 h run. */
    assert_float_equal(cf_billed_hours(100, 1, 730, &f), 730.0, 1e-12);
    assert_int_equal(f, 0);
}

static void unknown_terms_are_flagged(void **state)
{
    unsigned f = 0;
    (void)state;
    assert_float_equal(cf_billed_hours(2.5, NAN, 0, &f), 2.5, 1e-12);
    assert_int_equal(f, CF_BILL_INCREMENT_UNKNOWN);
    f = 0;
    assert_float_equal(cf_billed_hours(2.5, 60, NAN, &f), 2.5, 1e-12);
    assert_int_equal(f, CF_BILL_COMMITMENT_UNKNOWN);
    assert_true(isnan(cf_billed_hours(NAN, 60, 0, NULL)));
    assert_true(isnan(cf_billed_hours(-1, 60, 0, NULL)));
}

static void job_cost(void **state)
{
    unsigned f = 0;
    (void)state;
    /* 4 nodes x 8 GPUs x 2.50/GPU-h x 31 billed h = 2480. */
    assert_float_equal(cf_job_cost(4, 8, 2.5, 30.2, 3600, 24, &f), 2480.0, 1e-9);
    /* 16 x 8 x 6.88 x (3601 s) per-second billing. */
    assert_float_equal(cf_job_cost(16, 8, 6.88, 1.0001, 1, 0, &f), 128 * 6.88 * 3601.0 / 3600.0, 1e-9);
    assert_true(isnan(cf_job_cost(4, 8, NAN, 1, 1, 0, NULL)));
    assert_true(isnan(cf_job_cost(0, 8, 1, 1, 1, 0, NULL)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(increments_round_up),
        cmocka_unit_test(commitment_is_a_floor),
        cmocka_unit_test(unknown_terms_are_flagged),
        cmocka_unit_test(job_cost),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
