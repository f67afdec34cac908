/* fabric_opts.c — the fabric of `predict collective` and `predict step`
 * from their options (src/fabric_opts.h): the catalog's offering through
 * cf_fabric_for_nodes (the library's one-node rule), or the explicit flags,
 * each value through cf_fabric_set. Every refusal is the library's reason,
 * as in the web API. */
#include <limits.h>
#include <string.h>
#include "fabric_opts.h"

/* The fabric from the flags, each value through the library's setter. */
static int fabric_from_flags(const char *cmd, const cli_fabric_opts *o, cf_fabric *fab)
{
    static const char *const names[] = {"gpu", "gpus_per_node", "intra", "network", "nics", "nic_gbps"};
    const char *values[] = {o->gpu, o->gpus_per_node, o->intra, o->network, o->nics, o->nic_gbps};
    cf_error err;
    if (!o->gpu || !o->gpus_per_node || !o->intra || !o->network)
        return cli_usage_error(cmd, "give --offering ID, or --gpu, --gpus-per-node, --intra and --network");
    cf_error_clear(&err);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        /* The NICs are asked for once the network is known. */
        if (i == 4 && fab->network != CF_NET_NONE && (!o->nics || !o->nic_gbps))
            return cli_usage_error(cmd, "--network %s needs --nics and --nic-gbps", o->network);
        if (values[i] && cf_fabric_set(fab, names[i], values[i], &err) != CF_OK)
            return cli_param_error(cmd, &err);
    }
    return EXIT_OK;
}

int cli_fabric_for_nodes(const cli_ctx *ctx, const char *cmd, const cli_fabric_opts *o, long nodes,
                         cf_fabric *fab)
{
    cf_error err;
    int rc;
    cf_fabric_init(fab);
    cf_error_clear(&err);
    if (o->offering) {
        cf_catalog *cat = NULL;
        cf_offering *off = NULL;
        cf_status st;
        if (o->gpu || o->gpus_per_node || o->intra || o->network || o->nics || o->nic_gbps)
            return cli_usage_error(cmd, "--offering excludes the fabric flags (--gpu, --intra, ...)");
        rc = cli_open_catalog(ctx, cmd, &cat);
        if (rc != EXIT_OK) return rc;
        st = cf_catalog_get(cat, o->offering, &off);
        if (st == CF_ENOTFOUND) {
            cf_catalog_close(cat);
            return cli_usage_error(cmd, "no offering '%s' (see 'clusterfit list')", o->offering);
        }
        /* The one-node rule (a network the offering does not state matters
         * only between nodes) is the library's. */
        if (st == CF_OK) st = cf_fabric_for_nodes(off, nodes > INT_MAX ? INT_MAX : (int)nodes, fab, &err);
        cf_offering_free(off);
        cf_catalog_close(cat);
        if (st != CF_OK) return cli_lib_error(cmd, st, &err);
    } else if ((rc = fabric_from_flags(cmd, o, fab)) != EXIT_OK) {
        return rc;
    }
    if (o->gdr && cf_fabric_set(fab, "gdr", o->gdr, &err) != CF_OK) return cli_param_error(cmd, &err);
    return EXIT_OK;
}

int cli_fabric_from_opts(const cli_ctx *ctx, const char *cmd, const cli_fabric_opts *o,
                         cf_fabric *fab)
{
    return cli_fabric_for_nodes(ctx, cmd, o, 1, fab);
}
