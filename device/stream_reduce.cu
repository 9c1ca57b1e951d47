/*
 * device/stream_reduce.cu - the stream-ordered reductions and
 * reduce-scatters (gsd/stream.h):
 *   int gshmemx_TYPENAME_OP_reduce_on_stream(team, dest, source, nreduce, stream)
 *   int gshmemx_TYPENAME_OP_reducescatter_on_stream(team, dest, source, nreduce, stream)
 * for and/or/xor on GSHMEM_REDUCE_BIT_TYPES and min/max/sum/prod on
 * GSD_REDUCE_MINMAX_TYPES and GSD_REDUCE_FLOAT16_TYPES.  Each queues one kernel of one block on the
 * caller's stream that runs the device reduction (gsd/coll.h) as a block,
 * so it can be captured into a CUDA graph and nothing synchronizes the
 * host; 0 is returned once it is queued (the device routine's checks end
 * the job from the kernel).  A file of its own: these are the archive's
 * largest kernels, one per type and operator, and make compiles it beside
 * the others.
 */
#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime.h>

#include "cuda_archive.h"
#include "cuda_hooks.h" /* gshmemi_cuda_bind: the PE's GPU on the calling thread */
#include "gshmem_device.h"

#define STREAM_THREADS 512u

/* One kernel per (type, operator), the device reduction's one body: scatter
 * 0 reduces, 1 reduce-scatters. */
#define OS_REDUCE(T, N, OP)                                                                      \
    static __global__ void N##_##OP##_k(int scatter, gshmem_team_t team, T *dest, const T *src,  \
                                        size_t n)                                                \
    {                                                                                            \
        gsd_##N##_##OP##_reduce(scatter ? "gshmemx_" #N "_" #OP "_reducescatter_on_stream"       \
                                        : "gshmemx_" #N "_" #OP "_reduce_on_stream",             \
                                GSD_BLOCK, team, dest, src, n, scatter);                         \
    }                                                                                            \
    extern "C" int gshmemx_##N##_##OP##_reduce_on_stream(gshmem_team_t team, T *dest,            \
                                                         const T *source, size_t nreduce,        \
                                                         cudaStream_t stream)                    \
    {                                                                                            \
        gshmemi_cuda_bind();                                                                     \
        N##_##OP##_k<<<1, STREAM_THREADS, 0, stream>>>(0, team, dest, source, nreduce);          \
        gsd_cuda_check_launch("gshmemx_" #N "_" #OP "_reduce_on_stream");                        \
        return 0;                                                                                \
    }                                                                                            \
    extern "C" int gshmemx_##N##_##OP##_reducescatter_on_stream(gshmem_team_t team, T *dest,     \
                                                                const T *source, size_t nreduce, \
                                                                cudaStream_t stream)             \
    {                                                                                            \
        gshmemi_cuda_bind();                                                                     \
        N##_##OP##_k<<<1, STREAM_THREADS, 0, stream>>>(1, team, dest, source, nreduce);          \
        gsd_cuda_check_launch("gshmemx_" #N "_" #OP "_reducescatter_on_stream");                 \
        return 0;                                                                                \
    }
#define OS_REDUCE_BIT(T, N) OS_REDUCE(T, N, and) OS_REDUCE(T, N, or) OS_REDUCE(T, N, xor)
#define OS_REDUCE_ARITH(T, N) \
    OS_REDUCE(T, N, min) OS_REDUCE(T, N, max) OS_REDUCE(T, N, sum) OS_REDUCE(T, N, prod)
GSHMEM_REDUCE_BIT_TYPES(OS_REDUCE_BIT)
GSD_REDUCE_MINMAX_TYPES(OS_REDUCE_ARITH)
GSD_REDUCE_FLOAT16_TYPES(OS_REDUCE_ARITH)
#undef OS_REDUCE_ARITH
#undef OS_REDUCE_BIT
#undef OS_REDUCE
