/* test_stepmemo.c — the search's step memo (lib/model/stepmemo.c: collective
 * times, per-layer parts, the GPU, efficiencies, FLOPs) and the step
 * model's use of it (cf__step_predict_aided, lib/model/step.c): with a memo
 * shared by every layout of a fabric and every batch of a workload, each
 * step prediction (and memory per GPU) is bit for bit the one
 * cf_step_predict (cf__memory_gib) gives without it
 * (the memo answers most questions: it is used), refusals are the same with
 * the same reason, a memo bound to another fabric is ignored and one bound
 * to another workload shape keeps only its collective times, and a slot
 * gives back only the question it holds. Also: cf__llm_least_recompute
 * answers what the loop of memory questions it replaces answers. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "model/model_int.h"

static cf_fabric fabric(const char *gpu, int gpn, cf_intra_link link, cf_network net, int nics, double gbps)
{
    cf_fabric f;
    memset(&f, 0, sizeof f);
    snprintf(f.gpu, sizeof f.gpu, "%s", gpu);
    f.gpus_per_node = gpn;
    f.intra_link = link;
    f.network = net;
    f.nics_per_node = nics;
    f.nic_gbps = gbps;
    f.gdr = CF_GDR_ON;
    f.non_blocking = f.rail_optimized = CF_CAP_UNKNOWN;
    return f;
}

/* Bit for bit (NAN equal to NAN). */
static void same(double a, double b, const char *what)
{
    if (memcmp(&a, &b, sizeof a) != 0) fail_msg("%s: %.17g with the memo, %.17g without", what, a, b);
}

static void same_result(const cf_step_result *a, const cf_step_result *b)
{
    same(a->step_time_s, b->step_time_s, "step_time_s");
    same(a->ideal_step_time_s, b->ideal_step_time_s, "ideal_step_time_s");
    same(a->tokens_per_s, b->tokens_per_s, "tokens_per_s");
    same(a->tflops_per_gpu, b->tflops_per_gpu, "tflops_per_gpu");
    same(a->mfu, b->mfu, "mfu");
    same(a->memory_per_gpu_gib, b->memory_per_gpu_gib, "memory_per_gpu_gib");
    same(a->breakdown.compute_s, b->breakdown.compute_s, "compute_s");
    same(a->breakdown.tp_comm_s, b->breakdown.tp_comm_s, "tp_comm_s");
    same(a->breakdown.cp_comm_s, b->breakdown.cp_comm_s, "cp_comm_s");
    same(a->breakdown.ep_comm_s, b->breakdown.ep_comm_s, "ep_comm_s");
    same(a->breakdown.pp_bubble_s, b->breakdown.pp_bubble_s, "pp_bubble_s");
    same(a->breakdown.pp_comm_s, b->breakdown.pp_comm_s, "pp_comm_s");
    same(a->breakdown.dp_comm_exposed_s, b->breakdown.dp_comm_exposed_s, "dp_comm_exposed_s");
}

/* Every layout of the plan's space at `nodes` (micro-batch 1 and 2, ZeRO 0,
 * 1 and 3, each recompute) on one fabric, with one memo: returns how many
 * were compared. */
static long compare_space(const cf_workload *w, const cf_fabric *fab, int nodes, cf__step_memo *memo)
{
    cf__layout_iter it;
    cf_layout lay;
    long n = 0;
    memset(&lay, 0, sizeof lay);
    cf__layout_iter_init(&it, w, (long)nodes * fab->gpus_per_node,
                         cf__layout_domain(fab->gpus_per_node, fab->intra_link));
    while (cf__layout_iter_next(&it, &lay)) {
        lay.vp = 1;
        lay.sequence_parallel = lay.tp > 1;
        for (int mb = 1; mb <= 2; mb++)
            for (int z = 0; z <= 3; z += (z == 1 ? 2 : 1))
                for (int rc = 0; rc < 3; rc++) {
                    cf_step_result a, b;
                    cf__step_aid aid = {memo, NAN, 0, NULL, 0};
                    cf_status sa, sb;
                    lay.micro_batch = mb;
                    lay.zero = z;
                    lay.recompute = (cf_recompute)rc;
                    memset(&a, 0, sizeof a);
                    memset(&b, 0, sizeof b);
                    sa = cf__step_predict_aided(w, fab, nodes, &lay, &a, NULL, &aid);
                    sb = cf_step_predict(w, fab, nodes, &lay, &b, NULL);
                    assert_int_equal(sa, sb);
                    if (sa == CF_OK) same_result(&a, &b);
                    /* the memory with the memo's workload figures */
                    same(cf__memory_gib_memo(w, &lay, memo), cf__memory_gib(w, &lay), "memory");
                    for (int vp = 2; vp <= 2 && lay.pp > 1; vp++) {
                        cf_layout l2 = lay;
                        l2.vp = vp;
                        same(cf__memory_gib_memo(w, &l2, memo), cf__memory_gib(w, &l2), "memory vp 2");
                    }
                    n++;
                }
    }
    return n;
}

static void memo_gives_the_models_times(void **state)
{
    static const char *const wls[] = {"llama3-405b", "deepseek-v3", "mixtral-8x7b", "llama3-8b"};
    static const int counts[] = {1, 3, 16, 64};
    cf_fabric fabs[4];
    cf__step_memo *memo = malloc(sizeof *memo);
    long compared = 0;
    (void)state;
    assert_non_null(memo);
    fabs[0] = fabric("H100-SXM", 8, CF_INTRA_NVSWITCH_NVLINK4, CF_NET_IB, 8, 400);
    fabs[1] = fabric("A100-SXM-80", 8, CF_INTRA_NVSWITCH_NVLINK3, CF_NET_ROCE, 4, 200);
    fabs[2] = fabric("GB200", 4, CF_INTRA_NVL72, CF_NET_IB, 4, 800);
    fabs[3] = fabric("H100-SXM", 8, CF_INTRA_NVSWITCH_NVLINK4, CF_NET_TCP, 1, 100);
    for (size_t wi = 0; wi < sizeof wls / sizeof wls[0]; wi++) {
        cf_workload w;
        cf_error err;
        assert_int_equal(cf_workload_load(wls[wi], &w, &err), CF_OK);
        for (size_t fi = 0; fi < sizeof fabs / sizeof fabs[0]; fi++) {
            cf_workload wb = w;
            cf__step_memo_reset(memo, &fabs[fi], &w);
            for (size_t ci = 0; ci < sizeof counts / sizeof counts[0]; ci++) {
                compared += compare_space(&w, &fabs[fi], counts[ci], memo);
                /* A copy with another batch (plan's growing batch) shares it. */
                wb.global_batch_seqs = w.global_batch_seqs * 2;
                compared += compare_space(&wb, &fabs[fi], counts[ci], memo);
            }
            /* Used: most questions repeat across layouts. */
            assert_true(memo->hits > 2 * memo->misses);
            assert_true(memo->layer_hits > 2 * memo->layer_misses);
        }
    }
    assert_true(compared > 10000);
    free(memo);
}

/* A refusal is the model's, with its reason, memo or not; a memo bound to
 * another fabric is not read (nor written). */
static void refusals_and_other_fabrics(void **state)
{
    cf_fabric fab = fabric("H100-SXM", 8, CF_INTRA_NVSWITCH_NVLINK4, CF_NET_IB, 8, 400), other = fab;
    cf__step_memo *memo = malloc(sizeof *memo);
    cf_workload w;
    cf_layout lay;
    cf_step_result a, b;
    cf_error ea, eb;
    cf__step_aid aid = {memo, NAN, 0, NULL, 0};
    (void)state;
    assert_non_null(memo);
    assert_int_equal(cf_workload_load("llama3-70b", &w, &ea), CF_OK);
    cf_layout_init(&lay);
    lay.tp = 8; lay.dp = 4; lay.zero = 1;
    /* nic_gbps 0 with a network: the collective model refuses the DP
     * all-reduce across nodes. */
    fab.nic_gbps = 0;
    cf__step_memo_reset(memo, &fab, &w);
    for (int i = 0; i < 2; i++) {
        cf_error_clear(&ea);
        cf_error_clear(&eb);
        assert_int_equal(cf__step_predict_aided(&w, &fab, 4, &lay, &a, &ea, &aid), CF_EINVAL);
        assert_int_equal(cf_step_predict(&w, &fab, 4, &lay, &b, &eb), CF_EINVAL);
        assert_string_equal(ea.message, eb.message);
        assert_string_equal(ea.param, eb.param);
    }
    /* Bound to `fab`, asked about `other`: not used. */
    memo->hits = memo->misses = 0;
    assert_int_equal(cf__step_predict_aided(&w, &other, 4, &lay, &a, NULL, &aid), CF_OK);
    assert_int_equal(cf_step_predict(&w, &other, 4, &lay, &b, NULL), CF_OK);
    same_result(&a, &b);
    assert_true(memo->hits == 0 && memo->misses == 0);
    /* Bound to another workload shape: its collective times serve, its
     * per-layer parts do not. */
    {
        cf_workload w8;
        assert_int_equal(cf_workload_load("llama3-8b", &w8, &ea), CF_OK);
        cf__step_memo_reset(memo, &other, &w8);
        assert_false(cf__step_memo_fits(memo, &w));
        for (int i = 0; i < 2; i++) {
            assert_int_equal(cf__step_predict_aided(&w, &other, 4, &lay, &a, NULL, &aid), CF_OK);
            same_result(&a, &b);
        }
        assert_true(memo->hits > 0 && memo->layer_hits == 0 && memo->layer_misses == 0);
    }
    /* The memory handed in is the result's (the caller's cf__memory_gib). */
    aid.memo = NULL;
    aid.memory_gib = cf__memory_gib(&w, &lay);
    assert_int_equal(cf__step_predict_aided(&w, &other, 4, &lay, &a, NULL, &aid), CF_OK);
    same_result(&a, &b);
    free(memo);
}

/* A slot answers only the question it holds: collective, bytes, nodes and
 * ranks per node all match; a question that lands on a taken slot takes it. */
static void slots_answer_their_question(void **state)
{
    cf_fabric fab = fabric("H100-SXM", 8, CF_INTRA_NVSWITCH_NVLINK4, CF_NET_IB, 8, 400);
    cf__step_memo *memo = malloc(sizeof *memo);
    double t = -1;
    unsigned long kept = 0;
    (void)state;
    assert_non_null(memo);
    cf__step_memo_reset(memo, &fab, NULL);
    assert_false(cf__coll_memo_get(memo, CF_COLL_ALL_REDUCE, 1024, 2, 8, &t));
    cf__coll_memo_put(memo, CF_COLL_ALL_REDUCE, 1024, 2, 8, 1.5e-5);
    assert_true(cf__coll_memo_get(memo, CF_COLL_ALL_REDUCE, 1024, 2, 8, &t));
    assert_true(t == 1.5e-5);
    assert_false(cf__coll_memo_get(memo, CF_COLL_ALL_GATHER, 1024, 2, 8, &t));
    assert_false(cf__coll_memo_get(memo, CF_COLL_ALL_REDUCE, 1025, 2, 8, &t));
    assert_false(cf__coll_memo_get(memo, CF_COLL_ALL_REDUCE, 1024, 1, 8, &t));
    assert_false(cf__coll_memo_get(memo, CF_COLL_ALL_REDUCE, 1024, 2, 4, &t));
    /* Op 0 (all_reduce) is not an empty slot's 0. */
    cf__step_memo_reset(memo, &fab, NULL);
    assert_false(cf__coll_memo_get(memo, 0, 0, 0, 0, &t));
    /* Many more questions than slots: every answer given is its own. */
    for (unsigned long i = 0; i < 4 * CF__COLL_MEMO_SLOTS; i++)
        cf__coll_memo_put(memo, (int)(i % 5), 4096 * (i / 5), (int)(i % 7) + 1, 8, (double)i);
    for (unsigned long i = 0; i < 4 * CF__COLL_MEMO_SLOTS; i++)
        if (cf__coll_memo_get(memo, (int)(i % 5), 4096 * (i / 5), (int)(i % 7) + 1, 8, &t)) {
            assert_true(t == (double)i);
            kept++;
        }
    assert_true(kept > 0 && kept <= CF__COLL_MEMO_SLOTS);
    /* A layer slot answers only its key: every field of it counts. */
    {
        cf__layer_key k, o;
        cf__layer_parts p, q;
        memset(&k, 0, sizeof k);
        memset(&p, 0, sizeof p);
        k.tp = 8; k.cp = 2; k.micro_batch = 1; k.ep = 1; k.etp = 1; k.recompute = 2; k.sp = 1;
        k.rc_frac = 1; k.peak = 1e15; k.peak_attn = 9e14;
        p.d_fwd = 0.25;
        cf__layer_memo_put(memo, &k, &p);
        assert_true(cf__layer_memo_get(memo, &k, &q) && q.d_fwd == 0.25);
        o = k; o.tp = 4; assert_false(cf__layer_memo_get(memo, &o, &q));
        o = k; o.cp = 1; assert_false(cf__layer_memo_get(memo, &o, &q));
        o = k; o.micro_batch = 2; assert_false(cf__layer_memo_get(memo, &o, &q));
        o = k; o.ep = 2; assert_false(cf__layer_memo_get(memo, &o, &q));
        o = k; o.etp = 8; assert_false(cf__layer_memo_get(memo, &o, &q));
        o = k; o.recompute = 1; assert_false(cf__layer_memo_get(memo, &o, &q));
        o = k; o.sp = 0; assert_false(cf__layer_memo_get(memo, &o, &q));
        o = k; o.tp_overlap = 1; assert_false(cf__layer_memo_get(memo, &o, &q));
        o = k; o.rc_frac = 0.5; assert_false(cf__layer_memo_get(memo, &o, &q));
        o = k; o.peak = 1.1e15; assert_false(cf__layer_memo_get(memo, &o, &q));
        o = k; o.peak_attn = 1e15; assert_false(cf__layer_memo_get(memo, &o, &q));
    }
    free(memo);
}

/* cf__llm_least_recompute is the loop of memory questions it replaces:
 * every layout of a few shapes, ZeRO stage sets and limits. */
static void least_recompute_is_the_loop(void **state)
{
    static const char *const wls[] = {"llama3-405b", "deepseek-v3", "llama3-70b", "mixtral-8x7b"};
    static const int zeros[] = {3, 1, 0};
    static const double limits[] = {20, 40, 74.5, 130, 1e9};
    long checked = 0, fits[4] = {0, 0, 0, 0};
    (void)state;
    for (size_t wi = 0; wi < sizeof wls / sizeof wls[0]; wi++) {
        cf_workload w;
        cf_error err;
        cf__mem_shape ms;
        assert_int_equal(cf_workload_load(wls[wi], &w, &err), CF_OK);
        cf__mem_shape_init(&w, &ms);
        cf__mem_shape_mix(&ms, &w.llm);
        for (long g = 8; g <= 2048; g *= 4) {
            cf__layout_iter it;
            cf_layout lay;
            memset(&lay, 0, sizeof lay);
            cf__layout_iter_init(&it, &w, g, 8);
            while (cf__layout_iter_next(&it, &lay)) {
                lay.sequence_parallel = lay.tp > 1;
                for (int mb = 1; mb <= 4; mb *= 2)
                    for (size_t li = 0; li < sizeof limits / sizeof limits[0]; li++)
                        for (int z0 = 0; z0 < 3; z0 += 2) {
                            int want = 3, got;
                            lay.micro_batch = mb;
                            lay.vp = 1 + (mb == 2 && lay.pp > 1);
                            for (int rc = 0; rc < 3 && want == 3; rc++)
                                for (int zi = z0; zi < 3; zi++) {
                                    cf_layout l = lay;
                                    l.recompute = (cf_recompute)rc;
                                    l.zero = zeros[zi];
                                    if (cf__memory_gib(&w, &l) <= limits[li]) {
                                        want = rc;
                                        break;
                                    }
                                }
                            got = cf__llm_least_recompute(&w, &ms, &lay, zeros + z0, 3 - z0, limits[li]);
                            if (got != want) fail_msg("%s: least recompute %d, the loop %d", wls[wi], got, want);
                            fits[want]++;
                            checked++;
                        }
            }
        }
    }
    /* (selective keeps what none keeps with flash attention: never the least) */
    if (!(checked > 10000 && fits[0] > 0 && fits[2] > 0 && fits[3] > 0))
        fail_msg("checked %ld: %ld %ld %ld %ld", checked, fits[0], fits[1], fits[2], fits[3]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(least_recompute_is_the_loop),
        cmocka_unit_test(memo_gives_the_models_times),
        cmocka_unit_test(refusals_and_other_fabrics),
        cmocka_unit_test(slots_answer_their_question),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
