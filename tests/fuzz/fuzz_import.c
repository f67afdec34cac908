/* fuzz_import.c — the catalog import parser (lib/catalog/import.c) on a
 * buffer, no database: the same bytes as CSV and as JSON through
 * cf_offerings_parse. Every list it accepts is written back out — as CSV
 * through cf_offering_column_text (what `list --format csv` writes) and as
 * JSON through cf_offering_to_json — and parsed again: what the library
 * writes of a valid offering must itself be a valid import of as many rows
 * (abort() otherwise, so libFuzzer keeps the input). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "clusterfit/catalog.h"
#include "clusterfit/limits.h"

typedef struct sbuf { char *p; size_t n, cap; } sbuf;

static void put(sbuf *b, const char *s, size_t n)
{
    if (b->n + n + 1 > b->cap) {
        size_t cap = (b->n + n + 1) * 2;
        char *p = realloc(b->p, cap);
        if (!p) abort();
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = '\0';
}

/* One cell, always quoted, '"' doubled (RFC 4180). */
static void put_cell(sbuf *b, const char *s)
{
    put(b, "\"", 1);
    for (const char *q; (q = strchr(s, '"')) != NULL; s = q + 1) {
        put(b, s, (size_t)(q - s));
        put(b, "\"\"", 2);
    }
    put(b, s, strlen(s));
    put(b, "\"", 1);
}

static void csv_round_trip(const cf_offering_list *l)
{
    static char cell[CF_MAX_FIELD_BYTES * 4];
    sbuf b = {NULL, 0, 0};
    cf_offering_list again;
    cf_error err;
    cf_status st;
    for (int c = 0; c < CF_OFFERING_NCOLS; c++) {
        if (c) put(&b, ",", 1);
        put(&b, cf_offering_column_name(c), strlen(cf_offering_column_name(c)));
    }
    put(&b, "\n", 1);
    for (size_t i = 0; i < l->n; i++) {
        for (int c = 0; c < CF_OFFERING_NCOLS; c++) {
            if (c) put(&b, ",", 1);
            put_cell(&b, cf_offering_column_text(&l->items[i], c, cell, sizeof cell));
        }
        put(&b, "\n", 1);
    }
    st = cf_offerings_parse("round-trip.csv", b.p, b.n, CF_IMPORT_CSV, NULL, &again, &err);
    if (st != CF_OK && st != CF_ENOMEM) {
        fprintf(stderr, "CSV round trip rejected: %s:%ld:%ld: %s\n", err.file ? err.file : "",
                err.line, err.column, err.message);
        abort();
    }
    if (st == CF_OK && again.n != l->n) abort();
    cf_offering_list_clear(&again);
    free(b.p);
}

static void json_round_trip(const cf_offering_list *l)
{
    json_t *arr = json_array();
    char *text;
    cf_offering_list again;
    cf_error err;
    cf_status st;
    if (!arr) return;
    for (size_t i = 0; i < l->n; i++) {
        json_t *o = cf_offering_to_json(&l->items[i]);
        if (!o || json_array_append_new(arr, o) != 0) { json_decref(arr); return; }
    }
    text = json_dumps(arr, 0);
    json_decref(arr);
    if (!text) return;
    st = cf_offerings_parse("round-trip.json", text, strlen(text), CF_IMPORT_JSON, NULL, &again, &err);
    if (st != CF_OK && st != CF_ENOMEM) {
        fprintf(stderr, "JSON round trip rejected: %s:%ld:%ld: %s\n", err.file ? err.file : "",
                err.line, err.column, err.message);
        abort();
    }
    if (st == CF_OK && again.n != l->n) abort();
    cf_offering_list_clear(&again);
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const cf_import_format fmts[] = {CF_IMPORT_CSV, CF_IMPORT_JSON};
    /* an exact-size heap copy: a read past the end is an ASan report */
    char *copy = malloc(size ? size : 1);
    if (!copy) return 0;
    memcpy(copy, data, size);
    for (size_t f = 0; f < 2; f++) {
        cf_offering_list l;
        cf_error err;
        cf_status st = cf_offerings_parse("fuzz", copy, size, fmts[f], NULL, &l, &err);
        if (st == CF_OK) {
            csv_round_trip(&l);
            json_round_trip(&l);
            cf_offering_list_clear(&l);
        } else if (strnlen(err.message, sizeof err.message) == sizeof err.message) {
            abort();    /* the message must be NUL-terminated */
        }
    }
    free(copy);
    return 0;
}
