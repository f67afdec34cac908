/* serve_cli.c — `plan` and `fit` for a serve workload (issue 25): thin
 * front ends over cf_serve_plan and cf_serve_fit (include/clusterfit/
 * serve.h), JSON as the library writes it or a table. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"
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
                   const char *currency, int top, const serve_cli_opts *t, cli_format fmt)
{
    cf_serve_opts so;
    cf_catalog *cat = NULL;
    cf_error err;
    json_t *doc = NULL;
    cf_status st;
    int rc;
    if ((rc = serve_cli_targets("plan", t, &so)) != 0) return rc;
    if ((rc = cli_open_catalog(ctx, "plan", &cat)) != EXIT_OK) return rc;
    cf_error_clear(&err);
    st = cf_serve_plan(cat, filter, w, &so, currency, top, &doc, &err);
    if (st == CF_OK) cli_catalog_note("plan", cat);
    cf_catalog_close(cat);
    if (st != CF_OK) {
        cli_respell(&err);
        return cli_lib_error("plan", st, &err);
    }
    if (fmt == FMT_JSON) return cli_print_json(doc);
    rc = serve_cli_plan_table(stdout, doc);
    json_decref(doc);
    return rc;
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

/* "12.3k" tokens/s. */
static const char *kilo(char *buf, size_t n, double v)
{
    if (v >= 1e6) snprintf(buf, n, "%.3gM", v / 1e6);
    else if (v >= 1e3) snprintf(buf, n, "%.3gk", v / 1e3);
    else snprintf(buf, n, "%.3g", v);
    return buf;
}

int serve_cli_plan_table(FILE *out, json_t *doc)
{
    json_t *ranked = json_object_get(doc, "ranked"), *unranked = json_object_get(doc, "unranked");
    json_t *tg = json_object_get(doc, "targets"), *rq = json_object_get(doc, "request"), *r;
    size_t i;
    char a[32], b[32], line[1024];
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
    fprintf(out, "%2s %-24s %5s %-14s %9s %9s %9s\n", "#", "offering", "nodes", "mode", "out tok/s",
            "$/M out", "$/M in");
    json_array_foreach(ranked, i, r) {
        json_t *pre = json_object_get(r, "prefill"), *dec = json_object_get(r, "decode");
        fprintf(out, "%2zu %-24.24s %5lld %-14s %9s %9.3f %9s\n", i + 1, str(r, "offering_id"),
                (long long)json_integer_value(json_object_get(r, "nodes")), str(r, "mode"),
                kilo(a, sizeof a, num(r, "output_tokens_per_s")), num(r, "cost_per_m_output"),
                isnan(num(r, "cost_per_m_input")) ? "-"
                                                  : (snprintf(b, sizeof b, "%.3f", num(r, "cost_per_m_input")), b));
        snprintf(line, sizeof line, "prefill %s x%lld, decode %s x%lld (TPOT %.3g ms, batch %.0f "
                 "per GPU); %s %s", str(pre, "layout"),
                 (long long)json_integer_value(json_object_get(pre, "instances")), str(dec, "layout"),
                 (long long)json_integer_value(json_object_get(dec, "instances")),
                 num(dec, "tpot_ms"), num(dec, "batch_per_gpu"), str(r, "provider"),
                 str(r, "offering"));
        tf_wrap(out, "   ", line, TF_WIDTH);
        tf_wrap(out, "   why: ", str(r, "why"), TF_WIDTH);
        if (provider_text(line, sizeof line, r)[0]) tf_wrap(out, "   provider: ", line, TF_WIDTH);
    }
    if (json_array_size(ranked) == 0) fputs("(no offering could be ranked)\n", out);
    if (json_array_size(unranked) > 0) fprintf(out, "\nNot ranked (%zu):\n", json_array_size(unranked));
    json_array_foreach(unranked, i, r) {
        snprintf(a, sizeof a, "  %.24s: ", str(r, "offering_id"));
        tf_wrap(out, a, json_string_value(json_array_get(json_object_get(r, "reasons"), 0)), TF_WIDTH);
    }
    fputc('\n', out);
    json_array_foreach(json_object_get(doc, "assumes"), i, r)
        tf_wrap(out, "assumes: ", json_string_value(r), TF_WIDTH);
    return ferror(out) ? EXIT_INTERNAL : EXIT_OK;
}
