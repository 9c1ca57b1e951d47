/* src/net/ucx/ucx_state.h - what the files of the UCX transport share: its state,
 * the lock on its worker, and the waits.
 *
 *   ucx.c            init, finalize, the progress thread, the ops table
 *   ucx_state.c      the state, the waits, the exchange of blobs at init
 *   ucx_rma.c        the data path: put, get, atomics, fence, quiet
 *   ucx_extra.c      regions added after init (map_region)
 *   ucx_local.c      local buffers the program registers (mem_reg)
 *   ucx_am.c         small operations as active messages (ucx_am.h)
 *   ucx_rehome.c     regions moved onto UCX's shared memory (ucx_rehome.h)
 *   ucx_private.c    what UCX makes in this process kept to this user (ucx_private.h) */
#ifndef GST_UCX_STATE_H
#define GST_UCX_STATE_H

#include <pthread.h>
#include <sched.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <ucp/api/ucp.h>

#include "base/status.h"
#include "net/transport.h"

/* A region added after init (map_region): registered in chunks as it grows;
 * chunk c covers offsets [c ? end[c - 1] : 0, end[c]) on every PE. */
typedef struct gst_ucx_extra {
    int n_chunks, cap;
    size_t *end;         /* [cap] */
    ucp_mem_h *mem;      /* [cap] */
    ucp_rkey_h **rkey;   /* [cap][n_pes] NULL for peers reached otherwise */
    uint64_t *peer_base; /* [n_pes] */
    void *base;
} gst_ucx_extra_t;

/* A local buffer the program registered (ucx_local.c). */
typedef struct gst_ucx_local {
    uintptr_t addr;
    size_t len;
    ucp_mem_h mem;
} gst_ucx_local_t;

/* Staging slots for the _nbi calls' values: so many may be in flight
 * through UCX's RMA before one of them waits for a flush. */
#define GST_UCX_STAGE 1024

typedef struct gst_ucx {
    ucp_context_h context;
    ucp_worker_h worker;
    ucp_mem_h mem[GST_MAX_REGIONS];
    ucp_ep_h *ep;        /* [n_pes] NULL for peers reached otherwise */
    ucp_rkey_h *rkey;    /* [n_pes * n_regions] */
    uint64_t *peer_base; /* [n_pes * n_regions] where UCX reaches each PE's regions */
    char *moved;         /* [n_pes * n_regions] 1: that region is on UCX's shared memory */
    char **direct;       /* [n_pes * n_regions] that region mapped here (ucp_rkey_ptr) or NULL */
    char *am_peer;       /* [n_pes] 1: small operations go as our active messages */
    int am_on;           /* gst_ucx_am_init ran */
    /* An RMA operation went to an am_peer since the last worker flush: it
     * is not ordered with the active messages, so a fence must be a quiet
     * and an active message that reads must flush first. */
    int rma_to_am_peer;
    /* A fence found active messages in flight: RMA to a peer they went to
     * must wait for them (gst_ucx_am_flush) until the next quiet. */
    int am_fenced;
    /* UCX was given RMA or an atomic since the last worker flush: a quiet
     * must flush, a fence must fence (else neither calls UCX). */
    int rma_issued;
    /* The _nbi calls' values UCX reads after they return (ucx_rma.c);
     * slots [0, n_staged) are taken until the next worker flush. */
    uint64_t stage[GST_UCX_STAGE][2];
    int n_staged;
    int n_pes, n_regions;
    /* The worker runs in single-thread mode unless the program asked for
     * SHMEM_THREAD_MULTIPLE: a lock of our own, taken by the PE's calls and
     * only tried by the progress thread, is cheaper than UCX's, and the
     * thread never makes a PE that communicates wait for it. */
    int lock;
    pthread_t progress;
    int progress_running;
    /* Set by finalize, polled by the progress thread: __atomic loads and
     * stores only (a plain int, or a volatile one, shared by two threads is
     * a data race). */
    int stopping;
    int wake_fd[2];           /* writes wake the progress thread to stop */
    unsigned long progressed; /* worker progress calls made by the PE's own threads */
    int (*allgather)(const void *in, void *out, size_t len); /* for map_region, finalize */
    char *fin_gather; /* [n_pes] finalize's allgather lands here (allocated at init) */
    gst_ucx_extra_t extra[GST_MAX_REGIONS]; /* regions n_regions.. added after init */
    /* Registered local buffers, sorted by address, under the lock. */
    gst_ucx_local_t *local;
    int n_local, cap_local;
} gst_ucx_t;

extern gst_ucx_t gst_ucx;

static inline void gst_ucx_lock(void)
{
    while (__atomic_exchange_n(&gst_ucx.lock, 1, __ATOMIC_ACQUIRE))
        sched_yield();
}

static inline int gst_ucx_try_lock(void)
{
    return !__atomic_exchange_n(&gst_ucx.lock, 1, __ATOMIC_ACQUIRE);
}

static inline void gst_ucx_unlock(void)
{
    __atomic_store_n(&gst_ucx.lock, 0, __ATOMIC_RELEASE);
}

static inline gsi_status_t gst_ucx_failed(char *err, size_t errlen, const char *what,
                                          ucs_status_t status)
{
    snprintf(err, errlen, "UCX %s: %s", what, ucs_status_string(status));
    return GSI_ERR_SYSTEM;
}

/* A 4- or 8-byte value (an atomic's operand) as bits, 0 for NULL; and back. */
static inline uint64_t gst_ucx_bits_of(const void *v, size_t size)
{
    uint32_t v32;
    uint64_t v64;

    if (!v)
        return 0;
    if (size == 4) {
        memcpy(&v32, v, 4);
        return v32;
    }
    memcpy(&v64, v, 8);
    return v64;
}

static inline void gst_ucx_bits_to(void *v, uint64_t bits, size_t size)
{
    uint32_t v32 = (uint32_t)bits;

    if (size == 4)
        memcpy(v, &v32, 4);
    else
        memcpy(v, &bits, 8);
}

/* ucx_state.c: progress the worker from a thread of the PE, the lock held
 * (the progress thread counts these calls to stay out of its way). */
unsigned gst_ucx_progress_locked(void);
/* ucx_state.c: wait for a request to complete, or for *done (set by a
 * handler or a callback), progressing the worker meanwhile. */
gsi_status_t gst_ucx_wait_request(ucs_status_ptr_t req);
void gst_ucx_wait_done(const volatile int *done);

/* ucx_state.c: gather variable-length blobs through the bootstrap's
 * allgather (n_pes and allgather of args): sizes first, then blobs padded
 * to the largest, into *all (malloc'd), *stride bytes apart. */
gsi_status_t gst_ucx_gather_blobs(const gst_init_args_t *args, const void *mine, size_t len,
                                  char **all, size_t *stride);

/* ucx_extra.c */
void gst_ucx_extra_release(int region);
gsi_status_t gst_ucx_map_region(int region, void *base, size_t size, gst_mem_type_t mem_type,
                                char *err, size_t errlen);

/* ucx_local.c: registered local buffers; the memory handle of the one
 * holding [p, p + len), or NULL (the lock held). */
gsi_status_t gst_ucx_mem_reg(void *addr, size_t len, void **handle, char *err, size_t errlen);
void gst_ucx_mem_dereg(void *handle);
ucp_mem_h gst_ucx_local_mem(const void *p, size_t len);
void gst_ucx_local_release(void);

/* ucx_rma.c: the data-path ops. */
unsigned gst_ucx_progress(void);
gsi_status_t gst_ucx_put(int pe, int region, size_t offset, const void *src, size_t len);
gsi_status_t gst_ucx_get(void *dst, int pe, int region, size_t offset, size_t len);
gsi_status_t gst_ucx_amo(int pe, int region, size_t offset, gst_amo_op_t op, size_t size,
                         const void *operand, const void *compare, void *fetched);
gsi_status_t gst_ucx_fence(void);
gsi_status_t gst_ucx_quiet(void);
gsi_status_t gst_ucx_put_nbi(int pe, int region, size_t offset, const void *src, size_t len);
gsi_status_t gst_ucx_get_nbi(void *dst, int pe, int region, size_t offset, size_t len);
gsi_status_t gst_ucx_p_nbi(int pe, int region, size_t offset, uint64_t value, size_t len);
gsi_status_t gst_ucx_amo_nbi(int pe, int region, size_t offset, gst_amo_op_t op, size_t size,
                             uint64_t operand);
gsi_status_t gst_ucx_post(void);

#endif
