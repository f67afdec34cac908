/* cmd_show.c — placeholder until the 'show' subcommand lands. */
#include "cli.h"

int cmd_show(const cli_ctx *ctx, int argc, char **argv)
{
    (void)ctx; (void)argc; (void)argv;
    fprintf(stderr, "clusterfit show: not implemented yet\n");
    return EXIT_INTERNAL;
}
