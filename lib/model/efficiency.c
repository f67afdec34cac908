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
 * GH200), Blackwell (B200, B300, GB200, GB300), and the rest. Ampere and
 * Hopper have rows of both classes, Blackwell of the Megatron class
 * (Megatron-Bridge's performance tables, FP8); any other cell takes the
 * factor of its class's nearest validated generation (Hopper for AMD
 * Instinct and FSDP on Blackwell, Ampere for older or smaller NVIDIA
 * parts), and cf__compute_eff_validated says so, for plan's `assumes:`
 * flag. */
#include <string.h>
#include "clusterfit/hardware.h"
#include "model/model_int.h"

/* The generation a GPU name belongs to. */
typedef enum family { FAM_OTHER = 0, FAM_AMPERE, FAM_HOPPER, FAM_BLACKWELL } family;

static int starts(const char *s, const char *prefix)
{
    return s && strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Ampere and Hopper by name (data/gpus.csv's vocabulary); FAM_OTHER else. */
static family family_of(const char *gpu)
{
    static const char *const ampere[] = {"A100", "A10G", NULL};
    static const char *const hopper[] = {"H100", "H200", "H800", "H20", "GH200", NULL};
    static const char *const blackwell[] = {"B200", "B300", "GB200", "GB300", NULL};
    for (size_t i = 0; ampere[i]; i++)
        if (starts(gpu, ampere[i])) return FAM_AMPERE;
    for (size_t i = 0; hopper[i]; i++)
        if (starts(gpu, hopper[i])) return FAM_HOPPER;
    for (size_t i = 0; blackwell[i]; i++)
        if (starts(gpu, blackwell[i])) return FAM_BLACKWELL;
    return FAM_OTHER;
}

/* The validated cell a GPU's factor is read from for class c: its own
 * generation's, or the nearest validated one (Hopper for every AMD part
 * and for FSDP-class runs on Blackwell, Ampere for older or smaller NVIDIA
 * parts: V100, T4, L4, L40S, RTX). */
static family factor_family(const char *gpu, const char *vendor, cf_framework c)
{
    family f = family_of(gpu);
    if (f == FAM_BLACKWELL) return c == CF_FW_FSDP ? FAM_HOPPER : FAM_BLACKWELL;
    if (f != FAM_OTHER) return f;
    if (vendor && strcmp(vendor, "AMD") == 0) return FAM_HOPPER;
    return FAM_AMPERE;
}

double cf__compute_eff(const cf_gpu_spec *g, cf_framework fw, int zero)
{
    cf_framework c = cf_framework_resolve(fw, zero);
    family f = factor_family(g ? g->name : NULL, g ? g->vendor : NULL, c);
    if (c == CF_FW_FSDP) return f == FAM_HOPPER ? CF_K(EFF_FSDP_HOPPER) : CF_K(EFF_FSDP_AMPERE);
    return f == FAM_BLACKWELL ? CF_K(EFF_MEGATRON_BLACKWELL)
         : f == FAM_HOPPER ? CF_K(EFF_MEGATRON_HOPPER) : CF_K(EFF_MEGATRON_AMPERE);
}

int cf__compute_eff_validated(const char *gpu, cf_framework fw, int zero)
{
    /* Rows stand behind both classes on Ampere and Hopper, and behind the
     * Megatron class on Blackwell (Megatron-Bridge's tables); none else. */
    family f = family_of(gpu);
    if (f == FAM_BLACKWELL) return cf_framework_resolve(fw, zero) == CF_FW_MEGATRON;
    return f != FAM_OTHER;
}
