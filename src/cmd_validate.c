/* cmd_validate.c — placeholder until the 'validate' subcommand lands. */
#include "cli.h"

int cmd_validate(const cli_ctx *ctx, int argc, char **argv)
{
    (void)ctx; (void)argc; (void)argv;
    fprintf(stderr, "clusterfit validate: not implemented yet\n");
    return EXIT_INTERNAL;
}
