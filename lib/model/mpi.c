/* mpi.c — MPI point-to-point and small all_reduce costs of MPI workloads
 * (the stencil kind, issue 9): MPI codes do not run NCCL, so their halo
 * exchanges and residual reductions pay the MPI library's latency over the
 * fabric (UCX over IB verbs or RoCE, libfabric over EFA, TCP sockets), as
 * the OSU micro-benchmarks measure it (osu_latency, osu_allreduce).
 *
 * p2p(S) = MPI_LAT_<transport> + S / bandwidth, where the bandwidth is the
 * collective model's sendrecv limit on the same path (the wire and the
 * NVLink are what bound both libraries at large sizes); inside a node the
 * latency is MPI_LAT_INTRA (CUDA IPC). A short all_reduce is recursive
 * doubling (Thakur, Rabenseifner & Gropp 2005, MPICH): log2 of the ranks
 * per node steps inside the node, log2 of the nodes across them, each one
 * p2p latency. Constants: model/constants.def; docs/model.md "MPI". */
#include <math.h>
#include "clusterfit/collective.h"
#include "model/model_int.h"

/* The MPI library's small-message latency across nodes, us. */
static double mpi_lat_net_us(const cf_fabric *fab)
{
    switch (fab->network) {
    case CF_NET_IB:
    case CF_NET_RDMA: return CF_K(MPI_LAT_IB);
    case CF_NET_ROCE: return CF_K(MPI_LAT_ROCE);
    case CF_NET_EFA: return CF_K(MPI_LAT_EFA);
    /* GPUDirect-TCPX/O are NCCL plugins: MPI runs plain TCP over them. */
    case CF_NET_TCPX:
    case CF_NET_TCPXO:
    case CF_NET_TCP:
    default: return CF_K(MPI_LAT_TCP);
    }
}

double cf__mpi_latency_us(const cf_fabric *fab, int inter_node)
{
    return inter_node ? mpi_lat_net_us(fab) : CF_K(MPI_LAT_INTRA);
}

cf_status cf__mpi_p2p_s(const cf_fabric *fab, int inter_node, double bytes, double *out,
                        cf_error *err)
{
    cf_coll_query q;
    cf_coll_result r;
    cf_coll_detail d;
    double bw;
    cf_status st;
    *out = 0;
    if (!(bytes > 0)) return CF_OK;
    cf_coll_query_init(&q);
    q.collective = CF_COLL_SENDRECV;
    q.bytes = bytes < 1.8e19 ? (uint64_t)bytes : UINT64_MAX;
    q.nodes = inter_node ? 2 : 1;
    q.ranks_per_node = inter_node ? 0 : (fab->gpus_per_node >= 2 ? 2 : 1);
    q.algo = CF_ALGO_AUTO;
    st = cf_collective_explain(fab, &q, &r, &d, err);
    if (st != CF_OK) return st;
    bw = fmin(d.intra_busbw_GBps, d.inter_busbw_GBps);
    if (!(bw > 0) || isinf(bw)) bw = d.intra_busbw_GBps > 0 ? d.intra_busbw_GBps : 1.0;
    *out = (cf__mpi_latency_us(fab, inter_node) + bytes / (bw * 1e3)) * 1e-6;
    return CF_OK;
}

double cf__mpi_allreduce_small_s(const cf_fabric *fab, int nodes, int ranks_per_node)
{
    double t = 0;
    if (ranks_per_node > 1) t += ceil(log2((double)ranks_per_node)) * CF_K(MPI_LAT_INTRA);
    if (nodes > 1) t += ceil(log2((double)nodes)) * mpi_lat_net_us(fab);
    return t * 1e-6;
}
