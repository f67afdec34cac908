/* test_refit.c — fitting as code (model/refit.c) and error out of sample
 * (model/crossval.c, model/interval.c): the source grouping, quantiles,
 * a refit that recovers a constant the rows were made with, the left-out
 * source and the too-few-rows rule, leave-one-source-out, the classes and
 * their coverage, and the bands. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "clusterfit/clusterfit.h"
#include "model/model_int.h"

static void key_is(const char *src, const char *want)
{
    char out[512];
    cf__validation_source_key(src, out, sizeof out);
    if (strcmp(out, want) != 0) fail_msg("key of '%s' is '%s', want '%s'", src, out, want);
}

/* One document, whatever its commit or section; an arXiv id without its table. */
static void source_key_groups_documents(void **state)
{
    (void)state;
    key_is("https://github.com/NVIDIA-NeMo/Megatron-Bridge/blob/00b7660be0/docs/performance-summary.md "
           "(25.11 NeMo container, System: DGX-GB300)",
           "https://github.com/NVIDIA-NeMo/Megatron-Bridge/blob/*/docs/performance-summary.md");
    key_is("https://github.com/NVIDIA-NeMo/Megatron-Bridge/blob/5776a6d90b/docs/performance-summary.md",
           "https://github.com/NVIDIA-NeMo/Megatron-Bridge/blob/*/docs/performance-summary.md");
    /* another page of the same repository is another document */
    key_is("https://github.com/NVIDIA-NeMo/Megatron-Bridge/blob/main/docs/performance-summary-archive.md",
           "https://github.com/NVIDIA-NeMo/Megatron-Bridge/blob/*/docs/performance-summary-archive.md");
    key_is("arXiv:2104.04473 Table 1", "arXiv:2104.04473");
    key_is("arXiv:2104.04473 Table 1 and abstract", "arXiv:2104.04473");
    key_is("https://arxiv.org/abs/2412.19437", "arXiv:2412.19437");
    key_is("  https://github.com/NVIDIA/nccl/issues/1229 ", "https://github.com/NVIDIA/nccl/issues/1229");
    key_is("", "");
    key_is(NULL, "");
}

static void quantiles(void **state)
{
    double a[] = {5, 1, 4, 2, 3};
    (void)state;
    assert_true(fabs(cf_quantile(a, 5, 0.10) - 1.4) < 1e-12);
    assert_true(fabs(cf_quantile(a, 5, 0.50) - 3.0) < 1e-12);
    assert_true(fabs(cf_quantile(a, 5, 0.90) - 4.6) < 1e-12);
    assert_true(cf_quantile(a, 5, 0) == 1 && cf_quantile(a, 5, 1) == 5);
    assert_true(isnan(cf_quantile(a, 0, 0.5)));
}

static char paths[2][64];

/* A collectives file of `n` large all_reduce rows on 2..n+1 nodes of 8 x
 * A100 with 4 x 200G HDR (network-bound), "measured" as the model
 * predicts them with ETA_IB = eta, from source `src`; its path. */
static const char *write_rows(int which, int n, double eta, const char *src, int first_id)
{
    int fd;
    FILE *f;
    snprintf(paths[which], sizeof paths[which], "/tmp/cf-refit-XXXXXX");
    fd = mkstemp(paths[which]);
    assert_true(fd >= 0);
    f = fdopen(fd, "w");
    assert_non_null(f);
    fputs("id,gpu,gpus_per_node,nodes,intra_link,network,nics_per_node,nic_gbps,gdr,collective,algo,"
          "message_bytes,busbw_GBps,source\n", f);
    cf__model_constants[CF_K_ETA_IB].value = eta;
    for (int i = 0; i < n; i++) {
        cf_fabric fab;
        cf_coll_query q;
        cf_coll_result r;
        memset(&fab, 0, sizeof fab);
        snprintf(fab.gpu, sizeof fab.gpu, "A100-SXM-80");
        fab.gpus_per_node = 8;
        fab.intra_link = CF_INTRA_NVSWITCH_NVLINK3;
        fab.network = CF_NET_IB;
        fab.nics_per_node = 4;
        fab.nic_gbps = 200;
        fab.gdr = CF_GDR_UNKNOWN;
        fab.non_blocking = fab.rail_optimized = fab.in_network_reduction = CF_CAP_UNKNOWN;
        cf_coll_query_init(&q);
        q.collective = CF_COLL_ALL_REDUCE;
        q.bytes = 8ULL << 30;
        q.nodes = 2 + i;
        q.algo = CF_ALGO_RING;
        assert_int_equal(cf_collective_predict(&fab, &q, &r, NULL), CF_OK);
        fprintf(f, "r%d,A100-SXM-80,8,%d,nvswitch-nvlink3,ib-hdr,4,200,unknown,all_reduce,ring,"
                "8589934592,%.6f,\"%s (row %d)\"\n", first_id + i, q.nodes, r.busbw_GBps, src, i);
    }
    cf__model_constants_restore();
    fclose(f);
    return paths[which];
}

/* The value of constant `name` in a refit's report. */
static const cf_refit_constant *fitted(const cf_refit_result *r, const char *name)
{
    for (size_t i = 0; i < r->n; i++)
        if (strcmp(r->c[i].name, name) == 0) return &r->c[i];
    fail_msg("the refit does not report %s", name);
    return NULL;
}

/* Rows made at ETA_IB 0.80 give back 0.80; a constant without rows keeps
 * constants.def's value; leaving out the source of every row gives back
 * the start; the process's constants are the fitted ones until restored. */
static void refit_recovers_a_constant(void **state)
{
    const char *p[2];
    cf_validation_set *set = NULL;
    cf_refit_result r;
    cf_error err;
    (void)state;
    p[0] = write_rows(0, 3, 0.80, "https://example.org/a", 1);
    p[1] = write_rows(1, 2, 0.80, "https://example.org/b", 10);
    assert_int_equal(cf_validation_set_load(p, 2, &set, &err), CF_OK);
    assert_int_equal(cf_refit(set, NULL, &r, &err), CF_OK);
    assert_true(fabs(fitted(&r, "ETA_IB")->value - 0.80) < 0.005);
    assert_int_equal(fitted(&r, "ETA_IB")->n_rows, 5);
    assert_true(fitted(&r, "ETA_IB")->median_ape_pct < 0.5);
    assert_true(fabs(CF_K(ETA_IB) - 0.80) < 0.005);
    /* no rows: constants.def's value, not the start */
    assert_true(fitted(&r, "ETA_ROCE")->value == cf__model_constant_shipped(CF_K_ETA_ROCE));
    assert_true(fitted(&r, "EFF_MEGATRON_HOPPER")->value ==
                cf__model_constant_shipped(CF_K_EFF_MEGATRON_HOPPER));
    cf_refit_clear(&r);
    /* source a left out: 2 rows of b are fewer than CF_REFIT_MIN_ROWS, so the start */
    assert_int_equal(cf_refit(set, "https://example.org/a", &r, &err), CF_OK);
    assert_true(fitted(&r, "ETA_IB")->value == fitted(&r, "ETA_IB")->start);
    assert_int_equal(fitted(&r, "ETA_IB")->n_rows, 2);
    cf_refit_clear(&r);
    cf_refit_restore();
    assert_true(CF_K(ETA_IB) == cf__model_constant_shipped(CF_K_ETA_IB));
    cf_validation_set_free(set);
    unlink(p[0]);
    unlink(p[1]);
}

/* Leave-one-source-out predicts each source's rows with a fit that did
 * not see them: b's rows with the fit on a (0.80: right), a's with the
 * start (b's 2 rows are too few: 0.90, 12.5 % too fast a busbw). */
static void cv_leaves_each_source_out(void **state)
{
    const char *p[2];
    cf_validation_set *set = NULL;
    cf_validation in, oos;
    cf_vclass *c = NULL;
    size_t nc = 0;
    cf_error err;
    (void)state;
    p[0] = write_rows(0, 3, 0.80, "https://example.org/a", 1);
    p[1] = write_rows(1, 2, 0.80, "https://example.org/b", 10);
    assert_int_equal(cf_validation_set_load(p, 2, &set, &err), CF_OK);
    assert_int_equal(cf_validate_cv(set, "collectives", &in, &oos, NULL, NULL, &err), CF_OK);
    assert_int_equal(in.n_rows, 5);
    assert_int_equal(oos.n_rows, 5);
    for (size_t i = 0; i < in.n_rows; i++) assert_true(in.rows[i].ape_pct < 0.5);
    for (size_t i = 0; i < oos.n_rows; i++) {
        const cf_validation_row *r = &oos.rows[i];
        if (strcmp(r->source, "https://example.org/b") == 0) assert_true(r->ape_pct < 0.5);
        else if (!(r->ape_pct > 5)) fail_msg("%s: APE %.2f %% at the start 0.90", r->id, r->ape_pct);
    }
    /* the constants are constants.def's again */
    assert_true(CF_K(ETA_IB) == cf__model_constant_shipped(CF_K_ETA_IB));
    assert_int_equal(cf_validation_by_class(&oos, &c, &nc), CF_OK);
    assert_true(nc >= 3);     /* all, size large, network ib */
    assert_string_equal(c[0].kind, "collectives");
    assert_string_equal(c[0].by, "all");
    assert_int_equal(c[0].n_rows, 5);
    assert_int_equal(c[0].n_sources, 2);
    assert_true(c[0].ratio_p10 <= c[0].ratio_p50 && c[0].ratio_p50 <= c[0].ratio_p90);
    /* a's three rows, judged on b's band (ratio 1): all outside; b's on a's */
    assert_true(c[0].coverage >= 0 && c[0].coverage <= 1);
    cf_vclasses_free(c);
    cf_validation_clear(&in);
    cf_validation_clear(&oos);
    cf_validation_set_free(set);
    unlink(p[0]);
    unlink(p[1]);
}

/* The bands: p10 <= 1 <= p90 for every class out of sample, and the
 * default margin is p90 - 1 of the workload's class. */
static void bands_and_margin(void **state)
{
    cf_workload w;
    double p10, p90;
    (void)state;
    for (int c = 0; c < CF_ERRCLASS__COUNT; c++) {
        cf_error_band((cf_err_class)c, &p10, &p90);
        if (!(p10 > 0 && p10 < p90)) fail_msg("%s: band %.2f-%.2f", cf_error_class_name((cf_err_class)c), p10, p90);
    }
    assert_int_equal(cf_error_class_collective(64 << 10), CF_ERRCLASS_COLL_SMALL);
    assert_int_equal(cf_error_class_collective((64 << 10) + 1), CF_ERRCLASS_COLL_MID);
    assert_int_equal(cf_error_class_collective(8ULL << 30), CF_ERRCLASS_COLL_LARGE);
    /* a busbw's band: a slower time is a lower busbw (the one helper
     * predict collective and the audit's expectation share, issue 23) */
    {
        double lo, hi;
        cf_busbw_band(400, 8ULL << 30, &lo, &hi);
        assert_true(lo == 400 / CF_K(ERR_COLL_LARGE_P90) && hi == 400 / CF_K(ERR_COLL_LARGE_P10));
        cf_busbw_band(20, 1024, &lo, &hi);
        assert_true(lo == 20 / CF_K(ERR_COLL_SMALL_P90) && hi == 20 / CF_K(ERR_COLL_SMALL_P10));
        cf_busbw_band(NAN, 1024, &lo, &hi);
        assert_true(isnan(lo) && isnan(hi));
        cf_busbw_band(0, 1024, &lo, NULL);
        assert_true(isnan(lo));
    }
    assert_int_equal(cf_workload_load("llama3-70b", &w, NULL), CF_OK);
    assert_int_equal(cf_workload_error_class(&w, NULL), CF_ERRCLASS_DENSE);
    assert_true(cf_default_margin_pct(&w) == floor((CF_K(ERR_DENSE_P90) - 1) * 100 + 0.5));
    assert_int_equal(cf_workload_load("deepseek-v3", &w, NULL), CF_OK);
    assert_int_equal(cf_workload_error_class(&w, NULL), CF_ERRCLASS_MOE);
    assert_true(cf_default_margin_pct(&w) == floor((CF_K(ERR_MOE_P90) - 1) * 100 + 0.5));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(source_key_groups_documents),
        cmocka_unit_test(quantiles),
        cmocka_unit_test(refit_recovers_a_constant),
        cmocka_unit_test(cv_leaves_each_source_out),
        cmocka_unit_test(bands_and_margin),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
