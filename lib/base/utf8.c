/* utf8.c — the one UTF-8 check of the library. Every text cell of the
 * catalog (CSV, JSON, the SQLite file) goes through it before it is stored,
 * so what reaches a terminal or a web page is well-formed and free of
 * control characters. Written against RFC 3629 §4 (the byte ranges of
 * well-formed sequences) rather than a table, so overlong forms, surrogates
 * and code points above U+10FFFF are refused by the same range checks. */
#include "base/base.h"

long cf__bad_utf8(const unsigned char *s, size_t len, int multiline)
{
    size_t i = 0;
    while (i < len) {
        unsigned c = s[i];
        size_t n;
        unsigned cp;
        if (c < 0x80) {
            if (c < 0x20 && c != '\t' && !(multiline && (c == '\n' || c == '\r'))) return (long)i;
            if (c == 0x7f) return (long)i;
            i++;
            continue;
        }
        if (c >= 0xc2 && c <= 0xdf) { n = 1; cp = c & 0x1f; }
        else if (c >= 0xe0 && c <= 0xef) { n = 2; cp = c & 0x0f; }
        else if (c >= 0xf0 && c <= 0xf4) { n = 3; cp = c & 0x07; }
        else return (long)i;
        for (size_t k = 1; k <= n; k++) {
            if (i + k >= len || (s[i + k] & 0xc0) != 0x80) return (long)i;
            cp = (cp << 6) | (s[i + k] & 0x3f);
        }
        if ((n == 2 && cp < 0x800) || (n == 3 && (cp < 0x10000 || cp > 0x10ffff)) ||
            (cp >= 0xd800 && cp <= 0xdfff))
            return (long)i;
        i += n + 1;
    }
    return -1;
}
