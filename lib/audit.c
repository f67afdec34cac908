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
 * its JSON by audit_text.c. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "audit_int.h"
#include "clusterfit/collective.h"
#include "internal.h"

/* ------------------------------------------------------------ constants */

/* BUSBW_BELOW_LINK_RATE: largest-size busbw under 70 % of expected (§5). */
#define BELOW_RATE_FRACTION 0.70

/* Ring busbw ÷ per-node line rate (GB/s), GDR on: the collective model's
 * table (lib/model_constants.h, DESIGN §4.2), used when the model itself
 * cannot be asked (GPU or node count not shown). */
static double eta_of(cf_network n)
{
    static const struct { cf_network net; const char *name; } names[] = {
        {CF_NET_IB, "ETA_IB"}, {CF_NET_ROCE, "ETA_ROCE"}, {CF_NET_EFA, "ETA_EFA"},
        {CF_NET_TCPX, "ETA_TCPX"}, {CF_NET_TCPXO, "ETA_TCPXO"}, {CF_NET_TCP, "ETA_TCP"},
        {CF_NET_RDMA, "ETA_RDMA"},
    };
    const char *want = "ETA_RDMA";     /* network not shown: IB or RoCE, unstated */
    size_t nc = 0;
    const cf_model_constant *c = cf_model_constants(&nc);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].net == n) want = names[i].name;
    for (size_t i = 0; c && i < nc; i++)
        if (strcmp(c[i].name, want) == 0) return c[i].value;
    return 0.90;
}

/* The GPU of a device name as nccl-tests / nvidia-smi print it ("NVIDIA
 * A100-SXM4-40GB", "Tesla T4", "NVIDIA H100 80GB HBM3") in the vocabulary
 * of DESIGN §2, with the usual intra-node link of that board; NULL if not
 * recognised. Order matters: longer, more specific names first. */
static const struct { const char *sub; const char *gpu; cf_intra_link link; } gpu_names[] = {
    {"GH200", "GH200", CF_INTRA_NVSWITCH_NVLINK4}, {"GB200", "GB200", CF_INTRA_NVL72},
    {"GB300", "GB300", CF_INTRA_NVL72}, {"H100 NVL", "H100-NVL", CF_INTRA_NVLINK_BRIDGE},
    {"H100 PCIe", "H100-PCIe", CF_INTRA_PCIE5}, {"H100-PCIE", "H100-PCIe", CF_INTRA_PCIE5},
    {"H100", "H100-SXM", CF_INTRA_NVSWITCH_NVLINK4}, {"H200", "H200-SXM", CF_INTRA_NVSWITCH_NVLINK4},
    {"H800", "H800", CF_INTRA_NVSWITCH_NVLINK4}, {"H20", "H20", CF_INTRA_NVSWITCH_NVLINK4},
    {"B200", "B200", CF_INTRA_NVSWITCH_NVLINK5}, {"B300", "B300", CF_INTRA_NVSWITCH_NVLINK5},
    {"A100-PCIE", "A100-PCIe", CF_INTRA_PCIE4}, {"A100 80GB PCIe", "A100-PCIe", CF_INTRA_PCIE4},
    {"A100-SXM4-80GB", "A100-SXM-80", CF_INTRA_NVSWITCH_NVLINK3},
    {"A100-SXM4-40GB", "A100-SXM-40", CF_INTRA_NVSWITCH_NVLINK3},
    {"A100-SXM", "A100-SXM-80", CF_INTRA_NVSWITCH_NVLINK3},
    {"V100-SXM2", "V100-SXM2", CF_INTRA_NVLINK2}, {"V100-PCIE", "V100-PCIe", CF_INTRA_PCIE3},
    {"L40S", "L40S", CF_INTRA_PCIE4}, {"L20", "L20", CF_INTRA_PCIE4}, {"L4", "L4", CF_INTRA_PCIE4},
    {"A10G", "A10G", CF_INTRA_PCIE4}, {"T4", "T4", CF_INTRA_PCIE3},
    {"RTX 4090", "RTX-4090", CF_INTRA_PCIE4}, {"MI355X", "MI355X", CF_INTRA_XGMI},
    {"MI325X", "MI325X", CF_INTRA_XGMI}, {"MI300X", "MI300X", CF_INTRA_XGMI},
    {"MI250X", "MI250X", CF_INTRA_XGMI},
};

static int gpu_of_name(const char *name, const char **gpu, cf_intra_link *link)
{
    for (size_t i = 0; name && i < sizeof gpu_names / sizeof gpu_names[0]; i++) {
        if (strstr(name, gpu_names[i].sub)) {
            *gpu = gpu_names[i].gpu;
            *link = gpu_names[i].link;
            return 1;
        }
    }
    return 0;
}

/* NCCL_NET_GDR_LEVEL's default: PXB (src/graph/paths.cc). */
#define GDR_LEVEL_DEFAULT 2

/* --------------------------------------------------------------- types */

enum { PK_PERF = 0, PK_NCCL, PK_TOPO, PK_IBSTAT, PK_IBV, PK_FRAMEWORK };
static const char *const kind_names[] = {"nccl-tests", "nccl-log", "topo", "ibstat",
                                         "ibv-devinfo", "framework-log"};

typedef struct loc { int file; long line; } loc;

typedef struct finding {
    const char *code;
    cf_severity sev;
    char msg[320];
    const char *action;     /* one-line fix; NULL: the code's usual one */
    loc at;
    int part;       /* -1: a conclusion over a run (grp) or the whole input */
    int grp;        /* segment of the run it concludes on; -1 none */
    long count;
} finding;

typedef struct run {
    cf__perf_layout lay;
    cf__perf_row *rows;
    long nrows, cap, rows_dropped;
    long nthread, ngpus;
    double min_bytes, max_bytes;
    long rank_lines, max_rank, rank0_lines;
    long rank_pid_lines;    /* rank lines that name a host and a Pid */
    long procs_at_rows;     /* NCCL processes seen when the first row came; -1 before */
    uint64_t hosts[64];
    int nhosts;
    char gpu_name[48];
    cf_collective coll;
    int ended, oob_failed, partial_last;
    long oob, partial_line;
    double avg;
    long params_lines;
    int list_gap;           /* a "..." inside the rank list */
    cf__perf_analysis an;
} run;

typedef struct hostdev { uint64_t host; cf__ibdev d; } hostdev;

#define EV_MAX_IBDEVS 128

typedef struct netev {
    long lines;
    char version[32];
    char net_name[48];
    int net_family;
    loc net_loc;
    hostdev ibdevs[EV_MAX_IBDEVS];
    int n_ibdevs;
    loc ib_using_loc;
    char ofi_provider[32];
    loc ofi_loc;
    int ofi_plugin;
    long ch[CF__NET__COUNT];
    loc ch_loc[CF__NET__COUNT];
    char ch_net[48];
    long ch_ll[3];
    long gdr_hca_on, gdr_hca_off;
    loc gdr_hca_off_loc;
    long gdr_gpu_on, gdr_gpu_off;
    loc gdr_gpu_off_loc;
    int off_distance, off_distance_max;
    cf__kvset rank_gdr;     /* hash(host,pid,dev) -> recv gdr/nogdr, send gdr/nogdr */
    loc first_gdr_ch, first_nogdr_ch;
    int gdr_level;          /* NCCL_NET_GDR_LEVEL set by environment; -1 none */
    char gdr_level_text[16];
    loc gdr_level_loc;
    int gdr_env_off;        /* NCCL_NET_GDR_LEVEL set to LOC (0): GDR off by choice */
    loc gdr_env_off_loc;
    long dmabuf;            /* "DMA-BUF is available on GPU device" lines */
    loc dmabuf_loc;
    int ib_disable;
    loc ib_disable_loc;
    long nranks;
    int roce_gid;
    long completion, errors, timeouts;
    int completion_status;
    loc completion_loc, error_loc, timeout_loc, ibverbs_loc;
    char completion_msg[200], error_msg[200], timeout_msg[200];
    int error_code;
    int ibverbs_missing;
} netev;

typedef struct part {
    int kind;
    int file;
    int seg;                /* the segment (run) it belongs to */
    long first_line, last_line;
    run *r;
    netev *ev;
    cf__topo *topo;
    cf__port *ports;
    int nports;
    long fw_lines;
    long trunc_line;        /* TRUNCATED_INPUT evidence, 0 none */
} part;

typedef struct launch {
    int seen;
    loc at;
    long np;
    long hosts;
    int gdr_level_prefix;   /* NCCL_NET_GDR_LEVEL set in front of the launcher */
    int gdr_level_forwarded;
    int gdr_level;
    char gdr_text[16];
} launch;

/* A segment: a stretch of input that belongs to one run (DESIGN §5 "several
 * runs in one file"). A file starts one; inside a file a new one starts
 * where the input shows another run: a second nccl-tests run, a launcher
 * line or an nccl-tests header after NCCL lines, an NCCL line from a
 * process outside the run's complete rank list (or, once the table has
 * rows, from a process not seen before), an "NCCL version" that differs
 * from the one the same host printed. In cf_audit_finish segments of
 * several files join when the input links them (same communicator id,
 * a process of one in the rank list of the other, disjoint ranks of one
 * communicator size), and hardware dumps join the only run there is; the
 * joined segments are a group, judged on its own evidence. */
typedef struct seg {
    int file;
    int root;               /* union-find parent; after joining, the group's root */
    int group;              /* 1-based number of the group in the report; 0 none */
    netev ev;               /* NCCL evidence of the segment (of the group, at the root) */
    cf__kvset hosts;        /* host hash -> v[0] seen, v[1] printed "NCCL version" */
    cf__kvset ranks;        /* rank + 1 -> v[0] host hash, v[1] nranks of its communicator */
    cf__kvset procs;        /* (host, pid) of NCCL lines */
    cf__kvset list_procs;   /* (host, pid) of the nccl-tests rank list */
    long max_rank_seen;
    launch la;
    int env_gdr_level;      /* from "NCCL_NET_GDR_LEVEL=SYS" env listings; -1 none */
    loc env_gdr_loc;
    uint64_t comm_ids[8];
    int ncomm;
    int run_part;           /* its latest nccl-tests part; -1 none */
    int lsmod;              /* an lsmod command or listing is shown */
    loc lsmod_loc;
    int peermem;            /* lsmod lists nvidia_peermem / nv_peer_mem */
    loc peermem_loc;
    uint64_t known_proc;    /* cache: the last (host, pid) found in procs */
} seg;

struct cf_audit {
    cf_audit_opts opts;
    cf_fabric fabric;
    int has_fabric;
    cf__linebuf lb;
    char **files;
    int nfiles, files_cap;
    const char *cur_name;
    part *parts;
    int nparts;
    long parts_dropped;
    finding *findings;
    int nfindings;
    long findings_dropped;
    seg **segs;
    int nsegs;
    int cur;                /* the current segment */
    cf_collective pending_coll;     /* named before its run opened (launcher, test start) */
    int oom;
    /* per-file state */
    int f_run, f_nccl, f_topo, f_ib, f_fw;
    int topo_state;         /* 0 none, 1 matrix, 2 legend */
    int in_rank_list;
    cf__port *cur_port;
    char cur_ca[32];
    long last_lineno;
    int last_cut;
    int prev_row_partial;
    long bytes;
    char last_host[64];
    size_t last_host_n;
    uint64_t last_host_hash;
};

/* ------------------------------------------------------------ helpers */

/* Bounded copy of a NUL-terminated string (cuts at cap - 1 bytes). */
static void cpy(char *dst, size_t cap, const char *src)
{
    size_t n = strlen(src);
    if (n >= cap) n = cap - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
}

static void ev_init(netev *e)
{
    memset(e, 0, sizeof *e);
    e->gdr_level = -1;
    e->ib_disable = -1;
    e->off_distance = e->off_distance_max = -1;
    e->completion_status = -1;
    cf__kvset_init(&e->rank_gdr, (size_t)CF_MAX_RANKS);
}

static void ev_free(netev *e)
{
    if (e) cf__kvset_free(&e->rank_gdr);
}

static void part_free(part *p)
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
static void vadd(cf_audit *a, int pi, int grp, const char *code, cf_severity sev, loc at,
                 const char *action, const char *fmt, va_list ap)
{
    finding *f;
    for (int i = 0; i < a->nfindings; i++) {
        if (a->findings[i].part == pi && a->findings[i].grp == grp &&
            strcmp(a->findings[i].code, code) == 0) {
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
    f->sev = sev;
    f->at = at;
    f->part = pi;
    f->grp = grp;
    f->action = action;
    f->count = 1;
    vsnprintf(f->msg, sizeof f->msg, fmt, ap);
}

static void add_finding(cf_audit *a, int pi, const char *code, cf_severity sev, loc at,
                        const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;

static void add_finding(cf_audit *a, int pi, const char *code, cf_severity sev, loc at,
                        const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vadd(a, pi, -1, code, sev, at, NULL, fmt, ap);
    va_end(ap);
}

/* A finding on a whole run (group root `grp`), with its own action when
 * the evidence decides it (NULL: the code's usual action). */
static void add_run_finding(cf_audit *a, int grp, const char *code, cf_severity sev, loc at,
                            const char *action, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 7, 8)))
#endif
    ;

static void add_run_finding(cf_audit *a, int grp, const char *code, cf_severity sev, loc at,
                            const char *action, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vadd(a, -1, grp, code, sev, at, action, fmt, ap);
    va_end(ap);
}

static void seg_free(seg *s)
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
    seg *s;
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

static seg *cur_seg(cf_audit *a) { return a->segs[a->cur]; }

static loc here(const cf_audit *a, long line)
{
    loc l;
    l.file = a->nfiles - 1;
    l.line = line;
    return l;
}

static int new_part(cf_audit *a, int kind, long line)
{
    part *p;
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
    case PK_PERF:
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
    case PK_NCCL:
        p->ev = cf__malloc(sizeof *p->ev);
        if (!p->ev) goto fail;
        ev_init(p->ev);
        break;
    case PK_TOPO:
        p->topo = cf__calloc(1, sizeof *p->topo);
        if (!p->topo) goto fail;
        break;
    case PK_IBSTAT:
    case PK_IBV:
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
    seg *s = cur_seg(a);
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

static int run_has_content(const run *r) { return r->nrows > 0 || r->partial_last; }

/* A run without result rows that still shows facts: the parameter line, the
 * rank list or the collective's name. */
static int run_has_facts(const run *r)
{
    return r->rank_lines > 0 || r->params_lines > 0 || r->coll != CF_COLL_UNKNOWN;
}

/* The rank list names every rank 0..max once, with host and Pid, and has
 * no "..." gap: then it is the run's whole process set. */
static int list_complete(const run *r)
{
    return r->rank_lines > 0 && r->rank_lines == r->max_rank + 1 && !r->list_gap &&
           r->rank_pid_lines == r->rank_lines;
}

/* The latest nccl-tests run of segment si; NULL none. */
static run *seg_run(const cf_audit *a, int si)
{
    int k = a->segs[si]->run_part;
    if (k < 0 || k >= a->nparts || a->parts[k].kind != PK_PERF || a->parts[k].seg != si) return NULL;
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
        part *p = &a->parts[a->f_run];
        run *r = p->r;
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
static run *open_run(cf_audit *a, long line, int strong)
{
    int idx;
    const run *prev;
    close_run(a);
    prev = seg_run(a, a->cur);
    if ((prev && (run_has_content(prev) || run_has_facts(prev))) ||
        (strong && cur_seg(a)->ev.lines > 0))
        split_seg(a);
    idx = new_part(a, PK_PERF, line);
    if (idx < 0) return NULL;
    a->f_run = idx;
    return a->parts[idx].r;
}

static run *cur_run(cf_audit *a, long line)
{
    if (a->f_run >= 0) return a->parts[a->f_run].r;
    return open_run(a, line, 1);
}

/* A collective named by a binary ("all_gather_perf") or a test-start line:
 * the open run's if it has none yet, else the next run's. */
static void note_coll(cf_audit *a, cf_collective cc, int test_start)
{
    run *r = a->f_run >= 0 ? a->parts[a->f_run].r : NULL;
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
    run *r;
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
    run *r;
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
        if (!r->gpu_name[0]) cpy(r->gpu_name, sizeof r->gpu_name, c.gpu_name);
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
            seg *g = cur_seg(a);
            if (!g->lsmod++) g->lsmod_loc = here(a, line);
        }
        if (a->f_run >= 0 && a->in_rank_list) run_touch(a, line);
        return;
    }
    }
}

/* ------------------------------------------------------------ NCCL log */

static int ev_find_dev(const netev *e, uint64_t host, int idx)
{
    int any = -1;
    for (int i = 0; i < e->n_ibdevs; i++) {
        if (e->ibdevs[i].d.idx != idx) continue;
        if (e->ibdevs[i].host == host) return i;
        if (any < 0) any = i;
    }
    return any;
}

static void ev_apply(cf_audit *a, netev *e, const cf__nccl_line *l, uint64_t host, loc at)
{
    e->lines++;
    if (l->roce_gid) e->roce_gid = 1;
    switch (l->kind) {
    case CF__NL_VERSION:
        if (!e->version[0]) cpy(e->version, sizeof e->version, l->text);
        break;
    case CF__NL_USING_NETWORK:
        cpy(e->net_name, sizeof e->net_name, l->text);
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
            if (k == e->n_ibdevs && e->n_ibdevs < EV_MAX_IBDEVS) {
                e->ibdevs[e->n_ibdevs].host = host;
                e->ibdevs[e->n_ibdevs].d = *d;
                e->n_ibdevs++;
            }
        }
        break;
    case CF__NL_OFI_PROVIDER:
        cpy(e->ofi_provider, sizeof e->ofi_provider, l->text);
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
        if (!e->ch_net[0]) cpy(e->ch_net, sizeof e->ch_net, l->net);
        if (fam == CF__NET_IB && l->netdev >= 0) {
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
                cpy(e->gdr_level_text, sizeof e->gdr_level_text, l->text);
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
            snprintf(e->completion_msg, sizeof e->completion_msg, "%.*s",
                     (int)(l->msg_n > 180 ? 180 : l->msg_n), l->msg);
        }
        break;
    case CF__NL_ERROR:
        if (e->errors++ == 0) {
            e->error_loc = at;
            e->error_code = l->status;
            snprintf(e->error_msg, sizeof e->error_msg, "%.*s",
                     (int)(l->msg_n > 180 ? 180 : l->msg_n), l->msg);
        }
        break;
    case CF__NL_TIMEOUT:
        if (e->timeouts++ == 0) {
            e->timeout_loc = at;
            snprintf(e->timeout_msg, sizeof e->timeout_msg, "%.*s",
                     (int)(l->msg_n > 180 ? 180 : l->msg_n), l->msg);
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
    seg *s = cur_seg(a);
    const run *r;
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
                const hostdev *o = &s->ev.ibdevs[k];
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
    return run_has_content(r) && r->procs_at_rows > 0;
}

static void on_nccl(cf_audit *a, const cf__nccl_line *l, long line)
{
    uint64_t host;
    loc at = here(a, line);
    part *p;
    seg *s;
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
        a->f_nccl = new_part(a, PK_NCCL, line);
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
        part *p = &a->parts[a->f_ib];
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
    part *p;
    int devinfo;
    if (a->f_ib < 0 && start_kind < 0) return 0;
    devinfo = a->f_ib >= 0 ? a->parts[a->f_ib].kind == PK_IBV : start_kind == PK_IBV;
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
        cpy(a->cur_ca, sizeof a->cur_ca, l.name);
        a->cur_port = NULL;
        break;
    case CF__IB_PORT:
        if (p->nports >= CF__MAX_PORTS) {
            a->cur_port = NULL;
            break;
        }
        a->cur_port = &p->ports[p->nports++];
        memset(a->cur_port, 0, sizeof *a->cur_port);
        cpy(a->cur_port->ca, sizeof a->cur_port->ca, a->cur_ca);
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
    const run *r = seg_run(a, a->cur);
    if (r && r->ended) split_seg(a);
    else close_run(a);
}

/* -------------------------------------------------------- other lines */

static void framework_line(cf_audit *a, const char *s, size_t n, long line, const char *code,
                           cf_severity sev, const char *what)
{
    loc at = here(a, line);
    if (a->f_fw < 0) {
        a->f_fw = new_part(a, PK_FRAMEWORK, line);
        if (a->f_fw < 0) return;
    }
    a->parts[a->f_fw].last_line = line;
    a->parts[a->f_fw].fw_lines++;
    if (code)
        add_finding(a, a->f_fw, code, sev, at, "%s: %.*s", what, (int)(n > 200 ? 200 : n), s);
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
    launch *la;
    const run *r;
    if (!is_launch_command(s, n)) return;
    r = seg_run(a, a->cur);
    if ((r && (run_has_content(r) || run_has_facts(r))) || cur_seg(a)->ev.lines > 0) split_seg(a);
    la = &cur_seg(a)->la;
    la->seen = 1;
    la->at = here(a, line);
    while (cf__token(&p, end, &t, &tn)) {
        if (!after) {
            if (is_launcher(t, tn)) {
                after = 1;
            } else if (cf__starts(t, tn, "NCCL_NET_GDR_LEVEL=")) {
                snprintf(gdr_prefix, sizeof gdr_prefix, "%.*s", (int)(tn - 19), t + 19);
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
                    snprintf(xval, sizeof xval, "%.*s", (int)(vn - 19), v + 19);
                } else if (vn == 18 && t[1] != 'x') {
                    const char *w;
                    size_t wn;
                    if (cf__token(&p, end, &w, &wn)) {
                        xset = 1;
                        snprintf(xval, sizeof xval, "%.*s", (int)wn, w);
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
        cpy(la->gdr_text, sizeof la->gdr_text, gdr_prefix);
    }
    if (xset) {
        la->gdr_level_forwarded = 1;
        la->gdr_level = cf__gdr_level(xval);
        cpy(la->gdr_text, sizeof la->gdr_text, xval);
        la->gdr_level_prefix = 0;
    }
}

static int other_line(cf_audit *a, const char *s, size_t n, long line)
{
    cf_collective cc;
    /* framework logs (PyTorch ProcessGroupNCCL, torchrun, DeepSpeed), nccl-tests failures */
    if (cf__find(s, n, "Watchdog caught collective operation timeout") ||
        (cf__find(s, n, "ProcessGroupNCCL") && (cf__find(s, n, "imeout") || cf__find(s, n, "timed out")))) {
        framework_line(a, s, n, line, "TIMEOUT", CF_SEV_ERROR, "collective timed out");
        return 1;
    }
    if (cf__find(s, n, "NCCL error") || cf__find(s, n, "Test NCCL failure") ||
        cf__find(s, n, "DistBackendError") || cf__find(s, n, "ncclSystemError") ||
        cf__find(s, n, "ncclInternalError") || cf__find(s, n, "ncclRemoteError") ||
        cf__find(s, n, "ncclUnhandledCudaError") || cf__find(s, n, "Test CUDA failure")) {
        framework_line(a, s, n, line, "NCCL_ERROR", CF_SEV_ERROR, "NCCL call failed");
        return 1;
    }
    if (cf__find(s, n, "ProcessGroupNCCL") || cf__find(s, n, "torch.distributed") ||
        cf__find(s, n, "torchrun") || cf__find(s, n, "DeepSpeed") || cf__find(s, n, "deepspeed")) {
        framework_line(a, s, n, line, NULL, CF_SEV_INFO, NULL);
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
                seg *g = cur_seg(a);
                if (!g->peermem++) g->peermem_loc = here(a, line);
                if (!g->lsmod++) g->lsmod_loc = here(a, line);
                return 1;
            }
        }
        if (cf__find(s, n, "lsmod")) {
            seg *g = cur_seg(a);
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
        memcpy(v, e, k);
        v[k] = '\0';
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
        ib_line(a, s, n, lineno, PK_IBSTAT);
        return a->oom ? CF_ENOMEM : CF_OK;
    }
    if (cf__starts(p, (size_t)(end - p), "hca_id:")) {
        hw_start(a);
        ib_line(a, s, n, lineno, PK_IBV);
        return a->oom ? CF_ENOMEM : CF_OK;
    }
    if (*p == 'G' && cf__starts(p, (size_t)(end - p), "GPU0")) {
        cf__topo tmp;
        if (cf__topo_header(p, (size_t)(end - p), &tmp)) {
            hw_start(a);
            a->f_topo = new_part(a, PK_TOPO, lineno);
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
        add_run_finding(a, a->cur, "TRUNCATED_INPUT", CF_SEV_INFO, here(a, a->last_lineno), NULL,
                        "the last line is longer than %ld bytes and was cut",
                        (long)CF_MAX_LINE_BYTES);
    }
    a->f_nccl = a->f_fw = -1;
    return st != CF_OK ? st : (a->oom ? CF_ENOMEM : CF_OK);
}

/* ------------------------------------------------------------ conclusions */

typedef struct verdict {
    cf_network net;
    cf_gdr gdr;
    long ranks, nodes, gpn;
    cf_collective coll;
    double busbw, expected;
    const char *exp_src;
    int last_run;           /* part index, -1 none */
    int fam;                /* CF__NET_* family the transport was read from */
    int forced_level;
    char forced_text[16];
    loc forced_at;
} verdict;

static const char *wc_status_name(int st)
{
    /* enum ibv_wc_status, libibverbs verbs.h */
    static const char *const names[] = {
        "IBV_WC_SUCCESS", "IBV_WC_LOC_LEN_ERR", "IBV_WC_LOC_QP_OP_ERR", "IBV_WC_LOC_EEC_OP_ERR",
        "IBV_WC_LOC_PROT_ERR", "IBV_WC_WR_FLUSH_ERR", "IBV_WC_MW_BIND_ERR", "IBV_WC_BAD_RESP_ERR",
        "IBV_WC_LOC_ACCESS_ERR", "IBV_WC_REM_INV_REQ_ERR", "IBV_WC_REM_ACCESS_ERR",
        "IBV_WC_REM_OP_ERR", "IBV_WC_RETRY_EXC_ERR", "IBV_WC_RNR_RETRY_EXC_ERR",
    };
    return st >= 0 && st < (int)(sizeof names / sizeof names[0]) ? names[st] : "unknown status";
}

static const char *nccl_result_name(int code)
{
    /* ncclResult_t, nccl.h */
    static const char *const names[] = {
        "ncclSuccess", "ncclUnhandledCudaError", "ncclSystemError", "ncclInternalError",
        "ncclInvalidArgument", "ncclInvalidUsage", "ncclRemoteError", "ncclInProgress",
    };
    return code >= 0 && code < (int)(sizeof names / sizeof names[0]) ? names[code] : "an NCCL error";
}

static void part_findings(cf_audit *a)
{
    for (int i = 0; i < a->nparts; i++) {
        part *p = &a->parts[i];
        loc at;
        at.file = p->file;
        at.line = p->first_line;
        if (p->kind == PK_PERF) {
            run *r = p->r;
            cf__perf_analysis *an = &r->an;
            if (!run_has_content(r)) {
                /* A run cut before its first result row (issue #4: "a
                 * header-only or cut-off run: its facts plus TRUNCATED_INPUT"). */
                if (run_has_facts(r)) {
                    at.line = p->last_line;
                    add_finding(a, i, "TRUNCATED_INPUT", CF_SEV_INFO, at, "%s",
                                "the nccl-tests output ends before its first result row: ranks "
                                "and devices are read, bandwidth is not shown");
                }
                continue;
            }
            if (an->wrong_rows > 0) {
                at.line = r->rows[an->first_wrong_row].line;
                add_finding(a, i, "WRONG_RESULTS", CF_SEV_ERROR, at,
                            "%ld result row(s) report wrong values (#wrong > 0)", an->wrong_rows);
            } else if (r->oob_failed) {
                at.line = p->last_line;
                add_finding(a, i, "WRONG_RESULTS", CF_SEV_ERROR, at,
                            "nccl-tests found %ld out-of-bounds value(s)", r->oob);
            }
            if (r->max_rank == 0 && r->rank_lines >= 1 && r->ngpus * (r->nthread > 0 ? r->nthread : 1) <= 1) {
                add_finding(a, i, "SINGLE_RANK_RUNS", CF_SEV_INVALID, at,
                            "the run has a single rank (%ld process(es) each printed \"Rank 0\"): it "
                            "measures no network; nccl-tests was built without MPI or launched "
                            "without one communicator", r->rank0_lines);
            }
            if (an->drop) {
                at.line = r->rows[an->drop_row].line;
                add_finding(a, i, "BUSBW_DROP", CF_SEV_WARNING, at,
                            "busbw falls to %.2f GB/s at %.0f bytes, under half of the %.2f GB/s "
                            "reached at smaller sizes", an->drop_busbw, an->drop_size, an->drop_peak);
            }
        } else if (p->kind == PK_TOPO) {
            cf__topo_analysis ta;
            cf__topo_analyze(p->topo, &ta);
            if (ta.gpus >= 2 && !ta.nvlink && ta.gpu_pairs > 0)
                add_finding(a, i, "PCIE_ONLY_TOPOLOGY", CF_SEV_WARNING, at,
                            "no NVLink between the %d GPUs of the matrix: intra-node traffic "
                            "crosses PCIe (PIX/PXB/PHB/NODE/SYS only)", ta.gpus);
            if (ta.nics > 0 && ta.far_gpus > 0) {
                char list[160] = "";
                size_t used = 0;
                for (int r = 0; r < p->topo->nrows && used < sizeof list - 16; r++) {
                    int c = p->topo->row_of[r];
                    if (!cf__topo_is_gpu(p->topo, c) || ta.best[c] <= CF__TL_PXB) continue;
                    used += (size_t)snprintf(list + used, sizeof list - used, "%s%s(%s)",
                                             used ? ", " : "", p->topo->names[c],
                                             cf__topo_link_name(ta.best[c]));
                }
                add_finding(a, i, "NIC_FAR_FROM_GPU", CF_SEV_WARNING, at,
                            "%d of %d GPUs have no NIC within PXB, NCCL's default GPUDirect RDMA "
                            "distance: %s", ta.far_gpus, ta.gpus, list);
            }
        } else if (p->kind == PK_NCCL) {
            netev *e = p->ev;
            if (e->completion) {
                at = e->completion_loc;
                add_finding(a, i, "COMPLETION_ERROR", CF_SEV_ERROR, at,
                            "%ld RDMA completion error(s); first cause status=%d (%s): %s",
                            e->completion, e->completion_status,
                            wc_status_name(e->completion_status), e->completion_msg);
            }
            if (e->errors) {
                at = e->error_loc;
                if (e->error_code > 0)
                    add_finding(a, i, "NCCL_ERROR", CF_SEV_ERROR, at,
                                "NCCL returned %s (%d): %s", nccl_result_name(e->error_code),
                                e->error_code, e->error_msg);
                else
                    add_finding(a, i, "NCCL_ERROR", CF_SEV_ERROR, at, "NCCL WARN: %s", e->error_msg);
            }
            if (e->timeouts) {
                at = e->timeout_loc;
                add_finding(a, i, "TIMEOUT", CF_SEV_ERROR, at, "NCCL WARN: %s", e->timeout_msg);
            }
        }
        if (p->trunc_line) {
            at.line = p->trunc_line;
            add_finding(a, i, "TRUNCATED_INPUT", CF_SEV_INFO, at, "%s",
                        p->kind == PK_PERF ? "the table ends with a cut row"
                                           : "the port dump ends before the port's state, rate "
                                             "and link layer");
        }
    }
}

/* ------------------------------------------------------------- grouping */

static int seg_find(cf_audit *a, int i)
{
    while (a->segs[i]->root != i) {
        a->segs[i]->root = a->segs[a->segs[i]->root]->root;
        i = a->segs[i]->root;
    }
    return i;
}

/* Joins the groups of segments i and j unless both hold an nccl-tests run
 * (each run is its own). The lower index stays the root. */
static void seg_union(cf_audit *a, int i, int j, char *grp_run)
{
    int ri = seg_find(a, i), rj = seg_find(a, j), lo, hi;
    if (ri == rj || (grp_run[ri] && grp_run[rj])) return;
    lo = ri < rj ? ri : rj;
    hi = ri < rj ? rj : ri;
    a->segs[hi]->root = lo;
    grp_run[lo] |= grp_run[hi];
}

/* 1 if some key of `x` is in `y`. */
static int kv_meet(const cf__kvset *x, const cf__kvset *y)
{
    if (x->n > y->n) {
        const cf__kvset *t = x;
        x = y;
        y = t;
    }
    for (size_t i = 0; i < x->cap; i++)
        if (x->slots[i].key && cf__kvset_find(y, x->slots[i].key)) return 1;
    return 0;
}

/* 1 if the segments show the same job: a shared communicator id; a process
 * of one in the other's nccl-tests rank list; or one communicator size with
 * disjoint ranks (per-rank log files) and no different NCCL version. */
static int segs_linked(const seg *x, const seg *y)
{
    long nr = x->ev.nranks;
    for (int i = 0; i < x->ncomm; i++)
        for (int k = 0; k < y->ncomm; k++)
            if (x->comm_ids[i] == y->comm_ids[k]) return 1;
    if (kv_meet(&x->procs, &y->list_procs) || kv_meet(&y->procs, &x->list_procs)) return 1;
    if (nr <= 0 || nr != y->ev.nranks) return 0;
    if (x->ev.version[0] && y->ev.version[0] && strcmp(x->ev.version, y->ev.version) != 0) return 0;
    for (size_t i = 0; i < x->ranks.cap; i++) {
        const cf__kv *e = &x->ranks.slots[i], *f;
        if (!e->key || e->v[1] != nr) continue;
        f = cf__kvset_find(&y->ranks, e->key);
        if (f && f->v[1] == nr) return 0;
    }
    return 1;
}

static void kv_merge(cf_audit *a, cf__kvset *d, const cf__kvset *s)
{
    for (size_t i = 0; i < s->cap; i++) {
        const cf__kv *e = &s->slots[i];
        cf__kv *f;
        if (!e->key) continue;
        f = cf__kvset_get(d, e->key, &a->oom);
        if (!f) continue;
        f->v[0] = f->v[0] ? f->v[0] : e->v[0];
        if (e->v[1] > f->v[1]) f->v[1] = e->v[1];
    }
}

/* Adds the evidence of a later segment `s` to `d` (counts add up, the first
 * location and message stay). */
static void ev_merge(cf_audit *a, netev *d, const netev *s)
{
    d->lines += s->lines;
    if (!d->version[0]) cpy(d->version, sizeof d->version, s->version);
    if (!d->net_name[0] && s->net_name[0]) {
        cpy(d->net_name, sizeof d->net_name, s->net_name);
        d->net_family = s->net_family;
        d->net_loc = s->net_loc;
    }
    if (!d->ib_using_loc.line) d->ib_using_loc = s->ib_using_loc;
    for (int i = 0; i < s->n_ibdevs; i++) {
        const cf__ibdev *n = &s->ibdevs[i].d;
        int k;
        for (k = 0; k < d->n_ibdevs; k++) {
            const cf__ibdev *o = &d->ibdevs[k].d;
            if (o->idx == n->idx && o->port == n->port && o->ll == n->ll && strcmp(o->name, n->name) == 0)
                break;
        }
        if (k == d->n_ibdevs && d->n_ibdevs < EV_MAX_IBDEVS) d->ibdevs[d->n_ibdevs++] = s->ibdevs[i];
    }
    if (!d->ofi_provider[0] && s->ofi_provider[0]) {
        cpy(d->ofi_provider, sizeof d->ofi_provider, s->ofi_provider);
        d->ofi_loc = s->ofi_loc;
    }
    d->ofi_plugin |= s->ofi_plugin;
    for (int f = 0; f < CF__NET__COUNT; f++) {
        if (!d->ch[f]) d->ch_loc[f] = s->ch_loc[f];
        d->ch[f] += s->ch[f];
    }
    if (!d->ch_net[0]) cpy(d->ch_net, sizeof d->ch_net, s->ch_net);
    for (int k = 0; k < 3; k++) d->ch_ll[k] += s->ch_ll[k];
    d->gdr_hca_on += s->gdr_hca_on;
    if (!d->gdr_hca_off) d->gdr_hca_off_loc = s->gdr_hca_off_loc;
    d->gdr_hca_off += s->gdr_hca_off;
    d->gdr_gpu_on += s->gdr_gpu_on;
    if (!d->gdr_gpu_off) d->gdr_gpu_off_loc = s->gdr_gpu_off_loc;
    d->gdr_gpu_off += s->gdr_gpu_off;
    if (d->off_distance < 0) {
        d->off_distance = s->off_distance;
        d->off_distance_max = s->off_distance_max;
    }
    for (size_t i = 0; i < s->rank_gdr.cap; i++) {
        const cf__kv *e = &s->rank_gdr.slots[i];
        cf__kv *f;
        if (!e->key || !(f = cf__kvset_get(&d->rank_gdr, e->key, &a->oom))) continue;
        for (int k = 0; k < 4; k++) f->v[k] += e->v[k];
    }
    if (!d->first_gdr_ch.line) d->first_gdr_ch = s->first_gdr_ch;
    if (!d->first_nogdr_ch.line) d->first_nogdr_ch = s->first_nogdr_ch;
    if (s->gdr_level > d->gdr_level) {
        d->gdr_level = s->gdr_level;
        cpy(d->gdr_level_text, sizeof d->gdr_level_text, s->gdr_level_text);
        d->gdr_level_loc = s->gdr_level_loc;
    }
    if (!d->gdr_env_off) d->gdr_env_off_loc = s->gdr_env_off_loc;
    d->gdr_env_off += s->gdr_env_off;
    if (!d->dmabuf) d->dmabuf_loc = s->dmabuf_loc;
    d->dmabuf += s->dmabuf;
    if (d->ib_disable < 0) {
        d->ib_disable = s->ib_disable;
        d->ib_disable_loc = s->ib_disable_loc;
    }
    if (s->nranks > d->nranks) d->nranks = s->nranks;
    d->roce_gid |= s->roce_gid;
    if (!d->completion && s->completion) {
        d->completion_status = s->completion_status;
        d->completion_loc = s->completion_loc;
        cpy(d->completion_msg, sizeof d->completion_msg, s->completion_msg);
    }
    d->completion += s->completion;
    if (!d->errors && s->errors) {
        d->error_loc = s->error_loc;
        d->error_code = s->error_code;
        cpy(d->error_msg, sizeof d->error_msg, s->error_msg);
    }
    d->errors += s->errors;
    if (!d->timeouts && s->timeouts) {
        d->timeout_loc = s->timeout_loc;
        cpy(d->timeout_msg, sizeof d->timeout_msg, s->timeout_msg);
    }
    d->timeouts += s->timeouts;
    if (!d->ibverbs_missing) d->ibverbs_loc = s->ibverbs_loc;
    d->ibverbs_missing += s->ibverbs_missing;
}

static void seg_merge(cf_audit *a, seg *d, const seg *s)
{
    ev_merge(a, &d->ev, &s->ev);
    kv_merge(a, &d->hosts, &s->hosts);
    kv_merge(a, &d->ranks, &s->ranks);
    kv_merge(a, &d->procs, &s->procs);
    kv_merge(a, &d->list_procs, &s->list_procs);
    if (s->max_rank_seen > d->max_rank_seen) d->max_rank_seen = s->max_rank_seen;
    if (!d->la.seen && s->la.seen) d->la = s->la;
    if (s->env_gdr_level > d->env_gdr_level) {
        d->env_gdr_level = s->env_gdr_level;
        d->env_gdr_loc = s->env_gdr_loc;
    }
    if (!d->lsmod) d->lsmod_loc = s->lsmod_loc;
    d->lsmod += s->lsmod;
    if (!d->peermem) d->peermem_loc = s->peermem_loc;
    d->peermem += s->peermem;
}

/* Forms the groups (runs) of DESIGN §5 from the segments: a segment with
 * NCCL lines only joins another file's segment it is linked to; hardware
 * dumps (topology, ports) with no run of their own join the only run of
 * the input, or each other when there is none; with several runs they
 * stay apart (nothing tells which run's nodes they show). Numbers the
 * groups in input order; returns how many hold a run. */
static int form_groups(cf_audit *a, int *ngroups)
{
    int ns = a->nsegs, njob = 0, job_root = -1, hw_root = -1, ng = 0;
    char *has_run = NULL, *job = NULL, *grp_run = NULL, *parts = NULL, *mark = NULL;
    *ngroups = 0;
    if (ns == 0) return 0;
    has_run = cf__calloc((size_t)ns, 1);
    job = cf__calloc((size_t)ns, 1);
    grp_run = cf__calloc((size_t)ns, 1);
    parts = cf__calloc((size_t)ns, 1);
    mark = cf__calloc((size_t)ns, 1);
    if (!has_run || !job || !grp_run || !parts || !mark) {
        a->oom = 1;
        goto done;
    }
    for (int i = 0; i < a->nparts; i++) {
        const part *p = &a->parts[i];
        parts[p->seg] = 1;
        if (p->kind == PK_PERF && (run_has_content(p->r) || run_has_facts(p->r))) has_run[p->seg] = 1;
        if (p->kind == PK_PERF || p->kind == PK_NCCL || p->kind == PK_FRAMEWORK) job[p->seg] = 1;
    }
    for (int i = 0; i < ns; i++) {
        a->segs[i]->root = i;
        a->segs[i]->group = 0;
        grp_run[i] = has_run[i];
    }
    /* NCCL-only segments of one file join linked segments of other files */
    for (int i = 0; i < ns; i++) {
        if (!job[i] || has_run[i] || !parts[i]) continue;
        for (int j = 0; j < ns; j++) {
            if (j == i || !job[j] || !parts[j] || a->segs[j]->file == a->segs[i]->file) continue;
            if (segs_linked(a->segs[i], a->segs[j])) seg_union(a, i, j, grp_run);
        }
    }
    /* count the runs: distinct groups of segments with a run or NCCL lines */
    for (int i = 0; i < ns; i++) {
        int r;
        if (!job[i] || !parts[i]) continue;
        r = seg_find(a, i);
        if (!mark[r]) {
            mark[r] = 1;
            njob++;
            job_root = r;
        }
    }
    for (int i = 0; i < ns; i++) {
        if (job[i] || !parts[i]) continue;
        if (njob == 1) seg_union(a, i, job_root, grp_run);
        else if (njob == 0) {
            if (hw_root < 0) hw_root = i;
            else seg_union(a, i, hw_root, grp_run);
        }
    }
    for (int i = 0; i < ns; i++) seg_find(a, i);
    for (int i = 0; i < ns; i++)
        if (a->segs[i]->root != i) seg_merge(a, a->segs[a->segs[i]->root], a->segs[i]);
    for (int i = 0; i < a->nparts; i++) {
        seg *r = a->segs[a->segs[a->parts[i].seg]->root];
        if (!r->group) r->group = ++ng;
    }
    *ngroups = ng;
done:
    cf__free(has_run);
    cf__free(job);
    cf__free(grp_run);
    cf__free(parts);
    cf__free(mark);
    return njob;
}

/* The root segment of part i's group. */
static int part_root(const cf_audit *a, int pi) { return a->segs[a->parts[pi].seg]->root; }

/* ---------------------------------------------------------- per run */

static int port_named(const cf_audit *a, int g, const cf__port *pt, int ll)
{
    const netev *e = &a->segs[g]->ev;
    for (int i = 0; i < e->n_ibdevs; i++) {
        const cf__ibdev *d = &e->ibdevs[i].d;
        if (strcmp(d->name, pt->ca) == 0 && (d->port <= 0 || d->port == pt->port) &&
            (ll == CF__LL_UNKNOWN || d->ll == CF__LL_UNKNOWN || d->ll == ll))
            return 1;
    }
    return 0;
}

static void port_findings(cf_audit *a)
{
    for (int i = 0; i < a->nparts; i++) {
        part *p = &a->parts[i];
        if (p->kind != PK_IBSTAT && p->kind != PK_IBV) continue;
        for (int k = 0; k < p->nports; k++) {
            cf__port *pt = &p->ports[k];
            int admin_off = cf__find(pt->phys_state, strlen(pt->phys_state), "Disabled") ||
                            cf__find(pt->phys_state, strlen(pt->phys_state), "DISABLED");
            loc at;
            if (pt->active != 0) continue;
            if (admin_off && !port_named(a, part_root(a, i), pt, CF__LL_UNKNOWN)) continue;
            at.file = p->file;
            at.line = pt->line;
            add_finding(a, i, "PORT_DOWN", CF_SEV_WARNING, at, "%s port %d is %s (%s)", pt->ca,
                        pt->port, pt->state[0] ? pt->state : "down",
                        pt->phys_state[0] ? pt->phys_state : "physical state not shown");
        }
    }
}

static long count_distinct_rank_hosts(const seg *g, int *all_have_host)
{
    uint64_t seen[256];
    long n = 0;
    *all_have_host = 1;
    for (size_t i = 0; i < g->ranks.cap; i++) {
        const cf__kv *e = &g->ranks.slots[i];
        long k;
        if (!e->key) continue;
        if (!e->v[0]) {
            *all_have_host = 0;
            continue;
        }
        for (k = 0; k < n; k++)
            if (seen[k] == (uint64_t)e->v[0]) break;
        if (k == n) {
            if (n >= 256) return -1;
            seen[n++] = (uint64_t)e->v[0];
        }
    }
    return n;
}

/* The most GPUs one node holds: 16 (DGX-2 / HGX-2 boards; 8 on HGX H100 /
 * B200 and MI300X platforms, 4 on GB200 trays). A ranks ÷ nodes above it
 * means the counts do not describe one job: neither is kept for nodes. */
#define MAX_GPUS_PER_NODE 16

static void decide_shape(cf_audit *a, int g, verdict *v)
{
    const seg *s = a->segs[g];
    long ranks = -1, nodes = -1;
    int gap = 0;
    run *lr = v->last_run >= 0 ? a->parts[v->last_run].r : NULL;
    if (s->ev.nranks > 0) ranks = s->ev.nranks;
    if (s->max_rank_seen >= 0 && s->max_rank_seen + 1 > ranks) ranks = s->max_rank_seen + 1;
    if (s->la.np > 0) {
        long per = 1;
        if (lr && lr->ngpus > 0) per = lr->ngpus * (lr->nthread > 0 ? lr->nthread : 1);
        if (s->la.np * per > ranks) ranks = s->la.np * per;
    }
    for (int i = 0; i < a->nparts; i++)
        if (a->parts[i].kind == PK_PERF && part_root(a, i) == g && a->parts[i].r->list_gap) gap = 1;
    if (ranks > 0) {
        int all_host;
        long distinct = count_distinct_rank_hosts(s, &all_host);
        if (!gap && all_host && (long)s->ranks.n == ranks && distinct > 0) nodes = distinct;
        else if ((long)s->hosts.n == ranks) nodes = (long)s->hosts.n;
    }
    if (nodes < 0 && s->la.hosts > 0 && (long)s->hosts.n <= s->la.hosts) nodes = s->la.hosts;
    if (nodes > 0 && ranks > 0 && (nodes > ranks || ranks / nodes > MAX_GPUS_PER_NODE)) nodes = -1;
    v->ranks = ranks;
    v->nodes = nodes;
    v->gpn = (ranks > 0 && nodes > 0 && ranks % nodes == 0) ? ranks / nodes : -1;
}

static int ports_link_layer(const cf_audit *a, int g)
{
    int ib = 0, eth = 0;
    for (int i = 0; i < a->nparts; i++) {
        const part *p = &a->parts[i];
        if ((p->kind != PK_IBSTAT && p->kind != PK_IBV) || part_root(a, i) != g) continue;
        for (int k = 0; k < p->nports; k++) {
            if (p->ports[k].active != 1) continue;
            if (p->ports[k].ll == CF__LL_IB) ib++;
            else if (p->ports[k].ll == CF__LL_ETH) eth++;
        }
    }
    if (ib) return CF__LL_IB;
    if (eth) return CF__LL_ETH;
    return CF__LL_UNKNOWN;
}

static cf_network ib_or_roce(const cf_audit *a, int g)
{
    const netev *e = &a->segs[g]->ev;
    int ib = 0, eth = 0, pl;
    if (e->ch_ll[CF__LL_ETH] > e->ch_ll[CF__LL_IB]) return CF_NET_ROCE;
    if (e->ch_ll[CF__LL_IB] > 0) return CF_NET_IB;
    if (e->roce_gid) return CF_NET_ROCE;
    for (int i = 0; i < e->n_ibdevs; i++) {
        if (e->ibdevs[i].d.ll == CF__LL_IB) ib++;
        else if (e->ibdevs[i].d.ll == CF__LL_ETH) eth++;
    }
    if (ib) return CF_NET_IB;
    if (eth) return CF_NET_ROCE;
    pl = ports_link_layer(a, g);
    if (pl == CF__LL_ETH) return CF_NET_ROCE;
    return CF_NET_IB;
}

static cf_network of_family(const cf_audit *a, int g, int fam, const char *name)
{
    switch (fam) {
    case CF__NET_IB: return ib_or_roce(a, g);
    case CF__NET_SOCKET:
    case CF__NET_FASTSOCKET: return CF_NET_TCP;
    case CF__NET_TCPX: return CF_NET_TCPX;
    case CF__NET_TCPXO: return CF_NET_TCPXO;
    case CF__NET_OFI: {
        const char *pv = a->segs[g]->ev.ofi_provider;
        if (cf__strcasecmp(pv, "efa") == 0 || cf__starts(pv, strlen(pv), "efa")) return CF_NET_EFA;
        if (cf__starts(pv, strlen(pv), "tcp") || cf__starts(pv, strlen(pv), "sockets") ||
            cf__starts(pv, strlen(pv), "udp"))
            return CF_NET_TCP;
        if (!pv[0] && name && strstr(name, "AWS")) return CF_NET_EFA;
        return CF_NET_UNKNOWN;
    }
    default: return CF_NET_UNKNOWN;
    }
}

static void decide_network(cf_audit *a, int g, verdict *v)
{
    const netev *e = &a->segs[g]->ev;
    long best = 0;
    int fam = CF__NET_UNKNOWN;
    for (int f = 1; f < CF__NET__COUNT; f++) {
        if (e->ch[f] > best) {
            best = e->ch[f];
            fam = f;
        }
    }
    v->fam = fam;
    if (fam != CF__NET_UNKNOWN) {
        v->net = of_family(a, g, fam, e->ch_net);
        return;
    }
    if (v->nodes == 1 && !e->completion) {
        v->net = CF_NET_NONE;
        return;
    }
    if (e->net_family != CF__NET_UNKNOWN) {
        v->fam = e->net_family;
        v->net = of_family(a, g, e->net_family, e->net_name);
        return;
    }
    if (e->n_ibdevs > 0 || e->completion || e->gdr_hca_on || e->gdr_hca_off) {
        v->fam = CF__NET_IB;
        v->net = ib_or_roce(a, g);
        return;
    }
    if (e->ofi_provider[0]) {
        v->fam = CF__NET_OFI;
        v->net = of_family(a, g, CF__NET_OFI, "");
        return;
    }
    switch (ports_link_layer(a, g)) {
    case CF__LL_IB: v->net = CF_NET_IB; break;
    case CF__LL_ETH: v->net = CF_NET_ROCE; break;
    default: v->net = CF_NET_UNKNOWN; break;
    }
}

static void decide_gdr(cf_audit *a, int g, verdict *v)
{
    const netev *e = &a->segs[g]->ev;
    long on = 0, off = 0, mixed = 0;
    if (v->net == CF_NET_TCP || v->net == CF_NET_NONE) {
        v->gdr = CF_GDR_NA;
        return;
    }
    for (size_t i = 0; i < e->rank_gdr.cap; i++) {
        const cf__kv *k = &e->rank_gdr.slots[i];
        if (!k->key) continue;
        if (k->v[0] + k->v[1] > 0) {
            if (k->v[1] == 0) on++;
            else if (k->v[0] == 0) off++;
            else mixed++;
        } else if (k->v[2] > 0) {
            on++;
        }
    }
    if (on || off || mixed) {
        if (on && !off && !mixed) v->gdr = CF_GDR_ON;
        else if (off && !on && !mixed) v->gdr = CF_GDR_OFF;
        else v->gdr = CF_GDR_PARTIAL;
    } else if (e->gdr_gpu_off && !e->gdr_gpu_on) {
        v->gdr = CF_GDR_OFF;
    } else if (e->gdr_gpu_on && !e->gdr_gpu_off) {
        v->gdr = CF_GDR_ON;
    } else if (e->gdr_gpu_on && e->gdr_gpu_off) {
        v->gdr = CF_GDR_PARTIAL;
    } else if (e->gdr_hca_off && !e->gdr_hca_on) {
        v->gdr = CF_GDR_OFF;
    } else {
        v->gdr = CF_GDR_UNKNOWN;
    }
}

static double expected_from_ports(const cf_audit *a, int g, const verdict *v, int *nics)
{
    double rates[CF__MAX_PORTS];
    char seen[CF__MAX_PORTS][40];
    int n = 0, ll = v->net == CF_NET_ROCE ? CF__LL_ETH : CF__LL_IB, k;
    double sum = 0;
    *nics = 0;
    if (a->segs[g]->ev.n_ibdevs == 0 || (v->net != CF_NET_IB && v->net != CF_NET_ROCE)) return NAN;
    for (int i = 0; i < a->nparts; i++) {
        const part *p = &a->parts[i];
        if ((p->kind != PK_IBSTAT && p->kind != PK_IBV) || part_root(a, i) != g) continue;
        for (int j = 0; j < p->nports && n < CF__MAX_PORTS; j++) {
            const cf__port *pt = &p->ports[j];
            char key[40];
            int dup = 0;
            if (pt->active != 1 || pt->ll != ll || isnan(pt->rate_gbps) || pt->rate_gbps <= 0) continue;
            if (!port_named(a, g, pt, ll)) continue;
            snprintf(key, sizeof key, "%s:%d", pt->ca, pt->port);
            for (k = 0; k < n; k++)
                if (strcmp(seen[k], key) == 0) dup = 1;
            if (dup) continue;
            memcpy(seen[n], key, sizeof key);
            rates[n++] = pt->rate_gbps;
        }
    }
    if (n == 0) return NAN;
    /* a node's ranks drive at most one NIC each (no PXN): the fastest ones */
    for (int i = 0; i < n; i++)
        for (k = i + 1; k < n; k++)
            if (rates[k] > rates[i]) {
                double t = rates[i];
                rates[i] = rates[k];
                rates[k] = t;
            }
    if (v->gpn > 0 && v->gpn < n) n = (int)v->gpn;
    for (int i = 0; i < n; i++) sum += rates[i];
    *nics = n;
    return sum;
}

/* Expected busbw (DESIGN §5): the collective model's ring reference with
 * GDR on, for the fabric given by --offering, or built from --expect-gbps or
 * the run's own port dumps (GPU from its rank list). When the model cannot
 * be asked (GPU or node count not shown), the ring reference is the
 * per-node line rate / 8 x eta, normalised per collective as in DESIGN §4.2. */
static void decide_expected(cf_audit *a, int g, verdict *v)
{
    double line_gbps = NAN, per_node;
    int nics = 0;
    cf_fabric fab;
    const run *lr = v->last_run >= 0 ? a->parts[v->last_run].r : NULL;
    v->expected = NAN;
    v->exp_src = NULL;
    memset(&fab, 0, sizeof fab);
    fab.non_blocking = fab.rail_optimized = CF_CAP_UNKNOWN;
    if (a->has_fabric) {
        fab = a->fabric;
        v->exp_src = "offering";
        if (fab.network != CF_NET_NONE && fab.nics_per_node > 0 && fab.nic_gbps > 0) {
            line_gbps = fab.nics_per_node * fab.nic_gbps;
            nics = fab.nics_per_node;
        }
    } else {
        const char *gpu = NULL;
        cf_intra_link link = CF_INTRA_UNKNOWN;
        if (v->nodes == 1 || v->net == CF_NET_NONE) return;
        if (a->opts.expect_gbps > 0) {
            line_gbps = a->opts.expect_gbps;
            nics = v->gpn > 0 ? (int)v->gpn : 1;    /* one NIC per GPU, the usual layout */
            v->exp_src = "expect-gbps";
        } else {
            line_gbps = expected_from_ports(a, g, v, &nics);
            v->exp_src = "ports";
        }
        if (isnan(line_gbps) || line_gbps <= 0 || nics <= 0) {
            v->exp_src = NULL;
            return;
        }
        if (lr && gpu_of_name(lr->gpu_name, &gpu, &link)) cpy(fab.gpu, sizeof fab.gpu, gpu);
        fab.intra_link = link;
        fab.gpus_per_node = v->gpn > 0 ? (int)v->gpn : 0;
        fab.network = v->net == CF_NET_UNKNOWN ? CF_NET_RDMA : v->net;
        fab.nics_per_node = nics;
        fab.nic_gbps = line_gbps / nics;
    }
    fab.gdr = CF_GDR_ON;                /* always the reference with GDR on */
    if (lr && lr->nrows > 0 && v->nodes >= 1 && fab.gpus_per_node > 0) {
        cf_coll_query q;
        cf_coll_result res;
        memset(&q, 0, sizeof q);
        q.collective = v->coll == CF_COLL_UNKNOWN ? CF_COLL_ALL_REDUCE : v->coll;
        q.bytes = lr->an.largest_size > 0 ? (uint64_t)lr->an.largest_size : 1;
        q.nodes = (int)v->nodes;
        q.ranks_per_node = v->gpn > 0 && v->gpn <= fab.gpus_per_node ? (int)v->gpn : 0;
        q.algo = CF_ALGO_RING;
        if (cf_collective_predict(&fab, &q, &res) == CF_OK && res.busbw_GBps > 0) {
            v->expected = round(res.busbw_GBps * 100.0) / 100.0;
            return;
        }
    }
    if (v->nodes == 1 || isnan(line_gbps) || line_gbps <= 0) {
        v->exp_src = NULL;
        return;
    }
    per_node = line_gbps / 8.0 * eta_of(fab.network);
    switch (v->coll) {
    case CF_COLL_ALLTOALL:
        /* DESIGN §4.2: (NIC_node·η/k)·N/(N−1)·(n−1)/n */
        if (v->nodes >= 2 && v->gpn > 0 && v->ranks > 1)
            per_node = per_node / (double)v->gpn * (double)v->nodes / (double)(v->nodes - 1) *
                       (double)(v->ranks - 1) / (double)v->ranks;
        break;
    case CF_COLL_SENDRECV:
        if (nics > 0) per_node /= nics;     /* one NIC × η */
        break;
    default:
        break;
    }
    v->expected = round(per_node * 100.0) / 100.0;
}

/* Actions of GDR_DISABLED, chosen by what the input shows as the cause. */
static const char ACT_GDR_DISTANCE[] =
    "topology: run each rank on a GPU whose NIC sits under the same PCIe switch (PIX/PXB in "
    "nvidia-smi topo -m), or raise NCCL_NET_GDR_LEVEL (PHB/SYS) only if the platform supports "
    "PCIe peer-to-peer at that distance";
static const char ACT_GDR_MISMATCH[] =
    "nvidia_peermem is loaded but unusable: rebuild/reinstall it for the running NVIDIA driver, "
    "MLNX_OFED and kernel (dkms status; dmesg | grep -i peer), check that ACS/IOMMU do not block "
    "peer-to-peer (iommu=pt, ACS off on PCIe switches), or use DMA-BUF (NCCL_DMABUF_ENABLE=1)";
static const char ACT_GDR_LOAD[] =
    "load the peer-memory module (modprobe nvidia_peermem) on every node, or use DMA-BUF "
    "(kernel >= 5.12, NVIDIA open kernel modules, NCCL_DMABUF_ENABLE=1)";
static const char ACT_GDR_DMABUF[] =
    "the GPU offers DMA-BUF but the HCAs take neither it nor peer memory: update rdma-core/"
    "MLNX_OFED so ibv_reg_dmabuf_mr works, or load nvidia_peermem built for this driver";
static const char ACT_GDR_ENV[] =
    "unset NCCL_NET_GDR_LEVEL (LOC/0 turns GPUDirect RDMA off) or set it to PXB, NCCL's default";
static const char ACT_GDR_TOPO_MATRIX[] =
    "topology: pin each rank to the GPU nearest its NIC (PIX/PXB in nvidia-smi topo -m); set "
    "NCCL_NET_GDR_LEVEL beyond PXB only if the platform supports peer-to-peer at that distance";
static const char ACT_GDR_GENERIC[] =
    "rerun with NCCL_DEBUG=INFO (TRACE for per-GPU lines) to see why: GPU-NIC distance "
    "(nvidia-smi topo -m), the peer-memory module (lsmod | grep peermem) or DMA-BUF support";

/* The last path component of a file name (evidence named in a message). */
static const char *base_name(const char *f)
{
    const char *b = strrchr(f, '/');
    return b ? b + 1 : f;
}

/* GDR_DISABLED, with the cause and action the input's evidence decides. */
static void gdr_disabled(cf_audit *a, int g)
{
    const seg *s = a->segs[g];
    const netev *e = &s->ev;
    int far_topo = 0;
    loc topo_at = {0, 0};
    for (int i = 0; i < a->nparts; i++) {
        const part *p = &a->parts[i];
        cf__topo_analysis ta;
        if (p->kind != PK_TOPO || part_root(a, i) != g) continue;
        cf__topo_analyze(p->topo, &ta);
        if (ta.nics > 0 && ta.far_gpus > 0 && !far_topo) {
            far_topo = ta.far_gpus;
            topo_at.file = p->file;
            topo_at.line = p->first_line;
        }
    }
    if (e->off_distance >= 0) {
        add_run_finding(a, g, "GDR_DISABLED", CF_SEV_WARNING, e->gdr_gpu_off_loc, ACT_GDR_DISTANCE,
                        "GPUDirect RDMA is off: the GPU-NIC PCI distance %d is beyond the allowed "
                        "%d (NCCL_NET_GDR_LEVEL); data is staged through host memory",
                        e->off_distance, e->off_distance_max);
    } else if (e->gdr_env_off) {
        add_run_finding(a, g, "GDR_DISABLED", CF_SEV_WARNING, e->gdr_env_off_loc, ACT_GDR_ENV,
                        "GPUDirect RDMA is off because NCCL_NET_GDR_LEVEL is set to LOC/0; data is "
                        "staged through host memory");
    } else if (e->gdr_hca_off && !e->gdr_hca_on) {
        if (s->peermem)
            add_run_finding(a, g, "GDR_DISABLED", CF_SEV_WARNING, e->gdr_hca_off_loc, ACT_GDR_MISMATCH,
                            "GPUDirect RDMA is disabled for every HCA although lsmod lists "
                            "nvidia_peermem (%s:%ld): the module does not work with this driver, "
                            "OFED or kernel; data is staged through host memory",
                            base_name(a->files[s->peermem_loc.file]), s->peermem_loc.line);
        else if (s->lsmod)
            add_run_finding(a, g, "GDR_DISABLED", CF_SEV_WARNING, e->gdr_hca_off_loc, ACT_GDR_LOAD,
                            "GPUDirect RDMA is disabled for every HCA and the lsmod output (%s:%ld) "
                            "lists no nvidia_peermem; data is staged through host memory",
                            base_name(a->files[s->lsmod_loc.file]), s->lsmod_loc.line);
        else if (e->dmabuf)
            add_run_finding(a, g, "GDR_DISABLED", CF_SEV_WARNING, e->gdr_hca_off_loc, ACT_GDR_DMABUF,
                            "GPUDirect RDMA is disabled for every HCA although DMA-BUF is available "
                            "on the GPU (%s:%ld); data is staged through host memory",
                            base_name(a->files[e->dmabuf_loc.file]), e->dmabuf_loc.line);
        else
            add_run_finding(a, g, "GDR_DISABLED", CF_SEV_WARNING, e->gdr_hca_off_loc, ACT_GDR_LOAD,
                            "GPUDirect RDMA is disabled for every HCA: neither peer memory "
                            "(nvidia_peermem) nor DMA-BUF is usable; data is staged through host memory");
    } else if (far_topo) {
        add_run_finding(a, g, "GDR_DISABLED", CF_SEV_WARNING,
                        e->first_nogdr_ch.line ? e->first_nogdr_ch : topo_at, ACT_GDR_TOPO_MATRIX,
                        "the network channels do not use GPUDirect RDMA (no /GDRDMA) and the "
                        "topology matrix (%s:%ld) shows %d GPU(s) with no NIC within PXB; data is "
                        "staged through host memory", base_name(a->files[topo_at.file]), topo_at.line, far_topo);
    } else {
        add_run_finding(a, g, "GDR_DISABLED", CF_SEV_WARNING,
                        e->first_nogdr_ch.line ? e->first_nogdr_ch : e->gdr_gpu_off_loc, ACT_GDR_GENERIC,
                        "the network channels do not use GPUDirect RDMA (no /GDRDMA): data is "
                        "staged through host memory");
    }
}

/* The findings of one run (group root g) from its own evidence. */
static void run_findings(cf_audit *a, int g, verdict *v)
{
    const seg *s = a->segs[g];
    const netev *e = &s->ev;
    const launch *la = &s->la;
    loc at;
    int forced = -1, fam = v->fam;

    /* transport */
    if (v->net == CF_NET_TCP && (fam == CF__NET_SOCKET || fam == CF__NET_FASTSOCKET)) {
        at = e->ch[CF__NET_SOCKET] ? e->ch_loc[CF__NET_SOCKET] : e->net_loc;
        if (fam == CF__NET_SOCKET)
            add_run_finding(a, g, "NET_SOCKET_FALLBACK", CF_SEV_WARNING, at, NULL,
                            "NCCL moves inter-node data over TCP sockets (NET/Socket)%s%s",
                            e->ib_disable == 1 ? "; NCCL_IB_DISABLE=1 is set" : "",
                            e->ibverbs_missing ? "; libibverbs could not be loaded" : "");
        if (e->ofi_plugin)
            add_run_finding(a, g, "EFA_NOT_USED", CF_SEV_WARNING, at, NULL,
                            "the OFI plugin is loaded but NCCL uses sockets, not EFA");
    }
    if (fam == CF__NET_OFI && v->net == CF_NET_TCP)
        add_run_finding(a, g, "EFA_NOT_USED", CF_SEV_WARNING, e->ofi_loc, NULL,
                        "libfabric selected provider '%s', not efa: traffic goes over TCP",
                        e->ofi_provider);
    {
        int ib = 0, eth = 0;
        for (int i = 0; i < e->n_ibdevs; i++) {
            if (e->ibdevs[i].d.ll == CF__LL_IB) ib++;
            else if (e->ibdevs[i].d.ll == CF__LL_ETH) eth++;
        }
        if ((ib && eth) || (e->ch_ll[CF__LL_IB] && e->ch_ll[CF__LL_ETH]))
            add_run_finding(a, g, "MIXED_LINK_LAYERS", CF_SEV_WARNING, e->ib_using_loc, NULL,
                            "NCCL's device list mixes InfiniBand and RoCE/Ethernet ports (%d IB, %d "
                            "RoCE)", ib, eth);
    }

    /* GDR forced / partial */
    if (e->gdr_level > forced) {
        forced = e->gdr_level;
        v->forced_at = e->gdr_level_loc;
        cpy(v->forced_text, sizeof v->forced_text, e->gdr_level_text);
    }
    if (s->env_gdr_level > forced) {
        forced = s->env_gdr_level;
        v->forced_at = s->env_gdr_loc;
        cpy(v->forced_text, sizeof v->forced_text, "(env)");
    }
    if (la->gdr_level > forced && (la->gdr_level_prefix || la->gdr_level_forwarded)) {
        forced = la->gdr_level;
        v->forced_at = la->at;
        cpy(v->forced_text, sizeof v->forced_text, la->gdr_text);
    }
    v->forced_level = forced;
    if (v->gdr == CF_GDR_ON && la->gdr_level_prefix && !la->gdr_level_forwarded &&
        la->gdr_level > GDR_LEVEL_DEFAULT) {
        v->gdr = CF_GDR_PARTIAL;
        add_run_finding(a, g, "GDR_PARTIAL", CF_SEV_WARNING, la->at, NULL,
                        "NCCL_NET_GDR_LEVEL=%s is set in front of the launcher without '-x "
                        "NCCL_NET_GDR_LEVEL': only the launching node's ranks get it, so GPUDirect "
                        "RDMA is on there and off (NCCL's default distance) on the others",
                        la->gdr_text);
    } else if (v->gdr == CF_GDR_PARTIAL) {
        add_run_finding(a, g, "GDR_PARTIAL", CF_SEV_WARNING,
                        e->first_nogdr_ch.line ? e->first_nogdr_ch : e->gdr_gpu_off_loc, NULL,
                        "GPUDirect RDMA is used by some ranks or NICs and not by others");
    }
    if ((v->gdr == CF_GDR_ON || v->gdr == CF_GDR_PARTIAL) && forced > GDR_LEVEL_DEFAULT)
        add_run_finding(a, g, "GDR_FORCED", CF_SEV_WARNING, v->forced_at, NULL,
                        "GPUDirect RDMA was forced with NCCL_NET_GDR_LEVEL=%s, beyond NCCL's default "
                        "PXB distance", v->forced_text);
    if (v->gdr == CF_GDR_OFF) gdr_disabled(a, g);
    if (e->off_distance >= 0) {
        int has_topo_finding = 0;
        for (int i = 0; i < a->nfindings; i++)
            if (strcmp(a->findings[i].code, "NIC_FAR_FROM_GPU") == 0 && a->findings[i].part >= 0 &&
                part_root(a, a->findings[i].part) == g)
                has_topo_finding = 1;
        if (!has_topo_finding)
            add_run_finding(a, g, "NIC_FAR_FROM_GPU", CF_SEV_WARNING, e->gdr_gpu_off_loc, NULL,
                            "NCCL reports the GPU-NIC distance %d beyond the GPUDirect RDMA limit %d",
                            e->off_distance, e->off_distance_max);
    }

    /* bandwidth, judged against this run's own expectation */
    if (v->last_run >= 0) {
        part *p = &a->parts[v->last_run];
        run *r = p->r;
        if (r->nrows > 0) {
            long li = r->nrows - 1;
            for (long k = 0; k < r->nrows; k++)
                if (r->rows[k].size == r->an.largest_size) li = k;
            at.file = p->file;
            at.line = r->rows[li].line;
            if (!r->an.in_bw_regime) {
                add_finding(a, v->last_run, "RUN_TOO_SHORT", CF_SEV_INFO, at,
                            "the largest size (%.0f bytes) is below 256 MiB and busbw has not "
                            "plateaued: bandwidth is not judged", r->an.largest_size);
            } else if (!isnan(v->expected) && !isnan(v->busbw) &&
                       v->busbw < BELOW_RATE_FRACTION * v->expected) {
                add_run_finding(a, g, "BUSBW_BELOW_LINK_RATE", CF_SEV_WARNING, at, NULL,
                                "busbw %.2f GB/s at the largest size is %.0f%% of the %.2f GB/s "
                                "expected (%s)", v->busbw, 100.0 * v->busbw / v->expected,
                                v->expected, v->exp_src);
            }
        }
    }
}

/* The verdict of one run: its last nccl-tests table, shape, transport,
 * GDR, expected busbw, findings. */
static void judge_run(cf_audit *a, int g, verdict *v)
{
    memset(v, 0, sizeof *v);
    v->last_run = -1;
    v->busbw = v->expected = NAN;
    v->forced_level = -1;
    for (int i = 0; i < a->nparts; i++)
        if (a->parts[i].kind == PK_PERF && part_root(a, i) == g && run_has_content(a->parts[i].r))
            v->last_run = i;
    v->coll = v->last_run >= 0 ? a->parts[v->last_run].r->coll : CF_COLL_UNKNOWN;
    if (v->last_run >= 0 && a->parts[v->last_run].r->nrows > 0)
        v->busbw = a->parts[v->last_run].r->an.busbw_largest;
    decide_shape(a, g, v);
    decide_network(a, g, v);
    decide_gdr(a, g, v);
    decide_expected(a, g, v);
    run_findings(a, g, v);
}

static int has_content(const cf_audit *a, int *header_only)
{
    int any = 0;
    *header_only = 0;
    for (int i = 0; i < a->nparts; i++) {
        const part *p = &a->parts[i];
        switch (p->kind) {
        case PK_PERF:
            /* A header with ranks or devices is content (its facts plus
             * TRUNCATED_INPUT); column headings alone are not. */
            if (run_has_content(p->r) || run_has_facts(p->r)) any = 1;
            else *header_only = 1;
            break;
        case PK_TOPO:
            if (p->topo->nrows > 0) any = 1;
            break;
        case PK_IBSTAT:
        case PK_IBV:
            if (p->nports > 0) any = 1;
            break;
        default:
            any = 1;
            break;
        }
    }
    return any;
}

/* ------------------------------------------------------------------ JSON */

/* The usual one-line fix of each code (GDR_DISABLED's depends on the cause
 * the input shows: see gdr_disabled()). */
static const struct { const char *code; const char *action; } actions[] = {
    {"COMPLETION_ERROR", "check link and switch counters (ibdiagnet, perfquery), PFC/ECN on RoCE, and whether a peer process died first; rerun after fixing the fabric"},
    {"WRONG_RESULTS", "rerun with -c 1 on each node pair to isolate the bad GPU or NIC; check GPU ECC (nvidia-smi -q -d ECC) and PCIe ACS"},
    {"TIMEOUT", "find the rank that stalled (its first error); check that NCCL_SOCKET_IFNAME/NCCL_IB_HCA reach every node and firewall rules"},
    {"NCCL_ERROR", "read the first NCCL WARN before it; rerun with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET to see which transport failed"},
    {"NET_SOCKET_FALLBACK", "unset NCCL_IB_DISABLE, install rdma-core/libibverbs (or your fabric's NCCL net plugin) and check ibv_devinfo on every node"},
    {"EFA_NOT_USED", "enable the EFA device and aws-ofi-nccl, set FI_PROVIDER=efa, and check 'fi_info -p efa' on every node"},
    {"GDR_DISABLED", ACT_GDR_GENERIC},
    {"GDR_PARTIAL", "give every rank the same settings: export NCCL_* with 'mpirun -x NAME' or in the job script, and check nvidia_peermem on every node"},
    {"GDR_FORCED", "confirm the GPU-NIC path supports peer-to-peer at that distance, or place each rank on the GPU nearest its NIC"},
    {"MIXED_LINK_LAYERS", "restrict NCCL to the fabric's HCAs with NCCL_IB_HCA so it does not mix InfiniBand and RoCE ports"},
    {"BUSBW_BELOW_LINK_RATE", "measure each NIC with ib_write_bw between two nodes, check that NCCL uses every NIC (NCCL_IB_HCA), GDR is on, and PCIe link widths"},
    {"BUSBW_DROP", "check GPU memory pressure, PCIe/ACS, NIC pause counters and congestion; rerun the sizes around the drop"},
    {"PCIE_ONLY_TOPOLOGY", "expect far lower intra-node busbw than on NVLink boards; keep tensor parallelism small on this node type"},
    {"NIC_FAR_FROM_GPU", "pin each rank to the GPU nearest its NIC, or use a node type with a NIC under each GPU's PCIe switch"},
    {"PORT_DOWN", "bring the port up (cable, switch port, subnet manager) or exclude it with NCCL_IB_HCA"},
    {"NO_RECOGNIZED_INPUT", "pass nccl-tests output, an NCCL_DEBUG=INFO log, nvidia-smi topo -m, ibstat or ibv_devinfo output"},
    {"SINGLE_RANK_RUNS", "rebuild nccl-tests with MPI=1 and launch one rank per GPU with mpirun or srun so all ranks join one communicator"},
    {"TRUNCATED_INPUT", "capture the whole output (e.g. '2>&1 | tee log.txt') and audit it again"},
    {"RUN_TOO_SHORT", "rerun with -e 8G (at least 256M) so busbw reaches its plateau"},
    {"SEVERAL_RUNS", "audit each run on its own to compare them; each finding names its file and line and run_facts[] gives every run's facts"},
};

const char *cf__audit_action_of(const char *code)
{
    for (size_t i = 0; i < sizeof actions / sizeof actions[0]; i++)
        if (strcmp(actions[i].code, code) == 0) return actions[i].action;
    return "";
}


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

static json_t *jstr(const char *s)
{
    char buf[512];
    if (!s || !*s) return json_null();
    return json_string(san(s, buf, sizeof buf));
}

static json_t *jnum(double v) { return isnan(v) || isinf(v) ? json_null() : json_real(v); }
static json_t *jint(long v) { return v < 0 ? json_null() : json_integer(v); }
/* A byte count or element count: an exact JSON integer (nccl-tests prints
 * integers; a double holds them exactly below 2^53). */
static json_t *jbytes(double v)
{
    if (isnan(v) || isinf(v)) return json_null();
    if (v >= 0 && v < 9007199254740992.0 && v == floor(v)) return json_integer((json_int_t)v);
    return json_real(v);
}

static int jset(json_t *o, const char *k, json_t *v)
{
    if (!o || !v) {
        json_decref(v);
        return -1;
    }
    return json_object_set_new(o, k, v) == 0 ? 0 : -1;
}

static int jpush(json_t *arr, json_t *v)
{
    if (!arr || !v) {
        json_decref(v);
        return -1;
    }
    return json_array_append_new(arr, v) == 0 ? 0 : -1;
}

/* The run (group number) a finding belongs to; 0 none. */
static int finding_run(const cf_audit *a, const finding *f)
{
    if (f->part >= 0 && f->part < a->nparts) return a->segs[part_root(a, f->part)]->group;
    if (f->grp >= 0 && f->grp < a->nsegs) return a->segs[a->segs[f->grp]->root]->group;
    return 0;
}

static json_t *finding_json(const cf_audit *a, const finding *f)
{
    json_t *o = json_object();
    int bad = 0, run_no = finding_run(a, f);
    bad |= jset(o, "code", json_string(f->code));
    bad |= jset(o, "severity", json_string(cf_severity_name(f->sev)));
    bad |= jset(o, "message", jstr(f->msg));
    bad |= jset(o, "action", jstr(f->action ? f->action : cf__audit_action_of(f->code)));
    bad |= jset(o, "run", run_no > 0 ? json_integer(run_no) : json_null());
    bad |= jset(o, "file", f->at.line > 0 && f->at.file < a->nfiles ? jstr(a->files[f->at.file]) : json_null());
    bad |= jset(o, "line", f->at.line > 0 ? json_integer(f->at.line) : json_null());
    if (f->count > 1) bad |= jset(o, "count", json_integer(f->count));
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

static int perf_json(json_t *o, const part *p)
{
    const run *r = p->r;
    const cf__perf_analysis *an = &r->an;
    json_t *rows = json_array();
    int bad = 0;
    bad |= jset(o, "collective", r->coll != CF_COLL_UNKNOWN ? json_string(cf_collective_name(r->coll)) : json_null());
    bad |= jset(o, "ranks_listed", json_integer(r->rank_lines));
    bad |= jset(o, "hosts_listed", json_integer(r->nhosts));
    bad |= jset(o, "gpu", jstr(r->gpu_name));
    bad |= jset(o, "nthread", jint(r->nthread));
    bad |= jset(o, "ngpus", jint(r->ngpus));
    bad |= jset(o, "min_bytes", jbytes(r->min_bytes));
    bad |= jset(o, "max_bytes", jbytes(r->max_bytes));
    bad |= jset(o, "layout", json_string(!r->lay.known ? "guessed" : r->lay.error_column ? "error-column"
                                         : r->lay.has_root ? "redop-root" : r->lay.has_redop ? "redop" : "plain"));
    bad |= jset(o, "rows_total", json_integer(r->nrows + r->rows_dropped));
    bad |= jset(o, "largest_bytes", jbytes(an->largest_size));
    bad |= jset(o, "busbw_GBps", jnum(an->busbw_largest));
    bad |= jset(o, "busbw_in_place_GBps", jnum(an->busbw_largest_ip));
    bad |= jset(o, "peak_busbw_GBps", r->nrows ? jnum(an->peak_busbw) : json_null());
    bad |= jset(o, "avg_busbw_GBps", jnum(r->avg));
    bad |= jset(o, "out_of_bounds", jint(r->oob));
    bad |= jset(o, "bandwidth_regime", r->nrows ? json_boolean(an->in_bw_regime) : json_null());
    bad |= jset(o, "complete", json_boolean(r->ended));
    for (long i = 0; i < r->nrows && !bad; i++) {
        const cf__perf_row *w = &r->rows[i];
        json_t *jr = json_object();
        bad |= jset(jr, "size_bytes", jbytes(w->size));
        bad |= jset(jr, "count", jbytes(w->count));
        bad |= jset(jr, "type", jstr(w->type));
        bad |= jset(jr, "redop", jstr(w->redop));
        bad |= jset(jr, "time_us", jnum(w->oop_time_us));
        bad |= jset(jr, "algbw_GBps", jnum(w->oop_algbw));
        bad |= jset(jr, "busbw_GBps", jnum(w->oop_busbw));
        bad |= jset(jr, "wrong", jnum(w->oop_wrong));
        bad |= jset(jr, "in_place_time_us", jnum(w->ip_time_us));
        bad |= jset(jr, "in_place_algbw_GBps", jnum(w->ip_algbw));
        bad |= jset(jr, "in_place_busbw_GBps", jnum(w->ip_busbw));
        bad |= jset(jr, "in_place_wrong", jnum(w->ip_wrong));
        bad |= jset(jr, "line", json_integer(w->line));
        bad |= jpush(rows, jr);
    }
    bad |= jset(o, "rows", rows);
    return bad;
}

static int nccl_json(const cf_audit *a, json_t *o, const part *p)
{
    const netev *e = p->ev;
    json_t *devs = json_array(), *ch = json_object();
    static const char *const fam_names[] = {"unknown", "IB", "Socket", "OFI", "GPUDirectTCPX",
                                            "FasTrak", "FastSocket", "other"};
    int bad = 0;
    (void)a;
    bad |= jset(o, "lines", json_integer(e->lines));
    bad |= jset(o, "nccl_version", jstr(e->version));
    bad |= jset(o, "net", jstr(e->net_name));
    bad |= jset(o, "ofi_provider", jstr(e->ofi_provider));
    bad |= jset(o, "nranks", e->nranks > 0 ? json_integer(e->nranks) : json_null());
    for (int i = 0; i < e->n_ibdevs && !bad; i++) {
        json_t *d = json_object();
        bad |= jset(d, "index", json_integer(e->ibdevs[i].d.idx));
        bad |= jset(d, "name", jstr(e->ibdevs[i].d.name));
        bad |= jset(d, "port", jint(e->ibdevs[i].d.port));
        bad |= jset(d, "link_layer", jstr(ll_name(e->ibdevs[i].d.ll)));
        bad |= jpush(devs, d);
    }
    bad |= jset(o, "ib_devices", devs);
    for (int f = 1; f < CF__NET__COUNT; f++)
        if (e->ch[f]) bad |= jset(ch, fam_names[f], json_integer(e->ch[f]));
    bad |= jset(o, "net_channels", ch);
    bad |= jset(o, "gdr_hca_enabled", json_integer(e->gdr_hca_on));
    bad |= jset(o, "gdr_hca_disabled", json_integer(e->gdr_hca_off));
    bad |= jset(o, "gdr_gpu_enabled", json_integer(e->gdr_gpu_on));
    bad |= jset(o, "gdr_gpu_disabled", json_integer(e->gdr_gpu_off));
    bad |= jset(o, "net_gdr_level", jstr(e->gdr_level_text));
    return bad;
}

static int topo_json(json_t *o, const part *p)
{
    const cf__topo *t = p->topo;
    cf__topo_analysis ta;
    json_t *m = json_object(), *cols = json_array(), *rows = json_array(), *near = json_array();
    int bad = 0;
    cf__topo_analyze(t, &ta);
    bad |= jset(o, "gpus", json_integer(ta.gpus));
    bad |= jset(o, "nics", json_integer(ta.nics));
    bad |= jset(o, "nvlink", json_boolean(ta.nvlink));
    for (int c = 0; c < t->ncols && !bad; c++) {
        json_t *jc = json_object();
        bad |= jset(jc, "name", jstr(t->names[c]));
        if (t->nic_names[c][0]) bad |= jset(jc, "nic", jstr(t->nic_names[c]));
        bad |= jpush(cols, jc);
    }
    for (int r = 0; r < t->nrows && !bad; r++) {
        json_t *jr = json_object(), *links = json_array();
        int rc = t->row_of[r];
        bad |= jset(jr, "device", jstr(t->names[rc]));
        for (int c = 0; c < t->ncols && !bad; c++) {
            char buf[16];
            if (t->link[r][c] == CF__TL_NV) snprintf(buf, sizeof buf, "NV%d", t->nvl[r][c]);
            else cpy(buf, sizeof buf, cf__topo_link_name(t->link[r][c]));
            bad |= jpush(links, json_string(buf));
        }
        bad |= jset(jr, "links", links);
        bad |= jpush(rows, jr);
        if (cf__topo_is_gpu(t, rc) && ta.nics > 0) {
            json_t *jn = json_object();
            bad |= jset(jn, "gpu", jstr(t->names[rc]));
            bad |= jset(jn, "nearest_nic_link", ta.best[rc] ? json_string(cf__topo_link_name(ta.best[rc])) : json_null());
            bad |= jpush(near, jn);
        }
    }
    bad |= jset(m, "columns", cols);
    bad |= jset(m, "rows", rows);
    bad |= jset(o, "matrix", m);
    bad |= jset(o, "gpu_nic_paths", near);
    return bad;
}

static int ports_json(json_t *o, const part *p)
{
    json_t *arr = json_array();
    int bad = 0;
    for (int i = 0; i < p->nports && !bad; i++) {
        const cf__port *pt = &p->ports[i];
        json_t *jp = json_object();
        bad |= jset(jp, "ca", jstr(pt->ca));
        bad |= jset(jp, "port", json_integer(pt->port));
        bad |= jset(jp, "state", jstr(pt->state));
        bad |= jset(jp, "physical_state", jstr(pt->phys_state));
        bad |= jset(jp, "active", pt->active < 0 ? json_null() : json_boolean(pt->active));
        bad |= jset(jp, "rate_gbps", jnum(pt->rate_gbps));
        bad |= jset(jp, "link_layer", jstr(ll_name(pt->ll)));
        if (pt->roce_v2) bad |= jset(jp, "roce_v2", json_true());
        bad |= jset(jp, "line", json_integer(pt->line));
        bad |= jpush(arr, jp);
    }
    bad |= jset(o, "ports", arr);
    return bad;
}

/* The facts of one verdict into `o` (the top level or a run_facts entry). */
static int facts_json(json_t *o, const cf_audit *a, const verdict *v, int g)
{
    int bad = 0;
    bad |= jset(o, "network", json_string(cf_network_name(v->net)));
    bad |= jset(o, "gdr", json_string(cf_gdr_name(v->gdr)));
    bad |= jset(o, "nccl_version", g >= 0 ? jstr(a->segs[g]->ev.version) : json_null());
    bad |= jset(o, "ranks", jint(v->ranks));
    bad |= jset(o, "nodes", jint(v->nodes));
    bad |= jset(o, "gpus_per_node", jint(v->gpn));
    bad |= jset(o, "collective", v->coll != CF_COLL_UNKNOWN ? json_string(cf_collective_name(v->coll)) : json_null());
    bad |= jset(o, "busbw_GBps", jnum(v->busbw));
    bad |= jset(o, "expected_busbw_GBps", jnum(v->expected));
    bad |= jset(o, "expected_source", jstr(v->exp_src));
    return bad;
}

/* One entry of run_facts[]: the run's number, files, line span, facts and
 * the codes of its findings. */
static json_t *run_json(const cf_audit *a, const verdict *v, int g, int k)
{
    json_t *o = json_object(), *files = json_array(), *codes = json_array();
    int bad = 0, first = -1, is_run = 0, lastfile = -1;
    for (int i = 0; i < a->nparts; i++) {
        const part *p = &a->parts[i];
        if (part_root(a, i) != g) continue;
        if (first < 0) first = i;
        if (p->kind == PK_PERF || p->kind == PK_NCCL || p->kind == PK_FRAMEWORK) is_run = 1;
        if (p->file != lastfile) {
            int dup = 0;
            for (size_t j = 0; j < json_array_size(files); j++)
                if (strcmp(json_string_value(json_array_get(files, j)), a->files[p->file]) == 0) dup = 1;
            if (!dup) bad |= jpush(files, jstr(a->files[p->file]));
            lastfile = p->file;
        }
    }
    bad |= jset(o, "run", json_integer(k));
    bad |= jset(o, "kind", json_string(is_run ? "run" : "hardware"));
    bad |= jset(o, "files", files);
    bad |= jset(o, "first_line", first >= 0 ? json_integer(a->parts[first].first_line) : json_null());
    bad |= facts_json(o, a, v, g);
    for (int i = 0; i < a->nfindings && !bad; i++)
        if (finding_run(a, &a->findings[i]) == k) bad |= jpush(codes, json_string(a->findings[i].code));
    bad |= jset(o, "findings", codes);
    if (bad) {
        json_decref(o);
        return NULL;
    }
    return o;
}

static json_t *build_report(cf_audit *a, const verdict *vs, const int *roots, int ng, int primary,
                            int nruns, cf_audit_status st)
{
    json_t *o = json_object(), *parts = json_array(), *fs = json_array(), *rf = json_array();
    verdict none;
    const verdict *v = primary > 0 ? &vs[primary - 1] : &none;
    int bad = 0;
    memset(&none, 0, sizeof none);
    none.net = CF_NET_UNKNOWN;
    none.gdr = CF_GDR_UNKNOWN;
    none.coll = CF_COLL_UNKNOWN;
    none.ranks = none.nodes = none.gpn = -1;
    none.busbw = none.expected = NAN;
    bad |= jset(o, "status", json_string(cf_audit_status_name(st)));
    bad |= facts_json(o, a, v, primary > 0 ? roots[primary - 1] : -1);
    bad |= jset(o, "runs", json_integer(nruns));
    bad |= jset(o, "run", primary > 0 ? json_integer(primary) : json_null());
    for (int i = 0; i < a->nfindings && !bad; i++) bad |= jpush(fs, finding_json(a, &a->findings[i]));
    bad |= jset(o, "findings", fs);
    for (int k = 0; k < ng && !bad; k++) bad |= jpush(rf, run_json(a, &vs[k], roots[k], k + 1));
    bad |= jset(o, "run_facts", rf);
    for (int i = 0; i < a->nparts && !bad; i++) {
        const part *p = &a->parts[i];
        json_t *jp = json_object(), *pf = json_array();
        bad |= jset(jp, "kind", json_string(kind_names[p->kind]));
        bad |= jset(jp, "file", jstr(a->files[p->file]));
        bad |= jset(jp, "first_line", json_integer(p->first_line));
        bad |= jset(jp, "last_line", json_integer(p->last_line));
        bad |= jset(jp, "run", json_integer(a->segs[part_root(a, i)]->group));
        switch (p->kind) {
        case PK_PERF: bad |= perf_json(jp, p); break;
        case PK_NCCL: bad |= nccl_json(a, jp, p); break;
        case PK_TOPO: bad |= topo_json(jp, p); break;
        case PK_IBSTAT:
        case PK_IBV: bad |= ports_json(jp, p); break;
        default: bad |= jset(jp, "lines", json_integer(p->fw_lines)); break;
        }
        for (int k = 0; k < a->nfindings && !bad; k++)
            if (a->findings[k].part == i) bad |= jpush(pf, finding_json(a, &a->findings[k]));
        bad |= jset(jp, "findings", pf);
        bad |= jpush(parts, jp);
    }
    bad |= jset(o, "parts", parts);
    if (a->parts_dropped) bad |= jset(o, "parts_dropped", json_integer(a->parts_dropped));
    if (a->findings_dropped) bad |= jset(o, "findings_dropped", json_integer(a->findings_dropped));
    if (bad) {
        json_decref(o);
        return NULL;
    }
    return o;
}

cf_status cf_audit_finish(cf_audit *a, json_t **report, cf_audit_status *status)
{
    verdict *vs = NULL;
    int *roots = NULL;
    int header_only = 0, ng = 0, nruns, primary = 0;
    cf_audit_status st = CF_AUDIT_OK;
    cf_status rc = CF_ENOMEM;
    if (!a || !report) return CF_EINVAL;
    *report = NULL;
    if (a->lb.len > 0 || a->lb.discarding || a->f_run >= 0 || a->f_ib >= 0) {
        cf_status s = cf_audit_end_file(a);
        if (s != CF_OK) return s;
    }
    if (a->oom) return CF_ENOMEM;
    nruns = form_groups(a, &ng);
    if (a->oom) goto fail;
    vs = cf__calloc((size_t)(ng > 0 ? ng : 1), sizeof *vs);
    roots = cf__calloc((size_t)(ng > 0 ? ng : 1), sizeof *roots);
    if (!vs || !roots) goto fail;
    for (int i = 0; i < a->nsegs; i++)
        if (a->segs[i]->root == i && a->segs[i]->group > 0) roots[a->segs[i]->group - 1] = i;
    /* the run the top level describes: the last nccl-tests table's (DESIGN
     * §5: busbw of the last run), else the last NCCL log's, else the last part's */
    for (int i = 0; i < a->nparts; i++) {
        const part *p = &a->parts[i];
        if (p->kind == PK_PERF && run_has_content(p->r)) primary = a->segs[part_root(a, i)]->group;
    }
    for (int i = 0; i < a->nparts && !primary; i++) {
        int k = a->nparts - 1 - i;
        const part *p = &a->parts[k];
        if (p->kind == PK_PERF || p->kind == PK_NCCL || p->kind == PK_FRAMEWORK)
            primary = a->segs[part_root(a, k)]->group;
    }
    if (!primary && a->nparts > 0) primary = a->segs[part_root(a, a->nparts - 1)]->group;
    part_findings(a);
    port_findings(a);
    for (int k = 0; k < ng; k++) judge_run(a, roots[k], &vs[k]);
    if (a->oom) goto fail;
    if (nruns > 1 && primary > 0) {
        int first = -1;
        for (int i = 0; i < a->nparts && first < 0; i++)
            if (a->segs[part_root(a, i)]->group == primary) first = i;
        if (first >= 0) {
            loc at;
            at.file = a->parts[first].file;
            at.line = a->parts[first].first_line;
            add_finding(a, -1, "SEVERAL_RUNS", CF_SEV_INFO, at,
                        "the input holds %d separate runs (other files, NCCL versions, processes "
                        "or nccl-tests runs); the top-level facts are those of run %d, from %s:%ld; "
                        "every finding keeps its own file, line and run", nruns, primary,
                        base_name(a->files[at.file]), at.line);
        }
    }
    if (!has_content(a, &header_only)) {
        loc at = {a->nfiles > 0 ? a->nfiles - 1 : 0, 0};
        if (header_only)
            add_finding(a, -1, "NO_RECOGNIZED_INPUT", CF_SEV_INVALID, at,
                        "nccl-tests output without a single result row (header only)");
        else if (a->bytes == 0)
            add_finding(a, -1, "NO_RECOGNIZED_INPUT", CF_SEV_INVALID, at, "the input is empty");
        else
            add_finding(a, -1, "NO_RECOGNIZED_INPUT", CF_SEV_INVALID, at,
                        "no nccl-tests table, NCCL_DEBUG line, nvidia-smi topo -m matrix, ibstat "
                        "or ibv_devinfo dump recognised in %ld bytes", a->bytes);
    }
    for (int i = 0; i < a->nfindings; i++) {
        cf_audit_status s = a->findings[i].sev == CF_SEV_INVALID ? CF_AUDIT_INVALID
                          : a->findings[i].sev == CF_SEV_ERROR   ? CF_AUDIT_FAILED
                          : a->findings[i].sev == CF_SEV_WARNING ? CF_AUDIT_WARNING
                                                                  : CF_AUDIT_OK;
        if (s > st) st = s;
    }
    *report = build_report(a, vs, roots, ng, primary, nruns, st);
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
