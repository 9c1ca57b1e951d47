/*
 * device/launch.cu - gshmemx_collective_launch: a cooperative launch, so
 * that every block of a kernel that uses device barriers across blocks is
 * resident at once (a block that waits for one that never got an SM would
 * wait forever); and the host-side reports of libgshmem_device.a.
 */
#include <stdarg.h>
#include <stdio.h>

#include <cuda_runtime.h>

#include "cuda_archive.h"
#include "cuda_hooks.h" /* gshmemi_cuda_bind: the PE's GPU on the calling thread */
#include "gsd/cuda_host.h"
#include "shmem.h"

void gsd_cuda_report(const char *fn, const char *fmt, ...)
{
    char line[512];
    va_list ap;
    int pe = gsd_cuda_my_pe(), up = 0;

    /* Device state never published (host lanes): ask the library. */
    if (pe < 0) {
        shmem_query_initialized(&up);
        if (up)
            pe = shmem_my_pe();
    }
    va_start(ap, fmt);
    vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    if (pe >= 0)
        fprintf(stderr, "gshmem: PE %d: %s: %s\n", pe, fn, line);
    else
        fprintf(stderr, "gshmem: %s: %s\n", fn, line);
}

void gsd_cuda_check_launch(const char *fn)
{
    cudaError_t err = cudaGetLastError();

    if (err == cudaSuccess)
        return;
    gsd_cuda_report(fn, "cannot launch its kernel: %s", cudaGetErrorString(err));
    gsd_cuda_exit_failed();
}

void gsd_cuda_exit_failed(void)
{
    int status = gshmemi_exit_requested();

    fflush(stdout);
    shmem_global_exit(status >= 0 ? status : 1);
    __builtin_unreachable();
}

static unsigned threads_of(dim3 d)
{
    return d.x * d.y * d.z;
}

extern "C" int gshmemx_collective_launch_query_gridsize(const void *func, dim3 block, void **args,
                                                        size_t shared_mem, int *gridsize)
{
    int dev, sms = 0, per_sm = 0;
    cudaError_t err;

    (void)args;
    gshmemi_cuda_bind(); /* the PE's GPU, whichever thread calls */
    err = cudaGetDevice(&dev);
    if (err == cudaSuccess)
        err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (err == cudaSuccess)
        err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, func, (int)threads_of(block),
                                                            shared_mem);
    if (err != cudaSuccess)
        return (int)err;
    *gridsize = per_sm * sms;
    return 0;
}

/* The grid of a cooperative launch of func: *grid as given, or as many
 * blocks as can be resident when it has 0; 0, or the CUDA error after one
 * line. */
static cudaError_t coop_grid(const char *fn, const void *func, dim3 *grid, dim3 block,
                             size_t shared_mem)
{
    unsigned long long blocks = (unsigned long long)grid->x * grid->y * grid->z;
    int dev, coop = 0, most = 0;
    cudaError_t err;

    err = cudaGetDevice(&dev);
    if (err == cudaSuccess)
        err = cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev);
    if (err == cudaSuccess && !coop) {
        gsd_cuda_report(fn, "GPU %d cannot launch cooperative kernels", dev);
        return cudaErrorNotSupported;
    }
    if (err == cudaSuccess)
        err = (cudaError_t)gshmemx_collective_launch_query_gridsize(func, block, NULL, shared_mem,
                                                                    &most);
    if (err != cudaSuccess) {
        gsd_cuda_report(fn, "cannot size the grid: %s", cudaGetErrorString(err));
        return err;
    }
    if (most == 0) {
        gsd_cuda_report(fn,
                        "a block of %u threads with %zu bytes of dynamic shared memory does "
                        "not fit on one SM of GPU %d",
                        threads_of(block), shared_mem, dev);
        return cudaErrorCooperativeLaunchTooLarge;
    }
    if (blocks == 0) {
        *grid = dim3((unsigned)most, 1, 1);
    } else if (blocks > (unsigned long long)most) {
        gsd_cuda_report(fn,
                        "a grid of %llu blocks of %u threads cannot be resident at once on "
                        "GPU %d: at most %d fit (a grid of 0 blocks takes that many)",
                        blocks, threads_of(block), dev, most);
        return cudaErrorCooperativeLaunchTooLarge;
    }
    return cudaSuccess;
}

extern "C" int gshmemx_collective_launch(const void *func, dim3 grid, dim3 block, void **args,
                                         size_t shared_mem, cudaStream_t stream)
{
    static const char fn[] = "gshmemx_collective_launch";
    cudaError_t err;

    gshmemi_cuda_bind(); /* the PE's GPU, whichever thread launches */
    err = coop_grid(fn, func, &grid, block, shared_mem);
    if (err != cudaSuccess)
        return (int)err;
    err = cudaLaunchCooperativeKernel(func, grid, block, args, shared_mem, stream);
    if (err != cudaSuccess)
        gsd_cuda_report(fn, "cudaLaunchCooperativeKernel: %s", cudaGetErrorString(err));
    return (int)err;
}

/* NVSHMEM 3.8's form: the caller's cudaLaunchConfig_t (grid, block,
 * dynamic shared memory, stream, attributes) with the cooperative
 * attribute added unless the caller set it (the caller's value wins, as in
 * NVSHMEM); a cooperative grid is sized and checked as above.  The kernel
 * goes on the caller's stream (NVSHMEM uses a stream of its own fenced by
 * the caller's: the same order for the caller). */
#define COOP_MAX_ATTRS 16

extern "C" int gshmemx_collective_launch_attr(const gshmemx_collective_launch_attr_t *attr,
                                              const void *func, void **args)
{
    static const char fn[] = "gshmemx_collective_launch_attr";
    cudaLaunchAttribute attrs[COOP_MAX_ATTRS];
    cudaLaunchConfig_t cfg;
    unsigned i, n = 0;
    int coop = -1;
    cudaError_t err;

    if (!attr || !func) {
        gsd_cuda_report(fn, "%s is NULL", !attr ? "attr" : "func");
        return (int)cudaErrorInvalidValue;
    }
    cfg = attr->cuda_config;
    if (cfg.numAttrs >= COOP_MAX_ATTRS || (cfg.numAttrs > 0 && !cfg.attrs)) {
        gsd_cuda_report(fn, "cuda_config has %u attributes (at most %d, not NULL)", cfg.numAttrs,
                        COOP_MAX_ATTRS - 1);
        return (int)cudaErrorInvalidValue;
    }
    for (i = 0; i < cfg.numAttrs; i++) {
        attrs[n++] = cfg.attrs[i];
        if (cfg.attrs[i].id == cudaLaunchAttributeCooperative)
            coop = cfg.attrs[i].val.cooperative != 0;
    }
    if (coop < 0) {
        attrs[n].id = cudaLaunchAttributeCooperative;
        attrs[n].val.cooperative = 1;
        n++;
        coop = 1;
    }
    cfg.attrs = attrs;
    cfg.numAttrs = n;
    gshmemi_cuda_bind();
    if (coop) {
        err = coop_grid(fn, func, &cfg.gridDim, cfg.blockDim, cfg.dynamicSmemBytes);
        if (err != cudaSuccess)
            return (int)err;
    }
    err = cudaLaunchKernelExC(&cfg, func, args);
    if (err != cudaSuccess)
        gsd_cuda_report(fn, "cudaLaunchKernelExC: %s", cudaGetErrorString(err));
    return (int)err;
}
