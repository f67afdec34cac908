/* serve_int.h — what the serving model's files share (model/serve*.c,
 * plan/serve_*.c): the reader of a serve workload's own keys and the
 * refusal of a serve workload by a training-only entry point. Not
 * installed; symbols are cf__-prefixed and hidden. */
#ifndef CLUSTERFIT_SERVE_INT_H
#define CLUSTERFIT_SERVE_INT_H

#include <jansson.h>
#include "clusterfit/status.h"
#include "clusterfit/workload.h"

/* Reads the serve keys of workload document j (precision, kv_cache,
 * request, targets, traffic) into w->serve and w->precision (fp4 reads as
 * CF_PREC_FP8 there, weight_bits 4). CF_EPARSE naming origin and the dotted
 * field (model/serve_workload.c). */
cf_status cf__serve_spec_read(const json_t *j, const char *origin, cf_workload *w, cf_error *err);

/* CF_EINVAL (param "workload") when w is a serve workload: `what` (a
 * training-only entry point: "predict step", "the training plan") times or
 * plans training steps, and the message names the commands that plan
 * serving. CF_OK otherwise. err may be NULL. */
cf_status cf__serve_refuse(const cf_workload *w, const char *what, cf_error *err);

/* The size_class of a serving row of a validation (model/serve_validate.c):
 * collectives rows have their CF_VSIZE_* (>= 0), training rows -1. A
 * serving row's `framework` is its phase ("prefill" or "decode"), the
 * class its efficiency is fitted on (model/fitspec.def). */
#define CF__VROW_SERVING (-2)

/* validate serving on CSV text in memory (`len` bytes, `name` in errors):
 * the contract of cf_validate_serving (model/refit.c's sets read files
 * once). */
struct cf_validation;
cf_status cf__validate_serving_text(const char *name, const char *data, size_t len,
                                    struct cf_validation *out, cf_error *err);

#endif
