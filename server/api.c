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
#include <strings.h>
#include <time.h>
#include "server.h"
#include "api_fabrics.h"
#include "api_serve.h"
#include "clusterfit/clusterfit.h"
#include "clusterfit/limits.h"

/* Rows of the plan that get a scaling curve (the chart's lines): enough to
 * compare, few enough to tell apart without colour. */
#define SCALING_CURVES 5

/* Names accepted in Host (and in Origin after http://), besides localhost. */
#define MAX_NAMES 16

struct srv_api {
    pthread_mutex_t lock;
    cf_catalog *cat;            /* NULL when the catalog is not implemented */
    char *db_path;              /* the catalog file: a plan opens its own handle */
    char cat_error[CF_ERROR_MSG_MAX];
    char now[16];               /* YYYY-MM-DD or "" = today */
    char last_note[CF_ERROR_MSG_MAX]; /* the catalog warning last logged (once per change) */
    char port[8];               /* the port listened on, for Host checks; "" = not set */
    char names[MAX_NAMES][256]; /* the bound address (IPv6 bracketed) and --allow-host names */
    size_t n_names;             /* entries of names; 0 = no Host check (unit use) */
};

/* Length of the valid UTF-8 sequence at p (n bytes left), 0 if invalid:
 * no overlong forms, surrogates or code points past U+10FFFF (RFC 3629). */
static size_t utf8_len(const unsigned char *p, size_t n)
{
    unsigned c = p[0];
    size_t len, i;
    unsigned cp;
    if (c < 0x80) return 1;
    if (c >= 0xc2 && c <= 0xdf) { len = 2; cp = c & 0x1f; }
    else if (c >= 0xe0 && c <= 0xef) { len = 3; cp = c & 0x0f; }
    else if (c >= 0xf0 && c <= 0xf4) { len = 4; cp = c & 0x07; }
    else return 0;
    if (n < len) return 0;
    for (i = 1; i < len; i++) {
        if ((p[i] & 0xc0) != 0x80) return 0;
        cp = (cp << 6) | (p[i] & 0x3f);
    }
    if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
        (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
        return 0;
    return len;
}

/* src as valid UTF-8 into dst (size n): each invalid byte, and a character
 * cut at the end (a %.64s), becomes U+FFFD; control bytes but tab become
 * U+FFFD too, so an echoed value cannot carry NUL or escapes either. */
static void utf8_sanitise(char *dst, size_t n, const char *src)
{
    const unsigned char *p = (const unsigned char *)src;
    size_t left = strlen(src), o = 0;
    while (left && o + 4 < n) {
        size_t l = utf8_len(p, left);
        if (l == 1 && p[0] < 0x20 && p[0] != '\t') l = 0;
        if (l == 0) {
            memcpy(dst + o, "\xef\xbf\xbd", 3);
            o += 3;
            p++; left--;
        } else {
            memcpy(dst + o, p, l);
            o += l;
            p += l; left -= l;
        }
    }
    dst[o] = '\0';
}

void srv_error(srv_reply *out, unsigned status, const char *code, const char *fmt, ...)
{
    char msg[SRV_MSG_MAX + 256], clean[3 * (SRV_MSG_MAX + 256)];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    utf8_sanitise(clean, sizeof clean, msg);
    if (out->json) json_decref(out->json);
    memset(out, 0, sizeof *out);
    out->status = status;
    out->json = json_pack("{s:{s:s,s:s}}", "error", "code", code, "message", clean);
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
    api->db_path = strdup(db_path ? db_path : "");
    if (!api->db_path) {
        snprintf(err, n, "out of memory");
        pthread_mutex_destroy(&api->lock);
        free(api);
        return NULL;
    }
    cf_error_clear(&e);
    st = cf_catalog_open(db_path, &api->cat, &e);
    if (st != CF_OK) {
        char buf[CF_ERROR_MSG_MAX + 256];
        if (e.message[0]) cf_error_format(&e, buf, sizeof buf);
        else snprintf(buf, sizeof buf, "%s", cf_strerror(st));
        snprintf(err, n, "%s", buf); /* the message names the catalog's path */
        pthread_mutex_destroy(&api->lock);
        free(api->db_path);
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
    free(api->db_path);
    free(api);
}

void srv_api_set_names(srv_api *api, const char *bind, unsigned port, const char *const *allow,
                       size_t n_allow)
{
    snprintf(api->port, sizeof api->port, "%u", port);
    api->n_names = 0;
    snprintf(api->names[api->n_names++], sizeof api->names[0], strchr(bind, ':') ? "[%s]" : "%s", bind);
    snprintf(api->names[api->n_names++], sizeof api->names[0], "localhost");
    for (size_t i = 0; i < n_allow && api->n_names < MAX_NAMES; i++)
        snprintf(api->names[api->n_names++], sizeof api->names[0], "%s", allow[i]);
}

/* Whether `h` (len bytes) is an accepted name, with or without ":PORT". */
static int name_ok(const srv_api *api, const char *h, size_t len)
{
    for (size_t i = 0; i < api->n_names; i++) {
        size_t nl = strlen(api->names[i]);
        if (len < nl || strncasecmp(h, api->names[i], nl) != 0) continue;
        if (len == nl) return 1;
        if (h[nl] == ':' && len - nl - 1 == strlen(api->port) &&
            strncmp(h + nl + 1, api->port, len - nl - 1) == 0)
            return 1;
    }
    return 0;
}

/* Host, and Origin on POST (DNS rebinding, cross-site requests: issue 15). */
static int check_names(const srv_api *api, const srv_request *rq, srv_reply *out)
{
    if (api->n_names == 0) return 0;
    if (!rq->host || !name_ok(api, rq->host, strlen(rq->host))) {
        srv_error(out, 403, "forbidden_host", "Host '%.64s' is not this server's name (accepted: "
                  "%s or localhost, with or without :%s; more with serve --allow-host)",
                  rq->host ? rq->host : "", api->names[0], api->port);
        return -1;
    }
    if (rq->origin && strcmp(rq->method, "GET") != 0 && strcmp(rq->method, "HEAD") != 0 &&
        (strncmp(rq->origin, "http://", 7) != 0 || !name_ok(api, rq->origin + 7, strlen(rq->origin + 7)))) {
        srv_error(out, 403, "forbidden_origin", "requests from origin '%.64s' are refused: only "
                  "this server's own page may POST here", rq->origin);
        return -1;
    }
    return 0;
}

/* Routes whose body is JSON: a JSON content type is required, so that a
 * cross-site page cannot send them as a "simple request" (text/plain). */
static const char *const json_routes[] = {"/api/plan", "/api/fabrics", NULL};

static int check_json_type(const srv_request *rq, srv_reply *out)
{
    const char *ct = rq->content_type;
    if (strcmp(rq->method, "POST") != 0) return 0;
    for (size_t i = 0; json_routes[i]; i++) {
        if (strcmp(rq->path, json_routes[i]) != 0) continue;
        if (ct && strncasecmp(ct, "application/json", 16) == 0 &&
            (ct[16] == '\0' || ct[16] == ';' || ct[16] == ' '))
            return 0;
        srv_error(out, 415, "unsupported_media_type", "POST %s needs Content-Type: "
                  "application/json, got '%.64s'", json_routes[i], ct ? ct : "");
        return -1;
    }
    return 0;
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
void srv_lib_error(srv_reply *out, cf_status st, const cf_error *e)
{
    char buf[CF_ERROR_MSG_MAX + 256];
    srv_param_message(e, st, buf, sizeof buf);
    switch (st) {
    case CF_EINVAL: case CF_EPARSE: case CF_EUNSUPPORTED:
        srv_error(out, 400, "bad_request", "%s", buf); break;
    case CF_ELIMIT: srv_error(out, 413, "payload_too_large", "%s", buf); break;
    case CF_ENOTFOUND: srv_error(out, 404, "not_found", "%s", buf); break;
    case CF_EBUSY: case CF_EENV: srv_error(out, 503, "unavailable", "%s", buf); break;
    default: srv_error(out, 500, "internal", "%s", buf); break;
    }
}

/* A failed catalog read with its reason (cf_catalog_note: the path, locked
 * by another process, ...). Called with the lock held. */
static void cat_error(srv_api *api, srv_reply *out, cf_status st)
{
    cf_error e;
    cf_error_clear(&e);
    snprintf(e.message, sizeof e.message, "%s", cf_catalog_note(api->cat));
    srv_lib_error(out, st, e.message[0] ? &e : NULL);
}

/* Opens the catalog's path again when it names another file than the one
 * the shared handle reads (replaced by mv, or removed and made again:
 * cf_catalog_replaced), so every endpoint reads the file a plan, which opens
 * its own handle, reads (issue 21). Called with the lock held, before each
 * use of the handle. CF_OK; else the new file's refusal in *e, the old
 * handle kept, and the next request tries again. */
static cf_status current_catalog_locked(srv_api *api, cf_error *e)
{
    cf_catalog *fresh = NULL;
    cf_status st;
    cf_error_clear(e);
    if (!cf_catalog_replaced(api->cat)) return CF_OK;
    st = cf_catalog_open(api->db_path, &fresh, e);
    if (st != CF_OK) return st;
    cf_catalog_close(api->cat);
    api->cat = fresh;
    api->last_note[0] = '\0';
    fprintf(stderr, "clusterfit serve: catalog %s was replaced or removed; reading the file now "
            "at that path\n", api->db_path);
    return CF_OK;
}

/* cf_catalog_get under the lock; on a failure other than not found, the
 * catalog's reason in *note. */
static cf_status locked_get(srv_api *api, const char *id, cf_offering **o, cf_error *note)
{
    cf_status st;
    cf_error_clear(note);
    pthread_mutex_lock(&api->lock);
    st = current_catalog_locked(api, note);
    if (st != CF_OK) {
        pthread_mutex_unlock(&api->lock);
        *o = NULL;
        return st;
    }
    st = cf_catalog_get(api->cat, id, o);
    if (st != CF_OK && st != CF_ENOTFOUND)
        snprintf(note->message, sizeof note->message, "%s", cf_catalog_note(api->cat));
    pthread_mutex_unlock(&api->lock);
    return st;
}

/* The provider table's facts for `provider` (show's provider_facts: its
 * rating, and the sales-contact or waitlist provisioning a renter meets,
 * issue 22), a new reference; NULL when the table has no row for it. */
static json_t *locked_provider_facts(srv_api *api, const char *provider)
{
    json_t *f = NULL;
    cf_error note;
    if (!provider) return NULL;
    cf_error_clear(&note);
    pthread_mutex_lock(&api->lock);
    if (current_catalog_locked(api, &note) != CF_OK || cf_catalog_provider_get(api->cat, provider, &f) != CF_OK)
        f = NULL;
    pthread_mutex_unlock(&api->lock);
    return f;
}

/* --- GET /api/offerings ------------------------------------------------- */

/* Today as YYYY-MM-DD: the server's fixed date (CLUSTERFIT_NOW) when set,
 * else the clock's UTC date; -1 when neither can be read. */
static int today_of(const char *now, char today[16])
{
    if (now && *now) {
        snprintf(today, 16, "%s", now);
        return 0;
    }
    return cf_today(time(NULL), today) == CF_OK ? 0 : -1;
}

/* The date before which a row is stale (cf_catalog_stale_cutoff, today
 * minus CF_STALE_MONTHS_DEFAULT months); -1 when today cannot be read. */
static int stale_cutoff(const srv_api *api, char cutoff[16])
{
    char today[16];
    return today_of(api->now, today) == 0 &&
           cf_catalog_stale_cutoff(today, CF_STALE_MONTHS_DEFAULT, cutoff) == CF_OK ? 0 : -1;
}

/* Days from as_of to today (or CLUSTERFIT_NOW), as `clusterfit show`
 * counts them (cf_age_days); -1 when unknown. */
static long age_days(const char *as_of, const char *now)
{
    char today[16];
    long days;
    if (!as_of || today_of(now, today) != 0) return -1;
    return cf_age_days(as_of, today, &days) == CF_OK ? days : -1;
}

/* An offering as the API returns it: cf_offering_to_json plus `stale`, by
 * the library's rule (cf_offering_stale: price_as_of where set, else
 * as_of), so the page counts `stale` and never re-derives the date rule.
 * cutoff NULL (no readable date) leaves the key out rather than guess.
 * NULL on out of memory. */
static json_t *offering_json(const cf_offering *o, const char *cutoff, const char *now)
{
    json_t *j = cf_offering_to_json(o);
    int priced = !isnan(o->price_on_demand_gpu_hr) || !isnan(o->price_reserved_gpu_hr) ||
                 !isnan(o->price_spot_gpu_hr);
    long page = priced ? age_days(o->price_as_of ? o->price_as_of : o->as_of, now) : -1;
    if (j && cutoff && json_object_set_new(j, "stale", json_boolean(cf_offering_stale(o, cutoff))) != 0) {
        json_decref(j);
        j = NULL;
    }
    /* How old the price is (issue 22): days since price_as_of, else as_of,
     * null when unknown; the page shows it beside price_source. */
    if (j && json_object_set_new(j, "price_age_days", page != -1 ? json_integer(page) : json_null()) != 0) {
        json_decref(j);
        j = NULL;
    }
    return j;
}

static void get_offerings(srv_api *api, const srv_request *rq, srv_reply *out)
{
    srv_list_query lq;
    char msg[SRV_MSG_MAX];
    cf_offering_list list = {0};
    json_t *arr;
    char cutoff[16];
    int have_cut;
    cf_error e;
    cf_status st;

    if (need_catalog(api, out) != 0) return;
    if (srv_parse_list(rq->args, rq->n_args, 1, &lq, msg, sizeof msg) != 0) {
        srv_error(out, 400, "bad_request", "%s", msg);
        return;
    }
    pthread_mutex_lock(&api->lock);
    st = current_catalog_locked(api, &e);
    if (st != CF_OK) {
        pthread_mutex_unlock(&api->lock);
        srv_lib_error(out, st, &e);
        return;
    }
    st = cf_catalog_query(api->cat, &lq.filter, lq.sort, &list);
    if (st != CF_OK) {
        cat_error(api, out, st);
    } else if (cf_catalog_note(api->cat)[0] && strcmp(cf_catalog_note(api->cat), api->last_note) != 0) {
        /* A row skipped (id and column): said once in the log, not per request. */
        snprintf(api->last_note, sizeof api->last_note, "%s", cf_catalog_note(api->cat));
        fprintf(stderr, "clusterfit serve: warning: %s\n", api->last_note);
    }
    pthread_mutex_unlock(&api->lock);
    if (st != CF_OK) return;
    have_cut = stale_cutoff(api, cutoff) == 0;
    arr = json_array();
    for (size_t i = 0; arr && i < list.n; i++) {
        if (json_array_append_new(arr, offering_json(&list.items[i], have_cut ? cutoff : NULL, api->now)) != 0) {
            json_decref(arr);
            arr = NULL;
        }
    }
    cf_offering_list_clear(&list);
    reply_json(out, 200, arr);
    out->cacheable = 1;
}


static void get_offering(srv_api *api, const char *id, srv_reply *out)
{
    cf_offering *o = NULL;
    cf_error note;
    cf_status st;
    json_t *j, *facts;
    char cutoff[16];
    long age;

    if (need_catalog(api, out) != 0) return;
    if (!*id || strlen(id) > 256 || strchr(id, '/')) {
        srv_error(out, 404, "not_found", "no offering with id '%.64s'", id);
        return;
    }
    st = locked_get(api, id, &o, &note);
    if (st == CF_ENOTFOUND) {
        srv_error(out, 404, "not_found", "no offering with id '%.64s'", id);
        return;
    }
    if (st != CF_OK) {
        srv_lib_error(out, st, note.message[0] ? &note : NULL);
        return;
    }
    j = offering_json(o, stale_cutoff(api, cutoff) == 0 ? cutoff : NULL, api->now);
    age = age_days(o->as_of, api->now);
    facts = locked_provider_facts(api, o->provider);
    if (j && (json_object_set_new(j, "age_days", age != -1 ? json_integer(age) : json_null()) != 0 ||
              json_object_set_new(j, "provider_facts", facts ? facts : json_null()) != 0)) {
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
        cf_error note;
        cf_gdr gdr = cq.fab.gdr;
        if (need_catalog(api, out) != 0) return;
        st = locked_get(api, cq.offering, &o, &note);
        if (st == CF_ENOTFOUND) {
            srv_error(out, 404, "not_found", "no offering with id '%.64s'", cq.offering);
            return;
        }
        if (st != CF_OK) {
            srv_lib_error(out, st, note.message[0] ? &note : NULL);
            return;
        }
        /* The one-node rule (a network the offering does not state matters
         * only between nodes) is the library's, as for the CLI. */
        cf_error_clear(&e);
        st = cf_fabric_for_nodes(o, cq.q.nodes, &cq.fab, &e);
        cf_offering_free(o);
        if (st != CF_OK) {
            srv_lib_error(out, st, &e);
            return;
        }
        if (cq.gdr_set) cq.fab.gdr = gdr;
    }
    cf_error_clear(&e);
    st = cf_collective_predict(&cq.fab, &cq.q, &r, &e);
    if (st != CF_OK) {
        srv_lib_error(out, st, &e);
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
    "known_only", "no_failures", "mtbf_gpu_h", "ckpt_interval", "tpot_ms", "ttft_s", NULL
};

/* The members that are plan options (cf_plan_opts_set's names), in the
 * order their refusals are reported. */
static const char *const plan_opt_keys[] = {"objective", "deadline_h", "budget", "top", "max_gpus",
                                            "margin_pct", "known_only", "no_failures", "mtbf_gpu_h",
                                            "ckpt_interval", NULL};

/* One of the plan's own members through the library's setter, the one
 * `clusterfit plan` calls for its flags, so both accept the same values
 * with the same reason: a JSON number as the number, a string as its text,
 * anything else as its JSON text (which no option accepts: the message
 * says what the member expects). Absent or null: the default. */
static int plan_opt(const json_t *body, const char *key, cf_plan_opts *po, srv_reply *out)
{
    int twice = 0;
    json_t *v = srv_member_get(body, key, &twice); /* deadline_h or deadline */
    cf_error e;
    cf_status st;
    if (twice) {
        srv_error(out, 400, "bad_request", "give '%s' or 'deadline', not both", key);
        return -1;
    }
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
        srv_lib_error(out, st, &e);
        return -1;
    }
    return 0;
}

/* Whether name is one of cf_workload_presets() ("a, b, c"): the only
 * strings the API hands to cf_workload_load, which would otherwise open a
 * file of that name in the server's directory (issue 15). */
static int is_preset(const char *name)
{
    const char *p = cf_workload_presets();
    size_t n = strlen(name);
    while (n && p && *p) {
        const char *end = strstr(p, ", ");
        size_t l = end ? (size_t)(end - p) : strlen(p);
        if (l == n && strncmp(p, name, n) == 0) return 1;
        p = end ? end + 2 : NULL;
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
        for (int i = 0; plan_keys[i]; i++)
            if (strcmp(srv_member_name(key), plan_keys[i]) == 0) known = 1;
        if (!known) {
            srv_error(out, 400, "bad_request", "unknown member '%.64s' (accepted: workload, objective, "
                      "deadline_h (or deadline), budget, filters, top, max_gpus, margin_pct, "
                      "known_only; tpot_ms, ttft_s for a serve workload)", key);
            return -1;
        }
    }
    if (srv_body_workload(json_object_get(body, "workload"), w, out) != 0) return -1;
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
        srv_lib_error(out, st, &e);
        return -1;
    }
    return 0;
}

/* Adds "scaling": [{offering_id, provider, offering, points}] for the first
 * ranked rows (the page's efficiency chart), from the plan's own handle. */
static void add_scaling(cf_catalog *cat, json_t *plan, const cf_workload *w)
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
        if (dup || cf_catalog_get(cat, id, &o) != CF_OK) continue;
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

int srv_body_workload(const json_t *v, cf_workload *w, srv_reply *out)
{
    cf_error e;
    cf_status st;
    cf_error_clear(&e);
    if (json_is_string(v)) {
        /* A preset name only: the API never opens files named by a client. */
        const char *name = json_string_value(v);
        st = is_preset(name) ? cf_workload_load(name, w, &e) : CF_ENOTFOUND;
    } else if (json_is_object(v)) {
        st = cf_workload_from_json(v, "workload", w, &e);
    } else {
        srv_error(out, 400, "bad_request", "'workload' is required: a preset name (%s) or an object",
                  cf_workload_presets());
        return -1;
    }
    if (st == CF_ENOTFOUND) {
        srv_error(out, 400, "bad_request", "'workload': no preset '%.64s' (accepted: %s), or give "
                  "an object with the keys of docs/workloads.md", json_string_value(v),
                  cf_workload_presets());
        return -1;
    }
    if (st != CF_OK) {
        srv_lib_error(out, st, &e);
        return -1;
    }
    return 0;
}

json_t *srv_body_object(const srv_request *rq, srv_reply *out, const char *example)
{
    json_error_t je;
    json_t *body;
    if (!rq->body || rq->body_len == 0) {
        srv_error(out, 400, "bad_request", "the body must be a JSON object such as %s", example);
        return NULL;
    }
    body = json_loadb(rq->body, rq->body_len, JSON_REJECT_DUPLICATES, &je);
    if (!body) {
        srv_error(out, 400, "bad_request", "invalid JSON at line %d column %d: %s", je.line, je.column,
                  je.text);
        return NULL;
    }
    if (!json_is_object(body)) {
        json_decref(body);
        srv_error(out, 400, "bad_request", "the body must be a JSON object");
        return NULL;
    }
    return body;
}

static void post_plan(srv_api *api, const srv_request *rq, srv_reply *out)
{
    cf_catalog *own = NULL;
    json_t *body, *plan = NULL;
    cf_workload w;
    srv_list_query lq;
    cf_plan_opts po;
    cf_serve_opts so;
    char today[16];
    cf_error e;
    cf_status st;

    /* The body is checked first: a malformed request is a 400 in any build. */
    if (!(body = srv_body_object(rq, out, "{\"workload\":\"llama3-70b\"}"))) return;
    if (need_catalog(api, out) != 0) {
        json_decref(body);
        return;
    }
    memset(&w, 0, sizeof w);
    if (plan_input(body, &w, &lq, &po, out) != 0) {
        json_decref(body);
        return;
    }
    /* The plan runs on a catalog handle of its own, outside the shared
     * handle's lock: a plan takes up to seconds, and every uncached read
     * would wait for it (issue 15). */
    cf_error_clear(&e);
    /* Stale prices are judged on the day GET /api/offerings' stale mark is
     * (today_of); no readable date, no judgement. */
    po.today = today_of(api->now, today) == 0 ? today : NULL;
    if (srv_serve_targets(body, &w, &so, out) != 0) {
        json_decref(body);
        return;
    }
    st = cf_catalog_open(api->db_path, &own, &e);
    /* a serve workload: its own plan, with the latency targets (no curve:
     * the page's chart is scaling efficiency, a training figure) */
    if (st == CF_OK && w.kind == CF_WL_SERVE) {
        st = cf_serve_plan_check_opts(&po, &e);
        if (st == CF_OK) st = cf_serve_plan(own, &lq.filter, &w, &so, po.currency, po.top, &plan, &e);
    } else if (st == CF_OK) {
        st = cf_plan(own, &lq.filter, &w, &po, &plan, &e);
        if (st == CF_OK && plan) add_scaling(own, plan, &w);
    }
    cf_catalog_close(own);
    json_decref(body);
    if (st != CF_OK) {
        json_decref(plan);
        srv_lib_error(out, st, &e);
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
        cf_error e, note;
        if (need_catalog(api, out) != 0) return;
        st = locked_get(api, offering, &o, &note);
        if (st != CF_OK) {
            if (st == CF_ENOTFOUND) srv_error(out, 404, "not_found", "no offering with id '%.64s'", offering);
            else srv_lib_error(out, st, note.message[0] ? &note : NULL);
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
        srv_lib_error(out, st, NULL);
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

static void get_vocab(srv_api *api, const srv_request *rq, srv_reply *out)
{
    (void)api; (void)rq;
    json_t *j = json_pack("{s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:[ssssss]}",
                          "network", split_names(cf_network_values()),
                          "intra_link", split_names(cf_intra_link_values()),
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
        json_object_set_new(j, "serve_workloads", srv_serve_presets());
    }
    reply_json(out, 200, j);
    out->cacheable = 1;
}

static void get_health(srv_api *api, const srv_request *rq, srv_reply *out)
{
    (void)rq;
    reply_json(out, 200, json_pack("{s:s,s:s,s:s}", "status", "ok", "version", cf_version(),
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

/* GET /api/offerings/{id}: the id is the rest of the path. */
static void get_offering_route(srv_api *api, const srv_request *rq, srv_reply *out)
{
    if (rq->n_args) srv_error(out, 400, "bad_request", "/api/offerings/{id} takes no parameters");
    else get_offering(api, rq->path + 15, out);
}

/* POST /api/fabrics over the catalog's offerings, cheapest first as the
 * CLI reads them (the as-sold bundles); the shipped catalog when none
 * could be opened. */
static void post_fabrics(srv_api *api, const srv_request *rq, srv_reply *out)
{
    cf_offering_list list = {NULL, 0};
    cf_filter f;
    cf_error e;
    cf_status st = CF_OK;
    if (api->cat) {
        cf_filter_init(&f);
        pthread_mutex_lock(&api->lock);
        st = current_catalog_locked(api, &e);
        if (st != CF_OK) srv_lib_error(out, st, &e);
        else if ((st = cf_catalog_query(api->cat, &f, CF_SORT_PRICE, &list)) != CF_OK) cat_error(api, out, st);
        pthread_mutex_unlock(&api->lock);
        if (st != CF_OK) return;
    }
    srv_post_fabrics(rq, api->cat ? &list : NULL, out);
    cf_offering_list_clear(&list);
}

/* One endpoint of the API: the head checks (srv_api_check) read its path
 * and methods, srv_api_handle calls its function. */
typedef struct route {
    const char *path;           /* the path; ending in '/', a prefix (the rest is an id) */
    const char *allow;          /* its methods, the Allow header of a 405: "GET, HEAD" or "POST" */
    void (*fn)(srv_api *api, const srv_request *rq, srv_reply *out); /* answers it */
} route;

static const route routes[] = {
    {"/healthz", "GET, HEAD", get_health},
    {"/api/offerings", "GET, HEAD", get_offerings},
    {"/api/offerings/", "GET, HEAD", get_offering_route},
    {"/api/predict/collective", "GET, HEAD", get_predict_collective},
    {"/api/plan", "POST", post_plan},
    {"/api/fabrics", "POST", post_fabrics},
    {"/api/audit", "POST", post_audit},
    {"/api/vocab", "GET, HEAD", get_vocab},
    {NULL, NULL, NULL}
};

static const route *find_route(const char *p)
{
    for (const route *r = routes; r->path; r++) {
        size_t n = strlen(r->path);
        if (r->path[n - 1] == '/' ? strncmp(p, r->path, n) == 0 : strcmp(p, r->path) == 0) return r;
    }
    return NULL;
}

/* Whether the method is one of `allow` (HEAD goes with GET); else a 405. */
static int method_ok(const srv_request *rq, const char *allow, srv_reply *out)
{
    int get = strcmp(rq->method, "GET") == 0 || strcmp(rq->method, "HEAD") == 0;
    if (strcmp(allow, "POST") == 0 ? strcmp(rq->method, "POST") == 0 : get) return 1;
    srv_error(out, 405, "method_not_allowed", "%s %s is not allowed (allowed: %s)", rq->method,
              rq->path, allow);
    out->allow = allow;
    return 0;
}

/* The head checks in their order (see srv_api_check); on success the route
 * in *rt, or the page in *f. */
static int check_head(const srv_api *api, const srv_request *rq, srv_reply *out, const route **rt,
                      const cf_web_file **f)
{
    const char *p = rq->path;
    *rt = NULL;
    *f = NULL;
    if (check_names(api, rq, out) != 0) return -1;
    if ((*rt = find_route(p)) != NULL) {
        if (!method_ok(rq, (*rt)->allow, out)) return -1;
    } else if (strncmp(p, "/api/", 5) == 0 || strcmp(p, "/api") == 0) {
        srv_error(out, 404, "not_found", "no endpoint %.128s (routes: GET /api/offerings, "
                  "GET /api/offerings/{id}, POST /api/plan, POST /api/fabrics, POST /api/audit, "
                  "GET /api/predict/collective, GET /api/vocab, GET /healthz)", p);
        return -1;
    } else if ((*f = find_asset(p)) != NULL) {
        if (!method_ok(rq, "GET, HEAD", out)) return -1;
    } else {
        srv_error(out, 404, "not_found", "no such page: %.128s", p);
        return -1;
    }
    return check_json_type(rq, out);
}

/* A reply that could not be built is the fixed 500 (server.c's body). */
static void reply_done(srv_reply *out)
{
    if (out->status == 0) srv_error(out, 500, "internal", "no reply was built");
    if (!out->json && !out->file) {
        /* srv_error could not allocate (its text is always valid UTF-8):
         * the server sends a fixed 500 body, "could not build the reply". */
        out->status = 500;
        out->cacheable = 0;
    }
}

int srv_api_check(const srv_api *api, const srv_request *rq, srv_reply *out)
{
    const route *rt;
    const cf_web_file *f;
    memset(out, 0, sizeof *out);
    if (check_head(api, rq, out, &rt, &f) == 0) return 0;
    reply_done(out);
    return -1;
}

void srv_api_handle(srv_api *api, const srv_request *rq, srv_reply *out)
{
    const route *rt;
    const cf_web_file *f;
    memset(out, 0, sizeof *out);
    /* The head checks again: a caller that did not make them (unit use)
     * gets the same refusals. */
    if (check_head(api, rq, out, &rt, &f) != 0) {
        /* refused before any route runs */
    } else if (rt) {
        rt->fn(api, rq, out);
    } else {
        out->status = 200;
        out->file = f;
    }
    reply_done(out);
}
