/* base.h — what every folder of libclusterfit borrows (lib/base/): one
 * section per file of base/, each function with its contract. Not
 * installed, not part of the public API: symbols are cf__-prefixed and
 * hidden. base/ includes only base/ and clusterfit/ headers, nothing from
 * the folders above it (catalog, model, plan, audit). status.c, units.c,
 * vocab.c and date.c also implement public headers (status.h, units.h,
 * vocab.h, date.h); only their internal pieces are declared here. */
#ifndef CLUSTERFIT_BASE_H
#define CLUSTERFIT_BASE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <jansson.h>
#include "clusterfit/status.h"

/* --------------------------------------------- allocator (base/alloc.c)
 *
 * malloc/calloc/realloc with failure injection (cf_alloc_fail_after):
 * every allocation in lib/ goes through these. A size 0 allocates 1 byte,
 * so NULL always means out of memory. */

/* malloc(n); NULL when out of memory or an injected failure. */
void *cf__malloc(size_t n);
/* calloc(n, size); NULL when out of memory or an injected failure. */
void *cf__calloc(size_t n, size_t size);
/* realloc(p, n); NULL (p untouched) when out of memory or injected. */
void *cf__realloc(void *p, size_t n);
/* A copy of s to free with cf__free; NULL when s is NULL or on ENOMEM. */
char *cf__strdup(const char *s);
/* A copy of s[0..n) (stopping at a NUL), NUL-terminated; NULL as above. */
char *cf__strndup(const char *s, size_t n);
/* free(p): what every cf__ allocation is given back with. */
void cf__free(void *p);

/* ------------------------------------------ fault injection (base/fault.c)
 *
 * Test-only (issue 21): fail the Nth call of one kind, once, for the
 * torture runs of tests/torture/. No front end calls these; nothing is
 * armed unless a test does. */
typedef enum cf__fault_kind {
    CF__FAULT_NONE,  /* disarmed */
    CF__FAULT_ALLOC, /* an allocation: the cf__ allocators, SQLite's, jansson's if routed */
    CF__FAULT_WRITE, /* a write to a catalog file or its journal (SQLITE_IOERR_WRITE) */
    CF__FAULT_FSYNC, /* a sync of one of them (SQLITE_IOERR_FSYNC) */
    CF__FAULT_STEP,  /* an SQL statement run (interrupted: SQLITE_INTERRUPT) */
    CF__FAULT_CRASH  /* a write, truncate, sync or delete of a file: SIGKILL just before it */
} cf__fault_kind;

/* Arms the injector: the nth call of `kind` from now on fails (n >= 1);
 * n < 1 or CF__FAULT_NONE disarms. Resets the count of calls. */
void cf__fault_arm(cf__fault_kind kind, long n);
/* As cf__fault_arm, and every call of `kind` after the nth fails too. */
void cf__fault_arm_persistent(cf__fault_kind kind, long n);
/* Counts one call of `kind` at a hook point: 1 when this call is the one
 * to fail, else 0 (always 0 for a kind not armed). */
int cf__fault_now(cf__fault_kind kind);
/* Calls of the armed kind counted since cf__fault_arm. */
long cf__fault_calls(void);
/* 1 when the armed call was reached (the fault was injected). */
int cf__fault_reached(void);

/* ------------------------------------------- embedded files (base/embed.c)
 *
 * Files embedded at build time (tools/embed.sh): data/ CSV files and
 * data/workloads/ JSON files, by their path relative to the repository
 * root ("data/offerings.csv"). The bytes are NUL-terminated (len excludes
 * the NUL) and live as long as the process. */

typedef struct cf__embedded_file {
    const char *path;           /* "data/gpus.csv"; NULL ends the table */
    const unsigned char *data;  /* the file's bytes, NUL-terminated */
    size_t len;                 /* bytes, without the NUL */
} cf__embedded_file;

/* The whole table (generated), terminated by an entry with path NULL. */
extern const cf__embedded_file cf__embedded_files[];

/* The file at `path`, *len (may be NULL) its size; NULL when absent. */
const char *cf__embedded_find(const char *path, size_t *len);

/* ------------------------------------------------- strings (base/str.c) */

/* ASCII case-insensitive strcmp (<0, 0, >0), whatever the locale. */
int cf__strcasecmp(const char *a, const char *b);

/* Bounded copies (base/str.c), BSD strlcpy without the return value: copy
 * the NUL-terminated `src` (cf__copy) or the n bytes at `src` (cf__copy_n,
 * a range that need not be NUL-terminated) into dst, cut to cap - 1 bytes,
 * and always NUL-terminate dst. cap 0 writes nothing. dst and src must not
 * overlap. */
void cf__copy(char *dst, size_t cap, const char *src);
void cf__copy_n(char *dst, size_t cap, const char *src, size_t n);

/* Bytes per GiB (2^30), as a double: memory per GPU is reported in GiB. */
#define CF__GIB (1024.0 * 1024.0 * 1024.0)

/* ---------------------------------------------- scanning (base/scan.c)
 *
 * Scanners over a byte range [s, s + n) that need not be NUL-terminated:
 * the NCCL log and table parsers' hot path. */

/* Finds needle in s[0..n); NULL if absent. */
const char *cf__find(const char *s, size_t n, const char *needle);
/* 1 if s[0..n) starts with the NUL-terminated prefix. */
int cf__starts(const char *s, size_t n, const char *prefix);
/* cf__starts for a string literal: the length is known at compile time, so
 * the compare is inlined (the hot path of NCCL line recognition). */
#define CF__LIT(s, n, lit) ((n) >= sizeof(lit) - 1 && (s)[0] == (lit)[0] && memcmp((s), (lit), sizeof(lit) - 1) == 0)
/* The first byte of [s, end) that is not a blank (space, tab), or end. */
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

/* ------------------------------------------------- hashing (base/hash.c) */

/* The FNV-1a 64-bit offset basis: where a plain FNV-1a hash starts. */
#define CF__FNV_BASIS 0xcbf29ce484222325ULL
/* Where cf__hash starts (1469598103934665603, not the FNV basis): kept
 * because the audit's set order follows these hash values. */
#define CF__HASH_START 0x14650fb0739d0383ULL

/* FNV-1a over data[0..n) continuing the running hash h (start with
 * CF__FNV_BASIS); cf__fnv1a(cf__fnv1a(B, a, na), b, nb) hashes a then b. */
uint64_t cf__fnv1a(uint64_t h, const void *data, size_t n);
/* A set key for s[0..n): FNV-1a from CF__HASH_START ^ seed; never 0. */
uint64_t cf__hash(const char *s, size_t n, uint64_t seed);

/* A set of 64-bit keys (hashes) with a value, open addressing, growing up to
 * a cap of entries; past the cap new keys are counted but not stored. */
typedef struct cf__kv {
    uint64_t key;       /* 0 = empty slot */
    int64_t v[4];       /* the caller's values, zeroed when the key is new */
} cf__kv;
typedef struct cf__kvset {
    cf__kv *slots;      /* cap slots (a power of two), NULL until the first key */
    size_t cap, n, max; /* slots allocated, keys stored, the most keys stored */
    long dropped;       /* new keys refused because n reached max */
} cf__kvset;
/* An empty set that will hold at most `max` keys; allocates nothing. */
void cf__kvset_init(cf__kvset *s, size_t max);
/* Frees the slots of a caller-owned set; it is then empty. NULL-safe. */
void cf__kvset_clear(cf__kvset *s);
/* Returns the entry for key (created zeroed when new); NULL when full or on
 * ENOMEM (*oom set to 1 on ENOMEM). */
cf__kv *cf__kvset_get(cf__kvset *s, uint64_t key, int *oom);
/* The entry for key, or NULL; never inserts. */
cf__kv *cf__kvset_find(const cf__kvset *s, uint64_t key);

/* ---------------------------------------------------- UTF-8 (base/utf8.c) */

/* Offset of the first byte of s[0..len) that is not well-formed UTF-8 (RFC
 * 3629: no overlong forms, no surrogates, nothing above U+10FFFF) or is a
 * control character (allowed: tab always, CR/LF when `multiline`); -1 if
 * none. */
long cf__bad_utf8(const unsigned char *s, size_t len, int multiline);

/* ---------------------------------------------------- dates (base/date.c)
 *
 * cf_today and cf_age_days are public (date.h). */

/* Splits "YYYY-MM" or "YYYY-MM-DD" (year >= 1900, a real day of that month)
 * into its parts, *day 0 when absent. 0 on success; -1 (nothing written)
 * on anything else. */
int cf__date_parse(const char *s, int *year, int *month, int *day);

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

/* An empty buffer that will hold at most `cap` bytes; allocates nothing. */
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

/* ---------------------------------------------- text wrapping (base/wrap.c) */

/* Appends `text` (lines ending in '\n') to b with every line longer than
 * `width` columns broken at blanks: a continuation line is indented to
 * just after the line's first ": " when that lies within the first third
 * of the width ("  warning CODE: message", "          action: ..."), else
 * to the line's own indent plus 4. A word longer than the room (a path)
 * stays whole on its line. Columns count UTF-8 characters. Errors as
 * cf__buf_add. */
cf_status cf__wrap_lines(cf__buf *b, const char *text, size_t width);

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
 * cf__csv_table_clear(); on failure *t is left empty. */
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

/* Frees the members of a caller-owned table; it is then empty. NULL-safe. */
void cf__csv_table_clear(cf__csv_table *t);

#endif
