/* cmd_validate_training.c — `clusterfit validate training FILE.csv`: the
 * step model against published training throughputs (DESIGN.md §4.4). A
 * thin front end over cf_validate_training; parsing and printing are shared
 * with `validate collectives` (src/cmd_validate.c). */
#include <string.h>
#include "cli.h"

int cmd_validate_training(const cli_ctx *ctx, int argc, char **argv)
{
    const char *cmd = "validate training";
    const char *file;
    cli_format fmt;
    cf_validation v;
    cf_error err;
    cf_status st;
    int rc = cli_validate_parse(cmd, argc, argv, &file, &fmt);
    (void)ctx;
    if (rc < 0) return EXIT_OK;
    if (rc != EXIT_OK) return rc;
    memset(&v, 0, sizeof v);
    cf_error_clear(&err);
    st = cf_validate_training(file, &v, &err);
    if (st != CF_OK) {
        rc = cli_lib_error(cmd, st, &err);
        return st == CF_EIO ? EXIT_BAD_INPUT : rc;
    }
    if (fmt == FMT_JSON) {
        rc = cli_print_json(cf_validation_to_json(&v));
    } else {
        cli_print_validation_table(&v);
        rc = EXIT_OK;
    }
    cf_validation_free(&v);
    return rc;
}
