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
    int size_class;         /* CF_VSIZE_* of the row's message_bytes (collectives); -1 training */
    cf_network network;     /* the row's network (collectives; CF_NET_NONE on one node);
                               CF_NET_UNKNOWN for training */
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

#endif
