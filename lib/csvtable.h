/* csvtable.h — a whole CSV file in memory, read by header name (internal).
 *
 * Shared by the GPU table (lib/hardware.c, embedded data/gpus.csv) and the
 * validation readers (lib/validate.c, lib/validate_training.c). Parsing is
 * libcsv's; this layer adds the header map, 1-based line numbers per row,
 * and the caps of limits.h. Cells are NUL-terminated strings, "" when empty
 * or when a row is shorter than the header. */
#ifndef CF_CSVTABLE_H
#define CF_CSVTABLE_H

#include <stddef.h>
#include "clusterfit/status.h"

typedef struct cf__csv_table {
    size_t ncols;       /* header fields */
    char **header;      /* ncols names, surrounding spaces trimmed */
    size_t nrows;       /* data rows (header excluded, blank lines skipped) */
    char **cells;       /* nrows * ncols, row-major; never NULL entries */
    long *line;         /* 1-based line of each row's first field */
} cf__csv_table;

/* Parses `len` bytes of CSV. `name` (borrowed, for errors) is the file name.
 * Rows longer than the header are an error (CF_EPARSE at the extra field's
 * line and column); fields over CF_MAX_FIELD_BYTES or more than `max_rows`
 * rows give CF_ELIMIT. On success the caller frees *t with
 * cf__csv_table_free(); on failure *t is left empty. */
cf_status cf__csv_table_parse(const char *data, size_t len, const char *name, size_t max_rows,
                              cf__csv_table *t, cf_error *err);

/* Reads the file at `path` (at most `max_bytes`, else CF_ELIMIT) and parses
 * it as above. CF_EIO with err set when it cannot be read. */
cf_status cf__csv_table_load(const char *path, long max_bytes, size_t max_rows,
                             cf__csv_table *t, cf_error *err);

/* Index of the column named `name` (case-insensitive), -1 if absent. */
int cf__csv_col(const cf__csv_table *t, const char *name);

/* The cell at (row, col); "" when col < 0. Borrowed. */
const char *cf__csv_cell(const cf__csv_table *t, size_t row, int col);

void cf__csv_table_free(cf__csv_table *t);

#endif
