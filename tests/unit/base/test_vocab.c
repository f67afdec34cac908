/* test_vocab.c — the vocabulary of DESIGN §2 and strict number parsing. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "clusterfit/clusterfit.h"

static void network_aliases(void **state)
{
    cf_network n;
    (void)state;
    assert_int_equal(cf_network_parse("infiniband", &n), CF_OK);
    assert_int_equal(n, CF_NET_IB);
    assert_int_equal(cf_network_parse("ib-ndr", &n), CF_OK);
    assert_int_equal(n, CF_NET_IB);
    assert_int_equal(cf_network_parse("RoCE", &n), CF_OK);
    assert_int_equal(n, CF_NET_ROCE);
    assert_int_equal(cf_network_parse("unknown", &n), CF_OK);
    assert_int_equal(n, CF_NET_UNKNOWN);
    assert_int_equal(cf_network_parse("ethernet", &n), CF_EINVAL);
    assert_string_equal(cf_network_name(CF_NET_TCPXO), "tcpxo");
    assert_non_null(strstr(cf_network_accepted(), "efa"));
}

static void enums_round_trip(void **state)
{
    (void)state;
    for (int i = 0; i < CF_COLL__COUNT; i++) {
        cf_collective c;
        assert_int_equal(cf_collective_parse(cf_collective_name((cf_collective)i), &c), CF_OK);
        assert_int_equal(c, i);
    }
    for (int i = 0; i < CF_INTRA__COUNT; i++) {
        cf_intra_link l;
        assert_int_equal(cf_intra_link_parse(cf_intra_link_name((cf_intra_link)i), &l), CF_OK);
        assert_int_equal(l, i);
    }
    cf_algo a;
    assert_int_equal(cf_algo_parse("unknown", &a), CF_EINVAL);
}

/* "unknown" is listed where a user states it (cap, gdr, recompute) and not
 * where it is only a missing fact (collective, intra_link, network), though
 * the parsers still read it back from cf_X_name. */
static void accepted_lists(void **state)
{
    cf_collective c;
    (void)state;
    assert_string_equal(cf_collective_accepted(),
                        "all_reduce, all_gather, reduce_scatter, alltoall, broadcast, reduce, gather, "
                        "scatter, sendrecv, hypercube");
    assert_string_equal(cf_network_accepted(), "ib, roce, efa, tcpx, tcpxo, tcp, rdma, none");
    assert_null(strstr(cf_intra_link_accepted(), "unknown"));
    /* the values of a catalog cell (issue 23: /api/vocab lacked unknown) */
    assert_string_equal(cf_network_values(), "ib, roce, efa, tcpx, tcpxo, tcp, rdma, none, unknown");
    assert_non_null(strstr(cf_intra_link_values(), "xgmi, unknown"));
    assert_string_equal(cf_gdr_accepted(), "on, off, partial, na, unknown");
    assert_string_equal(cf_cap_accepted(), "no, yes, unknown");
    assert_string_equal(cf_recompute_accepted(), "none, selective, full, unknown");
    assert_string_equal(cf_algo_accepted(), "auto, ring, tree, nvls, nvlstree, collnet");
    assert_int_equal(cf_collective_parse("unknown", &c), CF_OK);
    assert_int_equal(c, CF_COLL_UNKNOWN);
}

static void sets(void **state)
{
    unsigned m;
    char buf[128];
    (void)state;
    assert_int_equal(cf_set_parse(CF_SET_ORCHESTRATION, "slurm;kubernetes", ";", &m), CF_OK);
    assert_int_equal(m, CF_ORCH_SLURM | CF_ORCH_KUBERNETES);
    assert_string_equal(cf_set_format(CF_SET_ORCHESTRATION, m, ",", buf, sizeof buf), "slurm,kubernetes");
    assert_int_equal(cf_set_parse(CF_SET_STORAGE, "lustre, nfs", ",", &m), CF_OK);
    assert_int_equal(m, CF_STOR_LUSTRE | CF_STOR_NFS);
    assert_int_equal(cf_set_parse(CF_SET_PROVISIONING, "on-demand;monthly", ";", &m), CF_EINVAL);
}

static void sizes_and_numbers(void **state)
{
    uint64_t s;
    long l;
    double d;
    (void)state;
    assert_int_equal(cf_parse_size("8G", &s), CF_OK);
    assert_true(s == 8589934592ULL);
    assert_int_equal(cf_parse_size("512M", &s), CF_OK);
    assert_true(s == 536870912ULL);
    assert_int_equal(cf_parse_size("1048576", &s), CF_OK);
    assert_true(s == 1048576ULL);
    assert_int_equal(cf_parse_size("8GiB", &s), CF_OK);
    assert_true(s == 8589934592ULL);
    assert_int_equal(cf_parse_size("-1", &s), CF_EINVAL);
    assert_int_equal(cf_parse_size("8X", &s), CF_EINVAL);
    assert_int_equal(cf_parse_long("12x", &l), CF_EINVAL);
    assert_int_equal(cf_parse_long("-7", &l), CF_OK);
    assert_int_equal(l, -7);
    assert_int_equal(cf_parse_double("nan", &d), CF_EINVAL);
    assert_int_equal(cf_parse_double("2.5", &d), CF_OK);
    assert_true(d == 2.5);
}

static void alloc_injection(void **state)
{
    (void)state;
    cf_alloc_fail_after(0);
    /* cf_set_parse allocates nothing, so it still succeeds under injection. */
    unsigned m;
    assert_int_equal(cf_set_parse(CF_SET_STORAGE, "none", ";", &m), CF_OK);
    cf_alloc_fail_after(-1);
}

/* The display names of the fabrics (why lines, `scale`'s header) and the
 * canonical name where there is no other. */
static void network_labels(void **state)
{
    (void)state;
    assert_string_equal(cf_network_label(CF_NET_IB), "InfiniBand");
    assert_string_equal(cf_network_label(CF_NET_ROCE), "RoCE");
    assert_string_equal(cf_network_label(CF_NET_EFA), "EFA");
    assert_string_equal(cf_network_label(CF_NET_TCPX), "GPUDirect-TCPX");
    assert_string_equal(cf_network_label(CF_NET_TCPXO), "GPUDirect-TCPXO");
    assert_string_equal(cf_network_label(CF_NET_TCP), "TCP");
    assert_string_equal(cf_network_label(CF_NET_RDMA), "RDMA");
    assert_string_equal(cf_network_label(CF_NET_NONE), "none");
    assert_string_equal(cf_network_label(CF_NET_UNKNOWN), "unknown");
}

/* NCCL's own names of the algorithms (NCCL_ALGO, its tuning tables). */
static void algo_labels(void **state)
{
    (void)state;
    assert_string_equal(cf_algo_label(CF_ALGO_RING), "Ring");
    assert_string_equal(cf_algo_label(CF_ALGO_TREE), "Tree");
    assert_string_equal(cf_algo_label(CF_ALGO_NVLS), "NVLS");
    assert_string_equal(cf_algo_label(CF_ALGO_NVLSTREE), "NVLSTree");
    assert_string_equal(cf_algo_label(CF_ALGO_COLLNET), "CollNet");
    assert_string_equal(cf_algo_label(CF_ALGO_AUTO), "auto");
    assert_string_equal(cf_algo_label((cf_algo)99), "unknown");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(network_aliases), cmocka_unit_test(enums_round_trip),
        cmocka_unit_test(accepted_lists),
        cmocka_unit_test(sets), cmocka_unit_test(sizes_and_numbers),
        cmocka_unit_test(alloc_injection), cmocka_unit_test(network_labels),
        cmocka_unit_test(algo_labels),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
