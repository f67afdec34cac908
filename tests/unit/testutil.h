/* testutil.h — helpers shared by the cmocka unit tests (include after
 * <cmocka.h>). */
#ifndef CLUSTERFIT_TESTUTIL_H
#define CLUSTERFIT_TESTUTIL_H

#include <stdio.h>
#include <stdlib.h>

/* Reads the whole file at `path` into a NUL-terminated malloc'd buffer
 * (caller frees); *len gets its size. Fails the test if it cannot. */
static inline char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    long n;
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = malloc((size_t)n + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = '\0';
    fclose(f);
    *len = (size_t)n;
    return buf;
}

/* The path of `rel` under the shared reference data: $CLUSTERFIT_SHARED
 * (unset or empty: tests/data/shared, the in-repository copy, as tests/cli/run.sh says), written into buf. */
static inline const char *shared_path(char *buf, size_t n, const char *rel)
{
    const char *shared = getenv("CLUSTERFIT_SHARED");
    snprintf(buf, n, "%s/%s", shared && *shared ? shared : "tests/data/shared", rel);
    return buf;
}

#endif
