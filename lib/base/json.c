/* json.c — the small jansson helpers every JSON document of the library
 * needs: numbers that become null when they are not finite, strings that
 * become null when absent, a set that notices a failed allocation, and a
 * word for a value's kind in error messages. */
#include <math.h>
#include <stdio.h>
#include "base/base.h"

json_t *cf__json_num(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

json_t *cf__json_str(const char *s)
{
    return s ? json_string(s) : json_null();
}

int cf__json_set(json_t *o, const char *key, json_t *v)
{
    if (!o || !v) {
        json_decref(v);
        return -1;
    }
    return json_object_set_new(o, key, v);
}

const char *cf__json_describe(const json_t *v, char *buf, size_t n)
{
    if (json_is_string(v)) {
        const char *s = json_string_value(v);
        size_t len = strlen(s), cut = len > 60 ? 60 : len;
        while (cut < len && cut > 0 && ((unsigned char)s[cut] & 0xc0) == 0x80) cut--;
        snprintf(buf, n, "the string \"%.*s%s\"", (int)cut, s, cut < len ? "..." : "");
    } else if (json_is_integer(v)) {
        snprintf(buf, n, "the number %" JSON_INTEGER_FORMAT, json_integer_value(v));
    } else if (json_is_real(v)) {
        snprintf(buf, n, "the number %.15g", json_real_value(v));
    } else if (json_is_true(v)) {
        snprintf(buf, n, "true");
    } else if (json_is_false(v)) {
        snprintf(buf, n, "false");
    } else if (json_is_array(v)) {
        snprintf(buf, n, json_array_size(v) ? "an array" : "an empty array");
    } else if (json_is_object(v)) {
        snprintf(buf, n, "an object");
    } else {
        snprintf(buf, n, "null");
    }
    return buf;
}
