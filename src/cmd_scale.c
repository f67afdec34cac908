/* cmd_scale.c — `clusterfit scale`: the scaling-efficiency curve of a workload
 * on one offering (DESIGN §6): per node count the fastest layout that fits,
 * its step time, throughput, E relative to the smallest cluster that fits,
 * and the job's cost. A thin front end over cf_scale(). */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

static const char usage[] =
    "Usage: clusterfit scale --workload W --offering ID [--nodes 1,2,4,...] [--format table|json]\n"
    "Scaling curve of a workload on one offering: step time, throughput, scaling\n"
    "efficiency (vs the smallest node count that fits) and job cost per node count.\n"
    "\n"
    "  --workload W     preset name or JSON file (required)\n"
    "  --offering ID    catalog offering id (required)\n"
    "  --nodes LIST     comma-separated node counts (default: the smallest that fits,\n"
    "                   then powers of two up to the largest cluster)\n"
    "  --format F       table (default) or json\n";

enum { OPT_WORKLOAD = 256, OPT_OFFERING, OPT_NODES, OPT_FORMAT, OPT_HELP };

static const struct option longopts[] = {
    {"workload", required_argument, NULL, OPT_WORKLOAD},
    {"offering", required_argument, NULL, OPT_OFFERING},
    {"nodes", required_argument, NULL, OPT_NODES},
    {"format", required_argument, NULL, OPT_FORMAT},
    {"help", no_argument, NULL, OPT_HELP},
    {NULL, 0, NULL, 0}
};

/* "1,2,4" -> counts; usage error on anything else. */
static int parse_nodes(const char *s, int *out, size_t cap, size_t *n)
{
    char buf[32];
    *n = 0;
    while (*s) {
        size_t len = strcspn(s, ",");
        long v;
        if (len == 0 || len >= sizeof buf || *n == cap)
            return cli_usage_error("scale", "--nodes expects up to %zu comma-separated counts", cap), -1;
        memcpy(buf, s, len);
        buf[len] = '\0';
        if (cli_parse_int("scale", "--nodes", buf, 1, 1000000, &v)) return -1;
        out[(*n)++] = (int)v;
        s += len;
        if (*s == ',') s++;
    }
    if (*n == 0) return cli_usage_error("scale", "--nodes expects at least one count"), -1;
    return 0;
}

static const char *unit_of(const cf_workload *w)
{
    switch (w->kind) {
    case CF_WL_LLM: return "tokens/s";
    case CF_WL_DATA_PARALLEL: return "samples/s";
    case CF_WL_STENCIL: return "iter/s";
    default: return "tasks/s";
    }
}

static void cell(FILE *out, json_t *r, const char *k, const char *fmt, int width)
{
    json_t *v = json_object_get(r, k);
    if (json_is_number(v)) fprintf(out, fmt, width, json_number_value(v));
    else fprintf(out, "%*s", width, "-");
}

static int print_table(FILE *out, json_t *arr, const cf_workload *w, const cf_offering *o)
{
    size_t i;
    json_t *r;
    fprintf(out, "Scaling of %s on %s (%s %s, %ld x %s per node); cost in %s.\n\n", w->name,
            o->id, o->provider ? o->provider : "unknown", o->offering ? o->offering : "",
            o->gpus_per_node, o->gpu ? o->gpu : "unknown", o->currency ? o->currency : "unknown");
    fprintf(out, "%7s %12s %14s %6s %14s\n", "nodes", "step time s", unit_of(w), "E", "cost");
    json_array_foreach(arr, i, r) {
        fprintf(out, "%7ld ", (long)json_integer_value(json_object_get(r, "nodes")));
        cell(out, r, "step_time_s", "%*.3f", 12);
        fputc(' ', out);
        cell(out, r, "throughput", "%*.0f", 14);
        fputc(' ', out);
        cell(out, r, "scaling_efficiency", "%*.2f", 6);
        fputc(' ', out);
        cell(out, r, "cost", "%*.0f", 14);
        fputc('\n', out);
    }
    fputs("(- : no layout fits in memory on that many nodes, or the price is unknown)\n", out);
    return ferror(out) ? EXIT_INTERNAL : EXIT_OK;
}

int cmd_scale(const cli_ctx *ctx, int argc, char **argv)
{
    const char *workload = NULL, *id = NULL;
    int nodes[CF_MAX_PLAN_NODE_COUNTS];
    size_t n_nodes = 0;
    int have_nodes = 0, c, rc;
    cli_format fmt = FMT_TABLE;
    cf_workload w;
    cf_catalog *cat = NULL;
    cf_offering *o = NULL;
    cf_error err;
    json_t *arr = NULL;
    cf_status st;

    optind = 0;
    while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        switch (c) {
        case OPT_HELP: fputs(usage, stdout); return EXIT_OK;
        case OPT_WORKLOAD: workload = optarg; break;
        case OPT_OFFERING: id = optarg; break;
        case OPT_NODES:
            if (parse_nodes(optarg, nodes, CF_MAX_PLAN_NODE_COUNTS, &n_nodes)) return EXIT_USAGE;
            have_nodes = 1;
            break;
        case OPT_FORMAT:
            if (cli_parse_format("scale", optarg, FMT_TABLE | FMT_JSON, &fmt)) return EXIT_USAGE;
            break;
        default: return cli_usage_error("scale", "bad option");
        }
    }
    if (optind < argc) return cli_usage_error("scale", "unexpected argument '%s'", argv[optind]);
    if (!workload || !id) return cli_usage_error("scale", "--workload and --offering are required");
    cf_error_clear(&err);
    if ((st = cf_workload_load(workload, &w, &err)) != CF_OK) return cli_lib_error("scale", st, &err);
    if ((rc = cli_open_catalog(ctx, "scale", &cat)) != EXIT_OK) return rc;
    st = cf_catalog_get(cat, id, &o);
    cf_catalog_close(cat);
    if (st == CF_ENOTFOUND) {
        fprintf(stderr, "clusterfit scale: no offering '%s' (see 'clusterfit list')\n", id);
        return EXIT_USAGE;
    }
    if (st != CF_OK) return cli_lib_error("scale", st, NULL);
    st = cf_scale(o, &w, have_nodes ? nodes : NULL, n_nodes, &arr, &err);
    if (st != CF_OK) {
        rc = cli_lib_error("scale", st, &err);
    } else if (fmt == FMT_JSON) {
        rc = cli_print_json(arr);
        arr = NULL;
    } else {
        rc = print_table(stdout, arr, &w, o);
    }
    json_decref(arr);
    cf_offering_destroy(o);
    return rc;
}
