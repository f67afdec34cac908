/* probe_in.c — the probe's JSON (clusterfit probe --format json, issue 12;
 * docs/probe.md) as one more input part of the audit: its RDMA ports fill
 * the node NIC evidence (cf__node_nics, audit_int.h), so the expected busbw
 * follows what the node has.
 *
 * A file whose first non-blank line (after launcher prefixes) starts with
 * '{' is held back, up to CF_MAX_AUDIT_PROBE_BYTES, instead of routed line
 * by line. At its end (cf__audit_probe_end) a JSON object of kind "node"
 * or "cluster" becomes a part of kind CF__PART_PROBE whose ports are the
 * report's "nics" (for a cluster, the node whose active ports add up to
 * the least Gbit/s: the slowest node bounds a ring); anything else (not
 * JSON, another JSON, over the cap) is replayed through the router as if it
 * had never been held, so no input is lost. */
#include <math.h>
#include <stdlib.h>
#include "audit/audit_int.h"
#include "base/base.h"

struct cf__probe_in {
    int file;           /* the file it holds lines of (index into a->files) */
    int mode;           /* 0 undecided, 1 holding, 2 not a probe file (route) */
    int replaying;      /* lines are being replayed: route them */
    long first_line;    /* line of the '{' */
    cf__buf text;       /* the lines held, each with its line number: "N\tline\n" */
};

static struct cf__probe_in *state(cf_audit *a)
{
    if (!a->probe_in) {
        a->probe_in = cf__calloc(1, sizeof *a->probe_in);
        if (!a->probe_in) {
            a->oom = 1;
            return NULL;
        }
        a->probe_in->file = -1;
    }
    if (a->probe_in->file != a->nfiles - 1) {
        cf__buf_clear(&a->probe_in->text);
        a->probe_in->file = a->nfiles - 1;
        a->probe_in->mode = 0;
    }
    return a->probe_in;
}

/* Replays what is held, then routes the rest of the file. */
static void replay(cf_audit *a, struct cf__probe_in *pi)
{
    const char *p = pi->text.s, *end = p ? p + pi->text.len : NULL;
    pi->mode = 2;
    pi->replaying = 1;
    while (p && p < end) {
        char *tab;
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        long line = strtol(p, &tab, 10);
        if (!nl) nl = end;
        if (tab && *tab == '\t' && tab < nl) cf__audit_on_line(a, tab + 1, (size_t)(nl - tab - 1), line, 0, 0);
        p = nl + 1;
    }
    pi->replaying = 0;
    cf__buf_clear(&pi->text);
}

int cf__audit_probe_line(cf_audit *a, const char *s, size_t n, long lineno)
{
    struct cf__probe_in *pi;
    const char *p;
    if (a->probe_in && a->probe_in->replaying) return 0;
    if (!(pi = state(a))) return 0;
    if (pi->mode == 2) return 0;        /* the hot path: a file that is no JSON */
    p = cf__skip_ws(s, s + n);
    if (pi->mode == 0) {
        if (p == s + n) return 0;           /* blank lines before it */
        if (*p != '{') {
            pi->mode = 2;
            return 0;
        }
        pi->mode = 1;
        pi->first_line = lineno;
        cf__buf_init(&pi->text, (size_t)CF_MAX_AUDIT_PROBE_BYTES);
    }
    if (cf__buf_printf(&pi->text, "%ld\t%.*s\n", lineno, (int)n, s) != CF_OK) {
        if (pi->text.st == CF_ENOMEM) a->oom = 1;
        /* over the cap: the text is gone; what was held cannot be replayed */
        cf__audit_add_finding(a, -1, CF__CODE_TRUNCATED_INPUT, cf__audit_here(a, pi->first_line),
                              "a JSON document over %ld bytes (CF_MAX_AUDIT_PROBE_BYTES) was not read",
                              (long)CF_MAX_AUDIT_PROBE_BYTES);
        pi->mode = 2;
        return 0;
    }
    return 1;
}

/* A string of the report into a fixed field: cut, if at all, on a
 * character boundary, and a control byte (JSON's "\u0007") shown as '?',
 * as every text the audit quotes from a log is (what it copies here
 * reaches findings, JSON and a terminal). */
static void field_copy(char *dst, size_t cap, const char *src)
{
    size_t n = src ? strlen(src) : 0, i = 0;
    long off;
    if (!cap) return;
    if (n >= cap) {
        n = cap - 1;
        while (n > 0 && ((unsigned char)src[n] & 0xc0) == 0x80) n--;
    }
    if (n) memcpy(dst, src, n);
    dst[n] = '\0';
    while (i < n && (off = cf__bad_utf8((const unsigned char *)dst + i, n - i, 0)) >= 0) {
        dst[i + (size_t)off] = '?';
        i += (size_t)off + 1;
    }
}

static int ll_of(const char *s)
{
    if (s && strcmp(s, "InfiniBand") == 0) return CF__LL_IB;
    if (s && strcmp(s, "Ethernet") == 0) return CF__LL_ETH;
    return CF__LL_UNKNOWN;
}

/* The probe's sysfs words (lowercased: "active", "linkup") as ibstat prints
 * them ("Active", "LinkUp"), so that the port rules read them alike. */
static const char *ibstat_word(const char *w)
{
    static const char *const map[][2] = {
        {"active", "Active"}, {"down", "Down"}, {"init", "Initializing"}, {"armed", "Armed"},
        {"linkup", "LinkUp"}, {"disabled", "Disabled"}, {"polling", "Polling"}, {"sleep", "Sleep"},
        {"linkerrorrecovery", "LinkErrorRecovery"}, {"portconfigurationtraining", "PortConfigurationTraining"},
    };
    for (size_t i = 0; w && i < sizeof map / sizeof map[0]; i++)
        if (strcmp(w, map[i][0]) == 0) return map[i][1];
    return w ? w : "";
}

static double active_gbps(const json_t *node)
{
    double sum = 0;
    size_t i;
    const json_t *v;
    json_array_foreach(json_object_get(node, "nics"), i, v) {
        const char *st = json_string_value(json_object_get(v, "state"));
        if (st && strcmp(st, "active") == 0) sum += json_number_value(json_object_get(v, "rate_gbps"));
    }
    return sum;
}

/* The part of a probe report: its ports. */
static void add_part(cf_audit *a, struct cf__probe_in *pi, const json_t *doc, long last)
{
    const char *kind = json_string_value(json_object_get(doc, "kind"));
    const json_t *node = doc, *v;
    size_t i;
    int idx;
    cf__audit_part *p;
    if (strcmp(kind, "cluster") == 0) {
        node = NULL;
        json_array_foreach(json_object_get(doc, "nodes"), i, v)
            if (!node || active_gbps(v) < active_gbps(node)) node = v;
    }
    idx = cf__audit_new_part(a, CF__PART_PROBE, pi->first_line);
    if (idx < 0) return;
    p = &a->parts[idx];
    p->last_line = last;
    if (!node) return;
    json_array_foreach(json_object_get(node, "nics"), i, v) {
        cf__port *pt;
        const char *st = json_string_value(json_object_get(v, "state"));
        const char *ph = json_string_value(json_object_get(v, "phys_state"));
        const char *ll = json_string_value(json_object_get(v, "link_layer"));
        const json_t *rate = json_object_get(v, "rate_gbps"), *port = json_object_get(v, "port");
        if (p->nports >= CF__MAX_PORTS) break;
        pt = &p->ports[p->nports++];
        field_copy(pt->ca, sizeof pt->ca, json_string_value(json_object_get(v, "name")));
        pt->port = json_is_integer(port) ? (int)json_integer_value(port) : 1;
        pt->active = st ? strcmp(st, "active") == 0 : -1;
        field_copy(pt->state, sizeof pt->state, ibstat_word(st));
        field_copy(pt->phys_state, sizeof pt->phys_state, ibstat_word(ph));
        pt->rate_gbps = json_is_number(rate) ? json_number_value(rate) : NAN;
        pt->ll = ll_of(ll);
        pt->seen_state = st != NULL;
        pt->seen_rate = json_is_number(rate);
        pt->seen_ll = ll != NULL;
        pt->line = pi->first_line;
        pt->complete = pt->seen_state && pt->seen_ll;
    }
}

void cf__audit_probe_end(cf_audit *a)
{
    struct cf__probe_in *pi = a->probe_in;
    json_t *doc;
    json_error_t je;
    cf__buf lines;
    const char *kind;
    long last = 0;
    if (!pi || pi->file != a->nfiles - 1 || pi->mode != 1) return;
    /* The JSON without the line numbers. */
    cf__buf_init(&lines, (size_t)CF_MAX_AUDIT_PROBE_BYTES);
    for (const char *p = pi->text.s, *end = p + pi->text.len; p && p < end;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p)), *tab = memchr(p, '\t', (size_t)(end - p));
        if (!nl) nl = end;
        if (tab && tab < nl) {
            last = strtol(p, NULL, 10);
            cf__buf_add(&lines, tab + 1, (size_t)(nl - tab));
        }
        p = nl + 1;
    }
    doc = lines.s ? json_loadb(lines.s, lines.len, 0, &je) : NULL;
    cf__buf_clear(&lines);
    kind = json_string_value(json_object_get(doc, "kind"));
    if (json_is_object(doc) && kind && (strcmp(kind, "node") == 0 || strcmp(kind, "cluster") == 0) &&
        json_is_array(json_object_get(doc, "findings"))) {
        add_part(a, pi, doc, last);
        pi->mode = 2;
        cf__buf_clear(&pi->text);
    } else {
        replay(a, pi);
    }
    json_decref(doc);
}

void cf__audit_probe_free(cf_audit *a)
{
    if (!a->probe_in) return;
    cf__buf_clear(&a->probe_in->text);
    cf__free(a->probe_in);
    a->probe_in = NULL;
}
