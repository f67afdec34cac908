/* test_hardware.c — the GPU table from the embedded data/gpus.csv. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>
#include "clusterfit/clusterfit.h"

static void lookup(void **state)
{
    const cf_gpu_spec *g = NULL;
    (void)state;
    assert_int_equal(cf_gpu_lookup("h100-sxm", &g), CF_OK);
    assert_string_equal(g->name, "H100-SXM");
    assert_true(g->nvlink_GBps == 900);     /* NVIDIA H100 datasheet: 900 GB/s NVLink */
    assert_true(g->memory_gb == 80);
    assert_int_equal(g->pcie_gen, 5);
    assert_int_equal(g->host_c2c, 0);
    assert_int_equal(cf_gpu_lookup("A100-SXM-80", &g), CF_OK);
    assert_true(g->nvlink_GBps == 600);
    assert_true(g->bf16_tflops == 312);
    assert_int_equal(cf_gpu_lookup("GH200", &g), CF_OK);
    assert_int_equal(g->host_c2c, 1);
    assert_int_equal(cf_gpu_lookup("GB200", &g), CF_OK);
    assert_int_equal(g->host_c2c, 1);
    assert_int_equal(cf_gpu_lookup("V100-PCIe", &g), CF_OK);
    assert_true(isnan(g->bf16_tflops));     /* Volta has no bf16 */
    assert_int_equal(cf_gpu_lookup("H999", &g), CF_ENOTFOUND);
    assert_int_equal(cf_gpu_lookup(NULL, &g), CF_ENOTFOUND);
}

/* Every GPU name of DESIGN §2's vocabulary is in the table, each row sourced. */
static void vocabulary_and_sources(void **state)
{
    static const char *const names[] = {
        "V100-PCIe", "V100-SXM2", "A100-PCIe", "A100-SXM-40", "A100-SXM-80", "H100-PCIe",
        "H100-SXM", "H100-NVL", "H200-SXM", "H20", "H800", "GH200", "B200", "B300", "GB200",
        "GB300", "L40S", "L4", "A10G", "T4", "RTX-4090", "MI250X", "MI300X", "MI325X", "MI355X"};
    (void)state;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const cf_gpu_spec *g;
        if (cf_gpu_lookup(names[i], &g) != CF_OK) fail_msg("%s missing from data/gpus.csv", names[i]);
        assert_non_null(strstr(cf_gpu_accepted(), names[i]));
    }
    assert_true(cf_gpu_count() >= sizeof names / sizeof names[0]);
    for (size_t i = 0; i < cf_gpu_count(); i++) {
        const cf_gpu_spec *g = cf_gpu_at(i);
        assert_non_null(g);
        if (strncmp(g->source_url, "http", 4) != 0) fail_msg("%s has no source_url", g->name);
        if (strlen(g->as_of) < 7) fail_msg("%s has no as_of", g->name);
        assert_true(g->memory_gb > 0);
    }
    assert_null(cf_gpu_at(cf_gpu_count()));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lookup),
        cmocka_unit_test(vocabulary_and_sources),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
