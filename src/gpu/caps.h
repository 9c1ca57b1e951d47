/* src/gpu/caps.h - can the path to each peer do, on the device heap, what
 * device code may ask of it?  Decided once at init, so that a job that
 * cannot work stops in shmem_init with one line instead of failing (or
 * silently losing atomicity) at its first signal.
 *
 *   - a peer reached through the proxy: the network transport must be able
 *     to put, get and update (atomics: also signals and barrier counters)
 *     memory of the device heap's kind (gst_caps_fn_t);
 *   - a node peer whose device heap is mapped for load/store on a GPU:
 *     the two GPUs must have native atomics between them
 *     (src/gpu/cuda/cuda_heap.c asks the driver, gsi_caps_p2p_atomics
 *     decides).
 *
 * The decisions are pure functions of their arguments (tests/unit/caps_*.c
 * give them fake capabilities and attributes); gsi_caps_check_device
 * gathers the real ones. */
#ifndef GSI_CAPS_H
#define GSI_CAPS_H

#include <stddef.h>

#include "gpu/devmem.h"
#include "net/transport.h"

/* What device code asks of the transport for a peer it reaches through the
 * proxy: puts and gets (RMA, the collectives' data) and atomics (atomics,
 * signals, the device barriers' counters).  A program may use any of them
 * at any time, so all are needed. */
#define GSI_CAPS_PROXY_NEEDS GST_CAP_ALL

typedef struct gsi_caps_job {
    gst_mem_type_t heap_mem; /* what the device heap is */
    int n_pes;
    const char *via_proxy; /* [n_pes] 1: reached through the proxy and the transport */
    const char *same_host; /* [n_pes] 1: on this host (so load/store could reach it) */
    const char *net_name;  /* the transport's name */
    unsigned net_caps;     /* its GST_CAP_* on heap_mem */
    const char *net_why;   /* its reason for what it lacks, or NULL */
} gsi_caps_job_t;

/* -1 when the transport can do what every proxy peer needs; else the first
 * proxy peer it cannot serve, and `line` says what lacks, why and what to
 * do (one sentence, without the "gshmem: PE n: fn: " prefix). */
int gsi_caps_decide(const gsi_caps_job_t *job, char *line, size_t len);

typedef enum gsi_p2p_atomics {
    GSI_P2P_ATOMICS_NATIVE,  /* device atomics on the mapping are atomic */
    GSI_P2P_ATOMICS_NONE,    /* the link has no native atomics (PCIe without them) */
    GSI_P2P_ATOMICS_UNKNOWN, /* the driver could not say (the peer's GPU is not visible here) */
} gsi_p2p_atomics_t;

/* For a node peer whose device heap is mapped here: same_device, its heap
 * is on this PE's GPU (atomics are always native); else query_ok, the
 * driver answered CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED from this
 * PE's GPU to the peer's, and native, its answer. */
gsi_p2p_atomics_t gsi_caps_p2p_atomics(int same_device, int query_ok, int native);

/* The line that refuses peer `pe` for `verdict` (not NATIVE); the GPUs by
 * PCI bus id. */
void gsi_caps_p2p_line(gsi_p2p_atomics_t verdict, int pe, const char *peer_gpu, const char *my_gpu,
                       char *line, size_t len);

/* At device init, once the proxy is up (src/gpu/device.c): ends the job
 * with one line when the transport cannot do on mem's device heap what a
 * proxy peer needs. */
void gsi_caps_check_device(const char *fn, const gsi_devmem_ops_t *mem);

#endif
