/* fuzz_topo.c — nvidia-smi topo -m header, rows, NIC legend, analysis. */
#include "fuzz_common.h"
#include "audit/audit_int.h"

typedef struct st { cf__topo t; int have; } st;

static void line(void *ctx, const char *s, size_t n)
{
    st *t = ctx;
    cf__topo tmp;
    if (cf__topo_header(s, n, &tmp)) {
        t->t = tmp;
        t->have = 1;
        return;
    }
    if (!t->have) return;
    if (!cf__topo_row(s, n, &t->t)) (void)cf__topo_nic_legend(s, n, &t->t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static st t;
    cf__topo_analysis an;
    memset(&t, 0, sizeof t);
    fuzz_lines(data, size, line, &t);
    if (t.have) cf__topo_analyze(&t.t, &an);
    return 0;
}
