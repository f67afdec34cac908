/* serve_cli.h — the tool's serving front ends (issue 25): what `plan`,
 * `fit`, `scale` and `fabrics` do when their workload is a serve workload
 * (src/serve_cli.c, src/serve_text.c). Each returns the exit code. */
#ifndef CLUSTERFIT_SERVE_CLI_H
#define CLUSTERFIT_SERVE_CLI_H

#include "cli.h"

/* The serve options of `plan` as text (NULL = not given). */
typedef struct serve_cli_opts {
    const char *tpot_ms, *ttft_s;
} serve_cli_opts;

/* Sets so from the text options; a usage error (exit 2, returned) names
 * the flag; 0 on success. */
int serve_cli_targets(const char *cmd, const serve_cli_opts *t, cf_serve_opts *so);

/* `plan` for a serve workload: the library's cf_serve_plan, then JSON or
 * the table. */
int serve_cli_plan(const cli_ctx *ctx, const cf_workload *w, const cf_filter *filter,
                   const cf_plan_opts *po, const serve_cli_opts *t, cli_format fmt);

/* `fit` for a serve workload. */
int serve_cli_fit(const cf_workload *w, const char *gpu, int gpus_per_node, cli_format fmt);

/* Prints `scale` for a serve workload (the array of cf_serve_scale). */
int serve_cli_scale_table(FILE *out, json_t *arr, const cf_workload *w, const cf_offering *o);

/* Prints `fabrics` for a serve workload (the document of cf_serve_fabrics). */
int serve_cli_fabrics_text(FILE *out, json_t *doc);

/* Prints the median APE of a serving validation by source document and
 * out of sample by source (the same: nothing is fitted on serving rows). */
void serve_cli_by_source(FILE *out, const cf_validation *v);

/* Prints a serve plan's table (the document of cf_serve_plan). */
int serve_cli_plan_table(FILE *out, json_t *doc);

/* Tokens/s as plan prints them: "116k", "1.85k", "868", "1.2M" (buf, n). */
const char *serve_cli_kilo(char *buf, size_t n, double v);

/* A fabrics or scale row's pools with their instances and nodes, "decode
 * EP32 (DP attention) on 4 nodes x1, prefill EP16 (DP attention) on 2 nodes
 * x2 (4 + 4 = 8 nodes)", from the library's decode_/prefill_instances and
 * _nodes and copies (buf, n). */
const char *serve_cli_pools(char *buf, size_t n, json_t *row);

#endif
