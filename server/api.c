/* api.c — the JSON API of DESIGN §6 over libclusterfit's public functions.
 *
 * Each endpoint parses its input (query.c for parameters, jansson for plan
 * bodies), calls the library, and returns the library's own JSON: the API
 * shows exactly what `clusterfit list/show/plan/audit/predict --format json`
 * shows. One catalog handle serves every request under a mutex (the catalog
 * is an SQLite connection and its state is not documented as thread-safe);
 * the audit and the collective model need no lock. Routing by method
 * and path lives here; server.c knows nothing of the endpoints. */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "server.h"
#include "api_fabrics.h"
#include "clusterfit/clusterfit.h"
#include "clusterfit/limits.h"

#ifndef CF_VERSION
#define CF_VERSION "0.1.0"
#endif

/* Rows of the plan that get a scaling curve (the chart's lines): enough to
 * compare, few enough to tell apart without colour. */
#define SCALING_CURVES 5

struct srv_api {
    pthread_mutex_t lock;
    cf_catalog *cat;            /* NULL when the catalog is not implemented */
    char cat_error[CF_ERROR_MSG_MAX];
    char now[16];               /* YYYY-MM-DD or "" = today */
};

void srv_error(srv_reply *out, unsigned status, const char *code, const char *fmt, ...)
{
    char msg[SRV_MSG_MAX + 256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (out->json) json_decref(out->json);
    memset(out, 0, sizeof *out);
    out->status = status;
    out->json = json_pack("{s:{s:s,s:s}}", "error", "code", code, "message", msg);
}

srv_api *srv_api_new(const char *db_path, const char *now, char *err, size_t n)
{
    srv_api *api = calloc(1, sizeof *api);
    cf_error e;
    cf_status st;
    if (!api) {
        snprintf(err, n, "out of memory");
        return NULL;
    }
    pthread_mutex_init(&api->lock, NULL);
    if (now) snprintf(api->now, sizeof api->now, "%s", now);
    cf_error_clear(&e);
    st = cf_catalog_open(db_path, &api->cat, &e);
    if (st != CF_OK) {
        char buf[CF_ERROR_MSG_MAX + 256];
        if (e.message[0]) cf_error_format(&e, buf, sizeof buf);
        else snprintf(buf, sizeof buf, "%s", cf_strerror(st));
        snprintf(err, n, "%s", buf); /* the message names the catalog's path */
        pthread_mutex_destroy(&api->lock);
        free(api);
        return NULL;
    }
    return api;
}

void srv_api_free(srv_api *api)
{
    if (!api) return;
    if (api->cat) cf_catalog_close(api->cat);
    pthread_mutex_destroy(&api->lock);
    free(api);
}

static void reply_json(srv_reply *out, unsigned status, json_t *j)
{
    if (!j) {
        srv_error(out, 500, "internal", "out of memory building the reply");
        return;
    }
    out->status = status;
    out->json = j;
}

/* 500 when the catalog could not be opened at start-up (the reason is kept). */
static int need_catalog(srv_api *api, srv_reply *out)
{
    if (!api->cat) {
        srv_error(out, 500, "internal", "the catalog could not be opened: %s",
                  api->cat_error[0] ? api->cat_error : "unknown reason");
        return -1;
    }
    return 0;
}

/* Maps a library status to an HTTP error with the library's reason (a
 * refused parameter named in the API's spelling, srv_param_message). */
static void lib_error(srv_reply *out, cf_status st, const cf_error *e)
{
    char buf[CF_ERROR_MSG_MAX + 256];
    srv_param_message(e, st, buf, sizeof buf);
    switch (st) {
    case CF_EINVAL: case CF_EPARSE: case CF_EUNSUPPORTED:
        srv_error(out, 400, "bad_request", "%s", buf); break;
    case CF_ELIMIT: srv_error(out, 413, "payload_too_large", "%s", buf); break;
    case CF_ENOTFOUND: srv_error(out, 404, "not_found", "%s", buf); break;
    default: srv_error(out, 500, "internal", "%s", buf); break;
    }
}

/* --- GET /api/offerings ------------------------------------------------- */

static void get_offerings(srv_api *api, const srv_request *rq, srv_reply *out)
{
    srv_list_query lq;
    char msg[SRV_MSG_MAX];
    cf_offering_list list = {0};
    json_t *arr;
    cf_status st;

    if (need_catalog(api, out) != 0) return;
    if (srv_parse_list(rq->args, rq->n_args, 1, &lq, msg, sizeof msg) != 0) {
        srv_error(out, 400, "bad_request", "%s", msg);
        return;
    }
    pthread_mutex_lock(&api->lock);
    st = cf_catalog_query(api->cat, &lq.filter, lq.sort, &list);
    pthread_mutex_unlock(&api->lock);
    if (st != CF_OK) {
        lib_error(out, st, NULL);
        return;
    }
    arr = json_array();
    for (size_t i = 0; arr && i < list.n; i++) {
        if (json_array_append_new(arr, cf_offering_to_json(&list.items[i])) != 0) {
            json_decref(arr);
            arr = NULL;
        }
    }
    cf_offering_list_clear(&list);
    reply_json(out, 200, arr);
    out->cacheable = 1;
}

/* Days from as_of to today (or CLUSTERFIT_NOW), as `clusterfit show`
 * counts them (cf_age_days); -1 when unknown. */
static long age_days(const char *as_of, const char *now)
{
    char today[16];
    long days;
    if (!as_of) return -1;
    if (now && *now) snprintf(today, sizeof today, "%s", now);
    else if (cf_today(time(NULL), today) != CF_OK) return -1;
    return cf_age_days(as_of, today, &days) == CF_OK ? days : -1;
}

static void get_offering(srv_api *api, const char *id, srv_reply *out)
{
    cf_offering *o = NULL;
    cf_status st;
    json_t *j;
    long age;

    if (need_catalog(api, out) != 0) return;
    if (!*id || strlen(id) > 256 || strchr(id, '/')) {
        srv_error(out, 404, "not_found", "no offering with id '%.64s'", id);
        return;
    }
    pthread_mutex_lock(&api->lock);
    st = cf_catalog_get(api->cat, id, &o);
    pthread_mutex_unlock(&api->lock);
    if (st == CF_ENOTFOUND) {
        srv_error(out, 404, "not_found", "no offering with id '%.64s'", id);
        return;
    }
    if (st != CF_OK) {
        lib_error(out, st, NULL);
        return;
    }
    j = cf_offering_to_json(o);
    age = age_days(o->as_of, api->now);
    if (j && json_object_set_new(j, "age_days", age != -1 ? json_integer(age) : json_null()) != 0) {
        json_decref(j);
        j = NULL;
    }
    cf_offering_free(o);
    reply_json(out, 200, j);
    out->cacheable = 1;
}

/* --- GET /api/predict/collective ------------------------------------------ */

static void get_predict_collective(srv_api *api, const srv_request *rq, srv_reply *out)
{
    srv_coll_query cq;
    char msg[SRV_MSG_MAX];
    cf_coll_result r;
    cf_error e;
    cf_status st;

    if (srv_parse_coll(rq->args, rq->n_args, &cq, msg, sizeof msg) != 0) {
        srv_error(out, 400, "bad_request", "%s", msg);
        return;
    }
    if (cq.offering[0]) {
        cf_offering *o = NULL;
        cf_gdr gdr = cq.fab.gdr;
        if (need_catalog(api, out) != 0) return;
        pthread_mutex_lock(&api->lock);
        st = cf_catalog_get(api->cat, cq.offering, &o);
        pthread_mutex_unlock(&api->lock);
        if (st == CF_ENOTFOUND) {
            srv_error(out, 404, "not_found", "no offering with id '%.64s'", cq.offering);
            return;
        }
        if (st != CF_OK) {
            lib_error(out, st, NULL);
            return;
        }
        /* The one-node rule (a network the offering does not state matters
         * only between nodes) is the library's, as for the CLI. */
        cf_error_clear(&e);
        st = cf_fabric_for_nodes(o, cq.q.nodes, &cq.fab, &e);
        cf_offering_free(o);
        if (st != CF_OK) {
            lib_error(out, st, &e);
            return;
        }
        if (cq.gdr_set) cq.fab.gdr = gdr;
    }
    cf_error_clear(&e);
    st = cf_collective_predict(&cq.fab, &cq.q, &r, &e);
    if (st != CF_OK) {
        lib_error(out, st, &e);
        return;
    }
    {
        /* What the model assumes on this fabric (fabrics.h), as the CLI's
         * JSON says it. */
        json_t *j = cf_coll_result_to_json(&r);
        if (j && json_object_set_new(j, "flags", cf_assumption_flags_json(cf_fabric_assumptions(
                                                      &cq.fab, r.nodes))) != 0) {
            json_decref(j);
            j = NULL;
        }
        reply_json(out, 200, j);
    }
    out->cacheable = 1;
}

/* --- POST /api/plan --------------------------------------------------------- */

static const char *const plan_keys[] = {
    "workload", "objective", "deadline_h", "budget", "filters", "top", "max_gpus", "margin_pct",
    "known_only", NULL
};

/* The members that are plan options (cf_plan_opts_set's names), in the
 * order their refusals are reported. */
static const char *const plan_opt_keys[] = {"objective", "deadline_h", "budget", "top", "max_gpus",
                                            "margin_pct", "known_only", NULL};

/* One of the plan's own members through the library's setter, the one
 * `clusterfit plan` calls for its flags, so both accept the same values
 * with the same reason: a JSON number as the number, a string as its text,
 * anything else as its JSON text (which no option accepts: the message
 * says what the member expects). Absent or null: the default. */
static int plan_opt(const json_t *body, const char *key, cf_plan_opts *po, srv_reply *out)
{
    json_t *v = json_object_get(body, key);
    cf_error e;
    cf_status st;
    if (!v || json_is_null(v)) return 0;
    cf_error_clear(&e);
    if (json_is_number(v)) {
        st = cf_plan_opts_set_num(po, key, json_number_value(v), &e);
    } else if (json_is_string(v)) {
        st = cf_plan_opts_set(po, key, json_string_value(v), &e);
    } else {
        char *text = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
        if (!text) {
            srv_error(out, 500, "internal", "out of memory reading '%s'", key);
            return -1;
        }
        st = cf_plan_opts_set(po, key, text, &e);
        free(text);
    }
    if (st != CF_OK) {
        lib_error(out, st, &e);
        return -1;
    }
    return 0;
}

/* Reads the plan body into workload, filter and options. */
static int plan_input(const json_t *body, cf_workload *w, srv_list_query *lq, cf_plan_opts *po,
                      srv_reply *out)
{
    const char *key;
    json_t *v;
    char msg[SRV_MSG_MAX];
    cf_error e;
    cf_status st;

    json_object_foreach((json_t *)body, key, v) {
        int known = 0;
        for (int i = 0; plan_keys[i]; i++) if (strcmp(key, plan_keys[i]) == 0) known = 1;
        if (!known) {
            srv_error(out, 400, "bad_request", "unknown member '%.64s' (accepted: workload, objective, "
                      "deadline_h, budget, filters, top, max_gpus, margin_pct, known_only)", key);
            return -1;
        }
    }
    v = json_object_get(body, "workload");
    cf_error_clear(&e);
    if (json_is_string(v)) {
        /* A preset name only: the API never opens files named by a client. */
        const char *name = json_string_value(v);
        if (strchr(name, '/') || strchr(name, '.')) {
            srv_error(out, 400, "bad_request", "'workload' must be a preset name (%s) or an object",
                      cf_workload_presets());
            return -1;
        }
        st = cf_workload_load(name, w, &e);
    } else if (json_is_object(v)) {
        st = cf_workload_from_json(v, "workload", w, &e);
    } else {
        srv_error(out, 400, "bad_request", "'workload' is required: a preset name (%s) or an object",
                  cf_workload_presets());
        return -1;
    }
    if (st == CF_ENOTFOUND) {
        /* The API never opens files: only presets or an object. */
        srv_error(out, 400, "bad_request", "'workload': no preset '%.64s' (accepted: %s), or give "
                  "an object with the keys of docs/workloads.md", json_string_value(v),
                  cf_workload_presets());
        return -1;
    }
    if (st != CF_OK) {
        lib_error(out, st, &e);
        return -1;
    }
    cf_plan_opts_init(po);
    for (int i = 0; plan_opt_keys[i]; i++)
        if (plan_opt(body, plan_opt_keys[i], po, out) != 0) return -1;
    if (srv_parse_list_json(json_object_get(body, "filters"), lq, msg, sizeof msg) != 0) {
        srv_error(out, 400, "bad_request", "%s", msg);
        return -1;
    }
    /* The plan compares prices in one currency and lists the others as
     * unranked (DESIGN §4.5), so currency selects, it does not filter. */
    if (lq->filter.currency) {
        po->currency = lq->filter.currency;     /* borrowed from lq->store */
        lq->filter.currency = NULL;
    }
    /* The plan's universe is every offering unless asked otherwise (as for
     * the CLI): the library plans one node of those stating no network. */
    /* The library's default objective, as for the CLI: a budget alone asks
     * for the fastest plan within it. */
    cf_error_clear(&e);
    if ((st = cf_plan_opts_finish(po, &e)) != CF_OK) {
        lib_error(out, st, &e);
        return -1;
    }
    return 0;
}

/* Adds "scaling": [{offering_id, provider, offering, points}] for the first
 * ranked rows (the page's efficiency chart). Called with the catalog locked. */
static void add_scaling(srv_api *api, json_t *plan, const cf_workload *w)
{
    json_t *ranked = json_object_get(plan, "ranked"), *curves, *row;
    size_t i;
    if (!json_is_array(ranked)) return;
    curves = json_array();
    if (!curves) return;
    json_array_foreach(ranked, i, row) {
        const char *id = json_string_value(json_object_get(row, "offering_id"));
        cf_offering *o = NULL;
        json_t *pts = NULL;
        cf_error e;
        int dup = 0;
        size_t k;
        json_t *c;
        if (json_array_size(curves) >= SCALING_CURVES) break;
        if (!id) continue;
        json_array_foreach(curves, k, c)
            if (strcmp(json_string_value(json_object_get(c, "offering_id")), id) == 0) dup = 1;
        if (dup || cf_catalog_get(api->cat, id, &o) != CF_OK) continue;
        cf_error_clear(&e);
        if (cf_scale(o, w, NULL, 0, &pts, &e) == CF_OK && pts) {
            json_array_append_new(curves, json_pack("{s:s,s:O,s:O,s:o}", "offering_id", id,
                                                    "provider", json_object_get(row, "provider"),
                                                    "offering", json_object_get(row, "offering"),
                                                    "points", pts));
        }
        cf_offering_free(o);
    }
    json_object_set_new(plan, "scaling", curves);
}

static void post_plan(srv_api *api, const srv_request *rq, srv_reply *out)
{
    json_t *body, *plan = NULL;
    json_error_t je;
    cf_workload w;
    srv_list_query lq;
    cf_plan_opts po;
    cf_error e;
    cf_status st;

    /* The body is checked first: a malformed request is a 400 in any build. */
    if (!rq->body || rq->body_len == 0) {
        srv_error(out, 400, "bad_request", "the body must be a JSON object such as "
                  "{\"workload\":\"llama3-70b\"}");
        return;
    }
    body = json_loadb(rq->body, rq->body_len, JSON_REJECT_DUPLICATES, &je);
    if (!body) {
        srv_error(out, 400, "bad_request", "invalid JSON at line %d column %d: %s", je.line, je.column, je.text);
        return;
    }
    if (!json_is_object(body)) {
        json_decref(body);
        srv_error(out, 400, "bad_request", "the body must be a JSON object");
        return;
    }
    if (need_catalog(api, out) != 0) {
        json_decref(body);
        return;
    }
    memset(&w, 0, sizeof w);
    if (plan_input(body, &w, &lq, &po, out) != 0) {
        json_decref(body);
        return;
    }
    cf_error_clear(&e);
    pthread_mutex_lock(&api->lock);
    st = cf_plan(api->cat, &lq.filter, &w, &po, &plan, &e);
    if (st == CF_OK && plan) add_scaling(api, plan, &w);
    pthread_mutex_unlock(&api->lock);
    json_decref(body);
    if (st != CF_OK) {
        json_decref(plan);
        lib_error(out, st, &e);
        return;
    }
    reply_json(out, 200, plan);
}

/* --- POST /api/audit -------------------------------------------------------- */

static void post_audit(srv_api *api, const srv_request *rq, srv_reply *out)
{
    cf_audit_opts ao;
    cf_fabric fab;
    json_t *report = NULL;
    cf_audit_status as;
    cf_status st;
    const char *name = rq->upload_name ? rq->upload_name : "input";
    const char *offering = NULL;

    /* The request is checked first: a malformed one is a 400 in any build. */
    memset(&ao, 0, sizeof ao);
    ao.expect_gbps = NAN;
    for (size_t i = 0; i < rq->n_args; i++) {
        const char *k = rq->args[i].key, *v = rq->args[i].value ? rq->args[i].value : "";
        if (strcmp(k, "expect_gbps") == 0) {
            if (cf_parse_double(v, &ao.expect_gbps) != CF_OK || !(ao.expect_gbps >= CF_LINE_GBPS_MIN) ||
                ao.expect_gbps > CF_LINE_GBPS_MAX) {
                srv_error(out, 400, "bad_request", "parameter 'expect_gbps' must be a number from %g "
                          "to %g (Gbit/s per node), got '%.64s'", CF_LINE_GBPS_MIN,
                          CF_LINE_GBPS_MAX, v);
                return;
            }
        } else if (strcmp(k, "offering") == 0 && *v) {
            offering = v;
        } else {
            srv_error(out, 400, "bad_request", "unknown or empty parameter '%.64s' (accepted: offering, "
                      "expect_gbps)", k);
            return;
        }
    }
    if (offering && !isnan(ao.expect_gbps)) {
        srv_error(out, 400, "bad_request", "give either 'offering' or 'expect_gbps', not both");
        return;
    }
    if (!rq->body || rq->body_len == 0) {
        srv_error(out, 400, "bad_request", "the body is empty: send the log as the raw body or as a "
                  "multipart/form-data file field");
        return;
    }
    if (offering) {
        cf_offering *o = NULL;
        cf_error e;
        if (need_catalog(api, out) != 0) return;
        pthread_mutex_lock(&api->lock);
        st = cf_catalog_get(api->cat, offering, &o);
        pthread_mutex_unlock(&api->lock);
        if (st != CF_OK) {
            if (st == CF_ENOTFOUND) srv_error(out, 404, "not_found", "no offering with id '%.64s'", offering);
            else lib_error(out, st, NULL);
            return;
        }
        cf_error_clear(&e);
        st = cf_fabric_from_offering(o, &fab, &e);
        cf_offering_free(o);
        if (st != CF_OK) {
            srv_error(out, 400, "bad_request", "parameter 'offering': %s; the expected busbw "
                      "needs it: give expect_gbps instead", e.message[0] ? e.message : cf_strerror(st));
            return;
        }
        ao.expect_fabric = &fab;
    }
    st = cf_audit_buffer(rq->body, rq->body_len, name, &ao, &report, &as);
    if (st != CF_OK) {
        json_decref(report);
        lib_error(out, st, NULL);
        return;
    }
    reply_json(out, 200, report);
}

/* --- small endpoints ---------------------------------------------------------- */

static json_t *split_names(const char *list)
{
    json_t *arr = json_array();
    const char *p = list;
    while (arr && p && *p) {
        const char *end = strstr(p, ", ");
        size_t n = end ? (size_t)(end - p) : strlen(p);
        json_array_append_new(arr, json_stringn(p, n));
        p = end ? end + 2 : NULL;
    }
    return arr;
}

static void get_vocab(srv_reply *out)
{
    json_t *j = json_pack("{s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:[ssssss]}",
                          "network", split_names(cf_network_accepted()),
                          "intra_link", split_names(cf_intra_link_accepted()),
                          "gdr", split_names(cf_gdr_accepted()),
                          "collective", split_names(cf_collective_accepted()),
                          "algo", split_names(cf_algo_accepted()),
                          "orchestration", split_names(cf_set_accepted(CF_SET_ORCHESTRATION)),
                          "provisioning", split_names(cf_set_accepted(CF_SET_PROVISIONING)),
                          "storage", split_names(cf_set_accepted(CF_SET_STORAGE)),
                          "sort", "price", "gbps", "gpus", "max-cluster", "provider", "as-of");
    if (j) {
        json_object_set_new(j, "gpu", split_names(cf_gpu_accepted()));
        json_object_set_new(j, "workloads", split_names(cf_workload_presets()));
    }
    reply_json(out, 200, j);
    out->cacheable = 1;
}

static void get_health(srv_api *api, srv_reply *out)
{
    reply_json(out, 200, json_pack("{s:s,s:s,s:s}", "status", "ok", "version", CF_VERSION,
                                   "catalog", api->cat ? "ok" : "unavailable"));
}

static const cf_web_file *find_asset(const char *path)
{
    char want[128];
    if (strcmp(path, "/") == 0 || strcmp(path, "/index.html") == 0) path = "/index.html";
    /* Browsers ask for /favicon.ico whatever the page says: the SVG one. */
    if (strcmp(path, "/favicon.ico") == 0) path = "/favicon.svg";
    if (strlen(path) > 64 || strstr(path, "..")) return NULL;
    snprintf(want, sizeof want, "server/web%s", path);
    for (const cf_web_file *f = cf_web_files; f->path; f++)
        if (strcmp(f->path, want) == 0) return f;
    return NULL;
}

/* --- routing ------------------------------------------------------------------ */

static int method_is(const srv_request *rq, const char *m, srv_reply *out, const char *allow)
{
    if (strcmp(rq->method, m) == 0 || (strcmp(m, "GET") == 0 && strcmp(rq->method, "HEAD") == 0))
        return 1;
    srv_error(out, 405, "method_not_allowed", "%s %s is not allowed (allowed: %s)", rq->method,
              rq->path, allow);
    out->allow = allow;
    return 0;
}

void srv_api_handle(srv_api *api, const srv_request *rq, srv_reply *out)
{
    const char *p = rq->path;
    const cf_web_file *f;
    memset(out, 0, sizeof *out);

    if (strcmp(p, "/healthz") == 0) {
        if (method_is(rq, "GET", out, "GET, HEAD")) get_health(api, out);
    } else if (strcmp(p, "/api/offerings") == 0) {
        if (method_is(rq, "GET", out, "GET, HEAD")) get_offerings(api, rq, out);
    } else if (strncmp(p, "/api/offerings/", 15) == 0) {
        if (method_is(rq, "GET", out, "GET, HEAD")) {
            if (rq->n_args) srv_error(out, 400, "bad_request", "/api/offerings/{id} takes no parameters");
            else get_offering(api, p + 15, out);
        }
    } else if (strcmp(p, "/api/predict/collective") == 0) {
        if (method_is(rq, "GET", out, "GET, HEAD")) get_predict_collective(api, rq, out);
    } else if (strcmp(p, "/api/plan") == 0) {
        if (method_is(rq, "POST", out, "POST")) post_plan(api, rq, out);
    } else if (strcmp(p, "/api/fabrics") == 0) {
        if (method_is(rq, "POST", out, "POST")) srv_post_fabrics(rq, out);
    } else if (strcmp(p, "/api/audit") == 0) {
        if (method_is(rq, "POST", out, "POST")) post_audit(api, rq, out);
    } else if (strcmp(p, "/api/vocab") == 0) {
        if (method_is(rq, "GET", out, "GET, HEAD")) get_vocab(out);
    } else if (strncmp(p, "/api/", 5) == 0 || strcmp(p, "/api") == 0) {
        srv_error(out, 404, "not_found", "no endpoint %.128s (routes: GET /api/offerings, "
                  "GET /api/offerings/{id}, POST /api/plan, POST /api/fabrics, POST /api/audit, "
                  "GET /api/predict/collective, GET /api/vocab, GET /healthz)", p);
    } else if ((f = find_asset(p)) != NULL) {
        if (method_is(rq, "GET", out, "GET, HEAD")) {
            out->status = 200;
            out->file = f;
        }
    } else {
        srv_error(out, 404, "not_found", "no such page: %.128s", p);
    }
    if (out->status == 0) srv_error(out, 500, "internal", "no reply was built");
    if (!out->json && !out->file) {
        /* srv_error could not allocate: the server sends a fixed 500 body. */
        out->status = 500;
        out->cacheable = 0;
    }
}
