/* fuzz_ncclog.c — NCCL_DEBUG lines through the prefix stripper and parser. */
#include "fuzz_common.h"
#include "audit/audit_int.h"

static void line(void *ctx, const char *s, size_t n)
{
    cf__nccl_line l;
    size_t m = n;
    const char *p = cf__strip_prefixes(s, &m);
    (void)ctx;
    cf__nccl_parse(p, m, &l);
    if (l.kind == CF__NL_CHANNEL) (void)cf__net_family(l.net, strlen(l.net));
    if (l.kind == CF__NL_ENV) (void)cf__gdr_level(l.text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_lines(data, size, line, NULL);
    return 0;
}
