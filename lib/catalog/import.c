/* import.c — reads offerings from CSV (libcsv) or JSON (jansson) and
 * validates every cell (DESIGN §3) before anything touches the database.
 *
 * CSV: the header row names the columns, in any order; unknown names are an
 * error naming them, missing required ones too. The text is fed to libcsv one
 * physical line at a time so that each record's starting line is known; the
 * COLUMN of an error is the cell's 1-based position in its row (a quoted
 * cell may span lines: its record's first line is reported). Cells go
 * straight into a cf_offering through cf__offering_set_cell, so the first bad
 * cell stops the read. JSON: an array of objects with the same keys (sets and
 * regions as arrays of strings, null = unknown); each value is turned into
 * its CSV text and checked by the same code. Duplicate ids are found after
 * the read by sorting (id, position) pairs, reporting the earliest repeat. */
#include <csv.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "clusterfit/catalog.h"
#include "clusterfit/limits.h"
#include "catalog/catalog_int.h"
#include "base/base.h"

enum { WHY = 400, SHOWN_JSON = 96 };

typedef struct reader {
    const char *name;
    const char *today;      /* YYYY-MM-DD or NULL: as_of after it is an error */
    cf_error *err;
    cf_status st;
    long line;              /* physical line being fed, 1-based */
    long rec_line;          /* first line of the current record */
    int want_start;         /* the next non-empty line starts a record */
    int header_done;
    int map[CF_OFFERING_NCOLS * 2 + 1]; /* file position -> column, -1 unknown */
    int pos[CF_OFFERING_NCOLS];         /* column -> file position, -1 absent */
    int ncells;             /* cells in the header */
    int nf;                 /* cells seen in the current record */
    /* The first bad cell of the current record, reported only once the
     * record is complete: a row with a cell too many or too few is reported
     * as such, not as the shifted cell that happens to fail first. */
    cf_status cell_st;
    long cell_line, cell_col;
    char cell_why[400];
    long extra_line;        /* line of the first cell past the header's count */
    long cell_lines[CF_OFFERING_NCOLS * 2 + 1]; /* start line of each cell of the record */
    int n_unknown;          /* unknown header names so far */
    char unknown_names[512];
    int first_unknown_pos;
    cf_offering cur;
    cf_offering_list *out;
    size_t cap;
    long *lines;            /* record line of each row, for duplicate errors */
    size_t lines_cap;
} reader;

enum { MAX_HEADER_CELLS = CF_OFFERING_NCOLS * 2 + 1 };

static void fail_at(reader *r, cf_status st, long line, long col, const char *fmt, const char *why)
{
    if (r->st != CF_OK) return;
    r->st = st;
    cf_error_set(r->err, r->name, line, col, fmt, why);
}

static void header_cell(reader *r, const char *s, size_t len)
{
    char name[64];
    size_t a = 0, b = len;
    int c, p = r->nf;
    while (a < b && (s[a] == ' ' || s[a] == '\t')) a++;
    while (b > a && (s[b - 1] == ' ' || s[b - 1] == '\t')) b--;
    if (p >= MAX_HEADER_CELLS) {
        fail_at(r, CF_EPARSE, r->rec_line, p + 1, "%s", "too many columns in the header row");
        return;
    }
    if (cf__bad_utf8((const unsigned char *)s + a, b - a, 0) >= 0) {
        fail_at(r, CF_EPARSE, r->rec_line, p + 1, "%s",
                "invalid UTF-8 or a control character in a column name");
        return;
    }
    snprintf(name, sizeof name, "%.*s", (int)(b - a > 60 ? 60 : b - a), s + a);
    c = b - a < sizeof name ? cf_offering_column_index(name) : -1;
    r->map[p] = c;
    if (c >= 0 && r->pos[c] >= 0) {
        char why[WHY];
        snprintf(why, sizeof why, "column \"%s\" appears twice (first as column %d)", name,
                 r->pos[c] + 1);
        fail_at(r, CF_EPARSE, r->rec_line, p + 1, "%s", why);
        return;
    }
    if (c >= 0) {
        r->pos[c] = p;
        return;
    }
    if (r->n_unknown++ == 0) r->first_unknown_pos = p;
    if (r->n_unknown <= 8) {
        size_t used = strlen(r->unknown_names);
        snprintf(r->unknown_names + used, sizeof r->unknown_names - used, "%s\"%s\"",
                 used ? ", " : "", name);
    }
}

static void header_done(reader *r)
{
    char why[WHY + 1200];
    size_t used = 0;
    r->ncells = r->nf;
    if (r->n_unknown) {
        char acc[600] = "";
        for (int c = 0, u = 0; c < CF_OFFERING_NCOLS; c++)
            u += snprintf(acc + u, sizeof acc - (size_t)u, "%s%s", c ? ", " : "", cf__columns[c].name);
        snprintf(why, sizeof why, "unknown column%s %s%s (accepted: %s)", r->n_unknown > 1 ? "s" : "",
                 r->unknown_names, r->n_unknown > 8 ? ", ..." : "", acc);
        fail_at(r, CF_EPARSE, r->rec_line, r->first_unknown_pos + 1, "%s", why);
        return;
    }
    why[0] = '\0';
    for (int c = 0; c < CF_OFFERING_NCOLS; c++) {
        if (!cf__columns[c].required || r->pos[c] >= 0) continue;
        used += (size_t)snprintf(why + used, sizeof why - used, "%s%s", used ? ", " : "",
                                 cf__columns[c].name);
    }
    if (used) {
        char msg[sizeof why + 64];
        snprintf(msg, sizeof msg, "missing required column%s: %s",
                 strchr(why, ',') ? "s" : "", why);
        fail_at(r, CF_EPARSE, r->rec_line, 0, "%s", msg);
        return;
    }
    r->header_done = 1;
}

/* The line a cell starts on: libcsv hands over a cell when it ends, on the
 * physical line being fed; a quoted cell may hold line breaks. */
static long cell_start_line(const reader *r, const char *s, size_t len)
{
    long l = r->line;
    for (size_t i = 0; i < len; i++)
        if (s[i] == '\n') l--;
    return l < r->rec_line ? r->rec_line : l;
}

static void on_cell(void *s, size_t len, void *data)
{
    reader *r = data;
    char why[WHY];
    cf_status st;
    if (r->st != CF_OK) return;
    if (!s) { s = ""; len = 0; }
    if (!r->header_done) {
        header_cell(r, s, len);
        r->nf++;
        return;
    }
    if (r->nf >= r->ncells) {
        if (r->nf == r->ncells) r->extra_line = cell_start_line(r, s, len);
        if (r->nf < 0x7fffffff) r->nf++;
        return;
    }
    r->cell_lines[r->nf] = cell_start_line(r, s, len);
    /* A cell `list --format csv` neutralised for spreadsheets ("'" before a
     * leading = + - @ TAB or CR, OWASP's CSV-injection rule) reads back as
     * written before the quote. */
    if (len >= 2 && ((const char *)s)[0] == '\'' && strchr("=+-@\t\r", ((const char *)s)[1])) {
        s = (char *)s + 1;
        len--;
    }
    if (r->cell_st == CF_OK) {
        st = cf__offering_set_cell(&r->cur, r->map[r->nf], s, len, why, sizeof why);
        if (st == CF_ENOMEM) {
            r->st = CF_ENOMEM;
            return;
        }
        if (st != CF_OK) {
            r->cell_st = st;
            r->cell_line = r->cell_lines[r->nf];
            r->cell_col = r->nf + 1;
            snprintf(r->cell_why, sizeof r->cell_why, "%s", why);
        }
    }
    r->nf++;
}

static void on_record(int c, void *data)
{
    reader *r = data;
    char why[WHY];
    int col;
    (void)c;
    r->want_start = 1;
    if (r->st != CF_OK) return;
    if (!r->header_done) {
        header_done(r);
        r->nf = 0;
        return;
    }
    if (r->nf != r->ncells) {
        char msg[128];
        int more = r->nf > r->ncells;
        snprintf(msg, sizeof msg, "row has %d cell%s, the header has %d%s", r->nf,
                 r->nf == 1 ? "" : "s", r->ncells,
                 more ? " (a separator too many, or a comma inside a cell that is not quoted?)"
                      : "");
        /* Too many: at the first extra cell; too few: at the last cell. */
        fail_at(r, CF_EPARSE, more ? r->extra_line : r->rec_line, more ? r->ncells + 1 : r->nf,
                "%s", msg);
        return;
    }
    r->nf = 0;
    if (r->cell_st != CF_OK) {
        fail_at(r, r->cell_st, r->cell_line, r->cell_col, "%s", r->cell_why);
        return;
    }
    /* A required column present in the header was checked cell by cell. */
    col = cf__offering_check_row(&r->cur, r->today, why, sizeof why);
    if (col >= 0) {
        /* At the column at fault, or at the price that needs the absent currency. */
        int p = r->pos[col];
        if (p < 0 && r->pos[CF__COL_PRICE_OD_INDEX] >= 0 && !isnan(r->cur.price_on_demand_gpu_hr))
            p = r->pos[CF__COL_PRICE_OD_INDEX];
        if (p < 0 && r->pos[CF__COL_PRICE_RES_INDEX] >= 0 && !isnan(r->cur.price_reserved_gpu_hr))
            p = r->pos[CF__COL_PRICE_RES_INDEX];
        if (p < 0) p = r->pos[CF__COL_PRICE_SPOT_INDEX];
        if (p < 0) p = 0; /* not reached: a price in the row is in the header */
        fail_at(r, CF_EPARSE, r->cell_lines[p], p + 1, "%s", why);
        return;
    }
    if ((long)r->out->n >= CF_MAX_IMPORT_ROWS) {
        char msg[128];
        snprintf(msg, sizeof msg, "more than %ld rows (CF_MAX_IMPORT_ROWS)", CF_MAX_IMPORT_ROWS);
        fail_at(r, CF_ELIMIT, r->rec_line, 0, "%s", msg);
        return;
    }
    if (r->out->n == r->lines_cap) {
        size_t ncap = r->lines_cap ? r->lines_cap * 2 : 16;
        long *p = cf__realloc(r->lines, ncap * sizeof *p);
        if (!p) { r->st = CF_ENOMEM; return; }
        r->lines = p;
        r->lines_cap = ncap;
    }
    r->lines[r->out->n] = r->rec_line;
    if (cf__list_push(r->out, &r->cap, &r->cur) != CF_OK) { r->st = CF_ENOMEM; return; }
    cf__offering_init(&r->cur);
}

typedef struct idpos { const char *id; long pos; } idpos;

static int idpos_cmp(const void *a, const void *b)
{
    const idpos *x = a, *y = b;
    int c = strcmp(x->id, y->id);
    return c ? c : (x->pos > y->pos) - (x->pos < y->pos);
}

/* Finds the earliest repeated id; *first and *again get the positions of the
 * first and the repeated occurrence, *id the id. 1 when found, -1 ENOMEM. */
static int find_duplicate(const cf_offering_list *l, const long *pos, long *first, long *again,
                          const char **id)
{
    idpos *v;
    int found = 0;
    if (l->n < 2) return 0;
    v = cf__malloc(l->n * sizeof *v);
    if (!v) return -1;
    for (size_t i = 0; i < l->n; i++) {
        v[i].id = l->items[i].id;
        v[i].pos = pos[i];
    }
    qsort(v, l->n, sizeof *v, idpos_cmp);
    for (size_t i = 1; i < l->n; i++) {
        if (strcmp(v[i].id, v[i - 1].id) != 0) continue;
        if (!found || v[i].pos < *again) {
            /* v[i - 1] is not necessarily the first of a run: walk back. */
            size_t k = i - 1;
            while (k > 0 && strcmp(v[k - 1].id, v[i].id) == 0) k--;
            *first = v[k].pos;
            *again = v[i].pos;
            *id = v[i].id;
            found = 1;
        }
    }
    cf__free(v);
    return found;
}

static cf_status parse_csv(const char *name, const char *data, size_t len, const char *today,
                           cf_offering_list *out, cf_error *err)
{
    struct csv_parser p;
    reader r;
    size_t i = 0;
    int csv_ready = 0;

    memset(&r, 0, sizeof r);
    r.name = name;
    r.today = today;
    r.err = err;
    r.out = out;
    r.want_start = 1;
    for (int c = 0; c < CF_OFFERING_NCOLS; c++) r.pos[c] = -1;
    cf__offering_init(&r.cur);
    if (csv_init(&p, CSV_STRICT | CSV_STRICT_FINI | CSV_EMPTY_IS_NULL) != 0) {
        r.st = CF_ENOMEM;
        goto done;
    }
    csv_ready = 1;
    csv_set_realloc_func(&p, cf__realloc);
    csv_set_free_func(&p, cf__free);
    if (len >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0) i = 3; /* a UTF-8 BOM (Excel) */
    while (i < len && r.st == CF_OK) {
        const char *nl = memchr(data + i, '\n', len - i);
        size_t n = nl ? (size_t)(nl - (data + i)) + 1 : len - i;
        size_t k = 0;
        r.line++;
        while (k < n && (data[i + k] == '\r' || data[i + k] == '\n')) k++;
        if (r.want_start && k < n) {
            r.rec_line = r.line;
            r.want_start = 0;
        }
        if (csv_parse(&p, data + i, n, on_cell, on_record, &r) != n && r.st == CF_OK) {
            if (csv_error(&p) == CSV_EPARSE)
                fail_at(&r, CF_EPARSE, r.line, r.nf + 1, "%s",
                        "malformed CSV: a quote inside an unquoted cell, or text after a "
                        "closing quote");
            else
                r.st = CF_ENOMEM;
        }
        i += n;
    }
    if (r.st == CF_OK && csv_fini(&p, on_cell, on_record, &r) != 0 && r.st == CF_OK) {
        if (csv_error(&p) == CSV_EPARSE)
            fail_at(&r, CF_EPARSE, r.rec_line, r.nf + 1, "%s",
                    "malformed CSV: a quoted cell is not closed before the end of the file");
        else
            r.st = CF_ENOMEM;
    }
    if (r.st == CF_OK && !r.header_done) {
        char acc[600] = "";
        for (int c = 0, u = 0; c < CF_OFFERING_NCOLS; c++)
            u += snprintf(acc + u, sizeof acc - (size_t)u, "%s%s", c ? "," : "", cf__columns[c].name);
        fail_at(&r, CF_EPARSE, 1, 0, "empty file: expected a header row such as %s", acc);
    }
    if (r.st == CF_OK) {
        long first = 0, again = 0;
        const char *id = NULL;
        int d = find_duplicate(out, r.lines, &first, &again, &id);
        if (d < 0) r.st = CF_ENOMEM;
        if (d > 0) {
            char why[WHY];
            snprintf(why, sizeof why, "id: duplicate id \"%s\" (first on line %ld)", id, first);
            fail_at(&r, CF_EPARSE, again, r.pos[0] + 1, "%s", why);
        }
    }
done:
    if (csv_ready) csv_free(&p);
    cf_offering_clear(&r.cur);
    cf__free(r.lines);
    if (r.st == CF_ENOMEM) cf_error_set(err, name, 0, 0, "out of memory");
    return r.st;
}

/* ---- JSON --------------------------------------------------------------- */

/* Where a JSON error is: jansson reports positions only for syntax errors,
 * so a value error is placed by scanning the raw text, which jansson has
 * already accepted as valid JSON. The scan only skips tokens (strings with
 * their escapes, nested brackets, literals) to reach the Nth element of an
 * array or the value of a key in an object; a key written with escapes is
 * decoded by jansson itself (JSON_DECODE_ANY). */
typedef enum jwhere { AT_ELEMENT, AT_KEY, AT_VALUE, AT_ITEM } jwhere;

typedef struct jloc {
    jwhere where;       /* the element itself, a key, its value, or an item of its value */
    const char *key;    /* AT_KEY, AT_VALUE, AT_ITEM */
    size_t item;        /* AT_ITEM: 0-based index in the value's array */
} jloc;

static const char *skip_ws(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')) p++;
    return p;
}

/* p at '"': returns the byte after the closing quote. */
static const char *skip_string(const char *p, const char *end)
{
    for (p++; p < end && *p != '"'; p++)
        if (*p == '\\' && p + 1 < end) p++;
    return p < end ? p + 1 : end;
}

/* p at the start of a value: returns the byte after it. */
static const char *skip_value(const char *p, const char *end)
{
    int depth = 0;
    if (p >= end) return end;
    if (*p == '"') return skip_string(p, end);
    if (*p != '{' && *p != '[') {
        while (p < end && !strchr(",]} \t\r\n", *p)) p++;
        return p;
    }
    while (p < end) {
        if (*p == '"') {
            p = skip_string(p, end);
            continue;
        }
        if (*p == '{' || *p == '[') depth++;
        else if ((*p == '}' || *p == ']') && --depth == 0) return p + 1;
        p++;
    }
    return end;
}

/* p at '[': the start of element k (0-based), or NULL. */
static const char *array_item(const char *p, const char *end, size_t k)
{
    if (p >= end || *p != '[') return NULL;
    p = skip_ws(p + 1, end);
    for (size_t i = 0; p < end && *p != ']'; i++) {
        if (i == k) return p;
        p = skip_ws(skip_value(p, end), end);
        if (p >= end || *p != ',') return NULL;
        p = skip_ws(p + 1, end);
    }
    return NULL;
}

/* 1 when the string token [p, q) (quotes included) reads as `want`. */
static int key_is(const char *p, const char *q, const char *want)
{
    json_t *j;
    int same;
    if (!memchr(p, '\\', (size_t)(q - p)))
        return (size_t)(q - p) == strlen(want) + 2 && memcmp(p + 1, want, strlen(want)) == 0;
    j = json_loadb(p, (size_t)(q - p), JSON_DECODE_ANY, NULL);
    same = json_is_string(j) && strcmp(json_string_value(j), want) == 0;
    json_decref(j);
    return same;
}

/* p at '{': the start of key `want` (*value: of its value), or NULL. */
static const char *object_key(const char *p, const char *end, const char *want, const char **value)
{
    if (p >= end || *p != '{') return NULL;
    p = skip_ws(p + 1, end);
    while (p < end && *p == '"') {
        const char *k = p, *q = skip_string(p, end);
        p = skip_ws(q, end);
        if (p >= end || *p != ':') return NULL;
        p = skip_ws(p + 1, end);
        if (key_is(k, q, want)) {
            *value = p;
            return k;
        }
        p = skip_ws(skip_value(p, end), end);
        if (p >= end || *p != ',') return NULL;
        p = skip_ws(p + 1, end);
    }
    return NULL;
}

/* Line and column (1-based, the column in characters as jansson counts
 * them) of byte `at` of data. */
static void position(const char *data, const char *at, long *line, long *column)
{
    *line = 1;
    *column = 1;
    for (const char *p = data; p < at; p++) {
        if (*p == '\n') {
            (*line)++;
            *column = 1;
        } else if (((unsigned char)*p & 0xc0) != 0x80) {
            (*column)++;
        }
    }
}

/* Position of `loc` in element `element` of the top-level array; 0, 0
 * when the place was not found. An absent key is placed at its object. */
static void locate(const char *data, size_t len, size_t element, const jloc *loc, long *line,
                   long *column)
{
    const char *end = data + len, *p, *value = NULL, *at;
    *line = *column = 0;
    p = skip_ws(data, end);
    at = p = array_item(p, end, element);
    if (p && loc->where != AT_ELEMENT) {
        const char *k = object_key(p, end, loc->key, &value);
        at = loc->where == AT_KEY ? k : value;
        if (k && loc->where == AT_ITEM) at = array_item(value, end, loc->item);
        if (!k) at = p;
    }
    if (at) position(data, at, line, column);
}

/* The position of the value at a path below the document's top value (each
 * step a key of an object, or with key NULL an index of an array): the
 * walk of locate() for any depth. 0, 0 when the path is not found; the
 * deepest step found is used when a later one is missing. */
void cf__json_path_position(const char *data, size_t len, const cf__jstep *steps, size_t n,
                            long *line, long *column)
{
    const char *end = data + len, *p = skip_ws(data, end), *at = p;
    *line = *column = 0;
    for (size_t i = 0; p && i < n; i++) {
        const char *value = NULL;
        if (steps[i].key) {
            if (!object_key(p, end, steps[i].key, &value)) break;
            p = value;
        } else {
            p = array_item(p, end, steps[i].index);
        }
        if (p) at = p;
    }
    if (at && at < end) position(data, at, line, column);
}


/* The CSV text of JSON value v for column c, into a new string (*text), and
 * how an error shows the value (got, size gotn), or a message in why with
 * *item set when an array item is at fault. */
static cf_status json_cell(const json_t *v, int c, char **text, char *got, size_t gotn,
                           long *item, char *why, size_t n)
{
    const cf__column *col = &cf__columns[c];
    int numeric = col->kind == CF__COL_INT_POS || col->kind == CF__COL_INT_NONNEG ||
                  col->kind == CF__COL_NUM_POS || col->kind == CF__COL_NUM_NONNEG;
    int array = col->kind == CF__COL_SET || col->kind == CF__COL_LIST || col->kind == CF__COL_URLS;
    char buf[64], what[96];
    *text = NULL;
    *item = -1;
    got[0] = '\0';
    if (!v || json_is_null(v)) {
        *text = cf__strdup("");
    } else if (numeric) {
        if (json_is_integer(v))
            snprintf(buf, sizeof buf, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
        else if (json_is_real(v))
            snprintf(buf, sizeof buf, "%.17g", json_real_value(v));
        else {
            snprintf(why, n, "%s: expected a number or null, got %s", col->name,
                     cf__json_describe(v, what, sizeof what));
            return CF_EPARSE;
        }
        if (json_is_integer(v)) snprintf(got, gotn, "%s", buf);
        else snprintf(got, gotn, "%.15g", json_real_value(v));
        *text = cf__strdup(buf);
    } else if (json_is_string(v)) {
        if (col->kind == CF__COL_SET || col->kind == CF__COL_LIST) {
            snprintf(why, n, "%s: expected an array of strings or null, got %s", col->name,
                     cf__json_describe(v, what, sizeof what));
            return CF_EPARSE;
        }
        if (json_string_length(v) != strlen(json_string_value(v))) {
            snprintf(why, n, "%s: expected a string without NUL characters (\\u0000)", col->name);
            return CF_EPARSE;
        }
        *text = cf__strndup(json_string_value(v), json_string_length(v));
    } else if (array && json_is_array(v)) {
        size_t i, total = 1, used = 0;
        json_t *e;
        json_array_foreach(v, i, e) {
            if (!json_is_string(e) || strchr(json_string_value(e), ';') ||
                json_string_length(e) != strlen(json_string_value(e))) {
                *item = (long)i;
                snprintf(why, n, "%s: expected an array of strings (without ';'), got %s as item %zu",
                         col->name, cf__json_describe(e, what, sizeof what), i + 1);
                return CF_EPARSE;
            }
            total += json_string_length(e) + 4;
        }
        if (json_array_size(v) == 0) {
            snprintf(why, n, "%s: expected a non-empty array, or null for unknown, got []",
                     col->name);
            return CF_EPARSE;
        }
        /* Messages show the array as written: ["a", "b"] (cut by store). */
        json_array_foreach(v, i, e) {
            size_t u = strlen(got);
            snprintf(got + u, gotn - u, "%s\"%s\"", i ? ", " : "[", json_string_value(e));
        }
        snprintf(got + strlen(got), gotn - strlen(got), "]");
        *text = cf__malloc(total);
        if (*text) {
            used = 0;
            json_array_foreach(v, i, e)
                used += (size_t)snprintf(*text + used, total - used, "%s%s", i ? ";" : "",
                                         json_string_value(e));
        }
    } else {
        snprintf(why, n, "%s: expected %s or null, got %s", col->name,
                 array ? "an array of strings" : "a string", cf__json_describe(v, what, sizeof what));
        return CF_EPARSE;
    }
    return *text ? CF_OK : CF_ENOMEM;
}

/* Reads one object into o. On CF_EPARSE fills why and *loc (where in the
 * object the fault is). */
static cf_status parse_object(const json_t *obj, const char *today, cf_offering *o, jloc *loc,
                              char *why, size_t n)
{
    const char *key;
    json_t *v;
    int col;
    /* The keys `show`, `list --format json` and the API add to a row
     * (origin; age_days, price_age_days and stale, derived from the dates;
     * price_source, provider_rating and provider_facts, which the catalog
     * derives) are read back and ignored, so their output imports as it is. */
    json_object_foreach((json_t *)obj, key, v) {
        if (cf_offering_column_index(key) < 0 && strcmp(key, "origin") != 0 &&
            strcmp(key, "age_days") != 0 && strcmp(key, "price_age_days") != 0 &&
            strcmp(key, "stale") != 0 && strcmp(key, "price_source") != 0 &&
            strcmp(key, "provider_rating") != 0 && strcmp(key, "provider_facts") != 0) {
            snprintf(why, n, "unknown key \"%.60s\" (accepted: the columns of data/offerings.csv, "
                     "and origin, age_days, price_age_days, stale, price_source, provider_rating "
                     "and provider_facts, which are ignored)", key);
            loc->where = AT_KEY;
            loc->key = key;
            return CF_EPARSE;
        }
    }
    for (int c = 0; c < CF_OFFERING_NCOLS; c++) {
        char *text, got[SHOWN_JSON];
        long item;
        const json_t *jv = json_object_get(obj, cf__columns[c].name);
        cf_status st;
        loc->where = AT_VALUE;
        loc->key = cf__columns[c].name;
        if (cf__columns[c].required && (!jv || json_is_null(jv))) {
            snprintf(why, n, "%s: required, got %s", cf__columns[c].name,
                     jv ? "null" : "no such key");
            return CF_EPARSE;
        }
        st = json_cell(jv, c, &text, got, sizeof got, &item, why, n);
        if (st == CF_EPARSE && item >= 0) {
            loc->where = AT_ITEM;
            loc->item = (size_t)item;
        }
        if (st != CF_OK) return st;
        st = cf__offering_set_cell_got(o, c, text, strlen(text), got[0] ? got : NULL, why, n);
        cf__free(text);
        if (st != CF_OK) return st;
    }
    col = cf__offering_check_row(o, today, why, n);
    if (col < 0) return CF_OK;
    /* A price without a currency: at currency when the key is there, else
     * at the price. */
    loc->where = AT_VALUE;
    loc->key = cf__columns[col].name;
    if (col == CF__COL_CURRENCY_INDEX && !json_object_get(obj, loc->key))
        loc->key = cf__columns[!isnan(o->price_on_demand_gpu_hr) ? CF__COL_PRICE_OD_INDEX
                               : !isnan(o->price_reserved_gpu_hr) ? CF__COL_PRICE_RES_INDEX
                                                                  : CF__COL_PRICE_SPOT_INDEX].name;
    return CF_EPARSE;
}

static cf_status parse_json(const char *name, const char *data, size_t len, const char *today,
                            cf_offering_list *out, cf_error *err)
{
    json_error_t jerr;
    json_t *root = json_loadb(data, len, JSON_REJECT_DUPLICATES, &jerr);
    long *pos = NULL, line, column;
    size_t cap = 0, i;
    json_t *obj;
    cf_status st = CF_OK;
    cf_offering o;
    jloc loc;

    cf__offering_init(&o);
    if (!root) {
        if (json_error_code(&jerr) == json_error_out_of_memory) {
            st = CF_ENOMEM;
            goto fail;
        }
        cf_error_set(err, name, jerr.line > 0 ? jerr.line : 1, jerr.column > 0 ? jerr.column : 0,
                     "malformed JSON: %s", jerr.text);
        st = CF_EPARSE;
        goto fail;
    }
    if (!json_is_array(root)) {
        position(data, skip_ws(data, data + len), &line, &column);
        cf_error_set(err, name, line, column, "expected a JSON array of offerings (objects), got %s",
                     json_is_object(root) ? "an object" : "another value");
        st = CF_EPARSE;
        goto fail;
    }
    if ((long)json_array_size(root) > CF_MAX_IMPORT_ROWS) {
        cf_error_set(err, name, 0, 0, "more than %ld offerings (CF_MAX_IMPORT_ROWS)",
                     CF_MAX_IMPORT_ROWS);
        st = CF_ELIMIT;
        goto fail;
    }
    pos = cf__malloc((json_array_size(root) + 1) * sizeof *pos);
    if (!pos) { st = CF_ENOMEM; goto fail; }
    json_array_foreach(root, i, obj) {
        char why[WHY], what[96];
        const char *id;
        memset(&loc, 0, sizeof loc);
        if (!json_is_object(obj)) {
            locate(data, len, i, &loc, &line, &column);
            cf_error_set(err, name, line, column, "offering %zu: expected an object, got %s",
                         i + 1, cf__json_describe(obj, what, sizeof what));
            st = CF_EPARSE;
            goto fail;
        }
        st = parse_object(obj, today, &o, &loc, why, sizeof why);
        if (st == CF_ENOMEM) goto fail;
        if (st != CF_OK) {
            /* The position names the place; the id helps when reading the
             * message without the file. */
            locate(data, len, i, &loc, &line, &column);
            id = json_string_value(json_object_get(obj, "id"));
            if (id)
                cf_error_set(err, name, line, column, "offering %zu (id \"%.60s\"): %s", i + 1, id,
                             why);
            else
                cf_error_set(err, name, line, column, "offering %zu: %s", i + 1, why);
            goto fail;
        }
        pos[out->n] = (long)i + 1;
        if (cf__list_push(out, &cap, &o) != CF_OK) { st = CF_ENOMEM; goto fail; }
        cf__offering_init(&o);
    }
    {
        long first = 0, again = 0;
        const char *id = NULL;
        int d = find_duplicate(out, pos, &first, &again, &id);
        if (d < 0) { st = CF_ENOMEM; goto fail; }
        if (d > 0) {
            loc.where = AT_VALUE;
            loc.key = "id";
            locate(data, len, (size_t)again - 1, &loc, &line, &column);
            cf_error_set(err, name, line, column, "offering %ld: id: duplicate id \"%s\" (first as "
                         "offering %ld)", again, id, first);
            st = CF_EPARSE;
            goto fail;
        }
    }
    cf__free(pos);
    json_decref(root);
    return CF_OK;
fail:
    if (st == CF_ENOMEM) cf_error_set(err, name, 0, 0, "out of memory");
    cf_offering_clear(&o);
    cf__free(pos);
    json_decref(root);
    return st;
}

cf_status cf_offerings_parse(const char *name, const char *data, size_t len, cf_import_format fmt,
                             const cf_import_opts *opts, cf_offering_list *out, cf_error *err)
{
    cf_status st;
    const char *today = opts ? opts->today : NULL;
    int y, m, d;
    if (!out) return CF_EINVAL;
    out->items = NULL;
    out->n = 0;
    cf_error_clear(err);
    if (!data && len) return CF_EINVAL;
    if (today && (cf__date_parse(today, &y, &m, &d) != 0 || d == 0)) {
        cf_error_set(err, NULL, 0, 0, "today: expected a date YYYY-MM-DD, got \"%.40s\"", today);
        return CF_EINVAL;
    }
    if (!data) data = "";
    if (len > (size_t)CF_MAX_IMPORT_BYTES) {
        cf_error_set(err, name, 0, 0, "file of %zu bytes is over the %ld-byte limit "
                     "(CF_MAX_IMPORT_BYTES)", len, CF_MAX_IMPORT_BYTES);
        return CF_ELIMIT;
    }
    st = fmt == CF_IMPORT_JSON ? parse_json(name, data, len, today, out, err)
                               : parse_csv(name, data, len, today, out, err);
    if (st != CF_OK) cf_offering_list_clear(out);
    return st;
}
