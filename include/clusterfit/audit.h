/* audit.h — reads what people run on a rented cluster (nccl-tests output,
 * NCCL_DEBUG logs, nvidia-smi topo -m, ibstat, ibv_devinfo) and concludes
 * which transport was used, GDR state, busbw vs expectation, findings
 * (DESIGN.md §5). Streaming: input is fed in chunks of any size; memory does
 * not grow with the input. */
#ifndef CLUSTERFIT_AUDIT_H
#define CLUSTERFIT_AUDIT_H

#include <stddef.h>
#include <jansson.h>
#include "status.h"
#include "vocab.h"
#include "collective.h"

typedef struct cf_audit cf_audit;   /* opaque */

typedef struct cf_audit_opts {
    const cf_fabric *expect_fabric; /* from --offering: expected busbw through the model; NULL = none */
    double expect_gbps;             /* --expect-gbps: per-node line rate Gbit/s; NAN = none */
} cf_audit_opts;

/* Creates an audit. Caller frees with cf_audit_free(). NULL on ENOMEM. */
CF_API cf_audit *cf_audit_new(const cf_audit_opts *opts);
CF_API void cf_audit_free(cf_audit *a);

/* Starts a new input file named `name` (borrowed until the next begin/finish). */
CF_API cf_status cf_audit_begin_file(cf_audit *a, const char *name);
/* Feeds `n` bytes of the current file; chunks may split lines anywhere. */
CF_API cf_status cf_audit_feed(cf_audit *a, const char *buf, size_t n);
/* Ends the current file. */
CF_API cf_status cf_audit_end_file(cf_audit *a);

/* Concludes and returns the report (DESIGN §5 JSON). New reference owned by
 * the caller; *status gets the verdict. */
CF_API cf_status cf_audit_finish(cf_audit *a, json_t **report, cf_audit_status *status);

/* Convenience: one buffer as one file. */
CF_API cf_status cf_audit_buffer(const char *buf, size_t n, const char *name,
                                 const cf_audit_opts *opts, json_t **report,
                                 cf_audit_status *status);

/* Renders a report as the human text of `clusterfit audit`. Returns a malloc'd
 * string the caller frees; NULL on ENOMEM. */
CF_API char *cf_audit_report_text(const json_t *report);

#endif
