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

/* gshmem has no MPI bootstrap (PMIx, PMI2, a unique id, or one process):
 * NVSHMEM's "not supported", attr untouched. */
int pgshmemx_set_attr_mpi_comm_args(void *mpi_comm, gshmemx_init_attr_t *attr)
{
    (void)mpi_comm;
    (void)attr;
    fprintf(stderr,
            "gshmem: gshmemx_set_attr_mpi_comm_args: no MPI bootstrap in gshmem: start under "
            "a PMIx or PMI2 launcher (mpirun), or from a unique id "
            "(gshmemx_set_attr_uniqueid_args)\n");
    return GSHMEMX_ERROR_NOT_SUPPORTED;
}
GSI_ALIAS(gshmemx_set_attr_mpi_comm_args)
