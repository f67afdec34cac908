/* main.c — the `clusterfit` tool: global options and dispatch to one
 * cmd_*.c per subcommand (as curl's tool over libcurl). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

static const struct command {
    const char *name;
    int (*fn)(const cli_ctx *, int, char **);
    const char *summary;
} commands[] = {
    {"list", cmd_list, "list cluster offerings, filtered and sorted (compare)"},
    {"show", cmd_show, "show every field of one offering with sources and age"},
    {"providers", cmd_providers, "one line per provider: offerings, multi-node, fabrics"},
    {"import", cmd_import, "add or update your own offerings from CSV or JSON"},
    {"predict", cmd_predict, "predict a collective or a training step on a fabric (plan)"},
    {"fit", cmd_fit, "does a workload fit one node, else how many nodes"},
    {"plan", cmd_plan, "rank offerings for a workload by real cost or time"},
    {"scale", cmd_scale, "scaling-efficiency curve of a workload on one offering"},
    {"fabrics", cmd_fabrics, "is a better fabric worth it: each fabric's time and premium"},
    {"goodput", cmd_goodput, "failures, checkpoints, restarts: where the time to train goes"},
    {"validate", cmd_validate, "compare the model with published measurements"},
    {"audit", cmd_audit, "read nccl-tests/NCCL logs/topo/ibstat and judge the fabric (verify)"},
    {"probe", cmd_probe, "check this node (or, with --mpi, every node) from the inside"},
    {"recipe", cmd_recipe, "write the sbatch script or MPIJob that probes and audits a rental"},
    {"serve", cmd_serve, "serve the web page and JSON API"},
    {"version", cmd_version, "the release, commit, model constants and catalog date"},
};

/* Commands of two words, run as commands of their own: `predict step` is
 * cmd_predict_step, while `predict collective` and `predict --help` stay
 * with cmd_predict. argv[0] of the command is the second word. */
static const struct subcommand {
    const char *name, *sub;
    int (*fn)(const cli_ctx *, int, char **);
} subcommands[] = {
    {"predict", "step", cmd_predict_step},
};

static void usage(FILE *out)
{
    fprintf(out,
            "Usage: clusterfit [--db PATH] COMMAND [OPTIONS]\n"
            "Compare, plan and verify multi-node GPU clusters.\n\nCommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(out,
            "\nGlobal options:\n"
            "  --db PATH    catalog database (default: $CLUSTERFIT_DB, else\n"
            "               $XDG_DATA_HOME/clusterfit/catalog.db)\n"
            "  --help       this help; 'clusterfit COMMAND --help' for a command\n"
            "  --version    the release, commit, model constants and catalog\n"
            "               ('clusterfit version --format json' for scripts)\n"
            "\nExit codes: 0 ok, 1 audit failed or invalid (probe: an error finding;\n"
            "plan: no offering passes the filters), 2 usage error (or a fact the model\n"
            "needs is unknown for that offering), 3 bad input file (a --db file that is\n"
            "not a clusterfit catalog too), 4 internal error, 5 the environment (the\n"
            "catalog locked by another process, a full disk, a read-only file, a missing\n"
            "directory), 6 audit unjudged (nothing wrong, but a busbw it shows was not\n"
            "compared with what the link should give; probe: a fact a check needs is\n"
            "unknown). See clusterfit(1).\n");
}

int main(int argc, char **argv)
{
    cli_ctx ctx = {0};
    int n = 0;
    char **args = calloc((size_t)argc + 1, sizeof *args);
    if (!args) return EXIT_INTERNAL;

    ctx.db_path = getenv("CLUSTERFIT_DB");
    ctx.now = getenv("CLUSTERFIT_NOW");
    /* --db may appear anywhere; strip it so subcommands need not know it. */
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--db") == 0) {
            if (i + 1 >= argc) {
                free(args);
                return cli_usage_error("", "--db needs a PATH");
            }
            ctx.db_path = argv[++i];
        } else if (strncmp(argv[i], "--db=", 5) == 0) {
            ctx.db_path = argv[i] + 5;
        } else {
            args[n++] = argv[i];
        }
    }
    if (n == 0) {
        usage(stderr);
        free(args);
        return EXIT_USAGE;
    }
    if (strcmp(args[0], "--help") == 0 || strcmp(args[0], "-h") == 0 || strcmp(args[0], "help") == 0) {
        usage(stdout);
        free(args);
        return EXIT_OK;
    }
    if (strcmp(args[0], "--version") == 0) {
        char *v[] = {"version", NULL};
        int rc = n == 1 ? cmd_version(&ctx, 1, v)
                        : cli_usage_error("", "--version takes no arguments");
        free(args);
        return rc;
    }
    for (size_t i = 0; n >= 2 && i < sizeof subcommands / sizeof subcommands[0]; i++) {
        if (strcmp(args[0], subcommands[i].name) == 0 && strcmp(args[1], subcommands[i].sub) == 0) {
            int rc = subcommands[i].fn(&ctx, n - 1, args + 1);
            free(args);
            return rc;
        }
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        if (strcmp(args[0], commands[i].name) == 0) {
            int rc = commands[i].fn(&ctx, n, args);
            free(args);
            return rc;
        }
    }
    fprintf(stderr, "clusterfit: unknown command '%s'\n", args[0]);
    usage(stderr);
    free(args);
    return EXIT_USAGE;
}
