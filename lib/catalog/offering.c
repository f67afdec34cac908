/* offering.c — one cluster offering (DESIGN §3): its columns, how a cell
 * is validated and stored, its lifecycle, its CSV text and JSON.
 *
 * Every column is described once in cf__columns (name, kind, member offset);
 * the CSV and JSON readers, the SQLite layer and the writers all walk that
 * table, so a column is checked the same way wherever it comes from. A cell
 * is validated by its kind: vocabulary through vocab.h, numbers through
 * cf_parse_double/cf_parse_long (negative numbers refused), sets through
 * cf_set_parse, dates as YYYY-MM[-DD], UTF-8 always. Unknown is an empty cell;
 * the literal "unknown" is accepted only where the vocabulary has it
 * (enumerations and capabilities). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "clusterfit/catalog.h"
#include "clusterfit/date.h"
#include "clusterfit/hardware.h"
#include "clusterfit/limits.h"
#include "clusterfit/units.h"
#include "catalog/catalog_int.h"
#include "base/base.h"

#define OFF(m) offsetof(cf_offering, m)
#define COL(name, kind, m, req) {name, kind, OFF(m), 0, CF_SET_ORCHESTRATION, req}
#define SETCOL(name, m, known, set) {name, CF__COL_SET, OFF(m), OFF(known), set, 0}

const cf__column cf__columns[CF_OFFERING_NCOLS] = {
    COL("id", CF__COL_ID, id, 1),
    COL("provider", CF__COL_NAME, provider, 1),
    COL("offering", CF__COL_NAME, offering, 1),
    COL("gpu", CF__COL_GPU, gpu, 0),
    COL("gpus_per_node", CF__COL_INT_POS, gpus_per_node, 0),
    COL("gpu_memory_gb", CF__COL_NUM_POS, gpu_memory_gb, 0),
    COL("intra_link", CF__COL_INTRA, intra_link, 0),
    COL("network", CF__COL_NET, network, 0),
    COL("network_gbps_per_node", CF__COL_NUM_NONNEG, network_gbps_per_node, 0),
    COL("nics_per_node", CF__COL_INT_NONNEG, nics_per_node, 0),
    COL("rdma", CF__COL_CAP, rdma, 0),
    COL("gpudirect_rdma", CF__COL_CAP, gpudirect_rdma, 0),
    COL("topology", CF__COL_TEXT, topology, 0),
    COL("non_blocking", CF__COL_CAP, non_blocking, 0),
    COL("rail_optimized", CF__COL_CAP, rail_optimized, 0),
    COL("max_cluster_gpus", CF__COL_INT_POS, max_cluster_gpus, 0),
    SETCOL("orchestration", orchestration, orchestration_known, CF_SET_ORCHESTRATION),
    SETCOL("provisioning", provisioning, provisioning_known, CF_SET_PROVISIONING),
    COL("min_commitment_h", CF__COL_NUM_NONNEG, min_commitment_h, 0),
    COL("billing_increment_s", CF__COL_NUM_NONNEG, billing_increment_s, 0),
    COL("price_on_demand_gpu_hr", CF__COL_NUM_NONNEG, price_on_demand_gpu_hr, 0),
    COL("price_reserved_gpu_hr", CF__COL_NUM_NONNEG, price_reserved_gpu_hr, 0),
    COL("currency", CF__COL_CURRENCY, currency, 0),
    SETCOL("shared_storage", shared_storage, shared_storage_known, CF_SET_STORAGE),
    COL("regions", CF__COL_LIST, regions, 0),
    COL("multinode", CF__COL_CAP, multinode, 0),
    COL("notes", CF__COL_TEXT, notes, 0),
    COL("source_url", CF__COL_URLS, source_url, 1),
    COL("as_of", CF__COL_DATE, as_of, 1),
    COL("in_network_reduction", CF__COL_CAP, in_network_reduction, 0),
    COL("price_spot_gpu_hr", CF__COL_NUM_NONNEG, price_spot_gpu_hr, 0),
    COL("price_as_of", CF__COL_DATE, price_as_of, 0),
};

/* Longest id and GPU name: ids are slugs such as "aws-p5-48xlarge"; 128
 * leaves room for provider-region-instance slugs. */
enum { MAX_ID = 128, MAX_GPU_NAME = 64, SHOWN = 60 };

const char *cf_offering_column_name(int col)
{
    return col >= 0 && col < CF_OFFERING_NCOLS ? cf__columns[col].name : NULL;
}

int cf_offering_column_index(const char *name)
{
    for (int i = 0; name && i < CF_OFFERING_NCOLS; i++)
        if (strcmp(cf__columns[i].name, name) == 0) return i;
    return -1;
}

#define MEMBER(o, c, type) ((type *)(void *)((char *)(o) + cf__columns[c].off))
#define CMEMBER(o, c, type) ((const type *)(const void *)((const char *)(o) + cf__columns[c].off))

void cf__offering_init(cf_offering *o)
{
    memset(o, 0, sizeof *o);
    o->gpus_per_node = o->nics_per_node = o->max_cluster_gpus = -1;
    o->gpu_memory_gb = o->network_gbps_per_node = NAN;
    o->min_commitment_h = o->billing_increment_s = NAN;
    o->price_on_demand_gpu_hr = o->price_reserved_gpu_hr = o->price_spot_gpu_hr = NAN;
    o->intra_link = CF_INTRA_UNKNOWN;
    o->network = CF_NET_UNKNOWN;
    o->rdma = o->gpudirect_rdma = o->non_blocking = o->rail_optimized = o->multinode = CF_CAP_UNKNOWN;
    o->in_network_reduction = CF_CAP_UNKNOWN;
}

static int is_string_kind(cf__col_kind k)
{
    switch (k) {
    case CF__COL_ID: case CF__COL_NAME: case CF__COL_TEXT: case CF__COL_GPU:
    case CF__COL_CURRENCY: case CF__COL_LIST: case CF__COL_URLS: case CF__COL_DATE:
        return 1;
    default:
        return 0;
    }
}

static int is_number_kind(cf__col_kind k)
{
    return k == CF__COL_INT_POS || k == CF__COL_INT_NONNEG || k == CF__COL_NUM_POS ||
           k == CF__COL_NUM_NONNEG;
}

void cf_offering_clear(cf_offering *o)
{
    if (!o) return;
    for (int c = 0; c < CF_OFFERING_NCOLS; c++) {
        if (!is_string_kind(cf__columns[c].kind)) continue;
        cf__free(*MEMBER(o, c, char *));
        *MEMBER(o, c, char *) = NULL;
    }
    cf__free(o->price_source);
    cf__free(o->provider_rating);
    cf__free(o->provider_provisioning);
    o->price_source = o->provider_rating = o->provider_provisioning = NULL;
}

void cf_offering_free(cf_offering *o)
{
    cf_offering_clear(o);
    cf__free(o);
}

void cf_offering_list_clear(cf_offering_list *l)
{
    if (!l) return;
    for (size_t i = 0; i < l->n; i++) cf_offering_clear(&l->items[i]);
    cf__free(l->items);
    l->items = NULL;
    l->n = 0;
}

cf_status cf__list_push(cf_offering_list *l, size_t *cap, cf_offering *o)
{
    if (l->n == *cap) {
        size_t ncap = *cap ? *cap * 2 : 16;
        cf_offering *p = cf__realloc(l->items, ncap * sizeof *p);
        if (!p) return CF_ENOMEM;
        l->items = p;
        *cap = ncap;
    }
    l->items[l->n++] = *o;
    return CF_OK;
}

/* ---- cell validation -------------------------------------------------- */

/* Writes v into buf cut at SHOWN bytes on a character boundary ("..."
 * marks a cut), in double quotes when `quote`. */
static void shown(const char *v, int quote, char *buf, size_t n)
{
    size_t len = strlen(v), cut = len;
    const char *q = quote ? "\"" : "";
    if (cut > SHOWN) {
        cut = SHOWN;
        while (cut > 0 && ((unsigned char)v[cut] & 0xc0) == 0x80) cut--;
    }
    snprintf(buf, n, "%s%.*s%s%s", q, (int)cut, v, cut < len ? "..." : "", q);
}

static int is_blank(char c) { return c == ' ' || c == '\t'; }

static int all_of(const char *s, const char *chars)
{
    return *s && strspn(s, chars) == strlen(s);
}

cf_status cf__parse_decimal(const char *s, double *out)
{
    /* The character check keeps out what strtod also reads: hex, inf, nan. */
    if (!all_of(s, "0123456789.eE+-")) return CF_EINVAL;
    return cf_parse_double(s, out);
}

int cf__is_currency(const char *s)
{
    return strlen(s) == 3 && all_of(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz");
}

/* Splits `v` on ';', trims blanks, drops empty elements and joins the rest
 * with `sep` into a new string (NULL on ENOMEM; "" when nothing is left).
 * When `urls`, every element must be an http(s) URL without blanks: *bad
 * is then set to 1 on the first that is not. */
static char *rejoin(const char *v, const char *sep, int urls, int *bad)
{
    size_t cap = strlen(v) * 2 + 1, used = 0;
    char *out = cf__malloc(cap);
    if (!out) return NULL;
    out[0] = '\0';
    *bad = 0;
    while (*v) {
        size_t len = strcspn(v, ";"), a = 0, b = len;
        while (a < b && is_blank(v[a])) a++;
        while (b > a && is_blank(v[b - 1])) b--;
        if (b > a) {
            if (urls) {
                int http = (b - a > 8 && strncmp(v + a, "https://", 8) == 0) ||
                           (b - a > 7 && strncmp(v + a, "http://", 7) == 0);
                for (size_t k = a; k < b; k++)
                    if (is_blank(v[k])) http = 0;
                if (!http) *bad = 1;
            }
            used += (size_t)snprintf(out + used, cap - used, "%s%.*s", used ? sep : "",
                                     (int)(b - a), v + a);
        }
        v += len;
        if (*v) v++;
    }
    return out;
}

static int is_slug(const char *v)
{
    size_t len = strlen(v);
    if (len == 0 || len > MAX_ID) return 0;
    if (!((v[0] >= 'a' && v[0] <= 'z') || (v[0] >= '0' && v[0] <= '9'))) return 0;
    return all_of(v, "abcdefghijklmnopqrstuvwxyz0123456789-._");
}

/* ---- storing a cell --------------------------------------------------------
 *
 * store() takes a trimmed, non-empty cell and sends it by its column's kind:
 * text kinds (check_text) are checked and may be put in a normal form
 * before the string is kept; the other kinds are parsed into their member
 * (set_number, set_vocab) and the text is dropped. Every rejection writes
 * "column: expected ..., got VALUE" with the value as the file wrote it. */

/* What the checks of one cell need to explain a rejection. */
typedef struct cell {
    const cf__column *col;  /* the column being set */
    const char *got;        /* the value as messages show it */
    const char *hint;       /* " (unknown is ...)" when the cell says unknown, else "" */
    char *why;              /* where a rejection is explained */
    size_t n;               /* bytes of why */
} cell;

/* A GPU of data/gpus.csv (hardware.h); *v becomes the table's spelling. */
static cf_status gpu_cell(const cell *k, char **v)
{
    const cf_gpu_spec *spec = NULL;
    cf_status g = cf_gpu_lookup(*v, &spec);
    char *name;
    if (g == CF_ENOTFOUND) {
        snprintf(k->why, k->n, "%s: expected one of %s, got %s", k->col->name, cf_gpu_accepted(),
                 k->got);
        return CF_EPARSE;
    }
    if (g != CF_OK) {
        snprintf(k->why, k->n, "%s: the GPU table (data/gpus.csv) could not be read",
                 k->col->name);
        return g;
    }
    name = cf__strdup(spec->name);
    if (!name) return CF_ENOMEM;
    cf__free(*v);
    *v = name;
    return CF_OK;
}

/* A ';'-separated list (regions) or URLs; *v becomes the rejoined list. */
static cf_status list_cell(const cell *k, char **v)
{
    int urls = k->col->kind == CF__COL_URLS, bad = 0;
    char *joined = rejoin(*v, urls ? "; " : ";", urls, &bad);
    if (!joined) return CF_ENOMEM;
    if (bad || !joined[0]) {
        cf__free(joined);
        snprintf(k->why, k->n, "%s: expected %s separated by ';', got %s", k->col->name,
                 urls ? "one or more http:// or https:// URLs" : "one or more names", k->got);
        return CF_EPARSE;
    }
    cf__free(*v);
    *v = joined;
    return CF_OK;
}

/* Checks a cell of a text kind; *v (still the caller's on every return)
 * may be replaced by its stored form. */
static cf_status check_text(const cell *k, char **v)
{
    const char *name = k->col->name;
    int y, m, d;
    switch (k->col->kind) {
    case CF__COL_ID:
        if (is_slug(*v)) return CF_OK;
        snprintf(k->why, k->n, "%s: expected a slug of lowercase letters, digits, '-', '.' and "
                 "'_' (at most %d bytes), got %s", name, MAX_ID, k->got);
        return CF_EPARSE;
    case CF__COL_GPU:
        return gpu_cell(k, v);
    case CF__COL_CURRENCY:
        if (!cf__is_currency(*v)) {
            snprintf(k->why, k->n, "%s: expected an ISO 4217 code such as USD or EUR, got %s%s",
                     name, k->got, k->hint);
            return CF_EPARSE;
        }
        for (char *p = *v; *p; p++)
            if (*p >= 'a' && *p <= 'z') *p = (char)(*p - 32);
        return CF_OK;
    case CF__COL_LIST:
    case CF__COL_URLS:
        return list_cell(k, v);
    case CF__COL_DATE:
        if (cf__date_parse(*v, &y, &m, &d) == 0) return CF_OK;
        snprintf(k->why, k->n, "%s: expected a date YYYY-MM or YYYY-MM-DD, got %s", name, k->got);
        return CF_EPARSE;
    default: /* CF__COL_NAME, CF__COL_TEXT: any text that passed the UTF-8 check */
        return CF_OK;
    }
}

/* The largest value of a whole-number column: each feeds the plan's
 * arithmetic (nodes x GPUs per node, NICs x line rate), so each has the
 * bound of limits.h the model's own checks use. */
static long int_max(const char *name)
{
    if (strcmp(name, "gpus_per_node") == 0) return CF_MAX_GPUS_PER_NODE;
    if (strcmp(name, "nics_per_node") == 0) return CF_MAX_NICS_PER_NODE;
    if (strcmp(name, "max_cluster_gpus") == 0) return CF_MAX_CLUSTER_GPUS;
    return CF_MAX_CLUSTER_GPUS;    /* no other whole-number column today */
}

/* A whole number (long member) or a decimal number (double member). */
static cf_status set_number(const cell *k, cf_offering *o, int c, const char *v)
{
    const char *name = k->col->name;
    long l;
    double x;
    if (k->col->kind == CF__COL_INT_POS || k->col->kind == CF__COL_INT_NONNEG) {
        long min = k->col->kind == CF__COL_INT_POS ? 1 : 0, max = int_max(name);
        if (!all_of(v[0] == '-' ? v + 1 : v, "0123456789") || cf_parse_long(v, &l) != CF_OK ||
            l < min || l > max) {
            snprintf(k->why, k->n, "%s: expected a whole number from %ld to %ld, got %s%s", name,
                     min, max, k->got, k->hint);
            return CF_EPARSE;
        }
        *MEMBER(o, c, long) = l;
        return CF_OK;
    }
    {
        int pos = k->col->kind == CF__COL_NUM_POS;
        if (cf__parse_decimal(v, &x) != CF_OK || (pos ? !(x > 0) : !(x >= 0))) {
            snprintf(k->why, k->n, "%s: expected a %s number, got %s%s", name,
                     pos ? "positive" : "non-negative", k->got, k->hint);
            return CF_EPARSE;
        }
        *MEMBER(o, c, double) = x == 0 ? 0.0 : x; /* no -0 */
        return CF_OK;
    }
}

/* A word of the vocabulary (vocab.h): intra-node link, network,
 * capability, or a ';'-separated set. */
static cf_status set_vocab(const cell *k, cf_offering *o, int c, const char *v)
{
    const char *name = k->col->name;
    cf_intra_link intra;
    cf_network net;
    cf_cap cap;
    unsigned mask = 0;
    switch (k->col->kind) {
    case CF__COL_INTRA:
        if (cf_intra_link_parse(v, &intra) != CF_OK) break;
        *MEMBER(o, c, cf_intra_link) = intra;
        return CF_OK;
    case CF__COL_NET:
        if (cf_network_parse(v, &net) != CF_OK) break;
        *MEMBER(o, c, cf_network) = net;
        return CF_OK;
    case CF__COL_CAP:
        if (cf_cap_parse(v, &cap) != CF_OK) break;
        *MEMBER(o, c, cf_cap) = cap;
        return CF_OK;
    case CF__COL_SET:
        if (cf_set_parse(k->col->set, v, ";", &mask) != CF_OK || mask == 0) break;
        *MEMBER(o, c, unsigned) = mask;
        *(int *)(void *)((char *)o + k->col->off_known) = 1;
        return CF_OK;
    default:
        snprintf(k->why, k->n, "%s: internal error: unknown column kind", name);
        return CF_EINTERNAL;
    }
    if (k->col->kind == CF__COL_SET)
        snprintf(k->why, k->n, "%s: expected ';'-separated values of %s, got %s%s", name,
                 cf_set_accepted(k->col->set), k->got, k->hint);
    else if (k->col->kind == CF__COL_CAP)
        snprintf(k->why, k->n, "%s: expected yes or no (or empty for unknown), got %s", name,
                 k->got);
    else
        snprintf(k->why, k->n, "%s: expected one of %s (or empty or null for unknown), got %s",
                 name, k->col->kind == CF__COL_INTRA ? cf_intra_link_accepted()
                                                     : cf_network_accepted(), k->got);
    return CF_EPARSE;
}

/* Validates the NUL-terminated, trimmed, non-empty value v of column c and
 * stores it; takes ownership of v (stored or freed). `got_text` (may be
 * NULL: v quoted) is how messages show the value. */
static cf_status store(cf_offering *o, int c, char *v, const char *got_text, char *why, size_t n)
{
    char got[SHOWN + 8];
    cell k;
    cf_status st;

    k.col = &cf__columns[c];
    k.got = got;
    k.hint = cf__strcasecmp(v, "unknown") == 0
                 ? " (unknown is an empty cell in CSV, null in JSON)" : "";
    k.why = why;
    k.n = n;
    shown(got_text ? got_text : v, !got_text, got, sizeof got);
    if (is_string_kind(k.col->kind)) {
        st = check_text(&k, &v);
        if (st == CF_OK) {
            cf__free(*MEMBER(o, c, char *));
            *MEMBER(o, c, char *) = v;
            return CF_OK;
        }
    } else if (is_number_kind(k.col->kind)) {
        st = set_number(&k, o, c, v);
    } else {
        st = set_vocab(&k, o, c, v);
    }
    cf__free(v);
    return st;
}

static void set_unknown(cf_offering *o, int c)
{
    const cf__column *col = &cf__columns[c];
    switch (col->kind) {
    case CF__COL_INT_POS: case CF__COL_INT_NONNEG: *MEMBER(o, c, long) = -1; break;
    case CF__COL_NUM_POS: case CF__COL_NUM_NONNEG: *MEMBER(o, c, double) = NAN; break;
    case CF__COL_INTRA: *MEMBER(o, c, cf_intra_link) = CF_INTRA_UNKNOWN; break;
    case CF__COL_NET: *MEMBER(o, c, cf_network) = CF_NET_UNKNOWN; break;
    case CF__COL_CAP: *MEMBER(o, c, cf_cap) = CF_CAP_UNKNOWN; break;
    case CF__COL_SET:
        *MEMBER(o, c, unsigned) = 0;
        *(int *)(void *)((char *)o + col->off_known) = 0;
        break;
    default:
        cf__free(*MEMBER(o, c, char *));
        *MEMBER(o, c, char *) = NULL;
    }
    cf__free(o->price_source);
    cf__free(o->provider_rating);
    cf__free(o->provider_provisioning);
    o->price_source = o->provider_rating = o->provider_provisioning = NULL;
}

cf_status cf__offering_set_cell(cf_offering *o, int c, const char *s, size_t len, char *why,
                                size_t n)
{
    return cf__offering_set_cell_got(o, c, s, len, NULL, why, n);
}

cf_status cf__offering_set_cell_got(cf_offering *o, int c, const char *s, size_t len,
                                    const char *got, char *why, size_t n)
{
    const cf__column *col = &cf__columns[c];
    size_t a = 0, b = len;
    long bad;
    char *v;

    while (a < b && is_blank(s[a])) a++;
    while (b > a && is_blank(s[b - 1])) b--;
    if (b - a > (size_t)CF_MAX_FIELD_BYTES) {
        snprintf(why, n, "%s: cell longer than %ld bytes (CF_MAX_FIELD_BYTES)", col->name,
                 CF_MAX_FIELD_BYTES);
        return CF_ELIMIT;
    }
    bad = cf__bad_utf8((const unsigned char *)s + a, b - a, col->kind == CF__COL_TEXT);
    if (bad >= 0) {
        unsigned char ch = (unsigned char)s[a + (size_t)bad];
        if (ch < 0x80)
            snprintf(why, n, "%s: control character 0x%02x at byte %ld of the cell", col->name,
                     ch, bad + 1);
        else
            snprintf(why, n, "%s: invalid UTF-8 at byte %ld of the cell", col->name, bad + 1);
        return CF_EPARSE;
    }
    if (b == a) {
        if (col->required) {
            snprintf(why, n, "%s: required, got an empty cell", col->name);
            return CF_EPARSE;
        }
        set_unknown(o, c);
        return CF_OK;
    }
    v = cf__strndup(s + a, b - a);
    if (!v) return CF_ENOMEM;
    return store(o, c, v, got, why, n);
}

int cf__offering_check_row(const cf_offering *o, const char *today, char *why, size_t n)
{
    long days;
    int priced = !isnan(o->price_on_demand_gpu_hr) || !isnan(o->price_reserved_gpu_hr) ||
                 !isnan(o->price_spot_gpu_hr);
    if (priced && !o->currency) {
        snprintf(why, n, "currency: required when a price is given (prices are never "
                 "without their currency), got an empty cell");
        return CF__COL_CURRENCY_INDEX;
    }
    /* A fact is dated when it was checked: a date after today is a typo
     * (2062 for 2026) or a month not yet reached, and would make ages
     * negative. YYYY-MM counts from its 1st, so the current month passes. */
    if (today && o->as_of && cf_age_days(o->as_of, today, &days) == CF_OK && days < 0) {
        snprintf(why, n, "as_of: expected a date no later than today (%s), got \"%s\"", today,
                 o->as_of);
        return CF__COL_AS_OF_INDEX;
    }
    /* price_as_of dates the prices: without a price it dates nothing. */
    if (o->price_as_of && !priced) {
        snprintf(why, n, "price_as_of: given without a price (on-demand, reserved or spot); "
                 "leave it empty, or add the price it dates");
        return CF__COL_PRICE_AS_OF_INDEX;
    }
    if (today && o->price_as_of && cf_age_days(o->price_as_of, today, &days) == CF_OK && days < 0) {
        snprintf(why, n, "price_as_of: expected a date no later than today (%s), got \"%s\"",
                 today, o->price_as_of);
        return CF__COL_PRICE_AS_OF_INDEX;
    }
    return -1;
}

/* ---- output ------------------------------------------------------------ */

double cf_offering_list_price(const cf_offering *o, int *reserved)
{
    int r = o && isnan(o->price_on_demand_gpu_hr) && !isnan(o->price_reserved_gpu_hr);
    if (reserved) *reserved = r;
    if (!o) return NAN;
    return r ? o->price_reserved_gpu_hr : o->price_on_demand_gpu_hr;
}

int cf_offering_column_unknown(const cf_offering *o, int c)
{
    if (c < 0 || c >= CF_OFFERING_NCOLS) return 1;
    switch (cf__columns[c].kind) {
    case CF__COL_INT_POS: case CF__COL_INT_NONNEG: return *CMEMBER(o, c, long) < 0;
    case CF__COL_NUM_POS: case CF__COL_NUM_NONNEG: return isnan(*CMEMBER(o, c, double));
    case CF__COL_INTRA: return *CMEMBER(o, c, cf_intra_link) == CF_INTRA_UNKNOWN;
    case CF__COL_NET: return *CMEMBER(o, c, cf_network) == CF_NET_UNKNOWN;
    case CF__COL_CAP: return *CMEMBER(o, c, cf_cap) == CF_CAP_UNKNOWN;
    case CF__COL_SET: return !*(const int *)(const void *)((const char *)o + cf__columns[c].off_known);
    default: return *CMEMBER(o, c, char *) == NULL;
    }
}

char *cf_offering_column_text(const cf_offering *o, int c, char *buf, size_t n)
{
    const cf__column *col;
    if (!buf || n == 0) return buf;
    buf[0] = '\0';
    if (!o || c < 0 || c >= CF_OFFERING_NCOLS || cf_offering_column_unknown(o, c)) return buf;
    col = &cf__columns[c];
    switch (col->kind) {
    case CF__COL_INT_POS: case CF__COL_INT_NONNEG:
        snprintf(buf, n, "%ld", *CMEMBER(o, c, long));
        break;
    case CF__COL_NUM_POS: case CF__COL_NUM_NONNEG:
        snprintf(buf, n, "%.15g", *CMEMBER(o, c, double));
        break;
    case CF__COL_INTRA: snprintf(buf, n, "%s", cf_intra_link_name(*CMEMBER(o, c, cf_intra_link))); break;
    case CF__COL_NET: snprintf(buf, n, "%s", cf_network_name(*CMEMBER(o, c, cf_network))); break;
    case CF__COL_CAP: snprintf(buf, n, "%s", cf_cap_name(*CMEMBER(o, c, cf_cap))); break;
    case CF__COL_SET: cf_set_format(col->set, *CMEMBER(o, c, unsigned), ";", buf, n); break;
    default: snprintf(buf, n, "%s", *CMEMBER(o, c, char *)); break;
    }
    return buf;
}

/* JSON array of the ';'-separated elements of s (already trimmed). */
static json_t *split_array(const char *s)
{
    json_t *a = json_array();
    if (!a) return NULL;
    while (*s) {
        size_t len = strcspn(s, ";");
        if (len > 0 && json_array_append_new(a, json_stringn(s, len)) != 0) goto fail;
        s += len;
        if (*s) s++;
    }
    return a;
fail:
    json_decref(a);
    return NULL;
}

static json_t *column_json(const cf_offering *o, int c)
{
    const cf__column *col = &cf__columns[c];
    if (cf_offering_column_unknown(o, c)) return json_null();
    switch (col->kind) {
    case CF__COL_INT_POS: case CF__COL_INT_NONNEG: return json_integer(*CMEMBER(o, c, long));
    case CF__COL_NUM_POS: case CF__COL_NUM_NONNEG: return json_real(*CMEMBER(o, c, double));
    case CF__COL_INTRA: return json_string(cf_intra_link_name(*CMEMBER(o, c, cf_intra_link)));
    case CF__COL_NET: return json_string(cf_network_name(*CMEMBER(o, c, cf_network)));
    case CF__COL_CAP: return json_string(cf_cap_name(*CMEMBER(o, c, cf_cap)));
    case CF__COL_SET: {
        json_t *a = json_array();
        unsigned mask = *CMEMBER(o, c, unsigned);
        for (unsigned bit = 1; a && bit && bit <= mask; bit <<= 1) {
            if (!(mask & bit)) continue;
            if (json_array_append_new(a, json_string(cf_set_elem_name(col->set, bit))) != 0) {
                json_decref(a);
                return NULL;
            }
        }
        return a;
    }
    case CF__COL_LIST: return split_array(*CMEMBER(o, c, char *));
    default: return json_string(*CMEMBER(o, c, char *));
    }
}

json_t *cf_offering_to_json(const cf_offering *o)
{
    json_t *j = json_object();
    if (!j || !o) goto fail;
    for (int c = 0; c < CF_OFFERING_NCOLS; c++) {
        json_t *v = column_json(o, c);
        if (!v || json_object_set_new(j, cf__columns[c].name, v) != 0) goto fail;
    }
    if (json_object_set_new(j, "origin", json_string(o->user_row ? "user" : "shipped")) != 0 ||
        json_object_set_new(j, "price_source", o->price_source ? json_string(o->price_source)
                                                               : json_null()) != 0 ||
        json_object_set_new(j, "provider_rating", o->provider_rating
                                                      ? json_string(o->provider_rating)
                                                      : json_null()) != 0)
        goto fail;
    return j;
fail:
    json_decref(j);
    return NULL;
}
