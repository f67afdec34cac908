/* goodput.c — failures, checkpoints, restarts and the storage they hit
 * (goodput.h, docs/goodput.md): from one configuration's steady step time
 * to the time the job really takes.
 *
 * Shape: the interruption rate is per GPU-hour (the Llama 3 405B run's
 * table, FAIL_* of constants.def, or the user's MTBF), so a job of G GPUs
 * sees G / MTBF_gpu unexpected interruptions per hour; each costs a restart
 * (detect and reschedule, load the checkpoint, warm up) and the work since
 * the last checkpoint, on average half an interval plus the stall. The
 * checkpoint's size is the workload's (weights + optimizer states), its
 * write time is the storage's (per node, capped by the file system's
 * aggregate), and its interval Daly's optimum unless the user gives one.
 * The wall time follows Daly's first-order model:
 *   T_wall = T_steady' (1 + stall/tau) / (1 - lam_u (R + (tau + stall)/2) - lam_p R)
 * with T_steady' the steady time stretched by input reads where the storage
 * binds. Everything is closed form, so the plan prices every point of its
 * search without measurable cost. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "base/base.h"
#include "model/model_int.h"
#include "clusterfit/goodput.h"
#include "clusterfit/vocab.h"
#include "clusterfit/units.h"

static const char *const sc_names[CF_SC__COUNT] = {
    "unknown", "nfs", "lustre", "gpfs", "vast", "weka", "object", "local-nvme"
};

const char *cf_storage_class_name(cf_storage_class c)
{
    return (unsigned)c < CF_SC__COUNT ? sc_names[c] : "unknown";
}

const char *cf_storage_class_list(void)
{
    return "nfs, lustre, gpfs, vast, weka, object, local-nvme";
}

cf_status cf_storage_class_parse(const char *s, cf_storage_class *out, cf_error *err)
{
    for (int i = 1; s && i < CF_SC__COUNT; i++)
        if (cf__strcasecmp(s, sc_names[i]) == 0) {
            *out = (cf_storage_class)i;
            return CF_OK;
        }
    if (s && cf__strcasecmp(s, "nvme") == 0) {
        *out = CF_SC_LOCAL_NVME;
        return CF_OK;
    }
    cf_error_set_param(err, "storage", "storage expects one of %s, got '%.40s'",
                       cf_storage_class_list(), s ? s : "");
    return CF_EINVAL;
}

cf_storage_class cf_storage_class_of_set(unsigned bits, int known)
{
    /* The fastest the row states: the checkpoint goes where it is fastest. */
    static const struct { unsigned bit; cf_storage_class c; } order[] = {
        {CF_STOR_WEKA, CF_SC_WEKA}, {CF_STOR_VAST, CF_SC_VAST}, {CF_STOR_LUSTRE, CF_SC_LUSTRE},
        {CF_STOR_GPFS, CF_SC_GPFS}, {CF_STOR_OBJECT, CF_SC_OBJECT}, {CF_STOR_NFS, CF_SC_NFS},
    };
    if (!known) return CF_SC_UNKNOWN;
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
        if (bits & order[i].bit) return order[i].c;
    return CF_SC_UNKNOWN;
}

void cf_storage_class_bw(cf_storage_class c, cf_storage_bw *out)
{
    double node = CF_K(STOR_NODE_GBPS), agg = CF_K(STOR_PARALLEL_AGG_GBPS);
    if (c == CF_SC_UNKNOWN) c = CF_SC_ASSUMED;
    out->node_write_gbps = out->node_read_gbps = node;
    out->agg_write_gbps = out->agg_read_gbps = agg;
    if (c == CF_SC_NFS) {
        out->node_write_gbps = out->node_read_gbps = CF_K(STOR_NFS_NODE_GBPS);
        out->agg_write_gbps = CF_K(STOR_NFS_AGG_WRITE_GBPS);
        out->agg_read_gbps = CF_K(STOR_NFS_AGG_READ_GBPS);
    } else if (c == CF_SC_OBJECT || c == CF_SC_LOCAL_NVME) {
        /* An object store scales with its clients (per-prefix request
         * rates aside); local NVMe grows with the nodes. */
        out->agg_write_gbps = out->agg_read_gbps = INFINITY;
    }
}

void cf_goodput_opts_init(cf_goodput_opts *o)
{
    o->no_failures = 0;
    o->mtbf_gpu_h = NAN;
    o->ckpt_interval_s = NAN;
    o->ckpt_async = -1;
    o->storage = CF_SC_UNKNOWN;
}

static int parse_bool(const char *v, int *out)
{
    if (strcmp(v, "true") == 0 || strcmp(v, "yes") == 0 || strcmp(v, "1") == 0) *out = 1;
    else if (strcmp(v, "false") == 0 || strcmp(v, "no") == 0 || strcmp(v, "0") == 0) *out = 0;
    else return -1;
    return 0;
}

cf_status cf_goodput_opts_set(cf_goodput_opts *o, const char *name, const char *value,
                              cf_error *err)
{
    double d;
    int b;
    if (!value) value = "";
    if (strcmp(name, "storage") == 0) return cf_storage_class_parse(value, &o->storage, err);
    if (strcmp(name, "no_failures") == 0 || strcmp(name, "ckpt_async") == 0) {
        if (parse_bool(value, &b) != 0) {
            cf_error_set_param(err, name, "%s expects true or false, got '%.64s'", name, value);
            return CF_EINVAL;
        }
        if (name[0] == 'n') o->no_failures = b;
        else o->ckpt_async = b;
        return CF_OK;
    }
    if (strcmp(name, "mtbf_gpu_h") != 0 && strcmp(name, "ckpt_interval") != 0) return CF_ENOTFOUND;
    {
        double lo = name[0] == 'm' ? CF_MTBF_GPU_H_MIN : CF_CKPT_INTERVAL_S_MIN;
        double hi = name[0] == 'm' ? CF_MTBF_GPU_H_MAX : CF_CKPT_INTERVAL_S_MAX;
        if (cf_parse_double(value, &d) != CF_OK || !(d >= lo && d <= hi)) {
            cf_error_set_param(err, name, "%s expects a number of %s from %g to %g, got '%.64s'", name,
                               name[0] == 'm' ? "GPU-hours" : "seconds", lo, hi, value);
            return CF_EINVAL;
        }
    }
    if (name[0] == 'm') o->mtbf_gpu_h = d;
    else o->ckpt_interval_s = d;
    return CF_OK;
}

double cf_ckpt_interval_young(double d, double m)
{
    if (!(d > 0) || !(m > 0)) return NAN;
    return sqrt(2.0 * d * m);
}

double cf_ckpt_interval_daly(double d, double m)
{
    double x;
    if (!(d > 0) || !(m > 0)) return NAN;
    if (d >= 2.0 * m) return m;
    x = d / (2.0 * m);
    return sqrt(2.0 * d * m) * (1.0 + sqrt(x) / 3.0 + x / 9.0) - d;
}

double cf_ckpt_bytes(const cf_workload *w)
{
    double per = CF_K(BYTES_WEIGHT) + w->optimizer_bytes_per_param, p;
    switch (w->kind) {
    case CF_WL_LLM:
        p = isnan(w->llm.params_b) ? cf__llm_params_total(&w->llm) : w->llm.params_b * 1e9;
        return p * per;
    case CF_WL_DATA_PARALLEL: return w->dp_params * per;
    case CF_WL_STENCIL: return w->st_cells * w->st_state_bytes_per_cell;
    default: return 0;
    }
}

int cf_ckpt_writers(const cf_layout *lay, int nodes)
{
    int dp = lay->dp > 0 ? lay->dp : 1;
    if (lay->zero >= 1 || nodes <= 1) return nodes < 1 ? 1 : nodes;
    return nodes / dp >= 1 ? nodes / dp : 1;
}

/* Unexpected interruptions per GPU-hour: the option's, the workload's, else
 * the published table's; planned ones from the table. */
static void rates(const cf_goodput_in *in, double *mtbf_gpu_h, double *planned_per_gpu_h)
{
    double unexpected = CF_K(FAIL_GPU) + CF_K(FAIL_HBM) + CF_K(FAIL_NETWORK) + CF_K(FAIL_HOST) +
                        CF_K(FAIL_SOFTWARE);
    *mtbf_gpu_h = CF_K(FAIL_EXPOSURE_GPU_H) / unexpected;
    if (in->w->mtbf_gpu_h > 0) *mtbf_gpu_h = in->w->mtbf_gpu_h;
    if (in->opts.mtbf_gpu_h > 0) *mtbf_gpu_h = in->opts.mtbf_gpu_h;
    *planned_per_gpu_h = CF_K(FAIL_PLANNED) / CF_K(FAIL_EXPOSURE_GPU_H);
}

/* Input reads: bytes per sample over the storage's read rate per node; the
 * step is stretched by need / have when it binds. Returns the factor. */
static double data_factor(const cf_goodput_in *in, const cf_storage_bw *bw, cf_goodput_out *g)
{
    /* units_per_step counts tokens for an LLM, samples for data-parallel
     * training (cf__plan_units_per_step). */
    double per_sample = in->w->kind == CF_WL_LLM ? CF_K(LLM_TOKEN_BYTES)
                      : in->w->kind == CF_WL_DATA_PARALLEL ? in->w->input_bytes_per_sample : 0;
    double have = fmin(bw->node_read_gbps, bw->agg_read_gbps / in->nodes);
    g->read_have_gbps = have;
    g->read_need_gbps = per_sample * in->units_per_step / in->step_s / in->nodes / 1e9;
    if (!(per_sample > 0) || !(in->units_per_step > 0)) g->read_need_gbps = 0;
    g->data_binds = g->read_need_gbps > have;
    return g->data_binds ? g->read_need_gbps / have : 1.0;
}

/* Size, write time, stall per checkpoint and the load on restart. */
static void checkpoint(const cf_goodput_in *in, const cf_storage_bw *bw, cf_goodput_out *g)
{
    int writers = cf_ckpt_writers(&in->lay, in->nodes);
    double wbw = fmin(writers * bw->node_write_gbps, bw->agg_write_gbps) * 1e9;
    double rbw = fmin(in->nodes * bw->node_read_gbps, bw->agg_read_gbps) * 1e9;
    g->ckpt_bytes = cf_ckpt_bytes(in->w);
    g->ckpt_write_s = g->ckpt_bytes / wbw;
    g->load_s = g->ckpt_bytes / rbw;
    g->ckpt_async = in->opts.ckpt_async >= 0 ? in->opts.ckpt_async : in->w->ckpt_async;
    /* Asynchronous: the step waits only for the copy of its GPU's share to
     * host memory (CKPT_D2H_GBPS), never less than the blocking part
     * measured with DCP's async_save (CKPT_ASYNC_STALL_MIN_S: staging and
     * planning, issue 23: a copy of milliseconds put Young/Daly at 39 s);
     * the write runs behind the training. */
    g->ckpt_stall_s = g->ckpt_async
        ? fmax(g->ckpt_bytes / ((double)writers * in->gpus_per_node) / (CF_K(CKPT_D2H_GBPS) * 1e9),
               CF_K(CKPT_ASYNC_STALL_MIN_S))
        : g->ckpt_write_s;
    g->restart_s = CF_K(GOODPUT_DETECT_S) + g->load_s + CF_K(GOODPUT_WARMUP_S);
}

static cf_status check_in(const cf_goodput_in *in, cf_error *err)
{
    const cf_goodput_opts *o = &in->opts;
    /* NAN and 0 (a struct cleared rather than initialised) are the defaults. */
    if (!isnan(o->mtbf_gpu_h) && o->mtbf_gpu_h != 0 &&
        !(o->mtbf_gpu_h >= CF_MTBF_GPU_H_MIN && o->mtbf_gpu_h <= CF_MTBF_GPU_H_MAX)) {
        cf_error_set_param(err, "mtbf_gpu_h", "mtbf_gpu_h expects a number of GPU-hours from %g to %g",
                           CF_MTBF_GPU_H_MIN, CF_MTBF_GPU_H_MAX);
        return CF_EINVAL;
    }
    if (!isnan(o->ckpt_interval_s) && o->ckpt_interval_s != 0 &&
        !(o->ckpt_interval_s >= CF_CKPT_INTERVAL_S_MIN && o->ckpt_interval_s <= CF_CKPT_INTERVAL_S_MAX)) {
        cf_error_set_param(err, "ckpt_interval", "ckpt_interval expects a number of seconds from %g to %g",
                           CF_CKPT_INTERVAL_S_MIN, CF_CKPT_INTERVAL_S_MAX);
        return CF_EINVAL;
    }
    if (in->nodes < 1 || in->gpus_per_node < 1 || !(in->step_s > 0) || !(in->steps > 0)) {
        cf_error_set_param(err, "nodes", "goodput needs nodes and GPUs per node >= 1 and a "
                           "positive step time and step count");
        return CF_EINVAL;
    }
    return CF_OK;
}

/* The wall time and its parts from the rates, interval and stalls. */
static void wall(cf_goodput_out *g, double lam_u, double lam_p, double factor)
{
    double tau = g->ckpt_interval_s, d = g->ckpt_stall_s, r = g->restart_s / 3600.0;
    /* Asynchronous: the newest checkpoint is usable only once written, so
     * an interruption also loses the write time. */
    double steady2 = g->steady_h * factor,
           lose = ((tau + d) / 2.0 + (g->ckpt_async && g->ckpt_bytes > 0 ? g->ckpt_write_s : 0)) / 3600.0;
    double denom = 1.0 - lam_u * (r + lose) - lam_p * r;
    double busy = steady2 * (1.0 + (tau > 0 ? d / tau : 0));
    g->data_stall_h = steady2 - g->steady_h;
    if (!(denom > 0)) {
        g->wall_h = INFINITY;
        g->goodput = 0;
        return;
    }
    g->wall_h = busy / denom;
    g->ckpt_stall_h = busy - steady2;
    g->unexpected = lam_u * g->wall_h;
    g->interruptions = g->unexpected + lam_p * g->wall_h;
    g->lost_work_h = g->unexpected * lose;
    g->restart_h = g->interruptions * r;
    g->goodput = g->steady_h / g->wall_h;
}

cf_status cf_goodput(const cf_goodput_in *in, cf_goodput_out *g, cf_error *err)
{
    cf_storage_bw bw;
    double mtbf_gpu_h, planned, lam_u, lam_p, factor;
    cf_status st;
    memset(g, 0, sizeof *g);
    if ((st = check_in(in, err)) != CF_OK) return st;
    g->steady_h = in->steps * in->step_s / 3600.0;
    g->storage_assumed = in->storage == CF_SC_UNKNOWN;
    g->storage = g->storage_assumed ? CF_SC_ASSUMED : in->storage;
    g->no_failures = in->opts.no_failures;
    if (in->bw) bw = *in->bw;
    else cf_storage_class_bw(g->storage, &bw);
    g->bw = bw;
    g->bw_stated = in->bw != NULL;
    rates(in, &mtbf_gpu_h, &planned);
    g->mtbf_gpu_h = mtbf_gpu_h;
    checkpoint(in, &bw, g);
    factor = data_factor(in, &bw, g);
    if (in->opts.no_failures) {
        g->wall_h = g->steady_h;
        g->goodput = 1;
        g->job_mtbf_h = INFINITY;
        return CF_OK;
    }
    lam_u = (double)in->nodes * in->gpus_per_node / mtbf_gpu_h;
    lam_p = (double)in->nodes * in->gpus_per_node * planned;
    /* Independent tasks: an interruption stops one GPU's task, not the job. */
    if (in->w->kind == CF_WL_EMBARRASSING) {
        lam_u /= (double)in->nodes * in->gpus_per_node;
        lam_p /= (double)in->nodes * in->gpus_per_node;
    }
    g->job_mtbf_h = 1.0 / lam_u;
    g->interval_given = in->opts.ckpt_interval_s > 0;
    g->ckpt_interval_s = g->interval_given ? in->opts.ckpt_interval_s
                                           : cf_ckpt_interval_daly(g->ckpt_stall_s, g->job_mtbf_h * 3600.0);
    g->interval_floor = CF_CKPT_FLOOR_NONE;
    /* No checkpoint to write (independent tasks): a failure loses half a
     * task; no interval. A checkpoint happens between steps. */
    if (!(g->ckpt_bytes > 0)) g->ckpt_interval_s = in->w->kind == CF_WL_EMBARRASSING ? in->w->ep_task_gpu_s : 0;
    else if (g->ckpt_interval_s < in->step_s) {
        g->ckpt_interval_s = in->step_s;
        g->interval_floor = CF_CKPT_FLOOR_STEP;
    }
    /* One asynchronous save in flight at a time (PyTorch DCP's async
     * recipe): Young/Daly's optimum never below the write and its stall --
     * a shorter one only queues writes. A given interval shorter than the
     * write holds the next checkpoint: the rest is stall. */
    if (g->ckpt_async && g->ckpt_bytes > 0 && !g->interval_given &&
        g->ckpt_interval_s < g->ckpt_write_s + g->ckpt_stall_s) {
        g->ckpt_interval_s = g->ckpt_write_s + g->ckpt_stall_s;
        g->interval_floor = CF_CKPT_FLOOR_WRITE;
    }
    if (g->ckpt_async && g->ckpt_write_s > g->ckpt_interval_s)
        g->ckpt_stall_s += g->ckpt_write_s - g->ckpt_interval_s;
    wall(g, lam_u, lam_p, factor);
    return CF_OK;
}
