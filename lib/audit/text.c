/* text.c — the human report of `clusterfit audit`, rendered from the
 * report JSON that cf_audit_finish() builds (report.c). It reads only the
 * JSON, so the text and `--format json` can never disagree on a fact.
 *
 * Shape: one pass over the JSON into a capped buffer (base/buf.c) whose
 * first failure sticks, so the pieces below print without checking and
 * the end checks once. Absent or mistyped fields print as "unknown". */
#include <stdint.h>
#include <string.h>
#include "clusterfit/audit.h"
#include "audit/audit_int.h"
#include "base/base.h"

/* No cap of its own: the text only reformats the report, whose size the
 * audit's caps bound already (CF_MAX_FINDINGS, CF_MAX_AUDIT_PARTS). */
#define TEXT_MAX (SIZE_MAX / 2)

/* The text report's width: a terminal's 80 columns, as plan's tables. */
#define TEXT_WIDTH 80

static const char *js(const json_t *o, const char *k)
{
    const json_t *v = json_object_get(o, k);
    return json_is_string(v) ? json_string_value(v) : NULL;
}

/* The string field k of o, or `dflt` when absent. */
static const char *js_or(const json_t *o, const char *k, const char *dflt)
{
    const char *s = js(o, k);
    return s ? s : dflt;
}

/* An integer field as "%lld", else "unknown". */
static void int_or_unknown(cf__buf *b, const json_t *o, const char *k)
{
    const json_t *v = json_object_get(o, k);
    if (json_is_integer(v)) cf__buf_printf(b, "%lld", (long long)json_integer_value(v));
    else cf__buf_printf(b, "unknown");
}

/* A byte count in binary units ("8 GiB", "512 MiB", "4096 B"). */
static void bytes_text(cf__buf *b, double v)
{
    static const char *const bin[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int k = 0;
    while (v >= 1024 && k < 4) { v /= 1024; k++; }
    cf__buf_printf(b, "%.4g %s", v, bin[k]);
}

/* The line under the facts that says what the expected busbw assumes: the
 * line `predict collective` prints for the same node (cf_coll_expect_text),
 * the message size, who chose the algorithm and the fabric's source. */
static void expected_text(cf__buf *b, const json_t *report)
{
    const char *src = js_or(report, "expected_source", ""), *asrc = js_or(report, "expected_algo_source", "");
    const char *rate = strcmp(src, "expect-gbps") == 0 ? "the --expect-gbps line rate"
                       : strcmp(src, "offering") == 0  ? "the offering's NICs"
                       : strcmp(src, "probe") == 0     ? "the NICs the probe found"
                       : strcmp(src, "ports") == 0     ? "the node's ports (ibstat/ibv_devinfo)"
                       : strcmp(src, "default") == 0   ? "an assumed node (see assumes)"
                                                       : src;
    const json_t *na = json_object_get(report, "nccl_algo"), *sz = json_object_get(report, "expected_message_bytes");
    cf_algo algo = CF_ALGO_AUTO;
    char line[160];
    (void)cf_algo_parse(js_or(report, "expected_algo", ""), &algo);
    cf_coll_expect_text(line, sizeof line, json_number_value(json_object_get(report, "expected_busbw_GBps")), algo,
                        js(report, "expected_protocol"), asrc);
    cf__buf_printf(b, "\n  expected %s", line);
    if (json_is_number(sz)) {
        cf__buf_printf(b, " at ");
        bytes_text(b, json_number_value(sz));
    }
    if (strcmp(asrc, CF_ALGO_SOURCE_LINE_RATE) == 0) {
        cf__buf_printf(b, ": %s x the fabric's efficiency: the model needs the GPU and the node count; "
                       "docs/model.md", rate);
        return;
    }
    cf__buf_printf(b, ": the model's prediction");
    if (json_is_object(na) && js(na, "file") && json_is_integer(json_object_get(na, "line"))) {
        const char *f = cf__audit_base_name(js(na, "file"));
        long long ln = (long long)json_integer_value(json_object_get(na, "line"));
        cf_algo shown = CF_ALGO_AUTO;
        (void)cf_algo_parse(js_or(na, "algo", ""), &shown);
        if (strcmp(asrc, CF_ALGO_SOURCE_MODEL) == 0)
            cf__buf_printf(b, " (its own pick: it cannot run %s, which %s:%lld shows, here)",
                           cf_algo_label(shown), f, ln);
        else
            cf__buf_printf(b, " for the algorithm that %s:%lld shows", f, ln);
    }
    cf__buf_printf(b, ", on %s; docs/model.md", rate);
    if (js(report, "expected_assumes")) cf__buf_printf(b, "\n  assumes: %s", js(report, "expected_assumes"));
}

/* The verdict and the facts of the top-level run. */
static void facts_text(cf__buf *b, const json_t *report, const char *st)
{
    const json_t *v;
    cf__buf_printf(b, "verdict: %s\n", st ? st : "unknown");
    cf__buf_printf(b, "network: %s   gdr: %s   nccl: %s\n", js_or(report, "network", "unknown"),
                   js_or(report, "gdr", "unknown"), js_or(report, "nccl_version", "unknown"));
    cf__buf_printf(b, "ranks: ");
    int_or_unknown(b, report, "ranks");
    cf__buf_printf(b, "   nodes: ");
    int_or_unknown(b, report, "nodes");
    cf__buf_printf(b, "   gpus/node: ");
    int_or_unknown(b, report, "gpus_per_node");
    cf__buf_printf(b, "\ncollective: %s   busbw: ", js_or(report, "collective", "unknown"));
    v = json_object_get(report, "busbw_GBps");
    if (json_is_number(v)) cf__buf_printf(b, "%.2f GB/s", json_number_value(v));
    else cf__buf_printf(b, "not shown");
    v = json_object_get(report, "expected_busbw_GBps");
    if (json_is_number(v)) {
        const json_t *lo = json_object_get(report, "expected_busbw_GBps_p10");
        const json_t *hi = json_object_get(report, "expected_busbw_GBps_p90");
        cf__buf_printf(b, "   expected: %.2f GB/s", json_number_value(v));
        /* the model's out-of-sample band, as predict collective prints it */
        if (json_is_number(lo) && json_is_number(hi))
            cf__buf_printf(b, " (p10-p90 %.2f-%.2f)", json_number_value(lo), json_number_value(hi));
        expected_text(b, report);
    }
    cf__buf_printf(b, "\n");
    if (json_is_integer(json_object_get(report, "node_nics")) || json_is_integer(json_object_get(report, "nics_used"))) {
        /* "NCCL uses 8 of the node's 8 NICs"; a count the input does not
         * show is said so, never put where a number reads. */
        json_t *used = json_object_get(report, "nics_used"), *node = json_object_get(report, "node_nics");
        cf__buf_printf(b, "nics: ");
        if (json_is_integer(used) && json_is_integer(node))
            cf__buf_printf(b, "NCCL uses %lld of the node's %lld NIC%s", (long long)json_integer_value(used),
                           (long long)json_integer_value(node), json_integer_value(node) == 1 ? "" : "s");
        else if (json_is_integer(node))
            cf__buf_printf(b, "NCCL uses an unknown number of the node's %lld NIC%s",
                           (long long)json_integer_value(node), json_integer_value(node) == 1 ? "" : "s");
        else
            cf__buf_printf(b, "NCCL uses %lld NIC(s); the node's NIC count not shown",
                           (long long)json_integer_value(used));
        if (js(report, "node_nics_source")) cf__buf_printf(b, " (%s)", js(report, "node_nics_source"));
        {
            /* the expected busbw adds up at most one NIC per GPU: say so
             * where that is fewer than the NICs NCCL uses */
            json_t *cnt = json_object_get(report, "nics_counted");
            if (json_is_integer(cnt) && json_is_integer(used) && json_integer_value(cnt) < json_integer_value(used))
                cf__buf_printf(b, "; expected busbw counts %lld (one per GPU)", (long long)json_integer_value(cnt));
        }
        cf__buf_printf(b, "\n");
    }
    if (json_is_false(json_object_get(report, "bandwidth_judged")) && js(report, "bandwidth_not_judged_reason")) {
        if (json_is_number(json_object_get(report, "busbw_GBps")))
            cf__buf_printf(b, "bandwidth: not compared with a link rate: %s\n",
                           js(report, "bandwidth_not_judged_reason"));
        else
            cf__buf_printf(b, "bandwidth: not judged: %s\n", js(report, "bandwidth_not_judged_reason"));
    }
}

/* With several runs: one line per entry of run_facts[]. */
static void runs_text(cf__buf *b, const json_t *report)
{
    const json_t *v = json_object_get(report, "runs"), *rf, *r;
    size_t k;
    long long hw;
    if (!json_is_integer(v) || json_integer_value(v) <= 1) return;
    rf = json_object_get(report, "run_facts");
    hw = (long long)json_array_size(rf) - (long long)json_integer_value(v);
    cf__buf_printf(b, "runs: %lld separate runs", (long long)json_integer_value(v));
    if (hw > 0) cf__buf_printf(b, " and %lld hardware dump(s) tied to none of them", hw);
    cf__buf_printf(b, "; the facts above are those of run %lld\n",
                   (long long)json_integer_value(json_object_get(report, "run")));
    json_array_foreach(rf, k, r) {
        const json_t *files = json_object_get(r, "files"), *bw = json_object_get(r, "busbw_GBps");
        const json_t *ex = json_object_get(r, "expected_busbw_GBps");
        const char *f0 = json_string_value(json_array_get(files, 0));
        cf__buf_printf(b, "  run %lld (%s) %s:%lld%s  network %s  gdr %s  nccl %s  collective %s",
                       (long long)json_integer_value(json_object_get(r, "run")), js_or(r, "kind", ""),
                       f0 ? f0 : "-", (long long)json_integer_value(json_object_get(r, "first_line")),
                       json_array_size(files) > 1 ? " (+ more files)" : "",
                       js_or(r, "network", "unknown"), js_or(r, "gdr", "unknown"),
                       js_or(r, "nccl_version", "-"), js_or(r, "collective", "-"));
        if (json_is_integer(json_object_get(r, "ranks")))
            cf__buf_printf(b, "  ranks %lld", (long long)json_integer_value(json_object_get(r, "ranks")));
        if (json_is_integer(json_object_get(r, "nodes")))
            cf__buf_printf(b, "  nodes %lld", (long long)json_integer_value(json_object_get(r, "nodes")));
        if (json_is_number(bw)) cf__buf_printf(b, "  busbw %.2f GB/s", json_number_value(bw));
        if (json_is_number(ex)) cf__buf_printf(b, " of %.2f expected", json_number_value(ex));
        cf__buf_printf(b, "\n");
    }
}

/* Every finding with its action (the code's usual one when the JSON has
 * none) and file:line. */
static void findings_text(cf__buf *b, const json_t *report)
{
    const json_t *fs = json_object_get(report, "findings"), *f;
    size_t i;
    if (json_array_size(fs) == 0) cf__buf_printf(b, "findings: none\n");
    else cf__buf_printf(b, "findings:\n");
    json_array_foreach(fs, i, f) {
        const char *code = js(f, "code"), *file = js(f, "file"), *act = js(f, "action");
        const json_t *ln = json_object_get(f, "line");
        if (!act && code) act = cf__audit_action_of(code);
        cf__buf_printf(b, "  %-7s %s: %s\n", js_or(f, "severity", ""), code ? code : "",
                       js_or(f, "message", ""));
        if (act && act[0]) cf__buf_printf(b, "          action: %s\n", act);
        if (file && json_is_integer(ln))
            cf__buf_printf(b, "          at: %s:%lld\n", file, (long long)json_integer_value(ln));
    }
}

/* The parts: kind and file:first-last line. */
static void parts_text(cf__buf *b, const json_t *report)
{
    const json_t *ps = json_object_get(report, "parts"), *p;
    size_t i;
    cf__buf_printf(b, "parts:");
    if (json_array_size(ps) == 0) cf__buf_printf(b, " none");
    cf__buf_printf(b, "\n");
    json_array_foreach(ps, i, p) {
        cf__buf_printf(b, "  %s %s:%lld-%lld\n", js_or(p, "kind", ""), js_or(p, "file", ""),
                       (long long)json_integer_value(json_object_get(p, "first_line")),
                       (long long)json_integer_value(json_object_get(p, "last_line")));
    }
}

char *cf_audit_report_text(const json_t *report)
{
    cf__buf b, w;
    char *raw;
    const char *st = js(report, "status");
    if (!report) return NULL;
    cf__buf_init(&b, TEXT_MAX);
    facts_text(&b, report, st);
    runs_text(&b, report);
    findings_text(&b, report);
    parts_text(&b, report);
    raw = cf__buf_take(&b, NULL);
    if (!raw) return NULL;
    /* every line within TEXT_WIDTH columns, as plan's (issue 23) */
    cf__buf_init(&w, TEXT_MAX + TEXT_MAX / 4);
    cf__wrap_lines(&w, raw, TEXT_WIDTH);
    cf__free(raw);
    return cf__buf_take(&w, NULL);
}
