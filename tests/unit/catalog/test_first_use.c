/* test_first_use.c — the first use of a catalog file is one write (issue
 * 21): the schema and the shipped rows are committed together, so a first
 * use that fails, at any point, leaves a file without a schema (the next
 * run starts again) and never a schema without its rows. Found by the kill
 * trials of tests/torture/ (a kill between the migration's COMMIT and the
 * shipped rows' one). Here: shipped rows that fail their checks, and every
 * write, sync and SQL statement of a first use failed in turn through the
 * fault injector (base/fault.c, catalog/fault_sqlite.c); and no failure
 * of an open leaves a transaction open for the next write. The shipped rows
 * are tests/data/catalog-small.csv (8 rows). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "../testutil.h"
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "clusterfit/clusterfit.h"
#include "base/base.h"
#include "catalog/catalog_int.h" /* cf__catalog_open_shipped, cf__fault_sqlite_install */

static char dir[64], db[128];
static char *small;
static size_t small_len;

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/cf-first-use-XXXXXX");
    if (!mkdtemp(dir)) return -1;
    snprintf(db, sizeof db, "%s/c.db", dir);
    small = read_file("tests/data/catalog-small.csv", &small_len);
    return 0;
}

static int teardown(void **state)
{
    char j[160];
    (void)state;
    snprintf(j, sizeof j, "%s-journal", db);
    unlink(j);
    unlink(db);
    rmdir(dir);
    free(small);
    return 0;
}

static void fresh(void)
{
    char j[160];
    snprintf(j, sizeof j, "%s-journal", db);
    unlink(j);
    unlink(db);
}

/* The schema objects and the shipped rows in the file (a hot journal is
 * rolled back first, as the next open would); *rows = -1 without a table. */
static long objects(long *rows)
{
    sqlite3 *h = NULL;
    sqlite3_stmt *st = NULL;
    long n = -1;
    *rows = -1;
    if (access(db, F_OK) != 0) return 0;
    assert_int_equal(sqlite3_open_v2(db, &h, SQLITE_OPEN_READWRITE, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(h, "SELECT count(*) FROM sqlite_master", -1, &st, NULL),
                     SQLITE_OK);
    if (sqlite3_step(st) == SQLITE_ROW) n = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    st = NULL;
    if (sqlite3_prepare_v2(h, "SELECT count(*) FROM offering WHERE origin = 'shipped'", -1, &st,
                           NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
        *rows = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(h);
    return n;
}

/* Shipped rows that fail their checks: refused, and the new file holds no
 * schema (before issue 21's torture: the schema of version 3 and no rows). */
static void bad_shipped_rows_leave_no_schema(void **state)
{
    cf_catalog *cat = NULL;
    cf_error err;
    char *broken = strdup(small);
    long rows;
    (void)state;
    fresh();
    memcpy(strstr(broken, ",2.49,"), ",-2.4,", 6);
    assert_int_equal(cf__catalog_open_shipped(db, "shipped", broken, small_len, &cat, &err),
                     CF_EPARSE);
    assert_null(cat);
    assert_int_equal(objects(&rows), 0);
    free(broken);
}

/* Every write, sync and statement of a first use failed in turn: each
 * failure is refused with a message, and the file is then empty or whole. */
static void every_failure_leaves_nothing_or_all(void **state)
{
    static const cf__fault_kind kinds[] = {CF__FAULT_WRITE, CF__FAULT_FSYNC, CF__FAULT_STEP};
    (void)state;
    assert_int_equal(cf__fault_sqlite_install(), CF_OK);
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        long n, failed = 0;
        for (n = 1; n < 1000; n++) {
            cf_catalog *cat = NULL;
            cf_error err;
            cf_status st;
            long rows, objs;
            fresh();
            cf__fault_arm(kinds[k], n);
            st = cf__catalog_open_shipped(db, "shipped", small, small_len, &cat, &err);
            if (!cf__fault_reached()) {
                cf__fault_arm(CF__FAULT_NONE, 0);
                assert_int_equal(st, CF_OK);
                cf_catalog_close(cat);
                break;
            }
            cf__fault_arm(CF__FAULT_NONE, 0);
            cf_catalog_close(cat);
            if (st != CF_OK) {
                failed++;
                assert_true(err.message[0] != '\0');
            }
            objs = objects(&rows);
            assert_true(objs == 0 || rows == 8);
            if (st == CF_OK) assert_int_equal(rows, 8);
        }
        assert_true(n > 1 && n < 1000); /* the kind was reached, and the sweep ended */
        assert_true(failed > 0);
    }
    fresh();
}

/* An existing catalog opened with its Nth statement or allocation failed,
 * for every N, then reset: no failure leaves a transaction open behind it
 * (before: an interrupted or out-of-memory ROLLBACK of the open's read of
 * the markers was ignored, and the next write refused with "cannot start a
 * transaction within a transaction"). */
static void no_failure_leaves_a_transaction_open(void **state)
{
    static const cf__fault_kind kinds[] = {CF__FAULT_STEP, CF__FAULT_ALLOC};
    cf_catalog *cat = NULL;
    cf_error err;
    (void)state;
    fresh();
    assert_int_equal(cf__catalog_open_shipped(db, "shipped", small, small_len, &cat, &err), CF_OK);
    cf_catalog_close(cat);
    assert_int_equal(cf__fault_sqlite_install(), CF_OK);
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        long n;
        for (n = 1; n < 100000; n++) {
            cf_status st;
            size_t removed = 0, prices = 0;
            cat = NULL;
            cf__fault_arm(kinds[k], n);
            st = cf__catalog_open_shipped(db, "shipped", small, small_len, &cat, &err);
            if (st == CF_OK) st = cf_catalog_reset(cat, &removed, &prices, &err);
            cf_catalog_close(cat);
            if (!cf__fault_reached()) {
                cf__fault_arm(CF__FAULT_NONE, 0);
                assert_int_equal(st, CF_OK);
                break;
            }
            cf__fault_arm(CF__FAULT_NONE, 0);
            if (st != CF_OK) assert_null(strstr(err.message, "within a transaction"));
        }
        assert_true(n > 1 && n < 100000);
    }
    fresh();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bad_shipped_rows_leave_no_schema),
        cmocka_unit_test(every_failure_leaves_nothing_or_all),
        cmocka_unit_test(no_failure_leaves_a_transaction_open),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
