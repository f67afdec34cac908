/* fabric_opts.c — the fabric of `predict collective` and `predict step`
 * from their options (src/fabric_opts.h): the catalog's offering through
 * cf_fabric_for_nodes (the library's one-node rule), or the explicit flags,
 * each value through cf_fabric_set in the order of cf_fabric_param_names.
 * Every refusal is the library's reason, as in the web API. */
#include <limits.h>
#include <string.h>
#include "fabric_opts.h"
#include "opts.h"
#include "textfmt.h"

/* The one fabric parameter an offering leaves to the flags: gdr, the state
 * of GPUDirect RDMA, which a catalog row may not know. (The topology,
 * --non-blocking and --rail-optimized, is the catalog's to state.) */
static int offering_takes(const char *name)
{
    return strcmp(name, "gdr") == 0;
}

/* The offering's fabric; its flags other than those offering_takes are refused. */
static int fabric_of_offering(const cli_ctx *ctx, const cli_cmd *c, const void *vals, const char *id,
                              long nodes, cf_fabric *fab)
{
    const char *const *names = cf_fabric_param_names();
    cf_catalog *cat = NULL;
    cf_offering *off = NULL;
    cf_error err;
    cf_status st;
    int rc;
    for (size_t i = 0; names[i]; i++) {
        const char *v;
        if (cli_opts_value(c, vals, names[i], &v) != 0) return EXIT_INTERNAL;
        if (v && !offering_takes(names[i]))
            return cli_usage_error(c->cmd, "--offering excludes the fabric flags (--gpu, --intra, ...)");
    }
    rc = cli_open_catalog(ctx, c->cmd, &cat);
    if (rc != EXIT_OK) return rc;
    st = cf_catalog_get(cat, id, &off);
    if (st == CF_ENOTFOUND) {
        cf_catalog_close(cat);
        return cli_usage_error(c->cmd, "no offering '%s' (see 'clusterfit list')", id);
    }
    /* The one-node rule (a network the offering does not state matters
     * only between nodes) is the library's. */
    cf_error_clear(&err);
    if (st == CF_OK) st = cf_fabric_for_nodes(off, nodes > INT_MAX ? INT_MAX : (int)nodes, fab, &err);
    cf_offering_free(off);
    cf_catalog_close(cat);
    return st == CF_OK ? EXIT_OK : cli_lib_error(c->cmd, st, &err);
}

/* The value given for `name`, NULL when not given (or, printed as a bug,
 * when the command has no option for it). */
static const char *given(const cli_cmd *c, const void *vals, const char *name)
{
    const char *v;
    return cli_opts_value(c, vals, name, &v) == 0 ? v : NULL;
}

int cli_fabric_for_nodes(const cli_ctx *ctx, const cli_cmd *c, const void *vals, long nodes,
                         cf_fabric *fab)
{
    const char *const *names = cf_fabric_param_names();
    const char *offering = given(c, vals, "offering");
    cf_error err;
    int rc;
    cf_fabric_init(fab);
    if (offering) {
        if ((rc = fabric_of_offering(ctx, c, vals, offering, nodes, fab)) != EXIT_OK) return rc;
    } else if (!given(c, vals, "gpu") || !given(c, vals, "gpus_per_node") || !given(c, vals, "intra") ||
               !given(c, vals, "network")) {
        return cli_usage_error(c->cmd, "give --offering ID, or --gpu, --gpus-per-node, --intra and --network");
    }
    /* Each value through the library's setter, in its order. */
    cf_error_clear(&err);
    for (size_t i = 0; names[i]; i++) {
        const char *v;
        if (offering && !offering_takes(names[i])) continue;
        /* The NICs are asked for once the network is known (the list has
         * network before them). */
        if (!offering && strcmp(names[i], "nics") == 0 && fab->network != CF_NET_NONE &&
            (!given(c, vals, "nics") || !given(c, vals, "nic_gbps")))
            return cli_usage_error(c->cmd, "--network %s needs --nics and --nic-gbps", given(c, vals, "network"));
        if (cli_opts_value(c, vals, names[i], &v) != 0) return EXIT_INTERNAL;
        if (v && cf_fabric_set(fab, names[i], v, &err) != CF_OK) return cli_param_error(c->cmd, &err);
    }
    return EXIT_OK;
}

int cli_fabric_from_opts(const cli_ctx *ctx, const cli_cmd *c, const void *vals, cf_fabric *fab)
{
    return cli_fabric_for_nodes(ctx, c, vals, 1, fab);
}

int cli_add_flags(json_t *j, const cf_fabric *fab, int nodes)
{
    json_t *f = cf_assumption_flags_json(cf_fabric_assumptions(fab, nodes));
    if (!j || !f) {
        json_decref(f);
        return -1;
    }
    return json_object_set_new(j, "flags", f);
}

int cli_add_band(json_t *j, const cf_workload *w, double step_time_s)
{
    return cf_band_json_set(j, "step_time_s", step_time_s, cf_workload_error_class(w, NULL));
}

void cli_print_assumes(FILE *out, const cf_fabric *fab, int nodes)
{
    unsigned flags = cf_fabric_assumptions(fab, nodes);
    for (unsigned bit = 1; bit && flags; bit <<= 1)
        if (flags & bit) {
            const char *t = cf_assumption_text(bit);
            if (t) tf_wrap(out, "assumes: ", t, TF_WIDTH);
            flags &= ~bit;
        }
}
