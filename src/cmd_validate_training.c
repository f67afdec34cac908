/* cmd_validate_training.c — placeholder until `validate training` lands
 * (owned by the step model's developer, who replaces this file). */
#include "cli.h"

int cmd_validate_training(const cli_ctx *ctx, int argc, char **argv)
{
    (void)ctx; (void)argc; (void)argv;
    fprintf(stderr, "clusterfit validate training: not implemented yet\n");
    return EXIT_INTERNAL;
}
