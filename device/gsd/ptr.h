/*
 * gsd/ptr.h - who am I, and what can I address:
 *   gshmem_my_pe(), gshmem_n_pes()
 *   gshmem_ptr(ptr, pe)    pe's copy of symmetric ptr when this PE can load
 *                          and store it (ptr itself for this PE); NULL when
 *                          pe is reached only through the proxy, or ptr is
 *                          not in the device heap
 *   gshmemx_n_channels()   the channel names the _ch extensions accept,
 *                          0 .. n-1 (at least 1: in a job with no proxy
 *                          channel, channel 0 is accepted and unused)
 */
#ifndef GSD_PTR_H
#define GSD_PTR_H

#include <stdint.h>

#include "path.h"

/* On the GPU these are also host functions (NVSHMEM's are): the host pass
 * asks the library.  gshmemi_ptr (host/rma.c) answers gshmem_ptr there: a
 * node peer's mapping of the device heap, NULL through the network (not
 * shmem_ptr, which is NULL for GPU memory: its result is for CPU loads). */
#if defined(GSD_CUDA)
#include "shmem.h"
GSD_BEGIN_C
void *gshmemi_ptr(const void *ptr, int pe);
GSD_END_C
#endif

GSD_HD int gshmem_my_pe(void)
{
#if defined(GSD_NVCC_HOST_PASS)
    return shmem_my_pe();
#else
    return GSD_STATE.my_pe;
#endif
}

GSD_HD int gshmem_n_pes(void)
{
#if defined(GSD_NVCC_HOST_PASS)
    return shmem_n_pes();
#else
    return GSD_STATE.n_pes;
#endif
}

GSD_HD void *gshmem_ptr(const void *ptr, int pe)
{
#if defined(GSD_NVCC_HOST_PASS)
    return gshmemi_ptr(ptr, pe);
#else
    uint64_t off = (uint64_t)(uintptr_t)ptr - GSD_STATE.heap_base;
    unsigned region;
    void *peer;

    gsd_check_pe("gshmem_ptr", pe);
    if (off < GSD_STATE.heap_size)
        return gsd_peer_addr(ptr, off, pe);
    /* a registered symmetric buffer's mapping, where pe's is mapped here */
    return gsd_xreg_find(ptr, 1, pe, &off, &region, &peer) ? peer : NULL;
#endif
}

GSD_FN int gshmemx_n_channels(void)
{
    return GSD_STATE.n_chan > 0 ? GSD_STATE.n_chan : 1;
}

#endif /* GSD_PTR_H */
