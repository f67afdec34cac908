/* evidence.c — the audit's evidence as it streams in (DESIGN §5): the
 * findings store, the segments (stretches of input that belong to one run)
 * with their host, rank and process sets, the parts (one per nccl-tests
 * run, NCCL log stream, topology matrix, port dump or framework log of a
 * file) and the life of an nccl-tests run: opened by its first line,
 * filled with result rows, closed (analysed) at its end or when the input
 * shows another run.
 *
 * Shape: every structure has a fixed cap (limits.h): CF_MAX_AUDIT_PARTS
 * parts and segments, CF_MAX_FINDINGS findings, CF_MAX_PERF_ROWS rows per
 * run, capped hash sets; past a cap the newest part reuses the last slot
 * and the counts of what was dropped go to the report. An allocation
 * failure sets the sticky a->oom, which the public API turns into
 * CF_ENOMEM. route.c decides what each line is and calls in here; the
 * conclusions (group.c, verdict.c, findings.c) read what is kept. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "audit/audit_int.h"
#include "base/base.h"

/* ------------------------------------------------------------ evidence */

static void ev_init(cf__audit_netev *e)
{
    memset(e, 0, sizeof *e);
    e->gdr_level = -1;
    e->ib_disable = -1;
    e->off_distance = e->off_distance_max = -1;
    e->completion_status = -1;
    e->gid_index = -1;
    e->tuned_bytes = -1;
    e->tuned_coll = CF_COLL_UNKNOWN;
    memset(e->dev_of_idx, -1, sizeof e->dev_of_idx);
    cf__kvset_init(&e->rank_gdr, (size_t)CF_MAX_RANKS);
}

static void ev_clear(cf__audit_netev *e)
{
    if (e) cf__kvset_clear(&e->rank_gdr);
}

void cf__audit_part_clear(cf__audit_part *p)
{
    if (p->r) cf__free(p->r->rows);
    cf__free(p->r);
    if (p->ev) ev_clear(p->ev);
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
    f->action = NULL;
    if (action) {
        cf__copy(f->act, sizeof f->act, action);
        f->action = f->act;
    }
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

void cf__audit_add_finding_act(cf_audit *a, int pi, cf__audit_code code, cf__audit_loc at,
                               const char *action, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vadd(a, pi, -1, code, at, action, fmt, ap);
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

void cf__audit_seg_free(cf__audit_seg *s)
{
    if (!s) return;
    ev_clear(&s->ev);
    cf__kvset_clear(&s->hosts);
    cf__kvset_clear(&s->ranks);
    cf__kvset_clear(&s->procs);
    cf__kvset_clear(&s->list_procs);
    cf__free(s);
}

/* Starts a new segment in the current file; at the cap the current one
 * goes on (runs beyond CF_MAX_AUDIT_PARTS are judged together). */
int cf__audit_new_seg(cf_audit *a)
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

int cf__audit_new_part(cf_audit *a, int kind, long line)
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
        cf__audit_part_clear(&a->parts[idx]);
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
        cf__audit_cur_seg(a)->run_part = idx;
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
    case CF__PART_PROBE:
        p->ports = cf__calloc(CF__MAX_PORTS, sizeof *p->ports);
        if (!p->ports) goto fail;
        break;
    default:
        break;
    }
    return idx;
fail:
    cf__audit_part_clear(p);
    if (idx == a->nparts - 1) a->nparts--;
    a->oom = 1;
    return -1;
}

/* Notes a host and returns its hash. Consecutive lines mostly come from
 * one host: its hash is then reused without rehashing. */
uint64_t cf__audit_note_host(cf_audit *a, const char *h, size_t n)
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
    e = cf__kvset_get(&cf__audit_cur_seg(a)->hosts, hh, &a->oom);
    if (e) e->v[CF__HOSTS_SEEN]++;
    return hh;
}

/* Notes a rank (of a rank list: nranks 0; of a communicator: its size). */
/* Key of a rank in the rank set: the rank's bytes through base's hash
 * (cf__fnv1a from the FNV basis), so the sequential ranks of a job spread
 * over the open-addressed set instead of filling one run of slots that
 * every probe walks. */
static uint64_t rank_key(long rank)
{
    uint64_t r = (uint64_t)rank, k = cf__fnv1a(CF__FNV_BASIS, &r, sizeof r);
    return k ? k : 1;
}

void cf__audit_note_rank(cf_audit *a, long rank, long nranks, const char *h, size_t n)
{
    cf__kv *e;
    cf__audit_seg *s = cf__audit_cur_seg(a);
    if (rank < 0) return;
    if (rank > s->max_rank_seen) s->max_rank_seen = rank;
    e = cf__kvset_get(&s->ranks, rank_key(rank), &a->oom);
    if (e && n) e->v[CF__RANKS_HOST] = (int64_t)cf__hash(h, n, 0);
    if (e && nranks > e->v[CF__RANKS_NRANKS]) e->v[CF__RANKS_NRANKS] = nranks;
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
int cf__audit_list_complete(const cf__audit_run *r)
{
    return r->rank_lines > 0 && r->rank_lines == r->max_rank + 1 && !r->list_gap &&
           r->rank_pid_lines == r->rank_lines;
}

/* The latest nccl-tests run of segment si; NULL none. */
cf__audit_run *cf__audit_seg_run(const cf_audit *a, int si)
{
    int k = a->segs[si]->run_part;
    if (k < 0 || k >= a->nparts || a->parts[k].kind != CF__PART_PERF || a->parts[k].seg != si) return NULL;
    return a->parts[k].r;
}

/* The input shows another run from here on: the parts open now stay with
 * the current segment, what follows goes to a new one. */
void cf__audit_split_seg(cf_audit *a)
{
    cf__audit_close_run(a);
    cf__audit_close_topo(a);
    cf__audit_close_ib(a);
    a->f_nccl = a->f_fw = -1;
    cf__audit_new_seg(a);
}

void cf__audit_close_run(cf_audit *a)
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
cf__audit_run *cf__audit_open_run(cf_audit *a, long line, int strong)
{
    int idx;
    const cf__audit_run *prev;
    cf__audit_close_run(a);
    prev = cf__audit_seg_run(a, a->cur);
    if ((prev && (cf__audit_run_has_content(prev) || cf__audit_run_has_facts(prev))) ||
        (strong && cf__audit_cur_seg(a)->ev.lines > 0))
        cf__audit_split_seg(a);
    idx = cf__audit_new_part(a, CF__PART_PERF, line);
    if (idx < 0) return NULL;
    a->f_run = idx;
    return a->parts[idx].r;
}

cf__audit_run *cf__audit_cur_run(cf_audit *a, long line)
{
    if (a->f_run >= 0) return a->parts[a->f_run].r;
    return cf__audit_open_run(a, line, 1);
}

/* A collective named by a binary ("all_gather_perf") or a test-start line:
 * the open run's if it has none yet, else the next run's. */
void cf__audit_note_coll(cf_audit *a, cf_collective cc, int test_start)
{
    cf__audit_run *r = a->f_run >= 0 ? a->parts[a->f_run].r : NULL;
    if (cc == CF_COLL_UNKNOWN) return;
    if (r && !r->ended && (test_start ? r->nrows == 0 : r->coll == CF_COLL_UNKNOWN)) {
        r->coll = cc;
        return;
    }
    a->pending_coll = cc;
}

void cf__audit_add_row(cf_audit *a, const cf__perf_row *row, int kind, long line)
{
    cf__audit_run *r;
    if (a->f_run >= 0) {
        r = a->parts[a->f_run].r;
        if (r->ended) {
            r = cf__audit_open_run(a, line, 0);
        } else if (r->nrows > 0 && !isnan(row->lead) && !isnan(r->rows[r->nrows - 1].lead) &&
                   row->lead != r->rows[r->nrows - 1].lead && row->size <= r->rows[r->nrows - 1].size) {
            /* a summary table: a leading column (the node count) changes as the
             * sizes start over, so each of its rows is another run */
            cf__perf_layout lay = r->lay;
            cf_collective cc = r->coll;
            r = cf__audit_open_run(a, line, 0);
            if (r) {
                r->lay = lay;
                r->coll = cc;
            }
        }
    } else {
        r = cf__audit_open_run(a, line, 0);
    }
    if (!r) return;
    a->in_rank_list = 0;
    cf__audit_run_touch(a, line);
    if (r->procs_at_rows < 0) r->procs_at_rows = (long)cf__audit_cur_seg(a)->procs.n;
    if (kind == CF__ROW_PARTIAL) {
        r->partial_last = 1;
        r->partial_line = line;
        return;
    }
    r->partial_last = 0;
    if (!r->lay.known && !r->lay.guess_seen && row->full) {
        r->lay.guess_seen = 1;
        r->lay.guess_root = row->root_col;
    }
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

/* ------------------------------------------------------- topo & ports */

void cf__audit_close_topo(cf_audit *a)
{
    a->f_topo = -1;
    a->topo_state = CF__TOPO_NONE;
}

void cf__audit_close_ib(cf_audit *a)
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
