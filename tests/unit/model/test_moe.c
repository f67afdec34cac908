/* test_moe.c — Mixture-of-Experts rules (lib/model/moe.c, the MoE parts of
 * gpumem.c, step.c, layouts.c, workload.c) on cases computed by hand from
 * the published shapes: Mixtral 8x7B (mistralai/Mixtral-8x7B-v0.1
 * config.json: h 4096, 32 layers, 32 heads, 8 KV heads, 8 experts of 14336,
 * top-2, vocabulary 32000) and DeepSeek-V3 (deepseek-ai/DeepSeek-V3
 * config.json). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <string.h>
#include <cmocka.h>
#include "model/model_int.h"

static void near(double got, double want, double rel)
{
    if (fabs(got - want) > rel * fabs(want)) fail_msg("got %.10g, want %.10g", got, want);
}

static cf_workload mixtral(void)
{
    cf_workload w;
    cf_workload_init(&w);
    w.llm.family = CF_MODEL_LLAMA;
    w.llm.layers = 32;
    w.llm.hidden = 4096;
    w.llm.ffn_hidden = 14336;
    w.llm.heads = 32;
    w.llm.kv_heads = 8;
    w.llm.seq = 4096;
    w.llm.vocab = 32000;
    w.llm.moe.experts = 8;
    w.llm.moe.top_k = 2;
    w.llm.moe.ffn_hidden = 14336;
    w.global_batch_seqs = 256;
    w.train_tokens = 1e12;
    return w;
}

/* Mixtral: attention 2*4096^2 + 2*4096*1024 = 41,943,040; one expert
 * 3*4096*14336 = 176,160,768; a layer adds its norms 2h = 8192 and router
 * h*E = 32768; embeddings 2*32000*4096 and the final norm 4096. */
static void params_mixtral(void **state)
{
    cf_workload w = mixtral();
    double layer = 41943040.0 + 8192.0 + 32768.0 + 8.0 * 176160768.0;
    double active = 41943040.0 + 8192.0 + 32768.0 + 2.0 * 176160768.0;
    (void)state;
    assert_true(cf__llm_attn_params(&w.llm) == 41943040.0);
    assert_true(cf__moe_expert_params(&w.llm) == 176160768.0);
    assert_true(cf__llm_params_total(&w.llm) == 32.0 * layer + 262144000.0 + 4096.0);
    assert_true(cf__llm_params_active(&w.llm) == 32.0 * active + 262144000.0 + 4096.0);
    near(cf__llm_params_total(&w.llm), 46.7e9, 0.002);     /* "47B" (Mixtral paper) */
    near(cf__llm_params_active(&w.llm), 12.9e9, 0.002);    /* "13B active" */
}

/* DeepSeek-V3 with MLA: 671B total, 37B active (its report's figures). */
static void params_deepseek(void **state)
{
    cf_workload w;
    cf_error err;
    (void)state;
    assert_int_equal(cf_workload_load("deepseek-v3", &w, &err), CF_OK);
    near(cf__llm_params_total(&w.llm), 671e9, 0.01);
    near(cf__llm_params_active(&w.llm), 37e9, 0.03);
    /* MLA projections: q down 7168*1536 + its norm 1536, q up 1536*128*192,
     * kv down 7168*576 + its norm 512, kv up 512*128*256, out 128*128*7168. */
    assert_true(cf__llm_attn_params(&w.llm) == 7168.0 * 1536 + 1536 + 1536.0 * 128 * 192 +
                                                 7168.0 * 576 + 512 + 512.0 * 128 * 256 +
                                                 128.0 * 128 * 7168);
}

/* The dispatch (and combine) all-to-all: tokens x top_k x h x bytes per
 * GPU; FP8 dispatch at 1 B. Mixtral, 4096 tokens: 4096*2*4096*2 B. */
static void a2a_volume(void **state)
{
    cf_workload w = mixtral(), d;
    (void)state;
    assert_true(cf__moe_a2a_bytes(&w.llm, 4096, 2.0) == 67108864.0);
    assert_true(cf__moe_a2a_bytes(&w.llm, 4096, CF_K(BYTES_FP8_DISPATCH)) == 33554432.0);
    d = w;
    d.llm.moe.experts = 0;
    assert_true(cf__moe_a2a_bytes(&d.llm, 4096, 2.0) == 0);
}

/* The step's EP all-to-all on one 8-GPU node, ep 8 over dp 8: per layer
 * and micro-batch, dispatch + combine forward and their gradients backward
 * = 4 all-to-alls of 4096*2*4096*2 B (no recompute), of which
 * (1 - MOE_A2A_HIDDEN) stays exposed and the hidden part costs
 * OVERLAP_SM_STEAL of itself (the layer's compute is the longer). */
static void step_a2a(void **state)
{
    cf_workload w = mixtral();
    cf_fabric fab;
    cf_layout lay;
    cf_step_result r;
    cf_coll_query q;
    cf_coll_result c;
    double per_layer, want;
    long m;
    (void)state;
    memset(&fab, 0, sizeof fab);
    snprintf(fab.gpu, sizeof fab.gpu, "H100-SXM");
    fab.gpus_per_node = 8;
    fab.intra_link = CF_INTRA_NVSWITCH_NVLINK4;
    fab.network = CF_NET_NONE;
    cf_layout_init(&lay);
    lay.dp = 8;
    lay.ep = 8;
    lay.zero = 1;
    lay.recompute = CF_RECOMPUTE_NONE;
    assert_int_equal(cf_step_predict(&w, &fab, 1, &lay, &r, NULL), CF_OK);
    memset(&q, 0, sizeof q);
    q.collective = CF_COLL_ALLTOALL;
    q.bytes = 67108864;
    q.nodes = 1;
    q.ranks_per_node = 8;
    q.algo = CF_ALGO_AUTO;
    assert_int_equal(cf_collective_predict(&fab, &q, &c, NULL), CF_OK);
    per_layer = 4.0 * c.time_us * 1e-6;
    want = per_layer * ((1.0 - CF_K(MOE_A2A_HIDDEN)) + CF_K(MOE_A2A_HIDDEN) * CF_K(OVERLAP_SM_STEAL));
    m = cf__micro_batches(&w, &lay);
    assert_int_equal(m, 32);
    near(r.breakdown.ep_comm_s, (double)m * 32.0 * want, 1e-9);
    /* ep 1: no all-to-all; ep 3 does not divide the 8 experts. */
    lay.ep = 1;
    assert_int_equal(cf_step_predict(&w, &fab, 1, &lay, &r, NULL), CF_OK);
    assert_true(r.breakdown.ep_comm_s == 0);
    lay.ep = 4;
    lay.etp = 4;
    {
        cf_error err;
        assert_int_equal(cf_step_predict(&w, &fab, 1, &lay, &r, &err), CF_EINVAL);
        assert_string_equal(err.param, "ep");
        assert_non_null(strstr(err.message, "ep 4 x etp 4 does not divide tp*dp*cp = 8"));
        lay.etp = 1;
        lay.ep = 3;
        lay.dp = 8;
        assert_int_equal(cf_step_predict(&w, &fab, 1, &lay, &r, &err), CF_EINVAL);
        assert_string_equal(err.param, "ep");
        assert_non_null(strstr(err.message, "ep 3 does not divide the workload's 8 experts"));
    }
}

/* Memory: the experts are split over EP, the dense parts (attention,
 * norms, router, embeddings) over TP; ZeRO-1 shards the optimizer of the
 * dense parts over dp*cp and of the experts over the expert-data-parallel
 * ranks tp*dp*cp/(ep*etp). Mixtral, tp 1, pp 1, dp 8, ep 8. */
static void memory_experts(void **state)
{
    cf_workload w = mixtral();
    cf_layout lay;
    cf__mem_parts parts;
    double dense = 32.0 * (41943040.0 + 8192.0 + 32768.0) + 262144000.0;
    double expert = 32.0 * 8.0 * 176160768.0 / 8.0;
    double de, ex;
    (void)state;
    cf_layout_init(&lay);
    lay.dp = 8;
    lay.ep = 8;
    cf__stage_params(&w.llm, &lay, 1, 1, &de, &ex);
    assert_true(de == dense);
    assert_true(ex == expert);
    lay.zero = 0;
    (void)cf__llm_memory_bytes(&w, &lay, &parts);
    assert_true(parts.states_bytes == (dense + expert) * 16.0);
    lay.zero = 1;
    (void)cf__llm_memory_bytes(&w, &lay, &parts);
    /* edp = 1*8*1/8 = 1: the experts' optimizer is not sharded */
    assert_true(parts.states_bytes == dense * (4.0 + 12.0 / 8.0) + expert * (4.0 + 12.0));
    lay.ep = 1;     /* every GPU holds all 8 experts; edp 8 */
    (void)cf__llm_memory_bytes(&w, &lay, &parts);
    assert_true(parts.states_bytes == (dense + 8.0 * expert) * (4.0 + 12.0 / 8.0));
}

/* FP8 training keeps the routed experts' GEMM inputs in FP8 for the
 * backward (MOE_FP8_INPUT_UNITS = 1 unit of h bytes per h values instead
 * of 2): per routed copy the dispatched input saves 1 unit and fc2's input
 * f_e/h units. Mixtral, micro-batch 1 of 4096 tokens, no recompute:
 * 32 layers x 2 copies x (1 + 14336/4096) x 4096 tokens x 4096 B. */
static void memory_fp8_experts(void **state)
{
    cf_workload w = mixtral();
    cf_layout lay;
    cf__mem_parts bf, f8;
    (void)state;
    cf_layout_init(&lay);
    lay.dp = 8;
    lay.ep = 8;
    lay.zero = 1;
    lay.recompute = CF_RECOMPUTE_NONE;
    w.precision = CF_PREC_BF16;
    (void)cf__llm_memory_bytes(&w, &lay, &bf);
    w.precision = CF_PREC_FP8;
    (void)cf__llm_memory_bytes(&w, &lay, &f8);
    assert_true(CF_K(MOE_FP8_INPUT_UNITS) == 1.0);
    assert_true(bf.activation_bytes - f8.activation_bytes == 32.0 * 2.0 * 4.5 * 4096.0 * 4096.0);
    assert_true(bf.states_bytes == f8.states_bytes);
}

/* The host floor of the routed experts: E/ep local experts take at least
 * E/ep x MOE_EXPERT_LAUNCH_S per MoE layer and micro-batch forward (x3 with
 * the backward). 64 tiny experts (f_e 16: GEMMs of a few microseconds)
 * on one 8-GPU H100 node, dp 8, ZeRO-1 (its optimizer step does not depend
 * on ep): ep 2 leaves 32 local experts, ep 4 16, so the compute differs by
 * m x 32 layers x 3 x 16 x MOE_EXPERT_LAUNCH_S. Mixtral's 8 experts of
 * 14336 at ep 8 (one local expert, ~0.2 TFLOP of GEMMs) are GEMM-bound. */
static void step_expert_launch(void **state)
{
    cf_workload w = mixtral();
    cf_fabric fab;
    cf_layout lay;
    cf_step_result r2, r4;
    long m;
    (void)state;
    w.llm.moe.experts = 64;
    w.llm.moe.ffn_hidden = 16;
    memset(&fab, 0, sizeof fab);
    snprintf(fab.gpu, sizeof fab.gpu, "H100-SXM");
    fab.gpus_per_node = 8;
    fab.intra_link = CF_INTRA_NVSWITCH_NVLINK4;
    fab.network = CF_NET_NONE;
    cf_layout_init(&lay);
    lay.dp = 8;
    lay.zero = 1;
    lay.recompute = CF_RECOMPUTE_NONE;
    lay.ep = 2;
    assert_int_equal(cf_step_predict(&w, &fab, 1, &lay, &r2, NULL), CF_OK);
    lay.ep = 4;
    assert_int_equal(cf_step_predict(&w, &fab, 1, &lay, &r4, NULL), CF_OK);
    m = cf__micro_batches(&w, &lay);
    /* The floor is there (a zero constant would make the difference 0 = 0);
     * its fitted value is test_constants.c's to list. */
    assert_true(CF_K(MOE_EXPERT_LAUNCH_S) > 0);
    assert_true(r2.breakdown.compute_s > r4.breakdown.compute_s);
    near(r2.breakdown.compute_s - r4.breakdown.compute_s,
         (double)m * 32.0 * 3.0 * 16.0 * CF_K(MOE_EXPERT_LAUNCH_S), 1e-9);
}

/* The layout space of an MoE workload: ep over the divisors of the experts
 * that divide tp*dp*cp, each with etp 1 and (tp > 1) etp = tp where ep*tp
 * divides tp*dp*cp; a dense workload only ep 1, etp 1. */
static void layouts_ep(void **state)
{
    cf_workload w = mixtral();
    cf__layout_iter it;
    cf_layout lay;
    int seen[9] = {0}, n = 0, tp8 = 0, etp8 = 0;
    (void)state;
    w.kind = CF_WL_LLM;
    cf_layout_init(&lay);
    cf__layout_iter_init(&it, &w, 8, 8);
    while (cf__layout_iter_next(&it, &lay)) {
        if (lay.tp == 1 && lay.pp == 1 && lay.cp == 1) seen[lay.ep]++;
        assert_int_equal(8 % lay.ep, 0);
        assert_int_equal(((long)lay.tp * lay.dp * lay.cp) % ((long)lay.ep * lay.etp), 0);
        /* etp: 1, or tp when tp > 1 (14336 % tp == 0) */
        assert_true(lay.etp == 1 || (lay.tp > 1 && lay.etp == lay.tp));
        if (lay.tp == 8 && lay.pp == 1) {
            if (lay.etp == 8) etp8++;
            else tp8++;
        }
        n++;
    }
    assert_int_equal(seen[1] + seen[2] + seen[4] + seen[8], 4);
    assert_int_equal(seen[1], 1);
    assert_int_equal(seen[8], 1);
    /* TP8 on 8 GPUs: ep 1, 2, 4, 8 at etp 1; etp 8 only with ep 1
     * (ep x etp divides tp*dp*cp = 8) */
    assert_int_equal(tp8, 4);
    assert_int_equal(etp8, 1);
    w.llm.moe.experts = 0;
    cf__layout_iter_init(&it, &w, 8, 8);
    while (cf__layout_iter_next(&it, &lay)) {
        assert_int_equal(lay.ep, 1);
        assert_int_equal(lay.etp, 1);
        n--;
    }
    assert_true(n > 0);     /* the MoE space is larger */
}

/* Shapes that cannot exist: exit 3 (CF_EPARSE) naming the key and numbers. */
static void bad_shapes(void **state)
{
    static const char *base = "{\"kind\":\"llm\",\"batch\":8,\"tokens\":1e9,\"shape\":{\"model\":\"llama\","
                              "\"layers\":32,\"hidden\":4096,\"heads\":32,\"kv_heads\":8,\"seq\":4096,"
                              "\"vocab\":32000%s}}";
    char text[600];
    cf_workload w;
    cf_error err;
    json_t *j;
    (void)state;
    snprintf(text, sizeof text, base, ",\"moe\":{\"experts\":8,\"top_k\":9,\"ffn_hidden\":14336}");
    j = json_loads(text, 0, NULL);
    assert_non_null(j);
    assert_int_equal(cf_workload_from_json(j, "m.json", &w, &err), CF_EPARSE);
    assert_int_equal(cf_status_exit_code(CF_EPARSE), 3);
    assert_string_equal(err.message, "shape.moe.top_k: 9 is more than the 8 experts (each token goes "
                        "to top_k of shape.moe.experts)");
    json_decref(j);
    /* params_b is the total: 12.9 (the active count) is refused, saying so. */
    snprintf(text, sizeof text, base, ",\"params_b\":12.9,\"moe\":{\"experts\":8,\"top_k\":2,"
             "\"ffn_hidden\":14336}");
    j = json_loads(text, 0, NULL);
    assert_int_equal(cf_workload_from_json(j, "m.json", &w, &err), CF_EPARSE);
    assert_non_null(strstr(err.message, "shape.params_b: 12.9 (billion) is 72 % away from the 46.7 "
                                        "billion parameters"));
    assert_non_null(strstr(err.message, "the active parameters per token are 12.9 billion"));
    json_decref(j);
    snprintf(text, sizeof text, base, ",\"params_b\":46.7,\"moe\":{\"experts\":8,\"top_k\":2,"
             "\"ffn_hidden\":14336,\"expert\":1}");
    j = json_loads(text, 0, NULL);
    assert_int_equal(cf_workload_from_json(j, "m.json", &w, &err), CF_EPARSE);
    assert_non_null(strstr(err.message, "shape.moe.expert: unknown key"));
    json_decref(j);
    /* A good one: ffn_hidden may be left out when every layer is MoE. */
    snprintf(text, sizeof text, base, ",\"params_b\":46.7,\"moe\":{\"experts\":8,\"top_k\":2,"
             "\"ffn_hidden\":14336}");
    j = json_loads(text, 0, NULL);
    assert_int_equal(cf_workload_from_json(j, "m.json", &w, &err), CF_OK);
    assert_int_equal(w.llm.moe.experts, 8);
    assert_int_equal(w.llm.ffn_hidden, 14336);
    json_decref(j);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(params_mixtral),
        cmocka_unit_test(params_deepseek),
        cmocka_unit_test(a2a_volume),
        cmocka_unit_test(step_a2a),
        cmocka_unit_test(memory_fp8_experts),
        cmocka_unit_test(step_expert_launch),
        cmocka_unit_test(memory_experts),
        cmocka_unit_test(layouts_ep),
        cmocka_unit_test(bad_shapes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
