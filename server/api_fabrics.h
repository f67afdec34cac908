/* api_fabrics.h — POST /api/fabrics (server/api_fabrics.c), routed by
 * api.c: the `clusterfit fabrics` question as a JSON body, answered with
 * the library's document (cf_fabrics). Private to server/. */
#ifndef CLUSTERFIT_SERVER_API_FABRICS_H
#define CLUSTERFIT_SERVER_API_FABRICS_H

#include "server.h"

/* Answers one POST /api/fabrics: the body is an object with "workload" (a
 * preset name or a workload object) and the members of
 * cf_fabrics_param_names (the CLI's flags, '-' written '_'; "deadline" is
 * accepted for deadline_h), each a string, a number or, for non_blocking
 * and rail_optimized, true/false; null = not given. Each value goes through
 * cf_fabrics_query_set, the parser of the CLI's flags, so both refuse
 * alike. 200 with cf_fabrics' JSON; 400 bad_request naming the member for
 * bad input. `offerings` (borrowed; NULL = the shipped catalog) are the
 * catalog's, whose bundles the answer compares as sold. Thread-safe: reads
 * that list and embedded data only. */
void srv_post_fabrics(const srv_request *rq, const cf_offering_list *offerings, srv_reply *out);

#endif
