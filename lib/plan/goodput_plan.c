/* goodput_plan.c — the goodput model (model/goodput.c) applied to the
 * planner's points: an offering's storage class from its catalog cell, the
 * goodput of one node count's fastest layout, its sentence in the why line
 * and its fields in a row. choose.c calls cf__plan_goodput through
 * cf__plan_time_cost, so every row, curve and choice counts the same
 * time to train. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "base/base.h"
#include "plan/plan_int.h"

cf_storage_class cf__plan_storage(const cf_offering *o)
{
    return cf_storage_class_of_set(o->shared_storage, o->shared_storage_known);
}

cf_status cf__plan_goodput(const cf__plan_gp *gp, const cf__plan_point *p, double steps,
                           int gpus_per_node, cf_goodput_out *out)
{
    cf_goodput_in in;
    memset(&in, 0, sizeof in);
    in.w = gp->w;
    in.lay = p->lay;
    in.nodes = p->nodes;
    in.gpus_per_node = gpus_per_node;
    in.step_s = cf__plan_pt_s(p);
    in.steps = steps;
    in.units_per_step = cf__plan_units_per_step(gp->w);
    if (gp->opts) in.opts = *gp->opts;
    else cf_goodput_opts_init(&in.opts);
    /* A storage class given as an option replaces the offering's. */
    in.storage = in.opts.storage != CF_SC_UNKNOWN ? in.opts.storage : gp->storage;
    return cf_goodput(&in, out, NULL);
}

const char *cf__plan_goodput_never(const cf_goodput_out *g, char *buf, size_t cap)
{
    if (g->no_failures || isfinite(g->wall_h)) return NULL;
    snprintf(buf, cap, "never finishes: a %.0f s checkpoint write (%s%s) and a %.0f s restart against "
             "a job MTBF of %.3g h: interruptions outpace checkpoints and restarts",
             g->ckpt_write_s, g->storage_assumed ? "assumed " : "", cf_storage_class_name(g->storage),
             g->restart_s, g->job_mtbf_h);
    return buf;
}

void cf__plan_goodput_why(char *why, size_t cap, const cf_goodput_out *g)
{
    size_t n = strlen(why);
    double s = g->steady_h, fail = g->lost_work_h + g->restart_h;
    double lim = CF_GOODPUT_NOTE_PCT / 100.0;
    if (g->no_failures || !(s > 0) || n >= cap) return;
    if (!isfinite(g->wall_h)) {
        snprintf(why + n, cap - n, "; never finishes: interruptions every %.3g h outpace the "
                 "checkpoints and restarts", g->job_mtbf_h);
        return;
    }
    if (g->ckpt_stall_h > lim * s && n < cap)
        n += (size_t)snprintf(why + n, cap - n, "; checkpoint stalls add %.0f %% (%.3g TB written "
                              "to %s%s in %.0f s, every %.0f min)", 100 * g->ckpt_stall_h / s,
                              g->ckpt_bytes / 1e12, g->storage_assumed ? "assumed " : "",
                              cf_storage_class_name(g->storage), g->ckpt_write_s,
                              g->ckpt_interval_s / 60);
    if (fail > lim * s && n < cap)
        n += (size_t)snprintf(why + n, cap - n, "; failures add %.0f %% (%.*f expected interruptions, "
                              "one per %.3g h, each a %.0f min restart and lost work)", 100 * fail / s,
                              g->interruptions < 9.95 ? 1 : 0, g->interruptions, g->job_mtbf_h, g->restart_s / 60);
    if (g->data_stall_h > lim * s && n < cap)
        snprintf(why + n, cap - n, "; storage binds: input reads need %.2g GB/s per node, %s gives "
                 "%.2g (+%.0f %%)", g->read_need_gbps, cf_storage_class_name(g->storage),
                 g->read_have_gbps, 100 * g->data_stall_h / s);
}

int cf__plan_goodput_set(json_t *row, const cf_goodput_out *g)
{
    int bad = 0;
    bad |= cf__json_set(row, "goodput", cf__json_num(g->goodput));
    bad |= cf__json_set(row, "steady_time_to_train_h", cf__json_num(g->steady_h));
    bad |= cf__json_set(row, "storage", json_string(cf_storage_class_name(g->storage)));
    bad |= cf__json_set(row, "goodput_detail", cf_goodput_json(g));
    return bad;
}
