/* test_fabrics_sold.c — fabrics as sold (lib/plan/fabrics_sold.c): the
 * bundles of a small in-memory catalog (grouping by family, stated NICs
 * and Gbit/s per node; the cheapest price in the currency; what cannot be
 * a bundle counted, never given a line rate), the baseline's choice, and
 * the money of the `sold` member from rows whose GPU-hours are set here. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "clusterfit/clusterfit.h"
#include "plan/plan_int.h"

static void offering(cf_offering *o, const char *id, const char *gpu, long gpn, cf_network net,
                     double gbps, long nics, double price, const char *cur)
{
    memset(o, 0, sizeof *o);
    o->id = (char *)id; o->provider = (char *)"Prov"; o->offering = (char *)id;
    o->gpu = (char *)gpu;
    o->gpus_per_node = gpn;
    o->intra_link = CF_INTRA_NVSWITCH_NVLINK4;
    o->network = net;
    o->network_gbps_per_node = gbps;
    o->nics_per_node = nics;
    o->gpudirect_rdma = CF_CAP_YES;
    o->non_blocking = o->rail_optimized = o->in_network_reduction = CF_CAP_UNKNOWN;
    o->max_cluster_gpus = -1;
    o->price_on_demand_gpu_hr = price;
    o->price_reserved_gpu_hr = NAN;
    o->price_spot_gpu_hr = NAN;
    o->currency = (char *)cur;
    o->multinode = CF_CAP_YES;
}

enum { N_OFF = 12 };

static void catalog(cf_offering *os)
{
    offering(&os[0], "ib-a", "H100-SXM", 8, CF_NET_IB, 3200, 8, 4.0, "USD");
    offering(&os[1], "ib-b", "h100-sxm", 8, CF_NET_IB, 3200, 8, 3.5, "USD");   /* case-insensitive */
    offering(&os[2], "ib-c", "H100-SXM", 8, CF_NET_IB, 3200, 8, 2.0, "EUR");   /* not in USD */
    offering(&os[3], "ib-nics-unstated", "H100-SXM", 8, CF_NET_IB, 3200, -1, NAN, "USD");
    offering(&os[4], "roce-reserved", "H100-SXM", 8, CF_NET_ROCE, 1600, 16, NAN, "USD");
    os[4].price_reserved_gpu_hr = 2.5;
    offering(&os[5], "tcp-no-rate", "H100-SXM", 8, CF_NET_TCP, NAN, -1, 1.0, "USD");
    offering(&os[6], "ib-one-node", "H100-SXM", 8, CF_NET_IB, 3200, 8, 1.0, "USD");
    os[6].multinode = CF_CAP_NO;
    offering(&os[7], "ib-4-gpus", "H100-SXM", 4, CF_NET_IB, 1600, 4, 1.0, "USD");
    offering(&os[8], "a100-ib", "A100-SXM-80", 8, CF_NET_IB, 1600, 8, 1.0, "USD");
    offering(&os[9], "net-unstated", "H100-SXM", 8, CF_NET_UNKNOWN, 3200, 8, 1.0, "USD");
    offering(&os[10], "no-network", "H100-SXM", 8, CF_NET_NONE, NAN, -1, 1.0, "USD");
    offering(&os[11], "ib-size-unstated", "H100-SXM", -1, CF_NET_IB, 3200, 8, 1.0, "USD");
}

static void grouping(void **state)
{
    cf_offering os[N_OFF];
    cf__bundles bs;
    (void)state;
    catalog(os);
    cf__fabrics_bundles(os, N_OFF, "H100-SXM", 8, "USD", &bs);
    assert_int_equal(bs.n, 3);
    /* ib 8 x 400: three offerings, the cheapest price in USD (the EUR row
     * is cheaper but never converted). */
    assert_int_equal(bs.b[0].network, CF_NET_IB);
    assert_int_equal(bs.b[0].nics, 8);
    assert_true(bs.b[0].gbps == 3200);
    assert_int_equal(bs.b[0].n_ids, 3);
    assert_string_equal(bs.b[0].ids[0], "ib-a");
    assert_string_equal(bs.b[0].ids[2], "ib-c");
    assert_true(bs.b[0].price == 3.5);
    assert_string_equal(bs.b[0].price_id, "ib-b");
    assert_int_equal(bs.b[0].price_reserved, 0);
    assert_int_equal(bs.b[0].fab.nics_per_node, 8);
    assert_true(bs.b[0].fab.nic_gbps == 400);
    /* The same rate with the NICs not stated is its own bundle; modelled
     * with one NIC per GPU (fabric.c), no price. */
    assert_int_equal(bs.b[1].network, CF_NET_IB);
    assert_int_equal(bs.b[1].nics, 0);
    assert_int_equal(bs.b[1].fab.nics_per_node, 8);
    assert_true(isnan(bs.b[1].price));
    assert_null(bs.b[1].price_id);
    /* A reserved-only price is the list price, said as reserved. */
    assert_int_equal(bs.b[2].network, CF_NET_ROCE);
    assert_true(bs.b[2].gbps == 1600);
    assert_true(bs.b[2].price == 2.5);
    assert_int_equal(bs.b[2].price_reserved, 1);
    /* What cannot be a bundle is counted, not invented. */
    assert_int_equal(bs.unstated[CF_NET_TCP].n, 1);
    assert_string_equal(bs.unstated[CF_NET_TCP].ids[0], "tcp-no-rate");
    assert_int_equal(bs.unstated[CF_NET_IB].n, 1);
    assert_string_equal(bs.unstated[CF_NET_IB].ids[0], "ib-size-unstated");
    assert_int_equal(bs.no_network.n, 1);
    assert_string_equal(bs.no_network.ids[0], "net-unstated");
    assert_int_equal(bs.single_node, 2);
    assert_int_equal(bs.other_size, 1);
    assert_int_equal(bs.n_more, 0);
    /* Another node size has its own bundles. */
    cf__fabrics_bundles(os, N_OFF, "H100-SXM", 4, "USD", &bs);
    assert_int_equal(bs.n, 1);
    assert_string_equal(bs.b[0].ids[0], "ib-4-gpus");
    /* Nothing sold. */
    cf__fabrics_bundles(os, N_OFF, "B200", 8, "USD", &bs);
    assert_int_equal(bs.n, 0);
}

static void baseline(void **state)
{
    cf_offering os[N_OFF];
    cf__bundles bs;
    (void)state;
    catalog(os);
    cf__fabrics_bundles(os, N_OFF, "H100-SXM", 8, "USD", &bs);
    /* No tcp bundle: the lowest Gbit/s per node among the priced ones. */
    assert_int_equal(cf__fabrics_sold_baseline(&bs, CF_NET_TCP, NULL), 2);
    /* ib: the priced ib bundle before the unpriced one at the same rate. */
    assert_int_equal(cf__fabrics_sold_baseline(&bs, CF_NET_IB, NULL), 0);
    /* A bundle without a result (too slow for the deadline) is passed over
     * while one with a result is left; with none, the rule on all. */
    {
        unsigned char ok[3] = {1, 1, 0}, none[3] = {0, 0, 0};
        assert_int_equal(cf__fabrics_sold_baseline(&bs, CF_NET_TCP, ok), 0);
        assert_int_equal(cf__fabrics_sold_baseline(&bs, CF_NET_TCP, none), 2);
    }
    bs.n = 0;
    assert_int_equal(cf__fabrics_sold_baseline(&bs, CF_NET_IB, NULL), 0);
}

static json_t *row(double gpu_h, double prem)
{
    json_t *r = json_object();
    json_object_set_new(r, "gpu_hours", json_real(gpu_h));
    json_object_set_new(r, "worth_premium_pct", json_real(prem));
    return r;
}

/* The money: against the roce baseline (2.5 per GPU-hour, 200 GPU-hours),
 * ib 8 x 400 at 100 GPU-hours breaks even at 2.5 x 200 / 100 = 5, worth
 * 2.5 over the baseline, and costs 3.5 x 100. The bundle with unstated
 * NICs has the larger premium, but the headline names the stated one. */
static void money_and_headline(void **state)
{
    cf_offering os[N_OFF];
    cf__bundles bs;
    json_t *rows = json_array(), *out = NULL, *b0, *b2;
    const char *h;
    (void)state;
    catalog(os);
    cf__fabrics_bundles(os, N_OFF, "H100-SXM", 8, "USD", &bs);
    json_array_append_new(rows, row(100, 100));
    json_array_append_new(rows, row(80, 150));
    json_array_append_new(rows, row(200, 0));
    assert_int_equal(cf__fabrics_sold_json(&bs, rows, 2, "H100-SXM", "USD", &out), CF_OK);
    b0 = json_array_get(json_object_get(out, "bundles"), 0);
    b2 = json_array_get(json_object_get(out, "bundles"), 2);
    assert_true(fabs(json_number_value(json_object_get(b0, "break_even_price_gpu_hr")) - 5.0) < 1e-12);
    assert_true(fabs(json_number_value(json_object_get(b0, "worth_gpu_hr")) - 2.5) < 1e-12);
    assert_true(fabs(json_number_value(json_object_get(b0, "job_cost")) - 350.0) < 1e-9);
    assert_int_equal(json_integer_value(json_object_get(b0, "n_offerings")), 3);
    assert_true(json_is_null(json_object_get(json_array_get(json_object_get(out, "bundles"), 1), "nics_stated")));
    assert_true(json_is_true(json_object_get(b2, "is_baseline")));
    assert_true(fabs(json_number_value(json_object_get(b2, "worth_gpu_hr"))) < 1e-12);
    assert_int_equal(json_integer_value(json_object_get(out, "baseline")), 2);
    assert_int_equal(json_integer_value(json_object_get(out, "best")), 0);
    h = json_string_value(json_object_get(out, "headline"));
    assert_non_null(strstr(h, "InfiniBand 8 x 400 Gbit/s (ib-a, ib-b, +1 more)"));
    assert_non_null(strstr(h, "over RoCE 16 x 100 Gbit/s (roce-reserved)"));
    assert_non_null(strstr(h, "+100.0 %"));
    assert_non_null(strstr(h, "5.00 USD/GPU-h"));
    /* tcp is not sold: named with the offering that states it without a rate. */
    {
        json_t *ns = json_object_get(out, "not_sold"), *tcp = NULL, *v;
        size_t i;
        json_array_foreach(ns, i, v)
            if (strcmp(json_string_value(json_object_get(v, "network")), "tcp") == 0) tcp = v;
        assert_non_null(tcp);
        assert_string_equal(json_string_value(json_array_get(json_object_get(tcp, "unstated_offerings"), 0)),
                            "tcp-no-rate");
        assert_int_equal(json_array_size(ns), 4);   /* efa, tcpxo, tcpx, tcp */
    }
    json_decref(out);
    json_decref(rows);
}

/* One bundle only: no comparison, said. */
static void one_bundle(void **state)
{
    cf_offering os[1];
    cf__bundles bs;
    json_t *rows = json_array(), *out = NULL;
    (void)state;
    offering(&os[0], "only-roce", "MI355X", 8, CF_NET_ROCE, 3200, 8, 6.0, "USD");
    cf__fabrics_bundles(os, 1, "MI355X", 8, "USD", &bs);
    assert_int_equal(bs.n, 1);
    json_array_append_new(rows, row(100, 0));
    assert_int_equal(cf__fabrics_sold_json(&bs, rows, 0, "MI355X", "USD", &out), CF_OK);
    assert_true(json_is_null(json_object_get(out, "best")));
    assert_non_null(strstr(json_string_value(json_object_get(out, "headline")),
                           "RoCE 8 x 400 Gbit/s (only-roce) and no other bundle"));
    assert_int_equal(json_array_size(json_object_get(out, "not_sold")), 5);
    json_decref(out);
    json_decref(rows);
}

/* The deadline rule fabrics shares with plan. */
static void deadline_rule(void **state)
{
    (void)state;
    assert_true(cf__plan_meets_deadline(100, 124, 24));
    assert_false(cf__plan_meets_deadline(100.01, 124, 24));
    assert_true(cf__plan_meets_deadline(1e9, NAN, 24));
    assert_true(cf__plan_meets_deadline(124, 124, 0));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(grouping),
        cmocka_unit_test(baseline),
        cmocka_unit_test(money_and_headline),
        cmocka_unit_test(one_bundle),
        cmocka_unit_test(deadline_rule),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
