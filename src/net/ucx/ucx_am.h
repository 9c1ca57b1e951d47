/* src/net/ucx/ucx_am.h - small puts, gets and atomics as UCX active messages that
 * the target applies itself.
 *
 * Where UCX has no RMA lane to a peer (TCP; any transport without remote
 * memory access to our regions), it emulates RMA with active messages of
 * its own, and the target acknowledges every put before it returns to the
 * program: an 8-byte put ping-pong over TCP took 11.3 us one way in
 * ucx_perftest's ucp_put_lat, against 5.1 us for an active-message ping-
 * pong (ucp_am_lat) on the same machine.  These messages carry no
 * acknowledgement: the target writes the bytes or applies the atomic, and
 * only a get, a fetching atomic or a flush is answered.  One peer's
 * messages are applied in the order they were sent (one AM lane, eager
 * only), so a fence between them costs nothing; gst_ucx_am_flush asks each
 * peer that was sent anything for a reply, which comes after all of it.
 *
 * Only the regions given at init (host memory) are served this way; the
 * caller keeps everything else, and anything larger than GST_UCX_AM_MAX,
 * on UCX's RMA.  Calls must be serialized by the caller (the transport's
 * lock), and so are the handlers: they run inside ucp_worker_progress. */
#ifndef GST_UCX_AM_H
#define GST_UCX_AM_H

#include <stddef.h>
#include <ucp/api/ucp.h>

#include "base/status.h"
#include "net/transport.h"

/* Bytes a put or get may carry as one message: within one eager fragment
 * of UCX's TCP transport (8 KiB), so it is never split. */
#define GST_UCX_AM_MAX 4096

/* Packed operations (the _nbi calls): a batch message carries up to
 * GST_UCX_AM_BATCH bytes of records, the same eager fragment as above;
 * a put of more than GST_UCX_AM_PACK_MAX bytes goes as a message of its
 * own, as little would be saved by copying it into a batch. */
#define GST_UCX_AM_BATCH 4096
#define GST_UCX_AM_PACK_MAX 1024

typedef struct gst_ucx_am_args {
    ucp_worker_h worker;
    ucp_ep_h *ep; /* [n_pes], NULL for peers reached otherwise */
    int my_pe, n_pes, n_regions;
    void *const *base;  /* [n_regions] this PE's regions, served to peers */
    const size_t *size; /* [n_regions] */
} gst_ucx_am_args_t;

/* 1 when UCX reaches the peer of ep with no RMA lane at all, so every put,
 * get and atomic to it would be UCX's own active-message emulation. */
int gst_ucx_am_wanted(ucp_ep_h ep);

/* Installs the handlers on args->worker (a PE serves peers' messages
 * whether or not it sends any); args->ep must outlive the finalize, the
 * other arrays are copied. */
gsi_status_t gst_ucx_am_init(const gst_ucx_am_args_t *args, char *err, size_t errlen);
void gst_ucx_am_finalize(void);

/* Operations on (pe, region, offset) of a region given at init; len at
 * most GST_UCX_AM_MAX.  A put returns once src may be reused. */
gsi_status_t gst_ucx_am_put(int pe, int region, size_t offset, const void *src, size_t len);
gsi_status_t gst_ucx_am_get(void *dst, int pe, int region, size_t offset, size_t len);
/* As gst_amo_fn_t. */
gsi_status_t gst_ucx_am_amo(int pe, int region, size_t offset, gst_amo_op_t op, size_t size,
                            const void *operand, const void *compare, void *fetched);

/* Non-blocking puts and non-fetching atomics (SET, FADD, FAND, FOR, FXOR),
 * packed into one message per run of consecutive calls to one peer; src
 * may be reused once a put returns.  The message leaves at gst_ucx_am_post,
 * at the next message of any other kind (a flush, a get, ...), when full,
 * or when the next call names another peer.  Applied in order with every
 * other message to that peer. */
gsi_status_t gst_ucx_am_put_nbi(int pe, int region, size_t offset, const void *src, size_t len);
gsi_status_t gst_ucx_am_amo_nbi(int pe, int region, size_t offset, gst_amo_op_t op, size_t size,
                                uint64_t operand);
gsi_status_t gst_ucx_am_post(void);
/* 1 when some calls are packed and not yet sent; without the lock, a hint
 * (a call another thread makes meanwhile is that thread's to post). */
int gst_ucx_am_holding(void);

/* What a target applies, also used on peers' memory that UCX maps here
 * (src/net/ucx/ucx_rma.c): a copy in which a waiter polling an aligned 4- or
 * 8-byte word never sees it half written; one atomic gst_amo_op_t of size
 * 4 or 8 at an aligned address, returning the old value where the
 * operation has one. */
void gst_ucx_store(void *at, const void *data, size_t len);
uint64_t gst_ucx_amo_apply(void *at, unsigned op, unsigned size, uint64_t v, uint64_t c);

/* 1 when messages to pe (any PE for -1) may not have been applied yet. */
int gst_ucx_am_unflushed(int pe);

/* Returns once every message sent to pe (every PE for -1) has been applied. */
gsi_status_t gst_ucx_am_flush(int pe);

#endif
