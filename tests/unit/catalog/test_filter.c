/* test_filter.c — filters and sort keys of catalog/filter.c (and ages in
 * days) on the 8 rows of tests/data/catalog-small.csv: every filter,
 * multinode any (no filter, as the planner's --multinode any), and
 * what any is not accepted for. Bit i of a mask is row i + 1 of the file;
 * the rows' multinode values were read by hand: yes for rows 1-4, no for
 * rows 5 and 8, empty (unknown) for rows 6 and 7. */
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

static void filters(void **state)
{
    size_t len;
    char *csv = read_file(SMALL, &len);
    cf_offering_list l;
    cf_filter f;
    cf_error err;
    unsigned got;
    (void)state;
    assert_int_equal(cf_offerings_parse(SMALL, csv, len, CF_IMPORT_CSV, NULL, &l, &err), CF_OK);
    /* Bit i = row i + 1 of catalog-small.csv. */
    cf_filter_init(&f);
    assert_int_equal(cf_filter_set(&f, "--network", "infiniband", &err), CF_OK);
    assert_int_equal(cf_filter_set(&f, "gdr", "yes", &err), CF_OK);
    got = 0;
    for (size_t i = 0; i < l.n; i++) if (cf_offering_matches(&l.items[i], &f)) got |= 1u << i;
    assert_int_equal(got, 0x03); /* testa-h100-ib, testa-a100-ib-eur; testc-h100-unknown has gdr unknown */
    cf_filter_init(&f);
    assert_int_equal(cf_filter_set(&f, "max_price", "2.5", &err), CF_OK);
    got = 0;
    for (size_t i = 0; i < l.n; i++) if (cf_offering_matches(&l.items[i], &f)) got |= 1u << i;
    assert_int_equal(got, 0x01 | 0x10 | 0x80); /* USD by default: 2.49, 0.99, 1.50 */
    assert_int_equal(cf_filter_set(&f, "currency", "eur", &err), CF_OK);
    got = 0;
    for (size_t i = 0; i < l.n; i++) if (cf_offering_matches(&l.items[i], &f)) got |= 1u << i;
    assert_int_equal(got, 0x02 | 0x40); /* 1.80 and 2.10 EUR */
    assert_int_equal(cf_filter_set(&f, "max-price", "2", &err), CF_OK);
    got = 0;
    for (size_t i = 0; i < l.n; i++) if (cf_offering_matches(&l.items[i], &f)) got |= 1u << i;
    assert_int_equal(got, 0x02); /* 1.80 EUR; 2.10 EUR is over */
    cf_filter_init(&f);
    assert_int_equal(cf_filter_set(&f, "orchestration", "slurm,kubernetes", &err), CF_OK);
    got = 0;
    for (size_t i = 0; i < l.n; i++) if (cf_offering_matches(&l.items[i], &f)) got |= 1u << i;
    assert_int_equal(got, 0x01);
    cf_filter_init(&f);
    assert_int_equal(cf_filter_set(&f, "storage", "yes", &err), CF_OK);
    got = 0;
    for (size_t i = 0; i < l.n; i++) if (cf_offering_matches(&l.items[i], &f)) got |= 1u << i;
    assert_int_equal(got, 0x01 | 0x02 | 0x04 | 0x08 | 0x40); /* none and unknown excluded */
    /* Bad values name the accepted ones. */
    assert_int_equal(cf_filter_set(&f, "--network", "ethernet", &err), CF_EINVAL);
    assert_non_null(strstr(err.message, "--network: expected one of ib, roce, efa, tcpx, tcpxo, tcp, rdma, none"));
    assert_int_equal(cf_filter_set(&f, "--multinode", "perhaps", &err), CF_EINVAL);
    assert_non_null(strstr(err.message, "expected one of yes, no, got \"perhaps\""));
    assert_int_equal(cf_filter_set(&f, "--provisioning", "monthly", &err), CF_EINVAL);
    assert_non_null(strstr(err.message, "on-demand, spot, reserved, waitlist"));
    assert_int_equal(cf_filter_set(&f, "--min-gbps", "-1", &err), CF_EINVAL);
    assert_int_equal(cf_filter_set(&f, "--colour", "red", &err), CF_EINVAL);
    cf_offering_list_clear(&l);
    free(csv);
}

static void sorts_and_ages(void **state)
{
    cf_sort s;
    long d;
    (void)state;
    assert_int_equal(cf_sort_parse("max-cluster", &s), CF_OK);
    assert_int_equal(s, CF_SORT_MAX_CLUSTER);
    assert_int_equal(cf_sort_parse("as_of", &s), CF_OK);
    assert_int_equal(s, CF_SORT_AS_OF);
    assert_int_equal(cf_sort_parse("cost", &s), CF_EINVAL);
    assert_string_equal(cf_sort_name(CF_SORT_GBPS), "gbps");
    /* Aug 1 -> Nov 30 2026: 31 + 30 + 31 + 29 days. */
    assert_int_equal(cf_age_days("2026-08", "2026-11-30", &d), CF_OK);
    assert_int_equal(d, 121);
    assert_int_equal(cf_age_days("2025-11-30", "2026-11-30", &d), CF_OK);
    assert_int_equal(d, 365);
    assert_int_equal(cf_age_days("2024-02-28", "2024-03-01", &d), CF_OK);
    assert_int_equal(d, 2); /* 2024 is a leap year */
    assert_int_equal(cf_age_days("2026-12-01", "2026-11-30", &d), CF_OK);
    assert_int_equal(d, -1);
    assert_int_equal(cf_age_days("2026-08", "2026-11", &d), CF_EINVAL);
    assert_int_equal(cf_age_days("2026-02-30", "2026-11-30", &d), CF_EINVAL);
}

/* `--stale`: months back from today, the day clamped to the month's end;
 * price_as_of before as_of; YYYY-MM as its 1st. */
static void stale_cutoff_and_filter(void **state)
{
    char out[CF_DATE_SIZE];
    cf_offering o;
    cf_filter f;
    cf_error err;
    (void)state;
    assert_int_equal(cf_catalog_stale_cutoff("2026-12-01", 6, out), CF_OK);
    assert_string_equal(out, "2026-06-01");
    assert_int_equal(cf_catalog_stale_cutoff("2026-08-31", 6, out), CF_OK);
    assert_string_equal(out, "2026-02-28");
    assert_int_equal(cf_catalog_stale_cutoff("2024-08-31", 6, out), CF_OK);
    assert_string_equal(out, "2024-02-29"); /* leap year */
    assert_int_equal(cf_catalog_stale_cutoff("2026-01-15", 1, out), CF_OK);
    assert_string_equal(out, "2025-12-15");
    assert_int_equal(cf_catalog_stale_cutoff("2026-03-31", 25, out), CF_OK);
    assert_string_equal(out, "2024-02-29");
    assert_int_equal(cf_catalog_stale_cutoff("2026-12", 6, out), CF_EINVAL);
    assert_string_equal(out, "");
    assert_int_equal(cf_catalog_stale_cutoff("2026-12-01", -1, out), CF_EINVAL);
    assert_int_equal(cf_catalog_stale_cutoff("2026-12-01", CF_MAX_STALE_MONTHS + 1, out), CF_EINVAL);
    assert_int_equal(cf_catalog_stale_cutoff("1900-03-01", 3, out), CF_EINVAL);
    memset(&o, 0, sizeof o);
    o.as_of = "2026-05";
    assert_int_equal(cf_offering_stale(&o, "2026-05-01"), 0);
    assert_int_equal(cf_offering_stale(&o, "2026-05-02"), 1);
    o.price_as_of = "2026-11-20"; /* the prices' date wins */
    assert_int_equal(cf_offering_stale(&o, "2026-06-01"), 0);
    assert_int_equal(cf_offering_stale(NULL, "2026-06-01"), 0);
    cf_filter_init(&f);
    assert_int_equal(cf_filter_set(&f, "stale", "6", &err), CF_OK);
    assert_int_equal(f.stale_months, 6);
    assert_int_equal(cf_offering_matches(&o, &f), 0); /* no today: nothing passes */
    f.today = "2027-06-01";
    assert_int_equal(cf_offering_matches(&o, &f), 1); /* 2026-11-20 < 2026-12-01 */
    f.today = "2027-05-20";
    assert_int_equal(cf_offering_matches(&o, &f), 0); /* cutoff 2026-11-20: not before */
    assert_int_equal(cf_filter_set(&f, "stale", "0", &err), CF_EINVAL);
    assert_non_null(strstr(err.message, "a whole number of months from 1 to 1200"));
    assert_int_equal(cf_filter_set(&f, "stale", "-3", &err), CF_EINVAL);
    assert_int_equal(cf_filter_set(&f, "stale", "", &err), CF_EINVAL);
    assert_int_equal(f.stale_months, 6); /* unchanged on error */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(stale_cutoff_and_filter),
        cmocka_unit_test(filters),
        cmocka_unit_test(sorts_and_ages),
        cmocka_unit_test(multinode_any_is_no_filter),
        cmocka_unit_test(any_only_for_multinode),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
