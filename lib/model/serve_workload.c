/* serve_workload.c — the keys of a serving workload (kind "serve",
 * docs/model-serve.md "The workload"): beside the llm shape (read by
 * model/workload.c, the same keys as a training workload's shape),
 *   precision   bf16 | fp8 | fp4: the weights and GEMM inputs (default bf16)
 *   kv_cache    bf16 | fp8: the KV-cache values (default bf16)
 *   request     {input_tokens, output_tokens}: one request's shape (required)
 *   targets     {ttft_s, tpot_ms, percentile}: the latency targets, each
 *               optional (plan's --ttft-s and --tpot-ms override them)
 *   traffic     "max" (as much as the cluster takes, the default) or a
 *               number of requests per second
 * Every check names the file and the dotted field, as workload.c does. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "clusterfit/limits.h"
#include "base/base.h"
#include "model/model_int.h"
#include "model/serve_int.h"

/* A number of limits.h as a string literal. */
#define CF__SERVE_STR_(x) #x
#define CF__SERVE_STR(x) CF__SERVE_STR_(x)

static const char *const request_keys[] = {"input_tokens", "output_tokens", NULL};
static const char *const target_keys[] = {"ttft_s", "tpot_ms", "percentile", NULL};

static cf_status bad(const char *origin, cf_error *err, const char *field, const char *what)
{
    cf_error_set(err, origin, 0, 0, "%s: expected %s", field, what);
    return CF_EPARSE;
}

/* Every key of obj is one of names; else CF_EPARSE naming it. */
static cf_status keys_of(const json_t *obj, const char *level, const char *const *names,
                         const char *origin, cf_error *err)
{
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)obj, key, v) {
        int ok = 0;
        for (size_t i = 0; names[i]; i++) ok |= strcmp(names[i], key) == 0;
        if (!ok) {
            cf_error_set(err, origin, 0, 0, "%s.%.60s: unknown key (accepted in %s of a serve "
                         "workload: %s%s%s; see docs/model-serve.md)", level, key, level, names[0],
                         names[1] ? ", " : "", names[1] ? names[1] : "");
            return CF_EPARSE;
        }
    }
    return CF_OK;
}

/* A whole number of tokens, 1..CF_SERVE_MAX_TOKENS. */
static cf_status tokens(const json_t *req, const char *key, const char *origin, cf_error *err,
                        long *out)
{
    char field[48];
    const json_t *v = json_object_get(req, key);
    snprintf(field, sizeof field, "request.%s", key);
    if (!json_is_integer(v) || json_integer_value(v) < 1 ||
        json_integer_value(v) > CF_SERVE_MAX_TOKENS)
        return bad(origin, err, field, "a whole number of tokens from 1 to "
                   CF__SERVE_STR(CF_SERVE_MAX_TOKENS) " (a request reads and generates at least "
                   "one token)");
    *out = (long)json_integer_value(v);
    return CF_OK;
}

/* targets.KEY: absent or null keeps *out; else a positive number. */
static cf_status target(const json_t *t, const char *key, const char *what, const char *origin,
                        cf_error *err, double *out)
{
    char field[48];
    const json_t *v = json_object_get(t, key);
    if (!v || json_is_null(v)) return CF_OK;
    snprintf(field, sizeof field, "targets.%s", key);
    if (!json_is_number(v) || !(json_number_value(v) > 0) || !isfinite(json_number_value(v)))
        return bad(origin, err, field, what);
    *out = json_number_value(v);
    return CF_OK;
}

static cf_status read_precisions(const json_t *j, const char *origin, cf_workload *w,
                                 cf_error *err)
{
    const json_t *p = json_object_get(j, "precision"), *kv = json_object_get(j, "kv_cache");
    const char *ps = json_is_string(p) ? json_string_value(p) : NULL;
    const char *ks = json_is_string(kv) ? json_string_value(kv) : NULL;
    w->serve.weight_bits = 16;
    w->serve.kv_bits = 16;
    w->precision = CF_PREC_BF16;
    if (p && !json_is_null(p)) {
        if (ps && cf__strcasecmp(ps, "fp8") == 0) w->serve.weight_bits = 8;
        else if (ps && cf__strcasecmp(ps, "fp4") == 0) w->serve.weight_bits = 4;
        else if (!ps || cf__strcasecmp(ps, "bf16") != 0)
            return bad(origin, err, "precision", "bf16, fp8 or fp4 (the weights and GEMM inputs "
                       "of a serve workload)");
        if (w->serve.weight_bits < 16) w->precision = CF_PREC_FP8;
    }
    if (kv && !json_is_null(kv)) {
        if (ks && cf__strcasecmp(ks, "fp8") == 0) w->serve.kv_bits = 8;
        else if (!ks || cf__strcasecmp(ks, "bf16") != 0)
            return bad(origin, err, "kv_cache", "bf16 or fp8 (the KV-cache values)");
    }
    return CF_OK;
}

static cf_status read_traffic(const json_t *j, const char *origin, cf_workload *w, cf_error *err)
{
    const json_t *t = json_object_get(j, "traffic");
    w->serve.rate_rps = 0;
    if (!t || json_is_null(t)) return CF_OK;
    if (json_is_string(t) && strcmp(json_string_value(t), "max") == 0) return CF_OK;
    if (json_is_number(t) && json_number_value(t) > 0 && json_number_value(t) <= CF_SERVE_MAX_RPS) {
        w->serve.rate_rps = json_number_value(t);
        return CF_OK;
    }
    return bad(origin, err, "traffic", "\"max\" or a number of requests per second from above 0 "
               "to " CF__SERVE_STR(CF_SERVE_MAX_RPS));
}

cf_status cf__serve_spec_read(const json_t *j, const char *origin, cf_workload *w, cf_error *err)
{
    cf_status st;
    const json_t *req = json_object_get(j, "request"), *tg = json_object_get(j, "targets");
    cf_serve_spec *s = &w->serve;
    s->ttft_s = s->tpot_ms = s->percentile = NAN;
    if ((st = read_precisions(j, origin, w, err)) != CF_OK) return st;
    if (!json_is_object(req))
        return bad(origin, err, "request", "an object {input_tokens, output_tokens}");
    if ((st = keys_of(req, "request", request_keys, origin, err)) != CF_OK) return st;
    if ((st = tokens(req, "input_tokens", origin, err, &s->input_tokens)) != CF_OK) return st;
    if ((st = tokens(req, "output_tokens", origin, err, &s->output_tokens)) != CF_OK) return st;
    if (s->input_tokens + s->output_tokens > w->llm.seq) {
        cf_error_set(err, origin, 0, 0, "request: input_tokens + output_tokens = %ld is beyond "
                     "shape.seq %ld, the model's context window (a serve workload's shape.seq)",
                     s->input_tokens + s->output_tokens, w->llm.seq);
        return CF_EPARSE;
    }
    if (tg && !json_is_null(tg)) {
        if (!json_is_object(tg))
            return bad(origin, err, "targets", "an object {ttft_s, tpot_ms, percentile}");
        if ((st = keys_of(tg, "targets", target_keys, origin, err)) != CF_OK) return st;
        if ((st = target(tg, "ttft_s", "a positive number of seconds", origin, err, &s->ttft_s)))
            return st;
        if ((st = target(tg, "tpot_ms", "a positive number of milliseconds", origin, err,
                         &s->tpot_ms)))
            return st;
        if ((st = target(tg, "percentile", "a percentile above 0 and at most 100", origin, err,
                         &s->percentile)))
            return st;
        if (s->percentile > 100)
            return bad(origin, err, "targets.percentile", "a percentile above 0 and at most 100");
    }
    return read_traffic(j, origin, w, err);
}

cf_status cf__serve_refuse(const cf_workload *w, const char *what, cf_error *err)
{
    if (!w || w->kind != CF_WL_SERVE) return CF_OK;
    if (err)
        cf_error_set_param(err, "workload", "workload '%s' is a serve workload (kind serve): %s "
                           "times training steps; serving is planned by plan, fit, scale and "
                           "fabrics (docs/model-serve.md)", w->name, what);
    return CF_EINVAL;
}
