/* serve_text.c — the text of `fabrics` and `fit` for a serve workload
 * (issue 25): the library's documents (cf_serve_fabrics, cf_serve_fit) as
 * a table and sentences. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "serve_cli.h"
#include "textfmt.h"

static double num(json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

static const char *str(json_t *o, const char *k)
{
    const char *s = json_string_value(json_object_get(o, k));
    return s ? s : "-";
}

const char *serve_cli_pools(char *buf, size_t n, json_t *r)
{
    long long di = (long long)json_integer_value(json_object_get(r, "decode_instances"));
    long long dn = (long long)json_integer_value(json_object_get(r, "decode_nodes"));
    long long pi = (long long)json_integer_value(json_object_get(r, "prefill_instances"));
    long long pn = (long long)json_integer_value(json_object_get(r, "prefill_nodes"));
    long long c = (long long)json_integer_value(json_object_get(r, "copies"));
    char cp[48] = "";
    if (c > 1) snprintf(cp, sizeof cp, ", %lld copies", c);
    if (strcmp(str(r, "mode"), "colocated") == 0)
        snprintf(buf, n, "one pool %s x%lld (%lld node%s%s)", str(r, "decode_layout"), di, dn,
                 dn == 1 ? "" : "s", cp);
    else
        snprintf(buf, n, "decode %s x%lld, prefill %s x%lld (%lld + %lld = %lld nodes%s)",
                 str(r, "decode_layout"), di, str(r, "prefill_layout"), pi, dn, pn, dn + pn, cp);
    return buf;
}

/* A row's pools in full (serve_cli_pools), then its p10-p90 band (the
 * library's *_p10 / *_p90 keys: output tokens/s and the TPOT key `tpot`). */
static const char *layout_band(char *buf, size_t n, json_t *r, const char *tpot)
{
    char lo[64], hi[64], a[32], b[32];
    size_t k = strlen(serve_cli_pools(buf, n, r));
    snprintf(lo, sizeof lo, "%s_p10", tpot);
    snprintf(hi, sizeof hi, "%s_p90", tpot);
    if (k < n && !isnan(num(r, "output_tokens_per_s_p10")))
        snprintf(buf + k, n - k, "; p10-p90 out tok/s %s-%s, TPOT %.3g-%.3g ms",
                 serve_cli_kilo(a, sizeof a, num(r, "output_tokens_per_s_p10")),
                 serve_cli_kilo(b, sizeof b, num(r, "output_tokens_per_s_p90")), num(r, lo),
                 num(r, hi));
    return buf;
}

int serve_cli_fabrics_text(FILE *out, json_t *doc)
{
    json_t *r;
    size_t i;
    char line[512];
    r = json_array_get(json_object_get(doc, "fabrics"), 0);
    snprintf(line, sizeof line, "Serving %s on up to %lld nodes of %lld x %s, every fabric at %.0f "
             "x %g Gbit/s per node: what each is worth (premium: how much more per GPU-hour than "
             "%s for the same cost per token)",
             str(doc, "workload"), (long long)json_integer_value(json_object_get(doc, "nodes")),
             (long long)json_integer_value(json_object_get(doc, "gpus_per_node")), str(doc, "gpu"),
             num(r, "nics"), num(r, "nic_gbps"), str(doc, "baseline"));
    tf_wrap(out, "", line, TF_WIDTH);
    fputc('\n', out);
    fprintf(out, "%-7s %5s %-13s %8s %10s %8s %-12s %8s\n", "fabric", "nodes", "mode", "req/s",
            "out tok/s", "TPOT ms", "decode binds", "premium");
    json_array_foreach(json_object_get(doc, "fabrics"), i, r) {
        double p = num(r, "worth_premium_pct");
        char prem[16], tok[32];
        if (isnan(p)) snprintf(prem, sizeof prem, "-");
        else snprintf(prem, sizeof prem, "%+.0f %%", tf_nonneg_zero(p, 0));
        if (isnan(num(r, "nodes"))) {
            fprintf(out, "%-7s %5s -\n", str(r, "network"), "-");
            tf_wrap(out, "        nothing serves: ", str(r, "why"), TF_WIDTH);
            continue;
        }
        fprintf(out, "%-7s %5.0f %-13s %8.3g %10s %8.3g %-12s %8s\n", str(r, "network"),
                num(r, "nodes"), str(r, "mode"), num(r, "requests_per_s"),
                serve_cli_kilo(tok, sizeof tok, num(r, "output_tokens_per_s")), num(r, "decode_tpot_ms"),
                strcmp(str(r, "decode_binds"), "the all-to-all") == 0 ? "all-to-all"
                                                                     : str(r, "decode_binds"),
                prem);
        /* the pools in full on a line of their own (never cut), the band */
        tf_wrap(out, "        ", layout_band(line, sizeof line, r, "decode_tpot_ms"), TF_WIDTH);
    }
    fputc('\n', out);
    json_array_foreach(json_object_get(doc, "assumes"), i, r) {
        snprintf(line, sizeof line, "%s", json_string_value(r));
        tf_wrap(out, "assumes: ", line, TF_WIDTH);
    }
    tf_wrap(out, "assumes: ", "EP all-to-all by DeepEP on ib and roce with GPUDirect RDMA, by "
            "NCCL elsewhere; two-batch overlap on EP layouts (docs/model-serve.md)", TF_WIDTH);
    return ferror(out) ? EXIT_INTERNAL : EXIT_OK;
}

int serve_cli_scale_table(FILE *out, json_t *arr, const cf_workload *w, const cf_offering *o)
{
    json_t *r;
    size_t i;
    {
        char line[512];
        snprintf(line, sizeof line, "Serving %s on %s: output tokens/s against nodes (the cheapest "
                 "deployment on up to that many nodes, in as many copies as they hold, at the "
                 "workload's targets)", w->name, o->id ? o->id : "");
        tf_wrap(out, "", line, TF_WIDTH);
        fputc('\n', out);
    }
    fprintf(out, "%5s %4s %-13s %9s %8s %7s %s\n", "nodes", "used", "mode", "out tok/s",
            "per node", "TPOT ms", "decode binds");
    json_array_foreach(arr, i, r) {
        if (json_is_null(json_object_get(r, "mode"))) {
            fprintf(out, "%5.0f %4s -\n", num(r, "nodes"), "-");
            tf_wrap(out, "      nothing serves: ", str(r, "why"), TF_WIDTH);
            continue;
        }
        char tok[32], node[32];
        fprintf(out, "%5.0f %4.0f %-13s %9s %8s %7.3g %s\n", num(r, "nodes"),
                num(r, "nodes_used"), str(r, "mode"),
                serve_cli_kilo(tok, sizeof tok, num(r, "output_tokens_per_s")),
                serve_cli_kilo(node, sizeof node, num(r, "output_tokens_per_s_node")), num(r, "tpot_ms"),
                strcmp(str(r, "decode_binds"), "the all-to-all") == 0 ? "all-to-all"
                                                                     : str(r, "decode_binds"));
        {   /* the pools in full (never cut), the band */
            char line[384];
            tf_wrap(out, "      ", layout_band(line, sizeof line, r, "tpot_ms"), TF_WIDTH);
        }
    }
    return ferror(out) ? EXIT_INTERNAL : EXIT_OK;
}

int serve_cli_fit(const cf_workload *w, const char *gpu, int gpn, cli_format fmt)
{
    cf_error err;
    json_t *doc = NULL;
    cf_status st;
    cf_error_clear(&err);
    if ((st = cf_serve_fit(w, gpu, gpn, NULL, &doc, &err)) != CF_OK) return cli_lib_error("fit", st, &err);
    if (fmt == FMT_JSON) return cli_print_json(doc);
    {
        char line[512];
        if (json_is_true(json_object_get(doc, "fits_one_node")))
            snprintf(line, sizeof line, "%s fits one node of %d x %s with a useful batch: %s",
                     w->name, gpn, gpu, str(doc, "layout"));
        else if (json_is_integer(json_object_get(doc, "min_nodes")))
            snprintf(line, sizeof line, "%s needs %lld nodes of %d x %s for a useful batch: %s",
                     w->name, (long long)json_integer_value(json_object_get(doc, "min_nodes")), gpn,
                     gpu, str(doc, "min_nodes_layout"));
        else
            snprintf(line, sizeof line, "%s holds no useful batch on up to %d nodes of %d x %s",
                     w->name, CF_SERVE_MAX_INSTANCE_NODES, gpn, gpu);
        tf_wrap(stdout, "", line, TF_WIDTH);
    }
    tf_wrap(stdout, "why: ", str(doc, "why"), TF_WIDTH);
    if (!isnan(num(doc, "decode_tokens_per_s_gpu"))) {
        char line[256];
        snprintf(line, sizeof line, "%.4g output tokens/s per GPU at the TPOT target on that node "
                 "(p10-p90 out of sample %.4g-%.4g)", num(doc, "decode_tokens_per_s_gpu"),
                 num(doc, "decode_tokens_per_s_gpu_p10"), num(doc, "decode_tokens_per_s_gpu_p90"));
        tf_wrap(stdout, "decode: ", line, TF_WIDTH);
    }
    json_decref(doc);
    return ferror(stdout) ? EXIT_INTERNAL : EXIT_OK;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median_of(double *v, size_t n)
{
    if (n == 0) return NAN;
    qsort(v, n, sizeof *v, cmp_d);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

void serve_cli_by_source(FILE *out, const cf_validation *v)
{
    double *a = v->n_rows ? malloc(v->n_rows * sizeof *a) : NULL;
    if (v->n_rows && !a) return;
    fputs("\nby source, in sample (the serving efficiencies are fitted on these rows;\n"
          "validate serving --cv source gives each source out of sample)\n", out);
    for (size_t i = 0; i < v->n_rows; i++) {
        size_t n = 0, k;
        for (k = 0; k < i; k++)
            if (strcmp(v->rows[k].source, v->rows[i].source) == 0) break;
        if (k < i) continue;        /* this source was printed */
        for (k = i; k < v->n_rows; k++)
            if (strcmp(v->rows[k].source, v->rows[i].source) == 0) a[n++] = v->rows[k].ape_pct;
        fprintf(out, "  %5.1f %%  %zu row%s  %s\n", median_of(a, n), n, n == 1 ? " " : "s",
                v->rows[i].source);
    }
    free(a);
}
