/* version.c — the library's release and the commit it was built from
 * (version.h). Both come from $(BUILD)/gen/version.h, which tools/version.sh
 * writes from the VERSION file and git (or the COMMIT file of a release
 * tarball); the Makefile rewrites it only when they change, so a new commit
 * recompiles this file alone. */
#include "clusterfit/version.h"
/* A build that compiles lib/ by itself (tests/fuzz/run.sh) has no
 * version_gen.h: its library says "unknown" rather than a wrong number. */
#if defined(__has_include)
#if __has_include("version_gen.h")
#include "version_gen.h"
#endif
#endif
#ifndef CF__VERSION
#define CF__VERSION "unknown"
#define CF__COMMIT "unknown"
#endif

const char *cf_version(void)
{
    return CF__VERSION;
}

const char *cf_version_commit(void)
{
    return CF__COMMIT;
}
