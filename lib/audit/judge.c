/* audit_judge.c — the conclusions of the audit (DESIGN §5), drawn once in
 * cf_audit_finish() from the evidence lib/audit.c streamed in: the
 * findings each part shows on its own, the grouping of segments into runs
 * (union-find over what links them: communicator ids, processes, rank
 * sets), and per run the verdict — shape, transport, GDR state, expected
 * busbw from the collective model's η — and the run's findings.
 *
 * Shape: reads and extends the shared state of audit_state.h; adds
 * findings through cf__audit_add_finding / cf__audit_add_run_finding and
 * never allocates beyond what the merge of evidence needs. Rules and their
 * sources as in audit.c: DESIGN §5, NCCL's net.cc/net_ib.cc/paths.cc,
 * lib/constants.c for η. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "audit/audit_int.h"
#include "clusterfit/collective.h"
#include "base/base.h"

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


/* ------------------------------------------------------------ conclusions */

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

void cf__audit_part_findings(cf_audit *a)
{
    for (int i = 0; i < a->nparts; i++) {
        part *p = &a->parts[i];
        loc at;
        at.file = p->file;
        at.line = p->first_line;
        if (p->kind == PK_PERF) {
            run *r = p->r;
            cf__perf_analysis *an = &r->an;
            if (!cf__audit_run_has_content(r)) {
                /* A run cut before its first result row (issue #4: "a
                 * header-only or cut-off run: its facts plus TRUNCATED_INPUT"). */
                if (cf__audit_run_has_facts(r)) {
                    at.line = p->last_line;
                    cf__audit_add_finding(a, i, "TRUNCATED_INPUT", CF_SEV_INFO, at, "%s",
                                "the nccl-tests output ends before its first result row: ranks "
                                "and devices are read, bandwidth is not shown");
                }
                continue;
            }
            if (an->wrong_rows > 0) {
                at.line = r->rows[an->first_wrong_row].line;
                cf__audit_add_finding(a, i, "WRONG_RESULTS", CF_SEV_ERROR, at,
                            "%ld result row(s) report wrong values (#wrong > 0)", an->wrong_rows);
            } else if (r->oob_failed) {
                at.line = p->last_line;
                cf__audit_add_finding(a, i, "WRONG_RESULTS", CF_SEV_ERROR, at,
                            "nccl-tests found %ld out-of-bounds value(s)", r->oob);
            }
            if (r->max_rank == 0 && r->rank_lines >= 1 && r->ngpus * (r->nthread > 0 ? r->nthread : 1) <= 1) {
                cf__audit_add_finding(a, i, "SINGLE_RANK_RUNS", CF_SEV_INVALID, at,
                            "the run has a single rank (%ld process(es) each printed \"Rank 0\"): it "
                            "measures no network; nccl-tests was built without MPI or launched "
                            "without one communicator", r->rank0_lines);
            }
            if (an->drop) {
                at.line = r->rows[an->drop_row].line;
                cf__audit_add_finding(a, i, "BUSBW_DROP", CF_SEV_WARNING, at,
                            "busbw falls to %.2f GB/s at %.0f bytes, under half of the %.2f GB/s "
                            "reached at smaller sizes", an->drop_busbw, an->drop_size, an->drop_peak);
            }
        } else if (p->kind == PK_TOPO) {
            cf__topo_analysis ta;
            cf__topo_analyze(p->topo, &ta);
            if (ta.gpus >= 2 && !ta.nvlink && ta.gpu_pairs > 0)
                cf__audit_add_finding(a, i, "PCIE_ONLY_TOPOLOGY", CF_SEV_WARNING, at,
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
                cf__audit_add_finding(a, i, "NIC_FAR_FROM_GPU", CF_SEV_WARNING, at,
                            "%d of %d GPUs have no NIC within PXB, NCCL's default GPUDirect RDMA "
                            "distance: %s", ta.far_gpus, ta.gpus, list);
            }
        } else if (p->kind == PK_NCCL) {
            netev *e = p->ev;
            if (e->completion) {
                at = e->completion_loc;
                cf__audit_add_finding(a, i, "COMPLETION_ERROR", CF_SEV_ERROR, at,
                            "%ld RDMA completion error(s); first cause status=%d (%s): %s",
                            e->completion, e->completion_status,
                            wc_status_name(e->completion_status), e->completion_msg);
            }
            if (e->errors) {
                at = e->error_loc;
                if (e->error_code > 0)
                    cf__audit_add_finding(a, i, "NCCL_ERROR", CF_SEV_ERROR, at,
                                "NCCL returned %s (%d): %s", nccl_result_name(e->error_code),
                                e->error_code, e->error_msg);
                else
                    cf__audit_add_finding(a, i, "NCCL_ERROR", CF_SEV_ERROR, at, "NCCL WARN: %s", e->error_msg);
            }
            if (e->timeouts) {
                at = e->timeout_loc;
                cf__audit_add_finding(a, i, "TIMEOUT", CF_SEV_ERROR, at, "NCCL WARN: %s", e->timeout_msg);
            }
        }
        if (p->trunc_line) {
            at.line = p->trunc_line;
            cf__audit_add_finding(a, i, "TRUNCATED_INPUT", CF_SEV_INFO, at, "%s",
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
    if (!d->version[0]) cf__audit_cpy(d->version, sizeof d->version, s->version);
    if (!d->net_name[0] && s->net_name[0]) {
        cf__audit_cpy(d->net_name, sizeof d->net_name, s->net_name);
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
        cf__audit_cpy(d->ofi_provider, sizeof d->ofi_provider, s->ofi_provider);
        d->ofi_loc = s->ofi_loc;
    }
    d->ofi_plugin |= s->ofi_plugin;
    for (int f = 0; f < CF__NET__COUNT; f++) {
        if (!d->ch[f]) d->ch_loc[f] = s->ch_loc[f];
        d->ch[f] += s->ch[f];
    }
    if (!d->ch_net[0]) cf__audit_cpy(d->ch_net, sizeof d->ch_net, s->ch_net);
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
        cf__audit_cpy(d->gdr_level_text, sizeof d->gdr_level_text, s->gdr_level_text);
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
        cf__audit_cpy(d->completion_msg, sizeof d->completion_msg, s->completion_msg);
    }
    d->completion += s->completion;
    if (!d->errors && s->errors) {
        d->error_loc = s->error_loc;
        d->error_code = s->error_code;
        cf__audit_cpy(d->error_msg, sizeof d->error_msg, s->error_msg);
    }
    d->errors += s->errors;
    if (!d->timeouts && s->timeouts) {
        d->timeout_loc = s->timeout_loc;
        cf__audit_cpy(d->timeout_msg, sizeof d->timeout_msg, s->timeout_msg);
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
int cf__audit_form_groups(cf_audit *a, int *ngroups)
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
        if (p->kind == PK_PERF && (cf__audit_run_has_content(p->r) || cf__audit_run_has_facts(p->r))) has_run[p->seg] = 1;
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
int cf__audit_part_root(const cf_audit *a, int pi) { return a->segs[a->parts[pi].seg]->root; }

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

void cf__audit_port_findings(cf_audit *a)
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
            if (admin_off && !port_named(a, cf__audit_part_root(a, i), pt, CF__LL_UNKNOWN)) continue;
            at.file = p->file;
            at.line = pt->line;
            cf__audit_add_finding(a, i, "PORT_DOWN", CF_SEV_WARNING, at, "%s port %d is %s (%s)", pt->ca,
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
        if (a->parts[i].kind == PK_PERF && cf__audit_part_root(a, i) == g && a->parts[i].r->list_gap) gap = 1;
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
        if ((p->kind != PK_IBSTAT && p->kind != PK_IBV) || cf__audit_part_root(a, i) != g) continue;
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
        if ((p->kind != PK_IBSTAT && p->kind != PK_IBV) || cf__audit_part_root(a, i) != g) continue;
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
        if (lr && gpu_of_name(lr->gpu_name, &gpu, &link)) cf__audit_cpy(fab.gpu, sizeof fab.gpu, gpu);
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
        if (cf_collective_predict(&fab, &q, &res, NULL) == CF_OK && res.busbw_GBps > 0) {
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
const char cf__audit_act_gdr_generic[] =
    "rerun with NCCL_DEBUG=INFO (TRACE for per-GPU lines) to see why: GPU-NIC distance "
    "(nvidia-smi topo -m), the peer-memory module (lsmod | grep peermem) or DMA-BUF support";

/* The last path component of a file name (evidence named in a message). */
const char *cf__audit_base_name(const char *f)
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
        if (p->kind != PK_TOPO || cf__audit_part_root(a, i) != g) continue;
        cf__topo_analyze(p->topo, &ta);
        if (ta.nics > 0 && ta.far_gpus > 0 && !far_topo) {
            far_topo = ta.far_gpus;
            topo_at.file = p->file;
            topo_at.line = p->first_line;
        }
    }
    if (e->off_distance >= 0) {
        cf__audit_add_run_finding(a, g, "GDR_DISABLED", CF_SEV_WARNING, e->gdr_gpu_off_loc, ACT_GDR_DISTANCE,
                        "GPUDirect RDMA is off: the GPU-NIC PCI distance %d is beyond the allowed "
                        "%d (NCCL_NET_GDR_LEVEL); data is staged through host memory",
                        e->off_distance, e->off_distance_max);
    } else if (e->gdr_env_off) {
        cf__audit_add_run_finding(a, g, "GDR_DISABLED", CF_SEV_WARNING, e->gdr_env_off_loc, ACT_GDR_ENV,
                        "GPUDirect RDMA is off because NCCL_NET_GDR_LEVEL is set to LOC/0; data is "
                        "staged through host memory");
    } else if (e->gdr_hca_off && !e->gdr_hca_on) {
        if (s->peermem)
            cf__audit_add_run_finding(a, g, "GDR_DISABLED", CF_SEV_WARNING, e->gdr_hca_off_loc, ACT_GDR_MISMATCH,
                            "GPUDirect RDMA is disabled for every HCA although lsmod lists "
                            "nvidia_peermem (%s:%ld): the module does not work with this driver, "
                            "OFED or kernel; data is staged through host memory",
                            cf__audit_base_name(a->files[s->peermem_loc.file]), s->peermem_loc.line);
        else if (s->lsmod)
            cf__audit_add_run_finding(a, g, "GDR_DISABLED", CF_SEV_WARNING, e->gdr_hca_off_loc, ACT_GDR_LOAD,
                            "GPUDirect RDMA is disabled for every HCA and the lsmod output (%s:%ld) "
                            "lists no nvidia_peermem; data is staged through host memory",
                            cf__audit_base_name(a->files[s->lsmod_loc.file]), s->lsmod_loc.line);
        else if (e->dmabuf)
            cf__audit_add_run_finding(a, g, "GDR_DISABLED", CF_SEV_WARNING, e->gdr_hca_off_loc, ACT_GDR_DMABUF,
                            "GPUDirect RDMA is disabled for every HCA although DMA-BUF is available "
                            "on the GPU (%s:%ld); data is staged through host memory",
                            cf__audit_base_name(a->files[e->dmabuf_loc.file]), e->dmabuf_loc.line);
        else
            cf__audit_add_run_finding(a, g, "GDR_DISABLED", CF_SEV_WARNING, e->gdr_hca_off_loc, ACT_GDR_LOAD,
                            "GPUDirect RDMA is disabled for every HCA: neither peer memory "
                            "(nvidia_peermem) nor DMA-BUF is usable; data is staged through host memory");
    } else if (far_topo) {
        cf__audit_add_run_finding(a, g, "GDR_DISABLED", CF_SEV_WARNING,
                        e->first_nogdr_ch.line ? e->first_nogdr_ch : topo_at, ACT_GDR_TOPO_MATRIX,
                        "the network channels do not use GPUDirect RDMA (no /GDRDMA) and the "
                        "topology matrix (%s:%ld) shows %d GPU(s) with no NIC within PXB; data is "
                        "staged through host memory", cf__audit_base_name(a->files[topo_at.file]), topo_at.line, far_topo);
    } else {
        cf__audit_add_run_finding(a, g, "GDR_DISABLED", CF_SEV_WARNING,
                        e->first_nogdr_ch.line ? e->first_nogdr_ch : e->gdr_gpu_off_loc, cf__audit_act_gdr_generic,
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
            cf__audit_add_run_finding(a, g, "NET_SOCKET_FALLBACK", CF_SEV_WARNING, at, NULL,
                            "NCCL moves inter-node data over TCP sockets (NET/Socket)%s%s",
                            e->ib_disable == 1 ? "; NCCL_IB_DISABLE=1 is set" : "",
                            e->ibverbs_missing ? "; libibverbs could not be loaded" : "");
        if (e->ofi_plugin)
            cf__audit_add_run_finding(a, g, "EFA_NOT_USED", CF_SEV_WARNING, at, NULL,
                            "the OFI plugin is loaded but NCCL uses sockets, not EFA");
    }
    if (fam == CF__NET_OFI && v->net == CF_NET_TCP)
        cf__audit_add_run_finding(a, g, "EFA_NOT_USED", CF_SEV_WARNING, e->ofi_loc, NULL,
                        "libfabric selected provider '%s', not efa: traffic goes over TCP",
                        e->ofi_provider);
    {
        int ib = 0, eth = 0;
        for (int i = 0; i < e->n_ibdevs; i++) {
            if (e->ibdevs[i].d.ll == CF__LL_IB) ib++;
            else if (e->ibdevs[i].d.ll == CF__LL_ETH) eth++;
        }
        if ((ib && eth) || (e->ch_ll[CF__LL_IB] && e->ch_ll[CF__LL_ETH]))
            cf__audit_add_run_finding(a, g, "MIXED_LINK_LAYERS", CF_SEV_WARNING, e->ib_using_loc, NULL,
                            "NCCL's device list mixes InfiniBand and RoCE/Ethernet ports (%d IB, %d "
                            "RoCE)", ib, eth);
    }

    /* GDR forced / partial */
    if (e->gdr_level > forced) {
        forced = e->gdr_level;
        v->forced_at = e->gdr_level_loc;
        cf__audit_cpy(v->forced_text, sizeof v->forced_text, e->gdr_level_text);
    }
    if (s->env_gdr_level > forced) {
        forced = s->env_gdr_level;
        v->forced_at = s->env_gdr_loc;
        cf__audit_cpy(v->forced_text, sizeof v->forced_text, "(env)");
    }
    if (la->gdr_level > forced && (la->gdr_level_prefix || la->gdr_level_forwarded)) {
        forced = la->gdr_level;
        v->forced_at = la->at;
        cf__audit_cpy(v->forced_text, sizeof v->forced_text, la->gdr_text);
    }
    v->forced_level = forced;
    if (v->gdr == CF_GDR_ON && la->gdr_level_prefix && !la->gdr_level_forwarded &&
        la->gdr_level > GDR_LEVEL_DEFAULT) {
        v->gdr = CF_GDR_PARTIAL;
        cf__audit_add_run_finding(a, g, "GDR_PARTIAL", CF_SEV_WARNING, la->at, NULL,
                        "NCCL_NET_GDR_LEVEL=%s is set in front of the launcher without '-x "
                        "NCCL_NET_GDR_LEVEL': only the launching node's ranks get it, so GPUDirect "
                        "RDMA is on there and off (NCCL's default distance) on the others",
                        la->gdr_text);
    } else if (v->gdr == CF_GDR_PARTIAL) {
        cf__audit_add_run_finding(a, g, "GDR_PARTIAL", CF_SEV_WARNING,
                        e->first_nogdr_ch.line ? e->first_nogdr_ch : e->gdr_gpu_off_loc, NULL,
                        "GPUDirect RDMA is used by some ranks or NICs and not by others");
    }
    if ((v->gdr == CF_GDR_ON || v->gdr == CF_GDR_PARTIAL) && forced > GDR_LEVEL_DEFAULT)
        cf__audit_add_run_finding(a, g, "GDR_FORCED", CF_SEV_WARNING, v->forced_at, NULL,
                        "GPUDirect RDMA was forced with NCCL_NET_GDR_LEVEL=%s, beyond NCCL's default "
                        "PXB distance", v->forced_text);
    if (v->gdr == CF_GDR_OFF) gdr_disabled(a, g);
    if (e->off_distance >= 0) {
        int has_topo_finding = 0;
        for (int i = 0; i < a->nfindings; i++)
            if (strcmp(a->findings[i].code, "NIC_FAR_FROM_GPU") == 0 && a->findings[i].part >= 0 &&
                cf__audit_part_root(a, a->findings[i].part) == g)
                has_topo_finding = 1;
        if (!has_topo_finding)
            cf__audit_add_run_finding(a, g, "NIC_FAR_FROM_GPU", CF_SEV_WARNING, e->gdr_gpu_off_loc, NULL,
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
                cf__audit_add_finding(a, v->last_run, "RUN_TOO_SHORT", CF_SEV_INFO, at,
                            "the largest size (%.0f bytes) is below 256 MiB and busbw has not "
                            "plateaued: bandwidth is not judged", r->an.largest_size);
            } else if (!isnan(v->expected) && !isnan(v->busbw) &&
                       v->busbw < BELOW_RATE_FRACTION * v->expected) {
                cf__audit_add_run_finding(a, g, "BUSBW_BELOW_LINK_RATE", CF_SEV_WARNING, at, NULL,
                                "busbw %.2f GB/s at the largest size is %.0f%% of the %.2f GB/s "
                                "expected (%s)", v->busbw, 100.0 * v->busbw / v->expected,
                                v->expected, v->exp_src);
            }
        }
    }
}

/* The verdict of one run: its last nccl-tests table, shape, transport,
 * GDR, expected busbw, findings. */
void cf__audit_judge_run(cf_audit *a, int g, verdict *v)
{
    memset(v, 0, sizeof *v);
    v->last_run = -1;
    v->busbw = v->expected = NAN;
    v->forced_level = -1;
    for (int i = 0; i < a->nparts; i++)
        if (a->parts[i].kind == PK_PERF && cf__audit_part_root(a, i) == g && cf__audit_run_has_content(a->parts[i].r))
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

int cf__audit_has_content(const cf_audit *a, int *header_only)
{
    int any = 0;
    *header_only = 0;
    for (int i = 0; i < a->nparts; i++) {
        const part *p = &a->parts[i];
        switch (p->kind) {
        case PK_PERF:
            /* A header with ranks or devices is content (its facts plus
             * TRUNCATED_INPUT); column headings alone are not. */
            if (cf__audit_run_has_content(p->r) || cf__audit_run_has_facts(p->r)) any = 1;
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
