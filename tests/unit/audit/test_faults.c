/* test_faults.c — the rules of issue 11 on small inputs through the public
 * API: the expected busbw is the node's (its ports, not only those NCCL
 * names), NICS_UNUSED with "N of M" and the restricting line, RDMA_NOT_USED,
 * BUSBW_FAR_BELOW_LINK_RATE under 25 % (25-70 % stays the warning),
 * SOFT_ROCE, RoCE read from GIDs, optional net plugins that fail while NCCL
 * goes on, single-rank runs read from the rows (and not declared when the
 * rows show several ranks), step drops, loopback-only sockets, summary
 * tables, legacy layouts, and actions that follow the evidence. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include "auditutil.h"
#include "audit/audit_int.h"
#include "model/model_int.h"    /* CF_K: the model's constants */

/* The ring bound of a per-node line rate (GB/s), no GPU shown so the model
 * is not asked: gbps / 8 x ETA_IB, rounded to 0.01 as the report does. */
static double ib_line_rate_expected(double gbps)
{
    return round(gbps / 8.0 * CF_K(ETA_IB) * 100.0) / 100.0;
}

/* Two nodes x 2 ranks, NCCL restricted to mlx5_0 on both, one 1 GiB row. */
static const char RESTRICTED[] =
    "n1:11:11 [0] NCCL INFO NCCL_IB_HCA set by environment to mlx5_0\n"
    "n1:11:11 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB eth0:10.0.0.1<0>\n"
    "n1:11:11 [0] NCCL INFO comm 0x1 rank 0 nranks 4 cudaDev 0 busId 1000 - Init COMPLETE\n"
    "n1:12:12 [1] NCCL INFO comm 0x2 rank 1 nranks 4 cudaDev 1 busId 2000 - Init COMPLETE\n"
    "n2:21:21 [0] NCCL INFO comm 0x3 rank 2 nranks 4 cudaDev 0 busId 1000 - Init COMPLETE\n"
    "n2:22:22 [1] NCCL INFO comm 0x4 rank 3 nranks 4 cudaDev 1 busId 2000 - Init COMPLETE\n"
    "n1:11:11 [0] NCCL INFO Channel 00/0 : 3[1] -> 0[0] [receive] via NET/IB/0/GDRDMA\n"
    "n2:21:21 [0] NCCL INFO Channel 00/0 : 1[1] -> 2[0] [receive] via NET/IB/0/GDRDMA\n"
    "#  size  count  type  redop  root  time  algbw  busbw #wrong  time  algbw  busbw #wrong\n"
    "  1073741824  268435456  float  sum  -1  100000  10.74  %s  0  100000  10.74  %s  0\n";

static const char TWO_PORTS[] =
    "CA 'mlx5_0'\n\tPort 1:\n\t\tState: Active\n\t\tPhysical state: LinkUp\n\t\tRate: 200\n\t\tLink layer: InfiniBand\n"
    "CA 'mlx5_1'\n\tPort 1:\n\t\tState: Active\n\t\tPhysical state: LinkUp\n\t\tRate: 200\n\t\tLink layer: InfiniBand\n";

static json_t *restricted(const char *busbw, int with_ports, double gbps, cf_audit_status *st)
{
    static char buf[4096];
    const char *names[] = {"run.log", "ibstat.txt"};
    const char *texts[2];
    snprintf(buf, sizeof buf, RESTRICTED, busbw, busbw);
    texts[0] = buf;
    texts[1] = TWO_PORTS;
    return audit_files(names, texts, with_ports ? 2 : 1, gbps, st);
}

static void nics_unused_names_counts_and_line(void **state)
{
    cf_audit_status st;
    json_t *r = restricted("16.00", 1, NAN, &st);
    const json_t *f = finding(r, "NICS_UNUSED");
    (void)state;
    assert_non_null(f);
    assert_int_equal(field_i(r, "nics_used"), 1);
    assert_int_equal(field_i(r, "node_nics"), 2);
    assert_non_null(strstr(field_s(f, "message"), "NCCL uses 1 of the 2 NICs a node has (ibstat at ibstat.txt:1)"));
    assert_non_null(strstr(field_s(f, "message"), "NCCL_IB_HCA=mlx5_0 (run.log:1) restricts it"));
    assert_int_equal(field_i(f, "line"), 1);
    /* the node's 2 x 200G, not the one port NCCL names: 400 / 8 x ETA_IB
     * (44 at ETA_IB 0.88) */
    assert_float_equal(field_d(r, "expected_busbw_GBps"), ib_line_rate_expected(400), 1e-9);
    assert_string_equal(field_s(r, "expected_algo_source"), "line_rate");
    /* 16 / 44 = 36 %: the warning, not the error */
    assert_non_null(finding(r, "BUSBW_BELOW_LINK_RATE"));
    assert_null(finding(r, "BUSBW_FAR_BELOW_LINK_RATE"));
    assert_true(json_is_true(json_object_get(r, "bandwidth_judged")));
    json_decref(r);
    /* 10 / 44 = 23 %: the error */
    r = restricted("10.00", 1, NAN, &st);
    assert_non_null(finding(r, "BUSBW_FAR_BELOW_LINK_RATE"));
    assert_string_equal(field_s(finding(r, "BUSBW_FAR_BELOW_LINK_RATE"), "severity"), "error");
    assert_null(finding(r, "BUSBW_BELOW_LINK_RATE"));
    assert_int_equal(st, CF_AUDIT_FAILED);
    json_decref(r);
    /* without the ports: the restriction is shown, the node's count is not */
    r = restricted("10.00", 0, NAN, &st);
    f = finding(r, "NICS_UNUSED");
    assert_non_null(f);
    assert_non_null(strstr(field_s(f, "message"), "NCCL uses 1 NIC(s) for the 2 ranks of each node"));
    assert_non_null(strstr(field_s(f, "message"), "not in the input"));
    assert_true(json_is_false(json_object_get(r, "bandwidth_judged")));
    assert_non_null(strstr(field_s(r, "bandwidth_not_judged_reason"), "nothing in the input or flags gives a link rate"));
    assert_int_equal(st, CF_AUDIT_WARNING);
    json_decref(r);
}

static void rdma_not_used_when_ports_show_rdma(void **state)
{
    const char *names[] = {"run.log", "ibstat.txt"};
    const char *texts[] = {
        "n1:11:11 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.1<0>\n"
        "n1:11:11 [0] NCCL INFO Using network Socket\n"
        "n1:11:11 [0] NCCL INFO Channel 00/0 : 1[0] -> 0[0] [receive] via NET/Socket/0\n"
        "n2:22:22 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [receive] via NET/Socket/0\n",
        TWO_PORTS};
    cf_audit_status st;
    json_t *r = audit_files(names, texts, 2, NAN, &st);
    (void)state;
    assert_string_equal(field_s(r, "network"), "tcp");
    assert_non_null(finding(r, "NET_SOCKET_FALLBACK"));
    assert_non_null(finding(r, "RDMA_NOT_USED"));
    assert_non_null(strstr(field_s(finding(r, "RDMA_NOT_USED"), "message"), "2 Active RDMA port(s)"));
    assert_int_equal(st, CF_AUDIT_FAILED);
    json_decref(r);
    /* without anything that says the nodes have RDMA: the warning only */
    r = audit_text(texts[0], NAN, &st);
    assert_null(finding(r, "RDMA_NOT_USED"));
    assert_int_equal(st, CF_AUDIT_WARNING);
    json_decref(r);
}

static void soft_roce_and_roce_gids(void **state)
{
    cf_audit_status st;
    json_t *r = audit_text(
        "n1:11:11 [0] NCCL INFO NET/IB : Using [0]rxe0:1/RoCE [RO]; OOB ens5:10.0.0.1<0>\n"
        "n1:11:11 [0] NCCL INFO Channel 00/0 : 1[0] -> 0[0] [receive] via NET/IB/0\n"
        "n2:22:22 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [receive] via NET/IB/0\n", NAN, &st);
    (void)state;
    assert_string_equal(field_s(r, "network"), "roce");
    assert_non_null(finding(r, "SOFT_ROCE"));
    assert_int_equal(field_i(finding(r, "SOFT_ROCE"), "line"), 1);
    json_decref(r);
    /* labelled /IB, but NCCL's QP line shows GID index 3 with an IPv4-mapped GID */
    r = audit_text(
        "n1:11:11 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB eth0:10.0.0.1<0>\n"
        "n1:11:11 [0] NCCL INFO Channel 00/0 : 1[0] -> 0[0] [receive] via NET/IB/0/GDRDMA\n"
        "n1:11:15 [0] NCCL INFO NET/IB: NCCL Dev 0 IbDev 0 Port 1 qpn 1141 mtu 5 GID 3 (0/1F0200C0FFFF0000)\n", NAN, &st);
    assert_string_equal(field_s(r, "network"), "roce");
    assert_null(finding(r, "SOFT_ROCE"));
    json_decref(r);
    /* GID 0 with an fe80 prefix: InfiniBand */
    r = audit_text(
        "n1:11:11 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB eth0:10.0.0.1<0>\n"
        "n1:11:11 [0] NCCL INFO Channel 00/0 : 1[0] -> 0[0] [receive] via NET/IB/0/GDRDMA\n"
        "n1:11:15 [0] NCCL INFO NET/IB: NCCL Dev 0 IbDev 0 Port 1 qpn 1141 mtu 5 GID 0 (80FE/5A3C0B0300A1B2C0)\n", NAN, &st);
    assert_string_equal(field_s(r, "network"), "ib");
    json_decref(r);
}

static void optional_plugin_failure_is_not_fatal(void **state)
{
    static const char head[] =
        "n1:11:11 [0] NCCL INFO NCCL_IBEXT_DISABLE set by environment to 1.\n"
        "n1:11:11 [0] NCCL INFO net.cc:79 -> 3\n"
        "n1:11:12 [0] nccl_net_ofi_create_plugin:259 NCCL WARN NET/OFI aws-ofi-nccl initialization failed\n";
    char buf[1024];
    cf_audit_status st;
    json_t *r;
    (void)state;
    snprintf(buf, sizeof buf, "%s%s", head,
             "n1:11:11 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB eth0:10.0.0.1<0>\n"
             "n1:11:11 [0] NCCL INFO Using network IB\n"
             "n1:11:11 [0] NCCL INFO comm 0x1 rank 0 nranks 2 cudaDev 0 busId 1000 - Init COMPLETE\n");
    r = audit_text(buf, NAN, &st);
    assert_null(finding(r, "NCCL_ERROR"));
    assert_string_equal(field_s(r, "network"), "ib");
    json_decref(r);
    /* nothing after it: the job may have ended there */
    r = audit_text(head, NAN, &st);
    assert_non_null(finding(r, "NCCL_ERROR"));
    assert_non_null(strstr(field_s(finding(r, "NCCL_ERROR"), "message"), "no rank reached Init COMPLETE"));
    json_decref(r);
    /* a real failure after init stays an error */
    r = audit_text("n1:11:11 [0] NCCL INFO comm 0x1 rank 0 nranks 2 cudaDev 0 busId 1000 - Init COMPLETE\n"
                   "n1:11:11 [0] transport/net_ib.cc:123 NCCL WARN NET/IB : Connection closed by remote peer\n",
                   NAN, &st);
    assert_non_null(finding(r, "NCCL_ERROR"));
    json_decref(r);
}

static void single_rank_read_from_rows(void **state)
{
    cf_audit_status st;
    /* no Rank lines; busbw 0.00 while algbw is large; sizes start over */
    json_t *r = audit_text(
        "mpirun -np 16 ./build/all_reduce_perf -b 128M -e 256M -f 2 -g 1\n"
        "   134217728  33554432  float  sum  -1  631.9  212.41  0.00  0  0.51  263017.30  0.00  0\n"
        "   268435456  67108864  float  sum  -1 1007.4  266.46  0.00  0  0.31  857621.27  0.00  0\n"
        "   134217728  33554432  float  sum  -1  419.3  320.07  0.00  0  0.31  428400.03  0.00  0\n", NAN, &st);
    (void)state;
    assert_non_null(finding(r, "SINGLE_RANK_RUNS"));
    assert_non_null(strstr(field_s(finding(r, "SINGLE_RANK_RUNS"), "message"), "sizes start over"));
    assert_int_equal(st, CF_AUDIT_INVALID);
    json_decref(r);
    /* one Rank line of an excerpt, but busbw / algbw = 1.875 = 2(16-1)/16 */
    r = audit_text(
        "mpirun -np 16 ./build/all_reduce_perf -b 1G -e 1G -g 1\n"
        "# nThread 1 nGpus 1 minBytes 1073741824 maxBytes 1073741824 step: 2(factor) warmup iters: 5 iters: 20\n"
        "#  Rank  0 Group  0 Pid   1001 on      n1 device  0 [0x18] NVIDIA H100 80GB HBM3\n"
        "  1073741824  268435456  float  sum  -1  10000  107.37  201.32  0  10000  107.37  201.32  0\n", NAN, &st);
    assert_null(finding(r, "SINGLE_RANK_RUNS"));
    assert_int_equal(field_i(r, "ranks"), 16);
    json_decref(r);
}

static void step_drop_and_summary_table(void **state)
{
    char buf[4096];
    size_t used = 0;
    cf_audit_status st;
    json_t *r;
    (void)state;
    /* 20 GB/s for 6 sizes, then 11 GB/s for 4: under 2/3 but over half the peak */
    for (int k = 0; k < 10; k++)
        used += (size_t)snprintf(buf + used, sizeof buf - used,
                                 "  %ld  %ld  float  none  0  1000  %s  %s  0  1000  1.0  1.0  0\n",
                                 (long)(k + 1) * 134217728L, (long)(k + 1) * 33554432L, k < 6 ? "20.00" : "11.00",
                                 k < 6 ? "20.00" : "11.00");
    r = audit_text(buf, NAN, &st);
    assert_non_null(finding(r, "BUSBW_DROP"));
    assert_non_null(strstr(field_s(finding(r, "BUSBW_DROP"), "message"), "steps down at 939524096 bytes"));
    assert_int_equal(field_i(finding(r, "BUSBW_DROP"), "line"), 7);
    json_decref(r);
    /* a node-count column in front: one run per row */
    r = audit_text("  2  8589934592  2147483648  float  sum  -1  44932  191.17  358.45  0  44901  191.31  358.70  0\n"
                   "  4  8589934592  2147483648  float  sum  -1  46611  184.29  357.06  0  46598  184.34  357.16  0\n",
                   NAN, &st);
    assert_int_equal(field_i(r, "runs"), 2);
    assert_non_null(finding(r, "SEVERAL_RUNS"));
    assert_true(field_d(r, "busbw_GBps") == 357.06);
    json_decref(r);
}

static void loopback_only_is_one_node(void **state)
{
    cf_audit_status st;
    json_t *r = audit_text(
        "n1:11:11 [0] NCCL INFO NCCL_SOCKET_IFNAME set by environment to lo\n"
        "n1:11:11 [0] NCCL INFO NET/Socket : Using [0]lo:127.0.0.1<0>\n"
        "n1:11:11 [0] NCCL INFO Using network Socket\n", NAN, &st);
    (void)state;
    assert_string_equal(field_s(r, "network"), "none");
    assert_int_equal(field_i(r, "nodes"), 1);
    assert_null(finding(r, "NET_SOCKET_FALLBACK"));
    json_decref(r);
}

static void legacy_rows(void **state)
{
    cf__perf_layout lay;
    cf__perf_row row;
    const char *hdr = "#       size         count    type   redop     time   algbw   busbw  error     time   algbw   busbw  error";
    const char *empty_redop = "    16777216        524288   float              160.1  104.79   91.69  0e+00    152.6  109.94   96.20  0e+00";
    cf__perf_comment c;
    (void)state;
    cf__perf_parse_comment(hdr, strlen(hdr), &c);
    assert_int_equal(c.kind, CF__PC_HEADER);
    lay = c.layout;
    assert_int_equal(cf__perf_parse_row(empty_redop, strlen(empty_redop), &lay, &row), CF__ROW_OK);
    assert_true(row.oop_busbw == 91.69);
    assert_true(row.ip_busbw == 96.20);
    assert_string_equal(row.redop, "");
    /* no header: a last row without its in-place #wrong stays aligned like the
     * complete rows before it (root column first) */
    {
        cf_audit_status st;
        json_t *r = audit_text(
            "   536870912  134217728  float  sum  -1  5512.9  97.39  182.60  0  5508.3  97.47  182.75  0\n"
            "  1073741824  268435456  float  sum  -1   10936  98.18  184.09  0   10931  98.23  184.18\n", NAN, &st);
        assert_null(finding(r, "WRONG_RESULTS"));
        assert_true(field_d(r, "busbw_GBps") == 184.09);
        json_decref(r);
    }
}

static void actions_follow_evidence(void **state)
{
    cf_audit_status st;
    /* EFA over the libfabric tcp provider with low busbw: no ib_write_bw */
    json_t *r = audit_text(
        "n1:11:11 [0] NCCL INFO NET/OFI Selected provider is efa, fabric is efa-direct (found 4 nics)\n"
        "n1:11:11 [0] NCCL INFO Using network AWS Libfabric\n"
        "n1:11:11 [0] NCCL INFO Channel 00/0 : 1[0] -> 0[0] [receive] via NET/AWS Libfabric/0/GDRDMA\n"
        "n2:22:22 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [receive] via NET/AWS Libfabric/0/GDRDMA\n"
        "#  size  count  type  redop  root  time  algbw  busbw #wrong  time  algbw  busbw #wrong\n"
        "  1073741824  268435456  float  sum  -1  100000  10.74  5.00  0  100000  10.74  5.00  0\n", 400, &st);
    const json_t *f = finding(r, "BUSBW_FAR_BELOW_LINK_RATE");
    (void)state;
    assert_string_equal(field_s(r, "network"), "efa");
    assert_non_null(f);
    assert_null(strstr(field_s(f, "action"), "ib_write_bw"));
    assert_non_null(strstr(field_s(f, "action"), "fi_info -p efa"));
    json_decref(r);
    /* a Kubernetes pod without /dev/infiniband: not "unset NCCL_IB_DISABLE" */
    r = audit_text(
        "$ kubectl exec w-0 -- ls /dev/infiniband\n"
        "ls: cannot access '/dev/infiniband': No such file or directory\n"
        "w-0:41:97 [0] NCCL INFO NET/IB : No device found.\n"
        "w-0:41:97 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.1<0>\n"
        "w-0:41:97 [0] NCCL INFO Using network Socket\n"
        "w-0:41:97 [0] NCCL INFO Channel 00/0 : 1[0] -> 0[0] [receive] via NET/Socket/0\n"
        "w-1:40:95 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [receive] via NET/Socket/0\n", NAN, &st);
    f = finding(r, "NET_SOCKET_FALLBACK");
    assert_non_null(strstr(field_s(f, "action"), "no RDMA device inside the pod (in.log:2)"));
    assert_null(strstr(field_s(f, "action"), "unset NCCL_IB_DISABLE"));
    json_decref(r);
}

/* The contract for the probe (issue 12): a part of kind CF__PART_PROBE with
 * its ports filled is node NIC evidence like an ibstat: "1 of 4" and the
 * node's rate. */
static void probe_ports_are_node_evidence(void **state)
{
    cf_audit_opts o = {NULL, NAN};
    cf_audit *a = cf_audit_new(&o);
    json_t *r = NULL;
    cf_audit_status st;
    char buf[4096];
    int pi;
    (void)state;
    assert_non_null(a);
    assert_int_equal(cf_audit_begin_file(a, "probe.json"), CF_OK);
    pi = cf__audit_new_part(a, CF__PART_PROBE, 1);
    assert_true(pi >= 0);
    for (int k = 0; k < 4; k++) {
        cf__port *pt = &a->parts[pi].ports[k];
        snprintf(pt->ca, sizeof pt->ca, "mlx5_%d", k);
        pt->port = 1;
        pt->active = 1;
        pt->ll = CF__LL_IB;
        pt->rate_gbps = 400;
        pt->complete = 1;
        pt->line = 1;
    }
    a->parts[pi].nports = 4;
    assert_int_equal(cf_audit_end_file(a), CF_OK);
    snprintf(buf, sizeof buf, RESTRICTED, "10.00", "10.00");
    assert_int_equal(cf_audit_begin_file(a, "run.log"), CF_OK);
    assert_int_equal(cf_audit_feed(a, buf, strlen(buf)), CF_OK);
    assert_int_equal(cf_audit_end_file(a), CF_OK);
    assert_int_equal(cf_audit_finish(a, &r, &st), CF_OK);
    assert_string_equal(field_s(r, "node_nics_source"), "probe");
    assert_int_equal(field_i(r, "node_nics"), 4);
    assert_string_equal(field_s(r, "expected_source"), "probe");
    /* two ranks per node drive two of the four 400G NICs: 800 / 8 x ETA_IB
     * (88 at ETA_IB 0.88) */
    assert_float_equal(field_d(r, "expected_busbw_GBps"), ib_line_rate_expected(800), 1e-9);
    assert_non_null(strstr(field_s(finding(r, "NICS_UNUSED"), "message"), "NCCL uses 1 of the 4 NICs a node has (probe at probe.json:1)"));
    assert_non_null(finding(r, "BUSBW_FAR_BELOW_LINK_RATE"));
    json_decref(r);
    cf_audit_free(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(nics_unused_names_counts_and_line),
        cmocka_unit_test(rdma_not_used_when_ports_show_rdma),
        cmocka_unit_test(soft_roce_and_roce_gids),
        cmocka_unit_test(optional_plugin_failure_is_not_fatal),
        cmocka_unit_test(single_rank_read_from_rows),
        cmocka_unit_test(step_drop_and_summary_table),
        cmocka_unit_test(loopback_only_is_one_node),
        cmocka_unit_test(legacy_rows),
        cmocka_unit_test(actions_follow_evidence),
        cmocka_unit_test(probe_ports_are_node_evidence),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
