/* constants_version.c — the version of the model's constants
 * (cf_model_constants_version, version.h): a digest of the table itself
 * rather than a number kept by hand beside constants.def, so it cannot
 * be forgotten when a constant changes (a fit-update, a new row). */
#include <stdio.h>
#include "clusterfit/version.h"
#include "model/model_int.h"

const char *cf_model_constants_version(void)
{
    static _Thread_local char v[48]; /* each thread computes it once */
    size_t n = 0;
    const cf_model_constant *k = cf_model_constants(&n);
    uint64_t h = CF__FNV_BASIS;
    if (v[0]) return v;
    for (size_t i = 0; i < n; i++) {
        char row[160];
        int len = snprintf(row, sizeof row, "%s=%.17g\n", k[i].name,
                           cf__model_constant_shipped((int)i));
        if (len > 0) h = cf__fnv1a(h, row, (size_t)len < sizeof row ? (size_t)len : sizeof row - 1);
    }
    snprintf(v, sizeof v, "%zu-%016llx", n, (unsigned long long)h);
    return v;
}
