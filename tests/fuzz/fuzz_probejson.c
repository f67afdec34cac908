/* fuzz_probejson.c — the probe's JSON as the audit reads it
 * (lib/audit/probe_in.c: held back from the first '{', parsed at the end
 * of its file, its ports the node NICs), with a second file after the
 * first NUL byte of the input (an nccl-tests log, say) so that the ports
 * drive the expected bandwidth of what follows. The first file is fed in
 * two chunks split at a position taken from its first byte, as
 * fuzz_audit.c does. Seeds: the probe's reports of tests/data/probe, node
 * and cluster, alone and before a results table. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "fuzz_common.h"
#include "clusterfit/audit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cf_audit_opts o = {NULL, NAN};
    cf_audit *a;
    json_t *r = NULL;
    cf_audit_status st;
    const uint8_t *nul = memchr(data, '\0', size);
    size_t first = nul ? (size_t)(nul - data) : size;
    size_t cut = first ? (size_t)data[0] * first / 256 : 0;
    int ok;
    a = cf_audit_new(&o);
    if (!a) return 0;
    ok = cf_audit_begin_file(a, "probe.json") == CF_OK && cf_audit_feed(a, (const char *)data, cut) == CF_OK &&
         cf_audit_feed(a, (const char *)data + cut, first - cut) == CF_OK && cf_audit_end_file(a) == CF_OK;
    if (ok && nul)
        ok = cf_audit_begin_file(a, "log") == CF_OK &&
             cf_audit_feed(a, (const char *)nul + 1, size - first - 1) == CF_OK && cf_audit_end_file(a) == CF_OK;
    if (ok && cf_audit_finish(a, &r, &st) == CF_OK) {
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
