/* audit_int.h — the private header of lib/audit/: the parsers' types, the
 * audit's state and the interface between its files. Not installed;
 * symbols are cf__-prefixed and hidden. audit/ includes base/, model/ and
 * its own headers plus the public clusterfit/ ones.
 *
 * Who owns what:
 *   lines.c      the streaming line splitter, launcher/logger prefixes
 *   perftable.c  nccl-tests rows and '#' lines, the analysis of a table
 *   ncclog.c     NCCL_DEBUG lines, net families, NCCL_NET_GDR_LEVEL values
 *   topo.c       nvidia-smi topo -m matrices and their analysis
 *   ibstat.c     ibstat / ibv_devinfo port dumps
 *   route.c      the line router: which parser a line goes to, and what it
 *                shows applied to the evidence (hot path)
 *   evidence.c   the state as it streams in: findings store, segments,
 *                parts, the life of an nccl-tests run
 *   group.c      segments joined into runs; the run the top level shows
 *   verdict.c    one run's shape, transport, GDR state, expected busbw
 *   findings.c   per-part, port, run and whole-input findings; the status
 *   codes.def/.c the finding codes: severity and usual action
 *   report.c     the JSON report; text.c the text rendered from it
 *   audit.c      the public API (include/clusterfit/audit.h)
 *
 * Shape: the parsers recognise known line shapes by prefix and substring
 * checks (no regex, no backtracking) and turn one line into a small plain
 * struct; they know nothing of the state. The state below is written while
 * lines stream in (route.c, evidence.c) and read once at the end (group.c
 * merges, verdict.c and findings.c conclude, report.c prints). Every array
 * has a fixed cap (limits.h) so memory does not grow with the input. */
#ifndef CLUSTERFIT_AUDIT_INT_H
#define CLUSTERFIT_AUDIT_INT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "clusterfit/audit.h"
#include "clusterfit/limits.h"
#include "clusterfit/collective.h"
#include "base/base.h"

/* ------------------------------------------------------- lines (lines.c) */

/* Called once per line, without its '\n' (and without a trailing '\r').
 * `cut` is 1 when the line was longer than the cap and only its first
 * CF_MAX_LINE_BYTES bytes are given; `no_newline` is 1 for a last line
 * that ended without '\n'. Returns CF_OK or an error that stops the feed. */
typedef cf_status (*cf__line_fn)(void *ctx, const char *s, size_t n, long lineno, int cut,
                                 int no_newline);

typedef struct cf__linebuf {
    char *buf;          /* holds a line split across chunks; cap bytes */
    size_t len;         /* bytes of the pending line held in buf */
    size_t cap;         /* the longest line delivered whole (CF_MAX_LINE_BYTES) */
    int discarding;     /* past the cap: dropping bytes until '\n' */
    int cut;            /* the pending line was cut */
    long lineno;        /* lines delivered so far */
} cf__linebuf;

cf_status cf__linebuf_init(cf__linebuf *lb, size_t cap);
/* Frees the buffer of a caller-owned linebuf (buf NULL after). NULL-safe. */
void cf__linebuf_clear(cf__linebuf *lb);
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

/* ------------------------------------------ nccl-tests table (perftable.c) */

/* Column layout of a table, from its header line or guessed from a row. */
typedef struct cf__perf_layout {
    int known;          /* 1 when read from a header line */
    int has_redop;      /* a "redop" column follows "type" */
    int has_root;       /* a "root" column follows (broadcast, reduce ...) */
    int error_column;   /* old layout: "error" (max error) instead of "#wrong" */
    int guess_root;     /* no header: the run's first complete row had a root column (1),
                         * had none (0), not yet seen (-1; also 0 when zeroed: read with
                         * guess_seen) */
    int guess_seen;     /* guess_root is set */
} cf__perf_layout;

/* One result row. Times in microseconds, bandwidths in GB/s as nccl-tests
 * prints them; every number NAN when absent or "N/A". */
typedef struct cf__perf_row {
    double size;        /* message size, bytes */
    double count;       /* elements */
    char type[16];      /* data type ("float") */
    char redop[16];     /* reduction ("sum"); "" when the table has none */
    double oop_time_us; /* out-of-place: time */
    double oop_algbw;   /* out-of-place: algorithm bandwidth */
    double oop_busbw;   /* out-of-place: bus bandwidth */
    double oop_wrong;   /* out-of-place: #wrong (old layout: max error) */
    double ip_time_us;  /* in-place: time */
    double ip_algbw;    /* in-place: algorithm bandwidth */
    double ip_busbw;    /* in-place: bus bandwidth */
    double ip_wrong;    /* in-place: #wrong (old layout: max error) */
    long line;          /* input line (set when stored, evidence.c; not by the parser) */
    double lead;        /* a number in a column before size (a summary table's node count); NAN none */
    int root_col;       /* the row had a root column (read or guessed) */
    double root;        /* its value (-1: none, all_reduce); NAN absent */
    int full;           /* every column of both groups was present */
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
    int kind;                          /* CF__PC_* */
    long nthread;                      /* PARAMS: nThread; -1 unknown */
    long ngpus;                        /* PARAMS: nGpus (per process); -1 unknown */
    double min_bytes;                  /* PARAMS: minBytes; NAN unknown */
    double max_bytes;                  /* PARAMS: maxBytes; NAN unknown */
    long rank;                         /* RANK: the rank number */
    long pid;                          /* RANK: "Pid 1234"; -1 absent */
    const char *host;                  /* RANK: host name, points into the line */
    size_t host_n;                     /* RANK: its length; 0 absent */
    char gpu_name[48];                 /* RANK: device name after "[busid]" */
    cf__perf_layout layout;            /* HEADER */
    long oob;                          /* OOB: count of wrong values, -1 unknown */
    int oob_failed;                    /* OOB: "FAILED" or a count above 0 */
    double avg;                        /* AVG: GB/s; NAN unknown */
    char collective[24];               /* TEST_START: "gather" of "gather_perf" */
} cf__perf_comment;
void cf__perf_parse_comment(const char *s, size_t n, cf__perf_comment *out);

/* The collective a table's rows show when nothing names it (no header
 * line, no binary name): from the count column against size and type, the
 * redop and the root of its largest row (all_reduce, reduce_scatter,
 * broadcast, reduce); CF_COLL_UNKNOWN when they do not tell. */
cf_collective cf__perf_collective_of_rows(const cf__perf_row *rows, long n);

/* Finds an nccl-tests/rccl-tests binary name ("all_reduce_perf",
 * "./build/alltoall_perf_mpi") in a line and maps it to a collective;
 * CF_COLL_UNKNOWN if none. */
cf_collective cf__perf_collective_in(const char *s, size_t n);

/* Analysis of one run's rows (DESIGN §5). */
typedef struct cf__perf_analysis {
    long nrows;                     /* rows analysed */
    double largest_size;            /* largest message size, bytes; NAN no rows */
    double busbw_largest;           /* out-of-place busbw at it, GB/s */
    double busbw_largest_ip;        /* in-place busbw at it, GB/s */
    double peak_busbw;              /* highest out-of-place busbw, GB/s */
    int in_bw_regime;               /* largest >= 256 MiB or plateaued */
    int plateaued;                  /* busbw flat over the sizes near the largest */
    int drop;                       /* BUSBW_DROP */
    long drop_row;                  /* index of the first dropping row; -1 none */
    double drop_busbw;              /* its busbw, GB/s */
    double drop_peak;               /* the peak reached before it, GB/s */
    double drop_size;               /* its size, bytes */
    int step;                       /* the drop is a step: busbw falls and stays down */
    double step_before;             /* mean busbw of the rows before the step, GB/s */
    double step_after;              /* mean busbw from the step on, GB/s */
    long step_rows;                 /* rows from the step on */
    long wrong_rows;                /* rows with #wrong > 0 */
    long first_wrong_row;           /* index of the first; -1 none */
} cf__perf_analysis;
void cf__perf_analyze(const cf__perf_row *rows, long n, cf__perf_analysis *out);

/* ------------------------------------------------------ NCCL log (ncclog.c) */

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
    CF__NL_DMABUF,          /* "DMA-BUF is available on GPU device 0" */
    CF__NL_IB_NODEV,        /* "NET/IB : No device found." */
    CF__NL_CHANNEL_LOCAL,   /* a channel inside the node: "via P2P/IPC/read", "via SHM/direct" */
    CF__NL_PLUGIN_FAIL,     /* an optional net plugin failed to load or initialise: a WARN or
                             * return trace of NET/OFI, NET/Plugin or a plugin file; the job
                             * goes on with NCCL's internal transports (not an error by itself) */
    CF__NL_NET_PLUGIN,      /* a net plugin by name (text): "NET/Plugin: Loaded net plugin NCCL RDMA
                             * Plugin v8 (v8)" (enabled 0: loaded), "NET/FastSocket : Connected
                             * after 18 retries." (enabled 1: its lines show it carrying data) */
    CF__NL_TUNING           /* NCCL's choice for one call (NCCL_DEBUG_SUBSYS=TUNING or COLL):
                             * "AllReduce: 8589934592 Bytes -> Algo RING proto SIMPLE channel..."
                             * (2.21+), "AllGather: 37756928 Bytes -> Algo 1 proto 2 time 2860.2"
                             * and "8589934592 Bytes -> Algo 1 proto 2 time ..." (older) */
};

/* Link layers of RDMA ports. */
enum { CF__LL_UNKNOWN = 0, CF__LL_IB, CF__LL_ETH };

#define CF__MAX_IBDEVS 32   /* NET/IB devices listed per line: 8 GPUs x 2-4 ports */

typedef struct cf__ibdev {
    int idx;                /* NCCL's device index [i] */
    char name[32];          /* HCA name ("mlx5_0") */
    int port;               /* port number; -1 not shown */
    int ll;                 /* CF__LL_* */
} cf__ibdev;

/* Direction of a channel line ("[send]" / "[receive]"). */
enum { CF__CH_UNKNOWN = 0, CF__CH_SEND, CF__CH_RECV };

/* One NCCL_DEBUG line; the pointers point into the line. The parser sets
 * kind, host, pid, dev, level, msg, text, status, comm_id, roce_gid and
 * n_ibdevs on every line, the other fields for their kind only (undefined
 * for the others). */
typedef struct cf__nccl_line {
    int kind;                           /* CF__NL_* */
    const char *host;                   /* "node01" of "node01:pid:tid [dev]" */
    size_t host_n;                      /* its length; 0 absent */
    long pid;                           /* process id; -1 absent */
    long dev;                           /* CUDA device of "[dev]"; -1 absent */
    int level;                          /* 'I' INFO, 'W' WARN, 'T' TRACE, 0 none */
    const char *msg;                    /* the message after "NCCL INFO " */
    size_t msg_n;                       /* its length */
    char text[64];                      /* version / network name / provider / env value */
    char env_name[40];                  /* ENV: the variable ("NCCL_NET_GDR_LEVEL") */
    int enabled;                        /* GDR_HCA/GDR_GPU: 1 Enabled, 0 Disabled */
    int distance;                       /* GDR_GPU: GPU-NIC path distance; -1 absent */
    int distance_max;                   /* GDR_GPU: the allowed distance; -1 absent */
    int dir;                            /* CHANNEL: CF__CH_* */
    char net[32];                       /* CHANNEL: net name ("IB", "Socket", "AWS Libfabric") */
    int netdev;                         /* CHANNEL: device index, -1 unknown */
    int gdrdma;                         /* CHANNEL: carries /GDRDMA */
    long rank;                          /* COMM: this rank; -1 unreadable */
    long nranks;                        /* COMM: the communicator's size; -1 unreadable */
    long nnodes;                        /* COMM: "nNodes 2" (NCCL 2.19 on); -1 absent */
    uint64_t comm_id;                   /* COMM: "commId 0x5ae7..."; 0 absent */
    int status;                         /* COMPLETION_ERR: wc status; ERROR: ncclResult_t */
    int roce_gid;                       /* line shows an IPv4-mapped GID (::ffff:, or NCCL's
                                         * "GID 3 (0/..FFFF0000)"), or a GID index above 0 */
    int init_complete;                  /* COMM: "... - Init COMPLETE" */
    cf__ibdev ibdevs[CF__MAX_IBDEVS];   /* IB_USING: the devices listed */
    int n_ibdevs;                       /* IB_USING: how many */
    double bytes;                       /* TUNING: the call's bytes */
    cf_algo algo;                       /* TUNING: the algorithm NCCL chose (cf__nccl_algo);
                                         * CF_ALGO_AUTO: one the model does not know */
    const char *proto;                  /* TUNING: its protocol (cf__nccl_proto); NULL unknown */
    cf_collective coll;                 /* TUNING: the function named ("AllReduce:");
                                         * CF_COLL_UNKNOWN when none or another */
} cf__nccl_line;

/* An algorithm as NCCL spells it (case-insensitive): its NCCL_ALGO values
 * and tuning-line names "Ring", "Tree", "NVLS", "NVLSTree" / "NVLS_TREE",
 * "CollNetDirect" / "COLLNET_CHAIN" / ... (CollNet), "PAT" (ring: the
 * model reports PAT as ring); with `numeric` also the index of older tuning
 * lines (NCCL's NCCL_ALGO_*: 0 Tree, 1 Ring, 2-3 CollNet, 4 NVLS, 5
 * NVLSTree, 6 PAT). CF_ALGO_AUTO for anything else, a list ("Tree,Ring")
 * or an exclusion ("^NVLS") included. */
cf_algo cf__nccl_algo(const char *s, size_t n, int numeric);
/* A protocol as NCCL spells it ("LL", "LL128", "Simple"/"SIMPLE", or the
 * index 0-2 of older tuning lines): "LL", "LL128", "Simple" (static);
 * NULL for anything else. */
const char *cf__nccl_proto(const char *s, size_t n);

/* Parses one line (after prefix stripping); out->kind CF__NL_NONE if it is
 * not an NCCL_DEBUG line. */
void cf__nccl_parse(const char *s, size_t n, cf__nccl_line *out);

/* Families of NCCL net names (the table in ncclog.c): "IB", "IBext_v8",
 * "NCCL RDMA Plugin v8", "UCX" -> IB; "Socket"; "AWS Libfabric"/"Libfabric"/
 * "OFI" -> OFI; "GPUDirectTCPX*" -> TCPX; "FasTrak*" -> TCPXO; "FastSocket"
 * -> FASTSOCKET; another name -> OTHER. */
enum { CF__NCCLNET_UNKNOWN = 0, CF__NCCLNET_IB, CF__NCCLNET_SOCKET, CF__NCCLNET_OFI, CF__NCCLNET_TCPX,
       CF__NCCLNET_TCPXO, CF__NCCLNET_FASTSOCKET, CF__NCCLNET_OTHER, CF__NCCLNET__COUNT };
int cf__net_family(const char *name, size_t n);

/* NCCL_NET_GDR_LEVEL value to NCCL's path level (LOC 0, NVL/PIX 1, PXB 2,
 * PXN 3, PHB 4, SYS 5; old numeric values 0-5 as NCCL reads them); -1 if
 * unrecognised. The default level is PXB (NCCL src/transport/net.cc). */
int cf__gdr_level(const char *v);

/* ------------------------------------------------------- topology (topo.c) */

#define CF__MAX_TOPO_DEVS CF_MAX_TOPO_DEVICES

/* Link codes of nvidia-smi topo -m. */
enum { CF__TL_UNKNOWN = 0, CF__TL_X, CF__TL_NV, CF__TL_PIX, CF__TL_PXB, CF__TL_PHB,
       CF__TL_NODE, CF__TL_SYS };
int cf__topo_link(const char *s, size_t n, int *nvlinks);
const char *cf__topo_link_name(int code);

typedef struct cf__topo {
    int ncols;                              /* columns of the header (devices) */
    char names[CF__MAX_TOPO_DEVS][32];      /* column labels: GPU0, NIC0, mlx5_0 */
    char nic_names[CF__MAX_TOPO_DEVS][32];  /* from the NIC Legend ("" if none) */
    int nrows;                              /* matrix rows read */
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
    int gpus;               /* GPU columns */
    int nics;               /* other columns (NICs) */
    int nvlink;             /* some GPU pair is NV# */
    int gpu_pairs;          /* GPU pairs in the matrix */
    int far_gpus;           /* GPUs whose nearest NIC is beyond PXB */
    int best[CF__MAX_TOPO_DEVS];    /* per GPU column: best link to a NIC (CF__TL_*) */
} cf__topo_analysis;
void cf__topo_analyze(const cf__topo *t, cf__topo_analysis *out);

/* ------------------------------------------ ibstat / ibv_devinfo (ibstat.c) */

#define CF__MAX_PORTS CF_MAX_AUDIT_PORTS

typedef struct cf__port {
    char ca[32];            /* the CA ("mlx5_0") */
    int port;               /* port number; -1 unreadable */
    int active;             /* -1 unknown, 0 down, 1 active */
    char state[24];         /* "Active", "Down", "PORT_ACTIVE (4)" as printed */
    char phys_state[24];    /* "LinkUp", "Disabled" as printed */
    double rate_gbps;       /* Gbit/s; NAN unknown */
    int ll;                 /* CF__LL_* */
    int roce_v2;            /* a GID is IPv4-mapped */
    double width;           /* ibv_devinfo active_width factor (4X: 4) */
    double speed_gbps;      /* ibv_devinfo active_speed per lane, Gbit/s */
    int seen_state;         /* a state line was read */
    int seen_rate;          /* a rate was read or computed */
    int seen_ll;            /* a link layer line was read */
    long line;              /* input line of "Port N:" / "port:" */
    int complete;           /* state and link layer were seen (cf__port_finish) */
} cf__port;

/* ibstat lines. */
enum { CF__IB_NONE = 0, CF__IB_CA, CF__IB_PORT, CF__IB_FIELD };
enum { CF__IBF_OTHER = 0, CF__IBF_STATE, CF__IBF_PHYS, CF__IBF_RATE, CF__IBF_LL,
       CF__IBF_WIDTH, CF__IBF_SPEED, CF__IBF_GID };
typedef struct cf__ib_line {
    int kind;               /* CF__IB_* */
    int field;              /* CF__IBF_* */
    char name[32];          /* CA name (CA / hca_id) */
    long port;              /* PORT: the port number; -1 otherwise */
    char value[48];         /* FIELD: the value, blanks trimmed */
    double num;             /* RATE, SPEED; width factor for WIDTH; NAN otherwise */
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
 * The audit's state: struct cf_audit, the parts and segments it streams
 * evidence into, the findings store and the verdict of one run. Written by
 * route.c and evidence.c while lines stream in; group.c merges the
 * evidence of the segments of one run into the run's root segment;
 * verdict.c, findings.c and report.c read it. Indices: a part is an index
 * into a->parts, a segment into a->segs, a file into a->files; -1 is none.
 * Locations are 1-based lines, line 0 meaning "not seen". */

/* Kinds of parts (report.c names them in this order). */
enum { CF__PART_PERF = 0, CF__PART_NCCL, CF__PART_TOPO, CF__PART_IBSTAT, CF__PART_IBV, CF__PART_FRAMEWORK,
       CF__PART_PROBE,      /* reserved for the probe's JSON (issue 12): fills ports/nports, one
                             * cf__port per "nics" entry (cf__node_nics below); not produced yet */
       CF__PART__COUNT };

/* Where the topology matrix of the current file stands. */
enum {
    CF__TOPO_NONE = 0,      /* no matrix open */
    CF__TOPO_MATRIX,        /* inside the matrix: rows follow the header */
    CF__TOPO_LEGEND         /* after it: blank lines, "Legend:", "NIC Legend" */
};

/* Slots of a segment's host set entry (cf__kv v[]). */
enum { CF__HOSTS_SEEN = 0, CF__HOSTS_VERSION = 1 };
/* Slots of a segment's rank set entry (cf__kv v[]). */
enum { CF__RANKS_HOST = 0, CF__RANKS_NRANKS = 1 };

/* A place in the input. */
typedef struct cf__audit_loc {
    int file;               /* index into a->files */
    long line;              /* 1-based; 0: not seen */
} cf__audit_loc;

/* One finding (DESIGN §5); the store keeps one per code and part, or per
 * code and run, and counts repeats. */
typedef struct cf__audit_finding {
    cf__audit_code code;    /* CF__CODE_*: name, severity, usual action */
    char msg[320];          /* what the input shows, formatted (cut to fit) */
    const char *action;     /* one-line fix (points to act); NULL: the code's usual one */
    char act[400];          /* the finding's own action, copied (cut to fit) */
    cf__audit_loc at;       /* where it shows; line 0: nowhere in particular */
    int part;               /* the part it is about; -1: a conclusion over a run (grp) or the whole input */
    int grp;                /* root segment of the run it concludes on; -1 none */
    long count;             /* times it was added */
} cf__audit_finding;

/* One nccl-tests run (a part of kind CF__PART_PERF). */
typedef struct cf__audit_run {
    cf__perf_layout lay;    /* column layout, from the header or guessed */
    cf__perf_row *rows;     /* the result rows, in input order (owned) */
    long nrows;             /* rows held */
    long cap;               /* rows allocated (at most CF_MAX_PERF_ROWS) */
    long rows_dropped;      /* rows past CF_MAX_PERF_ROWS, counted only */
    long nthread;           /* parameter line: nThread; -1 unknown */
    long ngpus;             /* parameter line: nGpus per process; -1 unknown */
    double min_bytes;       /* parameter line: minBytes; NAN unknown */
    double max_bytes;       /* parameter line: maxBytes; NAN unknown */
    long rank_lines;        /* "#  Rank N ..." lines of the device list */
    long max_rank;          /* highest rank listed; -1 none */
    long rank0_lines;       /* "Rank 0" lines (several: single-rank processes) */
    long rank_pid_lines;    /* rank lines that name a host and a Pid */
    long procs_at_rows;     /* NCCL processes seen when the first row came; -1 before */
    uint64_t hosts[64];     /* hashes of the hosts the rank list names, distinct */
    int nhosts;             /* how many (at most 64) */
    char gpu_name[48];      /* device name of the first rank line ("" none) */
    cf_collective coll;     /* from the binary's name or the test-start line */
    int ended;              /* "# Avg bus bandwidth" was seen: the run is over */
    int oob_failed;         /* "# Out of bounds values" reports failures */
    int partial_last;       /* the last row was cut before its busbw */
    long oob;               /* out-of-bounds values; -1 not shown */
    long partial_line;      /* line of that cut row */
    double avg;             /* "# Avg bus bandwidth", GB/s; NAN not shown */
    long params_lines;      /* parameter lines ("# nThread ...") */
    long params_before_ranks;   /* parameter lines before the first rank line: with MPI only
                                 * rank 0 prints one; several are several processes' own */
    uint64_t rank0_host;    /* hash of the host of the first "Rank 0" line; 0 none */
    long rank0_other_line;  /* first "Rank 0" line on another host (each process its own
                             * rank list: not one job); 0 none */
    int list_gap;           /* a "..." inside the rank list */
    cf__perf_analysis an;   /* the rows' analysis, made when the run closes */
} cf__audit_run;

/* A device NCCL listed, with the host that listed it. */
typedef struct cf__audit_hostdev {
    uint64_t host;          /* host hash; 0 unknown */
    cf__ibdev d;            /* the device */
} cf__audit_hostdev;

#define CF__AUDIT_MAX_IBDEVS 128    /* distinct NCCL devices kept per part or segment */

/* Slots of a rank_gdr entry: the rank's channel lines by direction, with
 * and without /GDRDMA (a line of unknown direction counts as receive). */
enum { CF__RG_RECV_GDR = 0, CF__RG_RECV_NOGDR, CF__RG_SEND_GDR, CF__RG_SEND_NOGDR, CF__RG__COUNT };

/* A setting the input shows, as written ("NCCL_IB_HCA=mlx5_0"), and
 * where; text "" and line 0 when not shown. */
typedef struct cf__audit_setting {
    char text[64];          /* NAME=VALUE, cut to fit */
    cf__audit_loc at;       /* its line */
} cf__audit_setting;

/* The evidence of NCCL lines: of one NCCL log part, and of a segment (at a
 * group's root, of the whole run once group.c merged it). Counts add up;
 * of texts and locations the first is kept unless said otherwise. */
typedef struct cf__audit_netev {
    long lines;                 /* NCCL lines */
    char version[32];           /* "2.18.5" of the first "NCCL version"; "" none */
    char net_name[48];          /* the last "Using network X" */
    int net_family;             /* its CF__NCCLNET_* family */
    char plugin_name[32];       /* the first net plugin named (CF__NL_NET_PLUGIN); "" none */
    int plugin_family;          /* its CF__NCCLNET_* family */
    int plugin_used;            /* its own lines show it carrying data (not only loaded) */
    cf__audit_loc plugin_loc;   /* where it was named */
    cf__audit_loc net_loc;      /* where it was printed */
    cf__audit_hostdev ibdevs[CF__AUDIT_MAX_IBDEVS]; /* NET/IB devices, distinct */
    int n_ibdevs;               /* how many */
    int ll_mask;                /* 1 << CF__LL_* of the devices stored (a quick "one link layer") */
    signed char dev_of_idx[32]; /* channel lookup: entry of NCCL device index i when one entry
                                 * (or entries of one link layer) has it; -1 none, -2 look it up */
    cf__audit_loc ib_using_loc; /* the first "NET/IB : Using" */
    char ofi_provider[32];      /* libfabric's selected provider ("efa"); "" none */
    cf__audit_loc ofi_loc;      /* where it was selected */
    int ofi_plugin;             /* some NET/OFI line: the OFI plugin is loaded */
    long ch[CF__NCCLNET__COUNT];    /* channel lines per CF__NCCLNET_* family */
    cf__audit_loc ch_loc[CF__NCCLNET__COUNT];   /* the first of each family */
    char ch_net[48];            /* net name of the first channel line */
    long ch_ll[3];              /* IB-family channel lines per CF__LL_* of their device */
    long gdr_hca_on;            /* "GPU Direct RDMA Enabled for HCA" lines */
    long gdr_hca_off;           /* "... Disabled for HCA" lines */
    cf__audit_loc gdr_hca_off_loc;  /* the first of those */
    long gdr_gpu_on;            /* "GPU Direct RDMA Enabled for GPU" lines */
    long gdr_gpu_off;           /* "... Disabled for GPU" lines */
    cf__audit_loc gdr_gpu_off_loc;  /* the first of those */
    int off_distance;           /* GPU-NIC distance of the last Disabled-for-GPU line; -1 none */
    int off_distance_max;       /* the allowed distance it names; -1 none */
    cf__kvset rank_gdr;         /* hash(host,pid,dev) -> channel counts, v[CF__RG_*] */
    cf__audit_loc first_gdr_ch;     /* the first channel line with /GDRDMA */
    cf__audit_loc first_nogdr_ch;   /* the first channel line without */
    int gdr_level;              /* highest NCCL_NET_GDR_LEVEL set by environment (cf__gdr_level); -1 none */
    char gdr_level_text[16];    /* that value as written */
    cf__audit_loc gdr_level_loc;    /* where */
    int gdr_env_off;            /* lines setting it to LOC (0): GDR off by choice */
    cf__audit_loc gdr_env_off_loc;  /* the first */
    long dmabuf;                /* "DMA-BUF is available on GPU device" lines */
    cf__audit_loc dmabuf_loc;   /* the first */
    int ib_disable;             /* NCCL_IB_DISABLE set by environment: 1 "1", 0 other; -1 not shown */
    cf__audit_loc ib_disable_loc;   /* where (the last) */
    long nranks;                /* largest communicator size; 0 none */
    long nnodes;                /* its node count as NCCL prints it ("nNodes 2"); 0 none */
    int roce_gid;               /* some line shows an IPv4-mapped GID (RoCE v2) */
    long completion;            /* RDMA completion errors */
    long errors;                /* fatal WARNs and error return traces */
    long timeouts;              /* timeout WARNs */
    int completion_status;      /* wc status of the kept completion error (not a flush if any); -1 none */
    cf__audit_loc completion_loc;   /* its line */
    cf__audit_loc error_loc;    /* the first error */
    cf__audit_loc timeout_loc;  /* the first timeout */
    cf__audit_loc ibverbs_loc;  /* the first "Failed to open libibverbs" */
    char completion_msg[200];   /* message of the kept completion error, first 180 bytes */
    char error_msg[200];        /* of the first error */
    char timeout_msg[200];      /* of the first timeout */
    int error_code;             /* ncclResult_t of the first error; 0 a WARN without one */
    int ibverbs_missing;        /* "Failed to open libibverbs" lines */
    cf__audit_setting hca_env;      /* "NCCL_IB_HCA set by environment to mlx5_0" */
    cf__audit_setting ifname_env;   /* "NCCL_SOCKET_IFNAME set by environment to eth0" */
    long ib_nodev;              /* "NET/IB : No device found." lines */
    cf__audit_loc ib_nodev_loc; /* the first */
    long soft_roce;             /* NET/IB devices that are software RoCE ("rxe0") */
    cf__audit_loc soft_roce_loc;    /* the first line naming one */
    char soft_roce_dev[32];     /* its name */
    long info_lines;            /* lines at INFO level: the log is at NCCL_DEBUG=INFO already */
    long init_complete;         /* "Init COMPLETE" lines: ranks that finished initialising */
    long plugin_fail;           /* lines of an optional net plugin that failed to load (CF__NL_PLUGIN_FAIL) */
    cf__audit_loc plugin_fail_loc;  /* the first */
    char plugin_fail_msg[200];  /* its message, first 180 bytes */
    int plugin_fail_code;       /* its return code; 0 a WARN without one */
    int gid_index;              /* NCCL_IB_GID_INDEX set by environment; -1 not shown */
    long local_channels;        /* channel lines inside the node (P2P, SHM) */
    long sock_loopback;         /* "NET/Socket : Using" lines listing only loopback (lo, 127.x) */
    long sock_other;            /* ... listing another interface */
    double tuned_bytes;         /* the largest call a tuning line shows (CF__NL_TUNING), bytes;
                                 * -1 none */
    cf_algo tuned_algo;         /* NCCL's algorithm for it; CF_ALGO_AUTO one the model does not know */
    const char *tuned_proto;    /* its protocol ("LL", "LL128", "Simple"; static); NULL not shown */
    cf_collective tuned_coll;   /* the function the line names; CF_COLL_UNKNOWN none */
    cf__audit_loc tuned_at;     /* the line (the first at that size) */
    cf__audit_setting algo_env; /* "NCCL_ALGO set by environment to Ring" as NCCL_ALGO=Ring */
} cf__audit_netev;

/* A part: a stretch of one file of one kind (one nccl-tests run, NCCL log
 * stream, topology matrix, port dump or framework log). */
typedef struct cf__audit_part {
    int kind;               /* CF__PART_* */
    int file;               /* index into a->files */
    int seg;                /* the segment (run) it belongs to */
    long first_line;        /* its first line */
    long last_line;         /* its last line so far */
    cf__audit_run *r;       /* CF__PART_PERF: the run (owned); else NULL */
    cf__audit_netev *ev;    /* CF__PART_NCCL: its evidence (owned); else NULL */
    cf__topo *topo;         /* CF__PART_TOPO: the matrix (owned); else NULL */
    cf__port *ports;        /* CF__PART_IBSTAT/IBV: CF__MAX_PORTS ports (owned); else NULL */
    int nports;             /* ports read */
    long fw_lines;          /* CF__PART_FRAMEWORK: lines */
    long trunc_line;        /* TRUNCATED_INPUT evidence (a cut row, an incomplete port); 0 none */
} cf__audit_part;

/* Environments a segment's lines show (cf__audit_hints.env, a mask). */
enum { CF__ENV_SLURM = 1, CF__ENV_K8S = 2, CF__ENV_CONTAINER = 4 };

/* What the lines around the logs show about where and how the job ran:
 * settings that restrict the NICs NCCL may use, the environment, and
 * container limits. Of each the first is kept. */
typedef struct cf__audit_hints {
    cf__audit_setting restrict_hca;     /* NCCL_IB_HCA=... on a launcher, export or env line */
    cf__audit_setting restrict_if;      /* NCCL_SOCKET_IFNAME=... likewise */
    cf__audit_setting container_limit;  /* a container given fewer RDMA devices: "--device
                                         * /dev/infiniband/uverbs0", "rdma/...: 1" */
    cf__audit_setting ib_disable;       /* NCCL_IB_DISABLE=1 on a launcher, export or env line */
    cf__audit_setting algo_env;         /* NCCL_ALGO=... on a launcher, export or env line */
    cf__audit_setting gid_index;        /* NCCL_IB_GID_INDEX=N (N > 0: a RoCE GID; InfiniBand
                                         * uses 0) or NCCL_IB_ROCE_VERSION_NUM=N likewise */
    int env;                            /* CF__ENV_* shown */
    cf__audit_loc env_at[3];            /* where each was first shown (slurm, k8s, container) */
    cf__audit_loc no_devib;             /* "/dev/infiniband" missing in the container */
} cf__audit_hints;

/* The launch command of a segment ("mpirun -np 16 -x NCCL_NET_GDR_LEVEL=SYS ..."). */
typedef struct cf__audit_launch {
    int seen;               /* a launch command was read */
    cf__audit_loc at;       /* where */
    long np;                /* -np / -n; 0 not given */
    long hosts;             /* hosts of --host / -H; 0 not given */
    int gdr_level_prefix;   /* NCCL_NET_GDR_LEVEL set in front of the launcher */
    int gdr_level_forwarded;    /* ... and passed to the ranks (-x, -genv, -genvall) */
    int gdr_level;          /* its value (cf__gdr_level, -1 unrecognised); 0 not given */
    char gdr_text[16];      /* its value as written */
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
    int file;               /* the file it starts in */
    int root;               /* union-find parent; after joining, the group's root */
    int group;              /* 1-based number of the group in the report; 0 none */
    cf__audit_netev ev;     /* NCCL evidence of the segment (of the group, at the root) */
    cf__kvset hosts;        /* host hash -> v[CF__HOSTS_*] */
    cf__kvset ranks;        /* rank + 1 -> v[CF__RANKS_*] */
    cf__kvset procs;        /* (host, pid) of NCCL lines (cf__audit_proc_key) */
    cf__kvset list_procs;   /* (host, pid) of the nccl-tests rank list */
    long max_rank_seen;     /* highest rank of a rank list or communicator; -1 none */
    cf__audit_launch la;    /* its launch command */
    int env_gdr_level;      /* from "NCCL_NET_GDR_LEVEL=SYS" env listings; -1 none */
    cf__audit_loc env_gdr_loc;  /* where */
    uint64_t comm_ids[8];   /* distinct communicator ids ("commId 0x...") */
    int ncomm;              /* how many (at most 8) */
    int run_part;           /* its latest nccl-tests part; -1 none */
    int lsmod;              /* lsmod commands or listings shown */
    cf__audit_loc lsmod_loc;    /* the first */
    int peermem;            /* lsmod lines listing nvidia_peermem / nv_peer_mem */
    cf__audit_loc peermem_loc;  /* the first */
    uint64_t known_proc;    /* cache: the last (host, pid) found in procs */
    cf__audit_hints hints;  /* restrictions, environment and container limits shown */
} cf__audit_seg;

struct cf_audit {
    cf_audit_opts opts;     /* as given; expect_fabric moved to `fabric` (NULL here) */
    cf_fabric fabric;       /* --offering's fabric, copied */
    int has_fabric;         /* fabric is set */
    cf__linebuf lb;         /* the line splitter of the current file */
    char **files;           /* names of the files begun (owned copies) */
    int nfiles;             /* files begun; the current one is the last */
    int files_cap;          /* entries allocated in files */
    cf__audit_part *parts;  /* CF_MAX_AUDIT_PARTS parts */
    int nparts;             /* parts in use */
    long parts_dropped;     /* parts that reused the last slot past the cap */
    cf__audit_finding *findings;    /* CF_MAX_FINDINGS findings */
    int nfindings;          /* findings in use */
    long findings_dropped;  /* findings past the cap, counted only */
    cf__audit_seg **segs;   /* CF_MAX_AUDIT_PARTS segments (each owned) */
    int nsegs;              /* segments in use */
    int cur;                /* the current segment; -1 before the first file */
    cf_collective pending_coll;     /* named before its run opened (launcher, test start) */
    int oom;                /* sticky: an allocation failed, the audit returns CF_ENOMEM */
    /* per-file state: the file's open part of each kind (index; -1 none) */
    int f_run;              /* the open nccl-tests run */
    int f_nccl;             /* the NCCL log part of the current segment */
    int f_topo;             /* the open topology matrix */
    int f_ib;               /* the open port dump (ibstat or ibv_devinfo) */
    int f_fw;               /* the framework log part of the current segment */
    int topo_state;         /* CF__TOPO_* */
    int in_rank_list;       /* inside the nccl-tests device list ("#  Rank" lines) */
    cf__port *cur_port;     /* the port the dump's field lines apply to; NULL none */
    char cur_ca[32];        /* the dump's current CA */
    long last_lineno;       /* the last line delivered */
    int last_cut;           /* it was cut at CF_MAX_LINE_BYTES */
    long bytes;             /* bytes fed, all files */
    char last_host[64];     /* cache of cf__audit_note_host: the last host name */
    size_t last_host_n;     /* its length; 0 empty cache */
    uint64_t last_host_hash;    /* its hash */
    struct cf__probe_in *probe_in;  /* probe JSON held back in the current file (probe_in.c); NULL none */
};

/* Node NIC evidence: the NICs one node of the run has, whatever NCCL
 * chose to use. Filled by verdict.c (node_nics_of) from every input kind
 * that shows a node's NICs, strongest first:
 *   - a part that holds ports (cf__audit_part.ports / nports): ibstat,
 *     ibv_devinfo, and an input part of kind `probe` (issue 12) whose JSON
 *     "nics" array fills one cf__port per entry (name -> ca, link_layer ->
 *     ll, state -> active, rate_gbps -> rate_gbps, port 1 unless given):
 *     a new kind only needs its ports filled, nothing here changes;
 *   - --offering's fabric (nics_per_node x nic_gbps);
 *   - nvidia-smi topo -m (its NIC columns: the count, no rate).
 * Ports count when Active with the link layer the transport uses (any
 * RDMA link layer when the data went over sockets), distinct by CA:port. */
typedef struct cf__node_nics {
    int count;              /* NICs of the node; -1 unknown; never below nics_used */
    int shown;              /* the count the node evidence alone shows (below count when
                             * NCCL's list names more: NIC_COUNT_CONFLICT) */
    int rdma;               /* the evidence shows RDMA NICs (IB/RoCE/EFA ports, an RDMA offering) */
    double rate_gbps;       /* line rate of the NICs a node's ranks can drive (at most one per
                             * GPU, those NCCL names first), Gbit/s; NAN unknown */
    int rated;              /* NICs that rate adds up */
    const char *src;        /* "ibstat", "ibv-devinfo", "probe", "offering", "topo"; NULL none */
    cf__audit_loc at;       /* where the evidence starts (line 0 for the offering) */
} cf__node_nics;

/* The verdict of one run (verdict.c), read by findings.c and report.c. */
typedef struct cf__audit_verdict {
    cf_network net;         /* the transport really used */
    cf_gdr gdr;             /* GPUDirect RDMA state */
    long ranks;             /* ranks; -1 unknown */
    long nodes;             /* nodes; -1 unknown */
    long gpn;               /* GPUs (ranks) per node; -1 unknown */
    cf_collective coll;     /* the collective of its last table */
    double busbw;           /* busbw at the largest size of its last table, GB/s; NAN none */
    double expected;        /* expected busbw, GB/s; NAN none: the model's prediction
                             * (cf_collective_predict, as `predict collective`) at exp_bytes,
                             * or the line-rate fallback */
    char assumes[240];      /* what the expectation assumes ("default": the NIC rate); "" nothing */
    const char *exp_src;    /* where the expectation's fabric comes from ("offering", "expect-gbps",
                             * "ports", "probe"); NULL none */
    double exp_bytes;       /* message size it is for: the largest measured, bytes; NAN none */
    cf_algo exp_algo;       /* its algorithm; CF_ALGO_AUTO none */
    const char *exp_proto;  /* its protocol ("LL", "LL128", "Simple"; static); NULL none (line rate) */
    const char *exp_algo_src;   /* who chose exp_algo: CF_ALGO_SOURCE_* (collective.h); NULL none */
    cf_algo nccl_algo;      /* the algorithm the log shows NCCL used or was told to use (one);
                             * CF_ALGO_AUTO not shown */
    const char *nccl_proto; /* the protocol of that tuning line (static); NULL not shown */
    const char *nccl_algo_src;  /* CF_ALGO_SOURCE_NCCL_LOG or _NCCL_ALGO; NULL not shown */
    cf__audit_loc nccl_algo_at; /* the line that shows it */
    int last_run;           /* part index of its last nccl-tests table with content; -1 none */
    int fam;                /* CF__NCCLNET_* family the transport was read from */
    int forced_level;       /* strongest NCCL_NET_GDR_LEVEL set (cf__gdr_level); -1 none */
    char forced_text[16];   /* as written ("(env)" from an env listing) */
    cf__audit_loc forced_at;    /* where it was set */
    cf__node_nics node;     /* the NICs a node has (node evidence, below) */
    int nics_used;          /* distinct NCCL net devices a node's ranks use; -1 unknown */
    int far_below;          /* busbw under BUSBW_FAR_BELOW's fraction of expected */
    int judged;             /* busbw was compared with an expectation */
    const char *not_judged; /* why not (static text); NULL when judged */
    char not_judged_buf[200];   /* not_judged when it is formatted */
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

/* Notes entry k of e->ibdevs in e->dev_of_idx (a second entry with the same
 * index and another link layer: the channel's host decides, -2). */
static inline void cf__audit_index_dev(cf__audit_netev *e, int k)
{
    int idx = e->ibdevs[k].d.idx;
    signed char *c;
    e->ll_mask |= 1 << e->ibdevs[k].d.ll;
    if (idx < 0 || idx >= (int)sizeof e->dev_of_idx) return;
    c = &e->dev_of_idx[idx];
    if (*c == -1) *c = (signed char)k;
    else if (*c >= 0 && e->ibdevs[*c].d.ll != e->ibdevs[k].d.ll) *c = -2;
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
/* cf__audit_add_finding with the finding's own action (copied; NULL: the
 * code's usual one). */
void cf__audit_add_finding_act(cf_audit *a, int pi, cf__audit_code code, cf__audit_loc at,
                               const char *action, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;
/* A finding on a whole run (group root segment `grp`), with its own action
 * when the evidence decides it (copied into the finding, so it may be
 * formatted to name the line; NULL: the code's usual action); one per code
 * and run, counted. */
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
/* Frees what a part owns and empties it (the part is an element of
 * a->parts); frees a segment, what it owns and the segment itself. */
void cf__audit_part_clear(cf__audit_part *p);
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

/* The probe's JSON as an input part (probe_in.c, issue 12). A line of a
 * file that starts with '{' is held (1: consumed, do not route it); at the
 * file's end a probe report becomes a CF__PART_PROBE part with ports, else
 * the held lines are routed as usual. _free releases the state. */
int cf__audit_probe_line(cf_audit *a, const char *s, size_t n, long lineno);
void cf__audit_probe_end(cf_audit *a);
void cf__audit_probe_free(cf_audit *a);

#endif
