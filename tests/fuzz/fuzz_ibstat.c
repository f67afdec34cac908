/* fuzz_ibstat.c — ibstat and ibv_devinfo lines into ports. */
#include <math.h>
#include "fuzz_common.h"
#include "audit/audit_int.h"

typedef struct st { cf__port p[2]; } st;

static void line(void *ctx, const char *s, size_t n)
{
    st *t = ctx;
    cf__ib_line l;
    cf__ibstat_parse(s, n, &l);
    if (l.kind == CF__IB_FIELD) cf__port_apply(&t->p[0], &l, 0);
    cf__ibv_parse(s, n, &l);
    if (l.kind == CF__IB_FIELD) cf__port_apply(&t->p[1], &l, 1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    st t;
    memset(&t, 0, sizeof t);
    t.p[0].rate_gbps = t.p[1].rate_gbps = NAN;
    fuzz_lines(data, size, line, &t);
    cf__port_finish(&t.p[0]);
    cf__port_finish(&t.p[1]);
    return 0;
}
