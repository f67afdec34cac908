/* collective.h — predicted time, algbw and busbw of NCCL collectives on a
 * fabric (DESIGN.md §4.2), and the fabric and query parameters by name.
 * Formulas and constants, with their sources: docs/model.md. A fabric from a
 * catalog offering is the plan's step (fabric.h). */
#ifndef CLUSTERFIT_COLLECTIVE_H
#define CLUSTERFIT_COLLECTIVE_H

#include <stddef.h>
#include <stdint.h>
#include <jansson.h>
#include "status.h"
#include "limits.h"
#include "vocab.h"

/* A node type and its fabric. nics_per_node and nic_gbps describe the
 * scale-out network; network CF_NET_NONE for one node. */
typedef struct cf_fabric {
    char gpu[CF_GPU_NAME_MAX];      /* GPU model, the hardware table's spelling */
    int gpus_per_node;              /* GPUs per node (per tray for nvl72) */
    cf_intra_link intra_link;       /* the GPUs' link inside the node */
    cf_network network;             /* scale-out fabric family */
    int nics_per_node;              /* scale-out NICs per node */
    double nic_gbps;                /* line rate of one NIC, Gbit/s */
    cf_gdr gdr;                     /* CF_GDR_UNKNOWN = the fabric's usual state */
    cf_cap non_blocking, rail_optimized;    /* scale-out topology, when stated */
    cf_cap in_network_reduction;    /* switches reduce (IB SHARP, NCCL CollNet): only YES
                                       lets `auto` consider collnet (docs/model.md) */
} cf_fabric;

/* A fabric with nothing known yet, for cf_fabric_set.
 * - output: gpu "", gpus_per_node 0, intra_link and network unknown, no NICs
 *   (nics_per_node 0, nic_gbps 0), gdr, non_blocking, rail_optimized and
 *   in_network_reduction unknown
 * - ownership: fills the caller's struct (not NULL) */
CF_API void cf_fabric_init(cf_fabric *fab);

/* Sets one fabric parameter from its text, as a CLI flag or an API
 * parameter carries it; both front ends go through here.
 * - inputs: `name` in snake_case and its value:
 *     gpu            a GPU of the hardware table (case-insensitive; stored in
 *                    the table's spelling)
 *     gpus_per_node  integer, 1..CF_MAX_GPUS_PER_NODE
 *     intra          cf_intra_link_accepted() ("unknown" refused)
 *     network        cf_network_accepted() ("unknown" refused)
 *     nics           scale-out NICs per node, integer, 1..CF_MAX_NICS_PER_NODE
 *     nic_gbps       line rate of one NIC, Gbit/s, CF_LINE_GBPS_MIN..CF_LINE_GBPS_MAX
 *     gdr            cf_gdr_accepted()
 *     non_blocking, rail_optimized   yes, no or unknown (cf_cap_accepted():
 *                    the scale-out topology; unknown is the model's one
 *                    documented assumption, flagged by cf_fabric_assumptions)
 * - output: the field of *fab; unchanged on error
 * - errors: CF_EINVAL with err->param = name and a message giving the bound
 *   or the accepted values (a NULL or empty value: "has no value"); an
 *   unknown name is CF_EINVAL with param "" and the accepted names, as is a
 *   NULL fab or name; CF_ENOMEM or CF_EINTERNAL when the hardware table
 *   cannot be built. err may be NULL
 * - ownership: `value` is read during the call only */
CF_API cf_status cf_fabric_set(cf_fabric *fab, const char *name, const char *value, cf_error *err);

/* The names cf_fabric_set accepts, in the order a front end sets them:
 * gpu, gpus_per_node, intra, network, nics, nic_gbps, gdr, non_blocking,
 * rail_optimized (the last three optional: the fabric's usual state or
 * unknown when not given). A front end that
 * asks for the NICs only with a network between nodes (the CLI's flags and
 * the API's parameters do) checks them once network is set, which this
 * order guarantees.
 * - output: a NULL-terminated list of snake_case names (the JSON API's
 *   spelling; a CLI writes '_' as '-')
 * - ownership: static storage, never to be freed or changed */
CF_API const char *const *cf_fabric_param_names(void);

/* What bounds a collective's time (cf_coll_result.bottleneck). */
typedef enum cf_bottleneck {
    CF_BOTTLENECK_INTRA_NODE = 0, CF_BOTTLENECK_INTER_NODE, CF_BOTTLENECK_LATENCY
} cf_bottleneck;

/* The name of a bottleneck, as the JSON results spell it.
 * - output: "intra_node", "inter_node" or "latency"; "unknown" out of range
 * - ownership: static storage */
CF_API const char *cf_bottleneck_name(cf_bottleneck b);

typedef struct cf_coll_query {
    cf_collective collective;
    uint64_t bytes;                 /* nccl-tests' size column S (DESIGN §4.1) */
    int nodes;                      /* nodes of the communicator (trays for nvl72) */
    int ranks_per_node;             /* 0 = gpus_per_node */
    cf_algo algo;                   /* CF_ALGO_AUTO = NCCL's tuner choice */
} cf_coll_query;

/* A query with nothing set yet, for cf_coll_query_set.
 * - output: collective unknown, bytes 0, nodes 0, ranks_per_node 0 (every
 *   GPU), algo auto
 * - ownership: fills the caller's struct (not NULL) */
CF_API void cf_coll_query_init(cf_coll_query *q);

/* Sets one query parameter from its text, as cf_fabric_set does for the
 * fabric.
 * - inputs: `name` and its value:
 *     collective      cf_collective_accepted()
 *     bytes           a size as cf_parse_size reads it (1048576, 512M, 8G:
 *                     binary multiples), 1..CF_MAX_MESSAGE_BYTES
 *     nodes           integer, 1..CF_MAX_NODES
 *     ranks_per_node  integer, 1..CF_MAX_GPUS_PER_NODE (the fabric's GPUs per
 *                     node bound it further: cf_collective_predict checks)
 *     algo            cf_algo_accepted()
 * - output: the field of *q; unchanged on error
 * - errors: CF_EINVAL with err->param = name and the bound or the accepted
 *   values (a NULL or empty value: "has no value"); an unknown name, a NULL
 *   q or name is CF_EINVAL with param "". err may be NULL
 * - ownership: `value` is read during the call only */
CF_API cf_status cf_coll_query_set(cf_coll_query *q, const char *name, const char *value,
                                   cf_error *err);

/* The names cf_coll_query_set accepts, in the order a front end sets them:
 * collective, bytes, nodes, ranks_per_node, algo.
 * - output: a NULL-terminated list of snake_case names
 * - ownership: static storage, never to be freed or changed */
CF_API const char *const *cf_coll_query_param_names(void);

/* What a prediction assumed where the fabric did not say
 * (cf_coll_result.assumed, a bit mask; docs/model.md "Congestion"):
 * - CF_ASSUMED_NON_BLOCKING: non_blocking unknown on a multi-node
 *   prediction; the model assumed the congestion of a typical 2:1-tapered
 *   fabric beyond one leaf (ETA_CONGESTION_PER_DOUBLING), the same rule for
 *   every fabric family
 * - CF_ASSUMED_RAIL_OPTIMIZED: rail_optimized unknown on a multi-node
 *   prediction; the model assumed rails are not aligned (no rail bonus)
 * A JSON front end writes them as the flags "non_blocking_unknown" and
 * "rail_optimized_unknown". 0 on one node, where no scale-out network is
 * used. */
enum {
    CF_ASSUMED_NON_BLOCKING = 1u << 0,
    CF_ASSUMED_RAIL_OPTIMIZED = 1u << 1
};

typedef struct cf_coll_result {
    cf_collective collective;       /* as asked */
    uint64_t message_bytes;         /* S, as asked (q->bytes) */
    int nodes, ranks;               /* nodes as asked; ranks = nodes x ranks per node */
    cf_algo algo;                   /* the algorithm used (never AUTO) */
    const char *protocol;           /* NCCL's protocol of the prediction: "LL", "LL128" or
                                       "Simple" (static) */
    int algo_asked;                 /* 1: q->algo named the algorithm; 0: auto picked it
                                       (the model's tuner: JSON "algo_source") */
    double time_us, algbw_GBps, busbw_GBps; /* microseconds; GB/s = 10^9 B/s */
    cf_bottleneck bottleneck;       /* latency when it is over half of time_us */
    unsigned assumed;               /* CF_ASSUMED_* bits: what the model assumed */
} cf_coll_result;

/* Predicts one collective (DESIGN §4.2).
 * - computes: the time of collective q->collective of S = q->bytes on
 *   q->nodes nodes of `fab` with q->ranks_per_node ranks each, under q->algo
 *   (auto: the (algorithm, protocol) of least predicted time, as NCCL's
 *   tuner picks), and its algbw and busbw as nccl-tests defines them
 * - inputs: fab (GPU, GPUs per node, links; NIC rates in Gbit/s) and q
 *   (bytes in nccl-tests' size column, nodes, ranks per node, algo)
 * - output: *out: time_us (microseconds), algbw_GBps and busbw_GBps (GB/s =
 *   10^9 B/s), the algorithm used, the bottleneck; zeroed on refusal
 * - errors: CF_EINVAL when the model refuses, err (may be NULL) saying why,
 *   err->param naming the input: collective or algo out of range; gpu not in
 *   the hardware table; gpus_per_node outside 1..CF_MAX_GPUS_PER_NODE;
 *   ranks_per_node negative or over the node's GPUs; nodes below 1, or more
 *   ranks than an int counts; intra unknown; several nodes (NVLink domains
 *   for nvl72) on network none or unknown (nodes), without NICs (nics) or
 *   without a line rate (nic_gbps); an algorithm that cannot run for this
 *   collective on this fabric (algo). CF_EINVAL with param "" for a NULL
 *   fab, q or out. With err NULL a refusal formats nothing (the planner's
 *   hot loop)
 * - ownership: pure; no allocation, no I/O
 * - source: the latency and bandwidth terms of NCCL's tuner
 *   (src/graph/tuning.cc), nccl-tests' busbw factors; docs/model.md */
CF_API cf_status cf_collective_predict(const cf_fabric *fab, const cf_coll_query *q,
                                       cf_coll_result *out, cf_error *err);

/* A prediction as JSON (DESIGN §6).
 * - output: {collective, message_bytes, nodes, ranks, algo, protocol,
 *   algo_source, time_us, algbw_GBps, busbw_GBps, bottleneck}, names as
 *   cf_collective_name, cf_algo_name and cf_bottleneck_name spell them;
 *   algo_source "model" (auto: the model's tuner picked it) or "asked"
 *   (CF_ALGO_SOURCE_* below); time_us_p10/_p90 and busbw_GBps_p10/_p90,
 *   the band of the model's error out of sample for the message's size
 *   class (cf_error_band, validate.h), and that error_class
 * - errors: NULL on ENOMEM
 * - ownership: a new reference (json_decref); r (not NULL) is read only */
CF_API json_t *cf_coll_result_to_json(const cf_coll_result *r);

/* Who chose the algorithm of an expected busbw, as the JSON fields
 * "algo_source" (predict) and "expected_algo_source" (audit) spell it:
 * - CF_ALGO_SOURCE_MODEL "model": the model's tuner (auto: the least
 *   predicted time, as NCCL's tuner)
 * - CF_ALGO_SOURCE_ASKED "asked": the query named it (predict --algo, the
 *   API's algo)
 * - CF_ALGO_SOURCE_NCCL_LOG "nccl_log": NCCL's own choice, read from a
 *   tuning line of the log ("AllReduce: 8589934592 Bytes -> Algo RING proto
 *   SIMPLE ...", or "Algo 1 proto 2" in older releases)
 * - CF_ALGO_SOURCE_NCCL_ALGO "nccl_algo": NCCL_ALGO named one algorithm
 *   (NCCL's "set by environment" line, the launcher's -x, an env listing)
 * - CF_ALGO_SOURCE_LINE_RATE "line_rate": not the model's prediction but the
 *   ring's bound line rate x the fabric family's efficiency, where the model
 *   cannot be asked (the audit shows no GPU or node count) */
#define CF_ALGO_SOURCE_MODEL "model"
#define CF_ALGO_SOURCE_ASKED "asked"
#define CF_ALGO_SOURCE_NCCL_LOG "nccl_log"
#define CF_ALGO_SOURCE_NCCL_ALGO "nccl_algo"
#define CF_ALGO_SOURCE_LINE_RATE "line_rate"

/* The one line that names an expected busbw and what it assumes, the same
 * in `predict collective` and `audit` text: "447 GB/s busbw (NVLSTree,
 * Simple, model)".
 * - inputs: busbw_GBps (GB/s, printed to the GB/s; one decimal below 10);
 *   algo (named as cf_algo_label); protocol ("LL", "LL128", "Simple"; NULL
 *   or "" leaves it out); source, a CF_ALGO_SOURCE_* name (printed as
 *   "model", "asked", "NCCL log", "NCCL_ALGO", "line rate x efficiency";
 *   another string as it is, NULL left out)
 * - output: the line in buf (n bytes, always NUL-terminated when n > 0,
 *   cut to fit); returns the length the whole line needs, as snprintf
 * - errors: none; buf NULL with n 0 only measures
 * - ownership: writes the caller's buffer only */
CF_API int cf_coll_expect_text(char *buf, size_t n, double busbw_GBps, cf_algo algo,
                               const char *protocol, const char *source);

/* The busbw/algbw factor f of nccl-tests for n ranks (DESIGN §4.1).
 * - output: 2(n-1)/n for all_reduce; (n-1)/n for all_gather,
 *   reduce_scatter, alltoall, gather, scatter; 1 for broadcast, reduce,
 *   sendrecv and hypercube (whose algbw is S(n-1)/(n t)); 0 for n < 1 or an
 *   unknown collective
 * - ownership: pure
 * - source: nccl-tests src/<coll>.cu, GetBw */
CF_API double cf_busbw_factor(cf_collective c, int n);

/* One constant of the model: its name in the model's constant table (the
 * table cf_model_constants() lists) and in docs/model.md or
 * docs/model-step.md, its value, unit and source. */
typedef struct cf_model_constant {
    const char *name;
    double value;
    const char *unit;
    const char *source;
} cf_model_constant;

/* The table of every model constant (DESIGN §4.2: one table, each constant
 * with its source): collective, training-step and memory constants.
 * - output: the first entry; *n (may be NULL) gets the count
 * - ownership: static storage, read-only */
CF_API const cf_model_constant *cf_model_constants(size_t *n);

/* The parts of the prediction, for explanations and tests: the busbw limits
 * the model applied (GB/s; INFINITY where a limit does not apply) and the
 * latency. Filled by cf_collective_explain for the algorithm it chose. */
typedef struct cf_coll_detail {
    double intra_busbw_GBps;    /* the intra-node (or NVLink-domain) limit */
    double inter_busbw_GBps;    /* the scale-out limit, after eta, GDR and tree shape */
    double eta;                 /* scale-out efficiency used (0 on one node) */
    double latency_us;          /* latency term of t, launch included */
    int nodes_eff, ranks_per_node_eff;  /* after merging nvl72 trays into racks */
    const char *protocol;       /* "LL", "LL128" or "Simple" (NCCL's protocols); static */
} cf_coll_detail;

/* Predicts one collective and says how.
 * - computes, inputs, errors: as cf_collective_predict
 * - output: *out as cf_collective_predict; *detail (may be NULL) the parts
 *   of the chosen prediction, left as it was on refusal
 * - ownership: pure; no allocation, no I/O; detail->protocol is static
 * - source: as cf_collective_predict */
CF_API cf_status cf_collective_explain(const cf_fabric *fab, const cf_coll_query *q,
                                       cf_coll_result *out, cf_coll_detail *detail,
                                       cf_error *err);

#endif
