/* query.c — query-string parameters of the JSON API into library structures.
 *
 * The API's parameters are the CLI's flags with '-' written '_' (DESIGN §6),
 * so each parameter is parsed by the same library functions the CLI uses
 * (cf_filter_set and cf_sort_parse for `list`; cf_coll_query_set and
 * cf_fabric_set for `predict collective`). Every rejection names the parameter
 * and what it accepts, because the message is all an API user sees. Unknown,
 * repeated and empty parameters are errors rather than ignored: a typo in a
 * filter must not silently return the whole catalog. The plan request's
 * "filters" object goes through the same parser after its JSON values are
 * written as the strings a query string would carry. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "query.h"
#include "clusterfit/clusterfit.h"
#include "clusterfit/limits.h"

static const char *const list_params[] = {
    "multinode", "network", "gdr", "rdma", "gpu", "min_gbps", "orchestration",
    "provisioning", "storage", "max_price", "currency", "provider", "sort", NULL
};

/* `predict collective` takes the library's query and fabric parameters
 * (cf_coll_query_param_names, cf_fabric_param_names) and, instead of the
 * fabric, an offering. */
static const char *const offering_param[] = {"offering", NULL};

static const char *const *const list_lists[] = {list_params, NULL};

static int fail(char *msg, size_t n, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static int fail(char *msg, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, n, fmt, ap);
    va_end(ap);
    return -1;
}

/* The names of `lists` (a NULL-terminated array of NULL-terminated lists)
 * for which keep(name) holds (NULL = all), `sep` between them, into buf. */
static void join_names(const char *const *const *lists, int (*keep)(const char *), const char *sep,
                       char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t l = 0; lists[l]; l++)
        for (size_t i = 0; lists[l][i]; i++) {
            int w;
            if (keep && !keep(lists[l][i])) continue;
            w = snprintf(buf + used, n - used, "%s%s", used ? sep : "", lists[l][i]);
            if (w < 0 || (size_t)w >= n - used) return;
            used += (size_t)w;
        }
}

static int in_list(const char *const *names, const char *key)
{
    for (size_t i = 0; names[i]; i++)
        if (strcmp(key, names[i]) == 0) return 1;
    return 0;
}

/* Checks every key is a name of one of `lists` (NULL-terminated) and none
 * repeats or is empty. */
static int check_keys(const srv_kv *kv, size_t n, const char *const *const *lists, char *msg, size_t msgn)
{
    char accepted[512];
    for (size_t i = 0; i < n; i++) {
        int known = 0;
        for (size_t l = 0; lists[l]; l++)
            if (in_list(lists[l], kv[i].key)) known = 1;
        if (!known) {
            join_names(lists, NULL, ", ", accepted, sizeof accepted);
            return fail(msg, msgn, "unknown parameter '%.64s' (accepted: %s)", kv[i].key, accepted);
        }
        for (size_t j = 0; j < i; j++)
            if (strcmp(kv[i].key, kv[j].key) == 0)
                return fail(msg, msgn, "parameter '%s' given more than once", kv[i].key);
        if (!kv[i].value || !kv[i].value[0])
            return fail(msg, msgn, "parameter '%s' has no value", kv[i].key);
    }
    return 0;
}

static int given(const srv_kv *kv, size_t n, const char *key)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(kv[i].key, key) == 0) return 1;
    return 0;
}

/* Copies a bounded string parameter. */
static int text(const char *key, const char *v, char *dst, size_t n, char *msg, size_t msgn)
{
    size_t len = strlen(v);
    if (len >= n) return fail(msg, msgn, "parameter '%s' is longer than %zu characters", key, n - 1);
    memcpy(dst, v, len + 1);
    return 0;
}

/* One list parameter through the catalog's own parser (cf_filter_set, the
 * one `clusterfit list` uses), so the API and the CLI accept and reject the
 * same values with the same messages. The value is copied into `out` first:
 * the filter borrows it for as long as `out` lives. */
/* allow_sort: 0 no sort parameter, 1 the list endpoint, 2 a plan's filters
 * (sort accepted and ignored by the plan's own ranking). */
static int one_list_param(size_t i, const char *k, const char *v, int allow_sort, srv_list_query *out,
                          char *msg, size_t msgn)
{
    cf_error err;
    char *store = out->store[i];
    if (strlen(v) >= sizeof out->store[i])
        return fail(msg, msgn, "parameter '%s' is longer than %zu characters", k, sizeof out->store[i] - 1);
    memcpy(store, v, strlen(v) + 1);
    if (strcmp(k, "sort") == 0) {
        if (!allow_sort) return fail(msg, msgn, "parameter 'sort' is not accepted here");
        if (cf_sort_parse(store, &out->sort) != CF_OK)
            return fail(msg, msgn, "parameter 'sort': expected one of %s, got '%.64s'", cf_sort_accepted(), v);
        return 0;
    }
    if (strcmp(k, "multinode") == 0) out->multinode_set = 1;
    cf_error_clear(&err);
    if (cf_filter_set(&out->filter, k, store, &err) != CF_OK) {
        /* cf_filter_set's message starts with the name as given: say it once. */
        const char *m = err.message[0] ? err.message : "bad value";
        size_t kl = strlen(k);
        if (strncmp(m, k, kl) == 0 && m[kl] == ':' && m[kl + 1] == ' ') m += kl + 2;
        return fail(msg, msgn, "parameter '%s': %s", k, m);
    }
    return 0;
}

static void list_init(srv_list_query *out)
{
    memset(out, 0, sizeof *out);
    cf_filter_init(&out->filter);
    out->sort = CF_SORT_PROVIDER;   /* as `clusterfit list` */
}

int srv_parse_list(const srv_kv *kv, size_t n, int allow_sort, srv_list_query *out,
                   char *msg, size_t msgn)
{
    list_init(out);
    if (check_keys(kv, n, list_lists, msg, msgn) != 0) return -1;
    for (size_t i = 0; i < n; i++)
        if (one_list_param(i, kv[i].key, kv[i].value, allow_sort, out, msg, msgn) != 0) return -1;
    return 0;
}

/* Writes a JSON filter value as query-string text into buf. */
static int json_param_text(const char *key, const json_t *v, char *buf, size_t n, char *msg, size_t msgn)
{
    if (json_is_string(v)) {
        if (json_string_length(v) >= n || strlen(json_string_value(v)) != json_string_length(v))
            return fail(msg, msgn, "filters.%s is too long or contains NUL", key);
        snprintf(buf, n, "%s", json_string_value(v));
    } else if (json_is_true(v)) {
        snprintf(buf, n, "yes");
    } else if (json_is_false(v)) {
        snprintf(buf, n, "no");
    } else if (json_is_integer(v)) {
        snprintf(buf, n, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
    } else if (json_is_real(v)) {
        snprintf(buf, n, "%.17g", json_real_value(v));
    } else if (json_is_array(v)) {
        size_t i;
        json_t *e;
        buf[0] = '\0';
        json_array_foreach(v, i, e) {
            size_t used = strlen(buf);
            if (!json_is_string(e))
                return fail(msg, msgn, "filters.%s: array elements must be strings", key);
            if (used + json_string_length(e) + 2 >= n)
                return fail(msg, msgn, "filters.%s is too long", key);
            snprintf(buf + used, n - used, "%s%s", i ? "," : "", json_string_value(e));
        }
    } else {
        return fail(msg, msgn, "filters.%s must be a string, number, boolean or array of strings", key);
    }
    return 0;
}

int srv_parse_list_json(const json_t *obj, srv_list_query *out, char *msg, size_t msgn)
{
    srv_kv kv[32] = {{0}};
    char vals[32][256];
    size_t n = 0;
    const char *key;
    json_t *v;

    list_init(out);
    if (!obj || json_is_null(obj)) return 0;
    if (!json_is_object(obj)) return fail(msg, msgn, "'filters' must be an object of list parameters");
    json_object_foreach((json_t *)obj, key, v) {
        if (n == sizeof kv / sizeof kv[0]) return fail(msg, msgn, "'filters' has too many members");
        if (json_is_null(v)) continue;  /* null = not set, as in the API's JSON */
        if (json_param_text(key, v, vals[n], sizeof vals[n], msg, msgn) != 0) return -1;
        kv[n].key = key;
        kv[n].value = vals[n];
        n++;
    }
    if (check_keys(kv, n, list_lists, msg, msgn) != 0) return -1;
    for (size_t i = 0; i < n; i++)
        if (one_list_param(i, kv[i].key, kv[i].value, 2, out, msg, msgn) != 0) {
            /* Name the member as the caller wrote it. */
            char inner[SRV_MSG_MAX];
            snprintf(inner, sizeof inner, "%s", msg);
            return fail(msg, msgn, "filters: %s", inner);
        }
    return 0;
}

void srv_param_message(const cf_error *e, cf_status st, char *buf, size_t n)
{
    const char *m;
    size_t pl;
    if (!e || !e->message[0]) {
        snprintf(buf, n, "%s", cf_strerror(st));
        return;
    }
    if (!e->param[0]) {
        cf_error_format(e, buf, n);
        return;
    }
    /* Named once: a message that starts with the name loses it there. */
    m = e->message;
    pl = strlen(e->param);
    if (strncmp(m, e->param, pl) == 0 && m[pl] == ' ') m += pl + 1;
    snprintf(buf, n, "parameter '%s': %s", e->param, m);
}

/* One `predict collective` parameter through the library's setters (the
 * ones `clusterfit predict collective` calls for its flags). */
static int one_coll_param(const char *k, const char *v, srv_coll_query *out, char *msg, size_t msgn)
{
    cf_error err;
    cf_status st;
    if (strcmp(k, "offering") == 0) return text(k, v, out->offering, sizeof out->offering, msg, msgn);
    cf_error_clear(&err);
    st = in_list(cf_coll_query_param_names(), k) ? cf_coll_query_set(&out->q, k, v, &err)
                                                 : cf_fabric_set(&out->fab, k, v, &err);
    if (st != CF_OK) {
        srv_param_message(&err, st, msg, msgn);
        return -1;
    }
    if (strcmp(k, "gdr") == 0) out->gdr_set = 1;
    return 0;
}

/* What the API asks of the fabric parameters without 'offering', as the
 * CLI asks of its flags: all but gdr (the fabric's usual state when left
 * out, and the one an offering may come with) and the topology
 * (non_blocking, rail_optimized: unknown when left out, flagged in the
 * reply); the NICs (nics, nic_gbps) only when the network is not none. */
static int fabric_optional(const char *name)
{
    return strcmp(name, "gdr") == 0 || strcmp(name, "non_blocking") == 0 ||
           strcmp(name, "rail_optimized") == 0;
}

static int fabric_needed(const char *name)
{
    return !fabric_optional(name);
}

/* The fabric parameters an offering excludes: all but gdr. */
static int fabric_not_with_offering(const char *name)
{
    return strcmp(name, "gdr") != 0;
}

static int fabric_nic(const char *name)
{
    return strcmp(name, "nics") == 0 || strcmp(name, "nic_gbps") == 0;
}

static int fabric_always(const char *name)
{
    return fabric_needed(name) && !fabric_nic(name);
}

int srv_parse_coll(const srv_kv *kv, size_t n, srv_coll_query *out, char *msg, size_t msgn)
{
    static const char *const required[] = {"collective", "bytes", "nodes", NULL};
    const char *const *fabric = cf_fabric_param_names();
    const char *const *lists[] = {cf_coll_query_param_names(), offering_param, fabric, NULL};
    const char *const *fabric_only[] = {fabric, NULL};
    int seen_fabric = 0;

    memset(out, 0, sizeof *out);
    cf_coll_query_init(&out->q);
    cf_fabric_init(&out->fab);
    if (check_keys(kv, n, lists, msg, msgn) != 0) return -1;
    for (size_t i = 0; i < n; i++) {
        if (one_coll_param(kv[i].key, kv[i].value, out, msg, msgn) != 0) return -1;
        if (in_list(fabric, kv[i].key) && fabric_not_with_offering(kv[i].key)) seen_fabric = 1;
    }
    for (size_t j = 0; required[j]; j++)
        if (!given(kv, n, required[j])) return fail(msg, msgn, "parameter '%s' is required", required[j]);
    if (out->offering[0] && seen_fabric) {
        char names[256];
        join_names(fabric_only, fabric_not_with_offering, ", ", names, sizeof names);
        return fail(msg, msgn, "give either 'offering' or the fabric parameters (%s), not both", names);
    }
    if (!out->offering[0]) {
        /* As the CLI's flags: the NICs only when there is a network. */
        for (size_t j = 0; fabric[j]; j++)
            if (fabric_needed(fabric[j]) && !given(kv, n, fabric[j]) &&
                (!fabric_nic(fabric[j]) || out->fab.network != CF_NET_NONE)) {
                char always[256], nic[128];
                join_names(fabric_only, fabric_always, ", ", always, sizeof always);
                join_names(fabric_only, fabric_nic, " and ", nic, sizeof nic);
                return fail(msg, msgn, "parameter '%s' is required without 'offering' (fabric: %s; %s "
                            "unless network is none)", fabric[j], always, nic);
            }
    }
    return 0;
}

const char *srv_member_name(const char *key)
{
    if (key && strcmp(key, "deadline") == 0) return "deadline_h";
    return key;
}

json_t *srv_member_get(const json_t *body, const char *name, int *twice)
{
    const char *key;
    json_t *v, *found = NULL;
    int n = 0;
    json_object_foreach((json_t *)body, key, v) {
        if (strcmp(srv_member_name(key), name) != 0) continue;
        if (!found) found = v;
        n++;
    }
    if (twice) *twice = n > 1;
    return found;
}
