/* test_fabric.c — an offering's fabric (cf_fabric_from_offering) and the
 * fabric for N nodes of it (cf_fabric_for_nodes): the one-node rule, and
 * the reason and err->param of every refusal. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>
#include "clusterfit/clusterfit.h"

static void near(double got, double want, double rel)
{
    if (!(fabs(got - want) <= rel * fabs(want)))
        fail_msg("got %.6f, want %.6f (rel %.1e)", got, want, rel);
}

/* 8 x H100 behind NVSwitch on 3200 Gbit/s of EFA over 32 NICs. */
static cf_offering efa_node(void)
{
    cf_offering o;
    memset(&o, 0, sizeof o);
    o.id = "x";
    o.gpu = "H100-SXM";
    o.gpus_per_node = 8;
    o.intra_link = CF_INTRA_NVSWITCH_NVLINK4;
    o.network = CF_NET_EFA;
    o.network_gbps_per_node = 3200;
    o.nics_per_node = 32;
    o.gpudirect_rdma = CF_CAP_YES;
    o.non_blocking = CF_CAP_YES;
    o.rail_optimized = CF_CAP_UNKNOWN;
    return o;
}

static void refused(cf_status got, cf_status want, const cf_error *e, const char *param,
                    const char *has)
{
    assert_int_equal(got, want);
    assert_string_equal(e->param, param);
    if (!strstr(e->message, has)) fail_msg("'%s' lacks '%s'", e->message, has);
}

static void from_offering(void **state)
{
    cf_offering o = efa_node();
    cf_fabric f;
    cf_error err;
    (void)state;
    assert_int_equal(cf_fabric_from_offering(&o, &f, &err), CF_OK);
    near(f.nic_gbps, 100, 1e-12);
    assert_int_equal(f.network, CF_NET_EFA);
    assert_int_equal(f.gdr, CF_GDR_ON);
    assert_int_equal(f.non_blocking, CF_CAP_YES);
    assert_int_equal(f.rail_optimized, CF_CAP_UNKNOWN);
    o.nics_per_node = -1;   /* unknown: one NIC per GPU */
    assert_int_equal(cf_fabric_from_offering(&o, &f, &err), CF_OK);
    assert_int_equal(f.nics_per_node, 8);
    near(f.nic_gbps, 400, 1e-12);
    o.network_gbps_per_node = NAN;
    refused(cf_fabric_from_offering(&o, &f, &err), CF_EUNSUPPORTED, &err, "offering",
            "offering x: network or its line rate unknown");
    o = efa_node();
    o.network = CF_NET_NONE;
    assert_int_equal(cf_fabric_from_offering(&o, &f, &err), CF_OK);
    assert_int_equal(f.nics_per_node, 0);
    assert_int_equal(f.gdr, CF_GDR_NA);
    o.gpus_per_node = -1;
    refused(cf_fabric_from_offering(&o, &f, &err), CF_EUNSUPPORTED, &err, "offering",
            "offering x: gpus_per_node unknown");
    o.gpu = NULL;
    refused(cf_fabric_from_offering(&o, &f, &err), CF_EUNSUPPORTED, &err, "offering",
            "offering x: gpu unknown");
    /* err may be NULL. */
    assert_int_equal(cf_fabric_from_offering(&o, &f, NULL), CF_EUNSUPPORTED);
}

/* One node: the scale-out network does not matter, stated or not. More:
 * it must be stated, and the refusal says one node works. */
static void one_node_rule(void **state)
{
    cf_offering o = efa_node();
    cf_fabric f;
    cf_error err;
    (void)state;
    assert_int_equal(cf_fabric_for_nodes(&o, 1, &f, &err), CF_OK);
    assert_int_equal(f.network, CF_NET_NONE);
    assert_int_equal(f.nics_per_node, 0);
    assert_int_equal(f.gpus_per_node, 8);
    assert_string_equal(f.gpu, "H100-SXM");
    assert_int_equal(f.intra_link, CF_INTRA_NVSWITCH_NVLINK4);
    assert_int_equal(cf_fabric_for_nodes(&o, 4, &f, &err), CF_OK);
    assert_int_equal(f.network, CF_NET_EFA);
    near(f.nic_gbps, 100, 1e-12);
    o.network = CF_NET_UNKNOWN;
    o.network_gbps_per_node = NAN;
    assert_int_equal(cf_fabric_for_nodes(&o, 1, &f, &err), CF_OK);
    assert_int_equal(f.network, CF_NET_NONE);
    refused(cf_fabric_for_nodes(&o, 2, &f, &err), CF_EUNSUPPORTED, &err, "offering",
            "offering x: 2 nodes need the network between them");
    assert_non_null(strstr(err.message, "network or its line rate unknown; one node works"));
    /* A stated network without its line rate is refused the same way. */
    o.network = CF_NET_IB;
    refused(cf_fabric_for_nodes(&o, 16, &f, &err), CF_EUNSUPPORTED, &err, "offering",
            "16 nodes need the network between them");
    assert_int_equal(cf_fabric_for_nodes(&o, 1, &f, NULL), CF_OK);
    /* The same fabric predicts the same on one node as the whole one. */
    {
        cf_offering whole = efa_node();
        cf_fabric g;
        cf_coll_query q = {CF_COLL_ALL_REDUCE, 1 << 30, 1, 0, CF_ALGO_AUTO};
        cf_coll_result a, b;
        assert_int_equal(cf_fabric_from_offering(&whole, &g, NULL), CF_OK);
        assert_int_equal(cf_collective_predict(&g, &q, &a, NULL), CF_OK);
        assert_int_equal(cf_collective_predict(&f, &q, &b, NULL), CF_OK);
        assert_true(a.time_us == b.time_us && a.busbw_GBps == b.busbw_GBps);
    }
}

static void for_nodes_refusals(void **state)
{
    cf_offering o = efa_node();
    cf_fabric f;
    cf_error err;
    (void)state;
    refused(cf_fabric_for_nodes(&o, 0, &f, &err), CF_EINVAL, &err, "nodes", "nodes expects at least 1, got 0");
    o.intra_link = CF_INTRA_UNKNOWN;
    refused(cf_fabric_for_nodes(&o, 1, &f, &err), CF_EUNSUPPORTED, &err, "offering",
            "offering x: intra_link unknown");
    o = efa_node();
    o.gpus_per_node = -1;
    refused(cf_fabric_for_nodes(&o, 1, &f, &err), CF_EUNSUPPORTED, &err, "offering",
            "offering x: gpus_per_node unknown");
    o = efa_node();
    o.gpu = "a-gpu-name-longer-than-the-fabric-holds";
    refused(cf_fabric_for_nodes(&o, 1, &f, &err), CF_EINVAL, &err, "offering", "gpu name too long");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(from_offering),
        cmocka_unit_test(one_node_rule),
        cmocka_unit_test(for_nodes_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
