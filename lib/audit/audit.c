/* audit.c — the audit of DESIGN §5: routes every input line to the parser
 * of its kind (perftable.c, ncclog.c, topo.c, ibstat.c), groups lines into
 * parts (one per nccl-tests run, NCCL log stream, topology matrix, port
 * dump, framework log), accumulates the evidence NCCL and the tools print,
 * and concludes: the transport really used, GDR state, busbw against what
 * the link should give, findings and a status.
 *
 * Shape: one pass, bounded memory. Lines arrive from the streaming splitter
 * (linebuf.c); a per-file state machine knows whether a topology matrix or
 * a port dump is open; everything else is recognised line by line by its
 * first byte and a few fixed substrings. Evidence is kept as counters and
 * small fixed arrays, plus hash sets (hosts, ranks) capped in limits.h; per
 * run only the result rows (CF_MAX_PERF_ROWS) are kept. Evidence is kept
 * per segment (see struct seg): an input may hold several runs (files,
 * nccl-tests runs, NCCL versions, process sets), and facts of different
 * runs are never combined. Conclusions are drawn once, in
 * cf_audit_finish(): segments are joined into runs where the input links
 * them, each run is judged on its own evidence, and the top level reports
 * the run of the last nccl-tests table (DESIGN §5), with SEVERAL_RUNS when
 * there are more.
 *
 * Rules and their sources: DESIGN §5 (codes, severities, status order);
 * NCCL's net.cc/net_ib.cc/paths.cc for what lines mean (see ncclog.c); the
 * efficiency η of the ring reference comes from the collective model's
 * constants (lib/constants.c). The human text of a report is rendered from
 * its JSON by audit_text.c.
 *
 * Files: this one owns the state (audit_state.h) and streams evidence in
 * through the public API; audit_judge.c draws the conclusions and
 * audit_json.c builds the report (cf_audit_finish, cf_audit_buffer). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "audit/audit_int.h"
#include "clusterfit/collective.h"
#include "base/base.h"

/* ------------------------------------------------------------ helpers */

static void ev_init(cf__audit_netev *e)
{
    memset(e, 0, sizeof *e);
    e->gdr_level = -1;
    e->ib_disable = -1;
    e->off_distance = e->off_distance_max = -1;
    e->completion_status = -1;
    cf__kvset_init(&e->rank_gdr, (size_t)CF_MAX_RANKS);
}

static void ev_free(cf__audit_netev *e)
{
    if (e) cf__kvset_free(&e->rank_gdr);
}

static void part_free(cf__audit_part *p)
{
    if (p->r) cf__free(p->r->rows);
    cf__free(p->r);
    if (p->ev) ev_free(p->ev);
    cf__free(p->ev);
    cf__free(p->topo);
    cf__free(p->ports);
    memset(p, 0, sizeof *p);
}

/* Records a finding of part `pi` (-1 none) or of the run whose root
 * segment is `grp` (-1 none); one per code and part/run, counted. */
static void vadd(cf_audit *a, int pi, int grp, cf__audit_code code, cf__audit_loc at,
                 const char *action, const char *fmt, va_list ap)
{
    cf__audit_finding *f;
    for (int i = 0; i < a->nfindings; i++) {
        if (a->findings[i].part == pi && a->findings[i].grp == grp && a->findings[i].code == code) {
            a->findings[i].count++;
            return;
        }
    }
    if (a->nfindings >= CF_MAX_FINDINGS) {
        a->findings_dropped++;
        return;
    }
    f = &a->findings[a->nfindings++];
    f->code = code;
    f->at = at;
    f->part = pi;
    f->grp = grp;
    f->action = action;
    f->count = 1;
    vsnprintf(f->msg, sizeof f->msg, fmt, ap);
}

void cf__audit_add_finding(cf_audit *a, int pi, cf__audit_code code, cf__audit_loc at,
                           const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vadd(a, pi, -1, code, at, NULL, fmt, ap);
    va_end(ap);
}

/* A finding on a whole run (group root `grp`), with its own action when
 * the evidence decides it (NULL: the code's usual action). */
void cf__audit_add_run_finding(cf_audit *a, int grp, cf__audit_code code, cf__audit_loc at,
                               const char *action, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vadd(a, -1, grp, code, at, action, fmt, ap);
    va_end(ap);
}

static void seg_free(cf__audit_seg *s)
{
    if (!s) return;
    ev_free(&s->ev);
    cf__kvset_free(&s->hosts);
    cf__kvset_free(&s->ranks);
    cf__kvset_free(&s->procs);
    cf__kvset_free(&s->list_procs);
    cf__free(s);
}

/* Starts a new segment in the current file; at the cap the current one
 * goes on (runs beyond CF_MAX_AUDIT_PARTS are judged together). */
static int new_seg(cf_audit *a)
{
    cf__audit_seg *s;
    if (a->nsegs >= CF_MAX_AUDIT_PARTS) {
        a->cur = a->nsegs - 1;
        return 0;
    }
    s = cf__calloc(1, sizeof *s);
    if (!s) {
        a->oom = 1;
        return -1;
    }
    s->file = a->nfiles - 1;
    s->root = a->nsegs;
    ev_init(&s->ev);
    cf__kvset_init(&s->hosts, (size_t)CF_MAX_AUDIT_HOSTS);
    cf__kvset_init(&s->ranks, (size_t)CF_MAX_RANKS);
    cf__kvset_init(&s->procs, (size_t)CF_MAX_RANKS);
    cf__kvset_init(&s->list_procs, (size_t)CF_MAX_RANKS);
    s->max_rank_seen = -1;
    s->env_gdr_level = -1;
    s->run_part = -1;
    a->segs[a->nsegs] = s;
    a->cur = a->nsegs++;
    a->last_host_n = 0;     /* the host cache fills the current segment's set */
    return 0;
}

static cf__audit_seg *cur_seg(cf_audit *a) { return a->segs[a->cur]; }

static cf__audit_loc here(const cf_audit *a, long line)
{
    cf__audit_loc l;
    l.file = a->nfiles - 1;
    l.line = line;
    return l;
}

static int new_part(cf_audit *a, int kind, long line)
{
    cf__audit_part *p;
    int idx;
    if (a->nparts >= CF_MAX_AUDIT_PARTS) {
        /* keep the latest: the last slot is reused (the newest run decides busbw) */
        idx = a->nparts - 1;
        if (a->f_run == idx) a->f_run = -1;
        if (a->f_nccl == idx) a->f_nccl = -1;
        if (a->f_topo == idx) a->f_topo = -1;
        if (a->f_ib == idx) a->f_ib = -1;
        if (a->f_fw == idx) a->f_fw = -1;
        for (int i = 0; i < a->nfindings; i++) {
            if (a->findings[i].part == idx) {
                a->findings[i] = a->findings[a->nfindings - 1];
                a->nfindings--;
                i--;
            }
        }
        part_free(&a->parts[idx]);
        a->parts_dropped++;
    } else {
        idx = a->nparts++;
    }
    p = &a->parts[idx];
    memset(p, 0, sizeof *p);
    p->kind = kind;
    p->file = a->nfiles - 1;
    p->seg = a->cur;
    p->first_line = p->last_line = line;
    switch (kind) {
    case CF__PART_PERF:
        p->r = cf__calloc(1, sizeof *p->r);
        if (!p->r) goto fail;
        p->r->nthread = p->r->ngpus = -1;
        p->r->min_bytes = p->r->max_bytes = p->r->avg = NAN;
        p->r->max_rank = -1;
        p->r->oob = -1;
        p->r->procs_at_rows = -1;
        p->r->coll = a->pending_coll;
        a->pending_coll = CF_COLL_UNKNOWN;
        cur_seg(a)->run_part = idx;
        break;
    case CF__PART_NCCL:
        p->ev = cf__malloc(sizeof *p->ev);
        if (!p->ev) goto fail;
        ev_init(p->ev);
        break;
    case CF__PART_TOPO:
        p->topo = cf__calloc(1, sizeof *p->topo);
        if (!p->topo) goto fail;
        break;
    case CF__PART_IBSTAT:
    case CF__PART_IBV:
        p->ports = cf__calloc(CF__MAX_PORTS, sizeof *p->ports);
        if (!p->ports) goto fail;
        break;
    default:
        break;
    }
    return idx;
fail:
    part_free(p);
    if (idx == a->nparts - 1) a->nparts--;
    a->oom = 1;
    return -1;
}

/* Notes a host and returns its hash. Consecutive lines mostly come from
 * one host: its hash is then reused without rehashing. */
static uint64_t note_host(cf_audit *a, const char *h, size_t n)
{
    cf__kv *e;
    uint64_t hh;
    if (n == 0) return 0;
    if (n == a->last_host_n && memcmp(h, a->last_host, n) == 0) return a->last_host_hash;
    hh = cf__hash(h, n, 0);
    if (n < sizeof a->last_host) {
        memcpy(a->last_host, h, n);
        a->last_host_n = n;
        a->last_host_hash = hh;
    }
    e = cf__kvset_get(&cur_seg(a)->hosts, hh, &a->oom);
    if (e) e->v[0]++;
    return hh;
}

/* Notes a rank (of a rank list: nranks 0; of a communicator: its size). */
static void note_rank(cf_audit *a, long rank, long nranks, const char *h, size_t n)
{
    cf__kv *e;
    cf__audit_seg *s = cur_seg(a);
    if (rank < 0) return;
    if (rank > s->max_rank_seen) s->max_rank_seen = rank;
    e = cf__kvset_get(&s->ranks, (uint64_t)rank + 1, &a->oom);
    if (e && n) e->v[0] = (int64_t)cf__hash(h, n, 0);
    if (e && nranks > e->v[1]) e->v[1] = nranks;
}

/* Key of a process: host hash mixed with its pid (Fibonacci hashing). */
static uint64_t proc_key(uint64_t host, long pid)
{
    uint64_t k = host ^ ((uint64_t)pid * 0x9E3779B97F4A7C15ULL);
    return k ? k : 1;
}

/* ------------------------------------------------------ nccl-tests runs */

int cf__audit_run_has_content(const cf__audit_run *r) { return r->nrows > 0 || r->partial_last; }

/* A run without result rows that still shows facts: the parameter line, the
 * rank list or the collective's name. */
int cf__audit_run_has_facts(const cf__audit_run *r)
{
    return r->rank_lines > 0 || r->params_lines > 0 || r->coll != CF_COLL_UNKNOWN;
}

/* The rank list names every rank 0..max once, with host and Pid, and has
 * no "..." gap: then it is the run's whole process set. */
static int list_complete(const cf__audit_run *r)
{
    return r->rank_lines > 0 && r->rank_lines == r->max_rank + 1 && !r->list_gap &&
           r->rank_pid_lines == r->rank_lines;
}

/* The latest nccl-tests run of segment si; NULL none. */
static cf__audit_run *seg_run(const cf_audit *a, int si)
{
    int k = a->segs[si]->run_part;
    if (k < 0 || k >= a->nparts || a->parts[k].kind != CF__PART_PERF || a->parts[k].seg != si) return NULL;
    return a->parts[k].r;
}

static void close_topo(cf_audit *a);
static void close_ib(cf_audit *a);
static void close_run(cf_audit *a);

/* The input shows another run from here on: the parts open now stay with
 * the current segment, what follows goes to a new one. */
static void split_seg(cf_audit *a)
{
    close_run(a);
    close_topo(a);
    close_ib(a);
    a->f_nccl = a->f_fw = -1;
    new_seg(a);
}

static void close_run(cf_audit *a)
{
    if (a->f_run >= 0) {
        cf__audit_part *p = &a->parts[a->f_run];
        cf__audit_run *r = p->r;
        cf__perf_analyze(r->rows, r->nrows, &r->an);
        if (r->partial_last) p->trunc_line = r->partial_line;
    }
    a->f_run = -1;
    a->in_rank_list = 0;
}

/* Opens a new nccl-tests run. `strong` when a line that starts a run opens
 * it (parameter line, device list): NCCL lines before it then belong to
 * another run, since nccl-tests prints these before NCCL initialises. A
 * header or a row opens weakly: NCCL lines pasted above a table are its. */
static cf__audit_run *open_run(cf_audit *a, long line, int strong)
{
    int idx;
    const cf__audit_run *prev;
    close_run(a);
    prev = seg_run(a, a->cur);
    if ((prev && (cf__audit_run_has_content(prev) || cf__audit_run_has_facts(prev))) ||
        (strong && cur_seg(a)->ev.lines > 0))
        split_seg(a);
    idx = new_part(a, CF__PART_PERF, line);
    if (idx < 0) return NULL;
    a->f_run = idx;
    return a->parts[idx].r;
}

static cf__audit_run *cur_run(cf_audit *a, long line)
{
    if (a->f_run >= 0) return a->parts[a->f_run].r;
    return open_run(a, line, 1);
}

/* A collective named by a binary ("all_gather_perf") or a test-start line:
 * the open run's if it has none yet, else the next run's. */
static void note_coll(cf_audit *a, cf_collective cc, int test_start)
{
    cf__audit_run *r = a->f_run >= 0 ? a->parts[a->f_run].r : NULL;
    if (cc == CF_COLL_UNKNOWN) return;
    if (r && !r->ended && (test_start ? r->nrows == 0 : r->coll == CF_COLL_UNKNOWN)) {
        r->coll = cc;
        return;
    }
    a->pending_coll = cc;
}

static void run_touch(cf_audit *a, long line)
{
    if (a->f_run >= 0) a->parts[a->f_run].last_line = line;
}

static void on_row(cf_audit *a, const cf__perf_row *row, int kind, long line)
{
    cf__audit_run *r;
    if (a->f_run >= 0) {
        r = a->parts[a->f_run].r;
        if (r->ended) r = open_run(a, line, 0);
    } else {
        r = open_run(a, line, 0);
    }
    if (!r) return;
    a->in_rank_list = 0;
    run_touch(a, line);
    if (r->procs_at_rows < 0) r->procs_at_rows = (long)cur_seg(a)->procs.n;
    if (kind == CF__ROW_PARTIAL) {
        r->partial_last = 1;
        r->partial_line = line;
        return;
    }
    r->partial_last = 0;
    if (r->nrows >= CF_MAX_PERF_ROWS) {
        r->rows_dropped++;
        return;
    }
    if (r->nrows == r->cap) {
        long ncap = r->cap ? r->cap * 2 : 64;
        cf__perf_row *nr;
        if (ncap > CF_MAX_PERF_ROWS) ncap = CF_MAX_PERF_ROWS;
        nr = cf__realloc(r->rows, (size_t)ncap * sizeof *nr);
        if (!nr) {
            a->oom = 1;
            return;
        }
        r->rows = nr;
        r->cap = ncap;
    }
    r->rows[r->nrows] = *row;
    r->rows[r->nrows].line = line;
    r->nrows++;
}

static void on_comment(cf_audit *a, const char *s, size_t n, long line)
{
    cf__perf_comment c;
    cf__audit_run *r;
    cf__perf_parse_comment(s, n, &c);
    switch (c.kind) {
    case CF__PC_PARAMS:
        r = a->f_run >= 0 ? a->parts[a->f_run].r : NULL;
        if (!r || r->nrows > 0 || r->ended || r->lay.known) r = open_run(a, line, 1);
        if (!r) return;
        r->params_lines++;
        r->nthread = c.nthread;
        r->ngpus = c.ngpus;
        r->min_bytes = c.min_bytes;
        r->max_bytes = c.max_bytes;
        run_touch(a, line);
        return;
    case CF__PC_USING_DEVICES:
        if (!cur_run(a, line)) return;
        a->in_rank_list = 1;
        run_touch(a, line);
        return;
    case CF__PC_RANK:
        r = a->f_run >= 0 ? a->parts[a->f_run].r : NULL;
        if (!r || r->nrows > 0 || r->ended) r = open_run(a, line, 1);
        if (!r) return;
        a->in_rank_list = 1;
        r->rank_lines++;
        if (c.rank > r->max_rank) r->max_rank = c.rank;
        if (c.rank == 0) r->rank0_lines++;
        if (c.host_n) {
            uint64_t h = cf__hash(c.host, c.host_n, 0);
            int k;
            for (k = 0; k < r->nhosts; k++)
                if (r->hosts[k] == h) break;
            if (k == r->nhosts && r->nhosts < 64) r->hosts[r->nhosts++] = h;
            note_host(a, c.host, c.host_n);
            if (c.pid >= 0) {
                r->rank_pid_lines++;
                cf__kvset_get(&cur_seg(a)->list_procs, proc_key(h, c.pid), &a->oom);
            }
        }
        note_rank(a, c.rank, 0, c.host, c.host_n);
        if (!r->gpu_name[0]) cf__copy(r->gpu_name, sizeof r->gpu_name, c.gpu_name);
        run_touch(a, line);
        return;
    case CF__PC_HEADER:
        r = a->f_run >= 0 ? a->parts[a->f_run].r : NULL;
        if (!r || r->nrows > 0 || r->ended) r = open_run(a, line, 0);
        if (!r) return;
        a->in_rank_list = 0;
        r->lay = c.layout;
        run_touch(a, line);
        return;
    case CF__PC_UNITS:
    case CF__PC_PLACE:
        if (a->f_run >= 0) run_touch(a, line);
        return;
    case CF__PC_OOB:
        if (a->f_run < 0) return;
        r = a->parts[a->f_run].r;
        r->oob = c.oob;
        r->oob_failed = c.oob_failed;
        run_touch(a, line);
        return;
    case CF__PC_AVG:
        if (a->f_run < 0) return;
        r = a->parts[a->f_run].r;
        r->avg = c.avg;
        r->ended = 1;
        run_touch(a, line);
        return;
    case CF__PC_TEST_START:
        if (c.collective[0]) {
            cf_collective cc;
            if (cf_collective_parse(c.collective, &cc) == CF_OK) note_coll(a, cc, 1);
        }
        return;
    default: {
        note_coll(a, cf__perf_collective_in(s, n), 0);
        if (cf__find(s, n, "lsmod")) {     /* "# lsmod | grep peermem" */
            cf__audit_seg *g = cur_seg(a);
            if (!g->lsmod++) g->lsmod_loc = here(a, line);
        }
        if (a->f_run >= 0 && a->in_rank_list) run_touch(a, line);
        return;
    }
    }
}

/* ------------------------------------------------------------ NCCL log */

static int ev_find_dev(const cf__audit_netev *e, uint64_t host, int idx)
{
    int any = -1;
    for (int i = 0; i < e->n_ibdevs; i++) {
        if (e->ibdevs[i].d.idx != idx) continue;
        if (e->ibdevs[i].host == host) return i;
        if (any < 0) any = i;
    }
    return any;
}

/* The message of an error line, as a finding quotes it: its first 180 bytes. */
static void keep_msg(char *dst, size_t cap, const cf__nccl_line *l)
{
    cf__copy_n(dst, cap, l->msg, l->msg_n > 180 ? 180 : l->msg_n);
}

static void ev_apply(cf_audit *a, cf__audit_netev *e, const cf__nccl_line *l, uint64_t host, cf__audit_loc at)
{
    e->lines++;
    if (l->roce_gid) e->roce_gid = 1;
    switch (l->kind) {
    case CF__NL_VERSION:
        if (!e->version[0]) cf__copy(e->version, sizeof e->version, l->text);
        break;
    case CF__NL_USING_NETWORK:
        cf__copy(e->net_name, sizeof e->net_name, l->text);
        e->net_family = cf__net_family(l->text, strlen(l->text));
        e->net_loc = at;
        break;
    case CF__NL_IB_USING:
        if (!e->ib_using_loc.line) e->ib_using_loc = at;
        /* hosts list the same devices: an entry equal to one kept is not
         * stored again, so the list stays short and lookups cheap */
        for (int i = 0; i < l->n_ibdevs; i++) {
            const cf__ibdev *d = &l->ibdevs[i];
            int k;
            for (k = 0; k < e->n_ibdevs; k++) {
                const cf__ibdev *o = &e->ibdevs[k].d;
                if (o->idx == d->idx && o->port == d->port && o->ll == d->ll &&
                    strcmp(o->name, d->name) == 0)
                    break;
            }
            if (k == e->n_ibdevs && e->n_ibdevs < CF__AUDIT_MAX_IBDEVS) {
                e->ibdevs[e->n_ibdevs].host = host;
                e->ibdevs[e->n_ibdevs].d = *d;
                e->n_ibdevs++;
            }
        }
        break;
    case CF__NL_OFI_PROVIDER:
        cf__copy(e->ofi_provider, sizeof e->ofi_provider, l->text);
        e->ofi_loc = at;
        e->ofi_plugin = 1;
        break;
    case CF__NL_OFI_PLUGIN:
        e->ofi_plugin = 1;
        break;
    case CF__NL_GDR_HCA:
        if (l->enabled) e->gdr_hca_on++;
        else if (e->gdr_hca_off++ == 0) e->gdr_hca_off_loc = at;
        break;
    case CF__NL_GDR_GPU:
        if (l->enabled) {
            e->gdr_gpu_on++;
        } else {
            if (e->gdr_gpu_off++ == 0) e->gdr_gpu_off_loc = at;
            if (l->distance >= 0) {
                e->off_distance = l->distance;
                e->off_distance_max = l->distance_max;
            }
        }
        break;
    case CF__NL_CHANNEL: {
        int fam = cf__net_family(l->net, strlen(l->net));
        cf__kv *kv;
        uint64_t key;
        if (e->ch[fam]++ == 0) e->ch_loc[fam] = at;
        if (!e->ch_net[0]) cf__copy(e->ch_net, sizeof e->ch_net, l->net);
        if (fam == CF__NCCLNET_IB && l->netdev >= 0) {
            int k = ev_find_dev(e, host, l->netdev);
            e->ch_ll[k >= 0 ? e->ibdevs[k].d.ll : CF__LL_UNKNOWN]++;
        }
        if (l->gdrdma) {
            if (!e->first_gdr_ch.line) e->first_gdr_ch = at;
        } else if (!e->first_nogdr_ch.line) {
            e->first_nogdr_ch = at;
        }
        /* rank key: host hash mixed with pid and device (Fibonacci hashing) */
        key = host ^ ((uint64_t)l->pid * 0x9E3779B97F4A7C15ULL) ^ ((uint64_t)(l->dev + 1) * 0xC2B2AE3D27D4EB4FULL);
        kv = cf__kvset_get(&e->rank_gdr, key, &a->oom);
        if (kv) {
            int slot = (l->dir == 1 ? 2 : 0) + (l->gdrdma ? 0 : 1);
            kv->v[slot]++;
        }
        break;
    }
    case CF__NL_ENV:
        if (strcmp(l->env_name, "NCCL_NET_GDR_LEVEL") == 0) {
            int lv = cf__gdr_level(l->text);
            if (lv == 0 && !e->gdr_env_off++) e->gdr_env_off_loc = at;
            if (lv > e->gdr_level) {
                e->gdr_level = lv;
                cf__copy(e->gdr_level_text, sizeof e->gdr_level_text, l->text);
                e->gdr_level_loc = at;
            }
        } else if (strcmp(l->env_name, "NCCL_IB_DISABLE") == 0) {
            e->ib_disable = l->text[0] == '1';
            e->ib_disable_loc = at;
        }
        break;
    case CF__NL_COMM:
        if (l->nranks > e->nranks) e->nranks = l->nranks;
        break;
    case CF__NL_DMABUF:
        if (!e->dmabuf++) e->dmabuf_loc = at;
        break;
    case CF__NL_COMPLETION_ERR:
        /* keep the first error that is not a flush (status 5 follows the cause) */
        if (e->completion++ == 0 || (e->completion_status == 5 && l->status != 5)) {
            e->completion_status = l->status;
            e->completion_loc = at;
            keep_msg(e->completion_msg, sizeof e->completion_msg, l);
        }
        break;
    case CF__NL_ERROR:
        if (e->errors++ == 0) {
            e->error_loc = at;
            e->error_code = l->status;
            keep_msg(e->error_msg, sizeof e->error_msg, l);
        }
        break;
    case CF__NL_TIMEOUT:
        if (e->timeouts++ == 0) {
            e->timeout_loc = at;
            keep_msg(e->timeout_msg, sizeof e->timeout_msg, l);
        }
        break;
    case CF__NL_IBVERBS_MISSING:
        if (!e->ibverbs_missing++) e->ibverbs_loc = at;
        break;
    default:
        break;
    }
}

/* 1 when the NCCL line shows another run than the current segment's: an
 * "NCCL version" that differs from the segment's, printed without a host
 * (old NCCL: rank 0 only) or by a host that printed the other one; a
 * host listing a port with another link layer than it did before; a
 * process outside the run's complete rank list; once the table has rows,
 * a process not seen before when NCCL lines came before the rows (every
 * rank of a run initialises NCCL before the first result row). */
static int nccl_other_run(cf_audit *a, const cf__nccl_line *l, uint64_t host)
{
    cf__audit_seg *s = cur_seg(a);
    const cf__audit_run *r;
    uint64_t key;
    if (s->ev.lines == 0 && s->run_part < 0) return 0;
    if (l->kind == CF__NL_VERSION && s->ev.version[0] && l->text[0] &&
        strcmp(s->ev.version, l->text) != 0) {
        const cf__kv *h = l->host_n ? cf__kvset_find(&s->hosts, host) : NULL;
        if (!l->host_n || (h && h->v[1])) return 1;
    }
    if (l->kind == CF__NL_IB_USING && l->host_n) {
        /* one host's port has one link layer: IB here and RoCE before is another run */
        for (int i = 0; i < l->n_ibdevs; i++) {
            const cf__ibdev *d = &l->ibdevs[i];
            for (int k = 0; k < s->ev.n_ibdevs; k++) {
                const cf__audit_hostdev *o = &s->ev.ibdevs[k];
                if (o->host == host && o->d.port == d->port && o->d.ll != d->ll &&
                    o->d.ll != CF__LL_UNKNOWN && d->ll != CF__LL_UNKNOWN && strcmp(o->d.name, d->name) == 0)
                    return 1;
            }
        }
    }
    if (!l->host_n || l->pid < 0) return 0;
    key = proc_key(host, l->pid);
    if (key == s->known_proc) return 0;
    if (cf__kvset_find(&s->procs, key)) {
        s->known_proc = key;
        return 0;
    }
    r = seg_run(a, a->cur);
    if (!r) return 0;
    if (list_complete(r) && !cf__kvset_find(&s->list_procs, key)) return 1;
    return cf__audit_run_has_content(r) && r->procs_at_rows > 0;
}

static void on_nccl(cf_audit *a, const cf__nccl_line *l, long line)
{
    uint64_t host;
    cf__audit_loc at = here(a, line);
    cf__audit_part *p;
    cf__audit_seg *s;
    host = note_host(a, l->host, l->host_n);
    if (nccl_other_run(a, l, host)) {
        split_seg(a);
        host = note_host(a, l->host, l->host_n);
    }
    s = cur_seg(a);
    if (l->host_n && l->pid >= 0) {
        uint64_t key = proc_key(host, l->pid);
        if (key != s->known_proc && cf__kvset_get(&s->procs, key, &a->oom)) s->known_proc = key;
    }
    if (a->f_nccl < 0) {
        a->f_nccl = new_part(a, CF__PART_NCCL, line);
        if (a->f_nccl < 0) return;
    }
    p = &a->parts[a->f_nccl];
    p->last_line = line;
    if (l->kind == CF__NL_OTHER && !l->roce_gid) {     /* most lines: nothing to record */
        p->ev->lines++;
        s->ev.lines++;
        return;
    }
    if (l->kind == CF__NL_COMM) {
        note_rank(a, l->rank, l->nranks, l->host, l->host_n);
        if (l->comm_id) {
            int k;
            for (k = 0; k < s->ncomm; k++)
                if (s->comm_ids[k] == l->comm_id) break;
            if (k == s->ncomm && s->ncomm < (int)(sizeof s->comm_ids / sizeof s->comm_ids[0]))
                s->comm_ids[s->ncomm++] = l->comm_id;
        }
    }
    if (l->kind == CF__NL_VERSION && l->host_n) {
        cf__kv *h = cf__kvset_find(&s->hosts, host);
        if (h) h->v[1] = 1;
    }
    ev_apply(a, p->ev, l, host, at);
    ev_apply(a, &s->ev, l, host, at);
}

/* ------------------------------------------------------- topo & ports */

static void close_topo(cf_audit *a)
{
    a->f_topo = -1;
    a->topo_state = 0;
}

static void close_ib(cf_audit *a)
{
    if (a->f_ib >= 0) {
        cf__audit_part *p = &a->parts[a->f_ib];
        for (int i = 0; i < p->nports; i++) {
            cf__port_finish(&p->ports[i]);
            if (!p->ports[i].complete && !p->trunc_line) p->trunc_line = p->ports[i].line;
        }
    }
    a->f_ib = -1;
    a->cur_port = NULL;
    a->cur_ca[0] = '\0';
}

static int ib_line(cf_audit *a, const char *s, size_t n, long line, int start_kind)
{
    cf__ib_line l;
    cf__audit_part *p;
    int devinfo;
    if (a->f_ib < 0 && start_kind < 0) return 0;
    devinfo = a->f_ib >= 0 ? a->parts[a->f_ib].kind == CF__PART_IBV : start_kind == CF__PART_IBV;
    if (devinfo) cf__ibv_parse(s, n, &l);
    else cf__ibstat_parse(s, n, &l);
    if (l.kind == CF__IB_NONE) return 0;
    if (a->f_ib < 0) {
        if (l.kind != CF__IB_CA) return 0;
        a->f_ib = new_part(a, start_kind, line);
        if (a->f_ib < 0) return 1;
    }
    p = &a->parts[a->f_ib];
    p->last_line = line;
    switch (l.kind) {
    case CF__IB_CA:
        cf__copy(a->cur_ca, sizeof a->cur_ca, l.name);
        a->cur_port = NULL;
        break;
    case CF__IB_PORT:
        if (p->nports >= CF__MAX_PORTS) {
            a->cur_port = NULL;
            break;
        }
        a->cur_port = &p->ports[p->nports++];
        memset(a->cur_port, 0, sizeof *a->cur_port);
        cf__copy(a->cur_port->ca, sizeof a->cur_port->ca, a->cur_ca);
        a->cur_port->port = l.port >= 0 && l.port < 100000 ? (int)l.port : -1;
        a->cur_port->active = -1;
        a->cur_port->rate_gbps = NAN;
        a->cur_port->line = line;
        break;
    default:
        if (a->cur_port) cf__port_apply(a->cur_port, &l, devinfo);
        break;
    }
    return 1;
}

static int is_legend_line(const char *p, const char *end)
{
    size_t n = (size_t)(end - p);
    const char *eq;
    if (cf__starts(p, n, "Legend:") || cf__starts(p, n, "NIC Legend:")) return 1;
    eq = memchr(p, '=', n);
    if (eq && eq - p <= 8) {
        const char *t = p;
        while (t < eq && *t != ' ') t++;
        if (cf__topo_link(p, (size_t)(t - p), NULL) != CF__TL_UNKNOWN ||
            cf__starts(p, n, "NV#"))
            return 1;
    }
    return 0;
}

/* A topology matrix or port dump starts: after a run that ended ("# Avg
 * bus bandwidth") it opens a new segment (it may be the next run's node;
 * with a single run in the input it joins that run again when the audit
 * concludes). */
static void hw_start(cf_audit *a)
{
    const cf__audit_run *r = seg_run(a, a->cur);
    if (r && r->ended) split_seg(a);
    else close_run(a);
}

/* -------------------------------------------------------- other lines */

/* A line of a framework log (PyTorch, torchrun, DeepSpeed) or an nccl-tests
 * failure: counted in the file's framework part. */
static int framework_line(cf_audit *a, long line)
{
    if (a->f_fw < 0) {
        a->f_fw = new_part(a, CF__PART_FRAMEWORK, line);
        if (a->f_fw < 0) return -1;
    }
    a->parts[a->f_fw].last_line = line;
    a->parts[a->f_fw].fw_lines++;
    return 0;
}

/* A framework line that ends the job: counted, and the finding `code` quotes it. */
static void framework_finding(cf_audit *a, const char *s, size_t n, long line, cf__audit_code code,
                              const char *what)
{
    if (framework_line(a, line) != 0) return;
    cf__audit_add_finding(a, a->f_fw, code, here(a, line), "%s: %.*s", what, (int)(n > 200 ? 200 : n), s);
}

static int is_launcher(const char *t, size_t tn)
{
    return (tn >= 6 && memcmp(t + tn - 6, "mpirun", 6) == 0) ||
           (tn >= 7 && memcmp(t + tn - 7, "mpiexec", 7) == 0) ||
           (tn >= 6 && memcmp(t + tn - 6, "orterun", 6) == 0);
}

/* 1 if the line is a launch command: the launcher followed by an option or
 * a program path ("mpirun -np 2 ...", "mpirun ./build/all_reduce_perf"),
 * not Open MPI's own messages ("mpirun noticed that process rank 0 ..."). */
static int is_launch_command(const char *s, size_t n)
{
    const char *p = s, *end = s + n, *t;
    size_t tn;
    while (cf__token(&p, end, &t, &tn)) {
        if (!is_launcher(t, tn)) continue;
        if (!cf__token(&p, end, &t, &tn)) return 0;
        return t[0] == '-' || memchr(t, '/', tn) != NULL || cf__find(t, tn, "_perf") != NULL;
    }
    return 0;
}

/* A launch command starts a run: after NCCL lines or an nccl-tests run it
 * starts a new segment. Reads -np, --host and how NCCL_NET_GDR_LEVEL is
 * passed (in front of the launcher only, or forwarded with -x). */
static void launcher_line(cf_audit *a, const char *s, size_t n, long line)
{
    const char *p = s, *end = s + n, *t;
    size_t tn;
    int after = 0, fwd_all = 0;
    char gdr_prefix[16] = "";
    int fwd = 0, xset = 0;
    char xval[16] = "";
    cf__audit_launch *la;
    const cf__audit_run *r;
    if (!is_launch_command(s, n)) return;
    r = seg_run(a, a->cur);
    if ((r && (cf__audit_run_has_content(r) || cf__audit_run_has_facts(r))) || cur_seg(a)->ev.lines > 0) split_seg(a);
    la = &cur_seg(a)->la;
    la->seen = 1;
    la->at = here(a, line);
    while (cf__token(&p, end, &t, &tn)) {
        if (!after) {
            if (is_launcher(t, tn)) {
                after = 1;
            } else if (cf__starts(t, tn, "NCCL_NET_GDR_LEVEL=")) {
                cf__copy_n(gdr_prefix, sizeof gdr_prefix, t + 19, tn - 19);
            }
            continue;
        }
        if ((tn == 2 && memcmp(t, "-x", 2) == 0) || (tn == 5 && memcmp(t, "--env", 5) == 0) ||
            (tn == 5 && memcmp(t, "-genv", 5) == 0) || (tn == 4 && memcmp(t, "-env", 4) == 0)) {
            const char *v;
            size_t vn;
            if (!cf__token(&p, end, &v, &vn)) break;
            if (cf__starts(v, vn, "NCCL_NET_GDR_LEVEL")) {
                fwd = 1;
                if (vn > 19 && v[18] == '=') {
                    xset = 1;
                    cf__copy_n(xval, sizeof xval, v + 19, vn - 19);
                } else if (vn == 18 && t[1] != 'x') {
                    const char *w;
                    size_t wn;
                    if (cf__token(&p, end, &w, &wn)) {
                        xset = 1;
                        cf__copy_n(xval, sizeof xval, w, wn);
                    }
                }
            }
        } else if (tn == 7 && memcmp(t, "-genvall", 7) == 0) {
            fwd_all = 1;
        } else if ((tn == 3 && memcmp(t, "-np", 3) == 0) || (tn == 2 && memcmp(t, "-n", 2) == 0) ||
                   (tn == 4 && memcmp(t, "--np", 4) == 0)) {
            const char *v;
            size_t vn;
            double d;
            if (cf__token(&p, end, &v, &vn) && cf__num(v, vn, &d) && d >= 1) la->np = cf__dtol(d);
        } else if ((tn == 6 && memcmp(t, "--host", 6) == 0) || (tn == 5 && memcmp(t, "-host", 5) == 0) ||
                   (tn == 2 && memcmp(t, "-H", 2) == 0)) {
            const char *v;
            size_t vn;
            if (cf__token(&p, end, &v, &vn)) {
                long cnt = 1;
                for (size_t i = 0; i < vn; i++) cnt += v[i] == ',';
                la->hosts = cnt;
            }
        }
    }
    if (!after) return;
    if (gdr_prefix[0]) {
        la->gdr_level_prefix = 1;
        la->gdr_level_forwarded = fwd || fwd_all;
        la->gdr_level = cf__gdr_level(gdr_prefix);
        cf__copy(la->gdr_text, sizeof la->gdr_text, gdr_prefix);
    }
    if (xset) {
        la->gdr_level_forwarded = 1;
        la->gdr_level = cf__gdr_level(xval);
        cf__copy(la->gdr_text, sizeof la->gdr_text, xval);
        la->gdr_level_prefix = 0;
    }
}

static int other_line(cf_audit *a, const char *s, size_t n, long line)
{
    cf_collective cc;
    /* framework logs (PyTorch ProcessGroupNCCL, torchrun, DeepSpeed), nccl-tests failures */
    if (cf__find(s, n, "Watchdog caught collective operation timeout") ||
        (cf__find(s, n, "ProcessGroupNCCL") && (cf__find(s, n, "imeout") || cf__find(s, n, "timed out")))) {
        framework_finding(a, s, n, line, CF__CODE_TIMEOUT, "collective timed out");
        return 1;
    }
    if (cf__find(s, n, "NCCL error") || cf__find(s, n, "Test NCCL failure") ||
        cf__find(s, n, "DistBackendError") || cf__find(s, n, "ncclSystemError") ||
        cf__find(s, n, "ncclInternalError") || cf__find(s, n, "ncclRemoteError") ||
        cf__find(s, n, "ncclUnhandledCudaError") || cf__find(s, n, "Test CUDA failure")) {
        framework_finding(a, s, n, line, CF__CODE_NCCL_ERROR, "NCCL call failed");
        return 1;
    }
    if (cf__find(s, n, "ProcessGroupNCCL") || cf__find(s, n, "torch.distributed") ||
        cf__find(s, n, "torchrun") || cf__find(s, n, "DeepSpeed") || cf__find(s, n, "deepspeed")) {
        framework_line(a, line);
        return 1;
    }
    cc = cf__perf_collective_in(s, n);
    if (cf__find(s, n, "mpirun") || cf__find(s, n, "mpiexec")) {
        launcher_line(a, s, n, line);      /* may start a new segment first */
        note_coll(a, cc, 0);
        return 1;
    }
    note_coll(a, cc, 0);
    /* lsmod: "nvidia_peermem  12288  0" (loaded), "# lsmod | grep peermem" */
    {
        const char *p = cf__skip_ws(s, s + n);
        size_t pn = (size_t)(s + n - p);
        if ((CF__LIT(p, pn, "nvidia_peermem") || CF__LIT(p, pn, "nv_peer_mem"))) {
            const char *q = p;
            while (q < s + n && *q != ' ' && *q != '\t') q++;
            q = cf__skip_ws(q, s + n);
            if (q > p && q < s + n && *q >= '0' && *q <= '9') {
                cf__audit_seg *g = cur_seg(a);
                if (!g->peermem++) g->peermem_loc = here(a, line);
                if (!g->lsmod++) g->lsmod_loc = here(a, line);
                return 1;
            }
        }
        if (cf__find(s, n, "lsmod")) {
            cf__audit_seg *g = cur_seg(a);
            if (!g->lsmod++) g->lsmod_loc = here(a, line);
            return 1;
        }
    }
    /* env listings: "NCCL_NET_GDR_LEVEL=SYS" */
    if (cf__starts(s, n, "NCCL_NET_GDR_LEVEL=")) {
        char v[16];
        const char *e = s + 19;
        size_t k = 0;
        while (e + k < s + n && e[k] != ' ' && e[k] != '\t' && k < sizeof v - 1) k++;
        cf__copy_n(v, sizeof v, e, k);
        cur_seg(a)->env_gdr_level = cf__gdr_level(v);
        cur_seg(a)->env_gdr_loc = here(a, line);
        return 1;
    }
    return cc != CF_COLL_UNKNOWN;
}

/* ------------------------------------------------------- line routing */

static cf_status on_line(void *ctx, const char *s, size_t n, long lineno, int cut, int no_nl)
{
    cf_audit *a = ctx;
    const char *p, *end;
    (void)no_nl;
    a->last_lineno = lineno;
    a->last_cut = cut;
    s = cf__strip_prefixes(s, &n);
    end = s + n;
    p = cf__skip_ws(s, end);

    if (p == end) {                 /* blank line */
        if (a->topo_state == 1) a->topo_state = 2;
        return a->oom ? CF_ENOMEM : CF_OK;
    }
    if (a->topo_state == 1) {
        if (a->f_topo >= 0 && cf__topo_row(p, (size_t)(end - p), a->parts[a->f_topo].topo)) {
            a->parts[a->f_topo].last_line = lineno;
            return CF_OK;
        }
        a->topo_state = 2;
    }
    if (a->topo_state == 2) {
        if (a->f_topo >= 0 && (is_legend_line(p, end) ||
                               cf__topo_nic_legend(p, (size_t)(end - p), a->parts[a->f_topo].topo)))
            return CF_OK;
        close_topo(a);
    }
    if (a->f_ib >= 0) {
        if (ib_line(a, s, n, lineno, -1)) return a->oom ? CF_ENOMEM : CF_OK;
        close_ib(a);
    }
    if (*p >= '0' && *p <= '9') {
        cf__perf_row row;
        const cf__perf_layout *lay = a->f_run >= 0 ? &a->parts[a->f_run].r->lay : NULL;
        int k = cf__perf_parse_row(p, (size_t)(end - p), lay, &row);
        if (k != CF__ROW_NONE) {
            on_row(a, &row, k, lineno);
            return a->oom ? CF_ENOMEM : CF_OK;
        }
    } else if (*p == '#') {
        on_comment(a, p, (size_t)(end - p), lineno);
        return a->oom ? CF_ENOMEM : CF_OK;
    }
    {
        cf__nccl_line l;
        cf__nccl_parse(s, n, &l);
        if (l.kind != CF__NL_NONE) {
            on_nccl(a, &l, lineno);
            return a->oom ? CF_ENOMEM : CF_OK;
        }
    }
    if (p == s && cf__starts(s, n, "CA '")) {
        hw_start(a);
        ib_line(a, s, n, lineno, CF__PART_IBSTAT);
        return a->oom ? CF_ENOMEM : CF_OK;
    }
    if (cf__starts(p, (size_t)(end - p), "hca_id:")) {
        hw_start(a);
        ib_line(a, s, n, lineno, CF__PART_IBV);
        return a->oom ? CF_ENOMEM : CF_OK;
    }
    if (*p == 'G' && cf__starts(p, (size_t)(end - p), "GPU0")) {
        cf__topo tmp;
        if (cf__topo_header(p, (size_t)(end - p), &tmp)) {
            hw_start(a);
            a->f_topo = new_part(a, CF__PART_TOPO, lineno);
            if (a->f_topo < 0) return CF_ENOMEM;
            *a->parts[a->f_topo].topo = tmp;
            a->topo_state = 1;
            return CF_OK;
        }
    }
    if (end - p == 3 && memcmp(p, "...", 3) == 0) {
        if (a->in_rank_list && a->f_run >= 0) a->parts[a->f_run].r->list_gap = 1;
        return CF_OK;
    }
    if (!other_line(a, s, n, lineno) && a->f_run >= 0) {
        /* a result row behind extra leading columns ("rank7  8  2  float ...") */
        cf__perf_row row;
        int k = cf__perf_parse_row(p, (size_t)(end - p), &a->parts[a->f_run].r->lay, &row);
        if (k == CF__ROW_OK) on_row(a, &row, k, lineno);
    }
    return a->oom ? CF_ENOMEM : CF_OK;
}

/* ----------------------------------------------------------- public API */

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
        for (int i = 0; i < a->nparts; i++) part_free(&a->parts[i]);
    cf__free(a->parts);
    cf__free(a->findings);
    for (int i = 0; i < a->nfiles; i++) cf__free(a->files[i]);
    cf__free(a->files);
    if (a->segs)
        for (int i = 0; i < a->nsegs; i++) seg_free(a->segs[i]);
    cf__free(a->segs);
    cf__linebuf_free(&a->lb);
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
    if (new_seg(a) != 0) {
        cf__free(a->files[--a->nfiles]);
        return CF_ENOMEM;
    }
    a->topo_state = 0;
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
    return cf__linebuf_feed(&a->lb, buf, n, on_line, a);
}

cf_status cf_audit_end_file(cf_audit *a)
{
    cf_status st;
    if (!a) return CF_EINVAL;
    if (a->nfiles == 0) return CF_OK;
    if (a->cur < 0) return CF_ENOMEM;      /* the first begin_file failed */
    st = cf__linebuf_finish(&a->lb, on_line, a);
    close_run(a);
    close_topo(a);
    close_ib(a);
    if (a->last_cut) {
        cf__audit_add_run_finding(a, a->cur, CF__CODE_TRUNCATED_INPUT, here(a, a->last_lineno), NULL,
                        "the last line is longer than %ld bytes and was cut",
                        (long)CF_MAX_LINE_BYTES);
    }
    a->f_nccl = a->f_fw = -1;
    return st != CF_OK ? st : (a->oom ? CF_ENOMEM : CF_OK);
}
