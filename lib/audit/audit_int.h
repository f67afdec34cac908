/* audit_int.h — the audit's internal pieces: the streaming line splitter
 * (audit/lines.c), the facts each parser (nccl-tests tables,
 * NCCL_DEBUG lines, nvidia-smi topo -m, ibstat / ibv_devinfo) extracts from
 * one line. Not installed; symbols are cf__-prefixed and hidden.
 *
 * Shape: every parser recognises known line shapes by prefix and substring
 * checks (no regex, no backtracking) and turns one line into a small plain
 * struct; lib/audit.c holds the per-file state machine, the evidence it
 * accumulates, and the rules of DESIGN §5. Every array here has a fixed cap
 * so memory does not grow with the input. */
#ifndef CLUSTERFIT_AUDIT_INT_H
#define CLUSTERFIT_AUDIT_INT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "clusterfit/audit.h"
#include "clusterfit/limits.h"
#include "clusterfit/collective.h"
#include "base/base.h"

/* ---------------------------------------------------------------- lines */

/* Called once per line, without its '\n' (and without a trailing '\r').
 * `cut` is 1 when the line was longer than the cap and only its first
 * CF_MAX_LINE_BYTES bytes are given; `no_newline` is 1 for a last line
 * that ended without '\n'. Returns CF_OK or an error that stops the feed. */
typedef cf_status (*cf__line_fn)(void *ctx, const char *s, size_t n, long lineno, int cut,
                                 int no_newline);

typedef struct cf__linebuf {
    char *buf;          /* holds a line split across chunks; cap bytes */
    size_t len, cap;
    int discarding;     /* past the cap: dropping bytes until '\n' */
    int cut;            /* the pending line was cut */
    long lineno;        /* lines delivered so far */
} cf__linebuf;

cf_status cf__linebuf_init(cf__linebuf *lb, size_t cap);
void cf__linebuf_free(cf__linebuf *lb);
void cf__linebuf_reset(cf__linebuf *lb);
/* Splits buf into lines; complete lines inside buf are passed without a copy. */
cf_status cf__linebuf_feed(cf__linebuf *lb, const char *buf, size_t n, cf__line_fn fn, void *ctx);
/* Delivers a pending last line (no '\n') if any. */
cf_status cf__linebuf_finish(cf__linebuf *lb, cf__line_fn fn, void *ctx);

/* Removes what launchers and loggers put in front of a line: Open MPI's
 * "[1,3]<stdout>:", rank tags "[155] " / "[rank0]:" / "[default0]:",
 * srun's "12: ", ISO timestamps "2024-05-01 12:00:00,123 " /
 * "2024-05-01T12:00:00.123Z", pdsh's "host: " (only before a line that
 * starts with the same host or with a table/comment). Returns the new start;
 * *n is updated. */
const char *cf__strip_prefixes(const char *s, size_t *n);

/* ------------------------------------------------------ nccl-tests table */

/* Column layout of a table, from its header line or guessed from a row. */
typedef struct cf__perf_layout {
    int known;          /* 1 when read from a header line */
    int has_redop, has_root;
    int error_column;   /* old layout: "error" (max error) instead of "#wrong" */
} cf__perf_layout;

typedef struct cf__perf_row {
    double size, count;
    char type[16], redop[16];
    double oop_time_us, oop_algbw, oop_busbw, oop_wrong;  /* NAN when absent/N/A */
    double ip_time_us, ip_algbw, ip_busbw, ip_wrong;
    long line;
} cf__perf_row;

enum { CF__ROW_NONE = 0, CF__ROW_OK, CF__ROW_PARTIAL };
/* Parses one nccl-tests result row (after prefix stripping). Returns
 * CF__ROW_OK for a complete out-of-place group (in-place may be absent),
 * CF__ROW_PARTIAL for a row cut before its out-of-place busbw, CF__ROW_NONE
 * for anything else. */
int cf__perf_parse_row(const char *s, size_t n, const cf__perf_layout *lay, cf__perf_row *out);

/* '#' lines of nccl-tests. */
enum {
    CF__PC_OTHER = 0, CF__PC_PARAMS,   /* "# nThread 1 nGpus 1 minBytes ..." */
    CF__PC_USING_DEVICES, CF__PC_RANK, /* "#  Rank  0 Group 0 Pid 1 on host device 0 [...] GPU" */
    CF__PC_HEADER,                     /* "#  size  count  type  redop  root  time ..." */
    CF__PC_UNITS, CF__PC_OOB,          /* "# Out of bounds values : 0 OK" */
    CF__PC_AVG,                        /* "# Avg bus bandwidth    : 84.8558" */
    CF__PC_TEST_START,                 /* "# Collective test starting: gather_perf" */
    CF__PC_PLACE                       /* "#   out-of-place   in-place" */
};
typedef struct cf__perf_comment {
    int kind;
    long nthread, ngpus;               /* PARAMS; -1 unknown */
    double min_bytes, max_bytes;
    long rank;                         /* RANK */
    long pid;                          /* RANK: "Pid 1234"; -1 absent */
    const char *host; size_t host_n;   /* RANK: points into the line */
    char gpu_name[48];                 /* RANK */
    cf__perf_layout layout;            /* HEADER */
    long oob;                          /* OOB: count of wrong values, -1 unknown */
    int oob_failed;
    double avg;                        /* AVG */
    char collective[24];               /* TEST_START */
} cf__perf_comment;
void cf__perf_parse_comment(const char *s, size_t n, cf__perf_comment *out);

/* Finds an nccl-tests/rccl-tests binary name ("all_reduce_perf",
 * "./build/alltoall_perf_mpi") in a line and maps it to a collective;
 * CF_COLL_UNKNOWN if none. */
cf_collective cf__perf_collective_in(const char *s, size_t n);

/* Analysis of one run's rows (DESIGN §5). */
typedef struct cf__perf_analysis {
    long nrows;
    double largest_size, busbw_largest, busbw_largest_ip, peak_busbw;
    int in_bw_regime;               /* largest >= 256 MiB or plateaued */
    int plateaued;
    int drop;                       /* BUSBW_DROP */
    long drop_row;                  /* index of the first dropping row */
    double drop_busbw, drop_peak, drop_size;
    long wrong_rows;                /* rows with #wrong > 0 */
    long first_wrong_row;
} cf__perf_analysis;
void cf__perf_analyze(const cf__perf_row *rows, long n, cf__perf_analysis *out);

/* ------------------------------------------------------------ NCCL log */

enum {
    CF__NL_NONE = 0,        /* not an NCCL line */
    CF__NL_OTHER,           /* an NCCL line of no interest */
    CF__NL_VERSION,         /* "NCCL version 2.18.5+cuda12.2" */
    CF__NL_USING_NETWORK,   /* "Using network IB" */
    CF__NL_IB_USING,        /* "NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_2:1/RoCE ..." */
    CF__NL_SOCKET_USING,    /* "NET/Socket : Using [0]eth0:..." */
    CF__NL_BOOTSTRAP,       /* "Bootstrap : Using eth0:..." */
    CF__NL_OFI_PROVIDER,    /* "NET/OFI Selected provider is efa" */
    CF__NL_OFI_PLUGIN,      /* "NET/OFI Using aws-ofi-nccl 1.5.0" and other NET/OFI lines */
    CF__NL_GDR_HCA,         /* "NET/IB : GPU Direct RDMA Enabled|Disabled for HCA 0 'mlx5_0'" */
    CF__NL_GDR_GPU,         /* "GPU Direct RDMA Enabled|Disabled for GPU 2[2] / HCA 0 (distance 3 >= 2)" */
    CF__NL_CHANNEL,         /* "Channel 00/0 : 1[0] -> 0[0] [receive] via NET/IB/1/GDRDMA" */
    CF__NL_ENV,             /* "NCCL_NET_GDR_LEVEL set by environment to SYS" */
    CF__NL_COMM,            /* "comm 0x.. rank 3 nranks 16 ..." */
    CF__NL_COMPLETION_ERR,  /* "NET/IB : Got completion from peer ... with status=12 ..." */
    CF__NL_ERROR,           /* a WARN or return trace that ends the job */
    CF__NL_TIMEOUT,         /* a WARN about a timeout */
    CF__NL_WARN,            /* another WARN (kept for the record, not an error) */
    CF__NL_IBVERBS_MISSING, /* "Failed to open libibverbs.so" */
    CF__NL_DMABUF           /* "DMA-BUF is available on GPU device 0" */
};

/* Link layers of RDMA ports. */
enum { CF__LL_UNKNOWN = 0, CF__LL_IB, CF__LL_ETH };

#define CF__MAX_IBDEVS 32   /* NET/IB devices listed per line: 8 GPUs x 2-4 ports */

typedef struct cf__ibdev {
    int idx;                /* NCCL's device index [i] */
    char name[32];
    int port;
    int ll;                 /* CF__LL_* */
} cf__ibdev;

/* Direction of a channel line ("[send]" / "[receive]"). */
enum { CF__CH_UNKNOWN = 0, CF__CH_SEND, CF__CH_RECV };

typedef struct cf__nccl_line {
    int kind;               /* CF__NL_* */
    const char *host; size_t host_n;    /* "node01" of "node01:pid:tid [dev]"; n 0 if absent */
    long pid, dev;                      /* -1 if absent */
    int level;                          /* 'I' INFO, 'W' WARN, 'T' TRACE, 0 none */
    const char *msg; size_t msg_n;      /* after "NCCL INFO " */
    /* kind-specific */
    char text[64];                      /* version / network name / provider / env value */
    char env_name[40];
    int enabled;                        /* GDR_HCA/GDR_GPU: 1 Enabled, 0 Disabled */
    int distance, distance_max;         /* GDR_GPU: -1 if absent */
    int dir;                            /* CHANNEL: CF__CH_* */
    char net[32];                       /* CHANNEL: net name ("IB", "Socket", "AWS Libfabric") */
    int netdev;                         /* CHANNEL: device index, -1 unknown */
    int gdrdma;                         /* CHANNEL: carries /GDRDMA */
    long rank, nranks;                  /* COMM */
    uint64_t comm_id;                   /* COMM: "commId 0x5ae7..."; 0 absent */
    int status;                         /* COMPLETION_ERR: wc status / error code */
    int roce_gid;                       /* line shows an IPv4-mapped GID (::ffff:) */
    cf__ibdev ibdevs[CF__MAX_IBDEVS];   /* IB_USING */
    int n_ibdevs;
} cf__nccl_line;

/* Parses one line (after prefix stripping); out->kind CF__NL_NONE if it is
 * not an NCCL_DEBUG line. */
void cf__nccl_parse(const char *s, size_t n, cf__nccl_line *out);

/* Families of NCCL net names: "IB", "IBext_v8" -> IB; "Socket"; "AWS
 * Libfabric"/"Libfabric"/"OFI" -> OFI; "GPUDirectTCPX*" -> TCPX; "FasTrak*"
 * -> TCPXO; "FastSocket" -> FASTSOCKET. */
enum { CF__NCCLNET_UNKNOWN = 0, CF__NCCLNET_IB, CF__NCCLNET_SOCKET, CF__NCCLNET_OFI, CF__NCCLNET_TCPX,
       CF__NCCLNET_TCPXO, CF__NCCLNET_FASTSOCKET, CF__NCCLNET_OTHER, CF__NCCLNET__COUNT };
int cf__net_family(const char *name, size_t n);

/* NCCL_NET_GDR_LEVEL value to NCCL's path level (LOC 0, NVL/PIX 1, PXB 2,
 * PXN 3, PHB 4, SYS 5; old numeric values 0-5 as NCCL reads them); -1 if
 * unrecognised. The default level is PXB (NCCL src/transport/net.cc). */
int cf__gdr_level(const char *v);

/* ----------------------------------------------------------- topology */

#define CF__MAX_TOPO_DEVS CF_MAX_TOPO_DEVICES

/* Link codes of nvidia-smi topo -m. */
enum { CF__TL_UNKNOWN = 0, CF__TL_X, CF__TL_NV, CF__TL_PIX, CF__TL_PXB, CF__TL_PHB,
       CF__TL_NODE, CF__TL_SYS };
int cf__topo_link(const char *s, size_t n, int *nvlinks);
const char *cf__topo_link_name(int code);

typedef struct cf__topo {
    int ncols;
    char names[CF__MAX_TOPO_DEVS][32];      /* column labels: GPU0, NIC0, mlx5_0 */
    char nic_names[CF__MAX_TOPO_DEVS][32];  /* from the NIC Legend ("" if none) */
    int nrows;
    int row_of[CF__MAX_TOPO_DEVS];          /* row index -> column index */
    unsigned char link[CF__MAX_TOPO_DEVS][CF__MAX_TOPO_DEVS];   /* [row][col] CF__TL_* */
    unsigned char nvl[CF__MAX_TOPO_DEVS][CF__MAX_TOPO_DEVS];    /* NV# count */
} cf__topo;

/* Reads a header line ("\tGPU0\tGPU1\tmlx5_0\tCPU Affinity..."); returns 1
 * and fills t->names/ncols if the line is one. */
int cf__topo_header(const char *s, size_t n, cf__topo *t);
/* Reads one matrix row of t; returns 1 if the line is one. */
int cf__topo_row(const char *s, size_t n, cf__topo *t);
/* Reads a NIC Legend line ("  NIC0: mlx5_0"); returns 1 if it is one. */
int cf__topo_nic_legend(const char *s, size_t n, cf__topo *t);
/* 1 if the column is a GPU / a NIC. */
int cf__topo_is_gpu(const cf__topo *t, int col);
int cf__topo_is_nic(const cf__topo *t, int col);

typedef struct cf__topo_analysis {
    int gpus, nics;
    int nvlink;             /* some GPU pair is NV# */
    int gpu_pairs;          /* GPU pairs in the matrix */
    int far_gpus;           /* GPUs whose nearest NIC is beyond PXB */
    int best[CF__MAX_TOPO_DEVS];    /* per GPU column: best link to a NIC (CF__TL_*) */
} cf__topo_analysis;
void cf__topo_analyze(const cf__topo *t, cf__topo_analysis *out);

/* ------------------------------------------------ ibstat / ibv_devinfo */

#define CF__MAX_PORTS CF_MAX_AUDIT_PORTS

typedef struct cf__port {
    char ca[32];
    int port;
    int active;             /* -1 unknown, 0 down, 1 active */
    char state[24], phys_state[24];
    double rate_gbps;       /* NAN unknown */
    int ll;                 /* CF__LL_* */
    int roce_v2;            /* a GID is IPv4-mapped */
    double width, speed_gbps;   /* ibv_devinfo active_width x active_speed */
    int seen_state, seen_rate, seen_ll;
    long line;
    int complete;           /* state, rate (ibstat) and link layer were seen */
} cf__port;

/* ibstat lines. */
enum { CF__IB_NONE = 0, CF__IB_CA, CF__IB_PORT, CF__IB_FIELD };
enum { CF__IBF_OTHER = 0, CF__IBF_STATE, CF__IBF_PHYS, CF__IBF_RATE, CF__IBF_LL,
       CF__IBF_WIDTH, CF__IBF_SPEED, CF__IBF_GID };
typedef struct cf__ib_line {
    int kind;               /* CF__IB_* */
    int field;              /* CF__IBF_* */
    char name[32];          /* CA name (CA / hca_id) */
    long port;
    char value[48];
    double num;             /* RATE, SPEED; width factor for WIDTH */
} cf__ib_line;
/* ibstat: "CA 'mlx5_0'", "Port 1:", "State: Active", "Rate: 400", ... */
void cf__ibstat_parse(const char *s, size_t n, cf__ib_line *out);
/* ibv_devinfo: "hca_id:\tmlx5_0", "port:\t1", "state:\tPORT_ACTIVE (4)",
 * "active_width:\t4X (2)", "active_speed:\t50.0 Gbps (64)", "link_layer:\tInfiniBand" */
void cf__ibv_parse(const char *s, size_t n, cf__ib_line *out);
/* Applies a FIELD line to a port. */
void cf__port_apply(cf__port *p, const cf__ib_line *l, int devinfo);
/* After the last line of a port: completes the rate from width x speed. */
void cf__port_finish(cf__port *p);

/* ------------------------------------------------- finding codes (codes.c) */

/* The codes of codes.def, in its order. */
typedef enum cf__audit_code {
#define CF__AUDIT_CODE(name, sev, action) CF__CODE_##name,
#include "audit/codes.def"
#undef CF__AUDIT_CODE
    CF__CODE__COUNT
} cf__audit_code;

/* The code's name as the report prints it ("GDR_DISABLED"). Static. */
const char *cf__audit_code_name(cf__audit_code c);
/* The severity the code always has. */
cf_severity cf__audit_code_severity(cf__audit_code c);
/* The code's usual one-line action (a finding may bring its own). Static. */
const char *cf__audit_code_action(cf__audit_code c);
/* The usual action of the code named `name` (text.c reads codes from a
 * report's JSON); "" when no code has that name. Static. */
const char *cf__audit_action_of(const char *name);

/* ================================================================ state
 *
 * The audit's shared state: the evidence types (loc,
 * finding, run, netev, part, launch, seg), struct cf_audit itself and the
 * verdict of one run, plus the few cf__audit_ functions the three audit
 * files call across. Not installed; the functions are hidden like every
 * cf__ symbol.
 *
 * Shape: audit/audit.c owns these types (it creates and frees them while it
 * routes lines and streams evidence in), audit/judge.c reads them to
 * draw the conclusions of DESIGN §5, and audit/report.c turns the state
 * and the verdicts into the report. The layout of the types is the one
 * audit.c always used; only their home moved here. */

/* --------------------------------------------------------------- types */

enum { CF__PART_PERF = 0, CF__PART_NCCL, CF__PART_TOPO, CF__PART_IBSTAT, CF__PART_IBV, CF__PART_FRAMEWORK };

typedef struct cf__audit_loc { int file; long line; } cf__audit_loc;

typedef struct cf__audit_finding {
    cf__audit_code code;
    char msg[320];
    const char *action;     /* one-line fix; NULL: the code's usual one */
    cf__audit_loc at;
    int part;       /* -1: a conclusion over a run (grp) or the whole input */
    int grp;        /* segment of the run it concludes on; -1 none */
    long count;
} cf__audit_finding;

typedef struct cf__audit_run {
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
} cf__audit_run;

typedef struct cf__audit_hostdev { uint64_t host; cf__ibdev d; } cf__audit_hostdev;

#define CF__AUDIT_MAX_IBDEVS 128

/* Slots of a rank_gdr entry: the rank's channel lines by direction, with
 * and without /GDRDMA (a line of unknown direction counts as receive). */
enum { CF__RG_RECV_GDR = 0, CF__RG_RECV_NOGDR, CF__RG_SEND_GDR, CF__RG_SEND_NOGDR };

typedef struct cf__audit_netev {
    long lines;
    char version[32];
    char net_name[48];
    int net_family;
    cf__audit_loc net_loc;
    cf__audit_hostdev ibdevs[CF__AUDIT_MAX_IBDEVS];
    int n_ibdevs;
    cf__audit_loc ib_using_loc;
    char ofi_provider[32];
    cf__audit_loc ofi_loc;
    int ofi_plugin;
    long ch[CF__NCCLNET__COUNT];
    cf__audit_loc ch_loc[CF__NCCLNET__COUNT];
    char ch_net[48];
    long ch_ll[3];
    long gdr_hca_on, gdr_hca_off;
    cf__audit_loc gdr_hca_off_loc;
    long gdr_gpu_on, gdr_gpu_off;
    cf__audit_loc gdr_gpu_off_loc;
    int off_distance, off_distance_max;
    cf__kvset rank_gdr;     /* hash(host,pid,dev) -> channel counts, v[CF__RG_*] */
    cf__audit_loc first_gdr_ch, first_nogdr_ch;
    int gdr_level;          /* NCCL_NET_GDR_LEVEL set by environment; -1 none */
    char gdr_level_text[16];
    cf__audit_loc gdr_level_loc;
    int gdr_env_off;        /* NCCL_NET_GDR_LEVEL set to LOC (0): GDR off by choice */
    cf__audit_loc gdr_env_off_loc;
    long dmabuf;            /* "DMA-BUF is available on GPU device" lines */
    cf__audit_loc dmabuf_loc;
    int ib_disable;
    cf__audit_loc ib_disable_loc;
    long nranks;
    int roce_gid;
    long completion, errors, timeouts;
    int completion_status;
    cf__audit_loc completion_loc, error_loc, timeout_loc, ibverbs_loc;
    char completion_msg[200], error_msg[200], timeout_msg[200];
    int error_code;
    int ibverbs_missing;
} cf__audit_netev;

typedef struct cf__audit_part {
    int kind;
    int file;
    int seg;                /* the segment (run) it belongs to */
    long first_line, last_line;
    cf__audit_run *r;
    cf__audit_netev *ev;
    cf__topo *topo;
    cf__port *ports;
    int nports;
    long fw_lines;
    long trunc_line;        /* TRUNCATED_INPUT evidence, 0 none */
} cf__audit_part;

typedef struct cf__audit_launch {
    int seen;
    cf__audit_loc at;
    long np;
    long hosts;
    int gdr_level_prefix;   /* NCCL_NET_GDR_LEVEL set in front of the launcher */
    int gdr_level_forwarded;
    int gdr_level;
    char gdr_text[16];
} cf__audit_launch;

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
typedef struct cf__audit_seg {
    int file;
    int root;               /* union-find parent; after joining, the group's root */
    int group;              /* 1-based number of the group in the report; 0 none */
    cf__audit_netev ev;               /* NCCL evidence of the segment (of the group, at the root) */
    cf__kvset hosts;        /* host hash -> v[0] seen, v[1] printed "NCCL version" */
    cf__kvset ranks;        /* rank + 1 -> v[0] host hash, v[1] nranks of its communicator */
    cf__kvset procs;        /* (host, pid) of NCCL lines */
    cf__kvset list_procs;   /* (host, pid) of the nccl-tests rank list */
    long max_rank_seen;
    cf__audit_launch la;
    int env_gdr_level;      /* from "NCCL_NET_GDR_LEVEL=SYS" env listings; -1 none */
    cf__audit_loc env_gdr_loc;
    uint64_t comm_ids[8];
    int ncomm;
    int run_part;           /* its latest nccl-tests part; -1 none */
    int lsmod;              /* an lsmod command or listing is shown */
    cf__audit_loc lsmod_loc;
    int peermem;            /* lsmod lists nvidia_peermem / nv_peer_mem */
    cf__audit_loc peermem_loc;
    uint64_t known_proc;    /* cache: the last (host, pid) found in procs */
} cf__audit_seg;

struct cf_audit {
    cf_audit_opts opts;
    cf_fabric fabric;
    int has_fabric;
    cf__linebuf lb;
    char **files;
    int nfiles, files_cap;
    const char *cur_name;
    cf__audit_part *parts;
    int nparts;
    long parts_dropped;
    cf__audit_finding *findings;
    int nfindings;
    long findings_dropped;
    cf__audit_seg **segs;
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


typedef struct cf__audit_verdict {
    cf_network net;
    cf_gdr gdr;
    long ranks, nodes, gpn;
    cf_collective coll;
    double busbw, expected;
    const char *exp_src;
    int last_run;           /* part index, -1 none */
    int fam;                /* CF__NCCLNET_* family the transport was read from */
    int forced_level;
    char forced_text[16];
    cf__audit_loc forced_at;
} cf__audit_verdict;

/* ------------------------------------------------- evidence (evidence.c) */

/* The location of `line` in the current file. */
static inline cf__audit_loc cf__audit_here(const cf_audit *a, long line)
{
    cf__audit_loc l;
    l.file = a->nfiles - 1;
    l.line = line;
    return l;
}
/* The current segment (a->cur >= 0 once a file began). */
static inline cf__audit_seg *cf__audit_cur_seg(cf_audit *a) { return a->segs[a->cur]; }
/* Key of a process in the process sets: host hash mixed with its pid
 * (Fibonacci hashing); never 0, the empty key. */
static inline uint64_t cf__audit_proc_key(uint64_t host, long pid)
{
    uint64_t k = host ^ ((uint64_t)pid * 0x9E3779B97F4A7C15ULL);
    return k ? k : 1;
}
/* The open nccl-tests run, if any, reaches `line`. */
static inline void cf__audit_run_touch(cf_audit *a, long line)
{
    if (a->f_run >= 0) a->parts[a->f_run].last_line = line;
}

/* Records a finding of part `pi` (-1 none) with the code's severity; one
 * per code and part, counted (count). The message is formatted into the
 * finding (cut at its size). Past CF_MAX_FINDINGS it is only counted in
 * findings_dropped. */
void cf__audit_add_finding(cf_audit *a, int pi, cf__audit_code code, cf__audit_loc at,
                           const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
/* A finding on a whole run (group root segment `grp`), with its own action
 * when the evidence decides it (static text, borrowed; NULL: the code's
 * usual action); one per code and run, counted. */
void cf__audit_add_run_finding(cf_audit *a, int grp, cf__audit_code code, cf__audit_loc at,
                               const char *action, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;
/* Starts a new segment in the current file and makes it current; at
 * CF_MAX_AUDIT_PARTS the last one goes on. 0, or -1 on ENOMEM (a->oom set). */
int cf__audit_new_seg(cf_audit *a);
/* Opens a part of kind CF__PART_* at `line` in the current segment with the
 * store its kind needs; at CF_MAX_AUDIT_PARTS the last slot is reused (its
 * findings dropped). Returns its index, -1 on ENOMEM (a->oom set). */
int cf__audit_new_part(cf_audit *a, int kind, long line);
/* Frees what a part or a segment owns (the segment itself too). */
void cf__audit_part_free(cf__audit_part *p);
void cf__audit_seg_free(cf__audit_seg *s);
/* Notes a host (h[0..n), n 0: none) in the current segment's host set and
 * returns its hash (0 for none); the last host's hash is cached. */
uint64_t cf__audit_note_host(cf_audit *a, const char *h, size_t n);
/* Notes a rank of the current segment with its host: from a rank list
 * (nranks 0) or from a communicator of nranks ranks. */
void cf__audit_note_rank(cf_audit *a, long rank, long nranks, const char *h, size_t n);

/* An nccl-tests run has result rows (or a partial last one). */
int cf__audit_run_has_content(const cf__audit_run *r);
/* A run without result rows that still shows facts: the parameter line,
 * the rank list or the collective's name. */
int cf__audit_run_has_facts(const cf__audit_run *r);
/* The rank list names every rank 0..max once, with host and Pid, and has no
 * "..." gap: then it is the run's whole process set. */
int cf__audit_list_complete(const cf__audit_run *r);
/* The latest nccl-tests run of segment si; NULL none. Borrowed. */
cf__audit_run *cf__audit_seg_run(const cf_audit *a, int si);
/* Opens a new nccl-tests run at `line` (closing the open one). `strong`
 * when a line that starts a run opens it (parameter line, device list):
 * NCCL lines before it then belong to another segment. NULL on ENOMEM. */
cf__audit_run *cf__audit_open_run(cf_audit *a, long line, int strong);
/* The open run, or a new one opened strongly at `line`; NULL on ENOMEM. */
cf__audit_run *cf__audit_cur_run(cf_audit *a, long line);
/* Ends the open run (analyses its rows: cf__perf_analyze). */
void cf__audit_close_run(cf_audit *a);
/* Ends the open topology matrix / port dump (completes its ports). */
void cf__audit_close_topo(cf_audit *a);
void cf__audit_close_ib(cf_audit *a);
/* The input shows another run from here on: the open parts stay with the
 * current segment and are closed, what follows goes to a new segment. */
void cf__audit_split_seg(cf_audit *a);
/* A collective named by a binary ("all_gather_perf", test_start 0) or a
 * test-start line (1): the open run's if it has none yet, else the next's. */
void cf__audit_note_coll(cf_audit *a, cf_collective cc, int test_start);
/* A result row (kind CF__ROW_OK or CF__ROW_PARTIAL) at `line`: stored in
 * the open run, or in a new one when none is open or it ended. */
void cf__audit_add_row(cf_audit *a, const cf__perf_row *row, int kind, long line);

/* ------------------------------------------------------- lines (route.c) */

/* The cf__line_fn of the audit (ctx: the cf_audit): routes one line. */
cf_status cf__audit_on_line(void *ctx, const char *s, size_t n, long lineno, int cut, int no_nl);

/* ------------------------------------------------------ groups (group.c) */

/* Forms the groups (runs) of DESIGN §5 from the segments and merges each
 * group's evidence into its root; numbers them 1.. in input order (seg
 * `group`). Returns how many hold a run or NCCL lines; *ngroups gets all,
 * hardware-only groups included. a->oom on ENOMEM. */
int cf__audit_form_groups(cf_audit *a, int *ngroups);
/* The root segment of part pi's group (after cf__audit_form_groups). */
int cf__audit_part_root(const cf_audit *a, int pi);
/* Fills roots[k] with the root segment of group k + 1 (ngroups entries). */
void cf__audit_group_roots(const cf_audit *a, int *roots);
/* The group the report's top level describes (DESIGN §5: the last
 * nccl-tests table's run); 0 when there is no part. */
int cf__audit_primary_group(const cf_audit *a);

/* ---------------------------------------------------- verdict (verdict.c) */

/* The verdict of the run whose group root is g: its last nccl-tests table,
 * shape, transport, GDR state, expected busbw. Adds no finding. */
void cf__audit_verdict_of(cf_audit *a, int g, cf__audit_verdict *v);
/* 1 if port pt (link layer ll, CF__LL_UNKNOWN: any) is among the devices
 * NCCL listed for run g. */
int cf__audit_port_named(const cf_audit *a, int g, const cf__port *pt, int ll);

/* -------------------------------------------------- findings (findings.c) */

/* The findings each part shows on its own. */
void cf__audit_part_findings(cf_audit *a);
/* PORT_DOWN: a port down that NCCL uses, or not disabled by the admin. */
void cf__audit_port_findings(cf_audit *a);
/* The findings of run g from its evidence and verdict v (after
 * cf__audit_verdict_of); sets v's forced GDR level, and gdr to partial when
 * the launcher passes NCCL_NET_GDR_LEVEL to one node only. */
void cf__audit_run_findings(cf_audit *a, int g, cf__audit_verdict *v);
/* The findings of the whole input: SEVERAL_RUNS (nruns > 1; primary: the
 * top level's group), NO_RECOGNIZED_INPUT. */
void cf__audit_input_findings(cf_audit *a, int nruns, int primary);
/* The status the findings add up to (DESIGN §5 order). */
cf_audit_status cf__audit_status_of(const cf_audit *a);
/* The last path component of a file name (evidence named in a message). */
const char *cf__audit_base_name(const char *f);

/* ------------------------------------------------------ report (report.c) */

/* The JSON report (DESIGN §5): status st, the facts of group `primary`
 * (0: none) from vs[primary - 1], run_facts[] of the ng groups (vs[k] the
 * verdict of the group rooted at roots[k]), findings and parts. New
 * reference owned by the caller; NULL on ENOMEM. */
json_t *cf__audit_report_json(const cf_audit *a, const cf__audit_verdict *vs, const int *roots, int ng,
                              int primary, int nruns, cf_audit_status st);

#endif
