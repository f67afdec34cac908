/* fuzz_audit.c — the whole audit: the input is fed in two chunks split at a
 * position taken from its first byte, then the report and its text. */
#include <math.h>
#include <stdio.h>
#include "fuzz_common.h"
#include "clusterfit/audit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cf_audit_opts o = {NULL, NAN};
    cf_audit *a;
    json_t *r = NULL;
    cf_audit_status st;
    size_t cut = size ? (size_t)data[0] * size / 256 : 0;
    if (size && (data[0] & 1)) o.expect_gbps = 400;
    a = cf_audit_new(&o);
    if (!a) return 0;
    if (cf_audit_begin_file(a, "fuzz") == CF_OK && cf_audit_feed(a, (const char *)data, cut) == CF_OK &&
        cf_audit_feed(a, (const char *)data + cut, size - cut) == CF_OK && cf_audit_end_file(a) == CF_OK &&
        cf_audit_finish(a, &r, &st) == CF_OK) {
        char *text = cf_audit_report_text(r);
        char *js = json_dumps(r, 0);
        if (!text || !js) abort();
        free(text);
        free(js);
        json_decref(r);
    }
    cf_audit_free(a);
    return 0;
}
