/* test_topo.c — nvidia-smi topo -m matrices (tab and blank separated) and
 * their analysis. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "audit/audit_int.h"

static cf__topo T;

static int row(const char *s) { return cf__topo_row(s, strlen(s), &T); }

static void pcie_two_nics(void **state)
{
    const char *h = "\tGPU0\tGPU1\tGPU2\tmlx5_1\tmlx5_0\tCPU Affinity";
    cf__topo_analysis an;
    (void)state;
    assert_true(cf__topo_header(h, strlen(h), &T));
    assert_int_equal(T.ncols, 5);
    assert_string_equal(T.names[3], "mlx5_1");
    assert_true(row("GPU0\t X \tPIX\tNODE\tSYS\tNODE\t0-13,28-41"));
    assert_true(row("GPU1\tPIX\t X \tNODE\tSYS\tNODE\t0-13,28-41"));
    assert_true(row("GPU2\tNODE\tNODE\t X \tSYS\tPIX\t0-13,28-41"));
    assert_true(row("mlx5_1\tSYS\tSYS\tSYS\t X \tSYS\t"));
    assert_true(row("mlx5_0\tNODE\tNODE\tPIX\tSYS\t X \t"));
    assert_false(row("Legend:"));
    assert_false(row("GPU0\t X \tPIX"));     /* too few columns */
    cf__topo_analyze(&T, &an);
    assert_int_equal(an.gpus, 3);
    assert_int_equal(an.nics, 2);
    assert_false(an.nvlink);
    assert_int_equal(an.gpu_pairs, 3);
    assert_int_equal(an.far_gpus, 2);
    assert_int_equal(an.best[2], CF__TL_PIX);
    assert_int_equal(an.best[0], CF__TL_NODE);
}

static void nvlink_and_legend(void **state)
{
    const char *h = "        GPU0    GPU1    NIC0    CPU Affinity    NUMA Affinity   GPU NUMA ID";
    const char *lg = "  NIC0: mlx5_0";
    cf__topo_analysis an;
    int nv;
    (void)state;
    assert_true(cf__topo_header(h, strlen(h), &T));
    assert_int_equal(T.ncols, 3);
    assert_true(row("GPU0     X      NV12    PXB     0-15    0       N/A"));
    assert_true(row("GPU1    NV12     X      SOC     0-15    0       N/A"));
    assert_true(cf__topo_nic_legend(lg, strlen(lg), &T));
    assert_string_equal(T.nic_names[2], "mlx5_0");
    cf__topo_analyze(&T, &an);
    assert_true(an.nvlink);
    assert_int_equal(an.best[1], CF__TL_SYS);
    assert_int_equal(an.far_gpus, 1);
    assert_int_equal(cf__topo_link("NV18", 4, &nv), CF__TL_NV);
    assert_int_equal(nv, 18);
    assert_int_equal(cf__topo_link("NVX", 3, &nv), CF__TL_UNKNOWN);
    assert_false(cf__topo_header("GPU0 X NV2", 10, &T));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pcie_two_nics), cmocka_unit_test(nvlink_and_legend),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
