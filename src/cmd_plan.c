/* cmd_plan.c — `clusterfit plan`: rank the catalog's offerings for a workload
 * (DESIGN §4.5, §6). A thin front end over cf_plan(): options to a filter and
 * plan options, then the JSON as is or a terminal table with one `why` line
 * under each row and the unranked offerings with their reasons.
 *
 * --currency is the planning currency here, not a filter: offerings priced in
 * another currency must show up in `unranked` ("currency EUR"), not vanish. */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"

static const char usage[] =
    "Usage: clusterfit plan --workload W [options]\n"
    "Rank the catalog's offerings for a workload by total cost (or time), searching\n"
    "node counts and parallel layouts that fit in memory on each offering.\n"
    "\n"
    "  --workload W         preset name or JSON file (required)\n"
    "  --objective O        cost (default) or time\n"
    "  --deadline HOURS     cost objective, only configurations that finish in time\n"
    "  --budget AMOUNT      time objective, only configurations within the budget\n"
    "  --currency C         planning currency (default USD); prices are never converted,\n"
    "                       offerings in another currency are listed as unranked\n"
    "  --max-gpus N         largest cluster when the provider states none (default 16384)\n"
    "  --top K              keep the K best rows (default all)\n"
    "  --format F           table (default) or json\n"
    "Filters, as in 'clusterfit list' (default --multinode yes):\n"
    "  --multinode yes|no|any   --network N   --gdr yes|no   --rdma yes|no   --gpu G\n"
    "  --min-gbps X   --orchestration O   --provisioning P   --storage yes\n"
    "  --max-price X   --provider NAME\n";

enum {
    OPT_WORKLOAD = 256, OPT_OBJECTIVE, OPT_DEADLINE, OPT_BUDGET, OPT_CURRENCY, OPT_MAX_GPUS,
    OPT_TOP, OPT_FORMAT, OPT_MULTINODE, OPT_NETWORK, OPT_GDR, OPT_RDMA, OPT_GPU, OPT_MIN_GBPS,
    OPT_ORCH, OPT_PROV, OPT_STORAGE, OPT_MAX_PRICE, OPT_PROVIDER, OPT_HELP
};

static const struct option longopts[] = {
    {"workload", required_argument, NULL, OPT_WORKLOAD},
    {"objective", required_argument, NULL, OPT_OBJECTIVE},
    {"deadline", required_argument, NULL, OPT_DEADLINE},
    {"budget", required_argument, NULL, OPT_BUDGET},
    {"currency", required_argument, NULL, OPT_CURRENCY},
    {"max-gpus", required_argument, NULL, OPT_MAX_GPUS},
    {"top", required_argument, NULL, OPT_TOP},
    {"format", required_argument, NULL, OPT_FORMAT},
    {"multinode", required_argument, NULL, OPT_MULTINODE},
    {"network", required_argument, NULL, OPT_NETWORK},
    {"gdr", required_argument, NULL, OPT_GDR},
    {"rdma", required_argument, NULL, OPT_RDMA},
    {"gpu", required_argument, NULL, OPT_GPU},
    {"min-gbps", required_argument, NULL, OPT_MIN_GBPS},
    {"orchestration", required_argument, NULL, OPT_ORCH},
    {"provisioning", required_argument, NULL, OPT_PROV},
    {"storage", required_argument, NULL, OPT_STORAGE},
    {"max-price", required_argument, NULL, OPT_MAX_PRICE},
    {"provider", required_argument, NULL, OPT_PROVIDER},
    {"help", no_argument, NULL, OPT_HELP},
    {NULL, 0, NULL, 0}
};

static int parse_cap(const char *opt, const char *s, int allow_any, cf_cap *out)
{
    if (strcmp(s, "yes") == 0) { *out = CF_CAP_YES; return 0; }
    if (strcmp(s, "no") == 0) { *out = CF_CAP_NO; return 0; }
    if (allow_any && strcmp(s, "any") == 0) { *out = CF_CAP_UNKNOWN; return 0; }
    cli_usage_error("plan", "%s expects yes%s, got '%s'", opt, allow_any ? ", no or any" : " or no", s);
    return -1;
}

static void progress(void *user, size_t done, size_t total)
{
    (void)user;
    fprintf(stderr, "\rclusterfit plan: searched %zu of %zu node types", done, total);
    if (done == total) fputs("\r\033[K", stderr);
    fflush(stderr);
}

/* Parses one option into the filter or the plan options; -1 on a usage error. */
static int take_option(int c, const char *arg, cf_filter *f, cf_plan_opts *o, const char **workload,
                       int *objective_set, cli_format *fmt)
{
    long l;
    double d;
    switch (c) {
    case OPT_WORKLOAD: *workload = arg; return 0;
    case OPT_OBJECTIVE:
        if (strcmp(arg, "cost") == 0) o->objective = CF_OBJ_COST;
        else if (strcmp(arg, "time") == 0) o->objective = CF_OBJ_TIME;
        else return cli_usage_error("plan", "--objective expects cost or time, got '%s'", arg), -1;
        *objective_set = 1;
        return 0;
    case OPT_DEADLINE: return cli_parse_num("plan", "--deadline", arg, 1e-6, 1e9, &o->deadline_h);
    case OPT_BUDGET: return cli_parse_num("plan", "--budget", arg, 1e-6, 1e18, &o->budget);
    case OPT_CURRENCY:
        if (strlen(arg) != 3) return cli_usage_error("plan", "--currency expects an ISO 4217 code such as USD, got '%s'", arg), -1;
        o->currency = arg;
        return 0;
    case OPT_MAX_GPUS:
        if (cli_parse_int("plan", "--max-gpus", arg, 1, 10000000, &l)) return -1;
        o->max_gpus = l;
        return 0;
    case OPT_TOP:
        if (cli_parse_int("plan", "--top", arg, 1, 100000, &l)) return -1;
        o->top = (int)l;
        return 0;
    case OPT_FORMAT: return cli_parse_format("plan", arg, FMT_TABLE | FMT_JSON, fmt);
    case OPT_MULTINODE: return parse_cap("--multinode", arg, 1, &f->multinode);
    case OPT_GDR: return parse_cap("--gdr", arg, 0, &f->gdr);
    case OPT_RDMA: return parse_cap("--rdma", arg, 0, &f->rdma);
    case OPT_NETWORK:
        if (cf_network_parse(arg, &f->network) != CF_OK)
            return cli_usage_error("plan", "unknown --network '%s' (accepted: %s)", arg, cf_network_accepted()), -1;
        f->network_set = 1;
        return 0;
    case OPT_GPU: f->gpu = arg; return 0;
    case OPT_MIN_GBPS: return cli_parse_num("plan", "--min-gbps", arg, 0, 1e7, &f->min_gbps);
    case OPT_ORCH:
        if (cf_set_parse(CF_SET_ORCHESTRATION, arg, ",", &f->orchestration) != CF_OK)
            return cli_usage_error("plan", "bad --orchestration '%s' (accepted: %s)", arg,
                                   cf_set_accepted(CF_SET_ORCHESTRATION)), -1;
        return 0;
    case OPT_PROV:
        if (cf_set_parse(CF_SET_PROVISIONING, arg, ",", &f->provisioning) != CF_OK)
            return cli_usage_error("plan", "bad --provisioning '%s' (accepted: %s)", arg,
                                   cf_set_accepted(CF_SET_PROVISIONING)), -1;
        return 0;
    case OPT_STORAGE:
        if (strcmp(arg, "yes") != 0) return cli_usage_error("plan", "--storage expects yes, got '%s'", arg), -1;
        f->storage = 1;
        return 0;
    case OPT_MAX_PRICE:
        if (cli_parse_num("plan", "--max-price", arg, 0, 1e6, &d)) return -1;
        f->max_price = d;
        return 0;
    case OPT_PROVIDER: f->provider = arg; return 0;
    default: return cli_usage_error("plan", "unknown option"), -1;
    }
}

/* ---- the table ---- */

#define WHY_WIDTH 96        /* the why line wraps here (a 100-column terminal) */

/* Copies s into buf (cap bytes), cut to `width` characters with ".." at the end. */
static const char *fit(char *buf, size_t cap, const char *s, size_t width)
{
    size_t n = s ? strlen(s) : 0;
    if (!s) s = "unknown";
    if (n <= width || width < 3) {
        snprintf(buf, cap, "%s", s);
    } else {
        snprintf(buf, cap, "%.*s..", (int)(width - 2), s);
    }
    return buf;
}

static const char *fmt_hours(char *buf, size_t cap, double h)
{
    if (isnan(h)) snprintf(buf, cap, "unknown");
    else if (h < 48) snprintf(buf, cap, "%.1f h", h);
    else snprintf(buf, cap, "%.1f d", h / 24);
    return buf;
}

/* Whole amounts with thousands separators ("1,234,567"). */
static const char *fmt_amount(char *buf, size_t cap, double v)
{
    char digits[64];
    size_t n, o = 0;
    if (isnan(v)) { snprintf(buf, cap, "unknown"); return buf; }
    if (v < 100) { snprintf(buf, cap, "%.2f", v); return buf; }
    snprintf(digits, sizeof digits, "%.0f", v);
    n = strlen(digits);
    for (size_t i = 0; i < n && o + 2 < cap; i++) {
        buf[o++] = digits[i];
        if ((n - i - 1) % 3 == 0 && i + 1 < n) buf[o++] = ',';
    }
    buf[o] = '\0';
    return buf;
}

static long geti(json_t *r, const char *k) { return (long)json_integer_value(json_object_get(r, k)); }
static double getd(json_t *r, const char *k)
{
    json_t *v = json_object_get(r, k);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

static void layout_text(char *buf, size_t cap, json_t *r)
{
    int n = 0;
    buf[0] = '\0';
    if (geti(r, "tp") > 1) n += snprintf(buf + n, cap - (size_t)n, "TP%ld ", geti(r, "tp"));
    if (geti(r, "pp") > 1 && (size_t)n < cap)
        n += snprintf(buf + n, cap - (size_t)n, "PP%ld%s ", geti(r, "pp"), geti(r, "vp") > 1 ? "v2" : "");
    if (geti(r, "cp") > 1 && (size_t)n < cap) n += snprintf(buf + n, cap - (size_t)n, "CP%ld ", geti(r, "cp"));
    if ((size_t)n < cap) n += snprintf(buf + n, cap - (size_t)n, "DP%ld", geti(r, "dp"));
}

/* Prints `text` after `lead`, wrapped at WHY_WIDTH columns under the lead. */
static void wrapped(FILE *out, const char *lead, const char *text)
{
    size_t col = strlen(lead), indent = col;
    fputs(lead, out);
    while (*text) {
        size_t word = strcspn(text, " ");
        if (col > indent && col + 1 + word > WHY_WIDTH) {
            fprintf(out, "\n%*s", (int)indent, "");
            col = indent;
        } else if (col > indent) {
            fputc(' ', out);
            col++;
        }
        fwrite(text, 1, word, out);
        col += word;
        text += word;
        while (*text == ' ') text++;
    }
    fputc('\n', out);
}

static int plan_print_table(FILE *out, json_t *doc, const cf_plan_opts *opts)
{
    json_t *ranked = json_object_get(doc, "ranked"), *unranked = json_object_get(doc, "unranked");
    const char *cur = json_string_value(json_object_get(doc, "currency"));
    size_t i;
    json_t *r;
    char a[64], b[64], c[64], d[64], e[64], f[64];
    fprintf(out, "Plan for %s: %s", json_string_value(json_object_get(doc, "workload")),
            opts->objective == CF_OBJ_TIME ? "fastest" : "cheapest");
    if (!isnan(opts->deadline_h)) fprintf(out, " finishing within %g h", opts->deadline_h);
    if (!isnan(opts->budget)) fprintf(out, " costing at most %g %s", opts->budget, cur);
    fprintf(out, ", prices in %s.\nE: scaling efficiency vs the smallest cluster that fits; "
            "P: parallel efficiency;\neffective price = sticker / P.\n\n", cur);
    fprintf(out, "%-3s %-11s %-20s %5s %-18s %8s %4s %4s %12s %s\n", "#", "provider", "offering", "nodes",
            "layout", "time", "E", "P", "cost", "price>eff/GPU-h");
    json_array_foreach(ranked, i, r) {
        char lead[16];
        layout_text(c, sizeof c, r);
        snprintf(e, sizeof e, "%.2f>%.2f", getd(r, "sticker_price_gpu_hr"), getd(r, "effective_price_gpu_hr"));
        fprintf(out, "%-3zu %-11s %-20s %5ld %-18s %8s %4.2f %4.2f %12s %s\n", i + 1,
                fit(a, sizeof a, json_string_value(json_object_get(r, "provider")), 11),
                fit(b, sizeof b, json_string_value(json_object_get(r, "offering")), 20), geti(r, "nodes"), c,
                fmt_hours(d, sizeof d, getd(r, "time_to_train_h")), getd(r, "scaling_efficiency"),
                getd(r, "parallel_efficiency"), fmt_amount(f, sizeof f, getd(r, "cost")), e);
        snprintf(lead, sizeof lead, "    why: ");
        wrapped(out, lead, json_string_value(json_object_get(r, "why")));
    }
    if (json_array_size(ranked) == 0) fputs("(no offering could be ranked)\n", out);
    if (json_array_size(unranked) > 0) {
        fprintf(out, "\nNot ranked (%zu):\n", json_array_size(unranked));
        json_array_foreach(unranked, i, r) {
            char line[1024];
            size_t k, n = 0;
            json_t *why;
            line[0] = '\0';
            json_array_foreach(json_object_get(r, "reasons"), k, why)
                if (n < sizeof line)
                    n += (size_t)snprintf(line + n, sizeof line - n, "%s%s", k ? "; " : "", json_string_value(why));
            snprintf(a, sizeof a, "  %s: ", json_string_value(json_object_get(r, "offering_id")));
            wrapped(out, a, line);
        }
    }
    return ferror(out) ? EXIT_INTERNAL : EXIT_OK;
}

int cmd_plan(const cli_ctx *ctx, int argc, char **argv)
{
    cf_filter filter;
    cf_plan_opts opts;
    cf_workload w;
    cf_catalog *cat = NULL;
    cf_error err;
    json_t *doc = NULL;
    const char *workload = NULL;
    cli_format fmt = FMT_TABLE;
    int c, objective_set = 0, rc;
    cf_status st;

    cf_filter_init(&filter);
    filter.multinode = CF_CAP_YES;
    cf_plan_opts_init(&opts);
    optind = 0;
    while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        if (c == OPT_HELP) { fputs(usage, stdout); return EXIT_OK; }
        if (c == '?') return cli_usage_error("plan", "bad option");
        if (take_option(c, optarg, &filter, &opts, &workload, &objective_set, &fmt) != 0) return EXIT_USAGE;
    }
    if (optind < argc) return cli_usage_error("plan", "unexpected argument '%s'", argv[optind]);
    if (!workload) return cli_usage_error("plan", "--workload is required (presets: %s)", cf_workload_presets());
    /* --budget alone means "fastest within the budget", --deadline alone "cheapest in time". */
    if (!objective_set && !isnan(opts.budget) && isnan(opts.deadline_h)) opts.objective = CF_OBJ_TIME;
    cf_error_clear(&err);
    if ((st = cf_workload_load(workload, &w, &err)) != CF_OK) return cli_lib_error("plan", st, &err);
    if ((rc = cli_open_catalog(ctx, "plan", &cat)) != EXIT_OK) return rc;
    if (isatty(STDERR_FILENO)) opts.progress = progress;
    st = cf_plan(cat, &filter, &w, &opts, &doc, &err);
    cf_catalog_close(cat);
    if (st != CF_OK) return cli_lib_error("plan", st, &err);
    if (fmt == FMT_JSON) return cli_print_json(doc);
    rc = plan_print_table(stdout, doc, &opts);
    json_decref(doc);
    return rc;
}
