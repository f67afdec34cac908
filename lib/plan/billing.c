/* billing.c — what a provider bills for a run: whole billing increments, then
 * the minimum commitment (DESIGN §3 columns billing_increment_s and
 * min_commitment_h, §4.5 cost). Every node of the cluster is billed for the
 * whole run, so the job's cost is nodes × gpus_per_node × price × billed
 * hours. Unknown billing terms are reported through flags, never guessed. */
#include <math.h>
#include "clusterfit/billing.h"

/* A run of exactly k increments must not be billed k+1 because of rounding
 * in hours→seconds: quotients within this of an integer count as integers. */
#define BILL_EPS 1e-9

double cf_billed_hours(double run_h, double increment_s, double min_commitment_h,
                       unsigned *flags)
{
    double billed_h;
    if (isnan(run_h) || run_h < 0) return NAN;
    if (isnan(increment_s) || increment_s <= 0) {
        if (flags && isnan(increment_s)) *flags |= CF_BILL_INCREMENT_UNKNOWN;
        billed_h = run_h;
    } else {
        double q = run_h * 3600.0 / increment_s;
        double n = ceil(q - BILL_EPS);
        if (n < 0) n = 0;
        billed_h = n * increment_s / 3600.0;
    }
    if (isnan(min_commitment_h)) {
        if (flags) *flags |= CF_BILL_COMMITMENT_UNKNOWN;
    } else if (billed_h < min_commitment_h) {
        billed_h = min_commitment_h;
    }
    return billed_h;
}

double cf_job_cost(int nodes, int gpus_per_node, double price_gpu_hr, double run_h,
                   double increment_s, double min_commitment_h, unsigned *flags)
{
    double h = cf_billed_hours(run_h, increment_s, min_commitment_h, flags);
    if (isnan(h) || isnan(price_gpu_hr) || nodes < 1 || gpus_per_node < 1) return NAN;
    return (double)nodes * (double)gpus_per_node * price_gpu_hr * h;
}
