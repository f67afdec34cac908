/* test_ladder.c — plan's node ladder and the growing global batch
 * (lib/plan/ladder.c), driven by a model computed by hand here.
 *
 * The model: one GPU per node, one layer and one head, so the only layout at
 * N nodes is dp = N. A step of a global batch of B sequences computes
 * W × B / (B0 × N) seconds (the work grows with the batch) plus a fixed C
 * seconds of communication on more than one node. Seconds per base batch of
 * work (B0 sequences): W / N + C × B0 / B: a larger batch amortises C. */
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

#define W 800.0
#define B0 8
static double C = 40.0;

static double fake_mem(const cf_workload *w, const cf_fabric *fab, const cf_layout *l)
{
    (void)w; (void)fab; (void)l;
    return 1.0;
}

static cf_status fake_step(const cf_workload *w, const cf_fabric *fab, int nodes,
                           const cf_layout *l, cf_step_result *r, cf_error *err)
{
    double comp = W * (double)w->global_batch_seqs / B0 / nodes;
    (void)err;
    if ((long)l->tp * l->pp * l->dp * l->cp != (long)nodes * fab->gpus_per_node) return CF_EINVAL;
    memset(r, 0, sizeof *r);
    r->breakdown.compute_s = comp;
    r->breakdown.dp_comm_exposed_s = nodes > 1 ? C : 0;
    r->ideal_step_time_s = comp;
    r->step_time_s = comp + r->breakdown.dp_comm_exposed_s;
    r->memory_per_gpu_gib = 1.0;
    return CF_OK;
}

static cf_status fake_fit(const cf_workload *w, const char *gpu, int gpn, cf_fit_result *out,
                          cf_error *err)
{
    (void)w; (void)gpu; (void)gpn; (void)err;
    memset(out, 0, sizeof *out);
    out->min_nodes = 1;
    out->fits_one_node = 1;
    return CF_OK;
}

static cf_status fake_fabric(const cf_offering *o, int nodes, cf_fabric *f, cf_error *err)
{
    (void)err;
    memset(f, 0, sizeof *f);
    snprintf(f->gpu, sizeof f->gpu, "%s", o->gpu);
    f->gpus_per_node = (int)o->gpus_per_node;
    f->intra_link = o->intra_link;
    f->network = nodes > 1 ? o->network : CF_NET_NONE;
    f->nics_per_node = 1;
    f->nic_gbps = 100;
    return CF_OK;
}

static double fake_limit(const char *gpu) { return strcmp(gpu, "FAKE-80") == 0 ? 80.0 : NAN; }

static const cf__plan_model model = {fake_step, fake_fit, fake_fabric, fake_limit, fake_mem, NULL, NULL, NULL};

/* 100 base steps of B0 sequences of 4096 tokens; batch_max bmax. */
static void llm(cf_workload *w, long bmax)
{
    memset(w, 0, sizeof *w);
    snprintf(w->name, sizeof w->name, "fake");
    w->kind = CF_WL_LLM;
    w->llm.layers = 1; w->llm.hidden = 64; w->llm.heads = 1; w->llm.kv_heads = 1;
    w->llm.seq = 4096; w->llm.ffn_hidden = 256; w->llm.vocab = 64;
    w->global_batch_seqs = B0;
    w->global_batch_max_seqs = bmax;
    w->train_tokens = 100.0 * B0 * 4096;
}

static void offering(cf_offering *o, long max_gpus)
{
    memset(o, 0, sizeof *o);
    o->id = (char *)"one"; o->provider = (char *)"Prov"; o->offering = (char *)"one";
    o->gpu = (char *)"FAKE-80";
    o->gpus_per_node = 1;
    o->intra_link = CF_INTRA_NVSWITCH_NVLINK4;
    o->network = CF_NET_IB;
    o->network_gbps_per_node = 100;
    o->nics_per_node = 1;
    o->gpudirect_rdma = CF_CAP_YES;
    o->max_cluster_gpus = max_gpus;
    o->billing_increment_s = 1;
    o->min_commitment_h = 0;
    o->price_on_demand_gpu_hr = 2.0;
    o->price_reserved_gpu_hr = NAN;
    o->currency = (char *)"USD";
    o->multinode = CF_CAP_YES;
}

static double num(json_t *o, const char *k) { return json_number_value(json_object_get(o, k)); }
static long inum(json_t *o, const char *k) { return (long)json_integer_value(json_object_get(o, k)); }

/* N0, then 2^k and 3·2^(k-1) above it while the GPUs fit. */
static void ladder_counts(void **state)
{
    int c[CF_MAX_PLAN_NODE_COUNTS];
    static const int want[] = {3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128};
    (void)state;
    assert_int_equal(cf__plan_node_ladder(3, 8, 1024, c, CF_MAX_PLAN_NODE_COUNTS), 12);
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) assert_int_equal(c[i], want[i]);
    assert_int_equal(cf__plan_node_ladder(1, 8, 64, c, CF_MAX_PLAN_NODE_COUNTS), 6); /* 1 2 3 4 6 8 */
    assert_int_equal(c[2], 3);
    assert_int_equal(c[5], 8);
    /* 5 nodes, then 6, 8, 12, ..., 2048: powers of two give 5, 8, ..., 2048 (10). */
    assert_true(cf__plan_node_ladder(5, 8, 16384, c, CF_MAX_PLAN_NODE_COUNTS) <= 2 * 10);
    assert_int_equal(cf__plan_node_ladder(20, 8, 128, c, CF_MAX_PLAN_NODE_COUNTS), 0);
    assert_int_equal(cf__plan_node_ladder(1, 8, 1 << 30, c, 4), 4);   /* cap */
}

/* On 8 nodes: B = 8: 100 + 40 = 140 s per base batch; B = 16: (200 + 40)/2
 * = 120 (14 % less: taken); B = 32: (400 + 40)/4 = 110 (8.3 % less: taken).
 * On 1 node there is no C: every batch gives 800 s per base batch, so the
 * first (8) stays. With C = 10 on 8 nodes: 110, then 105 (4.5 % < 5 %): 8. */
static void batch_grows_with_the_cluster(void **state)
{
    cf_workload w;
    cf_fabric fab;
    cf__plan_point pt;
    cf__search s;
    cf_offering o;
    (void)state;
    C = 40;
    llm(&w, 32);
    offering(&o, 8);
    assert_int_equal(fake_fabric(&o, 8, &fab, NULL), CF_OK);
    memset(&s, 0, sizeof s);
    s.model = &model; s.w = &w; s.fab = &fab; s.mem_limit_gib = 80;
    cf__plan_best_grow(&s, 8, &pt);
    assert_true(pt.found);
    assert_int_equal(cf__plan_pt_batch(&pt, &w), 32);
    assert_float_equal(pt.res.step_time_s, 440.0, 1e-9);
    assert_float_equal(cf__plan_pt_s(&pt), 110.0, 1e-9);
    assert_ptr_equal(s.w, &w);                 /* the workload is given back */
    cf__plan_best_grow(&s, 1, &pt);
    assert_int_equal(cf__plan_pt_batch(&pt, &w), 8);
    assert_float_equal(cf__plan_pt_s(&pt), 800.0, 1e-9);
    C = 10;
    cf__plan_best_grow(&s, 8, &pt);
    assert_int_equal(cf__plan_pt_batch(&pt, &w), 8);
    assert_float_equal(cf__plan_pt_s(&pt), 110.0, 1e-9);
    /* batch_max = batch: never grown. */
    C = 40;
    llm(&w, B0);
    cf__plan_best_grow(&s, 8, &pt);
    assert_int_equal(cf__plan_pt_batch(&pt, &w), 8);
    assert_float_equal(cf__plan_pt_s(&pt), 140.0, 1e-9);
}

/* plan's ladder starts each count from the batch the count below chose:
 * from 32 (batch_max) on 1 node the batch stays 32, although 8 would do
 * there (800 s per base batch either way); from 16 on 8 nodes, 16 then 32. */
static void grow_from_the_count_below(void **state)
{
    cf_workload w;
    cf_fabric fab;
    cf__plan_point pt;
    cf__search s;
    cf_offering o;
    (void)state;
    C = 40;
    llm(&w, 32);
    offering(&o, 8);
    assert_int_equal(fake_fabric(&o, 8, &fab, NULL), CF_OK);
    memset(&s, 0, sizeof s);
    s.model = &model; s.w = &w; s.fab = &fab; s.mem_limit_gib = 80;
    cf__plan_best_grow_from(&s, 1, 32, &pt);
    assert_int_equal(cf__plan_pt_batch(&pt, &w), 32);
    assert_float_equal(cf__plan_pt_s(&pt), 800.0, 1e-9);
    cf__plan_best_grow_from(&s, 8, 16, &pt);
    assert_int_equal(cf__plan_pt_batch(&pt, &w), 32);
    assert_float_equal(cf__plan_pt_s(&pt), 110.0, 1e-9);
    /* Past batch_max is clamped to it; 0 is the workload's batch. */
    cf__plan_best_grow_from(&s, 1, 1000, &pt);
    assert_int_equal(cf__plan_pt_batch(&pt, &w), 32);
    cf__plan_best_grow_from(&s, 1, 0, &pt);
    assert_int_equal(cf__plan_pt_batch(&pt, &w), 8);
    assert_ptr_equal(s.w, &w);
}

/* plan and scale count the grown batch in the time to train: 100 base steps
 * × 110 s on 8 nodes (25 steps of 440 s); the row states its batch. */
static void time_to_train_counts_the_batch(void **state)
{
    cf_workload w;
    cf_offering o;
    cf_offering_list list = {&o, 1};
    cf_plan_opts opts;
    cf_error err;
    json_t *doc, *r, *arr;
    int nodes[] = {1, 8};
    (void)state;
    C = 40;
    llm(&w, 32);
    offering(&o, 8);
    cf_plan_opts_init(&opts);
    opts.goodput.no_failures = 1; /* the steady model by hand; goodput: test_goodput.c */
    opts.objective = CF_OBJ_TIME;
    assert_int_equal(cf__plan_run(&model, &list, &w, &opts, &doc, &err), CF_OK);
    r = json_array_get(json_object_get(doc, "ranked"), 0);
    assert_non_null(r);
    assert_int_equal(inum(r, "nodes"), 8);
    assert_int_equal(inum(r, "global_batch_seqs"), 32);
    assert_float_equal(num(r, "step_time_s"), 440.0, 1e-9);
    assert_float_equal(num(r, "time_to_train_h"), 100 * 110.0 / 3600, 1e-9);
    /* E per GPU of work: 800 × 1 / (110 × 8). */
    assert_float_equal(num(r, "scaling_efficiency"), 800.0 / (110.0 * 8), 1e-12);
    json_decref(doc);
    assert_int_equal(cf__scale_run_gp(&model, &o, &w, nodes, 2, &opts.goodput, &arr, &err), CF_OK);
    r = json_array_get(arr, 1);
    assert_int_equal(inum(r, "global_batch_seqs"), 32);
    assert_float_equal(num(r, "time_to_train_h"), 100 * 110.0 / 3600, 1e-9);
    assert_float_equal(num(r, "throughput"), B0 * 4096 / 110.0, 1e-9);
    assert_int_equal(inum(json_array_get(arr, 0), "global_batch_seqs"), 8);
    assert_float_equal(num(json_array_get(arr, 0), "time_to_train_h"), 100 * 800.0 / 3600, 1e-9);
    json_decref(arr);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ladder_counts),
        cmocka_unit_test(batch_grows_with_the_cluster),
        cmocka_unit_test(grow_from_the_count_below),
        cmocka_unit_test(time_to_train_counts_the_batch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
