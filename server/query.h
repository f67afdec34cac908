/* query.h — the server's parameter parsing (query.c), on its own so that
 * the fuzz harness (tests/fuzz/fuzz_query.c) can link server/query.c with
 * the library and nothing else of the server. Private to server/ and its
 * tests; server.h includes it. */
#ifndef CLUSTERFIT_SERVER_QUERY_H
#define CLUSTERFIT_SERVER_QUERY_H

#include <stddef.h>
#include <jansson.h>
#include "clusterfit/clusterfit.h"

/* A decoded query parameter (borrowed from libmicrohttpd for one request). */
typedef struct srv_kv {
    const char *key;            /* the decoded parameter name */
    const char *value;          /* its decoded value ("" when given empty) */
} srv_kv;

/* Largest message a parameter error gets. */
#define SRV_MSG_MAX 512

/* The `list` filters and sort of DESIGN §6 parsed from parameters. The
 * filter's borrowed strings point into this struct. */
typedef struct srv_list_query {
    cf_filter filter;           /* the filters, through cf_filter_set */
    cf_sort sort;               /* the sort order (list only) */
    int multinode_set;          /* the multinode parameter was given */
    char store[16][256];        /* parameter values the filter borrows */
} srv_list_query;

/* Parses list parameters (multinode, network, gdr, rdma, gpu, min_gbps,
 * orchestration, provisioning, storage, max_price, currency, provider, sort;
 * `allow_sort` 0 rejects sort). Returns 0, or -1 with msg naming the
 * parameter and its accepted values (unknown, repeated or empty parameters
 * are errors too). */
int srv_parse_list(const srv_kv *kv, size_t n, int allow_sort, srv_list_query *out,
                   char *msg, size_t msgn);

/* The same from a JSON object of list parameters (a plan's "filters"):
 * strings as written, numbers, true/false as yes/no, arrays of strings as
 * comma-separated sets. */
int srv_parse_list_json(const json_t *obj, srv_list_query *out, char *msg, size_t msgn);

/* `predict collective` parameters: collective, bytes, nodes, ranks_per_node,
 * algo, and either offering or the fabric (gpu, gpus_per_node, intra,
 * network, nics and nic_gbps unless network is none, gdr), each value
 * through the library's setters (cf_coll_query_set, cf_fabric_set). */
typedef struct srv_coll_query {
    cf_coll_query q;            /* the query, through cf_coll_query_set */
    char offering[257];         /* "" when the fabric is given by parameters */
    cf_fabric fab;              /* filled when offering is "" */
    int gdr_set;                /* gdr given (also applies to an offering) */
} srv_coll_query;

int srv_parse_coll(const srv_kv *kv, size_t n, srv_coll_query *out, char *msg, size_t msgn);

/* A library refusal as the API words it into buf (size n): "parameter
 * 'NAME': reason" when it names a parameter (err->param, the API's own
 * spelling; a leading repeat of the name is dropped), else the message (or
 * the status string when empty). */
void srv_param_message(const cf_error *e, cf_status st, char *buf, size_t n);

/* The name a JSON body member stands for: "deadline" is "deadline_h" (the
 * CLI's --deadline, in hours), in POST /api/plan as in /api/fabrics; any
 * other key is itself. */
const char *srv_member_name(const char *key);

/* The body's value for member `name` under either spelling
 * (srv_member_name), borrowed; NULL when absent. *twice = 1 when both
 * spellings are given (the caller refuses: "give 'deadline_h' or
 * 'deadline', not both"). */
json_t *srv_member_get(const json_t *body, const char *name, int *twice);

#endif
