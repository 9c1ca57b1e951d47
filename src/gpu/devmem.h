/* src/gpu/devmem.h - where the device API's memory comes from: host memory (host lanes, devmem_host.c)
 * or a GPU (src/gpu/cuda/cuda_devmem.c, built with CUDA).  Chosen once at init by src/gpu/device.c. */
#ifndef GSI_DEVMEM_H
#define GSI_DEVMEM_H

#include <stddef.h>
#include <stdint.h>

#include "gsd/state.h"
#include "base/status.h"
#include "net/transport.h"

typedef struct gsi_devmem_ops {
    const char *name;                     /* "host" or "cuda" */
    gst_mem_type_t heap_mem;              /* what the device heap is (src/gpu/caps.c) */
    gsi_status_t (*init)(const char *fn); /* after the core is up (heap, peers, net) */
    void (*fini)(void);
    /* Wait until every kernel and copy the program queued on this PE's
     * device has ended (finalize, before the state is zeroed); a failed
     * context ends the job with a line naming fn.  NULL: nothing can be
     * queued (host lanes run each call to its end). */
    void (*drain)(const char *fn);
    /* Zeroed memory both the host (proxy) and device code reach; *dev = device code's address. */
    void *(*alloc_mapped)(size_t size, void **dev);
    void (*free_mapped)(void *host);
    /* Zeroed memory only device code touches often (channel heads): device memory on a GPU. */
    void *(*alloc_device)(size_t size);
    void (*free_device)(void *dev);
    void (*copy_to_device)(void *dev, const void *host, size_t size);
    /* A 32-bit word that device code reads with acquire, stored with
     * release (the team table's n_pes, src/gpu/device.c); NULL: the
     * backend's copy_to_device, which completes before it returns, is
     * used instead. */
    void (*store32_release)(uint32_t *dev, uint32_t value);
    /* len bytes, either side host or device memory (the device heap's
     * node peers' mappings included); complete when it returns. */
    void (*copy)(void *dst, const void *src, size_t len);
    /* The device heap: collective, deterministic (same offsets on every PE). */
    void *(*heap_alloc)(const char *fn, size_t size, size_t align);
    gsi_status_t (*heap_free)(void *ptr);
    /* Make *s what device code reads as GSD_STATE. */
    gsi_status_t (*publish)(const gsd_state_t *s);
    /* Fill the heap fields of *s: base, size, region, peer_base (device-visible array). */
    gsi_status_t (*heap_info)(gsd_state_t *s);
    /* The device collectives' words: a zeroed gsd_sync_t inside the device
     * heap, at the same offset on every PE, kept until fini; NULL: none. */
    gsd_sync_t *(*sync_area)(const char *fn);
    /* Called by the proxy after the network wrote into device memory (a
     * proxied get) and before device code is told it is done: makes those
     * writes visible to device code.  A NIC's GPUDirect RDMA writes may
     * reach the GPU's memory after their completion reached the CPU, unless
     * the GPU says they are ordered.  NULL: nothing to do (host memory). */
    void (*flush_remote_writes)(void);
    /* A CUDA module (library = 0) or library (library = 1) that a program
     * loaded itself (cuModuleLoad, cuLibraryLoad, a cubin with its own
     * device link) gets the state too, now and at every publish, until
     * detached (attach = 0).  Host lanes have one state, libgshmem.so's,
     * that every shared object's lanes read, so nothing is copied there. */
    gsi_status_t (*module)(const char *fn, int library, void *handle, int attach);
    /* A buffer the program registers (gshmemx_buffer_register) made
     * reachable by device code at its host address (a GPU pins and maps
     * host memory it does not know yet); unregister(NULL): every one.
     * NULL: every address already is (host lanes). */
    gsi_status_t (*host_register)(void *addr, size_t len, char *err, size_t errlen);
    void (*host_unregister)(void *addr);
} gsi_devmem_ops_t;
extern const gsi_devmem_ops_t gsi_devmem_host;
#ifdef GSHMEM_HAVE_CUDA
extern const gsi_devmem_ops_t
    gsi_devmem_cuda;       /* usable only when a GPU and libgshmem_device are present */
int gsi_cuda_usable(void); /* C provides */
/* Make this PE's GPU context current on the calling thread (the proxy
 * threads: the transport copies device memory); a no-op on host lanes. */
void gsi_cuda_bind_thread(void);
/* A thread of the library's own (the proxy threads, the watcher): bind as
 * above and switch the thread to the relaxed stream-capture mode for good,
 * so that its driver calls never invalidate a capture that a program's
 * thread runs in the global mode (torch.cuda.graph's default). */
void gsi_cuda_bind_library_thread(void);
/* gsi_devmem_cuda's flush_remote_writes, for the proxy threads (which hold
 * no ops table); a no-op before init and on host lanes. */
void gsi_cuda_flush_remote_writes(void);
void gsi_cuda_copy(void *dst, const void *src, size_t len); /* gsi_devmem_cuda.copy */
#else
static inline void gsi_cuda_bind_thread(void)
{
}
static inline void gsi_cuda_bind_library_thread(void)
{
}
static inline void gsi_cuda_flush_remote_writes(void)
{
}
#endif

#endif
