/* test_plan_opts.c — the plan's options by name (cf_plan_opts_set,
 * cf_plan_opts_set_num), the objective's default (cf_plan_opts_finish) and
 * the check cf_plan makes of options set directly (cf__plan_check_opts):
 * what each name accepts, the bounds of limits.h at their edges, and the
 * err->param and reason of each refusal. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>
#include "clusterfit/clusterfit.h"
#include "plan/plan_int.h"

/* A refusal: CF_EINVAL, err->param, the reason holds `has`; with a param,
 * the message starts with the name as a word (the front ends respell it). */
static void refused(cf_status st, const cf_error *e, const char *param, const char *has)
{
    size_t n = strlen(param);
    assert_int_equal(st, CF_EINVAL);
    assert_string_equal(e->param, param);
    if (!strstr(e->message, has)) fail_msg("'%s' lacks '%s'", e->message, has);
    if (n && (strncmp(e->message, param, n) != 0 || e->message[n] != ' '))
        fail_msg("'%s' does not start with the name '%s'", e->message, param);
}

/* Every field as cf_plan_opts_init left it (NAN compares by isnan). */
static void assert_defaults(const cf_plan_opts *po)
{
    assert_int_equal(po->objective, CF_OBJ_COST);
    assert_int_equal(po->objective_given, 0);
    assert_true(isnan(po->deadline_h));
    assert_true(isnan(po->budget));
    assert_null(po->currency);
    assert_int_equal(po->max_gpus, 0);
    assert_int_equal(po->top, 0);
}

static void init_defaults(void **state)
{
    cf_plan_opts po;
    (void)state;
    memset(&po, 0x5a, sizeof po);
    cf_plan_opts_init(&po);
    assert_defaults(&po);
    assert_null(po.progress);
    assert_null(po.evaluated);
}

static void objective(void **state)
{
    cf_plan_opts po;
    cf_error e;
    (void)state;
    cf_plan_opts_init(&po);
    assert_int_equal(cf_plan_opts_set(&po, "objective", "time", &e), CF_OK);
    assert_int_equal(po.objective, CF_OBJ_TIME);
    assert_int_equal(po.objective_given, 1);
    assert_int_equal(cf_plan_opts_set(&po, "objective", "cost", &e), CF_OK);
    assert_int_equal(po.objective, CF_OBJ_COST);
    cf_plan_opts_init(&po);
    refused(cf_plan_opts_set(&po, "objective", "speed", &e), &e, "objective",
            "objective expects cost or time, got 'speed'");
    refused(cf_plan_opts_set(&po, "objective", "Time", &e), &e, "objective", "got 'Time'");
    refused(cf_plan_opts_set(&po, "objective", "", &e), &e, "objective", "got ''");
    refused(cf_plan_opts_set(&po, "objective", NULL, &e), &e, "objective", "got ''");
    refused(cf_plan_opts_set_num(&po, "objective", 1, &e), &e, "objective", "got '1'");
    /* A refusal neither sets the objective nor marks it given. */
    assert_defaults(&po);
}

static void deadline(void **state)
{
    cf_plan_opts po;
    cf_error e;
    (void)state;
    cf_plan_opts_init(&po);
    assert_int_equal(cf_plan_opts_set(&po, "deadline_h", "2160", &e), CF_OK);
    assert_true(po.deadline_h == 2160);
    /* The edges of limits.h, in text and as numbers. */
    assert_int_equal(cf_plan_opts_set(&po, "deadline_h", "0.001", &e), CF_OK);
    assert_true(po.deadline_h == CF_PLAN_DEADLINE_H_MIN);
    assert_int_equal(cf_plan_opts_set(&po, "deadline_h", "1e7", &e), CF_OK);
    assert_true(po.deadline_h == CF_PLAN_DEADLINE_H_MAX);
    assert_int_equal(cf_plan_opts_set_num(&po, "deadline_h", 24.5, &e), CF_OK);
    assert_true(po.deadline_h == 24.5);
    assert_int_equal(cf_plan_opts_set_num(&po, "deadline_h", CF_PLAN_DEADLINE_H_MIN, &e), CF_OK);
    assert_true(po.deadline_h == 0.001);
    refused(cf_plan_opts_set(&po, "deadline_h", "-3", &e), &e, "deadline_h",
            "deadline_h expects a number of hours from 0.001 to 1e+07, got '-3'");
    refused(cf_plan_opts_set(&po, "deadline_h", "0", &e), &e, "deadline_h", "got '0'");
    refused(cf_plan_opts_set(&po, "deadline_h", "0.000999", &e), &e, "deadline_h", "got '0.000999'");
    refused(cf_plan_opts_set(&po, "deadline_h", "10000001", &e), &e, "deadline_h", "got '10000001'");
    refused(cf_plan_opts_set(&po, "deadline_h", "24h", &e), &e, "deadline_h", "got '24h'");
    refused(cf_plan_opts_set(&po, "deadline_h", "nan", &e), &e, "deadline_h", "got 'nan'");
    refused(cf_plan_opts_set(&po, "deadline_h", "", &e), &e, "deadline_h", "got ''");
    /* A number is shown as its shortest exact decimal. */
    refused(cf_plan_opts_set_num(&po, "deadline_h", 0.0001, &e), &e, "deadline_h", "got '0.0001'");
    refused(cf_plan_opts_set_num(&po, "deadline_h", 2e7, &e), &e, "deadline_h", "got '20000000'");
    refused(cf_plan_opts_set_num(&po, "deadline_h", -(0.1 + 0.2), &e), &e, "deadline_h",
            "got '-0.30000000000000004'");
    refused(cf_plan_opts_set_num(&po, "deadline_h", -0.3, &e), &e, "deadline_h", "got '-0.3'");
    refused(cf_plan_opts_set_num(&po, "deadline_h", NAN, &e), &e, "deadline_h", "got 'nan'");
    refused(cf_plan_opts_set_num(&po, "deadline_h", INFINITY, &e), &e, "deadline_h", "got 'inf'");
    /* Refusals leave the last value. */
    assert_true(po.deadline_h == 0.001);
}

static void budget(void **state)
{
    cf_plan_opts po;
    cf_error e;
    (void)state;
    cf_plan_opts_init(&po);
    assert_int_equal(cf_plan_opts_set(&po, "budget", "100000", &e), CF_OK);
    assert_true(po.budget == 100000);
    assert_int_equal(cf_plan_opts_set(&po, "budget", "0.001", &e), CF_OK);
    assert_true(po.budget == CF_PLAN_BUDGET_MIN);
    assert_int_equal(cf_plan_opts_set(&po, "budget", "1e18", &e), CF_OK);
    assert_true(po.budget == CF_PLAN_BUDGET_MAX);
    /* Above the API's old 1e15, below the CLI's old 1e18: both take it. */
    assert_int_equal(cf_plan_opts_set_num(&po, "budget", 5e16, &e), CF_OK);
    assert_true(po.budget == 5e16);
    refused(cf_plan_opts_set(&po, "budget", "0", &e), &e, "budget",
            "budget expects an amount in the planning currency from 0.001 to 1e+18, got '0'");
    refused(cf_plan_opts_set(&po, "budget", "1.1e18", &e), &e, "budget", "got '1.1e18'");
    refused(cf_plan_opts_set(&po, "budget", "1,000", &e), &e, "budget", "got '1,000'");
    refused(cf_plan_opts_set_num(&po, "budget", -5, &e), &e, "budget", "got '-5'");
    refused(cf_plan_opts_set_num(&po, "budget", 0.0005, &e), &e, "budget", "got '0.0005'");
    assert_true(po.budget == 5e16);
}

static void top_and_max_gpus(void **state)
{
    cf_plan_opts po;
    cf_error e;
    (void)state;
    cf_plan_opts_init(&po);
    assert_int_equal(cf_plan_opts_set(&po, "top", "1", &e), CF_OK);
    assert_int_equal(po.top, 1);
    assert_int_equal(cf_plan_opts_set(&po, "top", "100000", &e), CF_OK);
    assert_int_equal(po.top, CF_PLAN_TOP_MAX);
    /* An integral number is the integer (JSON's 5.0). */
    assert_int_equal(cf_plan_opts_set_num(&po, "top", 5.0, &e), CF_OK);
    assert_int_equal(po.top, 5);
    refused(cf_plan_opts_set(&po, "top", "0", &e), &e, "top",
            "top expects an integer from 1 to 100000 (rows), got '0'");
    refused(cf_plan_opts_set(&po, "top", "100001", &e), &e, "top", "got '100001'");
    refused(cf_plan_opts_set(&po, "top", "-1", &e), &e, "top", "got '-1'");
    /* Integers as written: no exponent, no fraction, no overflow. */
    refused(cf_plan_opts_set(&po, "top", "1e3", &e), &e, "top", "got '1e3'");
    refused(cf_plan_opts_set(&po, "top", "5.0", &e), &e, "top", "got '5.0'");
    refused(cf_plan_opts_set(&po, "top", "99999999999999999999", &e), &e, "top",
            "got '99999999999999999999'");
    refused(cf_plan_opts_set_num(&po, "top", 2.5, &e), &e, "top", "got '2.5'");
    refused(cf_plan_opts_set_num(&po, "top", 0, &e), &e, "top", "got '0'");
    assert_int_equal(po.top, 5);

    assert_int_equal(cf_plan_opts_set(&po, "max_gpus", "4096", &e), CF_OK);
    assert_int_equal(po.max_gpus, 4096);
    assert_int_equal(cf_plan_opts_set(&po, "max_gpus", "1", &e), CF_OK);
    assert_int_equal(po.max_gpus, 1);
    assert_int_equal(cf_plan_opts_set(&po, "max_gpus", "1048576", &e), CF_OK);
    assert_int_equal(po.max_gpus, CF_PLAN_MAX_GPUS_MAX);
    assert_int_equal(cf_plan_opts_set_num(&po, "max_gpus", 16384, &e), CF_OK);
    assert_int_equal(po.max_gpus, 16384);
    refused(cf_plan_opts_set(&po, "max_gpus", "0", &e), &e, "max_gpus",
            "max_gpus expects an integer from 1 to 1048576 (GPUs), got '0'");
    refused(cf_plan_opts_set(&po, "max_gpus", "1048577", &e), &e, "max_gpus", "got '1048577'");
    /* The CLI's old ceiling, 10^7, is past the one bound. */
    refused(cf_plan_opts_set(&po, "max_gpus", "10000000", &e), &e, "max_gpus", "got '10000000'");
    refused(cf_plan_opts_set_num(&po, "max_gpus", 4096.5, &e), &e, "max_gpus", "got '4096.5'");
    assert_int_equal(po.max_gpus, 16384);
}

static void currency_and_names(void **state)
{
    cf_plan_opts po;
    cf_error e;
    const char *eur = "EUR";
    (void)state;
    cf_plan_opts_init(&po);
    assert_int_equal(cf_plan_opts_set(&po, "currency", eur, &e), CF_OK);
    assert_ptr_equal(po.currency, eur);     /* borrowed */
    refused(cf_plan_opts_set(&po, "currency", "euro", &e), &e, "currency",
            "currency expects an ISO 4217 code such as USD or EUR, got 'euro'");
    refused(cf_plan_opts_set_num(&po, "currency", 978, &e), &e, "currency", "got '978'");
    assert_ptr_equal(po.currency, eur);
    /* The CLI's spelling is not the library's: --deadline is deadline_h. */
    refused(cf_plan_opts_set(&po, "deadline", "24", &e), &e, "",
            "unknown plan option 'deadline' (accepted: objective, deadline_h, budget, currency, "
            "max_gpus, top, margin_pct, known_only, no_failures, "
            "mtbf_gpu_h, ckpt_interval, ckpt_async)");
    refused(cf_plan_opts_set(&po, "max-gpus", "8", &e), &e, "", "unknown plan option 'max-gpus'");
    refused(cf_plan_opts_set_num(&po, "progress", 1, &e), &e, "", "unknown plan option 'progress'");
    refused(cf_plan_opts_set(NULL, "top", "1", &e), &e, "", "no plan options");
    refused(cf_plan_opts_set(&po, NULL, "1", &e), &e, "", "no plan options");
    /* err may be NULL. */
    assert_int_equal(cf_plan_opts_set(&po, "top", "0", NULL), CF_EINVAL);
    assert_int_equal(cf_plan_opts_set_num(&po, "top", 0, NULL), CF_EINVAL);
    assert_int_equal(cf_plan_opts_finish(NULL, NULL), CF_EINVAL);
    assert_int_equal(po.top, 0);
}

/* The objective's default: a budget alone asks for the fastest plan. */
static void finish_objective(void **state)
{
    cf_plan_opts po;
    cf_error e;
    (void)state;
    /* Nothing given: cost. */
    cf_plan_opts_init(&po);
    assert_int_equal(cf_plan_opts_finish(&po, &e), CF_OK);
    assert_int_equal(po.objective, CF_OBJ_COST);
    /* A budget alone: time; again (idempotent): still time. */
    assert_int_equal(cf_plan_opts_set(&po, "budget", "100000", &e), CF_OK);
    assert_int_equal(cf_plan_opts_finish(&po, &e), CF_OK);
    assert_int_equal(po.objective, CF_OBJ_TIME);
    assert_int_equal(cf_plan_opts_finish(&po, &e), CF_OK);
    assert_int_equal(po.objective, CF_OBJ_TIME);
    /* ... as a number too (the API). */
    cf_plan_opts_init(&po);
    assert_int_equal(cf_plan_opts_set_num(&po, "budget", 2e6, &e), CF_OK);
    assert_int_equal(cf_plan_opts_finish(&po, &e), CF_OK);
    assert_int_equal(po.objective, CF_OBJ_TIME);
    /* A budget with an objective given, even the default one: as given. */
    cf_plan_opts_init(&po);
    assert_int_equal(cf_plan_opts_set(&po, "objective", "cost", &e), CF_OK);
    assert_int_equal(cf_plan_opts_set(&po, "budget", "100000", &e), CF_OK);
    assert_int_equal(cf_plan_opts_finish(&po, &e), CF_OK);
    assert_int_equal(po.objective, CF_OBJ_COST);
    /* The order of the setters does not matter. */
    cf_plan_opts_init(&po);
    assert_int_equal(cf_plan_opts_set(&po, "budget", "100000", &e), CF_OK);
    assert_int_equal(cf_plan_opts_set(&po, "objective", "cost", &e), CF_OK);
    assert_int_equal(cf_plan_opts_finish(&po, &e), CF_OK);
    assert_int_equal(po.objective, CF_OBJ_COST);
    /* A budget with a deadline: the deadline's cost objective. */
    cf_plan_opts_init(&po);
    assert_int_equal(cf_plan_opts_set(&po, "budget", "100000", &e), CF_OK);
    assert_int_equal(cf_plan_opts_set(&po, "deadline_h", "2160", &e), CF_OK);
    assert_int_equal(cf_plan_opts_finish(&po, &e), CF_OK);
    assert_int_equal(po.objective, CF_OBJ_COST);
    /* A deadline alone: cost; time only when asked. */
    cf_plan_opts_init(&po);
    assert_int_equal(cf_plan_opts_set(&po, "deadline_h", "2160", &e), CF_OK);
    assert_int_equal(cf_plan_opts_finish(&po, &e), CF_OK);
    assert_int_equal(po.objective, CF_OBJ_COST);
    assert_int_equal(cf_plan_opts_set(&po, "objective", "time", &e), CF_OK);
    assert_int_equal(cf_plan_opts_finish(&po, &e), CF_OK);
    assert_int_equal(po.objective, CF_OBJ_TIME);
}

/* Fields set directly are held to the same bounds, by finish and by the
 * check cf_plan makes; the defaults (NAN, 0) pass. */
static void check_direct_fields(void **state)
{
    cf_plan_opts po;
    cf_error e;
    (void)state;
    cf_plan_opts_init(&po);
    assert_int_equal(cf__plan_check_opts(&po, &e), CF_OK);
    po.deadline_h = 1e-6;       /* the CLI's old floor */
    refused(cf_plan_opts_finish(&po, &e), &e, "deadline_h", "got '1e-06'");
    refused(cf__plan_check_opts(&po, &e), &e, "deadline_h", "from 0.001 to 1e+07");
    po.deadline_h = NAN;
    po.budget = 0;
    refused(cf__plan_check_opts(&po, &e), &e, "budget", "got '0'");
    po.budget = 1e15;
    assert_int_equal(cf__plan_check_opts(&po, &e), CF_OK);
    po.top = -1;
    refused(cf__plan_check_opts(&po, &e), &e, "top", "got '-1'");
    po.top = 0;
    po.max_gpus = 10000000;     /* the CLI's old ceiling */
    refused(cf__plan_check_opts(&po, &e), &e, "max_gpus", "got '10000000'");
    po.max_gpus = 0;
    po.objective = (cf_objective)7;
    refused(cf__plan_check_opts(&po, &e), &e, "objective", "got '7'");
    assert_int_equal(cf__plan_check_opts(&po, NULL), CF_EINVAL);
    po.objective = CF_OBJ_TIME;
    assert_int_equal(cf__plan_check_opts(&po, &e), CF_OK);
}

/* margin_pct (percent, 0..100; NAN = the default) and known_only (a
 * boolean in words): the bounds at their edges and the refusals. */
static void margin_and_known_only(void **state)
{
    cf_plan_opts po;
    cf_error e;
    (void)state;
    cf_plan_opts_init(&po);
    assert_true(isnan(po.margin_pct));
    assert_int_equal(po.known_only, 0);
    assert_int_equal(cf_plan_opts_set(&po, "margin_pct", "0", &e), CF_OK);
    assert_true(po.margin_pct == 0);
    assert_int_equal(cf_plan_opts_set(&po, "margin_pct", "100", &e), CF_OK);
    assert_true(po.margin_pct == 100);
    refused(cf_plan_opts_set(&po, "margin_pct", "100.5", &e), &e, "margin_pct",
            "margin_pct expects a percentage from 0 to 100, got '100.5'");
    refused(cf_plan_opts_set(&po, "margin_pct", "-1", &e), &e, "margin_pct", "got '-1'");
    refused(cf_plan_opts_set(&po, "margin_pct", "8%", &e), &e, "margin_pct", "got '8%'");
    assert_true(po.margin_pct == 100);       /* unchanged on error */
    assert_int_equal(cf_plan_opts_set_num(&po, "margin_pct", 12.5, &e), CF_OK);
    assert_true(po.margin_pct == 12.5);
    assert_int_equal(cf_plan_opts_set(&po, "known_only", "true", &e), CF_OK);
    assert_int_equal(po.known_only, 1);
    assert_int_equal(cf_plan_opts_set(&po, "known_only", "no", &e), CF_OK);
    assert_int_equal(po.known_only, 0);
    refused(cf_plan_opts_set(&po, "known_only", "maybe", &e), &e, "known_only",
            "known_only expects true or false, got 'maybe'");
    refused(cf_plan_opts_set_num(&po, "known_only", 1, &e), &e, "known_only", "got '1'");
    /* A field set directly is held to the same bounds. */
    po.margin_pct = 150;
    refused(cf_plan_opts_finish(&po, &e), &e, "margin_pct", "got '150'");
    po.margin_pct = NAN;
    assert_int_equal(cf_plan_opts_finish(&po, &e), CF_OK);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(init_defaults),
        cmocka_unit_test(objective),
        cmocka_unit_test(deadline),
        cmocka_unit_test(budget),
        cmocka_unit_test(top_and_max_gpus),
        cmocka_unit_test(currency_and_names),
        cmocka_unit_test(finish_objective),
        cmocka_unit_test(check_direct_fields),
        cmocka_unit_test(margin_and_known_only),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
