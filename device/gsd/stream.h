/*
 * gsd/stream.h - the stream-ordered host API (NVSHMEM's *_on_stream), on
 * both backends.  gshmem_device.h includes it last; it may also be
 * included on its own.
 *
 * GPU: host functions of libgshmem_device.a (device/stream.cu) that launch
 * a small kernel on the stream, which calls the device routine of the same
 * name: so the operation happens in stream order, after the work queued
 * before it and before the work queued after it, and it can be captured
 * into a CUDA graph.  They return once the kernel is queued.
 * Host lanes: static inline functions that call the device routine at once
 * (host-lane launches are synchronous, so "now" is stream order); the
 * stream argument is ignored.
 *
 * gshmemx_stream_t is cudaStream_t on the GPU and void * on host lanes, so
 * a program written once passes 0 or a stream variable of that type.
 *
 *   gshmemx_putmem_on_stream(dest, source, nelems, pe, stream)
 *   gshmemx_getmem_on_stream(dest, source, nelems, pe, stream)
 *   gshmemx_signal_op_on_stream(sig_addr, signal, sig_op, pe, stream)
 *   gshmemx_quiet_on_stream(stream)
 *   gshmemx_barrier_all_on_stream(stream), gshmemx_sync_all_on_stream(stream)
 *   gshmemx_signal_wait_until_on_stream(sig_addr, cmp, cmp_value, stream)
 *   gshmemx_TYPENAME_wait_until_on_stream(ivar, cmp, cmp_value, stream)
 *       for the point-to-point synchronization types (GSHMEM_P2P_TYPES:
 *       short, ushort, int, long, longlong, uint, ulong, ulonglong, int32,
 *       int64, uint32, uint64, size, ptrdiff)
 */
#ifndef GSD_STREAM_H
#define GSD_STREAM_H

#include <stddef.h>
#include <stdint.h>

#include "../gshmem_device.h"
#include "gshmem/typetable.h"

#if defined(GSD_CUDA)
#include <cuda_runtime.h>

#include "cuda_host.h"

typedef cudaStream_t gshmemx_stream_t;

extern "C" {
void gshmemx_putmem_on_stream(void *dest, const void *source, size_t nelems, int pe,
                              cudaStream_t stream);
void gshmemx_getmem_on_stream(void *dest, const void *source, size_t nelems, int pe,
                              cudaStream_t stream);
void gshmemx_signal_op_on_stream(uint64_t *sig_addr, uint64_t signal, int sig_op, int pe,
                                 cudaStream_t stream);
void gshmemx_quiet_on_stream(cudaStream_t stream);
void gshmemx_barrier_all_on_stream(cudaStream_t stream);
void gshmemx_sync_all_on_stream(cudaStream_t stream);
void gshmemx_signal_wait_until_on_stream(uint64_t *sig_addr, int cmp, uint64_t cmp_value,
                                         cudaStream_t stream);
#define GSD_WAIT_ON_STREAM_DECL(T, N) \
    void gshmemx_##N##_wait_until_on_stream(T *ivar, int cmp, T cmp_value, cudaStream_t stream);
GSHMEM_P2P_TYPES(GSD_WAIT_ON_STREAM_DECL)
#undef GSD_WAIT_ON_STREAM_DECL
}
#else
typedef void *gshmemx_stream_t;

static inline void gshmemx_putmem_on_stream(void *dest, const void *source, size_t nelems, int pe,
                                            gshmemx_stream_t stream)
{
    (void)stream;
    gshmem_putmem(dest, source, nelems, pe);
}

static inline void gshmemx_getmem_on_stream(void *dest, const void *source, size_t nelems, int pe,
                                            gshmemx_stream_t stream)
{
    (void)stream;
    gshmem_getmem(dest, source, nelems, pe);
}

static inline void gshmemx_signal_op_on_stream(uint64_t *sig_addr, uint64_t signal, int sig_op,
                                               int pe, gshmemx_stream_t stream)
{
    (void)stream;
    gshmemx_signal_op(sig_addr, signal, sig_op, pe);
}

static inline void gshmemx_quiet_on_stream(gshmemx_stream_t stream)
{
    (void)stream;
    gshmem_quiet();
}

static inline void gshmemx_barrier_all_on_stream(gshmemx_stream_t stream)
{
    (void)stream;
    gshmem_barrier_all();
}

static inline void gshmemx_sync_all_on_stream(gshmemx_stream_t stream)
{
    (void)stream;
    gshmem_sync_all();
}

static inline void gshmemx_signal_wait_until_on_stream(uint64_t *sig_addr, int cmp,
                                                       uint64_t cmp_value, gshmemx_stream_t stream)
{
    (void)stream;
    (void)gshmem_signal_wait_until(sig_addr, cmp, cmp_value);
}

#define GSD_WAIT_ON_STREAM_DEF(T, N)                                                     \
    static inline void gshmemx_##N##_wait_until_on_stream(T *ivar, int cmp, T cmp_value, \
                                                          gshmemx_stream_t stream)       \
    {                                                                                    \
        (void)stream;                                                                    \
        gshmem_##N##_wait_until(ivar, cmp, cmp_value);                                   \
    }
GSHMEM_P2P_TYPES(GSD_WAIT_ON_STREAM_DEF)
#undef GSD_WAIT_ON_STREAM_DEF
#endif

#endif /* GSD_STREAM_H */
