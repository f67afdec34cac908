/* collective.h — predicted time, algbw and busbw of NCCL collectives on a
 * fabric (DESIGN.md §4.2). Formulas and constants with sources: lib/collective.c
 * and docs/model.md. */
#ifndef CLUSTERFIT_COLLECTIVE_H
#define CLUSTERFIT_COLLECTIVE_H

#include <stddef.h>
#include <stdint.h>
#include <jansson.h>
#include "status.h"
#include "vocab.h"
#include "catalog.h"

/* A node type and its fabric. nics_per_node and nic_gbps (per NIC, Gbit/s)
 * describe the scale-out network; network CF_NET_NONE for one node. */
typedef struct cf_fabric {
    char gpu[32];
    int gpus_per_node;
    cf_intra_link intra_link;
    cf_network network;
    int nics_per_node;
    double nic_gbps;
    cf_gdr gdr;                     /* CF_GDR_UNKNOWN = the fabric's usual state */
    cf_cap non_blocking, rail_optimized;
} cf_fabric;

/* Builds a fabric from a catalog offering: nic_gbps = network_gbps_per_node /
 * nics_per_node (one NIC per GPU assumed only if nics is unknown: flagged by
 * returning CF_EUNSUPPORTED when the line rate itself is unknown). */
CF_API cf_status cf_fabric_from_offering(const cf_offering *o, cf_fabric *out, cf_error *err);

typedef enum cf_bottleneck {
    CF_BOTTLENECK_INTRA_NODE = 0, CF_BOTTLENECK_INTER_NODE, CF_BOTTLENECK_LATENCY
} cf_bottleneck;

CF_API const char *cf_bottleneck_name(cf_bottleneck b);

typedef struct cf_coll_query {
    cf_collective collective;
    uint64_t bytes;                 /* nccl-tests' size column S (DESIGN §4.1) */
    int nodes;
    int ranks_per_node;             /* 0 = gpus_per_node */
    cf_algo algo;                   /* CF_ALGO_AUTO = NCCL's tuner choice */
} cf_coll_query;

typedef struct cf_coll_result {
    cf_collective collective;
    uint64_t message_bytes;
    int nodes, ranks;
    cf_algo algo;                   /* the algorithm used (never AUTO) */
    double time_us, algbw_GBps, busbw_GBps;
    cf_bottleneck bottleneck;
} cf_coll_result;

/* Predicts one collective. Pure function: no allocation, no I/O.
 * CF_EINVAL for nodes < 1, ranks < 1, unknown GPU, or a multi-node query on
 * a fabric with network none/unknown. */
CF_API cf_status cf_collective_predict(const cf_fabric *fab, const cf_coll_query *q,
                                       cf_coll_result *out);

/* JSON per DESIGN §6 ({collective, message_bytes, nodes, ranks, algo, time_us,
 * algbw_GBps, busbw_GBps, bottleneck}). New reference; NULL on ENOMEM. */
CF_API json_t *cf_coll_result_to_json(const cf_coll_result *r);

/* busbw/algbw factor f of nccl-tests for n ranks (DESIGN §4.1; nccl-tests
 * src/<coll>.cu GetBw): 2(n-1)/n for all_reduce; (n-1)/n for all_gather,
 * reduce_scatter, alltoall, gather, scatter; 1 for broadcast, reduce,
 * sendrecv and hypercube (whose algbw is S(n-1)/(n t)). 0 for n < 1 or an
 * unknown collective. */
CF_API double cf_busbw_factor(cf_collective c, int n);

/* One constant of the model: name (as in lib/model/constants.def and
 * docs/model.md or docs/model-step.md), value, unit, source. */
typedef struct cf_model_constant {
    const char *name;
    double value;
    const char *unit;
    const char *source;
} cf_model_constant;

/* The table of every model constant (DESIGN §4.2: one table, one file, each
 * with its source): collective, training-step and memory constants; *n gets
 * the count. Static storage, read-only. */
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
    const char *protocol;       /* "LL", "LL128" or "Simple" (NCCL's protocols) */
} cf_coll_detail;

/* As cf_collective_predict, also filling *detail (may be NULL). */
CF_API cf_status cf_collective_explain(const cf_fabric *fab, const cf_coll_query *q,
                                       cf_coll_result *out, cf_coll_detail *detail);

#endif
