/* catalog_int.h — what the files of lib/catalog/ share. Not installed.
 *
 * offering.c owns the column table (one entry per column of DESIGN §3,
 * naming the cf_offering member it fills and how a cell is validated), cell
 * validation and the offering lifecycle; import.c the CSV and JSON readers;
 * filter.c filters and sort orders; db.c the SQLite file (schema, shipped
 * rows, reading rows), user.c the user's rows and providers.c the provider
 * summary, both through the db.c helpers below. Only this folder includes
 * sqlite3.h; this header names the handle as `struct sqlite3` so that it
 * does not need to. */
#ifndef CLUSTERFIT_CATALOG_INT_H
#define CLUSTERFIT_CATALOG_INT_H

#include <stddef.h>
#include <sys/types.h>
#include <jansson.h>
#include "clusterfit/catalog.h"
#include "base/base.h"

/* How a column's cell is read, checked and stored. */
typedef enum cf__col_kind {
    CF__COL_ID,        /* char*: slug [a-z0-9][a-z0-9._-]*, required */
    CF__COL_NAME,      /* char*: non-empty text, required */
    CF__COL_TEXT,      /* char*: free text, may be unknown */
    CF__COL_GPU,       /* char*: a GPU of data/gpus.csv (cf_gpu_lookup) */
    CF__COL_INT_POS,   /* long >= 1, -1 unknown */
    CF__COL_INT_NONNEG,/* long >= 0, -1 unknown */
    CF__COL_NUM_POS,   /* double > 0, NAN unknown */
    CF__COL_NUM_NONNEG,/* double >= 0, NAN unknown */
    CF__COL_INTRA,     /* cf_intra_link */
    CF__COL_NET,       /* cf_network */
    CF__COL_CAP,       /* cf_cap */
    CF__COL_SET,       /* unsigned mask + int known flag */
    CF__COL_CURRENCY,  /* char*: ISO 4217, 3 letters, stored upper case */
    CF__COL_LIST,      /* char*: ';'-separated free-form elements (regions) */
    CF__COL_URLS,      /* char*: one or more http(s) URLs, "; "-joined, required */
    CF__COL_DATE       /* char*: YYYY-MM or YYYY-MM-DD, required */
} cf__col_kind;

/* One column of DESIGN §3: an entry of cf__columns. */
typedef struct cf__column {
    const char *name;   /* the CSV header, JSON key and SQLite column ("gpus_per_node") */
    cf__col_kind kind;  /* how a cell is read, checked and stored */
    size_t off;         /* offsetof the member in cf_offering */
    size_t off_known;   /* sets: offsetof the *_known flag; 0 for other kinds */
    cf_set_kind set;    /* sets: which vocabulary; unused for other kinds */
    int required;       /* 1 when an empty cell is an error (id, names, URLs, as_of) */
} cf__column;

/* The columns in DESIGN §3 order (that of data/offerings.csv). */
extern const cf__column cf__columns[CF_OFFERING_NCOLS];

/* Indexes in cf__columns of the columns checked between columns of a row. */
enum { CF__COL_PRICE_OD_INDEX = 20, CF__COL_PRICE_RES_INDEX = 21, CF__COL_CURRENCY_INDEX = 22,
       CF__COL_AS_OF_INDEX = 28, CF__COL_INR_INDEX = 29, CF__COL_PRICE_SPOT_INDEX = 30,
       CF__COL_PRICE_AS_OF_INDEX = 31 };

/* ---- offerings (offering.c) ---------------------------------------------- */

/* Every member unknown, no strings. */
void cf__offering_init(cf_offering *o);

/* Sets column `col` of `o` from the cell text `s` (len bytes, need not be
 * NUL-terminated; surrounding blanks are ignored). Checks UTF-8 and the
 * column's rules. An empty cell is unknown, or an error for required columns.
 * On CF_EPARSE writes "column: expected ..., got \"...\"" into why (size n).
 * CF_ENOMEM when a copy fails. Replaces (and frees) a previous value. */
cf_status cf__offering_set_cell(cf_offering *o, int col, const char *s, size_t len,
                                char *why, size_t n);

/* As cf__offering_set_cell, with `got` (NULL = the cell text, quoted) as the
 * value an error message shows: the JSON reader passes the value as the file
 * wrote it (a number unquoted, an array as an array). */
cf_status cf__offering_set_cell_got(cf_offering *o, int col, const char *s, size_t len,
                                    const char *got, char *why, size_t n);

/* Checks between columns of one row (a price needs a currency) and, when
 * `today` (YYYY-MM-DD) is not NULL, that as_of is not after today. Returns
 * the column at fault and fills why, or -1 when the row is consistent. */
int cf__offering_check_row(const cf_offering *o, const char *today, char *why, size_t n);

/* A number written in decimal ("2.5", "1e3", "-1"; no hex, inf, nan or
 * blanks) into *out. CF_EINVAL otherwise. */
cf_status cf__parse_decimal(const char *s, double *out);

/* 1 when s has the shape of an ISO 4217 code: three ASCII letters. */
int cf__is_currency(const char *s);

/* ---- filters and sorting (filter.c) ---------------------------------------- */

/* Sorts l's offerings in the order of `sort` (cf_sort_parse), ties by id.
 * CF_ENOMEM leaves l as it was. */
cf_status cf__offering_sort(cf_offering_list *l, cf_sort sort);

/* ---- offering lists (offering.c) -------------------------------------------- */

/* Appends a copy-less move of *o to l (o's members then belong to the list);
 * CF_ENOMEM leaves *o untouched. `cap` is the list's allocated size. */
cf_status cf__list_push(cf_offering_list *l, size_t *cap, cf_offering *o);

/* ---- the SQLite file (db.c), for user.c and providers.c ---------------------- */

/* An open catalog (the opaque cf_catalog of catalog.h). */
struct cf_catalog {
    struct sqlite3 *db; /* the connection; owned, closed by cf_catalog_close */
    char *path;         /* the file as messages name it (":memory:" for none); owned */
    char note[CF_ERROR_MSG_MAX];    /* cf_catalog_note: the last read's warning or reason */
    char open_note[CF_ERROR_MSG_MAX]; /* a warning of the open (read-only file used as is) */
    int have_id;        /* 1 when dev and ino name the file opened (0: in memory, or no stat) */
    dev_t dev;          /* st_dev of the file at the path when it was opened */
    ino_t ino;          /* st_ino of that file (cf_catalog_replaced compares both) */
};

/* cf_catalog_open with the shipped rows given explicitly (tests open a small
 * catalog this way; cf_catalog_open passes the embedded data/offerings.csv).
 * - inputs: `shipped_csv`, shipped_len bytes of CSV (named `shipped_name`
 *   in error messages; NULL = "shipped catalog"); the shipped rows are
 *   rebuilt whenever the hash of this text differs from the one stored in
 *   the file. `path` NULL opens a private in-memory database.
 * - errors: those of cf_catalog_open but CF_EINTERNAL; CF_EINVAL when out is
 *   NULL or shipped_csv is NULL with shipped_len > 0; CF_EPARSE/CF_ELIMIT
 *   when the shipped CSV is invalid (the database is then left as it was).
 * - ownership: as cf_catalog_open (*out: cf_catalog_close). */
cf_status cf__catalog_open_shipped(const char *path, const char *shipped_name,
                                   const char *shipped_csv, size_t shipped_len,
                                   cf_catalog **out, cf_error *err);

/* Fills err with "catalog PATH: WHAT: SQLite's message" and returns CF_EDB,
 * or CF_ENOMEM (message "out of memory") when SQLite ran out of memory. */
cf_status cf__db_error(struct sqlite3 *db, const char *path, cf_error *err, const char *what);

/* Begins every write to the catalog file, the same way for all of them
 * (issues 15 and 21: imports, price imports, removals, resets, the shipped
 * rows' rebuild, schema creation and migration): BEGIN IMMEDIATE (the write
 * lock, waiting up to the busy timeout), then PRAGMA quick_check inside that
 * transaction, so the file checked is the file written. CF_OK with the
 * transaction open. Else nothing is open and err says why: "catalog PATH:
 * cannot lock the file to WHAT: ..." (CF_EBUSY, CF_EENV, CF_EDB), or
 * "catalog PATH is damaged (...); nothing was written" and a remedy (CF_EDB). */
cf_status cf__db_begin_write(struct sqlite3 *db, const char *path, const char *what,
                             cf_error *err);

/* Commits a write begun by cf__db_begin_write. On failure err says
 * "catalog PATH: cannot commit (WHAT): ..." and the transaction is rolled
 * back. */
cf_status cf__db_commit(struct sqlite3 *db, const char *path, const char *what, cf_error *err);

/* Runs SQL without results: 0 on success, -1 with SQLite's error kept. */
int cf__db_exec(struct sqlite3 *db, const char *sql);

/* Runs the n DELETEs of `sql` on cat in one write (cf__db_begin_write, one
 * COMMIT: the reset commands, of your offerings, your imported prices or
 * both): removed[i] (removed may be NULL) = the rows sql[i] removed, all 0
 * on error. CF_EINVAL without a catalog; the statuses of cf__db_begin_write;
 * CF_EDB with "catalog PATH: cannot WHAT: ..." when SQLite refuses a
 * statement, and then nothing is deleted. */
cf_status cf__db_delete(cf_catalog *cat, const char *const *sql, size_t n, const char *what,
                        size_t *removed, cf_error *err);

/* Rolls back the open transaction, if any. */
void cf__db_rollback(struct sqlite3 *db);

/* Inserts (or replaces, same id and origin) every row of l with `origin`
 * ("shipped" or "user") inside the caller's transaction. CF_EDB or
 * CF_ENOMEM with err set; the caller rolls back. */
cf_status cf__db_insert_all(struct sqlite3 *db, const char *path, const cf_offering_list *l,
                            const char *origin, cf_error *err);

/* A key of the catalog's meta table into buf (size n; "" when absent), or
 * set (replaced); 0 on success, -1 with SQLite's error kept. Keys:
 * shipped_hash, shipped_rows (db.c), release_* (release.c). */
int cf__db_read_meta(struct sqlite3 *db, const char *key, char *buf, size_t n);
int cf__db_write_meta(struct sqlite3 *db, const char *key, const char *value);

/* The built-in shipped rows, as a catalog's first open builds them (the
 * embedded offerings, provider table and price snapshots), in *l, and the
 * hash meta.shipped_hash holds for them in hash. Bad embedded data: *l
 * empty, err set. */
cf_status cf__db_builtin_rows(cf_offering_list *l, char hash[32], cf_error *err);

/* Installs the fault injector's hooks in SQLite (fault_sqlite.c; test-only,
 * issue 21): its allocator, a VFS wrapping the default one (made the
 * default) and a statement hook on every connection, each counting its
 * calls for cf__fault_arm. Call before any connection opens (it runs
 * sqlite3_shutdown). CF_OK, or CF_EINTERNAL when SQLite refuses. */
cf_status cf__fault_sqlite_install(void);

/* One step of a JSON path: a key of an object, or (key NULL) an index. */
typedef struct cf__jstep {
    const char *key;
    size_t index;
} cf__jstep;

/* Line and column (1-based, columns in characters) of the value at `steps`
 * in the JSON text data (already accepted by jansson), for errors that name
 * a field deep in a price file (import.c); 0, 0 when not found. */
void cf__json_path_position(const char *data, size_t len, const cf__jstep *steps, size_t n,
                            long *line, long *column);


/* ---- price imports (prices.c reads SkyPilot's vms.csv and decides and
 * writes what each instance type becomes; prices_gcp.c reads Cloud Billing
 * Catalog SKU pages into the same types) ------------------------------- */

enum { MAX_NAMES_SHOWN = 8 };  /* unknown accelerators named in the summary */

/* The map, data/skypilot-map.csv (kind, key, value rows). */
typedef struct price_map {
    cf__csv_table t;            /* the embedded CSV's cells */
    int c_kind, c_key, c_value; /* its columns */
} price_map;

/* One instance type of the file, over all its rows. */
typedef struct itype {
    const char *inst, *acc;     /* borrowed from the table */
    const char *gpu;            /* gpus.csv name, NULL when the name does not say it */
    double count;               /* AcceleratorCount of its first priced row */
    double od, spot;            /* lowest per GPU-hour, NAN when none */
    const char *od_region, *spot_region;
    size_t rows;
    char *regions;              /* ';'-joined, each once; owned */
    int host_plus_gpus;         /* priced as host row + GPU row (host_gpus) */
} itype;

/* One GPU-only row of GCP's vms.csv (AcceleratorName set, InstanceType
 * empty: the price of N GPUs attached to a host, without the host), kept
 * for the host machine types the map pairs with it: the lowest prices per
 * (accelerator, count, region) over the region's zones. */
typedef struct gpu_part {
    const char *acc, *region;   /* borrowed from the table */
    double count, od, spot;     /* od, spot: USD per hour for `count` GPUs, NAN when none */
} gpu_part;

typedef struct import {
    const char *name;           /* the file's name, for messages */
    cf_price_format fmt;        /* the file's format */
    size_t nrows;               /* rows (vms.csv) or SKUs (gcp-catalog) in the file */
    const char *cloud;          /* the SkyPilot cloud, for the map's keys */
    const cf__csv_table *t;     /* vms.csv's cells (NULL for gcp-catalog) */
    int c_inst, c_acc, c_count, c_price, c_region, c_spot; /* its columns, -1 = absent */
    itype *types;               /* the types collected, n of cap; owned */
    size_t n, cap;
    gpu_part *parts;            /* GPU-only rows a host pairing uses */
    size_t nparts, parts_cap;
    long no_acc, no_inst, unknown_acc, unpriced; /* rows skipped, by why (the summary) */
    long paired;                /* host rows priced with their GPUs' row (GCP A2/A3) */
    long not_usd;               /* gcp-catalog SKUs in another currency (never converted) */
    void *owned;                /* what types[].acc may point into (gcp-catalog machines) */
    long unpaired;              /* paired host rows whose region has no GPU row */
    char unknown_names[MAX_NAMES_SHOWN][64]; /* unknown accelerators, for the summary */
    int n_unknown_names;        /* how many of unknown_names are set */
} import;

/* The value of (kind, key), "" when the map has it empty; NULL when the map
 * has no such entry (accelerator names compare case-insensitively). */
const char *cf__price_map_get(const price_map *m, const char *kind, const char *key);

/* The collected type of instance type inst (added on first use, accelerator
 * acc); NULL on out of memory. */
itype *cf__price_type_of(import *im, const char *inst, const char *acc);

/* The gpus.csv name of accelerator acc in *gpu (NULL when the name does not
 * say the form factor); 0, counted as unknown, when neither the map nor
 * data/gpus.csv knows it. */
int cf__price_resolve_gpu(import *im, const price_map *m, const char *acc, const char **gpu);

/* Counts an accelerator outside the map and data/gpus.csv (names kept for
 * the summary, MAX_NAMES_SHOWN at most). */
void cf__price_note_unknown(import *im, const char *acc);

/* Keeps one priced row of instance type inst: count accelerators acc
 * (gpus.csv name gpu), price and spot per instance-hour (NAN when none) in
 * region; the lowest per GPU-hour wins. CF_ENOMEM on failure. Every
 * format's reader ends here. */
cf_status cf__price_keep(import *im, const char *inst, const char *acc, const char *gpu, double count,
                         double price, double spot, const char *region);

/* Reads a Cloud Billing Catalog SKU page (root, the parsed document of
 * data/len) into im's types for the machine types the map describes
 * (prices_gcp.c). CF_EPARSE with FILE:LINE:COLUMN and the JSON path. */
cf_status cf__price_read_gcp(import *im, const price_map *m, const json_t *root, const char *data,
                             size_t len, cf_error *err);

/* The importer's steps, for the shipped price snapshots (snapshots.c) as
 * for `import --format skypilot`: the embedded map (CF_EINTERNAL when the
 * build lacks it); vms.csv's columns by name (CF_EPARSE at line 1); every
 * row into im's types (CF_EPARSE at FILE:LINE:COLUMN); what im owns freed. */
cf_status cf__price_map_load(price_map *m, cf_error *err);
cf_status cf__price_find_columns(import *im, cf_error *err);
cf_status cf__price_read_rows(import *im, const price_map *m, cf_error *err);
void cf__price_import_clear(import *im);

/* ---- shipped price snapshots (snapshots.c) ------------------------------- */

/* One dated snapshot of a SkyPilot vms.csv shipped in data/prices/. */
typedef struct cf__snapshot {
    const char *name;   /* its path in messages ("data/prices/lambda/vms.csv") */
    const char *data;   /* its bytes (borrowed) */
    size_t len;         /* their length */
    const char *cloud;  /* the SkyPilot cloud (the map's key prefix) */
    const char *commit; /* skypilot-catalog commit it was copied from */
    const char *as_of;  /* YYYY-MM-DD it was read (the prices' date) */
} cf__snapshot;

/* The embedded snapshots named by data/prices/provenance.csv, in *out (n of
 * them, cf__free the array; the strings point into *prov, which the caller
 * clears with cf__csv_table_clear after use, and into the embedded data).
 * CF_OK with *n = 0 when the build ships none; CF_EPARSE with FILE:LINE
 * when the provenance file is malformed or names a file not embedded. */
cf_status cf__snapshots_embedded(cf__csv_table *prov, cf__snapshot **out, size_t *n,
                                 cf_error *err);

/* Applies the n snapshots to the shipped rows l (before they are written):
 * each mapped instance type's lowest on-demand and spot price per GPU-hour
 * replaces the row's, price_as_of = the snapshot's date and price_source
 * says which snapshot. Nothing is changed unless every snapshot parses and
 * every row of a mapped type has the mapped offering's gpus_per_node:
 * CF_EPARSE with FILE:LINE:COLUMN and the reason otherwise. A mapped type
 * without an on-demand price, or an offering priced in another currency,
 * keeps the row's price. *applied (may be NULL) = offerings priced. */
cf_status cf__snapshots_apply(cf_offering_list *l, const cf__snapshot *s, size_t n,
                              size_t *applied, cf_error *err);

/* ---- the provider table (provtable.c) ------------------------------------ */

/* Parses data/providers.csv (`name` in messages) and writes its rows into
 * the `provider` table inside the caller's transaction (old rows deleted).
 * CF_EPARSE with FILE:LINE:COLUMN for a malformed row; CF_EDB/CF_ENOMEM. */
cf_status cf__providers_check(const char *name, const char *csv, size_t len, cf_error *err);
cf_status cf__providers_write(struct sqlite3 *db, const char *path, const char *name,
                              const char *csv, size_t len, cf_error *err);

/* cf_catalog_open with the shipped snapshots and provider table given
 * explicitly (cf__catalog_open_shipped passes none, cf_catalog_open the
 * embedded ones). `providers_csv` NULL: no provider rows. */
cf_status cf__catalog_open_full(const char *path, const char *shipped_name,
                                const char *shipped_csv, size_t shipped_len,
                                const char *providers_csv, size_t providers_len,
                                const cf__snapshot *snaps, size_t nsnaps, cf_catalog **out,
                                cf_error *err);

#endif
