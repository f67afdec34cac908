/* test_probe_input.c — what the probe reads from others: the host tree held
 * in memory (lib/probe/memfs.c) gives the same report as the tree on disk
 * for every saved tree of tests/data/probe, odd entries included; the text
 * helpers never leave half a character; the messages of peers under --mpi
 * (lib/probe/gather.c) are refused unless they are what they claim. */
#define _XOPEN_SOURCE 700   /* nftw, FTW_PHYS */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <ftw.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "probe/probe_int.h"

static cf__memfs *cur;
static size_t base_len;

static int add_one(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
    const char *host = p + base_len;
    (void)ftw;
    if (!*host) return 0;
    if (flag == FTW_SL) {
        char tgt[4096];
        ssize_t n = readlink(p, tgt, sizeof tgt);
        assert_true(n > 0);
        assert_int_equal(cf__memfs_add(cur, 'l', host, tgt, (size_t)n), 0);
    } else if (flag == FTW_D) {
        assert_int_equal(cf__memfs_add(cur, 'd', host, "", 0), 0);
    } else if (S_ISREG(sb->st_mode)) {
        FILE *f = fopen(p, "rb");
        char *buf = malloc((size_t)sb->st_size + 1);
        size_t n;
        assert_non_null(f);
        assert_non_null(buf);
        n = fread(buf, 1, (size_t)sb->st_size, f);
        fclose(f);
        assert_int_equal(cf__memfs_add(cur, 'f', host, buf, n), 0);
        free(buf);
    }
    return 0;
}

/* Each saved tree read from memory and from disk: the same report but for
 * its "sysroot". */
static void memfs_matches_disk(void **state)
{
    static const char *const kinds[] = {"h100-ib", "h100-ib-faulty", "h100-roce", "p5-efa", "container", "acs", "odd"};
    (void)state;
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        char root[256];
        cf_probe_opts o = {0};
        json_t *disk = NULL, *mem = NULL;
        char *a, *b;
        snprintf(root, sizeof root, "tests/data/probe/%s", kinds[k]);
        o.sysroot = root;
        assert_int_equal(cf_probe_node(&o, &disk, NULL), CF_OK);
        cur = cf__memfs_new("/mem");
        assert_non_null(cur);
        base_len = strlen(root);
        assert_int_equal(nftw(root, add_one, 16, FTW_PHYS), 0);
        o.sysroot = "/mem";
        assert_int_equal(cf__probe_node_fs(&o, cf__memfs_fs(cur), &mem, NULL), CF_OK);
        json_object_del(disk, "sysroot");
        json_object_del(mem, "sysroot");
        a = json_dumps(disk, JSON_SORT_KEYS | JSON_INDENT(1));
        b = json_dumps(mem, JSON_SORT_KEYS | JSON_INDENT(1));
        if (strcmp(a, b) != 0) fail_msg("%s: memfs differs from disk:\n%.2000s\n---\n%.2000s", kinds[k], a, b);
        assert_true(json_array_size(json_object_get(mem, "gpus")) > 0);
        free(a);
        free(b);
        json_decref(disk);
        json_decref(mem);
        cf__memfs_free(cur);
    }
}

/* Links in memory as the kernel resolves them: loops, files in the middle
 * of a path, links out of the tree. */
static void memfs_links(void **state)
{
    cf__memfs *m = cf__memfs_new("/mem");
    cf_probe_opts o = {0};
    json_t *r = NULL, *sk;
    (void)state;
    assert_int_equal(cf__memfs_add(m, 'l', "sys/class/infiniband/a", "b", 1), 0);
    assert_int_equal(cf__memfs_add(m, 'l', "sys/class/infiniband/b", "a", 1), 0);
    assert_int_equal(cf__memfs_add(m, 'l', "sys/class/infiniband/c", "../../../../../../etc", 21), 0);
    assert_int_equal(cf__memfs_add(m, 'f', "proc/sys/kernel/hostname", "n1\n", 3), 0);
    assert_int_equal(cf__memfs_add(m, 'f', "proc/sys/kernel/hostname/x", "", 0), 0);
    assert_int_equal(cf__memfs_add(m, 'f', "a/../b", "", 0), -1);
    assert_int_equal(cf__memfs_add(m, 'x', "a", "", 0), -1);
    o.sysroot = "/mem";
    assert_int_equal(cf__probe_node_fs(&o, cf__memfs_fs(m), &r, NULL), CF_OK);
    assert_string_equal(json_string_value(json_object_get(r, "hostname")), "n1");
    sk = json_object_get(r, "skipped");
    assert_int_equal(json_array_size(sk), 3);
    assert_string_equal(json_string_value(json_object_get(json_array_get(sk, 0), "reason")),
                        "cannot resolve: Too many levels of symbolic links");
    assert_string_equal(json_string_value(json_object_get(json_array_get(sk, 2), "reason")),
                        "link leaves the tree (to /etc)");
    json_decref(r);
    cf__memfs_free(m);
}

static void text_helpers(void **state)
{
    char out[8], s[] = "a\xff" "b\x1b" "c\xc3\xa9";
    (void)state;
    cf__text_copy(out, 4, "ab\xc3\xa9", 4);
    assert_string_equal(out, "ab");
    cf__text_copy(out, 5, "ab\xc3\xa9", 4);
    assert_string_equal(out, "ab\xc3\xa9");
    cf__text_copy(out, 3, "ab\xe2\x82\xac", 5);
    assert_string_equal(out, "ab");
    cf__text_repair(s);
    assert_string_equal(s, "a?b?c\xc3\xa9");
}

static void peer_reports(void **state)
{
    static const char ok[] = "{\"kind\":\"node\",\"gpus\":[],\"findings\":[{\"code\":\"X\",\"severity\":\"info\"}]}";
    static const char *const bad[] = {
        "[]", "{\"kind\":\"cluster\",\"findings\":[]}", "{\"kind\":\"node\"}",
        "{\"kind\":\"node\",\"findings\":[1]}", "{\"kind\":\"node\",\"findings\":[],\"nics\":{}}",
        "{\"kind\":\"node\",\"kind\":\"node\",\"findings\":[]}", "{\"kind\":\"node\",\"findings\":[]} x", "\xff",
    };
    json_t *j = NULL;
    cf_error err;
    char *big;
    (void)state;
    assert_int_equal(cf_probe_peer_report(ok, strlen(ok), &j, &err), CF_OK);
    assert_true(json_is_object(j));
    json_decref(j);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cf_error_clear(&err);
        assert_int_equal(cf_probe_peer_report(bad[i], strlen(bad[i]), &j, &err), CF_EPARSE);
        assert_null(j);
        assert_true(strlen(err.message) > 10);
    }
    assert_int_equal(cf_probe_peer_report("", 0, &j, &err), CF_EPARSE);
    /* A control byte in a value is shown as '?'; in a key, refused. */
    {
        static const char esc[] = "{\"kind\":\"node\",\"hostname\":\"a\\u001b[31m\",\"findings\":[]}";
        static const char key[] = "{\"kind\":\"node\",\"env\":{\"N\\u0007\":\"1\"},\"findings\":[]}";
        assert_int_equal(cf_probe_peer_report(esc, strlen(esc), &j, &err), CF_OK);
        assert_string_equal(json_string_value(json_object_get(j, "hostname")), "a?[31m");
        json_decref(j);
        assert_int_equal(cf_probe_peer_report(key, strlen(key), &j, &err), CF_EPARSE);
        assert_null(j);
    }
    big = calloc(1, (size_t)CF_MAX_PROBE_REPORT_BYTES + 2);
    assert_non_null(big);
    memset(big, ' ', (size_t)CF_MAX_PROBE_REPORT_BYTES + 1);
    assert_int_equal(cf_probe_peer_report(big, (size_t)CF_MAX_PROBE_REPORT_BYTES + 1, &j, &err), CF_ELIMIT);
    free(big);
}

static void peer_pairs(void **state)
{
    const double v[] = {
        1, 0, 20.5, 3.0,            /* kept, a < b */
        NAN, 1, 20, 3,              /* no rank */
        0.5, 1, 20, 3,              /* not a whole number */
        -1, 1, 20, 3, 0, 4, 20, 3,  /* out of [0, 4) */
        2, 2, 20, 3,                /* a == b */
        2, 3, -1, INFINITY,         /* kept, figures failed */
        1e300, 1, 1, 1,             /* far out of range */
        0, 1,                       /* a partial quadruple */
    };
    cf_probe_pair out[8];
    size_t dropped = 0, n = cf_probe_peer_pairs(v, sizeof v / sizeof v[0], 4, out, 8, &dropped);
    (void)state;
    assert_int_equal(n, 2);
    assert_int_equal(dropped, 7);
    assert_int_equal(out[0].a, 0);
    assert_int_equal(out[0].b, 1);
    assert_true(out[0].bandwidth_GBps == 20.5);
    assert_int_equal(out[1].a, 2);
    assert_true(isnan(out[1].bandwidth_GBps) && isnan(out[1].latency_us));
    assert_int_equal(cf_probe_peer_pairs(v, 4, 4, out, 0, &dropped), 0);
    assert_int_equal(dropped, 1);
}

/* A finding that quotes what peers sent, cut to its buffers inside a
 * character or holding a control byte, is still a finding (it made the
 * whole cluster report "out of memory" before). */
static void cluster_quotes_peers(void **state)
{
    char fw[700] = "", fw2[702] = "x";
    json_t *nodes[2], *rep = NULL;
    cf_probe_cluster_in in;
    const char *msg;
    (void)state;
    for (int i = 0; i < 300; i++) memcpy(fw + 2 * i, "\xc3\xa9", 3);     /* 300 x U+00E9 */
    nodes[0] = json_pack("{s:s, s:s, s:[], s:[{s:s, s:s}], s:[]}", "kind", "node", "hostname", "a",
                         "gpus", "nics", "state", "active", "fw_ver", fw, "findings");
    memcpy(fw2 + 1, fw, strlen(fw) + 1);
    nodes[1] = json_pack("{s:s, s:s, s:[], s:[{s:s, s:s}], s:[]}", "kind", "node", "hostname", "b\033[31m",
                         "gpus", "nics", "state", "active", "fw_ver", fw2, "findings");
    assert_non_null(nodes[0]);
    assert_non_null(nodes[1]);
    memset(&in, 0, sizeof in);
    in.ranks = 2;
    in.nodes = nodes;
    in.n_nodes = 2;
    in.pair_scope = "nodes";
    in.timeout_s = 60;
    assert_int_equal(cf_probe_cluster(&in, &rep, NULL), CF_OK);
    msg = json_string_value(json_object_get(json_array_get(json_object_get(rep, "findings"), 0), "message"));
    assert_non_null(msg);
    assert_true(strstr(msg, "NIC firmware") != NULL);
    assert_true(strstr(msg, "b?[31m") != NULL);
    json_decref(rep);
    json_decref(nodes[0]);
    json_decref(nodes[1]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(memfs_matches_disk),
        cmocka_unit_test(memfs_links),
        cmocka_unit_test(text_helpers),
        cmocka_unit_test(peer_reports),
        cmocka_unit_test(peer_pairs),
        cmocka_unit_test(cluster_quotes_peers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
