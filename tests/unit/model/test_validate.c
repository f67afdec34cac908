/* test_validate.c — the validation reader and its shared machinery:
 * header-name reading, skips, FILE:LINE:COLUMN errors, medians, failure
 * injection, and the accuracy targets on the shared collectives file. */
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
#include "model/model_int.h" /* cf__median */
#include "../testutil.h"

static char tmp_path[64];

static const char *write_tmp(const char *text)
{
    int fd;
    FILE *f;
    snprintf(tmp_path, sizeof tmp_path, "/tmp/cf-validate-XXXXXX");
    fd = mkstemp(tmp_path);
    assert_true(fd >= 0);
    f = fdopen(fd, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return tmp_path;
}

static void median(void **state)
{
    double a[] = {5, 1, 3}, b[] = {4, 1, 3, 2};
    (void)state;
    assert_true(cf__median(a, 3) == 3);
    assert_true(cf__median(b, 4) == 2.5);
    assert_true(isnan(cf__median(a, 0)));
}

/* Columns in another order, an unknown column, ib-hdr, blank message_bytes
 * (8 GiB), blank nodes and blank multi-node fabric (skipped with reasons). */
static const char good[] =
    "extra,busbw_GBps,id,gpu,gpus_per_node,nodes,intra_link,network,nics_per_node,nic_gbps,gdr,collective,algo,message_bytes\n"
    "x,370,r1,H100-SXM,8,1,nvswitch-nvlink4,none,0,0,na,all_reduce,ring,\n"
    "y,192,r2,A100-SXM-80,8,,nvswitch-nvlink3,ib-hdr,8,200,on,all_reduce,auto,\n"
    "z,300,r3,H100-SXM,8,4,nvswitch-nvlink4,,,,unknown,all_reduce,auto,8G\n"
    "w,330,r4,H100-SXM,8,4,nvswitch-nvlink4,ib-ndr,8,400,,all_reduce,auto,\n";

static void reads_by_header(void **state)
{
    cf_validation v;
    cf_error err;
    (void)state;
    memset(&v, 0, sizeof v);
    assert_int_equal(cf_validate_collectives(write_tmp(good), &v, &err), CF_OK);
    unlink(tmp_path);
    assert_int_equal(v.n_rows, 2);
    assert_string_equal(v.rows[0].id, "r1");
    assert_string_equal(v.rows[0].metric, "busbw_GBps");
    assert_true(v.rows[0].measured == 370);
    assert_int_equal(v.rows[0].multi_node, 0);
    assert_true(fabs(v.rows[0].ape_pct - fabs(v.rows[0].predicted - 370) / 370 * 100) < 1e-9);
    assert_string_equal(v.rows[1].id, "r4");
    assert_int_equal(v.rows[1].multi_node, 1);
    assert_int_equal(v.n_skipped, 2);
    assert_string_equal(v.skipped[0].id, "r2");
    assert_string_equal(v.skipped[0].reason, "nodes not stated");
    assert_string_equal(v.skipped[1].id, "r3");
    assert_non_null(strstr(v.skipped[1].reason, "network"));
    assert_true(v.by_node_count);
    assert_true(fabs(v.median_ape_pct_single_node - v.rows[0].ape_pct) < 1e-9);
    assert_true(fabs(v.median_ape_pct_multi_node - v.rows[1].ape_pct) < 1e-9);
    cf_validation_clear(&v);
}

static void malformed(void **state)
{
    cf_validation v;
    cf_error err;
    char buf[600];
    (void)state;
    memset(&v, 0, sizeof v);
    assert_int_equal(cf_validate_collectives(write_tmp(
                         "id,gpu,gpus_per_node,nodes,collective,busbw_GBps\n"
                         "a,H100-SXM,8,1,all_reduce,480\n"
                         "b,H100-SXM,eight,1,all_reduce,480\n"), &v, &err), CF_EPARSE);
    cf_error_format(&err, buf, sizeof buf);
    assert_non_null(strstr(buf, ":3:3: gpus_per_node"));
    unlink(tmp_path);
    assert_int_equal(v.n_rows, 0);
    assert_int_equal(cf_validate_collectives(write_tmp(
                         "id,gpu,gpus_per_node,nodes,collective,busbw_GBps\n"
                         "a,H999,8,1,all_reduce,480\n"), &v, &err), CF_EPARSE);
    assert_int_equal(err.line, 2);
    assert_int_equal(err.column, 2);
    assert_non_null(strstr(err.message, "H100-SXM"));    /* names the accepted GPUs */
    unlink(tmp_path);
    assert_int_equal(cf_validate_collectives(write_tmp("id,gpu,nodes\n"), &v, &err), CF_EPARSE);
    assert_int_equal(err.line, 1);
    assert_non_null(strstr(err.message, "gpus_per_node"));
    unlink(tmp_path);
    assert_int_equal(cf_validate_collectives("/nonexistent/x.csv", &v, &err), CF_EIO);
}

/* Every allocation failure is reported as CF_ENOMEM and leaks nothing
 * (the ASan build checks the leaks). */
static void allocation_failures(void **state)
{
    cf_validation v;
    cf_error err;
    long total;
    (void)state;
    memset(&v, 0, sizeof v);
    cf_gpu_count();     /* the GPU table is built once per process: build it first */
    write_tmp(good);
    cf_alloc_fail_after(-1);
    assert_int_equal(cf_validate_collectives(tmp_path, &v, &err), CF_OK);
    cf_validation_clear(&v);
    cf_alloc_fail_after(1L << 40);
    assert_int_equal(cf_validate_collectives(tmp_path, &v, &err), CF_OK);
    total = cf_alloc_count();
    cf_validation_clear(&v);
    for (long n = 0; n < total; n++) {
        cf_status st;
        cf_alloc_fail_after(n);
        st = cf_validate_collectives(tmp_path, &v, &err);
        cf_alloc_fail_after(-1);
        assert_true(st == CF_ENOMEM || st == CF_OK);
        if (st == CF_OK) cf_validation_clear(&v);
        else assert_int_equal(v.n_rows, 0);
    }
    unlink(tmp_path);
}

/* A time_us column (issue 9): a row that fills it is scored on time
 * (metric time_us, predicted = the model's time), the others on busbw; each
 * row carries its size class and network, and the medians by class and by
 * network are the medians of those rows' APEs. */
static void time_rows_and_classes(void **state)
{
    cf_validation v;
    cf_error err;
    json_t *j, *o;
    (void)state;
    memset(&v, 0, sizeof v);
    assert_int_equal(cf_validate_collectives(write_tmp(
        "id,gpu,gpus_per_node,nodes,intra_link,network,nics_per_node,nic_gbps,gdr,collective,algo,message_bytes,busbw_GBps,time_us\n"
        "t1,H100-SXM,8,2,nvswitch-nvlink4,ib-ndr,8,400,,all_reduce,auto,32,0.00,30.1\n"
        "t2,H100-SXM,8,2,nvswitch-nvlink4,efa,32,100,on,all_reduce,auto,16M,105.5,298.1\n"
        "t3,H100-SXM,8,1,nvswitch-nvlink4,none,0,0,na,all_reduce,auto,8G,478.9,\n"
        "t4,H100-SXM,8,2,nvswitch-nvlink4,efa,32,100,on,all_reduce,auto,8G,479.3,\n"), &v, &err), CF_OK);
    unlink(tmp_path);
    assert_int_equal(v.n_rows, 4);
    assert_string_equal(v.rows[0].metric, "time_us");
    assert_true(v.rows[0].measured == 30.1);
    {
        cf_fabric f;
        cf_coll_query q;
        cf_coll_result r;
        cf_fabric_init(&f);
        assert_int_equal(cf_fabric_set(&f, "gpu", "H100-SXM", NULL), CF_OK);
        assert_int_equal(cf_fabric_set(&f, "gpus_per_node", "8", NULL), CF_OK);
        assert_int_equal(cf_fabric_set(&f, "intra", "nvswitch-nvlink4", NULL), CF_OK);
        assert_int_equal(cf_fabric_set(&f, "network", "ib", NULL), CF_OK);
        assert_int_equal(cf_fabric_set(&f, "nics", "8", NULL), CF_OK);
        assert_int_equal(cf_fabric_set(&f, "nic_gbps", "400", NULL), CF_OK);
        cf_coll_query_init(&q);
        q.collective = CF_COLL_ALL_REDUCE;
        q.bytes = 32;
        q.nodes = 2;
        assert_int_equal(cf_collective_predict(&f, &q, &r, NULL), CF_OK);
        assert_true(fabs(v.rows[0].predicted - r.time_us) < 1e-9);
    }
    assert_string_equal(v.rows[2].metric, "busbw_GBps");
    assert_int_equal(v.rows[0].size_class, CF_VSIZE_SMALL);
    assert_int_equal(v.rows[1].size_class, CF_VSIZE_MID);
    assert_int_equal(v.rows[2].size_class, CF_VSIZE_LARGE);
    assert_int_equal(v.rows[0].network, CF_NET_IB);
    assert_int_equal(v.rows[2].network, CF_NET_NONE);
    assert_true(fabs(v.median_ape_pct_by_size[CF_VSIZE_SMALL] - v.rows[0].ape_pct) < 1e-9);
    assert_true(fabs(v.median_ape_pct_by_size[CF_VSIZE_LARGE] -
                     (v.rows[2].ape_pct + v.rows[3].ape_pct) / 2) < 1e-9);
    assert_true(fabs(v.median_ape_pct_by_network[CF_NET_EFA] -
                     (v.rows[1].ape_pct + v.rows[3].ape_pct) / 2) < 1e-9);
    assert_true(isnan(v.median_ape_pct_by_network[CF_NET_TCP]));
    j = cf_validation_to_json(&v);
    assert_non_null(j);
    o = json_object_get(j, "median_ape_pct_by_size");
    assert_true(json_is_number(json_object_get(o, "small")) && json_is_number(json_object_get(o, "mid")));
    o = json_object_get(j, "median_ape_pct_by_network");
    assert_true(json_is_number(json_object_get(o, "ib")) && json_is_number(json_object_get(o, "none")));
    assert_null(json_object_get(o, "tcp"));     /* no tcp row: no key */
    json_decref(j);
    cf_validation_clear(&v);
    /* An infinite APE (a measured 1e-307) is null in JSON, not a failure. */
    assert_int_equal(cf_validate_collectives(write_tmp(
        "id,gpu,gpus_per_node,nodes,intra_link,collective,busbw_GBps\n"
        "x,H100-SXM,8,1,nvswitch-nvlink4,all_reduce,1e-307\n"), &v, &err), CF_OK);
    unlink(tmp_path);
    assert_int_equal(v.n_rows, 1);
    assert_true(isinf(v.rows[0].ape_pct));
    j = cf_validation_to_json(&v);
    assert_non_null(j);
    assert_true(json_is_null(json_object_get(json_array_get(json_object_get(j, "rows"), 0), "ape_pct")));
    json_decref(j);
    cf_validation_clear(&v);
}

/* DESIGN §4.4 targets on the shared published rows: median APE <= 15 %
 * overall, single-node and multi-node; at most 10 % of rows skipped. */
static void shared_file_targets(void **state)
{
    char path[512];
    cf_validation v;
    cf_error err;
    (void)state;
    shared_path(path, sizeof path, "data/validation/collectives.csv");
    memset(&v, 0, sizeof v);
    assert_int_equal(cf_validate_collectives(path, &v, &err), CF_OK);
    assert_true(v.n_rows >= 30);
    assert_true(v.median_ape_pct <= 15.0);
    assert_true(v.median_ape_pct_single_node <= 15.0);
    assert_true(v.median_ape_pct_multi_node <= 15.0);
    assert_true(v.n_skipped * 10 <= v.n_rows + v.n_skipped);
    cf_validation_clear(&v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(median),
        cmocka_unit_test(reads_by_header),
        cmocka_unit_test(malformed),
        cmocka_unit_test(allocation_failures),
        cmocka_unit_test(shared_file_targets),
        cmocka_unit_test(time_rows_and_classes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
