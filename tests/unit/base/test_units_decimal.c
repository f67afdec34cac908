/* test_units_decimal.c — one numeric parser for every numeric parameter
 * (issue 15): hexadecimal is accepted nowhere. Before, strtod read "0x10"
 * as 16, so bytes=0x10, nic_gbps=0x10, expect_gbps=0x10 and validate cells
 * took hex while min_gbps and max_price refused it. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "clusterfit/units.h"

static void hex_refused(void **state)
{
    static const char *const hex[] = {"0x10", "0X10", "0x1p4", "-0x10", "1x"};
    double d = 7;
    uint64_t b = 7;
    (void)state;
    for (size_t i = 0; i < sizeof hex / sizeof hex[0]; i++) {
        assert_int_equal(cf_parse_double(hex[i], &d), CF_EINVAL);
        assert_int_equal(cf_parse_size(hex[i], &b), CF_EINVAL);
    }
    assert_true(d == 7 && b == 7);
}

static void decimal_kept(void **state)
{
    double d;
    uint64_t b;
    (void)state;
    assert_int_equal(cf_parse_double("16", &d), CF_OK); assert_true(d == 16);
    assert_int_equal(cf_parse_double("1.6e1", &d), CF_OK); assert_true(d == 16);
    assert_int_equal(cf_parse_size("16", &b), CF_OK); assert_true(b == 16);
    assert_int_equal(cf_parse_size("8GiB", &b), CF_OK); assert_true(b == 8ULL << 30);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hex_refused),
        cmocka_unit_test(decimal_kept),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
