/* cmd_list.c — placeholder until the 'list' subcommand lands. */
#include "cli.h"

int cmd_list(const cli_ctx *ctx, int argc, char **argv)
{
    (void)ctx; (void)argc; (void)argv;
    fprintf(stderr, "clusterfit list: not implemented yet\n");
    return EXIT_INTERNAL;
}
