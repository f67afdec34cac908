/* fabric_opts.h — the fabric options shared by `predict collective` and
 * `predict step` (src/fabric_opts.c): --offering ID, or --gpu
 * --gpus-per-node --intra --network --nics --nic-gbps [--gdr], collected as
 * strings by the command and turned into a cf_fabric here. */
#ifndef CLUSTERFIT_FABRIC_OPTS_H
#define CLUSTERFIT_FABRIC_OPTS_H

#include "cli.h"

/* The option values as given (NULL = not given). */
typedef struct cli_fabric_opts {
    const char *offering, *gpu, *gpus_per_node, *intra, *network, *nics, *nic_gbps, *gdr;
} cli_fabric_opts;

/* Parses the fabric options into *fab; the offering comes from the catalog.
 * Prints the error (usage, or library) and returns its exit code, or
 * EXIT_OK. `cmd` names the command for messages. */
int cli_fabric_from_opts(const cli_ctx *ctx, const char *cmd, const cli_fabric_opts *o,
                         cf_fabric *fab);

/* An offering whose network or line rate is unknown gives a fabric with
 * network CF_NET_UNKNOWN (one node only): for nodes = 1 this makes it network
 * none; for more it prints the usage error and returns its exit code. */
int cli_one_node_fabric(const char *cmd, const char *offering, cf_fabric *fab, long nodes);

#endif
