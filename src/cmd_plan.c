/* cmd_plan.c — `clusterfit plan`: rank the catalog's offerings for a workload
 * (DESIGN §4.5, §6). A thin front end over cf_plan(): options to a filter and
 * plan options, then the JSON as is or a terminal table with one `why` line
 * under each row and the unranked offerings with their reasons.
 *
 * --currency is the planning currency here, not a filter: offerings priced in
 * another currency must show up in `unranked` ("currency EUR"), not vanish. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "opts.h"
#include "serve_cli.h"
#include "textfmt.h"
#include "goodput_text.h"
#include "provider_text.h"
#include "plan_flags_text.h"

static void progress(void *user, size_t done, size_t total)
{
    (void)user;
    fprintf(stderr, "\rclusterfit plan: searched %zu of %zu node types", done, total);
    if (done == total) fputs("\r\033[K", stderr);
    fflush(stderr);
}

typedef struct plan_args {
    cf_filter filter;
    cf_plan_opts opts;
    const char *workload;
    cli_format fmt;
    int known_only;         /* --known-only given */
    int no_failures;        /* --no-failures given */
    serve_cli_opts serve;   /* --tpot-ms, --ttft-s: serve workloads only */
} plan_args;

/* A catalog filter option: the library's parser (cli_set_filter), as in
 * `list` and the server. */
#define FILTER CLI_FILTER_AT(plan_args, filter)

/* A plan option (--objective, --deadline, --budget, --max-gpus, --top):
 * the library's setter, as POST /api/plan calls it for its members. */
static int set_plan_opt(const char *cmd, const cli_opt *o, const char *arg, void *dst)
{
    char name[32];
    cf_error err;
    cf_error_clear(&err);
    if (cf_plan_opts_set(dst, cli_lib_name(o->name, name, sizeof name), arg, &err) == CF_OK) return 0;
    cli_respell(&err);
    cli_param_error(cmd, &err);
    return -1;
}

#define PLAN_OPT .kind = CLI_CALL, .off = CLI_OFF(plan_args, opts, cf_plan_opts), .set = set_plan_opt

/* --max-gpus's default as its help's second line states it, from the
 * library's constant (plan.h), so the help cannot drift from the planner. */
static const char *max_gpus_default(void)
{
    static char text[32];
    snprintf(text, sizeof text, "(default %ld)", CF_PLAN_DEFAULT_MAX_GPUS);
    return text;
}

static const cli_opt plan_opts[] = {
    {.name = "workload", CLI_STR_AT(plan_args, workload), .metavar = "W",
     .help = "preset name or JSON file (required)"},
    /* The plan options: the library's setter (cf_plan_opts_set), its bounds
     * (limits.h) and its default objective (cf_plan_opts_finish). */
    {.name = "objective", PLAN_OPT, .metavar = "O", .help = "cost (default) or time"},
    {.name = "deadline", PLAN_OPT, .metavar = "HOURS",
     .help = "cost objective, only configurations that finish in time"},
    {.name = "budget", PLAN_OPT, .metavar = "AMOUNT",
     .help = "time objective, only configurations within the budget"},
    {.name = "margin", PLAN_OPT, .metavar = "PCT",
     .help = "a deadline is met when the time plus PCT % is (default:\n"
             "the p90 of the model's error out of sample for the\n"
             "workload's class, ERR_*_P90 - 1: 24 dense, 54 MoE)"},
    /* The goodput model's options (goodput.h), through the same setter. */
    {.name = "no-failures", CLI_FLAG_AT(plan_args, no_failures),
     .help = "steady state: no interruption, checkpoint or input stall"},
    {.name = "mtbf-gpu-h", PLAN_OPT, .metavar = "H",
     .help = "GPU-hours between unexpected interruptions (default:\n"
             "the Llama 3 405B run's, docs/goodput.md)"},
    {.name = "ckpt-interval", PLAN_OPT, .metavar = "S",
     .help = "seconds between checkpoints (default: Young/Daly)"},
    {.name = "known-only", CLI_FLAG_AT(plan_args, known_only),
     .help = "rank on stated facts alone: more than one node only\n"
             "where the largest cluster, NICs and topology are stated"},
    /* Checked as the currency filter (cf_filter_set), then moved to the
     * plan options by cmd_plan: the API's "filters" currency does the same. */
    {.name = "currency", FILTER, .metavar = "C",
     .help = "planning currency (default USD); prices are never\n"
             "converted, offerings in another currency are unranked"},
    {.name = "max-gpus", PLAN_OPT, .metavar = "N",
     .help = "largest cluster when the provider states none", .more = max_gpus_default},
    {.name = "top", PLAN_OPT, .metavar = "K", .help = "keep the K best rows (default all)"},
    {.name = "tpot-ms", CLI_STR_AT(plan_args, serve.tpot_ms), .metavar = "MS",
     .help = "serve workloads: time per output token target (default:\n"
             "the workload's targets.tpot_ms)"},
    {.name = "ttft-s", CLI_STR_AT(plan_args, serve.ttft_s), .metavar = "S",
     .help = "serve workloads: time to first token target (default:\n"
             "the workload's targets.ttft_s)"},
    {.name = "format", CLI_FORMAT_AT(plan_args, fmt), .metavar = "F",
     .formats = FMT_TABLE | FMT_JSON, .help = "text (default) or json"},
    {.name = "help", .kind = CLI_HELP, .help = "this help"},
    {.kind = CLI_FLOW_SECTION, .help = "Filters, as in 'clusterfit list' (default none: every offering, one\n"
                                        "rented as a single node or stating no network planned on one node):"},
    /* The filters, as `list` has them and parsed by the same library
     * function (cli_set_filter); listed by name only. */
    {.name = "multinode", FILTER, .metavar = "yes|no|any"},
    {.name = "network", FILTER, .metavar = "N"},
    {.name = "gdr", FILTER, .metavar = "yes|no"},
    {.name = "rdma", FILTER, .metavar = "yes|no"},
    {.name = "gpu", FILTER, .metavar = "G"},
    {.name = "min-gbps", FILTER, .metavar = "X"},
    {.name = "orchestration", FILTER, .metavar = "O"},
    {.name = "provisioning", FILTER, .metavar = "P"},
    {.name = "storage", FILTER, .metavar = "yes"},
    {.name = "max-price", FILTER, .metavar = "X"},
    {.name = "provider", FILTER, .metavar = "NAME"},
    {.kind = CLI_END},
};

static const cli_cmd plan_cmd = {
    .cmd = "plan",
    .usage = "Usage: clusterfit plan --workload W [options]\n"
             "Rank the catalog's offerings for a workload by total cost (or time), searching\n"
             "node counts and parallel layouts that fit in memory on each offering. Near\n"
             "ties (within 1 %) go to the cheaper (time) or faster (cost) configuration.\n"
             "\n",
    .opts = plan_opts,
    .col = 23,
    .no_args = 1,
};

/* ---- the table ---- */

#define WIDTH TF_WIDTH
#define ID_WIDTH 21

static const char *fmt_hours(char *buf, size_t cap, double h)
{
    if (isnan(h)) snprintf(buf, cap, "unknown");
    else if (h < 1.0 / 60) snprintf(buf, cap, "%.0f s", h * 3600);
    else if (h < 1) snprintf(buf, cap, "%.0f min", h * 60);
    else if (h < 48) snprintf(buf, cap, "%.1f h", h);
    else if (h < 2400) snprintf(buf, cap, "%.1f d", h / 24);
    else if (h < 24.0 * 1000) snprintf(buf, cap, "%.0f d", h / 24);
    else snprintf(buf, cap, "%.1f y", h / (24 * 365.25)); /* 1000 d and more: years */
    return buf;
}

/* "90 days", "2.5 days". */
static const char *fmt_days(char *buf, size_t cap, double h)
{
    snprintf(buf, cap, "%g day%s", round(h / 24 * 10) / 10, h == 24 ? "" : "s");
    return buf;
}

/* Whole amounts with thousands separators ("1,234,567"); below 100 with
 * cents. */
static const char *fmt_amount(char *buf, size_t cap, double v)
{
    if (isnan(v)) { snprintf(buf, cap, "unknown"); return buf; }
    if (v < 100) { snprintf(buf, cap, "%.2f", v); return buf; }
    return tf_thousands(buf, cap, v);
}

/* 15e12 -> "15T", 1.2e6 -> "1.2M": counts of tokens, samples, tasks. */
static const char *fmt_count(char *buf, size_t cap, double v)
{
    static const struct { double f; const char *s; } u[] = {{1e12, "T"}, {1e9, "B"}, {1e6, "M"}, {1e3, "k"}};
    for (size_t i = 0; i < sizeof u / sizeof u[0]; i++)
        if (v >= u[i].f) {
            snprintf(buf, cap, "%.3g%s", v / u[i].f, u[i].s);
            return buf;
        }
    snprintf(buf, cap, "%.3g", v);
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
    if (geti(r, "ep") > 1 && (size_t)n < cap) n += snprintf(buf + n, cap - (size_t)n, "EP%ld ", geti(r, "ep"));
    if (geti(r, "etp") > 1 && (size_t)n < cap) n += snprintf(buf + n, cap - (size_t)n, "ETP%ld ", geti(r, "etp"));
    if ((size_t)n < cap && json_is_null(json_object_get(r, "dp")))   /* MPI ranks (stencil) */
        n += snprintf(buf + n, cap - (size_t)n, "%ld rank%s", geti(r, "ranks"), geti(r, "ranks") == 1 ? "" : "s");
    else if ((size_t)n < cap)
        n += snprintf(buf + n, cap - (size_t)n, "DP%ld", geti(r, "dp"));
}

/* Prints `text` after `lead`, wrapped at WIDTH columns under the lead. */
static void wrapped(FILE *out, const char *lead, const char *text)
{
    tf_wrap(out, lead, text, WIDTH);
}

/* The kind of an unranked reason, in a few words, for the summary line. */
static const char *reason_kind(const char *r)
{
    static const struct { const char *prefix, *kind; } k[] = {
        {"price unknown", "no price"}, {"currency unknown", "no currency"},
        {"currency ", "other currency"}, {"network_gbps_per_node unknown", "no Gbit/s"},
        {"network unknown", "no fabric"}, {"intra_link unknown", "no intra-node link"},
        {"gpus_per_node unknown", "no GPUs per node"}, {"gpu unknown", "no GPU model"},
        {"gpu ", "GPU not modelled"}, {"fabric: ", "fabric not modelled"},
        {"deadline ", "miss the deadline"}, {"budget ", "over the budget"},
        {"needs ", "too small to fit"}, {"no layout fits", "too small to fit"},
        {"does not fit", "too small to fit"}};
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
        if (strncmp(r, k[i].prefix, strlen(k[i].prefix)) == 0) return k[i].kind;
    return "other reasons";
}

/* Up to this many unranked offerings are listed one by one with their
 * reasons; more are summarized per kind of reason (unranked_by_kind). */
enum { UNRANKED_LISTED = 12, UNRANKED_IDS = 3 };

/* Counts the unranked offerings per kind of reason (reason_kind): kinds[]
 * in first-seen order, counts[] how many offerings have it (an offering
 * counts once per kind); at most max kinds. Returns the number of kinds. */
static size_t count_kinds(json_t *unranked, const char **kinds, size_t *counts, size_t max)
{
    size_t nk = 0, i;
    json_t *u;
    json_array_foreach(unranked, i, u) {
        json_t *why;
        size_t j, k, seen_n = 0;
        const char *seen[16];
        json_array_foreach(json_object_get(u, "reasons"), j, why) {
            const char *kd = reason_kind(json_string_value(why) ? json_string_value(why) : "");
            size_t dup = 0;
            for (k = 0; k < seen_n; k++) dup |= seen[k] == kd;
            if (dup || seen_n == sizeof seen / sizeof seen[0]) continue; /* once per offering */
            seen[seen_n++] = kd;
            for (k = 0; k < nk && kinds[k] != kd; k++) {}
            if (k == nk) {
                if (nk == max) continue;
                kinds[nk] = kd;
                counts[nk++] = 0;
            }
            counts[k]++;
        }
    }
    return nk;
}

/* "Not ranked (173), by reason": per kind of reason (reason_kind), most
 * frequent first, its count and its first ids; every offering with all its
 * reasons is in --format json. An offering counts under each kind. */
static void unranked_by_kind(FILE *out, json_t *unranked)
{
    enum { MAXK = 16 };
    const char *kinds[MAXK];
    size_t counts[MAXK], order[MAXK], nk = count_kinds(unranked, kinds, counts, MAXK), i;
    char line[1024];
    json_t *u;
    for (size_t k = 0; k < nk; k++) order[k] = k;
    for (size_t a = 1; a < nk; a++) /* most frequent first, stable */
        for (size_t b = a; b > 0 && counts[order[b]] > counts[order[b - 1]]; b--) {
            size_t t = order[b];
            order[b] = order[b - 1];
            order[b - 1] = t;
        }
    fprintf(out, "\nNot ranked (%zu), by reason (all, with every reason: --format json):\n",
            json_array_size(unranked));
    for (size_t o = 0; o < nk; o++) {
        size_t k = order[o], shown = 0, n = 0, dup_total = 0;
        char lead[96];
        line[0] = '\0';
        snprintf(lead, sizeof lead, "  %s (%zu): ", kinds[k], counts[k]);
        json_array_foreach(unranked, i, u) {
            json_t *why;
            size_t j;
            int has = 0;
            json_array_foreach(json_object_get(u, "reasons"), j, why)
                has |= reason_kind(json_string_value(why) ? json_string_value(why) : "") == kinds[k];
            if (!has) continue;
            dup_total++;
            if (shown == UNRANKED_IDS || n >= sizeof line) continue;
            n += (size_t)snprintf(line + n, sizeof line - n, "%s%s", shown ? ", " : "",
                                  json_string_value(json_object_get(u, "offering_id")));
            shown++;
        }
        if (dup_total > shown && n < sizeof line)
            snprintf(line + n, sizeof line - n, " and %zu more", dup_total - shown);
        wrapped(out, lead, line);
    }
}

/* "43 not ranked (no price 34, no Gbit/s 20, ...)" appended to buf, kinds
 * most frequent first while the line stays within WIDTH (an offering counts
 * once per kind of reason it has). */
static void unranked_summary(char *buf, size_t cap, json_t *unranked)
{
    enum { MAXK = 16 };
    const char *kinds[MAXK];
    size_t counts[MAXK], nk = count_kinds(unranked, kinds, counts, MAXK), n;
    /* Most frequent first. */
    for (size_t a = 1; a < nk; a++)
        for (size_t b = a; b > 0 && counts[b] > counts[b - 1]; b--) {
            size_t c = counts[b]; const char *k = kinds[b];
            counts[b] = counts[b - 1]; kinds[b] = kinds[b - 1];
            counts[b - 1] = c; kinds[b - 1] = k;
        }
    n = strlen(buf);
    if (n < cap) n += (size_t)snprintf(buf + n, cap - n, "%zu not ranked", json_array_size(unranked));
    for (size_t k = 0; k < nk && n < cap; k++) {
        char item[64];
        int len = snprintf(item, sizeof item, "%s%s %zu", k ? ", " : " (", kinds[k], counts[k]);
        /* Room for what may follow: ", ...)." or ")." */
        if (n + (size_t)len + (k + 1 < nk ? 7 : 2) > WIDTH) {
            snprintf(buf + n, cap - n, ", ...)");
            return;
        }
        n += (size_t)snprintf(buf + n, cap - n, "%s", item);
    }
    if (n < cap && nk) snprintf(buf + n, cap - n, ")");
}

/* "70.6B parameters, 15T tokens in global batches of 512 x 8192 tokens". */
static void workload_text(char *buf, size_t cap, const cf_workload *w)
{
    char a[32], b[32];
    switch (w->kind) {
    case CF_WL_LLM:
        if (!isnan(w->llm.params_b) && w->llm.params_b > 0)
            snprintf(a, sizeof a, "%.3gB parameters, ", w->llm.params_b);
        else
            a[0] = '\0';
        snprintf(buf, cap, "%s%s tokens, global batch %ld x %ld", a,
                 fmt_count(b, sizeof b, w->train_tokens), w->global_batch_seqs, w->llm.seq);
        if (w->global_batch_max_seqs > w->global_batch_seqs)
            snprintf(buf + strlen(buf), cap - strlen(buf), " (may grow to %ld on larger clusters)",
                     w->global_batch_max_seqs);
        break;
    case CF_WL_DATA_PARALLEL:
        snprintf(buf, cap, "data-parallel training, %s samples, global batch %ld",
                 fmt_count(b, sizeof b, w->dp_samples), w->dp_global_batch);
        break;
    case CF_WL_STENCIL:
        snprintf(buf, cap, "MPI stencil, %s iterations over %s cells",
                 fmt_count(a, sizeof a, w->st_iterations), fmt_count(b, sizeof b, w->st_cells));
        break;
    default:
        snprintf(buf, cap, "%s independent tasks", fmt_count(b, sizeof b, w->ep_tasks));
        break;
    }
}

/* "Cheapest total cost first (costs in USD), finishing within 2160 h (90
 * days)." — the objective, its constraint and the currency. */
static void objective_line(FILE *out, const cf_plan_opts *opts, const char *cur, json_t *doc)
{
    char line[512], d[64], f[64];
    size_t n = (size_t)snprintf(line, sizeof line, "%s first (costs in %s)",
                                opts->objective == CF_OBJ_TIME ? "Fastest" : "Cheapest total cost", cur);
    if (!isnan(opts->deadline_h) && n < sizeof line)
        n += (size_t)snprintf(line + n, sizeof line - n, ", finishing within %g h%s%s%s", opts->deadline_h,
                              opts->deadline_h >= 48 ? " (" : "",
                              opts->deadline_h >= 48 ? fmt_days(d, sizeof d, opts->deadline_h) : "",
                              opts->deadline_h >= 48 ? ")" : "");
    if (!isnan(opts->deadline_h) && n < sizeof line)
        n += (size_t)snprintf(line + n, sizeof line - n, " with a margin of %g %%%s",
                              getd(doc, "margin_pct"),
                              isnan(opts->margin_pct) ? " (the model's p90 error out of sample)" : "");
    if (!isnan(opts->budget) && n < sizeof line)
        n += (size_t)snprintf(line + n, sizeof line - n, ", costing at most %s %s",
                              fmt_amount(f, sizeof f, opts->budget), cur);
    if (opts->objective == CF_OBJ_TIME && n < sizeof line)
        n += (size_t)snprintf(line + n, sizeof line - n, ", among node counts with E of at least %.2f "
                              "and counting a run shorter than its minimum rental as that long",
                              CF_PLAN_TIME_E_FLOOR);
    if (opts->known_only && n < sizeof line)
        n += (size_t)snprintf(line + n, sizeof line - n, ", on stated facts alone (--known-only)");
    if (n < sizeof line) snprintf(line + n, sizeof line - n, ".");
    wrapped(out, "", line);
}

/* The legend of the '*' mark, when a ranked row has it. */
/* "69.0 d - 93.0 d, 7.16 M - 9.65 M USD": a row's band (cf__plan_band_set
 * in the library). */
static void band_text(char *buf, size_t cap, json_t *r, const char *cur)
{
    char t0[32], t1[32], c0[32], c1[32];
    snprintf(buf, cap, "%s - %s, %s - %s %s", fmt_hours(t0, sizeof t0, getd(r, "time_to_train_h_p10")),
             fmt_hours(t1, sizeof t1, getd(r, "time_to_train_h_p90")),
             fmt_amount(c0, sizeof c0, getd(r, "cost_p10")), fmt_amount(c1, sizeof c1, getd(r, "cost_p90")),
             cur);
}

/* The legend line of the band and the rows the model cannot tell from
 * the first ("rows 2-5 cost the same as row 1 within the model's error"). */
static void band_legend(FILE *out, json_t *doc, const cf_plan_opts *opts)
{
    json_t *e = json_object_get(doc, "error"), *same = json_object_get(doc, "same_within_error");
    char line[512];
    size_t n;
    n = (size_t)snprintf(line, sizeof line, "p10-p90: time and cost x %.2f-%.2f, the model's error out "
                         "of sample on %s training%s: the p10 and p90 of measured / predicted "
                         "time on sources the model was never fitted on (docs/model.md §0 gives "
                         "each class and how often the band held).", getd(e, "p10"), getd(e, "p90"),
                         strcmp(json_string_value(json_object_get(e, "class")) ? json_string_value(json_object_get(e, "class")) : "dense", "moe") == 0
                             ? "Mixture-of-Experts" : "dense",
                         json_is_true(json_object_get(e, "assumed")) ? " (assumed: no validation rows of this kind)" : "");
    if (json_array_size(same) > 0 && n < sizeof line)
        snprintf(line + n, sizeof line - n, " Rows 2-%ld %s row 1 within that error.",
                 (long)json_integer_value(json_array_get(same, json_array_size(same) - 1)),
                 opts->objective == CF_OBJ_TIME ? "take as long as" : "cost the same as");
    wrapped(out, "", line);
}

/* What the columns mean, the assumed-fact mark and the band. */
static void legend(FILE *out, json_t *doc, const cf_plan_opts *opts)
{
    json_t *ranked = json_object_get(doc, "ranked");
    fputs("E: scaling efficiency, throughput per GPU vs the smallest cluster that fits;\n"
          "   above 1 when that cluster needs memory savers (the why line says which).\n"
          "P: parallel efficiency. E and P are fractions, 1 = perfect.\n"
          "Effective price = sticker price / P, per GPU-hour.\n", out);
    /* Time and cost count the goodput (docs/goodput.md) unless asked not to. */
    fputs(opts->goodput.no_failures
              ? "Time and cost: the steady state (--no-failures): no interruption or checkpoint.\n"
              : "Time and cost count failures, restarts, checkpoints and input reads on the\n"
                "   row's storage (the goodput line); --no-failures gives the steady state.\n", out);
    plan_assumed_legend(out, ranked, 1);
    if (json_array_size(ranked) > 0) band_legend(out, doc, opts);
}

/* "0 ranked: no offering passes the filters; --network tcp alone keeps 8 of
 * the catalog's 200, --multinode yes 92: none has them all." from the
 * library's `filters` (cf_filter_explain), appended to buf. */
static void filters_text(char *buf, size_t cap, json_t *doc)
{
    json_t *fs = json_object_get(doc, "filters"), *f;
    size_t n = strlen(buf), i, zero = 0;
    json_array_foreach(fs, i, f) zero += geti(f, "matches") == 0;
    if (n < cap)
        n += (size_t)snprintf(buf + n, cap - n, ": no offering passes the filters%s",
                              json_array_size(fs) ? ";" : ".");
    json_array_foreach(fs, i, f) {
        if (n >= cap || (zero && geti(f, "matches") != 0)) continue;
        n += (size_t)snprintf(buf + n, cap - n, "%s --%s %s %s%ld", i && !zero ? "," : "",
                              json_string_value(json_object_get(f, "filter")),
                              json_string_value(json_object_get(f, "value")),
                              zero ? "matches no offering" : i ? "" : "alone keeps ",
                              zero ? 0L : geti(f, "matches"));
        if (zero && n > 0 && n < cap) buf[--n] = '\0';    /* drop the 0 */
        if (!zero && i == 0 && n < cap)
            n += (size_t)snprintf(buf + n, cap - n, " of the catalog's %ld", geti(doc, "catalog_offerings"));
    }
    if (json_array_size(fs) && n < cap)
        snprintf(buf + n, cap - n, "%s", zero ? "." : ": none has them all.");
}

/* Before the legend: with no deadline the cheapest plan is often a
 * years-long run; what the cheapest within the library's horizon
 * (within_horizon, CF_PLAN_HORIZON_H) is, which --deadline would rank
 * first. */
static void horizon_note(FILE *out, json_t *doc, const cf_plan_opts *opts)
{
    json_t *ranked = json_object_get(doc, "ranked"), *hz = json_object_get(doc, "within_horizon");
    double hz_h = getd(hz, "horizon_h");
    char line[640], d[32], f[32], t[32], c[32];
    const char *id = json_string_value(json_object_get(hz, "offering_id"));
    size_t n;
    if (opts->objective != CF_OBJ_COST || !isnan(opts->deadline_h) || !json_is_object(hz) ||
        json_array_size(ranked) == 0 || !(getd(json_array_get(ranked, 0), "time_to_train_h") > hz_h))
        return;
    n = (size_t)snprintf(line, sizeof line, "Note: with no deadline the cheapest plan takes %s. ",
                         fmt_hours(d, sizeof d, getd(json_array_get(ranked, 0), "time_to_train_h")));
    if (id && n < sizeof line)
        snprintf(line + n, sizeof line - n, "Within %s the cheapest is %s on %ld nodes, %s for %s %s: "
                 "add --deadline %g to rank what finishes in time.", fmt_days(f, sizeof f, hz_h), id,
                 geti(hz, "nodes"), fmt_hours(t, sizeof t, getd(hz, "time_to_train_h")),
                 fmt_amount(c, sizeof c, getd(hz, "cost")),
                 json_string_value(json_object_get(doc, "currency")), hz_h);
    else if (n < sizeof line)
        snprintf(line + n, sizeof line - n, "No offering finishes within %s (--deadline %g would rank "
                 "none); a larger --max-gpus or another filter may.", fmt_days(f, sizeof f, hz_h), hz_h);
    wrapped(out, "", line);
}

static int plan_print_table(FILE *out, json_t *doc, const cf_plan_opts *opts, const cf_workload *w)
{
    json_t *ranked = json_object_get(doc, "ranked"), *unranked = json_object_get(doc, "unranked");
    const char *cur = json_string_value(json_object_get(doc, "currency"));
    size_t i, shown = json_array_size(ranked);
    json_t *r;
    char line[1024], a[64], c[64], d[64], f[64], wt[160];

    /* What the ranking is: workload, objective, constraint, currency, counts. */
    workload_text(wt, sizeof wt, w);
    snprintf(line, sizeof line, "Plan for %s: %s.", json_string_value(json_object_get(doc, "workload")), wt);
    wrapped(out, "", line);
    objective_line(out, opts, cur, doc);
    if (opts->top > 0 && (size_t)opts->top <= shown)
        snprintf(line, sizeof line, "Top %zu of %ld shown", shown, geti(doc, "ranked_total"));
    else
        snprintf(line, sizeof line, "%zu ranked", shown);
    if (json_array_size(unranked) > 0) {
        snprintf(line + strlen(line), sizeof line - strlen(line), ", ");
        unranked_summary(line, sizeof line, unranked);
        snprintf(line + strlen(line), sizeof line - strlen(line), ".");
    } else if (shown > 0) {
        snprintf(line + strlen(line), sizeof line - strlen(line), "; every offering could be ranked.");
    } else {
        filters_text(line, sizeof line, doc);
    }
    wrapped(out, "", line);
    horizon_note(out, doc, opts);
    legend(out, doc, opts);
    fputc('\n', out);
    snprintf(f, sizeof f, "cost %s", cur);
    fprintf(out, "%2s %-*s %5s %-19s %6s %4s %4s %11s\n", "#", ID_WIDTH, "offering", "nodes", "layout",
            "time", "E", "P", f);
    json_array_foreach(ranked, i, r) {
        const char *id = json_string_value(json_object_get(r, "offering_id"));
        const char *rc = json_string_value(json_object_get(r, "recompute"));
        size_t n;
        if (!id) id = "";
        layout_text(c, sizeof c, r);
        if (strlen(id) > ID_WIDTH) snprintf(a, sizeof a, "%.*s..", ID_WIDTH - 2, id);
        else snprintf(a, sizeof a, "%s", id);
        fprintf(out, "%2zu%c%-*s %5ld %-19s %6s %4.2f %4.2f %11s\n", i + 1,
                json_is_true(json_object_get(r, "rests_on_assumptions")) ? '*' : ' ', ID_WIDTH, a,
                geti(r, "nodes"), c,
                fmt_hours(d, sizeof d, getd(r, "time_to_train_h")), getd(r, "scaling_efficiency"),
                getd(r, "parallel_efficiency"), fmt_amount(f, sizeof f, getd(r, "cost")));
        /* The rest of the layout, then who (the full id when the column cut it). */
        n = (size_t)snprintf(line, sizeof line, "%s GPU%s",
                             geti(r, "gpus") < 1000 ? (snprintf(d, sizeof d, "%ld", geti(r, "gpus")), d)
                                                    : fmt_amount(d, sizeof d, (double)geti(r, "gpus")),
                             geti(r, "gpus") == 1 ? "" : "s");
        if (w->kind == CF_WL_LLM && n < sizeof line) {
            long z = geti(r, "zero");
            if (z > 0) n += (size_t)snprintf(line + n, sizeof line - n, ", ZeRO-%ld", z);
            if (n < sizeof line)
                n += (size_t)snprintf(line + n, sizeof line - n, ", %s recompute, micro-batch %ld",
                                      !rc ? "unknown" : strcmp(rc, "none") == 0 ? "no" : rc, geti(r, "micro_batch"));
            if (n < sizeof line && geti(r, "global_batch_seqs") != w->global_batch_seqs)
                n += (size_t)snprintf(line + n, sizeof line - n, ", global batch %ld",
                                      geti(r, "global_batch_seqs"));
        }
        if (n < sizeof line)
            n += (size_t)snprintf(line + n, sizeof line - n, "; %s %s",
                                  json_string_value(json_object_get(r, "provider")) ? json_string_value(json_object_get(r, "provider")) : "unknown provider",
                                  json_string_value(json_object_get(r, "offering")) ? json_string_value(json_object_get(r, "offering")) : "");
        if (strlen(id) > ID_WIDTH && n < sizeof line) snprintf(line + n, sizeof line - n, " (%s)", id);
        wrapped(out, "   ", line);
        band_text(line, sizeof line, r, cur);
        wrapped(out, "   p10-p90: ", line);
        wrapped(out, "   why: ", json_string_value(json_object_get(r, "why")));
        if (goodput_text(line, sizeof line, r)[0]) wrapped(out, "   goodput: ", line);
        if (provider_text(line, sizeof line, r)[0]) wrapped(out, "   provider: ", line);
        plan_flags_text(line, sizeof line, r, doc,
                   opts->max_gpus > 0 ? opts->max_gpus : CF_PLAN_DEFAULT_MAX_GPUS);
        if (line[0]) wrapped(out, "   assumes: ", line);
    }
    if (json_array_size(ranked) == 0) fputs("(no offering could be ranked)\n", out);
    if (json_array_size(ranked) == 0 && json_array_size(unranked) == 0)
        return ferror(out) ? EXIT_INTERNAL : EXIT_NONE;  /* no offering passes the filters */
    if (json_array_size(unranked) > UNRANKED_LISTED) {
        unranked_by_kind(out, unranked);
    } else if (json_array_size(unranked) > 0) {
        fprintf(out, "\nNot ranked (%zu):\n", json_array_size(unranked));
        json_array_foreach(unranked, i, r) {
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
    plan_args a;
    cf_workload w;
    cf_catalog *cat = NULL;
    cf_error err;
    json_t *doc = NULL;
    const char *workload;
    char today[16];
    int rc;
    cf_status st;

    memset(&a, 0, sizeof a);
    cf_filter_init(&a.filter);
    cf_plan_opts_init(&a.opts);
    a.fmt = FMT_TABLE;
    if (cli_opts_parse(&plan_cmd, argc, argv, &a, &rc) < 0) return rc;
    /* --currency selects the planning currency, it does not filter: offerings
     * priced in another one are unranked ("currency EUR"), not left out. */
    a.opts.currency = a.filter.currency;
    a.filter.currency = NULL;
    if (a.known_only && cf_plan_opts_set(&a.opts, "known_only", "true", &err) != CF_OK)
        return cli_param_error("plan", &err);
    if (a.no_failures && cf_plan_opts_set(&a.opts, "no_failures", "true", &err) != CF_OK)
        return cli_param_error("plan", &err);
    workload = a.workload;
    if (!workload) return cli_usage_error("plan", "--workload is required (presets: %s)", cf_workload_presets());
    cf_error_clear(&err);
    /* The library's default objective: --budget alone means "fastest within
     * the budget", --deadline "cheapest in time" (as for POST /api/plan). */
    if (cf_plan_opts_finish(&a.opts, &err) != CF_OK) {
        cli_respell(&err);
        return cli_param_error("plan", &err);
    }
    if ((st = cf_workload_load(workload, &w, &err)) != CF_OK) return cli_lib_error("plan", st, &err);
    if (w.kind == CF_WL_SERVE)
        return serve_cli_plan(ctx, &w, &a.filter, &a.opts, &a.serve, a.fmt);
    if (a.serve.tpot_ms || a.serve.ttft_s)
        return cli_usage_error("plan", "--tpot-ms and --ttft-s take a serve workload (kind serve); "
                               "%s is not one", w.name);
    if ((rc = cli_open_catalog(ctx, "plan", &cat)) != EXIT_OK) return rc;
    /* Today for the stale mark of prices, as `list --stale` reads it. */
    if (cli_today(ctx, today, sizeof today) != 0) {
        cf_catalog_close(cat);
        return cli_usage_error("plan", "CLUSTERFIT_NOW: expected a date YYYY-MM-DD, got \"%s\"",
                               ctx->now ? ctx->now : "");
    }
    a.opts.today = today;
    if (isatty(STDERR_FILENO)) a.opts.progress = progress;
    st = cf_plan(cat, &a.filter, &w, &a.opts, &doc, &err);
    if (st == CF_OK) cli_catalog_note("plan", cat);
    cf_catalog_close(cat);
    if (st != CF_OK) {
        cli_respell(&err);
        return cli_lib_error("plan", st, &err);
    }
    if (a.fmt == FMT_JSON) {
        int none = json_integer_value(json_object_get(doc, "matched")) == 0;
        rc = cli_print_json(doc);
        return rc == EXIT_OK && none ? EXIT_NONE : rc;
    }
    rc = plan_print_table(stdout, doc, &a.opts, &w);
    json_decref(doc);
    return rc;
}
