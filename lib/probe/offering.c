/* offering.c — cf_probe_check_offering (item 3, below). */
#include "base/base.h"
#include "probe/probe_int.h"

cf_status cf_probe_check_offering(json_t *report, const cf_offering *off, cf_error *err)
{
    (void)report;
    (void)off;
    cf_error_set(err, NULL, 0, 0, "not yet");
    return CF_EUNSUPPORTED;
}
