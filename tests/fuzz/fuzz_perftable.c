/* fuzz_perftable.c — nccl-tests rows and '#' lines, then the run analysis. */
#include "fuzz_common.h"
#include "audit/audit_int.h"

typedef struct st { cf__perf_row rows[64]; long n; cf__perf_layout lay; } st;

static void line(void *ctx, const char *s, size_t n)
{
    st *t = ctx;
    cf__perf_row r;
    cf__perf_comment c;
    size_t m = n;
    const char *p = cf__strip_prefixes(s, &m);
    cf__perf_parse_comment(p, m, &c);
    if (c.kind == CF__PC_HEADER) t->lay = c.layout;
    (void)cf__perf_collective_in(p, m);
    if (cf__perf_parse_row(p, m, NULL, &r) == CF__ROW_OK && t->n < 64) t->rows[t->n++] = r;
    if (cf__perf_parse_row(p, m, &t->lay, &r) == CF__ROW_OK && t->n < 64) t->rows[t->n++] = r;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    st t;
    cf__perf_analysis an;
    memset(&t, 0, sizeof t);
    fuzz_lines(data, size, line, &t);
    cf__perf_analyze(t.rows, t.n, &an);
    return 0;
}
