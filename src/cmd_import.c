/* cmd_import.c — placeholder until the 'import' subcommand lands. */
#include "cli.h"

int cmd_import(const cli_ctx *ctx, int argc, char **argv)
{
    (void)ctx; (void)argc; (void)argv;
    fprintf(stderr, "clusterfit import: not implemented yet\n");
    return EXIT_INTERNAL;
}
