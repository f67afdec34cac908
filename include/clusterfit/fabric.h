/* fabric.h — the fabric of a catalog offering: the step from what a
 * provider states (cf_offering, catalog.h) to what the model takes
 * (cf_fabric, collective.h). The model never reads an offering; the plan,
 * `scale` and the front ends come through here. */
#ifndef CLUSTERFIT_FABRIC_H
#define CLUSTERFIT_FABRIC_H

#include "status.h"
#include "catalog.h"
#include "collective.h"

/* The fabric an offering states, whole.
 * - computes: gpu, gpus_per_node, intra_link, network, GDR (gpudirect_rdma
 *   yes = on, no = off, else unknown), non_blocking, rail_optimized as the
 *   offering states them; nic_gbps = network_gbps_per_node / nics_per_node
 *   (Gbit/s), one NIC per GPU when nics_per_node is unknown. Network none
 *   gives no NICs and GDR n/a
 * - output: *out (not NULL)
 * - errors (err may be NULL; err->param "offering"): CF_EUNSUPPORTED when o
 *   is NULL or does not state its gpu, its gpus_per_node, or (network other
 *   than none) its network or line rate;
 *   CF_EINVAL for a GPU name longer than cf_fabric.gpu holds
 *   (CF_GPU_NAME_MAX)
 * - ownership: *out is the caller's; nothing of `o` is kept */
CF_API cf_status cf_fabric_from_offering(const cf_offering *o, cf_fabric *out, cf_error *err);

/* The fabric for a question on `nodes` nodes of an offering; owns the
 * one-node rule.
 * - computes: for one node, the node's fabric with network none (nothing
 *   leaves the node, so the scale-out network does not matter and may be
 *   unknown); for more nodes, cf_fabric_from_offering's fabric
 * - output: *out (not NULL)
 * - errors (err may be NULL), in this order: CF_EINVAL for nodes below 1
 *   (param "nodes"); then with param "offering": the node's refusals of
 *   cf_fabric_from_offering (gpu, gpus_per_node), CF_EUNSUPPORTED for
 *   nodes > 1 when the offering does not state its network or line rate
 *   (the message says one node works), CF_EUNSUPPORTED when it does not
 *   state intra_link (the model needs the GPUs' link inside the node),
 *   CF_EINVAL when nodes x gpus_per_node exceed its stated max_cluster_gpus
 * - ownership: *out is the caller's; nothing of `o` is kept */
CF_API cf_status cf_fabric_for_nodes(const cf_offering *o, int nodes, cf_fabric *out,
                                     cf_error *err);

#endif
