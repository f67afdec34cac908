/* cluster.c — the cluster side of the probe: the pair schedule every rank
 * computes alike (no message needed to agree on it), and cf_probe_cluster,
 * which judges what the MPI front end gathered: do the nodes agree, which
 * pairs and nodes are slow, which ranks never answered. */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "base/base.h"
#include "probe/probe_int.h"

long cf_probe_rounds(long n)
{
    if (n < 2 || n > CF_PROBE_MAX_PARTICIPANTS) return 0;
    if (n <= CF_PROBE_ALL_PAIRS_MAX) return n % 2 ? n : n - 1;
    return 3 + CF_PROBE_SAMPLE_ROUNDS;
}

const char *cf_probe_schedule_name(long n)
{
    return n <= CF_PROBE_ALL_PAIRS_MAX ? "all-pairs" : "ring+sample";
}

/* splitmix64 (Steele, Lea, Flood 2014): a fixed, portable generator, so
 * every rank draws the same matchings. */
static uint64_t mix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Round `s` of the sample: a random perfect matching (shuffle, then pair
 * positions 2k and 2k+1). */
static long sampled(long n, long s, long me)
{
    long *perm = cf__malloc((size_t)n * sizeof *perm), pos = -1, partner;
    uint64_t seed = 0x636c7573746572ULL + (uint64_t)s;     /* "cluster" + round */
    if (!perm) return -1;
    for (long i = 0; i < n; i++) perm[i] = i;
    for (long i = n - 1; i > 0; i--) {
        long j = (long)(mix(&seed) % (uint64_t)(i + 1)), t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    for (long i = 0; i < n; i++)
        if (perm[i] == me) pos = i;
    partner = (pos ^ 1) < n ? perm[pos ^ 1] : -1;
    cf__free(perm);
    return partner;
}

long cf_probe_partner(long n, long round, long me)
{
    long rounds = cf_probe_rounds(n);
    if (rounds == 0 || round < 0 || round >= rounds || me < 0 || me >= n) return -1;
    if (n <= CF_PROBE_ALL_PAIRS_MAX) {
        /* Round-robin: with q = m - 1 (m = n, or n + 1 with a dummy when n
         * is odd), i and j < q meet in round (i + j) mod q, and i meets q in
         * the round where 2i = round mod q; every pair once. */
        long q = (n % 2 ? n + 1 : n) - 1, partner;
        if (me == q) {
            partner = (round * ((q + 1) / 2)) % q;
        } else {
            long j = ((round - me) % q + q) % q;
            partner = j == me ? q : j;
        }
        return partner < n ? partner : -1;
    }
    if (round == 0) return me % 2 == 0 ? (me + 1 < n ? me + 1 : -1) : me - 1;
    if (round == 1) return me % 2 == 1 ? (me + 1 < n ? me + 1 : -1) : (me > 0 ? me - 1 : -1);
    if (round == 2) return me == 0 ? n - 1 : me == n - 1 ? 0 : -1;
    return sampled(n, round - 3, me);
}

/* ------------------------------------------------------ agreement */

/* The facts compared across nodes, each as one string per node. */
enum { K_GPUS, K_MODEL, K_PORTS, K_RATES, K_FW, K_DRIVER, K_GDR, K_ENV, K__N };
static const char *const key_names[K__N] = {"GPU count", "GPU model", "RDMA ports", "active port rates",
                                            "NIC firmware", "driver", "GPUDirect RDMA", "NCCL/FI environment"};

/* Appends printf-formatted text at out + *l (cap bytes in all); once
 * full, nothing more (never a pointer past the buffer). */
static void cat(char *out, size_t cap, size_t *l, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static void cat(char *out, size_t cap, size_t *l, const char *fmt, ...)
{
    va_list ap;
    int w;
    if (*l + 1 >= cap) return;
    va_start(ap, fmt);
    w = vsnprintf(out + *l, cap - *l, fmt, ap);
    va_end(ap);
    *l = w < 0 || (size_t)w >= cap - *l ? cap - 1 : *l + (size_t)w;
}

static int by_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The distinct values of field `f` of the array `arr`'s objects, sorted,
 * ", "-joined (numbers as "%g"; for rates only active ports, "N x R"). */
static void distinct(const json_t *arr, const char *f, int rates, char *out, size_t cap)
{
    const char *vals[CF_MAX_PROBE_PORTS];
    char nums[CF_MAX_PROBE_PORTS][32];
    size_t n = 0, i, l = 0;
    const json_t *v;
    out[0] = '\0';
    json_array_foreach(arr, i, v) {
        const json_t *x = json_object_get(v, f);
        if (n >= (size_t)CF_MAX_PROBE_PORTS) break;
        if (rates) {
            const char *st = json_string_value(json_object_get(v, "state"));
            if (!st || strcmp(st, "active") != 0) continue;
        }
        if (json_is_string(x)) vals[n++] = json_string_value(x);
        else if (json_is_number(x)) {
            snprintf(nums[n], sizeof nums[n], "%g", json_number_value(x));
            vals[n] = nums[n];
            n++;
        }
    }
    qsort(vals, n, sizeof vals[0], by_str);
    for (i = 0; i < n;) {
        size_t k = i;
        while (k < n && strcmp(vals[k], vals[i]) == 0) k++;
        if (rates) cat(out, cap, &l, "%s%zu x %s", l ? ", " : "", k - i, vals[i]);
        else cat(out, cap, &l, "%s%s", l ? ", " : "", vals[i]);
        if (l + 1 >= cap) break;
        i = k;
    }
    if (!out[0]) cf__copy(out, cap, rates ? "none active" : "unknown");
}

static void node_key(const json_t *node, int k, char *out, size_t cap)
{
    const json_t *gpus = json_object_get(node, "gpus"), *nics = json_object_get(node, "nics");
    const char *s;
    char *env;
    switch (k) {
    case K_GPUS: snprintf(out, cap, "%zu", json_array_size(gpus)); return;
    case K_MODEL: distinct(gpus, "model", 0, out, cap); return;
    case K_PORTS: snprintf(out, cap, "%zu", json_array_size(nics)); return;
    case K_RATES: distinct(nics, "rate_gbps", 1, out, cap); return;
    case K_FW: distinct(nics, "fw_ver", 0, out, cap); return;
    case K_DRIVER:
        s = json_string_value(json_object_get(node, "driver"));
        cf__copy(out, cap, s ? s : "unknown");
        return;
    case K_GDR:
        s = json_string_value(json_object_get(node, "gdr"));
        cf__copy(out, cap, s ? s : "unknown");
        return;
    default:
        env = json_dumps(json_object_get(node, "env"), JSON_COMPACT | JSON_SORT_KEYS);
        cf__copy(out, cap, env ? env : "{}");
        free(env);
    }
}

static const char *host_of(const json_t *node)
{
    const char *h = json_string_value(json_object_get(node, "hostname"));
    return h ? h : "unknown";
}

/* Hosts of the nodes whose value is vals[v], up to 8 named, into out. */
static void hosts_with(json_t *const *nodes, size_t n, char (*vals)[512], const char *v, char *out, size_t cap)
{
    size_t l = 0, named = 0, more = 0;
    out[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        if (strcmp(vals[i], v) != 0) continue;
        if (named < 8) {
            cat(out, cap, &l, "%s%s", named ? ", " : "", host_of(nodes[i]));
            named++;
        } else {
            more++;
        }
    }
    if (more) cat(out, cap, &l, " and %zu more", more);
}

static int agreement(json_t *findings, json_t *const *nodes, size_t n)
{
    char (*vals)[512] = cf__calloc(n, sizeof *vals);
    if (!vals) return -1;
    for (int k = 0; k < K__N; k++) {
        size_t best = 0, best_count = 0;
        int tie = 0;
        for (size_t i = 0; i < n; i++) node_key(nodes[i], k, vals[i], sizeof vals[i]);
        for (size_t i = 0; i < n; i++) {
            size_t c = 0;
            for (size_t j = 0; j < n; j++) c += strcmp(vals[i], vals[j]) == 0;
            if (c > best_count) {
                best = i;
                best_count = c;
                tie = 0;
            } else if (c == best_count && strcmp(vals[i], vals[best]) != 0) {
                tie = 1;
            }
        }
        if (best_count == n) continue;
        /* Each value other than the majority's, with its hosts. */
        for (size_t i = 0; i < n; i++) {
            char hosts[512], norm[512];
            int seen = 0;
            if (strcmp(vals[i], vals[best]) == 0) continue;
            for (size_t j = 0; j < i; j++) seen |= strcmp(vals[j], vals[i]) == 0;
            if (seen) continue;
            hosts_with(nodes, n, vals, vals[i], hosts, sizeof hosts);
            hosts_with(nodes, n, vals, vals[best], norm, sizeof norm);
            if (cf__probe_add_finding(findings, CF__PCODE_NODE_MISMATCH, "%s: %s %s; %s %s (%zu of %zu nodes)%s", hosts,
                                      key_names[k], vals[i], tie ? "but" : "the others,", vals[best],
                                      best_count, n, tie ? ": no majority" : "") != 0) {
                cf__free(vals);
                return -1;
            }
        }
    }
    cf__free(vals);
    return 0;
}

/* ------------------------------------------------------------ pairs */

static int by_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static const char *host_of_rank(json_t *const *nodes, size_t n, int rank)
{
    for (size_t i = 0; i < n; i++) {
        size_t k;
        const json_t *r;
        json_array_foreach(json_object_get(nodes[i], "ranks"), k, r)
            if (json_integer_value(r) == rank) return host_of(nodes[i]);
    }
    return "unknown";
}

/* SLOW_PAIR for each pair under the threshold (32 named, then a count),
 * SLOW_NODE for a rank all of whose >= 2 pairs are slow, RANK_TIMEOUT for
 * failed pairs. Returns the median (NAN without finite pairs). */
static double judge_pairs(json_t *findings, const cf_probe_cluster_in *in)
{
    double *bw = cf__malloc((in->n_pairs + 1) * sizeof *bw), med = NAN, cut;
    size_t nf = 0, named = 0, slow = 0;
    char failed[512] = "";
    if (!bw) return NAN;
    for (size_t i = 0; i < in->n_pairs; i++) {
        if (isfinite(in->pairs[i].bandwidth_GBps)) bw[nf++] = in->pairs[i].bandwidth_GBps;
        else {
            size_t l = strlen(failed);
            if (l + 24 < sizeof failed)
                snprintf(failed + l, sizeof failed - l, "%s%d-%d", l ? ", " : "", in->pairs[i].a, in->pairs[i].b);
        }
    }
    if (failed[0])
        cf__probe_add_finding(findings, CF__PCODE_RANK_TIMEOUT, "pair tests between ranks %s got no answer within %g s",
                              failed, in->timeout_s);
    if (nf) {
        qsort(bw, nf, sizeof *bw, by_double);
        med = nf % 2 ? bw[nf / 2] : (bw[nf / 2 - 1] + bw[nf / 2]) / 2;
    }
    cf__free(bw);
    /* Pairs between ranks of one host measure its shared memory and CPU
     * share, not a link: reported, not judged. */
    if (nf < 3 || strcmp(in->pair_scope ? in->pair_scope : "nodes", "nodes") != 0) return med;
    cut = med * CF_PROBE_SLOW_PAIR_PCT / 100.0;
    for (size_t i = 0; i < in->n_pairs; i++) {
        const cf_probe_pair *p = &in->pairs[i];
        if (!isfinite(p->bandwidth_GBps) || p->bandwidth_GBps >= cut) continue;
        slow++;
        if (named++ < 32)
            cf__probe_add_finding(findings, CF__PCODE_SLOW_PAIR,
                                  "ranks %d (%s) and %d (%s): %.2f GB/s, %.0f %% of the median %.2f GB/s", p->a,
                                  host_of_rank(in->nodes, in->n_nodes, p->a), p->b,
                                  host_of_rank(in->nodes, in->n_nodes, p->b), p->bandwidth_GBps,
                                  100.0 * p->bandwidth_GBps / med, med);
    }
    if (named > 32)
        cf__probe_add_finding(findings, CF__PCODE_SLOW_PAIR, "and %zu more slow pairs (see pairs[])", named - 32);
    for (size_t i = 0; slow && i < in->n_pairs * 2; i++) {
        int r = i % 2 ? in->pairs[i / 2].b : in->pairs[i / 2].a, dup = 0;
        size_t mine = 0, mine_slow = 0;
        for (size_t k = 0; k < i; k++) dup |= (k % 2 ? in->pairs[k / 2].b : in->pairs[k / 2].a) == r;
        if (dup) continue;
        for (size_t k = 0; k < in->n_pairs; k++) {
            const cf_probe_pair *p = &in->pairs[k];
            if ((p->a != r && p->b != r) || !isfinite(p->bandwidth_GBps)) continue;
            mine++;
            mine_slow += p->bandwidth_GBps < cut;
        }
        if (mine >= 2 && mine_slow == mine)
            cf__probe_add_finding(findings, CF__PCODE_SLOW_NODE,
                                  "rank %d (%s): all %zu of its pairs under %.0f %% of the median", r,
                                  host_of_rank(in->nodes, in->n_nodes, r), mine, CF_PROBE_SLOW_PAIR_PCT);
    }
    return med;
}

static json_t *pairs_json(const cf_probe_cluster_in *in)
{
    json_t *a = json_array();
    for (size_t i = 0; a && i < in->n_pairs; i++) {
        const cf_probe_pair *p = &in->pairs[i];
        json_t *o = json_object();
        int bad = cf__json_set(o, "a", json_integer(p->a)) | cf__json_set(o, "b", json_integer(p->b)) |
                  cf__json_set(o, "a_host", json_string(host_of_rank(in->nodes, in->n_nodes, p->a))) |
                  cf__json_set(o, "b_host", json_string(host_of_rank(in->nodes, in->n_nodes, p->b))) |
                  cf__json_set(o, "bandwidth_GBps", cf__json_num(p->bandwidth_GBps)) |
                  cf__json_set(o, "latency_us", cf__json_num(p->latency_us));
        if (bad || json_array_append_new(a, o) != 0) {
            json_decref(a);
            return NULL;
        }
    }
    return a;
}

cf_status cf_probe_cluster(const cf_probe_cluster_in *in, json_t **out, cf_error *err)
{
    json_t *o, *nodes, *findings;
    int bad = 0;
    size_t participants;
    double med;
    if (!out) return CF_EINVAL;
    *out = NULL;
    if (!in || (in->n_nodes && !in->nodes) || (in->n_pairs && !in->pairs) || (in->n_missing && !in->missing)) {
        cf_error_set(err, NULL, 0, 0, "cf_probe_cluster: NULL input");
        return CF_EINVAL;
    }
    for (size_t i = 0; i < in->n_nodes; i++)
        if (!json_is_object(in->nodes[i])) {
            cf_error_set(err, NULL, 0, 0, "cf_probe_cluster: node %zu is not a report", i);
            return CF_EINVAL;
        }
    o = json_object();
    nodes = json_array();
    findings = json_array();
    if (in->n_missing) {
        char list[512] = "";
        for (size_t i = 0; i < in->n_missing; i++) {
            size_t l = strlen(list);
            if (l + 40 >= sizeof list) {
                snprintf(list + l, sizeof list - l, " and %zu more", in->n_missing - i);
                break;
            }
            snprintf(list + l, sizeof list - l, "%s%d", l ? ", " : "", in->missing[i]);
        }
        bad |= cf__probe_add_finding(findings, CF__PCODE_RANK_TIMEOUT,
                                     "rank(s) %s did not report within %g s; the other ranks' reports follow", list,
                                     in->timeout_s);
    }
    if (in->n_nodes >= 2) bad |= agreement(findings, in->nodes, in->n_nodes);
    for (size_t i = 0; i < in->n_nodes; i++) {
        size_t k;
        json_t *f;
        bad |= json_array_append_new(nodes, json_deep_copy(in->nodes[i]));
        json_array_foreach(json_object_get(in->nodes[i], "findings"), k, f) {
            json_t *c = json_deep_copy(f);
            bad |= cf__json_set(c, "node", json_string(host_of(in->nodes[i])));
            bad |= json_array_append_new(findings, c);
        }
    }
    med = judge_pairs(findings, in);
    participants = strcmp(in->pair_scope ? in->pair_scope : "", "ranks") == 0 ? (size_t)in->ranks : in->n_nodes;
    bad |= cf__json_set(o, "kind", json_string("cluster"));
    bad |= cf__json_set(o, "ranks", json_integer(in->ranks));
    bad |= cf__json_set(o, "hosts", json_integer((json_int_t)in->n_nodes));
    bad |= cf__json_set(o, "pair_scope", json_string(in->pair_scope ? in->pair_scope : "nodes"));
    bad |= cf__json_set(o, "schedule", json_string(cf_probe_schedule_name((long)participants)));
    bad |= cf__json_set(o, "timeout_s", cf__json_num(in->timeout_s));
    bad |= cf__json_set(o, "gather_s", cf__json_num(in->gather_s));
    bad |= cf__json_set(o, "pairs_s", cf__json_num(in->pairs_s));
    bad |= cf__json_set(o, "nodes", nodes);
    bad |= cf__json_set(o, "pairs", pairs_json(in));
    bad |= cf__json_set(o, "median_bandwidth_GBps", cf__json_num(med));
    bad |= cf__json_set(o, "status", json_string(cf__probe_status_of(findings)));
    bad |= cf__json_set(o, "findings", findings);
    if (bad) {
        json_decref(o);
        return CF_ENOMEM;
    }
    *out = o;
    return CF_OK;
}
