/* cmd_audit.c — placeholder until the 'audit' subcommand lands. */
#include "cli.h"

int cmd_audit(const cli_ctx *ctx, int argc, char **argv)
{
    (void)ctx; (void)argc; (void)argv;
    fprintf(stderr, "clusterfit audit: not implemented yet\n");
    return EXIT_INTERNAL;
}
