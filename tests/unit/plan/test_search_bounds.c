/* test_search_bounds.c — the search's 64-bit guard (issue 15): a node count
 * whose GPUs (nodes x GPUs per node, computed in 64 bits) exceed every
 * layout's dp bound (CF_MAX_DP) yields no layout, and the step model is
 * never handed a data-parallel degree below 1. Before the guard, 524288
 * nodes of 4096 GPUs (2^31 GPUs, both within the fabric's bounds) reached
 * the step model as dp = (int)2^31 < 0, and 2^32 GPUs as dp = 0, a division
 * by zero in the batch split that killed `serve`. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>
#include "plan/plan_int.h"
#include "clusterfit/limits.h"

static long calls, bad_dp;

static cf_status counting_step(const cf_workload *w, const cf_fabric *fab, int nodes,
                               const cf_layout *l, cf_step_result *r, cf_error *err)
{
    (void)w; (void)fab; (void)nodes; (void)err;
    calls++;
    if (l->dp < 1) bad_dp++;
    memset(r, 0, sizeof *r);
    r->step_time_s = 1;
    r->memory_per_gpu_gib = 1;
    return CF_OK;
}

static const cf__plan_model counting = {counting_step, NULL, NULL, NULL, NULL, NULL, NULL, NULL};

static void run(cf_workload_kind kind, int nodes, int gpn, cf__plan_point *out)
{
    cf_workload w;
    cf_fabric fab;
    cf__search s = {&counting, &w, &fab, 80.0, 0, 0, NULL, NULL, 0};
    memset(&w, 0, sizeof w);
    w.kind = kind;
    w.global_batch_seqs = 1024;
    w.dp_global_batch = CF_MAX_DP;   /* the batch is never the limit here (batch_limited) */
    memset(&fab, 0, sizeof fab);
    fab.gpus_per_node = gpn;
    fab.intra_link = CF_INTRA_NONE;
    fab.nic_gbps = 400;
    cf__plan_best_at(&s, nodes, out);
}

static void gpus_past_int_range_give_no_layout(void **state)
{
    static const int nodes[] = {524288, 1000000, 1048576 / 2};
    cf__plan_point out;
    (void)state;
    for (size_t i = 0; i < sizeof nodes / sizeof nodes[0]; i++) {
        calls = bad_dp = 0;
        run(CF_WL_DATA_PARALLEL, nodes[i], CF_MAX_GPUS_PER_NODE, &out);
        assert_int_equal(bad_dp, 0);
        assert_int_equal(calls, 0);
        assert_false(out.found);
        calls = bad_dp = 0;
        run(CF_WL_STENCIL, nodes[i], CF_MAX_GPUS_PER_NODE, &out);
        assert_int_equal(bad_dp, 0);
        assert_false(out.found);
    }
}

static void within_bounds_still_searched(void **state)
{
    cf__plan_point out;
    (void)state;
    calls = bad_dp = 0;
    run(CF_WL_DATA_PARALLEL, CF_MAX_DP / 8, 8, &out);   /* exactly CF_MAX_DP GPUs */
    assert_int_equal(calls, 1);
    assert_int_equal(bad_dp, 0);
    assert_true(out.found);
    assert_int_equal(out.lay.dp, CF_MAX_DP);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gpus_past_int_range_give_no_layout),
        cmocka_unit_test(within_bounds_still_searched),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
