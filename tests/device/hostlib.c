/*
 * tests/device/hostlib.c - NVSHMEM 3.8's host-library init (issue 31):
 * gshmemx_set_attr_mpi_comm_args stores the communicator's address in attr
 * (and refuses a NULL one, attr untouched; the MPI start itself is
 * tests/compat/nv_mpi_init.c); gshmemx_hostlib_init_attr
 * starts the library (gshmemx_init_status, a put around the ring, a device
 * kernel that adds on the next PE), gshmemx_hostlib_finalize ends it.
 */
#include "dev_test.h"

GSHMEM_KERNEL(add_kernel, int *, p)
{
    gshmem_int_atomic_add(p, 1, (gshmem_my_pe() + 1) % gshmem_n_pes());
    gshmem_quiet();
}

int main(void)
{
    gshmemx_init_attr_t attr = GSHMEMX_INIT_ATTR_INITIALIZER;
    int fails = 0, mpi_comm = 0, *sym, *dev, got, status, me, npes;

    attr.rank = 5;
    status = gshmemx_set_attr_mpi_comm_args(&mpi_comm, &attr);
    if (status != 0 || attr.mpi_comm != (void *)&mpi_comm || attr.rank != 5) {
        fprintf(stderr,
                "FAIL: gshmemx_set_attr_mpi_comm_args: expected 0 and attr.mpi_comm set, "
                "got %d (attr.rank %d)\n",
                status, attr.rank);
        fails++;
    }
    status = gshmemx_set_attr_mpi_comm_args(NULL, &attr); /* says so in a line */
    if (status != GSHMEMX_ERROR_INVALID_VALUE || attr.mpi_comm != (void *)&mpi_comm) {
        fprintf(stderr,
                "FAIL: gshmemx_set_attr_mpi_comm_args(NULL): expected %d and attr untouched, "
                "got %d\n",
                GSHMEMX_ERROR_INVALID_VALUE, status);
        fails++;
    }
    if (gshmemx_hostlib_init_attr(0, &attr) != 0 ||
        gshmemx_init_status() != GSHMEM_STATUS_IS_INITIALIZED) {
        fprintf(stderr, "FAIL: gshmemx_hostlib_init_attr: expected 0 and an initialized "
                        "library\n");
        return 1;
    }
    me = shmem_my_pe();
    npes = shmem_n_pes();
    sym = (int *)shmem_calloc(1, sizeof(int));
    dev = (int *)gshmem_calloc(1, sizeof(int));
    shmem_int_p(sym, me + 1, (me + 1) % npes);
    shmem_barrier_all();
    if (*sym != (me + npes - 1) % npes + 1) {
        fprintf(stderr,
                "FAIL PE %d: shmem_int_p after gshmemx_hostlib_init_attr: expected %d, "
                "got %d\n",
                me, (me + npes - 1) % npes + 1, *sym);
        fails++;
    }
    if (GSHMEM_LAUNCH(add_kernel, 1, 4, dev) != 0)
        fails++;
    shmem_barrier_all();
    gshmemx_memcpy_from_device(&got, dev, sizeof(got));
    if (got != 4) {
        fprintf(stderr,
                "FAIL PE %d: device adds after gshmemx_hostlib_init_attr: expected 4, "
                "got %d\n",
                me, got);
        fails++;
    }
    shmem_barrier_all();
    gshmem_free(dev);
    shmem_free(sym);
    gshmemx_hostlib_finalize();
    if (gshmemx_init_status() != GSHMEM_STATUS_NOT_INITIALIZED) {
        fprintf(stderr, "FAIL PE %d: gshmemx_hostlib_finalize: the library is still up\n", me);
        fails++;
    }
    if (me == 0 && !fails)
        printf("hostlib.c: PASS on %d PE%s\n", npes, npes == 1 ? "" : "s");
    return fails ? 1 : 0;
}
