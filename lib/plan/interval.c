/* interval.c — the p10-p90 band of a plan's, scale's and fabrics' rows
 * (issue 20): every predicted time and cost carries [x p10, x p90] of the
 * model's error out of sample for the workload's class (model/interval.c,
 * constants.def ERR_*), so that one place gives the fields all three
 * documents share. Cost moves with time at the row's price per GPU-hour. */
#include <math.h>
#include "clusterfit/validate.h"
#include "base/base.h"
#include "plan/plan_int.h"

int cf__plan_band_set(json_t *j, const cf_workload *w, double time_h, double cost)
{
    cf_err_class c = cf_workload_error_class(w, NULL);
    int bad = cf_band_json_set(j, "time_to_train_h", time_h, c);
    if (!isnan(cost) || json_object_get(j, "cost")) bad |= cf_band_json_set(j, "cost", cost, c);
    return bad;
}

json_t *cf__plan_error_json(const cf_workload *w, double margin_pct)
{
    int assumed = 0;
    double p10, p90;
    cf_err_class c = cf_workload_error_class(w, &assumed);
    json_t *j = json_object();
    int bad = !j;
    cf_error_band(c, &p10, &p90);
    bad |= cf__json_set(j, "class", cf__json_str(cf_error_class_name(c)));
    bad |= cf__json_set(j, "p10", cf__json_num(p10));
    bad |= cf__json_set(j, "p90", cf__json_num(p90));
    bad |= cf__json_set(j, "assumed", json_boolean(assumed));
    bad |= cf__json_set(j, "basis", cf__json_str(
        "measured/predicted time of the class's validation rows, each predicted by a fit that "
        "left its source out (make fit: validate refit --intervals)"));
    if (!isnan(margin_pct)) bad |= cf__json_set(j, "margin_pct", cf__json_num(margin_pct));
    if (bad) {
        json_decref(j);
        return NULL;
    }
    return j;
}
