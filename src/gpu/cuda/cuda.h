/* src/gpu/cuda/cuda.h - the GPU half of libgshmem (configure found CUDA:
 * GSHMEM_HAVE_CUDA).  src/gpu/devmem.h declares what src/gpu/device.c uses
 * (gsi_devmem_cuda, gsi_cuda_usable); this is the rest, for the core's
 * other threads and for the files of src/gpu/cuda among themselves.
 *
 *   cuda_driver.c  the driver API through dlopen (cuda_driver.h)
 *   cuda_devmem.c  gsi_devmem_cuda: device choice, context, mapped and
 *                  device memory, publishing the state (the archive's hooks)
 *   cuda_heap.c    the device heap: CUDA VMM, shared with node peers,
 *                  registered with the network, grown collectively
 *   cuda_ipc.c     file descriptors to node peers over a Unix socket
 *   cuda_copy.c    copies either side of which is GPU memory, host buffers
 *                  made reachable by device code, and the node transport's
 *                  copies and atomics on GPU memory */
#ifndef GSI_CUDA_H
#define GSI_CUDA_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/status.h"
#include "gpu/devmem.h"

#ifdef GSHMEM_HAVE_CUDA
#include <cuda.h>

/* The region index of the GPU device heap in descriptors and transport
 * calls: after GSI_REGION_HEAP and GSI_REGION_DATA (src/core/pe.h), below
 * GST_MAX_REGIONS. */
#define GSI_CUDA_REGION 2

/* This PE's GPU: its device and primary context (valid after init). */
typedef struct gsi_cuda_dev {
    CUdevice dev;
    CUcontext ctx;
    int ordinal;
    int vmm, posix_fd, rdma_vmm; /* device attributes the heap needs */
} gsi_cuda_dev_t;

extern gsi_cuda_dev_t gsi_cuda;

/* gsi_cuda_bind_thread (devmem.h): every thread of the library that
 * touches GPU memory through CUDA or the network calls it once; a no-op
 * before init and on host lanes. */

/* gsi_cuda_relaxed_begin / _end: around the library's copies on a program's
 * thread (as device/state.cu does), the relaxed stream-capture mode, so
 * that a capture the thread runs in the global mode is neither refused
 * nor invalidated by them; _end restores the thread's mode. */
CUstreamCaptureMode gsi_cuda_relaxed_begin(void);
void gsi_cuda_relaxed_end(CUstreamCaptureMode saved);

/* ---- cuda_devmem.c: memory (the devmem ops of the same names) ---------------- */

void *gsi_cuda_alloc_device(size_t size); /* zeroed; NULL on failure */
void gsi_cuda_free_device(void *dev);
void gsi_cuda_copy_to_device(void *dev, const void *host, size_t size); /* waits */
gsi_status_t gsi_cuda_zero(void *dev, size_t size);                     /* waits */

/* ---- cuda_copy.c: registered host buffers (the devmem ops) -------------------- */

gsi_status_t gsi_cuda_host_register(void *addr, size_t len, char *err, size_t errlen);
void gsi_cuda_host_unregister(void *addr); /* NULL: one of them, any */
void gsi_cuda_host_unregister_all(void);

/* ---- cuda_heap.c: the device heap ------------------------------------------ */

gsi_status_t gsi_cuda_heap_init(const char *fn);
void gsi_cuda_heap_fini(void);
void *gsi_cuda_heap_alloc(const char *fn, size_t size, size_t align);
gsi_status_t gsi_cuda_heap_free(void *ptr);
gsi_status_t gsi_cuda_heap_info(gsd_state_t *s);

/* ---- cuda_copy.c: the node transport's copies and atomics -------------------- */

/* Hand the node transport (src/net/node/node.h) this PE's copies and, when
 * no_amo is NULL, its GPU atomics on node peers' heaps; no_amo: why there
 * are none.  gsi_cuda_node_stop takes them back (before the peers' heaps
 * are unmapped). */
void gsi_cuda_node_start(const char *no_amo);
void gsi_cuda_node_stop(void);

/* ---- cuda_ipc.c: file descriptors to node peers ------------------------------ */

/* Open this PE's socket (abstract name from job and pe).  Collective over
 * the world: every PE calls it; when it returns GSI_OK, every PE's socket
 * exists, bound by that PE (on any PE's failure every PE fails). */
gsi_status_t gsi_cuda_ipc_open(const char *fn);
void gsi_cuda_ipc_close(void);

struct ucred;
/* May a message that says it is from world PE `from` be taken, given what
 * the kernel says of its sender (NULL: nothing)?  Only from that PE's
 * process (gsi_pe.pid) run by this user. */
int gsi_cuda_ipc_sender_ok(const struct ucred *cred, int from);

/* Send fd to each of the n peers (world PEs) and receive one from each
 * into in[i], all under `tag` (the same on every PE for one exchange).
 * The caller owns the received descriptors.  A peer that has not answered
 * within timeout_s seconds ends the exchange with GSI_ERR_TIMEOUT. */
gsi_status_t gsi_cuda_ipc_exchange(int fd, const int *peers, int n, uint64_t tag, int *in,
                                   int timeout_s);
#endif

#endif
