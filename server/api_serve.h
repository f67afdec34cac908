/* api_serve.h — the serving parts of POST /api/plan (server/api_serve.c),
 * called by api.c: the latency targets of a serve workload (issue 25) as
 * members of the plan's body. Private to server/. */
#ifndef CLUSTERFIT_SERVER_API_SERVE_H
#define CLUSTERFIT_SERVER_API_SERVE_H

#include "server.h"

/* Reads "tpot_ms" and "ttft_s" of a plan body into *so through
 * cf_serve_opts_set (the parser of `plan --tpot-ms --ttft-s`): each a
 * number or a string; absent or null = the workload's target. A target
 * given with a workload that is not serve is a 400 naming the member.
 * Returns 0, or -1 with the 400 in *out. */
int srv_serve_targets(const json_t *body, const cf_workload *w, cf_serve_opts *so, srv_reply *out);

/* The presets of kind serve, as a JSON array of names (GET /api/vocab's
 * serve_workloads: the page shows the latency targets for them and leaves
 * the training plan's deadline and budget out). NULL on ENOMEM. */
json_t *srv_serve_presets(void);

#endif
