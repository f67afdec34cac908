/* cmd_validate.c — `clusterfit validate collectives|training FILE.csv...`
 * and `clusterfit validate refit FILE.csv...`.
 *
 * Both kinds share option parsing and printing (run_validation): only the
 * library function differs. One file is read alone; several (or --cv
 * source) are one validation set (cf_validation_set). `refit` prints what
 * the fit of the fitted constants gives (`make fit`) and with --check fails
 * when constants.def differs. Exit 0 whenever the files were read (the
 * tests hold the accuracy targets), 3 on a malformed file (DESIGN §4.4), 1
 * when refit --check finds constants.def out of date. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "serve_cli.h"
#include "opts.h"

typedef struct validate_args {
    cli_format fmt;
    const char *cv;     /* --cv: "source" */
    int check;          /* refit --check */
    int intervals;      /* refit --intervals */
} validate_args;

static const cli_opt validate_opts[] = {
    {.name = "format", CLI_FORMAT_AT(validate_args, fmt), .metavar = "F",
     .formats = FMT_TABLE | FMT_JSON, .help = "text (default) or json"},
    {.name = "cv", CLI_STR_AT(validate_args, cv), .metavar = "source",
     .help = "leave-one-source-out: refit without each source document,\n"
             "predict its rows; in-sample beside out-of-sample error by\n"
             "class"},
    {.name = "help", .short_name = 'h', .kind = CLI_HELP, .help = "this help"},
    {.kind = CLI_END},
};

#define VALIDATE_USAGE \
    "Usage: clusterfit validate collectives FILE.csv... [--cv source]\n" \
    "           [--format text|json]\n" \
    "       clusterfit validate training FILE.csv... [--cv source]\n" \
    "           [--format text|json]\n" \
    "       clusterfit validate serving FILE.csv... [--cv source]\n" \
    "           [--format text|json]\n" \
    "       clusterfit validate refit FILE.csv... (validate refit --help)\n" \
    "Compare the model with published measurements (tests/data/validation/ and\n" \
    "tests/data/shared/data/validation/):\n" \
    "per row id, metric, predicted, measured and APE %, then the median APE\n" \
    "(overall; for collectives also single-node and multi-node, by size class and\n" \
    "by network) and the skipped rows. A collectives row with a time_us column is\n" \
    "scored on time, else on busbw_GBps; each row names its metric.\n" \
    "With --cv source the files are one set: each source document is left out in\n" \
    "turn, the fitted constants refit without it (validate refit), and its rows\n" \
    "predicted; the table gives in-sample and out-of-sample error by class.\n" \
    "Exit 0 when the file was read, 3 when it is malformed.\n" \
    "\n"

static const cli_opt refit_opts[] = {
    {.name = "format", CLI_FORMAT_AT(validate_args, fmt), .metavar = "F",
     .formats = FMT_TABLE | FMT_JSON, .help = "text (default) or json"},
    {.name = "check", CLI_FLAG_AT(validate_args, check),
     .help = "exit 1 when constants.def differs from the fit"},
    {.name = "intervals", CLI_FLAG_AT(validate_args, intervals),
     .help = "also the interval constants (ERR_*) from a\n"
             "leave-one-source-out run over the files (about a minute)"},
    {.name = "help", .short_name = 'h', .kind = CLI_HELP, .help = "this help"},
    {.kind = CLI_END},
};

#define REFIT_USAGE \
    "Usage: clusterfit validate refit FILE.csv... [--check] [--intervals]\n" \
    "           [--format text|json]\n" \
    "Fit the constants lib/model/fitspec.def names on the rows of the files\n" \
    "(collectives and training files; `make fit` gives the repository's): each\n" \
    "constant, from its literature start, takes the grid value that minimises the\n" \
    "median |ln(measured/predicted time)| of its rows. Prints each constant's\n" \
    "start, fitted and shipped (constants.def) value, its rows and their median\n" \
    "APE, then every row's residual. --intervals adds the p10/p90 constants every\n" \
    "prediction's interval comes from (leave-one-source-out, as --cv source).\n" \
    "--check: exit 1 when constants.def differs.\n" \
    "\n"

/* One table, one help, for both kinds (and `validate --help`). */
static const cli_cmd validate_cmds[] = {
    {.cmd = "validate collectives", .usage = VALIDATE_USAGE, .opts = validate_opts, .col = 15},
    {.cmd = "validate training", .usage = VALIDATE_USAGE, .opts = validate_opts, .col = 15},
    {.cmd = "validate refit", .usage = REFIT_USAGE, .opts = refit_opts, .col = 15},
    {.cmd = "validate serving", .usage = VALIDATE_USAGE, .opts = validate_opts, .col = 15},
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

/* "12.3%" (digits after the point: d), or "-" when x is not a number. */
static const char *pct_cell(char *buf, size_t n, double x, int d)
{
    if (isnan(x)) snprintf(buf, n, "-");
    else snprintf(buf, n, "%.*f%%", d, x);
    return buf;
}

/* The in-sample and out-of-sample error of one kind by class (--cv
 * source): one line a class. */
static void print_cv_table(const cf_vclass *in, size_t nin, const cf_vclass *oos, size_t noos,
                           const char *kind)
{
    printf("%-11s %-9s %5s %7s %10s %10s %6s %6s %8s\n", "by", "class", "rows", "sources",
           "in-sample", "out-of-s.", "p10", "p90", "p10-p90");
    printf("%-11s %-9s %5s %7s %10s %10s %6s %6s %8s\n", "", "", "", "", "median APE", "median APE",
           "ratio", "ratio", "coverage");
    for (size_t i = 0; i < noos; i++) {
        const cf_vclass *o = &oos[i], *m = NULL;
        if (strcmp(o->kind, kind) != 0) continue;
        for (size_t k = 0; k < nin; k++)
            if (strcmp(in[k].kind, o->kind) == 0 && strcmp(in[k].by, o->by) == 0 &&
                strcmp(in[k].name, o->name) == 0)
                m = &in[k];
        char a[16], b[16], c[16];
        printf("%-11s %-9s %5zu %7zu %10s %10s %6.2f %6.2f %8s\n", o->by, o->name, o->n_rows,
               o->n_sources, pct_cell(a, sizeof a, m ? m->median_ape_pct : NAN, 1),
               pct_cell(b, sizeof b, o->median_ape_pct, 1), o->ratio_p10, o->ratio_p90,
               pct_cell(c, sizeof c, o->coverage * 100, 0));
    }
    printf("\nratio = measured time / predicted time of a row, out of sample (> 1: the model\n"
           "was too fast); every prediction's p10-p90 interval is its class's ratios\n"
           "(constants.def ERR_*). coverage: the share of the rows inside the p10-p90 of\n"
           "the class's rows from the other sources (the band out of sample too).\n");
}

static void cv_progress(size_t done, size_t total, void *arg)
{
    (void)arg;
    if (!isatty(STDERR_FILENO)) return;
    fprintf(stderr, "\rvalidate: source %zu of %zu", done, total);
    if (done == total) fputc('\n', stderr);
}

/* The median APE of the rows of v from source `src`; *n how many. `buf`
 * has room for every row. */
static double source_median(const cf_validation *v, const char *src, double *buf, size_t *n)
{
    *n = 0;
    for (size_t k = 0; k < v->n_rows; k++)
        if (strcmp(v->rows[k].source, src) == 0) buf[(*n)++] = v->rows[k].ape_pct;
    return cf_quantile(buf, *n, 0.5);
}

/* Per source: its rows' median APE in sample beside out of sample (the
 * fit without the source). */
static void print_by_source(const cf_validation *in, const cf_validation *oos)
{
    double *buf = malloc((in->n_rows + oos->n_rows + 1) * sizeof *buf);
    if (!buf) return;
    printf("\nby source   in-sample  out-of-sample  rows\n");
    for (size_t i = 0; i < oos->n_rows; i++) {
        size_t n = 0, m = 0, seen = 0;
        const char *src = oos->rows[i].source;
        double a, b;
        for (size_t k = 0; k < i && !seen; k++) seen = strcmp(oos->rows[k].source, src) == 0;
        if (seen) continue;
        a = source_median(in, src, buf, &m);
        b = source_median(oos, src, buf, &n);
        printf("  %7.1f %%      %7.1f %%  %4zu  %s\n", a, b, n, src);
    }
    free(buf);
}

/* --cv source over the set of files. */
static int run_cv(const char *cmd, const char *kind, const cf_validation_set *set,
                  const validate_args *a)
{
    cf_validation in, oos;
    cf_vclass *cin = NULL, *coos = NULL;
    size_t nin = 0, noos = 0;
    cf_error err;
    cf_status st;
    int rc = EXIT_OK;
    cf_error_clear(&err);
    st = cf_validate_cv(set, kind, &in, &oos, cv_progress, NULL, &err);
    if (st != CF_OK) return cli_lib_error(cmd, st, &err);
    st = cf_validation_by_class(&in, &cin, &nin);
    if (st == CF_OK) st = cf_validation_by_class(&oos, &coos, &noos);
    if (st != CF_OK) rc = cli_lib_error(cmd, st, &err);
    else if (a->fmt == FMT_JSON) rc = cli_print_json(cf_cv_to_json(kind, cin, nin, coos, noos, &oos));
    else {
        print_cv_table(cin, nin, coos, noos, kind);
        if (strcmp(kind, "serving") == 0) print_by_source(&in, &oos);
    }
    cf_vclasses_free(cin);
    cf_vclasses_free(coos);
    cf_validation_clear(&in);
    cf_validation_clear(&oos);
    return rc;
}

/* Runs one kind of validation: `fn` is cf_validate_collectives or
 * cf_validate_training (same contract), and both share the option table and
 * the printing. Expects "FILE.csv... [--cv source] [--format text|json]"
 * (argv[0] = the kind). */
static int run_validation(const cli_cmd *c, int argc, char **argv,
                          cf_status (*fn)(const char *, cf_validation *, cf_error *))
{
    const char *cmd = c->cmd;
    validate_args a = {FMT_TABLE, NULL, 0, 0};
    cf_validation v;
    cf_validation_set *set = NULL;
    cf_error err;
    cf_status st;
    int rc, first;
    if ((first = cli_opts_parse(c, argc, argv, &a, &rc)) < 0) return rc;
    if (a.cv && strcmp(a.cv, "source") != 0)
        return cli_usage_error(cmd, "--cv: expected 'source', got '%s'", a.cv);
    if (first >= argc) return cli_usage_error(cmd, "expected FILE.csv");
    memset(&v, 0, sizeof v);
    cf_error_clear(&err);
    if (!a.cv && first == argc - 1) {
        st = fn(argv[first], &v, &err);
    } else {
        st = cf_validation_set_load((const char *const *)(argv + first), (size_t)(argc - first),
                                    &set, &err);
        if (st == CF_OK && a.cv) {
            rc = run_cv(cmd, fn == cf_validate_training ? "training" : "collectives", set, &a);
            cf_validation_set_free(set);
            return rc;
        }
        if (st == CF_OK) st = cf_validation_set_run(set, &v, &err);
    }
    if (st != CF_OK) {
        /* A file that cannot be read is bad input too (exit 3); err names
         * a file of the set, so the set is freed after. */
        rc = cli_lib_error(cmd, st, &err);
        cf_validation_set_free(set);
        return rc;
    }
    cf_validation_set_free(set);
    if (a.fmt == FMT_JSON) {
        rc = cli_print_json(cf_validation_to_json(&v));
    } else {
        print_validation_table(&v);
        rc = EXIT_OK;
    }
    cf_validation_clear(&v);
    return rc;
}

/* `validate serving FILE.csv`: the table, then the median APE by source.
 * With --cv source (FILE.csv...: the serving file, and the files of the
 * other fits if wanted): each source left out of the serving fit in turn
 * (lib/model/fitspec.def), the error by class and by source in sample
 * beside out of sample. */
static int serve_cli_validate(const cli_cmd *c, int argc, char **argv)
{
    validate_args a = {FMT_TABLE, NULL, 0, 0};
    cf_validation v;
    cf_error err;
    cf_status st;
    int rc, first;
    if ((first = cli_opts_parse(c, argc, argv, &a, &rc)) < 0) return rc;
    if (a.cv && strcmp(a.cv, "source") != 0)
        return cli_usage_error(c->cmd, "--cv: expected 'source', got '%s'", a.cv);
    if (a.cv) {
        cf_validation_set *set = NULL;
        if (first >= argc) return cli_usage_error(c->cmd, "expected FILE.csv");
        cf_error_clear(&err);
        st = cf_validation_set_load((const char *const *)(argv + first), (size_t)(argc - first),
                                    &set, &err);
        rc = st == CF_OK ? run_cv(c->cmd, "serving", set, &a) : cli_lib_error(c->cmd, st, &err);
        cf_validation_set_free(set);
        return rc;
    }
    if (first != argc - 1) return cli_usage_error(c->cmd, "expected one FILE.csv");
    cf_error_clear(&err);
    if ((st = cf_validate_serving(argv[first], &v, &err)) != CF_OK) return cli_lib_error(c->cmd, st, &err);
    if (a.fmt == FMT_JSON) {
        rc = cli_print_json(cf_validation_to_json(&v));
    } else {
        print_validation_table(&v);
        serve_cli_by_source(stdout, &v);
        rc = EXIT_OK;
    }
    cf_validation_clear(&v);
    return rc;
}

/* The fit's table: one line a constant, then the residuals. */
static void print_refit(const cf_refit_result *r, const cf_validation *v)
{
    printf("%-24s %10s %10s %10s %5s %8s  %s\n", "constant", "start", "fitted", "shipped", "rows",
           "APE", "rows fitted on");
    for (size_t i = 0; i < r->n; i++) {
        const cf_refit_constant *c = &r->c[i];
        char a[16];
        printf("%-24s %10.4g %10.4g %10.4g %5zu %8s  %s%s\n", c->name,
               isnan(c->start) ? c->shipped : c->start, c->value,
               c->shipped, c->n_rows, pct_cell(a, sizeof a, c->median_ape_pct, 1), c->rows,
               fabs(c->value - c->shipped) > c->step / 2 ? "  (differs)" : "");
    }
    printf("passes: %d\n\n", r->passes);
    print_validation_table(v);
}

/* `validate refit FILE...`: fit, print, and with --check compare. */
static int run_refit(const cli_cmd *c, int argc, char **argv)
{
    validate_args a = {FMT_TABLE, NULL, 0, 0};
    cf_validation_set *set = NULL;
    cf_refit_result r;
    cf_validation v;
    cf_error err;
    cf_status st;
    int rc, first, differ = 0;
    if ((first = cli_opts_parse(c, argc, argv, &a, &rc)) < 0) return rc;
    if (first >= argc) return cli_usage_error(c->cmd, "expected FILE.csv...");
    cf_error_clear(&err);
    memset(&v, 0, sizeof v);
    memset(&r, 0, sizeof r);
    st = cf_validation_set_load((const char *const *)(argv + first), (size_t)(argc - first), &set,
                                &err);
    if (st == CF_OK) st = cf_refit(set, NULL, &r, &err);
    if (st == CF_OK) st = cf_validation_set_run(set, &v, &err);
    if (st == CF_OK && a.intervals) {
        cf_validation in, oos;
        st = cf_validate_cv(set, NULL, &in, &oos, cv_progress, NULL, &err);
        if (st == CF_OK) st = cf_refit_intervals(&oos, &r);
        cf_validation_clear(&in);
        cf_validation_clear(&oos);
    }
    if (st != CF_OK) {
        cf_refit_clear(&r);
        rc = cli_lib_error(c->cmd, st, &err);   /* err names a file of the set */
        cf_validation_set_free(set);
        return rc;
    }
    cf_validation_set_free(set);
    if (a.fmt == FMT_JSON) rc = cli_print_json(cf_refit_to_json(&r, &v));
    else {
        print_refit(&r, &v);
        rc = EXIT_OK;
    }
    for (size_t i = 0; i < r.n; i++)
        if (fabs(r.c[i].value - r.c[i].shipped) > r.c[i].step / 2) {
            differ = 1;
            if (a.check)
                fprintf(stderr, "clusterfit: validate refit: lib/model/constants.def: %s is %g, "
                        "the fit gives %g (`make fit-update` writes the fit in)\n",
                        r.c[i].name, r.c[i].shipped, r.c[i].value);
        }
    cf_refit_clear(&r);
    cf_validation_clear(&v);
    cf_refit_restore();
    return a.check && differ && rc == EXIT_OK ? 1 : rc;
}

int cmd_validate(const cli_ctx *ctx, int argc, char **argv)
{
    if (argc < 2)
        return cli_usage_error("validate", "expected 'collectives', 'training', 'serving' or 'refit'");
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        cli_opts_help(&validate_cmds[0], stdout);
        return EXIT_OK;
    }
    (void)ctx;
    if (strcmp(argv[1], "collectives") == 0)
        return run_validation(&validate_cmds[0], argc - 1, argv + 1, cf_validate_collectives);
    if (strcmp(argv[1], "training") == 0)
        return run_validation(&validate_cmds[1], argc - 1, argv + 1, cf_validate_training);
    if (strcmp(argv[1], "refit") == 0) return run_refit(&validate_cmds[2], argc - 1, argv + 1);
    if (strcmp(argv[1], "serving") == 0) return serve_cli_validate(&validate_cmds[3], argc - 1, argv + 1);
    return cli_usage_error("validate", "unknown kind '%s' (accepted: collectives, training, "
                           "serving, refit)",
                           argv[1]);
}
