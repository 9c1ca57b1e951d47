/* src/gpu/cuda/cuda_copy.c - copies where either side may be GPU memory
 * (gsi_devmem_cuda.copy): the host RMA path's way into the device heap
 * (core/rma.h: a node peer's heap is a VMM mapping here, and the CPU
 * cannot load or store it), and reading device words back.
 *
 * cuMemcpyAsync with unified addressing takes host and device pointers
 * alike.  It runs on a private non-blocking stream and is waited for: a
 * copy on the legacy default stream would wait for the program's kernels,
 * and a kernel may be waiting for this very put.  Compiled, not run (no
 * GPU where it was written). */
#include "config.h"
#include "gpu/cuda/cuda.h"

#include <pthread.h>

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
