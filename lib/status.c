/* status.c — status strings, the error record and the library allocator.
 *
 * The allocator counts allocations so that tests can fail the Nth one
 * (curl's torture mode, SQLite's fault simulator): cf_alloc_fail_after(n). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "clusterfit/status.h"
#include "internal.h"

const char *cf_strerror(cf_status st)
{
    switch (st) {
    case CF_OK: return "success";
    case CF_ENOMEM: return "out of memory";
    case CF_EINVAL: return "invalid argument";
    case CF_EPARSE: return "malformed input";
    case CF_ELIMIT: return "input over a size limit";
    case CF_EIO: return "input/output error";
    case CF_ENOTFOUND: return "not found";
    case CF_EDB: return "catalog database error";
    case CF_EUNSUPPORTED: return "not supported by the model";
    case CF_EINTERNAL: return "internal error";
    }
    return "unknown status";
}

void cf_error_clear(cf_error *err)
{
    if (!err) return;
    err->file = NULL;
    err->line = 0;
    err->column = 0;
    err->message[0] = '\0';
}

void cf_error_set(cf_error *err, const char *file, long line, long column, const char *fmt, ...)
{
    va_list ap;
    if (!err) return;
    err->file = file;
    err->line = line;
    err->column = column;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
}

char *cf_error_format(const cf_error *err, char *buf, size_t n)
{
    if (!buf || n == 0) return buf;
    buf[0] = '\0';
    if (!err) return buf;
    if (err->file && err->line > 0 && err->column > 0)
        snprintf(buf, n, "%s:%ld:%ld: %s", err->file, err->line, err->column, err->message);
    else if (err->file && err->line > 0)
        snprintf(buf, n, "%s:%ld: %s", err->file, err->line, err->message);
    else if (err->file)
        snprintf(buf, n, "%s: %s", err->file, err->message);
    else
        snprintf(buf, n, "%s", err->message);
    return buf;
}

int cf_status_exit_code(cf_status st)
{
    switch (st) {
    case CF_OK: return 0;
    /* A request the model cannot answer for that input (an offering whose
     * gpus_per_node or fabric no source states) is the user's to change,
     * like a bad option: not an internal error. */
    case CF_EINVAL: case CF_ENOTFOUND: case CF_EUNSUPPORTED: return 2;
    case CF_EPARSE: case CF_ELIMIT: return 3;
    default: return 4;
    }
}

static long fail_after = -1;
static long alloc_count;

void cf_alloc_fail_after(long n)
{
    fail_after = n;
    alloc_count = 0;
}

long cf_alloc_count(void) { return alloc_count; }

static int should_fail(void)
{
    alloc_count++;
    if (fail_after < 0) return 0;
    if (fail_after == 0) return 1;
    fail_after--;
    return 0;
}

void *cf__malloc(size_t n) { return should_fail() ? NULL : malloc(n ? n : 1); }
void *cf__calloc(size_t n, size_t size) { return should_fail() ? NULL : calloc(n ? n : 1, size ? size : 1); }
void *cf__realloc(void *p, size_t n) { return should_fail() ? NULL : realloc(p, n ? n : 1); }
void cf__free(void *p) { free(p); }

char *cf__strndup(const char *s, size_t n)
{
    size_t len = 0;
    char *d;
    if (!s) return NULL;
    while (len < n && s[len]) len++;
    d = cf__malloc(len + 1);
    if (!d) return NULL;
    memcpy(d, s, len);
    d[len] = '\0';
    return d;
}

char *cf__strdup(const char *s) { return s ? cf__strndup(s, strlen(s)) : NULL; }

int cf__strcasecmp(const char *a, const char *b)
{
    for (;; a++, b++) {
        int ca = (unsigned char)*a, cb = (unsigned char)*b;
        if (ca >= 'A' && ca <= 'Z') ca += 32;
        if (cb >= 'A' && cb <= 'Z') cb += 32;
        if (ca != cb || !ca) return ca - cb;
    }
}

const char *cf__embedded_find(const char *path, size_t *len)
{
    for (const cf__embedded_file *f = cf__embedded_files; f->path; f++) {
        if (strcmp(f->path, path) == 0) {
            if (len) *len = f->len;
            return (const char *)f->data;
        }
    }
    return NULL;
}
