/* api_fabrics.c — POST /api/fabrics: "is a better fabric worth it for my
 * job?" over HTTP (api_fabrics.h). The body's members are the flags of
 * `clusterfit fabrics` with '-' written '_' (deadline_h for --deadline, as
 * POST /api/plan spells it; "deadline" is taken as the same member), and
 * every value goes through cf_fabrics_query_set, the parser the CLI uses,
 * so that both accept and refuse the same values with the same reason. The
 * answer is cf_fabrics' document as `clusterfit fabrics --format json`
 * prints it, over the catalog's offerings api.c reads (the as-sold
 * bundles). */
#include <stdio.h>
#include <string.h>
#include "api_fabrics.h"
#include "clusterfit/clusterfit.h"

/* The library's name of a body member; NULL when it is none. */
static const char *param_of(const char *key)
{
    const char *const *names = cf_fabrics_param_names();
    key = srv_member_name(key); /* "deadline" is deadline_h, as in POST /api/plan */
    for (size_t i = 0; names[i]; i++)
        if (strcmp(names[i], key) == 0) return names[i];
    return NULL;
}

/* The accepted members, for the unknown-member message. */
static void accepted(char *buf, size_t n)
{
    const char *const *names = cf_fabrics_param_names();
    size_t used = (size_t)snprintf(buf, n, "workload");
    for (size_t i = 0; names[i] && used < n; i++)
        used += (size_t)snprintf(buf + used, n - used, ", %s", names[i]);
}

/* One member's value as the text a flag would carry: strings as written,
 * integers and reals in full, true/false as yes/no. -1 for another type. */
static int value_text(const json_t *v, char *buf, size_t n)
{
    if (json_is_string(v)) {
        if (strlen(json_string_value(v)) != json_string_length(v) || json_string_length(v) >= n)
            return -1;
        snprintf(buf, n, "%s", json_string_value(v));
    } else if (json_is_integer(v)) {
        snprintf(buf, n, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
    } else if (json_is_real(v)) {
        snprintf(buf, n, "%.17g", json_real_value(v));
    } else if (json_is_true(v)) {
        snprintf(buf, n, "yes");
    } else if (json_is_false(v)) {
        snprintf(buf, n, "no");
    } else {
        return -1;
    }
    return 0;
}

/* The question's members through the library's setter, in the body's
 * order. */
static int read_query(const json_t *body, cf_fabrics_query *q, srv_reply *out)
{
    const char *key;
    json_t *v;
    int deadline_seen = 0;
    cf_fabrics_query_init(q);
    json_object_foreach((json_t *)body, key, v) {
        const char *name;
        char text[256], names[512];
        cf_error e;
        cf_status st;
        if (strcmp(key, "workload") == 0) continue;
        if (!(name = param_of(key))) {
            accepted(names, sizeof names);
            srv_error(out, 400, "bad_request", "unknown member '%.64s' (accepted: %s; deadline is "
                      "deadline_h)", key, names);
            return -1;
        }
        if (json_is_null(v)) continue;
        if (strcmp(name, "deadline_h") == 0 && deadline_seen++) {
            srv_error(out, 400, "bad_request", "give 'deadline_h' or 'deadline', not both");
            return -1;
        }
        if (value_text(v, text, sizeof text) != 0) {
            srv_error(out, 400, "bad_request", "parameter '%s': expected a string or a number", name);
            return -1;
        }
        cf_error_clear(&e);
        if ((st = cf_fabrics_query_set(q, name, text, &e)) != CF_OK) {
            srv_lib_error(out, st, &e);
            return -1;
        }
    }
    return 0;
}

void srv_post_fabrics(const srv_request *rq, const cf_offering_list *offerings, srv_reply *out)
{
    json_t *body, *doc = NULL;
    cf_workload w;
    cf_fabrics_query q;
    cf_error e;
    cf_status st;
    if (!(body = srv_body_object(rq, out, "{\"workload\":\"llama3-70b\",\"gpu\":\"H100-SXM\",\"nodes\":64}")))
        return;
    memset(&w, 0, sizeof w);
    if (srv_body_workload(json_object_get(body, "workload"), &w, out) != 0 ||
        read_query(body, &q, out) != 0) {
        json_decref(body);
        return;
    }
    json_decref(body);
    q.offerings = offerings;
    cf_error_clear(&e);
    if ((st = cf_fabrics(&w, &q, &doc, &e)) != CF_OK) {
        srv_lib_error(out, st, &e);
        return;
    }
    out->status = 200;
    out->json = doc;
}
