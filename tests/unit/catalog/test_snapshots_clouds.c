/* test_snapshots_clouds.c — issue 22 item 2, the second pipeline pass: the
 * shipped snapshots of Cudo and Hyperstack price their mapped rows through
 * data/skypilot-map.csv (Hyperstack's own accelerator names included); a
 * mapped Hyperstack flavor whose AcceleratorCount contradicts its offering
 * refuses the rebuild at data/prices/hyperstack/vms.csv:LINE:3, while a
 * Shadeform resale row the map lists without an offering prices nothing and
 * is not checked. Inputs: tests/data/catalog-snapshot/offerings-clouds.csv
 * (two real rows, README.md) and the shipped data/prices/ files. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "../testutil.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "clusterfit/clusterfit.h"
#include "catalog/catalog_int.h"

#define OFFERINGS "tests/data/catalog-snapshot/offerings-clouds.csv"
#define CUDO "data/prices/cudo/vms.csv"
#define HYPERSTACK "data/prices/hyperstack/vms.csv"
#define SHADEFORM "data/prices/shadeform/vms.csv"
#define SXM_ROW "n3-H100-SXM5x8,H100-80G-SXM5,8,"

static char db[64];

/* Opens the catalog of OFFERINGS with the three snapshots as given. */
static cf_status open_with(const char *cudo, size_t clen, const char *hs, size_t hlen,
                           const char *sf, size_t slen, cf_catalog **cat, cf_error *err)
{
    size_t len;
    char *csv = read_file(OFFERINGS, &len);
    cf__snapshot s[3] = {
        {CUDO, cudo, clen, "cudo", "16f33dd5f241850aaba3ac8aa1050e8ca7db4a7f", "2026-12-02"},
        {HYPERSTACK, hs, hlen, "hyperstack", "fdc9d908ab0b2af9f468f139fb3f662c8c6b3257",
         "2026-12-02"},
        {SHADEFORM, sf, slen, "shadeform", "1e84987d744bbba993baf5e536fc58f014ac94a7",
         "2026-12-02"},
    };
    cf_status st;
    unlink(db);
    st = cf__catalog_open_full(db, "offerings.csv", csv, len, NULL, 0, s, 3, cat, err);
    free(csv);
    return st;
}

static cf_offering *get(cf_catalog *cat, const char *id)
{
    cf_offering *o = NULL;
    assert_int_equal(cf_catalog_get(cat, id, &o), CF_OK);
    return o;
}

/* The 1-based line of the first occurrence of needle in text. */
static long line_of(const char *text, const char *needle)
{
    const char *at = strstr(text, needle);
    long line = 1;
    assert_non_null(at);
    for (const char *p = text; p < at; p++) line += *p == '\n';
    return line;
}

static void new_clouds_price_their_rows(void **state)
{
    size_t cl, hl, sl;
    char *cudo = read_file(CUDO, &cl), *hs = read_file(HYPERSTACK, &hl);
    char *sf = read_file(SHADEFORM, &sl);
    cf_catalog *cat = NULL;
    cf_error err;
    cf_offering *o;
    (void)state;
    assert_int_equal(open_with(cudo, cl, hs, hl, sf, sl, &cat, &err), CF_OK);
    /* cudo-l40s had no price: the L40S VM row, 0.8994 for one GPU. */
    o = get(cat, "cudo-l40s");
    assert_float_equal(o->price_on_demand_gpu_hr, 0.8994, 1e-9);
    assert_non_null(strstr(o->price_source, "pipeline snapshot skypilot-catalog@16f33dd5f241 "
                                            "(cudo epyc-genoa-l40s-compute_1x2v4gb, au-melbourne-1"));
    cf_offering_free(o);
    /* The copy of hyperstack-h100-sxm without its page price: 19.20 per
     * 8-GPU flavor-hour in Hyperstack's own file, through the accelerator
     * name H100-80G-SXM5 the map gives. */
    o = get(cat, "hyperstack-h100-sxm");
    assert_float_equal(o->price_on_demand_gpu_hr, 19.2 / 8, 1e-9);
    assert_non_null(strstr(o->price_source, "skypilot-catalog@fdc9d908ab0b (hyperstack n3-H100-SXM5x8"));
    assert_string_equal(o->price_as_of, "2026-12-02");
    cf_offering_free(o);
    cf_catalog_close(cat);
    free(cudo);
    free(hs);
    free(sf);
}

static void contradicting_count_refused(void **state)
{
    size_t cl, hl, sl;
    char *cudo = read_file(CUDO, &cl), *hs = read_file(HYPERSTACK, &hl);
    char *sf = read_file(SHADEFORM, &sl);
    long line = line_of(hs, SXM_ROW);
    cf_catalog *cat = NULL;
    cf_error err;
    (void)state;
    /* Shadeform's resale of the same flavor counting 4: listed in the map
     * without an offering, so it prices and contradicts nothing. */
    memcpy(strstr(sf, "hyperstack_H100-sxm5x8,H100,8.0,") + strlen("hyperstack_H100-sxm5x8,H100,"),
           "4", 1);
    assert_int_equal(open_with(cudo, cl, hs, hl, sf, sl, &cat, &err), CF_OK);
    cf_catalog_close(cat);
    /* Hyperstack's own mapped flavor counting 4: the rebuild is refused. */
    strstr(hs, SXM_ROW)[strlen(SXM_ROW) - 2] = '4';
    assert_int_equal(open_with(cudo, cl, hs, hl, sf, sl, &cat, &err), CF_EPARSE);
    assert_null(cat);
    assert_string_equal(err.file, HYPERSTACK);
    assert_int_equal(err.line, line);
    assert_int_equal(err.column, 3);
    assert_non_null(strstr(err.message, "contradicts offering 'hyperstack-h100-sxm'"));
    free(cudo);
    free(hs);
    free(sf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(new_clouds_price_their_rows),
        cmocka_unit_test(contradicting_count_refused),
    };
    int rc;
    snprintf(db, sizeof db, "/tmp/cf-snapc-%ld.db", (long)getpid());
    rc = cmocka_run_group_tests(tests, NULL, NULL);
    unlink(db);
    return rc;
}
