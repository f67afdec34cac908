/* test_serve.c — the serving model (lib/model/serve.c, serve_workload.c;
 * docs/model-serve.md): KV-cache bytes per token, the all-to-all volume and
 * the decode time per token on hand-computed cases, and the refusals. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "clusterfit/clusterfit.h"
#include "model/model_int.h"

static void load(const char *name, cf_workload *w)
{
    cf_error err;
    cf_error_clear(&err);
    if (cf_workload_load(name, w, &err) != CF_OK) fail_msg("%s: %s", name, err.message);
}

static void node(cf_fabric *f, const char *gpu, int nodes)
{
    cf_fabric_init(f);
    snprintf(f->gpu, sizeof f->gpu, "%s", gpu);
    f->gpus_per_node = 8;
    f->intra_link = CF_INTRA_NVSWITCH_NVLINK4;
    f->network = nodes > 1 ? CF_NET_IB : CF_NET_NONE;
    f->nics_per_node = nodes > 1 ? 8 : 0;
    f->nic_gbps = nodes > 1 ? 400 : 0;
}

/* The presets load as serve workloads with their published shapes. */
static void presets(void **state)
{
    cf_workload w;
    (void)state;
    load("deepseek-v3-serve", &w);
    assert_int_equal(w.kind, CF_WL_SERVE);
    assert_int_equal(w.serve.input_tokens, 2000);
    assert_int_equal(w.serve.weight_bits, 8);
    assert_int_equal(w.llm.mla.kv_lora_rank, 512);
    assert_true(fabs(w.serve.tpot_ms - 50) < 1e-12 && fabs(w.serve.ttft_s - 2) < 1e-12);
    load("llama3-405b-serve", &w);
    assert_true(fabs(w.serve.tpot_ms - 175) < 1e-12 && fabs(w.serve.ttft_s - 6) < 1e-12);
    load("llama3-70b-serve", &w);
    assert_int_equal(w.llm.kv_heads, 8);
    load("qwen3-235b-serve", &w);
    assert_int_equal(w.llm.moe.experts, 128);
}

/* KV bytes per token: MLA (512 + 64) x 61 x 2 = 70,272 (arXiv:2412.19437);
 * GQA 2 x 80 x 8 x 128 x 2 = 327,680; an fp8 cache halves it. */
static void kv_bytes(void **state)
{
    cf_workload w;
    (void)state;
    load("deepseek-v3-serve", &w);
    assert_true(cf_serve_kv_bytes_per_token(&w) == 70272.0);
    load("llama3-70b-serve", &w);
    assert_true(cf_serve_kv_bytes_per_token(&w) == 327680.0);
    w.serve.kv_bits = 8;
    assert_true(cf_serve_kv_bytes_per_token(&w) == 163840.0);
}

/* Dispatch 128 tokens x top-8 x 7168 x 1 B (fp8) = 7,340,032 B; combine in
 * bf16 twice that; a dense model sends none. */
static void a2a_volume(void **state)
{
    cf_workload w;
    cf_fabric f;
    cf_serve_layout lay = {CF_SERVE_EP, 9, 1};
    cf_serve_decode d;
    cf_error err;
    double half, per_layer;
    (void)state;
    load("deepseek-v3-serve", &w);
    assert_true(cf_serve_a2a_bytes(&w, 128, 0) == 7340032.0);
    assert_true(cf_serve_a2a_bytes(&w, 128, 1) == 14680064.0);
    /* A decode step at 128 sequences per GPU on EP72: two halves of 64
     * tokens on the most loaded GPU (x SERVE_EP_IMBALANCE), each a dispatch
     * and a combine, in each of the 58 MoE layers. */
    node(&f, "H100-SXM", 9);
    assert_int_equal(cf_serve_decode_at(&w, &f, &lay, 128.0 * 72, &d, &err), CF_OK);
    half = 64 * CF_K(SERVE_EP_IMBALANCE);
    per_layer = half * 8 * 7168 * (1.0 + 2.0);
    assert_true(fabs(d.a2a_bytes_gpu - 58 * 2 * per_layer) < 1e-6 * d.a2a_bytes_gpu);
    /* A row that states balanced routing (ep_imbalance 1): 64 x 8 x 7168 x
     * 3 B = 11,010,048 B per half and layer, 58 x 2 x that = 1,277,165,568. */
    w.serve.ep_imbalance = 1;
    assert_int_equal(cf_serve_decode_at(&w, &f, &lay, 128.0 * 72, &d, &err), CF_OK);
    assert_true(fabs(d.a2a_bytes_gpu - 1277165568.0) < 1e-3);
    load("llama3-70b-serve", &w);
    assert_true(cf_serve_a2a_bytes(&w, 128, 0) == 0.0);
}

/* Decode of Llama 3 70B (fp8) on TP8, one sequence of 2048 + 128/2 tokens:
 * each GPU reads 1/8 of the weights but the input embedding (69,503,033,344
 * B / 8) and 1/8 of the KV heads of 2176 tokens (40,960 B each), at HBM x
 * HBM_EFF x SERVE_DECODE_EFF; computes 2 x 69.5e9 / 8 FLOPs at fp8 peak x
 * GEMM_EFF_MAX and the attention 4 x 2176 x 8192 x 80 / 8 at bf16 x
 * ATTN_EFF, both over SERVE_DECODE_EFF; the TP part is 160 all-reduces of
 * 16 KiB. */
static void decode_step(void **state)
{
    cf_workload w;
    cf_fabric f;
    cf_serve_layout lay = {CF_SERVE_TP, 1, 8};
    cf_serve_decode d;
    cf_coll_query q;
    cf_coll_result r;
    cf_error err;
    double wbytes = 69503033344.0 / 8, kv = 2176.0 * 40960, mem, comp;
    (void)state;
    load("llama3-70b-serve", &w);
    node(&f, "H100-SXM", 1);
    assert_int_equal(cf_serve_decode_at(&w, &f, &lay, 1, &d, &err), CF_OK);
    assert_true(fabs(d.weight_bytes_gpu - wbytes) < 1);
    assert_true(fabs(d.kv_bytes_gpu - kv) < 1);
    mem = (wbytes + kv) / (3350e9 * CF_K(HBM_EFF) * CF_K(SERVE_DECODE_EFF));
    assert_true(fabs(d.mem_s - mem) < 1e-9 * mem);
    /* (8,687,879,168 + 89,128,960) B / (3350e9 x 0.80 x SERVE_DECODE_EFF):
     * 3.275003 ms / SERVE_DECODE_EFF */
    assert_true(fabs(mem * CF_K(SERVE_DECODE_EFF) - 3.275003e-3) < 1e-8);
    comp = (2 * 69503033344.0 / 8 / (1979e12 * CF_K(GEMM_EFF_MAX)) +
            4.0 * 2176 * 8192 * 80 / 8 / (989.5e12 * CF_K(ATTN_EFF))) / CF_K(SERVE_DECODE_EFF);
    assert_true(fabs(d.compute_s - comp) < 1e-9 * comp);
    cf_coll_query_init(&q);
    q.collective = CF_COLL_ALL_REDUCE;
    q.bytes = 8192 * 2;
    q.nodes = 1;
    q.ranks_per_node = 8;
    assert_int_equal(cf_collective_predict(&f, &q, &r, &err), CF_OK);
    assert_true(fabs(d.comm_s - 160 * r.time_us * 1e-6) < 1e-12);
    assert_true(fabs(d.tpot_s - (mem + comp + d.comm_s)) < 1e-12);
    /* the largest part binds: NCCL's all-reduce latency over 160 calls is
     * above the HBM time at batch 1 */
    assert_string_equal(d.binds, d.comm_s > d.mem_s ? "the TP all-reduce" : "HBM bandwidth");
    /* The KV memory's batch: 0.9 x 80 GB - 3 GiB - the weights, over 2176
     * tokens x 40,960 B a sequence. */
    assert_true(fabs(d.max_batch - floor((80e9 * 0.9 - 3.0 * 1073741824 - 70553706496.0 / 8) /
                                         (2176.0 * 40960))) < 1e-9);
}

/* Refusals: output_tokens 0, a request past the context, EP for a dense
 * model, a TPOT below one step, and predict step of a serve workload. */
static void refusals(void **state)
{
    static const char zero[] =
        "{\"kind\": \"serve\", \"shape\": {\"model\": \"llama\", \"layers\": 2, \"hidden\": 64, "
        "\"ffn_hidden\": 128, \"heads\": 4, \"seq\": 4096, \"vocab\": 100}, "
        "\"request\": {\"input_tokens\": 10, \"output_tokens\": 0}}";
    static const char longer[] =
        "{\"kind\": \"serve\", \"shape\": {\"model\": \"llama\", \"layers\": 2, \"hidden\": 64, "
        "\"ffn_hidden\": 128, \"heads\": 4, \"seq\": 4096, \"vocab\": 100}, "
        "\"request\": {\"input_tokens\": 4000, \"output_tokens\": 100}}";
    json_t *j;
    cf_workload w;
    cf_fabric f;
    cf_error err;
    cf_serve_layout ep = {CF_SERVE_EP, 1, 1}, tp = {CF_SERVE_TP, 1, 8};
    cf_serve_decode d;
    cf_layout lay;
    cf_step_result sr;
    (void)state;
    j = json_loads(zero, 0, NULL);
    assert_int_equal(cf_workload_from_json(j, "t.json", &w, &err), CF_EPARSE);
    assert_non_null(strstr(err.message, "request.output_tokens"));
    json_decref(j);
    j = json_loads(longer, 0, NULL);
    assert_int_equal(cf_workload_from_json(j, "t.json", &w, &err), CF_EPARSE);
    assert_non_null(strstr(err.message, "shape.seq"));
    json_decref(j);
    load("llama3-70b-serve", &w);
    node(&f, "H100-SXM", 1);
    assert_int_equal(cf_serve_decode_at(&w, &f, &ep, 8, &d, &err), CF_EINVAL);
    assert_string_equal(err.param, "layout");
    assert_int_equal(cf_serve_decode_best(&w, &f, &tp, 1e-4, &d, &err), CF_OK);
    assert_true(d.batch == 0);
    assert_string_equal(d.binds, "TPOT");
    cf_layout_init(&lay);
    assert_int_equal(cf_step_predict(&w, &f, 1, &lay, &sr, &err), CF_EINVAL);
    assert_string_equal(err.param, "workload");
    assert_non_null(strstr(err.message, "serve workload"));
}

/* The TPOT the best batch meets grows with the target and stays within it. */
static void best_batch(void **state)
{
    cf_workload w;
    cf_fabric f;
    cf_serve_layout lay = {CF_SERVE_EP, 4, 1};
    cf_serve_decode a, b;
    cf_error err;
    (void)state;
    load("deepseek-v3-serve", &w);
    node(&f, "H100-SXM", 4);
    assert_int_equal(cf_serve_decode_best(&w, &f, &lay, 0.030, &a, &err), CF_OK);
    assert_int_equal(cf_serve_decode_best(&w, &f, &lay, 0.060, &b, &err), CF_OK);
    assert_true(a.batch >= 1 && a.tpot_s <= 0.030 && b.tpot_s <= 0.060);
    assert_true(b.batch > a.batch && b.tokens_per_s_gpu > a.tokens_per_s_gpu);
}

/* Prefill of Llama 3 70B (fp8) on TP8, one prompt of 2048 tokens: the
 * causal attention, 2048 x 80 layers x 4 x 1024 x 8192 / 8 FLOPs at bf16 x
 * ATTN_EFF, does not scale with SERVE_PREFILL_EFF; the GEMM part does: twice
 * the efficiency halves it. */
static void prefill_eff(void **state)
{
    cf_workload w;
    cf_fabric f;
    cf_serve_layout lay = {CF_SERVE_TP, 1, 8};
    cf_serve_prefill a, b;
    cf_error err;
    double attn = 2048.0 * 80 * 4 * 1024 * 8192 / 8 / (989.5e12 * CF_K(ATTN_EFF));
    double eff = CF_K(SERVE_PREFILL_EFF);
    (void)state;
    load("llama3-70b-serve", &w);
    w.serve.input_tokens = 2048;
    node(&f, "H100-SXM", 1);
    assert_int_equal(cf_serve_prefill_at(&w, &f, &lay, 2048, &a, &err), CF_OK);
    cf__model_constants[CF_K_SERVE_PREFILL_EFF].value = 2 * eff;
    assert_int_equal(cf_serve_prefill_at(&w, &f, &lay, 2048, &b, &err), CF_OK);
    cf__model_constants_restore();
    assert_true(a.compute_s > attn);
    assert_true(fabs((b.compute_s - attn) - 0.5 * (a.compute_s - attn)) < 1e-9 * a.compute_s);
}

/* EP prefill on 4 nodes with the all-to-all: the overlapped half runs on
 * 1 - SERVE_A2A_SM_SHARE of the SMs (DeepSeek-V3 §3.2.2: 20 of 132), so the
 * batch takes at least compute / (1 - 0.15), and at least the all-to-all. */
static void prefill_sm_share(void **state)
{
    cf_workload w;
    cf_fabric f;
    cf_serve_layout lay = {CF_SERVE_EP, 4, 1};
    cf_serve_prefill p;
    cf_error err;
    (void)state;
    load("deepseek-v3-serve", &w);
    node(&f, "H100-SXM", 4);
    assert_int_equal(cf_serve_prefill_at(&w, &f, &lay, 16384.0 * 32, &p, &err), CF_OK);
    assert_true(p.comm_s > 0);
    assert_true(p.batch_s >= p.compute_s / (1 - CF_K(SERVE_A2A_SM_SHARE)) * (1 - 1e-12));
    assert_true(p.batch_s >= p.comm_s * (1 - 1e-12));
}

/* validate serving's rows are their own kind: none is counted in a
 * training class (whose intervals ERR_DENSE_* and ERR_MOE_* are), each has
 * its phase class, and the serving fit names its rows by phase. */
static void serving_kind(void **state)
{
    cf_validation v;
    cf_vclass *c = NULL;
    size_t n = 0, phases = 0;
    cf_error err;
    (void)state;
    cf_error_clear(&err);
    assert_int_equal(cf_validate_serving("tests/data/validation/serving.csv", &v, &err), CF_OK);
    assert_true(v.n_rows >= 20);
    assert_int_equal(cf_validation_by_class(&v, &c, &n), CF_OK);
    for (size_t i = 0; i < n; i++) {
        assert_string_equal(c[i].kind, "serving");
        if (strcmp(c[i].by, "framework") == 0) {
            assert_true(strcmp(c[i].name, "prefill") == 0 || strcmp(c[i].name, "decode") == 0);
            phases += c[i].n_rows;
        }
    }
    assert_int_equal(phases, v.n_rows);
    cf_vclasses_free(c);
    cf_validation_clear(&v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(presets),   cmocka_unit_test(kv_bytes), cmocka_unit_test(a2a_volume),
        cmocka_unit_test(decode_step), cmocka_unit_test(refusals), cmocka_unit_test(best_batch),
        cmocka_unit_test(prefill_eff), cmocka_unit_test(prefill_sm_share),
        cmocka_unit_test(serving_kind),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
