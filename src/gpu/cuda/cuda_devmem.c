/* src/gpu/cuda/cuda_devmem.c - the device API's memory on a GPU (gsi_devmem_cuda,
 * src/gpu/devmem.h): which GPU this PE uses and its context, mapped pinned host
 * memory for the proxy channels, device memory, and publishing the device
 * state through the hooks that libgshmem_device.a registers
 * (device/cuda_hooks.h explains why it is done that way).  The device heap
 * is cuda_heap.c.
 *
 * GPU choice: the device of the context current on the thread that calls
 * gshmem_init (the program chose it: cudaSetDevice), else the one placement
 * chose (src/topo: nearest the PE's cores, by PCI bus id), else, when
 * placement chose none or CUDA_VISIBLE_DEVICES hides it, the node-local rank
 * modulo the number of visible GPUs.  The context is the device's primary
 * context, the one the CUDA runtime uses, so kernels of the program and the
 * state written here meet. */
#define _GNU_SOURCE
#include "config.h"
#include "gpu/cuda/cuda.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bootstrap/bootstrap.h"
#include "device/cuda_hooks.h"
#include "base/log.h"
#include "core/pe.h"
#include "gpu/cuda/cuda_driver.h"
#include "gpu/watch_loop.h"
#include "topo/topo.h"

#define GSI_EXPORT __attribute__((visibility("default")))

/* Modules (program, shared objects) that registered their device state. */
#define MAX_MODULES 16

gsi_cuda_dev_t gsi_cuda;

static struct {
    pthread_mutex_t lock;
    const gsd_cuda_hooks_t *hooks[MAX_MODULES];
    int n;
    const gsd_cuda_hooks_t *mismatch; /* a module built against another gshmem */
    int live;                         /* the state below is published */
    gsd_state_t state;
    /* Modules the program loaded itself (gshmemx_cumodule_init,
     * gshmemx_culibrary_init): their gsd_state_d, written by the driver. */
    struct {
        void *handle;
        int library;
        CUdeviceptr state;
    } mods[MAX_MODULES];
    int n_mods;
} reg = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* The private stream of the library's copies: a non-blocking stream never
 * waits for the program's kernels (a running kernel may be waiting for
 * the host to finish what makes these copies, e.g. a team). */
static CUstream copy_stream;
static int own_primary; /* we retained the primary context */

/* ---- the archive's hooks ----------------------------------------------------- */

static int publish_one(const gsd_cuda_hooks_t *h, const gsd_state_t *s)
{
    int err = h->publish(s);

    if (err != 0)
        GSI_WARN("cannot write the device state of a CUDA module: %s", h->error_string(err));
    return err;
}

GSI_EXPORT void gshmemi_cuda_register(const gsd_cuda_hooks_t *hooks)
{
    pthread_mutex_lock(&reg.lock);
    if (hooks->version != GSD_CUDA_HOOKS_VERSION || hooks->state_size != sizeof(gsd_state_t)) {
        reg.mismatch = hooks;
    } else if (reg.n == MAX_MODULES) {
        GSI_WARN("more than %d CUDA modules use gshmem: the device API will not work in the "
                 "later ones",
                 MAX_MODULES);
    } else {
        reg.hooks[reg.n++] = hooks;
        /* A module loaded after gshmem_init (a Python extension) gets the
         * state at once. */
        if (reg.live) {
            gsi_cuda_bind_thread();
            publish_one(hooks, &reg.state);
        }
    }
    pthread_mutex_unlock(&reg.lock);
}

GSI_EXPORT void gshmemi_cuda_unregister(const gsd_cuda_hooks_t *hooks)
{
    pthread_mutex_lock(&reg.lock);
    for (int i = 0; i < reg.n; i++)
        if (reg.hooks[i] == hooks) {
            reg.hooks[i] = reg.hooks[--reg.n];
            break;
        }
    pthread_mutex_unlock(&reg.lock);
}

/* ---- is there a GPU? --------------------------------------------------------- */

/* 1 when this PE can run the device API on a GPU; else 0 and why. */
static int local_usable(char *why, size_t len)
{
    int n_hooks, count = 0;
    CUresult r;

    pthread_mutex_lock(&reg.lock);
    n_hooks = reg.n;
    pthread_mutex_unlock(&reg.lock);
    if (reg.mismatch)
        gsi_fatal("gshmem_init",
                  "this program's libgshmem_device.a (interface %u, state of "
                  "%u bytes) does not match libgshmem.so (interface %u, %zu bytes): build and "
                  "run with the same gshmem",
                  reg.mismatch->version, reg.mismatch->state_size, GSD_CUDA_HOOKS_VERSION,
                  sizeof(gsd_state_t));
    if (n_hooks == 0) {
        snprintf(why, len, "the program is not linked with libgshmem_device.a");
        return 0;
    }
    if (gsi_cu_load(why, len) != GSI_OK)
        return 0;
    r = GSI_CU(cuDeviceGetCount)(&count);
    if (r != CUDA_SUCCESS || count == 0) {
        snprintf(why, len, "no GPU is visible (%s; CUDA_VISIBLE_DEVICES=%s)",
                 r != CUDA_SUCCESS ? gsi_cu_error(r) : "0 devices",
                 getenv("CUDA_VISIBLE_DEVICES") ? getenv("CUDA_VISIBLE_DEVICES") : "(unset)");
        return 0;
    }
    return 1;
}

/* Collective on its first call (every PE calls it at the same point of
 * gshmem_init, src/gpu/device.c): PEs with and without a GPU cannot make one
 * job, so the answer is the same everywhere or the job ends. */
int gsi_cuda_usable(void)
{
    static int answer = -1;
    char why[256] = "";
    int32_t mine, *all;
    int with = 0, without = -1;

    if (answer >= 0)
        return answer;
    mine = local_usable(why, sizeof(why));
    all = calloc((size_t)gsi_pe.n_pes, sizeof(*all));
    if (!all)
        gsi_fatal("gshmem_init", "out of memory for %d PEs", gsi_pe.n_pes);
    if (gsi_pe.boot->allgather(&mine, all, sizeof(mine)) != 0)
        gsi_fatal("gshmem_init", "bootstrap %s: %s", gsi_pe.boot->name, gsb_error());
    for (int pe = 0; pe < gsi_pe.n_pes; pe++) {
        with += all[pe] != 0;
        if (!all[pe] && without < 0)
            without = pe;
    }
    free(all);
    if (with != 0 && with != gsi_pe.n_pes) {
        if (!mine)
            gsi_fatal("gshmem_init",
                      "other PEs run the device API on a GPU, this one cannot: "
                      "%s",
                      why);
        gsi_fatal("gshmem_init",
                  "PE %d cannot run the device API on a GPU (its own message "
                  "says why), this PE can: every PE must have one or none",
                  without);
    }
    answer = mine;
    if (!mine && strstr(why, "libgshmem_device.a") == NULL)
        GSI_WARN("this program was built for GPUs, but %s: the device API runs on host lanes", why);
    else if (!mine)
        GSI_DEBUG("device API on host lanes: %s", why);
    return answer;
}

/* ---- init -------------------------------------------------------------------- */

static uint64_t host_key(void)
{
    char text[256] = "";
    uint64_t h = 1469598103934665603ULL;
    FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");

    if (!f || !fgets(text, sizeof(text), f))
        gethostname(text, sizeof(text) - 1);
    if (f)
        fclose(f);
    for (const char *c = text; *c; c++)
        h = (h ^ (unsigned char)*c) * 1099511628211ULL;
    return h;
}

/* This PE's rank among the PEs of its host (PEs that GSHMEM_DISABLE_P2P
 * keeps apart still share the host's GPUs). */
static gsi_status_t node_rank(int *rank)
{
    uint64_t mine = host_key(), *all = calloc((size_t)gsi_pe.n_pes, sizeof(*all));

    if (!all)
        return GSI_ERR_NOMEM;
    if (gsi_pe.boot->allgather(&mine, all, sizeof(mine)) != 0) {
        free(all);
        return GSI_ERR_BOOTSTRAP;
    }
    *rank = 0;
    for (int pe = 0; pe < gsi_pe.my_pe; pe++)
        *rank += all[pe] == mine;
    free(all);
    return GSI_OK;
}

static int attribute(CUdevice_attribute a)
{
    int v = 0;

    return GSI_CU(cuDeviceGetAttribute)(&v, a, gsi_cuda.dev) == CUDA_SUCCESS ? v : 0;
}

static gsi_status_t choose_device(const char *fn)
{
    CUcontext current = NULL;
    int rank = 0, count = 0, placed = 0;
    gsi_status_t status;
    CUresult r;

    /* Collective: before any early return. */
    status = node_rank(&rank);
    if (status != GSI_OK)
        return status;
    if (GSI_CU(cuCtxGetCurrent)(&current) == CUDA_SUCCESS && current) {
        r = GSI_CU(cuCtxGetDevice)(&gsi_cuda.dev);
        if (r != CUDA_SUCCESS)
            goto err_cuda;
        gsi_cuda.ctx = current;
        own_primary = 0;
    } else {
        char bus[16];

        r = GSI_CU(cuDeviceGetCount)(&count);
        /* The GPU placement chose (src/topo), if CUDA_VISIBLE_DEVICES shows it. */
        if (r == CUDA_SUCCESS && gsi_topo_gpu_bus(bus, sizeof(bus)) &&
            GSI_CU(cuDeviceGetByPCIBusId)(&gsi_cuda.dev, bus) == CUDA_SUCCESS)
            placed = 1;
        else if (r == CUDA_SUCCESS)
            r = GSI_CU(cuDeviceGet)(&gsi_cuda.dev, rank % count);
        if (r == CUDA_SUCCESS)
            r = GSI_CU(cuDevicePrimaryCtxRetain)(&gsi_cuda.ctx, gsi_cuda.dev);
        if (r != CUDA_SUCCESS)
            goto err_cuda;
        own_primary = 1;
    }
    r = GSI_CU(cuCtxSetCurrent)(gsi_cuda.ctx);
    if (r != CUDA_SUCCESS)
        goto err_cuda;
    gsi_cuda.ordinal = (int)gsi_cuda.dev;
    gsi_cuda.vmm = attribute(CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED);
    gsi_cuda.posix_fd = attribute(CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED);
    gsi_cuda.rdma_vmm = attribute(CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WITH_CUDA_VMM_SUPPORTED);
    if (!attribute(CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY) ||
        !attribute(CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING)) {
        GSI_WARN("%s: GPU %d cannot map host memory with unified addressing", fn, gsi_cuda.ordinal);
        return GSI_ERR_UNSUPPORTED;
    }
    if (!gsi_cuda.vmm) {
        GSI_WARN("%s: GPU %d has no virtual memory management (cuMemCreate), which the device "
                 "heap needs",
                 fn, gsi_cuda.ordinal);
        return GSI_ERR_UNSUPPORTED;
    }
    GSI_DEBUG("GPU %d (node rank %d of the PEs, %s), %s context", gsi_cuda.ordinal, rank,
              !own_primary ? "the program set it"
              : placed     ? "placement"
                           : "rank modulo count",
              own_primary ? "primary" : "the program's");
    return GSI_OK;

err_cuda:
    GSI_WARN("%s: cannot set up a GPU (node rank %d, %d visible): %s", fn, rank, count,
             gsi_cu_error(r));
    return GSI_ERR_SYSTEM;
}

static void release_context(void)
{
    if (copy_stream)
        GSI_CU(cuStreamDestroy)(copy_stream);
    copy_stream = NULL;
    if (own_primary && gsi_cuda.ctx)
        GSI_CU(cuDevicePrimaryCtxRelease)(gsi_cuda.dev);
    own_primary = 0;
    memset(&gsi_cuda, 0, sizeof(gsi_cuda));
}

static gsi_status_t cuda_init(const char *fn)
{
    gsi_status_t status;
    CUresult r;

    status = choose_device(fn);
    if (status != GSI_OK)
        goto err_context;
    r = GSI_CU(cuStreamCreate)(&copy_stream, CU_STREAM_NON_BLOCKING);
    if (r != CUDA_SUCCESS) {
        GSI_WARN("%s: cuStreamCreate: %s", fn, gsi_cu_error(r));
        status = GSI_ERR_SYSTEM;
        goto err_context;
    }
    status = gsi_cuda_heap_init(fn);
    if (status != GSI_OK)
        goto err_context;
    return GSI_OK;

err_context:
    release_context();
    return status;
}

static void cuda_host_unregister(void *addr)
{
    if (addr)
        gsi_cuda_host_unregister(addr);
    else
        gsi_cuda_host_unregister_all();
}

static void cuda_fini(void)
{
    gsi_cuda_bind_thread();
    gsi_cuda_host_unregister_all(); /* while the context lives */
    gsi_cuda_heap_fini();
    pthread_mutex_lock(&reg.lock);
    reg.live = 0;
    pthread_mutex_unlock(&reg.lock);
    release_context();
}

/* Finalize zeroes the device state through a non-blocking stream
 * (publish), which does not wait for the program's kernels: a stream-
 * ordered routine queued just before shmem_finalize (Python's barrier_all
 * at the end of a session, on the H200) ran on a state of zeros, faulted,
 * and left its peers waiting for it.  So finalize first waits for every
 * kernel and copy of this context, while the proxy and the watcher still
 * serve them. */
static void cuda_drain(const char *fn)
{
    CUresult r;

    gsi_cuda_bind_thread();
    r = GSI_CU(cuCtxSynchronize)();
    if (r == CUDA_SUCCESS)
        return;
    if (gsi_cu_error_is_sticky(r)) {
        fflush(stdout); /* the synchronize flushed a trap's device printf */
        gsi_fatal(fn, "a kernel or copy of this PE failed before finalize: %s; ending the job",
                  gsi_cu_error(r));
    }
    GSI_WARN("%s: cannot wait for this PE's kernels (%s): finalizing without", fn, gsi_cu_error(r));
}

void gsi_cuda_bind_thread(void)
{
    CUcontext current = NULL;

    if (!gsi_cuda.ctx)
        return;
    if (GSI_CU(cuCtxGetCurrent)(&current) == CUDA_SUCCESS && current == gsi_cuda.ctx)
        return;
    GSI_CU(cuCtxSetCurrent)(gsi_cuda.ctx);
}

void gsi_cuda_bind_library_thread(void)
{
    CUstreamCaptureMode mode = CU_STREAM_CAPTURE_MODE_RELAXED;

    if (!gsi_cuda.ctx)
        return;
    gsi_cuda_bind_thread();
    GSI_CU(cuThreadExchangeStreamCaptureMode)(&mode);
}

CUstreamCaptureMode gsi_cuda_relaxed_begin(void)
{
    CUstreamCaptureMode mode = CU_STREAM_CAPTURE_MODE_RELAXED;

    GSI_CU(cuThreadExchangeStreamCaptureMode)(&mode);
    return mode;
}

void gsi_cuda_relaxed_end(CUstreamCaptureMode saved)
{
    GSI_CU(cuThreadExchangeStreamCaptureMode)(&saved);
}

/* ---- GPUDirect RDMA writes ----------------------------------------------------- */

/* Compiled, not run.  A NIC's writes into this GPU's memory (a proxied
 * get's bytes) may become visible to the GPU after the NIC reported them
 * complete to the CPU.  Where the GPU orders them for its own context
 * (GPU_DIRECT_RDMA_WRITES_ORDERING at least OWNER) the flush is a no-op and
 * is skipped; else the driver's flush, where the driver and GPU have it.
 * Asked once: -1 not yet, 0 nothing to do or nothing that can be done,
 * 1 flush. */
static int flush_mode = -1;

static int choose_flush(void)
{
    int options = attribute(CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_FLUSH_WRITES_OPTIONS);
    int ordering = attribute(CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WRITES_ORDERING);

    if (ordering >= CU_GPU_DIRECT_RDMA_WRITES_ORDERING_OWNER)
        return 0;
    if (GSI_CU(cuFlushGPUDirectRDMAWrites) &&
        (options & CU_FLUSH_GPU_DIRECT_RDMA_WRITES_OPTION_HOST))
        return 1;
    GSI_WARN("GPU %d does not order GPUDirect RDMA writes and %s: device code may see the bytes "
             "of a proxied get late",
             gsi_cuda.ordinal,
             GSI_CU(cuFlushGPUDirectRDMAWrites) ? "cannot flush them"
                                                : "this driver lacks cuFlushGPUDirectRDMAWrites");
    return 0;
}

void gsi_cuda_flush_remote_writes(void)
{
    int mode = __atomic_load_n(&flush_mode, __ATOMIC_RELAXED);
    CUresult r;

    if (!gsi_cuda.ctx)
        return;
    if (mode < 0) {
        int none = -1;

        mode = choose_flush();
        /* Proxy threads may race here; the answer is the same for all. */
        __atomic_compare_exchange_n(&flush_mode, &none, mode, 0, __ATOMIC_RELAXED,
                                    __ATOMIC_RELAXED);
    }
    if (!mode)
        return;
    /* The proxy threads have this PE's context current (gsi_cuda_bind_thread). */
    r = GSI_CU(cuFlushGPUDirectRDMAWrites)(CU_FLUSH_GPU_DIRECT_RDMA_WRITES_TARGET_CURRENT_CTX,
                                           CU_FLUSH_GPU_DIRECT_RDMA_WRITES_TO_OWNER);
    if (r != CUDA_SUCCESS)
        gsi_fatal("gshmem proxy", "cuFlushGPUDirectRDMAWrites on GPU %d: %s", gsi_cuda.ordinal,
                  gsi_cu_error(r));
}

/* The archive's launches and copies (device/launch.cu, device/stream.cu)
 * run on whatever thread the program calls them from, where the CUDA
 * runtime would otherwise use its own current device: they bind the PE's
 * context first.  The thread's current context is asked on every call (a
 * thread-local note of what was bound would miss a later cudaSetDevice to
 * another GPU on that thread, and the next launch would go there);
 * cuCtxGetCurrent reads a thread-local of the driver.  Compiled, not run
 * on a GPU; tests/unit/cuda_bind runs it against a fake driver. */
GSI_EXPORT void gshmemi_cuda_bind(void)
{
    CUcontext ctx = __atomic_load_n(&gsi_cuda.ctx, __ATOMIC_ACQUIRE), current = NULL;

    if (!ctx)
        return;
    if (GSI_CU(cuCtxGetCurrent)(&current) == CUDA_SUCCESS && current == ctx)
        return;
    GSI_CU(cuCtxSetCurrent)(ctx);
}

/* ---- memory ------------------------------------------------------------------ */

/* Pinned host memory, mapped into the GPU's address space: the proxy reads
 * what device code writes there.  PORTABLE: every context may use it. */
static void *cuda_alloc_mapped(size_t size, void **dev)
{
    void *host = NULL;
    CUdeviceptr d = 0;
    CUresult r;

    gsi_cuda_bind_thread();
    r = GSI_CU(cuMemHostAlloc)(&host, size ? size : 1,
                               CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE);
    if (r != CUDA_SUCCESS) {
        GSI_WARN("cuMemHostAlloc of %zu bytes: %s", size, gsi_cu_error(r));
        return NULL;
    }
    memset(host, 0, size);
    r = GSI_CU(cuMemHostGetDevicePointer)(&d, host, 0);
    if (r != CUDA_SUCCESS) {
        GSI_WARN("cuMemHostGetDevicePointer: %s", gsi_cu_error(r));
        GSI_CU(cuMemFreeHost)(host);
        return NULL;
    }
    *dev = (void *)(uintptr_t)d;
    return host;
}

static void cuda_free_mapped(void *host)
{
    if (!host)
        return;
    gsi_cuda_bind_thread();
    GSI_CU(cuMemFreeHost)(host);
}

void gsi_cuda_copy_to_device(void *dev, const void *host, size_t size)
{
    CUresult r;
    CUstreamCaptureMode mode;

    if (size == 0)
        return;
    gsi_cuda_bind_thread();
    mode = gsi_cuda_relaxed_begin();
    r = GSI_CU(cuMemcpyHtoDAsync)((CUdeviceptr)(uintptr_t)dev, host, size, copy_stream);
    if (r == CUDA_SUCCESS)
        r = GSI_CU(cuStreamSynchronize)(copy_stream);
    gsi_cuda_relaxed_end(mode);
    if (r != CUDA_SUCCESS)
        gsi_fatal("gshmem", "copying %zu bytes to GPU memory at %p: %s", size, dev,
                  gsi_cu_error(r));
}

/* Zero size bytes of device memory at dev, and wait. */
static CUresult zero_device(CUdeviceptr dev, size_t size)
{
    CUstreamCaptureMode mode = gsi_cuda_relaxed_begin();
    CUresult r = GSI_CU(cuMemsetD8Async)(dev, 0, size, copy_stream);

    if (r == CUDA_SUCCESS)
        r = GSI_CU(cuStreamSynchronize)(copy_stream);
    gsi_cuda_relaxed_end(mode);
    return r;
}

void *gsi_cuda_alloc_device(size_t size)
{
    CUdeviceptr d = 0;
    CUresult r;

    gsi_cuda_bind_thread();
    size = size ? size : 1;
    r = GSI_CU(cuMemAlloc)(&d, size);
    if (r == CUDA_SUCCESS) {
        r = zero_device(d, size);
        if (r != CUDA_SUCCESS)
            GSI_CU(cuMemFree)(d);
    }
    if (r != CUDA_SUCCESS) {
        GSI_WARN("cuMemAlloc of %zu bytes: %s", size, gsi_cu_error(r));
        return NULL;
    }
    return (void *)(uintptr_t)d;
}

void gsi_cuda_free_device(void *dev)
{
    if (!dev)
        return;
    gsi_cuda_bind_thread();
    GSI_CU(cuMemFree)((CUdeviceptr)(uintptr_t)dev);
}

gsi_status_t gsi_cuda_zero(void *dev, size_t size)
{
    CUresult r = zero_device((CUdeviceptr)(uintptr_t)dev, size);

    if (r != CUDA_SUCCESS) {
        GSI_WARN("zeroing %zu bytes of GPU memory: %s", size, gsi_cu_error(r));
        return GSI_ERR_SYSTEM;
    }
    return GSI_OK;
}

/* ---- modules the program loaded (cuModuleLoad, cuLibraryLoad) ----------------- */

/* Copy s into one module's gsd_state_d and wait (the private stream). */
static CUresult write_module_state(CUdeviceptr d, const gsd_state_t *s)
{
    CUstreamCaptureMode mode = gsi_cuda_relaxed_begin();
    CUresult r = GSI_CU(cuMemcpyHtoDAsync)(d, s, sizeof *s, copy_stream);

    if (r == CUDA_SUCCESS)
        r = GSI_CU(cuStreamSynchronize)(copy_stream);
    gsi_cuda_relaxed_end(mode);
    return r;
}

static gsi_status_t cuda_module(const char *fn, int library, void *handle, int attach)
{
    gsi_status_t status = GSI_OK;
    CUdeviceptr d = 0;
    size_t size = 0;
    CUresult r;
    int i;

    if (!attach) {
        pthread_mutex_lock(&reg.lock);
        for (i = 0; i < reg.n_mods; i++)
            if (reg.mods[i].handle == handle && reg.mods[i].library == library) {
                reg.mods[i] = reg.mods[--reg.n_mods];
                break;
            }
        pthread_mutex_unlock(&reg.lock);
        return GSI_OK;
    }
    if ((library ? (void *)GSI_CU(cuLibraryGetGlobal) : (void *)GSI_CU(cuModuleGetGlobal)) ==
        NULL) {
        GSI_WARN("%s: this CUDA driver has no %s", fn,
                 library ? "cuLibraryGetGlobal (CUDA 12.0)" : "cuModuleGetGlobal");
        return GSI_ERR_UNSUPPORTED;
    }
    gsi_cuda_bind_thread();
    r = library ? GSI_CU(cuLibraryGetGlobal)(&d, &size, (CUlibrary)handle, "gsd_state_d")
                : GSI_CU(cuModuleGetGlobal)(&d, &size, (CUmodule)handle, "gsd_state_d");
    if (r != CUDA_SUCCESS) {
        GSI_WARN("%s: the %s has no gsd_state_d (%s): build it with nvcc -rdc=true and "
                 "device-link it with libgshmem_device.a",
                 fn, library ? "library" : "module", gsi_cu_error(r));
        return GSI_ERR_INVALID;
    }
    if (size != sizeof(gsd_state_t)) {
        GSI_WARN("%s: its gsd_state_d has %zu bytes, this libgshmem.so's %zu: another gshmem "
                 "built it",
                 fn, size, sizeof(gsd_state_t));
        return GSI_ERR_MISMATCH;
    }
    pthread_mutex_lock(&reg.lock);
    if (reg.n_mods == MAX_MODULES) {
        status = GSI_ERR_NOMEM;
    } else {
        reg.mods[reg.n_mods].handle = handle, reg.mods[reg.n_mods].library = library;
        reg.mods[reg.n_mods++].state = d;
        if (reg.live && (r = write_module_state(d, &reg.state)) != CUDA_SUCCESS) {
            GSI_WARN("%s: cannot write the module's device state: %s", fn, gsi_cu_error(r));
            reg.n_mods--;
            status = GSI_ERR_SYSTEM;
        }
    }
    pthread_mutex_unlock(&reg.lock);
    return status;
}

/* ---- the state --------------------------------------------------------------- */

static gsi_status_t cuda_publish(const gsd_state_t *s)
{
    gsi_status_t status = GSI_OK;

    gsi_cuda_bind_thread();
    pthread_mutex_lock(&reg.lock);
    reg.state = *s;
    reg.live = s->n_pes > 0;
    for (int i = 0; i < reg.n; i++)
        if (publish_one(reg.hooks[i], s) != 0)
            status = GSI_ERR_SYSTEM;
    for (int i = 0; i < reg.n_mods; i++) {
        CUresult r = write_module_state(reg.mods[i].state, s);

        if (r != CUDA_SUCCESS) {
            GSI_WARN("cannot write the device state of a loaded CUDA module: %s", gsi_cu_error(r));
            status = GSI_ERR_SYSTEM;
        }
    }
    pthread_mutex_unlock(&reg.lock);
    return status;
}

/* Allocated first thing after init, so at the same offset on every PE. */
static gsd_sync_t *cuda_sync_area(const char *fn)
{
    gsd_sync_t *s = gsi_cuda_heap_alloc(fn, sizeof(gsd_sync_t), 64);

    if (s && gsi_cuda_zero(s, sizeof(*s)) != GSI_OK) {
        gsi_cuda_heap_free(s);
        return NULL;
    }
    return s;
}

const gsi_devmem_ops_t gsi_devmem_cuda = {
    .name = "cuda",
    .heap_mem = GST_MEM_CUDA,
    .init = cuda_init,
    .fini = cuda_fini,
    .drain = cuda_drain,
    .alloc_mapped = cuda_alloc_mapped,
    .free_mapped = cuda_free_mapped,
    .alloc_device = gsi_cuda_alloc_device,
    .free_device = gsi_cuda_free_device,
    .copy_to_device = gsi_cuda_copy_to_device,
    .copy = gsi_cuda_copy,
    .heap_alloc = gsi_cuda_heap_alloc,
    .heap_free = gsi_cuda_heap_free,
    .publish = cuda_publish,
    .heap_info = gsi_cuda_heap_info,
    .sync_area = cuda_sync_area,
    .flush_remote_writes = gsi_cuda_flush_remote_writes,
    .module = cuda_module,
    .host_register = gsi_cuda_host_register,
    .host_unregister = cuda_host_unregister,
};
