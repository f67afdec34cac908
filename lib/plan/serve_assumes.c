/* serve_assumes.c — the `assumes` of a serving answer (plan, fabrics): what
 * the serving model takes as given, each with its value, never a constant's
 * name (issue 25; new-user trial: "expert load imbalance SERVE_EP_IMBALANCE",
 * "targets met at the mean" beside a workload stating p90). */
#include <math.h>
#include <stdio.h>
#include "base/base.h"
#include "model/model_int.h"
#include "plan/serve_int.h"

json_t *cf__serve_assumes(const cf_workload *w)
{
    char imb[192], tg[256];
    /* the imbalance the model uses (model/serve.c): the workload's, else the constant */
    double k = w->serve.ep_imbalance >= 1 ? w->serve.ep_imbalance : CF_K(SERVE_EP_IMBALANCE);
    snprintf(imb, sizeof imb, "expert load imbalance x%.3g on EP layouts: the most loaded GPU gets "
             "%.3g x the mean routed tokens (%s)", k, k,
             w->serve.ep_imbalance >= 1 ? "the workload's ep_imbalance" : "EPLB, docs/model-serve.md");
    if (isnan(w->serve.percentile))
        snprintf(tg, sizeof tg, "TTFT = 2 x the prefill batch + the KV transfer; the targets are "
                 "checked at the mean");
    else
        snprintf(tg, sizeof tg, "TTFT = 2 x the prefill batch + the KV transfer; the targets are "
                 "checked at the mean: the workload's p%g is not modelled (one request shape, no "
                 "queueing spread)", w->serve.percentile);
    return json_pack("[s,s,s,s]", "two-batch overlap on EP layouts (DeepSeek, SGLang)", imb,
                     "a sequence holds its prompt and half its answer on average", tg);
}
