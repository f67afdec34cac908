/* test_filter.c — filters of catalog/filter.c on the 8 rows of
 * tests/data/catalog-small.csv: multinode any (no filter, as the planner's
 * --multinode any), and what any is not accepted for. Bit i of a mask is
 * row i + 1 of the file; the rows' multinode values were read by hand:
 * yes for rows 1-4, no for rows 5 and 8, empty (unknown) for rows 6 and 7. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "../testutil.h"
#include <stdlib.h>
#include <string.h>
#include "clusterfit/clusterfit.h"

#define SMALL "tests/data/catalog-small.csv"

static unsigned matching(const cf_offering_list *l, const cf_filter *f)
{
    unsigned got = 0;
    for (size_t i = 0; i < l->n; i++)
        if (cf_offering_matches(&l->items[i], f)) got |= 1u << i;
    return got;
}

static void multinode_any_is_no_filter(void **state)
{
    size_t len;
    char *csv = read_file(SMALL, &len);
    cf_offering_list l;
    cf_filter f;
    cf_error err;
    (void)state;
    assert_int_equal(cf_offerings_parse(SMALL, csv, len, CF_IMPORT_CSV, NULL, &l, &err), CF_OK);
    assert_int_equal(l.n, 8);
    cf_filter_init(&f);
    assert_int_equal(cf_filter_set(&f, "multinode", "yes", &err), CF_OK);
    assert_int_equal(matching(&l, &f), 0x0f);
    assert_int_equal(cf_filter_set(&f, "multinode", "no", &err), CF_OK);
    assert_int_equal(matching(&l, &f), 0x90);
    /* any replaces an earlier yes or no: every row, unknown ones included. */
    assert_int_equal(cf_filter_set(&f, "--multinode", "any", &err), CF_OK);
    assert_int_equal(f.multinode, CF_CAP_UNKNOWN);
    assert_int_equal(matching(&l, &f), 0xff);
    assert_int_equal(cf_filter_set(&f, "multinode", "yes", &err), CF_OK);
    assert_int_equal(cf_filter_set(&f, "multinode", "ANY", &err), CF_OK);
    assert_int_equal(matching(&l, &f), 0xff);
    /* With another filter, any leaves only that one. */
    assert_int_equal(cf_filter_set(&f, "network", "roce", &err), CF_OK);
    assert_int_equal(matching(&l, &f), 0x44);
    cf_offering_list_clear(&l);
    free(csv);
}

static void any_only_for_multinode(void **state)
{
    cf_filter f;
    cf_error err;
    (void)state;
    cf_filter_init(&f);
    assert_int_equal(cf_filter_set(&f, "multinode", "maybe", &err), CF_EINVAL);
    assert_string_equal(err.message,
                        "multinode: expected one of yes, no, got \"maybe\" (or any for no filter)");
    assert_int_equal(cf_filter_set(&f, "multinode", "", &err), CF_EINVAL);
    assert_int_equal(cf_filter_set(&f, "gdr", "any", &err), CF_EINVAL);
    assert_string_equal(err.message, "gdr: expected one of yes, no, got \"any\"");
    assert_int_equal(cf_filter_set(&f, "rdma", "any", &err), CF_EINVAL);
    assert_int_equal(cf_filter_set(&f, "rdma", "yes", &err), CF_OK);
    assert_int_equal(f.rdma, CF_CAP_YES);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(multinode_any_is_no_filter),
        cmocka_unit_test(any_only_for_multinode),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
