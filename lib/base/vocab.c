/* vocab.c — name tables of DESIGN.md §2. One table per enum; the parse
 * functions are case-insensitive and accept the documented aliases
 * (infiniband and ib-hdr/ib-ndr/ib-xdr for ib). */
#include <stdio.h>
#include <string.h>
#include "clusterfit/vocab.h"
#include "base/base.h"

static const char *const intra_names[] = {
    "none", "pcie3", "pcie4", "pcie5", "nvlink-bridge", "nvlink2", "nvswitch-nvlink3",
    "nvswitch-nvlink4", "nvswitch-nvlink5", "nvl72", "xgmi"};
static const char *const network_names[] = {"ib", "roce", "efa", "tcpx", "tcpxo", "tcp", "rdma", "none"};
static const char *const cap_names[] = {"no", "yes"};
static const char *const gdr_names[] = {"on", "off", "partial", "na"};
static const char *const collective_names[] = {
    "all_reduce", "all_gather", "reduce_scatter", "alltoall", "broadcast", "reduce",
    "gather", "scatter", "sendrecv", "hypercube"};
static const char *const algo_names[] = {"auto", "ring", "tree", "nvls", "nvlstree", "collnet"};
static const char *const model_names[] = {"gpt", "llama", "mpt", "bloom", "opt"};
static const char *const recompute_names[] = {"none", "selective", "full"};
static const char *const precision_names[] = {"bf16", "fp16", "fp8"};
static const char *const metric_names[] = {"tflops_per_gpu", "mfu", "tokens_per_s_per_gpu", "step_time_s"};
static const char *const audit_status_names[] = {"ok", "unjudged", "warning", "failed", "invalid"};
static const char *const severity_names[] = {"info", "warning", "error", "invalid"};

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

static int find(const char *const *names, int n, const char *s)
{
    for (int i = 0; i < n; i++)
        if (cf__strcasecmp(names[i], s) == 0) return i;
    return -1;
}

static void join(const char *const *names, int n, int with_unknown, char *buf, size_t cap)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < n; i++) {
        int w = snprintf(buf + used, cap - used, "%s%s", i ? ", " : "", names[i]);
        if (w < 0 || (size_t)w >= cap - used) return;
        used += (size_t)w;
    }
    if (with_unknown) snprintf(buf + used, cap - used, ", unknown");
}

/* Defines name/parse/accepted for an enum whose values 0..n-1 index `names`;
 * `unk` is the enum's unknown value or -2 when it has none; `list_unk` says
 * whether cf_X_accepted lists "unknown" (see vocab.h). */
#define VOCAB_DEF(kind, type, names, unk, list_unk)                              \
    const char *cf_##kind##_name(type v)                                         \
    {                                                                            \
        int i = (int)v;                                                          \
        if (i < 0 || i >= COUNT(names)) return "unknown";                       \
        return names[i];                                                         \
    }                                                                            \
    cf_status cf_##kind##_parse(const char *s, type *out)                        \
    {                                                                            \
        int i;                                                                   \
        if (!s) return CF_EINVAL;                                                \
        if ((unk) != -2 && cf__strcasecmp(s, "unknown") == 0) {                 \
            *out = (type)(unk);                                                  \
            return CF_OK;                                                        \
        }                                                                        \
        i = find(names, COUNT(names), s);                                        \
        if (i < 0) return CF_EINVAL;                                             \
        *out = (type)i;                                                          \
        return CF_OK;                                                            \
    }                                                                            \
    const char *cf_##kind##_accepted(void)                                       \
    {                                                                            \
        static char buf[512];                                                    \
        if (!buf[0]) join(names, COUNT(names), (list_unk), buf, sizeof buf);     \
        return buf;                                                              \
    }

/* "unknown" is listed only where DESIGN §2 makes it a value one states: a
 * capability, a GPUDirect state (the fabric's usual one) and recompute. For
 * intra_link, network and collective it is what the catalog and the audit
 * report when no source states the fact; an option that takes it as input
 * (list --network unknown) says so in its own message, and one that cannot
 * use it (predict --collective, --network) does not offer it. */
VOCAB_DEF(intra_link, cf_intra_link, intra_names, CF_INTRA_UNKNOWN, 0)
VOCAB_DEF(cap, cf_cap, cap_names, CF_CAP_UNKNOWN, 1)
VOCAB_DEF(gdr, cf_gdr, gdr_names, CF_GDR_UNKNOWN, 1)
VOCAB_DEF(collective, cf_collective, collective_names, CF_COLL_UNKNOWN, 0)
VOCAB_DEF(algo, cf_algo, algo_names, -2, 0)
VOCAB_DEF(model_family, cf_model_family, model_names, -2, 0)
VOCAB_DEF(recompute, cf_recompute, recompute_names, CF_RECOMPUTE_UNKNOWN, 1)
VOCAB_DEF(precision, cf_precision, precision_names, -2, 0)
VOCAB_DEF(metric, cf_metric, metric_names, -2, 0)
VOCAB_DEF(audit_status, cf_audit_status, audit_status_names, -2, 0)
VOCAB_DEF(severity, cf_severity, severity_names, -2, 0)

/* network: as the macro, plus the aliases of DESIGN §2. */
const char *cf_network_name(cf_network v)
{
    int i = (int)v;
    if (i < 0 || i >= COUNT(network_names)) return "unknown";
    return network_names[i];
}

cf_status cf_network_parse(const char *s, cf_network *out)
{
    int i;
    if (!s) return CF_EINVAL;
    if (cf__strcasecmp(s, "unknown") == 0) { *out = CF_NET_UNKNOWN; return CF_OK; }
    if (cf__strcasecmp(s, "infiniband") == 0 || cf__strcasecmp(s, "ib-hdr") == 0 ||
        cf__strcasecmp(s, "ib-ndr") == 0 || cf__strcasecmp(s, "ib-xdr") == 0 ||
        cf__strcasecmp(s, "ib-edr") == 0) {
        *out = CF_NET_IB;
        return CF_OK;
    }
    i = find(network_names, COUNT(network_names), s);
    if (i < 0) return CF_EINVAL;
    *out = (cf_network)i;
    return CF_OK;
}

const char *cf_network_accepted(void)
{
    static char buf[256];
    if (!buf[0]) join(network_names, COUNT(network_names), 0, buf, sizeof buf);
    return buf;
}

const char *cf_network_values(void)
{
    static char buf[256];
    if (!buf[0]) join(network_names, COUNT(network_names), 1, buf, sizeof buf);
    return buf;
}

const char *cf_intra_link_values(void)
{
    static char buf[512];
    if (!buf[0]) join(intra_names, COUNT(intra_names), 1, buf, sizeof buf);
    return buf;
}

const char *cf_network_label(cf_network n)
{
    switch (n) {
    case CF_NET_IB: return "InfiniBand";
    case CF_NET_ROCE: return "RoCE";
    case CF_NET_EFA: return "EFA";
    case CF_NET_TCPX: return "GPUDirect-TCPX";
    case CF_NET_TCPXO: return "GPUDirect-TCPXO";
    case CF_NET_TCP: return "TCP";
    case CF_NET_RDMA: return "RDMA";
    default: return cf_network_name(n);
    }
}

const char *cf_algo_label(cf_algo a)
{
    switch (a) {
    case CF_ALGO_RING: return "Ring";
    case CF_ALGO_TREE: return "Tree";
    case CF_ALGO_NVLS: return "NVLS";
    case CF_ALGO_NVLSTREE: return "NVLSTree";
    case CF_ALGO_COLLNET: return "CollNet";
    default: return cf_algo_name(a);
    }
}

/* Sets. */
static const char *const orch_names[] = {"slurm", "kubernetes", "vm", "managed"};
static const char *const prov_names[] = {"on-demand", "spot", "reserved", "waitlist", "flex"};
static const char *const stor_names[] = {"lustre", "weka", "vast", "gpfs", "nfs", "object", "none"};

static const char *const *set_names(cf_set_kind k, int *n)
{
    switch (k) {
    case CF_SET_ORCHESTRATION: *n = COUNT(orch_names); return orch_names;
    case CF_SET_PROVISIONING: *n = COUNT(prov_names); return prov_names;
    case CF_SET_STORAGE: *n = COUNT(stor_names); return stor_names;
    }
    *n = 0;
    return NULL;
}

const char *cf_set_elem_name(cf_set_kind k, unsigned bit)
{
    int n;
    const char *const *names = set_names(k, &n);
    for (int i = 0; i < n; i++)
        if (bit == (1u << i)) return names[i];
    return "unknown";
}

cf_status cf_set_parse(cf_set_kind k, const char *s, const char *seps, unsigned *mask)
{
    int n;
    const char *const *names = set_names(k, &n);
    unsigned m = 0;
    if (!s || !names) return CF_EINVAL;
    while (*s) {
        char tok[64];
        size_t len = strcspn(s, seps);
        size_t a = 0, b = len;
        while (a < b && (s[a] == ' ' || s[a] == '\t')) a++;
        while (b > a && (s[b - 1] == ' ' || s[b - 1] == '\t')) b--;
        if (b - a >= sizeof tok) return CF_EINVAL;
        if (b > a) {
            int i;
            memcpy(tok, s + a, b - a);
            tok[b - a] = '\0';
            i = find(names, n, tok);
            if (i < 0) return CF_EINVAL;
            m |= 1u << i;
        }
        s += len;
        if (*s) s++;
    }
    *mask = m;
    return CF_OK;
}

const char *cf_set_accepted(cf_set_kind k)
{
    static char bufs[3][256];
    int n;
    const char *const *names = set_names(k, &n);
    char *buf = bufs[k];
    if (!buf[0]) join(names, n, 0, buf, sizeof bufs[0]);
    return buf;
}

char *cf_set_format(cf_set_kind k, unsigned mask, const char *sep, char *buf, size_t cap)
{
    int n;
    const char *const *names = set_names(k, &n);
    size_t used = 0;
    if (!buf || cap == 0) return buf;
    buf[0] = '\0';
    for (int i = 0; i < n; i++) {
        if (!(mask & (1u << i))) continue;
        int w = snprintf(buf + used, cap - used, "%s%s", used ? sep : "", names[i]);
        if (w < 0 || (size_t)w >= cap - used) break;
        used += (size_t)w;
    }
    return buf;
}
