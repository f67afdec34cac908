/* test_params.c — the model's inputs by name (cf_fabric_set,
 * cf_coll_query_set, cf_layout_set) and the lists of their names: what each
 * accepts, the bounds of limits.h at their
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
    assert_int_equal(cf_fabric_set(&f, "gpus_per_node", "576", &e), CF_OK);
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
    assert_int_equal(f.non_blocking, CF_CAP_UNKNOWN);
    assert_int_equal(cf_fabric_set(&f, "non_blocking", "yes", &e), CF_OK);
    assert_int_equal(f.non_blocking, CF_CAP_YES);
    assert_int_equal(f.rail_optimized, CF_CAP_UNKNOWN);
    assert_int_equal(cf_fabric_set(&f, "rail_optimized", "no", &e), CF_OK);
    assert_int_equal(f.rail_optimized, CF_CAP_NO);
    assert_int_equal(f.non_blocking, CF_CAP_YES);
    assert_int_equal(cf_fabric_set(&f, "non_blocking", "unknown", &e), CF_OK);
    assert_int_equal(f.non_blocking, CF_CAP_UNKNOWN);
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
            "gpus_per_node expects an integer from 1 to 576, got '5000'");
    refused(cf_fabric_set(&f, "gpus_per_node", "0", &e), &e, "gpus_per_node", "got '0'");
    refused(cf_fabric_set(&f, "gpus_per_node", "8x", &e), &e, "gpus_per_node", "got '8x'");
    assert_memory_equal(&f, &before, sizeof f);     /* unchanged on error */
    refused(cf_fabric_set(&f, "nics", "0", &e), &e, "nics", "nics expects an integer from 1 to 1024, got '0'");
    refused(cf_fabric_set(&f, "nics", "1025", &e), &e, "nics", "got '1025'");
    refused(cf_fabric_set(&f, "nic_gbps", "0.0005", &e), &e, "nic_gbps",
            "nic_gbps expects a number from 0.001 to 1e+06 (Gbit/s per NIC), got '0.0005'");
    refused(cf_fabric_set(&f, "nic_gbps", "1100000", &e), &e, "nic_gbps", "got '1100000'");
    refused(cf_fabric_set(&f, "nic_gbps", "nan", &e), &e, "nic_gbps", "got 'nan'");
    refused(cf_fabric_set(&f, "gpu", "H100-SMX", &e), &e, "gpu", "unknown gpu 'H100-SMX'; did you mean H100-SXM? (accepted: ");
    assert_non_null(strstr(e.message, "H100-SXM"));
    refused(cf_fabric_set(&f, "intra", "unknown", &e), &e, "intra", "unknown intra 'unknown' (accepted: ");
    assert_null(strstr(e.message, "unknown)"));
    refused(cf_fabric_set(&f, "network", "carrier-pigeon", &e), &e, "network", "ib, roce, efa");
    refused(cf_fabric_set(&f, "network", "unknown", &e), &e, "network", "unknown network 'unknown'");
    refused(cf_fabric_set(&f, "gdr", "sometimes", &e), &e, "gdr", "on, off, partial, na");
    refused(cf_fabric_set(&f, "nics", "", &e), &e, "nics", "nics has no value");
    refused(cf_fabric_set(&f, "non_blocking", "maybe", &e), &e, "non_blocking",
            "unknown non_blocking 'maybe' (accepted: no, yes, unknown)");
    refused(cf_fabric_set(&f, "rail_optimized", "2", &e), &e, "rail_optimized", "no, yes, unknown");
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
    assert_int_equal(cf_coll_query_set(&q, "ranks_per_node", "576", &e), CF_OK);
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
    refused(cf_coll_query_set(&q, "ranks_per_node", "577", &e), &e, "ranks_per_node",
            "ranks_per_node expects an integer from 1 to 576, got '577'");
    refused(cf_coll_query_set(&q, "algo", "fastest", &e), &e, "algo",
            "unknown algo 'fastest' (accepted: auto, ring, tree, nvls, nvlstree, collnet)");
    refused(cf_coll_query_set(&q, "size", "8G", &e), &e, "", "unknown query parameter 'size' (accepted: collective, ");
    /* Refusals leave the query as it was. */
    assert_int_equal(q.collective, CF_COLL_ALL_REDUCE);
    assert_int_equal(q.nodes, CF_MAX_NODES);
    assert_int_equal(q.algo, CF_ALGO_NVLSTREE);
    assert_true((double)q.bytes == CF_MAX_MESSAGE_BYTES);
}

static void layout_set(void **state)
{
    cf_layout l, before;
    cf_error e;
    (void)state;
    cf_layout_init(&l);
    /* The bounds of limits.h, each at its edge. */
    assert_int_equal(cf_layout_set(&l, "tp", "4096", &e), CF_OK);
    assert_int_equal(l.tp, CF_MAX_LAYOUT_DEGREE);
    assert_int_equal(cf_layout_set(&l, "pp", "4096", &e), CF_OK);
    assert_int_equal(l.pp, 4096);
    assert_int_equal(cf_layout_set(&l, "cp", "4096", &e), CF_OK);
    assert_int_equal(l.cp, 4096);
    assert_int_equal(cf_layout_set(&l, "dp", "1048576", &e), CF_OK);
    assert_int_equal(l.dp, CF_MAX_DP);
    assert_int_equal(cf_layout_set(&l, "vp", "1024", &e), CF_OK);
    assert_int_equal(l.vp, CF_MAX_VP);
    assert_int_equal(cf_layout_set(&l, "micro_batch", "65536", &e), CF_OK);
    assert_int_equal(l.micro_batch, CF_MAX_MICRO_BATCH);
    assert_int_equal(cf_layout_set(&l, "zero", "3", &e), CF_OK);
    assert_int_equal(l.zero, CF_MAX_ZERO_STAGE);
    assert_int_equal(cf_layout_set(&l, "zero", "0", &e), CF_OK);
    assert_int_equal(l.zero, 0);
    assert_int_equal(cf_layout_set(&l, "tp", "1", &e), CF_OK);
    assert_int_equal(l.tp, 1);
    assert_int_equal(cf_layout_set(&l, "recompute", "FULL", &e), CF_OK);
    assert_int_equal(l.recompute, CF_RECOMPUTE_FULL);
    assert_int_equal(cf_layout_set(&l, "recompute", "selective", &e), CF_OK);
    assert_int_equal(l.recompute, CF_RECOMPUTE_SELECTIVE);
    assert_int_equal(l.sequence_parallel, 1);
    assert_int_equal(cf_layout_set(&l, "sequence_parallel", "no", &e), CF_OK);
    assert_int_equal(l.sequence_parallel, 0);
    assert_int_equal(l.tp_comm_overlap, 0);
    assert_int_equal(cf_layout_set(&l, "tp_overlap", "yes", &e), CF_OK);
    assert_int_equal(l.tp_comm_overlap, 1);

    before = l;
    refused(cf_layout_set(&l, "tp", "4097", &e), &e, "tp", "tp expects an integer from 1 to 4096, got '4097'");
    refused(cf_layout_set(&l, "pp", "0", &e), &e, "pp", "pp expects an integer from 1 to 4096, got '0'");
    refused(cf_layout_set(&l, "cp", "2x", &e), &e, "cp", "got '2x'");
    refused(cf_layout_set(&l, "dp", "1048577", &e), &e, "dp",
            "dp expects an integer from 1 to 1048576, got '1048577'");
    refused(cf_layout_set(&l, "vp", "1025", &e), &e, "vp", "vp expects an integer from 1 to 1024, got '1025'");
    refused(cf_layout_set(&l, "micro_batch", "65537", &e), &e, "micro_batch",
            "micro_batch expects an integer from 1 to 65536, got '65537'");
    refused(cf_layout_set(&l, "zero", "4", &e), &e, "zero", "zero expects an integer from 0 to 3, got '4'");
    refused(cf_layout_set(&l, "zero", "-1", &e), &e, "zero", "got '-1'");
    refused(cf_layout_set(&l, "recompute", "some", &e), &e, "recompute",
            "unknown recompute 'some' (accepted: none, selective, full)");
    /* "unknown" is a recompute word, not one a layout may state. */
    refused(cf_layout_set(&l, "recompute", "unknown", &e), &e, "recompute", "(accepted: none, selective, full)");
    refused(cf_layout_set(&l, "sequence_parallel", "maybe", &e), &e, "sequence_parallel",
            "sequence_parallel expects yes or no, got 'maybe'");
    refused(cf_layout_set(&l, "tp_overlap", "unknown", &e), &e, "tp_overlap", "expects yes or no");
    refused(cf_layout_set(&l, "dp", "", &e), &e, "dp", "dp has no value");
    refused(cf_layout_set(&l, "dp", NULL, &e), &e, "dp", "dp has no value");
    assert_memory_equal(&l, &before, sizeof l);     /* unchanged on error */
    refused(cf_layout_set(&l, "eep", "8", &e), &e, "",
            "unknown layout parameter 'eep' (accepted: tp, pp, dp, cp, vp, micro_batch, zero, recompute, "
            "sequence_parallel, tp_overlap, ep, etp)");
    refused(cf_layout_set(&l, "eep", "", &e), &e, "", "layout parameter 'eep' has no value");
    /* ep and etp: degrees of 1..CF_MAX_LAYOUT_DEGREE like tp */
    refused(cf_layout_set(&l, "ep", "0", &e), &e, "ep", "ep expects");
    refused(cf_layout_set(&l, "etp", "5000", &e), &e, "etp", "etp expects");
    assert_memory_equal(&l, &before, sizeof l);
    assert_int_equal(cf_layout_set(&l, "ep", "64", &e), CF_OK);
    assert_int_equal(l.ep, 64);
    assert_int_equal(cf_layout_set(&l, "etp", "2", &e), CF_OK);
    assert_int_equal(l.etp, 2);
    l = before;
    refused(cf_layout_set(NULL, "tp", "1", &e), &e, "", "no layout");
    assert_int_equal(cf_layout_set(&l, "tp", "0", NULL), CF_EINVAL);
    assert_memory_equal(&l, &before, sizeof l);
}

/* One setter over a fresh object: cf_fabric_set, cf_coll_query_set, cf_layout_set. */
typedef cf_status (*setter)(const char *name, const char *value, cf_error *e);

static cf_status fabric_setter(const char *name, const char *value, cf_error *e)
{
    cf_fabric f;
    cf_fabric_init(&f);
    return cf_fabric_set(&f, name, value, e);
}

static cf_status query_setter(const char *name, const char *value, cf_error *e)
{
    cf_coll_query q;
    cf_coll_query_init(&q);
    return cf_coll_query_set(&q, name, value, e);
}

static cf_status layout_setter(const char *name, const char *value, cf_error *e)
{
    cf_layout l;
    cf_layout_init(&l);
    return cf_layout_set(&l, name, value, e);
}

/* Every listed name is one its setter takes (an empty value is that
 * name's "has no value", param set), in the documented order, and the
 * setter names exactly this list for an unknown name. */
static void check_list(const char *const *names, const char *const *want, const char *accepted, setter set)
{
    size_t i;
    cf_error e;
    for (i = 0; names[i] && want[i]; i++) {
        assert_string_equal(names[i], want[i]);
        assert_int_equal(set(names[i], "", &e), CF_EINVAL);
        assert_string_equal(e.param, names[i]);
        assert_non_null(strstr(e.message, "has no value"));
    }
    assert_null(names[i]);
    assert_null(want[i]);
    assert_int_equal(set("no_such_name", "1", &e), CF_EINVAL);
    assert_string_equal(e.param, "");
    if (!strstr(e.message, accepted)) fail_msg("'%s' lacks '%s'", e.message, accepted);
}

static void param_names(void **state)
{
    static const char *const fabric[] = {"gpu", "gpus_per_node", "intra", "network", "nics",
                                         "nic_gbps", "gdr", "non_blocking", "rail_optimized", NULL};
    static const char *const query[] = {"collective", "bytes", "nodes", "ranks_per_node", "algo", NULL};
    static const char *const layout[] = {"tp", "pp", "dp", "cp", "vp", "micro_batch", "zero",
                                         "recompute", "sequence_parallel", "tp_overlap", "ep", "etp", NULL};
    (void)state;
    check_list(cf_fabric_param_names(), fabric,
               "(accepted: gpu, gpus_per_node, intra, network, nics, nic_gbps, gdr, "
               "non_blocking, rail_optimized)", fabric_setter);
    check_list(cf_coll_query_param_names(), query,
               "(accepted: collective, bytes, nodes, ranks_per_node, algo)", query_setter);
    check_list(cf_layout_param_names(), layout,
               "(accepted: tp, pp, dp, cp, vp, micro_batch, zero, recompute, sequence_parallel, "
               "tp_overlap, ep, etp)", layout_setter);
    /* Static storage: the same list every call. */
    assert_ptr_equal(cf_fabric_param_names(), cf_fabric_param_names());
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(error_param),
        cmocka_unit_test(fabric_accepts),
        cmocka_unit_test(fabric_refuses),
        cmocka_unit_test(query_set),
        cmocka_unit_test(layout_set),
        cmocka_unit_test(param_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
