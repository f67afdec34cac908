/* prices_gcp.c — `import --format gcp-catalog` (issue 13): a page of
 * Google's Cloud Billing Catalog SKUs (services/6F81-5844-456A/skus, the
 * JSON of the Cloud Billing Catalog API) prices the machine types
 * data/skypilot-map.csv describes (kind gcp_machine). What the prices
 * become is prices.c's; this file only reads the page. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "clusterfit/catalog.h"
#include "clusterfit/limits.h"
#include "catalog/catalog_int.h"

/* ---- gcp-catalog: Cloud Billing Catalog SKUs ------------------------------------ */

/* GCP bills a VM of the accelerator-optimized families as its parts: each
 * GPU, each vCPU and each GiB of memory is a SKU of its own (services
 * 6F81-5844-456A/skus), priced per hour in the regions it lists. The map
 * (kind gcp_machine) says what one machine type is made of:
 * "ACCELERATOR:COUNT|GPU SKU NAME|CORE SKU NAME:VCPUS|RAM SKU NAME:GIB", a
 * SKU name being its description before " running in "; a spot SKU's name
 * loses its "Spot Preemptible " prefix and " attached to Spot Preemptible
 * VMs". An instance-hour in a region is COUNT x GPU + VCPUS x core + GIB x
 * RAM, with every part of the same usage type (OnDemand, or Preemptible for
 * spot) listing the region; a part missing leaves the region unpriced. */

enum { GCP_PARTS = 3, GCP_NAME = 96 };

typedef struct gcp_machine {
    const char *type;                   /* the machine type (map key) */
    char acc[32];                       /* SkyPilot-style accelerator name */
    double count;                       /* GPUs per machine */
    char part[GCP_PARTS][GCP_NAME];     /* GPU, core and RAM SKU names */
    double qty[GCP_PARTS];              /* GPUs, vCPUs, GiB */
} gcp_machine;

typedef struct gcp_price {
    int part_of;                        /* index into the machines' parts, m * 3 + k */
    int spot;                           /* usage type Preemptible */
    const char *region;                 /* borrowed from the document */
    double usd_per_unit;
} gcp_price;

/* Parses a gcp_machine value; 0 when malformed (data/check.py checks the
 * map's rows, so a bad row is an internal error of the build). */
static int gcp_machine_parse(const char *type, const char *v, gcp_machine *g)
{
    const char *f[4];
    size_t l[4];
    char num[32];
    memset(g, 0, sizeof *g);
    g->type = type;
    for (int i = 0; i < 4; i++) {
        f[i] = v;
        l[i] = strcspn(v, "|");
        v += l[i];
        if (i < 3 && *v++ != '|') return 0;
    }
    for (int i = 0; i < 4; i++) {
        const char *colon = i == 1 ? NULL : memchr(f[i], ':', l[i]);
        size_t nl = colon ? (size_t)(colon - f[i]) : l[i];
        char *dst = i == 0 ? g->acc : g->part[i == 1 ? 0 : i - 1];
        size_t cap = i == 0 ? sizeof g->acc : GCP_NAME;
        if ((i != 1 && !colon) || nl == 0 || nl >= cap) return 0;
        snprintf(dst, cap, "%.*s", (int)nl, f[i]);
        if (colon) {
            double x;
            snprintf(num, sizeof num, "%.*s", (int)(l[i] - nl - 1), colon + 1);
            if (cf__parse_decimal(num, &x) != CF_OK || !(x > 0)) return 0;
            if (i == 0) g->count = g->qty[0] = x;
            else g->qty[i - 1] = x;
        }
    }
    return 1;
}

/* A SKU description's part name: before " running in ", without the spot
 * wording. 0 when the description names no "running in". */
static int gcp_part_name(const char *desc, char *out, size_t n)
{
    static const char *const drop[] = {" attached to Spot Preemptible VMs",
                                       " attached to preemptible VMs"};
    const char *r = strstr(desc, " running in ");
    char buf[256];
    if (!r) return 0;
    if (strncmp(desc, "Spot Preemptible ", 17) == 0) desc += 17;
    else if (strncmp(desc, "Preemptible ", 12) == 0) desc += 12;
    if (r < desc) return 0;
    snprintf(buf, sizeof buf, "%.*s", (int)(r - desc), desc);
    for (size_t i = 0; i < sizeof drop / sizeof drop[0]; i++) {
        char *d = strstr(buf, drop[i]);
        if (d) memmove(d, d + strlen(drop[i]), strlen(d + strlen(drop[i])) + 1);
    }
    if (strlen(buf) >= n) return 0; /* longer than any mapped name */
    memcpy(out, buf, strlen(buf) + 1);
    return 1;
}

/* A JSON error at a path below skus[i] (steps after "skus", i). */
static cf_status gcp_fail(const import *im, const char *data, size_t len, size_t i,
                          const cf__jstep *tail, size_t ntail, const char *path, const char *why,
                          cf_error *err)
{
    cf__jstep steps[12];
    long line, col;
    size_t n = 0;
    steps[n++] = (cf__jstep){"skus", 0};
    steps[n++] = (cf__jstep){NULL, i};
    for (size_t k = 0; k < ntail && n < sizeof steps / sizeof steps[0]; k++) steps[n++] = tail[k];
    cf__json_path_position(data, len, steps, n, &line, &col);
    cf_error_set(err, im->name, line, col, "skus[%zu].%s: %s", i, path, why);
    return CF_EPARSE;
}

/* units (a decimal string, as the API writes int64) + nanos / 1e9. */
static int gcp_money(const json_t *price, double *out)
{
    const json_t *u = json_object_get(price, "units"), *na = json_object_get(price, "nanos");
    double units = 0, nanos = 0;
    if (u && json_is_string(u)) {
        if (cf__parse_decimal(json_string_value(u), &units) != CF_OK) return 0;
    } else if (u && json_is_number(u)) {
        units = json_number_value(u);
    } else if (u && !json_is_null(u)) {
        return 0;
    }
    if (na && json_is_number(na)) nanos = json_number_value(na);
    else if (na && !json_is_null(na)) return 0;
    if (!u && !na) return 0;
    *out = units + nanos / 1e9;
    return isfinite(*out) && *out >= 0;
}

/* Reads one SKU that is a part of a mapped machine: its price per unit in
 * each region it lists. Skips (and counts) commitments and other
 * currencies; a missing or non-numeric field of a used SKU is an error. */
static cf_status gcp_read_sku(import *im, const char *data, size_t len, size_t i,
                              const json_t *sku, int part_of, gcp_price **prices, size_t *np,
                              size_t *cap, cf_error *err)
{
    const json_t *cat = json_object_get(sku, "category"), *ut = json_object_get(cat, "usageType");
    const json_t *regions = json_object_get(sku, "serviceRegions"), *pi, *rates, *rate = NULL, *up;
    const char *usage = json_string_value(ut), *cur;
    char what[96], why[200];
    double price;
    size_t k;
    const json_t *r;
    int spot;
    if (!usage)
        return gcp_fail(im, data, len, i, (cf__jstep[]){{"category", 0}}, 1, "category.usageType",
                        "required on a SKU that prices a mapped machine, as a string", err);
    if (strcmp(usage, "OnDemand") != 0 && strcmp(usage, "Preemptible") != 0) {
        im->unpriced++; /* Commit1Yr, Commit3Yr...: not a rate the catalog holds */
        return CF_OK;
    }
    spot = usage[0] == 'P';
    pi = json_array_get(json_object_get(sku, "pricingInfo"), 0);
    rates = json_object_get(json_object_get(pi, "pricingExpression"), "tieredRates");
    if (!json_is_array(rates) || json_array_size(rates) == 0)
        return gcp_fail(im, data, len, i, (cf__jstep[]){{"pricingInfo", 0}, {NULL, 0}}, 2,
                        "pricingInfo[0].pricingExpression.tieredRates",
                        "required (a non-empty array) on a SKU that prices a mapped machine", err);
    /* The first tier: an hourly rate starts at usage 0. */
    rate = json_array_get(rates, 0);
    up = json_object_get(rate, "unitPrice");
    cur = json_string_value(json_object_get(up, "currencyCode"));
    if (!gcp_money(up, &price)) {
        /* At the field at fault: units, else nanos, else the price object. */
        const json_t *u = json_object_get(up, "units"), *na = json_object_get(up, "nanos");
        double x;
        const char *field = !json_is_object(up) ? NULL
                            : u && !(json_is_number(u) || (json_is_string(u) &&
                                     cf__parse_decimal(json_string_value(u), &x) == CF_OK))
                                ? "units"
                            : na && !json_is_number(na) ? "nanos" : NULL;
        char path[160];
        snprintf(why, sizeof why, "%s, got %s",
                 field && field[0] == 'u' ? "expected a non-negative number of USD (a decimal "
                                            "string, as the API writes it)"
                 : field ? "expected an integer number of nano-USD"
                         : "expected an object with units and nanos",
                 cf__json_describe(field ? json_object_get(up, field) : up, what, sizeof what));
        snprintf(path, sizeof path, "pricingInfo[0].pricingExpression.tieredRates[0].unitPrice%s%s",
                 field ? "." : "", field ? field : "");
        return gcp_fail(im, data, len, i,
                        (cf__jstep[]){{"pricingInfo", 0}, {NULL, 0}, {"pricingExpression", 0},
                                      {"tieredRates", 0}, {NULL, 0}, {"unitPrice", 0},
                                      {field, 0}},
                        field ? 7 : 6, path, why, err);
    }
    if (!cur || strcmp(cur, "USD") != 0) {
        im->not_usd++;
        return CF_OK;
    }
    if (!json_is_array(regions) || json_array_size(regions) == 0)
        return gcp_fail(im, data, len, i, (cf__jstep[]){{"serviceRegions", 0}}, 1, "serviceRegions",
                        "required (a non-empty array of region names) on a SKU that prices a "
                        "mapped machine", err);
    json_array_foreach(regions, k, r) {
        if (!json_is_string(r))
            return gcp_fail(im, data, len, i, (cf__jstep[]){{"serviceRegions", 0}, {NULL, k}}, 2,
                            "serviceRegions", "expected region names (strings)", err);
        if (*np == *cap) {
            size_t ncap = *cap ? *cap * 2 : 64;
            gcp_price *p = cf__realloc(*prices, ncap * sizeof *p);
            if (!p) return CF_ENOMEM;
            *prices = p;
            *cap = ncap;
        }
        (*prices)[*np].part_of = part_of;
        (*prices)[*np].spot = spot;
        (*prices)[*np].region = json_string_value(r);
        (*prices)[*np].usd_per_unit = price;
        (*np)++;
    }
    return CF_OK;
}

/* The lowest price of part (machine mi, part k, spot) in region; NAN. */
static double gcp_part_price(const gcp_price *p, size_t np, int part_of, int spot,
                             const char *region)
{
    double best = NAN;
    for (size_t i = 0; i < np; i++)
        if (p[i].part_of == part_of && p[i].spot == spot && strcmp(p[i].region, region) == 0 &&
            (isnan(best) || p[i].usd_per_unit < best))
            best = p[i].usd_per_unit;
    return best;
}

/* Reads a page of services.skus.list (an object with a skus array; other
 * keys, nextPageToken included, ignored) and prices the mapped machines. */
cf_status cf__price_read_gcp(import *im, const price_map *m, const json_t *root, const char *data,
                          size_t len, cf_error *err)
{
    const json_t *skus = json_object_get(root, "skus"), *sku;
    gcp_machine *mach = NULL;
    gcp_price *prices = NULL;
    size_t nm = 0, np = 0, cap = 0, i;
    cf_status st = CF_OK;
    if (!json_is_object(root) || !json_is_array(skus)) {
        long line, col;
        cf__json_path_position(data, len, NULL, 0, &line, &col);
        cf_error_set(err, im->name, line, col, "expected an object with a \"skus\" array (a page "
                     "of the Cloud Billing Catalog API's services.skus.list)");
        return CF_EPARSE;
    }
    im->nrows = json_array_size(skus);
    if ((long)im->nrows > CF_MAX_IMPORT_ROWS) {
        cf_error_set(err, im->name, 0, 0, "more than %ld SKUs (CF_MAX_IMPORT_ROWS)",
                     CF_MAX_IMPORT_ROWS);
        return CF_ELIMIT;
    }
    mach = cf__calloc(m->t.nrows ? m->t.nrows : 1, sizeof *mach);
    if (!mach) return CF_ENOMEM;
    im->owned = mach; /* the types' accelerator names point into it */
    for (size_t r = 0; r < m->t.nrows; r++) {
        if (strcmp(cf__csv_cell(&m->t, r, m->c_kind), "gcp_machine") != 0) continue;
        if (!gcp_machine_parse(cf__csv_cell(&m->t, r, m->c_key), cf__csv_cell(&m->t, r, m->c_value),
                               &mach[nm])) {
            cf_error_set(err, NULL, 0, 0, "data/skypilot-map.csv: malformed gcp_machine row for "
                         "\"%s\"", cf__csv_cell(&m->t, r, m->c_key));
            st = CF_EINTERNAL;
            goto done;
        }
        nm++;
    }
    json_array_foreach(skus, i, sku) {
        const char *desc = json_string_value(json_object_get(sku, "description"));
        const char *usage = json_string_value(
            json_object_get(json_object_get(sku, "category"), "usageType"));
        char name[GCP_NAME * 2];
        int used = 0;
        if (usage && strcmp(usage, "OnDemand") != 0 && strcmp(usage, "Preemptible") != 0) {
            im->unpriced++; /* Commit1Yr, Commit3Yr...: not a rate the catalog holds */
            continue;
        }
        if (!desc || !gcp_part_name(desc, name, sizeof name)) {
            im->no_acc++;
            continue;
        }
        for (size_t mi = 0; mi < nm; mi++)
            for (int k = 0; k < GCP_PARTS; k++) {
                if (strcmp(mach[mi].part[k], name) != 0) continue;
                used = 1;
                st = gcp_read_sku(im, data, len, i, sku, (int)(mi * GCP_PARTS + (size_t)k), &prices,
                                  &np, &cap, err);
                if (st != CF_OK) goto done;
            }
        if (!used) {
            /* A GPU SKU of no mapped machine is an accelerator the map does
             * not place; other SKUs (CPU, RAM, disks, licences) are hosts. */
            const char *grp = json_string_value(json_object_get(json_object_get(sku, "category"),
                                                                "resourceGroup"));
            if (grp && strcmp(grp, "GPU") == 0) cf__price_note_unknown(im, name);
            else im->no_acc++;
        }
    }
    for (size_t mi = 0; mi < nm; mi++) {
        const char *gpu = NULL;
        int resolved = -1;
        for (size_t p = 0; p < np; p++) {
            double od = 0, spot = 0;
            const char *region = prices[p].region;
            int seen = 0;
            if (prices[p].part_of != (int)(mi * GCP_PARTS)) continue;
            for (size_t q = 0; q < p && !seen; q++) /* each region once */
                seen = prices[q].part_of == prices[p].part_of &&
                       strcmp(prices[q].region, region) == 0;
            if (seen) continue;
            for (int k = 0; k < GCP_PARTS; k++) {
                od += mach[mi].qty[k] * gcp_part_price(prices, np, (int)(mi * GCP_PARTS) + k, 0,
                                                       region);
                spot += mach[mi].qty[k] * gcp_part_price(prices, np, (int)(mi * GCP_PARTS) + k, 1,
                                                         region);
            }
            if (isnan(od) && isnan(spot)) {
                im->unpaired++; /* a part has no price in this region */
                continue;
            }
            if (resolved < 0) resolved = cf__price_resolve_gpu(im, m, mach[mi].acc, &gpu);
            if (!resolved) break;
            if ((st = cf__price_keep(im, mach[mi].type, mach[mi].acc, gpu, mach[mi].count, od, spot,
                                  region)) != CF_OK)
                goto done;
            cf__price_type_of(im, mach[mi].type, mach[mi].acc)->host_plus_gpus = 2;
        }
    }
done:
    cf__free(prices);
    return st;
}

