/* constants.c — the model's constant table, built from the one list in
 * lib/model_constants.h (values, units and sources live there only). */
#include "model/model_constants.h"

const cf_model_constant cf__model_constants[CF_K__COUNT] = {
#define CF__K_ROW(id, v, u, s) {#id, (v), (u), (s)},
    CF_MODEL_CONSTANTS(CF__K_ROW)
#undef CF__K_ROW
};

const cf_model_constant *cf_model_constants(size_t *n)
{
    if (n) *n = CF_K__COUNT;
    return cf__model_constants;
}
