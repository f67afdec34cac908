/* verdict.c — the facts of one run (DESIGN §5), from its group's merged
 * evidence: its shape (ranks, nodes, GPUs per node), the transport really
 * used (the net family of its channel lines, then NCCL's "Using network",
 * then its devices and port dumps), the GDR state (per rank, from the
 * channels' /GDRDMA, else NCCL's GPU/HCA lines) and the busbw to expect:
 * the collective model's prediction with GDR on (cf_collective_predict,
 * the call `predict collective` makes: one expectation, issue 20) at the
 * largest message measured, under the algorithm NCCL used when the log
 * shows it (a tuning line, NCCL_ALGO) and the model's own pick otherwise,
 * for the offering, --expect-gbps or the node's NICs (node NIC evidence,
 * audit_int.h: ibstat / ibv_devinfo / probe ports, the offering, a
 * topology matrix), not only the ones NCCL chose; and how many of them
 * NCCL uses.
 *
 * Shape: reads the state, writes only the verdict; no finding is added
 * here (findings.c judges the verdict). The η fallback is the collective
 * model's (cf_model_constants); the GPU of a device name comes from the
 * table below. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "audit/audit_int.h"
#include "clusterfit/collective.h"
#include "clusterfit/hardware.h"
#include "base/base.h"
#include "model/model_int.h"    /* CF_K: the model's constants */

/* The most GPUs one node holds: 16 (DGX-2 / HGX-2 boards; 8 on HGX H100 /
 * B200 and MI300X platforms, 4 on GB200 trays). A ranks ÷ nodes above it
 * means the counts do not describe one job: neither is kept for nodes. */
#define MAX_GPUS_PER_NODE 16

/* Ring busbw ÷ per-node line rate (GB/s), GDR on: the collective model's
 * table (model/constants.def, DESIGN §4.2), used when the model itself
 * cannot be asked (GPU or node count not shown). */
static double eta_of(cf_network n)
{
    switch (n) {
    case CF_NET_IB: return CF_K(ETA_IB);
    case CF_NET_ROCE: return CF_K(ETA_ROCE);
    case CF_NET_EFA: return CF_K(ETA_EFA);
    case CF_NET_TCPX: return CF_K(ETA_TCPX);
    case CF_NET_TCPXO: return CF_K(ETA_TCPXO);
    case CF_NET_TCP: return CF_K(ETA_TCP);
    default: return CF_K(ETA_RDMA);     /* network not shown: IB or RoCE, unstated */
    }
}

/* The GPU of a device name as nccl-tests / nvidia-smi print it ("NVIDIA
 * A100-SXM4-40GB", "Tesla T4", "NVIDIA H100 80GB HBM3") in the vocabulary
 * of DESIGN §2, with the usual intra-node link of that board: the
 * device_names and intra_link columns of data/gpus.csv, longest match
 * (cf_gpu_from_device_name). 0 if not recognised. */
static int gpu_of_name(const char *name, const char **gpu, cf_intra_link *link)
{
    const cf_gpu_spec *g;
    if (cf_gpu_from_device_name(name, &g) != CF_OK) return 0;
    *gpu = g->name;
    *link = g->intra_link;
    return 1;
}

/* 1 if port pt (of link layer ll, CF__LL_UNKNOWN: any) is among the
 * devices NCCL listed for run g. */
int cf__audit_port_named(const cf_audit *a, int g, const cf__port *pt, int ll)
{
    const cf__audit_netev *e = &a->segs[g]->ev;
    for (int i = 0; i < e->n_ibdevs; i++) {
        const cf__ibdev *d = &e->ibdevs[i].d;
        if (strcmp(d->name, pt->ca) == 0 && (d->port <= 0 || d->port == pt->port) &&
            (ll == CF__LL_UNKNOWN || d->ll == CF__LL_UNKNOWN || d->ll == ll))
            return 1;
    }
    return 0;
}

static long count_distinct_rank_hosts(const cf__audit_seg *g, int *all_have_host)
{
    uint64_t seen[256];
    long n = 0;
    *all_have_host = 1;
    for (size_t i = 0; i < g->ranks.cap; i++) {
        const cf__kv *e = &g->ranks.slots[i];
        long k;
        if (!e->key) continue;
        if (!e->v[CF__RANKS_HOST]) {
            *all_have_host = 0;
            continue;
        }
        for (k = 0; k < n; k++)
            if (seen[k] == (uint64_t)e->v[CF__RANKS_HOST]) break;
        if (k == n) {
            if (n >= 256) return -1;
            seen[n++] = (uint64_t)e->v[CF__RANKS_HOST];
        }
    }
    return n;
}

static void decide_shape(cf_audit *a, int g, cf__audit_verdict *v)
{
    const cf__audit_seg *s = a->segs[g];
    long ranks = -1, nodes = -1;
    int gap = 0;
    cf__audit_run *lr = v->last_run >= 0 ? a->parts[v->last_run].r : NULL;
    if (s->ev.nranks > 0) ranks = s->ev.nranks;
    if (s->max_rank_seen >= 0 && s->max_rank_seen + 1 > ranks) ranks = s->max_rank_seen + 1;
    if (s->la.np > 0) {
        long per = 1;
        if (lr && lr->ngpus > 0) per = lr->ngpus * (lr->nthread > 0 ? lr->nthread : 1);
        if (s->la.np * per > ranks) ranks = s->la.np * per;
    }
    for (int i = 0; i < a->nparts; i++)
        if (a->parts[i].kind == CF__PART_PERF && cf__audit_part_root(a, i) == g && a->parts[i].r->list_gap) gap = 1;
    if (ranks > 0) {
        int all_host;
        long distinct = count_distinct_rank_hosts(s, &all_host);
        if (!gap && all_host && (long)s->ranks.n == ranks && distinct > 0) nodes = distinct;
        else if ((long)s->hosts.n == ranks) nodes = (long)s->hosts.n;
    }
    if (nodes < 0 && s->ev.nnodes > 0 && s->ev.nranks == ranks) nodes = s->ev.nnodes;   /* NCCL's own count */
    if (nodes < 0 && s->la.hosts > 0 && (long)s->hosts.n <= s->la.hosts) nodes = s->la.hosts;
    if (nodes > 0 && ranks > 0 && (nodes > ranks || ranks / nodes > MAX_GPUS_PER_NODE)) nodes = -1;
    v->ranks = ranks;
    v->nodes = nodes;
    v->gpn = (ranks > 0 && nodes > 0 && ranks % nodes == 0) ? ranks / nodes : -1;
}

static int ports_link_layer(const cf_audit *a, int g)
{
    int ib = 0, eth = 0;
    for (int i = 0; i < a->nparts; i++) {
        const cf__audit_part *p = &a->parts[i];
        if (!p->ports || cf__audit_part_root(a, i) != g) continue;
        for (int k = 0; k < p->nports; k++) {
            if (p->ports[k].active != 1) continue;
            if (p->ports[k].ll == CF__LL_IB) ib++;
            else if (p->ports[k].ll == CF__LL_ETH) eth++;
        }
    }
    if (ib) return CF__LL_IB;
    if (eth) return CF__LL_ETH;
    return CF__LL_UNKNOWN;
}

/* 1 if the ports of run g's dumps that NCCL names all have an Ethernet
 * link layer (RoCE) and at least one does. */
static int named_ports_ethernet(const cf_audit *a, int g)
{
    int eth = 0, other = 0;
    for (int i = 0; i < a->nparts; i++) {
        const cf__audit_part *p = &a->parts[i];
        if (!p->ports || cf__audit_part_root(a, i) != g) continue;
        for (int k = 0; k < p->nports; k++) {
            if (!cf__audit_port_named(a, g, &p->ports[k], CF__LL_UNKNOWN)) continue;
            if (p->ports[k].ll == CF__LL_ETH) eth++;
            else if (p->ports[k].ll == CF__LL_IB) other++;
        }
    }
    return eth > 0 && other == 0;
}

/* IB verbs over InfiniBand or over Ethernet (RoCE). RoCE when the devices
 * the channels use are RoCE, or when the input shows RoCE whatever label
 * NCCL's device list carries: a software RoCE device (rxe), an IPv4-mapped
 * GID or a GID index above 0 (InfiniBand uses GID 0), NCCL_IB_GID_INDEX
 * (NCCL's env line, or N > 0 on a launcher, export or env listing: 3 is the
 * usual RoCEv2 index) or NCCL_IB_ROCE_VERSION_NUM, or port dumps that give the devices NCCL names an Ethernet link layer. */
static cf_network ib_or_roce(const cf_audit *a, int g)
{
    const cf__audit_netev *e = &a->segs[g]->ev;
    int ib = 0, eth = 0, pl;
    if (e->ch_ll[CF__LL_ETH] > e->ch_ll[CF__LL_IB]) return CF_NET_ROCE;
    if (e->soft_roce || e->roce_gid || e->gid_index > 0 || named_ports_ethernet(a, g)) return CF_NET_ROCE;
    if (a->segs[g]->hints.gid_index.at.line && e->ch_ll[CF__LL_IB] == 0) return CF_NET_ROCE;  /* set for the job */
    if (e->ch_ll[CF__LL_IB] > 0) return CF_NET_IB;
    for (int i = 0; i < e->n_ibdevs; i++) {
        if (e->ibdevs[i].d.ll == CF__LL_IB) ib++;
        else if (e->ibdevs[i].d.ll == CF__LL_ETH) eth++;
    }
    if (ib) return CF_NET_IB;
    if (eth) return CF_NET_ROCE;
    pl = ports_link_layer(a, g);
    if (pl == CF__LL_ETH) return CF_NET_ROCE;
    return CF_NET_IB;
}

static cf_network of_family(const cf_audit *a, int g, int fam, const char *name)
{
    switch (fam) {
    case CF__NCCLNET_IB: return ib_or_roce(a, g);
    case CF__NCCLNET_SOCKET:
    case CF__NCCLNET_FASTSOCKET: return CF_NET_TCP;
    case CF__NCCLNET_TCPX: return CF_NET_TCPX;
    case CF__NCCLNET_TCPXO: return CF_NET_TCPXO;
    case CF__NCCLNET_OFI: {
        const char *pv = a->segs[g]->ev.ofi_provider;
        if (cf__strcasecmp(pv, "efa") == 0 || cf__starts(pv, strlen(pv), "efa")) return CF_NET_EFA;
        if (cf__starts(pv, strlen(pv), "tcp") || cf__starts(pv, strlen(pv), "sockets") ||
            cf__starts(pv, strlen(pv), "udp"))
            return CF_NET_TCP;
        if (!pv[0] && name && strstr(name, "AWS")) return CF_NET_EFA;
        return CF_NET_UNKNOWN;
    }
    default: return CF_NET_UNKNOWN;
    }
}

static void decide_network(cf_audit *a, int g, cf__audit_verdict *v)
{
    const cf__audit_netev *e = &a->segs[g]->ev;
    long best = 0;
    int fam = CF__NCCLNET_UNKNOWN;
    for (int f = 1; f < CF__NCCLNET__COUNT; f++) {
        if (e->ch[f] > best) {
            best = e->ch[f];
            fam = f;
        }
    }
    v->fam = fam;
    if (fam != CF__NCCLNET_UNKNOWN) {
        v->net = of_family(a, g, fam, e->ch_net);
        return;
    }
    if (e->sock_loopback && !e->sock_other && (e->net_family == CF__NCCLNET_SOCKET || e->net_family == CF__NCCLNET_UNKNOWN) &&
        e->n_ibdevs == 0 && !e->completion && (v->nodes < 0 || v->nodes == 1) && a->segs[g]->hosts.n <= 1) {
        /* sockets on loopback only: nothing leaves the node */
        v->nodes = 1;
        if (v->ranks > 0 && v->ranks <= MAX_GPUS_PER_NODE) v->gpn = v->ranks;
        v->net = CF_NET_NONE;
        return;
    }
    if (v->nodes == 1 && !e->completion) {
        v->net = CF_NET_NONE;
        return;
    }
    if (v->nodes < 0 && e->local_channels && e->net_family == CF__NCCLNET_UNKNOWN && e->n_ibdevs == 0 &&
        !e->sock_other && !e->ofi_plugin && !e->completion && a->segs[g]->hosts.n == 1) {
        /* channels inside the node only (P2P, SHM), from one host, no net
         * at all: the input shows one node */
        v->nodes = 1;
        if (v->ranks > 0 && v->ranks <= MAX_GPUS_PER_NODE) v->gpn = v->ranks;
        v->net = CF_NET_NONE;
        return;
    }
    if (e->net_family != CF__NCCLNET_UNKNOWN) {
        v->fam = e->net_family;
        v->net = of_family(a, g, e->net_family, e->net_name);
        return;
    }
    if (e->plugin_used || (e->plugin_name[0] && !e->plugin_fail && e->plugin_family != CF__NCCLNET_OTHER &&
                           e->plugin_family != CF__NCCLNET_IB)) {
        /* no "Using network" and no channel: a plugin whose own lines show it
         * carrying data ("NET/FastSocket : Connected"), or one loaded and not
         * failing whose name tells its transport */
        v->fam = e->plugin_family;
        v->net = of_family(a, g, e->plugin_family, e->plugin_name);
        return;
    }
    if ((e->ib_nodev || e->ibverbs_missing) && e->sock_other && e->n_ibdevs == 0 && !e->ofi_plugin &&
        !e->completion) {
        /* old NCCL prints no "Using network": NET/IB found no device (or no
         * libibverbs) and NET/Socket lists interfaces: sockets carry the data */
        v->fam = CF__NCCLNET_SOCKET;
        v->net = CF_NET_TCP;
        return;
    }
    if (e->n_ibdevs > 0 || e->completion || e->gdr_hca_on || e->gdr_hca_off) {
        v->fam = CF__NCCLNET_IB;
        v->net = ib_or_roce(a, g);
        return;
    }
    if (e->ofi_provider[0]) {
        v->fam = CF__NCCLNET_OFI;
        v->net = of_family(a, g, CF__NCCLNET_OFI, "");
        return;
    }
    switch (ports_link_layer(a, g)) {
    case CF__LL_IB: v->net = CF_NET_IB; break;
    case CF__LL_ETH: v->net = CF_NET_ROCE; break;
    default: v->net = CF_NET_UNKNOWN; break;
    }
}

static void decide_gdr(cf_audit *a, int g, cf__audit_verdict *v)
{
    const cf__audit_netev *e = &a->segs[g]->ev;
    long on = 0, off = 0, mixed = 0;
    if (v->net == CF_NET_TCP || v->net == CF_NET_NONE) {
        v->gdr = CF_GDR_NA;
        return;
    }
    for (size_t i = 0; i < e->rank_gdr.cap; i++) {
        const cf__kv *k = &e->rank_gdr.slots[i];
        if (!k->key) continue;
        if (k->v[CF__RG_RECV_GDR] + k->v[CF__RG_RECV_NOGDR] > 0) {
            if (k->v[CF__RG_RECV_NOGDR] == 0) on++;
            else if (k->v[CF__RG_RECV_GDR] == 0) off++;
            else mixed++;
        } else if (k->v[CF__RG_SEND_GDR] > 0) {
            on++;
        }
    }
    if (on || off || mixed) {
        if (on && !off && !mixed) v->gdr = CF_GDR_ON;
        else if (off && !on && !mixed) v->gdr = CF_GDR_OFF;
        else v->gdr = CF_GDR_PARTIAL;
    } else if (e->gdr_gpu_off && !e->gdr_gpu_on) {
        v->gdr = CF_GDR_OFF;
    } else if (e->gdr_gpu_on && !e->gdr_gpu_off) {
        v->gdr = CF_GDR_ON;
    } else if (e->gdr_gpu_on && e->gdr_gpu_off) {
        v->gdr = CF_GDR_PARTIAL;
    } else if (e->gdr_hca_off && !e->gdr_hca_on) {
        v->gdr = CF_GDR_OFF;
    } else {
        v->gdr = CF_GDR_UNKNOWN;
    }
}

/* A port of a node: CA:port, its rate, whether NCCL names it. */
typedef struct node_port {
    char key[40];
    double rate;
    int named;
} node_port;

/* An EFA device: ibstat calls it "efa_0" and its link layer Unknown,
 * ibv_devinfo "rdmap16s27" with link_layer Unspecified (rdma-core #884,
 * amzn-drivers #114): no IB or Ethernet link layer, but one of the node's
 * RDMA NICs all the same. */
static int is_efa_port(const cf__port *pt)
{
    return (strncmp(pt->ca, "efa", 3) == 0 || strncmp(pt->ca, "rdmap", 5) == 0) && pt->ll == CF__LL_UNKNOWN;
}

static const char *const part_kind_src[CF__PART__COUNT] = {"nccl-tests", "nccl-log", "topo", "ibstat",
                                                           "ibv-devinfo", "framework-log", "probe"};

/* Node NIC evidence of run g (cf__node_nics, audit_int.h): the ports of
 * its dumps (ibstat, ibv_devinfo, and any part that holds ports), else
 * --offering's fabric, else the NIC columns of a topology matrix. Ports
 * count when Active with link layer `ll` (CF__LL_UNKNOWN: any). The rate
 * adds up the NICs a node's ranks can drive: at most one per GPU (no
 * PXN), those NCCL names first, then the fastest. */
static void node_nics_of(const cf_audit *a, int g, const cf__audit_verdict *v, int ll, cf__node_nics *nn)
{
    node_port ports[CF__MAX_PORTS];
    int n = 0, k, take;
    double sum = 0;
    nn->count = -1;
    nn->rdma = 0;
    nn->rate_gbps = NAN;
    nn->rated = 0;
    nn->src = NULL;
    nn->at.file = nn->at.line = 0;
    for (int i = 0; i < a->nparts; i++) {
        const cf__audit_part *p = &a->parts[i];
        if (!p->ports || cf__audit_part_root(a, i) != g) continue;
        for (int j = 0; j < p->nports && n < CF__MAX_PORTS; j++) {
            const cf__port *pt = &p->ports[j];
            char key[40];
            int dup = 0;
            int named = cf__audit_port_named(a, g, pt, CF__LL_UNKNOWN);
            if (pt->active != 1) continue;
            /* a port NCCL's list names counts whatever its link layer (a
             * RoCE port in an IB run's list is one NIC NCCL may use) */
            if (!named && (ll != CF__LL_UNKNOWN ? pt->ll != ll : pt->ll == CF__LL_UNKNOWN && !is_efa_port(pt)))
                continue;
            snprintf(key, sizeof key, "%s:%d", pt->ca, pt->port);
            for (k = 0; k < n; k++)
                if (strcmp(ports[k].key, key) == 0) dup = 1;
            if (dup) continue;
            if (!nn->src) {
                nn->src = part_kind_src[p->kind];
                nn->at.file = p->file;
                nn->at.line = p->first_line;
            }
            memcpy(ports[n].key, key, sizeof key);
            ports[n].rate = pt->rate_gbps;
            ports[n].named = cf__audit_port_named(a, g, pt, ll);
            n++;
        }
    }
    if (n > 0) {
        /* named ports first, then by rate, fastest first */
        for (int i = 0; i < n; i++)
            for (k = i + 1; k < n; k++) {
                int better = ports[k].named > ports[i].named ||
                             (ports[k].named == ports[i].named && !isnan(ports[k].rate) &&
                              (isnan(ports[i].rate) || ports[k].rate > ports[i].rate));
                if (better) {
                    node_port t = ports[i];
                    ports[i] = ports[k];
                    ports[k] = t;
                }
            }
        nn->count = n;
        nn->rdma = 1;
        take = v->gpn > 0 && v->gpn < n ? (int)v->gpn : n;
        for (int i = 0; i < take; i++)
            if (!isnan(ports[i].rate) && ports[i].rate > 0) {
                sum += ports[i].rate;
                nn->rated++;
            }
        if (nn->rated > 0) nn->rate_gbps = sum;
        return;
    }
    if (a->has_fabric) {
        const cf_fabric *f = &a->fabric;
        nn->src = "offering";
        nn->rdma = f->network == CF_NET_IB || f->network == CF_NET_ROCE || f->network == CF_NET_EFA ||
                   f->network == CF_NET_RDMA;
        if (f->network != CF_NET_NONE && f->nics_per_node > 0) {
            nn->count = f->nics_per_node;
            if (f->nic_gbps > 0) {
                nn->rated = f->nics_per_node;
                nn->rate_gbps = f->nics_per_node * f->nic_gbps;
            }
        }
        return;
    }
    for (int i = 0; i < a->nparts; i++) {
        const cf__audit_part *p = &a->parts[i];
        cf__topo_analysis ta;
        if (p->kind != CF__PART_TOPO || cf__audit_part_root(a, i) != g) continue;
        cf__topo_analyze(p->topo, &ta);
        if (ta.nics > nn->count) {
            nn->count = ta.nics;
            nn->src = "topo";
            nn->at.file = p->file;
            nn->at.line = p->first_line;
        }
    }
}

/* Distinct devices NCCL's "NET/IB : Using" lists for run g (one node's
 * ranks list the same ones); -1 when the run does not use NET/IB. */
static int nics_used_of(const cf_audit *a, int g, const cf__audit_verdict *v)
{
    const cf__audit_netev *e = &a->segs[g]->ev;
    int n = 0;
    if (v->fam != CF__NCCLNET_IB || e->n_ibdevs == 0) return -1;
    for (int i = 0; i < e->n_ibdevs; i++) {
        int k;
        for (k = 0; k < i; k++)
            if (strcmp(e->ibdevs[k].d.name, e->ibdevs[i].d.name) == 0 && e->ibdevs[k].d.port == e->ibdevs[i].d.port)
                break;
        if (k == i) n++;
    }
    return n;
}

/* The link layer of the node's NICs that the transport uses: IB or
 * Ethernet for IB verbs; over sockets any RDMA port (what the node could
 * have used); CF__LL_UNKNOWN: any. */
static int node_link_layer(const cf__audit_verdict *v)
{
    if (v->net == CF_NET_ROCE) return CF__LL_ETH;
    if (v->net == CF_NET_IB) return CF__LL_IB;
    return CF__LL_UNKNOWN;
}

/* One algorithm named by an NCCL_ALGO value ("NCCL_ALGO=Ring", as kept):
 * CF_ALGO_AUTO for a list, an exclusion, a per-function rule or a name the
 * model does not know. */
static cf_algo algo_setting(const cf__audit_setting *st)
{
    const char *eq = strchr(st->text, '=');
    if (!st->at.line || !eq) return CF_ALGO_AUTO;
    return cf__nccl_algo(eq + 1, strlen(eq + 1), 0);
}

/* The algorithm the input shows NCCL used, or was told to use, for run g
 * (v->nccl_*), strongest first: NCCL's tuning line at the largest call the
 * log shows, when it names the run's collective or none; NCCL's own
 * "NCCL_ALGO set by environment" line; NCCL_ALGO on the launcher, an
 * export or an env listing. */
static void decide_nccl_algo(const cf_audit *a, int g, cf__audit_verdict *v)
{
    const cf__audit_seg *s = a->segs[g];
    const cf__audit_netev *e = &s->ev;
    cf_collective c = v->coll == CF_COLL_UNKNOWN ? CF_COLL_ALL_REDUCE : v->coll;
    cf_algo k;
    v->nccl_algo = CF_ALGO_AUTO;
    v->nccl_proto = v->nccl_algo_src = NULL;
    if (e->tuned_bytes >= 0 && e->tuned_algo != CF_ALGO_AUTO &&
        (e->tuned_coll == CF_COLL_UNKNOWN || e->tuned_coll == c)) {
        v->nccl_algo = e->tuned_algo;
        v->nccl_proto = e->tuned_proto;
        v->nccl_algo_src = CF_ALGO_SOURCE_NCCL_LOG;
        v->nccl_algo_at = e->tuned_at;
        return;
    }
    if ((k = algo_setting(&e->algo_env)) != CF_ALGO_AUTO) {
        v->nccl_algo_at = e->algo_env.at;
    } else if ((k = algo_setting(&s->hints.algo_env)) != CF_ALGO_AUTO) {
        v->nccl_algo_at = s->hints.algo_env.at;
    } else {
        return;
    }
    v->nccl_algo = k;
    v->nccl_algo_src = CF_ALGO_SOURCE_NCCL_ALGO;
}

/* The default node when the input names the GPU and the node size but no
 * NIC rate (issue 23): one NIC per GPU (as many as the node's ports show,
 * when they show a count) at the rate of NVIDIA's reference node of the
 * GPU's NVLink generation (DEFAULT_NIC_GBPS_*), stated as an assumption
 * (v->assumes) and judged as one (findings.c: never an error). 1 when it
 * applies; sets exp_src "default". */
static int default_nics(cf__audit_verdict *v, const cf__audit_run *lr, double *line_gbps, int *nics)
{
    const char *gpu = NULL;
    cf_intra_link link = CF_INTRA_UNKNOWN;
    double rate;
    int n;
    if (!lr || !gpu_of_name(lr->gpu_name, &gpu, &link) || v->gpn <= 0 || v->nodes < 2) return 0;
    switch (link) {
    case CF_INTRA_NVSWITCH_NVLINK3: rate = CF_K(DEFAULT_NIC_GBPS_NVLINK3); break;
    case CF_INTRA_NVSWITCH_NVLINK4: rate = CF_K(DEFAULT_NIC_GBPS_NVLINK4); break;
    case CF_INTRA_NVSWITCH_NVLINK5: rate = CF_K(DEFAULT_NIC_GBPS_NVLINK5); break;
    default: return 0;
    }
    n = v->node.count > 0 ? v->node.count : (int)v->gpn;
    if (n > v->gpn) n = (int)v->gpn;        /* at most one NIC per GPU counts */
    *nics = n;
    *line_gbps = n * rate;
    v->exp_src = "default";
    snprintf(v->assumes, sizeof v->assumes,
             "the input does not show the node's NIC rate: assumed %d x %.0f Gb/s (one NIC per GPU, "
             "as NVIDIA's reference %s node); give --offering ID or --expect-gbps N to judge the node "
             "you rented", n, rate, gpu);
    return 1;
}

/* The fabric the expectation is computed on (DESIGN §5): --offering's, or
 * one built from --expect-gbps or the run's own port dumps (GPU from its
 * rank list), always with GDR on; *line_gbps and *nics the per-node line
 * rate and NICs (NAN / 0 unknown). Sets v->exp_src. 0 when nothing gives
 * an expectation. */
static int expect_fabric(cf_audit *a, int g, cf__audit_verdict *v, cf_fabric *fab, double *line_gbps,
                         int *nics)
{
    const char *gpu = NULL;
    cf_intra_link link = CF_INTRA_UNKNOWN;
    const cf__audit_run *lr = v->last_run >= 0 ? a->parts[v->last_run].r : NULL;
    *line_gbps = NAN;
    *nics = 0;
    cf_fabric_init(fab);
    if (a->has_fabric) {
        *fab = a->fabric;
        v->exp_src = "offering";
        if (fab->network != CF_NET_NONE && fab->nics_per_node > 0 && fab->nic_gbps > 0) {
            *line_gbps = fab->nics_per_node * fab->nic_gbps;
            *nics = fab->nics_per_node;
        }
        fab->gdr = CF_GDR_ON;
        return 1;
    }
    if (v->nodes == 1 || v->net == CF_NET_NONE) return 0;
    if (a->opts.expect_gbps > 0) {
        *line_gbps = a->opts.expect_gbps;
        *nics = v->gpn > 0 ? (int)v->gpn : 1;    /* one NIC per GPU, the usual layout */
        v->exp_src = "expect-gbps";
    } else {
        /* the node's NICs, not only those NCCL chose (a run restricted to
         * one HCA is measured against what the node has); with a run to
         * judge: a port dump alone expects nothing */
        if (v->last_run < 0 && a->segs[g]->ev.lines == 0) return 0;
        *line_gbps = v->node.rate_gbps;
        *nics = v->node.rated;
        v->exp_src = v->node.src && strcmp(v->node.src, "probe") == 0 ? "probe" : "ports";
    }
    if ((isnan(*line_gbps) || *line_gbps <= 0 || *nics <= 0) && a->opts.expect_gbps > 0) {
        v->exp_src = NULL;
        return 0;
    }
    if ((isnan(*line_gbps) || *line_gbps <= 0 || *nics <= 0) && !default_nics(v, lr, line_gbps, nics)) {
        v->exp_src = NULL;
        return 0;
    }
    if (lr && gpu_of_name(lr->gpu_name, &gpu, &link)) cf__copy(fab->gpu, sizeof fab->gpu, gpu);
    fab->intra_link = link;
    fab->gpus_per_node = v->gpn > 0 ? (int)v->gpn : 0;
    fab->network = v->net == CF_NET_UNKNOWN ? CF_NET_RDMA : v->net;
    if (v->net == CF_NET_TCP && v->node.rdma && v->node.src && strcmp(v->exp_src, "expect-gbps") != 0)
        fab->network = node_link_layer(v) == CF__LL_ETH ? CF_NET_ROCE : CF_NET_IB;  /* what the node offers */
    fab->nics_per_node = *nics;
    fab->nic_gbps = *line_gbps / *nics;
    fab->gdr = CF_GDR_ON;                /* always the reference with GDR on */
    return 1;
}

/* The model's prediction for run g on fab (issue 20: one expectation):
 * the same call `predict collective` makes, for the run's collective
 * (all_reduce when not shown), its largest message, nodes and ranks per
 * node, under the algorithm NCCL used (v->nccl_algo) or, when the log does
 * not show it or the model cannot run it on this fabric, the model's own
 * pick (auto). 1 when the model answered. */
static int model_expected(cf_audit *a, cf__audit_verdict *v, const cf_fabric *fab)
{
    const cf__audit_run *lr = v->last_run >= 0 ? a->parts[v->last_run].r : NULL;
    cf_coll_query q;
    cf_coll_result res;
    cf_status st;
    if (!lr || lr->nrows <= 0 || v->nodes < 1 || fab->gpus_per_node <= 0) return 0;
    cf_coll_query_init(&q);
    q.collective = v->coll == CF_COLL_UNKNOWN ? CF_COLL_ALL_REDUCE : v->coll;
    q.bytes = lr->an.largest_size > 0 ? (uint64_t)lr->an.largest_size : 1;
    q.nodes = (int)v->nodes;
    q.ranks_per_node = v->gpn > 0 && v->gpn <= fab->gpus_per_node ? (int)v->gpn : 0;
    q.algo = v->nccl_algo;
    st = cf_collective_predict(fab, &q, &res, NULL);
    if (st != CF_OK && q.algo != CF_ALGO_AUTO) {
        q.algo = CF_ALGO_AUTO;
        st = cf_collective_predict(fab, &q, &res, NULL);
    }
    if (st != CF_OK || !(res.busbw_GBps > 0)) return 0;
    v->expected = round(res.busbw_GBps * 100.0) / 100.0;
    v->exp_bytes = (double)q.bytes;
    v->exp_algo = res.algo;
    v->exp_proto = res.protocol;
    v->exp_algo_src = q.algo == CF_ALGO_AUTO ? CF_ALGO_SOURCE_MODEL : v->nccl_algo_src;
    return 1;
}

/* Expected busbw (DESIGN §5): the model's prediction (model_expected) on
 * the fabric of expect_fabric. When the model cannot be asked (GPU or node
 * count not shown), the ring's bound without the model: the per-node line
 * rate / 8 x eta, normalised per collective as in DESIGN §4.2 (source
 * CF_ALGO_SOURCE_LINE_RATE). */
static void decide_expected(cf_audit *a, int g, cf__audit_verdict *v)
{
    double line_gbps, per_node;
    int nics;
    cf_fabric fab;
    const cf__audit_run *lr = v->last_run >= 0 ? a->parts[v->last_run].r : NULL;
    v->expected = v->exp_bytes = NAN;
    v->exp_src = v->exp_proto = v->exp_algo_src = NULL;
    v->assumes[0] = '\0';
    v->exp_algo = CF_ALGO_AUTO;
    decide_nccl_algo(a, g, v);
    if (!expect_fabric(a, g, v, &fab, &line_gbps, &nics)) return;
    if (model_expected(a, v, &fab)) return;
    if (v->nodes == 1 || isnan(line_gbps) || line_gbps <= 0) {
        v->exp_src = NULL;
        return;
    }
    per_node = line_gbps / 8.0 * eta_of(fab.network);
    switch (v->coll) {
    case CF_COLL_ALLTOALL:
        /* DESIGN §4.2: (NIC_node·η/k)·N/(N−1)·(n−1)/n */
        if (v->nodes >= 2 && v->gpn > 0 && v->ranks > 1)
            per_node = per_node / (double)v->gpn * (double)v->nodes / (double)(v->nodes - 1) *
                       (double)(v->ranks - 1) / (double)v->ranks;
        break;
    case CF_COLL_SENDRECV:
        if (nics > 0) per_node /= nics;     /* one NIC × η */
        break;
    default:
        break;
    }
    v->expected = round(per_node * 100.0) / 100.0;
    v->exp_algo = CF_ALGO_RING;
    v->exp_algo_src = CF_ALGO_SOURCE_LINE_RATE;
    if (lr && lr->nrows > 0 && lr->an.largest_size > 0) v->exp_bytes = lr->an.largest_size;
}

/* The verdict of one run: its last nccl-tests table, shape, transport,
 * GDR, expected busbw. */
void cf__audit_verdict_of(cf_audit *a, int g, cf__audit_verdict *v)
{
    memset(v, 0, sizeof *v);
    v->last_run = -1;
    v->busbw = v->expected = NAN;
    v->forced_level = -1;
    for (int i = 0; i < a->nparts; i++)
        if (a->parts[i].kind == CF__PART_PERF && cf__audit_part_root(a, i) == g && cf__audit_run_has_content(a->parts[i].r))
            v->last_run = i;
    v->coll = v->last_run >= 0 ? a->parts[v->last_run].r->coll : CF_COLL_UNKNOWN;
    if (v->coll == CF_COLL_UNKNOWN && v->last_run >= 0)
        v->coll = cf__perf_collective_of_rows(a->parts[v->last_run].r->rows, a->parts[v->last_run].r->nrows);
    if (v->last_run >= 0 && a->parts[v->last_run].r->nrows > 0)
        v->busbw = a->parts[v->last_run].r->an.busbw_largest;
    decide_shape(a, g, v);
    decide_network(a, g, v);
    decide_gdr(a, g, v);
    node_nics_of(a, g, v, node_link_layer(v), &v->node);
    v->nics_used = nics_used_of(a, g, v);
    /* one count for both: the larger evidence wins; NIC_COUNT_CONFLICT
     * (findings.c) says the node evidence showed fewer */
    v->node.shown = v->node.count;
    if (v->node.count > 0 && v->nics_used > v->node.count) v->node.count = v->nics_used;
    decide_expected(a, g, v);
}
