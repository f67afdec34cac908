/* base.h — what every folder of libclusterfit borrows (lib/base/): the
 * allocator with failure injection, the embedded files, small string and
 * scanning helpers, the one hash, and the CSV table. Not installed, not part
 * of the public API: symbols are cf__-prefixed and hidden. base/ includes
 * nothing from the folders above it (catalog, model, plan, audit). */
#ifndef CLUSTERFIT_BASE_H
#define CLUSTERFIT_BASE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <jansson.h>
#include "clusterfit/status.h"

/* The library's allocator: malloc/calloc/realloc with failure injection
 * (cf_alloc_fail_after). Every allocation in lib/ goes through these. */
void *cf__malloc(size_t n);
void *cf__calloc(size_t n, size_t size);
void *cf__realloc(void *p, size_t n);
char *cf__strdup(const char *s);
char *cf__strndup(const char *s, size_t n);
void cf__free(void *p);

/* Files embedded at build time (tools/embed.sh): data/ CSV files and
 * data/workloads/ JSON files, by their path relative to the repository root
 * ("data/offerings.csv"). Returns NULL if absent; *len gets the size.
 * The bytes are NUL-terminated (len excludes the NUL). */
const char *cf__embedded_find(const char *path, size_t *len);

typedef struct cf__embedded_file {
    const char *path;
    const unsigned char *data;
    size_t len;
} cf__embedded_file;

/* The whole table, terminated by an entry with path NULL. */
extern const cf__embedded_file cf__embedded_files[];

/* Case-insensitive ASCII comparison. */
int cf__strcasecmp(const char *a, const char *b);

/* Bounded copies (base/str.c), BSD strlcpy without the return value: copy
 * the NUL-terminated `src` (cf__copy) or the n bytes at `src` (cf__copy_n,
 * a range that need not be NUL-terminated) into dst, cut to cap - 1 bytes,
 * and always NUL-terminate dst. cap 0 writes nothing. dst and src must not
 * overlap. */
void cf__copy(char *dst, size_t cap, const char *src);
void cf__copy_n(char *dst, size_t cap, const char *src, size_t n);

/* ---------------------------------------------- scanning (base/scan.c) */

/* Finds needle in s[0..n); NULL if absent. */
const char *cf__find(const char *s, size_t n, const char *needle);
/* 1 if s[0..n) starts with the NUL-terminated prefix. */
int cf__starts(const char *s, size_t n, const char *prefix);
/* cf__starts for a string literal: the length is known at compile time, so
 * the compare is inlined (the hot path of NCCL line recognition). */
#define CF__LIT(s, n, lit) ((n) >= sizeof(lit) - 1 && memcmp((s), (lit), sizeof(lit) - 1) == 0)
/* Skips blanks (space, tab). */
const char *cf__skip_ws(const char *s, const char *end);
/* Next blank-separated token from *p (advanced past it); 0 when none. */
int cf__token(const char **p, const char *end, const char **tok, size_t *tn);
/* Parses a decimal number filling the whole token ("95.74", "-1", "5e-07",
 * "1.2E+03"); a trailing tag "[n]" after an integer ("-1[0]") is ignored.
 * Fast path without strtod (the hot loop parses ~10 numbers per row).
 * Returns 1 on success. */
int cf__num(const char *s, size_t n, double *out);
/* A parsed double as a count: -1 when NaN, negative or beyond 2^40 (no
 * count in these logs comes near it; the cast would be undefined). */
static inline long cf__dtol(double v)
{
    return (v >= 0 && v < 1099511627776.0) ? (long)v : -1;
}
/* Parses an unsigned decimal integer filling the token. Returns 1 on success. */
int cf__uint(const char *s, size_t n, uint64_t *out);
/* base/hash.c: FNV-1a 64-bit hash of s[0..n) (used for host and rank sets). */
uint64_t cf__hash(const char *s, size_t n, uint64_t seed);

/* A set of 64-bit keys (hashes) with a value, open addressing, growing up to
 * a cap of entries; past the cap new keys are counted but not stored. */
typedef struct cf__kv {
    uint64_t key;       /* 0 = empty slot */
    int64_t v[4];
} cf__kv;
typedef struct cf__kvset {
    cf__kv *slots;
    size_t cap, n, max;
    long dropped;
} cf__kvset;
void cf__kvset_init(cf__kvset *s, size_t max);
void cf__kvset_free(cf__kvset *s);
/* Returns the entry for key (created zeroed when new); NULL when full or on
 * ENOMEM (*oom set to 1 on ENOMEM). */
cf__kv *cf__kvset_get(cf__kvset *s, uint64_t key, int *oom);
cf__kv *cf__kvset_find(const cf__kvset *s, uint64_t key);

/* ------------------------------------------- capped buffer (base/buf.c)
 *
 * A growable byte buffer whose cap is fixed at init (curl's dynbuf). The
 * first failure (CF_ELIMIT past the cap, CF_ENOMEM) frees the contents and
 * sticks in `st`: later adds return it at once, so a caller may check once
 * at the end. The contents are NUL-terminated (the NUL is not counted). */
typedef struct cf__buf {
    char *s;            /* the bytes, NUL-terminated; NULL until the first add */
    size_t len;         /* bytes held, without the NUL */
    size_t cap;         /* bytes allocated (len + 1 at least once allocated) */
    size_t max;         /* the cap on len, fixed by cf__buf_init */
    cf_status st;       /* CF_OK, or the first failure */
} cf__buf;

void cf__buf_init(cf__buf *b, size_t cap);
/* Appends n bytes. CF_ELIMIT past the cap, CF_ENOMEM; both free the buffer. */
cf_status cf__buf_add(cf__buf *b, const void *p, size_t n);
/* Appends printf-formatted text; same errors. */
cf_status cf__buf_printf(cf__buf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Hands the contents to the caller (free with cf__free; "" when nothing was
 * added) and empties the buffer; NULL when an add failed. */
char *cf__buf_take(cf__buf *b, size_t *len);
/* Frees the contents; the buffer can be used again (same cap). */
void cf__buf_clear(cf__buf *b);

/* ---------------------------------------------- whole files (base/file.c) */

/* Reads the file at `path` into a NUL-terminated buffer (*out, freed by the
 * caller with cf__free; *len bytes without the NUL). At most `max_bytes`:
 * a larger file is CF_ELIMIT with "file is over the N-byte limit
 * (LIMIT_NAME)" in err. CF_EIO "cannot open: ..." / "cannot read: ..." with
 * the path in err->file; CF_ENOMEM. On failure *out is NULL. */
cf_status cf__read_file(const char *path, size_t max_bytes, const char *limit_name, char **out,
                        size_t *len, cf_error *err);

/* --------------------------------------------------- JSON (base/json.c) */

/* A number, or null when NaN or infinite (jansson refuses those). */
json_t *cf__json_num(double v);
/* A string, or null when s is NULL. */
json_t *cf__json_str(const char *s);
/* json_object_set_new that also takes a NULL object or value (a failed
 * allocation upstream): then it frees v and returns -1; else jansson's
 * result (0 or -1). So `bad |= cf__json_set(o, k, v)` checks a whole
 * document once. */
int cf__json_set(json_t *o, const char *key, json_t *v);
/* How an error message shows a JSON value of the wrong type: 'the string
 * "..."' (cut at 60 bytes on a UTF-8 boundary), "the number 3", "true",
 * "an empty array", "an object", "null". Writes into buf; returns buf. */
const char *cf__json_describe(const json_t *v, char *buf, size_t n);

/* ----------------------------------------- CSV tables (base/csvtable.c)
 *
 * A whole CSV file in memory, read by header name. Shared by the GPU table
 * (model/gpus.c, embedded data/gpus.csv) and the validation readers
 * (model/validate*.c). Parsing is libcsv's; this layer adds the header map,
 * 1-based line numbers per row, and the caps of limits.h. Cells are
 * NUL-terminated strings, "" when empty or when a row is shorter than the
 * header. */

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

/* Reads the file at `path` with cf__read_file (at most `max_bytes`, named
 * `limit_name` in the CF_ELIMIT message) and parses it as above. CF_EIO
 * with err set when it cannot be read. */
cf_status cf__csv_table_load(const char *path, long max_bytes, const char *limit_name,
                             size_t max_rows, cf__csv_table *t, cf_error *err);

/* Index of the column named `name` (case-insensitive), -1 if absent. */
int cf__csv_col(const cf__csv_table *t, const char *name);

/* The cell at (row, col); "" when col < 0. Borrowed. */
const char *cf__csv_cell(const cf__csv_table *t, size_t row, int col);

void cf__csv_table_free(cf__csv_table *t);

#endif
