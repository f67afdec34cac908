/* api_serve.c — the latency targets of POST /api/plan for a serve workload
 * (issue 25): read with the library's setter, the one `plan --tpot-ms
 * --ttft-s` calls, so the API and the CLI accept the same values with the
 * same reason. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "api_serve.h"
#include "clusterfit/clusterfit.h"

static int one_target(const json_t *body, const char *key, const cf_workload *w, cf_serve_opts *so,
                      srv_reply *out)
{
    json_t *v = json_object_get(body, key);
    char num[64];
    const char *text;
    cf_error e;
    cf_status st;
    if (!v || json_is_null(v)) return 0;
    if (w->kind != CF_WL_SERVE) {
        srv_error(out, 400, "bad_request", "'%s' takes a serve workload (kind serve); %.64s is not "
                  "one", key, w->name);
        return -1;
    }
    if (json_is_number(v)) {
        snprintf(num, sizeof num, "%.17g", json_number_value(v));
        text = num;
    } else if (json_is_string(v)) {
        text = json_string_value(v);
    } else {
        srv_error(out, 400, "bad_request", "'%s' must be a number", key);
        return -1;
    }
    cf_error_clear(&e);
    if ((st = cf_serve_opts_set(so, key, text, &e)) != CF_OK) {
        srv_lib_error(out, st, &e);
        return -1;
    }
    return 0;
}

int srv_serve_targets(const json_t *body, const cf_workload *w, cf_serve_opts *so, srv_reply *out)
{
    cf_serve_opts_init(so);
    if (one_target(body, "tpot_ms", w, so, out) != 0) return -1;
    return one_target(body, "ttft_s", w, so, out);
}

json_t *srv_serve_presets(void)
{
    json_t *arr = json_array();
    const char *p = cf_workload_presets();
    while (arr && p && *p) {
        const char *end = strstr(p, ", ");
        size_t n = end ? (size_t)(end - p) : strlen(p);
        char name[128];
        cf_workload w;
        if (n < sizeof name) {
            memcpy(name, p, n);
            name[n] = '\0';
            memset(&w, 0, sizeof w);
            if (cf_workload_load(name, &w, NULL) == CF_OK && w.kind == CF_WL_SERVE &&
                json_array_append_new(arr, json_string(name))) {
                json_decref(arr);
                return NULL;
            }
        }
        p = end ? end + 2 : NULL;
    }
    return arr;
}
