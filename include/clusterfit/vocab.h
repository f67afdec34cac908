/* vocab.h — the one vocabulary of DESIGN.md §2, shared by the catalog, the
 * model, the audit, the CLI, the JSON API and the validation files.
 *
 * Each enum has a name table: cf_<kind>_name() gives the canonical string,
 * cf_<kind>_parse() maps a string (case-insensitive, plus documented aliases)
 * to the value and returns CF_EINVAL for anything else, and
 * cf_<kind>_accepted() lists the accepted names ("a, b, c") for error
 * messages. GPU names are not an enum: they extend through data/gpus.csv
 * (see hardware.h). */
#ifndef CLUSTERFIT_VOCAB_H
#define CLUSTERFIT_VOCAB_H

#include "status.h"

/* Intra-node GPU interconnect. */
typedef enum cf_intra_link {
    CF_INTRA_UNKNOWN = -1,
    CF_INTRA_NONE = 0, CF_INTRA_PCIE3, CF_INTRA_PCIE4, CF_INTRA_PCIE5,
    CF_INTRA_NVLINK_BRIDGE, CF_INTRA_NVLINK2, CF_INTRA_NVSWITCH_NVLINK3,
    CF_INTRA_NVSWITCH_NVLINK4, CF_INTRA_NVSWITCH_NVLINK5, CF_INTRA_NVL72,
    CF_INTRA_XGMI,
    CF_INTRA__COUNT
} cf_intra_link;

/* Inter-node fabric family. "infiniband" and ib-edr/ib-hdr/ib-ndr/ib-xdr
 * parse as ib. */
typedef enum cf_network {
    CF_NET_UNKNOWN = -1,
    CF_NET_IB = 0, CF_NET_ROCE, CF_NET_EFA, CF_NET_TCPX, CF_NET_TCPXO,
    CF_NET_TCP, CF_NET_RDMA, CF_NET_NONE,
    CF_NET__COUNT
} cf_network;

/* Catalog capability. */
typedef enum cf_cap {
    CF_CAP_UNKNOWN = -1, CF_CAP_NO = 0, CF_CAP_YES = 1
} cf_cap;

/* GPUDirect RDMA state (model input, audit output). */
typedef enum cf_gdr {
    CF_GDR_UNKNOWN = -1,
    CF_GDR_ON = 0, CF_GDR_OFF, CF_GDR_PARTIAL, CF_GDR_NA,
    CF_GDR__COUNT
} cf_gdr;

typedef enum cf_collective {
    CF_COLL_UNKNOWN = -1,
    CF_COLL_ALL_REDUCE = 0, CF_COLL_ALL_GATHER, CF_COLL_REDUCE_SCATTER,
    CF_COLL_ALLTOALL, CF_COLL_BROADCAST, CF_COLL_REDUCE, CF_COLL_GATHER,
    CF_COLL_SCATTER, CF_COLL_SENDRECV, CF_COLL_HYPERCUBE,
    CF_COLL__COUNT
} cf_collective;

typedef enum cf_algo {
    CF_ALGO_AUTO = 0, CF_ALGO_RING, CF_ALGO_TREE, CF_ALGO_NVLS,
    CF_ALGO_NVLSTREE, CF_ALGO_COLLNET,
    CF_ALGO__COUNT
} cf_algo;

/* LLM family: block shape. */
typedef enum cf_model_family {
    CF_MODEL_GPT = 0, CF_MODEL_LLAMA, CF_MODEL_MPT, CF_MODEL_BLOOM, CF_MODEL_OPT,
    CF_MODEL__COUNT
} cf_model_family;

typedef enum cf_recompute {
    CF_RECOMPUTE_UNKNOWN = -1,
    CF_RECOMPUTE_NONE = 0, CF_RECOMPUTE_SELECTIVE, CF_RECOMPUTE_FULL,
    CF_RECOMPUTE__COUNT
} cf_recompute;

typedef enum cf_precision {
    CF_PREC_BF16 = 0, CF_PREC_FP16, CF_PREC_FP8,
    CF_PREC__COUNT
} cf_precision;

typedef enum cf_metric {
    CF_METRIC_TFLOPS_PER_GPU = 0, CF_METRIC_MFU, CF_METRIC_TOKENS_PER_S_PER_GPU,
    CF_METRIC_STEP_TIME_S,
    CF_METRIC__COUNT
} cf_metric;

/* Audit verdict, in increasing order of gravity. UNJUDGED: nothing is wrong
 * in what the input shows, but it shows a busbw that could not be compared
 * with an expectation (no link rate, a sweep too short), so "ok" would
 * overstate it (issue 23). */
typedef enum cf_audit_status {
    CF_AUDIT_OK = 0, CF_AUDIT_UNJUDGED, CF_AUDIT_WARNING, CF_AUDIT_FAILED, CF_AUDIT_INVALID,
    CF_AUDIT__COUNT
} cf_audit_status;

typedef enum cf_severity {
    CF_SEV_INFO = 0, CF_SEV_WARNING, CF_SEV_ERROR, CF_SEV_INVALID,
    CF_SEV__COUNT
} cf_severity;

/* Catalog sets, as bit masks. */
enum {
    CF_ORCH_SLURM = 1 << 0, CF_ORCH_KUBERNETES = 1 << 1, CF_ORCH_VM = 1 << 2,
    CF_ORCH_MANAGED = 1 << 3
};
enum {
    CF_PROV_ON_DEMAND = 1 << 0, CF_PROV_SPOT = 1 << 1, CF_PROV_RESERVED = 1 << 2,
    CF_PROV_WAITLIST = 1 << 3,
    CF_PROV_FLEX = 1 << 4 /* queued capacity: GCP DWS flex-start and the like */
};
enum {
    CF_STOR_LUSTRE = 1 << 0, CF_STOR_WEKA = 1 << 1, CF_STOR_VAST = 1 << 2,
    CF_STOR_GPFS = 1 << 3, CF_STOR_NFS = 1 << 4, CF_STOR_OBJECT = 1 << 5,
    CF_STOR_NONE = 1 << 6
};

#define CF_VOCAB_DECL(kind, type)                                        \
    CF_API const char *cf_##kind##_name(type v);                         \
    CF_API cf_status cf_##kind##_parse(const char *s, type *out);        \
    CF_API const char *cf_##kind##_accepted(void);

/* Three functions per enum X below (36 in all):
 * cf_X_name(v), the canonical name of a value.
 * - output: the name; "unknown" for the UNKNOWN value and out-of-range
 *   values
 * - ownership: static storage
 * cf_X_parse(s, &v), the value of a name.
 * - inputs: s, case-insensitive, or a documented alias (network above);
 *   "unknown" where the enum has an UNKNOWN value
 * - output: *out; unchanged on error
 * - errors: CF_EINVAL for NULL or any other string
 * cf_X_accepted(), the accepted names for messages.
 * - output: "a, b, c" in enum order; "unknown" last only where DESIGN §2
 *   makes it a value a user states (cap, gdr, recompute); for intra_link,
 *   network and collective the known values only (unknown is a missing
 *   fact there, and most options reject it): a caller that accepts unknown
 *   adds it to its message
 * - ownership: static storage, built on the first call */
CF_VOCAB_DECL(intra_link, cf_intra_link)
CF_VOCAB_DECL(network, cf_network)
CF_VOCAB_DECL(cap, cf_cap)
CF_VOCAB_DECL(gdr, cf_gdr)
CF_VOCAB_DECL(collective, cf_collective)
CF_VOCAB_DECL(algo, cf_algo)
CF_VOCAB_DECL(model_family, cf_model_family)
CF_VOCAB_DECL(recompute, cf_recompute)
CF_VOCAB_DECL(precision, cf_precision)
CF_VOCAB_DECL(metric, cf_metric)
CF_VOCAB_DECL(audit_status, cf_audit_status)
CF_VOCAB_DECL(severity, cf_severity)

/* The display name of a fabric family, for sentences and tables.
 * - output: "InfiniBand", "RoCE", "EFA", "GPUDirect-TCPX", "GPUDirect-TCPXO",
 *   "TCP", "RDMA"; the canonical name of cf_network_name for none, unknown
 *   and out-of-range values
 * - ownership: static storage */
CF_API const char *cf_network_label(cf_network n);
/* Every value a catalog cell of network (intra_link) holds, and so every
 * value a list filter takes: cf_X_accepted()'s names, then "unknown" (a
 * row no source states the fact for). The one list GET /api/vocab, the
 * page's filter and list's messages give (issue 23: the API left unknown
 * out while catalog rows hold it).
 * - ownership: static storage, built on the first call */
CF_API const char *cf_network_values(void);
CF_API const char *cf_intra_link_values(void);

/* The name NCCL gives an algorithm (its NCCL_ALGO values and tuning
 * tables), for sentences: what a user reads in a log and sets in NCCL_ALGO.
 * - output: "Ring", "Tree", "NVLS", "NVLSTree", "CollNet"; the canonical
 *   name of cf_algo_name for auto and out-of-range values
 * - ownership: static storage */
CF_API const char *cf_algo_label(cf_algo a);

/* Set vocabularies: orchestration (CF_ORCH_*), provisioning (CF_PROV_*),
 * storage (CF_STOR_*), as bit masks. */
typedef enum cf_set_kind { CF_SET_ORCHESTRATION, CF_SET_PROVISIONING, CF_SET_STORAGE } cf_set_kind;

/* The name of one element of a set.
 * - inputs: k, and bit, one CF_ORCH_* / CF_PROV_* / CF_STOR_* value
 * - output: "slurm" ...; "unknown" for anything but one known bit
 * - ownership: static storage */
CF_API const char *cf_set_elem_name(cf_set_kind k, unsigned bit);

/* A set from its text.
 * - inputs: s, element names (case-insensitive) separated by any of the
 *   characters of `seps` (";" in CSV, "," in flags and query strings),
 *   blanks around them ignored; "" (or only separators) is mask 0
 * - output: *mask, the elements OR-ed; unchanged on error
 * - errors: CF_EINVAL for NULL s, an unknown kind or an unknown element */
CF_API cf_status cf_set_parse(cf_set_kind k, const char *s, const char *seps, unsigned *mask);

/* The element names of a set kind, for messages.
 * - output: "a, b, c" in bit order
 * - ownership: static storage, built on the first call */
CF_API const char *cf_set_accepted(cf_set_kind k);

/* A set as text.
 * - output: the names of mask's elements in bit order, joined by `sep`
 *   ("" for mask 0), cut at an element that does not fit
 * - ownership: writes into the caller's buf (n bytes) and returns buf; buf
 *   NULL or n 0 writes nothing */
CF_API char *cf_set_format(cf_set_kind k, unsigned mask, const char *sep, char *buf, size_t n);

#endif
