/* opts.c — the plan's options: their defaults (cf_plan_opts_init), set by
 * name from text (cf_plan_opts_set: the CLI's flags, the API's strings) or
 * from a number (cf_plan_opts_set_num: the API's JSON numbers), the
 * objective's default (cf_plan_opts_finish), and the check cf_plan makes of
 * the options it is given (cf__plan_check_opts).
 *
 * One place parses and bounds each option, with the bounds of limits.h, so
 * `clusterfit plan` and POST /api/plan accept and refuse the same values
 * with the same reason. A refusal names the option in err->param (the JSON
 * API's snake_case name) and its message starts with that name, followed by
 * the accepted values and the value given; the front ends respell the name
 * (--deadline, parameter 'deadline_h'). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "plan/plan_int.h"
#include "catalog/catalog_int.h"
#include "clusterfit/limits.h"
#include "clusterfit/units.h"
#include "clusterfit/date.h"

typedef enum opt_key {
    K_OBJECTIVE, K_DEADLINE, K_BUDGET, K_CURRENCY, K_MAX_GPUS, K_TOP, K_MARGIN, K_KNOWN_ONLY,
    K_UNKNOWN
} opt_key;

/* The names, in opt_key's order, and as the unknown-name message lists them. */
static const char *const opt_names[] = {"objective", "deadline_h", "budget", "currency", "max_gpus", "top",
                                        "margin_pct", "known_only"};
static const char opt_list[] = "objective, deadline_h, budget, currency, max_gpus, top, margin_pct, "
                               "known_only";

static opt_key key_of(const char *name)
{
    for (size_t i = 0; i < sizeof opt_names / sizeof opt_names[0]; i++)
        if (strcmp(opt_names[i], name) == 0) return (opt_key)i;
    return K_UNKNOWN;
}

/* "NAME expects ACCEPTED, got 'SHOWN'": the refusal of every option. */
static cf_status refuse(opt_key k, const char *shown, cf_error *err)
{
    const char *name = opt_names[k];
    const char *shown_text = shown ? shown : "";
    switch (k) {
    case K_OBJECTIVE:
        cf_error_set_param(err, name, "%s expects cost or time, got '%.64s'", name, shown_text);
        break;
    case K_DEADLINE:
        cf_error_set_param(err, name, "%s expects a number of hours from %g to %g, got '%.64s'", name,
                           CF_PLAN_DEADLINE_H_MIN, CF_PLAN_DEADLINE_H_MAX, shown_text);
        break;
    case K_BUDGET:
        cf_error_set_param(err, name, "%s expects an amount in the planning currency from %g to %g, "
                           "got '%.64s'", name, CF_PLAN_BUDGET_MIN, CF_PLAN_BUDGET_MAX, shown_text);
        break;
    case K_CURRENCY:
        cf_error_set_param(err, name, "%s expects an ISO 4217 code such as USD or EUR, got '%.64s'",
                           name, shown_text);
        break;
    case K_MAX_GPUS:
        cf_error_set_param(err, name, "%s expects an integer from 1 to %ld (GPUs), got '%.64s'", name,
                           CF_PLAN_MAX_GPUS_MAX, shown_text);
        break;
    case K_TOP:
        cf_error_set_param(err, name, "%s expects an integer from 1 to %d (rows), got '%.64s'", name,
                           CF_PLAN_TOP_MAX, shown_text);
        break;
    case K_MARGIN:
        cf_error_set_param(err, name, "%s expects a percentage from %g to %g, got '%.64s'", name,
                           CF_PLAN_MARGIN_PCT_MIN, CF_PLAN_MARGIN_PCT_MAX, shown_text);
        break;
    case K_KNOWN_ONLY:
        cf_error_set_param(err, name, "%s expects true or false, got '%.64s'", name, shown_text);
        break;
    default:
        break;
    }
    return CF_EINVAL;
}

/* `v` as its shortest decimal that reads back exactly ("0.1", "2e+07",
 * "nan"), for messages about a number that came as a number. */
static const char *shortest(double v, char *buf, size_t n)
{
    double back;
    if (!isfinite(v)) {
        snprintf(buf, n, "%s", isnan(v) ? "nan" : v > 0 ? "inf" : "-inf");
        return buf;
    }
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, n, "%.*g", prec, v);
        if (cf_parse_double(buf, &back) == CF_OK && back == v) break;
    }
    return buf;
}

/* Whether the numeric option k accepts v (NaN never). */
static int in_bounds(opt_key k, double v)
{
    switch (k) {
    case K_DEADLINE: return v >= CF_PLAN_DEADLINE_H_MIN && v <= CF_PLAN_DEADLINE_H_MAX;
    case K_BUDGET: return v >= CF_PLAN_BUDGET_MIN && v <= CF_PLAN_BUDGET_MAX;
    case K_MAX_GPUS: return v >= 1 && v <= (double)CF_PLAN_MAX_GPUS_MAX && v == floor(v);
    case K_TOP: return v >= 1 && v <= CF_PLAN_TOP_MAX && v == floor(v);
    case K_MARGIN: return v >= CF_PLAN_MARGIN_PCT_MIN && v <= CF_PLAN_MARGIN_PCT_MAX;
    default: return 0;
    }
}

/* Stores the numeric option k = v, or refuses it showing `shown`. */
static cf_status set_number(cf_plan_opts *po, opt_key k, double v, const char *shown, cf_error *err)
{
    if (!in_bounds(k, v)) return refuse(k, shown, err);
    switch (k) {
    case K_DEADLINE: po->deadline_h = v; break;
    case K_BUDGET: po->budget = v; break;
    case K_MAX_GPUS: po->max_gpus = (long)v; break;
    case K_TOP: po->top = (int)v; break;
    case K_MARGIN: po->margin_pct = v; break;
    default: return refuse(k, shown, err);
    }
    return CF_OK;
}

static cf_status no_opts(const char *name, cf_error *err)
{
    cf_error_set(err, NULL, 0, 0, "no plan options or no option name%s%.64s", name ? ": " : "",
                 name ? name : "");
    return CF_EINVAL;
}

static cf_status unknown_name(const char *name, cf_error *err)
{
    cf_error_set(err, NULL, 0, 0, "unknown plan option '%.64s' (accepted: %s, no_failures, "
                 "mtbf_gpu_h, ckpt_interval, ckpt_async)", name, opt_list);
    return CF_EINVAL;
}

void cf_plan_opts_init(cf_plan_opts *o)
{
    memset(o, 0, sizeof *o);
    o->objective = CF_OBJ_COST;
    o->deadline_h = NAN;
    o->budget = NAN;
    o->margin_pct = NAN;
    cf_goodput_opts_init(&o->goodput);
}

cf_status cf_plan_opts_set(cf_plan_opts *po, const char *name, const char *value, cf_error *err)
{
    opt_key k;
    long l;
    double d;
    if (!po || !name) return no_opts(name, err);
    if ((k = key_of(name)) == K_UNKNOWN) {
        /* The goodput model's options (goodput.h) are plan options too. */
        cf_status st = cf_goodput_opts_set(&po->goodput, name, value, err);
        return st == CF_ENOTFOUND ? unknown_name(name, err) : st;
    }
    if (!value) value = "";
    switch (k) {
    case K_OBJECTIVE:
        if (strcmp(value, "cost") == 0) po->objective = CF_OBJ_COST;
        else if (strcmp(value, "time") == 0) po->objective = CF_OBJ_TIME;
        else return refuse(k, value, err);
        po->objective_given = 1;
        return CF_OK;
    case K_CURRENCY:
        if (!cf__is_currency(value)) return refuse(k, value, err);
        po->currency = value;
        return CF_OK;
    case K_KNOWN_ONLY:
        if (strcmp(value, "true") == 0 || strcmp(value, "yes") == 0 || strcmp(value, "1") == 0)
            po->known_only = 1;
        else if (strcmp(value, "false") == 0 || strcmp(value, "no") == 0 || strcmp(value, "0") == 0)
            po->known_only = 0;
        else return refuse(k, value, err);
        return CF_OK;
    case K_MAX_GPUS: case K_TOP:
        /* Integers as written: "1e3" and "5.0" are not. */
        if (cf_parse_long(value, &l) != CF_OK) return refuse(k, value, err);
        return set_number(po, k, (double)l, value, err);
    default:
        if (cf_parse_double(value, &d) != CF_OK) return refuse(k, value, err);
        return set_number(po, k, d, value, err);
    }
}

cf_status cf_plan_opts_set_num(cf_plan_opts *po, const char *name, double value, cf_error *err)
{
    opt_key k;
    char shown[40];
    if (!po || !name) return no_opts(name, err);
    if ((k = key_of(name)) == K_UNKNOWN) {
        cf_status st;
        shortest(value, shown, sizeof shown);
        st = cf_goodput_opts_set(&po->goodput, name, shown, err);
        return st == CF_ENOTFOUND ? unknown_name(name, err) : st;
    }
    shortest(value, shown, sizeof shown);
    if (k == K_OBJECTIVE || k == K_CURRENCY || k == K_KNOWN_ONLY) return refuse(k, shown, err);
    return set_number(po, k, value, shown, err);
}

/* A field set directly: NAN (deadline_h, budget) and 0 (max_gpus, top) are
 * the defaults; anything else must be what the setter would accept. */
static cf_status check_field(opt_key k, double v, cf_error *err)
{
    char shown[40];
    int deflt = (k == K_DEADLINE || k == K_BUDGET || k == K_MARGIN) ? isnan(v) : v == 0;
    if (deflt || in_bounds(k, v)) return CF_OK;
    if (err) refuse(k, shortest(v, shown, sizeof shown), err);
    return CF_EINVAL;
}

cf_status cf__plan_check_opts(const cf_plan_opts *o, cf_error *err)
{
    cf_status st;
    if (o->objective != CF_OBJ_COST && o->objective != CF_OBJ_TIME) {
        char shown[24];
        snprintf(shown, sizeof shown, "%d", (int)o->objective);
        return refuse(K_OBJECTIVE, shown, err);
    }
    if ((st = check_field(K_DEADLINE, o->deadline_h, err)) != CF_OK ||
        (st = check_field(K_BUDGET, o->budget, err)) != CF_OK ||
        (st = check_field(K_MAX_GPUS, (double)o->max_gpus, err)) != CF_OK ||
        (st = check_field(K_TOP, (double)o->top, err)) != CF_OK ||
        (st = check_field(K_MARGIN, o->margin_pct, err)) != CF_OK)
        return st;
    if (o->today) {
        char cutoff[CF_DATE_SIZE];
        if (cf_catalog_stale_cutoff(o->today, CF_STALE_MONTHS_DEFAULT, cutoff) != CF_OK) {
            cf_error_set_param(err, "today", "today expects a date YYYY-MM-DD, got '%.64s'", o->today);
            return CF_EINVAL;
        }
    }
    return CF_OK;
}

cf_status cf_plan_opts_finish(cf_plan_opts *po, cf_error *err)
{
    if (!po) return no_opts(NULL, err);
    /* "fastest within the budget": a budget alone is a time question, a
     * deadline (alone or with a budget) a cost one, as `plan --help` and
     * the man page say. */
    if (!po->objective_given && !isnan(po->budget) && isnan(po->deadline_h)) po->objective = CF_OBJ_TIME;
    return cf__plan_check_opts(po, err);
}
