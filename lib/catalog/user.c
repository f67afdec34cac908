/* user.c — the user's rows: importing a file or a text (inserted or
 * replacing the user's rows of the same ids), removing some by id, and
 * removing all of them (with the imported prices: cf_catalog_reset).
 *
 * A user's row lives in the same table as the shipped rows with origin
 * 'user' and hides the shipped row of its id (the view `catalog`); removing
 * it brings that shipped row back. Every change is one transaction that
 * either happens whole or not at all: an import is validated completely
 * (cf_offerings_parse) before the file is locked, and a removal checks
 * every id before it deletes any, so a mistyped id removes nothing. */
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include "clusterfit/catalog.h"
#include "clusterfit/limits.h"
#include "catalog/catalog_int.h"
#include "base/base.h"

/* ---- import -------------------------------------------------------------- */

cf_status cf_catalog_import(cf_catalog *cat, const char *name, const char *data, size_t len,
                            cf_import_format fmt, const cf_import_opts *opts, size_t *n_rows,
                            cf_error *err)
{
    cf_offering_list l = {NULL, 0};
    cf_status st;
    if (n_rows) *n_rows = 0;
    if (!cat) return CF_EINVAL;
    st = cf_offerings_parse(name, data, len, fmt, opts, &l, err);
    if (st != CF_OK) return st;
    if ((st = cf__db_begin_write(cat->db, cat->path, "import", err)) != CF_OK) goto done;
    st = cf__db_insert_all(cat->db, cat->path, &l, "user", err);
    if (st == CF_OK) st = cf__db_commit(cat->db, cat->path, "the import", err);
    else cf__db_rollback(cat->db);
    if (st == CF_OK && n_rows) *n_rows = l.n;
done:
    cf_offering_list_clear(&l);
    return st;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && cf__strcasecmp(s + a - b, suffix) == 0;
}

cf_status cf_catalog_import_file(cf_catalog *cat, const char *path, const cf_import_opts *opts,
                                 size_t *n_rows, cf_error *err)
{
    char *buf = NULL;
    size_t len = 0;
    cf_import_format fmt = CF_IMPORT_CSV;
    cf_status st;

    if (n_rows) *n_rows = 0;
    cf_error_clear(err);
    if (!cat || !path) return CF_EINVAL;
    st = cf__read_file(path, (size_t)CF_MAX_IMPORT_BYTES, "CF_MAX_IMPORT_BYTES", &buf, &len, err);
    if (st != CF_OK) return st;
    if (ends_with(path, ".json")) {
        fmt = CF_IMPORT_JSON;
    } else if (!ends_with(path, ".csv")) {
        size_t i = 0;
        while (i < len && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\r' || buf[i] == '\n')) i++;
        if (i < len && buf[i] == '[') fmt = CF_IMPORT_JSON;
    }
    st = cf_catalog_import(cat, path, buf, len, fmt, opts, n_rows, err);
    cf__free(buf);
    return st;
}

/* 1 when the catalog has a row `id` of `origin`, 0 when not, -1 on error. */
static int has_row(sqlite3 *db, const char *id, const char *origin)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db, "SELECT 1 FROM offering WHERE id = ? AND origin = ?", -1, &st,
                                NULL);
    if (rc == SQLITE_OK) rc = sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK) rc = sqlite3_bind_text(st, 2, origin, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

cf_status cf_catalog_remove_user(cf_catalog *cat, const char *const *ids, size_t n,
                                 size_t *removed, cf_error *err)
{
    sqlite3_stmt *st = NULL;
    cf_status status = CF_OK;
    char missing[CF_ERROR_MSG_MAX - 128] = "";
    size_t n_missing = 0, count = 0, used = 0;

    if (removed) *removed = 0;
    cf_error_clear(err);
    if (!cat || (!ids && n)) return CF_EINVAL;
    if ((status = cf__db_begin_write(cat->db, cat->path, "remove offerings", err)) != CF_OK)
        return status;
    /* Every id is checked before anything is deleted: all or nothing. */
    for (size_t i = 0; i < n; i++) {
        int user = ids[i] ? has_row(cat->db, ids[i], "user") : 0, shipped;
        if (user < 0) goto dbfail;
        if (user) continue;
        shipped = ids[i] ? has_row(cat->db, ids[i], "shipped") : 0;
        if (shipped < 0) goto dbfail;
        n_missing++;
        if (used < sizeof missing)
            used += (size_t)snprintf(missing + used, sizeof missing - used, "%s\"%.64s\"%s",
                                     n_missing > 1 ? ", " : "", ids[i] ? ids[i] : "",
                                     shipped ? " (a shipped offering: only rows you imported "
                                               "can be removed)" : "");
    }
    if (n_missing) {
        cf_error_set(err, NULL, 0, 0, "no offering you imported has the id%s %s; nothing was "
                     "removed (your rows: 'clusterfit list --format json', origin \"user\")",
                     n_missing > 1 ? "s" : "", missing);
        status = CF_ENOTFOUND;
        goto done;
    }
    if (sqlite3_prepare_v2(cat->db, "DELETE FROM offering WHERE id = ? AND origin = 'user'", -1,
                           &st, NULL) != SQLITE_OK)
        goto dbfail;
    for (size_t i = 0; i < n; i++) {
        sqlite3_reset(st);
        if (sqlite3_bind_text(st, 1, ids[i], -1, SQLITE_STATIC) != SQLITE_OK ||
            sqlite3_step(st) != SQLITE_DONE)
            goto dbfail;
        count += (size_t)sqlite3_changes(cat->db);
    }
    sqlite3_finalize(st);
    if ((status = cf__db_commit(cat->db, cat->path, "the removal", err)) != CF_OK) return status;
    if (removed) *removed = count;
    return CF_OK;
dbfail:
    status = cf__db_error(cat->db, cat->path, err, "cannot remove offerings");
done:
    sqlite3_finalize(st);
    cf__db_rollback(cat->db);
    return status;
}

/* What a reset deletes: the user's rows, then the imported prices (the
 * price overlay, prices.c). */
static const char *const reset_sql[] = {"DELETE FROM offering WHERE origin = 'user'",
                                        "DELETE FROM price_overlay"};

cf_status cf_catalog_reset_user(cf_catalog *cat, size_t *removed, cf_error *err)
{
    return cf__db_delete(cat, reset_sql, 1, "remove your offerings", removed, err);
}

cf_status cf_catalog_reset_prices(cf_catalog *cat, size_t *removed, cf_error *err)
{
    return cf__db_delete(cat, reset_sql + 1, 1, "remove your imported prices", removed, err);
}

cf_status cf_catalog_reset(cf_catalog *cat, size_t *rows, size_t *prices, cf_error *err)
{
    size_t n[2] = {0, 0};
    cf_status st = cf__db_delete(cat, reset_sql, 2, "remove your offerings and imported prices",
                                 n, err);
    if (rows) *rows = n[0];
    if (prices) *prices = n[1];
    return st;
}
