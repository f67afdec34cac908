/* alloc.c — the library allocator: malloc/calloc/realloc/strdup that count
 * allocations so that tests can fail the Nth one (curl's torture mode,
 * SQLite's fault simulator): cf_alloc_fail_after(n). */
#include <stdlib.h>
#include <string.h>
#include "clusterfit/status.h"
#include "base/base.h"

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
    if (cf__fault_now(CF__FAULT_ALLOC)) return 1; /* the torture runs (base/fault.c) */
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
