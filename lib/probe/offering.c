/* offering.c — cf_probe_check_offering: what a node shows against what its
 * offering promised (GPU model and count, RDMA NICs per node, Gbit/s per
 * node and per NIC, GPUDirect RDMA). The fabric's ports are the RDMA ports
 * of its link layer (InfiniBand for ib, Ethernet for roce, the EFA
 * driver's "Unknown"/"Unspecified" for efa, any for rdma); TCPX and TCPXO
 * NICs are plain network interfaces, not compared. Unknown on either side
 * is said, not judged. */
#include <math.h>
#include <stdio.h>
#include "base/base.h"
#include "probe/probe_int.h"

/* 1 when a port of link layer `ll` belongs to network `net`'s fabric; -1
 * when the network has no RDMA ports to compare. */
static int fabric_port(cf_network net, const char *ll)
{
    switch (net) {
    case CF_NET_IB: return ll && strcmp(ll, "InfiniBand") == 0;
    case CF_NET_ROCE: return ll && strcmp(ll, "Ethernet") == 0;
    case CF_NET_EFA: return ll && (strcmp(ll, "Unknown") == 0 || strcmp(ll, "Unspecified") == 0);
    case CF_NET_RDMA: return 1;
    default: return -1;
    }
}

static int check(json_t *arr, const char *node, const char *fact, json_t *promised, json_t *found,
                 const char *verdict)
{
    json_t *o = json_object();
    int bad = 0;
    if (node) bad |= cf__json_set(o, "node", json_string(node));
    bad |= cf__json_set(o, "fact", json_string(fact));
    bad |= cf__json_set(o, "promised", promised);
    bad |= cf__json_set(o, "found", found);
    bad |= cf__json_set(o, "verdict", json_string(verdict));
    return bad || json_array_append_new(arr, o) != 0 ? -1 : 0;
}

/* A finding for `node` (the cluster's findings carry the node's name). */
static json_t *last_finding(json_t *findings, const char *node)
{
    json_t *f = json_array_get(findings, json_array_size(findings) - 1);
    if (f && node) cf__json_set(f, "node", json_string(node));
    return f;
}

static int gpus(json_t *checks, json_t *findings, const json_t *n, const char *node, const cf_offering *off)
{
    const json_t *g = json_object_get(n, "gpus"), *v;
    size_t found = json_array_size(g), i;
    int bad = 0;
    if (off->gpus_per_node > 0) {
        int ok = (long)found == off->gpus_per_node;
        bad |= check(checks, node, "gpus_per_node", json_integer(off->gpus_per_node), json_integer((json_int_t)found),
                     ok ? "ok" : "differs");
        if (!ok) {
            bad |= cf__probe_add_finding(findings, CF__PCODE_OFFER_GPU_COUNT, "%zu GPU(s) visible, the offering %s has %ld",
                                         found, off->id, off->gpus_per_node);
            last_finding(findings, node);
        }
    } else {
        bad |= check(checks, node, "gpus_per_node", json_null(), json_integer((json_int_t)found), "unknown");
    }
    json_array_foreach(g, i, v) {
        const char *model = json_string_value(json_object_get(v, "model"));
        const cf_gpu_spec *spec = NULL;
        if (!off->gpu) break;
        if (!model || cf_gpu_from_device_name(model, &spec) != CF_OK) {
            bad |= check(checks, node, "gpu", json_string(off->gpu), model ? json_string(model) : json_null(), "unknown");
            break;
        }
        if (cf__strcasecmp(spec->name, off->gpu) != 0) {
            bad |= check(checks, node, "gpu", json_string(off->gpu), json_string(spec->name), "differs");
            bad |= cf__probe_add_finding(findings, CF__PCODE_OFFER_GPU_MODEL, "GPU %s is %s (%s), the offering %s has %s",
                                         json_string_value(json_object_get(v, "pci")), spec->name, model, off->id,
                                         off->gpu);
            last_finding(findings, node);
            break;
        }
        if (i + 1 == json_array_size(g)) bad |= check(checks, node, "gpu", json_string(off->gpu), json_string(spec->name), "ok");
    }
    return bad;
}

/* The port already named by the node's own NIC_RATE_MISMATCH. */
static int already_slow(const json_t *findings, const char *name, long port)
{
    char pre[96];
    size_t i;
    const json_t *f;
    snprintf(pre, sizeof pre, "%s port %ld ", name, port);
    json_array_foreach(findings, i, f) {
        const char *c = json_string_value(json_object_get(f, "code")), *m = json_string_value(json_object_get(f, "message"));
        if (c && m && strcmp(c, "NIC_RATE_MISMATCH") == 0 && strncmp(m, pre, strlen(pre)) == 0) return 1;
    }
    return 0;
}

static int nics(json_t *checks, json_t *findings, const json_t *n, const char *node, const cf_offering *off)
{
    const json_t *v, *own = json_object_get(n, "findings");
    size_t i;
    long count = 0;
    double active = 0, share = NAN;
    int bad = 0;
    if (fabric_port(off->network, NULL) < 0) {
        return check(checks, node, "nics_per_node", off->nics_per_node >= 0 ? json_integer(off->nics_per_node) : json_null(),
                     json_null(), "not compared (not RDMA devices)");
    }
    if (off->nics_per_node > 0 && isfinite(off->network_gbps_per_node))
        share = off->network_gbps_per_node / (double)off->nics_per_node;
    json_array_foreach(json_object_get(n, "nics"), i, v) {
        const char *st = json_string_value(json_object_get(v, "state"));
        const char *name = json_string_value(json_object_get(v, "name"));
        double rate = json_number_value(json_object_get(v, "rate_gbps"));
        long port = (long)json_integer_value(json_object_get(v, "port"));
        if (fabric_port(off->network, json_string_value(json_object_get(v, "link_layer"))) != 1) continue;
        count++;
        if (!st || strcmp(st, "active") != 0 || !json_is_number(json_object_get(v, "rate_gbps"))) continue;
        active += rate;
        if (isfinite(share) && rate < share && name && !already_slow(own, name, port)) {
            bad |= cf__probe_add_finding(findings, CF__PCODE_NIC_RATE_MISMATCH,
                                         "%s port %ld runs at %g Gbit/s, the offering %s gives %g per NIC", name, port,
                                         rate, off->id, share);
            last_finding(findings, node);
        }
    }
    if (off->nics_per_node > 0) {
        int ok = count >= off->nics_per_node;
        bad |= check(checks, node, "nics_per_node", json_integer(off->nics_per_node), json_integer(count),
                     count == off->nics_per_node ? "ok" : "differs");
        if (!ok) {
            bad |= cf__probe_add_finding(findings, CF__PCODE_OFFER_NIC_COUNT,
                                         "%ld %s RDMA port(s) visible, the offering %s has %ld NICs", count,
                                         cf_network_label(off->network), off->id, off->nics_per_node);
            last_finding(findings, node);
        }
    } else {
        bad |= check(checks, node, "nics_per_node", json_null(), json_integer(count), "unknown");
    }
    if (isfinite(off->network_gbps_per_node) && off->network_gbps_per_node > 0) {
        int ok = active >= off->network_gbps_per_node;
        bad |= check(checks, node, "network_gbps_per_node", json_real(off->network_gbps_per_node), json_real(active),
                     ok ? "ok" : "differs");
        if (!ok) {
            bad |= cf__probe_add_finding(findings, CF__PCODE_OFFER_BANDWIDTH,
                                         "active %s ports give %g Gbit/s, %.0f %% of the %g the offering %s promises",
                                         cf_network_label(off->network), active,
                                         100.0 * active / off->network_gbps_per_node, off->network_gbps_per_node, off->id);
            last_finding(findings, node);
        }
    } else {
        bad |= check(checks, node, "network_gbps_per_node", json_null(), json_real(active), "unknown");
    }
    return bad;
}

static int gdr(json_t *checks, json_t *findings, const json_t *n, const char *node, const cf_offering *off)
{
    const char *g = json_string_value(json_object_get(n, "gdr"));
    int bad;
    if (off->gpudirect_rdma == CF_CAP_UNKNOWN)
        return check(checks, node, "gpudirect_rdma", json_null(), json_string(g ? g : "unknown"), "unknown");
    bad = check(checks, node, "gpudirect_rdma", json_string(cf_cap_name(off->gpudirect_rdma)),
                json_string(g ? g : "unknown"),
                !g || strcmp(g, "unknown") == 0 ? "unknown"
                : (strcmp(g, "on") == 0) == (off->gpudirect_rdma == CF_CAP_YES) ? "ok" : "differs");
    if (off->gpudirect_rdma == CF_CAP_YES && g && (strcmp(g, "off") == 0 || strcmp(g, "unusable") == 0)) {
        bad |= cf__probe_add_finding(findings, CF__PCODE_OFFER_GDR, "GPUDirect RDMA is %s, the offering %s promises it",
                                     g, off->id);
        last_finding(findings, node);
    }
    return bad;
}

static int one_node(json_t *checks, json_t *findings, const json_t *n, const char *node, const cf_offering *off)
{
    return gpus(checks, findings, n, node, off) | nics(checks, findings, n, node, off) |
           gdr(checks, findings, n, node, off);
}

cf_status cf_probe_check_offering(json_t *report, const cf_offering *off, cf_error *err)
{
    json_t *checks, *findings = json_object_get(report, "findings");
    const char *kind = json_string_value(json_object_get(report, "kind"));
    int bad = 0;
    if (!report || !off || !off->id || !json_is_array(findings) || !kind) {
        cf_error_set(err, NULL, 0, 0, "cf_probe_check_offering: NULL or malformed input");
        return CF_EINVAL;
    }
    checks = json_array();
    if (strcmp(kind, "cluster") == 0) {
        size_t i;
        json_t *n;
        json_array_foreach(json_object_get(report, "nodes"), i, n)
            bad |= one_node(checks, findings, n, json_string_value(json_object_get(n, "hostname")), off);
    } else {
        bad |= one_node(checks, findings, report, NULL, off);
    }
    bad |= cf__json_set(report, "offering", json_string(off->id));
    bad |= cf__json_set(report, "offering_check", checks);
    bad |= cf__json_set(report, "status", json_string(cf__probe_status_of(findings)));
    return bad ? CF_ENOMEM : CF_OK;
}
