/* test_ibstat.c — ibstat and ibv_devinfo lines into ports. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>
#include "audit/audit_int.h"

static cf__ib_line L;

static void ibstat_lines(void **state)
{
    cf__port p;
    const char *lines[] = {"                State: Active", "                Physical state: LinkUp",
                           "                Rate: 400", "                Link layer: InfiniBand"};
    (void)state;
    cf__ibstat_parse("CA 'mlx5_2'", 11, &L);
    assert_int_equal(L.kind, CF__IB_CA);
    assert_string_equal(L.name, "mlx5_2");
    cf__ibstat_parse("        Port 1:", 15, &L);
    assert_int_equal(L.kind, CF__IB_PORT);
    assert_int_equal(L.port, 1);
    cf__ibstat_parse("                Port GUID: 0xa088c2030074cfda", 45, &L);
    assert_int_equal(L.kind, CF__IB_FIELD);
    assert_int_equal(L.field, CF__IBF_OTHER);
    cf__ibstat_parse("Rate: 400", 9, &L);           /* not indented: not ibstat */
    assert_int_equal(L.kind, CF__IB_NONE);
    memset(&p, 0, sizeof p);
    p.rate_gbps = NAN;
    p.active = -1;
    for (int i = 0; i < 4; i++) {
        cf__ibstat_parse(lines[i], strlen(lines[i]), &L);
        assert_int_equal(L.kind, CF__IB_FIELD);
        cf__port_apply(&p, &L, 0);
    }
    cf__port_finish(&p);
    assert_int_equal(p.active, 1);
    assert_true(p.rate_gbps == 400);
    assert_int_equal(p.ll, CF__LL_IB);
    assert_true(p.complete);
    assert_string_equal(p.phys_state, "LinkUp");
}

static void devinfo_lines(void **state)
{
    cf__port p;
    const char *lines[] = {"\t\t\tstate:\t\t\tPORT_ACTIVE (4)", "\t\t\tactive_width:\t\t4X (2)",
                           "\t\t\tactive_speed:\t\t25.0 Gbps (32)", "\t\t\tlink_layer:\t\tEthernet",
                           "\t\t\tGID[  3]:\t\t::ffff:192.0.2.7, RoCE v2"};
    (void)state;
    cf__ibv_parse("hca_id:\tmlx5_0", 14, &L);
    assert_int_equal(L.kind, CF__IB_CA);
    assert_string_equal(L.name, "mlx5_0");
    cf__ibv_parse("\t\tport:\t1", 9, &L);
    assert_int_equal(L.kind, CF__IB_PORT);
    memset(&p, 0, sizeof p);
    p.rate_gbps = NAN;
    for (int i = 0; i < 5; i++) {
        cf__ibv_parse(lines[i], strlen(lines[i]), &L);
        assert_int_equal(L.kind, CF__IB_FIELD);
        cf__port_apply(&p, &L, 1);
    }
    cf__port_finish(&p);
    assert_int_equal(p.active, 1);
    assert_true(p.rate_gbps == 100);    /* 4 x 25 */
    assert_int_equal(p.ll, CF__LL_ETH);
    assert_true(p.roce_v2);
    cf__ibv_parse("\t\t\tstate:\t\t\tPORT_DOWN (1)", 24, &L);
    cf__port_apply(&p, &L, 1);
    assert_int_equal(p.active, 0);
    cf__ibv_parse("random text", 11, &L);
    assert_int_equal(L.kind, CF__IB_NONE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ibstat_lines), cmocka_unit_test(devinfo_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
