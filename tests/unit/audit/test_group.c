/* test_group.c — which inputs are one run (lib/audit/group.c, DESIGN §5
 * "several runs in one input"): per-rank logs of one job join, by
 * communicator id or by disjoint ranks of one communicator size; logs of
 * different jobs stay apart; a hardware dump joins the only run there is
 * and stays apart when there are several. Through the public API. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include "auditutil.h"

/* Rank `rank` of a 2-rank job on host `host`, NCCL `ver`, commId `id`
 * ("" none), its receive channel with or without /GDRDMA. */
static const char *rank_log(char *buf, size_t cap, const char *host, int rank, const char *ver,
                            const char *id, int gdr)
{
    snprintf(buf, cap,
             "%s:10:11 [0] NCCL INFO NCCL version %s+cuda12.4\n"
             "%s:10:11 [0] NCCL INFO comm 0x1 rank %d nranks 2 cudaDev 0 busId 1000%s%s - Init START\n"
             "%s:10:11 [0] NCCL INFO Channel 00/0 : %d[0] -> %d[0] [receive] via NET/IB/0%s\n",
             host, ver, host, rank, id[0] ? " commId " : "", id, host, 1 - rank, rank,
             gdr ? "/GDRDMA" : "");
    return buf;
}

static void one_job_by_comm_id(void **state)
{
    char b0[512], b1[512];
    const char *names[] = {"rank0.log", "rank1.log"};
    const char *texts[] = {rank_log(b0, sizeof b0, "n1", 0, "2.21.5", "0xabc", 1),
                           rank_log(b1, sizeof b1, "n2", 1, "2.21.5", "0xabc", 1)};
    cf_audit_status st;
    json_t *r = audit_files(names, texts, 2, NAN, &st);
    const json_t *parts = json_object_get(r, "parts");
    (void)state;
    assert_int_equal(field_i(r, "runs"), 1);
    assert_int_equal(field_i(r, "run"), 1);
    assert_int_equal(json_array_size(json_object_get(r, "run_facts")), 1);
    assert_string_equal(field_s(json_array_get(json_object_get(r, "run_facts"), 0), "kind"), "run");
    assert_int_equal(json_array_size(json_object_get(json_array_get(json_object_get(r, "run_facts"), 0), "files")), 2);
    assert_int_equal(json_array_size(parts), 2);
    assert_int_equal(field_i(json_array_get(parts, 0), "run"), 1);
    assert_int_equal(field_i(json_array_get(parts, 1), "run"), 1);
    /* the joined evidence: two hosts of two ranks, both channels with GDR */
    assert_int_equal(field_i(r, "ranks"), 2);
    assert_int_equal(field_i(r, "nodes"), 2);
    assert_string_equal(field_s(r, "gdr"), "on");
    assert_null(finding(r, "SEVERAL_RUNS"));
    assert_int_equal(st, CF_AUDIT_OK);
    json_decref(r);
}

static void one_job_by_disjoint_ranks(void **state)
{
    char b0[512], b1[512];
    const char *names[] = {"rank0.log", "rank1.log"};
    /* no commId (NCCL < 2.18): ranks 0 and 1 of one size, one version */
    const char *texts[] = {rank_log(b0, sizeof b0, "n1", 0, "2.17.1", "", 1),
                           rank_log(b1, sizeof b1, "n2", 1, "2.17.1", "", 0)};
    cf_audit_status st;
    json_t *r = audit_files(names, texts, 2, NAN, &st);
    (void)state;
    assert_int_equal(field_i(r, "runs"), 1);
    /* one rank's channel uses GDR, the other's does not: one run, partial */
    assert_string_equal(field_s(r, "gdr"), "partial");
    assert_non_null(finding(r, "GDR_PARTIAL"));
    assert_int_equal(st, CF_AUDIT_WARNING);
    json_decref(r);
}

static void different_jobs_stay_apart(void **state)
{
    char b0[512], b1[512], b2[512];
    const char *names[] = {"a.log", "b.log"};
    cf_audit_status st;
    json_t *r;
    (void)state;
    /* different communicator ids and NCCL versions */
    {
        const char *texts[] = {rank_log(b0, sizeof b0, "n1", 0, "2.21.5", "0xabc", 1),
                               rank_log(b1, sizeof b1, "n2", 1, "2.18.3", "0xdef", 0)};
        r = audit_files(names, texts, 2, NAN, &st);
    }
    assert_int_equal(field_i(r, "runs"), 2);
    assert_int_equal(json_array_size(json_object_get(r, "run_facts")), 2);
    /* each run keeps its own facts: no GDR_PARTIAL from mixing them */
    assert_string_equal(field_s(json_array_get(json_object_get(r, "run_facts"), 0), "gdr"), "on");
    assert_string_equal(field_s(json_array_get(json_object_get(r, "run_facts"), 1), "gdr"), "off");
    assert_null(finding(r, "GDR_PARTIAL"));
    /* the top level is the last log's run, and says there are two */
    assert_int_equal(field_i(r, "run"), 2);
    assert_string_equal(field_s(r, "nccl_version"), "2.18.3");
    assert_non_null(finding(r, "SEVERAL_RUNS"));
    assert_int_equal(field_i(finding(r, "SEVERAL_RUNS"), "line"), 1);
    assert_string_equal(field_s(finding(r, "SEVERAL_RUNS"), "file"), "b.log");
    json_decref(r);
    /* the same rank in both logs, no commId: two jobs, not one */
    {
        const char *texts[] = {rank_log(b0, sizeof b0, "n1", 0, "2.17.1", "", 1),
                               rank_log(b2, sizeof b2, "n2", 0, "2.17.1", "", 1)};
        r = audit_files(names, texts, 2, NAN, &st);
    }
    assert_int_equal(field_i(r, "runs"), 2);
    json_decref(r);
}

static const char IBSTAT[] =
    "CA 'mlx5_0'\n"
    "\tCA type: MT4129\n"
    "\tPort 1:\n"
    "\t\tState: Active\n"
    "\t\tPhysical state: LinkUp\n"
    "\t\tRate: 400\n"
    "\t\tLink layer: InfiniBand\n";

static void hardware_joins_the_only_run(void **state)
{
    char b0[512], b1[512], b2[512];
    const char *names[] = {"rank0.log", "rank1.log", "ibstat.txt"};
    cf_audit_status st;
    json_t *r;
    (void)state;
    {
        const char *texts[] = {rank_log(b0, sizeof b0, "n1", 0, "2.21.5", "0xabc", 1),
                               rank_log(b1, sizeof b1, "n2", 1, "2.21.5", "0xabc", 1), IBSTAT};
        r = audit_files(names, texts, 3, NAN, &st);
    }
    assert_int_equal(field_i(r, "runs"), 1);
    assert_int_equal(json_array_size(json_object_get(r, "run_facts")), 1);
    assert_int_equal(field_i(json_array_get(json_object_get(r, "parts"), 2), "run"), 1);
    assert_string_equal(field_s(json_array_get(json_object_get(r, "parts"), 2), "kind"), "ibstat");
    json_decref(r);
    /* with two runs the dump is tied to neither: a group of its own */
    {
        const char *texts[] = {rank_log(b0, sizeof b0, "n1", 0, "2.21.5", "0xabc", 1),
                               rank_log(b2, sizeof b2, "n2", 1, "2.18.3", "0xdef", 1), IBSTAT};
        r = audit_files(names, texts, 3, NAN, &st);
    }
    assert_int_equal(field_i(r, "runs"), 2);
    assert_int_equal(json_array_size(json_object_get(r, "run_facts")), 3);
    assert_string_equal(field_s(json_array_get(json_object_get(r, "run_facts"), 2), "kind"), "hardware");
    assert_int_equal(field_i(json_array_get(json_object_get(r, "parts"), 2), "run"), 3);
    /* the top level still describes the last run, not the dump */
    assert_int_equal(field_i(r, "run"), 2);
    json_decref(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(one_job_by_comm_id),
        cmocka_unit_test(one_job_by_disjoint_ranks),
        cmocka_unit_test(different_jobs_stay_apart),
        cmocka_unit_test(hardware_joins_the_only_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
