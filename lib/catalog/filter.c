/* filter.c — which offerings a query returns and in what order: the
 * filters of `clusterfit list` (DESIGN §6), shared by the CLI, the server
 * and the planner, and the sort orders.
 *
 * A filter is a struct of "any" defaults (cf_filter_init) that
 * cf_filter_set fills one flag at a time from the text a user typed, so the
 * CLI's options and the API's query parameters accept the same values with
 * the same messages; cf_offering_matches is the one definition of what
 * each filter keeps. Unknown facts never match a yes or a no. Sorting
 * computes each offering's key once (currency group, number or string,
 * direction) and then compares keys only, with the id as the last tie
 * break, so an order is total and repeatable. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "clusterfit/catalog.h"
#include "clusterfit/date.h"
#include "clusterfit/hardware.h"
#include "clusterfit/limits.h"
#include "clusterfit/units.h"
#include "catalog/catalog_int.h"
#include "base/base.h"

/* ---- filters ------------------------------------------------------------- */

void cf_filter_init(cf_filter *f)
{
    memset(f, 0, sizeof *f);
    f->multinode = f->gdr = f->rdma = CF_CAP_UNKNOWN;
    f->network = CF_NET_UNKNOWN;
    f->min_gbps = NAN;
    f->max_price = NAN;
}

/* ---- staleness ------------------------------------------------------------ */

cf_status cf_catalog_stale_cutoff(const char *today, long months, char *out)
{
    static const int mdays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int y, m, d;
    long total;
    if (!out) return CF_EINVAL;
    out[0] = '\0';
    if (!today || strlen(today) != 10 || cf__date_parse(today, &y, &m, &d) != 0 || months < 0 ||
        months > CF_MAX_STALE_MONTHS)
        return CF_EINVAL;
    total = (long)y * 12 + (m - 1) - months;
    y = (int)(total / 12);
    m = (int)(total % 12) + 1;
    if (y < 1900) return CF_EINVAL;
    {
        int last = mdays[m - 1] + (m == 2 && ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0));
        if (d > last) d = last;
    }
    {
        char tmp[48]; /* wider than a date: the compiler cannot bound the ints */
        snprintf(tmp, sizeof tmp, "%04d-%02d-%02d", y, m, d);
        memcpy(out, tmp, CF_DATE_SIZE - 1);
        out[CF_DATE_SIZE - 1] = '\0';
    }
    return CF_OK;
}

int cf_offering_stale(const cf_offering *o, const char *cutoff)
{
    const char *d = o ? (o->price_as_of ? o->price_as_of : o->as_of) : NULL;
    char full[CF_DATE_SIZE];
    if (!d || !cutoff) return 0;
    /* YYYY-MM is its month's 1st: the oldest the month allows. */
    snprintf(full, sizeof full, "%s%s", d, strlen(d) == 7 ? "-01" : "");
    return strcmp(full, cutoff) < 0;
}

/* ---- filters ------------------------------------------------------------- */

int cf_offering_matches(const cf_offering *o, const cf_filter *f)
{
    const char *cur;
    if (!f) return 1;
    if (f->stale_months > 0) {
        char cutoff[CF_DATE_SIZE];
        if (cf_catalog_stale_cutoff(f->today, f->stale_months, cutoff) != CF_OK ||
            !cf_offering_stale(o, cutoff))
            return 0;
    }
    if (f->multinode != CF_CAP_UNKNOWN && o->multinode != f->multinode) return 0;
    if (f->gdr != CF_CAP_UNKNOWN && o->gpudirect_rdma != f->gdr) return 0;
    if (f->rdma != CF_CAP_UNKNOWN && o->rdma != f->rdma) return 0;
    if (f->network_set && o->network != f->network) return 0;
    if (f->gpu && (!o->gpu || cf__strcasecmp(o->gpu, f->gpu) != 0)) return 0;
    if (!isnan(f->min_gbps) && !(o->network_gbps_per_node >= f->min_gbps)) return 0;
    if (f->orchestration && (!o->orchestration_known ||
                             (o->orchestration & f->orchestration) != f->orchestration))
        return 0;
    if (f->provisioning && (!o->provisioning_known ||
                            (o->provisioning & f->provisioning) != f->provisioning))
        return 0;
    if (f->storage && (!o->shared_storage_known || !(o->shared_storage & ~(unsigned)CF_STOR_NONE)))
        return 0;
    cur = f->currency ? f->currency : !isnan(f->max_price) ? "USD" : NULL;
    if (cur && (!o->currency || cf__strcasecmp(o->currency, cur) != 0)) return 0;
    if (!isnan(f->max_price) && !(cf_offering_list_price(o, NULL) <= f->max_price)) return 0;
    if (f->provider && (!o->provider || cf__strcasecmp(o->provider, f->provider) != 0)) return 0;
    return 1;
}

/* A comma-separated value with an empty item ("slurm,", ",slurm",
 * "a,,b", blanks only): refused as `scale --nodes 2,` is (issue 21). */
static int has_empty_item(const char *v)
{
    for (;;) {
        size_t len = strcspn(v, ","), blank = strspn(v, " \t");
        if (blank >= len) return 1;
        if (!v[len]) return 0;
        v += len + 1;
    }
}

/* "min-gbps", "--min-gbps" and "min_gbps" all compare equal to "min-gbps". */
static int flag_is(const char *name, const char *want)
{
    while (*name == '-') name++;
    for (; *name && *want; name++, want++) {
        char c = *name == '_' ? '-' : *name;
        if (c != *want) return 0;
    }
    return *name == '\0' && *want == '\0';
}

static cf_status bad_value(cf_error *err, const char *name, const char *accepted, const char *v)
{
    cf_error_set(err, NULL, 0, 0, "%s: expected %s, got \"%s\"", name, accepted, v ? v : "");
    return CF_EINVAL;
}

/* A capability filter: yes or no; with `any_ok`, also any (no filter, as
 * the planner's `--multinode any` asks for every offering). */
static cf_status cap_value(const char *name, const char *v, int any_ok, cf_cap *out, cf_error *err)
{
    cf_cap c;
    if (any_ok && cf__strcasecmp(v, "any") == 0) {
        *out = CF_CAP_UNKNOWN;
        return CF_OK;
    }
    if (cf_cap_parse(v, &c) != CF_OK || c == CF_CAP_UNKNOWN) {
        cf_error_set(err, NULL, 0, 0, "%s: expected one of yes, no, got \"%s\"%s", name, v,
                     any_ok ? " (or any for no filter)" : "");
        return CF_EINVAL;
    }
    *out = c;
    return CF_OK;
}

cf_status cf_filter_set(cf_filter *f, const char *name, const char *v, cf_error *err)
{
    double x;
    unsigned mask;
    if (!f || !name) return CF_EINVAL;
    if (!v) v = "";
    if (flag_is(name, "multinode")) return cap_value(name, v, 1, &f->multinode, err);
    if (flag_is(name, "gdr")) return cap_value(name, v, 0, &f->gdr, err);
    if (flag_is(name, "rdma")) return cap_value(name, v, 0, &f->rdma, err);
    if (flag_is(name, "network")) {
        char acc[300];
        /* unknown is a filter value here: it lists the offerings whose
         * fabric no source states. */
        snprintf(acc, sizeof acc, "one of %s (or infiniband for ib)", cf_network_values());
        if (cf_network_parse(v, &f->network) != CF_OK) return bad_value(err, name, acc, v);
        f->network_set = 1;
        return CF_OK;
    }
    if (flag_is(name, "gpu")) {
        const cf_gpu_spec *spec = NULL;
        char acc[1024];
        if (cf_gpu_lookup(v, &spec) != CF_OK) {
            char hint[320];
            if (cf_gpu_unknown_hint(v, hint, sizeof hint)[0])
                snprintf(acc, sizeof acc, "one of %s (%s)", cf_gpu_accepted(), hint);
            else
                snprintf(acc, sizeof acc, "one of %s", cf_gpu_accepted());
            return bad_value(err, name, acc, v);
        }
        f->gpu = spec->name; /* borrowed from the GPU table: process lifetime */
        return CF_OK;
    }
    if (flag_is(name, "min-gbps") || flag_is(name, "max-price")) {
        double hi = flag_is(name, "min-gbps") ? CF_FILTER_MIN_GBPS_MAX : CF_FILTER_MAX_PRICE_MAX;
        char acc[64];
        snprintf(acc, sizeof acc, "a number from 0 to %g", hi);
        if (cf__parse_decimal(v, &x) != CF_OK || !(x >= 0) || !(x <= hi))
            return bad_value(err, name, acc, v);
        if (flag_is(name, "min-gbps")) f->min_gbps = x;
        else f->max_price = x;
        return CF_OK;
    }
    if (flag_is(name, "orchestration") || flag_is(name, "provisioning")) {
        cf_set_kind k = flag_is(name, "orchestration") ? CF_SET_ORCHESTRATION : CF_SET_PROVISIONING;
        char acc[300];
        snprintf(acc, sizeof acc, "comma-separated values of %s", cf_set_accepted(k));
        if (has_empty_item(v) || cf_set_parse(k, v, ",", &mask) != CF_OK || mask == 0)
            return bad_value(err, name, acc, v);
        if (k == CF_SET_ORCHESTRATION) f->orchestration = mask;
        else f->provisioning = mask;
        return CF_OK;
    }
    if (flag_is(name, "storage")) {
        if (cf__strcasecmp(v, "yes") != 0) return bad_value(err, name, "yes", v);
        f->storage = 1;
        return CF_OK;
    }
    if (flag_is(name, "currency")) {
        if (!cf__is_currency(v))
            return bad_value(err, name, "an ISO 4217 code such as USD or EUR", v);
        f->currency = v;
        return CF_OK;
    }
    if (flag_is(name, "stale")) {
        long months;
        char acc[96];
        snprintf(acc, sizeof acc, "a whole number of months from 1 to %ld", CF_MAX_STALE_MONTHS);
        if (!*v || strspn(v, "0123456789") != strlen(v) || cf_parse_long(v, &months) != CF_OK ||
            months < 1 || months > CF_MAX_STALE_MONTHS)
            return bad_value(err, name, acc, v);
        f->stale_months = months;
        return CF_OK;
    }
    if (flag_is(name, "provider")) {
        if (!*v) return bad_value(err, name, "a provider name", v);
        f->provider = v;
        return CF_OK;
    }
    cf_error_set(err, NULL, 0, 0, "unknown filter \"%s\" (accepted: multinode, network, gdr, "
                 "rdma, gpu, min-gbps, orchestration, provisioning, storage, max-price, "
                 "currency, provider, stale)", name);
    return CF_EINVAL;
}

/* ---- sort names ---------------------------------------------------------- */

static const char *const sort_names[] = {"price", "gbps", "gpus", "max-cluster", "provider", "as-of"};

cf_status cf_sort_parse(const char *s, cf_sort *out)
{
    for (int i = 0; s && i < (int)(sizeof sort_names / sizeof sort_names[0]); i++) {
        if (flag_is(s, sort_names[i])) {
            *out = (cf_sort)i;
            return CF_OK;
        }
    }
    return CF_EINVAL;
}

const char *cf_sort_name(cf_sort s)
{
    int i = (int)s;
    return i >= 0 && i < (int)(sizeof sort_names / sizeof sort_names[0]) ? sort_names[i] : "unknown";
}

const char *cf_sort_accepted(void) { return "price, gbps, gpus, max-cluster, provider, as-of"; }

/* ---- sorting ------------------------------------------------------------- */

/* An offering with its sort key, computed once so that the comparison
 * needs no context. */
typedef struct item {
    cf_offering o;      /* the offering (moved in and out of the list) */
    int unknown;        /* 1 when the key is unknown: sorts last */
    int dir;            /* 1 ascending, -1 descending */
    double num;         /* numeric key, when str is NULL */
    const char *group;  /* compared first (currency for price), may be NULL */
    const char *str;    /* compared case-insensitively when set */
} item;

static int item_cmp(const void *pa, const void *pb)
{
    const item *a = pa, *b = pb;
    int c;
    if (a->unknown != b->unknown) return a->unknown - b->unknown;
    if (!a->unknown) {
        if (a->group && b->group && (c = strcmp(a->group, b->group)) != 0) return c;
        if (a->str && b->str && (c = cf__strcasecmp(a->str, b->str)) != 0) return c * a->dir;
        if (!a->str && a->num != b->num) return (a->num < b->num ? -1 : 1) * a->dir;
    }
    return strcmp(a->o.id, b->o.id);
}

static void sort_key(item *it, cf_sort sort)
{
    const cf_offering *o = &it->o;
    it->dir = 1;
    switch (sort) {
    case CF_SORT_PRICE:
        it->num = cf_offering_list_price(o, NULL);
        it->unknown = isnan(it->num) || !o->currency;
        it->group = o->currency;
        break;
    case CF_SORT_GBPS:
        it->unknown = isnan(o->network_gbps_per_node);
        it->num = o->network_gbps_per_node;
        it->dir = -1;
        break;
    case CF_SORT_GPUS:
        it->unknown = o->gpus_per_node < 0;
        it->num = (double)o->gpus_per_node;
        it->dir = -1;
        break;
    case CF_SORT_MAX_CLUSTER:
        it->unknown = o->max_cluster_gpus < 0;
        it->num = (double)o->max_cluster_gpus;
        it->dir = -1;
        break;
    case CF_SORT_PROVIDER:
        it->str = o->provider;
        break;
    case CF_SORT_AS_OF: /* YYYY-MM sorts just before the days of its month */
        it->str = o->as_of;
        it->dir = -1;
        break;
    }
}

cf_status cf__offering_sort(cf_offering_list *l, cf_sort sort)
{
    item *items;
    if (l->n < 2) return CF_OK;
    items = cf__calloc(l->n, sizeof *items);
    if (!items) return CF_ENOMEM;
    for (size_t i = 0; i < l->n; i++) {
        items[i].o = l->items[i];
        sort_key(&items[i], sort);
    }
    qsort(items, l->n, sizeof *items, item_cmp);
    for (size_t i = 0; i < l->n; i++) l->items[i] = items[i].o;
    cf__free(items);
    return CF_OK;
}
