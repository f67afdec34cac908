/* fabric_opts.c — the fabric of `predict collective` and `predict step`
 * from their options (src/fabric_opts.h): the catalog's offering, or the
 * explicit flags checked against the library's vocabularies. */
#include <math.h>
#include <string.h>
#include "fabric_opts.h"

int cli_fabric_from_opts(const cli_ctx *ctx, const char *cmd, const cli_fabric_opts *o,
                         cf_fabric *fab)
{
    long v;
    double d;
    memset(fab, 0, sizeof *fab);
    fab->gdr = CF_GDR_UNKNOWN;
    fab->non_blocking = fab->rail_optimized = CF_CAP_UNKNOWN;
    if (o->offering) {
        if (o->gpu || o->gpus_per_node || o->intra || o->network || o->nics || o->nic_gbps)
            return cli_usage_error(cmd, "--offering excludes the fabric flags (--gpu, --intra, ...)");
        {
            cf_catalog *cat = NULL;
            cf_offering *off = NULL;
            cf_error err;
            cf_status st;
            int rc = cli_open_catalog(ctx, cmd, &cat);
            if (rc != EXIT_OK) return rc;
            cf_error_clear(&err);
            st = cf_catalog_get(cat, o->offering, &off);
            if (st == CF_ENOTFOUND) {
                cf_catalog_close(cat);
                return cli_usage_error(cmd, "no offering '%s' (see 'clusterfit list')", o->offering);
            }
            if (st == CF_OK) st = cf_fabric_from_offering(off, fab, &err);
            if (st == CF_EUNSUPPORTED && off->gpu && off->gpus_per_node >= 1 &&
                off->network != CF_NET_NONE) {
                /* Network or its line rate unknown: fine within one node.
                 * network CF_NET_UNKNOWN marks the fabric as one-node only
                 * (see cli_one_node_fabric). */
                cf_offering one = *off;     /* shallow: only read during the call */
                one.network = CF_NET_NONE;
                one.network_gbps_per_node = NAN;
                one.nics_per_node = -1;
                cf_error_clear(&err);
                st = cf_fabric_from_offering(&one, fab, &err);
                fab->network = CF_NET_UNKNOWN;
            }
            cf_offering_free(off);
            cf_catalog_close(cat);
            if (st != CF_OK) return cli_lib_error(cmd, st, &err);
        }
    } else {
        const cf_gpu_spec *g;
        if (!o->gpu || !o->gpus_per_node || !o->intra || !o->network)
            return cli_usage_error(cmd, "give --offering ID, or --gpu, --gpus-per-node, --intra and --network");
        if (cf_gpu_lookup(o->gpu, &g) != CF_OK)
            return cli_usage_error(cmd, "unknown --gpu '%s' (accepted: %s)", o->gpu, cf_gpu_accepted());
        snprintf(fab->gpu, sizeof fab->gpu, "%s", g->name);
        if (cli_parse_int(cmd, "--gpus-per-node", o->gpus_per_node, 1, 1024, &v) != 0) return EXIT_USAGE;
        fab->gpus_per_node = (int)v;
        if (cf_intra_link_parse(o->intra, &fab->intra_link) != CF_OK || fab->intra_link == CF_INTRA_UNKNOWN)
            return cli_usage_error(cmd, "unknown --intra '%s' (accepted: %s)", o->intra,
                                   cf_intra_link_accepted());
        if (cf_network_parse(o->network, &fab->network) != CF_OK || fab->network == CF_NET_UNKNOWN)
            return cli_usage_error(cmd, "unknown --network '%s' (accepted: %s)", o->network,
                                   cf_network_accepted());
        if (fab->network != CF_NET_NONE) {
            if (!o->nics || !o->nic_gbps)
                return cli_usage_error(cmd, "--network %s needs --nics and --nic-gbps", o->network);
            if (cli_parse_int(cmd, "--nics", o->nics, 1, 1024, &v) != 0) return EXIT_USAGE;
            fab->nics_per_node = (int)v;
            if (cli_parse_num(cmd, "--nic-gbps", o->nic_gbps, CF_LINE_GBPS_MIN, CF_LINE_GBPS_MAX, &d) != 0) return EXIT_USAGE;
            fab->nic_gbps = d;
        }
    }
    if (o->gdr && (cf_gdr_parse(o->gdr, &fab->gdr) != CF_OK))
        return cli_usage_error(cmd, "unknown --gdr '%s' (accepted: %s)", o->gdr, cf_gdr_accepted());
    return EXIT_OK;
}

/* A fabric from an offering whose network or line rate is unknown has
 * network CF_NET_UNKNOWN and no NICs (cli_fabric_from_opts): usable on one
 * node, where no inter-node fabric is involved. For `nodes` = 1 it becomes
 * network none; for more, the error is printed and its exit code returned
 * (usage error, exit 2: the question needs a fabric the offering does not
 * state). EXIT_OK otherwise. */
int cli_one_node_fabric(const char *cmd, const char *offering, cf_fabric *fab, long nodes)
{
    if (fab->network != CF_NET_UNKNOWN) return EXIT_OK;
    if (nodes <= 1) {
        fab->network = CF_NET_NONE;
        return EXIT_OK;
    }
    return cli_usage_error(cmd, "%ld nodes need the network between them, and offering %s does not "
                           "state it or its line rate (one node works)", nodes,
                           offering ? offering : "?");
}
