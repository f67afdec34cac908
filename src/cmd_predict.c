/* cmd_predict.c — placeholder until the 'predict' subcommand lands. */
#include "cli.h"

int cmd_predict(const cli_ctx *ctx, int argc, char **argv)
{
    (void)ctx; (void)argc; (void)argv;
    fprintf(stderr, "clusterfit predict: not implemented yet\n");
    return EXIT_INTERNAL;
}
