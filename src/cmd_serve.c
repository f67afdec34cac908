/* cmd_serve.c — placeholder until the 'serve' subcommand lands. */
#include "cli.h"

int cmd_serve(const cli_ctx *ctx, int argc, char **argv)
{
    (void)ctx; (void)argc; (void)argv;
    fprintf(stderr, "clusterfit serve: not implemented yet\n");
    return EXIT_INTERNAL;
}
