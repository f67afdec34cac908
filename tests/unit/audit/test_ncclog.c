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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(prefix_and_version), cmocka_unit_test(channels),
        cmocka_unit_test(ib_and_gdr), cmocka_unit_test(nets_and_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
