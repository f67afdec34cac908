/* catalog.h — the catalog of cluster offerings (DESIGN.md §3) in SQLite.
 *
 * The shipped rows come from data/offerings.csv, embedded in the library at
 * build time; cf_catalog_open() builds them into the database file on first
 * use and rebuilds them when the embedded data's hash changes. Rows a user
 * imported (cf_catalog_import) live in the same file, survive rebuilds and
 * win over shipped rows with the same id.
 *
 * Sections: one offering and its columns; reading offerings from CSV or
 * JSON; filters and sort orders; the catalog file; the user's rows.
 * Ownership words (_clear, _free) as in status.h. */
#ifndef CLUSTERFIT_CATALOG_H
#define CLUSTERFIT_CATALOG_H

#include <jansson.h>
#include "status.h"
#include "vocab.h"

/* ---- one offering ------------------------------------------------------- */

/* One offering, with the columns of DESIGN §3. Unknown values: NULL
 * strings, -1 for counts, NAN for rates and prices, CF_CAP_UNKNOWN,
 * CF_NET_UNKNOWN, CF_INTRA_UNKNOWN, mask 0 with the matching *_known flag 0
 * for sets. Every string belongs to the struct: cf_offering_clear() frees
 * them, cf_offering_free() frees them and the struct. */
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
    /* Columns 29-31, after as_of (issue 13). */
    cf_cap in_network_reduction;    /* SHARP or similar in-network reduction, as a source states */
    double price_spot_gpu_hr;       /* spot/interruptible price per GPU-hour, in currency */
    char *price_as_of;              /* YYYY-MM[-DD] the prices were read; NULL: as_of */
    int user_row;                   /* 1 if from a user's import */
    int price_overlay;              /* 1 when the prices come from a price import (skypilot...) */
    /* Not columns of offerings.csv (issue 22): filled when read from a catalog. */
    char *price_source;             /* "provider page", "pipeline snapshot skypilot-catalog@C
                                     * (cloud, read DATE)", "user import (FORMAT)"; NULL: no price */
    char *provider_rating;          /* the provider's published rating ("ClusterMAX 2.0 Platinum,
                                     * 2025-11-06"), from data/providers.csv; NULL: none known */
    char *provider_provisioning;    /* the provider's provisioning terms (";"-joined, may name
                                     * sales-contact and waitlist); NULL: unknown */
} cf_offering;

/* Empties a caller-owned offering (_clear, status.h).
 * - output: its strings freed and set to NULL; other members left as they
 *   are
 * - ownership: the struct (an element of a list, one on the stack) stays
 *   the caller's; NULL is a no-op */
CF_API void cf_offering_clear(cf_offering *o);

/* Frees an offering the library allocated (_free, status.h).
 * - ownership: o, from cf_catalog_get, is freed with its strings and must
 *   not be used afterwards; NULL is a no-op */
CF_API void cf_offering_free(cf_offering *o);

/* The columns of data/offerings.csv and of the `offering` table, in the
 * order of DESIGN §3 (column 0 is `id`, 28 is `as_of`), then
 * in_network_reduction (29), price_spot_gpu_hr (30) and price_as_of (31). */
#define CF_OFFERING_NCOLS 32

/* The name of a column.
 * - inputs: col, 0-based, DESIGN §3 order
 * - output: "id" ... "as_of"; NULL when col is out of range
 * - ownership: static storage */
CF_API const char *cf_offering_column_name(int col);

/* The index of a column.
 * - inputs: name, exact and lowercase ("gpus_per_node"); NULL is not found
 * - output: 0..CF_OFFERING_NCOLS-1, or -1 when no column has that name */
CF_API int cf_offering_column_index(const char *name);

/* Column `col` of `o` as CSV text.
 * - output: sets ';'-joined in vocabulary order, source URLs "; "-joined,
 *   numbers with up to 15 significant digits; "" when unknown, when o is
 *   NULL or col out of range
 * - ownership: writes at most n bytes (NUL included, truncating) into the
 *   caller's buf and returns buf; buf NULL or n 0 writes nothing */
CF_API char *cf_offering_column_text(const cf_offering *o, int col, char *buf, size_t n);

/* Whether a column of an offering is unknown.
 * - inputs: o (not NULL), col
 * - output: 1 when column `col` of `o` is unknown (NULL in SQLite, null in
 *   JSON), or when col is out of range; else 0 */
CF_API int cf_offering_column_unknown(const cf_offering *o, int col);

/* The price an offering is listed at, per GPU-hour in its currency: the
 * on-demand price, else the reserved price when only that is stated (a
 * market or a reservation-only cluster); the one rule `list --max-price`,
 * `--sort price`, the table's price column and the plan's sticker price
 * share.
 * - output: the price; NAN when neither is stated or o is NULL; *reserved
 *   (may be NULL) = 1 when it is the reserved price
 * - ownership: pure */
CF_API double cf_offering_list_price(const cf_offering *o, int *reserved);

/* One offering as JSON.
 * - output: an object with the columns of DESIGN §3 as keys, sets and
 *   regions as arrays, unknown as null, and "origin": "user" or "shipped"
 * - errors: NULL on ENOMEM or for a NULL o
 * - ownership: a new reference (json_decref); o is read only */
CF_API json_t *cf_offering_to_json(const cf_offering *o);

/* ---- reading offerings -------------------------------------------------- */

/* A list of offerings, filled by the library for the caller
 * (cf_offerings_parse, cf_catalog_query); the struct is the caller's. */
typedef struct cf_offering_list {
    cf_offering *items;             /* n offerings; NULL when n is 0 */
    size_t n;
} cf_offering_list;

/* Empties a list (_clear, status.h).
 * - output: its offerings and the array freed; items NULL, n 0
 * - ownership: the struct stays the caller's; NULL is a no-op */
CF_API void cf_offering_list_clear(cf_offering_list *l);

/* The format of a text of offerings (cf_offerings_parse, cf_catalog_import). */
typedef enum cf_import_format { CF_IMPORT_CSV = 0, CF_IMPORT_JSON } cf_import_format;

/* Options of a read or an import. Zero-initialise, then set what applies;
 * a NULL opts pointer means all defaults. */
typedef struct cf_import_opts {
    /* Today as YYYY-MM-DD (the caller's clock, cf_today, or CLUSTERFIT_NOW:
     * the library reads neither). A row whose as_of is after it (YYYY-MM:
     * its 1st day) is rejected at the as_of cell. NULL: dates are not
     * compared. */
    const char *today;
} cf_import_opts;

/* Parses and validates offerings.
 * - inputs: `data`, len bytes (at most CF_MAX_IMPORT_BYTES), in `fmt`:
 *   CSV with a header row naming the columns of DESIGN §3 in any order (id,
 *   provider, offering, source_url and as_of required, the others may be
 *   absent = unknown), or JSON: an array of objects with the same keys,
 *   sets as arrays, null = unknown. `name` names the input in errors;
 *   `opts` may be NULL
 * - computes: checks every cell (vocabulary, numbers >= 0, dates, URLs,
 *   UTF-8), duplicate ids, a price without its currency, and as_of against
 *   opts->today
 * - output: *out, the rows in input order
 * - errors: CF_EPARSE on bad input, with err at FILE:LINE:COLUMN (1-based;
 *   COLUMN is the cell's position in its CSV row, or the place of the value
 *   at fault in JSON: of the key for an unknown key, of the object when a
 *   required key is absent) and a message "column: expected ..., got ..."
 *   that says what the file holds ("expected a number or null, got the
 *   string \"2\""); JSON messages name the element ("offering N (id
 *   ...)"). A CSV row with more or fewer cells than the header is reported
 *   as such (at its first extra cell, or its last cell) before any of its
 *   cells. CF_ELIMIT over CF_MAX_IMPORT_BYTES, CF_MAX_IMPORT_ROWS or
 *   CF_MAX_FIELD_BYTES; CF_EINVAL for a malformed opts->today, a NULL out,
 *   or data NULL with len > 0; CF_ENOMEM
 * - ownership: on success *out holds the rows (cf_offering_list_clear);
 *   on error *out is empty. `name` is borrowed and kept in err->file */
CF_API cf_status cf_offerings_parse(const char *name, const char *data, size_t len,
                                    cf_import_format fmt, const cf_import_opts *opts,
                                    cf_offering_list *out, cf_error *err);

/* ---- filters and sort orders -------------------------------------------- */

/* Filters of `clusterfit list` (DESIGN §6). Fields left at their "any" value
 * (as set by cf_filter_init) do not filter. */
typedef struct cf_filter {
    cf_cap multinode, gdr, rdma;    /* CF_CAP_UNKNOWN = any */
    int network_set; cf_network network;
    const char *gpu;                /* NULL = any; borrowed */
    double min_gbps;                /* NAN = any; Gbit/s per node */
    unsigned orchestration, provisioning; /* 0 = any; else all bits required */
    int storage;                    /* 1 = has shared storage other than none */
    double max_price;               /* NAN = any; listed price per GPU-hour (cf_offering_list_price) */
    const char *currency, *provider;/* NULL = any; borrowed; provider case-insensitive */
    /* Stale rows only (`list --stale MONTHS`, issue 13): 0 = any; else the
     * row's date (price_as_of where set, else as_of; YYYY-MM counts as its
     * 1st) is before `today` minus stale_months months (the day clamped to
     * the month's last). today: YYYY-MM-DD, borrowed, set by the caller (the
     * library never reads the clock); with stale_months set and today NULL
     * or malformed nothing passes. */
    long stale_months;
    const char *today;
} cf_filter;

/* Why a filter leaves nothing: each field of f that filters, alone.
 * - computes: per field set in f (multinode, gdr, rdma, network, gpu,
 *   provider, min-gbps, max-price, orchestration, provisioning, storage,
 *   currency; stale_months is not explained), how many offerings of `all`
 *   pass that field alone (cf_offering_matches)
 * - output: a JSON array [{filter, value, matches}] in that order, the
 *   filter named as `list` spells its flag and the value as its canonical
 *   name; [] when f filters nothing; NULL on ENOMEM
 * - ownership: a new reference (json_decref); all and f are borrowed */
CF_API json_t *cf_filter_explain(const cf_offering_list *all, const cf_filter *f);

/* A filter that lets every offering pass.
 * - output: every field of *f at its "any" value (caps unknown, network
 *   not set, NAN bounds, 0 sets, NULL strings)
 * - ownership: fills the caller's struct (not NULL) */
CF_API void cf_filter_init(cf_filter *f);

/* Sets one filter of `f` from a flag name and its value as a user typed
 * them.
 * - inputs: `name` as the CLI spells it ("multinode", "network", "gdr",
 *   "rdma", "gpu", "min-gbps", "orchestration", "provisioning", "storage",
 *   "max-price", "currency", "provider", "stale" (whole months, 1 to
 *   CF_MAX_STALE_MONTHS; the caller sets f->today); leading '-'s are ignored and '_'
 *   may stand for '-', as in HTTP query strings). Sets in orchestration and
 *   provisioning are comma-separated; multinode also takes any (no filter)
 * - output: the filter of *f; unchanged on error
 * - errors: CF_EINVAL with a message listing the accepted values when the
 *   name or the value is not accepted; CF_EINVAL without a message for a
 *   NULL f or name. err may be NULL
 * - ownership: currency and provider keep a pointer to `value`, which must
 *   outlive f; gpu points into the GPU table (process lifetime) */
CF_API cf_status cf_filter_set(cf_filter *f, const char *name, const char *value, cf_error *err);

/* Whether an offering passes a filter.
 * - computes: capabilities and network match exactly (unknown never matches
 *   yes or no); numeric bounds exclude unknown values; orchestration and
 *   provisioning need every requested element; gpu and provider compare
 *   case-insensitively; `max_price` compares the listed price
 *   (cf_offering_list_price: on-demand, else reserved) in
 *   `currency`, which defaults to USD when max_price is set (prices are
 *   never converted)
 * - inputs: o (not NULL); f (NULL = no filter)
 * - output: 1 when `o` passes every filter of `f`, else 0 */
CF_API int cf_offering_matches(const cf_offering *o, const cf_filter *f);

/* Sort orders of cf_catalog_query. Unknown values sort last; ties by id. */
typedef enum cf_sort {
    CF_SORT_PRICE = 0,      /* "price": on-demand, grouped by currency, cheapest first */
    CF_SORT_GBPS,           /* "gbps": largest first */
    CF_SORT_GPUS,           /* "gpus": largest first */
    CF_SORT_MAX_CLUSTER,    /* "max-cluster": largest first */
    CF_SORT_PROVIDER,       /* "provider": A to Z, case-insensitive */
    CF_SORT_AS_OF           /* "as-of": newest first */
} cf_sort;

/* The sort order of a name.
 * - inputs: s, one of cf_sort_accepted() ('_' may stand for '-'; leading
 *   '-'s are ignored)
 * - output: *out; unchanged on error
 * - errors: CF_EINVAL when s is NULL or names no sort order */
CF_API cf_status cf_sort_parse(const char *s, cf_sort *out);

/* The name of a sort order.
 * - output: "price" ... "as-of"; "unknown" when out of range
 * - ownership: static storage */
CF_API const char *cf_sort_name(cf_sort s);

/* The sort names, for messages.
 * - output: "price, gbps, gpus, max-cluster, provider, as-of"
 * - ownership: static storage */
CF_API const char *cf_sort_accepted(void);

/* ---- the catalog file --------------------------------------------------- */

typedef struct cf_catalog cf_catalog;   /* opaque: an open database */

/* Schema version of catalog files this library writes (PRAGMA user_version);
 * older files are migrated on open, newer ones refused. */
#define CF_CATALOG_SCHEMA_VERSION 4

/* Opens a catalog file.
 * - computes: creates the file, migrates its schema or rebuilds its shipped
 *   rows from the embedded data/offerings.csv as needed. A corrupt file is
 *   reported, never silently emptied
 * - inputs: path of the SQLite file (NULL: a private in-memory catalog)
 * - output: *out, the open catalog
 * - errors: CF_EPARSE (exit 3, bad input) when the file is not a
 *   clusterfit catalog this library reads: not an SQLite database, another
 *   program's database, a newer or unexpected schema (the message names
 *   the path); CF_EDB (another SQLite failure), CF_EIO; CF_EENV (exit 5)
 *   when `path` lies in a directory that does not exist (the message says
 *   to create it); CF_EINVAL when `path` is a directory, or out is NULL; CF_EINTERNAL when the library was built without
 *   data/offerings.csv; CF_ENOMEM. err is set; *out is NULL
 * - ownership: *out is the caller's; cf_catalog_close() closes and frees
 *   it. path is copied */
CF_API cf_status cf_catalog_open(const char *path, cf_catalog **out, cf_error *err);

/* Closes a catalog and frees it (the _free of cf_catalog_open, status.h).
 * - ownership: cat must not be used afterwards; NULL is a no-op */
CF_API void cf_catalog_close(cf_catalog *cat);

/* Whether the catalog's path still names the file this handle reads
 * (issue 21). A handle keeps reading the file it opened: one renamed over
 * (mv), or removed and made again, is not seen by it, while a new
 * cf_catalog_open reads the new file. A long-lived handle (the server's)
 * asks before each use and opens the path again when this says 1.
 * - output: 1 when the path names another file than at open (another
 *   device or inode) or no file; 0 when it names the same file (whose
 *   changes every read sees), for an in-memory catalog or cat NULL, and
 *   when the path cannot be examined for another reason (a permission) */
CF_API int cf_catalog_replaced(const cf_catalog *cat);

/* The offerings of the catalog that pass a filter.
 * - inputs: f (NULL: all, as cf_offering_matches); sort (ties by id)
 * - output: *out, the user's row where a user's and a shipped row share an
 *   id, ordered by `sort`
 * - errors: CF_EINVAL (cat or out NULL), CF_EDB (SQLite failure),
 *   CF_EBUSY (locked by another process past a 5 s wait), CF_ENOMEM; the
 *   reason is in cf_catalog_note. *out is then empty. A stored row that
 *   fails its column's checks (a hand-edited file) is skipped and named in
 *   cf_catalog_note, not an error
 * - ownership: *out is the caller's (cf_offering_list_clear); f is
 *   borrowed for the call */
CF_API cf_status cf_catalog_query(cf_catalog *cat, const cf_filter *f, cf_sort sort,
                                  cf_offering_list *out);

/* What the last read of `cat` (cf_catalog_query, cf_catalog_get) or its
 * open has to tell beyond its status (issue 15).
 * - output: after a failed read, the path and the reason ("catalog PATH:
 *   cannot read the offerings: locked by another process ..."); after a
 *   read that succeeded, its warnings: a stored row that fails its
 *   column's checks is skipped (cf_catalog_get answers CF_ENOTFOUND for it)
 *   and named here with its id and column; a read-only file whose shipped
 *   rows are older than this library's is used as it is. "" when nothing
 * - ownership: the catalog's storage, valid until the next call on cat;
 *   "" for cat NULL */
CF_API const char *cf_catalog_note(const cf_catalog *cat);

/* One offering by id.
 * - output: *out, the user's row when there is one, else the shipped row
 * - errors: CF_ENOTFOUND when no row has that id; CF_EINVAL (cat, id or
 *   out NULL), CF_EDB, CF_ENOMEM as cf_catalog_query. *out is then NULL
 * - ownership: *out is allocated for the caller (cf_offering_free) */
CF_API cf_status cf_catalog_get(cf_catalog *cat, const char *id, cf_offering **out);

/* The providers of the catalog.
 * - output: a JSON array [{provider, offerings, multinode_offerings,
 *   networks[], multinode_networks[]}] sorted by provider name
 *   (case-insensitive). networks lists the known fabric families of all the
 *   provider's offerings, multinode_networks those of its multi-node
 *   offerings (multinode yes) only, both in vocabulary order: a single-node
 *   pod's tcp is not a fabric between nodes, so multinode_networks says
 *   which fabric a multi-node cluster really has (empty when every one is
 *   unknown)
 * - errors: CF_EINVAL (cat or out NULL), CF_EDB, CF_ENOMEM; *out is then
 *   NULL
 * - ownership: *out is a new reference (json_decref) */
CF_API cf_status cf_catalog_providers(cf_catalog *cat, json_t **out);

/* The providers of the catalog with the age of their facts (issue 13).
 * - inputs: today YYYY-MM-DD (NULL: no stale counts), stale_months >= 1
 * - output: as cf_catalog_providers, each provider with "oldest_as_of" (the
 *   oldest date of its rows, price_as_of where set, else as_of) and, when
 *   today is given, "stale_rows" (rows whose date is before today minus
 *   stale_months months, as cf_filter's stale_months) and "stale_before"
 *   (that cutoff, YYYY-MM-DD)
 * - errors: as cf_catalog_providers; CF_EINVAL for a malformed today or
 *   stale_months outside 1..CF_MAX_STALE_MONTHS
 * - ownership: as cf_catalog_providers */
CF_API cf_status cf_catalog_providers_at(cf_catalog *cat, const char *today, long stale_months,
                                         json_t **out);

/* The facts of one provider from the provider table (data/providers.csv,
 * issue 22): what a renter meets before any offering.
 * - output: *out = {provider, multinode ("yes"/"no"/null: what a source
 *   decides), orchestration[], provisioning[] (may name "sales-contact" and
 *   "waitlist"), rating {system, tier, date, source_url} or null, rating
 *   (the one-line text of cf_offering.provider_rating) or null, notes,
 *   source_url, as_of}; cf_catalog_providers_at adds the same keys to each
 *   provider it lists (null where the table has no row)
 * - errors: CF_ENOTFOUND when the table has no such provider (names
 *   compare case-insensitively); CF_EINVAL, CF_EDB, CF_ENOMEM
 * - ownership: *out is a new reference (json_decref) */
CF_API cf_status cf_catalog_provider_get(cf_catalog *cat, const char *provider, json_t **out);

/* The date `months` whole months before `today`, the day clamped to the
 * last of its month (2026-08-31 minus 6 months is 2026-02-28).
 * - inputs: today YYYY-MM-DD; months 0..CF_MAX_STALE_MONTHS
 * - output: out, YYYY-MM-DD with its NUL (CF_DATE_SIZE bytes)
 * - errors: CF_EINVAL for a NULL or malformed today, months out of range,
 *   or a result before year 1900; out is then "" */
CF_API cf_status cf_catalog_stale_cutoff(const char *today, long months, char *out);

/* Whether an offering's date is before a cutoff (of cf_catalog_stale_cutoff).
 * - inputs: o; cutoff YYYY-MM-DD
 * - output: 1 when the row's date (price_as_of where set, else as_of;
 *   YYYY-MM as its 1st) is before cutoff, else 0 (also for NULLs) */
CF_API int cf_offering_stale(const cf_offering *o, const char *cutoff);

/* ---- the user's rows ---------------------------------------------------- */

/* Imports offerings as the user's rows.
 * - inputs: as cf_offerings_parse (`opts` may be NULL)
 * - computes: validates every row first, then inserts new ids and replaces
 *   the user's rows with the same ids, all in one transaction; a shipped
 *   row with the same id is hidden, not changed
 * - output: *n_rows (may be NULL) gets the number of rows imported, 0 on
 *   error
 * - errors: those of cf_offerings_parse; CF_EINVAL (cat NULL); CF_EDB
 *   (among them a file another process holds locked), CF_ENOMEM with err
 *   set. On any error nothing is changed
 * - ownership: data is read during the call; `name` is kept in err->file */
CF_API cf_status cf_catalog_import(cf_catalog *cat, const char *name, const char *data,
                                   size_t len, cf_import_format fmt, const cf_import_opts *opts,
                                   size_t *n_rows, cf_error *err);

/* Reads a file and imports it as cf_catalog_import does.
 * - inputs: path; the format is JSON when the name ends in ".json", CSV
 *   when it ends in ".csv" (case-insensitive), else JSON when the first
 *   non-blank byte is '[', else CSV
 * - output: *n_rows as cf_catalog_import
 * - errors: CF_EINVAL (cat or path NULL), CF_EIO when it cannot be read,
 *   CF_ELIMIT over CF_MAX_IMPORT_BYTES, CF_ENOMEM, and those of
 *   cf_catalog_import
 * - ownership: err->file points to path (borrowed) */
CF_API cf_status cf_catalog_import_file(cf_catalog *cat, const char *path,
                                        const cf_import_opts *opts, size_t *n_rows,
                                        cf_error *err);

/* Deletes some of the user's rows.
 * - computes: checks every id, then deletes the user's rows with the `n`
 *   ids, in one transaction; a shipped row with a removed id shows again
 * - output: *removed (may be NULL) gets the number of rows deleted
 *   (repeated ids count once); 0 on error
 * - errors: CF_ENOTFOUND when any id has no user row: nothing is deleted,
 *   and err names every such id (saying when it is a shipped offering,
 *   which cannot be removed). CF_EINVAL (cat NULL, or ids NULL with n > 0),
 *   CF_EDB, CF_ENOMEM; nothing is deleted
 * - ownership: ids are read during the call */
CF_API cf_status cf_catalog_remove_user(cf_catalog *cat, const char *const *ids, size_t n,
                                        size_t *removed, cf_error *err);

/* Deletes every user row (shipped rows with the same ids show again).
 * - output: *removed (may be NULL) gets how many; 0 on error
 * - errors: CF_EINVAL (cat NULL), CF_EDB (a damaged file among them),
 *   CF_EBUSY, CF_EENV, CF_ENOMEM; nothing is deleted */
CF_API cf_status cf_catalog_reset_user(cf_catalog *cat, size_t *removed, cf_error *err);

/* Deletes every user row and every imported price (`import --reset`), in
 * one transaction: both go, or (on any error, a kill included) neither.
 * - output: *rows and *prices (each may be NULL) get how many user rows and
 *   how many offerings' imported prices were deleted; 0 on error
 * - errors: as cf_catalog_reset_user; nothing is deleted */
CF_API cf_status cf_catalog_reset(cf_catalog *cat, size_t *rows, size_t *prices, cf_error *err);

/* ---- price imports (issue 13) ------------------------------------------- */

/* Price files that refresh the catalog's prices. */
typedef enum cf_price_format {
    CF_PRICE_SKYPILOT = 0,  /* skypilot-org/skypilot-catalog catalogs/v7/<cloud>/vms.csv */
    CF_PRICE_GCP_CATALOG    /* a page of GCP's Cloud Billing Catalog services.skus.list (JSON) */
} cf_price_format;

/* The format of a name.
 * - inputs: s, "skypilot" or "gcp-catalog" (case-insensitive)
 * - output: *out; unchanged on error
 * - errors: CF_EINVAL when s is NULL or names no price format */
CF_API cf_status cf_price_format_parse(const char *s, cf_price_format *out);

/* The price format names, for messages ("skypilot or gcp-catalog"). Static storage. */
CF_API const char *cf_price_format_accepted(void);

/* Options of a price import. Zero-initialise, then set what applies. */
typedef struct cf_price_import_opts {
    const char *as_of;  /* YYYY-MM-DD the prices were read (price_as_of); required */
    const char *today;  /* YYYY-MM-DD: as_of after it is refused; NULL = not compared */
    /* The SkyPilot cloud ("aws", "lambda", "nebius", ...); NULL: the name of
     * the folder holding the file (catalogs/v7/aws/vms.csv -> aws). */
    const char *cloud;
} cf_price_import_opts;

/* Imports the prices of a SkyPilot catalog file, or (fmt
 * CF_PRICE_GCP_CATALOG) of a page of GCP's Cloud Billing Catalog SKUs
 * (DESIGN §3, issue 13). gcp-catalog: `data` is the JSON object that
 * services.skus.list returns; its skus[] are read by key (description,
 * category.usageType, serviceRegions, pricingInfo[0].pricingExpression.
 * tieredRates[0].unitPrice {currencyCode, units, nanos}), other keys
 * ignored; the machine types of data/skypilot-map.csv kind gcp_machine
 * (ACCELERATOR:COUNT|GPU SKU|CORE SKU:VCPUS|RAM SKU:GIB) are priced per
 * region as COUNT x GPU + VCPUS x core + GIB x RAM (OnDemand; Preemptible
 * for spot) and then go where a vms.csv type goes (ids of new rows
 * gcp-catalog-gcp-<type>); the cloud is gcp (opts->cloud NULL or "gcp",
 * else CF_EINVAL); commitments are counted in unpriced_rows, SKUs in
 * another currency in skipped.other_currency, SKUs of no mapped machine in
 * no_accelerator (GPU ones, by name, in unknown_accelerator); a used SKU
 * without usage type, regions or tiered rates, or with a non-numeric
 * units/nanos, is CF_EPARSE at its line and column with its JSON path.
 * Malformed JSON: CF_EPARSE at jansson's position. For a vms.csv:
 * - inputs: `data`, len bytes (at most CF_MAX_IMPORT_BYTES) of a vms.csv as
 *   skypilot-catalog publishes it: columns read by name (InstanceType,
 *   AcceleratorName, AcceleratorCount, Price, Region required; SpotPrice
 *   read when present; any other column ignored), LF or CRLF line ends.
 *   `name` names the input in errors and, without opts->cloud, gives the
 *   cloud; opts (not NULL) as above
 * - computes: per instance type with an accelerator, the lowest on-demand
 *   and the lowest spot price per GPU-hour across its rows (Price /
 *   AcceleratorCount, in USD as SkyPilot publishes), with their regions.
 *   A type that data/skypilot-map.csv maps to an offering updates only that
 *   offering's prices: price_on_demand_gpu_hr, price_spot_gpu_hr and
 *   price_as_of = opts->as_of, kept in the catalog file's price overlay
 *   (it survives rebuilds of the shipped rows; a note names the file and
 *   the regions). It is not applied (and said so in the summary) when the
 *   file has no on-demand price for it, the offering's currency is not USD,
 *   the offering's prices are dated after as_of, or a row of your own hides
 *   the shipped one. An unmapped type becomes a user row (id
 *   skypilot-<cloud>-<type>, multinode unknown, gpu from the map's
 *   accelerator names or data/gpus.csv, unknown when the name does not say
 *   the form factor). Rows without an accelerator (CPU-only, and GCP's host
 *   rows), accelerator rows without an instance type, and accelerators
 *   neither in the map nor in data/gpus.csv are skipped and counted
 * - output: *summary, a JSON object {format, cloud, provider, as_of, rows,
 *   priced[{id, instance_type, price_on_demand_gpu_hr, region,
 *   price_spot_gpu_hr, spot_region, previous_price_on_demand_gpu_hr and
 *   previous_price_as_of (the listed price replaced, null when none),
 *   change_pct and large_change (|change| > CF_PRICE_CHANGE_WARN_PCT; only
 *   with a previous price)}], added[{id, instance_type, gpu (null when the
 *   name does not say the form factor), accelerator (the file's or the
 *   map's name, always set), accelerator_count, price_on_demand_gpu_hr,
 *   price_spot_gpu_hr}], not_applied[{id,
 *   instance_type, reason}], skipped{no_accelerator,
 *   accelerator_without_instance, unknown_accelerator, unknown_names[],
 *   unpriced_rows, host_without_gpu_row}, host_rows_with_gpus}. A host row
 *   (InstanceType set, no accelerator) of a type the map pairs with its
 *   GPUs (kind host_gpus, value ACCELERATOR:COUNT; GCP's A2/A3 machine
 *   types, whose vms.csv prices the GPUs in rows of their own with an
 *   empty InstanceType) is priced as host + GPUs of the same region; a
 *   mapped type is not applied when its accelerator count differs from the
 *   offering's gpus_per_node
 * - errors: CF_EPARSE with err at FILE:LINE:COLUMN for a missing required
 *   column (line 1, column 0) or a cell that is not a number where a used
 *   row needs one (AcceleratorCount > 0, Price and SpotPrice >= 0 or
 *   empty); CF_EINVAL for a malformed or future as_of, or a cloud that
 *   cannot be told (err says to give it); CF_ELIMIT over the import limits;
 *   CF_EDB, CF_ENOMEM. On any error the catalog is unchanged
 * - ownership: *summary is a new reference (json_decref), NULL on error;
 *   `name` is kept in err->file */
CF_API cf_status cf_catalog_import_prices(cf_catalog *cat, const char *name, const char *data,
                                          size_t len, cf_price_format fmt,
                                          const cf_price_import_opts *opts, json_t **summary,
                                          cf_error *err);

/* Deletes every imported price (the price overlay): the shipped rows show
 * their own prices again (cf_catalog_reset deletes them with the user's
 * rows, in one transaction).
 * - output: *removed (may be NULL) gets how many offerings had imported
 *   prices; 0 on error
 * - errors: as cf_catalog_reset_user; nothing is deleted */
CF_API cf_status cf_catalog_reset_prices(cf_catalog *cat, size_t *removed, cf_error *err);

/* Reads a file and imports its prices as cf_catalog_import_prices does.
 * - errors: those of cf_catalog_import_prices; CF_EIO when the file cannot
 *   be read, CF_ELIMIT over CF_MAX_IMPORT_BYTES
 * - ownership: err->file points to path (borrowed) */
CF_API cf_status cf_catalog_import_prices_file(cf_catalog *cat, const char *path,
                                               cf_price_format fmt,
                                               const cf_price_import_opts *opts,
                                               json_t **summary, cf_error *err);

#endif
