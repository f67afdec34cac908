/* explain.c — why a filter leaves nothing (issue 23: `plan --network tcp
 * --multinode yes` printed "0 ranked; every offering could be ranked."):
 * each filter the caller set, with its value as the user typed it and how
 * many offerings of the whole catalog pass it alone. A filter no offering
 * passes is the one that removed every offering; when each passes some,
 * it is their combination. The list is the caller's (every offering, as
 * cf_catalog_query gives it for an "any" filter): no SQL here. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "clusterfit/catalog.h"
#include "base/base.h"

/* Appends {filter, value, matches} for the one-field filter `one`. Returns
 * nonzero on ENOMEM. */
static int add(json_t *arr, const cf_offering_list *all, const cf_filter *one, const char *name,
               const char *value)
{
    size_t n = 0;
    json_t *j = json_object();
    for (size_t i = 0; i < all->n; i++) n += (size_t)cf_offering_matches(&all->items[i], one);
    if (!j || cf__json_set(j, "filter", json_string(name)) || cf__json_set(j, "value", json_string(value)) ||
        cf__json_set(j, "matches", json_integer((json_int_t)n)) || json_array_append_new(arr, j)) {
        if (j && json_array_size(arr) == 0) json_decref(j);
        return 1;
    }
    return 0;
}

/* The caps, network, GPU and provider filters. */
static int explain_named(json_t *a, const cf_offering_list *all, const cf_filter *f)
{
    cf_filter one;
    int bad = 0;
    static const struct { const char *name; size_t off; } caps[] = {
        {"multinode", offsetof(cf_filter, multinode)}, {"gdr", offsetof(cf_filter, gdr)},
        {"rdma", offsetof(cf_filter, rdma)}};
    for (size_t k = 0; k < sizeof caps / sizeof caps[0]; k++) {
        cf_cap c = *(const cf_cap *)(const void *)((const char *)f + caps[k].off);
        if (c == CF_CAP_UNKNOWN) continue;
        cf_filter_init(&one);
        *(cf_cap *)(void *)((char *)&one + caps[k].off) = c;
        bad |= add(a, all, &one, caps[k].name, cf_cap_name(c));
    }
    if (f->network_set) {
        cf_filter_init(&one);
        one.network_set = 1;
        one.network = f->network;
        bad |= add(a, all, &one, "network", cf_network_name(f->network));
    }
    if (f->gpu) {
        cf_filter_init(&one);
        one.gpu = f->gpu;
        bad |= add(a, all, &one, "gpu", f->gpu);
    }
    if (f->provider) {
        cf_filter_init(&one);
        one.provider = f->provider;
        bad |= add(a, all, &one, "provider", f->provider);
    }
    return bad;
}

/* The numbers, sets, storage and currency filters. */
static int explain_rest(json_t *a, const cf_offering_list *all, const cf_filter *f)
{
    cf_filter one;
    char v[48];
    int bad = 0;
    if (!isnan(f->min_gbps)) {
        cf_filter_init(&one);
        one.min_gbps = f->min_gbps;
        snprintf(v, sizeof v, "%g", f->min_gbps);
        bad |= add(a, all, &one, "min-gbps", v);
    }
    if (!isnan(f->max_price)) {
        cf_filter_init(&one);
        one.max_price = f->max_price;
        one.currency = f->currency;
        snprintf(v, sizeof v, "%g", f->max_price);
        bad |= add(a, all, &one, "max-price", v);
    }
    if (f->orchestration || f->provisioning) {
        cf_filter_init(&one);
        one.orchestration = f->orchestration;
        bad |= f->orchestration ? add(a, all, &one, "orchestration", "as given") : 0;
        cf_filter_init(&one);
        one.provisioning = f->provisioning;
        bad |= f->provisioning ? add(a, all, &one, "provisioning", "as given") : 0;
    }
    if (f->storage) {
        cf_filter_init(&one);
        one.storage = 1;
        bad |= add(a, all, &one, "storage", "yes");
    }
    if (f->currency && isnan(f->max_price)) {
        cf_filter_init(&one);
        one.currency = f->currency;
        bad |= add(a, all, &one, "currency", f->currency);
    }
    return bad;
}

json_t *cf_filter_explain(const cf_offering_list *all, const cf_filter *f)
{
    json_t *a = json_array();
    if (!a || !all || !f) return a;
    if (explain_named(a, all, f) | explain_rest(a, all, f)) {
        json_decref(a);
        return NULL;
    }
    return a;
}
