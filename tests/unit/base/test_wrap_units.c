/* test_wrap_units.c — a wrap never splits a number from its unit (issue 23:
 * the new-user trial saw "lost work +9.5" / "%, restarts"). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "clusterfit/units.h"
#include "base/base.h"

static int glues(const char *a, const char *b)
{
    return cf_unit_glues(a, strlen(a), b, strlen(b));
}

static void unit_words(void **state)
{
    (void)state;
    assert_int_equal(glues("+9.5", "%,"), 1);
    assert_int_equal(glues("12.5", "GB/s"), 1);
    assert_int_equal(glues("400", "Gbit/s)"), 1);
    assert_int_equal(glues("-1.2", "pp;"), 1);
    assert_int_equal(glues("50", "ms"), 1);
    assert_int_equal(glues("lost", "%"), 0);      /* no number before it */
    assert_int_equal(glues("8", "nodes"), 0);     /* a count, not a unit */
    assert_int_equal(glues("8", "GPUs"), 0);
    assert_int_equal(cf_unit_glues(NULL, 0, "%", 1), 0);
    assert_int_equal(cf_unit_glues("1", 1, "", 0), 0);
}

/* A line whose break would fall between "+9.5" and "%" moves both words. */
static void wrap_keeps_number_and_unit(void **state)
{
    cf__buf b;
    /* "+9.5" ends at column 79: without the rule the break falls before "%," */
    const char *line = "goodput, 128 nodes: 0.875 of 29560 d steady: checkpoints +7.0 %, lost work +9.5 %, "
                       "restarts +0.5 %";
    (void)state;
    cf__buf_init(&b, 4096);
    assert_int_equal(cf__wrap_lines(&b, line, 80), CF_OK);
    assert_non_null(b.s);
    assert_non_null(strstr(b.s, "+9.5 %,"));
    for (const char *p = b.s; *p;) {          /* every line within 80 columns */
        size_t n = strcspn(p, "\n");
        assert_true(n <= 80);
        assert_false(n > 0 && p[strspn(p, " ")] == '%');  /* no line starts with a unit */
        p += n + (p[n] == '\n');
    }
    free(b.s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(unit_words),
        cmocka_unit_test(wrap_keeps_number_and_unit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
