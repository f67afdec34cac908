/* db.c — the catalog file (SQLite): schema and migrations, opening, the
 * shipped rows and their rebuild, and reading rows (query, get). The
 * user's rows are changed in user.c, the provider summary is in
 * providers.c, both through the helpers this file shares (catalog_int.h).
 *
 * One table `offering` holds both kinds of rows, with the columns of DESIGN
 * §3 plus `origin` ('shipped' or 'user') and the primary key (id, origin):
 * a user's row never overwrites the shipped row of the same id, it hides it.
 * The view `catalog` is what every query reads: user rows, and shipped rows
 * whose id has no user row. Rebuilding the shipped rows (when the hash of the
 * embedded data/offerings.csv differs from meta.shipped_hash) deletes and
 * reinserts only origin = 'shipped' rows, in one transaction, so the user's
 * rows survive, and deleting a user row brings the shipped one back.
 *
 * The file is recognised by PRAGMA application_id ('CFit') and versioned by
 * PRAGMA user_version: each entry of `migrations` takes a file from version
 * i to i + 1, and all the steps a file needs run in one write transaction
 * that reads the markers again first (migrate) and, when the shipped rows
 * are due too (a first use), inserts them before its one COMMIT. A file that is not a
 * database, belongs to another program or has a newer version is refused
 * with its path (CF_EPARSE); it is never emptied or overwritten. Filtering and sorting are
 * done in C over the (small) view (filter.c) so that one definition of each
 * filter (cf_offering_matches) serves the CLI, the server and the planner. */
#include <errno.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "clusterfit/catalog.h"
#include "catalog/catalog_int.h"
#include "base/base.h"

/* 'CFit' as a big-endian 32-bit integer: the file's PRAGMA application_id. */
#define APPLICATION_ID 1128687988

/* Changes whenever the way a shipped cell is normalised changes, so that a
 * new library rebuilds the shipped rows even when the CSV is the same. */
#define SHIPPED_FORMAT "clusterfit-shipped-3"

/* migrations[i] takes a file from user_version i to i + 1. The SQL is kept
 * literal (not generated from the column table) so that old steps never
 * change; add a step, never edit one. */
static const char *const migrations[] = {
    /* 0 -> 1: the first schema. */
    "PRAGMA application_id = 1128687988;"
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
    "CREATE TABLE offering ("
    " id TEXT NOT NULL,"
    " origin TEXT NOT NULL CHECK (origin IN ('shipped', 'user')),"
    " provider TEXT NOT NULL, offering TEXT NOT NULL, gpu TEXT,"
    " gpus_per_node INTEGER, gpu_memory_gb REAL, intra_link TEXT, network TEXT,"
    " network_gbps_per_node REAL, nics_per_node INTEGER, rdma TEXT, gpudirect_rdma TEXT,"
    " topology TEXT, non_blocking TEXT, rail_optimized TEXT, max_cluster_gpus INTEGER,"
    " orchestration TEXT, provisioning TEXT, min_commitment_h REAL, billing_increment_s REAL,"
    " price_on_demand_gpu_hr REAL, price_reserved_gpu_hr REAL, currency TEXT,"
    " shared_storage TEXT, regions TEXT, multinode TEXT, notes TEXT,"
    " source_url TEXT NOT NULL, as_of TEXT NOT NULL,"
    " PRIMARY KEY (id, origin));"
    "CREATE VIEW catalog AS SELECT * FROM offering AS o WHERE origin = 'user'"
    " OR NOT EXISTS (SELECT 1 FROM offering AS u WHERE u.id = o.id AND u.origin = 'user');",
    /* 1 -> 2 (issue 13): in-network reduction, a spot price and a date per
     * price; the price overlay that price imports write (import --format
     * skypilot), kept apart from `offering` so that a rebuild of the shipped
     * rows keeps it, and shown by the view on the shipped row of its id
     * (a user's row of that id wins whole, its own prices included). */
    "ALTER TABLE offering ADD COLUMN in_network_reduction TEXT;"
    "ALTER TABLE offering ADD COLUMN price_spot_gpu_hr REAL;"
    "ALTER TABLE offering ADD COLUMN price_as_of TEXT;"
    "CREATE TABLE price_overlay ("
    " id TEXT PRIMARY KEY, price_on_demand_gpu_hr REAL, price_spot_gpu_hr REAL,"
    " currency TEXT NOT NULL, price_as_of TEXT NOT NULL, note TEXT NOT NULL,"
    " format TEXT NOT NULL);"
    "DROP VIEW catalog;"
    "CREATE VIEW catalog AS SELECT o.id AS id, o.origin AS origin, o.provider AS provider,"
    " o.offering AS offering, o.gpu AS gpu, o.gpus_per_node AS gpus_per_node,"
    " o.gpu_memory_gb AS gpu_memory_gb, o.intra_link AS intra_link, o.network AS network,"
    " o.network_gbps_per_node AS network_gbps_per_node, o.nics_per_node AS nics_per_node,"
    " o.rdma AS rdma, o.gpudirect_rdma AS gpudirect_rdma, o.topology AS topology,"
    " o.non_blocking AS non_blocking, o.rail_optimized AS rail_optimized,"
    " o.max_cluster_gpus AS max_cluster_gpus, o.orchestration AS orchestration,"
    " o.provisioning AS provisioning, o.min_commitment_h AS min_commitment_h,"
    " o.billing_increment_s AS billing_increment_s,"
    " coalesce(p.price_on_demand_gpu_hr, o.price_on_demand_gpu_hr) AS price_on_demand_gpu_hr,"
    " o.price_reserved_gpu_hr AS price_reserved_gpu_hr,"
    " coalesce(o.currency, p.currency) AS currency, o.shared_storage AS shared_storage,"
    " o.regions AS regions, o.multinode AS multinode,"
    " CASE WHEN p.id IS NULL THEN o.notes WHEN o.notes IS NULL THEN p.note"
    "  ELSE o.notes || ' ' || p.note END AS notes,"
    " o.source_url AS source_url, o.as_of AS as_of,"
    " o.in_network_reduction AS in_network_reduction,"
    " coalesce(p.price_spot_gpu_hr, o.price_spot_gpu_hr) AS price_spot_gpu_hr,"
    " CASE WHEN p.id IS NULL THEN o.price_as_of ELSE p.price_as_of END AS price_as_of,"
    " p.id IS NOT NULL AS overlay"
    " FROM offering AS o LEFT JOIN price_overlay AS p ON p.id = o.id AND o.origin = 'shipped'"
    " WHERE o.origin = 'user'"
    " OR NOT EXISTS (SELECT 1 FROM offering AS u WHERE u.id = o.id AND u.origin = 'user');",
    /* 2 -> 3: an offering's notes and its imported prices' note are
     * joined with "; " (they read as one sentence before). */
    "DROP VIEW catalog;"
    "CREATE VIEW catalog AS SELECT o.id AS id, o.origin AS origin, o.provider AS provider,"
    " o.offering AS offering, o.gpu AS gpu, o.gpus_per_node AS gpus_per_node,"
    " o.gpu_memory_gb AS gpu_memory_gb, o.intra_link AS intra_link, o.network AS network,"
    " o.network_gbps_per_node AS network_gbps_per_node, o.nics_per_node AS nics_per_node,"
    " o.rdma AS rdma, o.gpudirect_rdma AS gpudirect_rdma, o.topology AS topology,"
    " o.non_blocking AS non_blocking, o.rail_optimized AS rail_optimized,"
    " o.max_cluster_gpus AS max_cluster_gpus, o.orchestration AS orchestration,"
    " o.provisioning AS provisioning, o.min_commitment_h AS min_commitment_h,"
    " o.billing_increment_s AS billing_increment_s,"
    " coalesce(p.price_on_demand_gpu_hr, o.price_on_demand_gpu_hr) AS price_on_demand_gpu_hr,"
    " o.price_reserved_gpu_hr AS price_reserved_gpu_hr,"
    " coalesce(o.currency, p.currency) AS currency, o.shared_storage AS shared_storage,"
    " o.regions AS regions, o.multinode AS multinode,"
    " CASE WHEN p.id IS NULL THEN o.notes WHEN o.notes IS NULL THEN p.note"
    "  ELSE o.notes || '; ' || p.note END AS notes,"
    " o.source_url AS source_url, o.as_of AS as_of,"
    " o.in_network_reduction AS in_network_reduction,"
    " coalesce(p.price_spot_gpu_hr, o.price_spot_gpu_hr) AS price_spot_gpu_hr,"
    " CASE WHEN p.id IS NULL THEN o.price_as_of ELSE p.price_as_of END AS price_as_of,"
    " p.id IS NOT NULL AS overlay"
    " FROM offering AS o LEFT JOIN price_overlay AS p ON p.id = o.id AND o.origin = 'shipped'"
    " WHERE o.origin = 'user'"
    " OR NOT EXISTS (SELECT 1 FROM offering AS u WHERE u.id = o.id AND u.origin = 'user');",
    /* 3 -> 4 (issue 22): where each shipped row's price comes from (the
     * provider's page or a shipped pipeline snapshot; the view says "user
     * import" for a user's prices), and the provider table of
     * data/providers.csv, whose rating and provisioning every row shows. */
    "ALTER TABLE offering ADD COLUMN price_source TEXT;"
    "CREATE TABLE provider (provider TEXT PRIMARY KEY COLLATE NOCASE, multinode TEXT,"
    " orchestration TEXT, provisioning TEXT, rating_system TEXT, rating_tier TEXT,"
    " rating_date TEXT, rating_source TEXT, notes TEXT, source_url TEXT NOT NULL,"
    " as_of TEXT NOT NULL);"
    "DROP VIEW catalog;"
    "CREATE VIEW catalog AS SELECT o.id AS id, o.origin AS origin, o.provider AS provider,"
    " o.offering AS offering, o.gpu AS gpu, o.gpus_per_node AS gpus_per_node,"
    " o.gpu_memory_gb AS gpu_memory_gb, o.intra_link AS intra_link, o.network AS network,"
    " o.network_gbps_per_node AS network_gbps_per_node, o.nics_per_node AS nics_per_node,"
    " o.rdma AS rdma, o.gpudirect_rdma AS gpudirect_rdma, o.topology AS topology,"
    " o.non_blocking AS non_blocking, o.rail_optimized AS rail_optimized,"
    " o.max_cluster_gpus AS max_cluster_gpus, o.orchestration AS orchestration,"
    " o.provisioning AS provisioning, o.min_commitment_h AS min_commitment_h,"
    " o.billing_increment_s AS billing_increment_s,"
    " coalesce(p.price_on_demand_gpu_hr, o.price_on_demand_gpu_hr) AS price_on_demand_gpu_hr,"
    " o.price_reserved_gpu_hr AS price_reserved_gpu_hr,"
    " coalesce(o.currency, p.currency) AS currency, o.shared_storage AS shared_storage,"
    " o.regions AS regions, o.multinode AS multinode,"
    " CASE WHEN p.id IS NULL THEN o.notes WHEN o.notes IS NULL THEN p.note"
    "  ELSE o.notes || '; ' || p.note END AS notes,"
    " o.source_url AS source_url, o.as_of AS as_of,"
    " o.in_network_reduction AS in_network_reduction,"
    " coalesce(p.price_spot_gpu_hr, o.price_spot_gpu_hr) AS price_spot_gpu_hr,"
    " CASE WHEN p.id IS NULL THEN o.price_as_of ELSE p.price_as_of END AS price_as_of,"
    " p.id IS NOT NULL AS overlay,"
    " CASE WHEN p.id IS NOT NULL THEN 'user import (' || p.format || ')'"
    "  WHEN o.origin = 'user' AND (o.price_on_demand_gpu_hr IS NOT NULL"
    "   OR o.price_reserved_gpu_hr IS NOT NULL OR o.price_spot_gpu_hr IS NOT NULL)"
    "  THEN 'user import' ELSE o.price_source END AS price_source,"
    " (SELECT r.rating_system || ' ' || r.rating_tier || ', ' || r.rating_date FROM provider AS r"
    "  WHERE r.provider = o.provider AND r.rating_tier IS NOT NULL) AS provider_rating,"
    " (SELECT r.provisioning FROM provider AS r WHERE r.provider = o.provider)"
    "  AS provider_provisioning"
    " FROM offering AS o LEFT JOIN price_overlay AS p ON p.id = o.id AND o.origin = 'shipped'"
    " WHERE o.origin = 'user'"
    " OR NOT EXISTS (SELECT 1 FROM offering AS u WHERE u.id = o.id AND u.origin = 'user');",
};

#define N_MIGRATIONS ((int)(sizeof migrations / sizeof migrations[0]))

/* The environment's refusals (issue 15): a lock held past the busy wait, a
 * full disk, a read-only file or file system. The status (exit 5) and a
 * remedy the user can act on; CF_OK when SQLite's error is none of them. */
static cf_status env_status(sqlite3 *db, const char **remedy)
{
    int rc = db ? sqlite3_errcode(db) & 0xff : SQLITE_OK, e = db ? sqlite3_system_errno(db) : 0;
    if (rc == SQLITE_BUSY || rc == SQLITE_LOCKED) {
        *remedy = "locked by another process for more than 5 s (another clusterfit import?); "
                  "try again when it has finished";
        return CF_EBUSY;
    }
    if (rc == SQLITE_FULL || ((rc == SQLITE_IOERR || rc == SQLITE_CANTOPEN) && e == ENOSPC)) {
        *remedy = "the disk is full; free some space and run it again (nothing was changed)";
        return CF_EENV;
    }
    /* CANTOPEN with ENOENT: the file could not be made (SQLite tries again
     * read-only after EACCES, and that finds no file). */
    if (rc == SQLITE_READONLY || ((rc == SQLITE_IOERR || rc == SQLITE_CANTOPEN) &&
                                  (e == EROFS || e == EACCES || e == EPERM)) ||
        (rc == SQLITE_CANTOPEN && e == ENOENT)) {
        *remedy = "the file or its directory is read-only; writing needs write access to both "
                  "(or choose a writable catalog with --db)";
        return CF_EENV;
    }
    return CF_OK;
}

cf_status cf__db_error(sqlite3 *db, const char *path, cf_error *err, const char *what)
{
    int rc = db ? sqlite3_errcode(db) : SQLITE_NOMEM;
    const char *remedy = NULL;
    cf_status env;
    if (rc == SQLITE_NOMEM) {
        cf_error_set(err, NULL, 0, 0, "catalog %s: %s: out of memory", path, what);
        return CF_ENOMEM;
    }
    env = env_status(db, &remedy);
    if (env != CF_OK) {
        cf_error_set(err, NULL, 0, 0, "catalog %s: %s: %s (%s)", path, what, remedy,
                     sqlite3_errmsg(db));
        return env;
    }
    cf_error_set(err, NULL, 0, 0, "catalog %s: %s: %s", path, what, sqlite3_errmsg(db));
    return CF_EDB;
}

/* A read's failure: its status, and the path and SQLite's reason in the
 * catalog's note (cf_catalog_note), since the read calls have no cf_error. */
static cf_status read_error(cf_catalog *cat, int rc)
{
    cf_error e;
    cf_status st;
    if (rc == SQLITE_NOMEM) return CF_ENOMEM;
    cf_error_clear(&e);
    st = cf__db_error(cat->db, cat->path, &e, "cannot read the offerings");
    snprintf(cat->note, sizeof cat->note, "%s", e.message);
    return st;
}

/* PRAGMA quick_check (issue 15), inside the write transaction that follows
 * it (cf__db_begin_write): CF_OK when the file is sound; CF_EDB with
 * "catalog PATH is damaged (...); nothing was written" and a remedy when it
 * is not; the status of cf__db_error when the check itself could not run
 * (a lock, a full disk). */
static cf_status quick_check(sqlite3 *db, const char *path, cf_error *err)
{
    sqlite3_stmt *st = NULL;
    char first[200] = "";
    int rc = sqlite3_prepare_v2(db, "PRAGMA quick_check(1)", -1, &st, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        const char *t = (const char *)sqlite3_column_text(st, 0);
        snprintf(first, sizeof first, "%s", t ? t : "");
        for (char *p = first; *p; p++)
            if ((unsigned char)*p < 0x20) *p = ' '; /* its report has lines: one message line */
    }
    sqlite3_finalize(st);
    if (rc == SQLITE_ROW && strcmp(first, "ok") == 0) return CF_OK;
    if (rc != SQLITE_ROW && (rc == SQLITE_NOMEM || env_status(db, &(const char *){NULL}) != CF_OK))
        return cf__db_error(db, path, err, "cannot check the file before writing");
    cf_error_set(err, NULL, 0, 0, "catalog %s is damaged (%s); nothing was written. Restore it "
                 "from a backup, or move it away (the next run creates a new catalog with the "
                 "shipped offerings) and import your rows again", path,
                 first[0] ? first : sqlite3_errmsg(db));
    return CF_EDB;
}

cf_status cf__db_begin_write(sqlite3 *db, const char *path, const char *what, cf_error *err)
{
    char msg[160];
    cf_status st;
    if (cf__db_exec(db, "BEGIN IMMEDIATE") != 0) {
        snprintf(msg, sizeof msg, "cannot lock the file to %s", what);
        return cf__db_error(db, path, err, msg);
    }
    st = quick_check(db, path, err); /* never write into a damaged file */
    if (st != CF_OK) cf__db_rollback(db);
    return st;
}

cf_status cf__db_commit(sqlite3 *db, const char *path, const char *what, cf_error *err)
{
    char msg[160];
    cf_status st;
    if (cf__db_exec(db, "COMMIT") == 0) return CF_OK;
    snprintf(msg, sizeof msg, "cannot commit (%s)", what);
    st = cf__db_error(db, path, err, msg);
    cf__db_rollback(db);
    return st;
}

/* Runs a query returning one integer; -1 with the SQLite error kept. */
static int query_int(sqlite3 *db, const char *sql, long long *out)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) *out = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? 0 : -1;
}

int cf__db_exec(sqlite3 *db, const char *sql)
{
    return sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
}

cf_status cf__db_delete(cf_catalog *cat, const char *const *sql, size_t n, const char *what,
                        size_t *removed, cf_error *err)
{
    char msg[160];
    cf_status st;
    for (size_t i = 0; removed && i < n; i++) removed[i] = 0;
    cf_error_clear(err);
    if (!cat) return CF_EINVAL;
    if ((st = cf__db_begin_write(cat->db, cat->path, what, err)) != CF_OK) return st;
    for (size_t i = 0; i < n; i++) {
        if (cf__db_exec(cat->db, sql[i]) != 0) {
            snprintf(msg, sizeof msg, "cannot %s", what);
            st = cf__db_error(cat->db, cat->path, err, msg);
            cf__db_rollback(cat->db);
            for (size_t k = 0; removed && k < n; k++) removed[k] = 0;
            return st;
        }
        if (removed) removed[i] = (size_t)sqlite3_changes(cat->db);
    }
    st = cf__db_commit(cat->db, cat->path, what, err);
    for (size_t i = 0; st != CF_OK && removed && i < n; i++) removed[i] = 0;
    return st;
}

void cf__db_rollback(sqlite3 *db)
{
    /* A ROLLBACK can itself fail (out of memory parsing it, an interrupt):
     * tried again, since a transaction left open makes the next write
     * refuse with "cannot start a transaction within a transaction" and
     * keeps a read lock (issue 21's torture: an allocation or statement
     * failed in the first-use check's ROLLBACK). */
    for (int i = 0; i < 3 && !sqlite3_get_autocommit(db); i++)
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
}

/* What tells a catalog file (issue 21: read together, in one transaction:
 * read one by one, a file another process created between two of them
 * read as application_id 0 with schema objects, "another program"). */
typedef struct markers {
    long long version; /* PRAGMA user_version: the schema's version, 0 for a new file */
    long long app;     /* PRAGMA application_id: APPLICATION_ID, or 0 for a new file */
    long long objects; /* tables, views and indexes in sqlite_master: 0 for a new file */
} markers;

/* Reads the markers inside the caller's transaction and judges them: CF_OK
 * for a file of ours or a new empty one; CF_EPARSE with the path and a
 * remedy for a file that is not an SQLite database, belongs to another
 * program or has a newer schema; cf__db_error's status when it cannot read. */
static cf_status read_markers(sqlite3 *db, const char *path, markers *m, cf_error *err)
{
    if (query_int(db, "PRAGMA user_version", &m->version) != 0) {
        if (sqlite3_errcode(db) == SQLITE_NOTADB) {
            cf_error_set(err, NULL, 0, 0, "catalog %s: not a clusterfit catalog (the file is not "
                         "an SQLite database); move it away or choose another file with --db",
                         path);
            return CF_EPARSE;
        }
        return cf__db_error(db, path, err, "cannot read the file");
    }
    if (query_int(db, "PRAGMA application_id", &m->app) != 0 ||
        query_int(db, "SELECT count(*) FROM sqlite_master", &m->objects) != 0)
        return cf__db_error(db, path, err, "cannot read the schema");
    if (m->app != APPLICATION_ID && (m->app != 0 || m->objects > 0 || m->version != 0)) {
        cf_error_set(err, NULL, 0, 0, "catalog %s: not a clusterfit catalog (an SQLite database "
                     "of another program); move it away or choose another file with --db", path);
        return CF_EPARSE;
    }
    if (m->version > CF_CATALOG_SCHEMA_VERSION) {
        cf_error_set(err, NULL, 0, 0, "catalog %s: schema version %lld is newer than this "
                     "clusterfit's %d; upgrade clusterfit or choose another file with --db",
                     path, m->version, CF_CATALOG_SCHEMA_VERSION);
        return CF_EPARSE;
    }
    return CF_OK;
}

/* Checks that the file is ours and brings its schema to the current
 * version. The markers are read in one read transaction; a file to create
 * or migrate is then locked for writing (cf__db_begin_write), its markers
 * read and judged again inside that transaction (another process may have
 * created or migrated it meanwhile), and every step is applied before one
 * COMMIT: concurrent first uses of a new file see it either empty or
 * complete, never half-made. That COMMIT is sync_shipped's: a migration
 * returns CF_OK with *open_tx = 1 and its write still open, so that the
 * schema and the shipped rows of a first use are one transaction (a kill
 * between two would leave a schema without rows, issue 21's torture). */
static cf_status migrate(sqlite3 *db, const char *path, int *open_tx, cf_error *err)
{
    markers m;
    cf_status st;
    *open_tx = 0;
    if (cf__db_exec(db, "BEGIN") != 0) return cf__db_error(db, path, err, "cannot read the file");
    st = read_markers(db, path, &m, err);
    cf__db_rollback(db); /* a read transaction: nothing to keep */
    if (st != CF_OK || m.version == CF_CATALOG_SCHEMA_VERSION) return st;
    if ((st = cf__db_begin_write(db, path, "create the schema", err)) != CF_OK) return st;
    if ((st = read_markers(db, path, &m, err)) != CF_OK) {
        cf__db_rollback(db);
        return st;
    }
    for (int v = (int)m.version; v < N_MIGRATIONS; v++) {
        char sql[64];
        snprintf(sql, sizeof sql, "PRAGMA user_version = %d", v + 1);
        if (cf__db_exec(db, migrations[v]) != 0 || cf__db_exec(db, sql) != 0) {
            st = cf__db_error(db, path, err, "cannot create the schema");
            cf__db_rollback(db);
            return st;
        }
    }
    *open_tx = 1; /* committed with the shipped rows (sync_shipped): one first use, one write */
    return CF_OK;
}

/* "SELECT id, provider, ..., origin FROM catalog" and the matching INSERT. */
static char *select_sql(const char *tail)
{
    size_t cap = 1024 + strlen(tail), used;
    char *sql = cf__malloc(cap);
    if (!sql) return NULL;
    used = (size_t)snprintf(sql, cap, "SELECT ");
    for (int c = 0; c < CF_OFFERING_NCOLS; c++)
        used += (size_t)snprintf(sql + used, cap - used, "%s, ", cf__columns[c].name);
    snprintf(sql + used, cap - used, "origin, overlay, price_source, provider_rating,"
             " provider_provisioning FROM catalog%s", tail);
    return sql;
}

static char *insert_sql(void)
{
    size_t cap = 1200, used;
    char *sql = cf__malloc(cap);
    if (!sql) return NULL;
    used = (size_t)snprintf(sql, cap, "INSERT OR REPLACE INTO offering (origin");
    for (int c = 0; c < CF_OFFERING_NCOLS; c++)
        used += (size_t)snprintf(sql + used, cap - used, ", %s", cf__columns[c].name);
    used += (size_t)snprintf(sql + used, cap - used, ", price_source) VALUES (?, ?");
    for (int c = 0; c < CF_OFFERING_NCOLS; c++)
        used += (size_t)snprintf(sql + used, cap - used, ", ?");
    snprintf(sql + used, cap - used, ")");
    return sql;
}

#define CMEM(o, c, type) ((const type *)(const void *)((const char *)(o) + cf__columns[c].off))

static int bind_offering(sqlite3_stmt *st, const cf_offering *o, const char *origin)
{
    int rc = sqlite3_bind_text(st, 1, origin, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK)
        rc = o->price_source ? sqlite3_bind_text(st, CF_OFFERING_NCOLS + 2, o->price_source, -1,
                                                 SQLITE_STATIC)
                             : sqlite3_bind_null(st, CF_OFFERING_NCOLS + 2);
    for (int c = 0; c < CF_OFFERING_NCOLS && rc == SQLITE_OK; c++) {
        int i = c + 2;
        char buf[256];
        if (cf_offering_column_unknown(o, c)) {
            rc = sqlite3_bind_null(st, i);
            continue;
        }
        switch (cf__columns[c].kind) {
        case CF__COL_INT_POS: case CF__COL_INT_NONNEG:
            rc = sqlite3_bind_int64(st, i, *CMEM(o, c, long));
            break;
        case CF__COL_NUM_POS: case CF__COL_NUM_NONNEG:
            rc = sqlite3_bind_double(st, i, *CMEM(o, c, double));
            break;
        case CF__COL_INTRA: case CF__COL_NET: case CF__COL_CAP: case CF__COL_SET:
            cf_offering_column_text(o, c, buf, sizeof buf);
            rc = sqlite3_bind_text(st, i, buf, -1, SQLITE_TRANSIENT);
            break;
        default:
            rc = sqlite3_bind_text(st, i, *CMEM(o, c, char *), -1, SQLITE_STATIC);
        }
    }
    return rc;
}

cf_status cf__db_insert_all(sqlite3 *db, const char *path, const cf_offering_list *l,
                            const char *origin, cf_error *err)
{
    char *sql = insert_sql();
    sqlite3_stmt *st = NULL;
    cf_status status = CF_OK;
    if (!sql) return CF_ENOMEM;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
        status = cf__db_error(db, path, err, "cannot prepare the insert");
        goto done;
    }
    for (size_t i = 0; i < l->n; i++) {
        sqlite3_reset(st);
        sqlite3_clear_bindings(st);
        if (bind_offering(st, &l->items[i], origin) != SQLITE_OK || sqlite3_step(st) != SQLITE_DONE) {
            status = cf__db_error(db, path, err, "cannot insert an offering");
            goto done;
        }
    }
done:
    sqlite3_finalize(st);
    cf__free(sql);
    return status;
}

static int read_meta(sqlite3 *db, const char *key, char *buf, size_t n)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db, "SELECT value FROM meta WHERE key = ?", -1, &st, NULL);
    buf[0] = '\0';
    if (rc == SQLITE_OK) rc = sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) snprintf(buf, n, "%s", (const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : -1;
}

static int write_meta(sqlite3 *db, const char *key, const char *value)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", -1,
                                &st, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK) rc = sqlite3_bind_text(st, 2, value, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

/* What the shipped rows are built from: the offerings, the provider table
 * and the price snapshots (cf__catalog_open_full). */
typedef struct shipped_in {
    const char *name, *csv;     /* data/offerings.csv (name for messages) */
    size_t len;
    const char *prov;           /* data/providers.csv, NULL for none */
    size_t prov_len;
    const cf__snapshot *snaps;  /* data/prices/ snapshots */
    size_t nsnaps;
} shipped_in;

/* The hash stored in meta.shipped_hash: plain FNV-1a of the format tag
 * (with its NUL), the offerings CSV and then, when any, the provider table
 * and each snapshot's name and bytes. */
static void shipped_hash(const shipped_in *in, char want[32])
{
    uint64_t h = cf__fnv1a(CF__FNV_BASIS, SHIPPED_FORMAT, sizeof SHIPPED_FORMAT);
    h = cf__fnv1a(h, in->csv, in->len);
    if (in->prov) h = cf__fnv1a(h, in->prov, in->prov_len);
    for (size_t i = 0; i < in->nsnaps; i++) {
        h = cf__fnv1a(h, in->snaps[i].name, strlen(in->snaps[i].name) + 1);
        h = cf__fnv1a(h, in->snaps[i].data, in->snaps[i].len);
    }
    snprintf(want, 32, "%016llx", (unsigned long long)h);
}

/* The shipped rows, parsed, priced from the snapshots, each priced row with
 * its price_source; a bad input leaves *l empty with err set. */
static cf_status shipped_rows(const shipped_in *in, cf_offering_list *l, cf_error *err)
{
    cf_status st = cf_offerings_parse(in->name, in->csv, in->len, CF_IMPORT_CSV, NULL, l, err);
    if (st == CF_OK && in->prov) st = cf__providers_check("data/providers.csv", in->prov,
                                                          in->prov_len, err);
    if (st == CF_OK) st = cf__snapshots_apply(l, in->snaps, in->nsnaps, NULL, err);
    for (size_t i = 0; st == CF_OK && i < l->n; i++) {
        cf_offering *o = &l->items[i];
        int priced = !isnan(o->price_on_demand_gpu_hr) || !isnan(o->price_reserved_gpu_hr) ||
                     !isnan(o->price_spot_gpu_hr);
        if (priced && !o->price_source && !(o->price_source = cf__strdup("provider page")))
            st = CF_ENOMEM;
    }
    if (st != CF_OK) cf_offering_list_clear(l);
    return st;
}


int cf__db_read_meta(sqlite3 *db, const char *key, char *buf, size_t n)
{
    return read_meta(db, key, buf, n);
}

int cf__db_write_meta(sqlite3 *db, const char *key, const char *value)
{
    return write_meta(db, key, value);
}

/* Rebuilds the shipped rows when the stored hash is not that of the inputs.
 * in_tx: the write migrate left open, which this commits (or rolls back on
 * failure); else the rebuild takes its own write. */
static cf_status sync_shipped(sqlite3 *db, const char *path, const shipped_in *in, int in_tx, cf_error *err)
{
    char want[32], have[32], count[32];
    cf_offering_list l = {NULL, 0};
    cf_status st;

    shipped_hash(in, want);
    if (read_meta(db, "shipped_hash", have, sizeof have) != 0) {
        st = cf__db_error(db, path, err, "cannot read the catalog's metadata");
        goto done;
    }
    if (strcmp(want, have) == 0)
        return in_tx ? cf__db_commit(db, path, "the new schema", err) : CF_OK;
    /* A catalog release file's rows stand in for the embedded ones until
     * it is removed (release.c, import --builtin-catalog). */
    if (read_meta(db, "release_date", count, sizeof count) != 0) {
        st = cf__db_error(db, path, err, "cannot read the catalog's metadata");
        goto done;
    }
    if (count[0]) return in_tx ? cf__db_commit(db, path, "the new schema", err) : CF_OK;
    /* Parse and price before locking: a bad shipped file or snapshot leaves
     * the database as it was, nothing half-applied. */
    if ((st = shipped_rows(in, &l, err)) != CF_OK) goto done;
    if (!in_tx && (st = cf__db_begin_write(db, path, "rebuild the shipped offerings", err)) != CF_OK)
        goto done;
    if (read_meta(db, "shipped_hash", have, sizeof have) != 0) goto dbfail;
    if (strcmp(want, have) != 0) { /* else another process rebuilt it meanwhile */
        snprintf(count, sizeof count, "%zu", l.n);
        if (cf__db_exec(db, "DELETE FROM offering WHERE origin = 'shipped'") != 0) goto dbfail;
        st = cf__db_insert_all(db, path, &l, "shipped", err);
        if (st == CF_OK && in->prov)
            st = cf__providers_write(db, path, "data/providers.csv", in->prov, in->prov_len, err);
        else if (st == CF_OK && cf__db_exec(db, "DELETE FROM provider") != 0)
            goto dbfail;
        if (st != CF_OK) goto done;
        if (write_meta(db, "shipped_hash", want) != 0 || write_meta(db, "shipped_rows", count) != 0)
            goto dbfail;
    }
    st = cf__db_commit(db, path, "the rebuilt shipped offerings", err);
    goto done;
dbfail:
    st = cf__db_error(db, path, err, "cannot rebuild the shipped offerings");
done:
    if (st != CF_OK) cf__db_rollback(db);
    cf_offering_list_clear(&l);
    return st;
}

/* A path that cannot be a catalog file for a reason the user can fix: a
 * directory, or a file in a directory that does not exist. SQLite would only
 * say "unable to open database file". CF_EINVAL with err set, else CF_OK. */
static cf_status check_path(const char *path, cf_error *err)
{
    struct stat sb;
    char dir[4096];
    const char *slash;
    if (stat(path, &sb) == 0) {
        if (S_ISREG(sb.st_mode)) return CF_OK;
        if (S_ISDIR(sb.st_mode))
            cf_error_set(err, NULL, 0, 0, "catalog %s: is a directory; give the path of a file, such "
                         "as %s%scatalog.db", path, path, path[strlen(path) - 1] == '/' ? "" : "/");
        else    /* issue 21: /dev/null was opened, and SQLite left /dev/null-journal beside it */
            cf_error_set(err, NULL, 0, 0, "catalog %s: not a regular file (a device, FIFO or "
                         "socket); give the path of a file, such as ~/catalog.db", path);
        return CF_EINVAL;
    }
    if (errno != ENOENT) return CF_OK; /* SQLite reports the rest */
    slash = strrchr(path, '/');
    if (slash == path || (slash && (size_t)(slash - path) >= sizeof dir)) return CF_OK;
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
    if (stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode)) {
        /* A new file in a directory this user cannot write (issue 21: SQLite's
         * "unable to open database file" was exit 4, not the environment's 5). */
        if (access(dir, W_OK | X_OK) == 0) return CF_OK;
        cf_error_set(err, NULL, 0, 0, "catalog %s: cannot create it: the directory %s is not "
                     "writable (%s); give write access to it, or choose another file with --db",
                     path, dir, strerror(errno));
        return CF_EENV;
    }
    cf_error_set(err, NULL, 0, 0, "catalog %s: cannot open: the directory %s does not exist; "
                 "create it (mkdir -p %s) or choose another file with --db", path, dir, dir);
    return CF_EENV;
}

/* Keeps the device and inode of the file at `path` (none for an in-memory
 * catalog): what cf_catalog_replaced compares. SQLite holds the file open
 * from sqlite3_open_v2 on, so while the handle lives no other file can
 * take that inode. */
static void note_identity(cf_catalog *cat, const char *path)
{
    struct stat sb;
    cat->have_id = 0;
    if (!path || !*path || strcmp(path, ":memory:") == 0 || stat(path, &sb) != 0) return;
    cat->dev = sb.st_dev;
    cat->ino = sb.st_ino;
    cat->have_id = 1;
}

int cf_catalog_replaced(const cf_catalog *cat)
{
    struct stat sb;
    if (!cat || !cat->have_id) return 0;
    if (stat(cat->path, &sb) != 0) return errno == ENOENT || errno == ENOTDIR;
    return sb.st_dev != cat->dev || sb.st_ino != cat->ino;
}

cf_status cf__catalog_open_shipped(const char *path, const char *shipped_name,
                                   const char *shipped_csv, size_t shipped_len, cf_catalog **out,
                                   cf_error *err)
{
    return cf__catalog_open_full(path, shipped_name, shipped_csv, shipped_len, NULL, 0, NULL, 0,
                                 out, err);
}

cf_status cf__catalog_open_full(const char *path, const char *shipped_name,
                                const char *shipped_csv, size_t shipped_len,
                                const char *providers_csv, size_t providers_len,
                                const cf__snapshot *snaps, size_t nsnaps, cf_catalog **out,
                                cf_error *err)
{
    shipped_in in;
    cf_catalog *cat = NULL;
    const char *shown = path ? path : ":memory:";
    cf_status st;
    sqlite3_stmt *check = NULL;
    char *sql = NULL;
    int rc, open_tx = 0;

    cf_error_clear(err);
    if (!out) return CF_EINVAL;
    *out = NULL;
    if (!shipped_csv && shipped_len) return CF_EINVAL;
    if (path && *path && (st = check_path(path, err)) != CF_OK) return st;
    cat = cf__calloc(1, sizeof *cat);
    if (!cat) return CF_ENOMEM;
    cat->path = cf__strdup(shown);
    if (!cat->path) { st = CF_ENOMEM; goto fail; }
    rc = sqlite3_open_v2(path ? path : ":memory:", &cat->db,
                         SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
    if (rc != SQLITE_OK) {
        st = cf__db_error(cat->db, shown, err, "cannot open");
        goto fail;
    }
    sqlite3_busy_timeout(cat->db, 5000); /* another clusterfit rebuilding or importing */
    st = migrate(cat->db, shown, &open_tx, err);
    if (st != CF_OK) goto fail;
    /* The schema is what this library expects (a file may claim version 1
     * and lack the table): prepare the query every read uses. */
    sql = select_sql(" LIMIT 0");
    if (!sql) { st = CF_ENOMEM; goto fail; }
    if (sqlite3_prepare_v2(cat->db, sql, -1, &check, NULL) != SQLITE_OK) {
        st = cf__db_error(cat->db, shown, err, "not a clusterfit catalog of this version (unexpected schema)");
        if (st == CF_EDB) st = CF_EPARSE;
        goto fail;
    }
    in.name = shipped_name ? shipped_name : "shipped catalog";
    in.csv = shipped_csv ? shipped_csv : "";
    in.len = shipped_len;
    in.prov = providers_csv;
    in.prov_len = providers_len;
    in.snaps = snaps;
    in.nsnaps = nsnaps;
    st = sync_shipped(cat->db, shown, &in, open_tx, err);
    if (st == CF_EENV && !open_tx) {
        /* A catalog this user cannot write (shared, another user's, a
         * read-only mount) or on a full disk: its rows are used as they
         * are, with a warning; only writes (import) fail, with exit 5. */
        if (sqlite3_db_readonly(cat->db, "main") == 1)
            snprintf(cat->open_note, sizeof cat->open_note, "catalog %s is read-only: its shipped "
                     "offerings are those of an older clusterfit and are used as they are (give "
                     "write access, or a writable catalog with --db, to update them)", shown);
        else
            snprintf(cat->open_note, sizeof cat->open_note, "catalog %s: the disk is full: its "
                     "shipped offerings are those of an older clusterfit and are used as they are "
                     "(free some space to update them)", shown);
        snprintf(cat->note, sizeof cat->note, "%s", cat->open_note);
        cf_error_clear(err);
        st = CF_OK;
    }
    if (st != CF_OK) goto fail;
    sqlite3_finalize(check);
    cf__free(sql);
    note_identity(cat, path);
    *out = cat;
    return CF_OK;
fail:
    sqlite3_finalize(check);
    if (cat->db) cf__db_rollback(cat->db); /* a migration's write left open */
    cf__free(sql);
    cf_catalog_close(cat);
    return st;
}

cf_status cf__db_builtin_rows(cf_offering_list *l, char hash[32], cf_error *err)
{
    shipped_in in = {0};
    cf__snapshot *snaps = NULL;
    cf__csv_table prov_t;
    size_t n = 0;
    cf_status st;
    in.name = "data/offerings.csv";
    in.csv = cf__embedded_find("data/offerings.csv", &in.len);
    if (!in.csv) {
        cf_error_set(err, NULL, 0, 0, "this clusterfit was built without data/offerings.csv, so "
                     "it has no built-in catalog; rebuild it from a complete source tree");
        return CF_EINTERNAL;
    }
    in.prov = cf__embedded_find("data/providers.csv", &in.prov_len);
    if ((st = cf__snapshots_embedded(&prov_t, &snaps, &n, err)) != CF_OK) return st;
    in.snaps = snaps;
    in.nsnaps = n;
    shipped_hash(&in, hash);
    st = shipped_rows(&in, l, err);
    cf__free(snaps);
    cf__csv_table_clear(&prov_t);
    return st;
}

cf_status cf_catalog_open(const char *path, cf_catalog **out, cf_error *err)
{
    size_t len = 0;
    const char *csv = cf__embedded_find("data/offerings.csv", &len);
    cf_error_clear(err);
    if (!csv) {
        if (out) *out = NULL;
        cf_error_set(err, NULL, 0, 0, "this clusterfit was built without data/offerings.csv, so "
                     "it has no shipped catalog; rebuild it from a complete source tree");
        return CF_EINTERNAL;
    }
    {
        size_t plen = 0, n = 0;
        const char *prov = cf__embedded_find("data/providers.csv", &plen);
        cf__snapshot *snaps = NULL;
        cf__csv_table prov_t;
        cf_status st = cf__snapshots_embedded(&prov_t, &snaps, &n, err);
        if (st == CF_OK)
            st = cf__catalog_open_full(path, "data/offerings.csv", csv, len, prov, plen, snaps, n,
                                       out, err);
        else if (out)
            *out = NULL;
        cf__free(snaps);
        cf__csv_table_clear(&prov_t);
        return st;
    }
}

void cf_catalog_close(cf_catalog *cat)
{
    if (!cat) return;
    sqlite3_close(cat->db);
    cf__free(cat->path);
    cf__free(cat);
}

/* ---- reading rows -------------------------------------------------------- */

/* Fills o from the current row of a select_sql() statement. CF_EPARSE with
 * "offering 'ID': COLUMN: expected ..." in why (size n) when a stored value
 * does not pass the column's checks (a hand-edited or damaged file): every
 * value goes through the import's cell checks, whole numbers included (a
 * stored count past its bound would otherwise reach the plan's arithmetic). */
static cf_status read_row(sqlite3_stmt *st, cf_offering *o, char *why, size_t n)
{
    char cell[256];
    const char *origin;
    cf__offering_init(o);
    for (int c = 0; c < CF_OFFERING_NCOLS; c++) {
        int type = sqlite3_column_type(st, c);
        cf__col_kind k = cf__columns[c].kind;
        cf_status s;
        if (type == SQLITE_NULL && !cf__columns[c].required) continue;
        if ((k == CF__COL_NUM_POS || k == CF__COL_NUM_NONNEG) &&
            (type == SQLITE_FLOAT || type == SQLITE_INTEGER)) {
            double x = sqlite3_column_double(st, c);
            if (k == CF__COL_NUM_POS ? x > 0 && x < HUGE_VAL : x >= 0 && x < HUGE_VAL) {
                *(double *)(void *)((char *)o + cf__columns[c].off) = x;
                continue;
            }
        }
        {
            const char *text = (const char *)sqlite3_column_text(st, c);
            if (!text && type != SQLITE_NULL) return CF_ENOMEM;
            s = cf__offering_set_cell(o, c, text ? text : "", text ? (size_t)sqlite3_column_bytes(st, c) : 0,
                                      cell, sizeof cell);
        }
        if (s == CF_ENOMEM) return s;
        if (s != CF_OK) {
            const char *id = (const char *)sqlite3_column_text(st, 0);
            snprintf(why, n, "offering '%.64s': %s", id ? id : "?", cell);
            return CF_EPARSE;
        }
    }
    origin = (const char *)sqlite3_column_text(st, CF_OFFERING_NCOLS);
    o->user_row = origin && strcmp(origin, "user") == 0;
    o->price_overlay = sqlite3_column_int(st, CF_OFFERING_NCOLS + 1) != 0;
    {
        char **dst[3];
        dst[0] = &o->price_source;
        dst[1] = &o->provider_rating;
        dst[2] = &o->provider_provisioning;
        for (int i = 0; i < 3; i++) {
            const char *text = (const char *)sqlite3_column_text(st, CF_OFFERING_NCOLS + 2 + i);
            if (text && !(*dst[i] = cf__strdup(text))) return CF_ENOMEM;
        }
    }
    return CF_OK;
}

/* Notes a row that read_row refused: counted, the first one's reason kept. */
static void note_skipped(cf_catalog *cat, size_t *skipped, const char *why)
{
    if ((*skipped)++ == 0)
        snprintf(cat->note, sizeof cat->note, "catalog %.120s: a stored row fails its checks and is "
                 "skipped: %.240s (import the row again, or remove it)", cat->path, why);
}

const char *cf_catalog_note(const cf_catalog *cat)
{
    return cat ? cat->note : "";
}

cf_status cf_catalog_query(cf_catalog *cat, const cf_filter *f, cf_sort sort, cf_offering_list *out)
{
    char *sql = NULL;
    sqlite3_stmt *st = NULL;
    cf_offering_list l = {NULL, 0};
    size_t cap = 0;
    cf_status status = CF_OK;
    int rc;

    char why[CF_ERROR_MSG_MAX];
    size_t skipped = 0;

    if (!cat || !out) return CF_EINVAL;
    out->items = NULL;
    out->n = 0;
    cat->note[0] = '\0';
    sql = select_sql("");
    if (!sql) return CF_ENOMEM;
    if (sqlite3_prepare_v2(cat->db, sql, -1, &st, NULL) != SQLITE_OK) {
        status = read_error(cat, sqlite3_errcode(cat->db));
        goto done;
    }
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        cf_offering o;
        status = read_row(st, &o, why, sizeof why);
        if (status == CF_EPARSE) {
            /* One bad row does not disable the catalog (issue 15). */
            note_skipped(cat, &skipped, why);
            cf_offering_clear(&o);
            status = CF_OK;
            continue;
        }
        if (status == CF_OK && !cf_offering_matches(&o, f)) {
            cf_offering_clear(&o);
            continue;
        }
        if (status == CF_OK && cf__list_push(&l, &cap, &o) != CF_OK) status = CF_ENOMEM;
        if (status != CF_OK) {
            cf_offering_clear(&o);
            goto done;
        }
    }
    if (rc != SQLITE_DONE) {
        status = read_error(cat, rc);
        goto done;
    }
    if (skipped > 1) {
        size_t len = strlen(cat->note);
        snprintf(cat->note + len, sizeof cat->note - len, "; %zu rows skipped in all", skipped);
    }
    status = cf__offering_sort(&l, sort);
    if (status != CF_OK) goto done;
    *out = l;
    l.items = NULL;
    l.n = 0;
done:
    cf_offering_list_clear(&l);
    sqlite3_finalize(st);
    cf__free(sql);
    return status;
}

cf_status cf_catalog_get(cf_catalog *cat, const char *id, cf_offering **out)
{
    char *sql = NULL;
    sqlite3_stmt *st = NULL;
    cf_offering *o = NULL;
    cf_status status = CF_OK;
    int rc;

    char why[CF_ERROR_MSG_MAX];

    if (!cat || !id || !out) return CF_EINVAL;
    *out = NULL;
    cat->note[0] = '\0';
    sql = select_sql(" WHERE id = ?");
    if (!sql) return CF_ENOMEM;
    if (sqlite3_prepare_v2(cat->db, sql, -1, &st, NULL) != SQLITE_OK ||
        sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC) != SQLITE_OK) {
        status = read_error(cat, sqlite3_errcode(cat->db));
        goto done;
    }
    rc = sqlite3_step(st);
    if (rc == SQLITE_DONE) { status = CF_ENOTFOUND; goto done; }
    if (rc != SQLITE_ROW) { status = read_error(cat, rc); goto done; }
    o = cf__malloc(sizeof *o);
    if (!o) { status = CF_ENOMEM; goto done; }
    status = read_row(st, o, why, sizeof why);
    if (status == CF_EPARSE) {
        /* The row of that id is damaged: as good as absent, and said. */
        size_t skipped = 0;
        note_skipped(cat, &skipped, why);
        status = CF_ENOTFOUND;
    }
    if (status != CF_OK) {
        cf_offering_free(o);
        goto done;
    }
    *out = o;
done:
    sqlite3_finalize(st);
    cf__free(sql);
    return status;
}
