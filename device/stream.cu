/*
 * device/stream.cu - the stream-ordered host API (gsd/stream.h): each
 * routine queues one small kernel on the caller's stream that calls the
 * device routine of the same name, so it runs after the work queued
 * before it, before the work queued after it, and it can be captured into
 * a CUDA graph (a kernel launch is a graph node; nothing here synchronizes
 * the host).
 *
 * putmem and getmem split the transfer among up to STREAM_MAX_BLOCKS
 * blocks, each moving one contiguous slice with the _block routine: node
 * peers are copied by many threads, and remote slices become one proxy
 * descriptor per block, spread over the channels.  Everything else is one
 * thread.
 */
#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime.h>

#include "cuda_archive.h"
#include "cuda_hooks.h" /* gshmemi_cuda_bind: the PE's GPU on the calling thread */
#include "gshmem_device.h"

#define STREAM_THREADS 512u
#define STREAM_MAX_BLOCKS 32u
#define STREAM_SLICE_MIN ((size_t)64 << 10) /* bytes a block moves at least */
#define STREAM_SLICE_ALIGN ((size_t)16)

/* Blocks for n bytes, and the slice each moves. */
static unsigned split(size_t n, size_t *slice)
{
    size_t blocks = n / STREAM_SLICE_MIN;

    if (blocks < 1)
        blocks = 1;
    if (blocks > STREAM_MAX_BLOCKS)
        blocks = STREAM_MAX_BLOCKS;
    *slice = (n + blocks - 1) / blocks;
    *slice = (*slice + STREAM_SLICE_ALIGN - 1) & ~(STREAM_SLICE_ALIGN - 1);
    return (unsigned)((n + *slice - 1) / *slice);
}

/* putmem (get 0) or getmem (get 1) on the stream: block b moves slice b. */
static __global__ void rma_k(int get, char *dest, const char *source, size_t nelems, size_t slice,
                             int pe)
{
    size_t off = (size_t)blockIdx.x * slice;
    size_t len = nelems - off < slice ? nelems - off : slice;

    if (get)
        gshmemx_getmem_block(dest + off, source + off, len, pe);
    else
        gshmemx_putmem_block(dest + off, source + off, len, pe);
}

static __global__ void signal_op_k(uint64_t *sig_addr, uint64_t signal, int sig_op, int pe)
{
    gshmemx_signal_op(sig_addr, signal, sig_op, pe);
}

static __global__ void quiet_k(void)
{
    gshmem_quiet();
}

static __global__ void barrier_all_k(void)
{
    gshmem_barrier_all();
}

static __global__ void sync_all_k(void)
{
    gshmem_sync_all();
}

static __global__ void signal_wait_until_k(uint64_t *sig_addr, int cmp, uint64_t cmp_value)
{
    (void)gshmem_signal_wait_until(sig_addr, cmp, cmp_value);
}

static void rma_on_stream(int get, void *dest, const void *source, size_t nelems, int pe,
                          cudaStream_t stream, const char *fn)
{
    size_t slice;
    unsigned blocks;

    if (nelems == 0)
        return;
    blocks = split(nelems, &slice);
    gshmemi_cuda_bind();
    rma_k<<<blocks, STREAM_THREADS, 0, stream>>>(get, (char *)dest, (const char *)source, nelems,
                                                 slice, pe);
    gsd_cuda_check_launch(fn);
}

extern "C" void gshmemx_putmem_on_stream(void *dest, const void *source, size_t nelems, int pe,
                                         cudaStream_t stream)
{
    rma_on_stream(0, dest, source, nelems, pe, stream, "gshmemx_putmem_on_stream");
}

extern "C" void gshmemx_getmem_on_stream(void *dest, const void *source, size_t nelems, int pe,
                                         cudaStream_t stream)
{
    rma_on_stream(1, dest, source, nelems, pe, stream, "gshmemx_getmem_on_stream");
}

extern "C" void gshmemx_signal_op_on_stream(uint64_t *sig_addr, uint64_t signal, int sig_op, int pe,
                                            cudaStream_t stream)
{
    gshmemi_cuda_bind();
    signal_op_k<<<1, 1, 0, stream>>>(sig_addr, signal, sig_op, pe);
    gsd_cuda_check_launch("gshmemx_signal_op_on_stream");
}

extern "C" void gshmemx_quiet_on_stream(cudaStream_t stream)
{
    gshmemi_cuda_bind();
    quiet_k<<<1, 1, 0, stream>>>();
    gsd_cuda_check_launch("gshmemx_quiet_on_stream");
}

extern "C" void gshmemx_barrier_all_on_stream(cudaStream_t stream)
{
    gshmemi_cuda_bind();
    barrier_all_k<<<1, 1, 0, stream>>>();
    gsd_cuda_check_launch("gshmemx_barrier_all_on_stream");
}

extern "C" void gshmemx_sync_all_on_stream(cudaStream_t stream)
{
    gshmemi_cuda_bind();
    sync_all_k<<<1, 1, 0, stream>>>();
    gsd_cuda_check_launch("gshmemx_sync_all_on_stream");
}

extern "C" void gshmemx_signal_wait_until_on_stream(uint64_t *sig_addr, int cmp, uint64_t cmp_value,
                                                    cudaStream_t stream)
{
    gshmemi_cuda_bind();
    signal_wait_until_k<<<1, 1, 0, stream>>>(sig_addr, cmp, cmp_value);
    gsd_cuda_check_launch("gshmemx_signal_wait_until_on_stream");
}

/* One kernel and one host routine per point-to-point synchronization type. */
#define WAIT_ON_STREAM(T, N)                                                          \
    static __global__ void N##_wait_until_k(T *ivar, int cmp, T cmp_value)            \
    {                                                                                 \
        gshmem_##N##_wait_until(ivar, cmp, cmp_value);                                \
    }                                                                                 \
    extern "C" void gshmemx_##N##_wait_until_on_stream(T *ivar, int cmp, T cmp_value, \
                                                       cudaStream_t stream)           \
    {                                                                                 \
        gshmemi_cuda_bind();                                                          \
        N##_wait_until_k<<<1, 1, 0, stream>>>(ivar, cmp, cmp_value);                  \
        gsd_cuda_check_launch("gshmemx_" #N "_wait_until_on_stream");                 \
    }
GSHMEM_P2P_TYPES(WAIT_ON_STREAM)
#undef WAIT_ON_STREAM
