/* test_workload.c — presets and JSON workloads (lib/model/workload.c): every
 * preset loads with its published shape; a bad field names the file and the
 * field. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "clusterfit/clusterfit.h"
#include "clusterfit/limits.h"

static void presets_load(void **state)
{
    static const char *const names[] = {"llama3-8b", "llama3-70b", "llama3-405b", "gpt3-175b",
                                        "llama3-70b-finetune", "llama3-8b-finetune", "resnet50-dp", "cfd-stencil",
                                        "batch-inference"};
    cf_workload w;
    cf_error err;
    (void)state;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        assert_int_equal(cf_workload_load(names[i], &w, &err), CF_OK);
        assert_string_equal(w.name, names[i]);
        assert_non_null(strstr(cf_workload_presets(), names[i]));
    }
    /* Llama 3 405B: Table 3 and 4 of arXiv:2407.21783. */
    assert_int_equal(cf_workload_load("llama3-405b", &w, &err), CF_OK);
    assert_int_equal(w.kind, CF_WL_LLM);
    assert_int_equal(w.llm.family, CF_MODEL_LLAMA);
    assert_int_equal(w.llm.layers, 126);
    assert_int_equal(w.llm.hidden, 16384);
    assert_int_equal(w.llm.ffn_hidden, 53248);
    assert_int_equal(w.llm.kv_heads, 8);
    /* §3.4.1: 4M tokens first (512 x 8192), 16M last (2048 x 8192). */
    assert_int_equal(w.global_batch_seqs, 512);
    assert_int_equal(w.global_batch_max_seqs, 2048);
    assert_int_equal(w.framework, CF_FW_DEFAULT);
    assert_true(fabs(w.train_tokens - 15.6e12) < 1);
    assert_int_equal(cf_workload_load("gpt3-175b", &w, &err), CF_OK);
    assert_true(fabs(w.train_tokens - 300e9) < 1);
    assert_int_equal(cf_workload_load("llama3-70b-finetune", &w, &err), CF_OK);
    assert_int_equal(w.zero_hint, 3);
    assert_int_equal(w.framework, CF_FW_FSDP);
    assert_int_equal(w.global_batch_max_seqs, 64);   /* batch_max absent = batch */
    assert_int_equal(cf_workload_load("llama3-8b-finetune", &w, &err), CF_OK);
    assert_int_equal(w.llm.layers, 32);
    assert_int_equal(w.zero_hint, 3);
    assert_int_equal(w.framework, CF_FW_FSDP);
    assert_int_equal(cf_workload_load("resnet50-dp", &w, &err), CF_OK);
    assert_int_equal(w.kind, CF_WL_DATA_PARALLEL);
    assert_true(w.optimizer_bytes_per_param == 8.0);
    assert_int_equal(cf_workload_load("cfd-stencil", &w, &err), CF_OK);
    assert_int_equal(w.kind, CF_WL_STENCIL);
    assert_int_equal(w.st_neighbours, 2);
    assert_int_equal(cf_workload_load("batch-inference", &w, &err), CF_OK);
    assert_int_equal(w.kind, CF_WL_EMBARRASSING);
}

static cf_status load_text(const char *text, cf_workload *w, cf_error *err, char *path, size_t n)
{
    FILE *f;
    snprintf(path, n, "build/tests/wl-%d.json", (int)strlen(text));
    f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return cf_workload_load(path, w, err);
}

static void bad_fields(void **state)
{
    cf_workload w;
    cf_error err;
    char path[128], buf[700];
    (void)state;
    assert_int_equal(load_text("{\"kind\":\"llm\",\"shape\":{\"model\":\"llama\",\"layers\":2,"
                               "\"hidden\":-1,\"ffn_hidden\":8,\"heads\":1,\"seq\":8,\"vocab\":8},"
                               "\"batch\":1,\"tokens\":1}",
                               &w, &err, path, sizeof path),
                     CF_EPARSE);
    assert_string_equal(err.file, path);
    assert_string_equal(err.message, "shape.hidden: expected a positive integer");
    cf_error_format(&err, buf, sizeof buf);
    assert_non_null(strstr(buf, ": shape.hidden: expected a positive integer"));
    assert_int_equal(load_text("{\"kind\":\"rocket\",\"shape\":{}}", &w, &err, path, sizeof path), CF_EPARSE);
    assert_non_null(strstr(err.message, "kind: expected"));
    assert_int_equal(load_text("{\"kind\":\"llm\",\"shape\":{\"model\":\"llama\",\"layers\":2,"
                               "\"hidden\":64,\"ffn_hidden\":8,\"heads\":8,\"kv_heads\":3,\"seq\":8,"
                               "\"vocab\":8},\"batch\":1,\"tokens\":1}",
                               &w, &err, path, sizeof path),
                     CF_EPARSE);
    assert_non_null(strstr(err.message, "shape.kv_heads"));
    assert_int_equal(load_text("{\"kind\": \"llm\",,}", &w, &err, path, sizeof path), CF_EPARSE);
    assert_int_equal(err.line, 1);
    /* A good file, and its name when it has none inside. */
    assert_int_equal(load_text("{\"kind\":\"stencil\",\"shape\":{\"cells\":1e6,\"flops_per_cell\":7,"
                               "\"bytes_per_cell\":8,\"state_bytes_per_cell\":8,"
                               "\"halo_bytes_per_neighbour\":4096,\"decomposed_dims\":3},"
                               "\"iterations\":10}",
                               &w, &err, path, sizeof path),
                     CF_OK);
    assert_int_equal(w.st_neighbours, 6);
    assert_non_null(strstr(w.name, "wl-"));
}

#define LLAMA8B_SHAPE "\"shape\":{\"model\":\"llama\",\"layers\":32,\"hidden\":4096,\"ffn_hidden\":14336," \
                      "\"heads\":32,\"kv_heads\":8,\"seq\":8192,\"vocab\":128256"

/* Unknown keys are errors naming the key and the keys of its level, per
 * kind; params_b is checked against the shape; a stencil is fp32. */
static void strict_keys(void **state)
{
    cf_workload w;
    cf_error err;
    char path[128];
    (void)state;
    assert_int_equal(load_text("{\"kind\":\"llm\"," LLAMA8B_SHAPE "},\"batch\":8,\"token\":1e9}",
                               &w, &err, path, sizeof path), CF_EPARSE);
    assert_string_equal(err.message, "token: unknown key (accepted at the top level of a llm "
                        "workload: name, kind, description, source, note, shape, mtbf_gpu_h, ckpt_async, "
                        "precision, optimizer, grad_fp32, layout_hint, batch, tokens, batch_max, framework; "
                        "see docs/workloads.md)");
    assert_int_equal(cf_status_exit_code(CF_EPARSE), 3);
    assert_int_equal(load_text("{\"kind\":\"llm\"," LLAMA8B_SHAPE ",\"kv_head\":8},\"batch\":8,\"tokens\":1e9}",
                               &w, &err, path, sizeof path), CF_EPARSE);
    assert_non_null(strstr(err.message, "shape.kv_head: unknown key (accepted in shape of a llm workload: "
                                        "model, layers, hidden, ffn_hidden, heads, kv_heads, seq, vocab, params_b, "
                                        "head_dim, moe, mla, mtp_layers;"));
    assert_int_equal(load_text("{\"kind\":\"llm\"," LLAMA8B_SHAPE "},\"batch\":8,\"tokens\":1e9,"
                               "\"layout_hint\":{\"zero_stage\":3}}", &w, &err, path, sizeof path), CF_EPARSE);
    assert_non_null(strstr(err.message, "layout_hint.zero_stage: unknown key (accepted in layout_hint of a llm workload: zero;"));
    /* A key of another kind: tokens means nothing to a stencil. */
    assert_int_equal(load_text("{\"kind\":\"stencil\",\"shape\":{\"cells\":1e6,\"flops_per_cell\":7,"
                               "\"bytes_per_cell\":8,\"state_bytes_per_cell\":8,\"halo_bytes_per_neighbour\":4096},"
                               "\"iterations\":10,\"tokens\":5}", &w, &err, path, sizeof path), CF_EPARSE);
    assert_non_null(strstr(err.message, "tokens: unknown key (accepted at the top level of a stencil workload: "
                                        "name, kind, description, source, note, shape, mtbf_gpu_h, ckpt_async, precision, "
                                        "iterations;"));
    assert_int_equal(load_text("{\"kind\":\"embarrassing\",\"shape\":{\"task_gpu_s\":1,\"memory_gib\":1},"
                               "\"tasks\":4,\"precision\":\"bf16\"}", &w, &err, path, sizeof path), CF_EPARSE);
    assert_non_null(strstr(err.message, "precision: unknown key (accepted at the top level of an embarrassing workload:"));
    /* The stencil model computes in fp32: that is the one precision it takes. */
    assert_int_equal(load_text("{\"kind\":\"stencil\",\"shape\":{\"cells\":1e6,\"flops_per_cell\":7,"
                               "\"bytes_per_cell\":8,\"state_bytes_per_cell\":8,\"halo_bytes_per_neighbour\":4096},"
                               "\"iterations\":10,\"precision\":\"bf16\"}", &w, &err, path, sizeof path), CF_EPARSE);
    assert_non_null(strstr(err.message, "precision: expected fp32 for kind stencil"));
    assert_int_equal(load_text("{\"kind\":\"stencil\",\"shape\":{\"cells\":1e6,\"flops_per_cell\":7,"
                               "\"bytes_per_cell\":8,\"state_bytes_per_cell\":8,\"halo_bytes_per_neighbour\":4096},"
                               "\"iterations\":10,\"precision\":\"fp32\"}", &w, &err, path, sizeof path), CF_OK);
    assert_int_equal(load_text("{\"kind\":\"llm\"," LLAMA8B_SHAPE "},\"batch\":8,\"tokens\":1e9,"
                               "\"precision\":\"fp32\"}", &w, &err, path, sizeof path), CF_EPARSE);
    assert_string_equal(err.message, "precision: expected one of bf16, fp16, fp8, got \"fp32\"");
}

/* Llama 3 8B's shape gives 8,030,261,248 parameters (counted by hand:
 * 32 x (2*4096^2 + 2*4096*1024 + 3*4096*14336 + 2*4096) + 2*128256*4096
 * + 4096); params_b within 25 % of 8.03 passes, beyond is an error naming
 * both numbers. */
static void params_b_against_shape(void **state)
{
    cf_workload w;
    cf_error err;
    char path[128];
    (void)state;
    assert_int_equal(load_text("{\"kind\":\"llm\"," LLAMA8B_SHAPE ",\"params_b\":70},\"batch\":8,\"tokens\":1e9}",
                               &w, &err, path, sizeof path), CF_EPARSE);
    assert_non_null(strstr(err.message, "shape.params_b: 70 (billion) is 772 % away from the 8.03 billion "
                                        "parameters the shape gives"));
    assert_int_equal(load_text("{\"kind\":\"llm\"," LLAMA8B_SHAPE ",\"params_b\":10.1},\"batch\":8,\"tokens\":1e9}",
                               &w, &err, path, sizeof path), CF_EPARSE);
    assert_non_null(strstr(err.message, "10.1 (billion) is 26 % away"));
    assert_int_equal(load_text("{\"kind\":\"llm\"," LLAMA8B_SHAPE ",\"params_b\":9.9},\"batch\":8,\"tokens\":1e9}",
                               &w, &err, path, sizeof path), CF_OK);
    assert_true(w.llm.params_b == 9.9);
    assert_int_equal(load_text("{\"kind\":\"llm\"," LLAMA8B_SHAPE ",\"params_b\":6.1},\"batch\":8,\"tokens\":1e9}",
                               &w, &err, path, sizeof path), CF_OK);
}

/* The cfd-stencil preset says what the model computes: fp32 in both its
 * description and its precision. */
static void stencil_preset_is_fp32(void **state)
{
    json_error_t je;
    json_t *j = json_load_file("data/workloads/cfd-stencil.json", 0, &je);
    (void)state;
    assert_non_null(j);
    assert_string_equal(json_string_value(json_object_get(j, "precision")), "fp32");
    assert_non_null(strstr(json_string_value(json_object_get(j, "description")), "fp32"));
    assert_null(strstr(json_string_value(json_object_get(j, "description")), "bf16"));
    json_decref(j);
}

/* batch_max (default batch, never below it) and framework (megatron | fsdp,
 * absent = by layout: ZeRO-3 is fsdp). */
static void batch_max_and_framework(void **state)
{
    cf_workload w;
    cf_error err;
    char path[128];
    (void)state;
    assert_int_equal(load_text("{\"kind\":\"llm\"," LLAMA8B_SHAPE "},\"batch\":256,\"batch_max\":1024,"
                               "\"framework\":\"MEGATRON\",\"tokens\":1e12}",
                               &w, &err, path, sizeof path), CF_OK);
    assert_int_equal(w.global_batch_seqs, 256);
    assert_int_equal(w.global_batch_max_seqs, 1024);
    assert_int_equal(w.framework, CF_FW_MEGATRON);
    assert_int_equal(load_text("{\"kind\":\"llm\"," LLAMA8B_SHAPE "},\"batch\":256,\"batch_max\":128,"
                               "\"tokens\":1e12}", &w, &err, path, sizeof path), CF_EPARSE);
    assert_string_equal(err.message, "batch_max: 128 (sequences) is below batch 256: the largest "
                        "global batch cannot be smaller than the first");
    assert_int_equal(load_text("{\"kind\":\"llm\"," LLAMA8B_SHAPE "},\"batch\":256,"
                               "\"framework\":\"jax\",\"tokens\":1e12}", &w, &err, path, sizeof path),
                     CF_EPARSE);
    assert_non_null(strstr(err.message, "framework: expected megatron or fsdp"));
    assert_non_null(strstr(err.message, "got \"jax\""));
    assert_int_equal(cf_framework_resolve(CF_FW_DEFAULT, 3), CF_FW_FSDP);
    assert_int_equal(cf_framework_resolve(CF_FW_DEFAULT, 1), CF_FW_MEGATRON);
    assert_int_equal(cf_framework_resolve(CF_FW_MEGATRON, 3), CF_FW_MEGATRON);
    assert_int_equal(cf_framework_resolve(CF_FW_FSDP, 0), CF_FW_FSDP);
    assert_string_equal(cf_framework_name(CF_FW_FSDP), "fsdp");
}

/* Every decimal of a workload file has its range in limits.h (issue 21:
 * flops_per_cell 1e308 reached plan as infinities and a row of "nan"
 * efficiency ranked first; tokens 1e-320 printed a cost of -0.00). The
 * refusal names the file, the field and the range; the bounds themselves
 * are taken. */
#define STENCIL_WL(fpc, iters) "{\"kind\":\"stencil\",\"shape\":{\"cells\":1e6,\"flops_per_cell\":" fpc "," \
    "\"bytes_per_cell\":8,\"state_bytes_per_cell\":8,\"halo_bytes_per_neighbour\":4096},\"iterations\":" iters "}"
static void decimal_bounds(void **state)
{
    cf_workload w;
    cf_error err;
    char path[128], want[128];
    (void)state;
    assert_int_equal(load_text(STENCIL_WL("1e308", "10"), &w, &err, path, sizeof path), CF_EPARSE);
    assert_string_equal(err.file, path);
    snprintf(want, sizeof want, "shape.flops_per_cell: expected a number from %g to %g", CF_WL_FLOPS_MIN,
             CF_WL_FLOPS_MAX);
    assert_string_equal(err.message, want);
    assert_int_equal(load_text(STENCIL_WL("1e-320", "10"), &w, &err, path, sizeof path), CF_EPARSE);
    assert_non_null(strstr(err.message, "shape.flops_per_cell"));
    assert_int_equal(load_text(STENCIL_WL("7", "1e13"), &w, &err, path, sizeof path), CF_EPARSE);
    assert_non_null(strstr(err.message, "iterations: expected a number from 1 to"));
    assert_int_equal(load_text(STENCIL_WL("1e18", "1e12"), &w, &err, path, sizeof path), CF_OK);
    assert_true(w.st_flops_per_cell == CF_WL_FLOPS_MAX && w.st_iterations == CF_WL_ITERATIONS_MAX);
    assert_int_equal(load_text("{\"kind\":\"llm\"," LLAMA8B_SHAPE "},\"batch\":1,\"tokens\":1e-320}",
                               &w, &err, path, sizeof path), CF_EPARSE);
    snprintf(want, sizeof want, "tokens: expected a number from %g to %g", CF_WL_TOKENS_MIN, CF_WL_TOKENS_MAX);
    assert_string_equal(err.message, want);
    assert_int_equal(load_text("{\"kind\":\"llm\"," LLAMA8B_SHAPE "},\"batch\":1,\"tokens\":1e17}",
                               &w, &err, path, sizeof path), CF_EPARSE);
    assert_int_equal(load_text("{\"kind\":\"embarrassing\",\"shape\":{\"task_gpu_s\":600,\"startup_s\":0,"
                               "\"straggler_cv\":11,\"memory_gib\":60},\"tasks\":10}",
                               &w, &err, path, sizeof path), CF_EPARSE);
    assert_non_null(strstr(err.message, "shape.straggler_cv: expected a number from 0 to 10"));
    assert_int_equal(load_text("{\"kind\":\"embarrassing\",\"shape\":{\"task_gpu_s\":600,\"startup_s\":0,"
                               "\"straggler_cv\":10,\"memory_gib\":60},\"tasks\":10}",
                               &w, &err, path, sizeof path), CF_OK);
}

static void unknown_preset(void **state)
{
    cf_workload w;
    cf_error err;
    (void)state;
    assert_int_equal(cf_workload_load("llama9-1t", &w, &err), CF_ENOTFOUND);
    assert_non_null(strstr(err.message, "llama3-405b"));
    assert_int_equal(cf_workload_load("", &w, &err), CF_EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(presets_load),
        cmocka_unit_test(bad_fields),
        cmocka_unit_test(strict_keys),
        cmocka_unit_test(params_b_against_shape),
        cmocka_unit_test(stencil_preset_is_fp32),
        cmocka_unit_test(batch_max_and_framework),
        cmocka_unit_test(decimal_bounds),
        cmocka_unit_test(unknown_preset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
