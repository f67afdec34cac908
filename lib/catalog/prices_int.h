/* prices_int.h — what the price importers share (lib/catalog/prices*.c,
 * issue 13): the instance-type map (data/skypilot-map.csv), the types an
 * import collects from its file, and the calls every format's reader ends
 * in. prices.c reads SkyPilot's vms.csv and decides and writes what each
 * type becomes; prices_gcp.c reads Cloud Billing Catalog SKU pages. Not part
 * of the public API. */
#ifndef CF_CATALOG_PRICES_INT_H
#define CF_CATALOG_PRICES_INT_H

#include <jansson.h>
#include "clusterfit/catalog.h"
#include "base/base.h"

enum { WHY = 512, MAX_NAMES_SHOWN = 8 };

/* The map, data/skypilot-map.csv (kind, key, value rows). */
typedef struct price_map {
    cf__csv_table t;
    int c_kind, c_key, c_value;
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
    const char *name;
    cf_price_format fmt;        /* the file's format */
    size_t nrows;               /* rows (vms.csv) or SKUs (gcp-catalog) in the file */
    const char *cloud;          /* the SkyPilot cloud, for the map's keys */
    const cf__csv_table *t;
    int c_inst, c_acc, c_count, c_price, c_region, c_spot;
    itype *types;
    size_t n, cap;
    gpu_part *parts;            /* GPU-only rows a host pairing uses */
    size_t nparts, parts_cap;
    long no_acc, no_inst, unknown_acc, unpriced;
    long paired;                /* host rows priced with their GPUs' row (GCP A2/A3) */
    long not_usd;               /* gcp-catalog SKUs in another currency (never converted) */
    void *owned;                /* what types[].acc may point into (gcp-catalog machines) */
    long unpaired;              /* paired host rows whose region has no GPU row */
    char unknown_names[MAX_NAMES_SHOWN][64];
    int n_unknown_names;
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

#endif
