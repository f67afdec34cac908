/* choose.c — the choice rule of `plan` (DESIGN §4.5): of the fastest
 * layouts found at each node count for one node type, which one an offering
 * rents, given its price and billing terms and the user's objective.
 *
 * Why a scan and not a search: at a fixed node count the fastest layout is
 * also the cheapest (every node is billed for the whole run), so only one
 * point per node count is a candidate, and an offering's choice is a scan
 * over at most CF_MAX_PLAN_NODE_COUNTS points. The scan runs twice: first
 * the best value of the objective (time to train or cost) among the points
 * that meet the deadline and the budget, then, within CF_PLAN_NEAR_TIE_PCT
 * of that value, the best on the other criterion — differences inside the
 * model's error are not worth twice the money or twice the wait. The time
 * and cost of a point (cf__plan_time_cost) are the ones every row and curve
 * of the plan reports, with its goodput when pr->gp is set.
 *
 * Under the time objective two more bounds hold (rental.c says why): a
 * point whose E against N0 is below the goal's e_floor is no candidate,
 * and a time shorter than the minimum rental counts as that minimum, so
 * among runs that finish inside it the cheapest wins. *bound says which
 * bound moved the choice away from the plain best (CF__BOUND_*). */
#include <math.h>
#include "plan/plan_int.h"
#include "clusterfit/validate.h"

void cf__plan_time_cost(const cf__plan_point *p, double steps, int gpus_per_node,
                        const cf__plan_price *pr, double *time_h, double *cost)
{
    cf_goodput_out g;
    *time_h = steps * cf__plan_pt_s(p) / 3600.0;
    /* Failures, checkpoints and input reads (goodput_plan.c): the time
     * every row, curve and choice reports is the wall time. */
    if (pr->gp && cf__plan_goodput(pr->gp, p, steps, gpus_per_node, &g) == CF_OK) *time_h = g.wall_h;
    *cost = cf_job_cost(p->nodes, gpus_per_node, pr->price_gpu_hr, *time_h, pr->increment_s,
                        pr->min_commitment_h, NULL);
}

/* The deadline rule (plan_int.h): the time with the margin must not pass it. */
int cf__plan_meets_deadline(double time_h, double deadline_h, double margin_pct)
{
    return isnan(deadline_h) || !(time_h * (1.0 + margin_pct / 100.0) > deadline_h);
}

double cf__plan_margin_pct(const cf_workload *w, double given)
{
    return isnan(given) ? cf_default_margin_pct(w) : given;
}

/* Whether time t and cost c meet the goal's deadline and budget. */
static int feasible(const cf__plan_goal *g, double t, double c)
{
    return cf__plan_meets_deadline(t, g->deadline_h, g->margin_pct) &&
           (isnan(g->budget) || c <= g->budget);
}

/* The first found point (N0 when pts starts there); NULL when none. */
static const cf__plan_point *first_found(const cf__plan_point *pts, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (pts[i].found) return &pts[i];
    return NULL;
}

/* Whether point p is below the goal's efficiency floor against p0. */
static int below_floor(const cf__plan_goal *g, const cf__plan_point *p, const cf__plan_point *p0)
{
    double e;
    if (g->objective != CF_OBJ_TIME || !(g->e_floor > 0) || !p0) return 0;
    e = cf__plan_scaling_eff(p->nodes, cf__plan_pt_s(p), p0->nodes, cf__plan_pt_s(p0));
    return e < g->e_floor;
}

/* The value of the objective: cost, or the time to train counted as at
 * least the minimum rental (pr's, NAN = none). */
static double objective_value(const cf__plan_goal *g, const cf__plan_price *pr, double t, double c)
{
    if (g->objective != CF_OBJ_TIME) return c;
    return !isnan(pr->min_commitment_h) && t < pr->min_commitment_h ? pr->min_commitment_h : t;
}

/* Pass 1: the index of the best value of the objective among the feasible
 * points (-1 when none; *why_none as cf__plan_choose says); *unbounded_v
 * the best value with no deadline, budget or floor (NAN when none). */
static int best_feasible(const cf__plan_point *pts, size_t n, double steps, int gpus_per_node,
                         const cf__plan_price *pr, const cf__plan_goal *g, double *best_v,
                         int *why_none, unsigned *bound)
{
    int best = -1, any = 0, deadline_ok = 0;
    const cf__plan_point *p0 = first_found(pts, n);
    double t, c;
    for (size_t i = 0; i < n; i++) {
        double v;
        if (!pts[i].found) continue;
        any = 1;
        cf__plan_time_cost(&pts[i], steps, gpus_per_node, pr, &t, &c);
        v = objective_value(g, pr, t, c);
        if (!cf__plan_meets_deadline(t, g->deadline_h, g->margin_pct)) {
            *bound |= CF__BOUND_DEADLINE;
            continue;
        }
        deadline_ok = 1;
        if (!isnan(g->budget) && !(c <= g->budget)) { *bound |= CF__BOUND_BUDGET; continue; }
        if (below_floor(g, &pts[i], p0)) { *bound |= CF__BOUND_E_FLOOR; continue; }
        if (best < 0 || v < *best_v) { best = (int)i; *best_v = v; }
    }
    if (why_none) *why_none = best >= 0 ? 0 : !any ? 1 : !deadline_ok ? 2 : 3;
    return best;
}

/* Keeps in *bound only the bounds a point better than the pick on the
 * objective (by more than the near tie) actually hit, and adds
 * CF__BOUND_MIN_RENTAL when a faster point finished inside the minimum
 * rental and CF__BOUND_NEAR_TIE when the near-tie rule moved the pick. */
static unsigned bound_of(const cf__plan_point *pts, size_t n, double steps, int gpus_per_node,
                         const cf__plan_price *pr, const cf__plan_goal *g, int best, int pick)
{
    unsigned b = 0;
    const cf__plan_point *p0 = first_found(pts, n);
    double tp, cp, t, c;
    int time_obj = g->objective == CF_OBJ_TIME;
    cf__plan_time_cost(&pts[pick], steps, gpus_per_node, pr, &tp, &cp);
    for (size_t i = 0; i < n; i++) {
        if (!pts[i].found || (int)i == pick) continue;
        cf__plan_time_cost(&pts[i], steps, gpus_per_node, pr, &t, &c);
        if (!((time_obj ? t : c) < (time_obj ? tp : cp))) continue;
        if (!cf__plan_meets_deadline(t, g->deadline_h, g->margin_pct))
            b |= CF__BOUND_DEADLINE;
        else if (!isnan(g->budget) && !(c <= g->budget)) b |= CF__BOUND_BUDGET;
        else if (below_floor(g, &pts[i], p0)) b |= CF__BOUND_E_FLOOR;
        else if (time_obj && !isnan(pr->min_commitment_h) && t < pr->min_commitment_h &&
                 tp <= pr->min_commitment_h) b |= CF__BOUND_MIN_RENTAL;
        else if ((int)i == best || pick != best) b |= CF__BOUND_NEAR_TIE;
    }
    return b;
}

int cf__plan_choose_bound(const cf__plan_point *pts, size_t n, double steps, int gpus_per_node,
                          const cf__plan_price *pr, const cf__plan_goal *g, int *why_none,
                          unsigned *bound)
{
    int time_obj = g->objective == CF_OBJ_TIME, pick;
    double best_v = 0, band, tie_v, t, c;
    unsigned seen = 0;
    int best = best_feasible(pts, n, steps, gpus_per_node, pr, g, &best_v, why_none, &seen);
    if (bound) *bound = 0;
    if (best < 0 || isnan(best_v)) return best;
    /* Pass 2 (CF_PLAN_NEAR_TIE_PCT): among the feasible points within the
     * near-tie band of that value, the best on the other criterion (cost for
     * the time objective, time for cost); exact ties keep the first. */
    band = best_v * (1.0 + CF_PLAN_NEAR_TIE_PCT / 100.0);
    pick = best;
    cf__plan_time_cost(&pts[best], steps, gpus_per_node, pr, &t, &c);
    tie_v = time_obj ? c : t;
    for (size_t i = 0; i < n; i++) {
        double v, other;
        if (!pts[i].found) continue;
        cf__plan_time_cost(&pts[i], steps, gpus_per_node, pr, &t, &c);
        if (!feasible(g, t, c) || below_floor(g, &pts[i], first_found(pts, n))) continue;
        v = objective_value(g, pr, t, c);
        other = time_obj ? c : t;
        if (v <= band && other < tie_v) { pick = (int)i; tie_v = other; }
    }
    if (bound) *bound = bound_of(pts, n, steps, gpus_per_node, pr, g, best, pick);
    return pick;
}

int cf__plan_choose(const cf__plan_point *pts, size_t n, double steps, int gpus_per_node,
                    const cf__plan_price *pr, const cf__plan_goal *g, int *why_none)
{
    return cf__plan_choose_bound(pts, n, steps, gpus_per_node, pr, g, why_none, NULL);
}
