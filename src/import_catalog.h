/* import_catalog.h — `clusterfit import --catalog FILE` and `import
 * --builtin-catalog` (src/import_catalog.c, issue 26), called by
 * cmd_import.c. */
#ifndef CLUSTERFIT_IMPORT_CATALOG_H
#define CLUSTERFIT_IMPORT_CATALOG_H

#include "cli.h"

/* Installs the catalog release file `file` (cf_catalog_release_install_file)
 * and says what it replaced; the exit code (3 for a bad file). */
int cli_import_catalog(const cli_ctx *ctx, const char *file);

/* Goes back to the built-in catalog (cf_catalog_release_remove); the exit code. */
int cli_builtin_catalog(const cli_ctx *ctx);

#endif
