/* cmd_fit.c — placeholder until the 'fit' subcommand lands. */
#include "cli.h"

int cmd_fit(const cli_ctx *ctx, int argc, char **argv)
{
    (void)ctx; (void)argc; (void)argv;
    fprintf(stderr, "clusterfit fit: not implemented yet\n");
    return EXIT_INTERNAL;
}
