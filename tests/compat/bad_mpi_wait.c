/*
 * tests/compat/bad_mpi_wait.c - NVSHMEMX_INIT_WITH_MPI_COMM where one rank
 * never comes: rank 1 waits in MPI_Barrier instead, so rank 0's start (the
 * duplicate of the communicator, non-blocking) waits GSHMEM_WAIT_TIMEOUT=3 s
 * and ends the job with one line saying what it waited for, instead of
 * hanging in MPI.  In a gshmem built without MPI the plugin is missing,
 * which is what this then checks.
 */
#ifdef NV_TEST_HAVE_MPI
#include <mpi.h>
#endif

#include <gshmem/compat/nvshmem.h>
#include <stdio.h>
#include <stdlib.h>

/* EXPECT: ^gshmem: PE [?0-9]+: gshmemx_init_attr: bootstrap mpi: (mpi: waited more than GSHMEM_WAIT_TIMEOUT=3 s for every rank of the communicator to start|cannot load the MPI plugin gshmem_bootstrap_mpi.so from ) */
/* EXPECT_WITHIN: 30 */

int main(int argc, char *argv[])
{
    nvshmemx_init_attr_t attr = NVSHMEMX_INIT_ATTR_INITIALIZER;
    int rank = 0;
#ifdef NV_TEST_HAVE_MPI
    MPI_Comm comm = MPI_COMM_WORLD;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
#else
    long comm = 0;

    (void)argc;
    (void)argv;
#endif
    setenv("GSHMEM_WAIT_TIMEOUT", "3", 1);
    if (rank == 1) {
#ifdef NV_TEST_HAVE_MPI
        MPI_Barrier(MPI_COMM_WORLD); /* rank 0 never comes: ended with the job */
#endif
        return 0;
    }
    nvshmemx_set_attr_mpi_comm_args(&comm, &attr);
    nvshmemx_init_attr(NVSHMEMX_INIT_WITH_MPI_COMM, &attr);
    fprintf(stderr, "FAIL: nvshmemx_init_attr returned without rank 1\n");
    return 0;
}
