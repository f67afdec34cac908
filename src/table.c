/* table.c — fixed-width terminal tables (see table.h for the fitting rules).
 * Cells are kept as strings; widths are computed at print time so that the
 * same table prints fitted or --wide. Part of the tool, not the library:
 * plain malloc, output through stdio. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "table.h"

typedef struct column {
    char *header;
    int align;
    unsigned flags;
    int min_width;
    int drop;
} column;

struct table {
    column *cols;
    size_t ncols;
    char **cells;       /* rows × ncols, row-major; NULL = unknown */
    size_t nrows, cap_rows;
    unsigned char *group; /* per row: 1 = a heading line (its text in column 0) */
};

static const char UNKNOWN[] = "unknown";
static const char ELLIPSIS[] = "\xe2\x80\xa6"; /* U+2026 */

table *table_new(void) { return calloc(1, sizeof(table)); }

void table_free(table *t)
{
    if (!t) return;
    for (size_t i = 0; i < t->nrows * t->ncols; i++) free(t->cells[i]);
    for (size_t c = 0; c < t->ncols; c++) free(t->cols[c].header);
    free(t->cells);
    free(t->cols);
    free(t->group);
    free(t);
}

size_t table_rows(const table *t) { return t ? t->nrows : 0; }

int table_column(table *t, const char *header, int align, unsigned flags, int min_width, int drop)
{
    column *p;
    if (!t || t->nrows) return -1;
    p = realloc(t->cols, (t->ncols + 1) * sizeof *p);
    if (!p) return -1;
    t->cols = p;
    p[t->ncols].header = strdup(header ? header : "");
    if (!p[t->ncols].header) return -1;
    p[t->ncols].align = align;
    p[t->ncols].flags = flags;
    p[t->ncols].min_width = min_width > 1 ? min_width : 1;
    p[t->ncols].drop = drop;
    return (int)t->ncols++;
}

int table_row(table *t)
{
    if (!t || !t->ncols) return -1;
    if (t->nrows == t->cap_rows) {
        size_t ncap = t->cap_rows ? t->cap_rows * 2 : 32;
        char **p = realloc(t->cells, ncap * t->ncols * sizeof *p);
        unsigned char *g;
        if (!p) return -1;
        t->cells = p;
        g = realloc(t->group, ncap);
        if (!g) return -1;
        t->group = g;
        t->cap_rows = ncap;
    }
    memset(t->cells + t->nrows * t->ncols, 0, t->ncols * sizeof *t->cells);
    t->group[t->nrows] = 0;
    t->nrows++;
    return 0;
}

int table_group(table *t, const char *text)
{
    if (table_row(t) != 0) return -1;
    t->group[t->nrows - 1] = 1;
    return table_cell(t, 0, text ? text : "");
}

int table_cell(table *t, int col, const char *text)
{
    char **cell;
    if (!t || !t->nrows || col < 0 || (size_t)col >= t->ncols) return -1;
    cell = &t->cells[(t->nrows - 1) * t->ncols + (size_t)col];
    free(*cell);
    *cell = NULL;
    if (!text) return 0;
    *cell = strdup(text);
    return *cell ? 0 : -1;
}

int table_cellf(table *t, int col, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return table_cell(t, col, buf);
}

/* Display width: UTF-8 characters (continuation bytes are not counted);
 * control characters (a newline in a note) print as one blank each. */
static int width_of(const char *s)
{
    int w = 0;
    for (; *s; s++)
        if (((unsigned char)*s & 0xc0) != 0x80) w++;
    return w;
}

/* Prints s in exactly w columns: cut with "…" if longer, padded (no
 * trailing blanks after a left-aligned last column). Control characters (a
 * newline in a note) print as blanks. */
static int put_cell(FILE *out, const char *s, int w, int align, int last)
{
    int sw = width_of(s), cut = sw > w, keep = cut ? w - 1 : sw, pad = cut ? 0 : w - sw, n = 0;
    if (align == TABLE_RIGHT)
        for (int i = 0; i < pad; i++) fputc(' ', out);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if ((ch & 0xc0) != 0x80) {
            if (n == keep) break;
            n++;
        }
        fputc(ch < 0x20 ? ' ' : ch, out);
    }
    if (cut) fputs(ELLIPSIS, out);
    if (align == TABLE_LEFT && !last)
        for (int i = 0; i < pad; i++) fputc(' ', out);
    return ferror(out) ? -1 : 0;
}

/* The narrowest a shrinkable column may get: its min_width, and never
 * narrower than its header, so a header is never cut (issue 23: providers
 * printed "Multi-nod…"); a cell may be cut, its column's header names it. */
static int shrink_floor(const table *t, size_t c)
{
    int hw = width_of(t->cols[c].header);
    return hw > t->cols[c].min_width ? hw : t->cols[c].min_width;
}

/* Chooses the columns and their widths. */
static int layout(const table *t, int width, int *w, int *on)
{
    int *natural;
    for (size_t c = 0; c < t->ncols; c++) {
        on[c] = width == 0 || !(t->cols[c].flags & TABLE_WIDE_ONLY);
        w[c] = width_of(t->cols[c].header);
        for (size_t r = 0; r < t->nrows; r++) {
            const char *s = t->cells[r * t->ncols + c];
            int cw;
            if (t->group[r]) continue; /* a heading spans the line */
            cw = width_of(s ? s : UNKNOWN);
            if (cw > w[c]) w[c] = cw;
        }
    }
    if (width == 0) return 0;
    natural = malloc(t->ncols * sizeof *natural);
    if (!natural) return -1;
    memcpy(natural, w, t->ncols * sizeof *natural);
    for (;;) {
        int best = -1, total = 0, shown = 0;
        for (size_t c = 0; c < t->ncols; c++)
            if (on[c]) { total += w[c]; shown++; }
        total += 2 * (shown > 0 ? shown - 1 : 0);
        if (total <= width) break;
        /* Narrow the widest shrinkable column by one, so that wide columns
         * share the cut... */
        int droppable = 0;
        for (size_t c = 0; c < t->ncols; c++) droppable |= on[c] && t->cols[c].drop > 0;
        for (size_t c = 0; c < t->ncols; c++) {
            if (!on[c] || !(t->cols[c].flags & TABLE_SHRINK) || w[c] <= shrink_floor(t, c)) continue;
            if ((t->cols[c].flags & TABLE_SHRINK_LAST) && droppable) continue;
            if (best < 0 || w[c] > w[best]) best = (int)c;
        }
        if (best >= 0) {
            w[best]--;
            continue;
        }
        /* ...and when that is not enough, drop the column of highest drop
         * rank and start again from the natural widths. */
        for (size_t c = 0; c < t->ncols; c++)
            if (on[c] && t->cols[c].drop > 0 && (best < 0 || t->cols[c].drop > t->cols[best].drop))
                best = (int)c;
        if (best < 0) break; /* nothing left to give: print it too wide */
        on[best] = 0;
        memcpy(w, natural, t->ncols * sizeof *w);
    }
    free(natural);
    return 0;
}

int table_print(const table *t, FILE *out, int width)
{
    int *w, *on, rc = 0;
    if (!t || !t->ncols) return 0;
    w = calloc(t->ncols, sizeof *w);
    on = calloc(t->ncols, sizeof *on);
    if (!w || !on) {
        free(w);
        free(on);
        return -1;
    }
    if (layout(t, width, w, on) != 0) rc = -1;
    for (long r = -1; r < (long)t->nrows && rc == 0; r++) {
        size_t last = 0, first = 1;
        if (r >= 0 && t->group[r]) {
            const char *s = t->cells[(size_t)r * t->ncols];
            int sw = width_of(s);
            rc = put_cell(out, s, width > 0 && sw > width ? width : sw, TABLE_LEFT, 1);
            if (fputc('\n', out) == EOF) rc = -1;
            continue;
        }
        for (size_t c = 0; c < t->ncols; c++)
            if (on[c]) last = c;
        for (size_t c = 0; c < t->ncols && rc == 0; c++) {
            const char *s;
            if (!on[c]) continue;
            s = r < 0 ? t->cols[c].header : t->cells[(size_t)r * t->ncols + c];
            if (!first) fputs("  ", out);
            first = 0;
            rc = put_cell(out, s ? s : UNKNOWN, w[c], t->cols[c].align, c == last);
        }
        if (fputc('\n', out) == EOF) rc = -1;
    }
    free(w);
    free(on);
    return rc;
}

int table_cut(const table *t, int width, int col)
{
    int *w, *on, cut = 0;
    if (!t || col < 0 || (size_t)col >= t->ncols || width <= 0) return 0;
    w = calloc(t->ncols, sizeof *w);
    on = calloc(t->ncols, sizeof *on);
    if (w && on && layout(t, width, w, on) == 0 && on[col])
        for (size_t r = 0; r < t->nrows && !cut; r++) {
            const char *s = t->cells[r * t->ncols + (size_t)col];
            cut = !t->group[r] && width_of(s ? s : UNKNOWN) > w[col];
        }
    free(w);
    free(on);
    return cut;
}
