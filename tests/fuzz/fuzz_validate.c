/* fuzz_validate.c — the validation readers (lib/model/validate.c,
 * lib/model/validate_training.c over lib/base/csvtable.c): the same bytes as a
 * collectives file and as a training file, through the in-memory entry
 * points, then the result as JSON. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "clusterfit/validate.h"
#include "model/model_int.h"

static void check(cf_status st, cf_validation *v, const cf_error *err)
{
    if (st == CF_OK) {
        json_t *j = cf_validation_to_json(v);
        char *s = j ? json_dumps(j, 0) : NULL;
        free(s);
        json_decref(j);
        cf_validation_clear(v);
    } else if (strnlen(err->message, sizeof err->message) == sizeof err->message) {
        abort();    /* the message must be NUL-terminated */
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cf_validation v;
    cf_error err;
    /* an exact-size heap copy: a read past the end is an ASan report */
    char *copy = malloc(size ? size : 1);
    if (!copy) return 0;
    memcpy(copy, data, size);
    memset(&v, 0, sizeof v);
    memset(&err, 0, sizeof err);
    check(cf__validate_collectives_text("fuzz", copy, size, &v, &err), &v, &err);
    memset(&v, 0, sizeof v);
    memset(&err, 0, sizeof err);
    check(cf__validate_training_text("fuzz", copy, size, &v, &err), &v, &err);
    free(copy);
    return 0;
}
