/* params.c — the model's inputs by name: a fabric's and a collective
 * query's parameters from the text a CLI flag or an API parameter carries
 * (cf_fabric_set, cf_coll_query_set), a step's parallel layout
 * (cf_layout_set), the lists of their names, and the checks the model itself makes
 * of a fabric (cf__gpu_check, cf__int_check).
 *
 * One place parses and bounds each parameter, with the bounds of limits.h,
 * so that every front end accepts and refuses the same values with the same
 * reason. A refusal names the parameter in err->param (its snake_case name,
 * as the JSON API spells it) and the message carries that name as a word;
 * the front ends respell it (--gpus-per-node, 'gpus_per_node'). */
#include <stdio.h>
#include <string.h>
#include "clusterfit/collective.h"
#include "clusterfit/hardware.h"
#include "clusterfit/limits.h"
#include "clusterfit/step.h"
#include "clusterfit/units.h"
#include "model/model_int.h"

/* Names accepted by each setter, in the order a front end sets them (the
 * list the front ends iterate, and the messages show). */
static const char *const fabric_params[] = {"gpu", "gpus_per_node", "intra", "network", "nics",
                                            "nic_gbps", "gdr", "non_blocking", "rail_optimized",
                                            NULL};
static const char *const query_params[] = {"collective", "bytes", "nodes", "ranks_per_node", "algo", NULL};
static const char *const layout_params[] = {"tp", "pp", "dp", "cp", "vp", "micro_batch", "zero",
                                            "recompute", "sequence_parallel", "tp_overlap", "ep",
                                            "etp", NULL};

const char *const *cf_fabric_param_names(void)
{
    return fabric_params;
}

const char *const *cf_coll_query_param_names(void)
{
    return query_params;
}

const char *const *cf_layout_param_names(void)
{
    return layout_params;
}

static int known(const char *const *names, const char *name)
{
    for (size_t i = 0; names[i]; i++)
        if (strcmp(names[i], name) == 0) return 1;
    return 0;
}

/* A name that is no parameter of `kind`: param "", the accepted names. */
static cf_status unknown_name(const char *const *names, const char *kind, const char *name,
                              cf_error *err)
{
    char list[256];
    size_t used = 0;
    if (!err) return CF_EINVAL;
    list[0] = '\0';
    for (size_t i = 0; names[i]; i++) {
        int w = snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", names[i]);
        if (w < 0 || (size_t)w >= sizeof list - used) break;
        used += (size_t)w;
    }
    cf_error_set(err, NULL, 0, 0, "unknown %s parameter '%.64s' (accepted: %s)", kind, name, list);
    return CF_EINVAL;
}

/* A parameter given without a value. */
static cf_status no_value(const char *const *names, const char *kind, const char *name, cf_error *err)
{
    if (known(names, name)) cf_error_set_param(err, name, "%s has no value", name);
    else cf_error_set(err, NULL, 0, 0, "%s parameter '%.64s' has no value", kind, name);
    return CF_EINVAL;
}

cf_status cf__gpu_check(const char *name, const cf_gpu_spec **out, cf_error *err)
{
    cf_status st = cf_gpu_lookup(name, out);
    if (st == CF_OK || !err) return st;
    if (st == CF_ENOTFOUND) {
        char hint[320], mean[330] = "";
        if (cf_gpu_unknown_hint(name, hint, sizeof hint)[0]) snprintf(mean, sizeof mean, "; %s", hint);
        cf_error_set_param(err, "gpu", "unknown gpu '%.64s'%s (accepted: %s)", name ? name : "", mean,
                           cf_gpu_accepted());
    }
    else
        cf_error_set_param(err, "gpu", "gpu '%.64s' cannot be looked up: the hardware table "
                           "could not be built (%s)", name ? name : "", cf_strerror(st));
    return st;
}

cf_status cf__int_check(const char *param, long v, long min, long max, cf_error *err)
{
    if (v >= min && v <= max) return CF_OK;
    if (err) cf_error_set_param(err, param, "%s expects an integer from %ld to %ld, got %ld", param, min, max, v);
    return CF_EINVAL;
}

/* A whole-string integer of [min, max] from `value`. */
static cf_status int_value(const char *name, const char *value, long min, long max, long *out,
                           cf_error *err)
{
    long v;
    if (cf_parse_long(value, &v) != CF_OK || v < min || v > max) {
        cf_error_set_param(err, name, "%s expects an integer from %ld to %ld, got '%.64s'", name, min,
                           max, value);
        return CF_EINVAL;
    }
    *out = v;
    return CF_OK;
}

static cf_status unknown_value(const char *name, const char *value, const char *accepted,
                               cf_error *err)
{
    cf_error_set_param(err, name, "unknown %s '%.64s' (accepted: %s)", name, value, accepted);
    return CF_EINVAL;
}

void cf_fabric_init(cf_fabric *fab)
{
    memset(fab, 0, sizeof *fab);
    fab->intra_link = CF_INTRA_UNKNOWN;
    fab->network = CF_NET_UNKNOWN;
    fab->gdr = CF_GDR_UNKNOWN;
    fab->non_blocking = CF_CAP_UNKNOWN;
    fab->rail_optimized = CF_CAP_UNKNOWN;
    fab->in_network_reduction = CF_CAP_UNKNOWN;
}

static cf_status set_gpu(cf_fabric *fab, const char *value, cf_error *err)
{
    const cf_gpu_spec *g;
    cf_status st = cf__gpu_check(value, &g, err);
    if (st == CF_ENOTFOUND) return CF_EINVAL;
    if (st != CF_OK) return st;
    if (strlen(g->name) >= sizeof fab->gpu) {
        cf_error_set_param(err, "gpu", "gpu '%.64s': the name is longer than %zu characters", g->name,
                           sizeof fab->gpu - 1);
        return CF_EINVAL;
    }
    memcpy(fab->gpu, g->name, strlen(g->name) + 1);  /* the table's spelling */
    return CF_OK;
}

cf_status cf_fabric_set(cf_fabric *fab, const char *name, const char *value, cf_error *err)
{
    long v;
    double d;
    if (!fab || !name) {
        cf_error_set(err, NULL, 0, 0, "no fabric or no parameter name");
        return CF_EINVAL;
    }
    if (!value || !*value) return no_value(fabric_params, "fabric", name, err);
    if (strcmp(name, "gpu") == 0) return set_gpu(fab, value, err);
    if (strcmp(name, "gpus_per_node") == 0) {
        if (int_value(name, value, 1, CF_MAX_GPUS_PER_NODE, &v, err) != CF_OK) return CF_EINVAL;
        fab->gpus_per_node = (int)v;
    } else if (strcmp(name, "intra") == 0) {
        cf_intra_link l;
        if (cf_intra_link_parse(value, &l) != CF_OK || l == CF_INTRA_UNKNOWN)
            return unknown_value(name, value, cf_intra_link_accepted(), err);
        fab->intra_link = l;
    } else if (strcmp(name, "network") == 0) {
        cf_network n;
        if (cf_network_parse(value, &n) != CF_OK || n == CF_NET_UNKNOWN)
            return unknown_value(name, value, cf_network_accepted(), err);
        fab->network = n;
    } else if (strcmp(name, "nics") == 0) {
        if (int_value(name, value, 1, CF_MAX_NICS_PER_NODE, &v, err) != CF_OK) return CF_EINVAL;
        fab->nics_per_node = (int)v;
    } else if (strcmp(name, "nic_gbps") == 0) {
        if (cf_parse_double(value, &d) != CF_OK || !(d >= CF_LINE_GBPS_MIN) || d > CF_LINE_GBPS_MAX) {
            cf_error_set_param(err, name, "nic_gbps expects a number from %g to %g (Gbit/s per NIC), "
                               "got '%.64s'", CF_LINE_GBPS_MIN, CF_LINE_GBPS_MAX, value);
            return CF_EINVAL;
        }
        fab->nic_gbps = d;
    } else if (strcmp(name, "gdr") == 0) {
        cf_gdr g;
        if (cf_gdr_parse(value, &g) != CF_OK) return unknown_value(name, value, cf_gdr_accepted(), err);
        fab->gdr = g;
    } else if (strcmp(name, "non_blocking") == 0 || strcmp(name, "rail_optimized") == 0) {
        /* yes, no or unknown: unknown is the model's one documented
         * assumption, which every prediction on it flags
         * (cf_fabric_assumptions). */
        cf_cap c;
        if (cf_cap_parse(value, &c) != CF_OK) return unknown_value(name, value, cf_cap_accepted(), err);
        if (name[0] == 'n') fab->non_blocking = c;
        else fab->rail_optimized = c;
    } else {
        return unknown_name(fabric_params, "fabric", name, err);
    }
    return CF_OK;
}

void cf_coll_query_init(cf_coll_query *q)
{
    memset(q, 0, sizeof *q);
    q->collective = CF_COLL_UNKNOWN;
    q->algo = CF_ALGO_AUTO;
}

cf_status cf_coll_query_set(cf_coll_query *q, const char *name, const char *value, cf_error *err)
{
    long v;
    if (!q || !name) {
        cf_error_set(err, NULL, 0, 0, "no query or no parameter name");
        return CF_EINVAL;
    }
    if (!value || !*value) return no_value(query_params, "query", name, err);
    if (strcmp(name, "collective") == 0) {
        cf_collective c;
        if (cf_collective_parse(value, &c) != CF_OK || c == CF_COLL_UNKNOWN)
            return unknown_value(name, value, cf_collective_accepted(), err);
        q->collective = c;
    } else if (strcmp(name, "bytes") == 0) {
        uint64_t b;
        if (cf_parse_size(value, &b) != CF_OK || b == 0) {
            cf_error_set_param(err, name, "bytes expects a size such as 1048576, 512M or 8G (binary "
                               "multiples, a whole number of bytes from 1 to 2^50), got '%.64s'",
                               value);
            return CF_EINVAL;
        }
        q->bytes = b;
    } else if (strcmp(name, "nodes") == 0) {
        if (int_value(name, value, 1, CF_MAX_NODES, &v, err) != CF_OK) return CF_EINVAL;
        q->nodes = (int)v;
    } else if (strcmp(name, "ranks_per_node") == 0) {
        if (int_value(name, value, 1, CF_MAX_GPUS_PER_NODE, &v, err) != CF_OK) return CF_EINVAL;
        q->ranks_per_node = (int)v;
    } else if (strcmp(name, "algo") == 0) {
        cf_algo a;
        if (cf_algo_parse(value, &a) != CF_OK) return unknown_value(name, value, cf_algo_accepted(), err);
        q->algo = a;
    } else {
        return unknown_name(query_params, "query", name, err);
    }
    return CF_OK;
}

/* yes or no (cf_cap's words, case-insensitive) into *out as 1 or 0. */
static cf_status yes_no(const char *name, const char *value, int *out, cf_error *err)
{
    cf_cap c;
    if (cf_cap_parse(value, &c) != CF_OK || c == CF_CAP_UNKNOWN) {
        cf_error_set_param(err, name, "%s expects yes or no, got '%.64s'", name, value);
        return CF_EINVAL;
    }
    *out = c == CF_CAP_YES;
    return CF_OK;
}

/* recompute: cf_recompute_parse, "unknown" refused (the layout must say). */
static cf_status set_recompute(cf_layout *lay, const char *value, cf_error *err)
{
    char accepted[64];
    size_t used = 0;
    cf_recompute r;
    if (cf_recompute_parse(value, &r) == CF_OK && r != CF_RECOMPUTE_UNKNOWN) {
        lay->recompute = r;
        return CF_OK;
    }
    if (!err) return CF_EINVAL;
    accepted[0] = '\0';
    for (int i = 0; i < CF_RECOMPUTE__COUNT; i++) {
        int w = snprintf(accepted + used, sizeof accepted - used, "%s%s", i ? ", " : "",
                         cf_recompute_name((cf_recompute)i));
        if (w < 0 || (size_t)w >= sizeof accepted - used) break;
        used += (size_t)w;
    }
    return unknown_value("recompute", value, accepted, err);
}

cf_status cf_layout_set(cf_layout *lay, const char *name, const char *value, cf_error *err)
{
    long v;
    int *dst = NULL;
    long min = 1, max = CF_MAX_LAYOUT_DEGREE;
    if (!lay || !name) {
        cf_error_set(err, NULL, 0, 0, "no layout or no parameter name");
        return CF_EINVAL;
    }
    if (!value || !*value) return no_value(layout_params, "layout", name, err);
    if (strcmp(name, "tp") == 0) dst = &lay->tp;
    else if (strcmp(name, "pp") == 0) dst = &lay->pp;
    else if (strcmp(name, "cp") == 0) dst = &lay->cp;
    else if (strcmp(name, "ep") == 0) dst = &lay->ep;
    else if (strcmp(name, "etp") == 0) dst = &lay->etp;
    else if (strcmp(name, "dp") == 0) dst = &lay->dp, max = CF_MAX_DP;
    else if (strcmp(name, "vp") == 0) dst = &lay->vp, max = CF_MAX_VP;
    else if (strcmp(name, "micro_batch") == 0) dst = &lay->micro_batch, max = CF_MAX_MICRO_BATCH;
    else if (strcmp(name, "zero") == 0) dst = &lay->zero, min = 0, max = CF_MAX_ZERO_STAGE;
    else if (strcmp(name, "recompute") == 0) return set_recompute(lay, value, err);
    else if (strcmp(name, "sequence_parallel") == 0) return yes_no(name, value, &lay->sequence_parallel, err);
    else if (strcmp(name, "tp_overlap") == 0) return yes_no(name, value, &lay->tp_comm_overlap, err);
    else return unknown_name(layout_params, "layout", name, err);
    if (int_value(name, value, min, max, &v, err) != CF_OK) return CF_EINVAL;
    *dst = (int)v;
    return CF_OK;
}
