/* fabrics_sold_text.c — `clusterfit fabrics`, as sold (fabrics_sold_text.h):
 * each bundle the catalog sells with the GPU (family, NICs and line rate)
 * on one row with the offerings that sell it, its cheapest price and what
 * it is worth over the baseline bundle; the headline and the families not
 * sold are the library's (cf_fabrics' `sold` member), shown as they are. */
#include <math.h>
#include <string.h>
#include "fabrics_sold_text.h"
#include "cli.h"
#include "table.h"
#include "textfmt.h"

static double num(const json_t *o, const char *k)
{
    const json_t *v = json_object_get(o, k);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

/* "8 x 400", "? / 3200" (NICs not stated: the Gbit/s per node). */
static void bundle_cell(char *buf, size_t cap, const json_t *r)
{
    const json_t *n = json_object_get(r, "nics_stated");
    if (json_is_integer(n))
        snprintf(buf, cap, "%ld x %g", (long)json_integer_value(n), num(r, "nic_gbps"));
    else
        snprintf(buf, cap, "? / %g", num(r, "gbps_per_node"));
}

/* The first offering (the cheapest: the catalog lists them so) and how
 * many more: "crusoe-h100-ib +5"; --format json has them all. */
static void ids_cell(char *buf, size_t cap, const json_t *r)
{
    json_int_t n = json_integer_value(json_object_get(r, "n_offerings"));
    const char *first = json_string_value(json_array_get(json_object_get(r, "offerings"), 0));
    if (n > 1) snprintf(buf, cap, "%s +%ld", first ? first : "?", (long)(n - 1));
    else snprintf(buf, cap, "%s", first ? first : "?");
}

static int row(table *t, const json_t *r)
{
    char b[48], ids[160];
    double p = num(r, "worth_premium_pct"), pr = num(r, "price_gpu_hr"), w = num(r, "worth_gpu_hr");
    const json_t *other = json_object_get(r, "price_other");
    bundle_cell(b, sizeof b, r);
    ids_cell(ids, sizeof ids, r);
    if (table_row(t) || table_cell(t, 0, json_string_value(json_object_get(r, "network"))) ||
        table_cell(t, 1, b))
        return -1;
    if (json_is_integer(json_object_get(r, "nodes"))
            ? table_cellf(t, 2, "%ld", (long)json_integer_value(json_object_get(r, "nodes")))
            : table_cell(t, 2, "-"))
        return -1;
    if (json_is_true(json_object_get(r, "is_baseline")) ? table_cell(t, 3, "baseline")
        : isnan(p) ? table_cell(t, 3, "-") : table_cellf(t, 3, "%+.1f %%", tf_nonneg_zero(p, 1)))
        return -1;
    if ((!isnan(pr) ? table_cellf(t, 4, "%.2f", pr)
         : json_is_object(other) ? table_cellf(t, 4, "%.2f %s", num(other, "price_gpu_hr"),
                                              json_string_value(json_object_get(other, "currency")))
         : table_cell(t, 4, "-")) ||
        (isnan(w) ? table_cell(t, 5, "-") : table_cellf(t, 5, "%+.2f", tf_nonneg_zero(w, 2))) ||
        table_cell(t, 6, ids))
        return -1;
    return 0;
}

/* "Not sold with H100-SXM as a multi-node bundle with a stated line rate:
 * TCP (vastai-h100-sxm names it without a line rate or node size: unknown,
 * not modelled); EFA: no offering of H100-SXM names it." */
static void not_sold_line(FILE *out, json_t *doc, json_t *sold)
{
    char line[1200], none[200];
    const char *gpu = json_string_value(json_object_get(doc, "gpu"));
    size_t i, n = 0, nn = 0, named = 0;
    json_t *f;
    if (json_array_size(json_object_get(sold, "not_sold")) == 0) return;
    none[0] = '\0';
    n += (size_t)snprintf(line, sizeof line, "Not sold with %s as a multi-node bundle with a stated "
                          "line rate: ", gpu);
    json_array_foreach(json_object_get(sold, "not_sold"), i, f) {
        cf_network net;
        const char *name = json_string_value(json_object_get(f, "network"));
        const char *label = name && cf_network_parse(name, &net) == CF_OK ? tf_net_label(net) : "?";
        json_int_t k = json_integer_value(json_object_get(f, "n_unstated"));
        json_t *ids = json_object_get(f, "unstated_offerings");
        if (k == 0) {
            if (nn < sizeof none) nn += (size_t)snprintf(none + nn, sizeof none - nn, "%s%s", nn ? ", " : "", label);
            continue;
        }
        if (n < sizeof line)
            n += (size_t)snprintf(line + n, sizeof line - n, "%s%s (%s%s names it without a line rate "
                                  "or node size: unknown, not modelled)", named++ ? "; " : "", label,
                                  json_string_value(json_array_get(ids, 0)), k > 1 ? " and others" : "");
    }
    if (nn && n < sizeof line)
        snprintf(line + n, sizeof line - n, "%s%s: no offering of %s names %s.", named ? "; " : "", none,
                 gpu, strchr(none, ',') ? "them" : "it");
    else if (n < sizeof line)
        snprintf(line + n, sizeof line - n, ".");
    tf_wrap(out, "", line, TF_WIDTH);
}

/* "note: InfiniBand 8 x 400: evaluated at 64 nodes, more than ..." per row
 * with a note (the library's words). */
static void notes(FILE *out, json_t *sold)
{
    size_t i;
    json_t *r;
    json_array_foreach(json_object_get(sold, "bundles"), i, r) {
        char b[48], line[800];
        cf_network net;
        const char *name = json_string_value(json_object_get(r, "network"));
        const char *note = json_string_value(json_object_get(r, "note"));
        if (!note) continue;
        bundle_cell(b, sizeof b, r);
        snprintf(line, sizeof line, "%s %s: %s.",
                 name && cf_network_parse(name, &net) == CF_OK ? tf_net_label(net) : "?", b, note);
        tf_wrap(out, "note: ", line, TF_WIDTH);
    }
}

int fabrics_sold_text(FILE *out, json_t *doc)
{
    json_t *sold = json_object_get(doc, "sold"), *r;
    char head[96];
    size_t i;
    int rc = -1;
    table *t;
    if (!sold) return 0;
    fputc('\n', out);
    tf_wrap(out, "", json_string_value(json_object_get(sold, "headline")), TF_WIDTH);
    if (json_array_size(json_object_get(sold, "bundles")) == 0) {
        not_sold_line(out, doc, sold);
        return 0;
    }
    if (!(t = table_new())) return -1;
    if (table_column(t, "fabric", TABLE_LEFT, 0, 6, 0) < 0 ||
        table_column(t, "NICs x Gb/s", TABLE_LEFT, 0, 8, 0) < 0 ||
        table_column(t, "nodes", TABLE_RIGHT, 0, 5, 0) < 0 ||
        table_column(t, "vs base", TABLE_RIGHT, 0, 8, 0) < 0 ||
        table_column(t, "price", TABLE_RIGHT, 0, 5, 0) < 0 ||
        table_column(t, "worth", TABLE_RIGHT, 0, 5, 0) < 0 ||
        table_column(t, "offerings (cheapest, more)", TABLE_LEFT, TABLE_SHRINK, 9, 0) < 0)
        goto done;
    json_array_foreach(json_object_get(sold, "bundles"), i, r)
        if (row(t, r) != 0) goto done;
    fputc('\n', out);
    if (table_print(t, out, TF_WIDTH) != 0) goto done;
    snprintf(head, sizeof head, "%s", json_string_value(json_object_get(sold, "currency")));
    {
        char line[1000];
        snprintf(line, sizeof line, "As sold: each bundle the catalog sells with this GPU (family, "
                 "NICs x Gbit/s per NIC; ? / G: NICs not stated, G Gbit/s per node) at its own line "
                 "rate; vs base: the worth premium as above, against the baseline bundle; price: "
                 "the cheapest list price among its offerings, %s per GPU-hour (a bundle priced only in "
                 "another currency shows that price with its currency, not compared); "
                 "worth: how many %s per GPU-hour over the baseline's price a renter may pay for "
                 "it and break even (--format json: every offering, the time to train, the break-even price, the "
                 "job's cost).",
                 head, head);
        tf_wrap(out, "", line, TF_WIDTH);
    }
    notes(out, sold);
    not_sold_line(out, doc, sold);
    rc = 0;
done:
    table_free(t);
    return rc;
}

void fabrics_sold_assumes(FILE *out, json_t *doc)
{
    size_t i;
    json_t *a;
    json_array_foreach(json_object_get(json_object_get(doc, "sold"), "assumes"), i, a)
        tf_wrap(out, "assumes: ", json_string_value(a), TF_WIDTH);
}
