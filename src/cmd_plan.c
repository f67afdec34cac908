/* cmd_plan.c — placeholder until the 'plan' subcommand lands. */
#include "cli.h"

int cmd_plan(const cli_ctx *ctx, int argc, char **argv)
{
    (void)ctx; (void)argc; (void)argv;
    fprintf(stderr, "clusterfit plan: not implemented yet\n");
    return EXIT_INTERNAL;
}
