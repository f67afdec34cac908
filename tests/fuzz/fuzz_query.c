/* fuzz_query.c — the HTTP API's parameter parsing (server/query.c): list
 * filters and `predict collective` parameters from a query string, and a
 * plan's "filters" object from JSON. The input is split on '&' and the first
 * '=' of each part, as libmicrohttpd hands decoded pairs to the server; each
 * key and value is its own exact-size heap copy so AddressSanitizer sees a
 * read past its end. The same bytes are also tried as a JSON filters object.
 * The same pairs also go to the library's setters (cf_fabric_set,
 * cf_coll_query_set) directly. server/query.c is not in the library:
 * replay.sh and run.sh compile it into this harness and give it -Iserver
 * for the parser's own header, server/query.h (nothing else of the server
 * is linked). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "query.h"

#define MAX_PAIRS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    srv_kv kv[MAX_PAIRS];
    char *owned[2 * MAX_PAIRS];
    size_t n = 0, n_owned = 0, start = 0;
    char msg[SRV_MSG_MAX];
    srv_list_query lq;
    srv_coll_query cq;
    json_t *j;

    for (size_t i = 0; i <= size && n < MAX_PAIRS; i++) {
        if (i < size && data[i] != '&') continue;
        const uint8_t *p = data + start, *eq = memchr(p, '=', i - start);
        size_t klen = eq ? (size_t)(eq - p) : i - start;
        size_t vlen = eq ? i - start - klen - 1 : 0;
        char *k = malloc(klen + 1), *v = eq ? malloc(vlen + 1) : NULL;
        if (!k || (eq && !v)) { free(k); free(v); break; }
        memcpy(k, p, klen);
        k[klen] = '\0';
        if (v) { memcpy(v, eq + 1, vlen); v[vlen] = '\0'; }
        kv[n].key = k;
        kv[n].value = v;    /* NULL, as libmicrohttpd gives for "key" without '=' */
        owned[n_owned++] = k;
        if (v) owned[n_owned++] = v;
        n++;
        start = i + 1;
    }
    (void)srv_parse_list(kv, n, 1, &lq, msg, sizeof msg);
    (void)srv_parse_coll(kv, n, &cq, msg, sizeof msg);
    /* The library's setters directly, with any name and value. */
    {
        cf_fabric fab;
        cf_coll_query q;
        cf_error err;
        cf_fabric_init(&fab);
        cf_coll_query_init(&q);
        for (size_t i = 0; i < n; i++) {
            if (cf_fabric_set(&fab, kv[i].key, kv[i].value, &err) != CF_OK)
                srv_param_message(&err, CF_EINVAL, msg, sizeof msg);
            if (cf_coll_query_set(&q, kv[i].key, kv[i].value, &err) != CF_OK)
                srv_param_message(&err, CF_EINVAL, msg, sizeof msg);
        }
    }
    for (size_t i = 0; i < n_owned; i++) free(owned[i]);

    j = json_loadb((const char *)data, size, 0, NULL);
    if (j) {
        (void)srv_parse_list_json(j, &lq, msg, sizeof msg);
        json_decref(j);
    }
    return 0;
}
