/* validate.h — the model against published measurements (DESIGN §4.4).
 *
 * `clusterfit validate collectives|training FILE.csv` reads a file of
 * measurements by header name (unknown columns ignored), predicts every
 * row, and reports per row id, metric, predicted, measured and APE %, the
 * median APE (overall, and for collectives single-node and multi-node), and
 * the rows skipped with their reasons. Both kinds fill one result type,
 * cf_validation. */
#ifndef CLUSTERFIT_VALIDATE_H
#define CLUSTERFIT_VALIDATE_H

#include <stddef.h>
#include <stdint.h>
#include <jansson.h>
#include "status.h"
#include "vocab.h"

struct cf_workload;

/* Size classes of a collectives row (median_ape_pct_by_size): small up to
 * CF_VALIDATION_SMALL_MAX_BYTES (64 KiB: where latency dominates), mid up to
 * CF_VALIDATION_MID_MAX_BYTES (64 MiB: pipeline fill, protocol switches),
 * large above (bandwidth-bound). Bytes are nccl-tests' size column. */
#define CF_VALIDATION_SMALL_MAX_BYTES (64ULL << 10)
#define CF_VALIDATION_MID_MAX_BYTES (64ULL << 20)
enum { CF_VSIZE_SMALL = 0, CF_VSIZE_MID, CF_VSIZE_LARGE, CF_VSIZE__COUNT };

/* One predicted row. ape_pct = |predicted - measured| / measured x 100. */
typedef struct cf_validation_row {
    char *id;               /* the row's id column */
    char *metric;           /* "time_us" or "busbw_GBps" for collectives (time_us when the
                               row states a measured time); the row's metric for training */
    double predicted, measured, ape_pct;    /* in the metric's unit; APE in % */
    int multi_node;         /* 1 if the row's nodes > 1 */
    char *note;             /* the algorithm chosen (collectives), the recompute
                               assumed (training), or NULL */
    int size_class;         /* CF_VSIZE_* of the row's message_bytes (collectives); -1 training;
                               -2 serving (validate serving) */
    cf_network network;     /* the row's network (collectives; CF_NET_NONE on one node);
                               CF_NET_UNKNOWN for training */
    char *source;           /* the row's source document: its `source` cell cut to the
                               document (cf_validation_source_key); "" when not stated */
    /* The classes errors are reported by (training rows; collectives leave
     * them 0 / NULL): */
    int moe;                /* 1: a Mixture-of-Experts row */
    const char *framework;  /* "megatron" or "fsdp" (the class its efficiency is); serving
                               rows: "prefill" or "decode"; static */
    const char *generation; /* "ampere", "hopper", "blackwell", "cdna3", ... (the GPU
                               generation, model/efficiency.c); static */
    long seq;               /* the row's sequence length, tokens */
    double time_ratio;      /* measured time / predicted time of the row's work (> 1: the
                               model was too fast): predicted/measured for a throughput
                               metric, measured/predicted for a time metric */
} cf_validation_row;

/* One row the model was not asked to predict, and why. */
typedef struct cf_validation_skip {
    char *id;
    char *reason;           /* "nodes not stated", ... */
} cf_validation_skip;

/* A validation result. Every string and array belongs to it:
 * cf_validation_clear() frees them. */
typedef struct cf_validation {
    cf_validation_row *rows;            /* n_rows predicted rows, file order */
    size_t n_rows;
    cf_validation_skip *skipped;        /* n_skipped skipped rows, file order */
    size_t n_skipped;
    double median_ape_pct;              /* NAN when no row was predicted */
    double median_ape_pct_single_node;  /* collectives only; NAN otherwise or if none */
    double median_ape_pct_multi_node;
    int by_node_count;                  /* 1: the two medians above apply (collectives) */
    /* Collectives only (by_node_count 1), NAN where no row falls in the
     * class: the median APE per size class (CF_VSIZE_*) and per network
     * (index = cf_network value; none = single-node rows). */
    double median_ape_pct_by_size[CF_VSIZE__COUNT];
    double median_ape_pct_by_network[CF_NET__COUNT];
} cf_validation;

/* Validates the collective model against a file of nccl-tests results.
 * - inputs: path of a CSV (at most CF_MAX_VALIDATION_BYTES and
 *   CF_MAX_VALIDATION_ROWS rows) with columns id, gpu, gpus_per_node,
 *   nodes, intra_link, network, nics_per_node, nic_gbps, gdr, collective,
 *   algo, message_bytes, busbw_GBps and the optional time_us (measured
 *   microseconds; others ignored). Blank message_bytes =
 *   8 GiB; blank gdr = unknown; a blank nodes, or a blank network/nics/
 *   nic_gbps on a multi-node row, skips the row with that reason
 * - computes: cf_collective_predict per row, against time_us where the row
 *   states one (small messages print busbw 0.00), else against busbw_GBps;
 *   each row's metric names which
 * - output: *out: rows, skips, medians overall, by node count, by size class
 *   and by network (by_node_count 1)
 * - errors: CF_EIO (unreadable), CF_ELIMIT (over the caps above),
 *   CF_EPARSE with err at FILE:LINE:COLUMN (column = 1-based field number;
 *   the message names the header and what was expected) for a malformed
 *   file; CF_ENOMEM
 * - ownership: *out must be zero-initialised or cleared (its old contents
 *   are not kept); on success the caller frees what it holds with
 *   cf_validation_clear(); on failure it is empty. err->file points to path */
CF_API cf_status cf_validate_collectives(const char *path, cf_validation *out, cf_error *err);

/* Validates the step model against a file of published training runs.
 * - inputs: path of a CSV, caps as cf_validate_collectives, with columns
 *   id, model, layers, hidden, ffn_hidden, heads, seq, vocab,
 *   global_batch_seqs, tp, pp, dp, gpu, gpus_per_node, nodes, network,
 *   nics_per_node, nic_gbps, metric, value (required) and params_b,
 *   kv_heads, micro_batch, vp, cp, zero, precision, intra_link, recompute;
 *   blank cells take the defaults of DESIGN §4.4 (micro_batch 1, vp 1, zero
 *   0, bf16, recompute unknown); a row without nodes, without a fabric on
 *   several nodes, with a layout that does not match its GPU count or an
 *   unknown GPU is skipped with the reason
 * - computes: cf_step_predict per row (an unknown recompute: the cheapest
 *   that fits in memory), against the row's metric
 * - output: *out: rows, skips, the median (by_node_count 0)
 * - errors, ownership: as cf_validate_collectives (a required column
 *   absent: CF_EPARSE at line 1) */
CF_API cf_status cf_validate_training(const char *path, cf_validation *out, cf_error *err);

/* Empties a validation result (_clear, status.h).
 * - output: rows and skips freed; n_rows, n_skipped, by_node_count 0; NAN
 *   medians
 * - ownership: v itself stays the caller's; NULL is a no-op */
CF_API void cf_validation_clear(cf_validation *v);

/* A validation result as JSON (DESIGN §6).
 * - output: {rows:[{id, metric, predicted, measured, ape_pct}],
 *   skipped:[{id, reason}], median_ape_pct[, median_ape_pct_single_node,
 *   median_ape_pct_multi_node, median_ape_pct_by_size: {small, mid, large},
 *   median_ape_pct_by_network: {ib, roce, ...: the networks with rows}]}:
 *   NAN and infinite numbers are null; the node-count, size and network
 *   medians only when v->by_node_count
 * - errors: NULL on ENOMEM
 * - ownership: a new reference (json_decref); v (not NULL) is read only */
CF_API json_t *cf_validation_to_json(const cf_validation *v);

/* ------------------------------------------------------------------ refit
 * Fitting as code (issue 20): every constant constants.def marks "fitted"
 * is produced by cf_refit from named validation files, and --cv source
 * tells the error on sources a fit never saw.
 *
 * A validation set is the files, read once into memory; each file is a
 * collectives file when its header names a `collective` column, else a
 * training file. */
typedef struct cf_validation_set cf_validation_set;

/* Reads n files (each as cf_validate_*: CF_MAX_VALIDATION_BYTES).
 * - errors: CF_EIO, CF_ELIMIT with the path in err; CF_EINVAL for n 0 or
 *   over CF_MAX_VALIDATION_FILES; CF_ENOMEM
 * - ownership: *out is the caller's, freed by cf_validation_set_free */
CF_API cf_status cf_validation_set_load(const char *const *paths, size_t n,
                                        cf_validation_set **out, cf_error *err);
CF_API void cf_validation_set_free(cf_validation_set *set);

/* Every row of every file of `set` at the process's current constants,
 * file after file, into *out (medians as cf_validate_training's: over
 * every row; the by-class medians are cf_validation_by_class's).
 * Errors and ownership as cf_validate_collectives (err names the file). */
CF_API cf_status cf_validation_set_run(const cf_validation_set *set, cf_validation *out,
                                       cf_error *err);

/* One fitted constant. */
typedef struct cf_refit_constant {
    const char *name;       /* its id in constants.def; static */
    const char *unit;       /* constants.def's unit; static */
    double start, lo, hi, step; /* the search: from start over [lo, hi] in steps */
    double value;           /* the fitted value */
    double shipped;         /* constants.def's value */
    char rows[64];          /* which rows it is fitted on, in words ("training dense,
                               megatron, hopper", "collectives ib, large") */
    size_t n_rows;          /* how many of the set's rows that is (the left-out source's
                               excepted) */
    double median_ape_pct;  /* theirs at the fitted value; NAN when none */
} cf_refit_constant;

typedef struct cf_refit_result {
    cf_refit_constant *c;   /* n entries, in the fit's order (model/fitspec.def) */
    size_t n;
    int passes;             /* coordinate-descent passes of the longest group until no
                               constant of it moved */
} cf_refit_result;

/* Fits the fitted constants (model/fitspec.def) to the rows of `set`,
 * leaving out the rows of source `exclude` (a cf_validation_row.source
 * key; NULL: none). Each constant, from its start, takes the grid value
 * of [lo, hi] (its step) that minimises the median |ln(measured time /
 * predicted time)| over its rows (the middle of a flat minimum), in the
 * order of fitspec.def, pass after pass until none moves (at most
 * CF_REFIT_MAX_PASSES), group after group: collectives, dense, MoE. A
 * constant whose rows the set has but `exclude` holds all of keeps its
 * start; one the set has no rows for keeps constants.def's value.
 * - side effect: the process's constants are the fitted ones on return
 *   (CF_K reads them) until cf_refit_restore(); not thread-safe: the tool
 *   calls it, never the server
 * - errors: as cf_validation_set_run; CF_ENOMEM
 * - ownership: *out (zeroed or cleared) freed by cf_refit_clear */
CF_API cf_status cf_refit(const cf_validation_set *set, const char *exclude, cf_refit_result *out,
                          cf_error *err);
CF_API void cf_refit_clear(cf_refit_result *r);
/* Every constant back to constants.def's value. */
CF_API void cf_refit_restore(void);

/* Leave-one-source-out: for each source of the set's rows, cf_refit
 * without it, then predict its rows; `kind` "training" or "collectives"
 * folds only the sources with rows of that kind (NULL: every source).
 * *oos gets every row so predicted
 * (each source's rows, sources in order of first appearance); *in_sample
 * the rows at the constants fitted on every row. The constants are
 * constants.def's again on return. *progress (may be NULL) is called after
 * each source with (done, total, arg).
 * Errors and ownership as cf_validation_set_run (both results). */
CF_API cf_status cf_validate_cv(const cf_validation_set *set, const char *kind,
                                cf_validation *in_sample, cf_validation *oos,
                                void (*progress)(size_t, size_t, void *), void *arg,
                                cf_error *err);

/* The classes error is reported by. */
typedef enum cf_vclass_kind {
    CF_VCLASS_ALL = 0,      /* every row of the kind */
    CF_VCLASS_MODEL,        /* training: dense | moe */
    CF_VCLASS_FRAMEWORK,    /* training: megatron | fsdp */
    CF_VCLASS_GENERATION,   /* training: ampere | hopper | blackwell | ... */
    CF_VCLASS_CONTEXT,      /* training: seq <= 4k | 8k | 16k-32k | > 32k */
    CF_VCLASS_SIZE,         /* collectives: small | mid | large */
    CF_VCLASS_NETWORK,      /* collectives: none (one node) | ib | roce | efa | ... */
    CF_VCLASS__COUNT
} cf_vclass_kind;

/* One class's error: median APE and the quantiles of measured time /
 * predicted time (the interval a prediction of the class carries). */
typedef struct cf_vclass {
    const char *kind;       /* "training" or "collectives"; static */
    const char *by;         /* "all", "model", "framework", ...; static */
    char name[32];          /* the class: "dense", "hopper", "small", "tcpx", ... */
    size_t n_rows;
    size_t n_sources;       /* distinct sources among them */
    double median_ape_pct;  /* NAN when no row */
    double ratio_p10, ratio_p50, ratio_p90;  /* quantiles of time_ratio (linear
                                                interpolation between order statistics) */
    double coverage;        /* fraction of the rows inside the p10-p90 of the class's rows
                               from the other sources (the band out of sample too); NAN
                               when no row has two rows of other sources */
} cf_vclass;

/* The classes of v's rows with at least one row: every training row and
 * every collectives row (by "all"), then each class of each kind above, in
 * that order. *out (cf__malloc'd, freed with cf_vclasses_free) gets *n. */
CF_API cf_status cf_validation_by_class(const cf_validation *v, cf_vclass **out, size_t *n);
CF_API void cf_vclasses_free(cf_vclass *c);

/* A fit as JSON: {constants:[{name, unit, start, lo, hi, step, value,
 * shipped, differs, rows, n_rows, median_ape_pct}], passes, residuals: v as
 * cf_validation_to_json}. New reference; NULL on ENOMEM. */
CF_API json_t *cf_refit_to_json(const cf_refit_result *r, const cf_validation *v);

/* --cv source as JSON: {cv: "source", kind, classes: [{by, class, rows,
 * sources, in_sample_median_ape_pct, median_ape_pct, ratio_p10, ratio_p50,
 * ratio_p90}] (the classes of `kind`: "training" or "collectives"),
 * rows: oos's rows as cf_validation_to_json with their source}. New
 * reference; NULL on ENOMEM. */
CF_API json_t *cf_cv_to_json(const char *kind, const cf_vclass *in, size_t nin,
                             const cf_vclass *oos, size_t noos, const cf_validation *rows);

/* Appends the interval constants (constants.def ERR_*: p10 and p90 of
 * measured/predicted time of the dense and MoE training rows and of the
 * collectives by size class) as computed from the out-of-sample rows
 * `oos` of cf_validate_cv, each rounded to 0.01, to out->c (its shipped
 * value beside; a class without rows keeps it). CF_ENOMEM. */
CF_API cf_status cf_refit_intervals(const cf_validation *oos, cf_refit_result *out);

/* The classes a prediction's interval is read from. */
typedef enum cf_err_class {
    CF_ERRCLASS_DENSE = 0,      /* a dense LLM step (and every other kind: said as assumed) */
    CF_ERRCLASS_MOE,            /* a Mixture-of-Experts step */
    CF_ERRCLASS_COLL_SMALL,     /* a collective of <= 64 KiB */
    CF_ERRCLASS_COLL_MID,       /* ... up to 64 MiB */
    CF_ERRCLASS_COLL_LARGE,     /* ... larger */
    CF_ERRCLASS__COUNT
} cf_err_class;

/* The p10 and p90 of measured time / predicted time of class c out of
 * sample (constants.def ERR_*): a predicted time t lies in [t x p10,
 * t x p90] for 80 % of the rows of sources the fit never saw. Either
 * pointer may be NULL. */
CF_API void cf_error_band(cf_err_class c, double *p10, double *p90);
/* The collectives class of a message of `bytes` (nccl-tests' size). */
CF_API cf_err_class cf_error_class_collective(uint64_t bytes);
/* The p10-p90 band of a predicted busbw (GB/s) of a collective of `bytes`:
 * a slower time is a lower busbw, so *lo = busbw / p90 and *hi = busbw /
 * p10 of the message's collectives class (cf_error_band). The one place
 * predict collective and the audit's expectation take the band from.
 * NaN when busbw is not a positive number. Either pointer may be NULL. */
CF_API void cf_busbw_band(double busbw_GBps, uint64_t bytes, double *lo, double *hi);
/* The class of a workload's step: MoE for an LLM with experts, else
 * dense; *assumed (may be NULL) 1 when the kind has no validation rows of
 * its own (data-parallel, stencil, batch: the dense band is assumed). */
CF_API cf_err_class cf_workload_error_class(const struct cf_workload *w, int *assumed);
/* Sets KEY_p10 and KEY_p90 (v x the class's p10 and p90: v a time) and
 * error_class on object j. Returns 0, or -1 on ENOMEM (j NULL included). */
CF_API int cf_band_json_set(json_t *j, const char *key, double v, cf_err_class c);
/* "dense", "moe", "collective_small", ...; static. */
CF_API const char *cf_error_class_name(cf_err_class c);
/* The default deadline margin of `plan` for workload w, percent: p90 - 1
 * of its class, whole percent (a deadline must hold at the p90 of the
 * model's out-of-sample error). */
CF_API double cf_default_margin_pct(const struct cf_workload *w);

/* The q-quantile (0..1) of n values (sorted in place), linear between
 * order statistics; NAN when n is 0. */
CF_API double cf_quantile(double *vals, size_t n, double q);

#endif
