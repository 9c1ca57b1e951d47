/*
 * device/state.cu - this PE's device state as GPU code reads it (the
 * __constant__ gsd_state_d of gsd/state.h), and its registration with
 * libgshmem.so, which fills it at gshmem init and whenever a team changes.
 * The design (a table of callbacks handed over by a constructor, and the
 * link anchor that keeps this member of the archive linked) is explained
 * in device/cuda_hooks.h.
 */
#include <cuda_runtime.h>

#include "cuda_archive.h"
#include "cuda_hooks.h"
#include "gsd/region.h"
#include "gsd/state.h"

__constant__ gsd_state_t gsd_state_d;
__device__ unsigned int gsd_any_next_d[GSD_ANY_LANES];
/* The RMA regions of device blocks (gsd/region.h); zero at load. */
__device__ gsd_region_slot_t gsd_region_slots_d[GSD_REGION_SLOTS];
__device__ unsigned long long gsd_region_gen_d;

/* gsd/cuda_host.h refers to it from every translation unit that includes
 * gshmem_device.h. */
extern "C" {
extern const int gsd_needs_libgshmem_device_a;
__attribute__((visibility("hidden"))) const int gsd_needs_libgshmem_device_a = 1;
}

/* The copy goes through a private non-blocking stream: a copy on the
 * legacy default stream would wait for every kernel of the blocking
 * streams, and a kernel that waits for something the host does after this
 * (a team created while it runs) would never let it finish.  The relaxed
 * capture mode lets it run while another stream of the thread is being
 * captured into a graph. */
static cudaStream_t publish_stream;
static int my_pe = -1;

int gsd_cuda_my_pe(void)
{
    return __atomic_load_n(&my_pe, __ATOMIC_RELAXED);
}

static int publish(const gsd_state_t *s)
{
    cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
    cudaError_t err = cudaSuccess;

    cudaThreadExchangeStreamCaptureMode(&mode);
    if (!publish_stream)
        err = cudaStreamCreateWithFlags(&publish_stream, cudaStreamNonBlocking);
    if (err == cudaSuccess)
        err = cudaMemcpyToSymbolAsync(gsd_state_d, s, sizeof(*s), 0, cudaMemcpyHostToDevice,
                                      publish_stream);
    if (err == cudaSuccess)
        err = cudaStreamSynchronize(publish_stream);
    cudaThreadExchangeStreamCaptureMode(&mode);
    if (err == cudaSuccess)
        __atomic_store_n(&my_pe, (int)s->my_pe, __ATOMIC_RELAXED);
    return (int)err;
}

static const char *error_string(int err)
{
    return cudaGetErrorString((cudaError_t)err);
}

static const gsd_cuda_hooks_t hooks = {
    GSD_CUDA_HOOKS_VERSION,
    (uint32_t)sizeof(gsd_state_t),
    publish,
    error_string,
};

/* Run when the program or the shared object holding this module is loaded
 * (libgshmem.so, a dependency, is initialized first) and unloaded.  They
 * only hand a pointer over: no CUDA call runs in a constructor. */
__attribute__((constructor)) static void gsd_cuda_module_load(void)
{
    gshmemi_cuda_register(&hooks);
}

__attribute__((destructor)) static void gsd_cuda_module_unload(void)
{
    gshmemi_cuda_unregister(&hooks);
}
