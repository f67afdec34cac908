/* billing.h — what a provider bills for a run (DESIGN.md §3 columns
 * billing_increment_s and min_commitment_h, §4.5 cost): the run rounded up
 * to whole billing increments, then raised to the minimum commitment; every
 * node of the cluster is billed for the whole run. Unknown billing terms are
 * reported through flags, never guessed. Pure functions: no allocation, no
 * state. */
#ifndef CLUSTERFIT_BILLING_H
#define CLUSTERFIT_BILLING_H

#include "status.h"

/* Flags set by cf_billed_hours and cf_job_cost for a term they could not
 * apply because the offering does not state it. */
enum {
    CF_BILL_INCREMENT_UNKNOWN = 1u << 0,    /* increment NAN: billed exactly */
    CF_BILL_COMMITMENT_UNKNOWN = 1u << 1    /* commitment NAN: none applied */
};

/* Billed hours of one run.
 * - computes: run_h rounded up to whole increments of increment_s, then at
 *   least min_commitment_h. Example: 10.2 h at 3600 s with a 24 h minimum →
 *   24 h; 30.2 h → 31 h
 * - inputs: run_h (hours), increment_s (seconds; NAN = unknown, ≤ 0 = none),
 *   min_commitment_h (hours; NAN = unknown)
 * - output: hours; *flags (may be NULL) gets CF_BILL_INCREMENT_UNKNOWN /
 *   CF_BILL_COMMITMENT_UNKNOWN OR-ed in (the caller zeroes it first)
 * - errors: NAN when run_h is NAN or negative
 * - ownership: pure
 * - source: the providers' billing terms in data/offerings.csv (DESIGN §3) */
CF_API double cf_billed_hours(double run_h, double increment_s, double min_commitment_h,
                              unsigned *flags);

/* Cost of one job.
 * - computes: nodes × gpus_per_node × price_gpu_hr × cf_billed_hours(run_h,
 *   increment_s, min_commitment_h) (DESIGN §4.5)
 * - inputs: node count, GPUs per node, price per GPU-hour (the offering's
 *   currency), run_h hours, billing terms as cf_billed_hours
 * - output: the cost in the price's currency; *flags as cf_billed_hours
 * - errors: NAN when the price or the billed hours are NAN or nodes or
 *   gpus_per_node < 1
 * - ownership: pure */
CF_API double cf_job_cost(int nodes, int gpus_per_node, double price_gpu_hr, double run_h,
                          double increment_s, double min_commitment_h, unsigned *flags);

#endif
