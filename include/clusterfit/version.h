/* version.h — which clusterfit this is (issue 26), as sqlite3_libversion()
 * and curl_version() tell theirs: the release, the commit the library was
 * built from, and the version of the model's constants. The catalog's own
 * date and provenance (built in, or a catalog release file) is
 * cf_catalog_info() in release.h. */
#ifndef CLUSTERFIT_VERSION_H
#define CLUSTERFIT_VERSION_H

#include "status.h"

/* The library's release.
 * - output: "MAJOR.MINOR.PATCH" (the VERSION file of the source tree the
 *   library was built from; the shared library's file name carries the
 *   same numbers: libclusterfit.so.0.4.0 for "0.4.0")
 * - ownership: static storage; pure (answers what the linked library is,
 *   not what the program was compiled against) */
CF_API const char *cf_version(void);

/* The commit the library was built from.
 * - output: 12 hex digits of git's HEAD ("ddf4545a7f70"), with "-dirty"
 *   when tracked files differed from it at build time; the commit recorded
 *   in the release tarball's COMMIT file (`make dist`) for a build outside
 *   git; "unknown" when neither was there
 * - ownership: static storage */
CF_API const char *cf_version_commit(void);

/* The version of the model's constants: a digest of the name and shipped
 * value of every row of the one constants table (cf_model_constants(),
 * lib/model/constants.def), so two builds whose answers could differ
 * because a constant differs never show the same string.
 * - output: "N-XXXXXXXXXXXXXXXX": N the number of constants, then 16 hex
 *   digits of the 64-bit FNV-1a hash of each "NAME=VALUE\n" in table order
 *   (VALUE printed with %.17g, exact for a double). A refit in the process
 *   (validate refit) does not change it: it hashes the shipped values
 * - ownership: thread-local storage, computed on a thread's first call;
 *   valid for the thread's lifetime */
CF_API const char *cf_model_constants_version(void);

#endif
