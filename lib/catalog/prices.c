/* prices.c — price imports (issue 13): a SkyPilot catalog file
 * (skypilot-org/skypilot-catalog, catalogs/v7/<cloud>/vms.csv) refreshes
 * the prices of the offerings data/skypilot-map.csv maps its instance types
 * to, and adds the types it does not map as the user's own rows.
 *
 * The file is read whole (base/csvtable.c: libcsv, columns by header name,
 * LF or CRLF) and checked before anything is written: a missing required
 * column or a non-numeric cell on a row that is used rejects the file with
 * FILE:LINE:COLUMN. Rows are then grouped by instance type (the same type
 * appears once per region and zone) keeping the lowest on-demand and the
 * lowest spot price per GPU-hour with their regions. A mapped type becomes
 * one row of the `price_overlay` table (db.c), which the view `catalog`
 * lays over the shipped row of that id and which a rebuild of the shipped
 * rows leaves alone; an unmapped type becomes a user row. Both are decided
 * and written in one transaction, begun after the file was read and with
 * the catalog's check (cf__db_begin_write), so a failure changes nothing
 * and the decisions are made on the rows written. The map is embedded
 * like the other data files and read once per import. The other format,
 * gcp-catalog (Cloud Billing Catalog SKU pages), is read by prices_gcp.c
 * into the same types (catalog_int.h); deciding and writing are here. */
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include "clusterfit/catalog.h"
#include "clusterfit/date.h"
#include "clusterfit/hardware.h"
#include "clusterfit/limits.h"
#include "catalog/catalog_int.h"
#include "base/base.h"

enum { WHY = 512 };             /* a reason in a message */


/* The SkyPilot catalog's address, for the source_url of the rows an import
 * adds (the file itself is the user's copy; nothing is downloaded). */
#define SKYPILOT_URL "https://github.com/skypilot-org/skypilot-catalog/blob/master/catalogs/v7/"

static const char *const price_format_names[] = {"skypilot", "gcp-catalog"};

/* What a format's files are, for notes and messages. */
static const char *const price_format_what[] = {"a SkyPilot catalog",
                                                "a Cloud Billing Catalog SKU list"};

/* Where a format's files come from, for the source_url of added rows. */
static const char *const price_format_url[] = {
    SKYPILOT_URL "%s/vms.csv",
    "https://cloud.google.com/billing/docs/reference/rest/v1/services.skus/list"};

cf_status cf_price_format_parse(const char *s, cf_price_format *out)
{
    for (size_t i = 0; s && i < sizeof price_format_names / sizeof price_format_names[0]; i++) {
        if (cf__strcasecmp(s, price_format_names[i]) == 0) {
            *out = (cf_price_format)i;
            return CF_OK;
        }
    }
    return CF_EINVAL;
}

const char *cf_price_format_accepted(void) { return "skypilot or gcp-catalog"; }

/* ---- the map (data/skypilot-map.csv) ------------------------------------ */


cf_status cf__price_map_load(price_map *m, cf_error *err)
{
    size_t len = 0;
    const char *csv = cf__embedded_find("data/skypilot-map.csv", &len);
    cf_status st;
    memset(m, 0, sizeof *m);
    if (!csv) {
        cf_error_set(err, NULL, 0, 0, "this clusterfit was built without data/skypilot-map.csv; "
                     "rebuild it from a complete source tree");
        return CF_EINTERNAL;
    }
    st = cf__csv_table_parse(csv, len, "data/skypilot-map.csv", (size_t)CF_MAX_IMPORT_ROWS, &m->t,
                             err);
    if (st != CF_OK) return st == CF_ENOMEM ? st : CF_EINTERNAL;
    m->c_kind = cf__csv_col(&m->t, "kind");
    m->c_key = cf__csv_col(&m->t, "key");
    m->c_value = cf__csv_col(&m->t, "value");
    if (m->c_kind < 0 || m->c_key < 0 || m->c_value < 0) {
        cf__csv_table_clear(&m->t);
        cf_error_set(err, NULL, 0, 0, "data/skypilot-map.csv: expected the columns kind, key, value");
        return CF_EINTERNAL;
    }
    return CF_OK;
}

/* The value of (kind, key), "" when the map has it empty; NULL when the map
 * has no such entry. Keys compare exactly, except accelerator names
 * (case-insensitive, as SkyPilot itself matches them). */
const char *cf__price_map_get(const price_map *m, const char *kind, const char *key)
{
    int nocase = strcmp(kind, "accelerator") == 0;
    for (size_t i = 0; i < m->t.nrows; i++) {
        const char *k = cf__csv_cell(&m->t, i, m->c_key);
        if (strcmp(cf__csv_cell(&m->t, i, m->c_kind), kind) != 0) continue;
        if (nocase ? cf__strcasecmp(k, key) == 0 : strcmp(k, key) == 0)
            return cf__csv_cell(&m->t, i, m->c_value);
    }
    return NULL;
}

/* ---- reading the file ---------------------------------------------------- */


void cf__price_import_clear(import *im)
{
    for (size_t i = 0; i < im->n; i++) cf__free(im->types[i].regions);
    cf__free(im->types);
    cf__free(im->parts);
    cf__free(im->owned);
}

/* A number cell of row r: empty -> NAN (when allowed), else a decimal
 * within the bound; CF_EPARSE with err at the cell otherwise. A price cell
 * (positive 0) of 0 is no price, as an empty one: SkyPilot writes SpotPrice
 * 0.00 for a type with no spot offer (its vast/vms.csv on every row); a
 * negative price is a bad input. */
static cf_status number_cell(const import *im, size_t r, int c, int positive, double *out,
                             cf_error *err)
{
    const char *v = cf__csv_cell(im->t, r, c);
    double x;
    if (!*v && !positive) {
        *out = NAN;
        return CF_OK;
    }
    if (cf__parse_decimal(v, &x) == CF_OK && (positive ? x > 0 : x >= 0) && isfinite(x)) {
        *out = !positive && x == 0 ? NAN : x;
        return CF_OK;
    }
    if (!positive && cf__parse_decimal(v, &x) == CF_OK && x < 0) {
        cf_error_set(err, im->name, im->t->line[r], c + 1, "%s: negative price \"%.60s\" "
                     "(0 or an empty cell means no price)", im->t->header[c], v);
        return CF_EPARSE;
    }
    cf_error_set(err, im->name, im->t->line[r], c + 1, "%s: expected %s, got \"%.60s\"",
                 im->t->header[c], positive ? "a positive number of accelerators"
                                            : "a non-negative price in USD, or an empty cell", v);
    return CF_EPARSE;
}

void cf__price_note_unknown(import *im, const char *acc)
{
    im->unknown_acc++;
    for (int i = 0; i < im->n_unknown_names; i++)
        if (strcmp(im->unknown_names[i], acc) == 0) return;
    if (im->n_unknown_names < MAX_NAMES_SHOWN)
        snprintf(im->unknown_names[im->n_unknown_names++], sizeof im->unknown_names[0], "%s", acc);
}

/* Adds region to the ';'-joined list *list (once). CF_ENOMEM on failure. */
static cf_status add_region(char **list, const char *region)
{
    size_t have = *list ? strlen(*list) : 0, add = strlen(region);
    char *p;
    if (!*region) return CF_OK;
    for (const char *s = *list; s && *s;) {
        size_t l = strcspn(s, ";");
        if (l == add && strncmp(s, region, l) == 0) return CF_OK;
        s += l;
        if (*s) s++;
    }
    if (have + add + 2 > (size_t)CF_MAX_FIELD_BYTES / 2) return CF_OK; /* long enough */
    p = cf__realloc(*list, have + add + 2);
    if (!p) return CF_ENOMEM;
    snprintf(p + have, add + 2, "%s%s", have ? ";" : "", region);
    *list = p;
    return CF_OK;
}

itype *cf__price_type_of(import *im, const char *inst, const char *acc)
{
    for (size_t i = 0; i < im->n; i++)
        if (strcmp(im->types[i].inst, inst) == 0) return &im->types[i];
    if (im->n == im->cap) {
        size_t ncap = im->cap ? im->cap * 2 : 32;
        itype *p = cf__realloc(im->types, ncap * sizeof *p);
        if (!p) return NULL;
        im->types = p;
        im->cap = ncap;
    }
    memset(&im->types[im->n], 0, sizeof im->types[0]);
    im->types[im->n].inst = inst;
    im->types[im->n].acc = acc;
    im->types[im->n].od = im->types[im->n].spot = NAN;
    im->types[im->n].count = NAN;
    return &im->types[im->n++];
}

/* The gpus.csv name of accelerator `acc`: *gpu, NULL when the name does
 * not say the form factor. 0 (and counted) when the accelerator is neither
 * in the map nor in data/gpus.csv. */
int cf__price_resolve_gpu(import *im, const price_map *m, const char *acc, const char **gpu)
{
    const char *alias = cf__price_map_get(m, "accelerator", acc);
    const cf_gpu_spec *spec = NULL;
    *gpu = NULL;
    if (alias) {
        *gpu = *alias ? alias : NULL;
        return 1;
    }
    if (cf_gpu_lookup(acc, &spec) == CF_OK) {
        *gpu = spec->name;
        return 1;
    }
    cf__price_note_unknown(im, acc);
    return 0;
}

/* Keeps one priced row of instance type `inst` (count accelerators `acc`,
 * gpus.csv name `gpu`; price and spot per instance-hour, NAN when none):
 * the lowest price per GPU-hour and its region. Every format ends here. */
cf_status cf__price_keep(import *im, const char *inst, const char *acc, const char *gpu,
                             double count, double price, double spot, const char *region)
{
    itype *ty = cf__price_type_of(im, inst, acc);
    if (!ty) return CF_ENOMEM;
    ty->gpu = gpu;
    ty->rows++;
    if (isnan(ty->count)) ty->count = count;
    if (price == 0) price = NAN; /* 0 is no price in every format (see number_cell) */
    if (spot == 0) spot = NAN;
    if (isnan(price) && isnan(spot)) {
        im->unpriced++;
        return CF_OK;
    }
    if (add_region(&ty->regions, region) != CF_OK) return CF_ENOMEM;
    if (!isnan(price) && (isnan(ty->od) || price / count < ty->od)) {
        ty->od = price / count;
        ty->od_region = region;
    }
    if (!isnan(spot) && (isnan(ty->spot) || spot / count < ty->spot)) {
        ty->spot = spot / count;
        ty->spot_region = region;
    }
    return CF_OK;
}

/* The pairing of host machine type `inst` with its GPUs (map kind
 * host_gpus, key <cloud>/<type>, value <accelerator>:<count>): the
 * accelerator's name into name (size n) and *count; 0 when unpaired. */
static int host_pairing(const import *im, const price_map *m, const char *inst, char *name,
                        size_t n, double *count)
{
    char key[256];
    const char *v, *colon;
    snprintf(key, sizeof key, "%s/%s", im->cloud, inst);
    v = cf__price_map_get(m, "host_gpus", key);
    if (!v || !(colon = strrchr(v, ':')) || colon == v) return 0;
    snprintf(name, n, "%.*s", (int)(colon - v), v);
    return cf__parse_decimal(colon + 1, count) == CF_OK && *count > 0;
}

/* 1 when some host type of this cloud is paired with accelerator `acc`. */
static int acc_is_paired(const import *im, const price_map *m, const char *acc)
{
    size_t lc = strlen(im->cloud), la = strlen(acc);
    for (size_t i = 0; i < m->t.nrows; i++) {
        const char *k = cf__csv_cell(&m->t, i, m->c_key), *v = cf__csv_cell(&m->t, i, m->c_value);
        if (strcmp(cf__csv_cell(&m->t, i, m->c_kind), "host_gpus") != 0) continue;
        if (strncmp(k, im->cloud, lc) != 0 || k[lc] != '/') continue;
        if (strncmp(v, acc, la) == 0 && v[la] == ':') return 1;
    }
    return 0;
}

/* Pass 1: the GPU-only rows (InstanceType empty) that a host pairing of
 * this cloud uses, checked and kept per (accelerator, count, region). */
static cf_status read_parts(import *im, const price_map *m, cf_error *err)
{
    for (size_t r = 0; r < im->t->nrows; r++) {
        const char *inst = cf__csv_cell(im->t, r, im->c_inst);
        const char *acc = cf__csv_cell(im->t, r, im->c_acc);
        const char *region = cf__csv_cell(im->t, r, im->c_region);
        double count, price, spot = NAN;
        gpu_part *g = NULL;
        cf_status st;
        if (*inst || !*acc || !acc_is_paired(im, m, acc)) continue;
        if ((st = number_cell(im, r, im->c_count, 1, &count, err)) != CF_OK) return st;
        if ((st = number_cell(im, r, im->c_price, 0, &price, err)) != CF_OK) return st;
        if (im->c_spot >= 0 && (st = number_cell(im, r, im->c_spot, 0, &spot, err)) != CF_OK)
            return st;
        for (size_t i = 0; i < im->nparts && !g; i++)
            if (strcmp(im->parts[i].acc, acc) == 0 && im->parts[i].count == count &&
                strcmp(im->parts[i].region, region) == 0)
                g = &im->parts[i];
        if (!g) {
            if (im->nparts == im->parts_cap) {
                size_t ncap = im->parts_cap ? im->parts_cap * 2 : 32;
                gpu_part *p = cf__realloc(im->parts, ncap * sizeof *p);
                if (!p) return CF_ENOMEM;
                im->parts = p;
                im->parts_cap = ncap;
            }
            g = &im->parts[im->nparts++];
            g->acc = acc;
            g->region = region;
            g->count = count;
            g->od = g->spot = NAN;
        }
        if (!isnan(price) && (isnan(g->od) || price < g->od)) g->od = price;
        if (!isnan(spot) && (isnan(g->spot) || spot < g->spot)) g->spot = spot;
    }
    return CF_OK;
}

/* The GPU-only row of (acc, count, region), or NULL. */
static const gpu_part *find_part(const import *im, const char *acc, double count,
                                 const char *region)
{
    for (size_t i = 0; i < im->nparts; i++)
        if (cf__strcasecmp(im->parts[i].acc, acc) == 0 && im->parts[i].count == count &&
            strcmp(im->parts[i].region, region) == 0)
            return &im->parts[i];
    return NULL;
}

/* A host row (no accelerator) of a type the map pairs with its GPUs: the
 * instance's price in a region is the host's price plus the price of its
 * GPUs' row in the same region (on-demand with on-demand, spot with spot;
 * either missing -> none), as SkyPilot itself adds the two for GCP's
 * A2/A3 machine types. *used = 0 when the row is not such a host row. */
static cf_status read_host_row(import *im, const price_map *m, size_t r, int *used,
                               cf_error *err)
{
    const char *inst = cf__csv_cell(im->t, r, im->c_inst);
    const char *region = cf__csv_cell(im->t, r, im->c_region);
    const char *gpu = NULL;
    const gpu_part *g;
    char name[64];
    double count, price, spot = NAN;
    cf_status st;
    *used = 0;
    if (!*inst || !host_pairing(im, m, inst, name, sizeof name, &count)) return CF_OK;
    *used = 1;
    if (!(g = find_part(im, name, count, region))) {
        im->unpaired++;
        return CF_OK;
    }
    if (!cf__price_resolve_gpu(im, m, g->acc, &gpu)) return CF_OK;
    if ((st = number_cell(im, r, im->c_price, 0, &price, err)) != CF_OK) return st;
    if (im->c_spot >= 0 && (st = number_cell(im, r, im->c_spot, 0, &spot, err)) != CF_OK)
        return st;
    im->paired++;
    st = cf__price_keep(im, inst, g->acc, gpu, count, price + g->od, spot + g->spot, region);
    if (st == CF_OK) cf__price_type_of(im, inst, g->acc)->host_plus_gpus = 1; /* found: it was just kept */
    return st;
}

/* Reads every row: skips what is not used, checks the cells of the rows
 * that are, and keeps the lowest prices per instance type. */
cf_status cf__price_read_rows(import *im, const price_map *m, cf_error *err)
{
    cf_status st = read_parts(im, m, err);
    if (st != CF_OK) return st;
    for (size_t r = 0; r < im->t->nrows; r++) {
        const char *inst = cf__csv_cell(im->t, r, im->c_inst);
        const char *acc = cf__csv_cell(im->t, r, im->c_acc);
        const char *region = cf__csv_cell(im->t, r, im->c_region);
        const char *gpu = NULL;
        double count, price, spot = NAN;
        if (!*acc) {
            int used;
            if ((st = read_host_row(im, m, r, &used, err)) != CF_OK) return st;
            if (!used) im->no_acc++;
            continue;
        }
        if (!*inst) { im->no_inst++; continue; }
        if (!cf__price_resolve_gpu(im, m, acc, &gpu)) continue;
        if ((st = number_cell(im, r, im->c_count, 1, &count, err)) != CF_OK) return st;
        if ((st = number_cell(im, r, im->c_price, 0, &price, err)) != CF_OK) return st;
        if (im->c_spot >= 0 && (st = number_cell(im, r, im->c_spot, 0, &spot, err)) != CF_OK)
            return st;
        if ((st = cf__price_keep(im, inst, acc, gpu, count, price, spot, region)) != CF_OK) return st;
    }
    return CF_OK;
}

/* ---- what an instance type becomes ---------------------------------------- */

/* The date of an offering's prices: price_as_of, else as_of, as YYYY-MM-DD
 * (YYYY-MM as its 1st). */
static void price_date(const cf_offering *o, char out[CF_DATE_SIZE])
{
    const char *d = o->price_as_of ? o->price_as_of : o->as_of;
    snprintf(out, CF_DATE_SIZE, "%.7s%s", d ? d : "0000-00", d && strlen(d) == 10 ? d + 7 : "-01");
}

/* "%.4g"-style text without a trailing exponent for prices in notes. */
static void price_text(double x, char *buf, size_t n)
{
    snprintf(buf, n, "%.4f", x);
    for (size_t l = strlen(buf); l > 0 && buf[l - 1] == '0'; l--) buf[l - 1] = '\0';
    if (buf[strlen(buf) - 1] == '.') buf[strlen(buf) - 1] = '\0';
}

/* The note an overlay or a new row carries: where the prices come from. */
static void price_note(cf_price_format fmt, const itype *ty, const char *file, const char *cloud,
                       const char *as_of, char *buf, size_t n)
{
    char od[32] = "", sp[32] = "";
    size_t used;
    if (!isnan(ty->od)) price_text(ty->od, od, sizeof od);
    if (!isnan(ty->spot)) price_text(ty->spot, sp, sizeof sp);
    used = (size_t)snprintf(buf, n, "Prices from %s (%s, cloud %s, %s %s%s, "
                            "prices as of %s): ", price_format_what[fmt], file, cloud, ty->inst,
                            ty->acc,
                            ty->host_plus_gpus == 1 ? ", host row + GPU row of the same region"
                            : ty->host_plus_gpus == 2 ? ", GPU + vCPU + RAM SKUs of the same region"
                                                      : "",
                            as_of);
    if (used >= n) return;
    if (od[0])
        used += (size_t)snprintf(buf + used, n - used, "lowest on-demand %s USD per GPU-hour "
                                 "(%s)", od, ty->od_region);
    else
        used += (size_t)snprintf(buf + used, n - used, "no on-demand price");
    if (used < n && sp[0])
        snprintf(buf + used, n - used, ", lowest spot %s (%s).", sp, ty->spot_region);
    else if (used < n)
        snprintf(buf + used, n - used, ", no spot price.");
}

/* Sets a cell of a new row by column name; the library's own checks apply. */
static cf_status set(cf_offering *o, const char *col, const char *v, cf_error *err)
{
    char why[WHY];
    int c = cf_offering_column_index(col);
    cf_status st = cf__offering_set_cell(o, c, v, strlen(v), why, sizeof why);
    if (st == CF_OK || st == CF_ENOMEM) return st;
    cf_error_set(err, NULL, 0, 0, "price import: internal error building a row: %s", why);
    return CF_EINTERNAL;
}

/* The user row an unmapped instance type becomes. */
static cf_status new_row(cf_price_format fmt, const itype *ty, const char *cloud,
                         const char *provider, const char *file, const char *as_of, cf_offering *o,
                         cf_error *err)
{
    char id[160], buf[2048], num[64];
    size_t k = 0;
    cf_status st;
    int priced = !isnan(ty->od) || !isnan(ty->spot);
    cf__offering_init(o);
    k = (size_t)snprintf(id, sizeof id, "%s-%s-", price_format_names[fmt], cloud);
    for (const char *p = ty->inst; *p && k + 1 < sizeof id && k < 128; p++) {
        char c = *p;
        if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_')) c = '-';
        id[k++] = c;
    }
    id[k] = '\0';
    for (char *p = id; *p; p++)
        if (*p >= 'A' && *p <= 'Z') *p = (char)(*p - 'A' + 'a');
    if ((st = set(o, "id", id, err)) != CF_OK || (st = set(o, "provider", provider, err)) != CF_OK ||
        (st = set(o, "offering", ty->inst, err)) != CF_OK)
        return st;
    if (ty->gpu && (st = set(o, "gpu", ty->gpu, err)) != CF_OK) return st;
    if (ty->count >= 1 && ty->count == floor(ty->count) && ty->count <= 1e6) {
        snprintf(num, sizeof num, "%.0f", ty->count);
        if ((st = set(o, "gpus_per_node", num, err)) != CF_OK) return st;
    }
    if (!isnan(ty->od)) {
        snprintf(num, sizeof num, "%.15g", ty->od);
        if ((st = set(o, "price_on_demand_gpu_hr", num, err)) != CF_OK) return st;
    }
    if (!isnan(ty->spot)) {
        snprintf(num, sizeof num, "%.15g", ty->spot);
        if ((st = set(o, "price_spot_gpu_hr", num, err)) != CF_OK) return st;
    }
    if (priced) {
        snprintf(buf, sizeof buf, "%s%s%s", !isnan(ty->od) ? "on-demand" : "",
                 !isnan(ty->od) && !isnan(ty->spot) ? ";" : "", !isnan(ty->spot) ? "spot" : "");
        if ((st = set(o, "provisioning", buf, err)) != CF_OK ||
            (st = set(o, "currency", "USD", err)) != CF_OK ||
            (st = set(o, "price_as_of", as_of, err)) != CF_OK)
            return st;
    }
    if (ty->regions && (st = set(o, "regions", ty->regions, err)) != CF_OK) return st;
    price_note(fmt, ty, file, cloud, as_of, buf, sizeof buf);
    {
        size_t used = strlen(buf);
        snprintf(buf + used, sizeof buf - used, " Added by the import: the instance type is not in "
                 "data/skypilot-map.csv, so whether it rents as a cluster is unknown%s.",
                 ty->gpu ? "" : "; the accelerator name does not say the GPU's form factor, so "
                 "the GPU is unknown");
    }
    if ((st = set(o, "notes", buf, err)) != CF_OK) return st;
    snprintf(buf, sizeof buf, price_format_url[fmt], cloud);
    if ((st = set(o, "source_url", buf, err)) != CF_OK || (st = set(o, "as_of", as_of, err)) != CF_OK)
        return st;
    o->user_row = 1;
    return CF_OK;
}

/* ---- writing ---------------------------------------------------------------- */

typedef struct overlay {
    const char *id;     /* borrowed from the map */
    const itype *ty;
    char note[1024];
} overlay;

/* Writes the overlays and the new rows inside the caller's write
 * transaction (cf__db_begin_write); the caller commits or rolls back. */
static cf_status write_all(cf_catalog *cat, cf_price_format fmt, const overlay *ov, size_t n_ov,
                           const cf_offering_list *rows, const char *as_of, cf_error *err)
{
    sqlite3_stmt *st = NULL;
    cf_status status = CF_OK;
    if (sqlite3_prepare_v2(cat->db,
                           "INSERT OR REPLACE INTO price_overlay (id, price_on_demand_gpu_hr,"
                           " price_spot_gpu_hr, currency, price_as_of, note, format)"
                           " VALUES (?, ?, ?, 'USD', ?, ?, ?)",
                           -1, &st, NULL) != SQLITE_OK) {
        status = cf__db_error(cat->db, cat->path, err, "cannot prepare the price overlay");
        goto done;
    }
    for (size_t i = 0; i < n_ov; i++) {
        int rc;
        sqlite3_reset(st);
        sqlite3_clear_bindings(st);
        rc = sqlite3_bind_text(st, 1, ov[i].id, -1, SQLITE_STATIC);
        if (rc == SQLITE_OK) rc = sqlite3_bind_double(st, 2, ov[i].ty->od);
        if (rc == SQLITE_OK)
            rc = isnan(ov[i].ty->spot) ? sqlite3_bind_null(st, 3)
                                       : sqlite3_bind_double(st, 3, ov[i].ty->spot);
        if (rc == SQLITE_OK) rc = sqlite3_bind_text(st, 4, as_of, -1, SQLITE_STATIC);
        if (rc == SQLITE_OK) rc = sqlite3_bind_text(st, 5, ov[i].note, -1, SQLITE_STATIC);
        if (rc == SQLITE_OK)
            rc = sqlite3_bind_text(st, 6, price_format_names[fmt], -1, SQLITE_STATIC);
        if (rc != SQLITE_OK || sqlite3_step(st) != SQLITE_DONE) {
            status = cf__db_error(cat->db, cat->path, err, "cannot write the price overlay");
            goto done;
        }
    }
    status = cf__db_insert_all(cat->db, cat->path, rows, "user", err);
done:
    sqlite3_finalize(st);
    return status;
}

/* ---- the summary ---------------------------------------------------------------- */

static json_t *num_or_null(double x) { return isnan(x) ? json_null() : json_real(x); }

/* ---- the import ------------------------------------------------------------------ */

/* The cloud: opts->cloud, else the name of the folder holding the file. */
static cf_status cloud_of(const char *name, cf_price_format fmt, const cf_price_import_opts *opts,
                          char *buf, size_t n, cf_error *err)
{
    const char *end, *start;
    if (fmt == CF_PRICE_GCP_CATALOG) {
        /* One cloud's format: a --cloud other than gcp is a mistake. */
        if (opts->cloud && *opts->cloud && cf__strcasecmp(opts->cloud, "gcp") != 0) {
            cf_error_set(err, NULL, 0, 0, "cloud: a Cloud Billing Catalog file is GCP's; got "
                         "\"%.60s\"", opts->cloud);
            return CF_EINVAL;
        }
        snprintf(buf, n, "gcp");
        return CF_OK;
    }
    if (opts->cloud && *opts->cloud) {
        snprintf(buf, n, "%s", opts->cloud);
    } else {
        end = name ? strrchr(name, '/') : NULL;
        start = end;
        while (start && start > name && start[-1] != '/') start--;
        if (!end || end == start) {
            cf_error_set(err, NULL, 0, 0, "%s: cannot tell the SkyPilot cloud from the file's "
                         "folder (catalogs/v7/<cloud>/vms.csv); give it (--cloud aws)",
                         name ? name : "input");
            return CF_EINVAL;
        }
        snprintf(buf, n, "%.*s", (int)(end - start), start);
    }
    for (char *p = buf; *p; p++) {
        if (*p >= 'A' && *p <= 'Z') *p = (char)(*p - 'A' + 'a');
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-' || *p == '_')) {
            cf_error_set(err, NULL, 0, 0, "cloud: expected a SkyPilot cloud name such as aws, gcp, "
                         "lambda or nebius, got \"%.60s\"", buf);
            return CF_EINVAL;
        }
    }
    return CF_OK;
}

/* The date of the prices: YYYY-MM-DD, not after opts->today. */
static cf_status check_as_of(const cf_price_import_opts *opts, cf_error *err)
{
    long days;
    int y, mo, d;
    if (!opts->as_of || strlen(opts->as_of) != 10 || cf__date_parse(opts->as_of, &y, &mo, &d) != 0) {
        cf_error_set(err, NULL, 0, 0, "as_of: expected a date YYYY-MM-DD, got \"%.20s\"",
                     opts->as_of ? opts->as_of : "");
        snprintf(err->param, sizeof err->param, "as_of");
        return CF_EINVAL;
    }
    if (opts->today && cf_age_days(opts->as_of, opts->today, &days) == CF_OK && days < 0) {
        cf_error_set(err, NULL, 0, 0, "as_of: expected a date no later than today (%s), got \"%s\"",
                     opts->today, opts->as_of);
        snprintf(err->param, sizeof err->param, "as_of");
        return CF_EINVAL;
    }
    return CF_OK;
}

/* The columns the import reads, by name; CF_EPARSE at line 1 naming the
 * missing required ones. */
cf_status cf__price_find_columns(import *im, cf_error *err)
{
    static const char *const want[] = {"InstanceType", "AcceleratorName", "AcceleratorCount",
                                       "Price", "Region"};
    int *have[5];
    char miss[160] = "";
    size_t used = 0;
    have[0] = &im->c_inst;
    have[1] = &im->c_acc;
    have[2] = &im->c_count;
    have[3] = &im->c_price;
    have[4] = &im->c_region;
    for (int i = 0; i < 5; i++) {
        *have[i] = cf__csv_col(im->t, want[i]);
        if (*have[i] < 0)
            used += (size_t)snprintf(miss + used, sizeof miss - used, "%s%s", used ? ", " : "",
                                     want[i]);
    }
    im->c_spot = cf__csv_col(im->t, "SpotPrice");
    if (!used) return CF_OK;
    cf_error_set(err, im->name, 1, 0, "missing required column%s: %s (a SkyPilot vms.csv names "
                 "InstanceType, AcceleratorName, AcceleratorCount, Price and Region; SpotPrice is "
                 "read when present)", strchr(miss, ',') ? "s" : "", miss);
    return CF_EPARSE;
}

/* What the instance types of a file become: overlays, new rows, and the
 * summary's lists. */
typedef struct outcome {
    json_t *priced, *added, *not_applied;
    overlay *ov;                /* one per mapped type at most */
    size_t n_ov;
    cf_offering_list rows;      /* the new user rows */
    size_t rows_cap;
} outcome;

static void outcome_clear(outcome *oc)
{
    json_decref(oc->priced);
    json_decref(oc->added);
    json_decref(oc->not_applied);
    cf__free(oc->ov);
    cf_offering_list_clear(&oc->rows);
}

/* Why a mapped type's prices are not applied to offering `id`, or NULL when
 * they are. CF_OK, or the status of a failed lookup. */
static cf_status why_not(cf_catalog *cat, const char *id, const itype *ty, const char *as_of,
                         const char **why, double *prev_od, char prev_date[CF_DATE_SIZE])
{
    cf_offering *o = NULL;
    char date_buf[CF_DATE_SIZE];
    cf_status g = cf_catalog_get(cat, id, &o);
    *why = NULL;
    *prev_od = NAN;
    prev_date[0] = '\0';
    if (g == CF_ENOTFOUND) {
        *why = "the mapped offering is not in the catalog";
        return CF_OK;
    }
    if (g != CF_OK) return g; /* its reason is in cf_catalog_note */
    if (o->user_row) {
        *why = "a row of your own with this id hides the shipped one";
    } else if (o->gpus_per_node > 0 && ty->count != (double)o->gpus_per_node) {
        /* A per-GPU price from a count the offering contradicts would be
         * wrong by their ratio (SkyPilot's azure file once counted 12 H100
         * on Standard_ND96isr_H100_v5, which has 8). */
        *why = "the file's accelerator count differs from the offering's gpus_per_node "
               "(a per-GPU price from it would be wrong)";
    } else if (isnan(ty->od)) {
        *why = "no on-demand price in the file (the catalog's prices are kept)";
    } else if (o->currency && strcmp(o->currency, "USD") != 0) {
        *why = "the offering is priced in another currency (prices are never converted)";
    } else {
        price_date(o, date_buf);
        if (strcmp(date_buf, as_of) > 0) *why = "the catalog's prices are dated after --as-of";
        if (!isnan(o->price_on_demand_gpu_hr) && o->price_on_demand_gpu_hr > 0) {
            /* The listed price the import replaces, with its own date. */
            const char *d = o->price_as_of ? o->price_as_of : o->as_of;
            *prev_od = o->price_on_demand_gpu_hr;
            snprintf(prev_date, CF_DATE_SIZE, "%s", d ? d : "");
        }
    }
    cf_offering_free(o);
    return CF_OK;
}

/* Decides one instance type: a price overlay for a mapped offering, a new
 * user row for an unmapped type, or a reason it is not applied. */
static cf_status decide(cf_catalog *cat, const price_map *m, const import *im, const itype *ty,
                        const char *cloud, const char *provider, const char *as_of,
                        outcome *oc, cf_error *err)
{
    char key[256];
    const char *id, *why = NULL;
    char prev_date[CF_DATE_SIZE];
    double prev_od;
    json_t *x = json_object();
    cf_status st;
    if (!x) return CF_ENOMEM;
    snprintf(key, sizeof key, "%s/%s", cloud, ty->inst);
    id = cf__price_map_get(m, "instance", key);
    if (id && *id) {
        if ((st = why_not(cat, id, ty, as_of, &why, &prev_od, prev_date)) != CF_OK) {
            json_decref(x);
            return st;
        }
        if (json_object_set_new(x, "id", json_string(id)) ||
            json_object_set_new(x, "instance_type", json_string(ty->inst)))
            goto nomem;
        if (why)
            return json_object_set_new(x, "reason", json_string(why)) ||
                   json_array_append_new(oc->not_applied, x) ? CF_ENOMEM : CF_OK;
        oc->ov[oc->n_ov].id = id;
        oc->ov[oc->n_ov].ty = ty;
        price_note(im->fmt, ty, im->name, cloud, as_of, oc->ov[oc->n_ov].note,
                   sizeof oc->ov[0].note);
        oc->n_ov++;
        if (json_object_set_new(x, "price_on_demand_gpu_hr", num_or_null(ty->od)) ||
            json_object_set_new(x, "region", json_string(ty->od_region)) ||
            json_object_set_new(x, "price_spot_gpu_hr", num_or_null(ty->spot)) ||
            json_object_set_new(x, "spot_region", ty->spot_region ? json_string(ty->spot_region)
                                                                  : json_null()) ||
            json_object_set_new(x, "previous_price_on_demand_gpu_hr", num_or_null(prev_od)) ||
            json_object_set_new(x, "previous_price_as_of",
                                prev_date[0] ? json_string(prev_date) : json_null()))
            goto nomem;
        if (!isnan(prev_od)) {
            /* A change past CF_PRICE_CHANGE_WARN_PCT either way is worth a
             * second look (a wrong count or unit in the file, or a price
             * that really moved): the summary flags it; it is still applied. */
            double pct = 100.0 * (ty->od - prev_od) / prev_od;
            if (json_object_set_new(x, "change_pct", json_real(pct)) ||
                json_object_set_new(x, "large_change",
                                    json_boolean(fabs(pct) > CF_PRICE_CHANGE_WARN_PCT)))
                goto nomem;
        }
        return json_array_append_new(oc->priced, x) ? CF_ENOMEM : CF_OK;
    }
    {
        cf_offering row;
        st = new_row(im->fmt, ty, cloud, provider, im->name, as_of, &row, err);
        if (st == CF_OK && (json_object_set_new(x, "id", json_string(row.id)) ||
                            json_object_set_new(x, "instance_type", json_string(ty->inst)) ||
                            json_object_set_new(x, "gpu", ty->gpu ? json_string(ty->gpu) : json_null()) ||
                            json_object_set_new(x, "accelerator", json_string(ty->acc)) ||
                            json_object_set_new(x, "accelerator_count", num_or_null(ty->count)) ||
                            json_object_set_new(x, "price_on_demand_gpu_hr", num_or_null(ty->od)) ||
                            json_object_set_new(x, "price_spot_gpu_hr", num_or_null(ty->spot)) ||
                            cf__list_push(&oc->rows, &oc->rows_cap, &row) != CF_OK))
            st = CF_ENOMEM;
        if (st != CF_OK) {
            cf_offering_clear(&row);
            json_decref(x);
            return st;
        }
        return json_array_append_new(oc->added, x) ? CF_ENOMEM : CF_OK;
    }
nomem:
    json_decref(x);
    return CF_ENOMEM;
}

/* Decides every type of the file (decide), in the caller's transaction. A
 * lookup that fails says why in err. */
static cf_status decide_all(cf_catalog *cat, const price_map *m, const import *im,
                            const char *cloud, const char *provider, const char *as_of,
                            outcome *oc, cf_error *err)
{
    for (size_t i = 0; i < im->n; i++) {
        cf_status st = decide(cat, m, im, &im->types[i], cloud, provider, as_of, oc, err);
        if (st != CF_OK && st != CF_ENOMEM && err && !err->message[0])
            cf_error_set(err, NULL, 0, 0, "%s", cf_catalog_note(cat));
        if (st != CF_OK) return st;
    }
    return CF_OK;
}

/* The summary object of cf_catalog_import_prices (catalog.h); NULL on ENOMEM. */
static json_t *summary_json(const import *im, const outcome *oc, const char *cloud,
                            const char *provider, const char *as_of)
{
    json_t *sum = json_object(), *skipped = json_object(), *names = json_array();
    int bad = !sum || !skipped || !names;
    for (int i = 0; !bad && i < im->n_unknown_names; i++)
        bad = json_array_append_new(names, json_string(im->unknown_names[i])) != 0;
    if (!bad)
        bad = json_object_set_new(skipped, "no_accelerator", json_integer(im->no_acc)) ||
              json_object_set_new(skipped, "accelerator_without_instance", json_integer(im->no_inst)) ||
              json_object_set_new(skipped, "unknown_accelerator", json_integer(im->unknown_acc)) ||
              json_object_set(skipped, "unknown_names", names) ||
              json_object_set_new(skipped, "unpriced_rows", json_integer(im->unpriced)) ||
              json_object_set_new(skipped, "host_without_gpu_row", json_integer(im->unpaired)) ||
              json_object_set_new(skipped, "other_currency", json_integer(im->not_usd)) ||
              json_object_set_new(sum, "host_rows_with_gpus", json_integer(im->paired)) ||
              json_object_set_new(sum, "format", json_string(price_format_names[im->fmt])) ||
              json_object_set_new(sum, "cloud", json_string(cloud)) ||
              json_object_set_new(sum, "provider", json_string(provider)) ||
              json_object_set_new(sum, "as_of", json_string(as_of)) ||
              json_object_set_new(sum, "rows", json_integer((json_int_t)im->nrows)) ||
              json_object_set(sum, "priced", oc->priced) || json_object_set(sum, "added", oc->added) ||
              json_object_set(sum, "not_applied", oc->not_applied) ||
              json_object_set(sum, "skipped", skipped);
    json_decref(names);
    json_decref(skipped);
    if (bad) {
        json_decref(sum);
        return NULL;
    }
    return sum;
}

cf_status cf_catalog_import_prices(cf_catalog *cat, const char *name, const char *data, size_t len,
                                   cf_price_format fmt, const cf_price_import_opts *opts,
                                   json_t **summary, cf_error *err)
{
    cf__csv_table t;
    price_map m;
    import im;
    outcome oc;
    char cloud[64];
    const char *provider;
    json_t *sum = NULL, *root = NULL;
    cf_status st;

    cf_error_clear(err);
    if (summary) *summary = NULL;
    memset(&t, 0, sizeof t);
    memset(&m, 0, sizeof m);
    memset(&im, 0, sizeof im);
    memset(&oc, 0, sizeof oc);
    if (!cat || !opts || !summary || (!data && len) ||
        (fmt != CF_PRICE_SKYPILOT && fmt != CF_PRICE_GCP_CATALOG))
        return CF_EINVAL;
    if ((st = check_as_of(opts, err)) != CF_OK) return st;
    if ((st = cloud_of(name, fmt, opts, cloud, sizeof cloud, err)) != CF_OK) return st;
    if (len > (size_t)CF_MAX_IMPORT_BYTES) {
        cf_error_set(err, name, 0, 0, "more than %ld bytes (CF_MAX_IMPORT_BYTES)", CF_MAX_IMPORT_BYTES);
        return CF_ELIMIT;
    }
    if ((st = cf__price_map_load(&m, err)) != CF_OK) return st;
    provider = cf__price_map_get(&m, "cloud", cloud);
    if (!provider || !*provider) provider = cloud;
    im.name = name ? name : "input";
    im.fmt = fmt;
    im.cloud = cloud;
    if (fmt == CF_PRICE_GCP_CATALOG) {
        json_error_t jerr;
        root = json_loadb(data ? data : "", len, 0, &jerr);
        if (!root) {
            st = json_error_code(&jerr) == json_error_out_of_memory ? CF_ENOMEM : CF_EPARSE;
            if (st == CF_EPARSE)
                cf_error_set(err, im.name, jerr.line > 0 ? jerr.line : 1,
                             jerr.column > 0 ? jerr.column : 0, "malformed JSON: %s", jerr.text);
            goto done;
        }
        if ((st = cf__price_read_gcp(&im, &m, root, data ? data : "", len, err)) != CF_OK) goto done;
    } else {
        st = cf__csv_table_parse(data ? data : "", len, im.name, (size_t)CF_MAX_IMPORT_ROWS, &t,
                                 err);
        if (st != CF_OK) goto done;
        im.t = &t;
        im.nrows = t.nrows;
        if ((st = cf__price_find_columns(&im, err)) != CF_OK || (st = cf__price_read_rows(&im, &m, err)) != CF_OK)
            goto done;
    }
    st = CF_ENOMEM;
    oc.priced = json_array();
    oc.added = json_array();
    oc.not_applied = json_array();
    oc.ov = cf__calloc(im.n ? im.n : 1, sizeof *oc.ov);
    if (!oc.priced || !oc.added || !oc.not_applied || !oc.ov) goto done;
    /* The file is read; what each type becomes is decided on the rows of
     * the transaction that writes it, after the file's check. */
    if ((st = cf__db_begin_write(cat->db, cat->path, "import prices", err)) != CF_OK) goto done;
    st = decide_all(cat, &m, &im, cloud, provider, opts->as_of, &oc, err);
    if (st == CF_OK)
        st = (sum = summary_json(&im, &oc, cloud, provider, opts->as_of)) ? CF_OK : CF_ENOMEM;
    if (st == CF_OK) st = write_all(cat, fmt, oc.ov, oc.n_ov, &oc.rows, opts->as_of, err);
    if (st == CF_OK) st = cf__db_commit(cat->db, cat->path, "the price import", err);
    else cf__db_rollback(cat->db);
    if (st == CF_OK) {
        *summary = sum;
        sum = NULL;
    }
done:
    if (st == CF_ENOMEM && err && !err->message[0]) cf_error_set(err, NULL, 0, 0, "out of memory");
    json_decref(sum);
    outcome_clear(&oc);
    cf__price_import_clear(&im);
    cf__csv_table_clear(&t);
    cf__csv_table_clear(&m.t);
    json_decref(root);
    return st;
}

cf_status cf_catalog_import_prices_file(cf_catalog *cat, const char *path, cf_price_format fmt,
                                        const cf_price_import_opts *opts, json_t **summary,
                                        cf_error *err)
{
    char *buf = NULL;
    size_t len = 0;
    cf_status st;
    cf_error_clear(err);
    if (summary) *summary = NULL;
    if (!cat || !path || !opts) return CF_EINVAL;
    {
        char cloud[64]; /* a usage error before a read error: the cloud first */
        if ((st = cloud_of(path, fmt, opts, cloud, sizeof cloud, err)) != CF_OK) return st;
    }
    st = cf__read_file(path, (size_t)CF_MAX_IMPORT_BYTES, "CF_MAX_IMPORT_BYTES", &buf, &len, err);
    if (st != CF_OK) return st;
    st = cf_catalog_import_prices(cat, path, buf, len, fmt, opts, summary, err);
    cf__free(buf);
    return st;
}
