/* collective.c — the collective-communication model (DESIGN §4.1-4.2).
 *
 * t = latency(algo, protocol, nodes, ranks) + (S_eff + fill) / busbw, where
 * fill = min(S_eff, in-flight window) is the network pipeline's fill across
 * nodes (Simple protocol; the window is NET_WINDOW_PER_NIC per NIC reached),
 * and busbw is
 * the smallest of the limits the algorithm meets: the intra-node link (NVLink
 * behind NVSwitch, NVLS, bridges, PCIe) and the scale-out NICs the
 * communicator reaches, times the fabric family's efficiency eta (and the
 * GDR-off factor), shaped by the algorithm (ring: per-node line rate; double
 * binary tree: 2(n-1)/n / L(N) of it, NVLSTree through at most NVLS_HEADS_MAX
 * heads per NVLink domain; alltoall and gather: per-GPU shares).
 * The latency structure and protocol factors are NCCL's own tuner
 * (src/graph/tuning.cc); `auto` picks the (algorithm, protocol) of least
 * predicted time, as the tuner does. A GB200/GB300 NVL72 rack is one "node":
 * its trays are merged before anything else. Every constant is CF_K(...) from
 * model/constants.def, with its source there; docs/model.md derives them.
 * A refusal says why in the caller's cf_error (the input, the bound, the
 * fact that is unknown), formatted only when the caller passed one.
 * Pure functions: no allocation (except the JSON builder), no I/O. */
#include <limits.h>
#include <math.h>
#include <string.h>
#include <stdio.h>
#include "clusterfit/collective.h"
#include "clusterfit/hardware.h"
#include "clusterfit/limits.h"
#include "base/base.h"
#include "model/model_int.h"

enum { P_LL = 0, P_LL128, P_SIMPLE, P__N };
enum { HW_NVL = 0, HW_PCI };
enum { BIND_INTRA = 0, BIND_INTER };

static const char *const proto_names[P__N] = {"LL", "LL128", "Simple"};

/* The fabric and query resolved into the quantities the formulas use. */
typedef struct shape {
    cf_collective coll;
    int N;              /* nodes (NVLink domains for nvl72) */
    int k;              /* ranks per node */
    int n;              /* ranks = N * k */
    double intra_ring;  /* intra-node busbw of a ring, GB/s (INFINITY if k == 1) */
    double intra_nvls;  /* NVLS busbw, GB/s; 0 = no NVLS */
    int intra_hw;       /* HW_NVL or HW_PCI: which latency row applies */
    int ll128;          /* LL128 enabled (NVLink systems, as NCCL) */
    double eta;         /* scale-out efficiency after the node-count decay */
    double gdr;         /* GDR factor (1 when on or n/a) */
    double net_node;    /* GB/s per node the k ranks reach: NICs x rate x eta x gdr */
    double net_gpu;     /* GB/s of one GPU's NICs, same factors */
    double window;      /* bytes NCCL keeps in flight over the network (0 on one node) */
    double hop_us;      /* the transport's latency per network step beyond IB verbs */
    double intra_window;    /* bytes in flight inside a node: NVSwitch systems only */
    double simple_hops; /* times Simple pays hop_us: NET_HOP_SIMPLE_FACTOR with GPUDirect receive */
    int nvls_ok;        /* NCCL enables NVLS for this communicator */
    int collnet_ok;     /* the fabric reduces in the network (in_network_reduction yes) */
    unsigned assumed;   /* CF_ASSUMED_* bits the prediction relies on */
    double hbm;         /* GB/s, for the single-rank copy */
} shape;

double cf_busbw_factor(cf_collective c, int n)
{
    if (n < 1) return 0;
    switch (c) {
    case CF_COLL_ALL_REDUCE: return 2.0 * (n - 1) / n;
    case CF_COLL_ALL_GATHER:
    case CF_COLL_REDUCE_SCATTER:
    case CF_COLL_ALLTOALL:
    case CF_COLL_GATHER:
    case CF_COLL_SCATTER: return (double)(n - 1) / n;
    case CF_COLL_BROADCAST:
    case CF_COLL_REDUCE:
    case CF_COLL_SENDRECV:
    case CF_COLL_HYPERCUBE: return 1.0;
    default: return 0;
    }
}

const char *cf_bottleneck_name(cf_bottleneck b)
{
    switch (b) {
    case CF_BOTTLENECK_INTRA_NODE: return "intra_node";
    case CF_BOTTLENECK_INTER_NODE: return "inter_node";
    case CF_BOTTLENECK_LATENCY: return "latency";
    }
    return "unknown";
}

/* floor(log2(x)) for x >= 1, as NCCL's log2i. */
static int log2i(int x)
{
    int l = 0;
    while (x > 1) { x >>= 1; l++; }
    return l;
}

/* Tree inflation L(N): bytes per node per direction on the NICs, in units
 * of S (DESIGN §4.2). */
static double tree_L(int N)
{
    if (N <= 2) return CF_K(TREE_L2);
    if (N == 3) return CF_K(TREE_L3);
    return CF_K(TREE_L4);
}

static double eta_family(const cf_fabric *fab)
{
    switch (fab->network) {
    case CF_NET_IB: return CF_K(ETA_IB);
    case CF_NET_ROCE: return CF_K(ETA_ROCE);
    case CF_NET_RDMA: return CF_K(ETA_RDMA);
    case CF_NET_EFA:
        return fab->nics_per_node >= fab->gpus_per_node ? CF_K(ETA_EFA) : CF_K(ETA_EFA_SHARED_NIC);
    case CF_NET_TCPX: return CF_K(ETA_TCPX);
    case CF_NET_TCPXO: return CF_K(ETA_TCPXO);
    case CF_NET_TCP: return CF_K(ETA_TCP);
    default: return 0;
    }
}

/* eta at N nodes, and the assumptions it relies on (docs/model.md
 * "Congestion"): the same rule for every fabric family. Beyond 2 nodes
 * (one leaf switch) eta loses ETA_DECAY_PER_DOUBLING per doubling of N
 * unless the fabric is stated non-blocking, and ETA_DECAY_CROSS_RAIL_PER_
 * DOUBLING more unless it is stated rail-optimized; unknown is treated as
 * no (the typical tapered, not rail-aligned cloud fabric) and sets the
 * CF_ASSUMED_* bit. Not below ETA_FLOOR. */
static double eta_at(const cf_fabric *fab, int N, unsigned *assumed)
{
    double eta = eta_family(fab), per = 0;
    if (N <= 2) return eta;
    if (fab->non_blocking != CF_CAP_YES) per += CF_K(ETA_DECAY_PER_DOUBLING);
    if (fab->rail_optimized != CF_CAP_YES) per += CF_K(ETA_DECAY_CROSS_RAIL_PER_DOUBLING);
    if (fab->non_blocking == CF_CAP_UNKNOWN) *assumed |= CF_ASSUMED_NON_BLOCKING;
    if (fab->rail_optimized == CF_CAP_UNKNOWN) *assumed |= CF_ASSUMED_RAIL_OPTIMIZED;
    eta -= per * log2((double)N / 2.0);
    if (eta < CF_K(ETA_FLOOR)) eta = CF_K(ETA_FLOOR);
    return eta;
}

/* The transport's latency per network step beyond NCCL's tuner row (which
 * is InfiniBand verbs'): proxy, provider and host-stack costs. */
static double hop_extra_us(const cf_fabric *fab)
{
    switch (fab->network) {
    case CF_NET_ROCE: return CF_K(NET_HOP_ROCE);
    case CF_NET_EFA:
        return fab->nics_per_node >= fab->gpus_per_node ? CF_K(NET_HOP_EFA)
                                                        : CF_K(NET_HOP_EFA_SHARED_NIC);
    case CF_NET_TCPX: return CF_K(NET_HOP_TCPX);
    case CF_NET_TCPXO: return CF_K(NET_HOP_TCPXO);
    case CF_NET_TCP: return CF_K(NET_HOP_TCP);
    default: return 0;   /* ib, rdma: NCCL's tuner row as it is */
    }
}

/* Busbw ceiling of NCCL's socket transport per node (GB/s) for `reach` NICs
 * of nic_GBps each: per NIC the wire share ETA_TCP of the line rate or the
 * socket streams NCCL opens per NIC (SOCKET_STREAMS_PER_NIC) at one core's
 * stream rate (SOCKET_STREAM_GBPS), whichever is lower; per node at most
 * what the host's TCP stack moves through host memory (HOST_TCP_NODE_GBPS). */
static double socket_ceiling(double reach, double nic_GBps)
{
    double per_nic = fmin(nic_GBps * CF_K(ETA_TCP),
                          CF_K(SOCKET_STREAMS_PER_NIC) * CF_K(SOCKET_STREAM_GBPS));
    return fmin(reach * per_nic, CF_K(HOST_TCP_NODE_GBPS));
}

/* GPUDirect-TCPX and -TCPXO run over the NICs plain sockets use, and
 * NCCL's socket transport stays available on them: such a fabric is never
 * slower than TCP on the same NICs (issue 23: `fabrics --nics 1 --nic-gbps
 * 100` put TCPX 6.6 % under TCP; serving's small all-to-alls put TCPXO
 * under TCP, its 60 us hop doubled by the flush past TCP's 80). Per hop it
 * pays at most TCP's (the GPUDirect flush of Simple, NET_HOP_SIMPLE_FACTOR),
 * and its bandwidth is at least the socket ceiling's with the same
 * congestion share (s->eta over the family's own ETA). */
static int gpudirect_tcp(const cf_fabric *fab)
{
    return fab->network == CF_NET_TCPX || fab->network == CF_NET_TCPXO;
}

static void tcpx_floor(shape *s, const cf_fabric *fab, double reach, double nic_GBps)
{
    if (s->hop_us > 0 && s->hop_us * s->simple_hops > CF_K(NET_HOP_TCP))
        s->simple_hops = fmax(1.0, CF_K(NET_HOP_TCP) / s->hop_us);
    s->net_node = fmax(s->net_node, socket_ceiling(reach, nic_GBps) * s->eta / eta_family(fab));
}

/* GDR factor: unknown = the fabric's usual state (on for RDMA-capable and
 * GPUDirect-TCPX/O fabrics; not applicable to sockets). Off and partial
 * (the slowest rank sets a collective's pace) stage through host memory. */
static double gdr_factor(const cf_fabric *fab, const cf_gpu_spec *gpu)
{
    if (fab->network == CF_NET_TCP || fab->network == CF_NET_NONE) return 1.0;
    if (fab->gdr == CF_GDR_OFF || fab->gdr == CF_GDR_PARTIAL)
        return gpu->host_c2c ? CF_K(GDR_OFF_C2C) : CF_K(GDR_OFF_PCIE_HOST);
    return 1.0;
}

static double pcie_rate(int gen)
{
    if (gen >= 5) return CF_K(PCIE5_GBPS);
    if (gen == 4) return CF_K(PCIE4_GBPS);
    return CF_K(PCIE3_GBPS);
}

/* Intra-node busbw of a ring and of NVLS for the link and GPU. */
static cf_status intra_limits(const cf_fabric *fab, const cf_gpu_spec *gpu, shape *s, cf_error *err)
{
    double uni = gpu->nvlink_GBps / 2.0;   /* vendor figures count both directions */
    cf_intra_link l = fab->intra_link;
    s->intra_nvls = 0;
    s->intra_hw = HW_NVL;
    s->ll128 = 1;
    if (l == CF_INTRA_UNKNOWN) {
        if (err)
            cf_error_set_param(err, "intra", "intra unknown; the model needs the GPUs' link inside the "
                               "node (accepted: %s)", cf_intra_link_accepted());
        return CF_EINVAL;
    }
    if (uni <= 0 && (l == CF_INTRA_NVLINK_BRIDGE || l == CF_INTRA_NVLINK2 ||
                     l == CF_INTRA_NVSWITCH_NVLINK3 || l == CF_INTRA_NVSWITCH_NVLINK4 ||
                     l == CF_INTRA_NVSWITCH_NVLINK5 || l == CF_INTRA_NVL72 || l == CF_INTRA_XGMI))
        l = CF_INTRA_NONE;  /* a GPU without NVLink: its PCIe is the path */
    switch (l) {
    case CF_INTRA_NVSWITCH_NVLINK3:
        s->intra_ring = uni * CF_K(NVLINK_RING_EFF);
        break;
    case CF_INTRA_NVSWITCH_NVLINK4:
    case CF_INTRA_NVSWITCH_NVLINK5:
    case CF_INTRA_NVL72:
        /* NVLS needs NVSwitch gen 3 (NVLink4) and Hopper or later. */
        s->intra_ring = uni * CF_K(NVLINK_RING_EFF);
        s->intra_nvls = uni * CF_K(NVLS_EFF);
        break;
    case CF_INTRA_XGMI:
        s->intra_ring = uni * CF_K(NVLINK_RING_EFF);
        break;
    case CF_INTRA_NVLINK2:
        s->intra_ring = uni * CF_K(NVLINK2_MESH_EFF);
        break;
    case CF_INTRA_NVLINK_BRIDGE:
        s->intra_ring = uni * CF_K(NVLINK_BRIDGE_EFF);
        break;
    case CF_INTRA_PCIE3:
    case CF_INTRA_PCIE4:
    case CF_INTRA_PCIE5:
    case CF_INTRA_NONE:
    default: {
        int gen = l == CF_INTRA_PCIE3 ? 3 : l == CF_INTRA_PCIE4 ? 4 : l == CF_INTRA_PCIE5 ? 5
                                                                                          : gpu->pcie_gen;
        s->intra_ring = pcie_rate(gen) * CF_K(PCIE_EFF);
        s->intra_hw = HW_PCI;
        s->ll128 = 0;   /* NCCL enables LL128 only on NVLink systems */
        break;
    }
    }
    if (s->k == 1) {
        s->intra_ring = INFINITY;
        s->intra_nvls = 0;
    }
    /* The one-node ramp is measured behind NVSwitches (Azure ND A100, H100,
     * H200); a bridged pair, PCIe or an xGMI mesh shows none (MI300X at
     * 8 MiB, holdout h05). */
    s->intra_window = (l == CF_INTRA_NVSWITCH_NVLINK3 || l == CF_INTRA_NVSWITCH_NVLINK4 ||
                       l == CF_INTRA_NVSWITCH_NVLINK5 || l == CF_INTRA_NVL72)
                          ? CF_K(INTRA_WINDOW_BYTES) : 0;
    /* NCCL uses ring, not NVLS, for few ranks per NVLink domain. */
    s->nvls_ok = s->intra_nvls > 0 && s->k >= (int)CF_K(NVLS_MIN_RANKS_PER_NODE);
    return CF_OK;
}

/* "ib, roce, ..." — the networks that join nodes, for a refusal. */
static void joining_networks(char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < CF_NET__COUNT && used < n; i++) {
        if (i == CF_NET_NONE) continue;
        used += (size_t)snprintf(buf + used, n - used, "%s%s", used ? ", " : "",
                                 cf_network_name((cf_network)i));
    }
}

/* Trays of `fab`'s nodes in one NVL72 rack: an NVL72 rack is one node of
 * the model (its trays' GPUs, ranks and NICs merged). */
static int nvl72_trays(const cf_fabric *fab)
{
    int per = (int)CF_K(NVL72_DOMAIN_GPUS) / fab->gpus_per_node;
    return per < 1 ? 1 : per;
}

int cf__scaleout_domains(const cf_fabric *fab, int nodes)
{
    int per;
    if (fab->intra_link != CF_INTRA_NVL72) return nodes;
    per = nvl72_trays(fab);
    return (nodes + per - 1) / per;
}

int cf__has_scaleout_network(const cf_fabric *fab)
{
    return fab->network != CF_NET_NONE && fab->network != CF_NET_UNKNOWN;
}

cf_status cf__no_network(const cf_fabric *fab, int nodes, cf_error *err)
{
    char domains[48] = "", nets[128];
    int n = cf__scaleout_domains(fab, nodes);
    if (!err) return CF_EINVAL;
    if (n != nodes) snprintf(domains, sizeof domains, " (%d NVLink domains)", n);
    joining_networks(nets, sizeof nets);
    cf_error_set_param(err, "nodes", "nodes %d%s needs a network between the nodes; the fabric's "
                       "network is %s (for several nodes: %s)", nodes, domains,
                       cf_network_name(fab->network), nets);
    return CF_EINVAL;
}

/* The scale-out network that joins s->N > 1 nodes (NVLink domains). */
static cf_status network_check(const cf_fabric *fab, const cf_coll_query *q, const shape *s,
                               cf_error *err)
{
    char domains[48] = "";
    if (!err) {
        if (!cf__has_scaleout_network(fab)) return CF_EINVAL;
        if (fab->nics_per_node < 1 || !(fab->nic_gbps > 0)) return CF_EINVAL;
        return CF_OK;
    }
    if (!cf__has_scaleout_network(fab)) return cf__no_network(fab, q->nodes, err);
    if (s->N != q->nodes) snprintf(domains, sizeof domains, " (%d NVLink domains)", s->N);
    if (fab->nics_per_node < 1) {
        cf_error_set_param(err, "nics", "nics expects an integer from 1 to %d with network %s on "
                           "%d nodes%s, got %d", CF_MAX_NICS_PER_NODE, cf_network_name(fab->network),
                           q->nodes, domains, fab->nics_per_node);
        return CF_EINVAL;
    }
    if (!(fab->nic_gbps > 0)) {
        cf_error_set_param(err, "nic_gbps", "nic_gbps expects a number from %g to %g (Gbit/s per "
                           "NIC) with network %s on %d nodes%s, got %g", CF_LINE_GBPS_MIN,
                           CF_LINE_GBPS_MAX, cf_network_name(fab->network), q->nodes, domains,
                           fab->nic_gbps);
        return CF_EINVAL;
    }
    return CF_OK;
}

/* The query's own fields and the node's GPUs, in the order resolve meets
 * them; CF_OK or CF_EINVAL with err set. *gpu = known when the caller has
 * looked the fabric's GPU up already, else cf__gpu_check's. */
static cf_status query_check(const cf_fabric *fab, const cf_coll_query *q, const cf_gpu_spec *known,
                             const cf_gpu_spec **gpu, cf_error *err)
{
    int g, k;
    if (q->collective < 0 || q->collective >= CF_COLL__COUNT) {
        if (err)
            cf_error_set_param(err, "collective", "collective %d is not one the model knows "
                               "(accepted: %s)", (int)q->collective, cf_collective_accepted());
        return CF_EINVAL;
    }
    if (q->algo < 0 || q->algo >= CF_ALGO__COUNT) {
        if (err)
            cf_error_set_param(err, "algo", "algo %d is not one the model knows (accepted: %s)",
                               (int)q->algo, cf_algo_accepted());
        return CF_EINVAL;
    }
    if (known) *gpu = known;
    else if (cf__gpu_check(fab->gpu, gpu, err) != CF_OK) return CF_EINVAL;
    g = fab->gpus_per_node;
    if (cf__int_check("gpus_per_node", g, 1, CF_MAX_GPUS_PER_NODE, err) != CF_OK) return CF_EINVAL;
    k = q->ranks_per_node ? q->ranks_per_node : g;
    if (k < 1 || k > g) {
        if (err && k < 1)
            cf_error_set_param(err, "ranks_per_node", "ranks_per_node %d is below 1 (0 means every "
                               "GPU of the node)", k);
        else if (err)
            cf_error_set_param(err, "ranks_per_node", "ranks_per_node %d exceeds the node's %d GPUs",
                               k, g);
        return CF_EINVAL;
    }
    if (q->nodes < 1) {
        if (err) cf_error_set_param(err, "nodes", "nodes expects at least 1, got %d", q->nodes);
        return CF_EINVAL;
    }
    /* The rank count must fit an int (cf_coll_result.ranks). */
    if ((long)q->nodes * k > INT_MAX) {
        if (err)
            cf_error_set_param(err, "nodes", "nodes %d x %d ranks per node is more ranks than the "
                               "model counts (%d)", q->nodes, k, INT_MAX);
        return CF_EINVAL;
    }
    return CF_OK;
}

static cf_status resolve(const cf_fabric *fab, const cf_gpu_spec *known, const cf_coll_query *q,
                         shape *s, cf_error *err)
{
    const cf_gpu_spec *gpu;
    int g, k, nodes, nics;
    double reach, nic_GBps;
    memset(s, 0, sizeof *s);
    if (!fab || !q) {
        cf_error_set(err, NULL, 0, 0, "no fabric or no query");
        return CF_EINVAL;
    }
    if (query_check(fab, q, known, &gpu, err) != CF_OK) return CF_EINVAL;
    g = fab->gpus_per_node;
    k = q->ranks_per_node ? q->ranks_per_node : g;
    nodes = q->nodes;
    nics = fab->nics_per_node;
    /* An NVL72 rack is one node: merge its trays (GPUs, ranks and NICs). */
    if (fab->intra_link == CF_INTRA_NVL72) {
        int per = nvl72_trays(fab);
        int trays = nodes < per ? nodes : per;
        if ((long)nics * trays > INT_MAX) {
            if (err)
                cf_error_set_param(err, "nics", "nics %d x %d trays of an NVL72 rack is more NICs "
                                   "than the model counts", nics, trays);
            return CF_EINVAL;
        }
        s->N = cf__scaleout_domains(fab, nodes);
        g *= trays;
        k *= trays;
        nics *= trays;
    } else {
        s->N = nodes;
    }
    s->k = k;
    s->n = s->N * k;
    s->coll = q->collective;
    s->hbm = isnan(gpu->hbm_GBps) || gpu->hbm_GBps <= 0 ? CF_K(HBM_FALLBACK_GBPS) : gpu->hbm_GBps;
    if (intra_limits(fab, gpu, s, err) != CF_OK) return CF_EINVAL;
    if (s->N == 1) return CF_OK;
    if (network_check(fab, q, s, err) != CF_OK) return CF_EINVAL;
    nic_GBps = fab->nic_gbps / 8.0;
    s->eta = eta_at(fab, s->N, &s->assumed);
    s->gdr = gdr_factor(fab, gpu);
    s->hop_us = hop_extra_us(fab);
    /* Simple waits for a flush of what GPUDirect wrote into GPU memory;
     * sockets land in host memory and copy, no flush. */
    s->simple_hops = fab->network == CF_NET_TCP ? 1.0 : CF_K(NET_HOP_SIMPLE_FACTOR);
    s->collnet_ok = fab->in_network_reduction == CF_CAP_YES;
    /* The NICs k ranks reach: their share of the node's, at least one. */
    reach = (double)nics * k / g;
    if (reach < 1) reach = 1;
    s->window = reach * CF_K(NET_WINDOW_PER_NIC);
    if (fab->network == CF_NET_TCP) {
        /* Sockets: the transport's ceiling, then the congestion share. */
        double eta_c = s->eta / CF_K(ETA_TCP);
        s->net_node = socket_ceiling(reach, nic_GBps) * eta_c;
        reach = (double)nics / g;
        if (reach < 1) reach = 1;
        s->net_gpu = socket_ceiling(reach, nic_GBps) * eta_c;
        return CF_OK;
    }
    s->net_node = reach * nic_GBps * s->eta * s->gdr;
    if (gpudirect_tcp(fab)) tcpx_floor(s, fab, reach, nic_GBps);
    reach = (double)nics / g;
    if (reach < 1) reach = 1;
    s->net_gpu = reach * nic_GBps * s->eta * s->gdr;
    if (gpudirect_tcp(fab))
        s->net_gpu = fmax(s->net_gpu, socket_ceiling(reach, nic_GBps) * s->eta / eta_family(fab));
    return CF_OK;
}

/* One candidate: busbw limit (and which side binds) and latency. */
typedef struct cand {
    cf_algo algo;
    int proto;
    double busbw, lat;
    double intra, inter;
} cand;

static double lat_hw(int hw, int tree, int proto)
{
    static const cf__kid nvl[2][P__N] = {
        {CF_K_LAT_NVL_RING_LL, CF_K_LAT_NVL_RING_LL128, CF_K_LAT_NVL_RING_SIMPLE},
        {CF_K_LAT_NVL_TREE_LL, CF_K_LAT_NVL_TREE_LL128, CF_K_LAT_NVL_TREE_SIMPLE}};
    static const cf__kid pci[2][P__N] = {
        {CF_K_LAT_PCI_RING_LL, CF_K_LAT_PCI_RING_LL128, CF_K_LAT_PCI_RING_SIMPLE},
        {CF_K_LAT_PCI_TREE_LL, CF_K_LAT_PCI_TREE_LL128, CF_K_LAT_PCI_TREE_SIMPLE}};
    return cf__model_constants[(hw == HW_NVL ? nvl : pci)[tree][proto]].value;
}

/* One network step: NCCL's tuner row (InfiniBand verbs) plus the
 * transport's own cost per step (s->hop_us). */
static double lat_net(const shape *s, int tree, int proto)
{
    static const cf__kid net[2][P__N] = {
        {CF_K_LAT_NET_RING_LL, CF_K_LAT_NET_RING_LL128, CF_K_LAT_NET_RING_SIMPLE},
        {CF_K_LAT_NET_TREE_LL, CF_K_LAT_NET_TREE_LL128, CF_K_LAT_NET_TREE_SIMPLE}};
    return cf__model_constants[net[tree][proto]].value + s->hop_us * (proto == P_SIMPLE ? s->simple_hops : 1.0);
}

static double lat_base(int tree, int proto)
{
    static const cf__kid base[2][P__N] = {
        {CF_K_LAT_BASE_RING_LL, CF_K_LAT_BASE_RING_LL128, CF_K_LAT_BASE_RING_SIMPLE},
        {CF_K_LAT_BASE_TREE_LL, CF_K_LAT_BASE_TREE_LL128, CF_K_LAT_BASE_TREE_SIMPLE}};
    return cf__model_constants[base[tree][proto]].value;
}

/* Ring latency as NCCL's tuner: base + intra steps + inter-node steps. */
static double ring_latency(const shape *s, int proto)
{
    int nsteps, ninter;
    double lat;
    switch (s->coll) {
    case CF_COLL_ALL_REDUCE:
        nsteps = 2 * (s->n - 1);
        ninter = 2 * (s->N - 1);
        break;
    case CF_COLL_ALL_GATHER:
    case CF_COLL_REDUCE_SCATTER:
        nsteps = s->n - 1;
        ninter = s->N - 1;
        break;
    case CF_COLL_BROADCAST:
    case CF_COLL_REDUCE:
        /* A pipelined chain: NCCL's tuner charges one step (sameChannels),
         * of the network when the chain leaves the node. */
        return lat_base(0, proto) + (s->N > 1 ? lat_net(s, 0, proto) : lat_hw(s->intra_hw, 0, proto));
    default:
        nsteps = s->n;
        ninter = s->N > 1 ? s->N : 0;
        break;
    }
    lat = lat_base(0, proto) + (nsteps - ninter) * lat_hw(s->intra_hw, 0, proto) +
          ninter * lat_net(s, 0, proto);
    /* PAT (NCCL 2.23+): all_gather/reduce_scatter with one rank per node
     * take log2(N) network steps instead of N-1. */
    if ((s->coll == CF_COLL_ALL_GATHER || s->coll == CF_COLL_REDUCE_SCATTER) && s->k == 1 &&
        s->N > 2 && proto == P_SIMPLE) {
        double pat = lat_base(0, proto) + log2i(s->N) * lat_net(s, 0, proto);
        if (pat < lat) lat = pat;
    }
    return lat;
}

static double tree_latency(const shape *s, int proto)
{
    return lat_base(1, proto) +
           2.0 * ((s->k - 1) * lat_hw(s->intra_hw, 1, proto) + log2i(s->N) * lat_net(s, 1, proto));
}

/* Protocol factor on busbw (NCCL tuner refinements). */
static double proto_factor(const shape *s, cf_algo a, int proto)
{
    if (proto == P_SIMPLE) return 1.0;
    if (a == CF_ALGO_TREE) {
        if (proto == P_LL) return CF_K(PROTO_LL_TREE);
        return s->N == 1 ? CF_K(PROTO_LL128_TREE_1NODE) : CF_K(PROTO_LL128);
    }
    if (proto == P_LL)
        return (s->N > 1 || s->coll == CF_COLL_ALL_REDUCE || s->coll == CF_COLL_REDUCE)
                   ? CF_K(PROTO_LL_RING_ALLREDUCE)
                   : CF_K(PROTO_LL_RING_OTHER);
    return CF_K(PROTO_LL128);
}

/* Trees at 4+ nodes reach less of the NICs than L(N) alone gives: interior
 * nodes forward while they reduce, and NCCL runs fewer tree channels
 * (TREE_DEEP_EFF, NVLSTREE_DEEP_EFF; 1 below 4 nodes). */
static double tree_deep(const shape *s, cf_algo a)
{
    if (s->N < 4) return 1.0;
    return a == CF_ALGO_NVLSTREE ? CF_K(NVLSTREE_DEEP_EFF) : CF_K(TREE_DEEP_EFF);
}

/* Fills c for algorithm a and protocol p; returns 0 if a cannot run. */
static int candidate(const shape *s, cf_algo a, int p, cand *c)
{
    double f_ar = cf_busbw_factor(CF_COLL_ALL_REDUCE, s->n);
    int multi = s->N > 1;
    memset(c, 0, sizeof *c);
    c->algo = a;
    c->proto = p;
    c->intra = s->intra_ring;
    c->inter = INFINITY;
    if (p == P_LL128 && !s->ll128) return 0;
    if (s->coll != CF_COLL_ALL_REDUCE) {
        if (a != CF_ALGO_RING) return 0;
        switch (s->coll) {
        case CF_COLL_ALLTOALL:
        case CF_COLL_HYPERCUBE:
            if (p != P_SIMPLE) return 0;
            if (multi)
                c->inter = s->net_node / s->k * s->N / (s->N - 1) * (s->n - 1) / s->n;
            c->lat = lat_base(0, p) + (multi ? lat_net(s, 0, p) : lat_hw(s->intra_hw, 0, p));
            break;
        case CF_COLL_GATHER:
        case CF_COLL_SCATTER:
            if (p != P_SIMPLE) return 0;
            if (multi) c->inter = s->net_gpu * s->N / (s->N - 1) * (s->n - 1) / s->n;
            c->lat = lat_base(0, p) + (multi ? lat_net(s, 0, p) : lat_hw(s->intra_hw, 0, p));
            break;
        case CF_COLL_SENDRECV:
            if (p != P_SIMPLE) return 0;
            if (multi) c->inter = s->net_gpu;
            c->lat = lat_base(0, p) + (multi ? lat_net(s, 0, p) : lat_hw(s->intra_hw, 0, p));
            break;
        default: /* all_gather, reduce_scatter, broadcast, reduce: rings */
            if (multi) c->inter = s->net_node;
            c->lat = ring_latency(s, p);
            break;
        }
    } else {
        switch (a) {
        case CF_ALGO_RING:
            if (multi) c->inter = s->net_node;
            c->lat = ring_latency(s, p);
            break;
        case CF_ALGO_TREE:
            /* One tree per channel, each through one NIC of the domain: as
             * NVLSTree, at most NVLS_HEADS_MAX NICs (binds on NVL72 only). */
            if (multi)
                c->inter = s->net_node * fmin(1.0, CF_K(NVLS_HEADS_MAX) / s->k) * f_ar / tree_L(s->N) *
                           tree_deep(s, CF_ALGO_TREE);
            c->lat = tree_latency(s, p);
            break;
        case CF_ALGO_NVLS:
            if (multi || !s->nvls_ok || p != P_SIMPLE) return 0;
            c->intra = s->intra_nvls;
            c->lat = CF_K(LAT_NVLS_INTRA);
            break;
        case CF_ALGO_NVLSTREE:
            if (!multi || !s->nvls_ok || p != P_SIMPLE) return 0;
            c->intra = s->intra_nvls;
            /* NVLSTree sends through one NVLS head per NVLS channel: at
             * most NVLS_HEADS_MAX of a node's k GPUs reach the network
             * (binds only on NVL72 racks, 72 GPUs per domain). */
            c->inter = s->net_node * fmin(1.0, CF_K(NVLS_HEADS_MAX) / s->k) * f_ar / tree_L(s->N) *
                       tree_deep(s, CF_ALGO_NVLSTREE);
            c->lat = CF_K(LAT_NVLS_INTRA) + 2.0 * log2i(s->N) * (CF_K(LAT_NET_NVLSTREE) + s->hop_us * s->simple_hops);
            break;
        case CF_ALGO_COLLNET:
            /* SHARP reduces in the switches: each node sends and receives S
             * once whatever N, as the 2-node tree. */
            if (!multi || p != P_SIMPLE) return 0;
            c->inter = s->net_node * f_ar;
            c->lat = CF_K(LAT_NET_COLLNET) + s->hop_us * s->simple_hops + 2.0 * (s->k - 1) * lat_hw(s->intra_hw, 1, p);
            break;
        default:
            return 0;
        }
    }
    c->busbw = (c->intra < c->inter ? c->intra : c->inter) * proto_factor(s, a, p);
    c->lat += CF_K(LAT_LAUNCH);
    return 1;
}

/* Bytes that cross at busbw: f x S, or S(n-1)/n for hypercube (whose busbw
 * is defined as its algbw, S(n-1)/(n t)). */
static double eff_bytes(cf_collective c, double S, int n)
{
    if (c == CF_COLL_HYPERCUBE) return S * (n - 1) / n;
    return S * cf_busbw_factor(c, n);
}

/* Collectives NCCL runs as grouped send/recv (p2p channels and buffers). */
static int is_p2p(cf_collective c)
{
    return c == CF_COLL_ALLTOALL || c == CF_COLL_HYPERCUBE || c == CF_COLL_GATHER ||
           c == CF_COLL_SCATTER || c == CF_COLL_SENDRECV;
}

/* Trees do not follow the model at mid sizes: NCCL's tuner scales tree
 * bandwidth by treeCorrectionFactor, a dip to about half between 64 KiB and
 * 16 MiB (tuning.cc). Here a smooth fit of its rows: 1 - TREE_DIP_DEPTH x
 * exp(-((log2(S/64) - TREE_DIP_CENTER_LOG2) / TREE_DIP_WIDTH_LOG2)^2). */
static double tree_correction(double S)
{
    double i = log2(S > 64 ? S / 64 : 1), z = (i - CF_K(TREE_DIP_CENTER_LOG2)) / CF_K(TREE_DIP_WIDTH_LOG2);
    return 1.0 - CF_K(TREE_DIP_DEPTH) * exp(-z * z);
}

/* The pipeline's fill: min(S_eff, window) crosses once more at busbw. The
 * window is what NCCL keeps in flight: NET_WINDOW_PER_NIC per NIC reached
 * across nodes, INTRA_WINDOW_BYTES inside an NVLink domain; LL's buffers
 * hold LL_WINDOW_FRAC of Simple's (LL128's about as much as Simple's). */
static double cand_time_us(const shape *s, const cand *c, double S)
{
    double b = eff_bytes(s->coll, S, s->n);
    double w = s->N > 1 ? s->window : s->intra_window;
    double fill, bw = c->busbw;
    /* Point-to-point collectives pipeline through the p2p buffers. */
    if (is_p2p(s->coll)) w *= CF_K(P2P_WINDOW_FRAC);
    if (c->proto == P_LL) w *= CF_K(LL_WINDOW_FRAC);
    fill = fmin(b, w);
    if (s->coll == CF_COLL_ALL_REDUCE && (c->algo == CF_ALGO_TREE || c->algo == CF_ALGO_NVLSTREE))
        bw *= tree_correction(S);
    return c->lat + (b + fill) / (bw * 1e3);
}

/* Whether NCCL's auto would consider algorithm a for this shape: ring for
 * every collective; for all_reduce also Tree (across nodes on NVLS systems
 * too: NCCL keeps it, and it wins small messages), NVLS / NVLSTree where
 * NCCL enables NVLS (candidate() checks), and CollNet only where the fabric
 * states in-network reduction (SHARP switches). */
static int auto_allows(const shape *s, cf_algo a)
{
    if (a == CF_ALGO_COLLNET) return s->collnet_ok;
    if (s->coll != CF_COLL_ALL_REDUCE) return a == CF_ALGO_RING;
    return 1;
}

/* Why the requested algorithm (or, for auto, every one) cannot run: the
 * conditions candidate() and auto_allows() apply, in words. */
static void algo_refusal(const shape *s, const cf_coll_query *q, cf_error *err)
{
    cf_algo a = q->algo;
    const char *an = cf_algo_name(a);
    char why[160];
    if (a == CF_ALGO_AUTO)
        snprintf(why, sizeof why, "no algorithm gives a bandwidth");
    else if (s->coll != CF_COLL_ALL_REDUCE && a != CF_ALGO_RING)
        snprintf(why, sizeof why, "collectives other than all_reduce use ring");
    else if (a == CF_ALGO_NVLS && s->N > 1)
        snprintf(why, sizeof why, "nvls runs within one node (nvlstree across nodes)");
    else if ((a == CF_ALGO_NVLSTREE || a == CF_ALGO_COLLNET) && s->N == 1)
        snprintf(why, sizeof why, "%s needs several nodes", an);
    else if ((a == CF_ALGO_NVLS || a == CF_ALGO_NVLSTREE) && !s->nvls_ok)
        snprintf(why, sizeof why, "%s needs NVSwitch NVLink4 or newer and at least %d ranks per "
                 "node", an, (int)CF_K(NVLS_MIN_RANKS_PER_NODE));
    else
        snprintf(why, sizeof why, "no protocol of %s gives a bandwidth", an);
    cf_error_set_param(err, "algo", "the model cannot run algo %s for %s on this fabric: %s "
                       "(accepted: %s)", an, cf_collective_name(q->collective), why,
                       cf_algo_accepted());
}

cf_status cf_collective_explain(const cf_fabric *fab, const cf_coll_query *q,
                                cf_coll_result *out, cf_coll_detail *detail, cf_error *err)
{
    return cf__collective_explain_gpu(fab, NULL, q, out, detail, err);
}

cf_status cf__collective_explain_gpu(const cf_fabric *fab, const cf_gpu_spec *gpu,
                                     const cf_coll_query *q, cf_coll_result *out,
                                     cf_coll_detail *detail, cf_error *err)
{
    shape s;
    cand best, c;
    double S, t = 0;
    int found = 0;
    cf_status st;
    if (!out) {
        cf_error_set(err, NULL, 0, 0, "no result to fill");
        return CF_EINVAL;
    }
    memset(out, 0, sizeof *out);
    st = resolve(fab, gpu, q, &s, err);
    if (st != CF_OK) return st;
    S = (double)q->bytes;
    memset(&best, 0, sizeof best);
    if (s.n == 1) {
        /* One rank: NCCL copies the buffer locally (read + write of HBM). */
        best.algo = CF_ALGO_RING;
        best.proto = P_SIMPLE;
        best.lat = CF_K(LAT_LAUNCH);
        best.intra = s.hbm / 2;
        best.inter = INFINITY;
        t = best.lat + S / (best.intra * 1e3);
        found = 1;
    } else {
        for (int a = CF_ALGO_RING; a < CF_ALGO__COUNT; a++) {
            if (q->algo == CF_ALGO_AUTO ? !auto_allows(&s, (cf_algo)a) : a != (int)q->algo)
                continue;
            for (int p = 0; p < P__N; p++) {
                double tc;
                if (!candidate(&s, (cf_algo)a, p, &c) || !(c.busbw > 0)) continue;
                tc = cand_time_us(&s, &c, S);
                if (!found || tc < t) {
                    best = c;
                    t = tc;
                    found = 1;
                }
            }
        }
    }
    if (!found) {   /* the requested algorithm cannot run here */
        if (err) algo_refusal(&s, q, err);
        return CF_EINVAL;
    }
    out->collective = q->collective;
    out->message_bytes = q->bytes;
    out->nodes = q->nodes;
    out->ranks = q->nodes * (q->ranks_per_node ? q->ranks_per_node : fab->gpus_per_node);
    out->algo = best.algo;
    out->protocol = proto_names[best.proto];
    out->algo_asked = q->algo != CF_ALGO_AUTO;
    out->time_us = t;
    out->algbw_GBps = t > 0 ? S / (t * 1e3) : 0;
    if (q->collective == CF_COLL_HYPERCUBE && out->ranks > 0)
        out->algbw_GBps *= (double)(out->ranks - 1) / out->ranks;
    out->assumed = s.N > 1 ? s.assumed : 0;
    out->busbw_GBps = q->collective == CF_COLL_HYPERCUBE
                          ? out->algbw_GBps
                          : out->algbw_GBps * cf_busbw_factor(q->collective, out->ranks);
    if (best.lat > 0.5 * t)
        out->bottleneck = CF_BOTTLENECK_LATENCY;
    else
        out->bottleneck = best.inter < best.intra ? CF_BOTTLENECK_INTER_NODE : CF_BOTTLENECK_INTRA_NODE;
    if (detail) {
        detail->intra_busbw_GBps = best.intra;
        detail->inter_busbw_GBps = best.inter;
        detail->eta = s.eta;
        detail->latency_us = best.lat;
        detail->nodes_eff = s.N;
        detail->ranks_per_node_eff = s.k;
        detail->protocol = proto_names[best.proto];
    }
    return CF_OK;
}

cf_status cf_collective_predict(const cf_fabric *fab, const cf_coll_query *q, cf_coll_result *out,
                                cf_error *err)
{
    return cf_collective_explain(fab, q, out, NULL, err);
}

json_t *cf_coll_result_to_json(const cf_coll_result *r)
{
    json_t *j = json_object();
    if (!j) return NULL;
    if (json_object_set_new(j, "collective", json_string(cf_collective_name(r->collective))) ||
        json_object_set_new(j, "message_bytes", json_integer((json_int_t)r->message_bytes)) ||
        json_object_set_new(j, "nodes", json_integer(r->nodes)) ||
        json_object_set_new(j, "ranks", json_integer(r->ranks)) ||
        json_object_set_new(j, "algo", json_string(cf_algo_name(r->algo))) ||
        json_object_set_new(j, "protocol", r->protocol ? json_string(r->protocol) : json_null()) ||
        json_object_set_new(j, "algo_source", json_string(r->algo_asked ? CF_ALGO_SOURCE_ASKED
                                                                        : CF_ALGO_SOURCE_MODEL)) ||
        json_object_set_new(j, "time_us", json_real(r->time_us)) ||
        json_object_set_new(j, "algbw_GBps", json_real(r->algbw_GBps)) ||
        json_object_set_new(j, "busbw_GBps", json_real(r->busbw_GBps)) ||
        json_object_set_new(j, "bottleneck", json_string(cf_bottleneck_name(r->bottleneck)))) {
        json_decref(j);
        return NULL;
    }
    {
        /* The band of the model's error out of sample (model/interval.c):
         * a slower time is a lower busbw. */
        double lo, hi;
        int bad = cf_band_json_set(j, "time_us", r->time_us, cf_error_class_collective(r->message_bytes));
        cf_busbw_band(r->busbw_GBps, r->message_bytes, &lo, &hi);
        bad |= cf__json_set(j, "busbw_GBps_p10", cf__json_num(lo));
        bad |= cf__json_set(j, "busbw_GBps_p90", cf__json_num(hi));
        if (bad) {
            json_decref(j);
            return NULL;
        }
    }
    return j;
}

/* How a CF_ALGO_SOURCE_* name reads in a sentence. */
static const char *algo_source_label(const char *src)
{
    static const struct { const char *name, *label; } labels[] = {
        {CF_ALGO_SOURCE_MODEL, "model"},         {CF_ALGO_SOURCE_ASKED, "asked"},
        {CF_ALGO_SOURCE_NCCL_LOG, "NCCL log"},   {CF_ALGO_SOURCE_NCCL_ALGO, "NCCL_ALGO"},
        {CF_ALGO_SOURCE_LINE_RATE, "line rate x efficiency"},
    };
    for (size_t i = 0; i < sizeof labels / sizeof labels[0]; i++)
        if (strcmp(src, labels[i].name) == 0) return labels[i].label;
    return src;
}

int cf_coll_expect_text(char *buf, size_t n, double busbw_GBps, cf_algo algo, const char *protocol,
                        const char *source)
{
    int has_proto = protocol && protocol[0], has_src = source && source[0];
    return snprintf(buf, n, "%.*f GB/s busbw (%s%s%s%s%s)", busbw_GBps < 10 ? 1 : 0, busbw_GBps,
                    cf_algo_label(algo), has_proto ? ", " : "", has_proto ? protocol : "",
                    has_src ? ", " : "", has_src ? algo_source_label(source) : "");
}
