/* test_serve_band.c — the band of a serving prediction (lib/model/
 * serve_band.c, docs/model-serve.md "Band"): hand-computed from
 * ERR_SERVE_P10 / ERR_SERVE_P90 as the public constants table lists them. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <string.h>
#include <cmocka.h>
#include "clusterfit/clusterfit.h"

/* A constant's value by name from the public table (cf_model_constants). */
static double table(const char *name)
{
    size_t n = 0;
    const cf_model_constant *c = cf_model_constants(&n);
    for (size_t i = 0; i < n; i++)
        if (strcmp(c[i].name, name) == 0) return c[i].value;
    fail_msg("constant %s not in the table", name);
    return NAN;
}

static void near(double a, double b)
{
    if (!(fabs(a - b) <= 1e-12 * fabs(b))) fail_msg("%.17g != %.17g", a, b);
}

/* A rate's band is [v / p90, v / p10]; a time's and a cost's [v x p10, v x p90]. */
static void rate_and_time(void **state)
{
    double p10 = table("ERR_SERVE_P10"), p90 = table("ERR_SERVE_P90"), lo, hi;
    (void)state;
    assert_true(p10 > 0 && p90 > p10);
    cf_serve_band(1824.5, CF_SERVE_BAND_RATE, &lo, &hi);
    near(lo, 1824.5 / p90);
    near(hi, 1824.5 / p10);
    cf_serve_band(49.75, CF_SERVE_BAND_TIME, &lo, &hi);
    near(lo, 49.75 * p10);
    near(hi, 49.75 * p90);
    cf_serve_band(0, CF_SERVE_BAND_RATE, &lo, &hi);
    assert_true(lo == 0 && hi == 0);
    cf_serve_band(5, CF_SERVE_BAND_TIME, NULL, &hi);   /* either pointer may be NULL */
    near(hi, 5 * p90);
}

/* The cost band is the inverse of the throughput band: cost x throughput
 * is the price, at each end (the p10 cost with the p90 throughput). */
static void cost_inverts_rate(void **state)
{
    double price_h = 675.2, tok_s = 115661.0, cost = price_h / (tok_s * 3600) * 1e6;
    double rlo, rhi, clo, chi;
    (void)state;
    cf_serve_band(tok_s, CF_SERVE_BAND_RATE, &rlo, &rhi);
    cf_serve_band(cost, CF_SERVE_BAND_TIME, &clo, &chi);
    near(clo, price_h / (rhi * 3600) * 1e6);
    near(chi, price_h / (rlo * 3600) * 1e6);
}

/* Not a number, infinite or negative: no band. */
static void no_band(void **state)
{
    double lo = 0, hi = 0;
    (void)state;
    cf_serve_band(NAN, CF_SERVE_BAND_RATE, &lo, &hi);
    assert_true(isnan(lo) && isnan(hi));
    cf_serve_band(INFINITY, CF_SERVE_BAND_TIME, &lo, &hi);
    assert_true(isnan(lo) && isnan(hi));
    cf_serve_band(-1, CF_SERVE_BAND_TIME, &lo, &hi);
    assert_true(isnan(lo) && isnan(hi));
}

/* The JSON keys: KEY_p10 / KEY_p90 from the object's own value, null where
 * it has none; the document's band names the same constants. */
static void json_keys(void **state)
{
    static const char *const rates[] = {"tok", "absent", NULL};
    static const char *const times[] = {"cost", NULL};
    json_t *o = json_pack("{s:f,s:f}", "tok", 2000.0, "cost", 1.5), *b;
    (void)state;
    assert_int_equal(cf_serve_band_keys(o, rates, times), 0);
    near(json_real_value(json_object_get(o, "tok_p10")), 2000.0 / table("ERR_SERVE_P90"));
    near(json_real_value(json_object_get(o, "tok_p90")), 2000.0 / table("ERR_SERVE_P10"));
    near(json_real_value(json_object_get(o, "cost_p10")), 1.5 * table("ERR_SERVE_P10"));
    near(json_real_value(json_object_get(o, "cost_p90")), 1.5 * table("ERR_SERVE_P90"));
    assert_true(json_is_null(json_object_get(o, "absent_p10")));
    assert_true(json_is_null(json_object_get(o, "absent_p90")));
    assert_int_equal(cf_serve_band_keys(NULL, rates, times), -1);
    json_decref(o);
    b = cf_serve_band_json();
    assert_non_null(b);
    assert_string_equal(json_string_value(json_object_get(b, "class")), "serve");
    near(json_number_value(json_object_get(b, "p10")), table("ERR_SERVE_P10"));
    near(json_number_value(json_object_get(b, "p90")), table("ERR_SERVE_P90"));
    json_decref(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rate_and_time), cmocka_unit_test(cost_inverts_rate),
        cmocka_unit_test(no_band), cmocka_unit_test(json_keys),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
