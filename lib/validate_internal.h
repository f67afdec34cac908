/* validate_internal.h — helpers shared by the validation readers
 * (lib/validate.c for collectives, lib/validate_training.c for training).
 *
 * How a reader is written (cf_validate_collectives is the example):
 *   cf__csv_table t;  cf_validation v = {0};
 *   st = cf__csv_table_load(path, CF_MAX_VALIDATION_BYTES, CF_MAX_VALIDATION_ROWS, &t, err);
 *   int c_id = cf__csv_col(&t, "id");            (-1 when the column is absent)
 *   st = cf__validate_require(&t, path, "id", err);   (CF_EPARSE at line 1 if absent)
 *   for each row r: const char *s = cf__csv_cell(&t, r, c_id); ...
 *     numbers: cf__validate_num(&t, path, r, col, "header", &x, &blank, err)
 *       (CF_EPARSE at FILE:LINE:COLUMN naming the header if not a number)
 *     a row the model cannot predict: cf__validation_skip(&v, id, "reason")
 *     a predicted row: cf__validation_add(&v, id, metric, predicted, measured, multi_node, note)
 *   cf__validation_finish(&v, by_node_count);   (computes the medians)
 *   on error: cf_validation_free(&v); always: cf__csv_table_free(&t).
 * All strings passed in are copied. */
#ifndef CF_VALIDATE_INTERNAL_H
#define CF_VALIDATE_INTERNAL_H

#include "clusterfit/validate.h"
#include "csvtable.h"

cf_status cf__validation_add(cf_validation *v, const char *id, const char *metric,
                             double predicted, double measured, int multi_node,
                             const char *note);
cf_status cf__validation_skip(cf_validation *v, const char *id, const char *reason);

/* Computes the medians; by_node_count = 1 for collectives. CF_ENOMEM. */
cf_status cf__validation_finish(cf_validation *v, int by_node_count);

/* CF_EPARSE (line 1, column past the header) when column `name` is absent. */
cf_status cf__validate_require(const cf__csv_table *t, const char *path, const char *name,
                               cf_error *err);

/* Parses the cell (row, col) as a finite number. *blank = 1 and CF_OK for an
 * empty cell (or an absent column); CF_EPARSE with FILE:LINE:COLUMN naming
 * `header` otherwise. */
cf_status cf__validate_num(const cf__csv_table *t, const char *path, size_t row, int col,
                           const char *header, double *out, int *blank, cf_error *err);

/* The two readers on CSV text already in memory (`len` bytes, `name` in
 * errors) rather than a file: same contract as cf_validate_collectives and
 * cf_validate_training, CF_ELIMIT over CF_MAX_VALIDATION_BYTES. The fuzz
 * harness (tests/fuzz/fuzz_validate.c) parses through these. */
cf_status cf__validate_collectives_text(const char *name, const char *data, size_t len,
                                        cf_validation *out, cf_error *err);
cf_status cf__validate_training_text(const char *name, const char *data, size_t len,
                                     cf_validation *out, cf_error *err);

#endif
