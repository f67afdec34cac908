/* test_perftable.c — nccl-tests rows, comment lines, binary names and the
 * per-run analysis (busbw at the largest size, regime, BUSBW_DROP). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>
#include "audit/audit_int.h"

static int row(const char *s, const cf__perf_layout *lay, cf__perf_row *r)
{
    return cf__perf_parse_row(s, strlen(s), lay, r);
}

static void rows_current_layout(void **state)
{
    cf__perf_row r;
    cf__perf_layout lay = {1, 1, 1, 0, 0, 0};
    (void)state;
    assert_int_equal(row("   133169160      33292290     float     sum      -1   2666.0   49.95   95.74      0   2660.4   50.06   95.94      0", &lay, &r), CF__ROW_OK);
    assert_true(r.size == 133169160.0);
    assert_true(r.oop_busbw == 95.74 && r.ip_busbw == 95.94 && r.oop_wrong == 0 && r.oop_time_us == 2666.0);
    assert_string_equal(r.type, "float");
    assert_string_equal(r.redop, "sum");
    /* the same row without a header seen: root guessed from 9 numbers */
    assert_int_equal(row("   133169160      33292290     float     sum      -1   2666.0   49.95   95.74      0   2660.4   50.06   95.94      0", NULL, &r), CF__ROW_OK);
    assert_true(r.oop_busbw == 95.74 && r.ip_wrong == 0);
    /* gather: redop none, root 0 */
    assert_int_equal(row("  11408506880    1426063360     float    none       0   522721   21.83   10.91      0   524916   21.73   10.87      0", NULL, &r), CF__ROW_OK);
    assert_true(r.oop_busbw == 10.91 && r.ip_busbw == 10.87);
}

static void rows_old_layouts(void **state)
{
    cf__perf_row r;
    cf__perf_layout err = {1, 1, 0, 1, 0, 0};
    (void)state;
    assert_int_equal(row("        4096          1024     float     sum    93.73    0.04    0.09  1e-06    93.15    0.04    0.09  1e-06", &err, &r), CF__ROW_OK);
    assert_true(r.oop_busbw == 0.09 && isnan(r.oop_wrong) && r.ip_time_us == 93.15);
    /* no redop, no root, no header */
    assert_int_equal(row("  1048576  262144  float  583.4  1.80  1.80  0  579.6  1.81  1.81  0", NULL, &r), CF__ROW_OK);
    assert_true(r.oop_algbw == 1.80 && r.ip_busbw == 1.81);
    assert_string_equal(r.redop, "");
    /* -c 0: N/A in #wrong; tagged root */
    assert_int_equal(row("  268435456  67108864  float  sum  -1[0]  3000.0  89.48  156.59  N/A  3001.0  89.45  156.54  N/A", NULL, &r), CF__ROW_OK);
    assert_true(r.oop_busbw == 156.59 && isnan(r.oop_wrong));
    /* extra leading columns */
    assert_int_equal(row("12:00:01 rank3  8  2  float  sum  -1  12.90  0.00  0.00  0  12.87  0.00  0.00  0", NULL, &r), CF__ROW_OK);
    assert_true(r.size == 8 && r.count == 2);
}

static void rows_partial_and_junk(void **state)
{
    cf__perf_row r;
    (void)state;
    assert_int_equal(row("         128            32     float     sum", NULL, &r), CF__ROW_PARTIAL);
    assert_true(r.size == 128);
    assert_int_equal(row("  64  16", NULL, &r), CF__ROW_PARTIAL);
    assert_int_equal(row("  1024  256  float  sum  -1  67.15", NULL, &r), CF__ROW_PARTIAL);
    assert_int_equal(row("12345 hello world", NULL, &r), CF__ROW_NONE);
    assert_int_equal(row("2 3 float sum -1 a b c", NULL, &r), CF__ROW_NONE);
    assert_int_equal(row("", NULL, &r), CF__ROW_NONE);
}

static void comments(void **state)
{
    cf__perf_comment c;
    const char *s;
    (void)state;
    s = "# nThread 1 nGpus 2 minBytes 8 maxBytes 134217728 step: 2(factor) warmup iters: 5 iters: 20 validation: 1 ";
    cf__perf_parse_comment(s, strlen(s), &c);
    assert_int_equal(c.kind, CF__PC_PARAMS);
    assert_int_equal(c.nthread, 1);
    assert_int_equal(c.ngpus, 2);
    assert_true(c.max_bytes == 134217728.0);
    s = "#  Rank 12 Group  0 Pid 3621216 on       node01 device  3 [0x4d] NVIDIA A100-SXM4-40GB";
    cf__perf_parse_comment(s, strlen(s), &c);
    assert_int_equal(c.kind, CF__PC_RANK);
    assert_int_equal(c.rank, 12);
    assert_int_equal(c.host_n, 6);
    assert_memory_equal(c.host, "node01", 6);
    assert_string_equal(c.gpu_name, "NVIDIA A100-SXM4-40GB");
    s = "#       size         count      type   redop     time   algbw   busbw  error     time   algbw   busbw  error";
    cf__perf_parse_comment(s, strlen(s), &c);
    assert_int_equal(c.kind, CF__PC_HEADER);
    assert_true(c.layout.known && c.layout.has_redop && !c.layout.has_root && c.layout.error_column);
    s = "# Out of bounds values : 3 FAILED";
    cf__perf_parse_comment(s, strlen(s), &c);
    assert_int_equal(c.kind, CF__PC_OOB);
    assert_int_equal(c.oob, 3);
    assert_true(c.oob_failed);
    s = "# Avg bus bandwidth    : 84.8558 ";
    cf__perf_parse_comment(s, strlen(s), &c);
    assert_int_equal(c.kind, CF__PC_AVG);
    assert_true(c.avg == 84.8558);
    s = "# Collective test starting: gather_perf";
    cf__perf_parse_comment(s, strlen(s), &c);
    assert_int_equal(c.kind, CF__PC_TEST_START);
    assert_string_equal(c.collective, "gather");
}

static void binaries(void **state)
{
    const char *s = "mpirun -np 24 ./build/all_reduce_perf -b 8 -e 128M";
    (void)state;
    assert_int_equal(cf__perf_collective_in(s, strlen(s)), CF_COLL_ALL_REDUCE);
    s = "srun ./reduce_perf_mpi -b 1G";
    assert_int_equal(cf__perf_collective_in(s, strlen(s)), CF_COLL_REDUCE);
    s = "sendrecv_perf";
    assert_int_equal(cf__perf_collective_in(s, strlen(s)), CF_COLL_SENDRECV);
    s = "my_perfect_tool all_reduce_performance";
    assert_int_equal(cf__perf_collective_in(s, strlen(s)), CF_COLL_UNKNOWN);
}

/* The collective from the count column when no header or binary names it
 * (issue 23): rows in nccl-tests' layout, headerless. */
static cf_collective coll_of(const char *row)
{
    cf__perf_row r;
    assert_int_equal(cf__perf_parse_row(row, strlen(row), NULL, &r), CF__ROW_OK);
    return cf__perf_collective_of_rows(&r, 1);
}

static void collective_from_counts(void **state)
{
    (void)state;
    /* all_reduce: count = size / 4 for float, root -1 (shared case 26's row) */
    assert_int_equal(coll_of("  1073741824     268435456     float     sum      -1    20079   53.48   93.58      0    19265   55.74   97.54      0"),
                     CF_COLL_ALL_REDUCE);
    /* reduce_scatter on 16 ranks: count = size / 4 / 16 */
    assert_int_equal(coll_of("  1073741824      16777216     float     sum      -1    12104   88.71   83.17      0    12090   88.81   83.26      0"),
                     CF_COLL_REDUCE_SCATTER);
    /* all_gather prints the same counts with redop none: alltoall too, not told */
    assert_int_equal(coll_of("  1073741824      16777216     float    none      -1    12104   88.71   83.17      0    12090   88.81   83.26      0"),
                     CF_COLL_UNKNOWN);
    /* broadcast (none, root 0) and reduce (sum, root 0) */
    assert_int_equal(coll_of("  1073741824     268435456     float    none       0    10052  106.82  106.82      0    10011  107.26  107.26      0"),
                     CF_COLL_BROADCAST);
    assert_int_equal(coll_of("  1073741824     268435456     float     sum       0    10052  106.82  106.82      0    10011  107.26  107.26      0"),
                     CF_COLL_REDUCE);
    /* bfloat16: 2 bytes an element */
    assert_int_equal(coll_of("  1073741824     536870912  bfloat16     sum      -1    20079   53.48   93.58      0    19265   55.74   97.54      0"),
                     CF_COLL_ALL_REDUCE);
    /* a max error column without a header is not #wrong */
    {
        cf__perf_row r;
        const char *row = "  8589934592    2147483648   float     sum    36160  237.55  415.72  2e-07    36118  237.83  416.20  2e-07";
        assert_int_equal(cf__perf_parse_row(row, strlen(row), NULL, &r), CF__ROW_OK);
        assert_true(isnan(r.oop_wrong) && isnan(r.ip_wrong));
        assert_true(r.oop_busbw == 415.72);
    }
}

static void fill(cf__perf_row *r, double size, double busbw)
{
    memset(r, 0, sizeof *r);
    r->size = size;
    r->oop_busbw = busbw;
    r->ip_busbw = busbw;
}

static void analysis(void **state)
{
    cf__perf_row r[8];
    cf__perf_analysis an;
    (void)state;
    /* ramp then plateau, largest 1 GiB: regime, no drop */
    fill(&r[0], 1048576, 1.80);
    fill(&r[1], 268435456, 3.15);
    fill(&r[2], 536870912, 3.13);
    fill(&r[3], 1073741824, 3.11);
    cf__perf_analyze(r, 4, &an);
    assert_true(an.busbw_largest == 3.11 && an.peak_busbw == 3.15);
    assert_true(an.in_bw_regime);
    assert_false(an.drop);
    /* 20 -> 9.9 (< 50 % of 20): drop at the 4th row */
    fill(&r[0], 1 << 20, 5.0);
    fill(&r[1], 1 << 21, 20.0);
    fill(&r[2], 1 << 22, 19.0);
    fill(&r[3], 1 << 23, 9.9);
    cf__perf_analyze(r, 4, &an);
    assert_true(an.drop);
    assert_int_equal(an.drop_row, 3);
    assert_true(an.drop_peak == 20.0);
    assert_false(an.in_bw_regime);      /* 8 MiB and still moving */
    /* 10.5 is not under half of 20.87: no drop (shared case 24's out-of-place column) */
    fill(&r[3], 1 << 23, 10.5);
    r[1].oop_busbw = 20.87;
    cf__perf_analyze(r, 4, &an);
    assert_false(an.drop);
    /* a small first size far below the peak is the ramp, not a drop */
    fill(&r[0], 8, 0.01);
    fill(&r[1], 1 << 20, 10.0);
    fill(&r[2], 1 << 21, 10.2);
    cf__perf_analyze(r, 3, &an);
    assert_false(an.drop);
    assert_true(an.plateaued);
    cf__perf_analyze(r, 0, &an);
    assert_true(isnan(an.busbw_largest));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rows_current_layout), cmocka_unit_test(rows_old_layouts),
        cmocka_unit_test(rows_partial_and_junk), cmocka_unit_test(comments),
        cmocka_unit_test(binaries), cmocka_unit_test(analysis),
        cmocka_unit_test(collective_from_counts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
