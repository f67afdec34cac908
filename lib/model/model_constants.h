/* model_constants.h — EVERY constant of the clusterfit model, in one table,
 * each with its unit and source (DESIGN §4.2: "Every constant in one table in
 * one file, each with its source. No per-row constants.").
 *
 * One X-macro list: each entry is X(ID, value, "unit", "source"). lib/constants.c
 * turns it into the table cf__model_constants[] (public read-out through
 * cf_model_constants(), used by docs/model.md's test); code reads a value as
 * CF_K(ID). Add a constant here, never as a literal in model code.
 *
 * Collective model (DESIGN §4.2; lib/collective.c): */
#ifndef CF_MODEL_CONSTANTS_H
#define CF_MODEL_CONSTANTS_H

#include "clusterfit/collective.h"  /* cf_model_constant */

#define CF_MODEL_CONSTANTS(X) \
    /* --- one node (NVLink/NVSwitch/PCIe) --- */ \
    X(NVLINK_RING_EFF, 0.80, "fraction", \
      "ring busbw / per-direction NVLink bandwidth behind an NVSwitch: 370 of 450 GB/s on H100 " \
      "(NCCL maintainer, nccl-tests#212: ~20% protocol overhead); A100 231.6 of 300 " \
      "(Azure ND A100 v4); GB200 679.6 of 900 (Azure ND GB200 v6)") \
    X(NVLS_EFF, 1.00, "fraction", \
      "NVLS (NVLink SHARP) all_reduce busbw / per-direction NVLink bandwidth: ~480 of 450 on " \
      "H100/H200 (nccl-tests#212, Azure ND H200 v5), 834.6 of 900 on a GB200 NVL72 rack " \
      "(coreweave/nccl-tests README); mean of the two generations") \
    X(NVLINK_BRIDGE_EFF, 0.40, "fraction", \
      "busbw / per-direction NVLink bandwidth of a bridged GPU pair or partial NVLink mesh (no " \
      "switch; NCCL runs P2P over the bridge): H100-PCIe pair 116 of 300 GB/s (nccl-tests#194), " \
      "RTX 2080 Ti pair 21.4 of 50 (nccl-tests#44)") \
    X(NVLINK2_MESH_EFF, 0.80, "fraction", \
      "busbw / per-direction NVLink bandwidth of V100 hybrid cube-mesh rings (DGX-1: NCCL builds " \
      "rings over the 6 NVLinks of each GPU); same protocol overhead as NVLINK_RING_EFF") \
    X(PCIE_EFF, 0.75, "fraction", \
      "busbw / PCIe x16 per-direction rate for rings through PCIe switches and the host bridge " \
      "(PCIe TLP/DLLP overhead ~15% plus NCCL protocol overhead)") \
    X(PCIE3_GBPS, 15.75, "GB/s", "PCIe 3.0 x16 per direction: 8 GT/s x 16 x 128/130 / 8 (PCI-SIG)") \
    X(PCIE4_GBPS, 31.5, "GB/s", "PCIe 4.0 x16 per direction: 16 GT/s x 16 x 128/130 / 8 (PCI-SIG)") \
    X(PCIE5_GBPS, 63.0, "GB/s", "PCIe 5.0 x16 per direction: 32 GT/s x 16 x 128/130 / 8 (PCI-SIG)") \
    X(NVL72_DOMAIN_GPUS, 72, "GPUs", \
      "GPUs in one multi-node NVLink domain (GB200/GB300 NVL72 rack): one 'node' for the model") \
    /* --- scale-out efficiency eta = ring busbw / per-node line rate (GDR on) --- */ \
    X(ETA_IB, 0.90, "fraction", \
      "InfiniBand at 2 nodes: 0.83-0.96 in the validation rows (DESIGN §4.2); B200 ring 344 of " \
      "400 GB/s and 2-node tree 696 of 750 (together-dgxc-benchmarking, dstack Lambda)") \
    X(ETA_ROCE, 0.85, "fraction", \
      "RoCE at 2 nodes: 0.80 at 4 nodes (nccl#1221), 2-node tree 683.5 of 750 on GCP A4 " \
      "(dstack a4 example); lossless Ethernet pays ~5% more than IB to congestion control") \
    X(ETA_RDMA, 0.90, "fraction", "IB or RoCE not stated: as InfiniBand (GH200 pair 96.1 of 100, nccl#1579)") \
    X(ETA_EFA, 0.89, "fraction", \
      "AWS EFA with >= 1 NIC per GPU (p5): 357 of 400 GB/s at 4 and 16 nodes " \
      "(crazyguitar/aws-gpu-communication-benchmark); DESIGN: p5 0.80-0.89") \
    X(ETA_EFA_SHARED_NIC, 0.75, "fraction", \
      "AWS EFA with fewer NICs than GPUs (p4d/p4de, 4x100G for 8 GPUs, first-generation EFA): " \
      "DESIGN: 0.6-0.84 (0.6 from a slow-cluster thread nccl#527, 0.84 on p4de in " \
      "awsome-distributed-training); midpoint") \
    X(ETA_TCPX, 0.45, "fraction", "GCP GPUDirect-TCPX (a3-high): 84.3 GB/s 2-node tree on 100 GB/s (a3-bandwidth-test)") \
    X(ETA_TCPXO, 0.88, "fraction", "GCP GPUDirect-TCPXO (a3-mega): 331 GB/s 2-node tree on 200 GB/s (a3-bandwidth-test)") \
    X(ETA_TCP, 0.50, "fraction", \
      "plain TCP sockets: at best half the line rate, bounded by NCCL's socket threads " \
      "(NCCL_SOCKET_NTHREADS x NCCL_NSOCKS_PERTHREAD, 1 socket by default; DESIGN §4.2); " \
      "V100 pair 1.7 of 3.1 GB/s (nccl-tests#83). The bound is on busbw for every algorithm: " \
      "the proxy's host copies, not the wire, limit it") \
    X(ETA_DECAY_PER_DOUBLING, 0.03, "fraction per doubling of nodes beyond 2", \
      "IB/RoCE fabrics not known to be non-blocking and rail-optimized: B200 ring 0.86 at 2 " \
      "nodes, 0.76 at 8, 0.70 at 64 (together-dgxc-benchmarking); none when the catalog says " \
      "non_blocking and rail_optimized yes; none on EFA (SRD sprays packets over all paths), tcp") \
    X(ETA_FLOOR, 0.50, "fraction", "lowest eta the decay reaches (RoCE cross-rack congestion gave 0.45, nccl#1031)") \
    X(GDR_OFF_C2C, 0.85, "fraction", \
      "busbw with GPUDirect RDMA off / on, CPU on NVLink-C2C (GH200): 0.83 all_reduce, 0.86 " \
      "all_gather (nccl#1579)") \
    X(GDR_OFF_PCIE_HOST, 0.50, "fraction", \
      "busbw with GPUDirect RDMA off / on, x86 host over PCIe: data is staged through host " \
      "memory, crossing PCIe twice and the memory bus; x86 hosts lose far more than GH200 " \
      "(DESIGN §4.2; 1.1 GB/s on A100-PCIe in nccl-tests#293 is a worst case)") \
    X(NET_WINDOW_PER_NIC, 8388608, "bytes per NIC reached", \
      "bytes NCCL keeps in flight per NIC across nodes (Simple protocol): two channels per NIC, " \
      "each with NCCL_BUFFSIZE = 4 MiB (NCCL environment-variable docs, default). A pipeline " \
      "pays min(S_eff, window) / busbw to fill; checked against the mid-size curves of " \
      "dstack's Nebius 2-node H100 run (~100 MB in flight with 8 NICs), awsome-distributed-" \
      "training's 2x p5 (~220 MB with 32 EFA NICs): docs/model.md, holdout") \
    X(NVLS_HEADS_MAX, 16, "GPUs per NVLink domain", \
      "NVLSTree reaches the network through one NVLS head per NVLS channel; NCCL opens 16 " \
      "NVLS channels by default (INFO line 'NVLS multicast support is available on dev N " \
      "(NVLS_NCHANNELS 16)'; heads listed as 'NVLS Head i' in nccl#1357). Binds only on NVL72 " \
      "racks (72 GPUs and NICs per domain): coreweave/nccl-tests 20 racks, shared c108") \
    /* --- tree inflation (DESIGN §4.2: double binary tree) --- */ \
    X(TREE_L2, 1.0, "x S per node per direction", "double binary tree, 2 nodes (DESIGN §4.2)") \
    X(TREE_L3, 1.5, "x S per node per direction", "double binary tree, 3 nodes (DESIGN §4.2)") \
    X(TREE_L4, 2.0, "x S per node per direction", "double binary tree, >= 4 nodes: interior nodes have two children (DESIGN §4.2)") \
    /* --- latency (NCCL src/graph/tuning.cc, v2.19+: baseLat and hwLat tables) --- */ \
    X(LAT_BASE_RING_LL, 6.6, "us", "NCCL tuning.cc baseLat Ring/LL") \
    X(LAT_BASE_RING_LL128, 14.0, "us", "NCCL tuning.cc baseLat Ring/LL128") \
    X(LAT_BASE_RING_SIMPLE, 8.4, "us", "NCCL tuning.cc baseLat Ring/Simple") \
    X(LAT_BASE_TREE_LL, 6.8, "us", "NCCL tuning.cc baseLat Tree/LL") \
    X(LAT_BASE_TREE_LL128, 14.0, "us", "NCCL tuning.cc baseLat Tree/LL128") \
    X(LAT_BASE_TREE_SIMPLE, 8.4, "us", "NCCL tuning.cc baseLat Tree/Simple") \
    X(LAT_NVL_RING_LL, 0.6, "us per step", "NCCL tuning.cc hwLat NVLink Ring/LL") \
    X(LAT_NVL_RING_LL128, 1.9, "us per step", "NCCL tuning.cc hwLat NVLink Ring/LL128") \
    X(LAT_NVL_RING_SIMPLE, 3.4, "us per step", "NCCL tuning.cc hwLat NVLink Ring/Simple") \
    X(LAT_NVL_TREE_LL, 0.6, "us per step", "NCCL tuning.cc hwLat NVLink Tree/LL") \
    X(LAT_NVL_TREE_LL128, 1.25, "us per step", "NCCL tuning.cc hwLat NVLink Tree/LL128") \
    X(LAT_NVL_TREE_SIMPLE, 4.0, "us per step", "NCCL tuning.cc hwLat NVLink Tree/Simple") \
    X(LAT_PCI_RING_LL, 1.0, "us per step", "NCCL tuning.cc hwLat PCI Ring/LL") \
    X(LAT_PCI_RING_LL128, 2.5, "us per step", "NCCL tuning.cc hwLat PCI Ring/LL128") \
    X(LAT_PCI_RING_SIMPLE, 5.7, "us per step", "NCCL tuning.cc hwLat PCI Ring/Simple") \
    X(LAT_PCI_TREE_LL, 1.0, "us per step", "NCCL tuning.cc hwLat PCI Tree/LL") \
    X(LAT_PCI_TREE_LL128, 1.9, "us per step", "NCCL tuning.cc hwLat PCI Tree/LL128") \
    X(LAT_PCI_TREE_SIMPLE, 4.0, "us per step", "NCCL tuning.cc hwLat PCI Tree/Simple") \
    X(LAT_NET_RING_LL, 2.7, "us per step", "NCCL tuning.cc hwLat NET Ring/LL") \
    X(LAT_NET_RING_LL128, 4.0, "us per step", "NCCL tuning.cc hwLat NET Ring/LL128") \
    X(LAT_NET_RING_SIMPLE, 14.0, "us per step", "NCCL tuning.cc hwLat NET Ring/Simple") \
    X(LAT_NET_TREE_LL, 5.0, "us per step", "NCCL tuning.cc hwLat NET Tree/LL") \
    X(LAT_NET_TREE_LL128, 8.5, "us per step", "NCCL tuning.cc hwLat NET Tree/LL128") \
    X(LAT_NET_TREE_SIMPLE, 14.0, "us per step", "NCCL tuning.cc hwLat NET Tree/Simple") \
    X(LAT_NVLS_INTRA, 25.0, "us", "NCCL tuning.cc hwLat NVLink NVLS and NVLSTree/Simple") \
    X(LAT_NET_NVLS, 18.0, "us", "NCCL tuning.cc hwLat NET NVLS/Simple") \
    X(LAT_NET_NVLSTREE, 14.0, "us per tree level", "NCCL tuning.cc hwLat NET NVLSTree/Simple") \
    X(LAT_NET_COLLNET, 31.0, "us", "NCCL tuning.cc hwLat NET CollNetDirect/Simple") \
    X(LAT_LAUNCH, 5.0, "us", \
      "per-call cost outside NCCL's tuner model: kernel launch and completion (CUDA launch " \
      "latency 2-5 us); sets the floor of small-message results") \
    /* --- protocols (NCCL tuning.cc model refinements) --- */ \
    X(PROTO_LL_RING_ALLREDUCE, 0.25, "x busbw", "NCCL tuning.cc: Ring/LL busBw x 1/4 (all_reduce, or any multi-node)") \
    X(PROTO_LL_RING_OTHER, 0.3333, "x busbw", "NCCL tuning.cc: Ring/LL busBw x 1/3 (other collectives on one node)") \
    X(PROTO_LL128, 0.92, "x busbw", "NCCL tuning.cc: LL128 busBw x 0.92 (120 of 128 bytes carry data)") \
    X(PROTO_LL128_TREE_1NODE, 0.7778, "x busbw", "NCCL tuning.cc: Tree/LL128 x 7/9 on one node") \
    X(PROTO_LL_TREE, 0.2632, "x busbw", "NCCL tuning.cc: Tree/LL busBw x 1/3.8")

typedef enum cf__kid {
#define CF__K_ENUM(id, v, u, s) CF_K_##id,
    CF_MODEL_CONSTANTS(CF__K_ENUM)
#undef CF__K_ENUM
    CF_K__COUNT
} cf__kid;

extern const cf_model_constant cf__model_constants[CF_K__COUNT];

#define CF_K(id) (cf__model_constants[CF_K_##id].value)

#endif
