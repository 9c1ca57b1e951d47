/*
 * tests/compat/bad_mpi_comm_null.c - NVSHMEMX_INIT_WITH_MPI_COMM with no
 * communicator: nvshmemx_set_attr_mpi_comm_args refuses a NULL one (a line,
 * GSHMEMX_ERROR_INVALID_VALUE), and nvshmemx_init_attr with attr.mpi_comm
 * NULL ends every process with one line, before any bootstrap.
 */
#include <gshmem/compat/nvshmem.h>
#include <stdio.h>

/* EXPECT: ^gshmem: PE [?0-9]+: gshmemx_init_attr: attr->mpi_comm is NULL */
/* EXPECT_WITHIN: 20 */

int main(void)
{
    nvshmemx_init_attr_t attr = NVSHMEMX_INIT_ATTR_INITIALIZER;

    if (nvshmemx_set_attr_mpi_comm_args(NULL, &attr) != NVSHMEMX_ERROR_INVALID_VALUE) {
        fprintf(stderr, "FAIL: nvshmemx_set_attr_mpi_comm_args(NULL) did not refuse it\n");
        return 2;
    }
    nvshmemx_init_attr(NVSHMEMX_INIT_WITH_MPI_COMM, &attr);
    fprintf(stderr, "FAIL: nvshmemx_init_attr returned with no communicator\n");
    return 0;
}
