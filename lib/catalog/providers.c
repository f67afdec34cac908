/* providers.c — the providers of the catalog, for `clusterfit providers`
 * and GET /api/providers: per provider, how many offerings and multi-node
 * offerings it has and which fabric families they use.
 *
 * One GROUP BY over the view `catalog` (so a user's row counts instead of
 * the shipped row it hides) gives the counts and the distinct network names;
 * the names are then put in vocabulary order in C, so the order is the
 * vocabulary's (vocab.h), not the order rows happen to be stored in. */
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include "clusterfit/catalog.h"
#include "clusterfit/date.h"
#include "clusterfit/limits.h"
#include "catalog/catalog_int.h"
#include "base/base.h"

/* JSON array of the known fabric families in a group_concat of network
 * names, in vocabulary order; NULL on ENOMEM. */
static json_t *network_array(const char *nets)
{
    unsigned seen = 0;
    json_t *na = json_array();
    while (na && nets && *nets) {
        char name[32];
        size_t len = strcspn(nets, ",");
        cf_network net;
        snprintf(name, sizeof name, "%.*s", (int)(len < 31 ? len : 31), nets);
        if (cf_network_parse(name, &net) == CF_OK && net != CF_NET_UNKNOWN) seen |= 1u << net;
        nets += len;
        if (*nets) nets++;
    }
    for (int i = 0; na && i < CF_NET__COUNT; i++) {
        if (!(seen & (1u << i))) continue;
        if (json_array_append_new(na, json_string(cf_network_name((cf_network)i))) != 0) {
            json_decref(na);
            na = NULL;
        }
    }
    return na;
}

/* The provider table's facts (cf_catalog_provider_get) on p, every key null
 * or empty where the table has no row for the provider. */
static cf_status add_facts(cf_catalog *cat, json_t *p, const char *name)
{
    static const char *const keys[] = {"multinode", "orchestration", "provisioning", "rating",
                                       "rating_text", "notes", "source_url", "as_of"};
    json_t *f = NULL;
    cf_status st = cf_catalog_provider_get(cat, name ? name : "", &f);
    if (st != CF_OK && st != CF_ENOTFOUND) return st;
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        json_t *v = f ? json_object_get(f, keys[i]) : NULL;
        int is_list = i == 1 || i == 2;
        if (json_object_set_new(p, i == 5 ? "provider_notes" : i == 6 ? "provider_source_url"
                                : i == 7 ? "provider_as_of" : keys[i],
                                v ? json_incref(v) : is_list ? json_array() : json_null()) != 0) {
            json_decref(f);
            return CF_ENOMEM;
        }
    }
    json_decref(f);
    return CF_OK;
}

cf_status cf_catalog_providers(cf_catalog *cat, json_t **out)
{
    return cf_catalog_providers_at(cat, NULL, 6, out);
}

cf_status cf_catalog_providers_at(cf_catalog *cat, const char *today, long stale_months,
                                  json_t **out)
{
    /* A row's date: price_as_of where set, else as_of (cf_offering_stale);
     * the raw text's minimum is the oldest ("2026-05" sorts before any day
     * of May), and YYYY-MM counts as its 1st against the cutoff (?1). */
    static const char sql[] =
        "SELECT n.name, count(c.id), coalesce(sum(c.multinode = 'yes'), 0),"
        " group_concat(DISTINCT c.network),"
        " group_concat(DISTINCT CASE WHEN c.multinode = 'yes' THEN c.network END),"
        " min(coalesce(c.price_as_of, c.as_of)),"
        " coalesce(sum(CASE WHEN length(coalesce(c.price_as_of, c.as_of)) = 7"
        "  THEN coalesce(c.price_as_of, c.as_of) || '-01' ELSE coalesce(c.price_as_of, c.as_of)"
        "  END < ?1), 0)"
        " FROM (SELECT provider AS name FROM catalog UNION SELECT provider FROM provider"
        "  WHERE provider COLLATE NOCASE NOT IN (SELECT provider FROM catalog)) AS n"
        " LEFT JOIN catalog AS c ON c.provider = n.name"
        " GROUP BY n.name ORDER BY n.name COLLATE NOCASE, n.name";
    sqlite3_stmt *st = NULL;
    json_t *arr = NULL;
    cf_status status = CF_OK;
    char cutoff[CF_DATE_SIZE] = "";
    int rc;

    if (!cat || !out) return CF_EINVAL;
    *out = NULL;
    if (stale_months < 1 || stale_months > CF_MAX_STALE_MONTHS) return CF_EINVAL;
    if (today && cf_catalog_stale_cutoff(today, stale_months, cutoff) != CF_OK) return CF_EINVAL;
    arr = json_array();
    if (!arr) return CF_ENOMEM;
    if (sqlite3_prepare_v2(cat->db, sql, -1, &st, NULL) != SQLITE_OK ||
        sqlite3_bind_text(st, 1, cutoff, -1, SQLITE_STATIC) != SQLITE_OK) {
        status = sqlite3_errcode(cat->db) == SQLITE_NOMEM ? CF_ENOMEM : CF_EDB;
        goto fail;
    }
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        json_t *p = json_object();
        json_t *na = network_array((const char *)sqlite3_column_text(st, 3));
        json_t *ma = network_array((const char *)sqlite3_column_text(st, 4));
        int bad = !p || !na || !ma;
        if (!bad)
            bad = json_object_set_new(p, "provider",
                                      json_string((const char *)sqlite3_column_text(st, 0))) ||
                  json_object_set_new(p, "offerings", json_integer(sqlite3_column_int64(st, 1))) ||
                  json_object_set_new(p, "multinode_offerings",
                                      json_integer(sqlite3_column_int64(st, 2))) ||
                  json_object_set(p, "networks", na) ||
                  json_object_set(p, "multinode_networks", ma) ||
                  json_object_set_new(p, "oldest_as_of",
                                      sqlite3_column_text(st, 5)
                                          ? json_string((const char *)sqlite3_column_text(st, 5))
                                          : json_null()) ||
                  add_facts(cat, p, (const char *)sqlite3_column_text(st, 0)) != CF_OK ||
                  (today && (json_object_set_new(p, "stale_rows",
                                                 json_integer(sqlite3_column_int64(st, 6))) ||
                             json_object_set_new(p, "stale_before", json_string(cutoff)))) ||
                  json_array_append(arr, p);
        json_decref(na);
        json_decref(ma);
        json_decref(p);
        if (bad) { status = CF_ENOMEM; goto fail; }
    }
    if (rc != SQLITE_DONE) {
        status = rc == SQLITE_NOMEM ? CF_ENOMEM : CF_EDB;
        goto fail;
    }
    sqlite3_finalize(st);
    *out = arr;
    return CF_OK;
fail:
    sqlite3_finalize(st);
    json_decref(arr);
    return status;
}
