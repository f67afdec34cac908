/* serve_cli.c — `plan` and `fit` for a serve workload (issue 25): thin
 * front ends over cf_serve_plan and cf_serve_fit (include/clusterfit/
 * serve.h), JSON as the library writes it or a table. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "plan_flags_text.h"
#include "provider_text.h"
#include "serve_cli.h"
#include "textfmt.h"

int serve_cli_targets(const char *cmd, const serve_cli_opts *t, cf_serve_opts *so)
{
    cf_error err;
    cf_serve_opts_init(so);
    cf_error_clear(&err);
    if ((t->tpot_ms && cf_serve_opts_set(so, "tpot_ms", t->tpot_ms, &err) != CF_OK) ||
        (t->ttft_s && cf_serve_opts_set(so, "ttft_s", t->ttft_s, &err) != CF_OK))
        return cli_param_error(cmd, &err);
    return 0;
}

int serve_cli_plan(const cli_ctx *ctx, const cf_workload *w, const cf_filter *filter,
                   const cf_plan_opts *po, const serve_cli_opts *t, cli_format fmt)
{
    const char *currency = po->currency;
    int top = po->top;
    cf_serve_opts so;
    cf_catalog *cat = NULL;
    cf_error err;
    json_t *doc = NULL;
    cf_status st;
    int rc, none;
    if ((rc = serve_cli_targets("plan", t, &so)) != 0) return rc;
    cf_error_clear(&err);
    if (cf_serve_plan_check_opts(po, &err) != CF_OK) {
        cli_respell(&err);
        return cli_param_error("plan", &err);
    }
    if ((rc = cli_open_catalog(ctx, "plan", &cat)) != EXIT_OK) return rc;
    cf_error_clear(&err);
    st = cf_serve_plan(cat, filter, w, &so, currency, top, &doc, &err);
    if (st == CF_OK) cli_catalog_note("plan", cat);
    cf_catalog_close(cat);
    if (st != CF_OK) {
        cli_respell(&err);
        return cli_lib_error("plan", st, &err);
    }
    none = json_integer_value(json_object_get(doc, "matched")) == 0;
    if (fmt == FMT_JSON) rc = cli_print_json(doc);
    else {
        rc = serve_cli_plan_table(stdout, doc);
        json_decref(doc);
    }
    return rc == EXIT_OK && none ? EXIT_NONE : rc;   /* as the training plan's */
}

static double num(json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

static const char *str(json_t *o, const char *k)
{
    const char *s = json_string_value(json_object_get(o, k));
    return s ? s : "";
}

const char *serve_cli_kilo(char *buf, size_t n, double v)
{
    if (v >= 1e6) snprintf(buf, n, "%.3gM", v / 1e6);
    else if (v >= 1e3) snprintf(buf, n, "%.3gk", v / 1e3);
    else snprintf(buf, n, "%.3g", v);
    return buf;
}

/* The words of an unranked kind (lib/plan/serve_plan.c's keys). */
static const char *kind_words(const char *k)
{
    static const struct { const char *kind, *words; } t[] = {
        {"price_unknown", "no price"}, {"currency", "other currency"},
        {"gpu_unknown", "GPU not in the hardware table"},
        {"gpus_per_node_unknown", "no GPUs per node"}, {"fabric", "fabric facts missing"},
        {"precision", "no tensor cores for the precision"}, {"gpu_facts", "GPU facts missing"},
        {"cluster", "cluster under one node"}, {"weights", "weights do not fit"},
        {"kv_memory", "no KV room beside the weights"}, {"tpot", "TPOT below one decode step"},
        {"ttft", "TTFT below one prefill"}, {"targets", "targets not met together"},
        {"traffic", "traffic beyond the largest cluster"}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (strcmp(t[i].kind, k) == 0) return t[i].words;
    return k;
}

/* Kinds whose reason sentences carry the model's facts: the first is shown. */
static int kind_has_example(const char *k)
{
    return strcmp(k, "price_unknown") != 0 && strcmp(k, "currency") != 0 &&
           strcmp(k, "gpus_per_node_unknown") != 0;
}

enum { UNRANKED_LISTED = 12, UNRANKED_IDS = 3 };

/* The first reason of offering `id` in unranked ("" when none). */
static const char *reason_of(json_t *unranked, const char *id)
{
    json_t *u;
    size_t i;
    json_array_foreach(unranked, i, u)
        if (strcmp(str(u, "offering_id"), id) == 0)
            return json_string_value(json_array_get(json_object_get(u, "reasons"), 0));
    return "";
}

/* Few unranked: each with its reason; many: counts by kind, the first ids
 * and one reason of each kind that carries the model's facts. */
static void unranked_text(FILE *out, json_t *doc)
{
    json_t *unranked = json_object_get(doc, "unranked"), *r, *id;
    size_t i, j, n = json_array_size(unranked);
    char lead[128], line[1024];
    if (n == 0) return;
    if (n <= UNRANKED_LISTED) {
        fprintf(out, "\nNot ranked (%zu):\n", n);
        json_array_foreach(unranked, i, r) {
            snprintf(lead, sizeof lead, "  %s: ", str(r, "offering_id"));
            tf_wrap(out, lead, json_string_value(json_array_get(json_object_get(r, "reasons"), 0)),
                    TF_WIDTH);
        }
        return;
    }
    fprintf(out, "\nNot ranked (%zu), by reason (every one with its reason: --format json):\n", n);
    json_array_foreach(json_object_get(doc, "unranked_by_kind"), i, r) {
        json_t *ids = json_object_get(r, "offering_ids");
        size_t k = 0;
        snprintf(lead, sizeof lead, "  %s (%lld): ", kind_words(str(r, "kind")),
                 (long long)json_integer_value(json_object_get(r, "count")));
        line[0] = '\0';
        json_array_foreach(ids, j, id) {
            if (j == UNRANKED_IDS) break;
            k += (size_t)snprintf(line + k, k < sizeof line ? sizeof line - k : 0, "%s%s",
                                  j ? ", " : "", json_string_value(id));
        }
        if (json_array_size(ids) > UNRANKED_IDS && k < sizeof line)
            snprintf(line + k, sizeof line - k, " and %zu more", json_array_size(ids) - UNRANKED_IDS);
        tf_wrap(out, lead, line, TF_WIDTH);
        if (kind_has_example(str(r, "kind")))
            tf_wrap(out, "    e.g. ", reason_of(unranked, json_string_value(json_array_get(ids, 0))),
                    TF_WIDTH);
    }
}

/* The row's p10-p90 band (the library's *_p10 / *_p90 keys) in a few
 * words into buf: output tokens/s, cost per million output tokens, TPOT.
 * 0 when the row has none (a stated traffic: its figures are asked). */
static int band_text(char *buf, size_t n, json_t *r, json_t *dec)
{
    char a[32], b[32];
    if (isnan(num(r, "output_tokens_per_s_p10"))) return 0;
    snprintf(buf, n, "out tok/s %s-%s, per M out %.3f-%.3f, TPOT %.3g-%.3g ms",
             serve_cli_kilo(a, sizeof a, num(r, "output_tokens_per_s_p10")),
             serve_cli_kilo(b, sizeof b, num(r, "output_tokens_per_s_p90")), num(r, "cost_per_m_output_p10"),
             num(r, "cost_per_m_output_p90"), num(dec, "tpot_ms_p10"), num(dec, "tpot_ms_p90"));
    return 1;
}

/* One ranked row: the id in full (an id longer than its column gets a line
 * of its own, the figures under it), then the pools and the why. */
static void ranked_row(FILE *out, json_t *doc, size_t i, json_t *r)
{
    json_t *pre = json_object_get(r, "prefill"), *dec = json_object_get(r, "decode");
    const char *id = str(r, "offering_id");
    char a[32], rank[32], in[32], line[1024];
    int own_line = strlen(id) > 24;
    char mark = json_is_true(json_object_get(r, "rests_on_assumptions")) ? '*' : ' ';
    snprintf(rank, sizeof rank, "%zu", i + 1);
    if (isnan(num(r, "cost_per_m_input"))) snprintf(in, sizeof in, "-");
    else snprintf(in, sizeof in, "%.3f", num(r, "cost_per_m_input"));
    if (own_line) fprintf(out, "%2s%c%s\n", rank, mark, id);
    fprintf(out, "%2s%c%-24s %5lld %-14s %9s %9.3f %9s\n", own_line ? "" : rank,
            own_line ? ' ' : mark, own_line ? "" : id,
            (long long)json_integer_value(json_object_get(r, "nodes")), str(r, "mode"),
            serve_cli_kilo(a, sizeof a, num(r, "output_tokens_per_s")), num(r, "cost_per_m_output"), in);
    snprintf(line, sizeof line, "prefill %s x%lld, decode %s x%lld (TPOT %.3g ms, batch %.0f "
             "per GPU); %s %s", str(pre, "layout"),
             (long long)json_integer_value(json_object_get(pre, "instances")), str(dec, "layout"),
             (long long)json_integer_value(json_object_get(dec, "instances")), num(dec, "tpot_ms"),
             num(dec, "batch_per_gpu"), str(r, "provider"), str(r, "offering"));
    tf_wrap(out, "   ", line, TF_WIDTH);
    if (band_text(line, sizeof line, r, dec)) tf_wrap(out, "   p10-p90: ", line, TF_WIDTH);
    if (!isnan(num(r, "cost_per_m_output_decode"))) {   /* the decode pool's share of $/M out */
        snprintf(line, sizeof line, "decode pool alone %.3f of %.3f, the rest is the prefill "
                 "pool", num(r, "cost_per_m_output_decode"), num(r, "cost_per_m_output"));
        tf_wrap(out, "   $/M out: ", line, TF_WIDTH);
    }
    tf_wrap(out, "   why: ", str(r, "why"), TF_WIDTH);
    if (provider_text(line, sizeof line, r)[0]) tf_wrap(out, "   provider: ", line, TF_WIDTH);
    plan_flags_text(line, sizeof line, r, doc, CF_PLAN_DEFAULT_MAX_GPUS);  /* as a training row */
    if (line[0]) tf_wrap(out, "   assumes: ", line, TF_WIDTH);
}

/* Nothing ranked: the filters that removed every offering (the library's
 * `filters`, each alone against the catalog), or that those passing could
 * not serve it (their reasons follow). */
static void empty_text(FILE *out, json_t *doc)
{
    json_t *fs = json_object_get(doc, "filters"), *f;
    size_t i, k = 0;
    char line[1024];
    if (json_integer_value(json_object_get(doc, "matched")) > 0) {
        snprintf(line, sizeof line, "0 ranked: the %lld offerings that pass the filters cannot serve "
                 "it (the reasons follow)", (long long)json_integer_value(json_object_get(doc, "matched")));
        tf_wrap(out, "", line, TF_WIDTH);
        return;
    }
    k = (size_t)snprintf(line, sizeof line, "0 ranked: no offering passes the filters;");
    json_array_foreach(fs, i, f)
        if (k < sizeof line)
            k += (size_t)snprintf(line + k, sizeof line - k, "%s --%s %s keeps %lld of the "
                                  "catalog's %lld", i ? "," : "", str(f, "filter"), str(f, "value"),
                                  (long long)json_integer_value(json_object_get(f, "matches")),
                                  (long long)json_integer_value(json_object_get(doc, "catalog_offerings")));
    if (k < sizeof line) snprintf(line + k, sizeof line - k, ".");
    tf_wrap(out, "", line, TF_WIDTH);
}

/* What each cost column charges (the prefill pool is in both: never add
 * them), under the table. */
static void cost_legend(FILE *out, json_t *ranked)
{
    fputs("\n$/M out: the whole cluster (prefill and decode pools) per million output\n"
          "   tokens, the ranking; its \"$/M out:\" line splits it by pool.\n"
          "$/M in: the prefill pool alone per million input tokens, already inside\n"
          "   $/M out: adding the two counts the prefill nodes twice.\n", out);
    plan_assumed_legend(out, ranked, 0);
}

int serve_cli_plan_table(FILE *out, json_t *doc)
{
    json_t *ranked = json_object_get(doc, "ranked");
    json_t *tg = json_object_get(doc, "targets"), *rq = json_object_get(doc, "request"), *r;
    size_t i;
    {
        char head[512], tpot[48], ttft[48];
        if (isnan(num(tg, "tpot_ms"))) snprintf(tpot, sizeof tpot, "no target");
        else snprintf(tpot, sizeof tpot, "<= %g ms", num(tg, "tpot_ms"));
        if (isnan(num(tg, "ttft_s"))) snprintf(ttft, sizeof ttft, "no target");
        else snprintf(ttft, sizeof ttft, "<= %g s", num(tg, "ttft_s"));
        snprintf(head, sizeof head, "Serving %s: %lld-token prompts, %lld-token answers; TPOT %s, "
                 "TTFT %s. Ranked by the cluster's cost per million output tokens (%s).",
                 str(doc, "workload"),
                 (long long)json_integer_value(json_object_get(rq, "input_tokens")),
                 (long long)json_integer_value(json_object_get(rq, "output_tokens")), tpot, ttft,
                 str(doc, "currency"));
        tf_wrap(out, "", head, TF_WIDTH);
        fputc('\n', out);
    }
    if (json_array_size(ranked) > 0)
        fprintf(out, "%2s %-24s %5s %-14s %9s %9s %9s\n", "#", "offering", "nodes", "mode",
                "out tok/s", "$/M out", "$/M in");
    json_array_foreach(ranked, i, r) ranked_row(out, doc, i, r);
    if (json_array_size(ranked) > 0) cost_legend(out, ranked);
    if (json_array_size(ranked) == 0) empty_text(out, doc);
    unranked_text(out, doc);
    fputc('\n', out);
    json_array_foreach(json_object_get(doc, "assumes"), i, r)
        tf_wrap(out, "assumes: ", json_string_value(r), TF_WIDTH);
    return ferror(out) ? EXIT_INTERNAL : EXIT_OK;
}
