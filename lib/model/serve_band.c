/* serve_band.c — the p10-p90 band of every serving figure the model
 * predicts (issue 25; docs/model-serve.md "Band"): the one place plan,
 * scale, fit and fabrics take it from.
 *
 * ERR_SERVE_P10 / ERR_SERVE_P90 (constants.def, written by `make
 * fit-update` from `validate serving --cv source`) are the p10 and p90 of
 * measured time / predicted time, i.e. predicted tokens/s / measured
 * tokens/s, over the serving rows each predicted by a fit that left the
 * row's source out. A predicted time or a cost per token c (cost moves
 * with time at a fixed price) lies in [c x p10, c x p90]; a predicted
 * throughput x (tokens/s, requests/s) in [x / p90, x / p10]: on sources
 * the model never saw, 8 rows in 10 did. The cost band is therefore the
 * inverse of the throughput band: cost x throughput is the price. */
#include <math.h>
#include <stdio.h>
#include "clusterfit/serve.h"
#include "base/base.h"
#include "model/model_int.h"

void cf_serve_band(double v, cf_serve_band_kind kind, double *lo, double *hi)
{
    double p10 = cf__model_constants[CF_K_ERR_SERVE_P10].value;
    double p90 = cf__model_constants[CF_K_ERR_SERVE_P90].value;
    int ok = isfinite(v) && v >= 0 && p10 > 0 && p90 >= p10;
    if (lo) *lo = !ok ? NAN : kind == CF_SERVE_BAND_RATE ? v / p90 : v * p10;
    if (hi) *hi = !ok ? NAN : kind == CF_SERVE_BAND_RATE ? v / p10 : v * p90;
}

int cf_serve_band_json_set(json_t *j, const char *key, double v, cf_serve_band_kind kind)
{
    char k[96];
    double lo, hi;
    int bad = !j || !key;
    if (bad) return -1;
    cf_serve_band(v, kind, &lo, &hi);
    snprintf(k, sizeof k, "%s_p10", key);
    bad |= cf__json_set(j, k, cf__json_num(lo));
    snprintf(k, sizeof k, "%s_p90", key);
    bad |= cf__json_set(j, k, cf__json_num(hi));
    return bad ? -1 : 0;
}

static double number_of(const json_t *o, const char *k)
{
    const json_t *v = json_object_get(o, k);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

int cf_serve_band_keys(json_t *o, const char *const *rates, const char *const *times)
{
    int bad = !o;
    for (size_t i = 0; !bad && rates && rates[i]; i++)
        bad |= cf_serve_band_json_set(o, rates[i], number_of(o, rates[i]), CF_SERVE_BAND_RATE);
    for (size_t i = 0; !bad && times && times[i]; i++)
        bad |= cf_serve_band_json_set(o, times[i], number_of(o, times[i]), CF_SERVE_BAND_TIME);
    return bad ? -1 : 0;
}

json_t *cf_serve_band_json(void)
{
    json_t *j = json_object();
    int bad = !j;
    bad |= cf__json_set(j, "class", cf__json_str("serve"));
    bad |= cf__json_set(j, "p10", cf__json_num(cf__model_constants[CF_K_ERR_SERVE_P10].value));
    bad |= cf__json_set(j, "p90", cf__json_num(cf__model_constants[CF_K_ERR_SERVE_P90].value));
    bad |= cf__json_set(j, "basis", cf__json_str(
        "measured/predicted time (predicted/measured tokens/s) of the serving validation rows, "
        "each predicted by a fit that left its source out (validate serving --cv source); "
        "rates: [x / p90, x / p10], times and costs per token: [x p10, x p90]"));
    if (bad) {
        json_decref(j);
        return NULL;
    }
    return j;
}
