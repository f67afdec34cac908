/* auditutil.h — helpers of the audit's rule tests (include after
 * <cmocka.h>): audit texts as files through the public API and read the
 * report's fields. */
#ifndef CLUSTERFIT_AUDITUTIL_H
#define CLUSTERFIT_AUDITUTIL_H

#include <math.h>
#include <string.h>
#include "clusterfit/audit.h"

/* Audits texts[0..n) as files names[0..n) with --expect-gbps `gbps` (NAN:
 * none); returns the report (the caller frees it), *st the status. Fails
 * the test if the audit does not succeed. */
static inline json_t *audit_files(const char *const *names, const char *const *texts, int n,
                                  double gbps, cf_audit_status *st)
{
    cf_audit_opts o = {NULL, NAN};
    cf_audit *a;
    json_t *r = NULL;
    o.expect_gbps = gbps;
    a = cf_audit_new(&o);
    assert_non_null(a);
    for (int i = 0; i < n; i++) {
        assert_int_equal(cf_audit_begin_file(a, names[i]), CF_OK);
        assert_int_equal(cf_audit_feed(a, texts[i], strlen(texts[i])), CF_OK);
        assert_int_equal(cf_audit_end_file(a), CF_OK);
    }
    assert_int_equal(cf_audit_finish(a, &r, st), CF_OK);
    assert_non_null(r);
    cf_audit_free(a);
    return r;
}

/* One text as file "in.log". */
static inline json_t *audit_text(const char *text, double gbps, cf_audit_status *st)
{
    const char *name = "in.log";
    return audit_files(&name, &text, 1, gbps, st);
}

/* The string field k of o; "(null)" when null or absent. */
static inline const char *field_s(const json_t *o, const char *k)
{
    const json_t *v = json_object_get(o, k);
    return json_is_string(v) ? json_string_value(v) : "(null)";
}

/* The integer field k of o; -999 when null or absent. */
static inline long long field_i(const json_t *o, const char *k)
{
    const json_t *v = json_object_get(o, k);
    return json_is_integer(v) ? (long long)json_integer_value(v) : -999;
}

/* The number field k of o; NAN when null or absent. */
static inline double field_d(const json_t *o, const char *k)
{
    const json_t *v = json_object_get(o, k);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

/* The top-level finding with code `code`; NULL if absent. */
static inline const json_t *finding(const json_t *r, const char *code)
{
    const json_t *f;
    size_t i;
    json_array_foreach(json_object_get(r, "findings"), i, f)
        if (strcmp(field_s(f, "code"), code) == 0) return f;
    return NULL;
}

/* How many top-level findings there are. */
static inline size_t nfindings(const json_t *r) { return json_array_size(json_object_get(r, "findings")); }

#endif
