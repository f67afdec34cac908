/* test_probe.c — the pieces of lib/probe: the PCI path classification
 * (nvidia-smi topo -m words), the RDMA sysfs words, the ACS parser, the
 * pair schedule, the finding codes against the man page
 * (docs/man/31-probe.man), and cf_probe_node on a saved tree with
 * allocation failures injected. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "probe/probe_int.h"
#include "../testutil.h"

#define ROOTC "/sys/devices/pci0000:15/0000:15:01.0/0000:16:00.0"

static void pci_paths(void **state)
{
    const char *gpu = ROOTC "/0000:17:00.0/0000:18:00.0";
    const char *nic = ROOTC "/0000:17:01.0/0000:19:00.0";
    (void)state;
    assert_int_equal(cf__pci_path_between(gpu, 0, nic, 0), CF__PATH_PIX);
    /* two switch levels on one side */
    assert_int_equal(cf__pci_path_between(ROOTC "/0000:17:02.0/0000:20:00.0/0000:21:00.0/0000:22:00.0", 0, nic, 0),
                     CF__PATH_PXB);
    /* two root ports of one host bridge */
    assert_int_equal(cf__pci_path_between(gpu, 0, "/sys/devices/pci0000:15/0000:15:02.0/0000:30:00.0", 0),
                     CF__PATH_PHB);
    assert_int_equal(cf__pci_path_between(gpu, 0, "/sys/devices/pci0000:37/0000:37:01.0/0000:3b:00.0", 0),
                     CF__PATH_NODE);
    assert_int_equal(cf__pci_path_between(gpu, 0, "/sys/devices/pci0000:97/0000:97:01.0/0000:9b:00.0", 1),
                     CF__PATH_SYS);
    /* NUMA unknown: NODE, not SYS */
    assert_int_equal(cf__pci_path_between(gpu, -1, "/sys/devices/pci0000:97/0000:97:01.0/0000:9b:00.0", 1),
                     CF__PATH_NODE);
    /* Hyper-V: the pci root sits below VMBus components */
    assert_int_equal(cf__pci_path_between("/sys/devices/LNXSYSTM:00/VMBUS:00/abc/pci0001:00/0001:00:00.0", 0,
                                          "/sys/devices/LNXSYSTM:00/VMBUS:00/def/pci0101:00/0101:00:00.0", 0),
                     CF__PATH_NODE);
    assert_int_equal(cf__pci_path_between("/sys/devices/virtual/net/lo", 0, nic, 0), CF__PATH_UNKNOWN);
    assert_string_equal(cf__pci_path_name(CF__PATH_PXB), "PXB");
    {
        char br[8][16];
        size_t n = cf__pci_bridges_between(gpu, nic, br, 8);
        assert_int_equal(n, 3);
        assert_string_equal(br[0], "0000:16:00.0");
        assert_string_equal(br[1], "0000:17:00.0");
        assert_string_equal(br[2], "0000:17:01.0");
    }
    assert_true(cf__is_bdf("0000:af:00.1"));
    assert_false(cf__is_bdf("0000:af:00"));
    assert_false(cf__is_bdf("pci0000:00"));
}

static void sysfs_words(void **state)
{
    char w[32];
    (void)state;
    cf__sysfs_state_word("4: ACTIVE", w, sizeof w);
    assert_string_equal(w, "active");
    cf__sysfs_state_word("5: LinkUp", w, sizeof w);
    assert_string_equal(w, "linkup");
    cf__sysfs_state_word("DOWN", w, sizeof w);
    assert_string_equal(w, "down");
    cf__sysfs_state_word("4: ACTIVE_DEFER", w, 4);
    assert_string_equal(w, "act");
    assert_true(cf__sysfs_rate_gbps("400 Gb/sec (4X NDR)") == 400);
    assert_true(cf__sysfs_rate_gbps("2.5 Gb/sec (1X SDR)") == 2.5);
    assert_true(cf__sysfs_rate_gbps("100 Gb/sec") == 100);
    assert_true(isnan(cf__sysfs_rate_gbps("fast")));
    assert_true(isnan(cf__sysfs_rate_gbps("400 Mb/sec")));
    assert_true(isnan(cf__sysfs_rate_gbps("")));
}

static void acs_parser(void **state)
{
    unsigned char cfg[4096];
    (void)state;
    memset(cfg, 0, sizeof cfg);
    assert_int_equal(cf__acs_redirects(cfg, 64), -1);     /* non-root read */
    assert_int_equal(cf__acs_redirects(cfg, 256), -1);
    assert_int_equal(cf__acs_redirects(cfg, sizeof cfg), 0);
    /* AER (0x0001) at 0x100 -> ACS (0x000d) at 0x140 */
    cfg[0x100] = 0x01; cfg[0x102] = 0x01; cfg[0x103] = 0x14;
    cfg[0x140] = 0x0d; cfg[0x142] = 0x01;
    assert_int_equal(cf__acs_redirects(cfg, sizeof cfg), 0);
    cfg[0x146] = 0x04;      /* RR */
    assert_int_equal(cf__acs_redirects(cfg, sizeof cfg), 1);
    cfg[0x146] = 0x11;      /* SV + UF only */
    assert_int_equal(cf__acs_redirects(cfg, sizeof cfg), 0);
    /* a loop of next pointers ends */
    cfg[0x140] = 0x02; cfg[0x143] = 0x10;
    assert_int_equal(cf__acs_redirects(cfg, sizeof cfg), 0);
}

static int code_of(const char *name)
{
    for (int c = 0; c < CF__PCODE__COUNT; c++)
        if (strcmp(cf__probe_code_name((cf__probe_code)c), name) == 0) return c;
    return -1;
}

static void codes_and_man(void **state)
{
    size_t n;
    char *man = read_file("docs/man/31-probe.man", &n), *p, *end;
    int listed = 0, sev = -1;
    (void)state;
    for (int c = 0; c < CF__PCODE__COUNT; c++) {
        assert_true(strlen(cf__probe_code_action((cf__probe_code)c)) > 20);
        for (int k = 0; k < c; k++)
            assert_string_not_equal(cf__probe_code_name((cf__probe_code)k), cf__probe_code_name((cf__probe_code)c));
    }
    p = strstr(man, "Finding codes:");
    assert_non_null(p);
    end = strstr(p, "Exit status");
    assert_non_null(end);
    *end = '\0';
    for (char *t = p + strlen("Finding codes:"); *t;) {
        char word[40];
        size_t k = 0;
        while (*t == ' ' || *t == '\n' || *t == ',' || *t == ';' || *t == '.') t++;
        while (*t && *t != ' ' && *t != '\n' && *t != ',' && *t != ';' && *t != '.' && k < sizeof word - 1)
            word[k++] = *t++;
        word[k] = '\0';
        if (!k) continue;
        if (strcmp(word, "error") == 0) sev = CF_SEV_ERROR;
        else if (strcmp(word, "warning") == 0) sev = CF_SEV_WARNING;
        else if (strcmp(word, "info") == 0) sev = CF_SEV_INFO;
        else {
            int c = code_of(word);
            if (c < 0) fail_msg("man page lists %s, probe/codes.def has no such code", word);
            if ((int)cf__probe_code_severity((cf__probe_code)c) != sev) fail_msg("%s: severity differs", word);
            listed++;
        }
    }
    assert_int_equal(listed, CF__PCODE__COUNT);
    free(man);
}

/* Every allocation of a node probe can fail without a crash or a leak
 * (ASan pass); the last run succeeds. */
static void node_alloc_failures(void **state)
{
    cf_probe_opts o = {0};
    json_t *r = NULL;
    cf_status st;
    long i;
    (void)state;
    o.sysroot = "tests/data/probe/h100-ib-faulty";
    for (i = 0; i < 100000; i++) {
        cf_alloc_fail_after(i);
        st = cf_probe_node(&o, &r, NULL);
        if (st == CF_OK) break;
        assert_int_equal(st, CF_ENOMEM);
        assert_null(r);
    }
    cf_alloc_fail_after(-1);
    assert_int_equal(st, CF_OK);
    assert_true(i > 10);
    assert_int_equal(json_array_size(json_object_get(r, "findings")), 3);
    json_decref(r);
    assert_int_equal(cf_probe_node(&(cf_probe_opts){.sysroot = "tests/data/probe/nonexistent"}, &r, NULL), CF_EINVAL);
}


/* Every pair once for n <= CF_PROBE_ALL_PAIRS_MAX, partners symmetric, at
 * most one pair per participant per round; ring + samples beyond. */
static void schedule(void **state)
{
    (void)state;
    for (long n = 2; n <= 40; n++) {
        long rounds = cf_probe_rounds(n), met = 0;
        char *seen = calloc((size_t)(n * n), 1);
        assert_non_null(seen);
        assert_true(rounds > 0);
        for (long r = 0; r < rounds; r++)
            for (long me = 0; me < n; me++) {
                long p = cf_probe_partner(n, r, me);
                if (p < 0) continue;
                assert_true(p < n && p != me);
                assert_int_equal(cf_probe_partner(n, r, p), me);
                if (me < p && !seen[me * n + p]) {
                    seen[me * n + p] = 1;
                    met++;
                }
            }
        if (n <= CF_PROBE_ALL_PAIRS_MAX) {
            assert_int_equal(rounds, n % 2 ? n : n - 1);
            assert_int_equal(met, n * (n - 1) / 2);
            assert_string_equal(cf_probe_schedule_name(n), "all-pairs");
        } else {
            assert_int_equal(rounds, 3 + CF_PROBE_SAMPLE_ROUNDS);
            /* the ring is there */
            for (long me = 0; me < n; me++) assert_true(seen[(me < (me + 1) % n ? me : (me + 1) % n) * n +
                                                             (me < (me + 1) % n ? (me + 1) % n : me)]);
            assert_true(met <= n / 2 * rounds);
            assert_true(met > n);
        }
        free(seen);
    }
    assert_int_equal(cf_probe_rounds(1), 0);
    assert_int_equal(cf_probe_partner(4, 3, 0), -1);
    assert_int_equal(cf_probe_partner(4, 0, 4), -1);
}

static json_t *node_from(const char *tree, const char *host, int rank)
{
    cf_probe_opts o = {0};
    json_t *r = NULL;
    o.sysroot = tree;
    o.hostname = host;
    assert_int_equal(cf_probe_node(&o, &r, NULL), CF_OK);
    json_object_set_new(r, "ranks", json_pack("[i]", rank));
    return r;
}

static int count_code(const json_t *rep, const char *code)
{
    size_t i;
    json_t *f;
    int n = 0;
    json_array_foreach(json_object_get(rep, "findings"), i, f)
        n += strcmp(json_string_value(json_object_get(f, "code")), code) == 0;
    return n;
}

/* Four nodes, node04 the faulty tree: named for its rates and GDR; the
 * pair 1-2 at a third of the others is slow, and rank 3's pairs all slow. */
static void cluster_report(void **state)
{
    json_t *nodes[4], *rep = NULL;
    cf_probe_pair pairs[6] = {{0, 1, 20, 2}, {0, 2, 21, 2}, {0, 3, 6, 2}, {1, 2, 7, 3}, {1, 3, 6.5, 2}, {2, 3, 5, 2}};
    cf_probe_cluster_in in;
    char *text;
    (void)state;
    nodes[0] = node_from("tests/data/probe/h100-ib", "node01", 0);
    nodes[1] = node_from("tests/data/probe/h100-ib", "node02", 1);
    nodes[2] = node_from("tests/data/probe/h100-ib", "node03", 2);
    nodes[3] = node_from("tests/data/probe/h100-ib-faulty", "node04", 3);
    memset(&in, 0, sizeof in);
    in.ranks = 4;
    in.nodes = nodes;
    in.n_nodes = 4;
    in.pairs = pairs;
    in.n_pairs = 6;
    in.pair_scope = "nodes";
    in.timeout_s = 60;
    assert_int_equal(cf_probe_cluster(&in, &rep, NULL), CF_OK);
    assert_string_equal(json_string_value(json_object_get(rep, "kind")), "cluster");
    assert_int_equal(json_integer_value(json_object_get(rep, "hosts")), 4);
    /* active rates and GDR differ on node04 only */
    assert_int_equal(count_code(rep, "NODE_MISMATCH"), 2);
    {
        size_t i;
        json_t *f;
        int rates = 0;
        json_array_foreach(json_object_get(rep, "findings"), i, f) {
            const char *m = json_string_value(json_object_get(f, "message"));
            if (strstr(m, "node04: active port rates 1 x 200, 6 x 400; the others, 8 x 400 (3 of 4 nodes)")) rates = 1;
        }
        assert_true(rates);
    }
    /* node04's own three findings, with its name */
    assert_int_equal(count_code(rep, "PORT_DOWN"), 1);
    /* median 6.75, cut 4.725: the slowest pair (5 GB/s) is above it */
    assert_int_equal(count_code(rep, "SLOW_PAIR"), 0);
    json_decref(rep);
    pairs[2].bandwidth_GBps = 2;    /* 0-3 */
    pairs[4].bandwidth_GBps = 2;    /* 1-3 */
    pairs[5].bandwidth_GBps = 2.5;  /* 2-3 */
    pairs[3].bandwidth_GBps = 19;   /* 1-2 */
    assert_int_equal(cf_probe_cluster(&in, &rep, NULL), CF_OK);
    assert_int_equal(count_code(rep, "SLOW_PAIR"), 3);
    assert_int_equal(count_code(rep, "SLOW_NODE"), 1);
    text = cf_probe_report_text(rep);
    assert_non_null(text);
    assert_non_null(strstr(text, "rank 3 (node04): all 3 of its pairs under 70 % of the median"));
    free(text);
    json_decref(rep);
    /* one host: pairs between ranks are not judged; a missing rank is named */
    in.pair_scope = "ranks";
    in.n_nodes = 1;
    {
        int missing[1] = {2};
        in.missing = missing;
        in.n_missing = 1;
        assert_int_equal(cf_probe_cluster(&in, &rep, NULL), CF_OK);
        in.missing = NULL;
    }
    assert_int_equal(count_code(rep, "SLOW_PAIR"), 0);
    assert_int_equal(count_code(rep, "RANK_TIMEOUT"), 1);
    assert_int_equal(cf_probe_status(rep), CF_AUDIT_FAILED);
    json_decref(rep);
    for (int i = 0; i < 4; i++) json_decref(nodes[i]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pci_paths),
        cmocka_unit_test(sysfs_words),
        cmocka_unit_test(acs_parser),
        cmocka_unit_test(codes_and_man),
        cmocka_unit_test(node_alloc_failures),
        cmocka_unit_test(schedule),
        cmocka_unit_test(cluster_report),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
