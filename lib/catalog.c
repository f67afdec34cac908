/* catalog.c — placeholder until the catalog lands. */
#include "clusterfit/catalog.h"

cf_status cf_catalog_open(const char *path, cf_catalog **out, cf_error *err)
{
    (void)path;
    *out = NULL;
    cf_error_set(err, NULL, 0, 0, "catalog not implemented yet");
    return CF_EUNSUPPORTED;
}
