/* test_release.c — catalog release files (release.h, issue 26): a release
 * replaces the shipped rows and stays when the library's shipped data
 * changes; going back restores the built-in rows (the embedded
 * data/offerings.csv), after which a new shipped catalog rebuilds again;
 * cf_catalog_info says which; an allocation failure anywhere in an install
 * or a removal leaves the catalog as it was; a bad row is refused at the
 * file's own line. Also cf_version and cf_model_constants_version. The
 * shipped catalog here is tests/data/catalog-small.csv (8 rows). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "../testutil.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sqlite3.h>
#include "clusterfit/clusterfit.h"
#include "catalog/catalog_int.h" /* cf__catalog_open_shipped, cf__embedded_find */

#define SMALL "tests/data/catalog-small.csv"
#define HEAD "#clusterfit-catalog date=2026-11-29 source=https://example.org/r.csv\n"

static char dir[64], db[128];
static char *small, *release;
static size_t small_len;

static int setup(void **state)
{
    const char *p;
    size_t n;
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/cf-release-XXXXXX");
    if (!mkdtemp(dir)) return -1;
    snprintf(db, sizeof db, "%s/catalog.db", dir);
    small = read_file(SMALL, &small_len);
    /* The release: HEAD, the header row and the first two rows (one line each). */
    p = strchr(strchr(strchr(small, '\n') + 1, '\n') + 1, '\n') + 1;
    n = (size_t)(p - small);
    release = malloc(sizeof HEAD + n);
    memcpy(release, HEAD, sizeof HEAD - 1);
    memcpy(release + sizeof HEAD - 1, small, n);
    release[sizeof HEAD - 1 + n] = '\0';
    return 0;
}

static int teardown(void **state)
{
    char cmd[160];
    (void)state;
    free(small);
    free(release);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static cf_catalog *open_with(const char *csv, size_t len)
{
    cf_catalog *cat = NULL;
    cf_error err;
    cf_status st = cf__catalog_open_shipped(db, "small.csv", csv, len, &cat, &err);
    if (st != CF_OK) print_error("open: %s\n", err.message);
    assert_int_equal(st, CF_OK);
    return cat;
}

static size_t shipped_rows(cf_catalog *cat)
{
    cf_offering_list l;
    size_t n = 0;
    assert_int_equal(cf_catalog_query(cat, NULL, CF_SORT_PROVIDER, &l), CF_OK);
    for (size_t i = 0; i < l.n; i++) n += !l.items[i].user_row;
    cf_offering_list_clear(&l);
    return n;
}

static const char *info_str(cf_catalog *cat, const char *key, char *buf, size_t n)
{
    json_t *j = NULL;
    assert_int_equal(cf_catalog_info(cat, &j), CF_OK);
    snprintf(buf, n, "%s", json_is_string(json_object_get(j, key)) ?
             json_string_value(json_object_get(j, key)) : "null");
    json_decref(j);
    return buf;
}

static void release_stays_until_removed(void **state)
{
    cf_catalog *cat;
    cf_error err;
    size_t n = 0, builtin;
    int removed = -1;
    char buf[128], *changed;
    json_t *j = NULL;
    (void)state;
    unlink(db);
    cat = open_with(small, small_len);
    assert_int_equal(shipped_rows(cat), 8);
    assert_string_equal(info_str(cat, "origin", buf, sizeof buf), "built-in");
    assert_int_equal(cf_catalog_release_install(cat, "r.csv", release, strlen(release), "2026-11-30",
                                                &n, &err), CF_OK);
    assert_int_equal(n, 2);
    assert_int_equal(shipped_rows(cat), 2);
    assert_string_equal(info_str(cat, "origin", buf, sizeof buf), "release");
    assert_string_equal(info_str(cat, "date", buf, sizeof buf), "2026-11-29");
    assert_string_equal(info_str(cat, "source", buf, sizeof buf), "https://example.org/r.csv");
    assert_string_equal(info_str(cat, "file", buf, sizeof buf), "r.csv");
    assert_string_equal(info_str(cat, "installed", buf, sizeof buf), "2026-11-30");
    cf_catalog_close(cat);
    /* New shipped data (another hash): the release's rows stay. */
    changed = strdup(small);
    memcpy(strstr(changed, ",3.10,"), ",3.20,", 6);
    cat = open_with(changed, small_len);
    assert_int_equal(shipped_rows(cat), 2);
    /* Back to the built-in rows: the library's embedded data/offerings.csv. */
    assert_int_equal(cf_catalog_release_remove(cat, &removed, &err), CF_OK);
    assert_int_equal(removed, 1);
    assert_int_equal(cf_catalog_info(cat, &j), CF_OK);
    builtin = (size_t)json_integer_value(json_object_get(json_object_get(j, "built_in"), "rows"));
    assert_int_equal(json_integer_value(json_object_get(j, "rows")), (json_int_t)builtin);
    assert_true(json_is_null(json_object_get(j, "source")));
    json_decref(j);
    assert_true(builtin > 8);
    assert_int_equal(shipped_rows(cat), builtin);
    assert_int_equal(cf_catalog_release_remove(cat, &removed, &err), CF_OK);
    assert_int_equal(removed, 0);
    cf_catalog_close(cat);
    /* With the release gone, another shipped catalog rebuilds as before. */
    cat = open_with(changed, small_len);
    assert_int_equal(shipped_rows(cat), 8);
    cf_catalog_close(cat);
    free(changed);
}

/* The file's rows and meta table as text (a connection of its own: what
 * is committed), for before == after comparisons. Caller frees. */
static char *state_text(cf_catalog *cat)
{
    cf_offering_list l;
    sqlite3 *raw;
    sqlite3_stmt *st;
    json_t *arr = json_array();
    char *s;
    assert_int_equal(cf_catalog_query(cat, NULL, CF_SORT_PROVIDER, &l), CF_OK);
    for (size_t i = 0; i < l.n; i++) json_array_append_new(arr, cf_offering_to_json(&l.items[i]));
    cf_offering_list_clear(&l);
    assert_int_equal(sqlite3_open(db, &raw), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(raw, "SELECT key || '=' || value FROM meta ORDER BY key",
                                        -1, &st, NULL), SQLITE_OK);
    while (sqlite3_step(st) == SQLITE_ROW)
        json_array_append_new(arr, json_string((const char *)sqlite3_column_text(st, 0)));
    sqlite3_finalize(st);
    sqlite3_close(raw);
    s = json_dumps(arr, JSON_SORT_KEYS);
    json_decref(arr);
    return s;
}

/* Every allocation of an install fails in turn; a removal's too, past the
 * parse of the built-in rows (thousands of allocations that all end the
 * same way, before the write: every 97th of them is failed). */
static void allocation_failures_change_nothing(void **state)
{
    cf_catalog *cat;
    cf_error err;
    cf_offering_list l;
    const char *csv;
    char *before, *after;
    size_t len = 0;
    long n, parse;
    (void)state;
    unlink(db);
    cat = open_with(small, small_len);
    before = state_text(cat);
    for (n = 0;; n++) {
        cf_status st;
        cf_alloc_fail_after(n);
        st = cf_catalog_release_install(cat, "r.csv", release, strlen(release), NULL, NULL, &err);
        cf_alloc_fail_after(-1);
        if (st == CF_OK) break;
        assert_int_equal(st, CF_ENOMEM);
        after = state_text(cat);
        assert_string_equal(before, after);
        free(after);
    }
    assert_true(n > 5);
    free(before);
    assert_int_equal(shipped_rows(cat), 2);
    csv = cf__embedded_find("data/offerings.csv", &len);
    assert_non_null(csv);
    cf_alloc_fail_after(-1);
    assert_int_equal(cf_offerings_parse("b", csv, len, CF_IMPORT_CSV, NULL, &l, &err), CF_OK);
    parse = cf_alloc_count();
    cf_offering_list_clear(&l);
    before = state_text(cat);
    for (n = 0;; n += n + 97 < parse ? 97 : 1) {
        cf_status st;
        cf_alloc_fail_after(n);
        st = cf_catalog_release_remove(cat, NULL, &err);
        cf_alloc_fail_after(-1);
        if (st == CF_OK) break;
        assert_int_equal(st, CF_ENOMEM);
        after = state_text(cat);
        assert_string_equal(before, after);
        free(after);
    }
    assert_true(n >= parse);
    free(before);
    cf_catalog_close(cat);
}

static void bad_row_at_its_line(void **state)
{
    cf_catalog *cat;
    cf_error err;
    char *bad = strdup(release);
    size_t n = 7;
    (void)state;
    unlink(db);
    cat = open_with(small, small_len);
    /* The second row (line 4 of the file) gets an id that is no slug. */
    memcpy(strstr(bad, "testa-a100"), "Testa", 5);
    assert_int_equal(cf_catalog_release_install(cat, "bad.csv", bad, strlen(bad), NULL, &n, &err),
                     CF_EPARSE);
    assert_int_equal(n, 0);
    assert_string_equal(err.file, "bad.csv");
    assert_int_equal(err.line, 4);
    assert_int_equal(err.column, 1);
    assert_int_equal(shipped_rows(cat), 8);
    /* No header line at all: line 1. */
    assert_int_equal(cf_catalog_release_install(cat, "plain.csv", small, small_len, NULL, NULL, &err),
                     CF_EPARSE);
    assert_int_equal(err.line, 1);
    assert_int_equal(cf_catalog_release_install(NULL, "x", "", 0, NULL, NULL, &err), CF_EINVAL);
    assert_int_equal(cf_catalog_release_install(cat, "x", release, strlen(release), "2026-13-01",
                                                NULL, &err), CF_EINVAL);
    cf_catalog_close(cat);
    free(bad);
}

static void versions(void **state)
{
    size_t n = 0, k;
    const char *v = cf_version(), *mc = cf_model_constants_version();
    char want[32];
    (void)state;
    /* MAJOR.MINOR.PATCH of the VERSION file. */
    assert_true(strlen(v) >= 5 && strspn(v, "0123456789.") == strlen(v));
    cf_model_constants(&n);
    k = (size_t)snprintf(want, sizeof want, "%zu-", n);
    assert_memory_equal(mc, want, k);
    assert_int_equal(strlen(mc), k + 16);
    assert_int_equal(strspn(mc + k, "0123456789abcdef"), 16);
    assert_string_equal(cf_model_constants_version(), mc);
    assert_true(strlen(cf_version_commit()) > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(release_stays_until_removed),
        cmocka_unit_test(allocation_failures_change_nothing),
        cmocka_unit_test(bad_row_at_its_line),
        cmocka_unit_test(versions),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
