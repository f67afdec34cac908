/* cmd_scale.c — placeholder until the 'scale' subcommand lands. */
#include "cli.h"

int cmd_scale(const cli_ctx *ctx, int argc, char **argv)
{
    (void)ctx; (void)argc; (void)argv;
    fprintf(stderr, "clusterfit scale: not implemented yet\n");
    return EXIT_INTERNAL;
}
