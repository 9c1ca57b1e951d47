/* host/hostlib.c - NVSHMEM 3.8's host-library init and its MPI attribute
 * (shmemx.h: gshmemx_hostlib_init_attr, gshmemx_hostlib_finalize,
 * gshmemx_set_attr_mpi_comm_args). */
#include "api.h"

#pragma GCC visibility push(default)
#include "gsd/host_api.h"
#pragma GCC visibility pop

/* NVSHMEM splits a host library from the device one; gshmem's one library
 * serves both (kernels run on host lanes where there is no GPU), so the
 * host library's init is gshmemx_init_attr's and its finalize
 * shmem_finalize's. */
int pgshmemx_hostlib_init_attr(unsigned int flags, gshmemx_init_attr_t *attr)
{
    return pgshmemx_init_attr(flags, attr);
}
GSI_ALIAS(gshmemx_hostlib_init_attr)

void pgshmemx_hostlib_finalize(void)
{
    pshmem_finalize();
}
GSI_ALIAS(gshmemx_hostlib_finalize)

/* NVSHMEM's: the communicator for GSHMEMX_INIT_WITH_MPI_COMM.  NVSHMEM
 * returns nonzero for a NULL attr; a NULL mpi_comm would fail only at init,
 * so it is refused here, where the mistake is. */
int pgshmemx_set_attr_mpi_comm_args(void *mpi_comm, gshmemx_init_attr_t *attr)
{
    static const char fn[] = "gshmemx_set_attr_mpi_comm_args";

    if (!attr || !mpi_comm) {
        GSI_WARN("%s: %s is NULL", fn, attr ? "mpi_comm" : "attr");
        return GSHMEMX_ERROR_INVALID_VALUE;
    }
    attr->mpi_comm = mpi_comm;
    return 0;
}
GSI_ALIAS(gshmemx_set_attr_mpi_comm_args)
