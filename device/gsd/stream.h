/*
 * gsd/stream.h - the stream-ordered host API (NVSHMEM's *_on_stream), on
 * both backends.  gshmem_device.h includes it last; it may also be
 * included on its own.
 *
 * GPU: host functions of libgshmem_device.a (device/stream.cu, the
 * point-to-point routines; stream_coll.cu and stream_reduce.cu, the
 * collectives) that queue one small kernel on the stream, which calls the
 * device routine of the same name: so the operation happens in stream
 * order, after the work queued before it and before the work queued after
 * it, and it can be captured into a CUDA graph.  They return once the kernel is queued (the
 * collectives return 0 then; a bad team or argument ends the job from the
 * kernel, as the device routine does).  One exception: g returns a value,
 * so gshmemx_TYPENAME_g_on_stream waits for the stream (and cannot be
 * captured; it says so in one line and ends the job if asked to).
 * Host lanes: static inline functions that call the device routine at once
 * (host-lane launches are synchronous, so "now" is stream order); the
 * stream argument is ignored.
 *
 * gshmemx_stream_t is cudaStream_t on the GPU and void * on host lanes, so
 * a program written once passes 0 or a stream variable of that type.
 * Teams are device team ids (gshmem_team_t: GSHMEM_TEAM_WORLD, or
 * gshmemx_team_device_id(team)), as NVSHMEM's nvshmem_team_t.
 *
 * The routines, NVSHMEM's names and arguments (nvshmemx_ -> gshmemx_), the
 * stream last.  TYPENAME: the device RMA types (GSD_RMA_TYPES: the
 * GSHMEM_RMA_TYPES rows, less long double under nvcc); WTYPE: the
 * point-to-point synchronization types (GSHMEM_P2P_TYPES); BITS: 8, 16, 32,
 * 64, 128; reductions: and/or/xor on GSHMEM_REDUCE_BIT_TYPES, min/max/sum/
 * prod on GSD_REDUCE_MINMAX_TYPES and GSD_REDUCE_FLOAT16_TYPES (gsd/coll.h).
 *   gshmemx_{TYPENAME_,}{put,get}{,BITS,mem}[_nbi]_on_stream(dest, source, nelems, pe, stream)
 *       (gshmemx_int_put_on_stream, gshmemx_get32_nbi_on_stream, gshmemx_putmem_on_stream, ...)
 *   gshmemx_TYPENAME_p_on_stream(dest, value, pe, stream)
 *   TYPE gshmemx_TYPENAME_g_on_stream(source, pe, stream)
 *   gshmemx_{TYPENAME_i,i}{put,get}{,BITS}_on_stream(dest, source, dst, sst, nelems, pe, stream)
 *   gshmemx_{TYPENAME_put,putBITS,putmem}_signal[_nbi]_on_stream(dest, source, nelems,
 *       sig_addr, signal, sig_op, pe, stream)
 *   gshmemx_signal_op_on_stream(sig_addr, signal, sig_op, pe, stream)
 *   gshmemx_signal_wait_until_on_stream(sig_addr, cmp, cmp_value, stream)
 *   gshmemx_WTYPE_wait_until_on_stream(ivar, cmp, cmp_value, stream)
 *   gshmemx_WTYPE_wait_until_all_on_stream(ivars, nelems, status, cmp, cmp_value, stream)
 *   gshmemx_WTYPE_wait_until_all_vector_on_stream(ivars, nelems, status, cmp, cmp_values,
 *       stream)
 *   gshmemx_quiet_on_stream(stream), gshmemx_flush_on_stream(stream)
 *   gshmemx_barrier_all_on_stream(stream), gshmemx_sync_all_on_stream(stream)
 *   int gshmemx_barrier_on_stream(team, stream), int gshmemx_team_sync_on_stream(team, stream)
 *   int gshmemx_{TYPENAME_broadcast,broadcastmem}_on_stream(team, dest, source, nelems,
 *       PE_root, stream)
 *   int gshmemx_{TYPENAME_,}{fcollect,alltoall}{,mem}_on_stream(team, dest, source, nelems,
 *       stream)
 *   int gshmemx_TYPENAME_OP_{reduce,reducescatter}_on_stream(team, dest, source, nreduce,
 *       stream)
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

/* Declarations only: device/stream*.cu define them. */
#define GSD_OS_VOID(NAME, PARAMS, CALL) void NAME PARAMS;
#define GSD_OS_RET(RET, NAME, PARAMS, CALL) RET NAME PARAMS;
extern "C" {
#else
typedef void *gshmemx_stream_t;

/* The routine runs now: host-lane launches are synchronous, so this is
 * stream order. */
#define GSD_OS_VOID(NAME, PARAMS, CALL) \
    static inline void NAME PARAMS      \
    {                                   \
        (void)stream;                   \
        CALL;                           \
    }
#define GSD_OS_RET(RET, NAME, PARAMS, CALL) \
    static inline RET NAME PARAMS           \
    {                                       \
        (void)stream;                       \
        return CALL;                        \
    }
#endif

/* ---- point to point ------------------------------------------------------ */

/* put, get and their _nbi: STEM after gshmem_ (int_put, put32_nbi, getmem). */
#define GSD_OS_XFER(STEM, T)                                                                 \
    GSD_OS_VOID(gshmemx_##STEM##_on_stream,                                                  \
                (T * dest, const T *source, size_t nelems, int pe, gshmemx_stream_t stream), \
                gshmem_##STEM(dest, source, nelems, pe))
#define GSD_OS_XFERS(STEM_PUT, STEM_GET, T) \
    GSD_OS_XFER(STEM_PUT, T)                \
    GSD_OS_XFER(STEM_PUT##_nbi, T)          \
    GSD_OS_XFER(STEM_GET, T)                \
    GSD_OS_XFER(STEM_GET##_nbi, T)
#define GSD_OS_STRIDED(STEM, T)                                                                  \
    GSD_OS_VOID(gshmemx_##STEM##_on_stream,                                                      \
                (T * dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe, \
                 gshmemx_stream_t stream),                                                       \
                gshmem_##STEM(dest, source, dst, sst, nelems, pe))
#define GSD_OS_PUT_SIGNAL(STEM, T)                                                              \
    GSD_OS_VOID(gshmemx_##STEM##_on_stream,                                                     \
                (T * dest, const T *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, \
                 int sig_op, int pe, gshmemx_stream_t stream),                                  \
                gshmem_##STEM(dest, source, nelems, sig_addr, signal, sig_op, pe))
#define GSD_OS_PUT_SIGNALS(STEM, T) GSD_OS_PUT_SIGNAL(STEM, T) GSD_OS_PUT_SIGNAL(STEM##_nbi, T)

#define GSD_OS_RMA_TYPED(T, N)                                                                   \
    GSD_OS_XFERS(N##_put, N##_get, T)                                                            \
    GSD_OS_STRIDED(N##_iput, T)                                                                  \
    GSD_OS_STRIDED(N##_iget, T)                                                                  \
    GSD_OS_PUT_SIGNALS(N##_put_signal, T)                                                        \
    GSD_OS_VOID(gshmemx_##N##_p_on_stream,                                                       \
                (T * dest, const T value, int pe, gshmemx_stream_t stream),                      \
                gshmem_##N##_p(dest, value, pe))                                                 \
    GSD_OS_RET(T, gshmemx_##N##_g_on_stream, (const T *source, int pe, gshmemx_stream_t stream), \
               gshmem_##N##_g(source, pe))
GSD_RMA_TYPES(GSD_OS_RMA_TYPED)

#define GSD_OS_RMA_SIZED(BITS, BYTES)        \
    GSD_OS_XFERS(put##BITS, get##BITS, void) \
    GSD_OS_STRIDED(iput##BITS, void)         \
    GSD_OS_STRIDED(iget##BITS, void)         \
    GSD_OS_PUT_SIGNALS(put##BITS##_signal, void)
GSHMEM_SIZES(GSD_OS_RMA_SIZED)

GSD_OS_XFERS(putmem, getmem, void)
GSD_OS_PUT_SIGNALS(putmem_signal, void)

GSD_OS_VOID(gshmemx_signal_op_on_stream,
            (uint64_t * sig_addr, uint64_t signal, int sig_op, int pe, gshmemx_stream_t stream),
            gshmemx_signal_op(sig_addr, signal, sig_op, pe))
GSD_OS_VOID(gshmemx_signal_wait_until_on_stream,
            (uint64_t * sig_addr, int cmp, uint64_t cmp_value, gshmemx_stream_t stream),
            (void)gshmem_signal_wait_until(sig_addr, cmp, cmp_value))

#define GSD_OS_WAIT(T, N)                                                             \
    GSD_OS_VOID(gshmemx_##N##_wait_until_on_stream,                                   \
                (T * ivar, int cmp, T cmp_value, gshmemx_stream_t stream),            \
                gshmem_##N##_wait_until(ivar, cmp, cmp_value))                        \
    GSD_OS_VOID(gshmemx_##N##_wait_until_all_on_stream,                               \
                (T * ivars, size_t nelems, const int *status, int cmp, T cmp_value,   \
                 gshmemx_stream_t stream),                                            \
                gshmem_##N##_wait_until_all(ivars, nelems, status, cmp, cmp_value))   \
    GSD_OS_VOID(gshmemx_##N##_wait_until_all_vector_on_stream,                        \
                (T * ivars, size_t nelems, const int *status, int cmp, T *cmp_values, \
                 gshmemx_stream_t stream),                                            \
                gshmem_##N##_wait_until_all_vector(ivars, nelems, status, cmp, cmp_values))
GSHMEM_P2P_TYPES(GSD_OS_WAIT)

GSD_OS_VOID(gshmemx_quiet_on_stream, (gshmemx_stream_t stream), gshmem_quiet())
GSD_OS_VOID(gshmemx_flush_on_stream, (gshmemx_stream_t stream), gshmemx_flush())

/* ---- collectives --------------------------------------------------------- */

GSD_OS_VOID(gshmemx_barrier_all_on_stream, (gshmemx_stream_t stream), gshmem_barrier_all())
GSD_OS_VOID(gshmemx_sync_all_on_stream, (gshmemx_stream_t stream), gshmem_sync_all())
GSD_OS_RET(int, gshmemx_barrier_on_stream, (gshmem_team_t team, gshmemx_stream_t stream),
           (gshmem_barrier(team), 0))
GSD_OS_RET(int, gshmemx_team_sync_on_stream, (gshmem_team_t team, gshmemx_stream_t stream),
           (gshmem_team_sync(team), 0))

/* NAME after gshmem_ (int_broadcast, fcollectmem, ...). */
#define GSD_OS_BCAST(NAME, T)                                                              \
    GSD_OS_RET(int, gshmemx_##NAME##_on_stream,                                            \
               (gshmem_team_t team, T * dest, const T *source, size_t nelems, int PE_root, \
                gshmemx_stream_t stream),                                                  \
               gshmem_##NAME(team, dest, source, nelems, PE_root))
#define GSD_OS_COPY(NAME, T)                                                  \
    GSD_OS_RET(int, gshmemx_##NAME##_on_stream,                               \
               (gshmem_team_t team, T * dest, const T *source, size_t nelems, \
                gshmemx_stream_t stream),                                     \
               gshmem_##NAME(team, dest, source, nelems))
#define GSD_OS_COLL_TYPED(T, N) \
    GSD_OS_BCAST(N##_broadcast, T) GSD_OS_COPY(N##_fcollect, T) GSD_OS_COPY(N##_alltoall, T)
GSD_RMA_TYPES(GSD_OS_COLL_TYPED)
GSD_OS_BCAST(broadcastmem, void)
GSD_OS_COPY(fcollectmem, void)
GSD_OS_COPY(alltoallmem, void)

/* Reductions: the same shape as fcollect (nelems is nreduce). */
#define GSD_OS_REDUCE(T, N, OP) \
    GSD_OS_COPY(N##_##OP##_reduce, T) GSD_OS_COPY(N##_##OP##_reducescatter, T)
#define GSD_OS_REDUCE_BIT(T, N) \
    GSD_OS_REDUCE(T, N, and) GSD_OS_REDUCE(T, N, or) GSD_OS_REDUCE(T, N, xor)
#define GSD_OS_REDUCE_ARITH(T, N) \
    GSD_OS_REDUCE(T, N, min)      \
    GSD_OS_REDUCE(T, N, max) GSD_OS_REDUCE(T, N, sum) GSD_OS_REDUCE(T, N, prod)
GSHMEM_REDUCE_BIT_TYPES(GSD_OS_REDUCE_BIT)
GSD_REDUCE_MINMAX_TYPES(GSD_OS_REDUCE_ARITH)
GSD_REDUCE_FLOAT16_TYPES(GSD_OS_REDUCE_ARITH)

#undef GSD_OS_REDUCE_ARITH
#undef GSD_OS_REDUCE_BIT
#undef GSD_OS_REDUCE
#undef GSD_OS_COLL_TYPED
#undef GSD_OS_COPY
#undef GSD_OS_BCAST
#undef GSD_OS_WAIT
#undef GSD_OS_RMA_SIZED
#undef GSD_OS_RMA_TYPED
#undef GSD_OS_PUT_SIGNALS
#undef GSD_OS_PUT_SIGNAL
#undef GSD_OS_STRIDED
#undef GSD_OS_XFERS
#undef GSD_OS_XFER
#undef GSD_OS_RET
#undef GSD_OS_VOID

#if defined(GSD_CUDA)
}
#endif

#endif /* GSD_STREAM_H */
