/* rental.c — what a renter can actually rent (issue 23): the minimum rental
 * an offering's price terms carry (its stated min_commitment_h, or
 * CF_PLAN_DEFAULT_MIN_RENTAL_H where it states none: a cluster is never
 * rented for seconds), and the words and names of the bounds that moved a
 * plan's choice away from the plain best point (CF__BOUND_*: the deadline,
 * the budget, the time objective's efficiency floor CF_PLAN_TIME_E_FLOOR,
 * the minimum rental, the near tie). choose.c applies the bounds; this
 * file names them for the row's `chosen_by` and its why line. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "plan/plan_int.h"

void cf__plan_price_terms(const cf_offering *o, double price, cf__plan_price *pr)
{
    pr->price_gpu_hr = price;
    pr->increment_s = o->billing_increment_s;
    pr->min_commitment_h = isnan(o->min_commitment_h) ? CF_PLAN_DEFAULT_MIN_RENTAL_H : o->min_commitment_h;
}

static const char *const bound_names[] = {"deadline", "budget", "efficiency_floor", "min_rental",
                                          "near_tie"};

json_t *cf__plan_bound_json(unsigned bound)
{
    json_t *a = json_array();
    if (!a) return NULL;
    for (unsigned i = 0; i < sizeof bound_names / sizeof bound_names[0]; i++)
        if ((bound & (1u << i)) && json_array_append_new(a, json_string(bound_names[i])) != 0) {
            json_decref(a);
            return NULL;
        }
    return a;
}

void cf__plan_bound_why(char *buf, size_t cap, unsigned bound, double min_rental_h)
{
    size_t n = strlen(buf);
    int floor = (bound & CF__BOUND_E_FLOOR) != 0, rental = (bound & CF__BOUND_MIN_RENTAL) != 0;
    if ((!floor && !rental) || n >= cap) return;
    n += (size_t)snprintf(buf + n, cap - n, "; chosen over faster node counts that");
    if (floor && n < cap)
        n += (size_t)snprintf(buf + n, cap - n, " scale below E %.2f (the efficiency floor of the "
                              "time objective)%s", CF_PLAN_TIME_E_FLOOR, rental ? " or" : "");
    if (rental && n < cap)
        snprintf(buf + n, cap - n, " finish inside the %g h minimum rental, billed as long", min_rental_h);
}
