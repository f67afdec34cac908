/* test_constants.c — the model's one constant table (lib/model/constants.def):
 * cf_model_constants() lists the collective, step and memory constants, each
 * once, with a unit and a source; CF_K(ID) reads the row of that name; the
 * step and memory values are those of the former step_constants.h. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>
#include "clusterfit/clusterfit.h"
#include "model/model_int.h"

static const cf_model_constant *find(const char *name)
{
    size_t n;
    const cf_model_constant *t = cf_model_constants(&n);
    for (size_t i = 0; i < n; i++)
        if (strcmp(t[i].name, name) == 0) return &t[i];
    return NULL;
}

/* Every row: a name, a unit and a source, names unique, values finite. */
static void rows_complete_and_unique(void **state)
{
    size_t n;
    const cf_model_constant *t = cf_model_constants(&n);
    (void)state;
    assert_int_equal(n, CF_K__COUNT);
    assert_ptr_equal(t, cf__model_constants);
    for (size_t i = 0; i < n; i++) {
        assert_non_null(t[i].name);
        assert_non_null(t[i].unit);
        assert_non_null(t[i].source);
        if (!*t[i].name || !*t[i].unit || !*t[i].source)
            fail_msg("row %zu (%s) lacks a name, unit or source", i, t[i].name);
        if (!isfinite(t[i].value)) fail_msg("%s is not finite", t[i].name);
        for (size_t j = 0; j < i; j++)
            if (strcmp(t[i].name, t[j].name) == 0) fail_msg("%s listed twice", t[i].name);
    }
}

/* The step, memory and layout-search constants are listed, with the values
 * step_constants.h and plan/search.c had (no output may change), except the
 * fitted ones (lib/model/fitspec.def), which hold what make fit gives:
 * GEMM_EFF_MAX 0.80 -> 0.85, GEMM_TILE_K 1.0 -> 0.6, LAYER_OVERHEAD_S
 * 150e-6 -> 1e-5, ETA_IB 0.90 -> 0.88, MOE_EXPERT_LAUNCH_S 80e-6 -> 9e-5
 * (make fit-check keeps them so). */
static void step_and_memory_listed(void **state)
{
    static const struct { const char *name; double value; } want[] = {
        {"GEMM_EFF_MAX", 0.85}, {"GEMM_TILE_K", 0.6}, {"ATTN_EFF", 0.50},
        {"ELEM_BYTES_PER_H", 24.0}, {"ELEM_BYTES_PER_F_GELU", 2.0},
        {"ELEM_BYTES_PER_F_SWIGLU", 3.0}, {"HBM_EFF", 0.80}, {"XENT_BYTES_PER_V", 12.0},
        {"LAYER_OVERHEAD_S", 1e-5}, {"OVERLAP_SM_STEAL", 0.15},
        {"ADAM_BYTES_PER_PARAM", 30.0}, {"DP_HALF_BATCH", 16.0}, {"DP_EFF_MAX", 0.22},
        {"DDP_LAST_BUCKET_FRAC", 0.05}, {"FP32_FRAC_OF_BF16", 1.0 / 16.0},
        {"CP_MIN_SEQ", 8192},
        /* MoE (fitted: 80e-6 -> 9e-5 at this fit) */
        {"MOE_EXPERT_LAUNCH_S", 9e-5},
        /* memory */
        {"BYTES_WEIGHT", 2.0}, {"BYTES_GRAD", 2.0}, {"BYTES_GRAD_FP32", 4.0},
        {"BYTES_ADAM", 12.0}, {"BYTES_SGD", 8.0}, {"RUNTIME_RESERVE_GIB", 3.0},
        {"GPU_GB_BYTES", 1e9},
        /* collective, as a check that both parts share the one table */
        {"NVL72_DOMAIN_GPUS", 72}, {"ETA_IB", 0.88}, {"NET_WINDOW_PER_NIC", 8388608},
        {"HBM_FALLBACK_GBPS", 1000.0},
    };
    (void)state;
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const cf_model_constant *c = find(want[i].name);
        if (!c) fail_msg("cf_model_constants() does not list %s", want[i].name);
        if (c->value != want[i].value)
            fail_msg("%s = %.17g, want %.17g", want[i].name, c->value, want[i].value);
    }
    assert_string_equal(find("GEMM_EFF_MAX")->unit, "fraction of dense peak");
    assert_string_equal(find("RUNTIME_RESERVE_GIB")->unit, "GiB per GPU");
    assert_string_equal(find("BYTES_ADAM")->unit, "bytes per parameter");
}

/* CF_K(ID) reads the row named ID; counts used as integers are whole. */
static void enum_matches_names(void **state)
{
    (void)state;
    assert_string_equal(cf__model_constants[CF_K_GEMM_EFF_MAX].name, "GEMM_EFF_MAX");
    assert_string_equal(cf__model_constants[CF_K_ETA_IB].name, "ETA_IB");
    assert_string_equal(cf__model_constants[CF_K_GPU_GB_BYTES].name, "GPU_GB_BYTES");
    assert_true(CF_K(GEMM_EFF_MAX) == 0.85);
    assert_true(CF_K(ETA_RDMA) == 0.90);
    assert_true(CF_K(BYTES_SGD) == 8.0);
    assert_int_equal((int)CF_K(NVL72_DOMAIN_GPUS), 72);
    assert_int_equal((long)CF_K(CP_MIN_SEQ), 8192);
    assert_true(CF_K(NVL72_DOMAIN_GPUS) == floor(CF_K(NVL72_DOMAIN_GPUS)));
    assert_true(CF_K(CP_MIN_SEQ) == floor(CF_K(CP_MIN_SEQ)));
    assert_true(CF_K(NVLS_HEADS_MAX) == floor(CF_K(NVLS_HEADS_MAX)));
    assert_true(CF_K(NET_WINDOW_PER_NIC) == floor(CF_K(NET_WINDOW_PER_NIC)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rows_complete_and_unique),
        cmocka_unit_test(step_and_memory_listed),
        cmocka_unit_test(enum_matches_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
