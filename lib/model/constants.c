/* constants.c — the model's constant table, built from the one list in
 * model/constants.def (values, units and sources live there only). */
#include "model/model_int.h"

const cf_model_constant cf__model_constants[CF_K__COUNT] = {
#define CF_CONSTANT(id, v, u, s) {#id, (v), (u), (s)},
#include "model/constants.def"
#undef CF_CONSTANT
};

const cf_model_constant *cf_model_constants(size_t *n)
{
    if (n) *n = CF_K__COUNT;
    return cf__model_constants;
}
