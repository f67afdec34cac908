/* table.h — terminal tables for every command that prints one (list,
 * providers, plan, scale, validate...).
 *
 * A table is built column by column, then row by row, and printed either
 * fitted to a width (default: TABLE_WIDTH = 80 columns) or whole (--wide).
 * Fitting: the columns not marked TABLE_WIDE_ONLY are kept; if they are too
 * wide together, TABLE_SHRINK columns are narrowed (the widest first, down to
 * their minimum, never below their header's width: a header is never cut;
 * cut cells end in "…"), and if that is not enough, columns
 * with a drop rank are left out, highest rank first. A cell never set (or set
 * to NULL) prints as "unknown", the catalog's word for a missing fact. Widths
 * count UTF-8 characters, not bytes. */
#ifndef CLUSTERFIT_TABLE_H
#define CLUSTERFIT_TABLE_H

#include <stdio.h>

#define TABLE_WIDTH 80

typedef struct table table;

enum { TABLE_LEFT = 0, TABLE_RIGHT = 1 };
enum {
    TABLE_WIDE_ONLY = 1 << 0, /* shown only with --wide */
    TABLE_SHRINK = 1 << 1,    /* may be narrowed down to min_width */
    TABLE_SHRINK_LAST = 1 << 2 /* with TABLE_SHRINK: narrowed only when no column with a
                                  drop rank is left to drop */
};

/* A new, empty table; NULL on ENOMEM. Free with table_free(). */
table *table_new(void);
void table_free(table *t);

/* Adds a column (before any row); `header` is copied and should carry the
 * unit ("Gbit/s", "Price/GPU-h"). drop: 0 = never dropped, else dropped
 * from a fitted table before columns of lower rank. Returns the column's
 * index, or -1 on ENOMEM. */
int table_column(table *t, const char *header, int align, unsigned flags, int min_width, int drop);

/* Starts a row; its cells are "unknown" until set. 0, or -1 on ENOMEM. */
int table_row(table *t);

/* Sets cell `col` of the last row to a copy of `text` (NULL = unknown);
 * table_cellf formats like printf. 0, or -1 on ENOMEM or a bad column. */
int table_cell(table *t, int col, const char *text);
int table_cellf(table *t, int col, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Adds a heading line (e.g. the provider of the rows below it): printed
 * whole across the columns (cut at a fitted width), not counted in the
 * column widths. 0, or -1 on ENOMEM. */
int table_group(table *t, const char *text);

/* 1 when a fitted print at `width` would cut a cell of column `col`. */
int table_cut(const table *t, int width, int col);

/* Prints the table to out: width > 0 fits it into that many columns
 * (dropping TABLE_WIDE_ONLY columns), width 0 prints every column whole.
 * Returns 0, or -1 on a write error or ENOMEM. */
int table_print(const table *t, FILE *out, int width);

/* Number of rows added so far. */
size_t table_rows(const table *t);

#endif
