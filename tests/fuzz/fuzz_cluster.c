/* fuzz_cluster.c — what rank 0 of `clusterfit probe --mpi` does with the
 * messages of the other ranks, without MPI: each message decoded by the
 * library as src/probe_mpi.c hands it over (cf_probe_peer_report for a
 * leader's report, cf_probe_peer_pairs for pair figures), then the cluster
 * report (lib/probe/cluster.c), the comparison with an offering's promise
 * (lib/probe/offering.c), its text and its status. After the tester's
 * harness of 2026-12-01 (shared/reviews/2026-12-b), which fed any JSON
 * straight to cf_probe_cluster.
 *
 * Input: a mode byte, then messages separated by NUL bytes: one that
 * starts with 'P' is a pair message (the bytes after it, as doubles), any
 * other a report. The mode's bits: 1 one host (pair_scope "ranks"), 2
 * ranks named twice, 4 the world size halved, 8 missing ranks. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "clusterfit/probe.h"
#include "clusterfit/catalog.h"

static const char OFFER[] =
    "id,provider,offering,gpu,gpus_per_node,gpu_memory_gb,intra_link,network,network_gbps_per_node,"
    "nics_per_node,rdma,gpudirect_rdma,max_cluster_gpus,multinode,price_on_demand_gpu_hr,currency,source_url,as_of\n"
    "x-h100-ib,X,x,H100-SXM,8,80,nvswitch-nvlink4,ib,3200,8,yes,yes,1024,yes,2.0,USD,https://example.com,2025-01\n";

#define MAX_NODES 64
#define MAX_PAIRS 512

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static cf_offering_list offers;
    static int have;
    json_t *nodes[MAX_NODES], *rep = NULL;
    cf_probe_pair pairs[MAX_PAIRS];
    int missing[4] = {1, 3, 5, 7};
    size_t n = 0, np = 0;
    cf_probe_cluster_in in;
    cf_error err;
    uint8_t mode;
    int world;
    const uint8_t *p, *end = data + size;
    if (!have) {
        if (cf_offerings_parse("o", OFFER, strlen(OFFER), CF_IMPORT_CSV, NULL, &offers, &err) != CF_OK) abort();
        have = 1;
    }
    if (size < 1) return 0;
    mode = data[0];
    /* Reports first (the world size is known from them), pairs after. */
    for (p = data + 1; p <= end && n < MAX_NODES;) {
        const uint8_t *z = memchr(p, '\0', (size_t)(end - p));
        size_t len = z ? (size_t)(z - p) : (size_t)(end - p);
        json_t *j = NULL;
        if (len && p[0] != 'P' && cf_probe_peer_report((const char *)p, len, &j, &err) == CF_OK) nodes[n++] = j;
        if (!z) break;
        p = z + 1;
    }
    world = (int)((mode & 4) ? n / 2 + 1 : n + 1);
    for (size_t i = 0; i < n; i++) {
        /* What the front end adds: the world ranks of each report's host. */
        json_t *ranks = json_array();
        json_array_append_new(ranks, json_integer((json_int_t)((mode & 2) ? i / 2 : i)));
        json_object_set_new(nodes[i], "ranks", ranks);
    }
    for (p = data + 1; p <= end;) {
        const uint8_t *z = memchr(p, '\0', (size_t)(end - p));
        size_t len = z ? (size_t)(z - p) : (size_t)(end - p);
        if (len > 1 && p[0] == 'P') {
            size_t cnt = (len - 1) / sizeof(double);
            double *v = malloc(cnt * sizeof *v + 1);
            if (!v) abort();
            memcpy(v, p + 1, cnt * sizeof *v);
            np += cf_probe_peer_pairs(v, cnt, world, pairs + np, MAX_PAIRS - np, NULL);
            free(v);
        }
        if (!z) break;
        p = z + 1;
    }
    memset(&in, 0, sizeof in);
    in.ranks = world;
    in.nodes = nodes;
    in.n_nodes = n;
    in.pairs = pairs;
    in.n_pairs = np;
    in.pair_scope = (mode & 1) ? "ranks" : "nodes";
    in.missing = missing;
    in.n_missing = (mode & 8) ? 4 : 0;
    in.timeout_s = 60;
    cf_error_clear(&err);
    if (cf_probe_cluster(&in, &rep, &err) != CF_OK) {
        fprintf(stderr, "fuzz_cluster: %s\n", err.message);
        abort();
    }
    {
        char *t = cf_probe_report_text(rep);
        if (!t || cf_probe_status(rep) == CF_AUDIT_INVALID) abort();
        free(t);
        if (cf_probe_check_offering(rep, &offers.items[0], &err) != CF_OK) abort();
        t = cf_probe_report_text(rep);
        if (!t) abort();
        free(t);
        t = json_dumps(rep, JSON_COMPACT);
        if (!t) abort();
        free(t);
        json_decref(rep);
    }
    /* One node report alone, as `clusterfit probe --offering` checks it. */
    if (n) {
        char *t;
        if (cf_probe_check_offering(nodes[0], &offers.items[0], &err) != CF_OK) abort();
        t = cf_probe_report_text(nodes[0]);
        if (!t) abort();
        free(t);
    }
    for (size_t i = 0; i < n; i++) json_decref(nodes[i]);
    return 0;
}
