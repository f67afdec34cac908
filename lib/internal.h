/* internal.h — helpers shared inside libclusterfit; not installed, not part
 * of the public API (symbols are cf__-prefixed and hidden). */
#ifndef CLUSTERFIT_INTERNAL_H
#define CLUSTERFIT_INTERNAL_H

#include <stddef.h>
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

#endif
