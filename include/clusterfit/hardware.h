/* hardware.h — per-GPU specifications from data/gpus.csv (embedded at build
 * time), each row with its source. Loaded once, read-only afterwards, safe to
 * share between threads. */
#ifndef CLUSTERFIT_HARDWARE_H
#define CLUSTERFIT_HARDWARE_H

#include "status.h"

typedef struct cf_gpu_spec {
    const char *name;           /* vocabulary name, e.g. "H100-SXM" */
    const char *vendor;
    double memory_gb;           /* vendor GB */
    double hbm_GBps;
    double bf16_tflops, fp16_tflops, fp8_tflops;  /* dense; NAN when absent */
    double nvlink_GBps;         /* per GPU, as the vendor states; 0 = none */
    int pcie_gen;
} cf_gpu_spec;

/* Looks up a GPU by name (case-insensitive). *out is borrowed from the
 * library's table and stays valid for the process. CF_ENOTFOUND if unknown. */
CF_API cf_status cf_gpu_lookup(const char *name, const cf_gpu_spec **out);

/* The accepted GPU names, ", "-joined, for error messages. Static storage. */
CF_API const char *cf_gpu_accepted(void);

#endif
