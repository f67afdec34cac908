/* csvtable.c — a CSV file in memory, read by header name (see base/base.h).
 *
 * libcsv does the quoting; we feed it one physical line at a time so that each
 * row can be given the line where its first field ended (libcsv itself keeps
 * no positions). Every allocation goes through the library allocator, libcsv's
 * own buffer included, so the failure-injection tests reach it. */
#include <csv.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "clusterfit/limits.h"
#include "base/base.h"

typedef struct builder {
    cf__csv_table *t;
    const char *name;
    size_t max_rows;
    long cur_line;          /* line being fed */
    long row_line;          /* line of the current row's first field */
    char **row;             /* fields of the row being read */
    size_t nrow, caprow;
    size_t caprows;         /* allocated rows in t->cells / t->line */
    cf_status st;
    cf_error *err;
} builder;

static char *trimmed_dup(const char *s, size_t len)
{
    while (len && (*s == ' ' || *s == '\t')) { s++; len--; }
    while (len && (s[len - 1] == ' ' || s[len - 1] == '\t' || s[len - 1] == '\r')) len--;
    return cf__strndup(s, len);
}

static void on_field(void *field, size_t len, void *data)
{
    builder *b = data;
    char *f;
    if (b->st != CF_OK) return;
    if (b->nrow == 0) b->row_line = b->cur_line;
    if (len > (size_t)CF_MAX_FIELD_BYTES) {
        cf_error_set(b->err, b->name, b->cur_line, (long)b->nrow + 1,
                     "field longer than %ld bytes", CF_MAX_FIELD_BYTES);
        b->st = CF_ELIMIT;
        return;
    }
    if (field && memchr(field, '\0', len)) {
        /* A C string would end there: "479.98\0junk" read as 479.98. */
        cf_error_set(b->err, b->name, b->cur_line, (long)b->nrow + 1, "field contains a NUL byte");
        b->st = CF_EPARSE;
        return;
    }
    if (b->nrow == b->caprow) {
        size_t cap = b->caprow ? b->caprow * 2 : 16;
        char **r = cf__realloc(b->row, cap * sizeof *r);
        if (!r) { b->st = CF_ENOMEM; return; }
        b->row = r;
        b->caprow = cap;
    }
    f = trimmed_dup(field ? field : "", field ? len : 0);
    if (!f) { b->st = CF_ENOMEM; return; }
    b->row[b->nrow++] = f;
}

static void drop_row(builder *b)
{
    for (size_t i = 0; i < b->nrow; i++) cf__free(b->row[i]);
    b->nrow = 0;
}

static cf_status add_data_row(builder *b)
{
    cf__csv_table *t = b->t;
    size_t nc = t->ncols;
    if (b->nrow > nc) {
        cf_error_set(b->err, b->name, b->row_line, (long)nc + 1,
                     "row has %zu fields, the header has %zu", b->nrow, nc);
        return CF_EPARSE;
    }
    if (t->nrows == b->max_rows) {
        cf_error_set(b->err, b->name, b->row_line, 1, "more than %zu rows", b->max_rows);
        return CF_ELIMIT;
    }
    if (t->nrows == b->caprows) {
        size_t cap = b->caprows ? b->caprows * 2 : 32;
        char **c = cf__realloc(t->cells, cap * nc * sizeof *c);
        long *l;
        if (!c) return CF_ENOMEM;
        t->cells = c;
        l = cf__realloc(t->line, cap * sizeof *l);
        if (!l) return CF_ENOMEM;
        t->line = l;
        b->caprows = cap;
    }
    for (size_t i = 0; i < nc; i++) {
        char *v = i < b->nrow ? b->row[i] : cf__strdup("");
        if (!v) {
            /* cells i.. of this row are not stored: free what was moved */
            for (size_t j = 0; j < i; j++) cf__free(t->cells[t->nrows * nc + j]);
            for (size_t j = i; j < b->nrow; j++) cf__free(b->row[j]);
            b->nrow = 0;
            return CF_ENOMEM;
        }
        t->cells[t->nrows * nc + i] = v;
    }
    t->line[t->nrows] = b->row_line;
    t->nrows++;
    b->nrow = 0;
    return CF_OK;
}

static void on_row(int c, void *data)
{
    builder *b = data;
    (void)c;
    if (b->st != CF_OK) { drop_row(b); return; }
    if (b->t->header == NULL) {
        b->t->header = b->row;
        b->t->ncols = b->nrow;
        b->row = NULL;
        b->nrow = b->caprow = 0;
        return;
    }
    b->st = add_data_row(b);
    if (b->st != CF_OK) drop_row(b);
}

void cf__csv_table_clear(cf__csv_table *t)
{
    if (!t) return;
    for (size_t i = 0; i < t->ncols; i++) cf__free(t->header ? t->header[i] : NULL);
    cf__free(t->header);
    for (size_t i = 0; t->cells && i < t->nrows * t->ncols; i++) cf__free(t->cells[i]);
    cf__free(t->cells);
    cf__free(t->line);
    memset(t, 0, sizeof *t);
}

cf_status cf__csv_table_parse(const char *data, size_t len, const char *name, size_t max_rows,
                              cf__csv_table *t, cf_error *err)
{
    struct csv_parser p;
    builder b;
    size_t pos = 0;
    memset(t, 0, sizeof *t);
    memset(&b, 0, sizeof b);
    b.t = t;
    b.name = name;
    b.max_rows = max_rows;
    b.cur_line = 1;
    b.err = err;
    if (csv_init(&p, CSV_APPEND_NULL) != 0) return CF_ENOMEM;
    csv_set_realloc_func(&p, cf__realloc);
    csv_set_free_func(&p, cf__free);
    while (pos < len && b.st == CF_OK) {
        const char *nl = memchr(data + pos, '\n', len - pos);
        size_t n = nl ? (size_t)(nl - (data + pos)) + 1 : len - pos;
        if (csv_parse(&p, data + pos, n, on_field, on_row, &b) != n) {
            if (b.st == CF_OK) {
                b.st = csv_error(&p) == CSV_ENOMEM ? CF_ENOMEM : CF_EPARSE;
                if (b.st == CF_EPARSE)
                    cf_error_set(err, name, b.cur_line, 0, "CSV: %s", csv_strerror(csv_error(&p)));
            }
            break;
        }
        pos += n;
        b.cur_line++;
    }
    if (b.st == CF_OK && csv_fini(&p, on_field, on_row, &b) != 0 && b.st == CF_OK) {
        b.st = CF_EPARSE;
        cf_error_set(err, name, b.cur_line, 0, "CSV: %s", csv_strerror(csv_error(&p)));
    }
    csv_free(&p);
    drop_row(&b);
    cf__free(b.row);
    if (b.st == CF_OK && t->header == NULL) {
        cf_error_set(err, name, 1, 1, "empty file: a header line is expected");
        b.st = CF_EPARSE;
    }
    if (b.st != CF_OK) cf__csv_table_clear(t);
    return b.st;
}

cf_status cf__csv_table_load(const char *path, long max_bytes, const char *limit_name,
                             size_t max_rows, cf__csv_table *t, cf_error *err)
{
    char *buf = NULL;
    size_t len = 0;
    cf_status st;
    memset(t, 0, sizeof *t);
    st = cf__read_file(path, (size_t)max_bytes, limit_name, &buf, &len, err);
    if (st != CF_OK) return st;
    st = cf__csv_table_parse(buf, len, path, max_rows, t, err);
    cf__free(buf);
    return st;
}

int cf__csv_col(const cf__csv_table *t, const char *name)
{
    for (size_t i = 0; i < t->ncols; i++)
        if (cf__strcasecmp(t->header[i], name) == 0) return (int)i;
    return -1;
}

const char *cf__csv_cell(const cf__csv_table *t, size_t row, int col)
{
    if (col < 0 || (size_t)col >= t->ncols || row >= t->nrows) return "";
    return t->cells[row * t->ncols + (size_t)col];
}
