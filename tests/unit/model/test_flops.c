/* test_flops.c — FLOPs from layer shapes (lib/model/flops.c) against Megatron's
 * closed forms and hand-computed GQA/SwiGLU counts. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <cmocka.h>
#include "model/model_int.h"

static void near(double got, double want, double rel)
{
    if (fabs(got - want) > rel * fabs(want)) fail_msg("got %.10g, want %.10g", got, want);
}

/* Narayanan et al. 2021 (arXiv:2104.04473, eq. 3): per step of B
 * sequences, GELU FFN 4h, MHA, full recompute:
 * 96 B s l h^2 (1 + s/6h + V/16lh); without recompute 72 (1 + s/6h + V/12lh). */
static void megatron_closed_form(void **state)
{
    static const long shapes[][5] = {
        /* l, h, s, V, B  (the Megatron Table 1 GPT rows t01, t05, t09) */
        {24, 2304, 2048, 51200, 512}, {48, 8192, 2048, 51200, 1536}, {105, 20480, 2048, 51200, 2520}};
    (void)state;
    for (size_t i = 0; i < 3; i++) {
        cf_llm_shape s = {CF_MODEL_GPT, shapes[i][0], shapes[i][1], 4 * shapes[i][1],
                          shapes[i][1] / 128, shapes[i][1] / 128, shapes[i][2], shapes[i][3], NAN, 0, {0}, {0}, 0};
        double l = (double)s.layers, h = (double)s.hidden, sq = (double)s.seq, v = (double)s.vocab;
        double B = (double)shapes[i][4];
        cf__llm_flops f;
        cf__llm_flops_compute(&s, &f);
        near(B * f.recompute_full, 96.0 * B * sq * l * h * h * (1 + sq / (6 * h) + v / (16 * l * h)), 1e-12);
        near(B * f.model, 72.0 * B * sq * l * h * h * (1 + sq / (6 * h) + v / (12 * l * h)), 1e-12);
        near(B * cf__llm_flops_counted(&f, CF_RECOMPUTE_FULL), B * f.recompute_full, 1e-15);
        near(cf__llm_flops_counted(&f, CF_RECOMPUTE_SELECTIVE), f.model, 1e-15);
        near(cf__llm_flops_counted(&f, CF_RECOMPUTE_UNKNOWN), f.model, 1e-15);
    }
}

/* Llama 3 8B, one sequence of 8192, by hand: q,o 4096x4096; k,v
 * 4096x1024 (8 KV heads of 128); SwiGLU 3 x 4096x14336. */
static void gqa_swiglu_by_hand(void **state)
{
    cf_llm_shape s = {CF_MODEL_LLAMA, 32, 4096, 14336, 32, 8, 8192, 128256, NAN, 0, {0}, {0}, 0};
    cf__llm_flops f;
    double proj = 2.0 * 8192 * (4096.0 * 4096 * 2 + 4096.0 * 1024 * 2);
    double ffn = 2.0 * 8192 * 4096.0 * 14336 * 3;
    (void)state;
    cf__llm_flops_compute(&s, &f);
    near(f.layer_gemm_fwd, proj + ffn, 1e-12);
    near(f.layer_attn_fwd, 4.0 * 8192 * 8192 * 4096, 1e-12);
    near(f.logits_fwd, 2.0 * 8192 * 4096 * 128256, 1e-12);
    near(f.model, 3.0 * (32 * (proj + ffn + 4.0 * 8192 * 8192 * 4096) + 2.0 * 8192 * 4096 * 128256), 1e-12);
    /* GELU (gpt) with the same widths has 2 FFN matrices, not 3. */
    s.family = CF_MODEL_GPT;
    cf__llm_flops_compute(&s, &f);
    near(f.layer_gemm_fwd, proj + ffn * 2.0 / 3.0, 1e-12);
    /* Selective recompute adds the attention core only. */
    near(f.recompute_sel - f.model, 32 * 4.0 * 8192 * 8192 * 4096, 1e-12);
}

/* Parameter counts against the published sizes: Llama 3 8B = 8.03B,
 * 70B = 70.6B (Meta model cards), GPT-3 175B = 175B (Brown et al.). */
static void published_params(void **state)
{
    cf_llm_shape l8 = {CF_MODEL_LLAMA, 32, 4096, 14336, 32, 8, 8192, 128256, NAN, 0, {0}, {0}, 0};
    cf_llm_shape l70 = {CF_MODEL_LLAMA, 80, 8192, 28672, 64, 8, 8192, 128256, NAN, 0, {0}, {0}, 0};
    cf_llm_shape g175 = {CF_MODEL_GPT, 96, 12288, 49152, 96, 96, 2048, 50257, NAN, 0, {0}, {0}, 0};
    (void)state;
    near(cf__llm_params(&l8), 8.03e9, 0.005);
    near(cf__llm_params(&l70), 70.6e9, 0.005);
    near(cf__llm_params(&g175), 175e9, 0.01);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(megatron_closed_form),
        cmocka_unit_test(gqa_swiglu_by_hand),
        cmocka_unit_test(published_params),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
