/* text.c — cf_probe_report_text: a node or cluster report for a terminal,
 * read back from its JSON so that the text shows what the JSON says. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "base/base.h"
#include "probe/probe_int.h"

/* A terminal's width, as plan's and audit's text reports. */
#define PROBE_TEXT_WIDTH 80

static const char *s_or(const json_t *o, const char *k, const char *dflt)
{
    const char *s = json_string_value(json_object_get(o, k));
    return s ? s : dflt;
}

static void node_text(cf__buf *b, const json_t *r, const char *indent)
{
    const json_t *gpus = json_object_get(r, "gpus"), *nics = json_object_get(r, "nics"), *v;
    const json_t *ml = json_object_get(r, "memlock_bytes");
    size_t i;
    cf__buf_printf(b, "%shost %s: kernel %s, driver %s\n", indent, s_or(r, "hostname", "unknown"),
                   s_or(r, "kernel", "unknown"), s_or(r, "driver", "unknown"));
    cf__buf_printf(b, "%sGPUs: %zu", indent, json_array_size(gpus));
    json_array_foreach(gpus, i, v) {
        const json_t *numa = json_object_get(v, "numa_node");
        cf__buf_printf(b, "%s %s %s", i ? "," : "", s_or(v, "pci", "?"), s_or(v, "model", "(model unknown)"));
        if (json_is_integer(numa)) cf__buf_printf(b, " numa %" JSON_INTEGER_FORMAT, json_integer_value(numa));
    }
    cf__buf_printf(b, "\n%sRDMA ports: %zu\n", indent, json_array_size(nics));
    json_array_foreach(nics, i, v) {
        double rate = json_number_value(json_object_get(v, "rate_gbps"));
        cf__buf_printf(b, "%s  %s:%" JSON_INTEGER_FORMAT " %s %s", indent, s_or(v, "name", "?"),
                       json_integer_value(json_object_get(v, "port")), s_or(v, "link_layer", "unknown"),
                       s_or(v, "state", "unknown"));
        if (json_is_number(json_object_get(v, "rate_gbps"))) cf__buf_printf(b, " %g Gbit/s", rate);
        cf__buf_printf(b, " pci %s fw %s, nearest GPU %s (%s)\n", s_or(v, "pci", "unknown"), s_or(v, "fw_ver", "unknown"),
                       s_or(v, "nearest_gpu", "none"), s_or(v, "path", "unknown"));
    }
    cf__buf_printf(b, "%sGPUDirect RDMA: %s%s%s%s; ACS: %s; uverbs devices: %" JSON_INTEGER_FORMAT "; locked memory: ",
                   indent, s_or(r, "gdr", "unknown"), json_is_string(json_object_get(r, "gdr_via")) ? " (" : "",
                   s_or(r, "gdr_via", ""), json_is_string(json_object_get(r, "gdr_via")) ? ")" : "",
                   s_or(r, "acs", "unknown"), json_integer_value(json_object_get(r, "uverbs")));
    if (json_is_integer(ml)) cf__buf_printf(b, "%" JSON_INTEGER_FORMAT " bytes\n", json_integer_value(ml));
    else cf__buf_printf(b, "%s\n", json_is_string(ml) ? json_string_value(ml) : "unknown");
    if (json_array_size(json_object_get(r, "skipped")))
        cf__buf_printf(b, "%sskipped: %zu unreadable or odd entries (see --format json)\n", indent,
                       json_array_size(json_object_get(r, "skipped")));
}

static void findings_text(cf__buf *b, const json_t *findings)
{
    size_t i;
    const json_t *f;
    json_array_foreach(findings, i, f) {
        const char *node = s_or(f, "node", NULL);
        cf__buf_printf(b, "%s %s: %s%s%s\n  action: %s\n", s_or(f, "severity", "?"), s_or(f, "code", "?"),
                       node ? node : "", node ? ": " : "", s_or(f, "message", ""), s_or(f, "action", ""));
    }
}

/* The report of b with every line within PROBE_TEXT_WIDTH columns, broken
 * by cf__wrap_lines as plan's and audit's (issue 23: the GPU line ran to
 * over 200 columns); b is emptied. cf__malloc is malloc: the caller frees
 * with free() (as the audit text). */
static char *wrapped(cf__buf *b)
{
    cf__buf w;
    size_t n = 0;
    char *raw = cf__buf_take(b, &n), *out;
    if (!raw) return NULL;
    cf__buf_init(&w, 64L * 1024 * 1024 + 16L * 1024 * 1024);
    if (cf__wrap_lines(&w, raw, PROBE_TEXT_WIDTH) != CF_OK) {
        cf__free(raw);
        cf__buf_clear(&w);
        return NULL;
    }
    cf__free(raw);
    out = cf__buf_take(&w, NULL);
    return out;
}

char *cf_probe_report_text(const json_t *r)
{
    cf__buf b;
    size_t i;
    const json_t *v;
    if (!json_is_object(r)) return NULL;
    cf__buf_init(&b, 64L * 1024 * 1024);
    if (strcmp(s_or(r, "kind", ""), "cluster") == 0) {
        const json_t *pairs = json_object_get(r, "pairs");
        cf__buf_printf(&b, "probe: %s, %" JSON_INTEGER_FORMAT " ranks on %zu host(s)\n", s_or(r, "status", "?"),
                       json_integer_value(json_object_get(r, "ranks")), json_array_size(json_object_get(r, "nodes")));
        json_array_foreach(json_object_get(r, "nodes"), i, v) node_text(&b, v, "  ");
        cf__buf_printf(&b, "pairs (%s, %s): %zu, median %.2f GB/s\n", s_or(r, "pair_scope", "?"),
                       s_or(r, "schedule", "?"), json_array_size(pairs),
                       json_number_value(json_object_get(r, "median_bandwidth_GBps")));
        json_array_foreach(pairs, i, v) {
            const json_t *bw = json_object_get(v, "bandwidth_GBps"), *lat = json_object_get(v, "latency_us");
            cf__buf_printf(&b, "  %" JSON_INTEGER_FORMAT " (%s) - %" JSON_INTEGER_FORMAT " (%s): ",
                           json_integer_value(json_object_get(v, "a")), s_or(v, "a_host", "?"),
                           json_integer_value(json_object_get(v, "b")), s_or(v, "b_host", "?"));
            if (json_is_number(bw)) cf__buf_printf(&b, "%.2f GB/s, %.1f us\n", json_number_value(bw), json_number_value(lat));
            else cf__buf_printf(&b, "failed\n");
        }
    } else {
        cf__buf_printf(&b, "probe: %s\n", s_or(r, "status", "?"));
        node_text(&b, r, "");
    }
    if (json_is_string(json_object_get(r, "offering")))
        cf__buf_printf(&b, "offering %s: %zu fact(s) compared\n", s_or(r, "offering", ""),
                       json_array_size(json_object_get(r, "offering_check")));
    findings_text(&b, json_object_get(r, "findings"));
    return wrapped(&b);
}
