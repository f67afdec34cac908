/* release.h — catalog release files (issue 26): a dated offerings CSV that
 * replaces the catalog built into the library without a rebuild, and what
 * a catalog file says of where its shipped rows come from (the catalog's
 * date, row count and provenance, for --version and providers).
 *
 * A release file is data/offerings.csv with one line before its header:
 *
 *   #clusterfit-catalog date=2026-12-01 source=https://example.org/rel.csv
 *
 * "#clusterfit-catalog", then space-separated KEY=VALUE fields: date, the
 * day the release was made (YYYY-MM-DD; no row's as_of or price_as_of may
 * be after it), and source, the http(s) URL it was published at. Both are
 * required, each once; no other key. The rest of the file is read as
 * cf_offerings_parse reads CSV, its line numbers those of the file.
 *
 * Installed, its rows stand where the built-in rows stood (origin
 * 'shipped'): the user's rows still win over them, imported prices still
 * apply, and a new library with another built-in catalog keeps them until
 * cf_catalog_release_remove goes back to the built-in rows. */
#ifndef CLUSTERFIT_RELEASE_H
#define CLUSTERFIT_RELEASE_H

#include <jansson.h>
#include "status.h"
#include "catalog.h"

/* Installs a catalog release file in place of the shipped rows.
 * - inputs: `data`, len bytes (at most CF_MAX_IMPORT_BYTES), in the format
 *   above; `name` names it in errors and is kept as the release's file
 *   name; today YYYY-MM-DD (the caller's clock: the release's date may not
 *   be after it; NULL: not compared)
 * - computes: checks the first line and every row first (as
 *   cf_offerings_parse, with the release's date as the latest date a row
 *   may carry), then, in one transaction, deletes the shipped rows,
 *   inserts the release's and records its date, source, file name, row
 *   count and today (the day it was installed)
 * - output: *n_rows (may be NULL) gets the rows installed, 0 on error
 * - errors: CF_EPARSE with err at FILE:LINE:COLUMN: line 1 for the first
 *   line (not "#clusterfit-catalog", a field that is not KEY=VALUE, an
 *   unknown or repeated key, a missing date or source, a malformed date or
 *   one after today, a source that is not an http(s) URL), else the row's
 *   line as cf_offerings_parse says it ("as_of: expected a date no later
 *   than the release's date (D), got ..."); an empty set of rows; CF_ELIMIT,
 *   CF_EINVAL (cat NULL, a malformed today), CF_EDB, CF_EBUSY, CF_EENV,
 *   CF_ENOMEM. On any error the catalog is unchanged
 * - ownership: data is read during the call; `name` is kept in err->file */
CF_API cf_status cf_catalog_release_install(cf_catalog *cat, const char *name, const char *data,
                                            size_t len, const char *today, size_t *n_rows,
                                            cf_error *err);

/* Reads a file and installs it as cf_catalog_release_install does.
 * - errors: those of cf_catalog_release_install; CF_EIO when the file
 *   cannot be read, CF_ELIMIT over CF_MAX_IMPORT_BYTES
 * - ownership: err->file points to path (borrowed) */
CF_API cf_status cf_catalog_release_install_file(cf_catalog *cat, const char *path,
                                                 const char *today, size_t *n_rows,
                                                 cf_error *err);

/* Goes back to the catalog built into the library: in one transaction, the
 * release's rows are replaced by the built-in ones and its record deleted.
 * - output: *removed (may be NULL) = 1 when a release was installed, 0
 *   when the catalog already had the built-in rows (nothing changes then)
 * - errors: CF_EINVAL (cat NULL), CF_EINTERNAL (built without
 *   data/offerings.csv), CF_EDB, CF_EBUSY, CF_EENV, CF_ENOMEM; nothing is
 *   changed */
CF_API cf_status cf_catalog_release_remove(cf_catalog *cat, int *removed, cf_error *err);

/* Where the catalog's shipped rows come from.
 * - inputs: cat, an open catalog; NULL for the catalog built into the
 *   library alone (no file is opened or made)
 * - output: *out, an object {origin: "built-in" or "release", date (the
 *   release's date, or for the built-in rows the newest as_of among them),
 *   rows (shipped rows), newest_as_of, source and file (the release's URL
 *   and file name; null for built-in), installed (the day the release was
 *   installed; null for built-in), built_in: {rows, newest_as_of} (what
 *   the library carries, whatever the file holds)}
 * - errors: CF_EDB, CF_ENOMEM, CF_EINTERNAL (built without
 *   data/offerings.csv); *out is then NULL
 * - ownership: *out is a new reference (json_decref) */
CF_API cf_status cf_catalog_info(cf_catalog *cat, json_t **out);

#endif
