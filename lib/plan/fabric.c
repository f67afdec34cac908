/* fabric.c — an offering's fabric (cf_fabric_from_offering) and the fabric
 * for a question on N nodes of it (cf_fabric_for_nodes), which owns the
 * one-node rule: inside one node the scale-out network does not matter, so
 * an offering that does not state it still answers for one node. The plan,
 * `scale` and both front ends take offerings' fabrics through here, so they
 * accept and refuse the same offerings with the same reason. */
#include <math.h>
#include <string.h>
#include "clusterfit/fabric.h"

static const char *id_of(const cf_offering *o)
{
    return o && o->id ? o->id : "?";
}

/* The node's part: GPU, GPUs per node, links, capabilities; no network. */
static cf_status node_part(const cf_offering *o, cf_fabric *out, cf_error *err)
{
    size_t n;
    cf_fabric_init(out);
    if (!o || !o->gpu || !*o->gpu) {
        cf_error_set_param(err, "offering", "offering %s: gpu unknown", id_of(o));
        return CF_EUNSUPPORTED;
    }
    if (o->gpus_per_node < 1) {
        cf_error_set_param(err, "offering", "offering %s: gpus_per_node unknown", id_of(o));
        return CF_EUNSUPPORTED;
    }
    n = strlen(o->gpu);
    if (n >= sizeof out->gpu) {
        cf_error_set_param(err, "offering", "offering %s: gpu name too long", id_of(o));
        return CF_EINVAL;
    }
    memcpy(out->gpu, o->gpu, n + 1);
    out->gpus_per_node = (int)o->gpus_per_node;
    out->intra_link = o->intra_link;
    out->non_blocking = o->non_blocking;
    out->rail_optimized = o->rail_optimized;
    out->in_network_reduction = o->in_network_reduction;   /* CollNet/SHARP only when YES */
    return CF_OK;
}

/* No scale-out network: one node. */
static void no_network(cf_fabric *out)
{
    out->network = CF_NET_NONE;
    out->nics_per_node = 0;
    out->nic_gbps = 0;
    out->gdr = CF_GDR_NA;
}

/* Whether the offering states the network and its line rate (none counts). */
static int network_stated(const cf_offering *o)
{
    if (o->network == CF_NET_NONE) return 1;
    return o->network != CF_NET_UNKNOWN && !isnan(o->network_gbps_per_node) &&
           o->network_gbps_per_node > 0;
}

/* The scale-out part of a stated network. */
static void network_part(const cf_offering *o, cf_fabric *out)
{
    if (o->network == CF_NET_NONE) {
        no_network(out);
        return;
    }
    out->network = o->network;
    out->gdr = o->gpudirect_rdma == CF_CAP_YES ? CF_GDR_ON
               : o->gpudirect_rdma == CF_CAP_NO ? CF_GDR_OFF
                                                : CF_GDR_UNKNOWN;
    /* nics unknown: one NIC per GPU, the usual multi-node board (DGX/HGX). */
    out->nics_per_node = o->nics_per_node >= 1 ? (int)o->nics_per_node : (int)o->gpus_per_node;
    out->nic_gbps = o->network_gbps_per_node / out->nics_per_node;
}

cf_status cf_fabric_from_offering(const cf_offering *o, cf_fabric *out, cf_error *err)
{
    cf_status st = node_part(o, out, err);
    if (st != CF_OK) return st;
    if (!network_stated(o)) {
        cf_error_set_param(err, "offering", "offering %s: network or its line rate unknown", id_of(o));
        return CF_EUNSUPPORTED;
    }
    network_part(o, out);
    return CF_OK;
}

cf_status cf_fabric_for_nodes(const cf_offering *o, int nodes, cf_fabric *out, cf_error *err)
{
    cf_status st;
    if (nodes < 1) {
        if (out) cf_fabric_init(out);
        cf_error_set_param(err, "nodes", "nodes expects at least 1, got %d", nodes);
        return CF_EINVAL;
    }
    if ((st = node_part(o, out, err)) != CF_OK) return st;
    if (nodes > 1 && !network_stated(o)) {
        cf_error_set_param(err, "offering", "offering %s: %d nodes need the network between them, "
                           "and the offering does not state it or its line rate (network or its "
                           "line rate unknown; one node works)", id_of(o), nodes);
        return CF_EUNSUPPORTED;
    }
    if (o->intra_link == CF_INTRA_UNKNOWN) {
        cf_error_set_param(err, "offering", "offering %s: intra_link unknown; the model needs the "
                           "GPUs' link inside the node", id_of(o));
        return CF_EUNSUPPORTED;
    }
    if (o->max_cluster_gpus > 0 && (double)nodes * (double)o->gpus_per_node > (double)o->max_cluster_gpus) {
        cf_error_set_param(err, "offering", "offering %s: its largest cluster is %ld GPUs (%ld of %ld "
                           "GPUs each); %d of them are asked for", id_of(o), (long)o->max_cluster_gpus,
                           (long)(o->max_cluster_gpus / o->gpus_per_node), (long)o->gpus_per_node, nodes);
        return CF_EINVAL;
    }
    if (nodes == 1) no_network(out);
    else network_part(o, out);
    return CF_OK;
}
