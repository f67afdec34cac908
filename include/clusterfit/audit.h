/* audit.h — reads what people run on a rented cluster (nccl-tests output,
 * NCCL_DEBUG logs, nvidia-smi topo -m, ibstat, ibv_devinfo) and concludes
 * which transport was used, GDR state, busbw vs expectation, findings
 * (DESIGN.md §5). Streaming: input is fed in chunks of any size; memory does
 * not grow with the input (the caps of limits.h: CF_MAX_LINE_BYTES,
 * CF_MAX_AUDIT_PARTS, CF_MAX_FINDINGS, ...).
 *
 * Use: cf_audit_new, then per input file cf_audit_begin_file, any number of
 * cf_audit_feed, cf_audit_end_file; then cf_audit_finish once, and
 * cf_audit_free. cf_audit_buffer does all of it for one buffer. */
#ifndef CLUSTERFIT_AUDIT_H
#define CLUSTERFIT_AUDIT_H

#include <stddef.h>
#include <jansson.h>
#include "status.h"
#include "vocab.h"
#include "collective.h"

typedef struct cf_audit cf_audit;   /* opaque */

/* What the run is measured against (the CLI's --offering, --expect-gbps). */
typedef struct cf_audit_opts {
    const cf_fabric *expect_fabric; /* expected busbw through the model; NULL = none */
    double expect_gbps;             /* per-node line rate, Gbit/s; NAN = none */
} cf_audit_opts;

/* Starts an audit.
 * - inputs: opts (NULL = no expectation: no fabric, expect_gbps NAN)
 * - output: a new audit; NULL on ENOMEM
 * - ownership: *opts and its fabric are copied; the caller frees the audit
 *   with cf_audit_free() */
CF_API cf_audit *cf_audit_new(const cf_audit_opts *opts);

/* Frees an audit and everything it holds (_free, status.h).
 * - ownership: a (from cf_audit_new) must not be used afterwards; NULL is
 *   a no-op */
CF_API void cf_audit_free(cf_audit *a);

/* Starts a new input file. It does not conclude the previous one: call
 * cf_audit_end_file first, or that file's unfinished last line is dropped
 * and its open parts are not concluded.
 * - inputs: name, as findings and parts name the file (NULL = "-")
 * - errors: CF_EINVAL for a NULL audit; CF_ENOMEM
 * - ownership: name is copied */
CF_API cf_status cf_audit_begin_file(cf_audit *a, const char *name);

/* Feeds bytes of the current file (a file "-" is begun if none was).
 * - inputs: buf, n bytes; chunks may split lines anywhere; a line longer
 *   than CF_MAX_LINE_BYTES is cut
 * - errors: CF_EINVAL for a NULL audit, or buf NULL with n > 0; CF_ENOMEM
 *   (the audit then stays failed: later calls return CF_ENOMEM)
 * - ownership: buf is read during the call only */
CF_API cf_status cf_audit_feed(cf_audit *a, const char *buf, size_t n);

/* Ends the current file: its last line without a newline, its open run,
 * matrix and port dump are concluded (a cut last line is a TRUNCATED_INPUT
 * finding). No file begun: nothing to do.
 * - errors: CF_EINVAL for a NULL audit; CF_ENOMEM */
CF_API cf_status cf_audit_end_file(cf_audit *a);

/* Concludes the audit (ending the current file if it was not).
 * - output: *report = the report (DESIGN §5 JSON: status, the primary
 *   run's facts, runs, run, findings, run_facts, parts); *status (may be
 *   NULL) = the verdict, the report's "status"
 * - errors: CF_EINVAL for a NULL audit or report; CF_ENOMEM; *report is
 *   then NULL
 * - ownership: *report is a new reference owned by the caller
 *   (json_decref); the audit is still the caller's to cf_audit_free */
CF_API cf_status cf_audit_finish(cf_audit *a, json_t **report, cf_audit_status *status);

/* Audits one buffer as one file.
 * - computes: cf_audit_new(opts), begin_file(name), feed(buf, n),
 *   end_file, finish, free
 * - output, errors, ownership: as those calls (CF_ENOMEM when the audit
 *   cannot be created); nothing is kept */
CF_API cf_status cf_audit_buffer(const char *buf, size_t n, const char *name,
                                 const cf_audit_opts *opts, json_t **report,
                                 cf_audit_status *status);

/* A report as the human text of `clusterfit audit`.
 * - inputs: report, as cf_audit_finish made it
 * - output: the facts, runs, findings and parts, one per line
 * - errors: NULL on ENOMEM or for a NULL report
 * - ownership: a malloc'd string the caller frees with free(); report is
 *   read only */
CF_API char *cf_audit_report_text(const json_t *report);

#endif
