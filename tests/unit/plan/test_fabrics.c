/* test_fabrics.c — `fabrics` (fabrics.h): the worth premium's formula on
 * hand-computed cases, the relations every answer of cf_fabrics must keep
 * whatever the collective model's figures (premium from the row's own
 * times or GPU-hours, E = 1 at N0, the baseline at 0 %, the deadline met
 * on the count chosen and missed on the count before it), the defaults and
 * their `assumes`, the refusals with their param names, and the assumption
 * flags (cf_fabric_assumptions) that predict, scale and plan share. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "clusterfit/clusterfit.h"

static void near(double got, double want, double abs_tol)
{
    if (!(fabs(got - want) <= abs_tol)) fail_msg("got %.9g, want %.9g (+-%.1e)", got, want, abs_tol);
}

static double num(const json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    if (!json_is_number(v)) fail_msg("'%s' is not a number", k);
    return json_number_value(v);
}

static json_t *row_of(json_t *doc, const char *net)
{
    size_t i;
    json_t *r;
    json_array_foreach(json_object_get(doc, "fabrics"), i, r)
        if (strcmp(json_string_value(json_object_get(r, "network")), net) == 0) return r;
    fail_msg("no row for %s", net);
    return NULL;
}

static int has_flag(json_t *row, const char *code)
{
    size_t i;
    json_t *f;
    json_array_foreach(json_object_get(row, "flags"), i, f)
        if (strcmp(json_string_value(f), code) == 0) return 1;
    return 0;
}

static void set(cf_fabrics_query *q, const char *name, const char *value)
{
    cf_error e;
    cf_error_clear(&e);
    if (cf_fabrics_query_set(q, name, value, &e) != CF_OK) fail_msg("%s=%s: %s", name, value, e.message);
}

static json_t *run(const char *workload, cf_fabrics_query *q)
{
    cf_workload w;
    cf_error e;
    json_t *doc = NULL;
    cf_error_clear(&e);
    assert_int_equal(cf_workload_load(workload, &w, &e), CF_OK);
    if (cf_fabrics(&w, q, &doc, &e) != CF_OK) fail_msg("cf_fabrics: %s", e.message);
    assert_non_null(doc);
    return doc;
}

/* The formula by hand. Equal node counts: baseline 10 h, fabric 8 h; the
 * fabric may cost 10/8 = 1.25 times the baseline's price per GPU-hour, so
 * 25 % more: the job then costs 8 h x 1.25 p = 10 h x p on both. Under a
 * deadline: baseline 4 nodes x 8 GPUs x 10 h = 320 GPU-h, fabric 2 x 8 x
 * 12 h = 192 GPU-h: 320/192 - 1 = 66.67 %. A slower fabric (12.5 h vs 10)
 * must be 20 % cheaper: -20 %. */
static void premium_formula(void **state)
{
    (void)state;
    near(cf_worth_premium_pct(10.0, 8.0), 25.0, 1e-12);
    near(cf_worth_premium_pct(4 * 8 * 10.0, 2 * 8 * 12.0), 200.0 / 3.0, 1e-12);
    near(cf_worth_premium_pct(10.0, 12.5), -20.0, 1e-12);
    near(cf_worth_premium_pct(7.0, 7.0), 0.0, 0);
    assert_true(isnan(cf_worth_premium_pct(0, 8)));
    assert_true(isnan(cf_worth_premium_pct(10, 0)));
    assert_true(isnan(cf_worth_premium_pct(NAN, 8)));
    assert_true(isnan(cf_worth_premium_pct(10, INFINITY)));
    assert_true(isnan(cf_worth_premium_pct(-1, 8)));
}

/* At a fixed node count every row's premium is its own T_baseline / T - 1,
 * its time is steps x step time, its GPU-hours nodes x GPUs x time, the
 * baseline's premium is 0; the families come in their order. */
static void fixed_nodes_relations(void **state)
{
    cf_fabrics_query q;
    json_t *doc, *base, *r;
    size_t i, nf;
    const cf_network *fams = cf_fabrics_families(&nf);
    /* llama3-8b: 15e12 tokens in steps of 512 x 8192 tokens. */
    double steps = ceil(15e12 / (512.0 * 8192.0));
    (void)state;
    cf_fabrics_query_init(&q);
    set(&q, "gpu", "H100-SXM");
    set(&q, "nodes", "16");
    doc = run("llama3-8b", &q);
    assert_string_equal(json_string_value(json_object_get(doc, "baseline")), "tcp");
    assert_string_equal(json_string_value(json_object_get(doc, "premium_basis")), "time");
    assert_int_equal(json_integer_value(json_object_get(doc, "nodes")), 16);
    assert_true(json_is_null(json_object_get(doc, "deadline_h")));
    assert_int_equal(json_array_size(json_object_get(doc, "fabrics")), nf);
    assert_int_equal(nf, 6);
    base = row_of(doc, "tcp");
    near(num(base, "worth_premium_pct"), 0, 0);
    json_array_foreach(json_object_get(doc, "fabrics"), i, r) {
        double t = num(r, "time_to_train_h"), st = num(r, "steady_time_to_train_h");
        assert_string_equal(json_string_value(json_object_get(r, "network")), cf_network_name(fams[i]));
        assert_int_equal(json_integer_value(json_object_get(r, "nodes")), 16);
        assert_int_equal(json_integer_value(json_object_get(r, "nics")), 8);
        near(num(r, "nic_gbps"), 400, 0);
        /* steady: steps x step time; the time counts the goodput (issue 24) */
        near(st, steps * num(r, "step_time_s") / 3600.0, 1e-9 * st);
        near(t, st / num(r, "goodput"), 1e-9 * t);
        assert_true(num(r, "goodput") < 1);
        near(num(r, "gpu_hours"), 16 * 8 * t, 1e-9 * 16 * 8 * t);
        near(num(r, "worth_premium_pct"), 100.0 * (num(base, "time_to_train_h") / t - 1.0), 1e-9);
        assert_true(json_is_object(json_object_get(r, "layout")));
    }
    json_decref(doc);
}

/* The same job on each fabric: at a node count every family runs the
 * global batch the search grows to there on ib, the first family (a slow
 * fabric would grow its own further and price another job). llama3-70b on
 * 64 nodes of 8 x H100-SXM grows 512 on ib and once grew 1024 on tcp. The
 * time is the workload's steps (of its batch) x step x batch / grown batch;
 * with the batch equal, tcpx is not slower than tcp, nor ib than tcpx. */
static void same_batch_every_family(void **state)
{
    cf_fabrics_query q;
    cf_workload w;
    cf_error e;
    json_t *doc, *r;
    size_t i;
    long b;
    double steps;
    (void)state;
    cf_error_clear(&e);
    assert_int_equal(cf_workload_load("llama3-70b", &w, &e), CF_OK);
    steps = ceil(w.train_tokens / ((double)w.global_batch_seqs * (double)w.llm.seq));
    cf_fabrics_query_init(&q);
    set(&q, "gpu", "H100-SXM");
    set(&q, "nodes", "64");
    doc = run("llama3-70b", &q);
    r = json_array_get(json_object_get(doc, "fabrics"), 0);
    assert_string_equal(json_string_value(json_object_get(r, "network")), "ib");
    b = (long)json_integer_value(json_object_get(r, "global_batch_seqs"));
    assert_true(b >= w.global_batch_seqs && b <= w.global_batch_max_seqs);
    json_array_foreach(json_object_get(doc, "fabrics"), i, r) {
        double t = num(r, "steady_time_to_train_h");
        assert_int_equal(json_integer_value(json_object_get(r, "global_batch_seqs")), b);
        near(t, steps * num(r, "step_time_s") * (double)w.global_batch_seqs / (double)b / 3600.0,
             1e-9 * t);
    }
    assert_true(num(row_of(doc, "tcpx"), "worth_premium_pct") >= 0);
    assert_true(num(row_of(doc, "ib"), "worth_premium_pct") >= num(row_of(doc, "tcpx"), "worth_premium_pct"));
    assert_true(num(row_of(doc, "tcpxo"), "worth_premium_pct") >= num(row_of(doc, "tcpx"), "worth_premium_pct"));
    json_decref(doc);
}

/* E is the row's throughput per GPU against N0 on the same family: 1 at
 * N0, and E(N) = t(N0) N0 / (t(N) N) from two answers. */
static void efficiency_against_n0(void **state)
{
    cf_fabrics_query q;
    json_t *at0, *at16;
    long n0;
    size_t i;
    json_t *r;
    (void)state;
    cf_fabrics_query_init(&q);
    set(&q, "gpu", "H100-SXM");
    set(&q, "nodes", "16");
    at16 = run("llama3-70b", &q);
    n0 = (long)json_integer_value(json_object_get(at16, "n0"));
    assert_true(n0 >= 1 && n0 < 16);
    cf_fabrics_query_init(&q);
    set(&q, "gpu", "H100-SXM");
    q.nodes = (int)n0;
    at0 = run("llama3-70b", &q);
    json_array_foreach(json_object_get(at0, "fabrics"), i, r) {
        json_t *r16 = json_array_get(json_object_get(at16, "fabrics"), i);
        near(num(r, "scaling_efficiency"), 1.0, 1e-12);
        near(num(r16, "scaling_efficiency"),
             num(r, "step_time_s") * (double)n0 / (num(r16, "step_time_s") * 16.0), 1e-9);
    }
    json_decref(at0);
    json_decref(at16);
}

/* Under a deadline each family takes the first count of plan's list (N0,
 * then powers of two) that meets it: its time is within the deadline, the
 * count before it (when it is not N0) is not; the premium compares
 * GPU-hours; another baseline is 0 % itself. */
static void deadline_relations(void **state)
{
    cf_fabrics_query q;
    json_t *doc, *base, *r;
    size_t i;
    long n0;
    (void)state;
    cf_fabrics_query_init(&q);
    set(&q, "gpu", "H100-SXM");
    set(&q, "deadline_h", "720");
    set(&q, "baseline", "efa");
    doc = run("llama3-8b", &q);
    assert_true(json_is_null(json_object_get(doc, "nodes")));
    near(num(doc, "deadline_h"), 720, 0);
    assert_string_equal(json_string_value(json_object_get(doc, "premium_basis")), "gpu_hours");
    n0 = (long)json_integer_value(json_object_get(doc, "n0"));
    base = row_of(doc, "efa");
    near(num(base, "worth_premium_pct"), 0, 0);
    json_array_foreach(json_object_get(doc, "fabrics"), i, r) {
        long n = (long)json_integer_value(json_object_get(r, "nodes"));
        cf_fabrics_query q2;
        json_t *before;
        assert_true(n >= n0);
        assert_true(num(r, "time_to_train_h") <= 720);
        near(num(r, "worth_premium_pct"), 100.0 * (num(base, "gpu_hours") / num(r, "gpu_hours") - 1.0), 1e-9);
        if (n == n0) continue;
        assert_true((n & (n - 1)) == 0);    /* a power of two above N0 */
        if (n / 2 <= n0) continue;
        cf_fabrics_query_init(&q2);
        set(&q2, "gpu", "H100-SXM");
        q2.nodes = (int)(n / 2);
        before = run("llama3-8b", &q2);
        assert_true(num(row_of(before, json_string_value(json_object_get(r, "network"))),
                        "time_to_train_h") > 720);
        json_decref(before);
    }
    json_decref(doc);
}

/* A deadline nobody meets: every row null with deadline_missed. */
static void deadline_missed(void **state)
{
    cf_fabrics_query q;
    json_t *doc, *r;
    size_t i;
    (void)state;
    cf_fabrics_query_init(&q);
    set(&q, "gpu", "H100-SXM");
    set(&q, "deadline_h", "0.001");
    doc = run("llama3-70b", &q);
    json_array_foreach(json_object_get(doc, "fabrics"), i, r) {
        assert_true(has_flag(r, "deadline_missed"));
        assert_true(json_is_null(json_object_get(r, "nodes")));
        assert_true(json_is_null(json_object_get(r, "worth_premium_pct")));
        assert_true(json_is_null(json_object_get(r, "time_to_train_h")));
    }
    json_decref(doc);
}

/* Defaults from the GPU's usual node and the catalog, each in `assumes`;
 * what is given is kept and not assumed. */
static void defaults_and_assumes(void **state)
{
    cf_fabrics_query q;
    json_t *doc, *a;
    char all[4096] = "";
    size_t i;
    (void)state;
    cf_fabrics_query_init(&q);
    set(&q, "gpu", "h100-sxm");
    set(&q, "nodes", "4");
    doc = run("llama3-8b", &q);
    assert_string_equal(json_string_value(json_object_get(doc, "gpu")), "H100-SXM");
    assert_int_equal(json_integer_value(json_object_get(doc, "gpus_per_node")), 8);
    assert_string_equal(json_string_value(json_object_get(doc, "intra")), "nvswitch-nvlink4");
    json_array_foreach(json_object_get(doc, "assumes"), i, a) {
        size_t used = strlen(all);
        snprintf(all + used, sizeof all - used, "%s|", json_string_value(a));
    }
    assert_non_null(strstr(all, "gpus_per_node 8"));
    assert_non_null(strstr(all, "nics 8"));
    assert_non_null(strstr(all, "nic_gbps 400"));
    json_decref(doc);

    cf_fabrics_query_init(&q);
    set(&q, "gpu", "H100-SXM");
    set(&q, "gpus_per_node", "8");
    set(&q, "intra", "nvswitch-nvlink4");
    set(&q, "nics", "4");
    set(&q, "nic_gbps", "200");
    set(&q, "nodes", "4");
    doc = run("llama3-8b", &q);
    assert_int_equal(json_array_size(json_object_get(doc, "assumes")), 1);   /* gdr only */
    assert_int_equal(json_integer_value(json_object_get(row_of(doc, "ib"), "nics")), 4);
    near(num(row_of(doc, "roce"), "nic_gbps"), 200, 0);
    json_decref(doc);
}

/* The topology flags on every fabric's row beyond 2 nodes (the congestion
 * model's one rule), and gone when stated. */
static void topology_flags(void **state)
{
    cf_fabrics_query q;
    json_t *doc;
    (void)state;
    cf_fabrics_query_init(&q);
    set(&q, "gpu", "H100-SXM");
    set(&q, "nodes", "8");
    doc = run("llama3-8b", &q);
    assert_true(has_flag(row_of(doc, "ib"), "non_blocking_unknown"));
    assert_true(has_flag(row_of(doc, "roce"), "rail_optimized_unknown"));
    assert_true(has_flag(row_of(doc, "efa"), "non_blocking_unknown"));
    assert_int_equal(json_array_size(json_object_get(row_of(doc, "tcp"), "flags")), 2);
    json_decref(doc);
    set(&q, "non_blocking", "yes");
    set(&q, "rail_optimized", "no");
    doc = run("llama3-8b", &q);
    assert_int_equal(json_array_size(json_object_get(row_of(doc, "ib"), "flags")), 0);
    json_decref(doc);
}

/* cf_fabric_assumptions says what the collective model relied on: the
 * same bits as cf_coll_result.assumed, for every family and node count. */
static void assumptions_match_the_model(void **state)
{
    static const cf_network nets[] = {CF_NET_IB, CF_NET_ROCE, CF_NET_EFA, CF_NET_TCPX, CF_NET_TCPXO, CF_NET_TCP};
    static const int nodes[] = {1, 2, 3, 4, 64};
    static const cf_cap caps[] = {CF_CAP_UNKNOWN, CF_CAP_NO, CF_CAP_YES};
    (void)state;
    for (size_t i = 0; i < sizeof nets / sizeof nets[0]; i++)
        for (size_t k = 0; k < sizeof nodes / sizeof nodes[0]; k++)
            for (size_t c = 0; c < 3; c++) {
                cf_fabric f;
                cf_coll_query q;
                cf_coll_result r;
                unsigned want = 0, got;
                cf_fabric_init(&f);
                snprintf(f.gpu, sizeof f.gpu, "H100-SXM");
                f.gpus_per_node = 8;
                f.intra_link = CF_INTRA_NVSWITCH_NVLINK4;
                f.network = nodes[k] > 1 ? nets[i] : CF_NET_NONE;
                f.nics_per_node = nodes[k] > 1 ? 8 : 0;
                f.nic_gbps = nodes[k] > 1 ? 400 : 0;
                f.non_blocking = caps[c];
                f.rail_optimized = caps[(c + 1) % 3];
                cf_coll_query_init(&q);
                q.collective = CF_COLL_ALL_REDUCE;
                q.bytes = 1 << 28;
                q.nodes = nodes[k];
                assert_int_equal(cf_collective_predict(&f, &q, &r, NULL), CF_OK);
                got = cf_fabric_assumptions(&f, nodes[k]);
                if (r.assumed & CF_ASSUMED_NON_BLOCKING) want |= CF_FLAG_NON_BLOCKING_UNKNOWN;
                if (r.assumed & CF_ASSUMED_RAIL_OPTIMIZED) want |= CF_FLAG_RAIL_OPTIMIZED_UNKNOWN;
                assert_int_equal(got, want);
            }
}

static void refused(cf_status st, const cf_error *e, const char *param, const char *text)
{
    assert_int_equal(st, CF_EINVAL);
    assert_string_equal(e->param, param);
    if (!strstr(e->message, text)) fail_msg("'%s' lacks '%s'", e->message, text);
}

static void refusals(void **state)
{
    cf_fabrics_query q, before;
    cf_workload w, idle;
    cf_error e;
    json_t *doc = (json_t *)1;
    (void)state;
    cf_fabrics_query_init(&q);
    before = q;
    refused(cf_fabrics_query_set(&q, "nodes", "0", &e), &e, "nodes", "nodes expects an integer from 1");
    refused(cf_fabrics_query_set(&q, "deadline_h", "-3", &e), &e, "deadline_h", "deadline_h expects");
    refused(cf_fabrics_query_set(&q, "baseline", "rdma", &e), &e, "baseline",
            "accepted: ib, roce, efa, tcpxo, tcpx, tcp");
    refused(cf_fabrics_query_set(&q, "gpu", "H100-SMX", &e), &e, "gpu", "unknown gpu");
    refused(cf_fabrics_query_set(&q, "nic_gbps", "0", &e), &e, "nic_gbps", "nic_gbps expects");
    refused(cf_fabrics_query_set(&q, "non_blocking", "maybe", &e), &e, "non_blocking", "no, yes, unknown");
    refused(cf_fabrics_query_set(&q, "nodes", "", &e), &e, "nodes", "has no value");
    refused(cf_fabrics_query_set(&q, "network", "ib", &e), &e, "", "unknown fabrics parameter 'network'");
    assert_memory_equal(&q, &before, sizeof q);     /* unchanged on error */

    assert_int_equal(cf_workload_load("llama3-8b", &w, &e), CF_OK);
    refused(cf_fabrics(&w, &q, &doc, &e), &e, "nodes", "neither");
    assert_null(doc);
    set(&q, "nodes", "4");
    set(&q, "deadline_h", "100");
    refused(cf_fabrics(&w, &q, &doc, &e), &e, "nodes", "both");
    q.deadline_h = NAN;
    refused(cf_fabrics(&w, &q, &doc, &e), &e, "gpu", "gpu is required");
    set(&q, "gpu", "H100-SXM");
    idle = w;
    idle.train_tokens = 0;
    refused(cf_fabrics(&idle, &q, &doc, &e), &e, "workload", "states no amount of work");
    assert_null(doc);
}

/* cf_fabric_assumptions: only across nodes, only on the fabrics whose
 * congestion model reads the topology, only for what is unknown. */
static void assumption_flags(void **state)
{
    cf_fabric f;
    json_t *j;
    (void)state;
    cf_fabric_init(&f);
    f.network = CF_NET_IB;
    assert_int_equal(cf_fabric_assumptions(&f, 1), 0);
    assert_int_equal(cf_fabric_assumptions(&f, 2), 0);     /* one leaf switch */
    assert_int_equal(cf_fabric_assumptions(&f, 3),
                     CF_FLAG_NON_BLOCKING_UNKNOWN | CF_FLAG_RAIL_OPTIMIZED_UNKNOWN);
    f.non_blocking = CF_CAP_NO;
    assert_int_equal(cf_fabric_assumptions(&f, 64), CF_FLAG_RAIL_OPTIMIZED_UNKNOWN);
    f.rail_optimized = CF_CAP_YES;
    assert_int_equal(cf_fabric_assumptions(&f, 64), 0);
    f.non_blocking = f.rail_optimized = CF_CAP_UNKNOWN;
    f.network = CF_NET_ROCE;
    assert_int_equal(cf_fabric_assumptions(&f, 8), 3u);
    f.network = CF_NET_RDMA;
    assert_int_equal(cf_fabric_assumptions(&f, 8), 3u);
    f.network = CF_NET_EFA;     /* the same rule for every family */
    assert_int_equal(cf_fabric_assumptions(&f, 8), 3u);
    f.network = CF_NET_TCP;
    assert_int_equal(cf_fabric_assumptions(&f, 8), 3u);
    f.network = CF_NET_NONE;
    assert_int_equal(cf_fabric_assumptions(&f, 8), 0);
    assert_int_equal(cf_fabric_assumptions(NULL, 8), 0);
    j = cf_assumption_flags_json(3u);
    assert_int_equal(json_array_size(j), 2);
    assert_string_equal(json_string_value(json_array_get(j, 0)), "non_blocking_unknown");
    assert_string_equal(json_string_value(json_array_get(j, 1)), "rail_optimized_unknown");
    json_decref(j);
    assert_string_equal(cf_assumption_code(CF_FLAG_RAIL_OPTIMIZED_UNKNOWN), "rail_optimized_unknown");
    assert_non_null(strstr(cf_assumption_text(CF_FLAG_NON_BLOCKING_UNKNOWN), "non_blocking unknown"));
    assert_null(cf_assumption_code(1u << 7));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(premium_formula),
        cmocka_unit_test(fixed_nodes_relations),
        cmocka_unit_test(same_batch_every_family),
        cmocka_unit_test(efficiency_against_n0),
        cmocka_unit_test(deadline_relations),
        cmocka_unit_test(deadline_missed),
        cmocka_unit_test(defaults_and_assumes),
        cmocka_unit_test(assumptions_match_the_model),
        cmocka_unit_test(topology_flags),
        cmocka_unit_test(refusals),
        cmocka_unit_test(assumption_flags),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
