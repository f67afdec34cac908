/* layouts.c — parallel layouts as a concept of their own: the words a
 * layout is shown in ("TP4 PP2v2 CP2 DP2 with ZeRO-3 and full recompute"),
 * used by `plan`'s why line, `scale`'s notes, `fit` and `predict step`
 * alike so that one layout always reads the same. */
#include <stdio.h>
#include "model/model_int.h"

void cf_layout_words(char *buf, size_t cap, const cf_layout *l, cf_workload_kind kind)
{
    int llm = kind == CF_WL_LLM;
    size_t n = 0;
    const char *rc;
#define PUT(...) do { if (n < cap) n += (size_t)snprintf(buf + n, cap - n, __VA_ARGS__); } while (0)
    if (cap == 0) return;
    buf[0] = '\0';
    if (!llm) { PUT("DP%d", l->dp); return; }
    if (l->tp > 1) PUT("TP%d ", l->tp);
    if (l->pp > 1) PUT("PP%d%s ", l->pp, l->vp > 1 ? "v2" : "");
    if (l->cp > 1) PUT("CP%d ", l->cp);
    PUT("DP%d", l->dp);
    rc = l->recompute == CF_RECOMPUTE_FULL ? "full" : l->recompute == CF_RECOMPUTE_SELECTIVE ? "selective" : "no";
    if (l->zero > 0) PUT(" with ZeRO-%d and %s recompute", l->zero, rc);
    else PUT(" with %s recompute", rc);
#undef PUT
}
