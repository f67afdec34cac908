/* goodput_json.c — the goodput breakdown as JSON and as the sentence of
 * what it assumes (goodput.h): the one shape `plan`, `scale`, `fabrics`,
 * `goodput` and the API show. */
#include <math.h>
#include <stdio.h>
#include "base/base.h"
#include "model/model_int.h"
#include "clusterfit/goodput.h"

static json_t *num_or_null(double v)
{
    return isfinite(v) ? cf__json_num(v) : json_null();
}

static json_t *ckpt_json(const cf_goodput_out *g)
{
    json_t *j = json_object();
    int bad = !j;
    bad |= cf__json_set(j, "bytes", num_or_null(g->ckpt_bytes));
    bad |= cf__json_set(j, "write_s", num_or_null(g->ckpt_write_s));
    bad |= cf__json_set(j, "stall_s", num_or_null(g->ckpt_stall_s));
    bad |= cf__json_set(j, "interval_s", num_or_null(g->ckpt_interval_s));
    bad |= cf__json_set(j, "interval_from", json_string(g->interval_given ? "option"
                                                        : g->interval_floor == CF_CKPT_FLOOR_WRITE ? "async-write"
                                                        : g->interval_floor == CF_CKPT_FLOOR_STEP ? "one-step"
                                                                                                   : "young-daly"));
    bad |= cf__json_set(j, "async", json_boolean(g->ckpt_async));
    bad |= cf__json_set(j, "load_s", num_or_null(g->load_s));
    if (bad) { json_decref(j); return NULL; }
    return j;
}

static json_t *fail_json(const cf_goodput_out *g)
{
    json_t *j = json_object();
    int bad = !j;
    bad |= cf__json_set(j, "mtbf_gpu_h", num_or_null(g->mtbf_gpu_h));
    bad |= cf__json_set(j, "job_mtbf_h", num_or_null(g->job_mtbf_h));
    bad |= cf__json_set(j, "interruptions", num_or_null(g->interruptions));
    bad |= cf__json_set(j, "unexpected", num_or_null(g->unexpected));
    bad |= cf__json_set(j, "restart_s", num_or_null(g->restart_s));
    if (bad) { json_decref(j); return NULL; }
    return j;
}

static json_t *parts_json(const cf_goodput_out *g)
{
    json_t *j = json_object();
    int bad = !j;
    bad |= cf__json_set(j, "steady_h", num_or_null(g->steady_h));
    bad |= cf__json_set(j, "data_stall_h", num_or_null(g->data_stall_h));
    bad |= cf__json_set(j, "ckpt_stall_h", num_or_null(g->ckpt_stall_h));
    bad |= cf__json_set(j, "lost_work_h", num_or_null(g->lost_work_h));
    bad |= cf__json_set(j, "restart_h", num_or_null(g->restart_h));
    if (bad) { json_decref(j); return NULL; }
    return j;
}

static json_t *data_json(const cf_goodput_out *g)
{
    json_t *j = json_object();
    int bad = !j;
    /* GB/s (10^9 bytes/s): the _GBps keys; the _gbps ones are the same
     * rates in Gbit/s (x 8), as every _gbps key of the project
     * (docs/goodput.md). have = min(the node's read rate, the file
     * system's aggregate / nodes). */
    bad |= cf__json_set(j, "read_need_GBps_per_node", num_or_null(g->read_need_gbps));
    bad |= cf__json_set(j, "read_have_GBps_per_node", num_or_null(g->read_have_gbps));
    bad |= cf__json_set(j, "read_node_GBps", num_or_null(g->bw.node_read_gbps));
    bad |= cf__json_set(j, "read_aggregate_GBps", num_or_null(g->bw.agg_read_gbps));
    bad |= cf__json_set(j, "read_need_gbps_per_node", num_or_null(g->read_need_gbps * 8.0));
    bad |= cf__json_set(j, "read_have_gbps_per_node", num_or_null(g->read_have_gbps * 8.0));
    bad |= cf__json_set(j, "binds", json_boolean(g->data_binds));
    if (bad) { json_decref(j); return NULL; }
    return j;
}

json_t *cf_goodput_json(const cf_goodput_out *g)
{
    json_t *j = json_object();
    char a[512];
    int bad = !j;
    cf_goodput_assumes(g, a, sizeof a);
    bad |= cf__json_set(j, "goodput", cf__json_num(g->goodput));
    bad |= cf__json_set(j, "steady_time_to_train_h", num_or_null(g->steady_h));
    bad |= cf__json_set(j, "time_to_train_h", num_or_null(g->wall_h));
    bad |= cf__json_set(j, "no_failures", json_boolean(g->no_failures));
    bad |= cf__json_set(j, "storage", json_string(cf_storage_class_name(g->storage)));
    bad |= cf__json_set(j, "storage_assumed", json_boolean(g->storage_assumed));
    bad |= cf__json_set(j, "breakdown", parts_json(g));
    bad |= cf__json_set(j, "checkpoint", ckpt_json(g));
    bad |= cf__json_set(j, "failures", fail_json(g));
    bad |= cf__json_set(j, "data", data_json(g));
    bad |= cf__json_set(j, "assumes", json_string(a));
    if (bad) { json_decref(j); return NULL; }
    return j;
}

void cf_goodput_assumes(const cf_goodput_out *g, char *buf, size_t cap)
{
    size_t n = 0;
    cf_storage_bw bw = g->bw;
    const char *src = g->bw_stated ? "stated" : "class default";
    buf[0] = '\0';
    if (g->no_failures) {
        snprintf(buf, cap, "steady state (--no-failures): no interruption, no checkpoint");
        return;
    }
    if (g->storage_assumed)
        n += (size_t)snprintf(buf + n, cap - n, "storage not stated: %s %s, ",
                              cf_storage_class_name(g->storage), src);
    else
        n += (size_t)snprintf(buf + n, cap - n, "%s %s, ", cf_storage_class_name(g->storage), src);
    if (n < cap && isfinite(bw.agg_write_gbps))
        n += (size_t)snprintf(buf + n, cap - n, "write %.3g GB/s per node at most, "
                              "%.3g GB/s for the whole file system; ",
                              bw.node_write_gbps, bw.agg_write_gbps);
    else if (n < cap)
        n += (size_t)snprintf(buf + n, cap - n, "write %.3g GB/s per node at most; ", bw.node_write_gbps);
    if (n < cap)
        n += (size_t)snprintf(buf + n, cap - n, "one interruption per %.3g GPU-hours; restart %.0f s "
                              "(detect %.0f + load %.0f + warm-up %.0f); %s checkpoints",
                              g->mtbf_gpu_h, g->restart_s, CF_K(GOODPUT_DETECT_S), g->load_s,
                              CF_K(GOODPUT_WARMUP_S), g->ckpt_async ? "asynchronous" : "synchronous");
}
