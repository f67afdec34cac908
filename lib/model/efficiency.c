/* efficiency.c — compute efficiency by framework class and GPU generation
 * (issue 10; docs/model-step.md, "Compute efficiency by framework and GPU").
 *
 * The step model's GEMM roofline and attention efficiency (model/step.c)
 * were fitted once on all training rows together. Published rows split by
 * the framework class and by the GPU generation they ran on: Megatron-class
 * runs (Megatron-LM, NeMo, Megatron-DeepSpeed) on A100 came out above the
 * measured throughput and on H100 below it; PyTorch-native FSDP runs
 * (torchtitan, llm-foundry) on H100 far above it. So the GEMM and attention
 * rate of an LLM step is the roofline's times one factor per (class,
 * generation) cell, each cell's factor the median over the published rows
 * of that cell (constants.def EFF_*; the rows and the medians are listed in
 * docs/model-step.md). Never per row, never per GPU model.
 *
 * A generation is a family of GPU names (the GPU table states no
 * architecture column): Ampere (A100, A10G), Hopper (H100, H200, H800, H20,
 * GH200), Blackwell (B200, B300, GB200, GB300), AMD CDNA2 (MI250X, MI250,
 * MI210), CDNA3 (MI300X, MI300A, MI325X), CDNA4 (MI350X, MI355X), and the
 * rest. Ampere and Hopper have rows of both classes, Blackwell of the
 * Megatron class (Megatron-Bridge's performance tables, FP8); any other
 * cell takes the factor of its class's nearest validated generation
 * (Hopper for FSDP on Blackwell and for CDNA4, Ampere for older or smaller
 * NVIDIA parts), and cf__compute_eff_validated says so, for plan's
 * `assumes:` flag.
 *
 * CDNA3 has its own factor for both classes, AMD_CDNA3_GEMM_EFF_MAX over
 * GEMM_EFF_MAX: not a median
 * of training rows (no AMD training throughput with its layout stated was
 * found) but AMD's own Max-Achievable FLOPs: the best dense BF16 GEMM an
 * MI300X sustains is 708 TFLOP/s, an MI325X 843, against a 1,307 TFLOP/s
 * datasheet peak (the clock drops under dense matrix load), so the
 * roofline's ceiling GEMM_EFF_MAX (fitted on NVIDIA parts) is scaled to
 * AMD's measured one. CDNA2 borrows it (the nearest AMD
 * generation). Every AMD cell stays flagged unvalidated. */
#include <string.h>
#include "clusterfit/hardware.h"
#include "model/model_int.h"

/* The generation a GPU name belongs to. */
typedef enum family {
    FAM_OTHER = 0, FAM_AMPERE, FAM_HOPPER, FAM_BLACKWELL, FAM_CDNA2, FAM_CDNA3, FAM_CDNA4
} family;

static int starts(const char *s, const char *prefix)
{
    return s && strncmp(s, prefix, strlen(prefix)) == 0;
}

/* One generation's names: the prefixes data/gpus.csv's names start with. */
typedef struct fam_names {
    family fam;               /* the generation */
    const char *prefix[6];    /* name prefixes, NULL-terminated */
} fam_names;

/* The generation by name (data/gpus.csv's vocabulary); FAM_OTHER else.
 * CDNA generations from AMD's product pages (MI200 series: CDNA2, MI300
 * series: CDNA3, MI350 series: CDNA4). */
static family family_of(const char *gpu)
{
    static const fam_names t[] = {
        {FAM_AMPERE, {"A100", "A10G", NULL}},
        {FAM_HOPPER, {"H100", "H200", "H800", "H20", "GH200", NULL}},
        {FAM_BLACKWELL, {"B200", "B300", "GB200", "GB300", NULL}},
        {FAM_CDNA2, {"MI250", "MI210", NULL}},
        {FAM_CDNA3, {"MI300", "MI325", NULL}},
        {FAM_CDNA4, {"MI350", "MI355", NULL}},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        for (size_t k = 0; t[i].prefix[k]; k++)
            if (starts(gpu, t[i].prefix[k])) return t[i].fam;
    return FAM_OTHER;
}

const char *cf__gpu_generation(const char *gpu)
{
    static const char *const names[] = {"other", "ampere", "hopper", "blackwell", "cdna2",
                                        "cdna3", "cdna4"};
    return names[family_of(gpu)];
}

/* The cell a GPU's factor is read from for class c: its own generation's,
 * or the nearest one with a factor (Hopper for FSDP-class runs on
 * Blackwell and for CDNA4 and unnamed AMD parts, CDNA3 for CDNA2, Ampere
 * for older or smaller NVIDIA parts: V100, T4, L4, L40S, RTX). CDNA4
 * borrows Hopper's, not CDNA3's: AMD publishes no Max-Achievable FLOPs for
 * it, and its own MI355X-vs-B200 training ratios (1.0-1.16 per GPU, ROCm
 * blog "Optimizing LLM Workloads: AMD Instinct MI355X GPUs Drive
 * Competitive Performance", 2025-12-02) sit near what Hopper's factor
 * gives (1.12), far from CDNA3's (0.74). */
static family factor_family(const char *gpu, const char *vendor, cf_framework c)
{
    family f = family_of(gpu);
    if (f == FAM_BLACKWELL) return c == CF_FW_FSDP ? FAM_HOPPER : FAM_BLACKWELL;
    if (f == FAM_CDNA2) return FAM_CDNA3;
    if (f == FAM_CDNA4) return FAM_HOPPER;
    if (f != FAM_OTHER) return f;
    if (vendor && strcmp(vendor, "AMD") == 0) return FAM_HOPPER;
    return FAM_AMPERE;
}

double cf__compute_eff(const cf_gpu_spec *g, cf_framework fw, int zero)
{
    cf_framework c = cf_framework_resolve(fw, zero);
    family f = factor_family(g ? g->name : NULL, g ? g->vendor : NULL, c);
    if (f == FAM_CDNA3) return CF_K(AMD_CDNA3_GEMM_EFF_MAX) / CF_K(GEMM_EFF_MAX);
    if (c == CF_FW_FSDP) return f == FAM_HOPPER ? CF_K(EFF_FSDP_HOPPER) : CF_K(EFF_FSDP_AMPERE);
    return f == FAM_BLACKWELL ? CF_K(EFF_MEGATRON_BLACKWELL)
         : f == FAM_HOPPER ? CF_K(EFF_MEGATRON_HOPPER) : CF_K(EFF_MEGATRON_AMPERE);
}

int cf__compute_eff_validated(const char *gpu, cf_framework fw, int zero)
{
    /* Rows stand behind both classes on Ampere and Hopper, and behind the
     * Megatron class on Blackwell (Megatron-Bridge's tables); none else:
     * CDNA3's factor is AMD's GEMM ceiling, not a training row. */
    family f = family_of(gpu);
    if (f == FAM_BLACKWELL) return cf_framework_resolve(fw, zero) == CF_FW_MEGATRON;
    return f == FAM_AMPERE || f == FAM_HOPPER;
}
