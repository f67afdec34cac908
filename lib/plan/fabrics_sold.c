/* fabrics_sold.c — the bundles a catalog sells with one GPU (plan_int.h;
 * issue 23, item 4): `fabrics` compares each family at the NIC counts and
 * line rates offerings actually state, not only at one shared line rate.
 * A bundle is a network family, the NICs per node as stated and the Gbit/s
 * per node; it names the offerings that sell it and the cheapest price
 * among them. Nothing is invented: an offering that names a network but
 * not its line rate is counted as such (unstated), never given one. */
#include <math.h>
#include <string.h>
#include "base/base.h"
#include "plan/plan_int.h"
#include "model/model_int.h"
#include <stdio.h>
#include "clusterfit/catalog.h"
#include "clusterfit/fabrics.h"

static void note_unstated(cf__unstated *u, const char *id)
{
    if (u->n < sizeof u->ids / sizeof u->ids[0]) u->ids[u->n] = id;
    u->n++;
}

/* The bundle of (network, nics, gbps), added when new; NULL when full. */
static cf__bundle *bundle_of(cf__bundles *out, const cf_offering *o, const cf_fabric *fab)
{
    int nics = o->nics_per_node >= 1 ? (int)o->nics_per_node : 0;
    cf__bundle *b;
    for (size_t i = 0; i < out->n; i++) {
        b = &out->b[i];
        if (b->network == o->network && b->nics == nics && b->gbps == o->network_gbps_per_node)
            return b;
    }
    if (out->n >= CF__BUNDLES_MAX) return NULL;
    b = &out->b[out->n++];
    memset(b, 0, sizeof *b);
    b->network = o->network;
    b->nics = nics;
    b->gbps = o->network_gbps_per_node;
    b->fab = *fab;
    b->price = b->other_price = NAN;
    return b;
}

/* A price in another currency than the compared one: kept to be shown in
 * its own currency (the first other currency met; never converted). */
static void other_add(cf__bundle *b, const cf_offering *o, double p)
{
    if (b->other_currency && cf__strcasecmp(b->other_currency, o->currency) != 0) return;
    if (isnan(b->other_price) || p < b->other_price) {
        b->other_price = p;
        b->other_currency = o->currency;
        b->other_id = o->id;
    }
}

/* The offering's id in the bundle, its largest cluster, and its price when
 * cheaper. */
static void bundle_add(cf__bundle *b, const cf_offering *o, const char *currency)
{
    int reserved = 0;
    double p = cf_offering_list_price(o, &reserved);
    if (b->n_ids < CF__BUNDLE_IDS_MAX) b->ids[b->n_ids] = o->id;
    b->n_ids++;
    if (o->max_cluster_gpus >= 1) {
        if (o->max_cluster_gpus > b->max_gpus) b->max_gpus = o->max_cluster_gpus;
    } else {
        b->unbounded = 1;
    }
    if (isnan(p) || !o->currency) return;
    if (!currency || cf__strcasecmp(o->currency, currency) != 0) {
        other_add(b, o, p);
        return;
    }
    if (isnan(b->price) || p < b->price) {
        b->price = p;
        b->price_id = o->id;
        b->price_reserved = reserved;
    }
}

void cf__fabrics_bundles(const cf_offering *offs, size_t n, const char *gpu, int gpus_per_node,
                         const char *currency, cf__bundles *out)
{
    memset(out, 0, sizeof *out);
    for (size_t i = 0; offs && gpu && i < n; i++) {
        const cf_offering *o = &offs[i];
        cf_fabric fab;
        cf__bundle *b;
        if (!o->id || !o->gpu || cf__strcasecmp(o->gpu, gpu) != 0) continue;
        if (o->multinode == CF_CAP_NO || o->network == CF_NET_NONE) {
            out->single_node++;
            continue;
        }
        if (o->gpus_per_node >= 1 && o->gpus_per_node != gpus_per_node) {
            out->other_size++;
            continue;
        }
        if (o->network == CF_NET_UNKNOWN || o->network < 0 || o->network >= CF_NET__COUNT) {
            note_unstated(&out->no_network, o->id);
            continue;
        }
        if (o->gpus_per_node < 1 || !(o->network_gbps_per_node > 0) ||
            cf_fabric_from_offering(o, &fab, NULL) != CF_OK) {
            note_unstated(&out->unstated[o->network], o->id);
            continue;
        }
        if (!(b = bundle_of(out, o, &fab))) {
            out->n_more++;
            continue;
        }
        bundle_add(b, o, currency);
    }
    for (size_t i = 0; i < out->n; i++) {
        cf__bundle *b = &out->b[i];
        if (b->unbounded || b->max_gpus < 1 || gpus_per_node < 1) continue;
        b->max_nodes = b->max_gpus >= gpus_per_node ? (int)(b->max_gpus / gpus_per_node) : 1;
    }
}

/* Passes of the baseline's choice: the baseline family priced, that
 * family, any family priced, any bundle; among the bundles with a result
 * (ok[i]) first, then among all. A priced baseline first, as the worth in
 * money needs its price. */
size_t cf__fabrics_sold_baseline(const cf__bundles *bs, cf_network baseline, const unsigned char *ok)
{
    size_t best = bs->n;
    for (int pass = 0; pass < 8 && best == bs->n; pass++)
        for (size_t i = 0; i < bs->n; i++) {
            if (pass < 4 && ok && !ok[i]) continue;
            if (pass % 4 < 2 && bs->b[i].network != baseline) continue;
            if (pass % 2 == 0 && isnan(bs->b[i].price)) continue;
            if (best == bs->n || bs->b[i].gbps < bs->b[best].gbps) best = i;
        }
    return best;
}

static double num(const json_t *o, const char *k)
{
    const json_t *v = json_object_get(o, k);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

/* v, or +0 where it would print as -0 at `dec` decimals: a signed figure
 * of the headline never reads "-0.0 %" or "-0.00". */
static double nz(double v, int dec)
{
    return !isnan(v) && fabs(v) < 0.5 * pow(10.0, -dec) ? 0.0 : v;
}

/* "InfiniBand 8 x 400 Gbit/s", "EFA 3200 Gbit/s (NICs not stated)". */
static void bundle_words(char *buf, size_t cap, const cf__bundle *b)
{
    if (b->nics > 0)
        snprintf(buf, cap, "%s %d x %g Gbit/s", cf_network_label(b->network), b->nics,
                 b->gbps / b->nics);
    else
        snprintf(buf, cap, "%s %g Gbit/s (NICs not stated)", cf_network_label(b->network), b->gbps);
}

/* "(crusoe-h100-ib, nebius-h100-cluster, +3 more)": the first two ids. */
static void ids_words(char *buf, size_t cap, const cf__bundle *b)
{
    size_t n = 0;
    for (size_t i = 0; i < b->n_ids && i < 2 && i < CF__BUNDLE_IDS_MAX && n < cap; i++)
        n += (size_t)snprintf(buf + n, cap - n, "%s%s", i ? ", " : "(", b->ids[i]);
    if (n < cap && b->n_ids > 2) n += (size_t)snprintf(buf + n, cap - n, ", +%zu more", b->n_ids - 2);
    if (n < cap) snprintf(buf + n, cap - n, ")");
}

/* A job's cost in words: "14.1 million USD", "8,420 USD" is left to 3
 * significant digits: "8.42e+03" never shows. */
static void money_words(char *buf, size_t cap, double v, const char *cur)
{
    if (v >= 1e6) snprintf(buf, cap, "%.3g million %s", v / 1e6, cur);
    else snprintf(buf, cap, "%.0f %s", v, cur);
}

/* price_other: {price_gpu_hr, currency, offering} of a bundle with no
 * price in the compared currency but one in another; null otherwise. */
static json_t *other_json(const cf__bundle *b)
{
    json_t *o;
    if (!isnan(b->price) || isnan(b->other_price)) return json_null();
    o = json_object();
    if (o && (cf__json_set(o, "price_gpu_hr", cf__json_num(b->other_price)) ||
              cf__json_set(o, "currency", json_string(b->other_currency)) ||
              cf__json_set(o, "offering", json_string(b->other_id)))) {
        json_decref(o);
        return NULL;
    }
    return o;
}

/* 1 when the row's flags hold `flag`. */
static int has_flag(const json_t *r, const char *flag)
{
    size_t i;
    json_t *f;
    json_array_foreach(json_object_get(r, "flags"), i, f)
        if (json_is_string(f) && strcmp(json_string_value(f), flag) == 0) return 1;
    return 0;
}

/* The row's note: a size beyond what is sold, a deadline only a larger
 * cluster than sold meets, a price in another currency; null when none. */
static json_t *note_json(const cf__bundle *b, const json_t *r)
{
    char line[600];
    size_t n = 0;
    line[0] = '\0';
    if (has_flag(r, "larger_than_sold"))
        n += (size_t)snprintf(line, sizeof line, "evaluated at %ld nodes, more than any of its "
                              "offerings rents (the largest: %d nodes, %ld GPUs): no such cluster is "
                              "sold", (long)json_integer_value(json_object_get(r, "nodes")),
                              b->max_nodes, b->max_gpus);
    else if (has_flag(r, "deadline_needs_more_than_sold"))
        n += (size_t)snprintf(line, sizeof line, "searched up to %d nodes (%ld GPUs), the largest "
                              "cluster any of its offerings rents; the deadline needs more",
                              b->max_nodes, b->max_gpus);
    if (isnan(b->price) && !isnan(b->other_price) && n < sizeof line)
        snprintf(line + n, sizeof line - n, "%spriced only in %s (%.2f %s/GPU-h, %s): shown, not "
                 "compared (never converted)", n ? "; " : "", b->other_currency, b->other_price,
                 b->other_currency, b->other_id);
    return line[0] ? json_string(line) : json_null();
}

/* The bundle's members on its row, and the money against the baseline. */
static int bundle_set(json_t *r, const cf__bundle *b, const cf__bundle *base, const json_t *brow,
                      int is_base)
{
    json_t *ids = json_array();
    double gf = num(r, "gpu_hours"), gb = brow ? num(brow, "gpu_hours") : NAN;
    double pb = base ? base->price : NAN, be = NAN, worth = NAN;
    int bad = !ids;
    for (size_t i = 0; ids && i < b->n_ids && i < CF__BUNDLE_IDS_MAX; i++)
        bad |= json_array_append_new(ids, json_string(b->ids[i]));
    if (gf > 0 && gb > 0 && !isnan(pb)) {
        be = pb * gb / gf;
        worth = be - pb;
    }
    bad |= cf__json_set(r, "nics_stated", b->nics > 0 ? json_integer(b->nics) : json_null());
    bad |= cf__json_set(r, "gbps_per_node", cf__json_num(b->gbps));
    bad |= cf__json_set(r, "offerings", ids);
    bad |= cf__json_set(r, "n_offerings", json_integer((json_int_t)b->n_ids));
    bad |= cf__json_set(r, "price_gpu_hr", cf__json_num(b->price));
    bad |= cf__json_set(r, "price_offering", b->price_id ? json_string(b->price_id) : json_null());
    bad |= cf__json_set(r, "price_reserved", isnan(b->price) ? json_null() : json_boolean(b->price_reserved));
    bad |= cf__json_set(r, "break_even_price_gpu_hr", cf__json_num(be));
    bad |= cf__json_set(r, "worth_gpu_hr", cf__json_num(worth));
    bad |= cf__json_set(r, "job_cost", cf__json_num(gf > 0 ? b->price * gf : NAN));
    bad |= cf__json_set(r, "is_baseline", json_boolean(is_base));
    bad |= cf__json_set(r, "largest_sold_nodes", b->max_nodes > 0 ? json_integer(b->max_nodes) : json_null());
    bad |= cf__json_set(r, "price_other", other_json(b));
    bad |= cf__json_set(r, "note", note_json(b, r));
    bad |= cf__json_set(r, "fabric_named", json_boolean(cf__fabrics_family_named(b->network)));
    return bad;
}

/* Whether net is one of the six compared families: "rdma" (RDMA whose
 * fabric, InfiniBand or RoCE, the offering does not name) is not. */
int cf__fabrics_family_named(cf_network net)
{
    size_t nf;
    const cf_network *fam = cf_fabrics_families(&nf);
    for (size_t k = 0; k < nf; k++)
        if (fam[k] == net) return 1;
    return 0;
}

/* Whether the bundle states what it is: NICs given and one of the
 * compared families (not "rdma" of an unstated kind). */
static int stated(const cf__bundle *b)
{
    return cf__fabrics_family_named(b->network) && b->nics > 0;
}

/* The bundle with the largest premium other than the baseline, among the
 * bundles that state their NICs and family first (a model's guess at an
 * unstated NIC count never heads the answer while a stated one can); n
 * when none. */
static size_t best_of(const cf__bundles *bs, const json_t *rows, size_t base)
{
    size_t best = bs->n;
    for (int pass = 0; pass < 2 && best == bs->n; pass++)
        for (size_t i = 0; i < bs->n; i++) {
            double p = num(json_array_get(rows, i), "worth_premium_pct");
            if (i == base || isnan(p) || (pass == 0 && !stated(&bs->b[i]))) continue;
            if (best == bs->n || p > num(json_array_get(rows, best), "worth_premium_pct")) best = i;
        }
    return best;
}

/* The money clause of the headline (after "for this job"). */
static void money_clause(char *buf, size_t cap, const cf__bundle *f, const cf__bundle *b,
                         const json_t *fr, const json_t *cr, const char *cur)
{
    char cf_[64], cb[64];
    size_t n = 0;
    buf[0] = '\0';
    if (!isnan(b->price))
        n += (size_t)snprintf(buf + n, cap - n, "; at the baseline's cheapest %.2f %s/GPU-h (%s) it "
                              "breaks even up to %.2f %s/GPU-h, a premium of %+.2f %s/GPU-h", b->price, cur,
                              b->price_id, num(fr, "break_even_price_gpu_hr"), cur,
                              nz(num(fr, "worth_gpu_hr"), 2), cur);
    else if (n < cap)
        n += (size_t)snprintf(buf + n, cap - n, "; the baseline states no %s price, so the worth "
                              "stays a percentage", cur);
    if (n < cap && !isnan(f->price))
        n += (size_t)snprintf(buf + n, cap - n, "; it sells from %.2f %s/GPU-h (%s)", f->price, cur,
                              f->price_id);
    /* cr: the cheapest bundle's row when it is another (NULL: f is it) */
    if (n < cap && cr && !isnan(f->price) && num(fr, "job_cost") > 0 && num(cr, "job_cost") > 0) {
        money_words(cf_, sizeof cf_, num(fr, "job_cost"), cur);
        money_words(cb, sizeof cb, num(cr, "job_cost"), cur);
        snprintf(buf + n, cap - n, ", so the job costs %s on it against %s on the cheapest", cf_, cb);
    }
}

/* The bundle whose job costs least (price x GPU-hours), among the bundles
 * with a price and a result; n when none. Exact ties keep the first. */
static size_t cheapest_of(const cf__bundles *bs, const json_t *rows)
{
    size_t ch = bs->n;
    for (size_t i = 0; i < bs->n; i++) {
        double c = num(json_array_get(rows, i), "job_cost");
        if (c > 0 && (ch == bs->n || c < num(json_array_get(rows, ch), "job_cost"))) ch = i;
    }
    return ch;
}

/* The headline's lead: what the job costs least on, and how that bundle
 * stands to the baseline (the renter's answer comes first: issue 23). */
static void cheapest_clause(char *buf, size_t cap, const cf__bundles *bs, const json_t *rows,
                            size_t ch, size_t base, const char *cur)
{
    char w[96], ids[160], c[64], cb[64];
    const json_t *r = json_array_get(rows, ch), *br = json_array_get(rows, base);
    size_t n;
    bundle_words(w, sizeof w, &bs->b[ch]);
    ids_words(ids, sizeof ids, &bs->b[ch]);
    money_words(c, sizeof c, num(r, "job_cost"), cur);
    n = (size_t)snprintf(buf, cap, "the job costs least on %s %s: %s at %.2f %s/GPU-h", w, ids, c,
                         bs->b[ch].price, cur);
    if (n >= cap) return;
    if (ch == base) {
        snprintf(buf + n, cap - n, ", the baseline itself");
    } else if (num(br, "job_cost") > 0) {
        money_words(cb, sizeof cb, num(br, "job_cost"), cur);
        snprintf(buf + n, cap - n, ", against %s on the baseline; %s", cb,
                 num(r, "time_to_train_h") < num(br, "time_to_train_h")
                     ? "it is faster than the baseline and cheaper outright, so no premium is needed"
                     : "it is not faster than the baseline, only cheaper");
    }
}

/* The headline: the line rates compared, named with their offerings. */
static json_t *headline(const cf__bundles *bs, const json_t *rows, size_t base, size_t best,
                        const char *gpu, const char *cur)
{
    char line[2600], fw[96], bw[96], fi[160], bi[160], money[700], lead[700];
    size_t ch, n;
    if (bs->n == 0) {
        snprintf(line, sizeof line, "As sold: the catalog sells no multi-node %s bundle whose network "
                 "and line rate it states, so there is nothing to compare as sold (the equal-line-"
                 "rate rows compare the families).", gpu);
        return json_string(line);
    }
    bundle_words(bw, sizeof bw, &bs->b[base]);
    ids_words(bi, sizeof bi, &bs->b[base]);
    if (best >= bs->n && !(num(json_array_get(rows, base), "gpu_hours") > 0)) {
        double met = NAN;       /* the shortest deadline a bundle would meet */
        for (size_t i = 0; i < bs->n; i++) {
            double d = num(json_array_get(rows, i), "deadline_met_h");
            if (d > 0 && (isnan(met) || d < met)) met = d;
        }
        n = (size_t)snprintf(line, sizeof line, "As sold: none of the %zu bundle%s the catalog sells with %s "
                             "has a result here (each too slow for the deadline or too small to fit, see "
                             "the rows), so there is no as-sold comparison", bs->n, bs->n == 1 ? "" : "s", gpu);
        if (n < sizeof line)
            snprintf(line + n, sizeof line - n, isnan(met) ? "." : "; the fastest bundle meets a deadline of "
                     "%.0f h or more.", ceil(met));
        return json_string(line);
    }
    if (best >= bs->n) {
        snprintf(line, sizeof line, "As sold: the catalog sells %s with %s %s and no other bundle "
                 "with a stated line rate%s, so there is no as-sold comparison (the equal-line-rate "
                 "rows compare the families).", gpu, bw, bi,
                 bs->n > 1 ? " that has a result here" : "");
        return json_string(line);
    }
    ch = cheapest_of(bs, rows);
    lead[0] = '\0';
    if (ch < bs->n) cheapest_clause(lead, sizeof lead, bs, rows, ch, base, cur);
    bundle_words(fw, sizeof fw, &bs->b[best]);
    ids_words(fi, sizeof fi, &bs->b[best]);
    money_clause(money, sizeof money, &bs->b[best], &bs->b[base], json_array_get(rows, best),
                 ch < bs->n && ch != best ? json_array_get(rows, ch) : NULL, cur);
    n = (size_t)snprintf(line, sizeof line, "As sold with %s: %s%s%s %s is worth %+.1f %% per "
                         "GPU-hour over %s %s for this job%s.", gpu, lead,
                         lead[0] ? ". The largest worth: " : "", fw, fi,
                         nz(num(json_array_get(rows, best), "worth_premium_pct"), 1), bw, bi, money);
    for (int k = 0; k < 2; k++) {   /* the compared bundles beyond what is sold */
        const json_t *r = json_array_get(rows, k ? base : best);
        if (n < sizeof line && has_flag(r, "larger_than_sold"))
            n += (size_t)snprintf(line + n, sizeof line - n, " %s is %s.", k ? bw : fw,
                                  json_string_value(json_object_get(r, "note")));
    }
    return json_string(line);
}

/* not_sold: each compared family without a bundle, with the offerings
 * that name it without a line rate. */
static json_t *not_sold(const cf__bundles *bs)
{
    size_t nf;
    const cf_network *fam = cf_fabrics_families(&nf);
    json_t *arr = json_array();
    int bad = !arr;
    for (size_t k = 0; arr && k < nf; k++) {
        const cf__unstated *u = &bs->unstated[fam[k]];
        json_t *o, *ids;
        size_t i;
        for (i = 0; i < bs->n && bs->b[i].network != fam[k]; i++) {}
        if (i < bs->n) continue;
        o = json_object();
        ids = json_array();
        bad |= !o || !ids;
        for (i = 0; ids && i < u->n && i < sizeof u->ids / sizeof u->ids[0]; i++)
            bad |= json_array_append_new(ids, json_string(u->ids[i]));
        bad |= cf__json_set(o, "network", json_string(cf_network_name(fam[k])));
        bad |= cf__json_set(o, "n_unstated", json_integer((json_int_t)u->n));
        bad |= cf__json_set(o, "unstated_offerings", ids);
        bad |= json_array_append_new(arr, o);
    }
    if (bad) {
        json_decref(arr);
        return NULL;
    }
    return arr;
}

/* The sentence for bundles whose RDMA fabric is not named, kept as their
 * own family "rdma" (not folded into ib or roce: unknown stays unknown). */
static int rdma_assumes(json_t *arr, const cf__bundles *bs)
{
    char d[400];
    for (size_t i = 0; i < bs->n; i++)
        if (!cf__fabrics_family_named(bs->b[i].network)) {
            snprintf(d, sizeof d, "as sold: rdma: RDMA, fabric not named (the offering does not say "
                     "InfiniBand or RoCE); modelled as InfiniBand at its own bandwidth efficiency %.2f "
                     "(docs/model.md, generic rdma), not one of the six compared families", CF_K(ETA_RDMA));
            return json_array_append_new(arr, json_string(d));
        }
    return 0;
}

/* What the as-sold rows rest on, said with them. */
static json_t *sold_assumes(const char *cur, const cf__bundles *bs)
{
    char a[400], b[400], c[300];
    json_t *arr = json_array();
    snprintf(a, sizeof a, "as sold: a bundle's price is the cheapest list price (on-demand, else "
             "reserved) in %s among its offerings, never converted; billing increments and minimum "
             "commitments are left out", cur);
    snprintf(b, sizeof b, "as sold: break-even price = baseline price x GPU-hours on the baseline / "
             "GPU-hours on the bundle; worth = break-even - baseline price (%s per GPU-hour a renter "
             "may pay over the baseline and break even); job cost = price x GPU-hours", cur);
    snprintf(c, sizeof c, "as sold: a bundle whose NICs are not stated is modelled with one NIC per "
             "GPU (the usual multi-node board), its Gbit/s per node as stated");
    if (!arr || json_array_append_new(arr, json_string(a)) || json_array_append_new(arr, json_string(b)) ||
        json_array_append_new(arr, json_string(c)) || rdma_assumes(arr, bs)) {
        json_decref(arr);
        return NULL;
    }
    return arr;
}

cf_status cf__fabrics_sold_json(const cf__bundles *bs, json_t *rows, size_t base, const char *gpu,
                                const char *currency, json_t **out)
{
    json_t *o = json_object(), *nn = json_array();
    size_t best = best_of(bs, rows, base);
    int bad = !o || !nn;
    for (size_t i = 0; !bad && i < bs->n; i++)
        bad |= bundle_set(json_array_get(rows, i), &bs->b[i], base < bs->n ? &bs->b[base] : NULL,
                          base < bs->n ? json_array_get(rows, base) : NULL, i == base);
    for (size_t i = 0; nn && i < bs->no_network.n && i < 4; i++)
        bad |= json_array_append_new(nn, json_string(bs->no_network.ids[i]));
    bad |= cf__json_set(o, "currency", json_string(currency));
    bad |= cf__json_set(o, "baseline", base < bs->n ? json_integer((json_int_t)base) : json_null());
    bad |= cf__json_set(o, "best", best < bs->n ? json_integer((json_int_t)best) : json_null());
    bad |= cf__json_set(o, "cheapest", cheapest_of(bs, rows) < bs->n ? json_integer((json_int_t)cheapest_of(bs, rows))
                                                                        : json_null());
    bad |= cf__json_set(o, "headline", headline(bs, rows, base, best, gpu, currency));
    bad |= cf__json_set(o, "bundles", json_incref(rows));
    bad |= cf__json_set(o, "not_sold", not_sold(bs));
    bad |= cf__json_set(o, "no_network_offerings", nn);
    bad |= cf__json_set(o, "n_no_network", json_integer((json_int_t)bs->no_network.n));
    bad |= cf__json_set(o, "n_single_node", json_integer((json_int_t)bs->single_node));
    bad |= cf__json_set(o, "assumes", sold_assumes(currency, bs));
    if (bad) {
        json_decref(o);
        return CF_ENOMEM;
    }
    *out = o;
    return CF_OK;
}
