/* test_efficiency.c — compute efficiency by framework class and GPU
 * generation (lib/model/efficiency.c): each (class, generation) cell reads
 * its constant, an unstated framework follows the ZeRO stage, GPUs without
 * training rows borrow a neighbour's factor and say so, and the step model
 * scales the compute, not the peak its MFU is counted against. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>
#include "clusterfit/clusterfit.h"
#include "model/model_int.h"

static const cf_gpu_spec *gpu(const char *name)
{
    const cf_gpu_spec *g = NULL;
    assert_int_equal(cf_gpu_lookup(name, &g), CF_OK);
    return g;
}

static void cells(void **state)
{
    (void)state;
    assert_true(cf__compute_eff(gpu("A100-SXM-80"), CF_FW_MEGATRON, 1) == CF_K(EFF_MEGATRON_AMPERE));
    assert_true(cf__compute_eff(gpu("H100-SXM"), CF_FW_MEGATRON, 1) == CF_K(EFF_MEGATRON_HOPPER));
    assert_true(cf__compute_eff(gpu("A100-SXM-40"), CF_FW_FSDP, 3) == CF_K(EFF_FSDP_AMPERE));
    assert_true(cf__compute_eff(gpu("H200-SXM"), CF_FW_FSDP, 3) == CF_K(EFF_FSDP_HOPPER));
    /* Not stated: ZeRO-3 is fsdp, anything else megatron. */
    assert_true(cf__compute_eff(gpu("H100-SXM"), CF_FW_DEFAULT, 3) == CF_K(EFF_FSDP_HOPPER));
    assert_true(cf__compute_eff(gpu("H100-SXM"), CF_FW_DEFAULT, 0) == CF_K(EFF_MEGATRON_HOPPER));
    /* Stated wins over the ZeRO stage. */
    assert_true(cf__compute_eff(gpu("H100-SXM"), CF_FW_MEGATRON, 3) == CF_K(EFF_MEGATRON_HOPPER));
    /* Blackwell has Megatron-class rows; FSDP on it, AMD and older NVIDIA
     * parts have none and borrow Hopper's or Ampere's. */
    assert_true(cf__compute_eff(gpu("B200"), CF_FW_MEGATRON, 1) == CF_K(EFF_MEGATRON_BLACKWELL));
    assert_true(cf__compute_eff(gpu("GB300"), CF_FW_DEFAULT, 1) == CF_K(EFF_MEGATRON_BLACKWELL));
    assert_true(cf__compute_eff(gpu("GB200"), CF_FW_FSDP, 3) == CF_K(EFF_FSDP_HOPPER));
    assert_true(cf__compute_eff(gpu("MI300X"), CF_FW_MEGATRON, 1) == CF_K(EFF_MEGATRON_HOPPER));
    assert_true(cf__compute_eff(gpu("V100-SXM2"), CF_FW_MEGATRON, 0) == CF_K(EFF_MEGATRON_AMPERE));
    assert_true(cf__compute_eff_validated("H100-SXM", CF_FW_DEFAULT, 3));
    assert_true(cf__compute_eff_validated("A100-SXM-80", CF_FW_MEGATRON, 1));
    assert_true(cf__compute_eff_validated("B200", CF_FW_DEFAULT, 1));
    assert_true(cf__compute_eff_validated("GB200", CF_FW_MEGATRON, 3));
    assert_false(cf__compute_eff_validated("B200", CF_FW_DEFAULT, 3));
    assert_false(cf__compute_eff_validated("GB200", CF_FW_FSDP, 1));
    assert_false(cf__compute_eff_validated("MI300X", CF_FW_MEGATRON, 1));
    assert_false(cf__compute_eff_validated("L40S", CF_FW_MEGATRON, 0));
}

/* One H100 node, Llama 3 8B, DP 8 with ZeRO-3: the fsdp class computes at
 * EFF_FSDP_HOPPER, the megatron class at EFF_MEGATRON_HOPPER; the GEMM and
 * attention time scale by their ratio, the MFU is counted against the same
 * vendor peak (989 TFLOP/s bf16) in both. */
static void step_scales_compute(void **state)
{
    cf_workload w;
    cf_fabric fab;
    cf_layout lay;
    cf_step_result rm, rf;
    cf_error err;
    double r = CF_K(EFF_MEGATRON_HOPPER) / CF_K(EFF_FSDP_HOPPER);
    (void)state;
    assert_int_equal(cf_workload_load("llama3-8b", &w, &err), CF_OK);
    memset(&fab, 0, sizeof fab);
    snprintf(fab.gpu, sizeof fab.gpu, "H100-SXM");
    fab.gpus_per_node = 8;
    fab.intra_link = CF_INTRA_NVSWITCH_NVLINK4;
    fab.network = CF_NET_NONE;
    cf_layout_init(&lay);
    lay.dp = 8;
    lay.zero = 3;
    lay.recompute = CF_RECOMPUTE_FULL;
    w.framework = CF_FW_MEGATRON;
    assert_int_equal(cf_step_predict(&w, &fab, 1, &lay, &rm, &err), CF_OK);
    w.framework = CF_FW_FSDP;
    assert_int_equal(cf_step_predict(&w, &fab, 1, &lay, &rf, &err), CF_OK);
    /* Compute holds the GEMMs and attention (scaled) and the element-wise
     * work and optimizer step (not): the ratio is below r, well above 1. */
    assert_true(rf.breakdown.compute_s > rm.breakdown.compute_s * 1.2);
    assert_true(rf.breakdown.compute_s < rm.breakdown.compute_s * r);
    /* MFU = TFLOP/s per GPU / 989: both against the vendor's peak. */
    assert_float_equal(rm.mfu, rm.tflops_per_gpu / 989.0, 1e-3);
    assert_float_equal(rf.mfu, rf.tflops_per_gpu / 989.0, 1e-3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cells),
        cmocka_unit_test(step_scales_compute),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
