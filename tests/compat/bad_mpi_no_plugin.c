/*
 * tests/compat/bad_mpi_no_plugin.c - NVSHMEMX_INIT_WITH_MPI_COMM where the
 * MPI plugin is missing (as in a gshmem built without MPI; here
 * GSHMEM_BOOTSTRAP_MPI_PLUGIN names a file that is not there): one line
 * saying which file, a nonzero exit, no crash and no hang.  The
 * communicator is never looked at, so any address does.
 */
#include <gshmem/compat/nvshmem.h>
#include <stdio.h>
#include <stdlib.h>

/* EXPECT: ^gshmem: PE [?0-9]+: gshmemx_init_attr: bootstrap mpi: cannot load the MPI plugin /nonexistent/gshmem_bootstrap_mpi.so: no such file */
/* EXPECT_WITHIN: 20 */

int main(void)
{
    nvshmemx_init_attr_t attr = NVSHMEMX_INIT_ATTR_INITIALIZER;
    long not_a_comm = 0;

    setenv("GSHMEM_BOOTSTRAP_MPI_PLUGIN", "/nonexistent/gshmem_bootstrap_mpi.so", 1);
    nvshmemx_set_attr_mpi_comm_args(&not_a_comm, &attr);
    nvshmemx_init_attr(NVSHMEMX_INIT_WITH_MPI_COMM, &attr);
    fprintf(stderr, "FAIL: nvshmemx_init_attr returned without its plugin\n");
    return 0;
}
