/*
 * device/stream.cu - the stream-ordered point-to-point host API
 * (gsd/stream.h; the collectives are in stream_coll.cu): each routine
 * queues one small kernel on the caller's stream that calls the device
 * routine, so it runs after the work queued before it, before the work
 * queued after it, and it can be captured into a CUDA graph (a kernel
 * launch is a graph node; nothing here synchronizes the host, except g,
 * which must return the value).
 *
 * One generic kernel per family, on bytes and element sizes; the typed,
 * sized and mem names are stamped from the type table onto it:
 *   put/get[_nbi]  split among up to STREAM_MAX_BLOCKS blocks, each moving
 *                  one contiguous slice with the _block routine: node peers
 *                  are copied by many threads, and remote slices become one
 *                  proxy descriptor per block, spread over the channels
 *   iput/iget      one block: its threads share the elements (load/store),
 *                  or its lane 0 pushes one strided descriptor (proxy)
 *   put_signal     one block: the signal must follow all the data, which a
 *                  single group's routine orders
 *   p, g, waits, signal_op, quiet, flush: one thread
 */
#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime.h>

#include "cuda_archive.h"
#include "cuda_hooks.h" /* gshmemi_cuda_bind: the PE's GPU on the calling thread */
#include "gshmem_device.h"
#include "shmem.h" /* shmem_global_exit */

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

/* ---- put, get and their _nbi -------------------------------------------- */

enum { OS_PUT, OS_GET, OS_PUT_NBI, OS_GET_NBI };

/* Block b moves slice b. */
static __global__ void rma_k(int op, char *dest, const char *source, size_t nbytes, size_t slice,
                             int pe)
{
    size_t off = (size_t)blockIdx.x * slice;
    size_t len = nbytes - off < slice ? nbytes - off : slice;

    switch (op) {
    case OS_PUT: gshmemx_putmem_block(dest + off, source + off, len, pe); break;
    case OS_GET: gshmemx_getmem_block(dest + off, source + off, len, pe); break;
    case OS_PUT_NBI: gshmemx_putmem_nbi_block(dest + off, source + off, len, pe); break;
    default: gshmemx_getmem_nbi_block(dest + off, source + off, len, pe); break;
    }
}

static void rma_on_stream(int op, void *dest, const void *source, size_t nbytes, int pe,
                          cudaStream_t stream, const char *fn)
{
    size_t slice;
    unsigned blocks;

    if (nbytes == 0)
        return;
    blocks = split(nbytes, &slice);
    gshmemi_cuda_bind();
    rma_k<<<blocks, STREAM_THREADS, 0, stream>>>(op, (char *)dest, (const char *)source, nbytes,
                                                 slice, pe);
    gsd_cuda_check_launch(fn);
}

/* STEM: the name after gshmemx_ and before _on_stream; SZ bytes an element. */
#define OS_XFER(STEM, OP, T, SZ)                                                                  \
    extern "C" void gshmemx_##STEM##_on_stream(T *dest, const T *source, size_t nelems, int pe,   \
                                               cudaStream_t stream)                               \
    {                                                                                             \
        rma_on_stream(OP, dest, source, nelems *(SZ), pe, stream, "gshmemx_" #STEM "_on_stream"); \
    }
#define OS_XFERS(PUT, GET, T, SZ)         \
    OS_XFER(PUT, OS_PUT, T, SZ)           \
    OS_XFER(PUT##_nbi, OS_PUT_NBI, T, SZ) \
    OS_XFER(GET, OS_GET, T, SZ)           \
    OS_XFER(GET##_nbi, OS_GET_NBI, T, SZ)

/* ---- iput, iget ----------------------------------------------------------- */

static __global__ void strided_k(int get, void *dest, const void *source, ptrdiff_t dst,
                                 ptrdiff_t sst, size_t nelems, size_t size, int pe)
{
    if (get)
        gsd_iget("gshmemx_iget_on_stream", GSD_BLOCK, dest, source, dst, sst, nelems, size, pe);
    else
        gsd_iput("gshmemx_iput_on_stream", GSD_BLOCK, dest, source, dst, sst, nelems, size, pe);
}

#define OS_STRIDED(STEM, GET, T, SZ)                                                              \
    extern "C" void gshmemx_##STEM##_on_stream(T *dest, const T *source, ptrdiff_t dst,           \
                                               ptrdiff_t sst, size_t nelems, int pe,              \
                                               cudaStream_t stream)                               \
    {                                                                                             \
        if (nelems == 0)                                                                          \
            return;                                                                               \
        gshmemi_cuda_bind();                                                                      \
        strided_k<<<1, STREAM_THREADS, 0, stream>>>(GET, dest, source, dst, sst, nelems, SZ, pe); \
        gsd_cuda_check_launch("gshmemx_" #STEM "_on_stream");                                     \
    }

/* ---- put with signal ------------------------------------------------------ */

static __global__ void put_signal_k(int nbi, void *dest, const void *source, size_t nbytes,
                                    uint64_t *sig_addr, uint64_t signal, int sig_op, int pe)
{
    if (nbi)
        gshmemx_putmem_signal_nbi_block(dest, source, nbytes, sig_addr, signal, sig_op, pe);
    else
        gshmemx_putmem_signal_block(dest, source, nbytes, sig_addr, signal, sig_op, pe);
}

#define OS_PUT_SIGNAL(STEM, NBI, T, SZ)                                                            \
    extern "C" void gshmemx_##STEM##_on_stream(T *dest, const T *source, size_t nelems,            \
                                               uint64_t *sig_addr, uint64_t signal, int sig_op,    \
                                               int pe, cudaStream_t stream)                        \
    {                                                                                              \
        gshmemi_cuda_bind();                                                                       \
        put_signal_k<<<1, STREAM_THREADS, 0, stream>>>(NBI, dest, source, nelems * (SZ), sig_addr, \
                                                       signal, sig_op, pe);                        \
        gsd_cuda_check_launch("gshmemx_" #STEM "_on_stream");                                      \
    }
#define OS_PUT_SIGNALS(STEM, T, SZ) \
    OS_PUT_SIGNAL(STEM, 0, T, SZ) OS_PUT_SIGNAL(STEM##_nbi, 1, T, SZ)

/* ---- p and g --------------------------------------------------------------- */

/* g: the value travels through a word of device memory allocated in stream
 * order, is copied back in stream order, and the host waits for the
 * stream: the one routine here that synchronizes, as it must return the
 * value (NVSHMEM's copies into the caller's stack variable on the stream
 * and returns without waiting).  A stream being captured cannot be waited
 * for, so that is refused in one line. */
static void g_wait(cudaStream_t stream, const char *fn)
{
    cudaStreamCaptureStatus cap = cudaStreamCaptureStatusNone;
    cudaError_t e = cudaStreamIsCapturing(stream, &cap);

    if (e == cudaSuccess && cap != cudaStreamCaptureStatusNone) {
        gsd_cuda_report(fn, "the stream is being captured into a graph, and g returns a value, "
                            "so it must wait for the stream: use a get_on_stream into device "
                            "memory instead");
        gsd_cuda_exit_failed();
    }
}

static void g_finish(void *out, void *word, size_t size, cudaStream_t stream, const char *fn)
{
    cudaError_t e;

    gsd_cuda_check_launch(fn);
    e = cudaMemcpyAsync(out, word, size, cudaMemcpyDeviceToHost, stream);
    if (e == cudaSuccess)
        e = cudaFreeAsync(word, stream);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(stream);
    if (e != cudaSuccess) {
        gsd_cuda_report(fn, "%s", cudaGetErrorString(e));
        gsd_cuda_exit_failed();
    }
}

static void *g_word(size_t size, cudaStream_t stream, const char *fn)
{
    void *word = NULL;
    cudaError_t e;

    g_wait(stream, fn);
    gshmemi_cuda_bind();
    e = cudaMallocAsync(&word, size, stream);
    if (e != cudaSuccess) {
        gsd_cuda_report(fn, "no device memory for the value: %s", cudaGetErrorString(e));
        gsd_cuda_exit_failed();
    }
    return word;
}

/* ---- one thread ----------------------------------------------------------- */

static __global__ void signal_op_k(uint64_t *sig_addr, uint64_t signal, int sig_op, int pe)
{
    gshmemx_signal_op(sig_addr, signal, sig_op, pe);
}

static __global__ void quiet_k(void)
{
    gshmem_quiet();
}

static __global__ void flush_k(void)
{
    gshmemx_flush();
}

static __global__ void signal_wait_until_k(uint64_t *sig_addr, int cmp, uint64_t cmp_value)
{
    (void)gshmem_signal_wait_until(sig_addr, cmp, cmp_value);
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

extern "C" void gshmemx_flush_on_stream(cudaStream_t stream)
{
    gshmemi_cuda_bind();
    flush_k<<<1, 1, 0, stream>>>();
    gsd_cuda_check_launch("gshmemx_flush_on_stream");
}

extern "C" void gshmemx_signal_wait_until_on_stream(uint64_t *sig_addr, int cmp, uint64_t cmp_value,
                                                    cudaStream_t stream)
{
    gshmemi_cuda_bind();
    signal_wait_until_k<<<1, 1, 0, stream>>>(sig_addr, cmp, cmp_value);
    gsd_cuda_check_launch("gshmemx_signal_wait_until_on_stream");
}

/* ---- the families, from the type table ------------------------------------ */

#define OS_RMA_TYPED(T, N)                                                                         \
    OS_XFERS(N##_put, N##_get, T, sizeof(T))                                                       \
    OS_STRIDED(N##_iput, 0, T, sizeof(T))                                                          \
    OS_STRIDED(N##_iget, 1, T, sizeof(T))                                                          \
    OS_PUT_SIGNALS(N##_put_signal, T, sizeof(T))                                                   \
    static __global__ void N##_p_k(T *dest, T value, int pe)                                       \
    {                                                                                              \
        gshmem_##N##_p(dest, value, pe);                                                           \
    }                                                                                              \
    extern "C" void gshmemx_##N##_p_on_stream(T *dest, const T value, int pe, cudaStream_t stream) \
    {                                                                                              \
        gshmemi_cuda_bind();                                                                       \
        N##_p_k<<<1, 1, 0, stream>>>(dest, value, pe);                                             \
        gsd_cuda_check_launch("gshmemx_" #N "_p_on_stream");                                       \
    }                                                                                              \
    static __global__ void N##_g_k(T *out, const T *source, int pe)                                \
    {                                                                                              \
        *out = gshmem_##N##_g(source, pe);                                                         \
    }                                                                                              \
    extern "C" T gshmemx_##N##_g_on_stream(const T *source, int pe, cudaStream_t stream)           \
    {                                                                                              \
        const char *fn = "gshmemx_" #N "_g_on_stream";                                             \
        T *word = (T *)g_word(sizeof(T), stream, fn), v;                                           \
                                                                                                   \
        N##_g_k<<<1, 1, 0, stream>>>(word, source, pe);                                            \
        g_finish(&v, word, sizeof(T), stream, fn);                                                 \
        return v;                                                                                  \
    }
GSD_RMA_TYPES(OS_RMA_TYPED)
#undef OS_RMA_TYPED

#define OS_RMA_SIZED(BITS, BYTES)               \
    OS_XFERS(put##BITS, get##BITS, void, BYTES) \
    OS_STRIDED(iput##BITS, 0, void, BYTES)      \
    OS_STRIDED(iget##BITS, 1, void, BYTES)      \
    OS_PUT_SIGNALS(put##BITS##_signal, void, BYTES)
GSHMEM_SIZES(OS_RMA_SIZED)
#undef OS_RMA_SIZED

OS_XFERS(putmem, getmem, void, 1)
OS_PUT_SIGNALS(putmem_signal, void, 1)

#undef OS_PUT_SIGNALS
#undef OS_PUT_SIGNAL
#undef OS_STRIDED
#undef OS_XFERS
#undef OS_XFER

/* One kernel per point-to-point synchronization type and form. */
#define OS_WAIT(T, N)                                                                              \
    static __global__ void N##_wait_until_k(T *ivar, int cmp, T cmp_value)                         \
    {                                                                                              \
        gshmem_##N##_wait_until(ivar, cmp, cmp_value);                                             \
    }                                                                                              \
    extern "C" void gshmemx_##N##_wait_until_on_stream(T *ivar, int cmp, T cmp_value,              \
                                                       cudaStream_t stream)                        \
    {                                                                                              \
        gshmemi_cuda_bind();                                                                       \
        N##_wait_until_k<<<1, 1, 0, stream>>>(ivar, cmp, cmp_value);                               \
        gsd_cuda_check_launch("gshmemx_" #N "_wait_until_on_stream");                              \
    }                                                                                              \
    /* vec 0: one value for all (the _all form); 1: one each (_vector). */                         \
    static __global__ void N##_wait_until_all_k(T *ivars, size_t nelems, const int *status,        \
                                                int cmp, T cmp_value, const T *cmp_values,         \
                                                int vec)                                           \
    {                                                                                              \
        if (vec)                                                                                   \
            gshmem_##N##_wait_until_all_vector(ivars, nelems, status, cmp, cmp_values);            \
        else                                                                                       \
            gshmem_##N##_wait_until_all(ivars, nelems, status, cmp, cmp_value);                    \
    }                                                                                              \
    extern "C" void gshmemx_##N##_wait_until_all_on_stream(T *ivars, size_t nelems,                \
                                                           const int *status, int cmp,             \
                                                           T cmp_value, cudaStream_t stream)       \
    {                                                                                              \
        gshmemi_cuda_bind();                                                                       \
        N##_wait_until_all_k<<<1, 1, 0, stream>>>(ivars, nelems, status, cmp, cmp_value, NULL, 0); \
        gsd_cuda_check_launch("gshmemx_" #N "_wait_until_all_on_stream");                          \
    }                                                                                              \
    extern "C" void gshmemx_##N##_wait_until_all_vector_on_stream(T *ivars, size_t nelems,         \
                                                                  const int *status, int cmp,      \
                                                                  T *cmp_values,                   \
                                                                  cudaStream_t stream)             \
    {                                                                                              \
        gshmemi_cuda_bind();                                                                       \
        N##_wait_until_all_k<<<1, 1, 0, stream>>>(ivars, nelems, status, cmp, (T)0, cmp_values,    \
                                                  1);                                              \
        gsd_cuda_check_launch("gshmemx_" #N "_wait_until_all_vector_on_stream");                   \
    }
GSHMEM_P2P_TYPES(OS_WAIT)
#undef OS_WAIT
