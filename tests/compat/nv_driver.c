/*
 * tests/compat/nv_driver.c - what an NVSHMEM program uses without including
 * it, because nvshmem.h brings it in: assert, memset, INT_MAX, errno, and in
 * a CUDA build the driver API (CUmemAllocationProp, cuMemGetAllocationGranularity,
 * as NVSHMEM's examples use) and the runtime.  This file includes nothing but
 * the compatibility header (through nv_test.h, which adds <stdio.h>).  On host
 * lanes it runs (the driver API is CUDA's: compiled under nvcc only);
 * tests/compat/compile.sh compiles it as CUDA and links it, and checks that
 * the program needs libcuda.so.1 (gshmemcc -x cu links -lcuda).
 */
#include "nv_test.h"

#if defined(__CUDACC__)
/* Called only on a machine with a driver; referenced so the link needs it. */
size_t nv_granularity(int dev)
{
    CUmemAllocationProp prop;
    size_t gran = 0;

    memset(&prop, 0, sizeof prop);
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = dev;
    if (cuMemGetAllocationGranularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM) !=
        CUDA_SUCCESS)
        return 0;
    return gran;
}
#endif

int main(void)
{
    int words[8];

    nvshmem_init();
    int me = nvshmem_my_pe(), npes = nvshmem_n_pes();
    assert(me >= 0 && me < npes);
    memset(words, 0xff, sizeof words);
    NV_CHECK("memset", 0, -1, words[7]);
    NV_CHECK("INT_MAX", 0, 1, INT_MAX > 0);
    errno = 0;
    NV_CHECK("errno", 0, 0, errno);
    int *sym = (int *)nvshmem_malloc(sizeof(int));
    assert(sym != NULL);
    nvshmem_int_p(sym, me, (me + 1) % npes);
    nvshmem_barrier_all();
    NV_CHECK("nvshmem_int_p from the left", 0, (me + npes - 1) % npes, nvshmem_int_g(sym, me));
    nvshmem_free(sym);
    int rc = nv_done("nv_driver");
    nvshmem_finalize();
    return rc;
}
