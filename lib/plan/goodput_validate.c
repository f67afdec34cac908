/* goodput_validate.c — the goodput model held to published runs
 * (cf_goodput_validate, docs/goodput.md "Validation"): Llama 3 405B's
 * effective training time (> 90 %) and Meta's H100 GPU-hours of Llama 3.1
 * 405B, 70B and 8B.
 *
 * Each run is planned as the plan would: the step model's fastest layout
 * at 2,048 nodes of 8 H100 on a RoCE fabric of 400 Gbit/s per GPU (Meta's
 * 24K cluster, Llama 3 paper §3.3.1), the steady time from it, then the
 * goodput model on that configuration with the storage Meta states
 * (Tectonic: 2 TB/s sustained, §3.3.1) and every other input at its
 * default. What it reports: the published figure, the steady figure, the
 * figure with goodput, and the gap left — the part of the gap that
 * failures and checkpoints close is steady -> with_goodput. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "base/base.h"
#include "plan/plan_int.h"

/* Meta's cluster and storage: Llama 3 paper (arXiv:2407.21783) §3.3.1. */
#define META_NODES 2048             /* 16,384 H100 in the 405B run */
#define META_TECTONIC_GBPS 2000.0   /* "2 TB/s sustained" (peak 7 TB/s) */

/* One published run. */
typedef struct vrun {
    const char *run;        /* the row's name */
    const char *preset;     /* the workload preset */
    int gpu_hours;          /* 1: the figure is GPU-hours, 0: effective time */
    double published;       /* the figure */
    const char *source;     /* where it is published */
} vrun;

static const vrun runs[] = {
    {"llama3-405b effective", "llama3-405b", 0, 0.90,
     "Llama 3 paper §3.3.4: \"higher than 90% effective training time\" (54-day snapshot)"},
    {"llama3.1-405b GPU-h", "llama3-405b", 1, 30.84e6,
     "Llama 3.1 model card (github.com/meta-llama/llama-models, models/llama3_1/MODEL_CARD.md): 30.84M H100 GPU-hours"},
    {"llama3.1-70b GPU-h", "llama3-70b", 1, 7.0e6, "Llama 3.1 model card: 7.0M H100 GPU-hours"},
    {"llama3.1-8b GPU-h", "llama3-8b", 1, 1.46e6, "Llama 3.1 model card: 1.46M H100 GPU-hours"},
};

/* Meta's node type as an offering: 8 H100 SXM behind NVSwitch, 8 x 400
 * Gbit/s RoCE with GPUDirect RDMA. */
static void meta_offering(cf_offering *o)
{
    static char id[] = "meta-24k-roce", gpu[] = "H100-SXM", cur[] = "USD";
    memset(o, 0, sizeof *o);
    o->id = id;
    o->gpu = gpu;
    o->currency = cur;
    o->gpus_per_node = 8;
    o->intra_link = CF_INTRA_NVSWITCH_NVLINK4;
    o->network = CF_NET_ROCE;
    o->network_gbps_per_node = 3200;
    o->nics_per_node = 8;
    o->rdma = o->gpudirect_rdma = CF_CAP_YES;
    o->non_blocking = o->rail_optimized = o->in_network_reduction = CF_CAP_UNKNOWN;
    o->max_cluster_gpus = 16384;
    o->multinode = CF_CAP_YES;
    o->price_on_demand_gpu_hr = 2.0;    /* any price: only the time is read */
    o->price_reserved_gpu_hr = o->price_spot_gpu_hr = NAN;
    o->min_commitment_h = o->billing_increment_s = NAN;
}

/* The steady configuration at META_NODES (the step model's search), then
 * its goodput on Tectonic. */
static cf_status run_one(const vrun *v, cf_goodput_out *g, cf_error *err)
{
    cf_workload w;
    cf_offering o;
    cf_goodput_opts steady;
    cf_goodput_in in;
    cf_storage_bw bw = {12.5, 12.5, META_TECTONIC_GBPS, META_TECTONIC_GBPS};
    json_t *arr = NULL, *row, *lay;
    int nodes = META_NODES;
    cf_status st;
    if ((st = cf_workload_load(v->preset, &w, err)) != CF_OK) return st;
    meta_offering(&o);
    cf_goodput_opts_init(&steady);
    steady.no_failures = 1;
    if ((st = cf__scale_run_gp(&cf__plan_model_default, &o, &w, &nodes, 1, &steady, &arr, err)) != CF_OK)
        return st;
    row = json_array_get(arr, 0);
    lay = json_object_get(row, "layout");
    memset(&in, 0, sizeof in);
    in.w = &w;
    in.lay.zero = (int)json_integer_value(json_object_get(lay, "zero"));
    in.lay.dp = (int)json_integer_value(json_object_get(lay, "dp"));
    in.nodes = nodes;
    in.gpus_per_node = 8;
    in.steps = cf__plan_steps(&w);
    in.step_s = json_number_value(json_object_get(row, "steady_time_to_train_h")) * 3600.0 / in.steps;
    in.units_per_step = cf__plan_units_per_step(&w);
    in.storage = CF_SC_GPFS;    /* a parallel file system, with Tectonic's figures */
    in.bw = &bw;
    cf_goodput_opts_init(&in.opts);
    st = cf_goodput(&in, g, err);
    json_decref(arr);
    return st;
}

static json_t *row_json(const vrun *v, const cf_goodput_out *g)
{
    json_t *j = json_object();
    double gpus = (double)META_NODES * 8;
    double steady = v->gpu_hours ? g->steady_h * gpus : 1.0;
    double with = v->gpu_hours ? g->wall_h * gpus : g->goodput;
    char note[512];
    int bad = !j;
    if (v->gpu_hours)
        snprintf(note, sizeof note, "%s; %d nodes, goodput %.3f closes %.0f %% of the steady gap", v->source,
                 META_NODES, g->goodput,
                 fabs(v->published - steady) > 0 ? 100 * (with - steady) / (v->published - steady) : 0);
    else
        snprintf(note, sizeof note, "%s; model: %.0f interruptions per 54 days (the table's rate), "
                 "restart %.0f s, checkpoint every %.0f s", v->source,
                 g->interruptions / g->wall_h * 54 * 24, g->restart_s, g->ckpt_interval_s);
    bad |= cf__json_set(j, "run", json_string(v->run));
    bad |= cf__json_set(j, "what", json_string(v->gpu_hours ? "gpu_hours" : "effective_training_time"));
    bad |= cf__json_set(j, "published", cf__json_num(v->published));
    bad |= cf__json_set(j, "steady", cf__json_num(steady));
    bad |= cf__json_set(j, "with_goodput", cf__json_num(with));
    /* A GPU-hours gap is relative (percent of the published figure); an
     * effective-time gap is the difference of two fractions: percentage
     * points, its own key (issue 23: it printed as "-1.2%"). */
    bad |= cf__json_set(j, "gap_pct", v->gpu_hours ? cf__json_num(100 * (with / v->published - 1)) : json_null());
    bad |= cf__json_set(j, "gap_pp", v->gpu_hours ? json_null() : cf__json_num(100 * (with - v->published)));
    bad |= cf__json_set(j, "goodput", cf__json_num(g->goodput));
    bad |= cf__json_set(j, "detail", cf_goodput_json(g));
    bad |= cf__json_set(j, "note", json_string(note));
    if (bad) {
        json_decref(j);
        return NULL;
    }
    return j;
}

cf_status cf_goodput_validate(json_t **out, cf_error *err)
{
    json_t *arr = json_array();
    cf_status st = CF_OK;
    *out = NULL;
    if (!arr) return CF_ENOMEM;
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        cf_goodput_out g;
        json_t *r;
        if ((st = run_one(&runs[i], &g, err)) != CF_OK) break;
        if (!(r = row_json(&runs[i], &g)) || json_array_append_new(arr, r)) {
            st = CF_ENOMEM;
            break;
        }
    }
    if (st != CF_OK) {
        json_decref(arr);
        return st;
    }
    *out = arr;
    return CF_OK;
}
