/* audit.c — the public API of the audit (include/clusterfit/audit.h):
 * an audit object, files fed to it in chunks of any size, and the report
 * drawn once at the end.
 *
 * Shape: feeding only splits the bytes into lines (lines.c) and hands each
 * to the router (route.c), which streams the evidence in (evidence.c); no
 * conclusion is drawn before cf_audit_finish(). Finishing groups the
 * segments into runs (group.c), judges each run (verdict.c, findings.c)
 * and builds the JSON report (report.c); the text report is rendered from
 * that JSON (text.c). Memory does not grow with the input: every store has
 * a cap (limits.h). A failed allocation anywhere sets the sticky a->oom
 * and the next call returns CF_ENOMEM. */
#include <math.h>
#include <string.h>
#include "audit/audit_int.h"
#include "base/base.h"

cf_audit *cf_audit_new(const cf_audit_opts *opts)
{
    cf_audit *a = cf__calloc(1, sizeof *a);
    if (!a) return NULL;
    if (opts) a->opts = *opts;
    else a->opts.expect_gbps = NAN;
    if (a->opts.expect_fabric) {
        a->fabric = *a->opts.expect_fabric;
        a->has_fabric = 1;
        a->opts.expect_fabric = NULL;
    }
    a->parts = cf__calloc(CF_MAX_AUDIT_PARTS, sizeof *a->parts);
    a->findings = cf__calloc(CF_MAX_FINDINGS, sizeof *a->findings);
    a->segs = cf__calloc(CF_MAX_AUDIT_PARTS, sizeof *a->segs);
    a->f_run = a->f_nccl = a->f_topo = a->f_ib = a->f_fw = -1;
    a->cur = -1;
    a->pending_coll = CF_COLL_UNKNOWN;
    if (!a->parts || !a->findings || !a->segs ||
        cf__linebuf_init(&a->lb, (size_t)CF_MAX_LINE_BYTES) != CF_OK)
        goto fail;
    return a;
fail:
    cf_audit_free(a);
    return NULL;
}

void cf_audit_free(cf_audit *a)
{
    if (!a) return;
    if (a->parts)
        for (int i = 0; i < a->nparts; i++) cf__audit_part_clear(&a->parts[i]);
    cf__free(a->parts);
    cf__free(a->findings);
    for (int i = 0; i < a->nfiles; i++) cf__free(a->files[i]);
    cf__free(a->files);
    if (a->segs)
        for (int i = 0; i < a->nsegs; i++) cf__audit_seg_free(a->segs[i]);
    cf__free(a->segs);
    cf__linebuf_clear(&a->lb);
    cf__audit_probe_free(a);
    cf__free(a);
}

cf_status cf_audit_begin_file(cf_audit *a, const char *name)
{
    char *copy;
    if (!a) return CF_EINVAL;
    if (a->nfiles == a->files_cap) {
        int ncap = a->files_cap ? a->files_cap * 2 : 8;
        char **nf = cf__realloc(a->files, (size_t)ncap * sizeof *nf);
        if (!nf) return CF_ENOMEM;
        a->files = nf;
        a->files_cap = ncap;
    }
    copy = cf__strdup(name ? name : "-");
    if (!copy) return CF_ENOMEM;
    a->files[a->nfiles++] = copy;
    cf__linebuf_reset(&a->lb);
    a->f_run = a->f_nccl = a->f_topo = a->f_ib = a->f_fw = -1;
    a->pending_coll = CF_COLL_UNKNOWN;
    if (cf__audit_new_seg(a) != 0) {
        cf__free(a->files[--a->nfiles]);
        return CF_ENOMEM;
    }
    a->topo_state = CF__TOPO_NONE;
    a->in_rank_list = 0;
    a->cur_port = NULL;
    a->last_lineno = 0;
    a->last_cut = 0;
    return CF_OK;
}

cf_status cf_audit_feed(cf_audit *a, const char *buf, size_t n)
{
    if (!a || (!buf && n)) return CF_EINVAL;
    if (a->nfiles == 0) {
        cf_status st = cf_audit_begin_file(a, "-");
        if (st != CF_OK) return st;
    }
    if (a->cur < 0) return CF_ENOMEM;      /* the first begin_file failed */
    a->bytes += (long)n;
    return cf__linebuf_feed(&a->lb, buf, n, cf__audit_on_line, a);
}

cf_status cf_audit_end_file(cf_audit *a)
{
    cf_status st;
    if (!a) return CF_EINVAL;
    if (a->nfiles == 0) return CF_OK;
    if (a->cur < 0) return CF_ENOMEM;      /* the first begin_file failed */
    st = cf__linebuf_finish(&a->lb, cf__audit_on_line, a);
    cf__audit_probe_end(a);
    cf__audit_close_run(a);
    cf__audit_close_topo(a);
    cf__audit_close_ib(a);
    if (a->last_cut) {
        cf__audit_add_run_finding(a, a->cur, CF__CODE_TRUNCATED_INPUT, cf__audit_here(a, a->last_lineno), NULL,
                        "the last line is longer than %ld bytes and was cut",
                        (long)CF_MAX_LINE_BYTES);
    }
    a->f_nccl = a->f_fw = -1;
    return st != CF_OK ? st : (a->oom ? CF_ENOMEM : CF_OK);
}

cf_status cf_audit_finish(cf_audit *a, json_t **report, cf_audit_status *status)
{
    cf__audit_verdict *vs = NULL;
    int *roots = NULL;
    int ng = 0, nruns, primary;
    cf_audit_status st;
    cf_status rc = CF_ENOMEM;
    if (!a || !report) return CF_EINVAL;
    *report = NULL;
    if (a->lb.len > 0 || a->lb.discarding || a->f_run >= 0 || a->f_ib >= 0) {
        cf_status s = cf_audit_end_file(a);
        if (s != CF_OK) return s;
    }
    cf__audit_probe_end(a);
    if (a->oom) return CF_ENOMEM;
    nruns = cf__audit_form_groups(a, &ng);
    if (a->oom) goto fail;
    vs = cf__calloc((size_t)(ng > 0 ? ng : 1), sizeof *vs);
    roots = cf__calloc((size_t)(ng > 0 ? ng : 1), sizeof *roots);
    if (!vs || !roots) goto fail;
    cf__audit_group_roots(a, roots);
    primary = cf__audit_primary_group(a);
    cf__audit_part_findings(a);
    cf__audit_port_findings(a);
    for (int k = 0; k < ng; k++) {
        cf__audit_verdict_of(a, roots[k], &vs[k]);
        cf__audit_run_findings(a, roots[k], &vs[k]);
    }
    if (a->oom) goto fail;
    cf__audit_input_findings(a, nruns, primary);
    st = cf__audit_status_of(a);
    /* nothing wrong, but a busbw shown and not compared: not "ok" */
    for (int k = 0; k < ng && st == CF_AUDIT_OK; k++)
        if (!vs[k].judged && !isnan(vs[k].busbw)) st = CF_AUDIT_UNJUDGED;
    *report = cf__audit_report_json(a, vs, roots, ng, primary, nruns, st);
    if (!*report) goto fail;
    if (status) *status = st;
    rc = CF_OK;
fail:
    cf__free(vs);
    cf__free(roots);
    return rc;
}

cf_status cf_audit_buffer(const char *buf, size_t n, const char *name, const cf_audit_opts *opts,
                          json_t **report, cf_audit_status *status)
{
    cf_status st;
    cf_audit *a = cf_audit_new(opts);
    if (!a) return CF_ENOMEM;
    st = cf_audit_begin_file(a, name);
    if (st == CF_OK) st = cf_audit_feed(a, buf, n);
    if (st == CF_OK) st = cf_audit_end_file(a);
    if (st == CF_OK) st = cf_audit_finish(a, report, status);
    cf_audit_free(a);
    return st;
}
