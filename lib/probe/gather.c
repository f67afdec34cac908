/* gather.c — what rank 0 of `clusterfit probe --mpi` receives from the
 * other ranks, decoded before anything reads it: a leader's node report
 * (JSON text) and a participant's pair figures (4 doubles a pair). The
 * bytes come from another process, possibly another build or a broken
 * node, so nothing in them is trusted: a report must be a node report
 * within CF_MAX_PROBE_REPORT_BYTES, a pair must name two distinct ranks of
 * the job by whole numbers, and a figure that is no finite non-negative
 * number is a failed measurement (NaN), never a value. The MPI front end
 * (src/probe_mpi.c) moves the bytes; the fuzz harness
 * tests/fuzz/fuzz_cluster.c hands them in without MPI. */
#include <math.h>
#include <stdlib.h>
#include "base/base.h"
#include "probe/probe_int.h"

/* Why doc is not a node report (NULL when it is). */
static const char *not_a_node(const json_t *doc)
{
    static const char *const arrays[] = {"gpus", "nics", "findings"};
    const char *kind = json_string_value(json_object_get(doc, "kind"));
    size_t i;
    const json_t *f;
    if (!json_is_object(doc)) return "not a JSON object";
    if (!kind || strcmp(kind, "node") != 0) return "not a node report (\"kind\": \"node\")";
    for (size_t k = 0; k < sizeof arrays / sizeof arrays[0]; k++) {
        const json_t *a = json_object_get(doc, arrays[k]);
        if (a && !json_is_array(a)) return "gpus, nics or findings is not an array";
    }
    if (!json_is_array(json_object_get(doc, "findings"))) return "no findings array";
    json_array_foreach(json_object_get(doc, "findings"), i, f)
        if (!json_is_object(f) || !json_is_string(json_object_get(f, "code")) ||
            !json_is_string(json_object_get(f, "severity")))
            return "a finding without a code and a severity";
    return NULL;
}

/* Every string value of v with a control byte (an ESC would reach the
 * terminal through the text report) gets '?' for it; -1 when a key has
 * one (refused: keys are names the report never has so) or on ENOMEM. */
static int clean(json_t *v, int depth)
{
    const char *k;
    json_t *x;
    size_t i;
    if (depth > 64) return 0;   /* jansson's parser stops deeper documents already */
    if (json_is_string(v)) {
        const char *sv = json_string_value(v);
        char *c;
        int r;
        if (cf__bad_utf8((const unsigned char *)sv, json_string_length(v), 0) < 0) return 0;
        if (!(c = cf__strndup(sv, json_string_length(v)))) return -1;
        cf__text_repair(c);
        r = json_string_set(v, c);
        cf__free(c);
        return r;
    }
    json_object_foreach(v, k, x) {
        if (cf__bad_utf8((const unsigned char *)k, strlen(k), 0) >= 0 || clean(x, depth + 1) != 0) return -1;
    }
    json_array_foreach(v, i, x)
        if (clean(x, depth + 1) != 0) return -1;
    return 0;
}

cf_status cf_probe_peer_report(const char *buf, size_t len, json_t **out, cf_error *err)
{
    json_error_t je;
    json_t *doc;
    const char *why;
    if (!out) return CF_EINVAL;
    *out = NULL;
    if (!buf && len) return CF_EINVAL;
    if (len > (size_t)CF_MAX_PROBE_REPORT_BYTES) {
        cf_error_set(err, NULL, 0, 0, "a report of %zu bytes, over %ld (CF_MAX_PROBE_REPORT_BYTES)", len,
                     CF_MAX_PROBE_REPORT_BYTES);
        return CF_ELIMIT;
    }
    if (len == 0) {
        cf_error_set(err, NULL, 0, 0, "an empty report");
        return CF_EPARSE;
    }
    doc = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
    if (!doc) {
        cf__text_repair(je.text);
        cf_error_set(err, NULL, je.line, je.column, "a report that is not JSON: %s", je.text);
        return CF_EPARSE;
    }
    if ((why = not_a_node(doc)) != NULL || (clean(doc, 0) != 0 && (why = "one with a control byte in a key"))) {
        json_decref(doc);
        cf_error_set(err, NULL, 0, 0, "a report that is %s", why);
        return CF_EPARSE;
    }
    *out = doc;
    return CF_OK;
}

/* A rank number: a whole number in [0, ranks); -1 otherwise. */
static int rank_of(double v, int ranks)
{
    if (!isfinite(v) || v < 0 || v >= (double)ranks || v != floor(v)) return -1;
    return (int)v;
}

/* A figure: finite and >= 0, else NaN (failed). */
static double figure(double v)
{
    return isfinite(v) && v >= 0 ? v : NAN;
}

size_t cf_probe_peer_pairs(const double *v, size_t count, int ranks, cf_probe_pair *out, size_t cap,
                           size_t *dropped)
{
    size_t n = 0, bad = 0;
    if (!v) count = 0;
    for (size_t i = 0; i + 3 < count; i += 4) {
        int a = rank_of(v[i], ranks), b = rank_of(v[i + 1], ranks);
        if (a < 0 || b < 0 || a == b || n >= cap || !out) {
            bad++;
            continue;
        }
        out[n].a = a < b ? a : b;
        out[n].b = a < b ? b : a;
        out[n].bandwidth_GBps = figure(v[i + 2]);
        out[n].latency_us = figure(v[i + 3]);
        n++;
    }
    bad += count % 4 ? 1 : 0;
    if (dropped) *dropped = bad;
    return n;
}
