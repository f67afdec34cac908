/* validate.h — the model against published measurements (DESIGN §4.4).
 *
 * `clusterfit validate collectives|training FILE.csv` reads the files of
 * ../shared/data/validation/ by header name (unknown columns ignored), predicts
 * every row, and reports per row id, metric, predicted, measured and APE %,
 * the median APE (overall, and for collectives single-node and multi-node),
 * and the rows skipped with their reasons.
 *
 * The two kinds share one result type and one set of helpers: the reader is
 * lib/csvtable.h (internal: cf__csv_table_load, cf__csv_col, cf__csv_cell),
 * and the result is built with the cf__validation_* helpers declared in
 * lib/validate_internal.h. cf_validate_collectives lives in lib/validate.c;
 * cf_validate_training in lib/validate_training.c (the step model's owner). */
#ifndef CLUSTERFIT_VALIDATE_H
#define CLUSTERFIT_VALIDATE_H

#include <stddef.h>
#include <jansson.h>
#include "status.h"

/* One predicted row. ape_pct = |predicted - measured| / measured x 100. */
typedef struct cf_validation_row {
    char *id;
    char *metric;           /* "busbw_GBps" for collectives; the row's metric for training */
    double predicted, measured, ape_pct;
    int multi_node;         /* 1 if the row's nodes > 1 */
    char *note;             /* the algorithm chosen (collectives), or NULL */
} cf_validation_row;

typedef struct cf_validation_skip {
    char *id;
    char *reason;
} cf_validation_skip;

typedef struct cf_validation {
    cf_validation_row *rows;
    size_t n_rows;
    cf_validation_skip *skipped;
    size_t n_skipped;
    double median_ape_pct;              /* NAN when no row was predicted */
    double median_ape_pct_single_node;  /* collectives only; NAN otherwise or if none */
    double median_ape_pct_multi_node;
    int by_node_count;                  /* 1: the two medians above apply (collectives) */
} cf_validation;

/* Reads a collectives file (columns id, gpu, gpus_per_node, nodes, intra_link,
 * network, nics_per_node, nic_gbps, gdr, collective, algo, message_bytes,
 * busbw_GBps; others ignored) and compares cf_collective_predict with
 * busbw_GBps. Blank message_bytes = 8 GiB; blank gdr = unknown; a blank
 * nodes, or a blank network/nics/nic_gbps on a multi-node row, skips the row
 * with that reason. Errors: CF_EIO (unreadable), CF_ELIMIT (over
 * CF_MAX_VALIDATION_BYTES/ROWS), CF_EPARSE with err at FILE:LINE:COLUMN
 * (column = 1-based field number; the message names the header and what was
 * expected) for a malformed file; CF_ENOMEM. On success the caller frees what
 * *out holds with cf_validation_clear(); on failure *out is empty. */
CF_API cf_status cf_validate_collectives(const char *path, cf_validation *out, cf_error *err);

/* Training rows (DESIGN §4.4), defined in lib/validate_training.c. Same
 * contract as cf_validate_collectives. */
CF_API cf_status cf_validate_training(const char *path, cf_validation *out, cf_error *err);

/* Frees the members of *v (not v itself) and empties it. NULL-safe. */
CF_API void cf_validation_clear(cf_validation *v);

/* {rows:[{id, metric, predicted, measured, ape_pct}], skipped:[{id, reason}],
 * median_ape_pct[, median_ape_pct_single_node, median_ape_pct_multi_node]}
 * (DESIGN §6; NAN medians are null; the node-count medians only when
 * v->by_node_count). New reference; NULL on ENOMEM. */
CF_API json_t *cf_validation_to_json(const cf_validation *v);

#endif
