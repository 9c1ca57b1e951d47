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
 * Second, host memory a program registers (gshmemx_buffer_register)
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
 * rest before the context goes.
 *
 * Third, the same copies for the node transport (src/net/node/), with
 * atomics (compiled, not run until the GPU kit runs its stage). */
#include "config.h"
#include "gpu/cuda/cuda.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/log.h"
#include "core/pe.h"
#include "gpu/cuda/cuda_driver.h"
#include "net/node/node.h"

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

/* ---- the node transport's way into GPU memory --------------------------------- */

/* (src/net/node/node.h) With GSHMEM_TRANSPORT=node and P2P disabled, the
 * proxy threads reach each node peer's device heap through its VMM
 * mapping in this process (cuda_heap.c imports it) instead of device code
 * loading and storing it.
 *
 *   - copies: cuMemcpyAsync on a private non-blocking stream of this PE's
 *     context, waited for by the transport's quiet (sync);
 *   - atomics: a one-thread kernel (PTX below, loaded through the driver,
 *     so libgshmem.so still links no CUDA library) that runs the atomic on
 *     the mapping from this PE's GPU, on the same stream after the copies
 *     before it, and returns the old value.  A GPU atomic on the peer's
 *     heap is atomic with the peer's own GPU atomics on the word where the
 *     two GPUs have native atomics between them: the same GPU, or a link
 *     that says so (cuda_heap.c decides, as for P2P, and otherwise leaves
 *     the atomics out so the job is refused with one line).
 *
 * The copy and the kernel run beside the program's kernels: a program
 * whose kernel holds every SM while it waits for a proxied operation may
 * not leave this one-thread kernel room (the same holds for the driver's
 * own device-to-device copies).  Compiled, not run (no GPU where it was
 * written); tests/gpu/kit.sh runs it. */

/* gsi_node_amo(at, op, size, operand, compare, ret): *ret = the old value
 * of the 4- or 8-byte word at `at` after gst_amo_op_t `op` on it
 * (FETCH, SET, SWAP, CSWAP, FADD, FAND, FOR, FXOR: 0 to 7), system scope.
 * Checked with ptxas for sm_75 and sm_90. */
static const char amo_ptx[] =
    ".version 6.0\n"
    ".target sm_60\n"
    ".address_size 64\n"
    "\n"
    ".visible .entry gsi_node_amo(.param .u64 p_at, .param .u32 p_op, .param .u32 p_size,\n"
    "                             .param .u64 p_val, .param .u64 p_cmp, .param .u64 p_ret)\n"
    "{\n"
    "    .reg .pred %p<3>;\n"
    "    .reg .b32 %r<8>;\n"
    "    .reg .b64 %rd<8>;\n"
    "\n"
    "    ld.param.u64 %rd1, [p_at];\n"
    "    ld.param.u32 %r1, [p_op];\n"
    "    ld.param.u32 %r2, [p_size];\n"
    "    ld.param.u64 %rd2, [p_val];\n"
    "    ld.param.u64 %rd3, [p_cmp];\n"
    "    ld.param.u64 %rd4, [p_ret];\n"
    "    cvt.u32.u64 %r3, %rd2;\n"
    "    cvt.u32.u64 %r4, %rd3;\n"
    "    membar.sys;\n"
    "    setp.eq.u32 %p1, %r2, 4;\n"
    "    @%p1 bra W32;\n"
    "    setp.eq.u32 %p2, %r1, 0;\n"
    "    @%p2 bra F64;\n"
    "    setp.eq.u32 %p2, %r1, 1;\n"
    "    @%p2 bra X64;\n"
    "    setp.eq.u32 %p2, %r1, 2;\n"
    "    @%p2 bra X64;\n"
    "    setp.eq.u32 %p2, %r1, 3;\n"
    "    @%p2 bra C64;\n"
    "    setp.eq.u32 %p2, %r1, 4;\n"
    "    @%p2 bra A64;\n"
    "    setp.eq.u32 %p2, %r1, 5;\n"
    "    @%p2 bra N64;\n"
    "    setp.eq.u32 %p2, %r1, 6;\n"
    "    @%p2 bra O64;\n"
    "    atom.sys.global.xor.b64 %rd5, [%rd1], %rd2;\n"
    "    bra D64;\n"
    "F64:\n"
    "    atom.sys.global.add.u64 %rd5, [%rd1], 0;\n"
    "    bra D64;\n"
    "X64:\n"
    "    atom.sys.global.exch.b64 %rd5, [%rd1], %rd2;\n"
    "    bra D64;\n"
    "C64:\n"
    "    atom.sys.global.cas.b64 %rd5, [%rd1], %rd3, %rd2;\n"
    "    bra D64;\n"
    "A64:\n"
    "    atom.sys.global.add.u64 %rd5, [%rd1], %rd2;\n"
    "    bra D64;\n"
    "N64:\n"
    "    atom.sys.global.and.b64 %rd5, [%rd1], %rd2;\n"
    "    bra D64;\n"
    "O64:\n"
    "    atom.sys.global.or.b64 %rd5, [%rd1], %rd2;\n"
    "D64:\n"
    "    membar.sys;\n"
    "    st.global.u64 [%rd4], %rd5;\n"
    "    ret;\n"
    "W32:\n"
    "    setp.eq.u32 %p2, %r1, 0;\n"
    "    @%p2 bra F32;\n"
    "    setp.eq.u32 %p2, %r1, 1;\n"
    "    @%p2 bra X32;\n"
    "    setp.eq.u32 %p2, %r1, 2;\n"
    "    @%p2 bra X32;\n"
    "    setp.eq.u32 %p2, %r1, 3;\n"
    "    @%p2 bra C32;\n"
    "    setp.eq.u32 %p2, %r1, 4;\n"
    "    @%p2 bra A32;\n"
    "    setp.eq.u32 %p2, %r1, 5;\n"
    "    @%p2 bra N32;\n"
    "    setp.eq.u32 %p2, %r1, 6;\n"
    "    @%p2 bra O32;\n"
    "    atom.sys.global.xor.b32 %r5, [%rd1], %r3;\n"
    "    bra D32;\n"
    "F32:\n"
    "    atom.sys.global.add.u32 %r5, [%rd1], 0;\n"
    "    bra D32;\n"
    "X32:\n"
    "    atom.sys.global.exch.b32 %r5, [%rd1], %r3;\n"
    "    bra D32;\n"
    "C32:\n"
    "    atom.sys.global.cas.b32 %r5, [%rd1], %r4, %r3;\n"
    "    bra D32;\n"
    "A32:\n"
    "    atom.sys.global.add.u32 %r5, [%rd1], %r3;\n"
    "    bra D32;\n"
    "N32:\n"
    "    atom.sys.global.and.b32 %r5, [%rd1], %r3;\n"
    "    bra D32;\n"
    "O32:\n"
    "    atom.sys.global.or.b32 %r5, [%rd1], %r3;\n"
    "D32:\n"
    "    membar.sys;\n"
    "    cvt.u64.u32 %rd6, %r5;\n"
    "    st.global.u64 [%rd4], %rd6;\n"
    "    ret;\n"
    "}\n";

static struct {
    pthread_mutex_t lock;
    CUcontext ctx; /* the context of stream, module and ret */
    CUstream stream;
    CUmodule module;
    CUfunction amo;
    CUdeviceptr ret; /* 8 bytes: the old value */
    char no_amo[256];
} nd = {.lock = PTHREAD_MUTEX_INITIALIZER};

static gsi_status_t cu_status(const char *what, CUresult r)
{
    if (r == CUDA_SUCCESS)
        return GSI_OK;
    GSI_WARN("transport node: %s: %s", what, gsi_cu_error(r));
    return GSI_ERR_SYSTEM;
}

/* The stream of this PE's context, made on first use (under nd.lock). */
static CUresult stream_locked(CUstream *out)
{
    CUresult r = CUDA_SUCCESS;

    if (nd.ctx != gsi_cuda.ctx) {
        nd.module = NULL;
        nd.amo = NULL;
        nd.ret = 0;
        r = GSI_CU(cuStreamCreate)(&nd.stream, CU_STREAM_NON_BLOCKING);
        if (r != CUDA_SUCCESS)
            return r;
        nd.ctx = gsi_cuda.ctx;
    }
    *out = nd.stream;
    return r;
}

/* The calling thread bound, in the relaxed capture mode (*mode: what to
 * restore), and the stream: the start of a copy and of a sync. */
static CUresult stream_begin(CUstream *s, CUstreamCaptureMode *mode)
{
    CUresult r;

    gsi_cuda_bind_thread();
    *mode = gsi_cuda_relaxed_begin();
    pthread_mutex_lock(&nd.lock);
    r = stream_locked(s);
    pthread_mutex_unlock(&nd.lock);
    return r;
}

static gsi_status_t node_copy(void *dst, const void *src, size_t len)
{
    CUstreamCaptureMode mode;
    CUstream s = NULL;
    CUresult r;

    if (len == 0)
        return GSI_OK;
    r = stream_begin(&s, &mode);
    if (r == CUDA_SUCCESS)
        r = GSI_CU(cuMemcpyAsync)((CUdeviceptr)(uintptr_t)dst, (CUdeviceptr)(uintptr_t)src, len, s);
    gsi_cuda_relaxed_end(mode);
    return cu_status("cuMemcpyAsync", r);
}

static gsi_status_t node_sync(void)
{
    CUstreamCaptureMode mode;
    CUstream s = NULL;
    CUresult r = stream_begin(&s, &mode);

    if (r == CUDA_SUCCESS)
        r = GSI_CU(cuStreamSynchronize)(s);
    gsi_cuda_relaxed_end(mode);
    return cu_status("cuStreamSynchronize", r);
}

/* The kernel and its result word, loaded on first use (under nd.lock). */
static CUresult amo_kernel_locked(void)
{
    CUresult r;

    if (nd.amo)
        return CUDA_SUCCESS;
    r = GSI_CU(cuModuleLoadData)(&nd.module, amo_ptx);
    if (r == CUDA_SUCCESS)
        r = GSI_CU(cuModuleGetFunction)(&nd.amo, nd.module, "gsi_node_amo");
    if (r == CUDA_SUCCESS && !nd.ret)
        r = GSI_CU(cuMemAlloc)(&nd.ret, sizeof(uint64_t));
    if (r != CUDA_SUCCESS)
        nd.amo = NULL;
    return r;
}

static gsi_status_t node_amo(void *at, gst_amo_op_t op, size_t size, const void *operand,
                             const void *compare, void *fetched)
{
    CUdeviceptr addr = (CUdeviceptr)(uintptr_t)at, ret;
    uint32_t op32 = (uint32_t)op, size32 = (uint32_t)size;
    uint64_t value = 0, cmp = 0, old = 0;
    void *params[] = {&addr, &op32, &size32, &value, &cmp, &ret};
    CUstreamCaptureMode mode;
    CUstream s = NULL;
    const char *what = "creating its stream";
    CUresult r;

    if (operand)
        memcpy(&value, operand, size);
    if (compare)
        memcpy(&cmp, compare, size);
    gsi_cuda_bind_thread();
    mode = gsi_cuda_relaxed_begin();
    pthread_mutex_lock(&nd.lock);
    r = stream_locked(&s);
    if (r == CUDA_SUCCESS) {
        what = "loading its atomics kernel";
        r = amo_kernel_locked();
    }
    ret = nd.ret;
    if (r == CUDA_SUCCESS) {
        what = "cuLaunchKernel";
        r = GSI_CU(cuLaunchKernel)(nd.amo, 1, 1, 1, 1, 1, 1, 0, s, params, NULL);
    }
    if (r == CUDA_SUCCESS) {
        what = "reading an atomic's old value";
        r = GSI_CU(cuMemcpyAsync)((CUdeviceptr)(uintptr_t)&old, ret, sizeof(old), s);
    }
    if (r == CUDA_SUCCESS)
        r = GSI_CU(cuStreamSynchronize)(s);
    pthread_mutex_unlock(&nd.lock);
    gsi_cuda_relaxed_end(mode);
    if (r == CUDA_SUCCESS && fetched)
        memcpy(fetched, &old, size); /* the low-order bytes (little-endian hosts) */
    return cu_status(what, r);
}

static gst_node_dev_t table = {.copy = node_copy, .sync = node_sync};

/* The stream, the kernel and its result word are made here, at init,
 * before any kernel of the program runs: loading a module or allocating
 * while a kernel waits for the proxy could wait for that kernel. */
void gsi_cuda_node_start(const char *no_amo)
{
    int have_launch = GSI_CU(cuModuleLoadData) && GSI_CU(cuModuleGetFunction) &&
                      GSI_CU(cuLaunchKernel) && GSI_CU(cuModuleUnload);
    char why[200] = "";
    CUstream s;
    CUresult r;

    if (!no_amo && !have_launch)
        no_amo = "the CUDA driver lacks the module and launch functions";
    gsi_cuda_bind_thread();
    pthread_mutex_lock(&nd.lock);
    r = stream_locked(&s);
    if (r != CUDA_SUCCESS)
        snprintf(why, sizeof(why), "creating its stream failed: %s", gsi_cu_error(r));
    else if (!no_amo && (r = amo_kernel_locked()) != CUDA_SUCCESS)
        snprintf(why, sizeof(why), "loading its atomics kernel failed: %s", gsi_cu_error(r));
    pthread_mutex_unlock(&nd.lock);
    if (why[0] && !no_amo)
        no_amo = why;
    snprintf(nd.no_amo, sizeof(nd.no_amo), "%s", no_amo ? no_amo : "");
    table.amo = no_amo ? NULL : node_amo;
    table.no_amo = no_amo ? nd.no_amo : NULL;
    gst_node_set_dev(&table);
}

void gsi_cuda_node_stop(void)
{
    gst_node_set_dev(NULL);
    pthread_mutex_lock(&nd.lock);
    if (nd.ctx == gsi_cuda.ctx && nd.ctx) {
        gsi_cuda_bind_thread();
        GSI_CU(cuStreamSynchronize)(nd.stream);
        if (nd.ret)
            GSI_CU(cuMemFree)(nd.ret);
        if (nd.module)
            GSI_CU(cuModuleUnload)(nd.module);
        GSI_CU(cuStreamDestroy)(nd.stream);
    }
    nd.ctx = NULL;
    nd.stream = NULL;
    nd.module = NULL;
    nd.amo = NULL;
    nd.ret = 0;
    pthread_mutex_unlock(&nd.lock);
}
