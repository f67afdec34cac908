/* gpus.c — the GPU table (data/gpus.csv, embedded at build time): every
 * fact about a GPU model, including its host link (host_c2c), usual node
 * size (gpus_per_node), usual intra-node link and device names.
 *
 * The table is parsed on first use under a mutex and kept for the life of
 * the process: lookups hand out borrowed pointers into it, so it is never
 * freed (it stays reachable from the statics below). A failed build (out of
 * memory) leaves nothing behind and is retried by the next call; a malformed
 * embedded file is a build defect reported as CF_EINTERNAL (so is a row
 * without a valid host_c2c, gpus_per_node or intra_link: facts the model,
 * `fit` and the audit rely on). Columns are read by header name, so the
 * data file may add columns. */
#include <ctype.h>
#include <math.h>
#include <pthread.h>
#include <string.h>
#include "clusterfit/hardware.h"
#include "clusterfit/limits.h"
#include "clusterfit/units.h"
#include "base/base.h"

#define GPN_MAX 1024    /* sanity bound on gpus_per_node (a 1024-GPU node) */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static cf__csv_table table;        /* owns every string the specs point to */
static cf_gpu_spec *specs;
static size_t nspecs;
static char *accepted;
static int loaded;

static double num_or_nan(const char *s)
{
    double v;
    if (!s || !*s) return NAN;
    return cf_parse_double(s, &v) == CF_OK ? v : NAN;
}

/* A required whole number in [lo, hi]; -1 when empty, not a number or out
 * of range. */
static int int_in(const char *s, int lo, int hi)
{
    double v = num_or_nan(s);
    if (isnan(v) || v != floor(v) || v < lo || v > hi) return -1;
    return (int)v;
}

static cf_status build(void)
{
    size_t len = 0, cap = 1;
    const char *data = cf__embedded_find("data/gpus.csv", &len);
    cf_error err;
    cf_status st;
    int c_gpu, c_vendor, c_mem, c_hbm, c_bf16, c_fp16, c_fp8, c_nvl, c_pcie, c_src, c_asof;
    int c_c2c, c_gpn, c_intra, c_dev;
    if (!data) return CF_EINTERNAL;
    st = cf__csv_table_parse(data, len, "data/gpus.csv", (size_t)CF_MAX_GPUS, &table, &err);
    if (st != CF_OK) return st == CF_ENOMEM ? st : CF_EINTERNAL;
    c_gpu = cf__csv_col(&table, "gpu");
    c_vendor = cf__csv_col(&table, "vendor");
    c_mem = cf__csv_col(&table, "memory_gb");
    c_hbm = cf__csv_col(&table, "hbm_GBps");
    c_bf16 = cf__csv_col(&table, "bf16_dense_tflops");
    c_fp16 = cf__csv_col(&table, "fp16_dense_tflops");
    c_fp8 = cf__csv_col(&table, "fp8_dense_tflops");
    c_nvl = cf__csv_col(&table, "nvlink_GBps_per_gpu");
    c_pcie = cf__csv_col(&table, "pcie_gen");
    c_c2c = cf__csv_col(&table, "host_c2c");
    c_gpn = cf__csv_col(&table, "gpus_per_node");
    c_intra = cf__csv_col(&table, "intra_link");
    c_dev = cf__csv_col(&table, "device_names");
    c_src = cf__csv_col(&table, "source_url");
    c_asof = cf__csv_col(&table, "as_of");
    if (c_gpu < 0 || c_c2c < 0 || c_gpn < 0 || c_intra < 0 || c_dev < 0 || table.nrows == 0) {
        st = CF_EINTERNAL;
        goto fail;
    }
    specs = cf__calloc(table.nrows, sizeof *specs);
    if (!specs) { st = CF_ENOMEM; goto fail; }
    for (size_t i = 0; i < table.nrows; i++) {
        cf_gpu_spec *g = &specs[i];
        double nvl = num_or_nan(cf__csv_cell(&table, i, c_nvl));
        double pcie = num_or_nan(cf__csv_cell(&table, i, c_pcie));
        g->name = cf__csv_cell(&table, i, c_gpu);
        if (!*g->name) { st = CF_EINTERNAL; goto fail; }
        g->vendor = cf__csv_cell(&table, i, c_vendor);
        g->memory_gb = num_or_nan(cf__csv_cell(&table, i, c_mem));
        g->hbm_GBps = num_or_nan(cf__csv_cell(&table, i, c_hbm));
        g->bf16_tflops = num_or_nan(cf__csv_cell(&table, i, c_bf16));
        g->fp16_tflops = num_or_nan(cf__csv_cell(&table, i, c_fp16));
        g->fp8_tflops = num_or_nan(cf__csv_cell(&table, i, c_fp8));
        g->nvlink_GBps = isnan(nvl) ? 0 : nvl;
        g->pcie_gen = isnan(pcie) ? 0 : (int)pcie;
        g->host_c2c = int_in(cf__csv_cell(&table, i, c_c2c), 0, 1);
        g->gpus_per_node = int_in(cf__csv_cell(&table, i, c_gpn), 1, GPN_MAX);
        g->device_names = cf__csv_cell(&table, i, c_dev);
        if (g->host_c2c < 0 || g->gpus_per_node < 0 ||
            cf_intra_link_parse(cf__csv_cell(&table, i, c_intra), &g->intra_link) != CF_OK) {
            st = CF_EINTERNAL;      /* a required fact missing or malformed */
            goto fail;
        }
        g->source_url = cf__csv_cell(&table, i, c_src);
        g->as_of = cf__csv_cell(&table, i, c_asof);
        cap += strlen(g->name) + 2;
    }
    accepted = cf__malloc(cap);
    if (!accepted) { st = CF_ENOMEM; goto fail; }
    accepted[0] = '\0';
    for (size_t i = 0, used = 0; i < table.nrows; i++) {
        size_t n = strlen(specs[i].name);
        if (i) { memcpy(accepted + used, ", ", 2); used += 2; }
        memcpy(accepted + used, specs[i].name, n + 1);
        used += n;
    }
    nspecs = table.nrows;
    return CF_OK;
fail:
    cf__free(specs);
    specs = NULL;
    cf__csv_table_clear(&table);
    return st;
}

static cf_status ensure(void)
{
    cf_status st = CF_OK;
    pthread_mutex_lock(&lock);
    if (!loaded) {
        st = build();
        if (st == CF_OK) loaded = 1;
    }
    pthread_mutex_unlock(&lock);
    return st;
}

cf_status cf_gpu_lookup(const char *name, const cf_gpu_spec **out)
{
    cf_status st = ensure();
    if (st != CF_OK) return st;
    if (!name) return CF_ENOTFOUND;
    for (size_t i = 0; i < nspecs; i++) {
        if (cf__strcasecmp(specs[i].name, name) == 0) {
            if (out) *out = &specs[i];
            return CF_OK;
        }
    }
    return CF_ENOTFOUND;
}

/* Length of the longest '|'-separated entry of `list` that occurs in
 * `device` (case-sensitive); 0 when none does. */
static size_t longest_match(const char *list, const char *device)
{
    size_t best = 0, dlen = strlen(device);
    const char *p = list;
    while (*p) {
        const char *bar = strchr(p, '|');
        size_t n = bar ? (size_t)(bar - p) : strlen(p);
        if (n > best && n <= dlen) {
            for (size_t at = 0; at + n <= dlen; at++) {
                if (memcmp(device + at, p, n) == 0) {
                    best = n;
                    break;
                }
            }
        }
        if (!bar) break;
        p = bar + 1;
    }
    return best;
}

cf_status cf_gpu_from_device_name(const char *device, const cf_gpu_spec **out)
{
    cf_status st = ensure();
    size_t best = 0, best_i = 0;
    if (st != CF_OK) return st;
    if (!device) return CF_ENOTFOUND;
    for (size_t i = 0; i < nspecs; i++) {
        size_t n = longest_match(specs[i].device_names, device);
        if (n > best) {             /* strictly longer: ties keep file order */
            best = n;
            best_i = i;
        }
    }
    if (best == 0) return CF_ENOTFOUND;
    if (out) *out = &specs[best_i];
    return CF_OK;
}

const char *cf_gpu_accepted(void)
{
    return ensure() == CF_OK ? accepted : "";
}

/* Case-insensitive Levenshtein distance of a and b (both under 64 bytes). */
static size_t edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b), row[64];
    for (size_t j = 0; j <= lb; j++) row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            int same = tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 1]);
            size_t best = diag + (same ? 0 : 1);
            if (up + 1 < best) best = up + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

const char *cf_gpu_suggest(const char *name)
{
    size_t best = (size_t)-1, n;
    const char *pick = NULL;
    if (!name || ensure() != CF_OK || (n = strlen(name)) == 0 || n > 63) return NULL;
    for (size_t i = 0; i < nspecs; i++) {
        size_t d;
        if (strlen(specs[i].name) > 63) continue;
        d = edit_distance(name, specs[i].name);
        if (d < best) {
            best = d;
            pick = specs[i].name;
        }
    }
    return best <= 3 && 2 * best < n ? pick : NULL;
}

/* Whether `s` starts with the n bytes of `prefix`, case-insensitively. */
static int starts_nocase(const char *s, const char *prefix, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!s[i] || tolower((unsigned char)s[i]) != tolower((unsigned char)prefix[i])) return 0;
    return 1;
}

size_t cf_gpu_variants(const char *name, char *buf, size_t cap)
{
    size_t n, count = 0, used = 0;
    if (buf && cap) buf[0] = '\0';
    if (!name || ensure() != CF_OK || (n = strlen(name)) == 0 || n > 63) return 0;
    for (size_t i = 0; i < nspecs; i++)
        if (cf__strcasecmp(specs[i].name, name) == 0) return 0;
    for (size_t i = 0; i < nspecs; i++) {
        const char *s = specs[i].name;
        if (strlen(s) <= n || !starts_nocase(s, name, n) || isdigit((unsigned char)s[n])) continue;
        if (buf && used < cap)
            used += (size_t)snprintf(buf + used, cap - used, "%s%s", count ? ", " : "", s);
        count++;
    }
    return count;
}

const char *cf_gpu_unknown_hint(const char *name, char *buf, size_t cap)
{
    char list[256];
    size_t k = cf_gpu_variants(name, list, sizeof list);
    const char *near;
    if (!buf || !cap) return buf;
    buf[0] = '\0';
    if (k > 1) snprintf(buf, cap, "%.63s names a part sold as %s: give one", name, list);
    else if (k == 1) snprintf(buf, cap, "did you mean %s?", list);
    else if ((near = cf_gpu_suggest(name)) != NULL) snprintf(buf, cap, "did you mean %s?", near);
    return buf;
}

/* The table's dense tensor peak of g at precision p, TFLOP/s (NAN or 0 =
 * not stated). */
static double peak_at(const cf_gpu_spec *g, cf_precision p)
{
    return p == CF_PREC_FP8 ? g->fp8_tflops : p == CF_PREC_FP16 ? g->fp16_tflops : g->bf16_tflops;
}

cf_precision cf_gpu_precision(const cf_gpu_spec *g, cf_precision want)
{
    if (!g || peak_at(g, want) > 0) return want;
    if (g->bf16_tflops > 0) return CF_PREC_BF16;
    if (g->fp16_tflops > 0) return CF_PREC_FP16;
    return want;
}

/* "FP8" for the sentences. */
static const char *prec_upper(cf_precision p)
{
    return p == CF_PREC_FP8 ? "FP8" : p == CF_PREC_FP16 ? "FP16" : "BF16";
}

const char *cf_precision_note(const cf_gpu_spec *g, cf_precision want, const char *name,
                              char *buf, size_t cap)
{
    cf_precision got = cf_gpu_precision(g, want);
    if (!buf || !cap) return buf;
    buf[0] = '\0';
    if (got == want) return buf;
    snprintf(buf, cap, "%s trains in %s, which %s has no tensor cores for%s: its step is computed "
             "at the %s peak; memory counts the precision the workload states",
             name ? name : "the workload", prec_upper(want), g->name,
             got == CF_PREC_FP16 && want != CF_PREC_BF16 ? " (nor BF16)" : "", prec_upper(got));
    return buf;
}

size_t cf_gpu_count(void)
{
    return ensure() == CF_OK ? nspecs : 0;
}

const cf_gpu_spec *cf_gpu_at(size_t i)
{
    if (ensure() != CF_OK || i >= nspecs) return NULL;
    return &specs[i];
}
