/*
 * gsd/kernel.h - writing a kernel once for both backends (tests, examples,
 * benchmarks):
 *
 *   GSHMEM_KERNEL(name, struct my_args, a) { ... uses a.x ... }
 *   GSHMEM_KERNEL_BOUNDED(name, struct my_args, a, 512) { ... }
 *   rc = GSHMEM_LAUNCH(name, blocks, threads, args);   (0: success)
 *
 * GPU: a __global__ kernel taking its argument struct by value, started by
 * gshmemx_collective_launch (all blocks resident, so device barriers across
 * blocks are legal) and waited for.  Host lanes: a C function run as
 * blocks x threads host threads of this PE by gshmemx_hostlane_launch, which
 * returns when all of them have.  Either way GSHMEM_LAUNCH returns once the
 * kernel is done.  GSHMEM_KERNEL_BOUNDED declares the most threads a block
 * of the kernel is launched with (__launch_bounds__ on the GPU), so the
 * compiler keeps its registers within what that many threads may use: a
 * kernel without it may need more than a large block has, and its launch is
 * then refused.
 *
 * Inside a kernel: gshmemx_thread_id(), gshmemx_block_threads(),
 * gshmemx_block_id(), gshmemx_grid_blocks(), gshmemx_syncthreads(),
 * gshmemx_syncwarp().
 * Between host and symmetric memory: gshmemx_memcpy_to_device /
 * gshmemx_memcpy_from_device (cudaMemcpy on the GPU, memcpy on host lanes);
 * on the GPU a failed copy ends the job with one line naming the routine
 * and cudaGetErrorString.
 */
#ifndef GSD_KERNEL_H
#define GSD_KERNEL_H

#include <stddef.h>
#include <string.h>

#include "arch.h"

GSD_FN unsigned gshmemx_thread_id(void)
{
    return gsd_thread_id();
}
GSD_FN unsigned gshmemx_block_threads(void)
{
    return gsd_block_threads();
}
GSD_FN unsigned gshmemx_block_id(void)
{
    return gsd_block_id();
}
GSD_FN unsigned gshmemx_grid_blocks(void)
{
    return gsd_grid_blocks();
}
GSD_FN void gshmemx_syncthreads(void)
{
    gsd_syncthreads();
}
GSD_FN void gshmemx_syncwarp(void)
{
    gsd_syncwarp();
}

#if defined(GSD_HOSTLANE)
GSD_BEGIN_C
typedef struct gshmemx_dim3 {
    unsigned x, y, z;
} gshmemx_dim3_t;

typedef void (*gshmemx_kernel_fn_t)(void **args);

/* Run fn(args) as grid x block host threads of this PE, all at once (so
 * they may wait for each other), and return when every one has returned.
 * 0, or -1 with one line on stderr when the threads cannot be started. */
int gshmemx_hostlane_launch(gshmemx_kernel_fn_t fn, gshmemx_dim3_t grid, gshmemx_dim3_t block,
                            void **args);
GSD_END_C

#define GSHMEM_KERNEL(name, type, arg)          \
    static void name##_gsd_body(type arg);      \
    static void name(void **gsd_args_)          \
    {                                           \
        name##_gsd_body(*(type *)gsd_args_[0]); \
    }                                           \
    static void name##_gsd_body(type arg)
#define GSHMEM_KERNEL_BOUNDED(name, type, arg, max_threads) GSHMEM_KERNEL(name, type, arg)

static inline int gsd_launch_(gshmemx_kernel_fn_t fn, unsigned blocks, unsigned threads, void *arg)
{
    void *args[1];
    gshmemx_dim3_t g, b;

    args[0] = arg;
    g.x = blocks, g.y = 1, g.z = 1;
    b.x = threads, b.y = 1, b.z = 1;
    return gshmemx_hostlane_launch(fn, g, b, args);
}
#define GSHMEM_LAUNCH(name, blocks, threads, arg) gsd_launch_(name, blocks, threads, &(arg))

static inline void gshmemx_memcpy_to_device(void *dst, const void *src, size_t n)
{
    memcpy(dst, src, n);
}
static inline void gshmemx_memcpy_from_device(void *dst, const void *src, size_t n)
{
    memcpy(dst, src, n);
}
#else
#include <stdio.h>

#include <cuda_runtime.h>
#include <shmem.h>

extern "C" int gshmemx_collective_launch(const void *func, dim3 grid, dim3 block, void **args,
                                         size_t shared_mem, cudaStream_t stream);
/* libgshmem: make this PE's GPU context current on the calling thread. */
extern "C" void gshmemi_cuda_bind(void);
/* libgshmem: the status device code's gshmem_global_exit asked for, or -1. */
extern "C" int gshmemi_exit_requested(void);

/* A kernel's error seen by the host: when it was the trap of device code's
 * gshmem_global_exit, the job ends with that status, not the caller's. */
static inline void gsd_exit_if_requested_(void)
{
    int status = gshmemi_exit_requested();

    if (status >= 0) {
        fflush(stdout);
        shmem_global_exit(status);
    }
}

#define GSHMEM_KERNEL(name, type, arg) __global__ void name(type arg)
#define GSHMEM_KERNEL_BOUNDED(name, type, arg, max_threads) \
    __global__ void __launch_bounds__(max_threads) name(type arg)

template <typename T>
static inline int gsd_launch_(void (*k)(T), unsigned blocks, unsigned threads, T arg)
{
    void *args[1] = {&arg};
    int rc = gshmemx_collective_launch((const void *)k, dim3(blocks), dim3(threads), args, 0, 0);

    if (rc == 0 && cudaStreamSynchronize(0) != cudaSuccess)
        rc = -1;
    if (rc != 0)
        gsd_exit_if_requested_();
    return rc;
}
#define GSHMEM_LAUNCH(name, blocks, threads, arg) gsd_launch_(name, blocks, threads, arg)

/* A failed copy ends the job with one line: the usual cause is a kernel
 * that trapped (a device-side fatal error), which leaves the context's
 * sticky error for every later call, so going on would only read garbage
 * or hang in the next barrier.  Compiled, not run (no GPU here). */
static inline void gsd_memcpy_check_(const char *fn, cudaError_t err)
{
    if (err == cudaSuccess)
        return;
    gsd_exit_if_requested_();
    fprintf(stderr, "gshmem: PE %d: %s: cudaMemcpy: %s\n", shmem_my_pe(), fn,
            cudaGetErrorString(err));
    shmem_global_exit(1);
}
/* Both bind the PE's context first: a copy from a thread of the program's
 * other than init's would go to the runtime's current device. */
/* To the device: cudaMemcpy from pageable memory returns once the bytes
 * are staged, before the DMA into device memory ends (the runtime's
 * documented behaviour), so the copy is waited for: a shmem_barrier_all
 * after it must not let a peer's kernel write there first and see its
 * words overwritten later (the GPU kit saw exactly that, 2 PEs on a GPU). */
static inline void gshmemx_memcpy_to_device(void *dst, const void *src, size_t n)
{
    cudaError_t err;

    gshmemi_cuda_bind();
    err = cudaMemcpy(dst, src, n, cudaMemcpyHostToDevice);
    if (err == cudaSuccess)
        err = cudaStreamSynchronize(0);
    gsd_memcpy_check_("gshmemx_memcpy_to_device", err);
}
static inline void gshmemx_memcpy_from_device(void *dst, const void *src, size_t n)
{
    gshmemi_cuda_bind();
    gsd_memcpy_check_("gshmemx_memcpy_from_device",
                      cudaMemcpy(dst, src, n, cudaMemcpyDeviceToHost));
}
#endif

#endif /* GSD_KERNEL_H */
