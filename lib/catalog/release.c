/* release.c — catalog release files (release.h, issue 26): a dated
 * offerings CSV installed in place of the shipped rows, going back to the
 * built-in rows, and what a catalog says of its shipped rows' provenance.
 *
 * A release's rows are stored as the shipped rows are (origin 'shipped' in
 * `offering`, db.c), so the view, the user's rows and the price overlay
 * treat them alike; its record is five meta keys (release_date,
 * release_source, release_file, release_rows, release_installed). While
 * release_date is set, db.c's rebuild of the shipped rows from the
 * embedded CSV does not run: a new library keeps a release it finds. Every
 * change is one write transaction (cf__db_begin_write), after every check:
 * the file is installed whole or not at all. */
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include "clusterfit/release.h"
#include "clusterfit/date.h"
#include "clusterfit/limits.h"
#include "catalog/catalog_int.h"
#include "base/base.h"

#define MAGIC "#clusterfit-catalog"

/* The first line of a release file. */
typedef struct release_head {
    char date[CF_DATE_SIZE];        /* date=, YYYY-MM-DD */
    char source[CF_MAX_FIELD_BYTES];/* source=, an http(s) URL */
    size_t body;                    /* offset of the line after it (the CSV header) */
} release_head;

static cf_status head_error(cf_error *err, const char *name, size_t col, const char *msg,
                            const char *got, size_t got_len)
{
    if (got_len == 0)
        cf_error_set(err, name, 1, (long)col + 1, "%s", msg);
    else
        cf_error_set(err, name, 1, (long)col + 1, "%s, got \"%.*s\"", msg,
                     (int)(got_len > 80 ? 80 : got_len), got);
    return CF_EPARSE;
}

/* One KEY=VALUE field of the first line (tok, n bytes at column col). */
static cf_status head_field(release_head *h, const char *name, const char *tok, size_t n,
                            size_t col, const char *today, cf_error *err)
{
    const char *eq = memchr(tok, '=', n);
    size_t kl = eq ? (size_t)(eq - tok) : 0, vl = eq ? n - kl - 1 : 0;
    const char *v = eq ? eq + 1 : NULL;
    int y, m, d;
    long days;
    if (!eq || kl == 0)
        return head_error(err, name, col, "first line: expected KEY=VALUE (date=, source=)", tok, n);
    if (kl == 4 && memcmp(tok, "date", 4) == 0) {
        if (h->date[0]) return head_error(err, name, col, "first line: date given twice", tok, n);
        if (vl != 10) return head_error(err, name, col, "date: expected YYYY-MM-DD", v, vl);
        memcpy(h->date, v, 10);
        h->date[10] = '\0';
        if (cf__date_parse(h->date, &y, &m, &d) != 0 || d == 0) {
            h->date[0] = '\0';
            return head_error(err, name, col, "date: expected YYYY-MM-DD", v, vl);
        }
        if (today && cf_age_days(h->date, today, &days) == CF_OK && days < 0) {
            cf_error_set(err, name, 1, (long)col + 1, "date: expected a date no later than "
                         "today (%s), got \"%s\"", today, h->date);
            return CF_EPARSE;
        }
        return CF_OK;
    }
    if (kl == 6 && memcmp(tok, "source", 6) == 0) {
        if (h->source[0]) return head_error(err, name, col, "first line: source given twice", tok, n);
        if (vl >= sizeof h->source || (strncmp(v, "https://", 8) != 0 && strncmp(v, "http://", 7) != 0) ||
            vl <= (size_t)(v[4] == 's' ? 8 : 7))
            return head_error(err, name, col, "source: expected the http(s) URL the release was "
                              "published at", v, vl);
        memcpy(h->source, v, vl);
        h->source[vl] = '\0';
        return CF_OK;
    }
    return head_error(err, name, col, "first line: expected the key date or source", tok, kl);
}

/* Reads the first line into *h (CF_EPARSE at line 1 when it is not one). */
static cf_status parse_head(const char *name, const char *data, size_t len, const char *today,
                            release_head *h, cf_error *err)
{
    const char *nl = memchr(data, '\n', len);
    size_t end = nl ? (size_t)(nl - data) : len, i = sizeof MAGIC - 1;
    long bad;
    memset(h, 0, sizeof *h);
    h->body = nl ? end + 1 : len;
    if (end > 0 && data[end - 1] == '\r') end--;
    if (end < i || memcmp(data, MAGIC, i) != 0 || (end > i && data[i] != ' '))
        return head_error(err, name, 0, "first line: expected \"" MAGIC " date=YYYY-MM-DD "
                          "source=URL\" (a catalog release file)", data, end);
    if (end > CF_MAX_FIELD_BYTES)
        return head_error(err, name, 0, "first line: expected at most CF_MAX_FIELD_BYTES bytes",
                          data, 40);
    if ((bad = cf__bad_utf8((const unsigned char *)data, end, 0)) >= 0)
        return head_error(err, name, (size_t)bad, "first line: expected UTF-8 text without "
                          "control characters", data + bad, 1);
    while (i < end) {
        size_t j;
        cf_status st;
        while (i < end && data[i] == ' ') i++;
        for (j = i; j < end && data[j] != ' '; j++) {}
        if (j == i) break;
        if ((st = head_field(h, name, data + i, j - i, i, today, err)) != CF_OK) return st;
        i = j;
    }
    if (!h->date[0] || !h->source[0])
        return head_error(err, name, end, h->date[0] ? "first line: expected source=URL too"
                          : "first line: expected date=YYYY-MM-DD too", "", 0);
    return CF_OK;
}

/* The rows after the first line, as cf_offerings_parse reads them with the
 * release's date for today; an error's line and wording made the file's. */
static cf_status parse_body(const char *name, const char *data, size_t len,
                            const release_head *h, cf_offering_list *l, cf_error *err)
{
    cf_import_opts o = {h->date};
    cf_status st = cf_offerings_parse(name, data + h->body, len - h->body, CF_IMPORT_CSV, &o, l, err);
    if (st == CF_OK && l->n == 0) {
        cf_error_set(err, name, 2, 0, "expected the header row of data/offerings.csv and at "
                     "least one offering");
        return CF_EPARSE;
    }
    if (st != CF_OK && err) {
        const char *t = strstr(err->message, " than today (");
        if (err->line > 0) err->line++;
        if (t) {
            char msg[CF_ERROR_MSG_MAX];
            snprintf(msg, sizeof msg, "%.*s than the release's date (%s", (int)(t - err->message),
                     err->message, t + strlen(" than today ("));
            snprintf(err->message, sizeof err->message, "%s", msg);
        }
    }
    return st;
}

/* Replaces the shipped rows by l inside the caller's write transaction;
 * the failure's status with err set. */
static cf_status replace_shipped(cf_catalog *cat, const cf_offering_list *l, const char *what,
                                 cf_error *err)
{
    if (cf__db_exec(cat->db, "DELETE FROM offering WHERE origin = 'shipped'") != 0)
        return cf__db_error(cat->db, cat->path, err, what);
    return cf__db_insert_all(cat->db, cat->path, l, "shipped", err);
}

cf_status cf_catalog_release_install(cf_catalog *cat, const char *name, const char *data,
                                     size_t len, const char *today, size_t *n_rows,
                                     cf_error *err)
{
    release_head h;
    cf_offering_list l = {NULL, 0};
    char rows[32];
    int y, m, d;
    cf_status st;
    if (n_rows) *n_rows = 0;
    cf_error_clear(err);
    if (!cat || (!data && len)) return CF_EINVAL;
    if (today && (cf__date_parse(today, &y, &m, &d) != 0 || d == 0)) {
        cf_error_set(err, NULL, 0, 0, "today: expected a date YYYY-MM-DD, got \"%.40s\"", today);
        return CF_EINVAL;
    }
    if (len > (size_t)CF_MAX_IMPORT_BYTES) {
        cf_error_set(err, name, 0, 0, "file is over the %ld-byte limit (CF_MAX_IMPORT_BYTES)",
                     CF_MAX_IMPORT_BYTES);
        return CF_ELIMIT;
    }
    if ((st = parse_head(name, data ? data : "", len, today, &h, err)) != CF_OK) return st;
    if ((st = parse_body(name, data, len, &h, &l, err)) != CF_OK) return st;
    if ((st = cf__db_begin_write(cat->db, cat->path, "install the catalog release", err)) != CF_OK)
        goto done;
    snprintf(rows, sizeof rows, "%zu", l.n);
    st = replace_shipped(cat, &l, "cannot install the catalog release", err);
    if (st == CF_OK && (cf__db_write_meta(cat->db, "release_date", h.date) != 0 ||
                        cf__db_write_meta(cat->db, "release_source", h.source) != 0 ||
                        cf__db_write_meta(cat->db, "release_file", name ? name : "") != 0 ||
                        cf__db_write_meta(cat->db, "release_rows", rows) != 0 ||
                        cf__db_write_meta(cat->db, "release_installed", today ? today : "") != 0))
        st = cf__db_error(cat->db, cat->path, err, "cannot install the catalog release");
    if (st != CF_OK) {
        cf__db_rollback(cat->db);
        goto done;
    }
    st = cf__db_commit(cat->db, cat->path, "the catalog release", err);
    if (st == CF_OK && n_rows) *n_rows = l.n;
done:
    cf_offering_list_clear(&l);
    return st;
}

cf_status cf_catalog_release_install_file(cf_catalog *cat, const char *path, const char *today,
                                          size_t *n_rows, cf_error *err)
{
    char *buf = NULL;
    size_t len = 0;
    cf_status st;
    if (n_rows) *n_rows = 0;
    cf_error_clear(err);
    if (!cat || !path) return CF_EINVAL;
    st = cf__read_file(path, (size_t)CF_MAX_IMPORT_BYTES, "CF_MAX_IMPORT_BYTES", &buf, &len, err);
    if (st != CF_OK) return st;
    st = cf_catalog_release_install(cat, path, buf, len, today, n_rows, err);
    cf__free(buf);
    return st;
}

/* The built-in rows, parsed (CF_EINTERNAL when the build has none). */
cf_status cf_catalog_release_remove(cf_catalog *cat, int *removed, cf_error *err)
{
    cf_offering_list l = {NULL, 0};
    char date[32], hash[32], rows[32];
    cf_status st;
    if (removed) *removed = 0;
    cf_error_clear(err);
    if (!cat) return CF_EINVAL;
    if ((st = cf__db_builtin_rows(&l, hash, err)) != CF_OK) return st;
    if ((st = cf__db_begin_write(cat->db, cat->path, "remove the catalog release", err)) != CF_OK)
        goto done;
    if (cf__db_read_meta(cat->db, "release_date", date, sizeof date) != 0) goto dbfail;
    if (date[0]) {
        snprintf(rows, sizeof rows, "%zu", l.n);
        st = replace_shipped(cat, &l, "cannot go back to the built-in catalog", err);
        if (st != CF_OK) goto fail;
        if (cf__db_write_meta(cat->db, "shipped_hash", hash) != 0 ||
            cf__db_write_meta(cat->db, "shipped_rows", rows) != 0 ||
            cf__db_exec(cat->db, "DELETE FROM meta WHERE key LIKE 'release\\_%' ESCAPE '\\'") != 0)
            goto dbfail;
    }
    st = cf__db_commit(cat->db, cat->path, "the built-in catalog", err);
    if (st == CF_OK && removed) *removed = date[0] != '\0';
    goto done;
dbfail:
    st = cf__db_error(cat->db, cat->path, err, "cannot go back to the built-in catalog");
fail:
    cf__db_rollback(cat->db);
done:
    cf_offering_list_clear(&l);
    return st;
}

/* {rows, newest_as_of} of a parsed list. */
static json_t *list_summary(const cf_offering_list *l)
{
    const char *newest = NULL;
    json_t *o = json_object();
    for (size_t i = 0; i < l->n; i++)
        if (l->items[i].as_of && (!newest || strcmp(l->items[i].as_of, newest) > 0))
            newest = l->items[i].as_of;
    if (cf__json_set(o, "rows", json_integer((json_int_t)l->n)) != 0 ||
        cf__json_set(o, "newest_as_of", cf__json_str(newest)) != 0) {
        json_decref(o);
        return NULL;
    }
    return o;
}

/* The shipped rows of the file: how many and the newest as_of (dates
 * compare as text: YYYY-MM sorts before the days of its month). */
static int file_rows(cf_catalog *cat, json_int_t *rows, char *newest, size_t n)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(cat->db, "SELECT count(*), max(as_of) FROM offering "
                                "WHERE origin = 'shipped'", -1, &st, NULL);
    newest[0] = '\0';
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        const char *t = (const char *)sqlite3_column_text(st, 1);
        *rows = (json_int_t)sqlite3_column_int64(st, 0);
        snprintf(newest, n, "%s", t ? t : "");
    }
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? 0 : -1;
}

/* The file's side of cf_catalog_info: origin, date, rows ... into o. */
static cf_status file_info(cf_catalog *cat, json_t *o, const json_t *builtin)
{
    char date[32], source[CF_MAX_FIELD_BYTES], file[4096], inst[32], newest[32];
    json_int_t rows = 0;
    int rel, bad = 0;
    if (cf__db_read_meta(cat->db, "release_date", date, sizeof date) != 0 ||
        cf__db_read_meta(cat->db, "release_source", source, sizeof source) != 0 ||
        cf__db_read_meta(cat->db, "release_file", file, sizeof file) != 0 ||
        cf__db_read_meta(cat->db, "release_installed", inst, sizeof inst) != 0 ||
        file_rows(cat, &rows, newest, sizeof newest) != 0) {
        cf_error e;
        cf_error_clear(&e);
        return cf__db_error(cat->db, cat->path, &e, "cannot read the catalog's metadata");
    }
    rel = date[0] != '\0';
    bad |= cf__json_set(o, "origin", json_string(rel ? "release" : "built-in"));
    bad |= cf__json_set(o, "date", rel ? json_string(date) : cf__json_str(newest[0] ? newest : NULL));
    bad |= cf__json_set(o, "rows", json_integer(rows));
    bad |= cf__json_set(o, "newest_as_of", cf__json_str(newest[0] ? newest : NULL));
    bad |= cf__json_set(o, "source", cf__json_str(rel ? source : NULL));
    bad |= cf__json_set(o, "file", cf__json_str(rel ? file : NULL));
    bad |= cf__json_set(o, "installed", cf__json_str(rel && inst[0] ? inst : NULL));
    bad |= cf__json_set(o, "built_in", json_deep_copy(builtin));
    return bad ? CF_ENOMEM : CF_OK;
}

cf_status cf_catalog_info(cf_catalog *cat, json_t **out)
{
    cf_offering_list l = {NULL, 0};
    char hash[32];
    cf_error e;
    json_t *o = NULL, *builtin = NULL;
    cf_status st;
    if (!out) return CF_EINVAL;
    *out = NULL;
    cf_error_clear(&e);
    if ((st = cf__db_builtin_rows(&l, hash, &e)) != CF_OK) return st;
    builtin = list_summary(&l);
    cf_offering_list_clear(&l);
    o = json_object();
    if (!builtin || !o) { st = CF_ENOMEM; goto done; }
    if (cat) {
        st = file_info(cat, o, builtin);
    } else {
        int bad = cf__json_set(o, "origin", json_string("built-in"));
        bad |= cf__json_set(o, "date", json_incref(json_object_get(builtin, "newest_as_of")));
        bad |= cf__json_set(o, "rows", json_incref(json_object_get(builtin, "rows")));
        bad |= cf__json_set(o, "newest_as_of", json_incref(json_object_get(builtin, "newest_as_of")));
        bad |= cf__json_set(o, "source", json_null());
        bad |= cf__json_set(o, "file", json_null());
        bad |= cf__json_set(o, "installed", json_null());
        bad |= cf__json_set(o, "built_in", json_incref(builtin));
        st = bad ? CF_ENOMEM : CF_OK;
    }
    if (st == CF_OK) { *out = o; o = NULL; }
done:
    json_decref(o);
    json_decref(builtin);
    return st;
}
