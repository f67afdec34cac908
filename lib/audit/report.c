/* report.c — the JSON report of the audit (DESIGN §5): the status, the
 * facts of the run the top level describes, run_facts[] of every run,
 * findings with their code, severity, action, run and file:line, and
 * parts[] with what each part showed (rows, NCCL devices and channels,
 * the topology matrix, ports).
 *
 * Shape: builds jansson objects only, from the state and the verdicts
 * (read, never changed); every set is checked once per object through
 * cf__json_set. Strings from the input are made printable ASCII (jstr);
 * byte and element counts are exact JSON integers (jbytes). The text
 * report (text.c) is rendered from this JSON, so the two cannot disagree. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "audit/audit_int.h"
#include "clusterfit/collective.h"
#include "clusterfit/validate.h"
#include "base/base.h"

/* Names of the part kinds (CF__PART_*) in the report. */
static const char *const kind_names[CF__PART__COUNT] = {"nccl-tests", "nccl-log", "topo", "ibstat",
                                                         "ibv-devinfo", "framework-log", "probe"};

/* ------------------------------------------------------------------ JSON */

/* Copies s into buf (cap bytes) as printable ASCII; NULL when s is. */
static const char *san(const char *s, char *buf, size_t cap)
{
    size_t k = 0;
    if (!s) return NULL;
    for (; *s && k + 1 < cap; s++) {
        unsigned char c = (unsigned char)*s;
        buf[k++] = (c < 0x20 || c >= 0x7f) ? (c == '\t' ? ' ' : '?') : (char)c;
    }
    buf[k] = '\0';
    return buf;
}

/* Input text as a JSON string: printable ASCII (control bytes and non-ASCII
 * become '?', tabs spaces), cut at 511 bytes; null when absent or empty
 * (unlike cf__json_str, which keeps "" and the bytes as they are). */
static json_t *jstr(const char *s)
{
    char buf[512];
    if (!s || !*s) return json_null();
    return json_string(san(s, buf, sizeof buf));
}

/* A count or index that is -1 when unknown: null then. */
static json_t *jint(long v) { return v < 0 ? json_null() : json_integer(v); }
/* A byte count or element count: an exact JSON integer (nccl-tests prints
 * integers; a double holds them exactly below 2^53). */
static json_t *jbytes(double v)
{
    if (isnan(v) || isinf(v)) return json_null();
    if (v >= 0 && v < 9007199254740992.0 && v == floor(v)) return json_integer((json_int_t)v);
    return json_real(v);
}

/* json_array_append_new that takes a NULL array or value like cf__json_set. */
static int jpush(json_t *arr, json_t *v)
{
    if (!arr || !v) {
        json_decref(v);
        return -1;
    }
    return json_array_append_new(arr, v) == 0 ? 0 : -1;
}

/* The run (group number) a finding belongs to; 0 none. */
static int finding_run(const cf_audit *a, const cf__audit_finding *f)
{
    if (f->part >= 0 && f->part < a->nparts) return a->segs[cf__audit_part_root(a, f->part)]->group;
    if (f->grp >= 0 && f->grp < a->nsegs) return a->segs[a->segs[f->grp]->root]->group;
    return 0;
}

static json_t *finding_json(const cf_audit *a, const cf__audit_finding *f)
{
    json_t *o = json_object();
    int bad = 0, run_no = finding_run(a, f);
    bad |= cf__json_set(o, "code", json_string(cf__audit_code_name(f->code)));
    bad |= cf__json_set(o, "severity", json_string(cf_severity_name(cf__audit_code_severity(f->code))));
    bad |= cf__json_set(o, "message", jstr(f->msg));
    bad |= cf__json_set(o, "action", jstr(f->action ? f->action : cf__audit_code_action(f->code)));
    bad |= cf__json_set(o, "run", run_no > 0 ? json_integer(run_no) : json_null());
    bad |= cf__json_set(o, "file", f->at.line > 0 && f->at.file < a->nfiles ? jstr(a->files[f->at.file]) : json_null());
    bad |= cf__json_set(o, "line", f->at.line > 0 ? json_integer(f->at.line) : json_null());
    if (f->count > 1) bad |= cf__json_set(o, "count", json_integer(f->count));
    if (bad) {
        json_decref(o);
        return NULL;
    }
    return o;
}

static const char *ll_name(int ll)
{
    return ll == CF__LL_IB ? "InfiniBand" : ll == CF__LL_ETH ? "Ethernet" : NULL;
}

static int perf_json(json_t *o, const cf__audit_part *p)
{
    const cf__audit_run *r = p->r;
    const cf__perf_analysis *an = &r->an;
    json_t *rows = json_array();
    int bad = 0;
    bad |= cf__json_set(o, "collective", r->coll != CF_COLL_UNKNOWN ? json_string(cf_collective_name(r->coll)) : json_null());
    bad |= cf__json_set(o, "ranks_listed", json_integer(r->rank_lines));
    bad |= cf__json_set(o, "hosts_listed", json_integer(r->nhosts));
    bad |= cf__json_set(o, "gpu", jstr(r->gpu_name));
    bad |= cf__json_set(o, "nthread", jint(r->nthread));
    bad |= cf__json_set(o, "ngpus", jint(r->ngpus));
    bad |= cf__json_set(o, "min_bytes", jbytes(r->min_bytes));
    bad |= cf__json_set(o, "max_bytes", jbytes(r->max_bytes));
    bad |= cf__json_set(o, "layout", json_string(!r->lay.known ? "guessed" : r->lay.error_column ? "error-column"
                                         : r->lay.has_root ? "redop-root" : r->lay.has_redop ? "redop" : "plain"));
    bad |= cf__json_set(o, "rows_total", json_integer(r->nrows + r->rows_dropped));
    bad |= cf__json_set(o, "largest_bytes", jbytes(an->largest_size));
    bad |= cf__json_set(o, "busbw_GBps", cf__json_num(an->busbw_largest));
    bad |= cf__json_set(o, "busbw_in_place_GBps", cf__json_num(an->busbw_largest_ip));
    bad |= cf__json_set(o, "peak_busbw_GBps", r->nrows ? cf__json_num(an->peak_busbw) : json_null());
    bad |= cf__json_set(o, "avg_busbw_GBps", cf__json_num(r->avg));
    bad |= cf__json_set(o, "out_of_bounds", jint(r->oob));
    bad |= cf__json_set(o, "bandwidth_regime", r->nrows ? json_boolean(an->in_bw_regime) : json_null());
    bad |= cf__json_set(o, "complete", json_boolean(r->ended));
    for (long i = 0; i < r->nrows && !bad; i++) {
        const cf__perf_row *w = &r->rows[i];
        json_t *jr = json_object();
        bad |= cf__json_set(jr, "size_bytes", jbytes(w->size));
        bad |= cf__json_set(jr, "count", jbytes(w->count));
        bad |= cf__json_set(jr, "type", jstr(w->type));
        bad |= cf__json_set(jr, "redop", jstr(w->redop));
        bad |= cf__json_set(jr, "time_us", cf__json_num(w->oop_time_us));
        bad |= cf__json_set(jr, "algbw_GBps", cf__json_num(w->oop_algbw));
        bad |= cf__json_set(jr, "busbw_GBps", cf__json_num(w->oop_busbw));
        bad |= cf__json_set(jr, "wrong", cf__json_num(w->oop_wrong));
        bad |= cf__json_set(jr, "in_place_time_us", cf__json_num(w->ip_time_us));
        bad |= cf__json_set(jr, "in_place_algbw_GBps", cf__json_num(w->ip_algbw));
        bad |= cf__json_set(jr, "in_place_busbw_GBps", cf__json_num(w->ip_busbw));
        bad |= cf__json_set(jr, "in_place_wrong", cf__json_num(w->ip_wrong));
        bad |= cf__json_set(jr, "line", json_integer(w->line));
        bad |= jpush(rows, jr);
    }
    bad |= cf__json_set(o, "rows", rows);
    return bad;
}

static int nccl_json(const cf_audit *a, json_t *o, const cf__audit_part *p)
{
    const cf__audit_netev *e = p->ev;
    json_t *devs = json_array(), *ch = json_object();
    static const char *const fam_names[] = {"unknown", "IB", "Socket", "OFI", "GPUDirectTCPX",
                                            "FasTrak", "FastSocket", "other"};
    int bad = 0;
    (void)a;
    bad |= cf__json_set(o, "lines", json_integer(e->lines));
    bad |= cf__json_set(o, "nccl_version", jstr(e->version));
    bad |= cf__json_set(o, "net", jstr(e->net_name));
    bad |= cf__json_set(o, "ofi_provider", jstr(e->ofi_provider));
    bad |= cf__json_set(o, "nranks", e->nranks > 0 ? json_integer(e->nranks) : json_null());
    for (int i = 0; i < e->n_ibdevs && !bad; i++) {
        json_t *d = json_object();
        bad |= cf__json_set(d, "index", json_integer(e->ibdevs[i].d.idx));
        bad |= cf__json_set(d, "name", jstr(e->ibdevs[i].d.name));
        bad |= cf__json_set(d, "port", jint(e->ibdevs[i].d.port));
        bad |= cf__json_set(d, "link_layer", jstr(ll_name(e->ibdevs[i].d.ll)));
        bad |= jpush(devs, d);
    }
    bad |= cf__json_set(o, "ib_devices", devs);
    for (int f = 1; f < CF__NCCLNET__COUNT; f++)
        if (e->ch[f]) bad |= cf__json_set(ch, fam_names[f], json_integer(e->ch[f]));
    bad |= cf__json_set(o, "net_channels", ch);
    bad |= cf__json_set(o, "gdr_hca_enabled", json_integer(e->gdr_hca_on));
    bad |= cf__json_set(o, "gdr_hca_disabled", json_integer(e->gdr_hca_off));
    bad |= cf__json_set(o, "gdr_gpu_enabled", json_integer(e->gdr_gpu_on));
    bad |= cf__json_set(o, "gdr_gpu_disabled", json_integer(e->gdr_gpu_off));
    bad |= cf__json_set(o, "net_gdr_level", jstr(e->gdr_level_text));
    return bad;
}

static int topo_json(json_t *o, const cf__audit_part *p)
{
    const cf__topo *t = p->topo;
    cf__topo_analysis ta;
    json_t *m = json_object(), *cols = json_array(), *rows = json_array(), *near = json_array();
    int bad = 0;
    cf__topo_analyze(t, &ta);
    bad |= cf__json_set(o, "gpus", json_integer(ta.gpus));
    bad |= cf__json_set(o, "nics", json_integer(ta.nics));
    bad |= cf__json_set(o, "nvlink", json_boolean(ta.nvlink));
    for (int c = 0; c < t->ncols && !bad; c++) {
        json_t *jc = json_object();
        bad |= cf__json_set(jc, "name", jstr(t->names[c]));
        if (t->nic_names[c][0]) bad |= cf__json_set(jc, "nic", jstr(t->nic_names[c]));
        bad |= jpush(cols, jc);
    }
    for (int r = 0; r < t->nrows && !bad; r++) {
        json_t *jr = json_object(), *links = json_array();
        int rc = t->row_of[r];
        bad |= cf__json_set(jr, "device", jstr(t->names[rc]));
        for (int c = 0; c < t->ncols && !bad; c++) {
            char buf[16];
            if (t->link[r][c] == CF__TL_NV) snprintf(buf, sizeof buf, "NV%d", t->nvl[r][c]);
            else cf__copy(buf, sizeof buf, cf__topo_link_name(t->link[r][c]));
            bad |= jpush(links, json_string(buf));
        }
        bad |= cf__json_set(jr, "links", links);
        bad |= jpush(rows, jr);
        if (cf__topo_is_gpu(t, rc) && ta.nics > 0) {
            json_t *jn = json_object();
            bad |= cf__json_set(jn, "gpu", jstr(t->names[rc]));
            bad |= cf__json_set(jn, "nearest_nic_link", ta.best[rc] ? json_string(cf__topo_link_name(ta.best[rc])) : json_null());
            bad |= jpush(near, jn);
        }
    }
    bad |= cf__json_set(m, "columns", cols);
    bad |= cf__json_set(m, "rows", rows);
    bad |= cf__json_set(o, "matrix", m);
    bad |= cf__json_set(o, "gpu_nic_paths", near);
    return bad;
}

static int ports_json(json_t *o, const cf__audit_part *p)
{
    json_t *arr = json_array();
    int bad = 0;
    for (int i = 0; i < p->nports && !bad; i++) {
        const cf__port *pt = &p->ports[i];
        json_t *jp = json_object();
        bad |= cf__json_set(jp, "ca", jstr(pt->ca));
        bad |= cf__json_set(jp, "port", json_integer(pt->port));
        bad |= cf__json_set(jp, "state", jstr(pt->state));
        bad |= cf__json_set(jp, "physical_state", jstr(pt->phys_state));
        bad |= cf__json_set(jp, "active", pt->active < 0 ? json_null() : json_boolean(pt->active));
        bad |= cf__json_set(jp, "rate_gbps", cf__json_num(pt->rate_gbps));
        bad |= cf__json_set(jp, "link_layer", jstr(ll_name(pt->ll)));
        if (pt->roce_v2) bad |= cf__json_set(jp, "roce_v2", json_true());
        bad |= cf__json_set(jp, "line", json_integer(pt->line));
        bad |= jpush(arr, jp);
    }
    bad |= cf__json_set(o, "ports", arr);
    return bad;
}

/* What the input shows of NCCL's algorithm (v->nccl_*): {algo, protocol,
 * shown_by (CF_ALGO_SOURCE_NCCL_LOG or _NCCL_ALGO), file, line}; null when
 * it shows none. */
static json_t *nccl_algo_json(const cf_audit *a, const cf__audit_verdict *v)
{
    json_t *o;
    int bad = 0;
    if (v->nccl_algo == CF_ALGO_AUTO || !v->nccl_algo_src) return json_null();
    o = json_object();
    bad |= cf__json_set(o, "algo", json_string(cf_algo_name(v->nccl_algo)));
    bad |= cf__json_set(o, "protocol", jstr(v->nccl_proto));
    bad |= cf__json_set(o, "shown_by", json_string(v->nccl_algo_src));
    bad |= cf__json_set(o, "file", v->nccl_algo_at.line > 0 && v->nccl_algo_at.file < a->nfiles
                                       ? jstr(a->files[v->nccl_algo_at.file]) : json_null());
    bad |= cf__json_set(o, "line", v->nccl_algo_at.line > 0 ? json_integer(v->nccl_algo_at.line) : json_null());
    if (bad) {
        json_decref(o);
        return NULL;
    }
    return o;
}

/* The expectation of one verdict (issue 20: the model's prediction, the
 * same as `predict collective` gives): busbw, where its fabric comes from,
 * the message size, algorithm, protocol and who chose the algorithm. */
static int expected_json(json_t *o, const cf__audit_verdict *v)
{
    int bad = 0, has = !isnan(v->expected);
    double lo = NAN, hi = NAN;
    /* The model's out-of-sample band (cf_busbw_band, as predict collective
     * gives it); none for the line-rate bound, which is no prediction. */
    if (has && isfinite(v->exp_bytes) && v->exp_bytes >= 0 && v->exp_algo_src &&
        strcmp(v->exp_algo_src, CF_ALGO_SOURCE_LINE_RATE) != 0)
        cf_busbw_band(v->expected, (uint64_t)v->exp_bytes, &lo, &hi);
    bad |= cf__json_set(o, "expected_busbw_GBps", cf__json_num(v->expected));
    bad |= cf__json_set(o, "expected_busbw_GBps_p10", cf__json_num(round(lo * 100.0) / 100.0));
    bad |= cf__json_set(o, "expected_busbw_GBps_p90", cf__json_num(round(hi * 100.0) / 100.0));
    bad |= cf__json_set(o, "expected_source", jstr(v->exp_src));
    bad |= cf__json_set(o, "expected_message_bytes", has ? jbytes(v->exp_bytes) : json_null());
    bad |= cf__json_set(o, "expected_algo", has && v->exp_algo != CF_ALGO_AUTO
                                                ? json_string(cf_algo_name(v->exp_algo)) : json_null());
    bad |= cf__json_set(o, "expected_protocol", has ? jstr(v->exp_proto) : json_null());
    bad |= cf__json_set(o, "expected_algo_source", has ? jstr(v->exp_algo_src) : json_null());
    bad |= cf__json_set(o, "expected_assumes", has && v->assumes[0] ? json_string(v->assumes) : json_null());
    return bad;
}

/* The facts of one verdict into `o` (the top level or a run_facts entry). */
static int facts_json(json_t *o, const cf_audit *a, const cf__audit_verdict *v, int g)
{
    int bad = 0;
    bad |= cf__json_set(o, "network", json_string(cf_network_name(v->net)));
    bad |= cf__json_set(o, "gdr", json_string(cf_gdr_name(v->gdr)));
    bad |= cf__json_set(o, "nccl_version", g >= 0 ? jstr(a->segs[g]->ev.version) : json_null());
    bad |= cf__json_set(o, "ranks", jint(v->ranks));
    bad |= cf__json_set(o, "nodes", jint(v->nodes));
    bad |= cf__json_set(o, "gpus_per_node", jint(v->gpn));
    bad |= cf__json_set(o, "collective", v->coll != CF_COLL_UNKNOWN ? json_string(cf_collective_name(v->coll)) : json_null());
    bad |= cf__json_set(o, "busbw_GBps", cf__json_num(v->busbw));
    bad |= expected_json(o, v);
    bad |= cf__json_set(o, "nccl_algo", nccl_algo_json(a, v));
    bad |= cf__json_set(o, "node_nics", v->node.count > 0 ? json_integer(v->node.count) : json_null());
    bad |= cf__json_set(o, "node_nics_source", jstr(v->node.count > 0 ? v->node.src : NULL));
    bad |= cf__json_set(o, "nics_used", v->nics_used > 0 ? json_integer(v->nics_used) : json_null());
    bad |= cf__json_set(o, "nics_counted", v->node.rated > 0 ? json_integer(v->node.rated) : json_null());
    bad |= cf__json_set(o, "bandwidth_judged", json_boolean(v->judged));
    bad |= cf__json_set(o, "bandwidth_not_judged_reason", v->judged ? json_null() : jstr(v->not_judged));
    return bad;
}

/* One entry of run_facts[]: the run's number, files, line span, facts and
 * the codes of its findings. */
static json_t *run_json(const cf_audit *a, const cf__audit_verdict *v, int g, int k)
{
    json_t *o = json_object(), *files = json_array(), *codes = json_array();
    int bad = 0, first = -1, is_run = 0, lastfile = -1;
    for (int i = 0; i < a->nparts; i++) {
        const cf__audit_part *p = &a->parts[i];
        if (cf__audit_part_root(a, i) != g) continue;
        if (first < 0) first = i;
        if (p->kind == CF__PART_PERF || p->kind == CF__PART_NCCL || p->kind == CF__PART_FRAMEWORK) is_run = 1;
        if (p->file != lastfile) {
            int dup = 0;
            for (size_t j = 0; j < json_array_size(files); j++)
                if (strcmp(json_string_value(json_array_get(files, j)), a->files[p->file]) == 0) dup = 1;
            if (!dup) bad |= jpush(files, jstr(a->files[p->file]));
            lastfile = p->file;
        }
    }
    bad |= cf__json_set(o, "run", json_integer(k));
    bad |= cf__json_set(o, "kind", json_string(is_run ? "run" : "hardware"));
    bad |= cf__json_set(o, "files", files);
    bad |= cf__json_set(o, "first_line", first >= 0 ? json_integer(a->parts[first].first_line) : json_null());
    bad |= facts_json(o, a, v, g);
    for (int i = 0; i < a->nfindings && !bad; i++)
        if (finding_run(a, &a->findings[i]) == k) bad |= jpush(codes, json_string(cf__audit_code_name(a->findings[i].code)));
    bad |= cf__json_set(o, "findings", codes);
    if (bad) {
        json_decref(o);
        return NULL;
    }
    return o;
}

json_t *cf__audit_report_json(const cf_audit *a, const cf__audit_verdict *vs, const int *roots, int ng,
                             int primary,
                            int nruns, cf_audit_status st)
{
    json_t *o = json_object(), *parts = json_array(), *fs = json_array(), *rf = json_array();
    cf__audit_verdict none;
    const cf__audit_verdict *v = primary > 0 ? &vs[primary - 1] : &none;
    int bad = 0;
    memset(&none, 0, sizeof none);
    none.net = CF_NET_UNKNOWN;
    none.gdr = CF_GDR_UNKNOWN;
    none.coll = CF_COLL_UNKNOWN;
    none.ranks = none.nodes = none.gpn = -1;
    none.busbw = none.expected = none.exp_bytes = NAN;
    none.exp_algo = none.nccl_algo = CF_ALGO_AUTO;
    none.node.count = none.nics_used = -1;
    none.not_judged = "the input shows no nccl-tests result row: there is no busbw to judge";
    /* "verdict", as the text report says; "status" is its alias, kept
     * for the scripts written before issue 23 (docs/man/30-audit.man). */
    bad |= cf__json_set(o, "verdict", json_string(cf_audit_status_name(st)));
    bad |= cf__json_set(o, "status", json_string(cf_audit_status_name(st)));
    bad |= facts_json(o, a, v, primary > 0 ? roots[primary - 1] : -1);
    bad |= cf__json_set(o, "runs", json_integer(nruns));
    bad |= cf__json_set(o, "run", primary > 0 ? json_integer(primary) : json_null());
    for (int i = 0; i < a->nfindings && !bad; i++) bad |= jpush(fs, finding_json(a, &a->findings[i]));
    bad |= cf__json_set(o, "findings", fs);
    for (int k = 0; k < ng && !bad; k++) bad |= jpush(rf, run_json(a, &vs[k], roots[k], k + 1));
    bad |= cf__json_set(o, "run_facts", rf);
    for (int i = 0; i < a->nparts && !bad; i++) {
        const cf__audit_part *p = &a->parts[i];
        json_t *jp = json_object(), *pf = json_array();
        bad |= cf__json_set(jp, "kind", json_string(kind_names[p->kind]));
        bad |= cf__json_set(jp, "file", jstr(a->files[p->file]));
        bad |= cf__json_set(jp, "first_line", json_integer(p->first_line));
        bad |= cf__json_set(jp, "last_line", json_integer(p->last_line));
        bad |= cf__json_set(jp, "run", json_integer(a->segs[cf__audit_part_root(a, i)]->group));
        switch (p->kind) {
        case CF__PART_PERF: bad |= perf_json(jp, p); break;
        case CF__PART_NCCL: bad |= nccl_json(a, jp, p); break;
        case CF__PART_TOPO: bad |= topo_json(jp, p); break;
        case CF__PART_IBSTAT:
        case CF__PART_IBV:
        case CF__PART_PROBE: bad |= ports_json(jp, p); break;
        default: bad |= cf__json_set(jp, "lines", json_integer(p->fw_lines)); break;
        }
        for (int k = 0; k < a->nfindings && !bad; k++)
            if (a->findings[k].part == i) bad |= jpush(pf, finding_json(a, &a->findings[k]));
        bad |= cf__json_set(jp, "findings", pf);
        bad |= jpush(parts, jp);
    }
    bad |= cf__json_set(o, "parts", parts);
    if (a->parts_dropped) bad |= cf__json_set(o, "parts_dropped", json_integer(a->parts_dropped));
    if (a->findings_dropped) bad |= cf__json_set(o, "findings_dropped", json_integer(a->findings_dropped));
    if (bad) {
        json_decref(o);
        return NULL;
    }
    return o;
}
