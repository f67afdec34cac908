/* test_hash.c — the one FNV-1a loop (base/hash.c). Expected values are the
 * FNV-1a 64-bit test vectors of the reference page
 * (http://www.isthe.com/chongo/tech/comp/fnv/) and, for cf__hash, the values
 * the audit's sets have always been keyed with (computed independently from
 * the definition: FNV-1a started from 1469598103934665603 ^ seed). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "base/base.h"

static void fnv1a_vectors(void **state)
{
    (void)state;
    assert_true(cf__fnv1a(CF__FNV_BASIS, "", 0) == 0xcbf29ce484222325ULL);
    assert_true(cf__fnv1a(CF__FNV_BASIS, "a", 1) == 0xaf63dc4c8601ec8cULL);
    assert_true(cf__fnv1a(CF__FNV_BASIS, "foobar", 6) == 0x85944171f73967e8ULL);
}

/* The catalog stores a hash built in two pieces (format tag, then the CSV):
 * continuing the running hash must equal hashing the concatenation. */
static void fnv1a_continues(void **state)
{
    uint64_t h = cf__fnv1a(CF__FNV_BASIS, "foo", 3);
    (void)state;
    assert_true(cf__fnv1a(h, "bar", 3) == 0x85944171f73967e8ULL);
    assert_true(cf__fnv1a(CF__FNV_BASIS, "clusterfit-shipped-2", 21) == 0x702c67aa3a3c0237ULL);
}

static void set_keys_unchanged(void **state)
{
    (void)state;
    assert_true(cf__hash("a", 1, 0) == 0x44bd8ad473cd9906ULL);
    assert_true(cf__hash("node-01", 7, 0) == 0x793a6065b1bd789dULL);
    assert_true(cf__hash("a", 1, 5) == 0x44bd8fd473cda185ULL);
    assert_true(cf__hash("a", 1, 0) != cf__fnv1a(CF__FNV_BASIS, "a", 1));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fnv1a_vectors),
        cmocka_unit_test(fnv1a_continues),
        cmocka_unit_test(set_keys_unchanged),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
