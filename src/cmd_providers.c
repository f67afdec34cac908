/* cmd_providers.c — placeholder until the 'providers' subcommand lands. */
#include "cli.h"

int cmd_providers(const cli_ctx *ctx, int argc, char **argv)
{
    (void)ctx; (void)argc; (void)argv;
    fprintf(stderr, "clusterfit providers: not implemented yet\n");
    return EXIT_INTERNAL;
}
