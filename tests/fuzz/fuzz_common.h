/* fuzz_common.h — shared by the libFuzzer harnesses: walks the input line by
 * line, handing each line to the parser in its own exact-size heap copy so
 * that AddressSanitizer sees any read past its end. */
#ifndef FUZZ_COMMON_H
#define FUZZ_COMMON_H
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef void (*fuzz_line_fn)(void *ctx, const char *s, size_t n);

static inline void fuzz_lines(const uint8_t *data, size_t size, fuzz_line_fn fn, void *ctx)
{
    size_t start = 0;
    for (size_t i = 0; i <= size; i++) {
        if (i == size || data[i] == '\n') {
            size_t n = i - start;
            char *copy = malloc(n ? n : 1);
            if (!copy) return;
            memcpy(copy, data + start, n);
            fn(ctx, copy, n);
            free(copy);
            start = i + 1;
        }
    }
}
#endif
