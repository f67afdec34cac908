/* audit_text.c — the human report of `clusterfit audit`, rendered from the
 * report JSON that cf_audit_finish() builds (audit.c). It reads only the
 * JSON, so the text and `--format json` can never disagree on a fact. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "clusterfit/audit.h"
#include "audit/audit_int.h"
#include "base/base.h"

typedef struct sbuf { char *s; size_t n, cap; int bad; } sbuf;

static void sb_printf(sbuf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void sb_printf(sbuf *b, const char *fmt, ...)
{
    va_list ap;
    int k;
    if (b->bad) return;
    for (;;) {
        size_t room = b->cap - b->n;
        va_start(ap, fmt);
        k = vsnprintf(b->s ? b->s + b->n : NULL, b->s ? room : 0, fmt, ap);
        va_end(ap);
        if (k < 0) {
            b->bad = 1;
            return;
        }
        if (b->s && (size_t)k < room) {
            b->n += (size_t)k;
            return;
        }
        {
            size_t ncap = (b->cap ? b->cap * 2 : 1024) + (size_t)k;
            char *ns = cf__realloc(b->s, ncap);
            if (!ns) {
                b->bad = 1;
                return;
            }
            b->s = ns;
            b->cap = ncap;
        }
    }
}

static const char *js(const json_t *o, const char *k)
{
    const json_t *v = json_object_get(o, k);
    return json_is_string(v) ? json_string_value(v) : NULL;
}

char *cf_audit_report_text(const json_t *report)
{
    sbuf b = {0};
    const json_t *fs, *f, *v;
    size_t i;
    const char *st = js(report, "status");
    if (!report) return NULL;
    sb_printf(&b, "verdict: %s\n", st ? st : "unknown");
    sb_printf(&b, "network: %s   gdr: %s   nccl: %s\n", js(report, "network") ? js(report, "network") : "unknown",
              js(report, "gdr") ? js(report, "gdr") : "unknown",
              js(report, "nccl_version") ? js(report, "nccl_version") : "unknown");
    sb_printf(&b, "ranks: ");
    v = json_object_get(report, "ranks");
    if (json_is_integer(v)) sb_printf(&b, "%lld", (long long)json_integer_value(v));
    else sb_printf(&b, "unknown");
    sb_printf(&b, "   nodes: ");
    v = json_object_get(report, "nodes");
    if (json_is_integer(v)) sb_printf(&b, "%lld", (long long)json_integer_value(v));
    else sb_printf(&b, "unknown");
    sb_printf(&b, "   gpus/node: ");
    v = json_object_get(report, "gpus_per_node");
    if (json_is_integer(v)) sb_printf(&b, "%lld", (long long)json_integer_value(v));
    else sb_printf(&b, "unknown");
    sb_printf(&b, "\ncollective: %s   busbw: ", js(report, "collective") ? js(report, "collective") : "unknown");
    v = json_object_get(report, "busbw_GBps");
    if (json_is_number(v)) sb_printf(&b, "%.2f GB/s", json_number_value(v));
    else sb_printf(&b, "not shown");
    v = json_object_get(report, "expected_busbw_GBps");
    if (json_is_number(v))
        sb_printf(&b, "   expected: %.2f GB/s (%s)", json_number_value(v),
                  js(report, "expected_source") ? js(report, "expected_source") : "");
    sb_printf(&b, "\n");
    if (json_is_number(json_object_get(report, "busbw_GBps")) && !json_is_number(v))
        sb_printf(&b, "bandwidth: not compared with a link rate (no expected busbw in the input); "
                      "give --expect-gbps N (per-node line rate, Gbit/s) or --offering ID\n");
    v = json_object_get(report, "runs");
    if (json_is_integer(v) && json_integer_value(v) > 1) {
        const json_t *rf = json_object_get(report, "run_facts"), *r;
        size_t k;
        long long hw = (long long)json_array_size(rf) - (long long)json_integer_value(v);
        sb_printf(&b, "runs: %lld separate runs", (long long)json_integer_value(v));
        if (hw > 0) sb_printf(&b, " and %lld hardware dump(s) tied to none of them", hw);
        sb_printf(&b, "; the facts above are those of run %lld\n",
                  (long long)json_integer_value(json_object_get(report, "run")));
        json_array_foreach(rf, k, r) {
            const json_t *files = json_object_get(r, "files"), *bw = json_object_get(r, "busbw_GBps");
            const json_t *ex = json_object_get(r, "expected_busbw_GBps");
            const char *f0 = json_string_value(json_array_get(files, 0));
            sb_printf(&b, "  run %lld (%s) %s:%lld%s  network %s  gdr %s  nccl %s  collective %s",
                      (long long)json_integer_value(json_object_get(r, "run")),
                      js(r, "kind") ? js(r, "kind") : "", f0 ? f0 : "-",
                      (long long)json_integer_value(json_object_get(r, "first_line")),
                      json_array_size(files) > 1 ? " (+ more files)" : "",
                      js(r, "network") ? js(r, "network") : "unknown",
                      js(r, "gdr") ? js(r, "gdr") : "unknown",
                      js(r, "nccl_version") ? js(r, "nccl_version") : "-",
                      js(r, "collective") ? js(r, "collective") : "-");
            if (json_is_integer(json_object_get(r, "ranks")))
                sb_printf(&b, "  ranks %lld", (long long)json_integer_value(json_object_get(r, "ranks")));
            if (json_is_integer(json_object_get(r, "nodes")))
                sb_printf(&b, "  nodes %lld", (long long)json_integer_value(json_object_get(r, "nodes")));
            if (json_is_number(bw)) sb_printf(&b, "  busbw %.2f GB/s", json_number_value(bw));
            if (json_is_number(ex)) sb_printf(&b, " of %.2f expected", json_number_value(ex));
            sb_printf(&b, "\n");
        }
    }
    fs = json_object_get(report, "findings");
    if (json_array_size(fs) == 0) sb_printf(&b, "findings: none\n");
    else sb_printf(&b, "findings:\n");
    json_array_foreach(fs, i, f) {
        const char *code = js(f, "code"), *file = js(f, "file"), *act = js(f, "action");
        const json_t *ln = json_object_get(f, "line");
        if (!act && code) act = cf__audit_action_of(code);
        sb_printf(&b, "  %-7s %s: %s\n", js(f, "severity") ? js(f, "severity") : "",
                  code ? code : "", js(f, "message") ? js(f, "message") : "");
        if (act && act[0]) sb_printf(&b, "          action: %s\n", act);
        if (file && json_is_integer(ln))
            sb_printf(&b, "          at: %s:%lld\n", file, (long long)json_integer_value(ln));
    }
    sb_printf(&b, "parts:");
    fs = json_object_get(report, "parts");
    if (json_array_size(fs) == 0) sb_printf(&b, " none");
    sb_printf(&b, "\n");
    json_array_foreach(fs, i, f) {
        sb_printf(&b, "  %s %s:%lld-%lld\n", js(f, "kind") ? js(f, "kind") : "",
                  js(f, "file") ? js(f, "file") : "",
                  (long long)json_integer_value(json_object_get(f, "first_line")),
                  (long long)json_integer_value(json_object_get(f, "last_line")));
    }
    if (b.bad) {
        cf__free(b.s);
        return NULL;
    }
    return b.s;
}
