/* probe_mpi.c — `clusterfit probe --mpi`: see probe_mpi_mpi.c. Without
 * Open MPI at build time (CF_WITH_MPI unset: PKG_CONFIG found no ompi-c)
 * --mpi says so and exits 2. */
#include "probe_mpi.h"

#if 1 /* TEMP */
int probe_mpi_run(const cli_ctx *ctx, const probe_args *a, const char *const *env)
{
    (void)ctx;
    (void)a;
    (void)env;
    return cli_usage_error("probe", "--mpi: this clusterfit was built without MPI "
                                    "(install libopenmpi-dev and rebuild)");
}
#endif
