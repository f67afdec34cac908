/* test_step.c — step time (lib/model/step.c) and fit (lib/model/fit.c) on cases
 * computed by hand from the documented formulas and constants
 * (lib/model/constants.def, read as CF_K), one per workload kind; none has a constant
 * efficiency. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <string.h>
#include <cmocka.h>
#include "clusterfit/hardware.h"
#include "model/model_int.h"

static void near(double got, double want, double rel)
{
    if (fabs(got - want) > rel * fabs(want)) fail_msg("got %.10g, want %.10g", got, want);
}

static cf_fabric h100(int nodes)
{
    cf_fabric f;
    memset(&f, 0, sizeof f);
    snprintf(f.gpu, sizeof f.gpu, "H100-SXM");
    f.gpus_per_node = 8;
    f.intra_link = CF_INTRA_NVSWITCH_NVLINK4;
    f.network = nodes > 1 ? CF_NET_IB : CF_NET_NONE;
    f.nics_per_node = nodes > 1 ? 8 : 0;
    f.nic_gbps = nodes > 1 ? 400 : 0;
    f.gdr = CF_GDR_UNKNOWN;
    f.non_blocking = f.rail_optimized = CF_CAP_UNKNOWN;
    return f;
}

static cf_layout dp_layout(int gpus)
{
    cf_layout l;
    cf_layout_init(&l);
    l.dp = gpus;
    return l;
}

/* Stencil: a memory-bound sweep, cells/G x bytes / (HBM x eff); on one node
 * halo over NVLink, on several also over the NICs, plus a scalar all_reduce. */
static void stencil_by_hand(void **state)
{
    cf_workload w;
    cf_fabric f1 = h100(1), f4 = h100(4);
    cf_layout l8 = dp_layout(8), l32 = dp_layout(32);
    cf_step_result r1, r4;
    (void)state;
    cf_workload_init(&w);
    w.kind = CF_WL_STENCIL;
    w.st_cells = 8e9;
    w.st_bytes_per_cell = 8;
    w.st_flops_per_cell = 7;
    w.st_state_bytes_per_cell = 8;
    w.st_halo_bytes_per_neighbour_per_gpu = 4.0 * 65536;
    w.st_ref_gpus = 1;
    w.st_decomposed_dims = 1;
    w.st_neighbours = 2;
    w.st_iterations = 1000;
    assert_int_equal(cf_step_predict(&w, &f1, 1, &l8, &r1, NULL), CF_OK);
    near(r1.breakdown.compute_s, 1e9 * 8 / (3350e9 * CF_K(HBM_EFF)), 1e-12);
    assert_true(r1.breakdown.dp_comm_exposed_s > 0);
    near(r1.step_time_s, r1.breakdown.compute_s + r1.breakdown.dp_comm_exposed_s, 1e-12);
    near(r1.tokens_per_s, 8e9 / r1.step_time_s, 1e-12);
    assert_int_equal(cf_step_predict(&w, &f4, 4, &l32, &r4, NULL), CF_OK);
    near(r4.breakdown.compute_s, r1.breakdown.compute_s / 4, 1e-12);
    /* Strong scaling: the halo does not shrink with strips, so the
     * efficiency ideal/step falls from 8 to 32 GPUs. */
    assert_true(r4.ideal_step_time_s / r4.step_time_s < r1.ideal_step_time_s / r1.step_time_s);
    near(r1.memory_per_gpu_gib, (1e9 * 8) / (1024.0 * 1024 * 1024) + CF_K(RUNTIME_RESERVE_GIB), 1e-12);
}

/* Embarrassingly parallel: start-up + waves x task + the expected slowest
 * task's excess cv x task x sqrt(2 ln G). */
static void embarrassing_by_hand(void **state)
{
    cf_workload w;
    cf_fabric f = h100(1);
    cf_layout l = dp_layout(8);
    cf_step_result r;
    (void)state;
    cf_workload_init(&w);
    w.kind = CF_WL_EMBARRASSING;
    w.ep_tasks = 100;
    w.ep_task_gpu_s = 10;
    w.ep_startup_s = 5;
    w.ep_straggler_frac = 0.1;
    w.ep_memory_gib = 20;
    assert_int_equal(cf_step_predict(&w, &f, 1, &l, &r, NULL), CF_OK);
    near(r.step_time_s, 5 + 13 * 10 + 0.1 * 10 * sqrt(2 * log(8.0)), 1e-12);
    near(r.ideal_step_time_s, 100 * 10 / 8.0, 1e-12);
    near(r.tokens_per_s, 100 / r.step_time_s, 1e-12);
    assert_true(isnan(r.tflops_per_gpu));
    near(r.memory_per_gpu_gib, 20 + CF_K(RUNTIME_RESERVE_GIB), 1e-12);
}

/* Data-parallel on one GPU (no communication): F x (b + b_half) / (peak x
 * eff_max) + the optimizer's bytes / HBM. Smaller batches run less
 * efficiently. */
static void data_parallel_by_hand(void **state)
{
    cf_workload w;
    cf_fabric f = h100(1);
    cf_layout l1 = dp_layout(1);
    cf_step_result r64, r8;
    double opt;
    (void)state;
    cf_workload_init(&w);
    w.kind = CF_WL_DATA_PARALLEL;
    w.precision = CF_PREC_BF16;
    w.dp_params = 25.557032e6;
    w.dp_flops_per_sample = 24.5e9;
    w.dp_activation_bytes_per_sample = 60e6;
    w.dp_global_batch = 64;
    w.dp_samples = 1e6;
    f.gpus_per_node = 1;
    opt = 25.557032e6 * CF_K(ADAM_BYTES_PER_PARAM) / (3350e9 * CF_K(HBM_EFF));
    assert_int_equal(cf_step_predict(&w, &f, 1, &l1, &r64, NULL), CF_OK);
    near(r64.step_time_s, 24.5e9 * (64 + CF_K(DP_HALF_BATCH)) / (989.5e12 * CF_K(DP_EFF_MAX)) + opt, 1e-12);
    w.dp_global_batch = 8;
    assert_int_equal(cf_step_predict(&w, &f, 1, &l1, &r8, NULL), CF_OK);
    assert_true(r8.mfu < r64.mfu);
}

static cf_workload small_gpt(long gbs)
{
    cf_workload w;
    cf_workload_init(&w);
    w.kind = CF_WL_LLM;
    w.llm.family = CF_MODEL_GPT;
    w.llm.layers = 32;
    w.llm.hidden = 4096;
    w.llm.ffn_hidden = 16384;
    w.llm.heads = 32;
    w.llm.kv_heads = 32;
    w.llm.seq = 2048;
    w.llm.vocab = 51200;
    w.global_batch_seqs = gbs;
    w.train_tokens = 1e9;
    return w;
}

/* LLM: the bubble is (p-1)/(v m) of the pipeline time, so doubling the
 * micro-batches leaves it unchanged in seconds and v = 2 halves it; the
 * step is the sum of its parts. */
static void llm_pipeline_bubble(void **state)
{
    cf_workload w = small_gpt(64), w2 = small_gpt(128);
    cf_fabric f = h100(1);
    cf_layout l;
    cf_step_result a, b, c;
    (void)state;
    cf_layout_init(&l);
    l.tp = 2;
    l.pp = 4;
    assert_int_equal(cf_step_predict(&w, &f, 1, &l, &a, NULL), CF_OK);
    assert_int_equal(cf_step_predict(&w2, &f, 1, &l, &b, NULL), CF_OK);
    near(b.breakdown.pp_bubble_s, a.breakdown.pp_bubble_s, 1e-9);
    l.vp = 2;
    assert_int_equal(cf_step_predict(&w, &f, 1, &l, &c, NULL), CF_OK);
    near(c.breakdown.pp_bubble_s, a.breakdown.pp_bubble_s / 2, 1e-9);
    near(a.step_time_s, a.breakdown.compute_s + a.breakdown.tp_comm_s + a.breakdown.pp_bubble_s +
                            a.breakdown.pp_comm_s + a.breakdown.dp_comm_exposed_s + a.breakdown.cp_comm_s,
         1e-9);
    assert_true(a.breakdown.tp_comm_s > 0 && a.breakdown.pp_comm_s > 0);
    near(a.tokens_per_s, 64 * 2048 / a.step_time_s, 1e-12);
    near(a.tokens_per_s_per_gpu * 8, a.tokens_per_s, 1e-12);
}

/* GEMM efficiency follows the per-GPU shapes: the same model at TP 8 has
 * smaller matrices than at TP 1 and reaches a lower MFU; MFU stays under
 * the GEMM ceiling. ZeRO-3 exposes more communication than ZeRO-1. */
static void llm_efficiency_not_constant(void **state)
{
    cf_workload w = small_gpt(64);
    cf_fabric f = h100(1), f2 = h100(2);
    cf_layout l;
    cf_step_result t1, t8, z1, z3;
    (void)state;
    cf_layout_init(&l);
    l.dp = 8;
    l.recompute = CF_RECOMPUTE_FULL;
    assert_int_equal(cf_step_predict(&w, &f, 1, &l, &t1, NULL), CF_OK);
    l.dp = 1;
    l.tp = 8;
    assert_int_equal(cf_step_predict(&w, &f, 1, &l, &t8, NULL), CF_OK);
    assert_true(t8.mfu < t1.mfu);
    assert_true(t1.mfu < CF_K(GEMM_EFF_MAX));
    l.tp = 1;
    l.dp = 16;
    l.zero = 1;
    assert_int_equal(cf_step_predict(&w, &f2, 2, &l, &z1, NULL), CF_OK);
    l.zero = 3;
    assert_int_equal(cf_step_predict(&w, &f2, 2, &l, &z3, NULL), CF_OK);
    assert_true(z3.breakdown.dp_comm_exposed_s > z1.breakdown.dp_comm_exposed_s);
}

/* A refusal: the status, err->param, and words the message must hold. */
static void refused(cf_status got, cf_status want, const cf_error *e, const char *param, const char *has)
{
    assert_int_equal(got, want);
    assert_string_equal(e->param, param);
    if (!strstr(e->message, has)) fail_msg("'%s' lacks '%s'", e->message, has);
}

static void bad_layouts(void **state)
{
    cf_workload w = small_gpt(64);
    cf_fabric f = h100(1);
    cf_layout l;
    cf_step_result r;
    cf_error e;
    (void)state;
    cf_layout_init(&l);
    l.dp = 4;   /* 4 GPUs on an 8-GPU node */
    assert_int_equal(cf_step_predict(&w, &f, 1, &l, &r, NULL), CF_EINVAL);
    refused(cf_step_predict(&w, &f, 1, &l, &r, &e), CF_EINVAL, &e, "",
            "tp*pp*dp*cp = 4 does not equal nodes*gpus_per_node = 1*8 = 8; 4 is not a multiple of 8 GPUs per node");
    l.dp = 12;
    refused(cf_step_predict(&w, &f, 2, &l, &r, &e), CF_EINVAL, &e, "",
            "tp*pp*dp*cp = 12 does not equal nodes*gpus_per_node = 2*8 = 16;");
    l.dp = 16;
    refused(cf_step_predict(&w, &f, 1, &l, &r, &e), CF_EINVAL, &e, "", "= 16 does not equal nodes*gpus_per_node = 1*8 = 8");
    assert_null(strstr(e.message, "multiple"));     /* 16 is a multiple of 8 */
    l.dp = 1;
    l.tp = 8;
    l.pp = 1;
    w.llm.heads = 12;  /* 8 does not divide 12 heads */
    w.llm.kv_heads = 12;
    assert_int_equal(cf_step_predict(&w, &f, 1, &l, &r, NULL), CF_EINVAL);
    refused(cf_step_predict(&w, &f, 1, &l, &r, &e), CF_EINVAL, &e, "tp", "tp 8 does not divide the workload's 12 heads");
    w = small_gpt(64);
    l.tp = 2;
    l.dp = 4;
    l.vp = 2;
    refused(cf_step_predict(&w, &f, 1, &l, &r, &e), CF_EINVAL, &e, "vp", "vp 2 needs pp above 1");
    l.vp = 1;
    l.cp = 0;
    refused(cf_step_predict(&w, &f, 1, &l, &r, &e), CF_EINVAL, &e, "cp", "cp expects at least 1, got 0");
    l.cp = 1;
    l.zero = 4;
    refused(cf_step_predict(&w, &f, 1, &l, &r, &e), CF_EINVAL, &e, "zero", "zero expects a ZeRO stage from 0 to 3, got 4");
    l.zero = 0;
    l.tp = 1;
    l.pp = 8;
    l.dp = 1;
    w.llm.layers = 4;
    refused(cf_step_predict(&w, &f, 1, &l, &r, &e), CF_EINVAL, &e, "pp", "pp 8 x vp 1 exceeds the workload's 4 layers");
    w = small_gpt(64);
    l.pp = 1;
    l.tp = 8;
    snprintf(f.gpu, sizeof f.gpu, "no-such-gpu");
    assert_int_equal(cf_step_predict(&w, &f, 1, &l, &r, NULL), CF_EINVAL);
    refused(cf_step_predict(&w, &f, 1, &l, &r, &e), CF_EINVAL, &e, "gpu", "unknown gpu 'no-such-gpu'");
    f = h100(1);
    refused(cf_step_predict(&w, &f, 0, &l, &r, &e), CF_EINVAL, &e, "nodes", "nodes expects at least 1, got 0");
    f.gpus_per_node = 0;
    refused(cf_step_predict(&w, &f, 1, &l, &r, &e), CF_EINVAL, &e, "gpus_per_node", "from 1 to 576, got 0");
    /* Two nodes on a fabric without a network: the step's refusal. */
    f = h100(1);
    l.tp = 8;
    l.dp = 2;
    assert_int_not_equal(cf_step_predict(&w, &f, 2, &l, &r, NULL), CF_OK);
    refused(cf_step_predict(&w, &f, 2, &l, &r, &e), CF_EINVAL, &e, "nodes",
            "nodes 2 needs a network between the nodes; the fabric's network is none");
    /* Other kinds take tp = pp = cp = 1. */
    w.kind = CF_WL_DATA_PARALLEL;
    l.dp = 2;
    refused(cf_step_predict(&w, &f, 2, &l, &r, &e), CF_EINVAL, &e, "tp", "tp 8: only an LLM workload takes tp, pp or cp above 1");
}

/* Several nodes on a fabric without a network between them: refused before
 * any collective is asked, naming the step's node count (not the 2 nodes of
 * its pipeline's send/recv, the first collective to cross nodes), param
 * "nodes"; a step that asks no collective across nodes is still predicted. */
static void no_network_names_the_step(void **state)
{
    cf_workload w = small_gpt(64), ep;
    cf_fabric f = h100(1), nvl = h100(1);
    cf_layout l;
    cf_step_result r;
    cf_error e;
    (void)state;
    cf_layout_init(&l);
    l.tp = 8;
    l.pp = 4;
    l.dp = 4;   /* 128 GPUs: 16 nodes of 8 */
    refused(cf_step_predict(&w, &f, 16, &l, &r, &e), CF_EINVAL, &e, "nodes",
            "nodes 16 needs a network between the nodes; the fabric's network is none (for several "
            "nodes: ib, roce, efa, tcpx, tcpxo, tcp, rdma)");
    assert_int_equal(cf_step_predict(&w, &f, 16, &l, &r, NULL), CF_EINVAL);
    f.network = CF_NET_UNKNOWN;
    refused(cf_step_predict(&w, &f, 16, &l, &r, &e), CF_EINVAL, &e, "nodes",
            "nodes 16 needs a network between the nodes; the fabric's network is unknown");
    /* Up front: an intra link every collective would refuse first (param
     * intra) does not hide it. */
    f.network = CF_NET_NONE;
    f.intra_link = CF_INTRA_UNKNOWN;
    refused(cf_step_predict(&w, &f, 16, &l, &r, &e), CF_EINVAL, &e, "nodes", "nodes 16 needs a network");
    /* With a network the same step is predicted. */
    f = h100(16);
    assert_int_equal(cf_step_predict(&w, &f, 16, &l, &r, &e), CF_OK);
    assert_true(r.breakdown.pp_comm_s > 0);
    /* NVL72: 18 trays of 4 GPUs are one rack, no network needed; 36 trays
     * in two racks are refused with both counts. */
    snprintf(nvl.gpu, sizeof nvl.gpu, "GB200");
    nvl.gpus_per_node = 4;
    nvl.intra_link = CF_INTRA_NVL72;
    l.tp = 4;
    l.pp = 1;
    l.dp = 18;
    assert_int_equal(cf_step_predict(&w, &nvl, 18, &l, &r, &e), CF_OK);
    l.dp = 36;
    refused(cf_step_predict(&w, &nvl, 36, &l, &r, &e), CF_EINVAL, &e, "nodes",
            "nodes 36 (2 NVLink domains) needs a network between the nodes; the fabric's network is none");
    /* An embarrassingly parallel job asks no collective: 16 nodes need no
     * network, as before. */
    cf_workload_init(&ep);
    ep.kind = CF_WL_EMBARRASSING;
    ep.ep_tasks = 1000;
    ep.ep_task_gpu_s = 10;
    ep.ep_memory_gib = 20;
    f = h100(1);
    l = dp_layout(128);
    assert_int_equal(cf_step_predict(&ep, &f, 16, &l, &r, &e), CF_OK);
    near(r.ideal_step_time_s, 1000 * 10 / 128.0, 1e-12);
}

/* plan calls cf_step_predict for every layout: it must not allocate. */
static void allocation_free(void **state)
{
    cf_workload w = small_gpt(64);
    cf_fabric f = h100(2);
    cf_layout l;
    cf_step_result r;
    const cf_gpu_spec *g;
    (void)state;
    assert_int_equal(cf_gpu_lookup("H100-SXM", &g), CF_OK); /* builds the GPU table */
    cf_layout_init(&l);
    l.tp = 4;
    l.pp = 2;
    l.dp = 2;
    l.zero = 3;
    cf_alloc_fail_after(0);
    assert_int_equal(cf_step_predict(&w, &f, 2, &l, &r, NULL), CF_OK);
    assert_int_equal(cf_alloc_count(), 0);
    cf_alloc_fail_after(-1);
}

static void fit_presets(void **state)
{
    cf_workload w;
    cf_fit_result r;
    cf_error err;
    json_t *j;
    (void)state;
    assert_int_equal(cf_workload_load("llama3-8b", &w, &err), CF_OK);
    assert_int_equal(cf_fit(&w, "H100-SXM", 8, &r, NULL), CF_OK);
    assert_true(r.fits_one_node);
    assert_int_equal(r.min_nodes, 1);
    /* 70B x 16 B of model states = 1.13 TB > 8 x 80 GB: not one node. */
    assert_int_equal(cf_workload_load("llama3-70b", &w, &err), CF_OK);
    assert_int_equal(cf_fit(&w, "H100-SXM", 8, &r, NULL), CF_OK);
    assert_false(r.fits_one_node);
    assert_true(r.min_nodes >= 2);
    assert_true(r.memory_per_gpu_gib * 1024.0 * 1024 * 1024 <= cf__gpu_usable_bytes("H100-SXM"));
    near(cf__llm_memory_bytes(&w, &r.layout, NULL) / (1024.0 * 1024 * 1024), r.memory_per_gpu_gib, 1e-12);
    assert_int_equal((long)r.layout.tp * r.layout.pp * r.layout.dp * r.layout.cp, 8L * r.min_nodes);
    j = cf_fit_result_to_json(&r);
    assert_non_null(j);
    assert_int_equal(json_integer_value(json_object_get(j, "min_nodes")), r.min_nodes);
    assert_non_null(json_object_get(json_object_get(j, "layout"), "recompute"));
    json_decref(j);
    assert_int_equal(cf_fit(&w, "no-such-gpu", 8, &r, NULL), CF_ENOTFOUND);
    refused(cf_fit(&w, "no-such-gpu", 8, &r, &err), CF_ENOTFOUND, &err, "gpu", "unknown gpu 'no-such-gpu' (accepted: ");
    refused(cf_fit(&w, "H100-SXM", 577, &r, &err), CF_EINVAL, &err, "gpus_per_node",
            "gpus_per_node expects an integer from 1 to 576, got 577");
    refused(cf_fit(&w, "H100-SXM", 0, &r, &err), CF_EINVAL, &err, "gpus_per_node", "got 0");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(stencil_by_hand),
        cmocka_unit_test(embarrassing_by_hand),
        cmocka_unit_test(data_parallel_by_hand),
        cmocka_unit_test(llm_pipeline_bubble),
        cmocka_unit_test(llm_efficiency_not_constant),
        cmocka_unit_test(bad_layouts),
        cmocka_unit_test(no_network_names_the_step),
        cmocka_unit_test(allocation_free),
        cmocka_unit_test(fit_presets),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
