/* test_memory.c — memory per GPU (lib/model/gpumem.c) against Korthikanti et al.
 * 2022 (arXiv:2205.05198) activation counts and ZeRO's 16 B per parameter,
 * computed by hand. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <cmocka.h>
#include "model/model_int.h"

#define GIB (1024.0 * 1024.0 * 1024.0)

static void near(double got, double want, double rel)
{
    if (fabs(got - want) > rel * fabs(want)) fail_msg("got %.10g, want %.10g", got, want);
}

/* A GPT (GELU 4h, MHA) of l layers: one stage, micro-batch b. */
static cf_workload gpt(long l, long h, long s, long v, long gbs)
{
    cf_workload w;
    cf_workload_init(&w);
    w.kind = CF_WL_LLM;
    w.llm.family = CF_MODEL_GPT;
    w.llm.layers = l;
    w.llm.hidden = h;
    w.llm.ffn_hidden = 4 * h;
    w.llm.heads = h / 128;
    w.llm.kv_heads = h / 128;
    w.llm.seq = s;
    w.llm.vocab = v;
    w.global_batch_seqs = gbs;
    return w;
}

/* tp = t without sequence parallel: s*b*h*(10 + 24/t) per layer (the
 * 5as/h term is not stored: flash attention); with sequence parallel
 * s*b*h*34/t. States 16 B per parameter of the stage / t. */
static void korthikanti_tp_sp(void **state)
{
    cf_workload w = gpt(24, 4096, 2048, 51200, 64);
    cf_layout lay;
    cf__mem_parts p;
    double h = 4096, s = 2048, t = 4, b = 2;
    double params = (24 * (12.0 * h * h + 2 * h) + 2 * 51200 * h) / t;
    double logits = 6.0 * s * b * 51200 / t;
    (void)state;
    cf_layout_init(&lay);
    lay.tp = 4;
    lay.dp = 2;
    lay.micro_batch = 2;
    lay.sequence_parallel = 0;
    cf__llm_memory_bytes(&w, &lay, &p);
    near(p.states_bytes, params * 16.0, 1e-12);
    near(p.activation_bytes, 24 * s * b * h * (10 + 24 / t) + logits, 1e-12);
    near(p.reserve_bytes, 3.0 * GIB, 1e-12);
    lay.sequence_parallel = 1;
    cf__llm_memory_bytes(&w, &lay, &p);
    near(p.activation_bytes, 24 * s * b * h * 34 / t + logits, 1e-12);
    /* Full recompute: the layer input (2sbh/t with SP) per layer, plus one
     * layer's full activations while it is recomputed. */
    lay.recompute = CF_RECOMPUTE_FULL;
    cf__llm_memory_bytes(&w, &lay, &p);
    near(p.activation_bytes, 24 * s * b * h * 2 / t + s * b * h * 34 / t + logits, 1e-12);
}

/* ZeRO: stage 1 shards the 12 B of Adam, 2 adds the gradients, 3 the
 * weights too (plus two gathered layers) over dp x cp ranks. */
static void zero_stages(void **state)
{
    cf_workload w = gpt(24, 4096, 2048, 51200, 64);
    cf_layout lay;
    cf__mem_parts p;
    double h = 4096, layer = 12.0 * h * h + 2 * h, params = 24 * layer + 2 * 51200 * h;
    (void)state;
    cf_layout_init(&lay);
    lay.dp = 8;
    lay.zero = 1;
    cf__llm_memory_bytes(&w, &lay, &p);
    near(p.states_bytes, params * (2 + 2 + 12.0 / 8), 1e-12);
    lay.zero = 2;
    cf__llm_memory_bytes(&w, &lay, &p);
    near(p.states_bytes, params * (2 + 14.0 / 8), 1e-12);
    lay.zero = 3;
    cf__llm_memory_bytes(&w, &lay, &p);
    near(p.states_bytes, params * 16.0 / 8 + 2 * layer * 4, 1e-12);
    /* fp32 gradients: 4 B instead of 2. */
    w.grad_fp32 = 1;
    lay.zero = 0;
    cf__llm_memory_bytes(&w, &lay, &p);
    near(p.states_bytes, params * 18.0, 1e-12);
}

/* Pipeline: the first stage holds p micro-batches of its l/p layers (so l
 * layers' worth), x (1 + (p-1)/(p v)) interleaved; the embedding is on the
 * first stage only. */
static void pipeline_inflight(void **state)
{
    cf_workload w = gpt(32, 4096, 2048, 51200, 512);
    cf_layout lay;
    cf__mem_parts p;
    double h = 4096, s = 2048, layer = 12.0 * h * h + 2 * h;
    double act = s * h * 34 / 8;   /* per layer, tp 8 with SP, b = 1 */
    (void)state;
    cf_layout_init(&lay);
    lay.tp = 8;
    lay.pp = 4;
    lay.dp = 2;
    cf__llm_memory_bytes(&w, &lay, &p);
    /* first stage: 8 layers + embedding; last: 8 layers + output layer +
     * logits with one micro-batch — the first is larger here. */
    near(p.states_bytes, (8 * layer + 51200 * h) / 8 * 16, 1e-12);
    near(p.activation_bytes, 8 * act * 4, 1e-12);
    lay.vp = 2;
    cf__llm_memory_bytes(&w, &lay, &p);
    near(p.activation_bytes, 8 * act * 4 * (1 + 3.0 / 8), 1e-12);
}

static void usable_memory(void **state)
{
    (void)state;
    /* vendor GB = 10^9 B: 80 GB = 80e9 B = 74.506 GiB */
    near(cf__gpu_usable_bytes("H100-SXM"), 80e9, 1e-12);
    near(cf__gpu_usable_bytes("H100-SXM") / GIB, 74.5058, 1e-5);
    assert_true(cf__gpu_usable_bytes("no-such-gpu") == 0);
}

/* The public figure (hardware.h): the same bytes in GiB, NAN when unknown. */
static void usable_gib(void **state)
{
    (void)state;
    /* 80e9 / 2^30 is exact in binary: 74.505805969238281250 GiB. */
    assert_true(cf_gpu_usable_gib("H100-SXM") == 74.50580596923828125);
    assert_true(cf_gpu_usable_gib("h100-sxm") == 74.50580596923828125);
    /* 141 GB H200: 141e9 / 2^30, exact too. */
    assert_true(cf_gpu_usable_gib("H200-SXM") == 131.316483020782470703125);
    assert_true(isnan(cf_gpu_usable_gib("no-such-gpu")));
    assert_true(isnan(cf_gpu_usable_gib(NULL)));
    /* Every row: the GiB of the bytes `fit` compares against. */
    for (size_t i = 0; i < cf_gpu_count(); i++) {
        const cf_gpu_spec *g = cf_gpu_at(i);
        assert_true(cf_gpu_usable_gib(g->name) == cf__gpu_usable_bytes(g->name) / GIB);
        assert_true(cf_gpu_usable_gib(g->name) == g->memory_gb * 1e9 / GIB);
    }
}

/* FP8 (mbr): each dense layer keeps the QKV and fc1 inputs (h wide) and
 * fc2's input (4h wide for GELU) in 1 byte instead of 2: s*b*(2h/t + 4h/t)
 * with sequence parallel, s*b*(2h + 4h/t) without. Partial (block) full
 * recompute of n layers of each of the v chunks: that share of the stage
 * keeps its inputs only (2sbh/t), the rest everything. */
static void fp8_inputs_and_partial_recompute(void **state)
{
    cf_workload w = gpt(24, 4096, 2048, 51200, 64);
    cf_layout lay;
    cf__mem_parts p;
    double h = 4096, s = 2048, t = 4, b = 2;
    double logits = 6.0 * s * b * 51200 / t, full = s * b * h * 34 / t;
    double fp8 = full - s * b * (2 * h / t + 4 * h / t);
    (void)state;
    cf_layout_init(&lay);
    lay.tp = 4;
    lay.dp = 2;
    lay.micro_batch = 2;
    w.precision = CF_PREC_FP8;
    cf__llm_memory_bytes(&w, &lay, &p);
    near(p.activation_bytes, 24 * fp8 + logits, 1e-12);
    lay.sequence_parallel = 0;
    near(cf__fp8_dense_act_saving(&w, &lay), s * b * (2 * h + 4 * h / t), 1e-12);
    lay.sequence_parallel = 1;
    /* 6 of 24 layers recomputed: a quarter keeps 2sbh/t, the rest fp8;
     * plus the layer being recomputed (its bf16 activations). */
    lay.recompute = CF_RECOMPUTE_FULL;
    lay.recompute_layers = 6;
    near(cf__recompute_frac(&w, &lay), 0.25, 1e-12);
    cf__llm_memory_bytes(&w, &lay, &p);
    near(p.activation_bytes, 24 * (0.25 * 2 * s * b * h / t + 0.75 * fp8) + full + logits, 1e-12);
    /* pp 2, vp 2: 12 layers a stage, 3 of each 6-layer chunk: half */
    lay.pp = 2;
    lay.dp = 1;
    lay.vp = 2;
    lay.recompute_layers = 3;
    near(cf__recompute_frac(&w, &lay), 0.5, 1e-12);
    lay.recompute_layers = 0;
    near(cf__recompute_frac(&w, &lay), 1.0, 0);
    lay.recompute = CF_RECOMPUTE_SELECTIVE;
    near(cf__recompute_frac(&w, &lay), 0.0, 0);
    w.precision = CF_PREC_BF16;
    near(cf__fp8_dense_act_saving(&w, &lay), 0.0, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(korthikanti_tp_sp),
        cmocka_unit_test(fp8_inputs_and_partial_recompute),
        cmocka_unit_test(zero_stages),
        cmocka_unit_test(pipeline_inflight),
        cmocka_unit_test(usable_memory),
        cmocka_unit_test(usable_gib),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
