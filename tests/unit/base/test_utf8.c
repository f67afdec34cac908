/* test_utf8.c — the UTF-8 and control-character check every catalog cell
 * goes through (base/utf8.c). Byte sequences from RFC 3629 §3-4 and Markus
 * Kuhn's UTF-8 decoder stress test (boundary and malformed cases). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "base/base.h"

static long bad(const char *s, int multiline)
{
    return cf__bad_utf8((const unsigned char *)s, strlen(s), multiline);
}

static void well_formed(void **state)
{
    (void)state;
    assert_int_equal(bad("", 0), -1);
    assert_int_equal(bad("Zürich, São Paulo", 0), -1);
    assert_int_equal(bad("\xe2\x82\xac", 0), -1);             /* U+20AC, 3 bytes */
    assert_int_equal(bad("\xf0\x9f\x9a\x80", 0), -1);         /* U+1F680, 4 bytes */
    assert_int_equal(bad("\xf4\x8f\xbf\xbf", 0), -1);         /* U+10FFFF, the last */
    assert_int_equal(bad("a\tb", 0), -1);                     /* tab always allowed */
    assert_int_equal(bad("line 1\r\nline 2", 1), -1);         /* CR/LF when multiline */
}

static void malformed_at_offset(void **state)
{
    (void)state;
    assert_int_equal(bad("ab\xc0\xaf", 0), 2);                /* overlong '/' */
    assert_int_equal(bad("x\xe0\x80\xaf", 0), 1);             /* overlong, 3 bytes */
    assert_int_equal(bad("\xed\xa0\x80", 0), 0);              /* surrogate U+D800 */
    assert_int_equal(bad("ok\xf4\x90\x80\x80", 0), 2);        /* above U+10FFFF */
    assert_int_equal(bad("abc\xe2\x82", 0), 3);               /* truncated at the end */
    assert_int_equal(bad("\x80", 0), 0);                      /* lone continuation */
    assert_int_equal(bad("\xff", 0), 0);
    assert_int_equal(bad("a\nb", 0), 1);                      /* LF in a one-line cell */
    assert_int_equal(bad("ab\x1b[31m", 1), 2);                /* ESC even when multiline */
    assert_int_equal(bad("\x7f", 0), 0);                      /* DEL */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(well_formed),
        cmocka_unit_test(malformed_at_offset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
