/* assumes.c — the facts a prediction rests on that its fabric does not
 * state (fabrics.h: cf_fabric_assumptions and the flag codes), so that
 * `predict`, `scale`, `plan` and `fabrics` say so in their `flags` and
 * `assumes:` lines instead of applying a silent penalty (issue 9, item 2).
 *
 * Computed from the fabric's fields alone, by the same rule as the
 * congestion model of model/collective.c (eta_at): for every fabric family,
 * beyond 2 nodes (one leaf switch), an unknown non_blocking or
 * rail_optimized is taken as no and flagged; collective.c sets the same
 * facts as cf_coll_result.assumed (CF_ASSUMED_*), which a unit test checks
 * against this function. */
#include <stddef.h>
#include "clusterfit/fabrics.h"

/* Codes and sentences, in bit order. */
static const struct {
    unsigned bit;
    const char *code, *text;
} flags[] = {
    {CF_FLAG_NON_BLOCKING_UNKNOWN, "non_blocking_unknown",
     "non_blocking unknown: taken as not non-blocking, so congestion lowers the network's "
     "efficiency as nodes are added (docs/model.md)"},
    {CF_FLAG_RAIL_OPTIMIZED_UNKNOWN, "rail_optimized_unknown",
     "rail_optimized unknown: taken as not rail-optimized (docs/model.md)"},
};

unsigned cf_fabric_assumptions(const cf_fabric *fab, int nodes)
{
    unsigned f = 0;
    if (!fab || nodes <= 2) return 0;
    if (fab->network == CF_NET_NONE || fab->network == CF_NET_UNKNOWN) return 0;
    if (fab->non_blocking == CF_CAP_UNKNOWN) f |= CF_FLAG_NON_BLOCKING_UNKNOWN;
    if (fab->rail_optimized == CF_CAP_UNKNOWN) f |= CF_FLAG_RAIL_OPTIMIZED_UNKNOWN;
    return f;
}

const char *cf_assumption_code(unsigned bit)
{
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        if (flags[i].bit == bit) return flags[i].code;
    return NULL;
}

const char *cf_assumption_text(unsigned bit)
{
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        if (flags[i].bit == bit) return flags[i].text;
    return NULL;
}

json_t *cf_assumption_flags_json(unsigned f)
{
    json_t *arr = json_array();
    if (!arr) return NULL;
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        if ((f & flags[i].bit) && json_array_append_new(arr, json_string(flags[i].code)) != 0) {
            json_decref(arr);
            return NULL;
        }
    return arr;
}
