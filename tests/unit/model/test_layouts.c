/* test_layouts.c — the one TP × CP × PP × DP layout space (model/layouts.c)
 * that `fit`, `plan` and `scale` share: counts worked out by hand, exact
 * layouts in order, every rule checked against an independent filter, and
 * the `fit` results the shared rules changed (pp at most 64; cp only when
 * 2·cp divides the sequence). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "clusterfit/clusterfit.h"
#include "model/model_int.h"

/* An LLM with only the fields the space reads. */
static void llm(cf_workload *w, long layers, long heads, long seq, long batch)
{
    memset(w, 0, sizeof *w);
    w->kind = CF_WL_LLM;
    w->llm.layers = layers;
    w->llm.heads = heads;
    w->llm.seq = seq;
    w->global_batch_seqs = batch;
}

static int count(const cf_workload *w, long gpus, int domain)
{
    cf__layout_iter it;
    cf_layout l;
    int n = 0;
    cf__layout_iter_init(&it, w, gpus, domain);
    while (cf__layout_iter_next(&it, &l)) n++;
    return n;
}

/* The rules of DESIGN §4.5 written out on their own. */
static int allowed(const cf_workload *w, long gpus, int domain, int tp, int cp, int pp)
{
    long dp;
    if (domain % tp || w->llm.heads % tp) return 0;
    if (cp > 1 && (w->llm.seq < 8192 || w->llm.seq % (2 * cp))) return 0;
    if (pp > 64 || pp > w->llm.layers) return 0;
    if (gpus % ((long)tp * cp * pp)) return 0;
    dp = gpus / ((long)tp * cp * pp);
    return dp <= w->global_batch_seqs;
}

static void counts_by_hand(void **state)
{
    cf_workload w;
    (void)state;
    /* 16 GPUs, 8 per node, 32 heads, 8192 tokens: tp = 2^a (a ≤ 3), cp = 2^b
     * (b ≤ 3), pp = 2^c with a + b + c ≤ 4: C(7,3) = 35 triples less
     * (4,0,0) and (0,4,0) = 33. */
    llm(&w, 32, 32, 8192, 512);
    assert_int_equal(count(&w, 16, 8), 33);
    /* 4096 tokens: no context parallel; a + c ≤ 4 with a ≤ 3: 5+4+3+2 = 14. */
    llm(&w, 32, 32, 4096, 512);
    assert_int_equal(count(&w, 16, 8), 14);
    /* 8200 tokens: 8200 % 16 = 8, so cp 8 is out (2·8 must divide the
     * sequence) but cp 2 and 4 stay: b ≤ 2 gives 12 + 9 + 6 + 3 = 30. */
    llm(&w, 32, 32, 8200, 512);
    assert_int_equal(count(&w, 16, 8), 30);
    /* Two layers: pp ≤ 2, so c ≤ 1: 13 pairs (a, b) with a + b ≤ 4 for
     * c = 0, 10 with a + b ≤ 3 for c = 1: 23. */
    llm(&w, 2, 32, 8192, 512);
    assert_int_equal(count(&w, 16, 8), 23);
    /* A batch of 2: dp ≤ 2, i.e. a + b + c ≥ 3 among the 33: 33 − 10 = 23
     * (sums 0, 1, 2 have 1 + 3 + 6 triples). */
    llm(&w, 32, 32, 8192, 2);
    assert_int_equal(count(&w, 16, 8), 23);
    /* Nothing for a non-LLM workload, no GPUs or no layers. */
    w.kind = CF_WL_DATA_PARALLEL;
    assert_int_equal(count(&w, 16, 8), 0);
    llm(&w, 32, 32, 8192, 512);
    assert_int_equal(count(&w, 0, 8), 0);
    llm(&w, 0, 32, 8192, 512);
    assert_int_equal(count(&w, 16, 8), 0);
}

static void exact_layouts_in_order(void **state)
{
    static const int want[][4] = {       /* tp, cp, pp, dp */
        {1, 1, 1, 16}, {1, 1, 2, 8}, {1, 1, 4, 4}, {1, 1, 8, 2}, {1, 1, 16, 1},
        {1, 2, 1, 8}, {1, 2, 2, 4}, {1, 2, 4, 2}, {1, 2, 8, 1},
        {1, 4, 1, 4}, {1, 4, 2, 2}, {1, 4, 4, 1}, {1, 8, 1, 2}, {1, 8, 2, 1},
        {2, 1, 1, 8}};
    cf_workload w;
    cf__layout_iter it;
    cf_layout l;
    (void)state;
    llm(&w, 32, 32, 8192, 512);
    cf_layout_init(&l);
    l.micro_batch = 4;
    l.zero = 3;
    cf__layout_iter_init(&it, &w, 16, 8);
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        assert_true(cf__layout_iter_next(&it, &l));
        assert_int_equal(l.tp, want[i][0]);
        assert_int_equal(l.cp, want[i][1]);
        assert_int_equal(l.pp, want[i][2]);
        assert_int_equal(l.dp, want[i][3]);
    }
    /* Only tp, cp, pp and dp are written. */
    assert_int_equal(l.micro_batch, 4);
    assert_int_equal(l.zero, 3);
    /* The last one: tp 8, cp 2, pp 1, dp 1; then the end, and it stays there. */
    while (cf__layout_iter_next(&it, &l)) {
    }
    assert_int_equal(l.tp, 8);
    assert_int_equal(l.cp, 2);
    assert_int_equal(l.pp, 1);
    assert_int_equal(l.dp, 1);
    assert_false(cf__layout_iter_next(&it, &l));
}

/* Every layout obeys the rules, each allowed (tp, cp, pp) comes exactly
 * once, in increasing (tp, cp, pp) order, on shapes with odd GPU counts,
 * heads, sequences, layers and batches. */
static void every_layout_obeys_the_rules(void **state)
{
    static const long gpus[] = {1, 6, 12, 24, 72, 96, 128, 144};
    static const int domains[] = {1, 4, 8, 72};
    static const long heads[] = {1, 12, 64, 96}, seqs[] = {4096, 8192, 8200, 12288};
    static const long layers[] = {3, 40, 126}, batches[] = {1, 6, 512};
    (void)state;
    for (size_t g = 0; g < 8; g++)
    for (size_t d = 0; d < 4; d++)
    for (size_t h = 0; h < 4; h++)
    for (size_t s = 0; s < 4; s++)
    for (size_t y = 0; y < 3; y++)
    for (size_t b = 0; b < 3; b++) {
        static const int cps[] = {1, 2, 4, 8};
        cf_workload w;
        cf__layout_iter it;
        cf_layout l;
        long prev = -1;
        int n = 0, want = 0;
        llm(&w, layers[y], heads[h], seqs[s], batches[b]);
        for (int tp = 1; tp <= domains[d]; tp++)
            for (int ci = 0; ci < 4; ci++)
                for (int pp = 1; pp <= 130; pp++)
                    want += allowed(&w, gpus[g], domains[d], tp, cps[ci], pp);
        cf__layout_iter_init(&it, &w, gpus[g], domains[d]);
        while (cf__layout_iter_next(&it, &l)) {
            long key = ((long)l.tp * 16 + l.cp) * 1000 + l.pp;
            assert_true(allowed(&w, gpus[g], domains[d], l.tp, l.cp, l.pp));
            assert_int_equal((long)l.tp * l.cp * l.pp * l.dp, gpus[g]);
            assert_true(key > prev);
            prev = key;
            n++;
        }
        assert_int_equal(n, want);
    }
}

static void nvl72_domain(void **state)
{
    cf_workload w;
    cf__layout_iter it;
    cf_layout l;
    int seen[73] = {0};
    (void)state;
    assert_int_equal(cf__layout_domain(4, CF_INTRA_NVL72), 72);
    assert_int_equal(cf__layout_domain(8, CF_INTRA_NVSWITCH_NVLINK4), 8);
    /* 18 trays of 4 GPUs, 96 heads: tp over the rack, the divisors of 72
     * that divide 96. */
    llm(&w, 96, 96, 2048, 1536);
    cf__layout_iter_init(&it, &w, 72, cf__layout_domain(4, CF_INTRA_NVL72));
    while (cf__layout_iter_next(&it, &l)) seen[l.tp] = 1;
    for (int tp = 1; tp <= 72; tp++)
        assert_int_equal(seen[tp], tp == 1 || tp == 2 || tp == 3 || tp == 4 || tp == 6 ||
                                   tp == 8 || tp == 12 || tp == 24);
}

static void pp_up_to_64(void **state)
{
    cf_workload w;
    cf__layout_iter it;
    cf_layout l;
    int max_pp = 0;
    (void)state;
    /* 200 layers on 128 GPUs: pp 64 is the deepest pipeline, not 128. */
    llm(&w, 200, 1, 4096, 2048);
    cf__layout_iter_init(&it, &w, 128, 1);
    while (cf__layout_iter_next(&it, &l))
        if (l.pp > max_pp) max_pp = l.pp;
    assert_int_equal(max_pp, 64);
    assert_int_equal(count(&w, 128, 1), 7);    /* pp 1, 2, 4, ..., 64 */
}

static void fit_in_the_shared_space(void **state)
{
    cf_workload w;
    cf_error err;
    cf_fit_result r;
    (void)state;
    /* Llama 3 405B at 8200 tokens on H100 nodes of 4: 8200 % 16 = 8 rules
     * out cp 8, so 24 nodes take TP4 PP2 CP4 DP3 (`fit` used to keep cp 8,
     * seq % cp = 0: TP4 CP8 DP3). */
    assert_int_equal(cf_workload_load("llama3-405b", &w, &err), CF_OK);
    w.llm.seq = 8200;
    assert_int_equal(cf_fit(&w, "H100-SXM", 4, &r, NULL), CF_OK);
    assert_int_equal(r.min_nodes, 24);
    assert_int_equal(r.layout.tp, 4);
    assert_int_equal(r.layout.pp, 2);
    assert_int_equal(r.layout.cp, 4);
    assert_int_equal(r.layout.dp, 3);
    assert_int_equal(r.layout.zero, 3);
    assert_int_equal(r.layout.recompute, CF_RECOMPUTE_FULL);
    /* GPT-3 175B on one V100 per node: pp is at most 64, so 240 nodes with
     * PP48 DP5 ZeRO-2 (`fit` used to answer 192 nodes with PP96). */
    assert_int_equal(cf_workload_load("gpt3-175b", &w, &err), CF_OK);
    assert_int_equal(cf_fit(&w, "V100-SXM2", 1, &r, NULL), CF_OK);
    assert_int_equal(r.min_nodes, 240);
    assert_int_equal(r.layout.tp, 1);
    assert_int_equal(r.layout.pp, 48);
    assert_int_equal(r.layout.cp, 1);
    assert_int_equal(r.layout.dp, 5);
    assert_int_equal(r.layout.zero, 2);
    assert_int_equal(r.layout.recompute, CF_RECOMPUTE_FULL);
    /* Llama 3 405B on one L4 per node fits nowhere up to 2048 nodes (it
     * needed PP126 on 2016). */
    assert_int_equal(cf_workload_load("llama3-405b", &w, &err), CF_OK);
    assert_int_equal(cf_fit(&w, "L4", 1, &r, NULL), CF_OK);
    assert_int_equal(r.min_nodes, 0);
    /* The presets on their usual nodes are as before: 405B on 8 H100 needs
     * 12 nodes with a layout of the space. */
    assert_int_equal(cf_fit(&w, "H100-SXM", 8, &r, NULL), CF_OK);
    assert_int_equal(r.min_nodes, 12);
    assert_int_equal(r.layout.tp, 8);
    assert_int_equal(r.layout.pp, 1);
    assert_int_equal(r.layout.dp, 12);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(counts_by_hand),
        cmocka_unit_test(exact_layouts_in_order),
        cmocka_unit_test(every_layout_obeys_the_rules),
        cmocka_unit_test(nvl72_domain),
        cmocka_unit_test(pp_up_to_64),
        cmocka_unit_test(fit_in_the_shared_space),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
