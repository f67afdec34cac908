/* test_catalog_db.c — the catalog file: creation, shipped rebuild by hash
 * with the user's rows kept, user rows winning, refusal of files that are not
 * ours, one-transaction imports (a bad row, a failed allocation, a SIGKILL
 * half-way through: the database is unchanged and still opens), and
 * allocation failures in open, import and query; issue 21's all-or-nothing
 * writes (a reset in one transaction, every write refusing a damaged file,
 * concurrent first uses of a new file) and a replaced file told apart. The
 * shipped catalog here is tests/data/catalog-small.csv (8 rows), passed to
 * cf__catalog_open_shipped. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "../testutil.h"
#include <math.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "clusterfit/clusterfit.h"
#include "catalog/catalog_int.h" /* cf__catalog_open_shipped */

#define SMALL "tests/data/catalog-small.csv"

static char dir[64];
static char db[128];
static char *small;
static size_t small_len;

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/cf-catalog-XXXXXX");
    if (!mkdtemp(dir)) return -1;
    snprintf(db, sizeof db, "%s/catalog.db", dir);
    small = read_file(SMALL, &small_len);
    return 0;
}

static int teardown(void **state)
{
    char cmd[160];
    (void)state;
    free(small);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void fresh(void)
{
    char p[160];
    unlink(db);
    snprintf(p, sizeof p, "%s-journal", db);
    unlink(p);
}

static cf_catalog *open_small(void)
{
    cf_catalog *cat = NULL;
    cf_error err;
    cf_status st = cf__catalog_open_shipped(db, "small.csv", small, small_len, &cat, &err);
    if (st != CF_OK) print_error("open: %s\n", err.message);
    assert_int_equal(st, CF_OK);
    return cat;
}

/* The whole catalog as JSON text (ids, values and origins), for before ==
 * after comparisons. Caller frees. */
static char *dump(cf_catalog *cat)
{
    cf_offering_list l;
    json_t *arr = json_array();
    char *s;
    assert_int_equal(cf_catalog_query(cat, NULL, CF_SORT_PROVIDER, &l), CF_OK);
    for (size_t i = 0; i < l.n; i++) json_array_append_new(arr, cf_offering_to_json(&l.items[i]));
    s = json_dumps(arr, JSON_SORT_KEYS);
    json_decref(arr);
    cf_offering_list_clear(&l);
    return s;
}

static const char USER_CSV[] =
    "id,provider,offering,gpu,network,network_gbps_per_node,price_on_demand_gpu_hr,currency,"
    "multinode,source_url,as_of\n"
    "testz-new,TestZeta,Z cluster,B200,ib,3200,5.5,USD,yes,https://example.com/z,2026-11\n"
    "testa-h100-ib,TestAlpha,Alpha HGX H100 cluster,H100-SXM,ib,3200,1.11,USD,yes,"
    "https://example.com/mine,2026-11-29\n";

static void create_query_get(void **state)
{
    cf_catalog *cat;
    cf_offering_list l;
    cf_offering *o;
    cf_filter f;
    (void)state;
    fresh();
    cat = open_small();
    assert_int_equal(cf_catalog_query(cat, NULL, CF_SORT_PROVIDER, &l), CF_OK);
    assert_int_equal(l.n, 8);
    assert_string_equal(l.items[0].id, "testa-a100-ib-eur");
    assert_string_equal(l.items[7].id, "testc-l40s-tcp");
    for (size_t i = 0; i < l.n; i++) assert_int_equal(l.items[i].user_row, 0);
    cf_offering_list_clear(&l);
    /* The filters and sorts of cf_offering_matches, through SQLite. */
    cf_filter_init(&f);
    assert_int_equal(cf_filter_set(&f, "network", "ib", NULL), CF_OK);
    assert_int_equal(cf_filter_set(&f, "gdr", "yes", NULL), CF_OK);
    assert_int_equal(cf_catalog_query(cat, &f, CF_SORT_PRICE, &l), CF_OK);
    assert_int_equal(l.n, 2);
    assert_string_equal(l.items[0].id, "testa-a100-ib-eur"); /* EUR group first */
    assert_string_equal(l.items[1].id, "testa-h100-ib");
    cf_offering_list_clear(&l);
    cf_filter_init(&f);
    assert_int_equal(cf_catalog_query(cat, &f, CF_SORT_GBPS, &l), CF_OK);
    assert_string_equal(l.items[0].id, "testa-h100-ib");
    assert_string_equal(l.items[4].id, "testa-a100-ib-eur"); /* 1600 after the four 3200s */
    assert_string_equal(l.items[7].id, "testc-h100-unknown"); /* unknown last */
    cf_offering_list_clear(&l);
    /* Values survive the round trip through SQLite. */
    assert_int_equal(cf_catalog_get(cat, "testb-h200-roce", &o), CF_OK);
    assert_string_equal(o->notes, "Test row: a note on two lines,\nwith \"quotes\" inside");
    assert_true(o->price_on_demand_gpu_hr == 3.10);
    assert_int_equal(o->provisioning, CF_PROV_ON_DEMAND | CF_PROV_SPOT);
    assert_int_equal(o->network, CF_NET_ROCE);
    assert_int_equal(o->max_cluster_gpus, 1024);
    cf_offering_free(o);
    assert_int_equal(cf_catalog_get(cat, "testc-h100-unknown", &o), CF_OK);
    assert_true(isnan(o->price_on_demand_gpu_hr));
    assert_int_equal(o->nics_per_node, -1);
    assert_int_equal(o->shared_storage_known, 0);
    cf_offering_free(o);
    assert_int_equal(cf_catalog_get(cat, "nope", &o), CF_ENOTFOUND);
    assert_null(o);
    cf_catalog_close(cat);
}

static void user_rows_win_and_survive_rebuild(void **state)
{
    cf_catalog *cat;
    cf_offering *o;
    cf_offering_list l;
    cf_error err;
    size_t n;
    char *changed;
    sqlite3 *raw;
    const char *user_id = "testa-h100-ib";
    (void)state;
    fresh();
    cat = open_small();
    assert_int_equal(cf_catalog_import(cat, "user.csv", USER_CSV, strlen(USER_CSV), CF_IMPORT_CSV, NULL, &n, &err), CF_OK);
    assert_int_equal(n, 2);
    assert_int_equal(cf_catalog_get(cat, "testa-h100-ib", &o), CF_OK);
    assert_int_equal(o->user_row, 1);
    assert_true(o->price_on_demand_gpu_hr == 1.11);
    cf_offering_free(o);
    assert_int_equal(cf_catalog_query(cat, NULL, CF_SORT_PROVIDER, &l), CF_OK);
    assert_int_equal(l.n, 9); /* 8 shipped, one hidden by the user's row, one new */
    cf_offering_list_clear(&l);
    cf_catalog_close(cat);

    /* The same shipped data: no rebuild, so a hand edit of a shipped row stays. */
    assert_int_equal(sqlite3_open(db, &raw), SQLITE_OK);
    assert_int_equal(sqlite3_exec(raw, "UPDATE offering SET max_cluster_gpus = 7 WHERE id = "
                                       "'testb-h200-roce' AND origin = 'shipped'", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(raw);
    cat = open_small();
    assert_int_equal(cf_catalog_get(cat, "testb-h200-roce", &o), CF_OK);
    assert_int_equal(o->max_cluster_gpus, 7);
    cf_offering_free(o);
    cf_catalog_close(cat);

    /* New shipped data (a row gone, a price changed): rebuilt, user rows kept. */
    changed = strdup(small);
    *strstr(changed, "testd-h100-pcie-single") = 'x'; /* renamed: xestd-... */
    memcpy(strstr(changed, ",3.10,"), ",3.20,", 6);
    assert_int_equal(cf__catalog_open_shipped(db, "new.csv", changed, small_len, &cat, &err), CF_OK);
    assert_int_equal(cf_catalog_get(cat, "testb-h200-roce", &o), CF_OK);
    assert_int_equal(o->max_cluster_gpus, 1024); /* the hand edit is gone */
    assert_true(o->price_on_demand_gpu_hr == 3.20);
    cf_offering_free(o);
    assert_int_equal(cf_catalog_get(cat, "testd-h100-pcie-single", &o), CF_ENOTFOUND);
    assert_int_equal(cf_catalog_get(cat, "xestd-h100-pcie-single", &o), CF_OK);
    cf_offering_free(o);
    assert_int_equal(cf_catalog_get(cat, "testa-h100-ib", &o), CF_OK);
    assert_int_equal(o->user_row, 1);
    assert_true(o->price_on_demand_gpu_hr == 1.11);
    cf_offering_free(o);
    assert_int_equal(cf_catalog_get(cat, "testz-new", &o), CF_OK);
    cf_offering_free(o);
    /* Deleting the user's row shows the shipped one again. */
    assert_int_equal(cf_catalog_remove_user(cat, &user_id, 1, NULL, &err), CF_OK);
    assert_int_equal(cf_catalog_remove_user(cat, &user_id, 1, NULL, &err), CF_ENOTFOUND);
    assert_int_equal(cf_catalog_get(cat, "testa-h100-ib", &o), CF_OK);
    assert_int_equal(o->user_row, 0);
    assert_true(o->price_on_demand_gpu_hr == 2.49);
    cf_offering_free(o);
    cf_catalog_close(cat);
    free(changed);
}

static void bad_import_changes_nothing(void **state)
{
    cf_catalog *cat;
    cf_error err;
    char *before, *after;
    size_t n = 99;
    static const char bad[] =
        "id,provider,offering,source_url,as_of,gpus_per_node\n"
        "testz-ok,TestZeta,Z,https://example.com/z,2026-11,8\n"
        "testz-bad,TestZeta,Z,https://example.com/z,2026-11,eight\n";
    (void)state;
    fresh();
    cat = open_small();
    before = dump(cat);
    assert_int_equal(cf_catalog_import(cat, "bad.csv", bad, strlen(bad), CF_IMPORT_CSV, NULL, &n, &err), CF_EPARSE);
    assert_int_equal(n, 0);
    assert_string_equal(err.file, "bad.csv");
    assert_int_equal(err.line, 3);
    assert_int_equal(err.column, 6);
    after = dump(cat);
    assert_string_equal(before, after);
    free(before);
    free(after);
    cf_catalog_close(cat);
}

/* Joins the strings of a JSON array with ',' (static buffer). */
static const char *joined(const json_t *a)
{
    static char buf[256];
    size_t i;
    json_t *e;
    buf[0] = '\0';
    json_array_foreach(a, i, e)
        snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s", i ? "," : "",
                 json_string_value(e));
    return buf;
}

/* providers: networks of all offerings and of the multi-node ones (counted
 * by hand from tests/data/catalog-small.csv: TestGamma's tcp row and its ib
 * row are not multi-node); remove and reset of the user's rows. */
static void providers_remove_reset(void **state)
{
    cf_catalog *cat;
    cf_offering *o;
    cf_error err;
    json_t *p = NULL, *g;
    size_t n;
    const char *ids[] = {"testz-new", "no-such", "testb-h200-roce"};
    (void)state;
    fresh();
    cat = open_small();
    assert_int_equal(cf_catalog_providers(cat, &p), CF_OK);
    assert_int_equal(json_array_size(p), 4);
    g = json_array_get(p, 1);
    assert_string_equal(json_string_value(json_object_get(g, "provider")), "TestBeta");
    assert_string_equal(joined(json_object_get(g, "multinode_networks")), "roce,efa");
    g = json_array_get(p, 2);
    assert_string_equal(json_string_value(json_object_get(g, "provider")), "TestDelta");
    assert_string_equal(joined(json_object_get(g, "networks")), "roce,none");
    assert_string_equal(joined(json_object_get(g, "multinode_networks")), "");
    g = json_array_get(p, 3);
    assert_string_equal(json_string_value(json_object_get(g, "provider")), "TestGamma");
    assert_string_equal(joined(json_object_get(g, "networks")), "ib,tcp");
    assert_string_equal(joined(json_object_get(g, "multinode_networks")), "");
    json_decref(p);

    assert_int_equal(cf_catalog_import(cat, "user.csv", USER_CSV, strlen(USER_CSV), CF_IMPORT_CSV, NULL, &n, &err), CF_OK);
    /* One id unknown, one shipped only: both named, nothing removed. */
    assert_int_equal(cf_catalog_remove_user(cat, ids, 3, &n, &err), CF_ENOTFOUND);
    assert_int_equal(n, 0);
    assert_non_null(strstr(err.message, "\"no-such\", \"testb-h200-roce\" (a shipped offering"));
    assert_int_equal(cf_catalog_get(cat, "testz-new", &o), CF_OK);
    cf_offering_free(o);
    /* A repeated id counts once; the shipped testa-h100-ib shows again. */
    ids[1] = "testa-h100-ib";
    ids[2] = "testz-new";
    assert_int_equal(cf_catalog_remove_user(cat, ids, 3, &n, &err), CF_OK);
    assert_int_equal(n, 2);
    assert_int_equal(cf_catalog_get(cat, "testz-new", &o), CF_ENOTFOUND);
    assert_int_equal(cf_catalog_get(cat, "testa-h100-ib", &o), CF_OK);
    assert_int_equal(o->user_row, 0);
    cf_offering_free(o);
    assert_int_equal(cf_catalog_import(cat, "user.csv", USER_CSV, strlen(USER_CSV), CF_IMPORT_CSV, NULL, &n, &err), CF_OK);
    assert_int_equal(cf_catalog_reset_user(cat, &n, &err), CF_OK);
    assert_int_equal(n, 2);
    assert_int_equal(cf_catalog_reset_user(cat, &n, &err), CF_OK);
    assert_int_equal(n, 0);
    cf_catalog_close(cat);
    /* A directory is not a catalog file: a usage error, nothing created. */
    assert_int_equal(cf__catalog_open_shipped(dir, "s", small, small_len, &cat, &err), CF_EINVAL);
    assert_non_null(strstr(err.message, "is a directory"));
}

static void refuses_files_not_ours(void **state)
{
    cf_catalog *cat = (cf_catalog *)1;
    cf_error err;
    char path[160];
    FILE *f;
    sqlite3 *raw;
    (void)state;
    /* Not a database. */
    snprintf(path, sizeof path, "%s/notes.txt", dir);
    f = fopen(path, "w");
    fputs("not a database, but my notes\n", f);
    fclose(f);
    assert_int_equal(cf__catalog_open_shipped(path, "s", small, small_len, &cat, &err), CF_EPARSE);
    assert_null(cat);
    assert_non_null(strstr(err.message, path));
    assert_non_null(strstr(err.message, "not a clusterfit catalog (the file is not an SQLite database)"));
    {
        size_t len;
        char *text = read_file(path, &len);
        assert_string_equal(text, "not a database, but my notes\n");
        free(text);
    }
    /* Another program's database. */
    snprintf(path, sizeof path, "%s/other.db", dir);
    assert_int_equal(sqlite3_open(path, &raw), SQLITE_OK);
    assert_int_equal(sqlite3_exec(raw, "CREATE TABLE t (x)", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(raw);
    assert_int_equal(cf__catalog_open_shipped(path, "s", small, small_len, &cat, &err), CF_EPARSE);
    assert_non_null(strstr(err.message, "an SQLite database of another program"));
    /* Ours, from a newer clusterfit. */
    fresh();
    cf_catalog_close(open_small());
    assert_int_equal(sqlite3_open(db, &raw), SQLITE_OK);
    assert_int_equal(sqlite3_exec(raw, "PRAGMA user_version = 5", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(raw);
    assert_int_equal(cf__catalog_open_shipped(db, "s", small, small_len, &cat, &err), CF_EPARSE);
    assert_non_null(strstr(err.message, "schema version 5 is newer than this clusterfit's 4"));
    /* Ours by its id and version, but the table is gone. */
    assert_int_equal(sqlite3_open(db, &raw), SQLITE_OK);
    assert_int_equal(sqlite3_exec(raw, "PRAGMA user_version = 4; DROP VIEW catalog", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(raw);
    assert_int_equal(cf__catalog_open_shipped(db, "s", small, small_len, &cat, &err), CF_EPARSE);
    assert_non_null(strstr(err.message, "unexpected schema"));
    /* An empty file is a new catalog. */
    fresh();
    f = fopen(db, "w");
    fclose(f);
    cat = open_small();
    cf_catalog_close(cat);
    /* An in-memory catalog. */
    assert_int_equal(cf__catalog_open_shipped(NULL, "s", small, small_len, &cat, &err), CF_OK);
    cf_catalog_close(cat);
}

static void bad_shipped_data_changes_nothing(void **state)
{
    cf_catalog *cat;
    cf_error err;
    char *broken = strdup(small), *before, *after;
    (void)state;
    fresh();
    cat = open_small();
    before = dump(cat);
    cf_catalog_close(cat);
    memcpy(strstr(broken, ",2.49,"), ",-2.4,", 6);
    assert_int_equal(cf__catalog_open_shipped(db, "data/offerings.csv", broken, small_len, &cat, &err), CF_EPARSE);
    assert_string_equal(err.file, "data/offerings.csv");
    assert_int_equal(err.line, 2);
    assert_int_equal(err.column, 21);
    cat = open_small();
    after = dump(cat);
    assert_string_equal(before, after);
    free(before);
    free(after);
    free(broken);
    cf_catalog_close(cat);
}

/* Fails the 1st, 2nd, ... allocation of open (on a new file), import and
 * query: CF_ENOMEM each time, nothing leaked (ASan), the database unchanged,
 * until the call succeeds. */
static void allocation_failures(void **state)
{
    long n;
    cf_catalog *cat;
    char *before;
    (void)state;
    for (n = 0;; n++) {
        cf_error err;
        cf_status st;
        fresh();
        cat = NULL;
        cf_alloc_fail_after(n);
        st = cf__catalog_open_shipped(db, "s", small, small_len, &cat, &err);
        cf_alloc_fail_after(-1);
        if (st == CF_OK) break;
        assert_int_equal(st, CF_ENOMEM);
        assert_null(cat);
        /* What a failed open left behind opens and fills in afterwards. */
        cat = open_small();
        cf_catalog_close(cat);
    }
    assert_true(n > 10);
    before = dump(cat);
    for (n = 0;; n++) {
        cf_error err;
        cf_status st;
        char *after;
        cf_alloc_fail_after(n);
        st = cf_catalog_import(cat, "user.csv", USER_CSV, strlen(USER_CSV), CF_IMPORT_CSV, NULL, NULL, &err);
        cf_alloc_fail_after(-1);
        if (st == CF_OK) break;
        assert_int_equal(st, CF_ENOMEM);
        after = dump(cat);
        assert_string_equal(before, after);
        free(after);
    }
    free(before);
    for (n = 0;; n++) {
        cf_offering_list l;
        cf_status st;
        cf_alloc_fail_after(n);
        st = cf_catalog_query(cat, NULL, CF_SORT_PRICE, &l);
        cf_alloc_fail_after(-1);
        if (st == CF_OK) {
            assert_int_equal(l.n, 9);
            cf_offering_list_clear(&l);
            break;
        }
        assert_int_equal(st, CF_ENOMEM);
        assert_int_equal(l.n, 0);
    }
    for (n = 0;; n++) {
        json_t *p = NULL;
        cf_status st;
        cf_offering *o = NULL;
        cf_alloc_fail_after(n);
        st = cf_catalog_get(cat, "testb-h200-roce", &o);
        cf_alloc_fail_after(-1);
        if (st == CF_OK) {
            cf_offering_free(o);
            assert_int_equal(cf_catalog_providers(cat, &p), CF_OK);
            assert_int_equal(json_array_size(p), 5);
            json_decref(p);
            break;
        }
        assert_int_equal(st, CF_ENOMEM);
        assert_null(o);
    }
    cf_catalog_close(cat);
}

/* A large import killed half-way through its transaction (SIGKILL while the
 * rollback journal exists): the next open rolls it back; the catalog is as
 * before and still opens. */
static void import_killed_half_way(void **state)
{
    enum { ROWS = 60000 };
    cf_catalog *cat;
    char *before, *after, journal[160], *csv;
    size_t cap = (size_t)ROWS * 200 + 256, used; /* rows are < 160 bytes */
    pid_t pid;
    int status, seen = 0;
    struct stat sb;
    (void)state;
    fresh();
    cat = open_small();
    before = dump(cat);
    cf_catalog_close(cat);
    csv = malloc(cap);
    assert_non_null(csv);
    used = (size_t)snprintf(csv, cap, "id,provider,offering,gpus_per_node,source_url,as_of,notes\n");
    for (int i = 0; i < ROWS; i++)
        used += (size_t)snprintf(csv + used, cap - used,
                                 "bulk-%06d,TestBulk,Bulk offering %d,8,https://example.com/bulk/%d,2026-11,"
                                 "a note to make the row longer than the page cache likes\n", i, i, i);
    snprintf(journal, sizeof journal, "%s-journal", db);
    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        cf_catalog *c;
        cf_error e;
        if (cf__catalog_open_shipped(db, "s", small, small_len, &c, &e) != CF_OK) _exit(2);
        cf_catalog_import(c, "bulk.csv", csv, used, CF_IMPORT_CSV, NULL, NULL, &e);
        _exit(0);
    }
    /* Wait until the transaction writes (its journal appears), then kill. */
    for (int i = 0; i < 200000 && !seen; i++) {
        if (stat(journal, &sb) == 0) seen = 1;
        else if (waitpid(pid, &status, WNOHANG) == pid) break;
        else usleep(50);
    }
    if (seen) {
        struct timespec ts = {0, 2000000}; /* 2 ms into the writes */
        nanosleep(&ts, NULL);
        kill(pid, SIGKILL);
        assert_int_equal(waitpid(pid, &status, 0), pid);
    }
    free(csv);
    assert_true(seen);
    assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    cat = open_small();
    after = dump(cat);
    assert_string_equal(before, after);
    free(before);
    free(after);
    cf_catalog_close(cat);
}

/* A schema-1 file (the SQL of the first release, literal here) with a
 * user's row opens under schema 2: the row is kept with the new columns
 * unknown, the shipped rows are rebuilt, and the file says version 2. */
static void migrates_schema_1(void **state)
{
    static const char v1[] =
        "PRAGMA application_id = 1128687988;"
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
        "CREATE TABLE offering (id TEXT NOT NULL,"
        " origin TEXT NOT NULL CHECK (origin IN ('shipped', 'user')),"
        " provider TEXT NOT NULL, offering TEXT NOT NULL, gpu TEXT,"
        " gpus_per_node INTEGER, gpu_memory_gb REAL, intra_link TEXT, network TEXT,"
        " network_gbps_per_node REAL, nics_per_node INTEGER, rdma TEXT, gpudirect_rdma TEXT,"
        " topology TEXT, non_blocking TEXT, rail_optimized TEXT, max_cluster_gpus INTEGER,"
        " orchestration TEXT, provisioning TEXT, min_commitment_h REAL, billing_increment_s REAL,"
        " price_on_demand_gpu_hr REAL, price_reserved_gpu_hr REAL, currency TEXT,"
        " shared_storage TEXT, regions TEXT, multinode TEXT, notes TEXT,"
        " source_url TEXT NOT NULL, as_of TEXT NOT NULL, PRIMARY KEY (id, origin));"
        "CREATE VIEW catalog AS SELECT * FROM offering AS o WHERE origin = 'user'"
        " OR NOT EXISTS (SELECT 1 FROM offering AS u WHERE u.id = o.id AND u.origin = 'user');"
        "INSERT INTO offering (id, origin, provider, offering, gpu, price_on_demand_gpu_hr,"
        " currency, provisioning, source_url, as_of) VALUES ('old-row', 'user', 'TestOld',"
        " 'Old', 'H100-SXM', 2.5, 'USD', 'on-demand;spot', 'https://example.com/old', '2026-01');"
        "PRAGMA user_version = 1;";
    sqlite3 *raw;
    cf_catalog *cat;
    cf_offering *o;
    cf_offering_list l;
    (void)state;
    fresh();
    assert_int_equal(sqlite3_open(db, &raw), SQLITE_OK);
    assert_int_equal(sqlite3_exec(raw, v1, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(raw);
    cat = open_small();
    assert_int_equal(cf_catalog_get(cat, "old-row", &o), CF_OK);
    assert_int_equal(o->user_row, 1);
    assert_true(o->price_on_demand_gpu_hr == 2.5);
    assert_int_equal(o->provisioning, CF_PROV_ON_DEMAND | CF_PROV_SPOT);
    assert_int_equal(o->in_network_reduction, CF_CAP_UNKNOWN);
    assert_true(isnan(o->price_spot_gpu_hr));
    assert_null(o->price_as_of);
    assert_int_equal(o->price_overlay, 0);
    cf_offering_free(o);
    assert_int_equal(cf_catalog_query(cat, NULL, CF_SORT_PROVIDER, &l), CF_OK);
    assert_int_equal(l.n, 9); /* the 8 shipped rows and the old user row */
    cf_offering_list_clear(&l);
    cf_catalog_close(cat);
    assert_int_equal(sqlite3_open(db, &raw), SQLITE_OK);
    {
        sqlite3_stmt *st;
        assert_int_equal(sqlite3_prepare_v2(raw, "PRAGMA user_version", -1, &st, NULL), SQLITE_OK);
        assert_int_equal(sqlite3_step(st), SQLITE_ROW);
        assert_int_equal(sqlite3_column_int(st, 0), CF_CATALOG_SCHEMA_VERSION);
        sqlite3_finalize(st);
    }
    sqlite3_close(raw);
}

/* The count of one query's single integer on the catalog's own connection
 * (the unit tests reach cat->db through catalog_int.h). */
static long long count_of(cf_catalog *cat, const char *sql)
{
    sqlite3_stmt *st = NULL;
    long long n = -1;
    assert_int_equal(sqlite3_prepare_v2(cat->db, sql, -1, &st, NULL), SQLITE_OK);
    if (sqlite3_step(st) == SQLITE_ROW) n = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return n;
}

#define USER_ROWS "SELECT count(*) FROM offering WHERE origin = 'user'"
#define PRICES "SELECT count(*) FROM price_overlay"
#define ONE_PRICE "INSERT INTO price_overlay (id, price_on_demand_gpu_hr, currency, price_as_of," \
                  " note, format) VALUES ('testb-h200-roce', 2.0, 'USD', '2026-11-30', 'n', 'skypilot')"

/* cf_catalog_reset (import --reset) is one transaction (issue 21): when
 * its second delete (the imported prices) fails, the first (the user's
 * rows) is rolled back with it. The failure is injected by a TEMP trigger
 * on the catalog's own connection. */
static void reset_is_one_transaction(void **state)
{
    cf_catalog *cat;
    cf_error err;
    size_t n, rows = 99, prices = 99;
    (void)state;
    fresh();
    cat = open_small();
    assert_int_equal(cf_catalog_import(cat, "user.csv", USER_CSV, strlen(USER_CSV), CF_IMPORT_CSV,
                                       NULL, &n, &err), CF_OK);
    assert_int_equal(sqlite3_exec(cat->db, ONE_PRICE, NULL, NULL, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_exec(cat->db, "CREATE TEMP TRIGGER fault BEFORE DELETE ON"
                                  " main.price_overlay BEGIN SELECT RAISE(ABORT, 'injected');"
                                  " END", NULL, NULL, NULL), SQLITE_OK);
    assert_int_not_equal(cf_catalog_reset(cat, &rows, &prices, &err), CF_OK);
    assert_non_null(strstr(err.message, "injected"));
    assert_int_equal(rows, 0);
    assert_int_equal(prices, 0);
    assert_int_equal(count_of(cat, USER_ROWS), 2); /* not half a reset */
    assert_int_equal(count_of(cat, PRICES), 1);
    assert_int_equal(sqlite3_get_autocommit(cat->db), 1); /* nothing left open */
    assert_int_equal(sqlite3_exec(cat->db, "DROP TRIGGER temp.fault", NULL, NULL, NULL), SQLITE_OK);
    assert_int_equal(cf_catalog_reset(cat, &rows, &prices, &err), CF_OK);
    assert_int_equal(rows, 2);
    assert_int_equal(prices, 1);
    assert_int_equal(count_of(cat, USER_ROWS) + count_of(cat, PRICES), 0);
    assert_int_equal(cf_catalog_reset(cat, NULL, NULL, &err), CF_OK);
    cf_catalog_close(cat);
}

/* The file's bytes, for "unchanged" checks. Caller frees. */
static char *file_bytes(size_t *len)
{
    return read_file(db, len);
}

/* Every write checks the file first, inside its transaction (issue 21): a
 * file that opens but fails PRAGMA quick_check is refused by import,
 * removal, each reset and both price formats with the same CF_EDB "is
 * damaged" message, and is left byte for byte as it was. The damage: the
 * cell pointers of the root (and only) page of the table `offering`. */
static void writes_refuse_a_damaged_file(void **state)
{
    static const char *const ids[] = {"testz-new"};
    cf_price_import_opts po;
    cf_catalog *cat;
    cf_error err;
    char first[CF_ERROR_MSG_MAX], *before, *after, *vms, *skus;
    size_t n, len0, len1, vms_len, skus_len;
    long long root, page;
    json_t *sum = NULL;
    FILE *f;
    (void)state;
    fresh();
    cat = open_small();
    assert_int_equal(cf_catalog_import(cat, "user.csv", USER_CSV, strlen(USER_CSV), CF_IMPORT_CSV,
                                       NULL, &n, &err), CF_OK);
    assert_int_equal(sqlite3_exec(cat->db, ONE_PRICE, NULL, NULL, NULL), SQLITE_OK);
    root = count_of(cat, "SELECT rootpage FROM sqlite_master WHERE name = 'offering'");
    page = count_of(cat, "PRAGMA page_size");
    cf_catalog_close(cat);
    f = fopen(db, "r+b");
    assert_non_null(f);
    assert_int_equal(fseek(f, (long)((root - 1) * page + 8), SEEK_SET), 0);
    assert_int_equal(fwrite("\xff\xff\xff\xff\xff\xff\xff\xff", 1, 8, f), 8);
    fclose(f);
    before = file_bytes(&len0);
    vms = read_file("tests/data/import/skypilot/aws/vms.csv", &vms_len);
    skus = read_file("tests/data/import/gcp-catalog/skus.json", &skus_len);
    memset(&po, 0, sizeof po);
    po.as_of = "2026-11-30";
    cat = open_small(); /* its metadata and schema are sound: it opens */
    assert_int_equal(cf_catalog_import(cat, "user.csv", USER_CSV, strlen(USER_CSV), CF_IMPORT_CSV,
                                       NULL, &n, &err), CF_EDB);
    assert_non_null(strstr(err.message, "is damaged ("));
    assert_non_null(strstr(err.message, "nothing was written"));
    snprintf(first, sizeof first, "%s", err.message);
    for (int w = 0; w < 6; w++) {
        cf_status st = w == 0 ? cf_catalog_remove_user(cat, ids, 1, &n, &err)
                     : w == 1 ? cf_catalog_reset_user(cat, &n, &err)
                     : w == 2 ? cf_catalog_reset_prices(cat, &n, &err)
                     : w == 3 ? cf_catalog_reset(cat, &n, &n, &err)
                     : w == 4 ? cf_catalog_import_prices(cat, "v7/aws/vms.csv", vms, vms_len,
                                                         CF_PRICE_SKYPILOT, &po, &sum, &err)
                              : cf_catalog_import_prices(cat, "skus.json", skus, skus_len,
                                                         CF_PRICE_GCP_CATALOG, &po, &sum, &err);
        if (st != CF_EDB || strcmp(err.message, first) != 0)
            print_error("write %d: status %d, %s\n", w, (int)st, err.message);
        assert_int_equal(st, CF_EDB);
        assert_string_equal(err.message, first);
        assert_null(sum);
        assert_int_equal(sqlite3_get_autocommit(cat->db), 1);
    }
    cf_catalog_close(cat);
    after = file_bytes(&len1);
    assert_int_equal(len0, len1);
    assert_memory_equal(before, after, len0);
    free(before);
    free(after);
    free(vms);
    free(skus);
}

/* Concurrent first uses of a file that does not exist yet (issue 21): each
 * of PROCS processes opens the same new path at once, ROUNDS times; none
 * may refuse it (the markers used to be read in separate transactions, and
 * a file created between two reads looked like another program's). */
static void first_use_race(void **state)
{
    enum { ROUNDS = 100, PROCS = 4 };
    int refused = 0;
    (void)state;
    for (int r = 0; r < ROUNDS; r++) {
        pid_t pids[PROCS];
        fresh();
        for (int p = 0; p < PROCS; p++) {
            pids[p] = fork();
            assert_true(pids[p] >= 0);
            if (pids[p] == 0) {
                cf_catalog *c = NULL;
                cf_error e;
                cf_status st = cf__catalog_open_shipped(db, "s", small, small_len, &c, &e);
                cf_catalog_close(c);
                _exit(st == CF_OK ? 0 : 1);
            }
        }
        for (int p = 0; p < PROCS; p++) {
            int status = 0;
            assert_int_equal(waitpid(pids[p], &status, 0), pids[p]);
            if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) refused++;
        }
    }
    if (refused) print_error("%d of %d first uses refused\n", refused, ROUNDS * PROCS);
    assert_int_equal(refused, 0);
}

/* cf_catalog_replaced (issue 21): 0 while the path names the file the
 * handle reads, whatever is written to it; 1 once another file is renamed
 * over it, or it is removed; 0 for an in-memory catalog and NULL. */
static void replaced_file_is_told(void **state)
{
    cf_catalog *cat, *other, *mem;
    cf_error err;
    size_t n;
    char other_path[160];
    (void)state;
    fresh();
    snprintf(other_path, sizeof other_path, "%s/other.db", dir);
    unlink(other_path);
    cat = open_small();
    assert_int_equal(cf_catalog_replaced(cat), 0);
    assert_int_equal(cf_catalog_import(cat, "user.csv", USER_CSV, strlen(USER_CSV), CF_IMPORT_CSV,
                                       NULL, &n, &err), CF_OK);
    assert_int_equal(cf_catalog_replaced(cat), 0); /* written to: the same file */
    assert_int_equal(cf__catalog_open_shipped(other_path, "s", small, small_len, &other, &err), CF_OK);
    cf_catalog_close(other);
    assert_int_equal(rename(other_path, db), 0);
    assert_int_equal(cf_catalog_replaced(cat), 1);
    cf_catalog_close(cat);
    cat = open_small(); /* the file now at the path */
    assert_int_equal(cf_catalog_replaced(cat), 0);
    assert_int_equal(unlink(db), 0);
    assert_int_equal(cf_catalog_replaced(cat), 1);
    cf_catalog_close(cat);
    assert_int_equal(cf__catalog_open_shipped(NULL, "s", small, small_len, &mem, &err), CF_OK);
    assert_int_equal(cf_catalog_replaced(mem), 0);
    cf_catalog_close(mem);
    assert_int_equal(cf_catalog_replaced(NULL), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(create_query_get),
        cmocka_unit_test(user_rows_win_and_survive_rebuild),
        cmocka_unit_test(bad_import_changes_nothing),
        cmocka_unit_test(providers_remove_reset),
        cmocka_unit_test(refuses_files_not_ours),
        cmocka_unit_test(bad_shipped_data_changes_nothing),
        cmocka_unit_test(allocation_failures),
        cmocka_unit_test(import_killed_half_way),
        cmocka_unit_test(migrates_schema_1),
        cmocka_unit_test(reset_is_one_transaction),
        cmocka_unit_test(writes_refuse_a_damaged_file),
        cmocka_unit_test(first_use_race),
        cmocka_unit_test(replaced_file_is_told),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
