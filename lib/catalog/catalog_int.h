/* catalog_internal.h — what the catalog's three files share: the column
 * table (one entry per column of DESIGN §3, naming the cf_offering member it
 * fills and how a cell is validated), cell validation, and the offering list
 * helpers. catalog_offering.c owns the columns, catalog_import.c the CSV and
 * JSON readers, catalog.c the SQLite file. Not installed. */
#ifndef CLUSTERFIT_CATALOG_INTERNAL_H
#define CLUSTERFIT_CATALOG_INTERNAL_H

#include <stddef.h>
#include "clusterfit/catalog.h"

/* How a column's cell is read, checked and stored. */
typedef enum cf__col_kind {
    CF__COL_ID,        /* char*: slug [a-z0-9][a-z0-9._-]*, required */
    CF__COL_NAME,      /* char*: non-empty text, required */
    CF__COL_TEXT,      /* char*: free text, may be unknown */
    CF__COL_GPU,       /* char*: a GPU of data/gpus.csv (cf_gpu_lookup) */
    CF__COL_INT_POS,   /* long >= 1, -1 unknown */
    CF__COL_INT_NONNEG,/* long >= 0, -1 unknown */
    CF__COL_NUM_POS,   /* double > 0, NAN unknown */
    CF__COL_NUM_NONNEG,/* double >= 0, NAN unknown */
    CF__COL_INTRA,     /* cf_intra_link */
    CF__COL_NET,       /* cf_network */
    CF__COL_CAP,       /* cf_cap */
    CF__COL_SET,       /* unsigned mask + int known flag */
    CF__COL_CURRENCY,  /* char*: ISO 4217, 3 letters, stored upper case */
    CF__COL_LIST,      /* char*: ';'-separated free-form elements (regions) */
    CF__COL_URLS,      /* char*: one or more http(s) URLs, "; "-joined, required */
    CF__COL_DATE       /* char*: YYYY-MM or YYYY-MM-DD, required */
} cf__col_kind;

typedef struct cf__column {
    const char *name;
    cf__col_kind kind;
    size_t off;         /* offsetof the member in cf_offering */
    size_t off_known;   /* sets: offsetof the *_known flag */
    cf_set_kind set;    /* sets: which vocabulary */
    int required;
} cf__column;

extern const cf__column cf__columns[CF_OFFERING_NCOLS];

enum { CF__COL_PRICE_OD_INDEX = 20, CF__COL_PRICE_RES_INDEX = 21, CF__COL_CURRENCY_INDEX = 22,
       CF__COL_AS_OF_INDEX = 28 };

/* Every member unknown, no strings. */
void cf__offering_init(cf_offering *o);

/* Sets column `col` of `o` from the cell text `s` (len bytes, need not be
 * NUL-terminated; surrounding blanks are ignored). Checks UTF-8 and the
 * column's rules. An empty cell is unknown, or an error for required columns.
 * On CF_EPARSE writes "column: expected ..., got \"...\"" into why (size n).
 * CF_ENOMEM when a copy fails. Replaces (and frees) a previous value. */
cf_status cf__offering_set_cell(cf_offering *o, int col, const char *s, size_t len,
                                char *why, size_t n);

/* As cf__offering_set_cell, with `got` (NULL = the cell text, quoted) as the
 * value an error message shows: the JSON reader passes the value as the file
 * wrote it (a number unquoted, an array as an array). */
cf_status cf__offering_set_cell_got(cf_offering *o, int col, const char *s, size_t len,
                                    const char *got, char *why, size_t n);

/* Checks between columns of one row (a price needs a currency) and, when
 * `today` (YYYY-MM-DD) is not NULL, that as_of is not after today. Returns
 * the column at fault and fills why, or -1 when the row is consistent. */
int cf__offering_check_row(const cf_offering *o, const char *today, char *why, size_t n);

/* A number written in decimal ("2.5", "1e3", "-1"; no hex, inf, nan or
 * blanks) into *out. CF_EINVAL otherwise. */
cf_status cf__parse_decimal(const char *s, double *out);

/* 1 when s has the shape of an ISO 4217 code: three ASCII letters. */
int cf__is_currency(const char *s);

/* Sorts l's offerings in the order of `sort` (cf_sort_parse), ties by id.
 * CF_ENOMEM leaves l as it was. */
cf_status cf__offering_sort(cf_offering_list *l, cf_sort sort);

/* Appends a copy-less move of *o to l (o's members then belong to the list);
 * CF_ENOMEM leaves *o untouched. `cap` is the list's allocated size. */
cf_status cf__list_push(cf_offering_list *l, size_t *cap, cf_offering *o);

#endif
