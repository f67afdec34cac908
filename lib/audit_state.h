/* audit_state.h — the audit's shared state: the evidence types (loc,
 * finding, run, netev, part, launch, seg), struct cf_audit itself and the
 * verdict of one run, plus the few cf__audit_ functions the three audit
 * files call across. Not installed; the functions are hidden like every
 * cf__ symbol.
 *
 * Shape: lib/audit.c owns these types (it creates and frees them while it
 * routes lines and streams evidence in), lib/audit_judge.c reads them to
 * draw the conclusions of DESIGN §5, and lib/audit_json.c turns the state
 * and the verdicts into the report. The layout of the types is the one
 * audit.c always used; only their home moved here. */
#ifndef CLUSTERFIT_AUDIT_STATE_H
#define CLUSTERFIT_AUDIT_STATE_H

#include "audit_int.h"
#include "clusterfit/collective.h"
#include "internal.h"

/* --------------------------------------------------------------- types */

enum { PK_PERF = 0, PK_NCCL, PK_TOPO, PK_IBSTAT, PK_IBV, PK_FRAMEWORK };

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

/* ----------------------------------------------- across the audit files */

/* audit.c: bounded copy of a NUL-terminated string (cuts at cap - 1 bytes). */
void cf__audit_cpy(char *dst, size_t cap, const char *src);
/* audit.c: records a finding of part `pi` (-1 none); one per code and part,
 * counted. */
void cf__audit_add_finding(cf_audit *a, int pi, const char *code, cf_severity sev, loc at,
                           const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;
/* audit.c: a finding on a whole run (group root `grp`), with its own action
 * when the evidence decides it (NULL: the code's usual action). */
void cf__audit_add_run_finding(cf_audit *a, int grp, const char *code, cf_severity sev, loc at,
                               const char *action, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 7, 8)))
#endif
    ;
/* audit.c: an nccl-tests run has result rows (or a partial last one). */
int cf__audit_run_has_content(const run *r);
/* audit.c: a run without result rows that still shows facts: the parameter
 * line, the rank list or the collective's name. */
int cf__audit_run_has_facts(const run *r);

/* audit_judge.c: the findings each part shows on its own. */
void cf__audit_part_findings(cf_audit *a);
/* audit_judge.c: forms the groups (runs) of DESIGN §5 from the segments;
 * numbers them in input order; returns how many hold a run (*ngroups: all). */
int cf__audit_form_groups(cf_audit *a, int *ngroups);
/* audit_judge.c: the root segment of part pi's group. */
int cf__audit_part_root(const cf_audit *a, int pi);
/* audit_judge.c: PORT_DOWN and the other findings of port dumps. */
void cf__audit_port_findings(cf_audit *a);
/* audit_judge.c: the verdict of one run (group root g): its last nccl-tests
 * table, shape, transport, GDR, expected busbw, findings. */
void cf__audit_judge_run(cf_audit *a, int g, verdict *v);
/* audit_judge.c: 1 when any part holds content; *header_only is set when an
 * nccl-tests header without rows or facts was seen. */
int cf__audit_has_content(const cf_audit *a, int *header_only);
/* audit_judge.c: the last path component of a file name. */
const char *cf__audit_base_name(const char *f);
/* audit_judge.c: GDR_DISABLED's usual action (when no cause is shown). */
extern const char cf__audit_act_gdr_generic[];

#endif
