/* probe_mpi.h — what cmd_probe.c and probe_mpi.c share: the probe's
 * options, the printer, and the --mpi entry point. probe_mpi.c is the only
 * file of the tool that includes <mpi.h> (built with it when the Makefile
 * finds Open MPI, CF_WITH_MPI; else --mpi says the tool was built without
 * it), so libclusterfit never links MPI. */
#ifndef CLUSTERFIT_PROBE_MPI_H
#define CLUSTERFIT_PROBE_MPI_H

#include "cli.h"

typedef struct probe_args {
    const char *sysroot;        /* --sysroot, NULL = / */
    int mpi;                    /* --mpi */
    double timeout_s;           /* --timeout, each phase's deadline */
    int hang_rank;              /* --hang-rank, -1 = none */
    const char *offering;       /* --offering */
    cli_format fmt;             /* --format */
} probe_args;

/* Applies --offering, prints the report (text or JSON) and frees it;
 * returns the exit code (1 when an error finding). */
int probe_print(const cli_ctx *ctx, const probe_args *a, json_t *report);

/* `probe --mpi`: every rank runs it; rank 0 prints. Returns the exit
 * code; a rank that timed out makes rank 0 print and then abort the job
 * (MPI_Abort), since a hung rank would block MPI_Finalize. */
int probe_mpi_run(const cli_ctx *ctx, const probe_args *a, const char *const *env);

#endif
