/* cmd_validate.c — `clusterfit validate collectives|training FILE.csv`.
 *
 * Both kinds share option parsing and printing (run_validation): only the
 * library function differs. Exit 0 whenever the file was read (the tests
 * hold the accuracy targets), 3 on a malformed file (DESIGN §4.4). */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "opts.h"

typedef struct validate_args {
    cli_format fmt;
} validate_args;

static const cli_opt validate_opts[] = {
    {.name = "format", CLI_FORMAT_AT(validate_args, fmt), .metavar = "F",
     .formats = FMT_TABLE | FMT_JSON, .help = "table (default) or json"},
    {.name = "help", .short_name = 'h', .kind = CLI_HELP, .help = "this help"},
    {.kind = CLI_END},
};

#define VALIDATE_USAGE \
    "Usage: clusterfit validate collectives FILE.csv [--format table|json]\n" \
    "       clusterfit validate training FILE.csv [--format table|json]\n" \
    "Compare the model with published measurements (../shared/data/validation/):\n" \
    "per row id, metric, predicted, measured and APE %, then the median APE\n" \
    "(overall; for collectives also single-node and multi-node, by size class and\n" \
    "by network) and the skipped rows. A collectives row with a time_us column is\n" \
    "scored on time, else on busbw_GBps; each row names its metric.\n" \
    "Exit 0 when the file was read, 3 when it is malformed.\n" \
    "\n"

/* One table, one help, for both kinds (and `validate --help`). */
static const cli_cmd validate_cmds[] = {
    {.cmd = "validate collectives", .usage = VALIDATE_USAGE, .opts = validate_opts, .col = 15},
    {.cmd = "validate training", .usage = VALIDATE_USAGE, .opts = validate_opts, .col = 15},
};

static void print_median(const char *label, double m)
{
    if (isnan(m)) printf("%-30s unknown\n", label);
    else printf("%-30s %.1f %%\n", label, m);
}

/* Prints a validation result as the table of DESIGN §4.4 to stdout. */
static void print_validation_table(const cf_validation *v)
{
    printf("%-8s %-22s %12s %12s %8s  %s\n", "id", "metric", "predicted", "measured", "ape_pct",
           "note");
    for (size_t i = 0; i < v->n_rows; i++) {
        const cf_validation_row *r = &v->rows[i];
        printf("%-8s %-22s %12.4g %12.4g %8.1f  %s\n", r->id, r->metric, r->predicted, r->measured,
               r->ape_pct, r->note ? r->note : "");
    }
    printf("\n");
    print_median("median APE", v->median_ape_pct);
    if (v->by_node_count) {
        static const char *const sizes[CF_VSIZE__COUNT] = {"small (<= 64 KiB)", "mid (<= 64 MiB)",
                                                           "large"};
        char label[64];
        print_median("median APE single-node", v->median_ape_pct_single_node);
        print_median("median APE multi-node", v->median_ape_pct_multi_node);
        for (int i = 0; i < CF_VSIZE__COUNT; i++) {
            snprintf(label, sizeof label, "median APE %s", sizes[i]);
            print_median(label, v->median_ape_pct_by_size[i]);
        }
        for (int i = 0; i < CF_NET__COUNT; i++) {
            if (isnan(v->median_ape_pct_by_network[i])) continue;
            snprintf(label, sizeof label, "median APE network %s", cf_network_name((cf_network)i));
            print_median(label, v->median_ape_pct_by_network[i]);
        }
    }
    printf("rows predicted: %zu, skipped: %zu\n", v->n_rows, v->n_skipped);
    for (size_t i = 0; i < v->n_skipped; i++)
        printf("skipped %s: %s\n", v->skipped[i].id, v->skipped[i].reason);
}

/* Runs one kind of validation: `fn` is cf_validate_collectives or
 * cf_validate_training (same contract), and both share the option table and
 * the printing. Expects "FILE.csv [--format table|json]" (argv[0] = the
 * kind). */
static int run_validation(const cli_cmd *c, int argc, char **argv,
                          cf_status (*fn)(const char *, cf_validation *, cf_error *))
{
    const char *cmd = c->cmd, *file;
    validate_args a = {FMT_TABLE};
    cf_validation v;
    cf_error err;
    cf_status st;
    int rc, first;
    if ((first = cli_opts_parse(c, argc, argv, &a, &rc)) < 0) return rc;
    if (first != argc - 1) return cli_usage_error(cmd, "expected one FILE.csv");
    file = argv[first];
    memset(&v, 0, sizeof v);
    cf_error_clear(&err);
    st = fn(file, &v, &err);
    if (st != CF_OK) {
        /* A file that cannot be read is bad input too (exit 3). */
        rc = cli_lib_error(cmd, st, &err);
        return rc;
    }
    if (a.fmt == FMT_JSON) {
        rc = cli_print_json(cf_validation_to_json(&v));
    } else {
        print_validation_table(&v);
        rc = EXIT_OK;
    }
    cf_validation_clear(&v);
    return rc;
}

int cmd_validate(const cli_ctx *ctx, int argc, char **argv)
{
    if (argc < 2) return cli_usage_error("validate", "expected 'collectives' or 'training'");
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        cli_opts_help(&validate_cmds[0], stdout);
        return EXIT_OK;
    }
    (void)ctx;
    if (strcmp(argv[1], "collectives") == 0)
        return run_validation(&validate_cmds[0], argc - 1, argv + 1, cf_validate_collectives);
    if (strcmp(argv[1], "training") == 0)
        return run_validation(&validate_cmds[1], argc - 1, argv + 1, cf_validate_training);
    return cli_usage_error("validate", "unknown kind '%s' (accepted: collectives, training)", argv[1]);
}
