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
 * the struct and freed by cf_offering_free(). */
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
 * returns CF_EDB/CF_EIO with err set, *out NULL. Caller frees with
 * cf_catalog_close(). A corrupt file is reported, never silently emptied. */
CF_API cf_status cf_catalog_open(const char *path, cf_catalog **out, cf_error *err);
CF_API void cf_catalog_close(cf_catalog *cat);

/* Fills *out with the offerings matching `f`, ordered by `sort`. Caller frees
 * with cf_offering_list_free(). */
CF_API cf_status cf_catalog_query(cf_catalog *cat, const cf_filter *f, cf_sort sort,
                                  cf_offering_list *out);

/* One offering by id; CF_ENOTFOUND if absent. *out is heap-allocated;
 * caller frees it with cf_offering_destroy(). */
CF_API cf_status cf_catalog_get(cf_catalog *cat, const char *id, cf_offering **out);

CF_API void cf_offering_free(cf_offering *o);      /* frees members only */
CF_API void cf_offering_destroy(cf_offering *o);   /* members and o itself */
CF_API void cf_offering_list_free(cf_offering_list *l);

/* JSON of one offering: the columns of DESIGN §3, sets as arrays, unknown as
 * null. New reference, caller owns (json_decref). NULL on ENOMEM. */
CF_API json_t *cf_offering_to_json(const cf_offering *o);

#endif
