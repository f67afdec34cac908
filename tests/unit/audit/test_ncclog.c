/* test_ncclog.c — NCCL_DEBUG lines of several NCCL releases, as printed in
 * the shared cases and by NCCL's format strings. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "audit/audit_int.h"

static cf__nccl_line L;

static int kind(const char *s)
{
    cf__nccl_parse(s, strlen(s), &L);
    return L.kind;
}

static void prefix_and_version(void **state)
{
    (void)state;
    assert_int_equal(kind("node02:475220:475220 [0] NCCL INFO NCCL version 2.25.1+cuda12.1"), CF__NL_VERSION);
    assert_string_equal(L.text, "2.25.1");
    assert_int_equal(L.host_n, 6);
    assert_int_equal(L.pid, 475220);
    assert_int_equal(L.dev, 0);
    assert_int_equal(kind("NCCL version 2.4.7+cuda10.0"), CF__NL_VERSION);
    assert_string_equal(L.text, "2.4.7");
    assert_int_equal(kind("   1024  256  float sum -1 1 2 3 0"), CF__NL_NONE);
    assert_int_equal(kind("node01:1:1 [0] NCCL INFO Trees [0] -1/-1/-1->1->0"), CF__NL_OTHER);
}

static void channels(void **state)
{
    (void)state;
    assert_int_equal(kind("node01:1:2 [0] NCCL INFO Channel 01/1 : 1[81000] -> 0[81000] [receive] via NET/IB/1/GDRDMA/Shared"), CF__NL_CHANNEL);
    assert_int_equal(L.dir, 2);
    assert_string_equal(L.net, "IB");
    assert_int_equal(L.netdev, 1);
    assert_true(L.gdrdma);
    assert_int_equal(kind("node01:1:2 [0] NCCL INFO Ring 01 : 3 -> 6 [send] via NET/IB/0"), CF__NL_CHANNEL);
    assert_int_equal(L.dir, 1);
    assert_false(L.gdrdma);
    assert_int_equal(kind("[1,1]x node02:21:26 [0] NCCL INFO Channel 00/0 : 0[35000] -> 1[f5000] [receive] via NET/AWS Libfabric/0"), CF__NL_CHANNEL);
    assert_string_equal(L.net, "AWS Libfabric");
    assert_int_equal(cf__net_family(L.net, strlen(L.net)), CF__NCCLNET_OFI);
    assert_int_equal(kind("h:1:2 [3] NCCL INFO Channel 02/0 : 3[3] -> 11[3] [send] via NET/IBext_v8/3(2)/GDRDMA"), CF__NL_CHANNEL);
    assert_int_equal(L.netdev, 3);
    assert_true(L.gdrdma);
    assert_int_equal(cf__net_family(L.net, strlen(L.net)), CF__NCCLNET_IB);
    /* a channel inside the node: counted (a log of one node's P2P/SHM channels shows one node) */
    assert_int_equal(kind("h:1:2 [0] NCCL INFO Channel 00 : 0[0] -> 1[1] via P2P/IPC"), CF__NL_CHANNEL_LOCAL);
    assert_int_equal(kind("h:1:2 [0] NCCL INFO Channel 00 : 0[0] -> 1[1] via SHM/direct/direct"), CF__NL_CHANNEL_LOCAL);
    assert_int_equal(kind("h:1:2 [0] NCCL INFO Channel 00/32 :    0   1"), CF__NL_OTHER);
}

static void ib_and_gdr(void **state)
{
    (void)state;
    assert_int_equal(kind("node01:1:2 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/RoCE [1]mlx5_2:1/IB [RO]; OOB ibp209s0f0:192.0.2.1<0>"), CF__NL_IB_USING);
    assert_int_equal(L.n_ibdevs, 2);
    assert_string_equal(L.ibdevs[0].name, "mlx5_0");
    assert_int_equal(L.ibdevs[0].ll, CF__LL_ETH);
    assert_int_equal(L.ibdevs[1].idx, 1);
    assert_int_equal(L.ibdevs[1].port, 1);
    assert_int_equal(L.ibdevs[1].ll, CF__LL_IB);
    assert_int_equal(kind("n:1:2 [2] NCCL INFO NET/IB : GPU Direct RDMA Disabled for GPU 2[2] / HCA 0 (distance 3 >= 2)"), CF__NL_GDR_GPU);
    assert_int_equal(L.enabled, 0);
    assert_int_equal(L.distance, 3);
    assert_int_equal(L.distance_max, 2);
    assert_int_equal(kind("n:1:2 [0] NCCL INFO GPU Direct RDMA Enabled for GPU 81000 / HCA 1 (distance 6 <= 7), read 0"), CF__NL_GDR_GPU);
    assert_int_equal(L.enabled, 1);
    assert_int_equal(kind("n:1:2 [0] NCCL INFO NET/IB : GPU Direct RDMA Disabled for HCA 0 'mlx5_0'"), CF__NL_GDR_HCA);
    assert_int_equal(L.enabled, 0);
    assert_int_equal(kind("n:1:2 [0] NCCL INFO Connected all rings, use ring PXN 0 GDR 1"), CF__NL_OTHER);
    assert_int_equal(kind("n:1:2 [0] NCCL INFO NCCL_NET_GDR_LEVEL set by environment to SYS"), CF__NL_ENV);
    assert_string_equal(L.env_name, "NCCL_NET_GDR_LEVEL");
    assert_string_equal(L.text, "SYS");
    assert_int_equal(cf__gdr_level(L.text), 5);
    assert_int_equal(cf__gdr_level("PXB"), 2);
    assert_int_equal(cf__gdr_level("3"), 4);
    assert_int_equal(cf__gdr_level("bogus"), -1);
}

static void nets_and_errors(void **state)
{
    (void)state;
    assert_int_equal(kind("n:1:2 [0] NCCL INFO Using network AWS Libfabric"), CF__NL_USING_NETWORK);
    assert_string_equal(L.text, "AWS Libfabric");
    assert_int_equal(kind("n:21:21 [0] NCCL INFO NET/OFI Selected Provider is efa (found 1 nics)"), CF__NL_OFI_PROVIDER);
    assert_string_equal(L.text, "efa");
    assert_int_equal(kind("n:21:21 [0] NCCL INFO NET/OFI Selected provider is tcp, fabric is x"), CF__NL_OFI_PROVIDER);
    assert_string_equal(L.text, "tcp");
    assert_int_equal(kind("n:1:2 [0] NCCL INFO Bootstrap : Using eth0:192.0.2.2<0>"), CF__NL_BOOTSTRAP);
    assert_int_equal(kind("n:1:2 [0] NCCL INFO NET/Socket : Using [0]ib0:192.0.2.1<0>"), CF__NL_SOCKET_USING);
    assert_int_equal(kind("node01:984:1357 [4] ib_plugin.c:1615 NCCL WARN NET/IB : Got completion from peer 192.0.2.1<44206> with status=12 opcode=129 len=65536 vendor err 129 (Recv) localGid ::ffff:192.0.2.2"), CF__NL_COMPLETION_ERR);
    assert_int_equal(L.status, 12);
    assert_true(L.roce_gid);
    assert_int_equal(L.level, 'W');
    assert_int_equal(kind("n:1:2 [0] transport/net_ib.cc:1 NCCL WARN NET/IB : Got completion with error 4, opcode 0, len 0, vendor err 81"), CF__NL_COMPLETION_ERR);
    assert_int_equal(L.status, 4);
    assert_int_equal(kind("node01:984:1357 [4] NCCL INFO proxy.cc:874 -> 6 [Progress Thread]"), CF__NL_ERROR);
    assert_int_equal(L.status, 6);
    assert_int_equal(kind("node01:93569:93569 [0] misc/ibvwrap.cc:63 NCCL WARN Failed to open libibverbs.so[.1]"), CF__NL_IBVERBS_MISSING);
    assert_int_equal(kind("n:1:2 [0] init.cc:1 NCCL WARN Cuda failure 'out of memory'"), CF__NL_ERROR);
    assert_int_equal(kind("n:1:2 [0] misc/socket.cc:1 NCCL WARN socketPollConnect: Connect to 192.0.2.1 timed out"), CF__NL_TIMEOUT);
    assert_int_equal(kind("n:1:2 [0] init.cc:1 NCCL WARN NUMA auto balancing enabled which can lead to variability"), CF__NL_WARN);
    assert_int_equal(kind("n:1:2 [4] NCCL INFO comm 0x557f rank 36 nranks 64 cudaDev 4 nvmlDev 4 busId 9b000 - Init COMPLETE"), CF__NL_COMM);
    assert_int_equal(L.rank, 36);
    assert_int_equal(L.nranks, 64);
}

/* NCCL's tuning lines (enqueue.cc) of several releases, and the algorithm
 * and protocol names NCCL_ALGO / NCCL_PROTO and those lines use. */
static void tuning(void **state)
{
    (void)state;
    assert_int_equal(kind("node01:1:1 [0] NCCL INFO AllReduce: 268435456 Bytes -> Algo NVLS proto Simple channel{Lo..Hi}={0..15}"),
                     CF__NL_TUNING);
    assert_true(L.bytes == 268435456.0);
    assert_int_equal(L.algo, CF_ALGO_NVLS);
    assert_string_equal(L.proto, "Simple");
    assert_int_equal(L.coll, CF_COLL_ALL_REDUCE);
    assert_int_equal(kind("NCCL INFO Broadcast:    32768 Bytes -> Algo RING proto SIMPLE channel{Lo..Hi}={0..0}"),
                     CF__NL_TUNING);
    assert_int_equal(L.coll, CF_COLL_BROADCAST);
    assert_int_equal(L.algo, CF_ALGO_RING);
    assert_string_equal(L.proto, "Simple");
    /* older releases: indices (NCCL_ALGO_TREE 0, RING 1, ..., NVLS_TREE 5; LL 0, LL128 1, SIMPLE 2) */
    assert_int_equal(kind("node-0:309:309 [0] NCCL INFO AllGather: 37756928 Bytes -> Algo 1 proto 2 time 2860.208008"),
                     CF__NL_TUNING);
    assert_int_equal(L.coll, CF_COLL_ALL_GATHER);
    assert_int_equal(L.algo, CF_ALGO_RING);
    assert_string_equal(L.proto, "Simple");
    assert_int_equal(kind("n1:2:2 [0] NCCL INFO 8589934592 Bytes -> Algo 5 proto 1 time 35998.0"), CF__NL_TUNING);
    assert_int_equal(L.coll, CF_COLL_UNKNOWN);
    assert_int_equal(L.algo, CF_ALGO_NVLSTREE);
    assert_string_equal(L.proto, "LL128");
    assert_int_equal(kind("n1:2:2 [0] NCCL TRACE 4096 Bytes -> Algo 0 proto 0 time 12.5"), CF__NL_TUNING);
    assert_int_equal(L.algo, CF_ALGO_TREE);
    assert_string_equal(L.proto, "LL");
    assert_int_equal(kind("n1:2:2 [0] NCCL INFO ReduceScatter: 1024 Bytes -> Algo PAT proto SIMPLE channel{Lo..Hi}={0..0}"),
                     CF__NL_TUNING);
    assert_int_equal(L.coll, CF_COLL_REDUCE_SCATTER);
    assert_int_equal(L.algo, CF_ALGO_RING);     /* the model reports PAT as ring */
    /* not tuning lines: the COLL call line, a ring line, other 'A'/'B' messages */
    assert_int_equal(kind("n1:2:2 [0] NCCL INFO AllReduce: opCount 0 sendbuff 0x7f recvbuff 0x7f count 2 datatype 7 op 0 root 0 comm 0x55 [nranks=16] stream 0x55"),
                     CF__NL_OTHER);
    assert_int_equal(kind("n1:2:2 [0] NCCL INFO Ring 00 : 6 -> 2 [receive] via NET/IB/0"), CF__NL_CHANNEL);
    assert_int_equal(kind("n1:2:2 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>"), CF__NL_BOOTSTRAP);
    assert_int_equal(kind("n1:2:2 [0] NCCL INFO AllToAll: 1024 Bytes -> Algo 1 proto 2 time 1.0"), CF__NL_OTHER);
    assert_int_equal(kind("n1:2:2 [0] NCCL INFO 16 coll channels, 0 nvls channels, 16 p2p channels"), CF__NL_OTHER);
    /* names, case-insensitive; lists and exclusions name no one algorithm */
    assert_int_equal(cf__nccl_algo("Ring", 4, 0), CF_ALGO_RING);
    assert_int_equal(cf__nccl_algo("NVLSTree", 8, 0), CF_ALGO_NVLSTREE);
    assert_int_equal(cf__nccl_algo("NVLS_TREE", 9, 0), CF_ALGO_NVLSTREE);
    assert_int_equal(cf__nccl_algo("CollnetDirect", 13, 0), CF_ALGO_COLLNET);
    assert_int_equal(cf__nccl_algo(" tree ", 6, 0), CF_ALGO_TREE);
    assert_int_equal(cf__nccl_algo("Tree,Ring", 9, 0), CF_ALGO_AUTO);
    assert_int_equal(cf__nccl_algo("^NVLS", 5, 0), CF_ALGO_AUTO);
    assert_int_equal(cf__nccl_algo("1", 1, 0), CF_ALGO_AUTO);     /* an index only in tuning lines */
    assert_int_equal(cf__nccl_algo("9", 1, 1), CF_ALGO_AUTO);
    assert_string_equal(cf__nccl_proto("SIMPLE", 6), "Simple");
    assert_string_equal(cf__nccl_proto("ll128", 5), "LL128");
    assert_null(cf__nccl_proto("3", 1));
    assert_null(cf__nccl_proto("LL,Simple", 9));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(prefix_and_version), cmocka_unit_test(channels),
        cmocka_unit_test(ib_and_gdr), cmocka_unit_test(nets_and_errors),
        cmocka_unit_test(tuning),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
