/* hardware.h — per-GPU specifications from data/gpus.csv (embedded at build
 * time), each row with its source. Every fact about a GPU model lives in
 * that file: vendor figures, the host link, the usual node size and
 * intra-node link, and the device names nvidia-smi / nccl-tests print.
 *
 * Ownership: the table is built once, on first use, and kept read-only for
 * the process; every cf_gpu_spec pointer handed out is borrowed from it and
 * stays valid until exit. Safe to share between threads.
 * Source: data/gpus.csv (source_url and as_of per row), described in
 * docs/catalog-data.md §7. */
#ifndef CLUSTERFIT_HARDWARE_H
#define CLUSTERFIT_HARDWARE_H

#include <stddef.h>
#include "status.h"
#include "vocab.h"

typedef struct cf_gpu_spec {
    const char *name;           /* vocabulary name (DESIGN §2), e.g. "H100-SXM" */
    const char *vendor;         /* "NVIDIA", "AMD" */
    double memory_gb;           /* memory per GPU, vendor GB (10^9 B); NAN when absent */
    double hbm_GBps;            /* memory bandwidth, GB/s; NAN when absent */
    double bf16_tflops, fp16_tflops, fp8_tflops;  /* dense tensor peak, TFLOP/s;
                                                     NAN when absent */
    double nvlink_GBps;         /* NVLink (AMD: Infinity Fabric) per GPU, GB/s, as
                                   the vendor states it (both directions
                                   together: 900 for H100-SXM); 0 = none */
    int pcie_gen;               /* host PCIe generation 3-6; 0 = not stated */
    int host_c2c;               /* 1 = CPU attached by NVLink-C2C (GH200, GB200,
                                   GB300): host staging is cheap when GPUDirect
                                   RDMA is off (the collective model); 0 = PCIe */
    int gpus_per_node;          /* GPUs in the usual node or compute tray: 4 for
                                   GH200 nodes and GB200/GB300 trays, 8 for HGX
                                   boards and the rest (`fit`'s default) */
    cf_intra_link intra_link;   /* the usual intra-node link of this board
                                   (vocab.h), as the audit assumes it when a
                                   log names only the device */
    const char *device_names;   /* substrings of the device names nvidia-smi
                                   and nccl-tests print, '|'-separated ("H100
                                   PCIe|H100-PCIE"); "" = none known */
    const char *source_url, *as_of;
} cf_gpu_spec;

/* Looks up a GPU by vocabulary name.
 * - computes: the row whose `gpu` column equals name
 * - inputs: name, case-insensitive ("h100-sxm"); NULL is not found
 * - output: *out (if out is not NULL) = the row
 * - errors: CF_ENOTFOUND if unknown; CF_ENOMEM if the table could not be
 *   built (a later call retries); CF_EINTERNAL if the embedded
 *   data/gpus.csv is malformed (a build defect)
 * - ownership: *out is borrowed from the table (see above) */
CF_API cf_status cf_gpu_lookup(const char *name, const cf_gpu_spec **out);

/* The memory one GPU offers to a job, in GiB: the figure `fit`, `plan` and
 * `predict step` compare the memory per GPU (runtime reserve included)
 * against.
 *   Computes: the vendor's memory_gb read as 10^9 bytes (DESIGN §2), in GiB
 *             (2^30 B): 80 GB = 74.5 GiB.
 *   Inputs:   gpu, a vocabulary name as for cf_gpu_lookup.
 *   Output:   the GiB.
 *   Errors:   NAN when gpu is NULL or unknown, when the table does not
 *             state the GPU's memory, or the table could not be built. */
CF_API double cf_gpu_usable_gib(const char *gpu);

/* The GPU of a device name as nvidia-smi or nccl-tests print it.
 * - computes: the row one of whose device_names is a substring of `device`
 *   (case-sensitive, as the tools print them), the longest such substring
 *   winning so that "NVIDIA H100 NVL" is H100-NVL, not H100-SXM; on equal
 *   lengths the first row in file order
 * - inputs: device, e.g. "NVIDIA A100-SXM4-40GB", "Tesla T4", "NVIDIA H100
 *   80GB HBM3", "AMD Instinct MI300X"; NULL is not found
 * - output: *out (if out is not NULL) = the row; its name and intra_link
 *   are the vocabulary GPU and usual intra-node link
 * - errors: CF_ENOTFOUND when no device name matches; CF_ENOMEM and
 *   CF_EINTERNAL as cf_gpu_lookup
 * - ownership: *out is borrowed from the table */
CF_API cf_status cf_gpu_from_device_name(const char *device, const cf_gpu_spec **out);

/* The accepted GPU names, for error messages.
 * - output: the names in file order, ", "-joined
 * - errors: "" if the table could not be built
 * - ownership: static storage (the table's) */
CF_API const char *cf_gpu_accepted(void);

/* The GPU name nearest to a misspelt one, for "did you mean" in errors.
 * - computes: the table name at the least case-insensitive edit distance
 *   (Levenshtein: insert, delete, substitute one character) from `name`,
 *   when that distance is at most 3 and under half the name's length;
 *   ties keep file order
 * - output: the name, or NULL (none close enough, name NULL or longer than
 *   63 bytes, the table not built)
 * - ownership: static storage (the table's) */
CF_API const char *cf_gpu_suggest(const char *name);

/* The variants of a GPU part named as people type it ("H100", "a100",
 * "MI300"), for errors that answer with them instead of a misspelling.
 * - computes: the table names that start with `name` (case-insensitive)
 *   and continue with a character that is not a digit ("H100" ->
 *   H100-PCIe, H100-SXM, H100-NVL; "MI300" -> MI300X; "H20" does not take
 *   H200-SXM, "L4" not L40S); none when `name` is itself a table name
 * - output: the number of variants; buf (cap bytes, may be NULL with cap
 *   0) gets them ", "-joined in file order, cut to fit
 * - errors: 0 when name is NULL, empty or longer than 63 bytes, or the
 *   table could not be built
 * - ownership: buf is the caller's */
CF_API size_t cf_gpu_variants(const char *name, char *buf, size_t cap);

/* What an error about an unknown GPU name adds after it: "H100 names a
 * part sold as H100-PCIe, H100-SXM, H100-NVL: give one" when
 * cf_gpu_variants finds more than one, "did you mean H200-SXM?" for one
 * variant or cf_gpu_suggest's nearest name (family before edit distance),
 * else "". Written into buf (cap bytes); returns buf. */
CF_API const char *cf_gpu_unknown_hint(const char *name, char *buf, size_t cap);

/* The precision a GPU computes a workload's precision in: `want` when the
 * table states a tensor peak for it, else BF16, else FP16 (FP8 on an A100
 * runs in BF16; on a V100 or T4, which have neither FP8 nor BF16, in FP16).
 * The step model's peak (lib/model/step.c) and the notes that say so
 * (cf_precision_note) use this one rule. g NULL: want. */
CF_API cf_precision cf_gpu_precision(const cf_gpu_spec *g, cf_precision want);

/* The sentence saying a fallback, into buf (cap bytes): "" when g computes
 * `want` itself (cf_gpu_precision), else "llama3-x trains in FP8, which T4
 * has no tensor cores for (nor BF16): its step is computed at the FP16
 * peak; memory counts the precision the workload states". `name` is the
 * workload's (NULL: "the workload"). Returns buf. */
CF_API const char *cf_precision_note(const cf_gpu_spec *g, cf_precision want, const char *name,
                                     char *buf, size_t cap);

/* The table in file order.
 * - output: cf_gpu_count(): the number of rows; cf_gpu_at(i): row i
 *   (0-based)
 * - errors: 0 / NULL if the table could not be built; NULL for i past the
 *   end
 * - ownership: rows are borrowed from the table (see above) */
CF_API size_t cf_gpu_count(void);
CF_API const cf_gpu_spec *cf_gpu_at(size_t i);

#endif
