/* plan_bench.c — times cf_plan for one workload over every multi-node
 * offering of the shipped catalog (DESIGN §7: llama3-405b in < 1 s on one
 * core) and reports layouts evaluated per second. The catalog is opened
 * (and built) before the clock starts; the plan itself, JSON included, is
 * timed, best of REPS runs.
 * Usage: plan_bench DB WORKLOAD [REPS] */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "clusterfit/clusterfit.h"

static size_t groups;
static void progress(void *user, size_t done, size_t total)
{
    (void)user; (void)done;
    groups = total;
}

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
    cf_plan_opts opts;
    unsigned long evaluated = 0;
    double best = 1e30;
    int reps = argc > 3 ? (int)strtol(argv[3], NULL, 10) : 5;
    size_t ranked = 0, unranked = 0;
    if (argc < 3) {
        fprintf(stderr, "usage: plan_bench DB WORKLOAD [REPS]\n");
        return 2;
    }
    cf_error_clear(&err);
    if (cf_catalog_open(argv[1], &cat, &err) != CF_OK || cf_workload_load(argv[2], &w, &err) != CF_OK) {
        fprintf(stderr, "plan_bench: %s\n", err.message);
        return 1;
    }
    cf_plan_opts_init(&opts);
    opts.evaluated = &evaluated;
    opts.progress = progress;
    for (int i = 0; i < (reps > 0 ? reps : 1); i++) {
        json_t *doc = NULL;
        double t0 = now_s(), dt;
        if (cf_plan(cat, NULL, &w, &opts, &doc, &err) != CF_OK) {
            fprintf(stderr, "plan_bench: %s\n", err.message);
            return 1;
        }
        dt = now_s() - t0;
        if (dt < best) best = dt;
        ranked = json_array_size(json_object_get(doc, "ranked"));
        unranked = json_array_size(json_object_get(doc, "unranked"));
        json_decref(doc);
    }
    printf("plan %s: %.3f s (best of %d), %lu layouts evaluated, %.0f layouts/s, "
           "%zu ranked, %zu unranked, %zu node types searched\n",
           argv[2], best, reps, evaluated, (double)evaluated / best, ranked, unranked, groups);
    cf_catalog_close(cat);
    return best < 1.0 ? 0 : 1;
}
