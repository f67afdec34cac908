/* fabric_opts.h — the fabric options shared by `predict collective` and
 * `predict step` (src/fabric_opts.c): --offering ID, or --gpu
 * --gpus-per-node --intra --network --nics --nic-gbps [--gdr]
 * [--non-blocking] [--rail-optimized], collected as
 * strings by the command (each into its cli_fabric_opts member, named in
 * the command's option table) and turned into a cf_fabric here. */
#ifndef CLUSTERFIT_FABRIC_OPTS_H
#define CLUSTERFIT_FABRIC_OPTS_H

#include "cli.h"
#include "opts.h"

/* Where the command's option table stores the values as given (NULL = not
 * given); read back by name through the table (cli_opts_value). */
typedef struct cli_fabric_opts {
    const char *offering;       /* --offering ID */
    const char *gpu;            /* --gpu G */
    const char *gpus_per_node;  /* --gpus-per-node K */
    const char *intra;          /* --intra L */
    const char *network;        /* --network NET */
    const char *nics;           /* --nics M */
    const char *nic_gbps;       /* --nic-gbps X (Gbit/s per NIC) */
    const char *gdr;            /* --gdr STATE */
    const char *non_blocking;   /* --non-blocking yes|no|unknown */
    const char *rail_optimized; /* --rail-optimized yes|no|unknown */
} cli_fabric_opts;

/* The fabric from the options of command c, read from its struct `vals`
 * (cli_opts_value: each of cf_fabric_param_names by its flag, and
 * --offering). An offering comes from the catalog through
 * cf_fabric_for_nodes for a question on `nodes` nodes (the library's
 * one-node rule: a network the offering does not state is fine for one
 * node), with --gdr the one fabric flag beside it; otherwise the flags go
 * through cf_fabric_set in the library's order, --nics and --nic-gbps
 * required once --network is other than none. Prints the error (usage, or
 * the library's reason) and returns its exit code, or EXIT_OK. */
int cli_fabric_for_nodes(const cli_ctx *ctx, const cli_cmd *c, const void *vals, long nodes,
                         cf_fabric *fab);
/* cli_fabric_for_nodes for one node: the node's fabric, network none for
 * an offering (its GPUs per node before the node count is known). */
int cli_fabric_from_opts(const cli_ctx *ctx, const cli_cmd *c, const void *vals, cf_fabric *fab);

/* The model's assumptions on fab at `nodes` nodes (cf_fabric_assumptions)
 * added to the JSON object j as its "flags" array (codes); nonzero on
 * ENOMEM (j is then left as it was or NULL-safe). */
int cli_add_flags(json_t *j, const cf_fabric *fab, int nodes);
/* Adds step_time_s_p10/_p90 and error_class (the band of the model's error
 * out of sample for w's class, cf_band_json_set) to j. 0, or -1. */
int cli_add_band(json_t *j, const cf_workload *w, double step_time_s);

/* One "assumes: SENTENCE" line (wrapped) per assumption of fab at `nodes`
 * nodes, for the text outputs. */
void cli_print_assumes(FILE *out, const cf_fabric *fab, int nodes);

#endif
