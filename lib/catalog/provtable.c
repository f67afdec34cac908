/* provtable.c — the provider table (data/providers.csv, issue 22): what a
 * source says of a provider rather than of one offering: whether it rents
 * multi-node clusters, the orchestration and provisioning it offers (sales
 * contact and waitlists included), a published third-party rating, notes,
 * source and date. Rebuilt with the shipped rows (db.c), read by
 * cf_catalog_provider_get and providers.c, and joined onto every row by the
 * view `catalog` (provider_rating, provider_provisioning). */
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include "clusterfit/catalog.h"
#include "catalog/catalog_int.h"
#include "base/base.h"

static const char *const cols[] = {"provider", "multinode", "orchestration", "provisioning",
                                   "rating_system", "rating_tier", "rating_date",
                                   "rating_source", "notes", "source_url", "as_of"};
enum { NCOLS = 11, C_PROV = 0, C_MULTI, C_ORCH, C_PROVIS, C_RSYS, C_RTIER, C_RDATE, C_RSRC,
       C_NOTES, C_URL, C_ASOF };

static const char *const orch_words[] = {"slurm", "kubernetes", "vm", "managed", NULL};
static const char *const prov_words[] = {"on-demand", "spot", "reserved", "waitlist", "flex",
                                         "sales-contact", NULL};
static const char *const tiers[] = {"Platinum", "Gold", "Silver", "Bronze", "Underperforming",
                                    "Not tested", NULL};

static int in_list(const char *const *words, const char *w, size_t len)
{
    for (int i = 0; words[i]; i++)
        if (strlen(words[i]) == len && strncmp(words[i], w, len) == 0) return 1;
    return 0;
}

/* 1 when s is empty or ';'-separated words of the list. */
static int words_ok(const char *const *words, const char *s)
{
    while (*s) {
        size_t len = strcspn(s, ";");
        if (!in_list(words, s, len)) return 0;
        s += len;
        if (*s) s++;
    }
    return 1;
}

/* 1 for YYYY-MM or YYYY-MM-DD (day_needed: only the latter). */
static int date_ok(const char *s, int day_needed)
{
    int y, m, d;
    return cf__date_parse(s, &y, &m, &d) == 0 && (!day_needed || d > 0);
}

static int is_url(const char *s)
{
    return (strncmp(s, "https://", 8) == 0 || strncmp(s, "http://", 7) == 0) &&
           !strpbrk(s, " \t,");
}

/* 1 for one or more URLs joined by "; ". */
static int urls_ok(const char *s)
{
    char one[1024];
    if (!*s) return 0;
    while (*s) {
        const char *sep = strstr(s, "; ");
        size_t len = sep ? (size_t)(sep - s) : strlen(s);
        if (len == 0 || len >= sizeof one) return 0;
        memcpy(one, s, len);
        one[len] = '\0';
        if (!is_url(one)) return 0;
        s += len + (sep ? 2 : 0);
    }
    return 1;
}

/* Why cell (r, c) is wrong, NULL when it is right. */
static const char *cell_why(const cf__csv_table *t, size_t r, int c)
{
    const char *v = cf__csv_cell(t, r, c);
    int rated = *cf__csv_cell(t, r, C_RTIER) != '\0';
    switch (c) {
    case C_PROV: return *v ? NULL : "provider: required";
    case C_MULTI: return !*v || !strcmp(v, "yes") || !strcmp(v, "no") ? NULL
                         : "multinode: expected yes, no or empty (unknown)";
    case C_ORCH: return words_ok(orch_words, v) ? NULL
                        : "orchestration: expected ';'-separated slurm, kubernetes, vm, managed";
    case C_PROVIS: return words_ok(prov_words, v) ? NULL
                          : "provisioning: expected ';'-separated on-demand, spot, reserved, "
                            "waitlist, flex, sales-contact";
    case C_RTIER: return !*v || in_list(tiers, v, strlen(v)) ? NULL
                         : "rating_tier: expected Platinum, Gold, Silver, Bronze, "
                           "Underperforming, Not tested or empty";
    case C_RSYS: return !rated || *v ? NULL : "rating_system: required with a rating_tier";
    case C_RDATE: return (!rated && !*v) || date_ok(v, 1) ? NULL
                         : "rating_date: YYYY-MM-DD required with a rating_tier";
    case C_RSRC: return (!rated && !*v) || is_url(v) ? NULL
                        : "rating_source: one http(s) URL required with a rating_tier";
    case C_URL: return urls_ok(v) ? NULL
                       : "source_url: one or more http(s) URLs required, separated by \"; \"";
    case C_ASOF: return date_ok(v, 0) ? NULL : "as_of: YYYY-MM or YYYY-MM-DD required";
    default: return NULL;
    }
}

/* Parses and checks the table; CF_EPARSE at the first wrong cell. */
static cf_status parse(const char *name, const char *csv, size_t len, cf__csv_table *t,
                       cf_error *err)
{
    cf_status st = cf__csv_table_parse(csv, len, name, 10000, t, err);
    if (st != CF_OK) return st;
    for (int c = 0; c < NCOLS; c++) {
        if (t->ncols == NCOLS && cf__csv_col(t, cols[c]) == c) continue;
        cf_error_set(err, name, 1, 0, "header must be exactly: provider, multinode, "
                     "orchestration, provisioning, rating_system, rating_tier, rating_date, "
                     "rating_source, notes, source_url, as_of");
        cf__csv_table_clear(t);
        return CF_EPARSE;
    }
    for (size_t r = 0; r < t->nrows; r++) {
        for (int c = 0; c < NCOLS; c++) {
            const char *why = cell_why(t, r, c);
            if (!why) continue;
            cf_error_set(err, name, t->line[r], c + 1, "%s", why);
            cf__csv_table_clear(t);
            return CF_EPARSE;
        }
        for (size_t q = 0; q < r; q++) {
            if (cf__strcasecmp(cf__csv_cell(t, q, C_PROV), cf__csv_cell(t, r, C_PROV)) != 0)
                continue;
            cf_error_set(err, name, t->line[r], 1, "provider: duplicate '%.60s' (first on line "
                         "%ld)", cf__csv_cell(t, r, C_PROV), t->line[q]);
            cf__csv_table_clear(t);
            return CF_EPARSE;
        }
    }
    return CF_OK;
}

cf_status cf__providers_check(const char *name, const char *csv, size_t len, cf_error *err)
{
    cf__csv_table t;
    cf_status st = parse(name, csv, len, &t, err);
    if (st == CF_OK) cf__csv_table_clear(&t);
    return st;
}

cf_status cf__providers_write(sqlite3 *db, const char *path, const char *name, const char *csv,
                              size_t len, cf_error *err)
{
    cf__csv_table t;
    sqlite3_stmt *st = NULL;
    cf_status status = parse(name, csv, len, &t, err);
    if (status != CF_OK) return status;
    if (cf__db_exec(db, "DELETE FROM provider") != 0 ||
        sqlite3_prepare_v2(db, "INSERT INTO provider (provider, multinode, orchestration,"
                           " provisioning, rating_system, rating_tier, rating_date, rating_source,"
                           " notes, source_url, as_of) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                           -1, &st, NULL) != SQLITE_OK) {
        status = cf__db_error(db, path, err, "cannot write the provider table");
        goto done;
    }
    for (size_t r = 0; r < t.nrows; r++) {
        int rc = SQLITE_OK;
        sqlite3_reset(st);
        for (int c = 0; c < NCOLS && rc == SQLITE_OK; c++) {
            const char *v = cf__csv_cell(&t, r, c);
            rc = *v ? sqlite3_bind_text(st, c + 1, v, -1, SQLITE_STATIC)
                    : sqlite3_bind_null(st, c + 1);
        }
        if (rc != SQLITE_OK || sqlite3_step(st) != SQLITE_DONE) {
            status = cf__db_error(db, path, err, "cannot write the provider table");
            goto done;
        }
    }
done:
    sqlite3_finalize(st);
    cf__csv_table_clear(&t);
    return status;
}

/* A ';'-joined cell as a JSON array ([] for NULL). */
static json_t *split(const char *s)
{
    json_t *a = json_array();
    while (a && s && *s) {
        size_t len = strcspn(s, ";");
        if (json_array_append_new(a, json_stringn(s, len)) != 0) {
            json_decref(a);
            return NULL;
        }
        s += len;
        if (*s) s++;
    }
    return a;
}

static json_t *text_or_null(sqlite3_stmt *st, int c)
{
    const char *v = (const char *)sqlite3_column_text(st, c);
    return v ? json_string(v) : json_null();
}

/* The provider object of the current row of st (the columns of `cols`). */
static json_t *provider_json(sqlite3_stmt *st)
{
    json_t *p = json_object(), *rating = json_null();
    const char *tier = (const char *)sqlite3_column_text(st, C_RTIER);
    char line[256] = "";
    int bad = !p;
    if (!bad && tier) {
        rating = json_object();
        bad = !rating || json_object_set_new(rating, "system", text_or_null(st, C_RSYS)) ||
              json_object_set_new(rating, "tier", json_string(tier)) ||
              json_object_set_new(rating, "date", text_or_null(st, C_RDATE)) ||
              json_object_set_new(rating, "source_url", text_or_null(st, C_RSRC));
        snprintf(line, sizeof line, "%s %s, %s", sqlite3_column_text(st, C_RSYS), tier,
                 sqlite3_column_text(st, C_RDATE));
    }
    bad = bad || json_object_set_new(p, "provider", text_or_null(st, C_PROV)) ||
          json_object_set_new(p, "multinode", text_or_null(st, C_MULTI)) ||
          json_object_set_new(p, "orchestration",
                              split((const char *)sqlite3_column_text(st, C_ORCH))) ||
          json_object_set_new(p, "provisioning",
                              split((const char *)sqlite3_column_text(st, C_PROVIS))) ||
          json_object_set(p, "rating", rating) ||
          json_object_set_new(p, "rating_text", line[0] ? json_string(line) : json_null()) ||
          json_object_set_new(p, "notes", text_or_null(st, C_NOTES)) ||
          json_object_set_new(p, "source_url", text_or_null(st, C_URL)) ||
          json_object_set_new(p, "as_of", text_or_null(st, C_ASOF));
    json_decref(rating);
    if (bad) {
        json_decref(p);
        return NULL;
    }
    return p;
}

cf_status cf_catalog_provider_get(cf_catalog *cat, const char *provider, json_t **out)
{
    sqlite3_stmt *st = NULL;
    cf_status status = CF_ENOTFOUND;
    int rc;
    if (!cat || !provider || !out) return CF_EINVAL;
    *out = NULL;
    if (sqlite3_prepare_v2(cat->db, "SELECT provider, multinode, orchestration, provisioning,"
                           " rating_system, rating_tier, rating_date, rating_source, notes,"
                           " source_url, as_of FROM provider WHERE provider = ?1",
                           -1, &st, NULL) != SQLITE_OK ||
        sqlite3_bind_text(st, 1, provider, -1, SQLITE_STATIC) != SQLITE_OK) {
        rc = sqlite3_errcode(cat->db);
        sqlite3_finalize(st);
        return rc == SQLITE_NOMEM ? CF_ENOMEM : CF_EDB;
    }
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) status = (*out = provider_json(st)) ? CF_OK : CF_ENOMEM;
    else if (rc != SQLITE_DONE) status = rc == SQLITE_NOMEM ? CF_ENOMEM : CF_EDB;
    sqlite3_finalize(st);
    return status;
}
