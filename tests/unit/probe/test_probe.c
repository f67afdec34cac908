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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pci_paths),
        cmocka_unit_test(sysfs_words),
        cmocka_unit_test(acs_parser),
        cmocka_unit_test(codes_and_man),
        cmocka_unit_test(node_alloc_failures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
