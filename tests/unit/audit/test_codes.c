/* test_codes.c — the finding codes of lib/audit/codes.def: each has a name,
 * a severity and a non-empty action, names are unique, and the list with
 * its severities is the one the man page documents (docs/man/30-audit.man,
 * "Finding codes:"), so a code cannot be emitted undocumented. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "audit/audit_int.h"
#include "../testutil.h"

static void every_code_complete(void **state)
{
    (void)state;
    assert_int_equal(CF__CODE__COUNT, 25);
    for (int c = 0; c < CF__CODE__COUNT; c++) {
        const char *name = cf__audit_code_name((cf__audit_code)c);
        const char *act = cf__audit_code_action((cf__audit_code)c);
        cf_severity sev = cf__audit_code_severity((cf__audit_code)c);
        assert_non_null(name);
        assert_true(strlen(name) >= 6);
        assert_true(strspn(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_") == strlen(name));
        assert_true(sev >= CF_SEV_INFO && sev < CF_SEV__COUNT);
        assert_non_null(act);
        assert_true(strlen(act) > 20);
        /* the lookup by name (text.c) finds the same action */
        assert_ptr_equal(cf__audit_action_of(name), act);
        for (int k = 0; k < c; k++) assert_string_not_equal(cf__audit_code_name((cf__audit_code)k), name);
    }
    assert_string_equal(cf__audit_action_of("NOT_A_CODE"), "");
}

static void known_values(void **state)
{
    (void)state;
    assert_string_equal(cf__audit_code_name(CF__CODE_GDR_DISABLED), "GDR_DISABLED");
    assert_int_equal(cf__audit_code_severity(CF__CODE_COMPLETION_ERROR), CF_SEV_ERROR);
    assert_int_equal(cf__audit_code_severity(CF__CODE_GDR_PARTIAL), CF_SEV_WARNING);
    assert_int_equal(cf__audit_code_severity(CF__CODE_SINGLE_RANK_RUNS), CF_SEV_INVALID);
    assert_int_equal(cf__audit_code_severity(CF__CODE_SEVERAL_RUNS), CF_SEV_INFO);
    assert_non_null(strstr(cf__audit_code_action(CF__CODE_RUN_TOO_SHORT), "-e 8G"));
    assert_non_null(strstr(cf__audit_code_action(CF__CODE_GDR_DISABLED), "NCCL_DEBUG=INFO"));
}

/* Finds code `name` in codes.def; -1 if absent. */
static int code_of(const char *name)
{
    for (int c = 0; c < CF__CODE__COUNT; c++)
        if (strcmp(cf__audit_code_name((cf__audit_code)c), name) == 0) return c;
    return -1;
}

static void man_page_agrees(void **state)
{
    size_t n;
    char *man = read_file("docs/man/30-audit.man", &n);
    char *p = strstr(man, "Finding codes:"), *end;
    int listed = 0, sev = -1;
    (void)state;
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
        else if (strcmp(word, "invalid") == 0) sev = CF_SEV_INVALID;
        else if (strcmp(word, "info") == 0) sev = CF_SEV_INFO;
        else {
            int c = code_of(word);
            if (c < 0) fail_msg("man page lists %s, codes.def has no such code", word);
            if ((int)cf__audit_code_severity((cf__audit_code)c) != sev)
                fail_msg("%s: severity differs between the man page and codes.def", word);
            listed++;
        }
    }
    assert_int_equal(listed, CF__CODE__COUNT);
    free(man);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_code_complete),
        cmocka_unit_test(known_values),
        cmocka_unit_test(man_page_agrees),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
