/*
 * tests/compat/bad_mpi_not_init.c - NVSHMEMX_INIT_WITH_MPI_COMM before
 * MPI_Init: the plugin says MPI is not initialized, in one line, and every
 * process exits nonzero.  In a gshmem built without MPI (no plugin, and no
 * mpi.h for this program) the same call fails instead for want of the
 * plugin, which is what this then checks.
 */
#ifdef NV_TEST_HAVE_MPI
#include <mpi.h>
#endif

#include <gshmem/compat/nvshmem.h>
#include <stdio.h>

/* EXPECT: ^gshmem: PE [?0-9]+: gshmemx_init_attr: bootstrap mpi: (MPI is not initialized|cannot load the MPI plugin gshmem_bootstrap_mpi.so from ) */
/* EXPECT_WITHIN: 20 */

int main(void)
{
    nvshmemx_init_attr_t attr = NVSHMEMX_INIT_ATTR_INITIALIZER;
#ifdef NV_TEST_HAVE_MPI
    MPI_Comm comm = MPI_COMM_WORLD;
#else
    long comm = 0;
#endif

    nvshmemx_set_attr_mpi_comm_args(&comm, &attr);
    nvshmemx_init_attr(NVSHMEMX_INIT_WITH_MPI_COMM, &attr);
    fprintf(stderr, "FAIL: nvshmemx_init_attr returned before MPI_Init\n");
    return 0;
}
