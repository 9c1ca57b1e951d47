/*
 * gsd/cuda_host.h - host-side routines of the GPU backend, defined in
 * libgshmem_device.a (device/launch.cu): cooperative kernel launch.  Only
 * CUDA translation units include it (gsd/stream.h does, under nvcc).
 *
 * It also makes every CUDA translation unit that includes gshmem_device.h
 * refer to gsd_needs_libgshmem_device_a, a symbol of the archive's member
 * device/state.cu, so that the member (the __constant__ device state and
 * its registration with libgshmem.so) is always linked: a program built
 * without the archive fails to link, naming the archive, instead of
 * running with a device state nobody fills (device/cuda_hooks.h).
 */
#ifndef GSD_CUDA_HOST_H
#define GSD_CUDA_HOST_H

#if !defined(__CUDACC__)
#error "gsd/cuda_host.h is for CUDA translation units (nvcc)"
#endif

#include <stddef.h>

#include <cuda_runtime.h>

extern "C" {
extern const int gsd_needs_libgshmem_device_a;

/* Launch a kernel that may use device barriers across blocks
 * (gshmem_barrier_all, device collectives): a cooperative launch, so all
 * its blocks are resident at once.  func is the __global__ function, args
 * its argument pointers (as for cudaLaunchKernel).  A grid of 0 blocks
 * (grid.x * grid.y * grid.z == 0) means as many blocks as can be resident
 * (gshmemx_collective_launch_query_gridsize).  0 on success; otherwise
 * the CUDA error (a grid that cannot be resident is cudaErrorCooperative-
 * LaunchTooLarge), after one line "gshmem: PE <n>:
 * gshmemx_collective_launch: ..." on stderr. */
int gshmemx_collective_launch(const void *func, dim3 grid, dim3 block, void **args,
                              size_t shared_mem, cudaStream_t stream);

/* NVSHMEM 3.8's form: the launch as the caller's cudaLaunchConfig_t
 * describes it (grid, block, dynamic shared memory, stream, attributes),
 * cooperative unless an attribute of the caller's says otherwise; the
 * grid as above (0 blocks: as many as can be resident).  0, or the CUDA
 * error after one line. */
typedef struct gshmemx_collective_launch_attr {
    cudaLaunchConfig_t cuda_config;
} gshmemx_collective_launch_attr_t;
int gshmemx_collective_launch_attr(const gshmemx_collective_launch_attr_t *attr, const void *func,
                                   void **args);

/* The most blocks of `block` threads and shared_mem bytes of dynamic
 * shared memory that can be resident at once on this PE's GPU, in
 * *gridsize.  0, or a CUDA error. */
int gshmemx_collective_launch_query_gridsize(const void *func, dim3 block, void **args,
                                             size_t shared_mem, int *gridsize);
}

/* One reference per translation unit keeps device/state.cu linked.  Only
 * with relocatable device code (nvcc -rdc=true, __CUDACC_RDC__): a unit
 * compiled without it takes no part in the device link, so it may include
 * gshmem.h for the host API without needing the archive (its device code
 * could not reach the archive's gsd_state_d anyway). */
#if defined(__CUDACC_RDC__)
static __attribute__((used)) const int *const gsd_link_anchor_ = &gsd_needs_libgshmem_device_a;
#endif

#endif /* GSD_CUDA_HOST_H */
