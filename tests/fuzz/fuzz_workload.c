/* fuzz_workload.c — the workload loader (lib/model/workload.c): the bytes as JSON
 * (jansson json_loadb, duplicates rejected as cf_workload_load does), then
 * cf_workload_from_json. An accepted workload's name must be a
 * NUL-terminated string; a refusal's message too. An accepted workload then
 * goes where a user's file goes first, `clusterfit fit` (cf_fit on 8 x
 * H100-SXM), so that values the loader lets through are tried on the model:
 * a workload it accepts must not overflow or hang there. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "clusterfit/step.h"
#include "clusterfit/workload.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    json_error_t je;
    cf_workload w;
    cf_error err;
    cf_status st;
    json_t *j = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES, &je);
    if (!j) return 0;
    memset(&err, 0, sizeof err);
    st = cf_workload_from_json(j, "fuzz", &w, &err);
    if (st == CF_OK && strnlen(w.name, sizeof w.name) == sizeof w.name) abort();
    if (st == CF_OK) {
        cf_fit_result fr;
        if (cf_fit(&w, "H100-SXM", 8, &fr, NULL) == CF_OK) {
            json_t *fj = cf_fit_result_to_json(&fr);
            json_decref(fj);
        }
    }
    if (st != CF_OK && strnlen(err.message, sizeof err.message) == sizeof err.message) abort();
    json_decref(j);
    return 0;
}
