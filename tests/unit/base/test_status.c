/* test_status.c — the one status list (CF_STATUS_MAP, status.h) and the
 * three views made from it: the enum values, cf_strerror's messages and
 * cf_status_exit_code's codes. Values and messages are pinned as they were
 * before the list existed; exit codes are README's "Exit codes": 0 success,
 * 2 usage error (or a request the model cannot answer for that input), 3 bad
 * input file, 4 internal error, 5 the environment (locked, disk full,
 * read-only). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "clusterfit/status.h"

/* Every row of the list, as the list states it. */
static const struct row { cf_status st; int value; const char *message; int exit_code; } rows[] = {
#define ROW(name, value, message, exit_code) { name, value, message, exit_code },
    CF_STATUS_MAP(ROW)
#undef ROW
};
#define NROWS (sizeof rows / sizeof rows[0])

static void values_pinned(void **state)
{
    (void)state;
    assert_int_equal(NROWS, 12);
    assert_int_equal(CF_OK, 0);
    assert_int_equal(CF_ENOMEM, 1);
    assert_int_equal(CF_EINVAL, 2);
    assert_int_equal(CF_EPARSE, 3);
    assert_int_equal(CF_ELIMIT, 4);
    assert_int_equal(CF_EIO, 5);
    assert_int_equal(CF_ENOTFOUND, 6);
    assert_int_equal(CF_EDB, 7);
    assert_int_equal(CF_EUNSUPPORTED, 8);
    assert_int_equal(CF_EINTERNAL, 9);
    assert_int_equal(CF_EBUSY, 10);
    assert_int_equal(CF_EENV, 11);
    for (size_t i = 0; i < NROWS; i++) {
        assert_int_equal((int)rows[i].st, rows[i].value);
        assert_int_equal(rows[i].value, (int)i); /* dense, in order, from 0 */
    }
}

static void every_status_has_a_message(void **state)
{
    (void)state;
    for (size_t i = 0; i < NROWS; i++) {
        const char *m = cf_strerror(rows[i].st);
        assert_non_null(m);
        assert_true(m[0] != '\0');
        assert_string_equal(m, rows[i].message);
        assert_string_not_equal(m, "unknown status");
        for (size_t j = 0; j < i; j++) /* one message per status */
            assert_string_not_equal(m, cf_strerror(rows[j].st));
    }
}

static void messages_pinned(void **state)
{
    (void)state;
    assert_string_equal(cf_strerror(CF_OK), "success");
    assert_string_equal(cf_strerror(CF_ENOMEM), "out of memory");
    assert_string_equal(cf_strerror(CF_EINVAL), "invalid argument");
    assert_string_equal(cf_strerror(CF_EPARSE), "malformed input");
    assert_string_equal(cf_strerror(CF_ELIMIT), "input over a size limit");
    assert_string_equal(cf_strerror(CF_EIO), "cannot read an input file");
    assert_string_equal(cf_strerror(CF_ENOTFOUND), "not found");
    assert_string_equal(cf_strerror(CF_EDB), "catalog database error");
    assert_string_equal(cf_strerror(CF_EUNSUPPORTED), "not supported by the model");
    assert_string_equal(cf_strerror(CF_EINTERNAL), "internal error");
    assert_string_equal(cf_strerror(CF_EBUSY), "locked by another process");
    assert_string_equal(cf_strerror(CF_EENV), "disk full or read-only");
}

static void exit_codes_pinned(void **state)
{
    (void)state;
    assert_int_equal(cf_status_exit_code(CF_OK), 0);
    assert_int_equal(cf_status_exit_code(CF_ENOMEM), 4);
    assert_int_equal(cf_status_exit_code(CF_EINVAL), 2);
    assert_int_equal(cf_status_exit_code(CF_EPARSE), 3);
    assert_int_equal(cf_status_exit_code(CF_ELIMIT), 3);
    assert_int_equal(cf_status_exit_code(CF_EIO), 3);  /* an unreadable input file is bad input */
    assert_int_equal(cf_status_exit_code(CF_ENOTFOUND), 2);
    assert_int_equal(cf_status_exit_code(CF_EDB), 4);
    assert_int_equal(cf_status_exit_code(CF_EUNSUPPORTED), 2);
    assert_int_equal(cf_status_exit_code(CF_EINTERNAL), 4);
    assert_int_equal(cf_status_exit_code(CF_EBUSY), 5);
    assert_int_equal(cf_status_exit_code(CF_EENV), 5);
    for (size_t i = 0; i < NROWS; i++) {
        int code = cf_status_exit_code(rows[i].st);
        assert_int_equal(code, rows[i].exit_code);
        /* 1 is the audit's verdict, never a status's */
        assert_true(code == 0 || code == 2 || code == 3 || code == 4 || code == 5);
        assert_true((code == 0) == (rows[i].st == CF_OK));
    }
}

/* A value outside the enum (a caller's cast) still gets a message and the
 * internal-error code. */
static void out_of_range(void **state)
{
    (void)state;
    assert_string_equal(cf_strerror((cf_status)NROWS), "unknown status");
    assert_string_equal(cf_strerror((cf_status)-1), "unknown status");
    assert_int_equal(cf_status_exit_code((cf_status)NROWS), 4);
    assert_int_equal(cf_status_exit_code((cf_status)-1), 4);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(values_pinned),
        cmocka_unit_test(every_status_has_a_message),
        cmocka_unit_test(messages_pinned),
        cmocka_unit_test(exit_codes_pinned),
        cmocka_unit_test(out_of_range),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
