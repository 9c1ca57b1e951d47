/* src/net/verbs/verbs_state.h - what the files of the verbs transport share.
 *
 * The transport drives rdma-core itself (as NCCL's and NVSHMEM's IBRC do):
 *   verbs_dev.c   device, port and GID choice (GSHMEM_HCA), the probe for
 *                 GSHMEM_TRANSPORT=auto and the gshmem-info listing;
 *   verbs_qp.c    one reliable-connected QP per network peer, connected
 *                 through the bootstrap's allgather;
 *   verbs_mr.c    registration of the regions and their chunks, rkeys;
 *   verbs_dmabuf.c the GPU heap's dma-buf registration (compiled, not run);
 *   verbs_window.c one QP's send window: credits, selective signalling,
 *                 in-order retirement (plain logic, unit-tested);
 *   verbs_rma.c   posting, the one completion poller, waits, the bounce
 *                 slots, put, get, fence and quiet;
 *   verbs_amo.c   atomics;
 *   verbs_async.c the device's asynchronous events (a port down, a QP in
 *                 error): a thread that ends the job on them;
 *   verbs.c       init, finalize, ordering, caps and the ops table;
 *   verbs_state.c the state itself. */
#ifndef GST_VERBS_STATE_H
#define GST_VERBS_STATE_H

#include <infiniband/verbs.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "net/transport.h"
#include "net/verbs/verbs_window.h"

/* A region grows by map_region calls; each call's bytes are one chunk with
 * its own MR (keys of earlier chunks never change). */
#define GST_VERBS_MAX_CHUNKS 64

typedef struct gst_verbs_chunk {
    size_t start, len; /* [start, start + len) of the region's offsets */
    struct ibv_mr *mr; /* this PE's registration of those bytes */
    uint32_t *rkey;    /* [n_pes] every PE's rkey for them */
} gst_verbs_chunk_t;

typedef struct gst_verbs_region {
    char *base;          /* this PE's address of offset 0 */
    uint64_t *peer_base; /* [n_pes] */
    int n_chunks;
    gst_verbs_chunk_t chunk[GST_VERBS_MAX_CHUNKS];
} gst_verbs_region_t;

/* The device and port chosen (verbs_dev.c). */
typedef struct gst_verbs_port {
    char dev_name[64];
    int port;
    int gid_index; /* -1: no GRH (InfiniBand without a routed GID) */
    union ibv_gid gid;
    struct ibv_port_attr attr;
} gst_verbs_port_t;

/* What each PE tells every other at connection (verbs_qp.c). */
typedef struct gst_verbs_addr {
    uint8_t gid[16];
    uint16_t lid;
    uint8_t mtu;    /* enum ibv_mtu */
    uint8_t global; /* 1: address by GID (RoCE) */
    uint32_t psn;
} gst_verbs_addr_t;

/* Bytes of the registered bounce buffer that carries sources and
 * destinations outside every registered region: GST_VERBS_SLOTS slots, each
 * held by the WR that uses it until that WR is known complete. */
#define GST_VERBS_BOUNCE (1u << 20)
#define GST_VERBS_SLOTS 32
#define GST_VERBS_SLOT (GST_VERBS_BOUNCE / GST_VERBS_SLOTS)
/* After the slots: the blocking atomics' result word, then the word the
 * non-blocking fetch-adds write their (unused) old values to. */
#define GST_VERBS_AMO_RESULT GST_VERBS_BOUNCE
#define GST_VERBS_AMO_SCRATCH (GST_VERBS_BOUNCE + 8)
#define GST_VERBS_BOUNCE_MR (GST_VERBS_BOUNCE + 16)
/* WRs outstanding per QP at most (less where the device's CQ could not
 * hold a completion for each of every QP's: verbs_init). */
#define GST_VERBS_SQ_DEPTH 128

/* A bounce slot: held by WR seq of pe's QP until it completes (seq 0:
 * free). */
typedef struct gst_verbs_slot {
    int pe;
    uint64_t seq;
} gst_verbs_slot_t;

typedef struct gst_verbs {
    int my_pe, n_pes;
    int (*allgather)(const void *in, void *out, size_t len);
    struct ibv_context *ctx;
    struct ibv_pd *pd;
    struct ibv_cq *cq;
    struct ibv_device_attr dev_attr;
    gst_verbs_port_t port;
    struct ibv_qp **qp; /* [n_pes] NULL: not reached through verbs */
    /* 1: atomic_cap is IBV_ATOMIC_HCA, so every PE has a QP and every
     * atomic comes here (GST_CAP_AMO_ALL_PES) */
    int amo_all_pes;
    uint32_t max_inline; /* what the QPs were created with */
    uint32_t rd_atomic;  /* outstanding READs/atomics per QP */
    char *bounce;        /* GST_VERBS_BOUNCE bytes + 8 for atomics */
    struct ibv_mr *bounce_mr;
    unsigned sq_depth;       /* WRs outstanding per QP at most */
    int wait_timeout;        /* GSHMEM_WAIT_TIMEOUT, s (gst_verbs_wait) */
    gst_verbs_window_t *win; /* [n_pes] each QP's send window */
    char *net_peer;          /* [n_pes] 1: a network peer (not mapped) */
    gst_verbs_slot_t slot[GST_VERBS_SLOTS];
    unsigned next_slot;
    pthread_mutex_t lock; /* serializes the data path, polling included */
    gst_verbs_region_t region[GST_MAX_REGIONS];
} gst_verbs_t;

extern gst_verbs_t gst_verbs;

/* verbs_dev.c */
gsi_status_t gst_verbs_open_device(const char *hca, char *err, size_t errlen);

/* verbs_qp.c */
gsi_status_t gst_verbs_connect(const char *net_peer, char *err, size_t errlen);
void gst_verbs_destroy_qps(void);

/* verbs_mr.c */
gsi_status_t gst_verbs_add_chunk(int region, size_t start, size_t len, gst_mem_type_t mem_type,
                                 char *err, size_t errlen);
const gst_verbs_chunk_t *gst_verbs_find_chunk(int region, size_t offset);
struct ibv_mr *gst_verbs_local_mr(const void *addr, size_t len);
void gst_verbs_release_region(int region);

/* verbs_dmabuf.c: register CUDA memory [addr, addr + len). */
struct ibv_mr *gst_verbs_reg_cuda(struct ibv_pd *pd, void *addr, size_t len, int access, char *err,
                                  size_t errlen);
/* Whether CUDA memory can be registered at all, and if not why. */
int gst_verbs_cuda_registrable(char *why, size_t whylen);

/* verbs_rma.c; the first three with gst_verbs.lock held.  Post wr on pe's
 * QP once its window has room (signalled where the window or want_signal
 * says); returns the WR's number. */
uint64_t gst_verbs_post(int pe, struct ibv_send_wr *wr, int want_signal);
/* Wait until WR seq of pe's QP is known complete, polling the CQ. */
void gst_verbs_wait(int pe, uint64_t seq);
/* Wait until every WR posted on every QP is complete. */
void gst_verbs_quiet_locked(void);
gsi_status_t gst_verbs_put(int pe, int region, size_t offset, const void *src, size_t len);
gsi_status_t gst_verbs_get(void *dst, int pe, int region, size_t offset, size_t len);
gsi_status_t gst_verbs_put_nbi(int pe, int region, size_t offset, const void *src, size_t len);
gsi_status_t gst_verbs_get_nbi(void *dst, int pe, int region, size_t offset, size_t len);
gsi_status_t gst_verbs_p_nbi(int pe, int region, size_t offset, uint64_t value, size_t len);
gsi_status_t gst_verbs_fence(void);
gsi_status_t gst_verbs_quiet(void);

/* verbs_amo.c */
gsi_status_t gst_verbs_amo(int pe, int region, size_t offset, gst_amo_op_t op, size_t size,
                           const void *operand, const void *compare, void *fetched);
gsi_status_t gst_verbs_amo_nbi(int pe, int region, size_t offset, gst_amo_op_t op, size_t size,
                               uint64_t operand);

/* verbs_async.c: start and stop the thread that watches the device's
 * events. */
gsi_status_t gst_verbs_async_start(char *err, size_t errlen);
void gst_verbs_async_stop(void);

#endif
