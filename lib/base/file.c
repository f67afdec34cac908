/* file.c — the library's one whole-file reader: reads a file into memory up
 * to a cap from limits.h, and says which file failed and why. The catalog
 * import, the CSV tables (GPU table, validation files) and workload files
 * all read through it. */
#include <errno.h>
#include <stdio.h>
#include "base/base.h"

cf_status cf__read_file(const char *path, size_t max_bytes, const char *limit_name, char **out,
                        size_t *len, cf_error *err)
{
    FILE *f;
    cf__buf b;
    char chunk[65536];
    cf_status st = CF_OK;

    *out = NULL;
    if (len) *len = 0;
    f = fopen(path, "rb");
    if (!f) {
        cf_error_set(err, path, 0, 0, "cannot open: %s", strerror(errno));
        return CF_EIO;
    }
    cf__buf_init(&b, max_bytes);
    for (;;) {
        size_t got = fread(chunk, 1, sizeof chunk, f);
        if (got == 0) break;
        st = cf__buf_add(&b, chunk, got);
        if (st != CF_OK) break;
    }
    if (st == CF_OK && ferror(f)) {
        cf_error_set(err, path, 0, 0, "cannot read: %s", strerror(errno));
        st = CF_EIO;
    } else if (st == CF_ELIMIT) {
        cf_error_set(err, path, 0, 0, "file is over the %zu-byte limit (%s)", max_bytes,
                     limit_name ? limit_name : "a limit of limits.h");
    }
    fclose(f);
    if (st == CF_OK) *out = cf__buf_take(&b, len);
    if (st == CF_OK && !*out) st = CF_ENOMEM;
    cf__buf_clear(&b);
    return st;
}
