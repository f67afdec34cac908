/* catalog.h — the catalog of cluster offerings (DESIGN.md §3) in SQLite.
 *
 * The shipped rows come from data/offerings.csv, embedded in the library at
 * build time; cf_catalog_open() builds them into the database file on first
 * use and rebuilds them when the embedded data's hash changes. Rows a user
 * imported (cf_catalog_import) live in the same file, survive rebuilds and
 * win over shipped rows with the same id. */
#ifndef CLUSTERFIT_CATALOG_H
#define CLUSTERFIT_CATALOG_H

#include <jansson.h>
#include "status.h"
#include "vocab.h"

/* One offering. Unknown values: NULL strings, -1 for counts, NAN for
 * rates and prices, CF_CAP_UNKNOWN, CF_NET_UNKNOWN, CF_INTRA_UNKNOWN,
 * mask 0 with the matching *_known flag 0 for sets. All strings are owned by
 * the struct: cf_offering_clear() frees them, cf_offering_free() them and
 * the struct. */
typedef struct cf_offering {
    char *id, *provider, *offering, *gpu;
    long gpus_per_node;
    double gpu_memory_gb;
    cf_intra_link intra_link;
    cf_network network;
    double network_gbps_per_node;   /* total scale-out Gbit/s per node */
    long nics_per_node;
    cf_cap rdma, gpudirect_rdma;
    char *topology;
    cf_cap non_blocking, rail_optimized;
    long max_cluster_gpus;
    unsigned orchestration, provisioning, shared_storage; /* CF_ORCH_*, CF_PROV_*, CF_STOR_* */
    int orchestration_known, provisioning_known, shared_storage_known;
    double min_commitment_h;
    double billing_increment_s;
    double price_on_demand_gpu_hr, price_reserved_gpu_hr;
    char *currency;                 /* ISO 4217 */
    char *regions;                  /* ';'-separated, NULL if unknown */
    cf_cap multinode;
    char *notes;
    char *source_url;               /* "; "-separated URLs */
    char *as_of;                    /* YYYY-MM or YYYY-MM-DD */
    int user_row;                   /* 1 if from a user's import */
} cf_offering;

typedef struct cf_catalog cf_catalog;   /* opaque: an open database */

/* Filters of `clusterfit list` (DESIGN §6). Fields left at their "any" value
 * (as set by cf_filter_init) do not filter. */
typedef struct cf_filter {
    cf_cap multinode, gdr, rdma;    /* CF_CAP_UNKNOWN = any */
    int network_set; cf_network network;
    const char *gpu;                /* NULL = any; borrowed */
    double min_gbps;                /* NAN = any */
    unsigned orchestration, provisioning; /* 0 = any; else all bits required */
    int storage;                    /* 1 = has shared storage other than none */
    double max_price;               /* NAN = any; on-demand price */
    const char *currency, *provider;/* NULL = any; borrowed; provider case-insensitive */
} cf_filter;

typedef enum cf_sort {
    CF_SORT_PRICE = 0, CF_SORT_GBPS, CF_SORT_GPUS, CF_SORT_MAX_CLUSTER,
    CF_SORT_PROVIDER, CF_SORT_AS_OF
} cf_sort;

typedef struct cf_offering_list {
    cf_offering *items;
    size_t n;
} cf_offering_list;

CF_API void cf_filter_init(cf_filter *f);

/* Opens (creating or rebuilding as needed) the catalog at `path`. On error
 * returns CF_EDB/CF_EIO with err set, *out NULL; CF_EINVAL when `path` is a
 * directory or lies in a directory that does not exist (a usage error). Caller frees with
 * cf_catalog_close(). A corrupt file is reported, never silently emptied. */
CF_API cf_status cf_catalog_open(const char *path, cf_catalog **out, cf_error *err);
CF_API void cf_catalog_close(cf_catalog *cat);

/* Fills *out with the offerings matching `f`, ordered by `sort`. Caller frees
 * with cf_offering_list_clear(). */
CF_API cf_status cf_catalog_query(cf_catalog *cat, const cf_filter *f, cf_sort sort,
                                  cf_offering_list *out);

/* One offering by id; CF_ENOTFOUND if absent. *out is heap-allocated;
 * caller frees it with cf_offering_free(). */
CF_API cf_status cf_catalog_get(cf_catalog *cat, const char *id, cf_offering **out);

CF_API void cf_offering_clear(cf_offering *o);  /* frees members only */
CF_API void cf_offering_free(cf_offering *o);   /* members and o itself */
CF_API void cf_offering_list_clear(cf_offering_list *l);

/* JSON of one offering: the columns of DESIGN §3, sets as arrays, unknown as
 * null. New reference, caller owns (json_decref). NULL on ENOMEM. */
CF_API json_t *cf_offering_to_json(const cf_offering *o);

/* ---- Added by the catalog module (issue #2) ---------------------------- */

/* The columns of data/offerings.csv and of the `offering` table, in the
 * order of DESIGN §3 (column 0 is `id`, 28 is `as_of`). */
#define CF_OFFERING_NCOLS 29

/* Name of column `col` (0-based, DESIGN §3 order), or NULL when out of range.
 * Static storage. */
CF_API const char *cf_offering_column_name(int col);

/* Index of the column named `name` (exact, lowercase), or -1. */
CF_API int cf_offering_column_index(const char *name);

/* The value of column `col` of `o` as written in CSV: sets ';'-joined in
 * vocabulary order, source URLs "; "-joined, numbers with up to 15
 * significant digits, unknown as "". Writes at most n bytes (NUL included,
 * truncating) into buf and returns buf. */
CF_API char *cf_offering_column_text(const cf_offering *o, int col, char *buf, size_t n);

/* 1 when column `col` of `o` is unknown (NULL in SQLite, null in JSON). */
CF_API int cf_offering_column_unknown(const cf_offering *o, int col);

/* Like cf_catalog_open(), with the shipped catalog given explicitly: the CSV
 * text `shipped_csv` (shipped_len bytes, named `shipped_name` in error
 * messages) instead of the embedded data/offerings.csv. The shipped rows are
 * rebuilt whenever the hash of this text differs from the one stored in the
 * file. `path` NULL opens a private in-memory database. Errors: CF_EDB (not a
 * clusterfit catalog, newer schema, SQLite failure; the message names the
 * path), CF_EPARSE/CF_ELIMIT (the shipped CSV is invalid; the database is
 * left as it was), CF_ENOMEM. Caller frees *out with cf_catalog_close(). */
CF_API cf_status cf_catalog_open_with(const char *path, const char *shipped_name,
                                      const char *shipped_csv, size_t shipped_len,
                                      cf_catalog **out, cf_error *err);

/* Schema version of catalog files this library writes (PRAGMA user_version);
 * older files are migrated on open, newer ones refused. */
#define CF_CATALOG_SCHEMA_VERSION 1

typedef enum cf_import_format { CF_IMPORT_CSV = 0, CF_IMPORT_JSON } cf_import_format;

/* Parses and validates offerings in CSV (header row with the column names of
 * DESIGN §3, in any order; id, provider, offering, source_url and as_of are
 * required, the other columns may be absent = unknown) or JSON (an array of
 * objects with the same keys, sets as arrays, null = unknown). Every cell is
 * checked (vocabulary, numbers >= 0, dates, URLs, UTF-8, duplicate ids).
 * `name` (borrowed, kept in err->file) names the input in errors, which are
 * FILE:LINE:COLUMN (1-based; COLUMN = the cell's position in the row) with a
 * message "column: expected ..., got \"...\"". JSON errors carry the LINE:COLUMN
 * of the value at fault and name the element ("offering N (id ...)"). A CSV
 * row with more or fewer cells than the header is reported as such (at its
 * first extra cell, or its last cell) before any of its cells. Returns
 * CF_EPARSE on bad input, CF_ELIMIT over CF_MAX_IMPORT_BYTES /
 * CF_MAX_IMPORT_ROWS / CF_MAX_FIELD_BYTES, CF_ENOMEM. On success *out owns the
 * rows (free with cf_offering_list_clear); on error *out is empty. */
CF_API cf_status cf_offerings_parse(const char *name, const char *data, size_t len,
                                    cf_import_format fmt, cf_offering_list *out, cf_error *err);

/* Imports offerings (parsed as cf_offerings_parse) as the user's rows,
 * inserting new ids and replacing user rows with the same id, all in one
 * transaction: on any error nothing is changed. *n_rows (may be NULL) gets
 * the number of rows imported. */
CF_API cf_status cf_catalog_import(cf_catalog *cat, const char *name, const char *data,
                                   size_t len, cf_import_format fmt, size_t *n_rows,
                                   cf_error *err);

/* Reads the file at `path` (at most CF_MAX_IMPORT_BYTES) and imports it with
 * cf_catalog_import; the format is JSON when the name ends in ".json" or the
 * first non-blank byte is '[', else CSV. CF_EIO when it cannot be read. */
CF_API cf_status cf_catalog_import_file(cf_catalog *cat, const char *path, size_t *n_rows,
                                        cf_error *err);

/* Deletes the user's row `id` (the shipped row with that id, if any, shows
 * again). CF_ENOTFOUND when the user has no such row. */
CF_API cf_status cf_catalog_delete_user(cf_catalog *cat, const char *id);

/* ---- Added for import checks and removal (cli2) ------------------------- */

/* Options of an import. Zero-initialise, then set what applies. */
typedef struct cf_import_opts {
    /* Today as YYYY-MM-DD (the caller's clock or CLUSTERFIT_NOW: the library
     * reads neither). A row whose as_of is after it (YYYY-MM: its 1st day)
     * is rejected at the as_of cell. NULL: dates are not compared. */
    const char *today;
} cf_import_opts;

/* cf_offerings_parse, cf_catalog_import and cf_catalog_import_file with
 * options (`opts` may be NULL: none). A malformed opts->today is CF_EINVAL.
 * JSON errors carry the LINE:COLUMN of the value at fault (of the key for an
 * unknown key, of the object when a required key is absent), found by
 * scanning the text jansson accepted; the message keeps "offering N (id
 * ...)" and always says what the file holds ("expected a number or null,
 * got the string \"2\""). */
CF_API cf_status cf_offerings_parse_with(const char *name, const char *data, size_t len,
                                         cf_import_format fmt, const cf_import_opts *opts,
                                         cf_offering_list *out, cf_error *err);
CF_API cf_status cf_catalog_import_with(cf_catalog *cat, const char *name, const char *data,
                                        size_t len, cf_import_format fmt,
                                        const cf_import_opts *opts, size_t *n_rows,
                                        cf_error *err);
CF_API cf_status cf_catalog_import_file_with(cf_catalog *cat, const char *path,
                                             const cf_import_opts *opts, size_t *n_rows,
                                             cf_error *err);

/* Deletes the user's rows with the `n` ids in one transaction: when any id
 * has no user row, nothing is deleted and CF_ENOTFOUND names every such id
 * in err (saying when it is a shipped offering, which cannot be removed). A
 * shipped row with a removed id shows again. *removed (may be NULL) gets the
 * number of rows deleted (repeated ids count once). CF_EDB, CF_ENOMEM. */
CF_API cf_status cf_catalog_remove_user(cf_catalog *cat, const char *const *ids, size_t n,
                                        size_t *removed, cf_error *err);

/* Deletes every user row (shipped rows with the same ids show again);
 * *removed (may be NULL) gets how many. CF_EDB, CF_ENOMEM. */
CF_API cf_status cf_catalog_reset_user(cf_catalog *cat, size_t *removed, cf_error *err);

/* Providers of the catalog: a JSON array [{provider, offerings,
 * multinode_offerings, networks[], multinode_networks[]}] sorted by provider
 * name (case-insensitive); networks lists the known fabric families of all
 * the provider's offerings, multinode_networks those of its multi-node
 * offerings (multinode yes) only, both in vocabulary order. A single-node
 * pod's tcp is not a fabric between nodes: multinode_networks says which
 * fabric a multi-node cluster really has (empty when every one is unknown).
 * New reference owned by the caller. */
CF_API cf_status cf_catalog_providers(cf_catalog *cat, json_t **out);

/* 1 when `o` passes every filter of `f` (DESIGN §6 `list`): capabilities and
 * network match exactly (unknown never matches yes or no); numeric bounds
 * exclude unknown values; orchestration/provisioning need every requested
 * element; `max_price` compares the on-demand price in `currency`, which
 * defaults to USD when max_price is set (prices are never converted). */
CF_API int cf_offering_matches(const cf_offering *o, const cf_filter *f);

/* Sets one filter of `f` from a flag name as the CLI spells it ("multinode",
 * "network", "gdr", "rdma", "gpu", "min-gbps", "orchestration",
 * "provisioning", "storage", "max-price", "currency", "provider"; '_' may
 * stand for '-', as in HTTP query strings) and its value. Sets in
 * orchestration/provisioning are comma-separated. `value` is borrowed for
 * gpu, currency and provider. CF_EINVAL with a message listing the accepted
 * values when the name or the value is not accepted. */
CF_API cf_status cf_filter_set(cf_filter *f, const char *name, const char *value, cf_error *err);

/* Sort keys: "price" (on-demand, grouped by currency, cheapest first),
 * "gbps", "gpus", "max-cluster" (largest first), "provider" (A to Z),
 * "as-of" (newest first). Unknown values sort last; ties by id. */
CF_API cf_status cf_sort_parse(const char *s, cf_sort *out);
CF_API const char *cf_sort_name(cf_sort s);
CF_API const char *cf_sort_accepted(void);

#endif
