/* serve_int.h (plan) — what lib/plan/serve_*.c share: the search of one
 * node type for a serve workload (serve_search.c) and the deployment it
 * leads to (serve_plan.c). Not installed; cf__-prefixed and hidden. */
#ifndef CLUSTERFIT_PLAN_SERVE_INT_H
#define CLUSTERFIT_PLAN_SERVE_INT_H

#include "clusterfit/serve.h"
#include "clusterfit/fabric.h"

/* The best layout found for one phase. */
typedef struct cf__serve_phase {
    int ok;                 /* 1: found */
    cf_serve_layout lay;    /* its layout */
    int gpus;               /* GPUs of one instance */
    double rate_gpu;        /* decode: output tokens/s per GPU; prefill: input tokens/s;
                             * colocated: requests/s per GPU */
    cf_serve_decode d;      /* decode (and colocated) */
    cf_serve_prefill p;     /* prefill (and colocated) */
} cf__serve_phase;

/* The instance sizes the search tries (serve_search.c's list). */
#define CF__SERVE_SIZES 13

/* What the search of one node type found. */
typedef struct cf__serve_search {
    cf__serve_phase dec, pre, colo; /* best decode, prefill, and colocated layouts */
    /* the best of each phase at each instance size (index of the size list):
     * the deployment pairs them, so a pool that is best per GPU but leaves
     * no room for the other pool never hides one that fits (issue: the IB
     * search missed the disaggregated layout TCPX found) */
    cf__serve_phase dec_at[CF__SERVE_SIZES], pre_at[CF__SERVE_SIZES], colo_at[CF__SERVE_SIZES];
    double min_tpot_s;      /* the fastest batch-1 decode step seen; INFINITY = none */
    double min_ttft_s;      /* the fastest one-prompt TTFT seen; INFINITY = none */
    int holds;              /* 1: some layout holds the weights and one request */
    double min_weights_gib; /* the least weights per GPU of any layout searched, GiB */
    int min_weights_nodes;  /* that layout's nodes */
    int multinode;          /* 1: the pools can be on different nodes (a network) */
    int max_nodes;          /* the largest cluster searched, nodes */
    char why_none[160];     /* the reason nothing was found, when nothing was */
} cf__serve_search;

/* Searches the instance sizes and layouts of one node type: `fab_of(user,
 * nodes, &fab)` gives the fabric of that many nodes (CF_OK, or a refusal:
 * no more nodes), up to max_nodes nodes. tpot_s and ttft_s NAN = no
 * target. CF_ENOMEM / the model's internal refusals only. */
typedef cf_status (*cf__serve_fab_fn)(const void *user, int nodes, cf_fabric *out);
cf_status cf__serve_search_run(const cf_workload *w, cf__serve_fab_fn fab_of, const void *user,
                               int max_nodes, double tpot_s, double ttft_s,
                               cf__serve_search *out, cf_error *err);

/* A deployment built from a search. */
typedef struct cf__serve_deploy {
    int ok;
    int colocated;          /* 1: one pool does both phases */
    cf__serve_phase pre, dec;   /* the phases the pools run (colocated: both the pool's) */
    int pre_inst, dec_inst; /* instances in each pool (colocated: dec_inst) */
    int pre_nodes, dec_nodes, nodes;    /* nodes of each pool and in all */
    double rps;             /* requests/s the deployment carries */
} cf__serve_deploy;

/* The cheapest deployment per request on at most max_nodes nodes of
 * gpus_per_node GPUs (price per GPU-hour does not change the choice: cost
 * per request is nodes / rps); colocated or disaggregated, whichever
 * carries more requests per node, over every pair of instance sizes of
 * the search (the same for every fabric: a faster fabric never answers
 * worse). */
void cf__serve_deploy_best(const cf_workload *w, const cf__serve_search *s, int gpus_per_node,
                           int max_nodes, cf__serve_deploy *out);

/* The deployment as the row fields of a plan (prefill, decode, the
 * throughputs, why). NULL on ENOMEM. */
json_t *cf__serve_row_json(const cf_workload *w, const cf__serve_deploy *d, int gpus_per_node);

/* Why the search s of gpn x gpu found no deployment, naming the binding
 * fact (the weights beyond the GPUs' memory, no KV room beside them, the
 * TPOT or TTFT target below one step, the two targets together) into buf;
 * returns its kind ("weights", "kv_memory", "tpot", "ttft", "targets";
 * static). tpot_s, ttft_s: the targets searched (NAN = none). */
const char *cf__serve_none_reason(const cf_workload *w, const cf__serve_search *s, const char *gpu,
                                  long gpn, double tpot_s, double ttft_s, char *buf, size_t n);

/* Sets decode_instances, decode_nodes, prefill_instances, prefill_nodes
 * (one copy of d; colocated: the one pool's in both) and copies on row
 * (fabrics and scale rows, as a plan row's pools; null when !d->ok), so that
 * the pools' nodes x copies add up to the row's nodes (serve_row.c).
 * Nonzero on ENOMEM. */
int cf__serve_pools_json(json_t *row, const cf__serve_deploy *d, int copies);

/* The `assumes` of a serving answer of w (plan, fabrics), each with its
 * value (serve_assumes.c). NULL on ENOMEM. */
json_t *cf__serve_assumes(const cf_workload *w);

#endif
