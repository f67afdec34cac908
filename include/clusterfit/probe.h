/* probe.h — verify a rented cluster from the inside (issue 12): the facts
 * of one node read from its /sys, /proc and /dev (GPUs, RDMA ports, network
 * interfaces, the PCI path between each GPU and each NIC, GPUDirect RDMA
 * readiness, the locked-memory limit, the NCCL_* / FI_* environment the
 * front end hands over), the findings they show, the cluster report built
 * from every node's report and the point-to-point measurements the front
 * end made (the library never links MPI: the tool's src/probe_mpi.c does
 * the transport), the comparison with an offering's promise, and the job
 * script that runs all of it (recipe). The JSON contract is docs/probe.md.
 *
 * The library reads files only, under a sysroot, never the environment,
 * and never writes. Every read is capped (CF_MAX_PROBE_FILE_BYTES); an
 * entry that cannot be read or makes no sense is listed in the report's
 * "skipped" array with its path and reason and the probe goes on. */
#ifndef CLUSTERFIT_PROBE_H
#define CLUSTERFIT_PROBE_H

#include <stddef.h>
#include <jansson.h>
#include "status.h"
#include "vocab.h"
#include "catalog.h"
#include "hardware.h"

/* What one node probe reads. Zero-initialise, then set what applies. */
typedef struct cf_probe_opts {
    /* The host tree: the host's absolute paths are read under it ("/sys/..."
     * becomes SYSROOT/sys/...); NULL or "" = "/". Symbolic links are
     * followed as the kernel makes them (relative, inside the tree); a link
     * that leaves the tree is skipped. */
    const char *sysroot;
    /* The environment as the front end reads it: "NAME=VALUE" strings,
     * NULL-terminated (environ); only NCCL_* and FI_* names are kept (at
     * most CF_MAX_PROBE_ENV). NULL = none. */
    const char *const *env;
    /* The host's name; NULL = SYSROOT/proc/sys/kernel/hostname. */
    const char *hostname;
} cf_probe_opts;

/* Probes one node.
 * - inputs: opts (NULL = all defaults: the live host, no environment)
 * - computes: the node report of docs/probe.md: hostname, kernel, driver,
 *   gpus[] {model, vendor, pci, numa_node}, nics[] (one per RDMA port)
 *   {name, port, link_layer, state, phys_state, rate_gbps, numa_node, pci,
 *   fw_ver, netdev, nearest_gpu, path}, net[] {name, speed_mbps, mtu, pci},
 *   topology[] (GPU x NIC path: PIX, PXB, PHB, NODE, SYS as nvidia-smi
 *   topo -m names them), acs, gdr (on/off/unusable/unknown) and gdr_via, uverbs,
 *   memlock_bytes, env, skipped[] {path, reason}, findings[] {code,
 *   severity, message, action} and status (ok, unjudged, warning, failed)
 * - errors: CF_EINVAL when the sysroot is not a readable directory (err
 *   names it); CF_ENOMEM. Unreadable entries below it are not errors
 * - ownership: *out is a new reference (json_decref) */
CF_API cf_status cf_probe_node(const cf_probe_opts *opts, json_t **out, cf_error *err);

/* The verdict of a node or cluster report: the gravest severity of its
 * findings as an audit status (error -> failed, warning -> warning, else
 * unjudged when a FACTS_UNKNOWN finding names a fact a check needs, else
 * ok); CF_AUDIT_INVALID for a NULL or malformed report. */
CF_API cf_audit_status cf_probe_status(const json_t *report);

/* A node or cluster report as text for a terminal, one fact per line, the
 * findings with their actions last.
 * - output: a malloc'd string (free()); NULL on ENOMEM or a NULL report */
CF_API char *cf_probe_report_text(const json_t *report);

/* ---- the cluster (the tool's --mpi) ------------------------------------ */

/* Pair tests: all pairs up to this many participants (120 pairs at 16, one
 * round each side of a pair at a time: 15 rounds), else a ring and
 * CF_PROBE_SAMPLE_ROUNDS random perfect matchings, so the cost grows with
 * the node count, not its square. */
#define CF_PROBE_ALL_PAIRS_MAX 16L
/* Random matchings after the ring: every node is in this many sampled pairs
 * besides its two ring neighbours (a bad link shows in ~10 measurements). */
#define CF_PROBE_SAMPLE_ROUNDS 8L
/* Most participants a pair schedule plans for: a 100k-node cluster. */
#define CF_PROBE_MAX_PARTICIPANTS 100000L

/* Rounds of the pair schedule for n participants: in each round every
 * participant is in at most one pair, so a round's pairs run at once.
 * - output: n - 1 (n even) or n (n odd) rounds for 2 <= n <=
 *   CF_PROBE_ALL_PAIRS_MAX (every pair once, the circle method), else 3 ring
 *   rounds + CF_PROBE_SAMPLE_ROUNDS; 0 for n < 2 or n over
 *   CF_PROBE_MAX_PARTICIPANTS */
CF_API long cf_probe_rounds(long n);

/* The partner of participant `me` in round `round` of the schedule for n
 * (0-based indices), the same on every participant without any message:
 * the sampled rounds come from a fixed-seed generator of the round number.
 * - output: the partner's index, or -1 when me sits the round out (or any
 *   argument is out of range) */
CF_API long cf_probe_partner(long n, long round, long me);

/* Which of the two schedules cf_probe_rounds uses for n: "all-pairs" or
 * "ring+sample". Static storage. */
CF_API const char *cf_probe_schedule_name(long n);

/* One measured pair (host-memory point-to-point between two ranks). */
typedef struct cf_probe_pair {
    int a, b;                   /* world ranks, a < b */
    double bandwidth_GBps;      /* one direction, 10^9 bytes/s; NAN = failed */
    double latency_us;          /* half a round trip of a small message; NAN = failed */
} cf_probe_pair;

/* What the front end gathered for the cluster report. */
typedef struct cf_probe_cluster_in {
    int ranks;                      /* MPI world size */
    json_t *const *nodes;           /* n_nodes node reports (cf_probe_node), each
                                       with "hostname" and "ranks" [world ranks] set
                                       by the front end; borrowed */
    size_t n_nodes;
    const cf_probe_pair *pairs;     /* n_pairs measurements; borrowed */
    size_t n_pairs;
    const char *pair_scope;         /* "nodes" (one rank per host measured) or
                                       "ranks" (one host: pairs between ranks) */
    const int *missing;             /* ranks that did not report before the
                                       deadline; borrowed */
    size_t n_missing;
    double timeout_s;               /* the deadline each phase had */
    double gather_s, pairs_s;       /* wall time of the gather and pair phases */
} cf_probe_cluster_in;

/* What rank 0 receives (lib/probe/gather.c): every message from another
 * rank is decoded here before anything reads it. */

/* A leader's node report as its message's bytes.
 * - inputs: buf, len bytes (not NUL-terminated)
 * - computes: the JSON (duplicate keys refused) must be a node report: an
 *   object of kind "node" whose gpus and nics, when present, are arrays and
 *   whose findings are an array of objects with a code and a severity, and
 *   no key holding a control byte; a control byte in a string value (an
 *   ESC for the terminal the text report goes to) becomes '?'
 * - errors: CF_ELIMIT over CF_MAX_PROBE_REPORT_BYTES; CF_EPARSE empty, not
 *   JSON or not a node report (err says which); CF_ENOMEM
 * - ownership: *out is a new reference (json_decref) */
CF_API cf_status cf_probe_peer_report(const char *buf, size_t len, json_t **out, cf_error *err);

/* A participant's pair figures: count doubles, 4 a pair (rank a, rank b,
 * GB/s, us).
 * - computes: a pair whose ranks are whole numbers in [0, ranks) and differ
 *   becomes out[n] (a < b), up to cap; a figure that is not a finite number
 *   >= 0 becomes NAN (a failed measurement)
 * - output: the number of pairs written; *dropped (when not NULL) the
 *   quadruples refused, a partial one at the end included */
CF_API size_t cf_probe_peer_pairs(const double *v, size_t count, int ranks, cf_probe_pair *out, size_t cap,
                                  size_t *dropped);

/* The cluster report.
 * - computes: agreement of the nodes (GPU count and model, RDMA port count,
 *   active rates, firmware, driver, GDR, NCCL environment: the majority
 *   value is the norm and each node that differs is named, NODE_MISMATCH);
 *   slow pairs (bandwidth under CF_PROBE_SLOW_PAIR_PCT % of the median of
 *   at least 3, SLOW_PAIR) and slow nodes (every pair of theirs slow,
 *   SLOW_NODE), judged for pair_scope "nodes" only (pairs between the
 *   ranks of one host measure its memory and CPU share, not a link);
 *   missing ranks (RANK_TIMEOUT); each node's findings with its hostname
 * - output: {ranks, hosts, pair_scope, schedule, timeout_s, gather_s,
 *   pairs_s, nodes[], pairs[] {a, b, a_host, b_host, bandwidth_GBps,
 *   latency_us}, median_bandwidth_GBps, findings[], status}
 * - errors: CF_EINVAL for a NULL input or node; CF_ENOMEM
 * - ownership: *out is a new reference; the nodes are copied */
CF_API cf_status cf_probe_cluster(const cf_probe_cluster_in *in, json_t **out, cf_error *err);

/* A pair under this share of the median bandwidth is slow: the issue's
 * example is 40 %; 70 % leaves room for the run-to-run noise of a shared
 * fabric (nccl-tests busbw varies by ~10-20 % between runs) while naming
 * a link that negotiated half its rate. */
#define CF_PROBE_SLOW_PAIR_PCT 70.0

/* ---- the offering's promise (--offering) -------------------------------- */

/* Compares a node or cluster report with an offering.
 * - computes: per node, GPU count and model (cf_gpu_from_device_name of the
 *   model read), RDMA port count (active or not) against nics_per_node,
 *   the active ports' Gbit/s against network_gbps_per_node (and each port
 *   against the per-NIC share: NIC_RATE_MISMATCH), GPUDirect RDMA against
 *   gpudirect_rdma; each difference is a finding (OFFER_GPU_COUNT,
 *   OFFER_GPU_MODEL, OFFER_NIC_COUNT, OFFER_BANDWIDTH, OFFER_GDR); a fact
 *   the offering or the node leaves unknown is said in "offering_check"
 *   and not judged. TCPX/TCPXO NICs are not RDMA devices: their count and
 *   rate are not compared (said so)
 * - output: report gains "offering" (the id) and "offering_check" []
 *   {fact, promised, found, verdict}, findings appended, status updated
 * - errors: CF_EINVAL for NULL arguments; CF_ENOMEM */
CF_API cf_status cf_probe_check_offering(json_t *report, const cf_offering *off, cf_error *err);

/* ---- recipe --------------------------------------------------------------- */

typedef enum cf_recipe_scheduler {
    CF_RECIPE_SLURM = 0,  /* an sbatch script */
    CF_RECIPE_KUBERNETES, /* a Kubeflow MPI Operator MPIJob (kubeflow.org/v2beta1) */
    CF_RECIPE_SKYPILOT,   /* a SkyPilot task YAML (sky launch) */
    CF_RECIPE_DSTACK      /* a dstack distributed task (dstack apply) */
} cf_recipe_scheduler;

/* Options of cf_recipe. Zero-initialise, then set what applies. */
typedef struct cf_recipe_opts {
    long nodes;                    /* CF_RECIPE_NODES_MIN..CF_RECIPE_NODES_MAX */
    cf_recipe_scheduler scheduler;
    /* The container image of the Kubernetes, SkyPilot and dstack jobs (at
     * most CF_RECIPE_IMAGE_MAX bytes of [A-Za-z0-9._/:@-]); NULL: the image
     * packaging/verify/Dockerfile builds, "clusterfit-verify:latest". Slurm
     * runs what the nodes have on PATH. */
    const char *image;
} cf_recipe_opts;

/* The scheduler named `name` ("slurm", "kubernetes", "skypilot", "dstack").
 * - errors: CF_EINVAL (err->param "scheduler", the message lists the names) */
CF_API cf_status cf_recipe_scheduler_parse(const char *name, cf_recipe_scheduler *out, cf_error *err);

/* The scheduler's name, as cf_recipe_scheduler_parse takes it. Static. */
CF_API const char *cf_recipe_scheduler_name(cf_recipe_scheduler s);

/* The job that verifies a rental: an sbatch script (Slurm), an MPIJob
 * manifest (Kubeflow MPI operator), a SkyPilot task or a dstack task that
 * runs `clusterfit probe --mpi` on every node and nccl-tests all_reduce_perf
 * across them with the provider's settings for the offering's fabric (EFA:
 * FI_PROVIDER=efa, FI_EFA_USE_DEVICE_RDMA=1; TCPX/TCPXO: the GPUDirect-TCPX(O)
 * NCCL plugin's variables; RoCE: NCCL_IB_GID_INDEX=3; InfiniBand: every rail
 * in NCCL_IB_HCA), then hands both to `clusterfit audit --offering ID`. A
 * missing tool, a probe that could not run or nccl-tests failing stops the
 * job with a message naming the step (the probe's exit 1, error findings, is
 * a result the audit reads, not a failure).
 * - SkyPilot: the provider's SkyPilot cloud (data/skypilot-map.csv, kind
 *   cloud) and its instance type where the map names one, else infra k8s
 *   when the offering offers Kubernetes; dstack: the provider's backend
 *   (data/dstack-backends.csv), else an SSH fleet over the rented nodes.
 * - inputs: off; opts (NULL: 2 nodes, Slurm, the default image)
 * - output: *out, a malloc'd string (free())
 * - errors: CF_EINVAL (err->param "nodes" or "image") for a node count out
 *   of range or an image name with other characters or too long;
 *   CF_EUNSUPPORTED when the offering's GPUs per node or network is unknown
 *   or it has no network, or SkyPilot can reach neither its provider nor a
 *   Kubernetes cluster of it; CF_ENOMEM */
CF_API cf_status cf_recipe(const cf_offering *off, const cf_recipe_opts *opts, char **out, cf_error *err);

#endif
