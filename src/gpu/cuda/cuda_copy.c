/* src/gpu/cuda/cuda_copy.c - copies where either side may be GPU memory
 * (gsi_devmem_cuda.copy): the host RMA path's way into the device heap
 * (core/rma.h: a node peer's heap is a VMM mapping here, and the CPU
 * cannot load or store it), and reading device words back.
 *
 * cuMemcpyAsync with unified addressing takes host and device pointers
 * alike.  It runs on a private non-blocking stream and is waited for: a
 * copy on the legacy default stream would wait for the program's kernels,
 * and a kernel may be waiting for this very put.
 *
 * Below them, host memory a program registers (gshmemx_buffer_register)
 * made reachable by device code: a kernel's gshmem_putmem may name a
 * registered malloc'd buffer as its source, as it does on host lanes, so
 * on a GPU the buffer is page-locked and mapped for the device
 * (cuMemHostRegister; the GPU kit found the fault without it).  Memory
 * CUDA already knows (device memory, cudaMallocHost, a range the program
 * registered itself) is left as it is and never unregistered here.  The
 * device uses the host's own address: registration is refused where the
 * GPU cannot (CU_DEVICE_ATTRIBUTE_CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM).
 * The ranges pinned here are kept in a short list, so that unregistering
 * an address releases only what was pinned here, and finalize releases the
 * rest before the context goes. */
#include "config.h"
#include "gpu/cuda/cuda.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/log.h"
#include "core/pe.h"
#include "gpu/cuda/cuda_driver.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static CUcontext stream_ctx; /* the context `stream` belongs to */
static CUstream stream;

/* The copy stream of the current context (made on first use, and again
 * after a finalize and a new init gave the PE another context). */
static CUresult copy_stream(CUstream *out)
{
    CUresult r = CUDA_SUCCESS;

    pthread_mutex_lock(&lock);
    if (stream_ctx != gsi_cuda.ctx) {
        r = GSI_CU(cuStreamCreate)(&stream, CU_STREAM_NON_BLOCKING);
        if (r == CUDA_SUCCESS)
            stream_ctx = gsi_cuda.ctx;
    }
    *out = stream;
    pthread_mutex_unlock(&lock);
    return r;
}

void gsi_cuda_copy(void *dst, const void *src, size_t len)
{
    CUstream s = NULL;
    CUstreamCaptureMode mode;
    CUresult r;

    if (len == 0)
        return;
    gsi_cuda_bind_thread();
    mode = gsi_cuda_relaxed_begin(); /* a program's thread may be capturing */
    r = copy_stream(&s);
    if (r == CUDA_SUCCESS)
        r = GSI_CU(cuMemcpyAsync)((CUdeviceptr)(uintptr_t)dst, (CUdeviceptr)(uintptr_t)src, len, s);
    if (r == CUDA_SUCCESS)
        r = GSI_CU(cuStreamSynchronize)(s);
    gsi_cuda_relaxed_end(mode);
    if (r != CUDA_SUCCESS)
        gsi_fatal("gshmem", "copying %zu bytes from %p to %p (GPU memory): %s", len, src, dst,
                  gsi_cu_error(r));
}

/* ---- registered host buffers ------------------------------------------------ */

typedef struct pinned {
    void *addr;
    struct pinned *next;
} pinned_t;

static pthread_mutex_t pinned_lock = PTHREAD_MUTEX_INITIALIZER;
static pinned_t *pinned;

gsi_status_t gsi_cuda_host_register(void *addr, size_t len, char *err, size_t errlen)
{
    unsigned type = 0;
    int same = 0;
    CUdeviceptr dev = 0;
    CUstreamCaptureMode mode;
    CUresult r;
    pinned_t *p;

    if (!gsi_cuda.ctx)
        return GSI_OK;
    gsi_cuda_bind_thread();
    /* Known to CUDA already: nothing to do (and nothing to undo later). */
    if (GSI_CU(cuPointerGetAttribute)(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                      (CUdeviceptr)(uintptr_t)addr) == CUDA_SUCCESS)
        return GSI_OK;
    if (GSI_CU(cuDeviceGetAttribute)(&same,
                                     CU_DEVICE_ATTRIBUTE_CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM,
                                     gsi_cuda.dev) != CUDA_SUCCESS ||
        !same) {
        snprintf(err, errlen,
                 "this GPU cannot use host addresses of registered memory, so device code cannot "
                 "reach [%p, +%zu): register device memory (or cudaMallocHost memory) instead",
                 addr, len);
        return GSI_ERR_INVALID;
    }
    p = malloc(sizeof(*p));
    if (!p) {
        snprintf(err, errlen, "out of memory");
        return GSI_ERR_NOMEM;
    }
    mode = gsi_cuda_relaxed_begin();
    r = GSI_CU(cuMemHostRegister)(addr, len,
                                  CU_MEMHOSTREGISTER_PORTABLE | CU_MEMHOSTREGISTER_DEVICEMAP);
    if (r == CUDA_SUCCESS && (GSI_CU(cuMemHostGetDevicePointer)(&dev, addr, 0) != CUDA_SUCCESS ||
                              dev != (CUdeviceptr)(uintptr_t)addr)) {
        GSI_CU(cuMemHostUnregister)(addr);
        r = CUDA_ERROR_INVALID_VALUE;
    }
    gsi_cuda_relaxed_end(mode);
    if (r != CUDA_SUCCESS) {
        free(p);
        snprintf(err, errlen, "cuMemHostRegister of [%p, +%zu) for device code: %s", addr, len,
                 gsi_cu_error(r));
        return GSI_ERR_INVALID;
    }
    pthread_mutex_lock(&pinned_lock);
    p->addr = addr;
    p->next = pinned;
    pinned = p;
    pthread_mutex_unlock(&pinned_lock);
    return GSI_OK;
}

void gsi_cuda_host_unregister(void *addr)
{
    pinned_t **at, *p = NULL;

    pthread_mutex_lock(&pinned_lock);
    for (at = &pinned; *at; at = &(*at)->next)
        if ((*at)->addr == addr || addr == NULL) {
            p = *at;
            *at = p->next;
            break;
        }
    pthread_mutex_unlock(&pinned_lock);
    if (!p)
        return;
    gsi_cuda_bind_thread();
    GSI_CU(cuMemHostUnregister)(p->addr);
    free(p);
}

void gsi_cuda_host_unregister_all(void)
{
    while (__atomic_load_n(&pinned, __ATOMIC_ACQUIRE))
        gsi_cuda_host_unregister(NULL);
}
