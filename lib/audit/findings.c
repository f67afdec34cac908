/* findings.c — the findings of the audit (DESIGN §5, codes in codes.def):
 * those each part shows on its own (a table's wrong results or busbw drop,
 * a matrix without NVLink, an NCCL error), those of port dumps, those of a
 * run drawn from its verdict (socket fallback, GDR disabled with the cause
 * the input shows, GDR forced or partial, busbw under the link rate), and
 * those of the whole input (several runs, nothing recognised); and the
 * status they add up to.
 *
 * Shape: runs once, in cf_audit_finish(), over the evidence and the
 * verdicts; adds findings through the store of evidence.c. A finding's
 * message says what the input shows, with file:line where it helps; its
 * action is the code's usual one unless the evidence decides another
 * (GDR_DISABLED's actions below). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "audit/audit_int.h"
#include "base/base.h"

/* BUSBW_BELOW_LINK_RATE: largest-size busbw under 70 % of expected (§5). */
#define BELOW_RATE_FRACTION 0.70
/* BUSBW_FAR_BELOW_LINK_RATE: under 25 % (issue 11): a quarter of the link is
 * a broken setup (sockets, one NIC of eight, GDR off on a slow path), not
 * tuning; between 25 and 70 % stays the warning. */
#define FAR_BELOW_RATE_FRACTION 0.25

/* NCCL_NET_GDR_LEVEL's default: PXB (src/graph/paths.cc). */
#define GDR_LEVEL_DEFAULT 2

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

/* What the rows of a run say about its rank count. nccl-tests prints
 * busbw = algbw x f(n): 2(n-1)/n for all_reduce, (n-1)/n for all_gather,
 * reduce_scatter and alltoall, 1 for the others (nccl-tests
 * src/ *_perf sources, GetBw). */
typedef struct rank_rows {
    double ranks;           /* n read back from the rows' busbw / algbw; 0 not readable */
    int single;             /* every row with algbw > 0 has busbw 0 (f(1) = 0) */
    double max_algbw;       /* the largest algbw, GB/s */
    long restarts;          /* rows whose size is not above the row before */
} rank_rows;

static void rows_ranks(const cf__audit_run *r, rank_rows *out)
{
    long with_bw = 0, zero = 0;
    double ratio = 0;
    memset(out, 0, sizeof *out);
    for (long k = 0; k < r->nrows; k++) {
        const cf__perf_row *w = &r->rows[k];
        if (k > 0 && w->size <= r->rows[k - 1].size) out->restarts++;
        if (isnan(w->oop_algbw) || isnan(w->oop_busbw) || w->oop_algbw < 0.5) continue;
        if (w->oop_algbw > out->max_algbw) out->max_algbw = w->oop_algbw;
        with_bw++;
        if (w->oop_busbw == 0) zero++;
        else if (w->oop_busbw / w->oop_algbw > ratio) ratio = w->oop_busbw / w->oop_algbw;
    }
    if (with_bw == 0) return;
    out->single = zero == with_bw && (r->coll == CF_COLL_UNKNOWN || r->coll == CF_COLL_ALL_REDUCE ||
                                      r->coll == CF_COLL_ALL_GATHER || r->coll == CF_COLL_REDUCE_SCATTER ||
                                      r->coll == CF_COLL_ALLTOALL);
    if (ratio > 0.05) {
        if (r->coll == CF_COLL_ALL_REDUCE || (r->coll == CF_COLL_UNKNOWN && ratio > 1.02)) {
            if (ratio < 1.999) out->ranks = 2.0 / (2.0 - ratio);
        } else if (r->coll == CF_COLL_ALL_GATHER || r->coll == CF_COLL_REDUCE_SCATTER ||
                   r->coll == CF_COLL_ALLTOALL || r->coll == CF_COLL_UNKNOWN) {
            if (ratio < 0.999) out->ranks = 1.0 / (1.0 - ratio);
        }
    }
}

/* SINGLE_RANK_RUNS from the head of a table: nccl-tests built without MPI
 * and launched by mpirun -np N prints N parameter lines and N rank lists,
 * each from its own "Rank 0" (only rank 0 of an MPI build prints them).
 * Seen before any result row: every process printed "Rank 0" and a host
 * other than the first's did too, or several parameter lines came before
 * the first rank line. 1 when the finding was added. */
static int independent_processes(cf_audit *a, int i, const cf__audit_part *p)
{
    const cf__audit_run *r = p->r;
    cf__audit_loc at;
    char why[160];
    if (r->rank0_other_line > 0)
        snprintf(why, sizeof why, "\"Rank 0\" is printed %ld times, on more than one host (line %ld)",
                 r->rank0_lines, r->rank0_other_line);
    else if (r->params_before_ranks >= 2)
        snprintf(why, sizeof why, "the parameter line \"# nThread ...\" is printed %ld times before the "
                 "rank list", r->params_before_ranks);
    else
        return 0;
    at.file = p->file;
    at.line = r->rank0_other_line > 0 ? r->rank0_other_line : p->first_line;
    cf__audit_add_finding(a, i, CF__CODE_SINGLE_RANK_RUNS, at,
                "%s: each process ran nccl-tests as its own job, %ld independent single-process "
                "jobs, not one multi-node job, measuring no network between the nodes; nccl-tests "
                "was built without MPI (MPI=1)", why,
                r->rank0_lines > r->params_before_ranks ? r->rank0_lines : r->params_before_ranks);
    return 1;
}

/* The findings of nccl-tests part i on its own; 0 when the run shows no
 * result row (then only its facts count, not a cut row). */
static int perf_findings(cf_audit *a, int i, cf__audit_part *p)
{
    cf__audit_run *r = p->r;
    cf__perf_analysis *an = &r->an;
    cf__audit_loc at;
    at.file = p->file;
    at.line = p->first_line;
    if (independent_processes(a, i, p)) {
        /* each process its own job: its rows measure no network, nor does
         * a table cut before them */
        if (an->wrong_rows > 0) {
            at.line = r->rows[an->first_wrong_row].line;
            cf__audit_add_finding(a, i, CF__CODE_WRONG_RESULTS, at,
                        "%ld result row(s) report wrong values (#wrong > 0)", an->wrong_rows);
        }
        return cf__audit_run_has_content(r);
    }
    if (!cf__audit_run_has_content(r)) {
        /* A run cut before its first result row (issue #4: "a
         * header-only or cut-off run: its facts plus TRUNCATED_INPUT"). */
        if (cf__audit_run_has_facts(r)) {
            at.line = p->last_line;
            cf__audit_add_finding(a, i, CF__CODE_TRUNCATED_INPUT, at, "%s",
                        "the nccl-tests output ends before its first result row: ranks "
                        "and devices are read, bandwidth is not shown");
        }
        return 0;
    }
    if (an->wrong_rows > 0) {
        at.line = r->rows[an->first_wrong_row].line;
        cf__audit_add_finding(a, i, CF__CODE_WRONG_RESULTS, at,
                    "%ld result row(s) report wrong values (#wrong > 0)", an->wrong_rows);
    } else if (r->oob_failed) {
        at.line = p->last_line;
        cf__audit_add_finding(a, i, CF__CODE_WRONG_RESULTS, at,
                    "nccl-tests found %ld out-of-bounds value(s)", r->oob);
    }
    {
        rank_rows rr;
        rows_ranks(r, &rr);
        if (rr.ranks > 1.5) {
            /* busbw / algbw = 2(n-1)/n (or (n-1)/n) with n > 1: several ranks,
             * whatever an excerpt of the rank list shows */
        } else if (rr.single) {
            cf__audit_add_finding(a, i, CF__CODE_SINGLE_RANK_RUNS, at,
                        "busbw is 0.00 on every row while algbw reaches %.2f GB/s%s: each process "
                        "ran alone (one rank per communicator), so the run measures no network; "
                        "nccl-tests was built without MPI (MPI=1) or launched without one "
                        "communicator", rr.max_algbw, rr.restarts > 0 ? "; the sizes start over in the table (one table per process)" : "");
        } else if (r->max_rank == 0 && r->rank_lines >= 1 && r->ngpus * (r->nthread > 0 ? r->nthread : 1) <= 1) {
            cf__audit_add_finding(a, i, CF__CODE_SINGLE_RANK_RUNS, at,
                        "the run has a single rank (%ld process(es) each printed \"Rank 0\"): it "
                        "measures no network; nccl-tests was built without MPI or launched "
                        "without one communicator", r->rank0_lines);
        }
    }
    if (an->drop && an->step) {
        at.line = r->rows[an->drop_row].line;
        cf__audit_add_finding(a, i, CF__CODE_BUSBW_DROP, at,
                    "busbw steps down at %.0f bytes from %.2f GB/s (mean of the sizes before) to "
                    "%.2f GB/s (mean of the %ld sizes from there on) and stays down", an->drop_size,
                    an->step_before, an->step_after, an->step_rows);
    } else if (an->drop) {
        at.line = r->rows[an->drop_row].line;
        cf__audit_add_finding(a, i, CF__CODE_BUSBW_DROP, at,
                    "busbw falls to %.2f GB/s at %.0f bytes, under half of the %.2f GB/s "
                    "reached at smaller sizes", an->drop_busbw, an->drop_size, an->drop_peak);
    }
    return 1;
}

/* The findings of topology matrix i: no NVLink, GPUs far from every NIC. */
static void topo_findings(cf_audit *a, int i, cf__audit_part *p)
{
    cf__audit_loc at;
    cf__topo_analysis ta;
    at.file = p->file;
    at.line = p->first_line;
    cf__topo_analyze(p->topo, &ta);
    if (ta.gpus >= 2 && !ta.nvlink && ta.gpu_pairs > 0)
        cf__audit_add_finding(a, i, CF__CODE_PCIE_ONLY_TOPOLOGY, at,
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
        cf__audit_add_finding(a, i, CF__CODE_NIC_FAR_FROM_GPU, at,
                    "%d of %d GPUs have no NIC within PXB, NCCL's default GPUDirect RDMA "
                    "distance: %s", ta.far_gpus, ta.gpus, list);
    }
}

/* NCCL_ERROR's action when the log is at NCCL_DEBUG=INFO already. */
static const char ACT_ERR_AT_INFO[] =
    "the log is already at NCCL_DEBUG=INFO: read the lines of the same rank just before this one "
    "(the first WARN names the failing call); for more, add NCCL_DEBUG_SUBSYS=INIT,NET,GRAPH or "
    "NCCL_DEBUG=TRACE";

/* The findings of NCCL log part i: completion errors, fatal WARNs, timeouts. */
static void nccl_findings(cf_audit *a, int i, cf__audit_part *p)
{
    cf__audit_loc at;
    cf__audit_netev *e = p->ev;
    if (e->completion) {
        at = e->completion_loc;
        cf__audit_add_finding(a, i, CF__CODE_COMPLETION_ERROR, at,
                    "%ld RDMA completion error(s); first cause status=%d (%s): %s",
                    e->completion, e->completion_status,
                    wc_status_name(e->completion_status), e->completion_msg);
    }
    if (e->errors) {
        at = e->error_loc;
        if (e->error_code > 0)
            cf__audit_add_finding_act(a, i, CF__CODE_NCCL_ERROR, at, e->info_lines ? ACT_ERR_AT_INFO : NULL,
                        "NCCL returned %s (%d): %s", nccl_result_name(e->error_code),
                        e->error_code, e->error_msg);
        else
            cf__audit_add_finding_act(a, i, CF__CODE_NCCL_ERROR, at, e->info_lines ? ACT_ERR_AT_INFO : NULL,
                        "NCCL WARN: %s", e->error_msg);
    } else if (e->plugin_fail && !e->init_complete && e->net_family == CF__NCCLNET_UNKNOWN &&
               e->ch[CF__NCCLNET_IB] + e->ch[CF__NCCLNET_SOCKET] + e->ch[CF__NCCLNET_OFI] == 0) {
        /* an optional net plugin failed and nothing shows NCCL going on
         * without it: the job may have ended there */
        at = e->plugin_fail_loc;
        cf__audit_add_finding(a, i, CF__CODE_NCCL_ERROR, at,
                    "a net plugin failed to load and no rank reached Init COMPLETE after it: %s",
                    e->plugin_fail_msg);
    }
    if (e->timeouts) {
        at = e->timeout_loc;
        cf__audit_add_finding(a, i, CF__CODE_TIMEOUT, at, "NCCL WARN: %s", e->timeout_msg);
    }
}

void cf__audit_part_findings(cf_audit *a)
{
    for (int i = 0; i < a->nparts; i++) {
        cf__audit_part *p = &a->parts[i];
        cf__audit_loc at;
        if (p->kind == CF__PART_PERF) {
            if (!perf_findings(a, i, p)) continue;
        } else if (p->kind == CF__PART_TOPO) {
            topo_findings(a, i, p);
        } else if (p->kind == CF__PART_NCCL) {
            nccl_findings(a, i, p);
        }
        if (p->trunc_line) {
            at.file = p->file;
            at.line = p->trunc_line;
            const cf__port *cut = NULL;
            for (int k = 0; k < p->nports; k++)
                if (!p->ports[k].complete) cut = &p->ports[k];
            if (p->kind == CF__PART_PERF)
                cf__audit_add_finding(a, i, CF__CODE_TRUNCATED_INPUT, at, "%s", "the table ends with a cut row");
            else if (cut && cut->seen_state)
                cf__audit_add_finding(a, i, CF__CODE_TRUNCATED_INPUT, at,
                            "the port dump ends after %s port %d's state (%s) and before its %slink layer",
                            cut->ca, cut->port, cut->state, cut->seen_rate ? "" : "rate and ");
            else
                cf__audit_add_finding(a, i, CF__CODE_TRUNCATED_INPUT, at, "%s",
                            "the port dump ends before the port's state, rate and link layer");
        }
    }
}

void cf__audit_port_findings(cf_audit *a)
{
    for (int i = 0; i < a->nparts; i++) {
        cf__audit_part *p = &a->parts[i];
        if (!p->ports) continue;     /* ibstat, ibv_devinfo, probe */
        for (int k = 0; k < p->nports; k++) {
            cf__port *pt = &p->ports[k];
            int admin_off = cf__find(pt->phys_state, strlen(pt->phys_state), "Disabled") ||
                            cf__find(pt->phys_state, strlen(pt->phys_state), "DISABLED");
            cf__audit_loc at;
            int spare = 0;
            if (pt->active != 0) continue;
            /* a port the admin disabled beside an Active one of the same link
             * layer is a spare, unless NCCL lists it; a dump cut after its
             * state cannot show that, so the down port is reported */
            for (int j = 0; j < p->nports; j++)
                if (j != k && p->ports[j].active == 1 && p->ports[j].ll == pt->ll) spare = 1;
            if (admin_off && pt->complete && spare &&
                !cf__audit_port_named(a, cf__audit_part_root(a, i), pt, CF__LL_UNKNOWN))
                continue;
            at.file = p->file;
            at.line = pt->line;
            cf__audit_add_finding(a, i, CF__CODE_PORT_DOWN, at, "%s port %d is %s (%s)", pt->ca,
                        pt->port, pt->state[0] ? pt->state : "down",
                        pt->phys_state[0] ? pt->phys_state : "physical state not shown");
        }
    }
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
static const char ACT_GDR_AT_INFO[] =
    "the log is at NCCL_DEBUG=INFO already: rerun with NCCL_DEBUG=TRACE NCCL_DEBUG_SUBSYS=INIT,NET "
    "for the per-GPU 'GPU Direct RDMA Disabled' lines, and audit nvidia-smi topo -m and "
    "'lsmod | grep peermem' of a node with it";
static const char ACT_GDR_TOPO_MATRIX[] =
    "topology: pin each rank to the GPU nearest its NIC (PIX/PXB in nvidia-smi topo -m); set "
    "NCCL_NET_GDR_LEVEL beyond PXB only if the platform supports peer-to-peer at that distance";

/* The last path component of a file name (evidence named in a message). */
const char *cf__audit_base_name(const char *f)
{
    const char *b = strrchr(f, '/');
    return b ? b + 1 : f;
}

/* "file:line" of a location into buf (cap bytes); "" for line 0. */
static const char *loc_text(const cf_audit *a, cf__audit_loc at, char *buf, size_t cap)
{
    if (!at.line || at.file >= a->nfiles) {
        buf[0] = '\0';
        return buf;
    }
    snprintf(buf, cap, "%s:%ld", cf__audit_base_name(a->files[at.file]), at.line);
    return buf;
}

/* The setting that restricts the NICs NCCL may use in run g: NCCL's own
 * "NCCL_IB_HCA set by environment" line, else one on a launcher, export or
 * env line, else a container limit; NULL when none is shown. */
static const cf__audit_setting *nic_restriction(const cf_audit *a, int g, int sockets)
{
    const cf__audit_seg *s = a->segs[g];
    const cf__audit_setting *c[3];
    if (sockets) {
        c[0] = &s->ev.ifname_env;
        c[1] = &s->hints.restrict_if;
    } else {
        c[0] = &s->ev.hca_env;
        c[1] = &s->hints.restrict_hca;
    }
    c[2] = &s->hints.container_limit;
    for (int k = 0; k < 3; k++)
        if (c[k]->at.line) return c[k];
    return NULL;
}

/* GDR_DISABLED, with the cause and action the input's evidence decides. */
static void gdr_disabled(cf_audit *a, int g)
{
    const cf__audit_seg *s = a->segs[g];
    const cf__audit_netev *e = &s->ev;
    int far_topo = 0;
    cf__audit_loc topo_at = {0, 0};
    for (int i = 0; i < a->nparts; i++) {
        const cf__audit_part *p = &a->parts[i];
        cf__topo_analysis ta;
        if (p->kind != CF__PART_TOPO || cf__audit_part_root(a, i) != g) continue;
        cf__topo_analyze(p->topo, &ta);
        if (ta.nics > 0 && ta.far_gpus > 0 && !far_topo) {
            far_topo = ta.far_gpus;
            topo_at.file = p->file;
            topo_at.line = p->first_line;
        }
    }
    if (e->off_distance >= 0) {
        cf__audit_add_run_finding(a, g, CF__CODE_GDR_DISABLED, e->gdr_gpu_off_loc, ACT_GDR_DISTANCE,
                        "GPUDirect RDMA is off: the GPU-NIC PCI distance %d is beyond the allowed "
                        "%d (NCCL_NET_GDR_LEVEL); data is staged through host memory",
                        e->off_distance, e->off_distance_max);
    } else if (e->gdr_env_off) {
        cf__audit_add_run_finding(a, g, CF__CODE_GDR_DISABLED, e->gdr_env_off_loc, ACT_GDR_ENV,
                        "GPUDirect RDMA is off because NCCL_NET_GDR_LEVEL is set to LOC/0; data is "
                        "staged through host memory");
    } else if (e->gdr_hca_off && !e->gdr_hca_on) {
        if (s->peermem)
            cf__audit_add_run_finding(a, g, CF__CODE_GDR_DISABLED, e->gdr_hca_off_loc, ACT_GDR_MISMATCH,
                            "GPUDirect RDMA is disabled for every HCA although lsmod lists "
                            "nvidia_peermem (%s:%ld): the module does not work with this driver, "
                            "OFED or kernel; data is staged through host memory",
                            cf__audit_base_name(a->files[s->peermem_loc.file]), s->peermem_loc.line);
        else if (s->lsmod)
            cf__audit_add_run_finding(a, g, CF__CODE_GDR_DISABLED, e->gdr_hca_off_loc, ACT_GDR_LOAD,
                            "GPUDirect RDMA is disabled for every HCA and the lsmod output (%s:%ld) "
                            "lists no nvidia_peermem; data is staged through host memory",
                            cf__audit_base_name(a->files[s->lsmod_loc.file]), s->lsmod_loc.line);
        else if (e->dmabuf)
            cf__audit_add_run_finding(a, g, CF__CODE_GDR_DISABLED, e->gdr_hca_off_loc, ACT_GDR_DMABUF,
                            "GPUDirect RDMA is disabled for every HCA although DMA-BUF is available "
                            "on the GPU (%s:%ld); data is staged through host memory",
                            cf__audit_base_name(a->files[e->dmabuf_loc.file]), e->dmabuf_loc.line);
        else
            cf__audit_add_run_finding(a, g, CF__CODE_GDR_DISABLED, e->gdr_hca_off_loc, ACT_GDR_LOAD,
                            "GPUDirect RDMA is disabled for every HCA: neither peer memory "
                            "(nvidia_peermem) nor DMA-BUF is usable; data is staged through host memory");
    } else if (far_topo) {
        cf__audit_add_run_finding(a, g, CF__CODE_GDR_DISABLED,
                        e->first_nogdr_ch.line ? e->first_nogdr_ch : topo_at, ACT_GDR_TOPO_MATRIX,
                        "the network channels do not use GPUDirect RDMA (no /GDRDMA) and the "
                        "topology matrix (%s:%ld) shows %d GPU(s) with no NIC within PXB; data is "
                        "staged through host memory", cf__audit_base_name(a->files[topo_at.file]), topo_at.line, far_topo);
    } else {
        cf__audit_add_run_finding(a, g, CF__CODE_GDR_DISABLED,
                        e->first_nogdr_ch.line ? e->first_nogdr_ch : e->gdr_gpu_off_loc,
                        e->info_lines ? ACT_GDR_AT_INFO : NULL,
                        "the network channels do not use GPUDirect RDMA (no /GDRDMA): data is "
                        "staged through host memory");
    }
}

/* The next step when NCCL fell back to sockets, from what the input shows
 * and where the job ran: NCCL_IB_DISABLE set (the line), no RDMA device in
 * a Kubernetes pod or container (/dev/infiniband), libibverbs missing, an
 * EFA plugin that did not load, or the usual check. */
static void socket_action(const cf_audit *a, int g, char *buf, size_t cap)
{
    const cf__audit_seg *s = a->segs[g];
    const cf__audit_netev *e = &s->ev;
    char l[160];
    int k8s = s->hints.env & CF__ENV_K8S, ctr = s->hints.env & CF__ENV_CONTAINER;
    if (e->ib_disable == 1 || s->hints.ib_disable.at.line) {
        cf__audit_loc at = e->ib_disable == 1 ? e->ib_disable_loc : s->hints.ib_disable.at;
        snprintf(buf, cap, "NCCL_IB_DISABLE=1 turns the RDMA transport off (%s): unset it%s, then check "
                 "that NCCL prints 'NET/IB : Using' on every node", loc_text(a, at, l, sizeof l),
                 k8s ? " in the pod spec's env" : s->hints.env & CF__ENV_SLURM ? " in the job script" : "");
    } else if (e->ofi_plugin || (a->has_fabric && a->fabric.network == CF_NET_EFA)) {
        snprintf(buf, cap, "EFA: install aws-ofi-nccl where NCCL finds it (LD_LIBRARY_PATH or NCCL_NET_PLUGIN), "
                 "set FI_PROVIDER=efa and check 'fi_info -p efa' on every node%s",
                 k8s ? "; the pod must request vpc.amazonaws.com/efa devices" : "");
    } else if (e->ibverbs_missing) {
        snprintf(buf, cap, "libibverbs could not be loaded (%s): install rdma-core / libibverbs1%s",
                 loc_text(a, e->ibverbs_loc, l, sizeof l), k8s || ctr ? " in the container image" : " on every node");
    } else if (s->hints.no_devib.line || (e->ib_nodev && (k8s || ctr))) {
        cf__audit_loc at = s->hints.no_devib.line ? s->hints.no_devib : e->ib_nodev_loc;
        snprintf(buf, cap, "no RDMA device inside the %s (%s): %s", k8s ? "pod" : "container",
                 loc_text(a, at, l, sizeof l),
                 k8s ? "request the RDMA devices in the pod spec (the RDMA or SR-IOV device plugin's "
                       "resource, e.g. rdma/..., and capability IPC_LOCK) so /dev/infiniband appears"
                     : "run it with --device=/dev/infiniband (or --privileged) and --cap-add=IPC_LOCK");
    } else if (e->ib_nodev) {
        snprintf(buf, cap, "NET/IB found no RDMA device (%s): check ibv_devinfo, the ib_uverbs and mlx5_ib "
                 "modules and the HCA driver on every node", loc_text(a, e->ib_nodev_loc, l, sizeof l));
    } else {
        cf__copy(buf, cap, cf__audit_code_action(CF__CODE_NET_SOCKET_FALLBACK));
    }
}

/* NICS_UNUSED: NCCL uses fewer NICs than a node's ranks could drive (the
 * node's NICs, at most one per GPU), with the setting that restricts it.
 * Without node evidence it is said only when a restriction is shown and
 * the node's ranks share fewer NICs than there are ranks. */
static void nic_findings(cf_audit *a, int g, const cf__audit_verdict *v)
{
    const cf__audit_seg *s = a->segs[g];
    const cf__audit_netev *e = &s->ev;
    const cf__audit_setting *rs = nic_restriction(a, g, 0);
    char l1[160], l2[160], act[400], why[240] = "";
    int avail = v->node.count;
    cf__audit_loc at;
    if (v->nics_used <= 0 || v->nodes == 1 || v->net == CF_NET_NONE) return;
    if (v->node.shown > 0 && v->node.shown < v->nics_used)
        cf__audit_add_run_finding(a, g, CF__CODE_NIC_COUNT_CONFLICT, e->ib_using_loc, NULL,
                        "NCCL's list names %d NICs but %s (at %s) shows %d usable on the node: the "
                        "node's count is taken as %d", v->nics_used, v->node.src,
                        loc_text(a, v->node.at, l2, sizeof l2), v->node.shown, v->node.count);
    if (avail > 0 && v->gpn > 0 && avail > v->gpn) avail = (int)v->gpn;
    at = rs ? rs->at : e->ib_using_loc;
    if (rs)
        snprintf(why, sizeof why, "; %s (%s) restricts it", rs->text, loc_text(a, rs->at, l1, sizeof l1));
    if (s->hints.env & CF__ENV_K8S)
        snprintf(act, sizeof act, "give the pod every RDMA NIC of the node (the device plugin's resource count "
                 "or one SR-IOV network per NIC)%s%s", rs ? " and remove " : "", rs ? rs->text : "");
    else if (s->hints.env & CF__ENV_CONTAINER)
        snprintf(act, sizeof act, "pass every RDMA device to the container (--device=/dev/infiniband)%s%s",
                 rs ? " and remove " : "", rs ? rs->text : "");
    else if (s->hints.env & CF__ENV_SLURM)
        snprintf(act, sizeof act, "%s%s in the job script (sbatch/srun --export) so NCCL uses every NIC of the "
                 "node; then rerun and check 'NET/IB : Using' lists them", rs ? "remove " : "unset NCCL_IB_HCA",
                 rs ? rs->text : "");
    else
        snprintf(act, sizeof act, "%s%s so NCCL uses every NIC of the node (or list them all: "
                 "NCCL_IB_HCA=mlx5); then rerun and check 'NET/IB : Using' lists them",
                 rs ? "remove " : "unset NCCL_IB_HCA", rs ? rs->text : "");
    if (avail > 0 && v->nics_used < avail) {
        char per[48] = "";
        if (v->gpn > 0) snprintf(per, sizeof per, " for the %ld ranks of each node", v->gpn);
        cf__audit_add_run_finding(a, g, CF__CODE_NICS_UNUSED, at, act,
                        "NCCL uses %d of the %d NICs a node has (%s%s%s)%s: the run gets at most that "
                        "share of the node's inter-node bandwidth", v->nics_used, v->node.count,
                        v->node.src, v->node.at.line ? " at " : "", loc_text(a, v->node.at, l2, sizeof l2), per);
        if (rs) {
            /* the message names the line that restricts it */
            cf__audit_finding *f = &a->findings[a->nfindings - 1];
            size_t k = strlen(f->msg);
            if (f->code == CF__CODE_NICS_UNUSED && k < sizeof f->msg) cf__copy(f->msg + k, sizeof f->msg - k, why);
        }
    } else if (avail < 0 && rs && v->gpn > v->nics_used) {
        cf__audit_add_run_finding(a, g, CF__CODE_NICS_UNUSED, at, act,
                        "NCCL uses %d NIC(s) for the %ld ranks of each node%s; how many NICs a node has "
                        "is not in the input (give --offering, or audit ibstat / ibv_devinfo of a node "
                        "with the log)", v->nics_used, v->gpn, why);
    }
}

/* SOFT_ROCE: a software RoCE device (rdma_rxe) in NCCL's device list or a
 * port dump; the network is still roce, the RDMA is done by the CPU. */
static void soft_roce_findings(cf_audit *a, int g)
{
    const cf__audit_netev *e = &a->segs[g]->ev;
    cf__audit_loc at = e->soft_roce_loc;
    const char *dev = e->soft_roce_dev;
    if (!e->soft_roce) {
        for (int i = 0; i < a->nparts && !at.line; i++) {
            const cf__audit_part *p = &a->parts[i];
            if (!p->ports || cf__audit_part_root(a, i) != g) continue;
            for (int k = 0; k < p->nports; k++)
                if (strncmp(p->ports[k].ca, "rxe", 3) == 0) {
                    at.file = p->file;
                    at.line = p->ports[k].line;
                    dev = p->ports[k].ca;
                    break;
                }
        }
        if (!at.line) return;
    }
    cf__audit_add_run_finding(a, g, CF__CODE_SOFT_ROCE, at, NULL,
                    "%s is a software RoCE device (rdma_rxe): RDMA is emulated by the CPU over a plain "
                    "Ethernet NIC, far below a hardware RDMA NIC", dev);
}

/* Transport findings of run g: sockets where a fabric was expected, EFA
 * not used, InfiniBand and RoCE ports mixed. */
static void transport_findings(cf_audit *a, int g, const cf__audit_verdict *v)
{
    const cf__audit_netev *e = &a->segs[g]->ev;
    cf__audit_loc at;
    int fam = v->fam;
    if (v->net == CF_NET_TCP && (fam == CF__NCCLNET_SOCKET || fam == CF__NCCLNET_FASTSOCKET)) {
        char act[400];
        at = e->ch[CF__NCCLNET_SOCKET] ? e->ch_loc[CF__NCCLNET_SOCKET] : e->net_loc;
        socket_action(a, g, act, sizeof act);
        if (fam == CF__NCCLNET_SOCKET)
            cf__audit_add_run_finding(a, g, CF__CODE_NET_SOCKET_FALLBACK, at, act,
                            "NCCL moves inter-node data over TCP sockets (NET/Socket)%s%s%s",
                            e->ib_disable == 1 ? "; NCCL_IB_DISABLE=1 is set" : "",
                            e->ibverbs_missing ? "; libibverbs could not be loaded" : "",
                            e->ib_nodev ? "; NET/IB found no RDMA device" : "");
        if (v->node.rdma) {
            char l1[160], l2[160];
            if (strcmp(v->node.src, "offering") == 0)
                cf__audit_add_run_finding(a, g, CF__CODE_RDMA_NOT_USED, at, act,
                                "the offering says the nodes have RDMA (%s) but NCCL moved the data over "
                                "sockets (%s)", cf_network_name(a->fabric.network), loc_text(a, at, l2, sizeof l2));
            else
                cf__audit_add_run_finding(a, g, CF__CODE_RDMA_NOT_USED, at, act,
                                "the %s at %s shows %d Active RDMA port(s) but NCCL moved the data over "
                                "sockets (%s)", v->node.src, loc_text(a, v->node.at, l1, sizeof l1),
                                v->node.count, loc_text(a, at, l2, sizeof l2));
        }
        if (e->ofi_plugin)
            cf__audit_add_run_finding(a, g, CF__CODE_EFA_NOT_USED, at, NULL,
                            "the OFI plugin is loaded but NCCL uses sockets, not EFA");
    }
    if (fam == CF__NCCLNET_OFI && v->net == CF_NET_TCP)
        cf__audit_add_run_finding(a, g, CF__CODE_EFA_NOT_USED, e->ofi_loc, NULL,
                        "libfabric selected provider '%s', not efa: traffic goes over TCP",
                        e->ofi_provider);
    {
        int ib = 0, eth = 0;
        for (int i = 0; i < e->n_ibdevs; i++) {
            if (e->ibdevs[i].d.ll == CF__LL_IB) ib++;
            else if (e->ibdevs[i].d.ll == CF__LL_ETH) eth++;
        }
        if ((ib && eth) || (e->ch_ll[CF__LL_IB] && e->ch_ll[CF__LL_ETH]))
            cf__audit_add_run_finding(a, g, CF__CODE_MIXED_LINK_LAYERS, e->ib_using_loc, NULL,
                            "NCCL's device list mixes InfiniBand and RoCE/Ethernet ports (%d IB, %d "
                            "RoCE)", ib, eth);
    }
}

/* The strongest NCCL_NET_GDR_LEVEL run g sets: NCCL's "set by environment"
 * line, an env listing, or the launcher (in front of it or forwarded);
 * where and as what it was set go to v. -1 when none. */
static int forced_gdr_level(const cf_audit *a, int g, cf__audit_verdict *v)
{
    const cf__audit_seg *s = a->segs[g];
    const cf__audit_netev *e = &s->ev;
    const cf__audit_launch *la = &s->la;
    int forced = -1;
    if (e->gdr_level > forced) {
        forced = e->gdr_level;
        v->forced_at = e->gdr_level_loc;
        cf__copy(v->forced_text, sizeof v->forced_text, e->gdr_level_text);
    }
    if (s->env_gdr_level > forced) {
        forced = s->env_gdr_level;
        v->forced_at = s->env_gdr_loc;
        cf__copy(v->forced_text, sizeof v->forced_text, "(env)");
    }
    if (la->gdr_level > forced && (la->gdr_level_prefix || la->gdr_level_forwarded)) {
        forced = la->gdr_level;
        v->forced_at = la->at;
        cf__copy(v->forced_text, sizeof v->forced_text, la->gdr_text);
    }
    return forced;
}

/* GDR findings of run g: partial (launcher or ranks that disagree),
 * forced beyond the default distance, disabled, NIC far from the GPU. */
static void gdr_findings(cf_audit *a, int g, cf__audit_verdict *v)
{
    const cf__audit_seg *s = a->segs[g];
    const cf__audit_netev *e = &s->ev;
    const cf__audit_launch *la = &s->la;
    int forced = forced_gdr_level(a, g, v);
    v->forced_level = forced;
    if (v->gdr == CF_GDR_ON && la->gdr_level_prefix && !la->gdr_level_forwarded &&
        la->gdr_level > GDR_LEVEL_DEFAULT) {
        v->gdr = CF_GDR_PARTIAL;
        cf__audit_add_run_finding(a, g, CF__CODE_GDR_PARTIAL, la->at, NULL,
                        "NCCL_NET_GDR_LEVEL=%s is set in front of the launcher without '-x "
                        "NCCL_NET_GDR_LEVEL': only the launching node's ranks get it, so GPUDirect "
                        "RDMA is on there and off (NCCL's default distance) on the others",
                        la->gdr_text);
    } else if (v->gdr == CF_GDR_PARTIAL) {
        cf__audit_add_run_finding(a, g, CF__CODE_GDR_PARTIAL,
                        e->first_nogdr_ch.line ? e->first_nogdr_ch : e->gdr_gpu_off_loc, NULL,
                        "GPUDirect RDMA is used by some ranks or NICs and not by others");
    }
    if ((v->gdr == CF_GDR_ON || v->gdr == CF_GDR_PARTIAL) && forced > GDR_LEVEL_DEFAULT)
        cf__audit_add_run_finding(a, g, CF__CODE_GDR_FORCED, v->forced_at, NULL,
                        "GPUDirect RDMA was forced with NCCL_NET_GDR_LEVEL=%s, beyond NCCL's default "
                        "PXB distance", v->forced_text);
    if (v->gdr == CF_GDR_OFF) gdr_disabled(a, g);
    if (e->off_distance >= 0) {
        int has_topo_finding = 0;
        for (int i = 0; i < a->nfindings; i++)
            if (a->findings[i].code == CF__CODE_NIC_FAR_FROM_GPU && a->findings[i].part >= 0 &&
                cf__audit_part_root(a, a->findings[i].part) == g)
                has_topo_finding = 1;
        if (!has_topo_finding)
            cf__audit_add_run_finding(a, g, CF__CODE_NIC_FAR_FROM_GPU, e->gdr_gpu_off_loc, NULL,
                            "NCCL reports the GPU-NIC distance %d beyond the GPUDirect RDMA limit %d",
                            e->off_distance, e->off_distance_max);
    }
}

/* The next step when busbw is low, per fabric: what measures the link
 * (ib_write_bw on IB/RoCE, not on EFA or TCPX), and the NICs or sockets
 * it should use. */
static void low_bw_action(const cf_audit *a, int g, const cf__audit_verdict *v, char *buf, size_t cap)
{
    const cf__audit_netev *e = &a->segs[g]->ev;
    const char *unused = v->nics_used > 0 && v->node.count > v->nics_used ? "first let NCCL use every NIC (NICS_UNUSED); " : "";
    switch (v->net) {
    case CF_NET_EFA:
        snprintf(buf, cap, "%scheck that every EFA interface is attached and used ('fi_info -p efa' lists them; "
                 "aws-ofi-nccl logs 'Selected provider is efa' with the NIC count), FI_EFA_USE_DEVICE_RDMA=1 "
                 "on instances with RDMA read, and GPUDirect (/GDRDMA in the channel lines)", unused);
        break;
    case CF_NET_TCPX:
    case CF_NET_TCPXO:
        snprintf(buf, cap, "check the GPUDirect-TCPX/TCPXO plugin and its receive-datapath daemon on every VM, "
                 "and that NCCL_SOCKET_IFNAME / NCCL_GPUDIRECTTCPX_SOCKET_IFNAME list every data NIC");
        break;
    case CF_NET_TCP:
        snprintf(buf, cap, "the data goes over TCP sockets: make the RDMA transport work (see "
                 "NET_SOCKET_FALLBACK%s); if sockets are all there is, raise NCCL_NSOCKS_PERTHREAD and "
                 "NCCL_SOCKET_NTHREADS", v->node.rdma ? " / RDMA_NOT_USED" : "");
        break;
    case CF_NET_ROCE:
        snprintf(buf, cap, "%smeasure each NIC with ib_write_bw -x %s between two nodes, check PFC/ECN on the "
                 "switch ports, GPUDirect RDMA (/GDRDMA) and PCIe link widths", unused,
                 e->gid_index >= 0 ? "<NCCL_IB_GID_INDEX>" : "<RoCE v2 GID index>");
        break;
    default:
        snprintf(buf, cap, "%smeasure each NIC with ib_write_bw between two nodes, check that NCCL uses every "
                 "NIC (NCCL_IB_HCA), GDR is on, and PCIe link widths", unused);
        break;
    }
}

/* Bandwidth findings of run g, judged against its own expectation: too
 * short to judge, under FAR_BELOW_RATE_FRACTION (an error) or
 * BELOW_RATE_FRACTION (a warning) of the expected busbw. Sets whether the
 * bandwidth was judged and, if not, why (v->judged, v->not_judged). */
static void bandwidth_findings(cf_audit *a, int g, cf__audit_verdict *v)
{
    cf__audit_loc at;
    cf__audit_part *p;
    cf__audit_run *r;
    long li;
    char act[400];
    v->judged = 0;
    v->not_judged = "the input shows no nccl-tests result row: there is no busbw to judge";
    if (v->last_run < 0) return;
    p = &a->parts[v->last_run];
    r = p->r;
    if (r->nrows == 0) return;
    li = r->nrows - 1;
    for (long k = 0; k < r->nrows; k++)
        if (r->rows[k].size == r->an.largest_size) li = k;
    at.file = p->file;
    at.line = r->rows[li].line;
    if (!r->an.in_bw_regime) {
        snprintf(v->not_judged_buf, sizeof v->not_judged_buf,
                 "the largest size (%.0f bytes) is below 256 MiB and busbw has not plateaued", r->an.largest_size);
        v->not_judged = v->not_judged_buf;
        cf__audit_add_finding(a, v->last_run, CF__CODE_RUN_TOO_SHORT, at,
                    "the largest size (%.0f bytes) is below 256 MiB and busbw has not "
                    "plateaued: bandwidth is not judged", r->an.largest_size);
        return;
    }
    if (isnan(v->expected) || isnan(v->busbw)) {
        if (v->nodes == 1 && !a->has_fabric)
            v->not_judged = "one node: no inter-node link rate applies; give --offering ID to compare with "
                            "the intra-node model";
        else if (v->node.count > 0 && isnan(v->node.rate_gbps)) {
            snprintf(v->not_judged_buf, sizeof v->not_judged_buf,
                     "the node's %d NIC(s) are known (%s) but not their link rate: give --expect-gbps N "
                     "(per-node line rate, Gbit/s), --offering ID, or ibstat / ibv_devinfo output",
                     v->node.count, v->node.src);
            v->not_judged = v->not_judged_buf;
        } else
            v->not_judged = "nothing in the input or flags gives a link rate: give --expect-gbps N "
                            "(per-node line rate, Gbit/s), --offering ID, or the node's ibstat / "
                            "ibv_devinfo output";
        return;
    }
    for (int k = 0; k < a->nfindings; k++)
        if (a->findings[k].code == CF__CODE_SINGLE_RANK_RUNS && a->findings[k].part == v->last_run) {
            v->not_judged = "each process ran alone (SINGLE_RANK_RUNS): the run measures no network";
            return;
        }
    v->judged = 1;
    v->not_judged = NULL;
    if (v->busbw >= BELOW_RATE_FRACTION * v->expected) return;
    low_bw_action(a, g, v, act, sizeof act);
    /* against an assumed node (exp_src "default") a shortfall is a warning:
     * the node rented may have fewer or slower NICs */
    v->far_below = v->busbw < FAR_BELOW_RATE_FRACTION * v->expected && strcmp(v->exp_src, "default") != 0;
    cf__audit_add_run_finding(a, g, v->far_below ? CF__CODE_BUSBW_FAR_BELOW_LINK_RATE : CF__CODE_BUSBW_BELOW_LINK_RATE,
                    at, act,
                    "busbw %.2f GB/s at the largest size is %.0f %% of the %.2f GB/s "
                    "expected (%s%s%s)", v->busbw, 100.0 * v->busbw / v->expected,
                    v->expected, strcmp(v->exp_src, "default") == 0 ? "an assumed node" : v->exp_src,
                    v->node.src && strcmp(v->exp_src, "expect-gbps") != 0 && strcmp(v->exp_src, "offering") != 0 ? ": the node's NICs, " : "",
                    v->node.src && strcmp(v->exp_src, "expect-gbps") != 0 && strcmp(v->exp_src, "offering") != 0 ? v->node.src : "");
}

/* The findings of one run (group root g) from its own evidence and verdict
 * (which GDR_PARTIAL and the forced level update). */
void cf__audit_run_findings(cf_audit *a, int g, cf__audit_verdict *v)
{
    transport_findings(a, g, v);
    nic_findings(a, g, v);
    soft_roce_findings(a, g);
    gdr_findings(a, g, v);
    bandwidth_findings(a, g, v);
}

static int has_content(const cf_audit *a, int *header_only)
{
    int any = 0;
    *header_only = 0;
    for (int i = 0; i < a->nparts; i++) {
        const cf__audit_part *p = &a->parts[i];
        switch (p->kind) {
        case CF__PART_PERF:
            /* A header with ranks or devices is content (its facts plus
             * TRUNCATED_INPUT); column headings alone are not. */
            if (cf__audit_run_has_content(p->r) || cf__audit_run_has_facts(p->r)) any = 1;
            else *header_only = 1;
            break;
        case CF__PART_TOPO:
            if (p->topo->nrows > 0) any = 1;
            break;
        case CF__PART_IBSTAT:
        case CF__PART_IBV:
        case CF__PART_PROBE:
            if (p->nports > 0) any = 1;
            break;
        default:
            any = 1;
            break;
        }
    }
    return any;
}

/* A framework's NCCL error in a run whose log is at NCCL_DEBUG=INFO already:
 * the action points at the NCCL lines there are, not at rerunning with them. */
static void info_level_actions(cf_audit *a)
{
    for (int i = 0; i < a->nfindings; i++) {
        cf__audit_finding *f = &a->findings[i];
        int g;
        if (f->code != CF__CODE_NCCL_ERROR || f->action) continue;
        g = f->part >= 0 ? cf__audit_part_root(a, f->part) : f->grp >= 0 ? a->segs[f->grp]->root : -1;
        if (g < 0 || a->segs[g]->ev.info_lines == 0) continue;
        cf__copy(f->act, sizeof f->act, ACT_ERR_AT_INFO);
        f->action = f->act;
    }
}

/* BUSBW_DROP across the runs of a summary table (a leading node-count
 * column, one run per node count, evidence.c): at the same message size,
 * busbw under half of the previous node count's, as the first step across
 * the network (1 to 2 nodes) often shows. */
static void summary_step_findings(cf_audit *a)
{
    double prev_lead = NAN, prev_bw = NAN, prev_size = NAN;
    for (int i = 0; i < a->nparts; i++) {
        const cf__audit_part *p = &a->parts[i];
        const cf__perf_row *row;
        cf__audit_loc at;
        if (p->kind != CF__PART_PERF || p->r->nrows <= 0) continue;
        row = &p->r->rows[p->r->nrows - 1];
        if (isnan(row->lead) || isnan(row->oop_busbw)) {
            prev_lead = NAN;
            continue;
        }
        if (!isnan(prev_lead) && row->lead > prev_lead && row->size == prev_size && prev_bw > 0 &&
            row->oop_busbw < 0.5 * prev_bw) {
            at.file = p->file;
            at.line = row->line;
            cf__audit_add_finding(a, i, CF__CODE_BUSBW_DROP, at,
                        "busbw at %.0f bytes falls from %.2f GB/s at %.0f node(s) to %.2f GB/s at %.0f "
                        "nodes (%.0f %%): the step %s", row->size, prev_bw, prev_lead, row->oop_busbw,
                        row->lead, 100.0 * row->oop_busbw / prev_bw,
                        prev_lead == 1 ? "across the network from one node" : "to more nodes");
        }
        prev_lead = row->lead;
        prev_bw = row->oop_busbw;
        prev_size = row->size;
    }
}

void cf__audit_input_findings(cf_audit *a, int nruns, int primary)
{
    int header_only = 0;
    info_level_actions(a);
    summary_step_findings(a);
    if (nruns > 1 && primary > 0) {
        int first = -1;
        for (int i = 0; i < a->nparts && first < 0; i++)
            if (a->segs[cf__audit_part_root(a, i)]->group == primary) first = i;
        if (first >= 0) {
            cf__audit_loc at;
            at.file = a->parts[first].file;
            at.line = a->parts[first].first_line;
            cf__audit_add_finding(a, -1, CF__CODE_SEVERAL_RUNS, at,
                        "the input holds %d separate runs (other files, NCCL versions, processes "
                        "or nccl-tests runs); the top-level facts are those of run %d, from %s:%ld; "
                        "every finding keeps its own file, line and run", nruns, primary,
                        cf__audit_base_name(a->files[at.file]), at.line);
        }
    }
    if (!has_content(a, &header_only)) {
        cf__audit_loc at = {a->nfiles > 0 ? a->nfiles - 1 : 0, 0};
        if (header_only)
            cf__audit_add_finding(a, -1, CF__CODE_NO_RECOGNIZED_INPUT, at,
                        "nccl-tests output without a single result row (header only)");
        else if (a->bytes == 0)
            cf__audit_add_finding(a, -1, CF__CODE_NO_RECOGNIZED_INPUT, at, "the input is empty");
        else
            cf__audit_add_finding(a, -1, CF__CODE_NO_RECOGNIZED_INPUT, at,
                        "no nccl-tests table, NCCL_DEBUG line, nvidia-smi topo -m matrix, ibstat "
                        "or ibv_devinfo dump recognised in %ld bytes", a->bytes);
    }
}

cf_audit_status cf__audit_status_of(const cf_audit *a)
{
    cf_audit_status st = CF_AUDIT_OK;
    for (int i = 0; i < a->nfindings; i++) {
        cf_severity sev = cf__audit_code_severity(a->findings[i].code);
        cf_audit_status s = sev == CF_SEV_INVALID ? CF_AUDIT_INVALID
                          : sev == CF_SEV_ERROR   ? CF_AUDIT_FAILED
                          : sev == CF_SEV_WARNING ? CF_AUDIT_WARNING
                                                  : CF_AUDIT_OK;
        if (s > st) st = s;
    }
    return st;
}
