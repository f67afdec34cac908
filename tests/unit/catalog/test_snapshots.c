/* test_snapshots.c — issue 22: the shipped price snapshots and the provider
 * table. A snapshot prices a mapped row that has no price and says so in
 * price_source; a row priced on its provider page within six months keeps
 * its price; a snapshot whose AcceleratorCount contradicts the mapped
 * offering, or whose price does not parse, refuses the rebuild with
 * FILE:LINE:COLUMN and leaves the catalog as it was; the provider table's
 * rating reaches every row and cf_catalog_provider_get, and a bad cell of
 * it is refused at its line and column. Inputs: tests/data/catalog-snapshot/
 * (two real rows) and the shipped data/prices/nebius/vms.csv. */
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

#define OFFERINGS "tests/data/catalog-snapshot/offerings.csv"
#define SNAPSHOT "data/prices/nebius/vms.csv"
#define COMMIT "22fd1feab9aa97a155f0f5a9d39351d9aa8ae9be"
#define H100_ROW "gpu-h100-sxm_8gpu-128vcpu-1600gb,H100,8,"

static const char providers_csv[] =
    "provider,multinode,orchestration,provisioning,rating_system,rating_tier,rating_date,"
    "rating_source,notes,source_url,as_of\n"
    "Nebius,yes,slurm;kubernetes,on-demand;reserved;sales-contact,ClusterMAX 2.0,Gold,"
    "2025-11-06,https://example.org/rating,a note,https://nebius.com/prices,2026-10-01\n";

static char db[64];

static cf_status open_with(const char *csv, size_t len, const char *snap, size_t snap_len,
                           const char *prov, cf_catalog **cat, cf_error *err)
{
    cf__snapshot s = {SNAPSHOT, snap, snap_len, "nebius", COMMIT, "2026-12-01"};
    return cf__catalog_open_full(db, "offerings.csv", csv, len, prov, prov ? strlen(prov) : 0,
                                 &s, 1, cat, err);
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

static void snapshot_prices_unpriced_row_only(void **state)
{
    size_t len, slen;
    char *csv = read_file(OFFERINGS, &len), *snap = read_file(SNAPSHOT, &slen);
    cf_catalog *cat = NULL;
    cf_error err;
    cf_offering *h100, *h200;
    (void)state;
    unlink(db);
    assert_int_equal(open_with(csv, len, snap, slen, providers_csv, &cat, &err), CF_OK);
    h100 = get(cat, "nebius-h100-cluster");
    /* 23.60 per 8-GPU node-hour in the snapshot's H100 row. */
    assert_float_equal(h100->price_on_demand_gpu_hr, 23.60 / 8, 1e-9);
    assert_float_equal(h100->price_spot_gpu_hr, 10.00 / 8, 1e-9);
    assert_string_equal(h100->price_as_of, "2026-12-01");
    assert_non_null(strstr(h100->price_source, "pipeline snapshot skypilot-catalog@22fd1feab9aa"));
    assert_string_equal(h100->provider_rating, "ClusterMAX 2.0 Gold, 2025-11-06");
    assert_string_equal(h100->provider_provisioning, "on-demand;reserved;sales-contact");
    h200 = get(cat, "nebius-h200-cluster");
    assert_float_equal(h200->price_on_demand_gpu_hr, 5.4, 1e-9); /* its page, 2026-10-01 */
    assert_string_equal(h200->price_source, "provider page");
    cf_offering_free(h100);
    cf_offering_free(h200);
    cf_catalog_close(cat);
    free(csv);
    free(snap);
}

/* A broken snapshot refuses the rebuild: the catalog keeps its rows. */
static void refused(const char *bad, size_t blen, const char *csv, size_t len, long line,
                    int col, const char *why)
{
    cf_catalog *cat = NULL;
    cf_error err;
    char where[160], want[160];
    cf_offering *o;
    char *changed = malloc(len + 1);
    assert_non_null(changed);
    memcpy(changed, csv, len + 1);
    memcpy(strstr(changed, "HGX H200 GPU cluster"), "HGX H200 GPU CLUSTER", 20);
    assert_int_equal(open_with(changed, len, bad, blen, providers_csv, &cat, &err), CF_EPARSE);
    assert_null(cat);
    snprintf(where, sizeof where, "%s:%ld:%ld", err.file ? err.file : "?", err.line, err.column);
    snprintf(want, sizeof want, "%s:%ld:%d", SNAPSHOT, line, col);
    if (strcmp(where, want) != 0 || !strstr(err.message, why))
        print_error("%s: %s (want %s, %s)\n", where, err.message, want, why);
    assert_string_equal(where, want);
    assert_non_null(strstr(err.message, why));
    /* Nothing half-applied: the stored rows are those of the last good build. */
    assert_int_equal(cf__catalog_open_full(db, "offerings.csv", csv, len, providers_csv,
                                           strlen(providers_csv), NULL, 0, &cat, &err), CF_OK);
    o = get(cat, "nebius-h200-cluster");
    assert_string_equal(o->offering, "HGX H200 GPU cluster");
    cf_offering_free(o);
    cf_catalog_close(cat);
    free(changed);
}

static void bad_snapshot_refused_whole(void **state)
{
    size_t len, slen;
    char *csv = read_file(OFFERINGS, &len), *snap = read_file(SNAPSHOT, &slen);
    long line = line_of(snap, H100_ROW);
    cf_catalog *cat = NULL;
    cf_error err;
    (void)state;
    unlink(db);
    assert_int_equal(open_with(csv, len, snap, slen, providers_csv, &cat, &err), CF_OK);
    cf_catalog_close(cat);
    /* The mapped 8-GPU node's row counting 4 accelerators. */
    strstr(snap, H100_ROW)[strlen(H100_ROW) - 2] = '4';
    refused(snap, slen, csv, len, line, 3, "contradicts offering 'nebius-h100-cluster'");
    strstr(snap, "gpu-h100-sxm_8gpu-128vcpu-1600gb,H100,4,")[strlen(H100_ROW) - 2] = '8';
    /* A price that is not a number, in column 6 (Price). */
    memcpy(strstr(snap, ",23.60,"), ",2x.60,", 7);
    refused(snap, slen, csv, len, line, 6, "Price: expected a non-negative price");
    free(csv);
    free(snap);
}

static void provider_table(void **state)
{
    size_t len, slen;
    char *csv = read_file(OFFERINGS, &len), *snap = read_file(SNAPSHOT, &slen);
    char bad[sizeof providers_csv + 8];
    cf_catalog *cat = NULL;
    cf_error err;
    json_t *f = NULL;
    char *p;
    (void)state;
    unlink(db);
    assert_int_equal(open_with(csv, len, snap, slen, providers_csv, &cat, &err), CF_OK);
    assert_int_equal(cf_catalog_provider_get(cat, "nebius", &f), CF_OK);
    assert_string_equal(json_string_value(json_object_get(json_object_get(f, "rating"), "tier")),
                        "Gold");
    assert_string_equal(json_string_value(json_array_get(json_object_get(f, "provisioning"), 2)),
                        "sales-contact");
    json_decref(f);
    assert_int_equal(cf_catalog_provider_get(cat, "Nowhere Cloud", &f), CF_ENOTFOUND);
    cf_catalog_close(cat);
    /* An unknown tier: refused at its line (2) and column (6). */
    snprintf(bad, sizeof bad, "%s", providers_csv);
    p = strstr(bad, ",Gold,");
    memcpy(p, ",Gild,", 6);
    unlink(db);
    assert_int_equal(open_with(csv, len, snap, slen, bad, &cat, &err), CF_EPARSE);
    assert_string_equal(err.file, "data/providers.csv");
    assert_int_equal(err.line, 2);
    assert_int_equal(err.column, 6);
    assert_non_null(strstr(err.message, "rating_tier"));
    free(csv);
    free(snap);
}

static void user_price_source(void **state)
{
    size_t len, slen;
    char *csv = read_file(OFFERINGS, &len), *snap = read_file(SNAPSHOT, &slen);
    cf_catalog *cat = NULL;
    cf_error err;
    cf_offering *o;
    char *mine = malloc(len + 1);
    size_t imported = 0;
    (void)state;
    assert_non_null(mine);
    memcpy(mine, csv, len + 1);
    unlink(db);
    assert_int_equal(open_with(csv, len, snap, slen, providers_csv, &cat, &err), CF_OK);
    assert_int_equal(cf_catalog_import(cat, "mine.csv", mine, len, CF_IMPORT_CSV, NULL, &imported, &err),
                     CF_OK);
    o = get(cat, "nebius-h200-cluster");
    assert_string_equal(o->price_source, "user import");
    cf_offering_free(o);
    cf_catalog_close(cat);
    free(mine);
    free(csv);
    free(snap);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(snapshot_prices_unpriced_row_only),
        cmocka_unit_test(bad_snapshot_refused_whole),
        cmocka_unit_test(provider_table),
        cmocka_unit_test(user_price_source),
    };
    int rc;
    snprintf(db, sizeof db, "/tmp/cf-snap-%ld.db", (long)getpid());
    rc = cmocka_run_group_tests(tests, NULL, NULL);
    unlink(db);
    return rc;
}
