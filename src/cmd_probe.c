/* cmd_probe.c — `clusterfit probe [--sysroot DIR] [--mpi [--timeout S]]
 * [--offering ID] [--format text|json]` (issue 12): the facts of this node
 * (cf_probe_node, reading /sys, /proc and /dev under DIR), or with --mpi,
 * run under mpirun or srun, of every node, gathered and measured by
 * src/probe_mpi.c and judged by cf_probe_cluster. The environment's NCCL_*
 * and FI_* variables are read here and handed to the library. Exit 0 ok or
 * warning, 1 failed (an error finding), 2 usage, 3 bad input, 4 internal. */
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "opts.h"
#include "probe_mpi.h"

extern char **environ;

#define CMD "probe"

static const cli_opt probe_opts[] = {
    {.name = "sysroot", CLI_STR_AT(probe_args, sysroot), .metavar = "DIR",
     .help = "read /sys, /proc and /dev under DIR (a saved host tree)\n"
             "instead of /"},
    {.name = "mpi", CLI_FLAG_AT(probe_args, mpi),
     .help = "run as one rank of mpirun or srun: gather every node's\n"
             "facts on rank 0, compare the nodes, measure pairs"},
    {.name = "timeout", CLI_NUM_AT(probe_args, timeout_s), .metavar = "S",
     .min = CF_PROBE_TIMEOUT_S_MIN, .max = CF_PROBE_TIMEOUT_S_MAX,
     .help = "with --mpi: seconds each phase waits for a rank (60)"},
    {.name = "hang-rank", CLI_INT_AT(probe_args, hang_rank), .metavar = "R",
     .min = 0, .max = 1 << 30,
     .help = "with --mpi: rank R stops answering (tests the timeout)"},
    {.name = "offering", CLI_STR_AT(probe_args, offering), .metavar = "ID",
     .help = "compare with the offering's promise (GPUs, NICs,\n"
             "Gbit/s per node, GPUDirect RDMA)"},
    {.name = "format", CLI_FORMAT_AT(probe_args, fmt), .metavar = "FMT",
     .formats = FMT_TEXT | FMT_JSON, .help = "text (default) or json"},
    {.name = "help", .short_name = 'h', .kind = CLI_HELP, .help = "this help"},
    {.kind = CLI_END},
};

static const cli_cmd probe_cmd = {
    .cmd = CMD,
    .usage = "Usage: clusterfit probe [--sysroot DIR] [--offering ID] [--format text|json]\n"
             "       mpirun -np N clusterfit probe --mpi [--timeout S] [...]\n"
             "       srun clusterfit probe --mpi [...]\n"
             "Read this node's GPUs, RDMA ports, network interfaces, GPU-NIC PCI paths,\n"
             "ACS, GPUDirect RDMA readiness, /dev/infiniband, the locked-memory limit and\n"
             "the NCCL_*/FI_* environment, and report what is wrong. With --mpi, rank 0\n"
             "gathers one report per host, names the nodes that differ from the others,\n"
             "and measures host-memory bandwidth and latency between nodes (all pairs up\n"
             "to 16 nodes, else a ring and a sample).\n"
             "\n",
    .opts = probe_opts,
    .footer = "\n"
              "Exit status: 0 ok or warning, 1 failed (an error finding), 2 usage error,\n"
              "3 bad input, 4 internal error.\n",
    .col = 20,
    .no_args = 1,
};

/* Opens the catalog and applies --offering to the report. */
static int check_offering(const cli_ctx *ctx, const char *id, json_t *report)
{
    cf_catalog *cat = NULL;
    cf_offering *off = NULL;
    cf_error err;
    cf_status st;
    int rc = cli_open_catalog(ctx, CMD, &cat);
    if (rc != EXIT_OK) return rc;
    cf_error_clear(&err);
    st = cf_catalog_get(cat, id, &off);
    if (st == CF_ENOTFOUND) {
        cf_catalog_close(cat);
        return cli_usage_error(CMD, "no offering '%s' (see 'clusterfit list')", id);
    }
    if (st == CF_OK) st = cf_probe_check_offering(report, off, &err);
    cf_offering_free(off);
    cf_catalog_close(cat);
    return st == CF_OK ? EXIT_OK : cli_lib_error(CMD, st, &err);
}

int probe_print(const cli_ctx *ctx, const probe_args *a, json_t *report)
{
    int rc = EXIT_OK;
    cf_audit_status verdict;
    if (a->offering && (rc = check_offering(ctx, a->offering, report)) != EXIT_OK) {
        json_decref(report);
        return rc;
    }
    verdict = cf_probe_status(report);
    if (a->fmt == FMT_JSON) {
        rc = cli_print_json(report);
    } else {
        char *text = cf_probe_report_text(report);
        json_decref(report);
        if (!text) return cli_lib_error(CMD, CF_ENOMEM, NULL);
        fputs(text, stdout);
        free(text);
    }
    fflush(stdout);
    if (rc == EXIT_OK && verdict >= CF_AUDIT_FAILED) rc = EXIT_AUDIT_FAILED;
    else if (rc == EXIT_OK && verdict == CF_AUDIT_UNJUDGED) rc = EXIT_AUDIT_UNJUDGED; /* as audit's */
    return rc;
}

int cmd_probe(const cli_ctx *ctx, int argc, char **argv)
{
    probe_args a = {NULL, 0, 60.0, -1, NULL, FMT_TEXT};
    cf_probe_opts po;
    json_t *report = NULL;
    cf_error err;
    cf_status st;
    int rc;
    if (cli_opts_parse(&probe_cmd, argc, argv, &a, &rc) < 0) return rc;
    if (a.mpi) return probe_mpi_run(ctx, &a, (const char *const *)environ);
    if (a.hang_rank >= 0) return cli_usage_error(CMD, "--hang-rank needs --mpi");
    memset(&po, 0, sizeof po);
    po.sysroot = a.sysroot;
    po.env = (const char *const *)environ;
    cf_error_clear(&err);
    st = cf_probe_node(&po, &report, &err);
    if (st == CF_EINVAL) return cli_usage_error(CMD, "--sysroot: %s", err.message);
    if (st != CF_OK) return cli_lib_error(CMD, st, &err);
    return probe_print(ctx, &a, report);
}
