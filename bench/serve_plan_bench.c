/* serve_plan_bench.c — times cf_serve_plan for a serve workload over every
 * offering of the shipped catalog (issue 25: deepseek-v3-serve in < 2 s on
 * one core). The catalog is opened (and built) before the clock starts; the
 * plan itself, JSON included, is timed, best of REPS runs; the memo of node
 * types is the plan's own (each run starts empty).
 * Usage: serve_plan_bench DB WORKLOAD [REPS] */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "clusterfit/clusterfit.h"

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    cf_catalog *cat = NULL;
    cf_workload w;
    cf_error err;
    double best = 1e30;
    int reps = argc > 3 ? (int)strtol(argv[3], NULL, 10) : 5;
    size_t ranked = 0, unranked = 0;
    if (argc < 3) {
        fprintf(stderr, "usage: serve_plan_bench DB WORKLOAD [REPS]\n");
        return 2;
    }
    cf_error_clear(&err);
    if (cf_catalog_open(argv[1], &cat, &err) != CF_OK || cf_workload_load(argv[2], &w, &err) != CF_OK) {
        fprintf(stderr, "serve_plan_bench: %s\n", err.message);
        return 1;
    }
    for (int i = 0; i < (reps > 0 ? reps : 1); i++) {
        json_t *doc = NULL;
        double t0 = now_s(), dt;
        if (cf_serve_plan(cat, NULL, &w, NULL, NULL, 0, &doc, &err) != CF_OK) {
            fprintf(stderr, "serve_plan_bench: %s\n", err.message);
            return 1;
        }
        dt = now_s() - t0;
        if (dt < best) best = dt;
        ranked = json_array_size(json_object_get(doc, "ranked"));
        unranked = json_array_size(json_object_get(doc, "unranked"));
        json_decref(doc);
    }
    printf("serve plan %s: %.3f s (best of %d), %zu ranked, %zu unranked\n", argv[2], best, reps,
           ranked, unranked);
    cf_catalog_close(cat);
    return best < 2.0 ? 0 : 1;
}
