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

/* Parses the fabric options into *fab, each value through cf_fabric_set;
 * an offering comes from the catalog through cf_fabric_for_nodes for a
 * question on `nodes` nodes (the library's one-node rule: a network the
 * offering does not state is fine for one node). Prints the error (usage,
 * or the library's reason) and returns its exit code, or EXIT_OK. `cmd`
 * names the command for messages. */
int cli_fabric_for_nodes(const cli_ctx *ctx, const char *cmd, const cli_fabric_opts *o, long nodes,
                         cf_fabric *fab);
/* cli_fabric_for_nodes for one node: the node's fabric, network none for
 * an offering (its GPUs per node before the node count is known). */
int cli_fabric_from_opts(const cli_ctx *ctx, const char *cmd, const cli_fabric_opts *o,
                         cf_fabric *fab);

#endif
