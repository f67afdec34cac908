/* catalog_import.c — reads offerings from CSV (libcsv) or JSON (jansson) and
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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "clusterfit/catalog.h"
#include "clusterfit/limits.h"
#include "catalog_internal.h"
#include "internal.h"

enum { WHY = 400 };

typedef struct reader {
    const char *name;
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
        char msg[128];
        snprintf(msg, sizeof msg, "row has more cells than the header's %d", r->ncells);
        fail_at(r, CF_EPARSE, r->rec_line, r->nf + 1, "%s", msg);
        return;
    }
    st = cf__offering_set_cell(&r->cur, r->map[r->nf], s, len, why, sizeof why);
    if (st == CF_ENOMEM) r->st = CF_ENOMEM;
    else if (st != CF_OK) fail_at(r, st, r->rec_line, r->nf + 1, "%s", why);
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
    if (r->nf < r->ncells) {
        char msg[128];
        snprintf(msg, sizeof msg, "row has %d cell%s, the header has %d", r->nf,
                 r->nf == 1 ? "" : "s", r->ncells);
        fail_at(r, CF_EPARSE, r->rec_line, r->nf, "%s", msg);
        return;
    }
    r->nf = 0;
    /* A required column present in the header was checked cell by cell. */
    col = cf__offering_check_row(&r->cur, why, sizeof why);
    if (col >= 0) {
        int p = r->pos[col] >= 0 ? r->pos[col] : r->pos[CF__COL_PRICE_OD_INDEX] >= 0 ? r->pos[CF__COL_PRICE_OD_INDEX] : r->pos[CF__COL_PRICE_RES_INDEX];
        fail_at(r, CF_EPARSE, r->rec_line, p + 1, "%s", why);
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

static cf_status parse_csv(const char *name, const char *data, size_t len, cf_offering_list *out,
                           cf_error *err)
{
    struct csv_parser p;
    reader r;
    size_t i = 0;
    int csv_ready = 0;

    memset(&r, 0, sizeof r);
    r.name = name;
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
    cf_offering_free(&r.cur);
    cf__free(r.lines);
    if (r.st == CF_ENOMEM) cf_error_set(err, name, 0, 0, "out of memory");
    return r.st;
}

/* ---- JSON --------------------------------------------------------------- */

/* The CSV text of JSON value v for column c, into a new string (*text), or a
 * message in why. */
static cf_status json_cell(const json_t *v, int c, char **text, char *why, size_t n)
{
    const cf__column *col = &cf__columns[c];
    int numeric = col->kind == CF__COL_INT_POS || col->kind == CF__COL_INT_NONNEG ||
                  col->kind == CF__COL_NUM_POS || col->kind == CF__COL_NUM_NONNEG;
    int array = col->kind == CF__COL_SET || col->kind == CF__COL_LIST || col->kind == CF__COL_URLS;
    char buf[64];
    *text = NULL;
    if (!v || json_is_null(v)) {
        *text = cf__strdup("");
    } else if (numeric) {
        if (json_is_integer(v))
            snprintf(buf, sizeof buf, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
        else if (json_is_real(v))
            snprintf(buf, sizeof buf, "%.17g", json_real_value(v));
        else {
            snprintf(why, n, "%s: expected a number or null", col->name);
            return CF_EPARSE;
        }
        *text = cf__strdup(buf);
    } else if (json_is_string(v)) {
        const char *s = json_string_value(v);
        if (col->kind == CF__COL_SET || col->kind == CF__COL_LIST) {
            snprintf(why, n, "%s: expected an array of strings or null, got \"%.60s\"", col->name, s);
            return CF_EPARSE;
        }
        *text = cf__strndup(s, json_string_length(v));
    } else if (array && json_is_array(v)) {
        size_t i, total = 1;
        json_t *e;
        json_array_foreach(v, i, e) {
            if (!json_is_string(e) || strchr(json_string_value(e), ';') ||
                json_string_length(e) != strlen(json_string_value(e))) {
                snprintf(why, n, "%s: expected an array of strings without ';'", col->name);
                return CF_EPARSE;
            }
            total += json_string_length(e) + 1;
        }
        if (json_array_size(v) == 0) {
            snprintf(why, n, "%s: expected a non-empty array, or null for unknown", col->name);
            return CF_EPARSE;
        }
        *text = cf__malloc(total);
        if (*text) {
            size_t used = 0;
            json_array_foreach(v, i, e)
                used += (size_t)snprintf(*text + used, total - used, "%s%s", i ? ";" : "",
                                         json_string_value(e));
        }
    } else {
        snprintf(why, n, "%s: expected %s or null", col->name,
                 array ? "an array of strings" : "a string");
        return CF_EPARSE;
    }
    return *text ? CF_OK : CF_ENOMEM;
}

static cf_status parse_object(const json_t *obj, cf_offering *o, char *why, size_t n)
{
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)obj, key, v) {
        if (cf_offering_column_index(key) < 0 && strcmp(key, "origin") != 0) {
            snprintf(why, n, "unknown key \"%.60s\" (accepted: the columns of data/offerings.csv, "
                     "and origin, which is ignored)", key);
            return CF_EPARSE;
        }
    }
    for (int c = 0; c < CF_OFFERING_NCOLS; c++) {
        char *text;
        cf_status st = json_cell(json_object_get(obj, cf__columns[c].name), c, &text, why, n);
        if (st != CF_OK) return st;
        st = cf__offering_set_cell(o, c, text, strlen(text), why, n);
        cf__free(text);
        if (st != CF_OK) return st;
    }
    return cf__offering_check_row(o, why, n) >= 0 ? CF_EPARSE : CF_OK;
}

static cf_status parse_json(const char *name, const char *data, size_t len, cf_offering_list *out,
                            cf_error *err)
{
    json_error_t jerr;
    json_t *root = json_loadb(data, len, JSON_REJECT_DUPLICATES, &jerr);
    long *pos = NULL;
    size_t cap = 0, i;
    json_t *obj;
    cf_status st = CF_OK;
    cf_offering o;

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
        cf_error_set(err, name, 0, 0, "expected a JSON array of offerings (objects)");
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
        char why[WHY];
        const char *id;
        if (!json_is_object(obj)) {
            cf_error_set(err, name, 0, 0, "offering %zu: expected an object", i + 1);
            st = CF_EPARSE;
            goto fail;
        }
        st = parse_object(obj, &o, why, sizeof why);
        if (st == CF_ENOMEM) goto fail;
        if (st != CF_OK) {
            id = json_string_value(json_object_get(obj, "id"));
            if (id)
                cf_error_set(err, name, 0, 0, "offering %zu (id \"%.60s\"): %s", i + 1, id, why);
            else
                cf_error_set(err, name, 0, 0, "offering %zu: %s", i + 1, why);
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
            cf_error_set(err, name, 0, 0, "offering %ld: id: duplicate id \"%s\" (first as "
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
    cf_offering_free(&o);
    cf__free(pos);
    json_decref(root);
    return st;
}

cf_status cf_offerings_parse(const char *name, const char *data, size_t len, cf_import_format fmt,
                             cf_offering_list *out, cf_error *err)
{
    cf_status st;
    if (!out) return CF_EINVAL;
    out->items = NULL;
    out->n = 0;
    cf_error_clear(err);
    if (!data && len) return CF_EINVAL;
    if (!data) data = "";
    if (len > (size_t)CF_MAX_IMPORT_BYTES) {
        cf_error_set(err, name, 0, 0, "file of %zu bytes is over the %ld-byte limit "
                     "(CF_MAX_IMPORT_BYTES)", len, CF_MAX_IMPORT_BYTES);
        return CF_ELIMIT;
    }
    st = fmt == CF_IMPORT_JSON ? parse_json(name, data, len, out, err)
                               : parse_csv(name, data, len, out, err);
    if (st != CF_OK) cf_offering_list_free(out);
    return st;
}
