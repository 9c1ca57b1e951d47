/*
 * tests/compat/nv_shmem_init.c - NVSHMEM started on a running OpenSHMEM
 * library, as NVSHMEM's shmem-based-init example does
 * (NVSHMEMX_INIT_WITH_SHMEM): gshmem is that library, so NVSHMEM's PEs are
 * the OpenSHMEM PEs and its memory the same heap; nvshmem_finalize leaves
 * the OpenSHMEM library running until shmem_finalize.  Then the attr-less
 * form, which starts the library itself and whose finalize ends it.
 */
#include <shmem.h>

#include "nv_test.h"

int main(void)
{
    nvshmemx_init_attr_t attr = NVSHMEMX_INIT_ATTR_INITIALIZER;
    int me, npes, up = -1, *target, fails;

    shmem_init();
    nvshmemx_init_attr(NVSHMEMX_INIT_WITH_SHMEM, &attr);
    me = nvshmem_my_pe();
    npes = nvshmem_n_pes();
    NV_CHECK("nvshmem_my_pe == shmem_my_pe", 0, shmem_my_pe(), me);
    NV_CHECK("nvshmem_n_pes == shmem_n_pes", 0, shmem_n_pes(), npes);
    target = (int *)nvshmem_malloc(sizeof(int));
    shmem_int_p(target, me, (me + 1) % npes); /* OpenSHMEM into NVSHMEM's memory */
    nvshmem_barrier_all();
    NV_CHECK("target (shmem_int_p from the left)", 0, (me + npes - 1) % npes, *target);
    nvshmem_free(target);
    nvshmem_finalize();
    shmem_query_initialized(&up);
    NV_CHECK("OpenSHMEM still up after nvshmem_finalize", 0, 1, up);
    shmem_barrier_all();
    fails = nv_done("nv_shmem_init");
    shmem_finalize();
    shmem_query_initialized(&up);
    NV_CHECK("OpenSHMEM down after shmem_finalize", 0, 0, up);

    /* No attr: NVSHMEM starts the OpenSHMEM library itself. */
    nvshmemx_init_attr(NVSHMEMX_INIT_WITH_SHMEM, NULL);
    NV_CHECK("nvshmemx_init_status (attr NULL)", 0, NVSHMEM_STATUS_IS_INITIALIZED,
             nvshmemx_init_status());
    nvshmem_barrier_all();
    nvshmem_finalize();
    NV_CHECK("nvshmemx_init_status after nvshmem_finalize", 0, NVSHMEM_STATUS_NOT_INITIALIZED,
             nvshmemx_init_status());
    return fails || nv_fails ? 1 : 0;
}
