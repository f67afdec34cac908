/* test_prune.c — the pruned layout search (lib/plan/prune.c) never drops
 * the optimum: on the real step and memory models, over workloads (dense,
 * MoE, grown batches), fabrics (InfiniBand, RoCE, NVL72, sockets, AMD) and
 * node counts, with the memory limit and without it (the free search at
 * N0), the point it finds is the one search.c's walk in the iterator's
 * order finds without memo or pruning: the same layout, the same step time
 * bit for bit, the same batch_limited; and it times far fewer layouts. A
 * model whose bound is above its step times, and one whose collectives
 * refuse, get the walk's answer too (the checks that send a node count back
 * to the walk). Also: the step model's bound is never above the step time
 * of the layouts it covers (every ZeRO stage up to the one given, the
 * recompute given or more, and at vp 2 its second bound). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "plan/plan_int.h"
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

static void same_point(const cf__plan_point *a, const cf__plan_point *b, const char *what)
{
    if (a->found != b->found || a->batch_limited != b->batch_limited)
        fail_msg("%s: found %d/%d, batch_limited %d/%d pruned/walk", what, a->found, b->found,
                 a->batch_limited, b->batch_limited);
    if (!a->found) return;
    if (memcmp(&a->res.step_time_s, &b->res.step_time_s, sizeof(double)) != 0 ||
        a->lay.tp != b->lay.tp || a->lay.cp != b->lay.cp || a->lay.pp != b->lay.pp ||
        a->lay.dp != b->lay.dp || a->lay.ep != b->lay.ep || a->lay.etp != b->lay.etp ||
        a->lay.vp != b->lay.vp || a->lay.micro_batch != b->lay.micro_batch ||
        a->lay.zero != b->lay.zero || a->lay.recompute != b->lay.recompute)
        fail_msg("%s: pruned TP%d CP%d PP%dv%d DP%d EP%d ETP%d mb%d z%d rc%d %.17g s, walk TP%d CP%d "
                 "PP%dv%d DP%d EP%d ETP%d mb%d z%d rc%d %.17g s", what, a->lay.tp, a->lay.cp, a->lay.pp,
                 a->lay.vp, a->lay.dp, a->lay.ep, a->lay.etp, a->lay.micro_batch, a->lay.zero,
                 a->lay.recompute, a->res.step_time_s, b->lay.tp, b->lay.cp, b->lay.pp, b->lay.vp,
                 b->lay.dp, b->lay.ep, b->lay.etp, b->lay.micro_batch, b->lay.zero, b->lay.recompute,
                 b->res.step_time_s);
}

typedef struct counts {
    unsigned long pruned, walk;     /* layouts timed */
    long points;                    /* points compared */
} counts;

/* One node count, pruned (memo, room) against the walk (neither). */
static void compare_at(const cf__plan_model *m, const cf_workload *w, const cf_fabric *fab,
                       double limit, int nodes, cf__step_memo *memo, cf__split_room *room,
                       counts *c, const char *what)
{
    cf__search sp = {m, w, fab, limit, 0, 0, memo, room, 0};
    cf__search sw = {m, w, fab, limit, 0, 0, NULL, NULL, 0};
    cf__plan_point a, b;
    char buf[160];
    cf__plan_best_at(&sp, nodes, &a);
    cf__plan_best_at(&sw, nodes, &b);
    snprintf(buf, sizeof buf, "%s on %s, %d nodes, batch %ld, limit %g", what, fab->gpu, nodes,
             w->global_batch_seqs, limit);
    same_point(&a, &b, buf);
    c->pruned += sp.evaluated;
    c->walk += sw.evaluated;
    c->points += a.found;
}

static void pruned_equals_walk(void **state)
{
    static const char *const wls[] = {"llama3-405b", "llama3-70b", "deepseek-v3", "mixtral-8x7b",
                                      "qwen3-235b-a22b", "llama3-8b", "gpt-oss-120b"};
    static const int nodes[] = {1, 2, 3, 8, 12, 32, 96, 256};
    cf_fabric fabs[5];
    cf__step_memo *memo = malloc(sizeof *memo);
    cf__split_room *room = malloc(sizeof *room);
    counts c = {0, 0, 0};
    (void)state;
    assert_non_null(memo);
    assert_non_null(room);
    fabs[0] = fabric("H100-SXM", 8, CF_INTRA_NVSWITCH_NVLINK4, CF_NET_IB, 8, 400);
    fabs[1] = fabric("A100-SXM-40", 8, CF_INTRA_NVSWITCH_NVLINK3, CF_NET_ROCE, 4, 200);
    fabs[2] = fabric("GB200", 4, CF_INTRA_NVL72, CF_NET_IB, 4, 800);
    fabs[3] = fabric("H100-SXM", 8, CF_INTRA_NVSWITCH_NVLINK4, CF_NET_TCP, 1, 100);
    fabs[4] = fabric("MI300X", 8, CF_INTRA_XGMI, CF_NET_ROCE, 8, 400);
    for (size_t wi = 0; wi < sizeof wls / sizeof wls[0]; wi++) {
        cf_workload w;
        cf_error err;
        assert_int_equal(cf_workload_load(wls[wi], &w, &err), CF_OK);
        for (size_t fi = 0; fi < sizeof fabs / sizeof fabs[0]; fi++) {
            double limit = cf__plan_mem_limit_gib(fabs[fi].gpu);
            cf_workload wb = w;
            cf__step_memo_reset(memo, &fabs[fi], &w);
            for (size_t ni = 0; ni < sizeof nodes / sizeof nodes[0]; ni++) {
                compare_at(&cf__plan_model_default, &w, &fabs[fi], limit, nodes[ni], memo, room, &c, wls[wi]);
                /* the free search of N0 */
                compare_at(&cf__plan_model_default, &w, &fabs[fi], INFINITY, nodes[ni], memo, room, &c, wls[wi]);
                /* a grown batch, as ladder.c searches it (the same memo) */
                wb.global_batch_seqs = w.global_batch_seqs * 4;
                compare_at(&cf__plan_model_default, &wb, &fabs[fi], limit, nodes[ni], memo, room, &c, wls[wi]);
            }
        }
    }
    /* The cases occur, and most layouts are never timed. */
    assert_true(c.points > 300);
    if (!(c.pruned * 3 < c.walk)) fail_msg("pruned %lu layouts timed, walk %lu", c.pruned, c.walk);
    free(memo);
    free(room);
}

/* A model whose bounds lie: twice the step model's (a bound broken for
 * every layout, as a changed step model would break it; the walk-back
 * check catches it on the first split searched). */
static cf_status lying_step(const cf_workload *w, const cf_fabric *fab, int nodes, const cf_layout *lay,
                            cf_step_result *out, cf_error *err, const struct cf__step_aid *aid)
{
    cf_status st = cf__step_predict_aided(w, fab, nodes, lay, out, err, aid);
    if (st == CF_OK && aid && aid->bound) {
        out->step_time_s *= 2.0;
        if (aid->bound2) *aid->bound2 *= 2.0;
    }
    return st;
}

static double mem_gib(const cf_workload *w, const cf_fabric *fab, const cf_layout *lay)
{
    (void)fab;
    return cf__memory_gib(w, lay);
}

static void broken_bound_and_refusals(void **state)
{
    cf__plan_model lying = cf__plan_model_default;
    cf_fabric fab = fabric("H100-SXM", 8, CF_INTRA_NVSWITCH_NVLINK4, CF_NET_IB, 8, 400);
    cf_fabric mute = fab;
    cf__step_memo *memo = malloc(sizeof *memo);
    cf__split_room *room = malloc(sizeof *room);
    counts c = {0, 0, 0};
    cf_workload w;
    cf_error err;
    (void)state;
    assert_non_null(memo);
    assert_non_null(room);
    lying.step_aided = lying_step;
    lying.memory_gib = mem_gib;
    assert_int_equal(cf_workload_load("llama3-70b", &w, &err), CF_OK);
    cf__step_memo_reset(memo, &fab, &w);
    for (int n = 1; n <= 16; n *= 2)
        compare_at(&lying, &w, &fab, cf__plan_mem_limit_gib(fab.gpu), n, memo, room, &c, "lying bound");
    /* A network without a line rate: every collective across nodes is
     * refused, so are the layouts that ask one (no bound for them). */
    mute.nic_gbps = 0;
    cf__step_memo_reset(memo, &mute, &w);
    for (int n = 1; n <= 16; n *= 2)
        compare_at(&cf__plan_model_default, &w, &mute, cf__plan_mem_limit_gib(mute.gpu), n, memo, room,
                   &c, "refusing fabric");
    assert_true(c.points > 0);
    free(memo);
    free(room);
}

/* The step model's bound against the step times it covers. */
static void bound_below_step(void **state)
{
    static const char *const wls[] = {"llama3-70b", "deepseek-v3", "mixtral-8x7b"};
    cf_fabric fab = fabric("H100-SXM", 8, CF_INTRA_NVSWITCH_NVLINK4, CF_NET_ROCE, 8, 400);
    long checked = 0;
    (void)state;
    for (size_t wi = 0; wi < sizeof wls / sizeof wls[0]; wi++) {
        cf_workload w;
        cf_error err;
        cf__layout_iter it;
        cf_layout lay;
        assert_int_equal(cf_workload_load(wls[wi], &w, &err), CF_OK);
        memset(&lay, 0, sizeof lay);
        cf__layout_iter_init(&it, &w, 16 * 8, 8);
        while (cf__layout_iter_next(&it, &lay)) {
            lay.sequence_parallel = lay.tp > 1;
            lay.vp = 1;
            for (int mb = 1; mb <= 4; mb *= 2)
                for (int rc = 0; rc < 3; rc++) {
                    double b2 = NAN;
                    cf__step_aid aid = {NULL, NAN, 1, &b2, 0};
                    cf_step_result b, r;
                    lay.micro_batch = mb;
                    lay.recompute = (cf_recompute)rc;
                    lay.zero = 3;
                    if (cf__step_predict_aided(&w, &fab, 16, &lay, &b, NULL, &aid) != CF_OK) continue;
                    assert_true(lay.pp > 1 ? !isnan(b2) : isnan(b2));
                    for (int z = 0; z <= 3; z++)
                        for (int rc2 = rc; rc2 < 3; rc2++)
                            for (int vp = 1; vp <= (lay.pp > 1 ? 2 : 1); vp++) {
                                cf_layout l2 = lay;
                                double bound = vp == 1 ? b.step_time_s : b2;
                                l2.zero = z;
                                l2.recompute = (cf_recompute)rc2;
                                l2.vp = vp;
                                if (cf_step_predict(&w, &fab, 16, &l2, &r, NULL) != CF_OK) continue;
                                if (r.step_time_s < bound * (1 - 1e-12))
                                    fail_msg("%s: bound %.17g above the step %.17g (vp %d)", wls[wi],
                                             bound, r.step_time_s, vp);
                                checked++;
                            }
                }
        }
    }
    assert_true(checked > 1000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pruned_equals_walk),
        cmocka_unit_test(broken_bound_and_refusals),
        cmocka_unit_test(bound_below_step),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
