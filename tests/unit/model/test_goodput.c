/* test_goodput.c — the goodput model (lib/model/goodput.c) on cases
 * computed by hand: Young's and Daly's interval, the checkpoint size, who
 * writes it, the wall time of one configuration, the storage classes and
 * the refusals of bad options. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>
#include "clusterfit/clusterfit.h"
#include "clusterfit/goodput.h"

/* Young: sqrt(2 x 60 x 10800) = 1138.42 s; Daly adds the higher-order
 * terms: x = 60 / 21600, 1138.42 x (1 + sqrt(x)/3 + x/9) - 60 = 1098.77 s. */
static void intervals(void **state)
{
    (void)state;
    assert_float_equal(cf_ckpt_interval_young(60, 10800), 1138.4199576606165, 1e-9);
    assert_float_equal(cf_ckpt_interval_daly(60, 10800), 1098.7713218450797, 1e-9);
    /* a stall longer than 2M: checkpoint once per MTBF */
    assert_float_equal(cf_ckpt_interval_daly(300, 100), 100, 0);
    assert_true(isnan(cf_ckpt_interval_young(0, 10800)));
    assert_true(isnan(cf_ckpt_interval_daly(60, -1)));
}

/* 405B x (2 bytes of bf16 weights + 12 of Adam) = 5.67 TB; ResNet-50's
 * 25,557,032 x (2 + 8 of SGD) = 255,570,320 bytes. */
static void checkpoint_size(void **state)
{
    cf_workload w;
    cf_error err;
    (void)state;
    assert_int_equal(cf_workload_load("llama3-405b", &w, &err), CF_OK);
    assert_float_equal(cf_ckpt_bytes(&w), 405e9 * 14, 1);
    assert_int_equal(cf_workload_load("resnet50-dp", &w, &err), CF_OK);
    assert_float_equal(cf_ckpt_bytes(&w), 25557032.0 * 10, 1e-6);
    assert_float_equal(w.input_bytes_per_sample, 107700, 0);
}

static void writers(void **state)
{
    cf_layout l;
    (void)state;
    memset(&l, 0, sizeof l);
    l.dp = 4;
    l.zero = 1;
    assert_int_equal(cf_ckpt_writers(&l, 16), 16);  /* sharded: every node writes */
    l.zero = 0;
    assert_int_equal(cf_ckpt_writers(&l, 16), 4);   /* one replica: 16 / 4 */
    assert_int_equal(cf_ckpt_writers(&l, 2), 1);
}

/* 2 nodes x 8 GPUs, a 14 GB checkpoint (1e9 params x 14 B) written at
 * 2 x 1 GB/s = 7 s (stall 7 s, sync), loaded in 7 s; restart 600 + 7 + 300
 * = 907 s; MTBF 1600 GPU-h -> 0.01 /h (M = 360,000 s), Daly tau = 2240.33 s;
 * planned 16 x 47 / 21,233,664 /h; 1000 steps of 36 s = 10 h steady:
 * wall = 10 (1 + 7/tau) / (1 - 0.01 (907 + (tau + 7)/2)/3600 - lp 907/3600)
 *      = 10.08824 h. */
/* A model constant's value (constants.def), so the test follows it. */
static double K(const char *name)
{
    size_t n;
    const cf_model_constant *k = cf_model_constants(&n);
    for (size_t i = 0; i < n; i++)
        if (strcmp(k[i].name, name) == 0) return k[i].value;
    fail_msg("no constant %s", name);
    return NAN;
}

static void wall_time_by_hand(void **state)
{
    cf_workload w;
    cf_goodput_in in;
    cf_goodput_out g;
    cf_storage_bw bw = {1, 1, 10, 10};
    cf_error err;
    (void)state;
    cf_workload_init(&w);
    w.kind = CF_WL_DATA_PARALLEL;
    w.dp_params = 1e9;
    memset(&in, 0, sizeof in);
    in.w = &w;
    in.lay.dp = 16;
    in.lay.zero = 1;
    in.nodes = 2;
    in.gpus_per_node = 8;
    in.step_s = 36;
    in.steps = 1000;
    in.storage = CF_SC_LUSTRE;
    in.bw = &bw;
    cf_goodput_opts_init(&in.opts);
    assert_int_equal(cf_goodput_opts_set(&in.opts, "mtbf_gpu_h", "1600", &err), CF_OK);
    assert_int_equal(cf_goodput(&in, &g, &err), CF_OK);
    assert_float_equal(g.ckpt_bytes, 14e9, 1e-3);
    assert_float_equal(g.ckpt_write_s, 7, 1e-12);
    assert_float_equal(g.restart_s, 907, 1e-9);
    assert_float_equal(g.ckpt_interval_s, 2240.3301905460044, 1e-6);
    assert_float_equal(g.wall_h, 10.088240514093952, 1e-9);
    assert_float_equal(g.goodput, 10 / 10.088240514093952, 1e-12);
    /* the parts add up to the wall time */
    assert_float_equal(g.steady_h + g.ckpt_stall_h + g.lost_work_h + g.restart_h + g.data_stall_h,
                       g.wall_h, 1e-9);
    /* async: the stall is one GPU's share (14e9 / 16) at 25 GB/s, never
     * below the blocking part DCP's async_save measured (issue 23) */
    assert_int_equal(cf_goodput_opts_set(&in.opts, "ckpt_async", "true", &err), CF_OK);
    assert_int_equal(cf_goodput(&in, &g, &err), CF_OK);
    assert_float_equal(g.ckpt_stall_s, fmax(14e9 / 16 / 25e9, K("CKPT_ASYNC_STALL_MIN_S")), 1e-12);
    assert_float_equal(g.ckpt_interval_s, cf_ckpt_interval_daly(g.ckpt_stall_s, 100 * 3600.0), 1e-9);
    assert_int_equal(g.interval_floor, CF_CKPT_FLOOR_NONE);
    /* an interruption also loses the write: the newest checkpoint is not
     * usable before it lands */
    assert_float_equal(g.lost_work_h, g.unexpected * ((g.ckpt_interval_s + g.ckpt_stall_s) / 2 + g.ckpt_write_s) / 3600,
                       1e-9);
    /* a write longer than Young/Daly's optimum: the interval is the write
     * and its stall (one save in flight), never the 39 s of a milliseconds
     * stall */
    bw.node_write_gbps = 0.001;
    assert_int_equal(cf_goodput(&in, &g, &err), CF_OK);
    assert_float_equal(g.ckpt_write_s, 7000, 1e-6);
    assert_true(cf_ckpt_interval_daly(g.ckpt_stall_s, 100 * 3600.0) < 7000);
    assert_float_equal(g.ckpt_interval_s, 7000 + g.ckpt_stall_s, 1e-6);
    assert_int_equal(g.interval_floor, CF_CKPT_FLOOR_WRITE);
    bw.node_write_gbps = 1;
    /* a given interval replaces Daly's; --no-failures is the steady state */
    assert_int_equal(cf_goodput_opts_set(&in.opts, "ckpt_interval", "600", &err), CF_OK);
    assert_int_equal(cf_goodput(&in, &g, &err), CF_OK);
    assert_float_equal(g.ckpt_interval_s, 600, 0);
    assert_int_equal(cf_goodput_opts_set(&in.opts, "no_failures", "yes", &err), CF_OK);
    assert_int_equal(cf_goodput(&in, &g, &err), CF_OK);
    assert_float_equal(g.goodput, 1, 0);
    assert_float_equal(g.wall_h, 10, 1e-12);
}

static void bad_options(void **state)
{
    cf_goodput_opts o;
    cf_error err;
    cf_storage_class c;
    const char *bad[] = {"0", "-3", "nan", "inf", "x", ""};
    (void)state;
    cf_goodput_opts_init(&o);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(cf_goodput_opts_set(&o, "mtbf_gpu_h", bad[i], &err), CF_EINVAL);
        assert_string_equal(err.param, "mtbf_gpu_h");
        assert_int_equal(cf_goodput_opts_set(&o, "ckpt_interval", bad[i], &err), CF_EINVAL);
        assert_string_equal(err.param, "ckpt_interval");
    }
    assert_true(isnan(o.mtbf_gpu_h) && isnan(o.ckpt_interval_s));
    assert_int_equal(cf_goodput_opts_set(&o, "storage", "ceph", &err), CF_EINVAL);
    assert_non_null(strstr(err.message, "nfs, lustre, gpfs, vast, weka, object, local-nvme"));
    assert_int_equal(cf_goodput_opts_set(&o, "frobnicate", "1", &err), CF_ENOTFOUND);
    assert_int_equal(cf_storage_class_parse("Lustre", &c, &err), CF_OK);
    assert_int_equal(c, CF_SC_LUSTRE);
}

/* The fastest class a shared_storage set names; empty = unknown. */
static void storage_of_set(void **state)
{
    cf_storage_bw bw;
    (void)state;
    assert_int_equal(cf_storage_class_of_set(CF_STOR_LUSTRE | CF_STOR_OBJECT, 1), CF_SC_LUSTRE);
    assert_int_equal(cf_storage_class_of_set(CF_STOR_NFS | CF_STOR_VAST, 1), CF_SC_VAST);
    assert_int_equal(cf_storage_class_of_set(CF_STOR_NFS | CF_STOR_OBJECT, 1), CF_SC_OBJECT);
    assert_int_equal(cf_storage_class_of_set(CF_STOR_NFS, 1), CF_SC_NFS);
    assert_int_equal(cf_storage_class_of_set(0, 0), CF_SC_UNKNOWN);
    cf_storage_class_bw(CF_SC_UNKNOWN, &bw);    /* assumed: NFS */
    assert_float_equal(bw.agg_write_gbps, 0.92, 0);
    cf_storage_class_bw(CF_SC_OBJECT, &bw);
    assert_true(isinf(bw.agg_write_gbps));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(intervals),
        cmocka_unit_test(checkpoint_size),
        cmocka_unit_test(writers),
        cmocka_unit_test(wall_time_by_hand),
        cmocka_unit_test(bad_options),
        cmocka_unit_test(storage_of_set),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
