/* replay_main.c — a main() for the libFuzzer harnesses when built with a
 * normal compiler: runs each file named on the command line through
 * LLVMFuzzerTestOneInput once (SQLite's fuzzcheck idea: CI replays the saved
 * corpus and every crash found, it does not fuzz). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        uint8_t *buf;
        long n;
        if (!f) {
            fprintf(stderr, "replay: cannot open %s\n", argv[i]);
            return 2;
        }
        fseek(f, 0, SEEK_END);
        n = ftell(f);
        fseek(f, 0, SEEK_SET);
        buf = malloc(n > 0 ? (size_t)n : 1);
        if (!buf || (n > 0 && fread(buf, 1, (size_t)n, f) != (size_t)n)) {
            fprintf(stderr, "replay: cannot read %s\n", argv[i]);
            fclose(f);
            free(buf);
            return 2;
        }
        fclose(f);
        LLVMFuzzerTestOneInput(buf, (size_t)n);
        free(buf);
    }
    return 0;
}
