/* hardware.h — per-GPU specifications from data/gpus.csv (embedded at build
 * time), each row with its source. Loaded once, read-only afterwards, safe to
 * share between threads. */
#ifndef CLUSTERFIT_HARDWARE_H
#define CLUSTERFIT_HARDWARE_H

#include <stddef.h>
#include "status.h"

typedef struct cf_gpu_spec {
    const char *name;           /* vocabulary name, e.g. "H100-SXM" */
    const char *vendor;
    double memory_gb;           /* vendor GB */
    double hbm_GBps;
    double bf16_tflops, fp16_tflops, fp8_tflops;  /* dense; NAN when absent */
    double nvlink_GBps;         /* per GPU, as the vendor states (both directions
                                   together: 900 for H100-SXM); 0 = none */
    int pcie_gen;
    /* Added by the hardware module: */
    int host_c2c;               /* 1 = CPU attached by NVLink-C2C (GH200, GB200,
                                   GB300): host staging is cheap when GPUDirect
                                   RDMA is off (lib/collective.c) */
    const char *source_url, *as_of;
} cf_gpu_spec;

/* Looks up a GPU by name (case-insensitive). *out is borrowed from the
 * library's table and stays valid for the process. CF_ENOTFOUND if unknown;
 * CF_ENOMEM if the table could not be built (a later call retries);
 * CF_EINTERNAL if the embedded data/gpus.csv is malformed (a build defect). */
CF_API cf_status cf_gpu_lookup(const char *name, const cf_gpu_spec **out);

/* The accepted GPU names, ", "-joined, for error messages. Static storage;
 * "" if the table could not be built. */
CF_API const char *cf_gpu_accepted(void);

/* Number of GPUs in the table and the i-th (0-based, file order); NULL past
 * the end or if the table could not be built. Borrowed, process lifetime. */
CF_API size_t cf_gpu_count(void);
CF_API const cf_gpu_spec *cf_gpu_at(size_t i);

#endif
