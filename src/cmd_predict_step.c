/* cmd_predict_step.c — placeholder until `predict step` lands (owned by the
 * step model's developer, who replaces this file). */
#include "cli.h"

int cmd_predict_step(const cli_ctx *ctx, int argc, char **argv)
{
    (void)ctx; (void)argc; (void)argv;
    fprintf(stderr, "clusterfit predict step: not implemented yet\n");
    return EXIT_INTERNAL;
}
