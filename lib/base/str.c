/* str.c — small string helpers that the C library lacks or that need to
 * be locale-independent: ASCII case folding and the one bounded copy
 * (strlcpy's job; strncpy neither terminates nor stops padding). */
#include "base/base.h"

int cf__strcasecmp(const char *a, const char *b)
{
    for (;; a++, b++) {
        int ca = (unsigned char)*a, cb = (unsigned char)*b;
        if (ca >= 'A' && ca <= 'Z') ca += 32;
        if (cb >= 'A' && cb <= 'Z') cb += 32;
        if (ca != cb || !ca) return ca - cb;
    }
}

void cf__copy_n(char *dst, size_t cap, const char *src, size_t n)
{
    if (cap == 0) return;
    if (n >= cap) n = cap - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
}

void cf__copy(char *dst, size_t cap, const char *src)
{
    cf__copy_n(dst, cap, src, strlen(src));
}
