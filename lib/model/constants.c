/* constants.c — the model's constant table, built from the one list in
 * model/constants.def (values, units and sources live there only). */
#include "model/model_int.h"

/* The table the model reads (CF_K): constants.def's values, which only a
 * refit (model/refit.c, `clusterfit validate refit` and `--cv source`)
 * changes for the process, and cf__model_constants_restore() puts back. */
cf_model_constant cf__model_constants[CF_K__COUNT] = {
#define CF_CONSTANT(id, v, u, s) {#id, (v), (u), (s)},
#include "model/constants.def"
#undef CF_CONSTANT
};

/* constants.def's values, as shipped. */
static const double shipped[CF_K__COUNT] = {
#define CF_CONSTANT(id, v, u, s) (v),
#include "model/constants.def"
#undef CF_CONSTANT
};

double cf__model_constant_shipped(int k)
{
    return k >= 0 && k < CF_K__COUNT ? shipped[k] : 0.0;
}

void cf__model_constants_restore(void)
{
    for (int k = 0; k < CF_K__COUNT; k++) cf__model_constants[k].value = shipped[k];
}

const cf_model_constant *cf_model_constants(size_t *n)
{
    if (n) *n = CF_K__COUNT;
    return cf__model_constants;
}
