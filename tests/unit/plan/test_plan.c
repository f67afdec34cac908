/* test_plan.c — the planner's engine (lib/plan/plan.c, lib/plan/search.c) driven
 * by a small model whose step times and memory are computed by hand here, so
 * that search, E, P, effective price, billing, objectives, unranked reasons
 * and the JSON are pinned independently of the step and collective models.
 *
 * The model: G = nodes × gpus_per_node GPUs; compute = WORK / G × rcf[rc] ×
 * (1 + 0.05 (tp−1)) / mbf[mb]; bubble = compute × (pp−1)/(vp·m) with m
 * micro-batches; DP communication = Q / nic_gbps (× 1.5 for ZeRO-3) when
 * nodes > 1; ideal = compute. Memory (GiB) = hidden/100/(tp·pp) × zero
 * share + 6·mb·rf[rc]/tp. Time never falls with more recompute or ZeRO, and
 * memory never rises with them: the monotonicity the search's pruning uses. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "clusterfit/clusterfit.h"
#include "plan/plan_int.h"

#define WORK 800.0
static double Q = 40.0;             /* DP bytes term, per test */
static double OPT = 0.0;            /* optimizer step, sharded by ZeRO >= 1 (brute-force test) */
static int fake_n0 = 1;
static double ART = 0.0;            /* per-GPU time falling with nodes: a model artefact */
static const double rcf[] = {1.0, 1.1, 4.0 / 3.0};
static const double rf[] = {1.0, 0.5, 0.15};

static double mbf(int mb) { return mb == 1 ? 1.0 : mb == 2 ? 1.1 : mb == 4 ? 1.15 : 1.17; }

static double fake_mem(const cf_workload *w, const cf_fabric *fab, const cf_layout *l)
{
    double states = (double)w->llm.hidden / 100.0 / (l->tp * l->pp);
    (void)fab;
    if (l->zero == 1) states *= 0.25 + 0.75 / l->dp;
    if (l->zero == 3) states /= l->dp;
    return states + 6.0 * l->micro_batch * rf[l->recompute] / l->tp;
}

static cf_status fake_step(const cf_workload *w, const cf_fabric *fab, int nodes,
                           const cf_layout *l, cf_step_result *r, cf_error *err)
{
    double g = (double)nodes * fab->gpus_per_node;
    double m = (double)w->global_batch_seqs / (l->dp * l->micro_batch);
    double comp = WORK / g * rcf[l->recompute] * (1 + 0.05 * (l->tp - 1)) / mbf(l->micro_batch) *
                  (1 + ART / nodes);
    (void)err;
    if ((long)l->tp * l->pp * l->dp * l->cp != (long)g) return CF_EINVAL;
    memset(r, 0, sizeof *r);
    r->breakdown.compute_s = comp;
    r->breakdown.pp_bubble_s = comp * (l->pp - 1) / (l->vp * m);
    r->breakdown.dp_comm_exposed_s = nodes > 1 ? Q / fab->nic_gbps * (l->zero == 3 ? 1.5 : 1) : 0;
    r->ideal_step_time_s = comp;
    r->step_time_s = comp + r->breakdown.pp_bubble_s + r->breakdown.dp_comm_exposed_s +
                     OPT / (l->zero >= 1 ? l->dp : 1);
    r->memory_per_gpu_gib = fake_mem(w, fab, l);
    r->mfu = 0.4;
    return CF_OK;
}

static cf_status fake_fit(const cf_workload *w, const char *gpu, int gpn, cf_fit_result *out,
                          cf_error *err)
{
    (void)w; (void)gpu; (void)gpn; (void)err;
    memset(out, 0, sizeof *out);
    out->min_nodes = fake_n0;
    out->fits_one_node = fake_n0 == 1;
    return CF_OK;
}

/* The offering's fabric; for one node network none, as cf_fabric_for_nodes. */
static cf_status fake_fabric(const cf_offering *o, int nodes, cf_fabric *f, cf_error *err)
{
    (void)err;
    memset(f, 0, sizeof *f);
    snprintf(f->gpu, sizeof f->gpu, "%s", o->gpu);
    f->gpus_per_node = (int)o->gpus_per_node;
    f->intra_link = o->intra_link;
    f->network = nodes > 1 ? o->network : CF_NET_NONE;
    f->nics_per_node = nodes > 1 && o->nics_per_node > 0 ? (int)o->nics_per_node : 1;
    f->nic_gbps = nodes > 1 ? o->network_gbps_per_node / f->nics_per_node : NAN;
    return CF_OK;
}

static double fake_limit(const char *gpu) { return strcmp(gpu, "FAKE-80") == 0 ? 80.0 : NAN; }

static const cf__plan_model with_mem = {fake_step, fake_fit, fake_fabric, fake_limit, fake_mem, NULL, NULL, NULL};
static const cf__plan_model no_mem = {fake_step, fake_fit, fake_fabric, fake_limit, NULL, NULL, NULL, NULL};

static void llm(cf_workload *w, long layers, long hidden, long heads, long seq, long batch,
                double steps)
{
    memset(w, 0, sizeof *w);
    snprintf(w->name, sizeof w->name, "fake");
    w->kind = CF_WL_LLM;
    w->llm.layers = layers; w->llm.hidden = hidden; w->llm.heads = heads;
    w->llm.kv_heads = heads; w->llm.seq = seq; w->llm.ffn_hidden = 4 * hidden;
    w->global_batch_seqs = batch;
    w->train_tokens = steps * (double)batch * (double)seq;
}

static void offering(cf_offering *o, const char *id, long gpn, cf_network net, double gbps,
                     long nics, double price, const char *cur, long max_gpus)
{
    memset(o, 0, sizeof *o);
    o->id = (char *)id; o->provider = (char *)"Prov"; o->offering = (char *)id;
    o->gpu = (char *)"FAKE-80";
    o->gpus_per_node = gpn;
    o->intra_link = CF_INTRA_NVSWITCH_NVLINK4;
    o->network = net;
    o->network_gbps_per_node = gbps;
    o->nics_per_node = nics;
    o->gpudirect_rdma = CF_CAP_YES;
    o->max_cluster_gpus = max_gpus;
    o->billing_increment_s = 3600;
    o->min_commitment_h = 0;
    o->price_on_demand_gpu_hr = price;
    o->price_reserved_gpu_hr = NAN;
    o->currency = (char *)cur;
    o->multinode = CF_CAP_YES;
}

/* ---- small pieces ---- */

static void node_counts(void **state)
{
    int c[CF_MAX_PLAN_NODE_COUNTS];
    (void)state;
    assert_int_equal(cf__plan_node_counts(3, 8, 128, c, 40), 4);
    assert_int_equal(c[0], 3); assert_int_equal(c[1], 4); assert_int_equal(c[2], 8);
    assert_int_equal(c[3], 16);
    assert_int_equal(cf__plan_node_counts(1, 8, 64, c, 40), 4);   /* 1 2 4 8 */
    assert_int_equal(c[3], 8);
    assert_int_equal(cf__plan_node_counts(4, 8, 16384, c, 40), 10); /* 4 .. 2048 */
    assert_int_equal(c[9], 2048);
    assert_int_equal(cf__plan_node_counts(20, 8, 128, c, 40), 0);  /* 160 GPUs > 128 */
}

static void scaling_efficiency(void **state)
{
    (void)state;
    /* E(8) vs N0 = 2: (5.0 s × 2) / (1.5 s × 8) = 10/12. */
    assert_float_equal(cf__plan_scaling_eff(8, 1.5, 2, 5.0), 10.0 / 12.0, 1e-12);
    assert_float_equal(cf__plan_scaling_eff(2, 5.0, 2, 5.0), 1.0, 1e-12);
    assert_true(isnan(cf__plan_scaling_eff(8, 0, 2, 5.0)));
}

static cf__plan_point pt(int nodes, double step_s)
{
    cf__plan_point p;
    memset(&p, 0, sizeof p);
    p.nodes = nodes; p.found = 1; p.res.step_time_s = step_s;
    return p;
}

/* The pieces plan and scale share: the sticker price, a point's time and
 * cost, and when the scaling note needs the step time at N0 without the
 * memory limit. */
static void shared_pieces(void **state)
{
    cf_offering o;
    cf_workload w;
    cf_fabric fab;
    cf__plan_price pr = {2.0, 3600, 24, NULL};
    cf__plan_point p[2] = {pt(1, 10.0), pt(2, 4.0)}, q = pt(4, 10.0);
    double t, c, free1;
    unsigned long ev = 0, ev1 = 0;
    int reserved = -1;
    (void)state;
    offering(&o, "a", 8, CF_NET_IB, 400, 4, 2.5, "USD", 64);
    assert_float_equal(cf__plan_sticker_price(&o, &reserved), 2.5, 0);
    assert_int_equal(reserved, 0);
    o.price_on_demand_gpu_hr = NAN;
    o.price_reserved_gpu_hr = 1.5;
    assert_float_equal(cf__plan_sticker_price(&o, &reserved), 1.5, 0);
    assert_int_equal(reserved, 1);
    o.price_reserved_gpu_hr = NAN;
    assert_true(isnan(cf__plan_sticker_price(&o, NULL)));
    /* 3600 steps of 10 s = 10 h, billed as the 24 h minimum on 4 × 8 GPUs. */
    cf__plan_time_cost(&q, 3600, 8, &pr, &t, &c);
    assert_float_equal(t, 10.0, 1e-12);
    assert_float_equal(c, 4 * 8 * 2.0 * 24, 1e-9);
    /* E of p[1] against p[0] = (10 × 1) / (4 × 2) = 1.25 > 1.05: the note
     * needs the free step at 1 node; against itself, or with no N0, not. */
    llm(&w, 2, 6000, 1, 4096, 1, 100);
    memset(&fab, 0, sizeof fab);
    fab.gpus_per_node = 1; fab.nic_gbps = 100; fab.intra_link = CF_INTRA_NONE;
    free1 = cf__plan_free_step_s(&no_mem, &w, &fab, NULL, NULL, 1, &ev1);
    assert_true(free1 > 0);
    assert_float_equal(cf__plan_free0_s(&no_mem, &w, &fab, NULL, NULL, p, 2, &p[0], &ev), free1, 0);
    assert_int_equal(ev, ev1);
    assert_true(isnan(cf__plan_free0_s(&no_mem, &w, &fab, NULL, NULL, p, 1, &p[0], &ev)));
    assert_true(isnan(cf__plan_free0_s(&no_mem, &w, &fab, NULL, NULL, p, 2, NULL, &ev)));
    assert_int_equal(ev, ev1);
}

static void choose_objectives(void **state)
{
    /* 3600 steps: time_h = step_s. Price 2, 8 GPUs/node, hourly billing:
     * 2 nodes 10 h -> 320; 4 nodes 5.5 h (6 billed) -> 384; 8 nodes 3.2 h
     * (4 billed) -> 512. */
    cf__plan_point p[3] = {pt(2, 10), pt(4, 5.5), pt(8, 3.2)};
    cf__plan_price pr = {2.0, 3600, 0, NULL};
    cf__plan_goal g = {CF_OBJ_COST, NAN, NAN, 0, 0};
    int why;
    (void)state;
    assert_int_equal(cf__plan_choose(p, 3, 3600, 8, &pr, &g, &why), 0);
    g.objective = CF_OBJ_TIME;
    assert_int_equal(cf__plan_choose(p, 3, 3600, 8, &pr, &g, &why), 2);
    g.objective = CF_OBJ_COST; g.deadline_h = 6;
    assert_int_equal(cf__plan_choose(p, 3, 3600, 8, &pr, &g, &why), 1);
    g.deadline_h = 3;
    assert_int_equal(cf__plan_choose(p, 3, 3600, 8, &pr, &g, &why), -1);
    assert_int_equal(why, 2);
    g.deadline_h = NAN; g.objective = CF_OBJ_TIME; g.budget = 400;
    assert_int_equal(cf__plan_choose(p, 3, 3600, 8, &pr, &g, &why), 1);
    g.budget = 300;
    assert_int_equal(cf__plan_choose(p, 3, 3600, 8, &pr, &g, &why), -1);
    assert_int_equal(why, 3);
}

static void choose_billing_flips(void **state)
{
    /* 2 nodes run 2.05 h (3 billed): 2×8×2×3 = 96; 4 nodes run 0.95 h (1
     * billed): 4×8×2×1 = 64. Hourly billing makes the bigger cluster
     * cheaper; per-second billing does not (65.6 vs 60.8 -> 4 nodes still,
     * 2×8×2×2.05 = 65.6, 4×8×2×0.95 = 60.8), and a 24 h minimum makes the
     * small one cheaper (768 vs 1536). */
    cf__plan_point p[2] = {pt(2, 2.05), pt(4, 0.95)};
    cf__plan_price pr = {2.0, 3600, 0, NULL};
    cf__plan_goal g = {CF_OBJ_COST, NAN, NAN, 0, 0};
    (void)state;
    assert_int_equal(cf__plan_choose(p, 2, 3600, 8, &pr, &g, NULL), 1);
    pr.min_commitment_h = 24;
    assert_int_equal(cf__plan_choose(p, 2, 3600, 8, &pr, &g, NULL), 0);
}

static void choose_near_tie(void **state)
{
    /* The `plan --objective time` case: 3600 steps so time_h = step_s,
     * price 2, 8 GPUs/node, per-second billing (increment NAN).
     * 2048 nodes 5.712 h -> 2048×8×2×5.712 = 187,170.8; 4096 nodes 5.695 h
     * -> 4096×8×2×5.695 = 373,227.5. 5.712 / 5.695 = 1.00299: inside the
     * 1 % band, so the cheaper 2048 nodes win under the time objective. */
    cf__plan_point p[3] = {pt(1024, 6.0), pt(2048, 5.712), pt(4096, 5.695)};
    cf__plan_price pr = {2.0, NAN, NAN, NULL};
    cf__plan_goal g = {CF_OBJ_TIME, NAN, NAN, 0, 0};
    (void)state;
    assert_int_equal(cf__plan_choose(p, 3, 3600, 8, &pr, &g, NULL), 1);
    /* 5.76 h is 1.14 % slower than 5.695: outside the band, fastest wins. */
    p[1] = pt(2048, 5.76);
    assert_int_equal(cf__plan_choose(p, 3, 3600, 8, &pr, &g, NULL), 2);
    /* 5.7519 h is 0.99 % slower: inside. */
    p[1] = pt(2048, 5.7519);
    assert_int_equal(cf__plan_choose(p, 3, 3600, 8, &pr, &g, NULL), 1);
    /* Cost objective, symmetric: 1 node 10 h -> 1×8×2×10 = 160; 2 nodes
     * 5.04 h -> 2×8×2×5.04 = 161.28 (0.8 % dearer): the faster 2 nodes win;
     * 2 nodes 5.1 h -> 163.2 (2 % dearer): the cheapest wins. */
    {
        cf__plan_point q[2] = {pt(1, 10), pt(2, 5.04)};
        g.objective = CF_OBJ_COST;
        assert_int_equal(cf__plan_choose(q, 2, 3600, 8, &pr, &g, NULL), 1);
        q[1] = pt(2, 5.1);
        assert_int_equal(cf__plan_choose(q, 2, 3600, 8, &pr, &g, NULL), 0);
        /* A deadline of 9 h removes 1 node; the band never brings back an
         * infeasible point. */
        q[1] = pt(2, 5.04);
        g.deadline_h = 9;
        assert_int_equal(cf__plan_choose(q, 2, 3600, 8, &pr, &g, NULL), 1);
    }
}

/* The time objective's bounds (issue 23: 4,096 GPUs for 3 s at E 0.18):
 * 3600 steps so time_h = step_s, price 2, 8 GPUs/node, per-second billing.
 * 1 node 4 h (E 1), 2 nodes 2.5 h (E 0.8), 8 nodes 0.8 h (E 0.625),
 * 64 nodes 0.25 h (E 0.25). */
static void choose_time_bounds(void **state)
{
    cf__plan_point p[4] = {pt(1, 4.0), pt(2, 2.5), pt(8, 0.8), pt(64, 0.25)};
    cf__plan_price pr = {2.0, NAN, NAN, NULL};
    cf__plan_goal g = {CF_OBJ_TIME, NAN, NAN, 0, 0};
    unsigned bound = 99;
    char why[256] = "why";
    (void)state;
    /* No floor, no minimum rental: the fastest, nothing bound. */
    assert_int_equal(cf__plan_choose_bound(p, 4, 3600, 8, &pr, &g, NULL, &bound), 3);
    assert_int_equal(bound, 0);
    /* Floor 0.5: 64 nodes (E 0.25) is out, 8 nodes (E 0.625) wins. */
    g.e_floor = 0.5;
    assert_int_equal(cf__plan_choose_bound(p, 4, 3600, 8, &pr, &g, NULL, &bound), 2);
    assert_int_equal(bound, CF__BOUND_E_FLOOR);
    cf__plan_bound_why(why, sizeof why, bound, 1);
    assert_string_equal(why, "why; chosen over faster node counts that scale below E 0.50 (the "
                             "efficiency floor of the time objective)");
    /* A 3 h minimum rental: 2 nodes (2.5 h) and 8 nodes (0.8 h) both count
     * as 3 h, so the cheaper 2 nodes win (2x8x2x3 = 96 vs 8x8x2x3 = 384). */
    pr.min_commitment_h = 3;
    assert_int_equal(cf__plan_choose_bound(p, 4, 3600, 8, &pr, &g, NULL, &bound), 1);
    assert_true(bound & CF__BOUND_MIN_RENTAL);
    /* A floor of 0.99 leaves N0 alone: E 1 there always meets it. */
    g.e_floor = 0.99; pr.min_commitment_h = NAN;
    assert_int_equal(cf__plan_choose_bound(p, 4, 3600, 8, &pr, &g, NULL, &bound), 0);
    assert_true(bound & CF__BOUND_E_FLOOR);
    /* The price terms: an offering stating no minimum rental gets the
     * default, a stated 0 stays 0. */
    {
        cf_offering o;
        memset(&o, 0, sizeof o);
        o.billing_increment_s = 60; o.min_commitment_h = NAN;
        cf__plan_price_terms(&o, 3.0, &pr);
        assert_float_equal(pr.min_commitment_h, CF_PLAN_DEFAULT_MIN_RENTAL_H, 0);
        assert_float_equal(pr.increment_s, 60, 0);
        o.min_commitment_h = 0;
        cf__plan_price_terms(&o, 3.0, &pr);
        assert_float_equal(pr.min_commitment_h, 0, 0);
    }
}

/* ---- the search ---- */

static void search_one_layout_by_hand(void **state)
{
    /* heads 1 -> tp 1; seq 4096 -> cp 1; layers 2 and 2 GPUs (1 per node)
     * with batch 1 -> dp 1, pp 2, vp 1 (pp·vp <= layers), mb 1, ZeRO 0.
     * Memory 6000/100/2 + 6·rf = 36 (none), 33 (selective), 30.9 (full):
     * with a 34 GiB limit selective is the least recompute that fits. */
    cf_workload w;
    cf_fabric fab;
    cf__plan_point out;
    cf__search s = {&no_mem, &w, &fab, 34.0, 0, 0, NULL, NULL, 0};
    (void)state;
    llm(&w, 2, 6000, 1, 4096, 1, 100);
    memset(&fab, 0, sizeof fab);
    fab.gpus_per_node = 1; fab.nic_gbps = 100; fab.intra_link = CF_INTRA_NONE;
    cf__plan_best_at(&s, 2, &out);
    assert_true(out.found);
    assert_int_equal(out.lay.tp, 1); assert_int_equal(out.lay.pp, 2);
    assert_int_equal(out.lay.dp, 1); assert_int_equal(out.lay.vp, 1);
    assert_int_equal(out.lay.recompute, CF_RECOMPUTE_SELECTIVE);
    assert_int_equal(s.evaluated, 2);       /* none (too big), selective */
    /* step = 400·1.1 × (1 + 1/1) + 40/100 = 880.4 s */
    assert_float_equal(out.res.step_time_s, 400 * 1.1 * 2 + 0.4, 1e-9);
}

static double brute_force(const cf_workload *w, const cf_fabric *fab, int nodes, double limit,
                          unsigned long *n)
{
    static const int cps[] = {1, 2, 4, 8}, mbs[] = {1, 2, 4, 8}, zs[] = {0, 1, 3};
    long g = (long)nodes * fab->gpus_per_node;
    double best = INFINITY;
    for (int tp = 1; tp <= fab->gpus_per_node; tp++)
        for (int ci = 0; ci < 4; ci++)
            for (int pp = 1; pp <= 64 && pp <= w->llm.layers; pp++)
                for (int vp = 1; vp <= 2; vp++)
                    for (int mi = 0; mi < 4; mi++)
                        for (int zi = 0; zi < 3; zi++)
                            for (int rc = 0; rc < 3; rc++) {
                                cf_layout l = {0};
                                cf_step_result r;
                                int cp = cps[ci];
                                long dp;
                                if (fab->gpus_per_node % tp || w->llm.heads % tp) continue;
                                if (cp > 1 && w->llm.seq < 8192) continue;
                                if (g % ((long)tp * cp * pp)) continue;
                                dp = g / ((long)tp * cp * pp);
                                if (w->global_batch_seqs % (dp * mbs[mi])) continue;
                                if (vp > 1 && (pp == 1 || pp * vp > w->llm.layers ||
                                               (w->global_batch_seqs / (dp * mbs[mi])) % pp))
                                    continue;
                                l.tp = tp; l.cp = cp; l.pp = pp; l.vp = vp; l.dp = (int)dp;
                                l.micro_batch = mbs[mi]; l.zero = zs[zi];
                                l.recompute = (cf_recompute)rc;
                                (*n)++;
                                if (fake_step(w, fab, nodes, &l, &r, NULL) != CF_OK) continue;
                                if (r.memory_per_gpu_gib <= limit && r.step_time_s < best)
                                    best = r.step_time_s;
                            }
    return best;
}

static void search_matches_brute_force(void **state)
{
    /* The pruned search finds the same fastest step as trying every layout,
     * on shapes where memory forces recompute, ZeRO and model splits; with
     * and without a sharded optimizer step that makes ZeRO-1 faster than
     * ZeRO-0 (time is not monotone in the ZeRO stage). */
    static const long hiddens[] = {2000, 8000, 20000, 60000};
    static const int nodes[] = {1, 2, 4, 8};
    cf_workload w;
    cf_fabric fab;
    (void)state;
    memset(&fab, 0, sizeof fab);
    fab.gpus_per_node = 8; fab.nic_gbps = 50; fab.intra_link = CF_INTRA_NVSWITCH_NVLINK4;
    for (int o = 0; o < 2; o++)
    for (size_t h = 0; h < 4; h++)
        for (size_t k = 0; k < 4; k++) {
            cf__search s = {&with_mem, &w, &fab, 40.0, 0, 0, NULL, NULL, 0};
            cf__plan_point out;
            unsigned long n = 0;
            double want;
            OPT = o ? 30.0 : 0.0;
            llm(&w, 16, hiddens[h], 8, 4096, 64, 10);
            want = brute_force(&w, &fab, nodes[k], 40.0, &n);
            cf__plan_best_at(&s, nodes[k], &out);
            if (isinf(want)) {
                assert_false(out.found);
            } else {
                assert_true(out.found);
                assert_float_equal(out.res.step_time_s, want, 1e-12);
                assert_true(fake_mem(&w, &fab, &out.lay) <= 40.0);
            }
            assert_true(s.evaluated < n);
        }
    OPT = 0;
}

static void n0_from_memory(void **state)
{
    /* heads 1, layers 1, one GPU per node: N=1 holds all states, 10000/100 =
     * 100 GiB > 80 even with full recompute; N=2 shards them with ZeRO-3:
     * 50 + 6×0.15 = 50.9 GiB fits. So N0 = 2. With hidden 2000 (20 GiB) one
     * node fits: N0 = 1. With 40000 (400 GiB) ZeRO-3 needs 6 GPUs — but the
     * batch of 8 must split into dp = N: 8 nodes is the first that fits. */
    cf_workload w;
    cf_fabric fab;
    cf__search s = {&with_mem, &w, &fab, 80.0, 0, 0, NULL, NULL, 0};
    (void)state;
    memset(&fab, 0, sizeof fab);
    fab.gpus_per_node = 1; fab.nic_gbps = 100; fab.intra_link = CF_INTRA_NONE;
    llm(&w, 1, 10000, 1, 4096, 8, 100);
    assert_int_equal(cf__plan_min_nodes(&s, 64), 2);
    llm(&w, 1, 2000, 1, 4096, 8, 100);
    assert_int_equal(cf__plan_min_nodes(&s, 64), 1);
    llm(&w, 1, 40000, 1, 4096, 8, 100);
    assert_int_equal(cf__plan_min_nodes(&s, 64), 8);
    assert_int_equal(cf__plan_min_nodes(&s, 7), 0);
}

/* ---- the whole plan ---- */

static json_t *row_of(json_t *doc, const char *id)
{
    size_t i;
    json_t *r;
    json_array_foreach(json_object_get(doc, "ranked"), i, r)
        if (strcmp(json_string_value(json_object_get(r, "offering_id")), id) == 0) return r;
    return NULL;
}

static size_t rank_of(json_t *doc, const char *id)
{
    size_t i;
    json_t *r;
    json_array_foreach(json_object_get(doc, "ranked"), i, r)
        if (strcmp(json_string_value(json_object_get(r, "offering_id")), id) == 0) return i;
    return (size_t)-1;
}

static double num(json_t *r, const char *k) { return json_number_value(json_object_get(r, k)); }

static void plan_hand_computed(void **state)
{
    /* One GPU per node, heads 1, layers 1, batch 8: at N nodes the only
     * layouts are dp = N with mb up to 8/N, the fastest the largest mb.
     * 100 steps, Q = 40 over 100 Gbit/s: 0.4 s of DP per step on > 1 node.
     *  N=1: 800/1.17 = 683.76 s -> 18.99 h -> 19 billed -> 1×2×19 = 38
     *  N=2: 400/1.15 + 0.4 = 348.23 s -> 9.673 h -> 10 -> 2×2×10 = 40
     *  N=4: 200/1.1 + 0.4 = 182.22 s -> 5.062 h -> 6 -> 4×2×6 = 48
     *  N=8: 100 + 0.4 = 100.4 s -> 2.789 h -> 3 -> 8×2×3 = 48 */
    cf_workload w;
    cf_offering o;
    cf_offering_list list = {&o, 1};
    cf_plan_opts opts;
    cf_error err;
    json_t *doc, *r;
    double t2 = 400 / 1.15 + 0.4, t1 = 800 / 1.17;
    (void)state;
    Q = 40; fake_n0 = 1;
    llm(&w, 1, 2000, 1, 4096, 8, 100);
    offering(&o, "one", 1, CF_NET_IB, 100, 1, 2.0, "USD", 8);
    cf_plan_opts_init(&opts);
    opts.goodput.no_failures = 1; /* the steady model by hand; goodput: test_goodput.c */
    assert_int_equal(cf__plan_run(&with_mem, &list, &w, &opts, &doc, &err), CF_OK);
    r = row_of(doc, "one");
    assert_non_null(r);
    assert_int_equal(json_integer_value(json_object_get(r, "nodes")), 1);
    assert_float_equal(num(r, "cost"), 38.0, 1e-9);
    assert_float_equal(num(r, "time_to_train_h"), 100 * t1 / 3600, 1e-9);
    assert_float_equal(num(r, "scaling_efficiency"), 1.0, 1e-12);
    assert_float_equal(num(r, "parallel_efficiency"), 1.0, 1e-12);
    assert_int_equal(json_integer_value(json_object_get(r, "micro_batch")), 8);
    json_decref(doc);

    /* Time objective: 8 nodes; E = (683.76×1)/(100.4×8), P = 100/100.4. */
    opts.objective = CF_OBJ_TIME;
    assert_int_equal(cf__plan_run(&with_mem, &list, &w, &opts, &doc, &err), CF_OK);
    r = row_of(doc, "one");
    assert_int_equal(json_integer_value(json_object_get(r, "nodes")), 8);
    assert_float_equal(num(r, "cost"), 48.0, 1e-9);
    assert_float_equal(num(r, "scaling_efficiency"), t1 / (100.4 * 8), 1e-12);
    assert_float_equal(num(r, "parallel_efficiency"), 100 / 100.4, 1e-12);
    assert_float_equal(num(r, "effective_price_gpu_hr"), 2.0 * 100.4 / 100, 1e-12);
    json_decref(doc);

    /* Cost under a 10 h deadline with the default 8 % margin: 2 nodes need
     * 9.673 x 1.08 = 10.45 h, too long; 4 and 8 nodes cost 48 alike, the
     * near tie goes to the faster 8. */
    opts.objective = CF_OBJ_COST; opts.deadline_h = 10;
    assert_int_equal(cf__plan_run(&with_mem, &list, &w, &opts, &doc, &err), CF_OK);
    assert_int_equal(json_integer_value(json_object_get(row_of(doc, "one"), "nodes")), 8);
    json_decref(doc);
    /* A 3 % margin: 9.673 x 1.03 = 9.96 h meets it: 2 nodes. */
    opts.margin_pct = 3;
    assert_int_equal(cf__plan_run(&with_mem, &list, &w, &opts, &doc, &err), CF_OK);
    assert_int_equal(json_integer_value(json_object_get(row_of(doc, "one"), "nodes")), 2);
    json_decref(doc);
    /* Cost under a 10 h deadline, no margin: 2 nodes (9.673 h, 40). */
    opts.margin_pct = 0;
    assert_int_equal(cf__plan_run(&with_mem, &list, &w, &opts, &doc, &err), CF_OK);
    r = row_of(doc, "one");
    assert_int_equal(json_integer_value(json_object_get(r, "nodes")), 2);
    assert_float_equal(num(r, "cost"), 40.0, 1e-9);
    assert_float_equal(num(r, "step_time_s"), t2, 1e-9);
    assert_float_equal(num(r, "scaling_efficiency"), t1 / (2 * t2), 1e-12);
    json_decref(doc);

    /* Time under a budget of 45: 2 nodes (4 and 8 nodes cost 48). */
    opts.deadline_h = NAN; opts.objective = CF_OBJ_TIME; opts.budget = 45;
    assert_int_equal(cf__plan_run(&with_mem, &list, &w, &opts, &doc, &err), CF_OK);
    assert_int_equal(json_integer_value(json_object_get(row_of(doc, "one"), "nodes")), 2);
    json_decref(doc);

    /* A budget of 30 is met nowhere: unranked with the reason. */
    opts.budget = 30;
    assert_int_equal(cf__plan_run(&with_mem, &list, &w, &opts, &doc, &err), CF_OK);
    assert_int_equal(json_array_size(json_object_get(doc, "ranked")), 0);
    assert_non_null(strstr(json_string_value(json_array_get(json_object_get(
        json_array_get(json_object_get(doc, "unranked"), 0), "reasons"), 0)), "budget 30"));
    json_decref(doc);
}

static int has_reason(json_t *doc, const char *id, const char *reason)
{
    size_t i, k;
    json_t *u, *r;
    json_array_foreach(json_object_get(doc, "unranked"), i, u) {
        if (strcmp(json_string_value(json_object_get(u, "offering_id")), id) != 0) continue;
        json_array_foreach(json_object_get(u, "reasons"), k, r)
            if (strcmp(json_string_value(r), reason) == 0) return 1;
    }
    return 0;
}

static int has_flag(json_t *row, const char *flag)
{
    size_t k;
    json_t *f;
    json_array_foreach(json_object_get(row, "flags"), k, f)
        if (strcmp(json_string_value(f), flag) == 0) return 1;
    return 0;
}

static void plan_fabric_beats_sticker(void **state)
{
    /* N0 = 2, Q = 400. "fast": 100 Gbit/s, 2.00/GPU-h -> 4 s of DP per step:
     *  N=2: 347.83+4 = 351.83 s -> 9.773 h -> 10 billed -> 2×2×10 = 40 (best)
     * "slow": 10 Gbit/s, 1.90/GPU-h (cheaper sticker) -> 40 s per step:
     *  N=2: 387.83 s -> 10.77 h -> 11 -> 41.8; N=4: 221.82 s -> 7 -> 53.2;
     *  N=8: 140 s -> 3.889 h -> 4 -> 60.8. So "fast" ranks above "slow".
     * "unkmax" is "fast" billed exactly: 2×2×9.773 = 39.1, ranked first. */
    cf_workload w;
    cf_offering os[7];
    cf_offering_list list = {os, 7};
    cf_plan_opts opts;
    cf_error err;
    json_t *doc, *fast, *slow, *unk;
    size_t i;
    json_t *r;
    (void)state;
    Q = 400; fake_n0 = 2;
    llm(&w, 1, 2000, 1, 4096, 8, 100);
    offering(&os[0], "slow", 1, CF_NET_TCP, 10, 1, 1.9, "USD", 8);
    offering(&os[1], "fast", 1, CF_NET_IB, 100, 1, 2.0, "USD", 8);
    offering(&os[2], "eur", 1, CF_NET_IB, 100, 1, 1.5, "EUR", 8);
    offering(&os[3], "noprice", 1, CF_NET_IB, 100, 1, NAN, "USD", 8);
    offering(&os[4], "nonet", 1, CF_NET_UNKNOWN, NAN, -1, 2.0, "USD", 8);
    offering(&os[5], "nogpn", -1, CF_NET_IB, 100, 1, 2.0, "USD", 8);
    offering(&os[6], "unkmax", 1, CF_NET_IB, 100, 1, 2.0, "USD", -1);
    os[6].billing_increment_s = NAN;
    cf_plan_opts_init(&opts);
    opts.goodput.no_failures = 1; /* the steady model by hand; goodput: test_goodput.c */
    opts.max_gpus = 4;
    assert_int_equal(cf__plan_run(&with_mem, &list, &w, &opts, &doc, &err), CF_OK);
    fast = row_of(doc, "fast");
    assert_non_null(fast);
    assert_true(rank_of(doc, "fast") < rank_of(doc, "slow"));
    assert_float_equal(num(fast, "cost"), 40.0, 1e-9);
    slow = row_of(doc, "slow");
    assert_non_null(slow);
    assert_float_equal(num(slow, "cost"), 41.8, 1e-9);
    assert_int_equal(json_integer_value(json_object_get(slow, "nodes")), 2);
    assert_non_null(strstr(json_string_value(json_object_get(slow, "why")),
                           "DP all-reduce over 10 Gbit/s TCP exposes 10 % of the step"));
    assert_float_equal(num(fast, "scaling_efficiency"), 1.0, 1e-12);
    assert_float_equal(num(fast, "effective_price_gpu_hr"), 2.0 * (400 / 1.15 + 4) / (400 / 1.15), 1e-12);
    assert_true(rank_of(doc, "unkmax") == 0);
    assert_true(has_reason(doc, "eur", "currency EUR"));
    assert_true(has_reason(doc, "noprice", "price unknown"));
    /* No network stated: planned on one node only, and this job needs two. */
    assert_true(has_reason(doc, "nonet", "needs 2 nodes to fit in memory; one node only: the network "
                           "between nodes is not stated (network unknown)"));
    assert_true(has_reason(doc, "nogpn", "gpus_per_node unknown"));
    /* Unknown max cluster: capped at --max-gpus 4 and flagged; unknown
     * billing increment: billed exactly, flagged. */
    unk = row_of(doc, "unkmax");
    assert_non_null(unk);
    assert_true(has_flag(unk, "max_cluster_unknown"));
    assert_true(has_flag(unk, "billing_increment_unknown"));
    assert_false(has_flag(fast, "max_cluster_unknown"));
    assert_true(json_integer_value(json_object_get(unk, "nodes")) <= 4);
    assert_float_equal(num(unk, "cost"), json_integer_value(json_object_get(unk, "gpus")) * 2.0 *
                                             num(unk, "time_to_train_h"), 1e-9);
    json_array_foreach(json_object_get(doc, "ranked"), i, r)
        assert_true(strlen(json_string_value(json_object_get(r, "why"))) > 20);
    assert_int_equal(json_array_size(json_object_get(doc, "ranked")) +
                     json_array_size(json_object_get(doc, "unranked")), 7);
    json_decref(doc);

    /* --top 1 keeps one ranked row; unranked stays complete. */
    opts.top = 1;
    assert_int_equal(cf__plan_run(&with_mem, &list, &w, &opts, &doc, &err), CF_OK);
    assert_int_equal(json_array_size(json_object_get(doc, "ranked")), 1);
    assert_int_equal(json_array_size(json_object_get(doc, "unranked")), 4);
    json_decref(doc);
}

/* An offering planned on one node for want of its network says what is
 * missing: the network itself, or (family stated) only its Gbit/s. */
static void plan_one_node_reason_names_what_is_missing(void **state)
{
    cf_workload w;
    cf_offering os[2];
    cf_offering_list list = {os, 2};
    cf_plan_opts opts;
    cf_error err;
    json_t *doc;
    (void)state;
    Q = 400; fake_n0 = 2;
    llm(&w, 1, 2000, 1, 4096, 8, 100);
    offering(&os[0], "nonet", 1, CF_NET_UNKNOWN, NAN, -1, 2.0, "USD", 8);
    offering(&os[1], "nogbps", 1, CF_NET_IB, NAN, -1, 2.0, "USD", 8);
    cf_plan_opts_init(&opts);
    opts.goodput.no_failures = 1; /* the steady model by hand; goodput: test_goodput.c */
    assert_int_equal(cf__plan_run(&with_mem, &list, &w, &opts, &doc, &err), CF_OK);
    assert_true(has_reason(doc, "nonet", "needs 2 nodes to fit in memory; one node only: the network "
                           "between nodes is not stated (network unknown)"));
    assert_true(has_reason(doc, "nogbps", "needs 2 nodes to fit in memory; one node only: the network's "
                           "Gbit/s per node is not stated (network ib, network_gbps_per_node unknown)"));
    json_decref(doc);
    /* On one node (N0 = 1) both are ranked; only the second has the gbps flag. */
    fake_n0 = 1;
    assert_int_equal(cf__plan_run(&with_mem, &list, &w, &opts, &doc, &err), CF_OK);
    assert_non_null(row_of(doc, "nonet"));
    assert_non_null(row_of(doc, "nogbps"));
    assert_true(has_flag(row_of(doc, "nonet"), "network_unknown"));
    assert_false(has_flag(row_of(doc, "nonet"), "network_gbps_unknown"));
    assert_true(has_flag(row_of(doc, "nogbps"), "network_unknown"));
    assert_true(has_flag(row_of(doc, "nogbps"), "network_gbps_unknown"));
    json_decref(doc);
}

/* opts.today dates the plan: a row priced (price_as_of, else as_of) before
 * today minus CF_STALE_MONTHS_DEFAULT months gets stale_price, no assumed
 * fact; without today nothing is stale; a malformed today is refused. */
static void plan_stale_price(void **state)
{
    cf_workload w;
    cf_offering os[3];
    cf_offering_list list = {os, 3};
    cf_plan_opts opts;
    cf_error err;
    json_t *doc;
    (void)state;
    Q = 400; fake_n0 = 1;
    llm(&w, 1, 2000, 1, 4096, 8, 100);
    offering(&os[0], "oldprice", 1, CF_NET_IB, 100, 1, 2.0, "USD", 8);
    os[0].as_of = (char *)"2026-11-20";
    os[0].price_as_of = (char *)"2024-12";
    offering(&os[1], "oldrow", 1, CF_NET_IB, 100, 1, 2.0, "USD", 8);
    os[1].as_of = (char *)"2026-05-29";
    offering(&os[2], "fresh", 1, CF_NET_IB, 100, 1, 2.0, "USD", 8);
    os[2].as_of = (char *)"2026-05-30";
    cf_plan_opts_init(&opts);
    opts.goodput.no_failures = 1; /* the steady model by hand; goodput: test_goodput.c */
    assert_null(opts.today);
    assert_int_equal(cf__plan_run(&with_mem, &list, &w, &opts, &doc, &err), CF_OK);
    assert_false(has_flag(row_of(doc, "oldprice"), "stale_price"));
    assert_null(json_object_get(doc, "stale_before"));
    json_decref(doc);
    opts.today = "2026-11-30";
    assert_int_equal(cf__plan_run(&with_mem, &list, &w, &opts, &doc, &err), CF_OK);
    assert_string_equal(json_string_value(json_object_get(doc, "stale_before")), "2026-05-30");
    assert_int_equal(json_integer_value(json_object_get(doc, "stale_months")), CF_STALE_MONTHS_DEFAULT);
    assert_true(has_flag(row_of(doc, "oldprice"), "stale_price"));
    assert_string_equal(json_string_value(json_object_get(row_of(doc, "oldprice"), "price_dated")), "2024-12");
    assert_true(has_flag(row_of(doc, "oldrow"), "stale_price"));
    assert_false(has_flag(row_of(doc, "fresh"), "stale_price"));
    assert_false(json_is_true(json_object_get(row_of(doc, "oldprice"), "rests_on_assumptions")));
    json_decref(doc);
    /* known_only keeps a stale row (a stated fact). */
    opts.known_only = 1;
    assert_int_equal(cf__plan_run(&with_mem, &list, &w, &opts, &doc, &err), CF_OK);
    assert_true(has_flag(row_of(doc, "oldprice"), "stale_price"));
    json_decref(doc);
    opts.today = "2026-13-01";
    assert_int_equal(cf__plan_check_opts(&opts, &err), CF_EINVAL);
    assert_string_equal(err.param, "today");
    assert_int_equal(cf__plan_run(&with_mem, &list, &w, &opts, &doc, &err), CF_EINVAL);
    assert_null(doc);
}

static void scale_curve(void **state)
{
    /* The hand-computed offering of plan_hand_computed, N0 = 1, Q = 40:
     * throughput = 8×4096 tokens per step / step time. */
    cf_workload w;
    cf_offering o;
    cf_error err;
    json_t *arr;
    int nodes[] = {2, 8};
    double t1 = 800 / 1.17, t2 = 400 / 1.15 + 0.4;
    (void)state;
    Q = 40; fake_n0 = 1;
    llm(&w, 1, 2000, 1, 4096, 8, 100);
    offering(&o, "one", 1, CF_NET_IB, 100, 1, 2.0, "USD", 8);
    assert_int_equal(cf__scale_run(&with_mem, &o, &w, NULL, 0, &arr, &err), CF_OK);
    assert_int_equal(json_array_size(arr), 4);
    assert_float_equal(num(json_array_get(arr, 1), "step_time_s"), t2, 1e-9);
    assert_float_equal(num(json_array_get(arr, 1), "throughput"), 8 * 4096 / t2, 1e-6);
    assert_float_equal(num(json_array_get(arr, 1), "scaling_efficiency"), t1 / (2 * t2), 1e-12);
    assert_float_equal(num(json_array_get(arr, 1), "cost"), 40.0, 1e-9);
    json_decref(arr);
    /* Explicit counts; E is still relative to N0 = 1. */
    assert_int_equal(cf__scale_run(&with_mem, &o, &w, nodes, 2, &arr, &err), CF_OK);
    assert_int_equal(json_array_size(arr), 2);
    assert_float_equal(num(json_array_get(arr, 1), "scaling_efficiency"), t1 / (8 * 100.4), 1e-12);
    json_decref(arr);
    nodes[0] = 0;
    assert_int_equal(cf__scale_run(&with_mem, &o, &w, nodes, 2, &arr, &err), CF_EINVAL);
}

/* ---- E above 1: the reason ---- */

static json_t *find_nodes(json_t *arr, long nodes)
{
    size_t i;
    json_t *r;
    json_array_foreach(arr, i, r)
        if (json_integer_value(json_object_get(r, "nodes")) == nodes) return r;
    return NULL;
}

static void e_above_one_from_memory(void **state)
{
    /* One GPU per node, heads 1, layers 1, batch 8, hidden 15000: states of
     * 150 GiB against 80. N=1 cannot hold them; N=2 only with ZeRO-3 (75 GiB)
     * and then activations of 6·mb·rf[rc] must stay under 5 GiB: mb1 with
     * selective recompute (3) is the fastest: 400 × 1.1 + 0.6 = 440.6 s.
     * N=4 fits ZeRO-1 (150 × (0.25 + 0.75/4) = 65.6) with mb2 and no
     * recompute (12): 400/2/1.1 + 0.4 = 182.22 s. E(4) = 440.6 × 2 /
     * (182.22 × 4) = 1.209 > 1.05. Without the memory limit N=2 would run
     * mb4, no recompute, ZeRO-0: 400/1.15 + 0.4 = 348.23 s, E 0.956 <= 1:
     * memory is the whole reason. */
    cf_workload w;
    cf_offering o;
    cf_offering_list list = {&o, 1};
    cf_plan_opts opts;
    cf_error err;
    json_t *doc, *r, *note, *arr;
    double t2 = 400 * 1.1 + 0.6, t4 = 400.0 / 2 / 1.1 + 0.4;
    const char *why;
    (void)state;
    Q = 40; fake_n0 = 2; ART = 0;
    llm(&w, 1, 15000, 1, 4096, 8, 100);
    offering(&o, "one", 1, CF_NET_IB, 100, 1, 2.0, "USD", 4);
    cf_plan_opts_init(&opts);
    opts.goodput.no_failures = 1; /* the steady model by hand; goodput: test_goodput.c */
    opts.objective = CF_OBJ_TIME;
    assert_int_equal(cf__plan_run(&with_mem, &list, &w, &opts, &doc, &err), CF_OK);
    r = row_of(doc, "one");
    assert_non_null(r);
    assert_int_equal(json_integer_value(json_object_get(r, "nodes")), 4);
    assert_float_equal(num(r, "step_time_s"), t4, 1e-9);
    assert_float_equal(num(r, "scaling_efficiency"), t2 * 2 / (t4 * 4), 1e-12);
    why = json_string_value(json_object_get(r, "why"));
    assert_non_null(strstr(why, "E 1.21 at 4 nodes vs 2, above 1 because memory binds on 2 nodes: the "
                                "fastest layout that fits there is DP2 with ZeRO-3 and selective "
                                "recompute, while 4 nodes have room for DP4 with ZeRO-1 and no recompute"));
    note = json_object_get(r, "scaling_note");
    assert_true(json_is_object(note));
    assert_string_equal(json_string_value(json_object_get(note, "cause")), "memory");
    assert_int_equal(json_integer_value(json_object_get(note, "n0")), 2);
    assert_string_equal(json_string_value(json_object_get(json_object_get(note, "n0_layout"), "recompute")),
                        "selective");
    assert_int_equal(json_integer_value(json_object_get(json_object_get(note, "n0_layout"), "zero")), 3);
    json_decref(doc);

    /* E > 1 makes the larger cluster the cheaper one too: N=2 runs 12.24 h,
     * billed 13 h × 2 GPUs × 2.00 = 52; N=4 5.06 h, billed 6 × 4 × 2.00 = 48. */
    opts.objective = CF_OBJ_COST;
    assert_int_equal(cf__plan_run(&with_mem, &list, &w, &opts, &doc, &err), CF_OK);
    r = row_of(doc, "one");
    assert_int_equal(json_integer_value(json_object_get(r, "nodes")), 4);
    assert_float_equal(num(r, "cost"), 48.0, 1e-9);
    assert_true(json_is_object(json_object_get(r, "scaling_note")));
    json_decref(doc);

    /* On a cluster of at most 2 nodes the row is N0 itself (E 1): no note. */
    o.max_cluster_gpus = 2;
    assert_int_equal(cf__plan_run(&with_mem, &list, &w, &opts, &doc, &err), CF_OK);
    r = row_of(doc, "one");
    assert_int_equal(json_integer_value(json_object_get(r, "nodes")), 2);
    assert_float_equal(num(r, "cost"), 52.0, 1e-9);
    assert_true(json_is_null(json_object_get(r, "scaling_note")));
    assert_null(strstr(json_string_value(json_object_get(r, "why")), "above 1"));
    json_decref(doc);
    o.max_cluster_gpus = 4;

    /* scale: the layout per row, the note on the row above 1.05 only. */
    assert_int_equal(cf__scale_run(&with_mem, &o, &w, NULL, 0, &arr, &err), CF_OK);
    assert_int_equal(json_array_size(arr), 2);
    r = find_nodes(arr, 2);
    assert_true(json_is_null(json_object_get(r, "scaling_note")));
    assert_string_equal(json_string_value(json_object_get(json_object_get(r, "layout"), "recompute")), "selective");
    assert_int_equal(json_integer_value(json_object_get(json_object_get(r, "layout"), "dp")), 2);
    assert_float_equal(num(r, "parallel_efficiency"), 440.0 / t2, 1e-12);
    r = find_nodes(arr, 4);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(r, "layout"), "micro_batch")), 2);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(r, "layout"), "zero")), 1);
    note = json_object_get(r, "scaling_note");
    assert_string_equal(json_string_value(json_object_get(note, "cause")), "memory");
    assert_non_null(strstr(json_string_value(json_object_get(note, "text")), "E 1.21 at 4 nodes is above 1 because memory binds on 2 nodes"));
    json_decref(arr);
}

static void e_above_one_not_memory(void **state)
{
    /* A model whose per-GPU time falls with the node count (an artefact:
     * compute × (1 + 1/nodes)) and no memory pressure (hidden 2000): N0 = 1,
     * mb8: 800 × 2 / 1.17 = 1367.52 s; N=2, mb4: 400 × 1.5 / 1.15 + 0.4 =
     * 522.17 s; E(2) = 1367.52 / (2 × 522.17) = 1.309. The note must not
     * blame memory: the same search without the limit gives the same N0. */
    cf_workload w;
    cf_offering o;
    cf_error err;
    json_t *arr, *note;
    int nodes[] = {1, 2};
    (void)state;
    Q = 40; fake_n0 = 1; ART = 1;
    llm(&w, 1, 2000, 1, 4096, 8, 100);
    offering(&o, "one", 1, CF_NET_IB, 100, 1, 2.0, "USD", 8);
    assert_int_equal(cf__scale_run(&with_mem, &o, &w, nodes, 2, &arr, &err), CF_OK);
    ART = 0;
    assert_float_equal(num(json_array_get(arr, 1), "scaling_efficiency"),
                       (1600 / 1.17) / (2 * (600 / 1.15 + 0.4)), 1e-12);
    note = json_object_get(json_array_get(arr, 1), "scaling_note");
    assert_string_equal(json_string_value(json_object_get(note, "cause")), "other");
    assert_non_null(strstr(json_string_value(json_object_get(note, "text")), "even without the memory limit"));
    assert_null(strstr(json_string_value(json_object_get(note, "text")), "memory binds"));
    json_decref(arr);
}

static void layout_words(void **state)
{
    cf_layout l;
    char buf[128];
    (void)state;
    cf_layout_init(&l);
    l.tp = 4; l.pp = 2; l.vp = 2; l.cp = 2; l.dp = 8; l.zero = 3; l.recompute = CF_RECOMPUTE_FULL;
    cf_layout_words(buf, sizeof buf, &l, CF_WL_LLM);
    assert_string_equal(buf, "TP4 PP2v2 CP2 DP8 with ZeRO-3 and full recompute");
    l.tp = 1; l.pp = 1; l.vp = 1; l.cp = 1; l.zero = 0; l.recompute = CF_RECOMPUTE_NONE;
    cf_layout_words(buf, sizeof buf, &l, CF_WL_LLM);
    assert_string_equal(buf, "DP8 with no recompute");
    cf_layout_words(buf, sizeof buf, &l, CF_WL_STENCIL);
    assert_string_equal(buf, "8 ranks");   /* an MPI stencil runs ranks (issue 9) */
    cf_layout_words(buf, sizeof buf, &l, CF_WL_DATA_PARALLEL);
    assert_string_equal(buf, "DP8");
    cf_layout_words(buf, 5, &l, CF_WL_LLM);     /* cut, terminated */
    assert_string_equal(buf, "DP8 ");
    /* MoE: EP, and ETP when above 1, after CP and before DP. */
    l.tp = 2; l.ep = 8; l.etp = 2; l.dp = 16;
    cf_layout_words(buf, sizeof buf, &l, CF_WL_LLM);
    assert_string_equal(buf, "TP2 EP8 ETP2 DP16 with no recompute");
    l.etp = 1;
    cf_layout_words(buf, sizeof buf, &l, CF_WL_LLM);
    assert_string_equal(buf, "TP2 EP8 DP16 with no recompute");
}

/* The real step model: on real fabrics, every E above 1 is memory's doing.
 * (1) Against the fastest layout on N0 without the memory limit, E <= 1 at
 * every node count; (2) the layout chosen at N, with DP scaled down to any
 * smaller power-of-two node count, is never slower per GPU there: a layout
 * does not get faster per GPU with more nodes. A step-model artefact that
 * made it so (a term shrinking per GPU as DP grows) fails here. */
static void real_model_e_above_one_is_memory(void **state)
{
    static const char *const wls[] = {"llama3-70b", "gpt3-175b", "llama3-8b"};
    cf_fabric fabs[2];
    int checked = 0, above = 0;
    (void)state;
    memset(fabs, 0, sizeof fabs);
    snprintf(fabs[0].gpu, sizeof fabs[0].gpu, "H100-SXM");
    fabs[0].gpus_per_node = 8; fabs[0].intra_link = CF_INTRA_NVSWITCH_NVLINK4;
    fabs[0].network = CF_NET_IB; fabs[0].nics_per_node = 8; fabs[0].nic_gbps = 400;
    fabs[0].gdr = CF_GDR_ON; fabs[0].non_blocking = CF_CAP_YES; fabs[0].rail_optimized = CF_CAP_YES;
    snprintf(fabs[1].gpu, sizeof fabs[1].gpu, "A100-SXM-80");
    fabs[1].gpus_per_node = 8; fabs[1].intra_link = CF_INTRA_NVSWITCH_NVLINK3;
    fabs[1].network = CF_NET_ROCE; fabs[1].nics_per_node = 8; fabs[1].nic_gbps = 200;
    fabs[1].gdr = CF_GDR_ON; fabs[1].non_blocking = CF_CAP_UNKNOWN; fabs[1].rail_optimized = CF_CAP_UNKNOWN;
    for (size_t wi = 0; wi < sizeof wls / sizeof wls[0]; wi++) {
        cf_workload w;
        cf_error err;
        assert_int_equal(cf_workload_load(wls[wi], &w, &err), CF_OK);
        for (int fi = 0; fi < 2; fi++) {
            const cf_fabric *fab = &fabs[fi];
            cf__search s = {&cf__plan_model_default, &w, fab, cf__plan_mem_limit_gib(fab->gpu), 0, 0, NULL, NULL, 0};
            int counts[8], n0;
            size_t k;
            cf__plan_point p0;
            double free0;
            assert_false(isnan(s.mem_limit_gib));
            n0 = cf__plan_min_nodes(&s, 64);
            assert_true(n0 >= 1);
            k = cf__plan_node_counts(n0, fab->gpus_per_node, (long)n0 * 64 * fab->gpus_per_node, counts, 8);
            cf__plan_best_at(&s, n0, &p0);
            assert_true(p0.found);
            free0 = cf__plan_free_step_s(&cf__plan_model_default, &w, fab, NULL, NULL, n0, NULL);
            assert_true(free0 <= p0.res.step_time_s);
            for (size_t i = 1; i < k; i++) {
                cf__plan_point pt;
                cf__plan_best_at(&s, counts[i], &pt);
                if (!pt.found) continue;
                checked++;
                above += cf__plan_scaling_eff(counts[i], pt.res.step_time_s, n0, p0.res.step_time_s) > 1.05;
                if (cf__plan_scaling_eff(counts[i], pt.res.step_time_s, n0, free0) > 1 + 1e-9)
                    fail_msg("%s on %s: E %.4f at %d nodes against N0 = %d without the memory limit",
                             wls[wi], fab->gpu, cf__plan_scaling_eff(counts[i], pt.res.step_time_s, n0, free0),
                             counts[i], n0);
                for (int m = counts[i] / 2; m >= 1; m /= 2) {
                    cf_layout l = pt.lay;
                    cf_step_result r;
                    /* The same run on fewer nodes: its framework class stays
                     * the one its ZeRO stage gave it (model/efficiency.c),
                     * also where dp 1 drops the ZeRO stage below. */
                    cf_workload wm = w;
                    wm.framework = cf_framework_resolve(w.framework, pt.lay.zero);
                    long g = (long)m * fab->gpus_per_node, split = (long)l.tp * l.pp * l.cp;
                    if (g % split) break;
                    l.dp = (int)(g / split);
                    if (w.global_batch_seqs % ((long)l.dp * l.micro_batch)) break;
                    if (l.vp > 1 && (w.global_batch_seqs / ((long)l.dp * l.micro_batch)) % l.pp) break;
                    if (l.dp == 1) l.zero = 0;
                    assert_int_equal(cf_step_predict(&wm, fab, m, &l, &r, NULL), CF_OK);
                    if (r.step_time_s * m > pt.res.step_time_s * counts[i] * (1 + 1e-9))
                        fail_msg("%s on %s: the %d-node layout is faster per GPU than on %d nodes "
                                 "(%.4g vs %.4g GPU-s per step)", wls[wi], fab->gpu, counts[i], m,
                                 pt.res.step_time_s * counts[i], r.step_time_s * m);
                    checked++;
                }
            }
        }
    }
    /* The loops ran, and the cases the check is about occur. */
    assert_true(checked > 50);
    assert_true(above > 3);
}

static void plan_survives_allocation_failures(void **state)
{
    cf_workload w;
    cf_offering os[3];
    cf_offering_list list = {os, 3};
    cf_plan_opts opts;
    cf_error err;
    json_t *doc;
    (void)state;
    Q = 40; fake_n0 = 1;
    llm(&w, 1, 2000, 1, 4096, 8, 100);
    offering(&os[0], "a", 1, CF_NET_IB, 100, 1, 2.0, "USD", 8);
    offering(&os[1], "b", 1, CF_NET_IB, 100, 1, 2.0, "EUR", 8);
    offering(&os[2], "c", 1, CF_NET_IB, 10, 1, 1.0, "USD", 8);
    cf_plan_opts_init(&opts);
    opts.goodput.no_failures = 1; /* the steady model by hand; goodput: test_goodput.c */
    for (long n = 0; n < 40; n++) {
        cf_status st;
        cf_alloc_fail_after(n);
        st = cf__plan_run(&with_mem, &list, &w, &opts, &doc, &err);
        cf_alloc_fail_after(-1);
        if (st == CF_OK) { json_decref(doc); break; }
        assert_int_equal(st, CF_ENOMEM);
        assert_null(doc);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(node_counts),
        cmocka_unit_test(scaling_efficiency),
        cmocka_unit_test(shared_pieces),
        cmocka_unit_test(choose_objectives),
        cmocka_unit_test(choose_billing_flips),
        cmocka_unit_test(search_one_layout_by_hand),
        cmocka_unit_test(search_matches_brute_force),
        cmocka_unit_test(n0_from_memory),
        cmocka_unit_test(plan_hand_computed),
        cmocka_unit_test(plan_fabric_beats_sticker),
        cmocka_unit_test(plan_one_node_reason_names_what_is_missing),
        cmocka_unit_test(plan_stale_price),
        cmocka_unit_test(scale_curve),
        cmocka_unit_test(e_above_one_from_memory),
        cmocka_unit_test(e_above_one_not_memory),
        cmocka_unit_test(layout_words),
        cmocka_unit_test(choose_near_tie),
        cmocka_unit_test(choose_time_bounds),
        cmocka_unit_test(real_model_e_above_one_is_memory),
        cmocka_unit_test(plan_survives_allocation_failures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
