/* interval.c — the p10-p90 band every predicted time and cost carries
 * (issue 20), and the deadline margin it gives.
 *
 * The band of a class is the p10 and p90 of measured time / predicted time
 * over that class's validation rows, each predicted by a fit that never
 * saw the row's source (constants.def ERR_*, written by `make fit` from
 * `validate refit --intervals`; model/crossval.c computes them). A
 * prediction t of the class lies in [t x p10, t x p90]: on sources the
 * model never saw, 8 runs in 10 did. A workload kind with no validation
 * rows (data-parallel CNNs, MPI stencils, batch jobs) takes the dense
 * band, and the output says so (cf_workload_error_class's *assumed). */
#include <math.h>
#include <stdio.h>
#include "clusterfit/workload.h"
#include "model/model_int.h"

void cf_error_band(cf_err_class c, double *p10, double *p90)
{
    static const int band[CF_ERRCLASS__COUNT][2] = {
        {CF_K_ERR_DENSE_P10, CF_K_ERR_DENSE_P90},
        {CF_K_ERR_MOE_P10, CF_K_ERR_MOE_P90},
        {CF_K_ERR_COLL_SMALL_P10, CF_K_ERR_COLL_SMALL_P90},
        {CF_K_ERR_COLL_MID_P10, CF_K_ERR_COLL_MID_P90},
        {CF_K_ERR_COLL_LARGE_P10, CF_K_ERR_COLL_LARGE_P90},
    };
    int i = c >= 0 && c < CF_ERRCLASS__COUNT ? (int)c : CF_ERRCLASS_DENSE;
    if (p10) *p10 = cf__model_constants[band[i][0]].value;
    if (p90) *p90 = cf__model_constants[band[i][1]].value;
}

cf_err_class cf_error_class_collective(uint64_t bytes)
{
    return bytes <= CF_VALIDATION_SMALL_MAX_BYTES ? CF_ERRCLASS_COLL_SMALL
           : bytes <= CF_VALIDATION_MID_MAX_BYTES ? CF_ERRCLASS_COLL_MID : CF_ERRCLASS_COLL_LARGE;
}

void cf_busbw_band(double busbw_GBps, uint64_t bytes, double *lo, double *hi)
{
    double p10, p90;
    int ok = busbw_GBps > 0 && isfinite(busbw_GBps);
    cf_error_band(cf_error_class_collective(bytes), &p10, &p90);
    if (lo) *lo = ok && p90 > 0 ? busbw_GBps / p90 : NAN;
    if (hi) *hi = ok && p10 > 0 ? busbw_GBps / p10 : NAN;
}

cf_err_class cf_workload_error_class(const cf_workload *w, int *assumed)
{
    int llm = w && w->kind == CF_WL_LLM;
    if (assumed) *assumed = !llm;
    return llm && cf__llm_is_moe(&w->llm) ? CF_ERRCLASS_MOE : CF_ERRCLASS_DENSE;
}

const char *cf_error_class_name(cf_err_class c)
{
    static const char *const names[CF_ERRCLASS__COUNT] = {"dense", "moe", "collective_small",
                                                          "collective_mid", "collective_large"};
    return c >= 0 && c < CF_ERRCLASS__COUNT ? names[c] : "dense";
}

double cf_default_margin_pct(const cf_workload *w)
{
    double p90;
    cf_error_band(cf_workload_error_class(w, NULL), NULL, &p90);
    /* whole percent, as --margin is given */
    return p90 > 1 ? floor((p90 - 1.0) * 100.0 + 0.5) : 0.0;
}

int cf_band_json_set(json_t *j, const char *key, double v, cf_err_class c)
{
    char k[96];
    double p10, p90;
    int bad = 0;
    cf_error_band(c, &p10, &p90);
    snprintf(k, sizeof k, "%s_p10", key);
    bad |= cf__json_set(j, k, cf__json_num(v * p10));
    snprintf(k, sizeof k, "%s_p90", key);
    bad |= cf__json_set(j, k, cf__json_num(v * p90));
    bad |= cf__json_set(j, "error_class", cf__json_str(cf_error_class_name(c)));
    return bad ? -1 : 0;
}
