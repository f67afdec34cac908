/* test_audit.c — the streaming splitter, prefix stripping, number parsing,
 * whole audits fed in chunks of every size, the report, and allocation
 * failures at every allocation point (curl's torture idea). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "audit/audit_int.h"
#include "model/model_int.h"    /* CF_K: the model's constants */
#include "../testutil.h"

typedef struct collect { char text[4096]; size_t n; int lines, cuts, nonl; } collect;

static cf_status collect_line(void *ctx, const char *s, size_t n, long lineno, int cut, int no_nl)
{
    collect *c = ctx;
    (void)lineno;
    c->lines++;
    c->cuts += cut;
    c->nonl += no_nl;
    if (c->n + n + 1 < sizeof c->text) {
        memcpy(c->text + c->n, s, n);
        c->n += n;
        c->text[c->n++] = '|';
    }
    return CF_OK;
}

static void splitter(void **state)
{
    const char *in = "ab\r\ncdefghijkl\n\nxyz";
    collect whole, bytes;
    cf__linebuf lb;
    (void)state;
    memset(&whole, 0, sizeof whole);
    memset(&bytes, 0, sizeof bytes);
    assert_int_equal(cf__linebuf_init(&lb, 8), CF_OK);
    assert_int_equal(cf__linebuf_feed(&lb, in, strlen(in), collect_line, &whole), CF_OK);
    assert_int_equal(cf__linebuf_finish(&lb, collect_line, &whole), CF_OK);
    /* the 12-byte line is cut to the cap of 8 */
    assert_int_equal(whole.lines, 4);
    assert_int_equal(whole.cuts, 1);
    assert_int_equal(whole.nonl, 1);
    assert_memory_equal(whole.text, "ab|cdefghij||xyz|", 17);
    cf__linebuf_reset(&lb);
    for (size_t i = 0; i < strlen(in); i++)
        assert_int_equal(cf__linebuf_feed(&lb, in + i, 1, collect_line, &bytes), CF_OK);
    assert_int_equal(cf__linebuf_finish(&lb, collect_line, &bytes), CF_OK);
    assert_int_equal(bytes.lines, whole.lines);
    assert_int_equal(bytes.cuts, whole.cuts);
    assert_memory_equal(bytes.text, whole.text, whole.n);
    cf__linebuf_clear(&lb);
}

static const char *strip(const char *s)
{
    static char buf[256];
    size_t n = strlen(s);
    const char *p = cf__strip_prefixes(s, &n);
    memcpy(buf, p, n);
    buf[n] = '\0';
    return buf;
}

static void prefixes(void **state)
{
    (void)state;
    assert_string_equal(strip("[1,3]<stdout>:node01:1:2 [0] NCCL INFO x"), "node01:1:2 [0] NCCL INFO x");
    assert_string_equal(strip("[155] node01:1:2 [0] NCCL INFO x"), "node01:1:2 [0] NCCL INFO x");
    assert_string_equal(strip("[rank0]:[W x] y"), "[W x] y");
    assert_string_equal(strip("12: #  Rank  0"), "#  Rank  0");
    assert_string_equal(strip("2024-05-01 12:00:00,123 node01:1:2 [0] NCCL"), "node01:1:2 [0] NCCL");
    assert_string_equal(strip("2024-05-01T12:00:00.123456Z   1024  256"), "1024  256");
    assert_string_equal(strip("[2024-05-01 12:00:00] # nThread 1"), "# nThread 1");
    assert_string_equal(strip("node01: node01:1:2 [0] NCCL INFO x"), "node01:1:2 [0] NCCL INFO x");
    /* nested, in any order (issue 21): Ray actors (c18, fastsafetensors #36),
     * Ray in front of Open MPI's tag, srun's padded label, compose */
    assert_string_equal(strip("(EngineCore_DP0 pid=1088) (RayWorkerWrapper pid=285, ip=192.0.2.12) node02:285:285 [0] NCCL INFO x"),
                        "node02:285:285 [0] NCCL INFO x");
    assert_string_equal(strip("(head, rank=0, pid=1234) [1,0]<stdout>:2024-05-01 12:00:00,123 node01:1:2 [0] NCCL INFO x"),
                        "node01:1:2 [0] NCCL INFO x");
    assert_string_equal(strip(" 3: [rank3]:node01:1:2 [3] NCCL INFO x"), "node01:1:2 [3] NCCL INFO x");
    assert_string_equal(strip("worker-1  | (pid=34272) #  Rank  0"), "#  Rank  0");
    /* not prefixes */
    assert_string_equal(strip("(see below) node01:1:2"), "(see below) node01:1:2");
    assert_string_equal(strip("size | count"), "size | count");
    assert_string_equal(strip("[user@machine nccl-tests]$ nvidia-smi topo -m"), "[user@machine nccl-tests]$ nvidia-smi topo -m");
    assert_string_equal(strip("   1024  256  float"), "   1024  256  float");
    assert_string_equal(strip("Warning: Permanently added"), "Warning: Permanently added");
}

static void numbers(void **state)
{
    double v;
    uint64_t u;
    (void)state;
    assert_true(cf__num("95.74", 5, &v) && v == 95.74);
    assert_true(cf__num("-1", 2, &v) && v == -1);
    assert_true(cf__num("5e-07", 5, &v) && fabs(v - 5e-07) < 1e-20);
    assert_true(cf__num("1.2E+03", 7, &v) && v == 1200);
    assert_true(cf__num("-1[0]", 5, &v) && v == -1);
    assert_true(cf__num("8589934592", 10, &v) && v == 8589934592.0);
    assert_false(cf__num("1.5[0]", 6, &v));
    assert_false(cf__num("abc", 3, &v));
    assert_false(cf__num("1e", 2, &v));
    assert_false(cf__num("", 0, &v));
    assert_false(cf__num("12x", 3, &v));
    assert_true(cf__uint("133169160", 9, &u) && u == 133169160u);
    assert_false(cf__uint("-1", 2, &u));
}

/* A file of the shared audit cases (tests/data/shared/cases/NAME), read whole. */
static char *read_case(const char *name, size_t *n)
{
    char rel[512], path[1024];
    snprintf(rel, sizeof rel, "cases/%s", name);
    return read_file(shared_path(path, sizeof path, rel), n);
}

static const char *CASE24 = "24-ib-gdr-forced-one-side-gather-dropoff-topo-ibstat.txt";

static void chunked_equals_whole(void **state)
{
    size_t n;
    char *buf = read_case(CASE24, &n);
    static const size_t chunks[] = {1, 7, 64, 4096};
    json_t *ref = NULL;
    cf_audit_status st;
    (void)state;
    assert_non_null(buf);
    assert_int_equal(cf_audit_buffer(buf, n, "c24", NULL, &ref, &st), CF_OK);
    assert_int_equal(st, CF_AUDIT_WARNING);
    assert_string_equal(json_string_value(json_object_get(ref, "gdr")), "partial");
    assert_true(json_real_value(json_object_get(ref, "busbw_GBps")) == 10.91);
    for (size_t k = 0; k < sizeof chunks / sizeof chunks[0]; k++) {
        cf_audit *a = cf_audit_new(NULL);
        json_t *rep = NULL;
        assert_non_null(a);
        assert_int_equal(cf_audit_begin_file(a, "c24"), CF_OK);
        for (size_t off = 0; off < n; off += chunks[k]) {
            size_t len = n - off < chunks[k] ? n - off : chunks[k];
            assert_int_equal(cf_audit_feed(a, buf + off, len), CF_OK);
        }
        assert_int_equal(cf_audit_end_file(a), CF_OK);
        assert_int_equal(cf_audit_finish(a, &rep, &st), CF_OK);
        assert_true(json_equal(ref, rep));
        json_decref(rep);
        cf_audit_free(a);
    }
    {
        char *text = cf_audit_report_text(ref);
        assert_non_null(text);
        assert_non_null(strstr(text, "verdict: warning"));
        assert_non_null(strstr(text, "GDR_PARTIAL"));
        assert_non_null(strstr(text, "at: c24:1"));
        free(text);
    }
    json_decref(ref);
    free(buf);
}

static void small_inputs(void **state)
{
    json_t *r = NULL;
    cf_audit_status st;
    const char *s = "hello\nworld\n";
    cf_audit_opts o = {NULL, NAN};
    (void)state;
    assert_int_equal(cf_audit_buffer(s, strlen(s), "x", &o, &r, &st), CF_OK);
    assert_int_equal(st, CF_AUDIT_INVALID);
    assert_string_equal(json_string_value(json_object_get(json_array_get(json_object_get(r, "findings"), 0), "code")),
                        "NO_RECOGNIZED_INPUT");
    json_decref(r);
    /* one complete run, expectation given, no GPU shown (the model cannot
     * be asked): the line rate's ring bound, 200 Gbit/s / 8 x ETA_IB on IB
     * (22.0 GB/s at ETA_IB 0.88), rounded to 0.01 as the report does */
    s = "n1:1:1 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB x\n"
        "n1:1:1 [0] NCCL INFO Channel 00/0 : 1[0] -> 0[0] [receive] via NET/IB/0/GDRDMA\n"
        "n2:1:1 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [receive] via NET/IB/0/GDRDMA\n"
        "  268435456  67108864  float  sum  -1  3000  89.48  10.00  0  3001  89.45  10.00  0\n";
    o.expect_gbps = 200;
    assert_int_equal(cf_audit_buffer(s, strlen(s), "y", &o, &r, &st), CF_OK);
    assert_int_equal(st, CF_AUDIT_WARNING);
    assert_float_equal(json_real_value(json_object_get(r, "expected_busbw_GBps")),
                       round(200.0 / 8.0 * CF_K(ETA_IB) * 100.0) / 100.0, 1e-9);
    assert_string_equal(json_string_value(json_object_get(r, "expected_algo_source")), "line_rate");
    assert_string_equal(json_string_value(json_object_get(r, "network")), "ib");
    assert_string_equal(json_string_value(json_object_get(r, "gdr")), "on");
    json_decref(r);
    assert_int_equal(cf_audit_feed(NULL, "x", 1), CF_EINVAL);
}

static void allocation_failures(void **state)
{
    size_t n;
    char *buf = read_case(CASE24, &n);
    long total;
    json_t *r = NULL;
    cf_audit_status st;
    (void)state;
    assert_non_null(buf);
    cf_alloc_fail_after(-1);
    (void)cf_alloc_count();
    assert_int_equal(cf_audit_buffer(buf, n, "c", NULL, &r, &st), CF_OK);
    json_decref(r);
    cf_alloc_fail_after(1000000000L);
    assert_int_equal(cf_audit_buffer(buf, n, "c", NULL, &r, &st), CF_OK);
    json_decref(r);
    total = cf_alloc_count();
    assert_true(total > 5);
    for (long k = 0; k < total; k++) {
        cf_status s;
        r = NULL;
        cf_alloc_fail_after(k);
        s = cf_audit_buffer(buf, n, "c", NULL, &r, &st);
        cf_alloc_fail_after(-1);
        assert_true(s == CF_OK || s == CF_ENOMEM);
        if (s == CF_OK) json_decref(r);
        else assert_null(r);
    }
    free(buf);
}

/* Two per-rank log files of one job (same commId) join into one run and a
 * third, unrelated log stays apart; at every allocation point the audit
 * either succeeds or says ENOMEM (the joining of runs allocates too). */
static cf_status audit_files(const char *const *names, const char *const *texts, int n,
                             json_t **r, cf_audit_status *st)
{
    cf_audit *a = cf_audit_new(NULL);
    cf_status s = CF_OK;
    if (!a) return CF_ENOMEM;
    for (int i = 0; i < n && s == CF_OK; i++) {
        s = cf_audit_begin_file(a, names[i]);
        if (s == CF_OK) s = cf_audit_feed(a, texts[i], strlen(texts[i]));
        if (s == CF_OK) s = cf_audit_end_file(a);
    }
    if (s == CF_OK) s = cf_audit_finish(a, r, st);
    cf_audit_free(a);
    return s;
}

static void several_runs(void **state)
{
    static const char *const names[] = {"rank0.log", "rank1.log", "other.log"};
    static const char *const texts[] = {
        "n1:10:11 [0] NCCL INFO NCCL version 2.21.5+cuda12.4\n"
        "n1:10:11 [0] NCCL INFO comm 0x1 rank 0 nranks 2 cudaDev 0 busId 1000 commId 0xabc - Init START\n"
        "n1:10:11 [0] NCCL INFO Channel 00/0 : 1[0] -> 0[0] [receive] via NET/IB/0/GDRDMA\n",
        "n2:20:21 [0] NCCL INFO NCCL version 2.21.5+cuda12.4\n"
        "n2:20:21 [0] NCCL INFO comm 0x2 rank 1 nranks 2 cudaDev 0 busId 1000 commId 0xabc - Init START\n"
        "n2:20:21 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [receive] via NET/IB/0\n",
        "n1:30:31 [0] NCCL INFO NCCL version 2.18.5+cuda12.2\n"
        "n1:30:31 [0] NCCL INFO Channel 00/0 : 1[0] -> 0[0] [receive] via NET/Socket/0\n",
    };
    json_t *r = NULL;
    cf_audit_status st;
    long total;
    (void)state;
    assert_int_equal(audit_files(names, texts, 2, &r, &st), CF_OK);
    assert_int_equal(json_integer_value(json_object_get(r, "runs")), 1);
    assert_string_equal(json_string_value(json_object_get(r, "gdr")), "partial");
    assert_int_equal(json_integer_value(json_object_get(r, "nodes")), 2);
    json_decref(r);
    cf_alloc_fail_after(1000000000L);
    assert_int_equal(audit_files(names, texts, 3, &r, &st), CF_OK);
    total = cf_alloc_count();
    assert_int_equal(json_integer_value(json_object_get(r, "runs")), 2);
    /* the top level is the last log's run: sockets, its own version */
    assert_string_equal(json_string_value(json_object_get(r, "network")), "tcp");
    assert_string_equal(json_string_value(json_object_get(r, "nccl_version")), "2.18.5");
    json_decref(r);
    for (long k = 0; k < total; k++) {
        cf_status s;
        r = NULL;
        cf_alloc_fail_after(k);
        s = audit_files(names, texts, 3, &r, &st);
        cf_alloc_fail_after(-1);
        assert_true(s == CF_OK || s == CF_ENOMEM);
        if (s == CF_OK) json_decref(r);
        else assert_null(r);
    }
    cf_alloc_fail_after(-1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(splitter), cmocka_unit_test(prefixes), cmocka_unit_test(numbers),
        cmocka_unit_test(chunked_equals_whole), cmocka_unit_test(small_inputs),
        cmocka_unit_test(allocation_failures), cmocka_unit_test(several_runs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
