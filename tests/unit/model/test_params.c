/* test_params.c — the model's inputs by name (cf_fabric_set,
 * cf_coll_query_set): what each accepts, the bounds of limits.h at their
 * edges, and the err->param and reason of each refusal; cf_error's param. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>
#include "clusterfit/clusterfit.h"

/* A refusal: CF_EINVAL, err->param, the reason holds `has`. */
static void refused(cf_status st, const cf_error *e, const char *param, const char *has)
{
    assert_int_equal(st, CF_EINVAL);
    assert_string_equal(e->param, param);
    if (!strstr(e->message, has)) fail_msg("'%s' lacks '%s'", e->message, has);
    /* The message names the parameter as a word, for front ends to respell. */
    if (*param && !strstr(e->message, param)) fail_msg("'%s' lacks the name '%s'", e->message, param);
}

static void error_param(void **state)
{
    cf_error e;
    (void)state;
    cf_error_set_param(&e, "gpus_per_node", "gpus_per_node %d is too many", 5000);
    assert_string_equal(e.param, "gpus_per_node");
    assert_string_equal(e.message, "gpus_per_node 5000 is too many");
    assert_null(e.file);
    /* A message about no one parameter clears it. */
    cf_error_set(&e, "f.csv", 2, 3, "bad");
    assert_string_equal(e.param, "");
    cf_error_set_param(&e, "a_name_much_longer_than_the_forty_bytes_a_param_holds", "x");
    assert_int_equal(strlen(e.param), CF_ERROR_PARAM_MAX - 1);
    cf_error_clear(&e);
    assert_string_equal(e.param, "");
    cf_error_set_param(NULL, "nodes", "x");     /* NULL-safe */
}

static void fabric_accepts(void **state)
{
    cf_fabric f;
    cf_error e;
    (void)state;
    cf_fabric_init(&f);
    assert_int_equal(f.intra_link, CF_INTRA_UNKNOWN);
    assert_int_equal(f.network, CF_NET_UNKNOWN);
    assert_int_equal(f.gdr, CF_GDR_UNKNOWN);
    assert_int_equal(f.gpus_per_node, 0);
    assert_int_equal(cf_fabric_set(&f, "gpu", "h100-sxm", &e), CF_OK);
    assert_string_equal(f.gpu, "H100-SXM");     /* the table's spelling */
    assert_int_equal(cf_fabric_set(&f, "gpus_per_node", "1", &e), CF_OK);
    assert_int_equal(cf_fabric_set(&f, "gpus_per_node", "4096", &e), CF_OK);
    assert_int_equal(f.gpus_per_node, CF_MAX_GPUS_PER_NODE);
    assert_int_equal(cf_fabric_set(&f, "intra", "nvswitch-nvlink4", &e), CF_OK);
    assert_int_equal(f.intra_link, CF_INTRA_NVSWITCH_NVLINK4);
    assert_int_equal(cf_fabric_set(&f, "network", "infiniband", &e), CF_OK);
    assert_int_equal(f.network, CF_NET_IB);
    assert_int_equal(cf_fabric_set(&f, "nics", "1", &e), CF_OK);
    assert_int_equal(cf_fabric_set(&f, "nics", "1024", &e), CF_OK);
    assert_int_equal(f.nics_per_node, CF_MAX_NICS_PER_NODE);
    assert_int_equal(cf_fabric_set(&f, "nic_gbps", "0.001", &e), CF_OK);
    assert_int_equal(cf_fabric_set(&f, "nic_gbps", "400", &e), CF_OK);
    assert_true(f.nic_gbps == 400);
    assert_int_equal(cf_fabric_set(&f, "gdr", "off", &e), CF_OK);
    assert_int_equal(f.gdr, CF_GDR_OFF);
    assert_int_equal(cf_fabric_set(&f, "gdr", "unknown", &e), CF_OK);
    assert_int_equal(f.gdr, CF_GDR_UNKNOWN);
}

static void fabric_refuses(void **state)
{
    cf_fabric f, before;
    cf_error e;
    (void)state;
    cf_fabric_init(&f);
    assert_int_equal(cf_fabric_set(&f, "gpus_per_node", "8", &e), CF_OK);
    before = f;
    refused(cf_fabric_set(&f, "gpus_per_node", "5000", &e), &e, "gpus_per_node",
            "gpus_per_node expects an integer from 1 to 4096, got '5000'");
    refused(cf_fabric_set(&f, "gpus_per_node", "0", &e), &e, "gpus_per_node", "got '0'");
    refused(cf_fabric_set(&f, "gpus_per_node", "8x", &e), &e, "gpus_per_node", "got '8x'");
    assert_memory_equal(&f, &before, sizeof f);     /* unchanged on error */
    refused(cf_fabric_set(&f, "nics", "0", &e), &e, "nics", "nics expects an integer from 1 to 1024, got '0'");
    refused(cf_fabric_set(&f, "nics", "1025", &e), &e, "nics", "got '1025'");
    refused(cf_fabric_set(&f, "nic_gbps", "0.0005", &e), &e, "nic_gbps",
            "nic_gbps expects a number from 0.001 to 1e+06 (Gbit/s per NIC), got '0.0005'");
    refused(cf_fabric_set(&f, "nic_gbps", "1100000", &e), &e, "nic_gbps", "got '1100000'");
    refused(cf_fabric_set(&f, "nic_gbps", "nan", &e), &e, "nic_gbps", "got 'nan'");
    refused(cf_fabric_set(&f, "gpu", "H100-SMX", &e), &e, "gpu", "unknown gpu 'H100-SMX' (accepted: ");
    assert_non_null(strstr(e.message, "H100-SXM"));
    refused(cf_fabric_set(&f, "intra", "unknown", &e), &e, "intra", "unknown intra 'unknown' (accepted: ");
    assert_null(strstr(e.message, "unknown)"));
    refused(cf_fabric_set(&f, "network", "carrier-pigeon", &e), &e, "network", "ib, roce, efa");
    refused(cf_fabric_set(&f, "network", "unknown", &e), &e, "network", "unknown network 'unknown'");
    refused(cf_fabric_set(&f, "gdr", "sometimes", &e), &e, "gdr", "on, off, partial, na");
    refused(cf_fabric_set(&f, "nics", "", &e), &e, "nics", "nics has no value");
    assert_memory_equal(&f, &before, sizeof f);
    /* An unknown name is not a parameter: param "", the accepted names. */
    refused(cf_fabric_set(&f, "colour", "red", &e), &e, "", "unknown fabric parameter 'colour' (accepted: gpu, ");
    refused(cf_fabric_set(&f, "gpu_", "", &e), &e, "", "fabric parameter 'gpu_' has no value");
    /* err may be NULL. */
    assert_int_equal(cf_fabric_set(&f, "nics", "0", NULL), CF_EINVAL);
}

static void query_set(void **state)
{
    cf_coll_query q;
    cf_error e;
    (void)state;
    cf_coll_query_init(&q);
    assert_int_equal(q.collective, CF_COLL_UNKNOWN);
    assert_int_equal(q.algo, CF_ALGO_AUTO);
    assert_int_equal(q.nodes, 0);
    assert_int_equal(cf_coll_query_set(&q, "collective", "all_reduce", &e), CF_OK);
    assert_int_equal(q.collective, CF_COLL_ALL_REDUCE);
    assert_int_equal(cf_coll_query_set(&q, "bytes", "512M", &e), CF_OK);
    assert_true(q.bytes == 512ULL << 20);
    assert_int_equal(cf_coll_query_set(&q, "bytes", "8GiB", &e), CF_OK);
    assert_true(q.bytes == 8ULL << 30);
    assert_int_equal(cf_coll_query_set(&q, "bytes", "1048576", &e), CF_OK);
    assert_true(q.bytes == 1048576);
    assert_int_equal(cf_coll_query_set(&q, "nodes", "1000000", &e), CF_OK);
    assert_int_equal(q.nodes, CF_MAX_NODES);
    assert_int_equal(cf_coll_query_set(&q, "ranks_per_node", "4096", &e), CF_OK);
    assert_int_equal(cf_coll_query_set(&q, "algo", "nvlstree", &e), CF_OK);
    assert_int_equal(q.algo, CF_ALGO_NVLSTREE);
    refused(cf_coll_query_set(&q, "collective", "allreduce", &e), &e, "collective",
            "unknown collective 'allreduce' (accepted: all_reduce");
    assert_null(strstr(e.message, "unknown)"));
    refused(cf_coll_query_set(&q, "bytes", "lots", &e), &e, "bytes",
            "bytes expects a size such as 1048576, 512M or 8G");
    refused(cf_coll_query_set(&q, "bytes", "0", &e), &e, "bytes", "got '0'");
    /* The size parser's bound: 2^50 bytes = 1024T. */
    assert_int_equal(cf_coll_query_set(&q, "bytes", "1024T", &e), CF_OK);
    assert_true((double)q.bytes == CF_MAX_MESSAGE_BYTES);
    refused(cf_coll_query_set(&q, "bytes", "1025T", &e), &e, "bytes", "got '1025T'");
    refused(cf_coll_query_set(&q, "nodes", "0", &e), &e, "nodes",
            "nodes expects an integer from 1 to 1000000, got '0'");
    refused(cf_coll_query_set(&q, "nodes", "1000001", &e), &e, "nodes", "got '1000001'");
    refused(cf_coll_query_set(&q, "ranks_per_node", "4097", &e), &e, "ranks_per_node",
            "ranks_per_node expects an integer from 1 to 4096, got '4097'");
    refused(cf_coll_query_set(&q, "algo", "fastest", &e), &e, "algo",
            "unknown algo 'fastest' (accepted: auto, ring, tree, nvls, nvlstree, collnet)");
    refused(cf_coll_query_set(&q, "size", "8G", &e), &e, "", "unknown query parameter 'size' (accepted: collective, ");
    /* Refusals leave the query as it was. */
    assert_int_equal(q.collective, CF_COLL_ALL_REDUCE);
    assert_int_equal(q.nodes, CF_MAX_NODES);
    assert_int_equal(q.algo, CF_ALGO_NVLSTREE);
    assert_true((double)q.bytes == CF_MAX_MESSAGE_BYTES);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(error_param),
        cmocka_unit_test(fabric_accepts),
        cmocka_unit_test(fabric_refuses),
        cmocka_unit_test(query_set),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
