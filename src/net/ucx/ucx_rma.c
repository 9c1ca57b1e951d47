/* src/net/ucx/ucx_rma.c - the UCX transport's data path: put, get, atomics, fence
 * and quiet (src/net/ucx/ucx_state.h).
 *
 * RMA is ucp_put_nbx/ucp_get_nbx, except to peers UCX reaches with no RMA
 * lane (TCP): there small puts and atomics that return nothing are active
 * messages of our own that the target applies without acknowledging each
 * (src/net/ucx/ucx_am.h), as are gets and fetching atomics while such messages are
 * in flight to that peer; the order between the two paths is kept here.  A
 * region that UCX's shared-memory transports map into this process is
 * reached through that mapping with plain copies and atomic instructions,
 * without UCX or the lock (see direct()).  Every AMO of OpenSHMEM is 4 or 8
 * bytes wide and maps onto ucp_atomic_op_nbx (fetch = add 0, set = swap;
 * AND/OR/XOR on UCX's shared memory by compare-and-swap, see
 * bitwise_by_cswap).  quiet is a flush of the messages and of the worker,
 * fence a worker fence. */
#include "config.h"
#include "net/transport.h"

#ifdef GSHMEM_HAVE_UCX

#include <sched.h>
#include <string.h>
#include <ucp/api/ucp.h>

#include "base/copy.h"
#include "net/ucx/ucx_am.h"
#include "net/ucx/ucx_state.h"

static inline uint64_t remote(int pe, int region, size_t offset)
{
    return gst_ucx.peer_base[pe * gst_ucx.n_regions + region] + offset;
}

static inline ucp_rkey_h rkey_of(int pe, int region)
{
    return gst_ucx.rkey[pe * gst_ucx.n_regions + region];
}

/* Where (pe, region, offset) is for UCX: remote address, rkey, and how many
 * bytes from there one operation may cover (a chunk of an added region). */
typedef struct ucx_target {
    uint64_t addr;
    ucp_rkey_h rkey;
    size_t span;
} ucx_target_t;

static gsi_status_t target_of(int pe, int region, size_t offset, ucx_target_t *t)
{
    const gst_ucx_extra_t *x;
    int lo, hi;

    if (region < gst_ucx.n_regions) {
        t->addr = remote(pe, region, offset);
        t->rkey = rkey_of(pe, region);
        t->span = (size_t)-1;
        return GSI_OK;
    }
    if (region >= GST_MAX_REGIONS || gst_ucx.extra[region].n_chunks == 0)
        return GSI_ERR_INVALID;
    x = &gst_ucx.extra[region];
    /* The first chunk whose end is past offset. */
    lo = 0, hi = x->n_chunks;
    while (lo < hi) {
        int mid = (lo + hi) / 2;

        if (x->end[mid] <= offset)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == x->n_chunks || !x->rkey[lo][pe])
        return GSI_ERR_INVALID;
    t->addr = x->peer_base[pe] + offset;
    t->rkey = x->rkey[lo][pe];
    t->span = x->end[lo] - offset;
    return GSI_OK;
}

/* An issued request, not waited for (the _nbi forms below): freed at once,
 * which UCX documents as releasing it when it completes; the next quiet's
 * worker flush completes it. */
static gsi_status_t issued(ucs_status_ptr_t req)
{
    gst_ucx.rma_issued = 1;
    if (UCS_PTR_IS_ERR(req))
        return GSI_ERR_SYSTEM;
    if (req)
        ucp_request_free(req);
    return GSI_OK;
}

/* One operation per chunk: an added region's chunks have keys of their own.
 * put: local -> (pe, region, offset); else the other way.  wait: complete
 * each before returning (the blocking forms); else only issue (_nbi). */
static gsi_status_t rma_locked(int put, int wait, int pe, int region, size_t offset, void *local,
                               size_t len)
{
    gsi_status_t status = GSI_OK;

    if (!gst_ucx.ep[pe])
        return GSI_ERR_NO_TRANSPORT;
    do {
        ucp_request_param_t p = {0};
        ucs_status_ptr_t req;
        ucx_target_t t;
        size_t n;

        status = target_of(pe, region, offset, &t);
        if (status != GSI_OK)
            break;
        n = len < t.span ? len : t.span;
        /* A buffer the program registered: UCX uses our mapping of it. */
        p.memh = gst_ucx_local_mem(local, n);
        if (p.memh)
            p.op_attr_mask |= UCP_OP_ATTR_FIELD_MEMH;
        req = put ? ucp_put_nbx(gst_ucx.ep[pe], local, n, t.addr, t.rkey, &p)
                  : ucp_get_nbx(gst_ucx.ep[pe], local, n, t.addr, t.rkey, &p);
        if (wait) {
            gst_ucx.rma_issued = 1;
            status = gst_ucx_wait_request(req);
        } else {
            status = issued(req);
        }
        local = (char *)local + n, offset += n, len -= n;
    } while (status == GSI_OK && len);
    return status;
}

/* 1: this operation on (pe, region) goes as one of our active messages
 * (the core has checked pe). */
static inline int by_am(int pe, int region, size_t len)
{
    return gst_ucx.am_peer[pe] && region < gst_ucx.n_regions && len <= GST_UCX_AM_MAX;
}

/* Before RMA to pe: one that follows a fence must not pass the messages
 * sent to pe before the fence. */
static gsi_status_t rma_to_peer(int pe)
{
    if (!gst_ucx.am_peer[pe])
        return GSI_OK;
    gst_ucx.rma_to_am_peer = 1;
    return gst_ucx.am_fenced ? gst_ucx_am_flush(pe) : GSI_OK;
}

/* Before an active message that reads pe's memory: RMA sent to an am_peer
 * since the last flush may not have landed. */
static gsi_status_t settle_rma(void)
{
    ucp_request_param_t p = {0};

    if (!gst_ucx.rma_to_am_peer)
        return GSI_OK;
    gst_ucx.rma_to_am_peer = 0;
    return gst_ucx_wait_request(ucp_worker_flush_nbx(gst_ucx.worker, &p));
}

/* wait: the blocking put, complete locally on return; else the proxy's
 * _nbi form, which our messages may pack with others (gst_ucx_am_put_nbi). */
static gsi_status_t put_locked(int wait, int pe, int region, size_t offset, const void *src,
                               size_t len)
{
    gsi_status_t status;

    if (by_am(pe, region, len))
        return wait ? gst_ucx_am_put(pe, region, offset, src, len)
                    : gst_ucx_am_put_nbi(pe, region, offset, src, len);
    status = rma_to_peer(pe);
    return status != GSI_OK ? status
                            : rma_locked(1, wait, pe, region, offset, (void *)(uintptr_t)src, len);
}

/* wait as for put_locked.  To a peer that takes our messages (no RMA lane:
 * UCX emulates the get with messages of its own) a get is waited for in
 * the _nbi form too, as the proxy's gets always were. */
static gsi_status_t get_locked(int wait, void *dst, int pe, int region, size_t offset, size_t len)
{
    gsi_status_t status;

    /* Our messages carry only the gets that must stay behind messages
     * still in flight to pe: a get waits for its answer either way, and
     * UCX's own emulation answers sooner (10.3 against 11.1 us over TCP). */
    if (by_am(pe, region, len) && gst_ucx_am_unflushed(pe)) {
        status = settle_rma();
        return status == GSI_OK ? gst_ucx_am_get(dst, pe, region, offset, len) : status;
    }
    /* A get through RMA must see the messages sent to pe before it. */
    status = gst_ucx_am_flush(pe);
    return status == GSI_OK
               ? rma_locked(0, wait || by_am(pe, region, len), pe, region, offset, dst, len)
               : status;
}

static gsi_status_t amo_locked(int pe, int region, size_t offset, gst_amo_op_t op, size_t size,
                               const void *operand, const void *compare, void *fetched);

/* AND, OR and XOR as a compare-and-swap loop.  UCX 1.13's shared-memory
 * transports apply the wrong one of the three (an OR of 1 into 0 leaves
 * 0), so a region on UCX's shared memory (gst_ucx.moved) gets them this way;
 * its CSWAP, SWAP and ADD are right. */
static gsi_status_t bitwise_by_cswap(int pe, int region, size_t offset, gst_amo_op_t op,
                                     size_t size, const void *operand, void *fetched)
{
    uint64_t v = gst_ucx_bits_of(operand, size), mask = size == 4 ? UINT32_MAX : UINT64_MAX;
    uint64_t expect = 0, next;
    unsigned char e[8], n[8], seen[8];
    gsi_status_t status;

    for (;;) {
        next = (op == GST_AMO_FAND  ? expect & v
                : op == GST_AMO_FOR ? expect | v
                                    : expect ^ v) &
               mask;
        gst_ucx_bits_to(e, expect, size);
        gst_ucx_bits_to(n, next, size);
        status = amo_locked(pe, region, offset, GST_AMO_CSWAP, size, n, e, seen);
        if (status != GSI_OK)
            return status;
        if (gst_ucx_bits_of(seen, size) == expect)
            break;
        expect = gst_ucx_bits_of(seen, size);
    }
    if (fetched)
        gst_ucx_bits_to(fetched, expect, size);
    return GSI_OK;
}

static gsi_status_t amo_locked(int pe, int region, size_t offset, gst_amo_op_t op, size_t size,
                               const void *operand, const void *compare, void *fetched)
{
    ucp_request_param_t p = {.op_attr_mask = UCP_OP_ATTR_FIELD_DATATYPE,
                             .datatype = ucp_dt_make_contig(size)};
    uint64_t zero = 0, reply = 0, scratch;
    const void *buffer = operand;
    ucp_atomic_op_t opcode;
    gsi_status_t status;
    ucx_target_t t;

    if (!gst_ucx.ep[pe])
        return GSI_ERR_NO_TRANSPORT;
    if (size != 4 && size != 8)
        return GSI_ERR_UNSUPPORTED;
    /* As for gets (get_locked): a fetching atomic goes as our message only
     * behind messages still in flight to pe.  Both kinds run on the target
     * inside its worker's progress, so they are atomic with each other. */
    if (by_am(pe, region, size) && (!fetched || gst_ucx_am_unflushed(pe))) {
        status = fetched ? settle_rma() : GSI_OK;
        return status == GSI_OK
                   ? gst_ucx_am_amo(pe, region, offset, op, size, operand, compare, fetched)
                   : status;
    }
    /* A fetching atomic is complete when it returns: nothing to order. */
    status = fetched ? GSI_OK : rma_to_peer(pe);
    if (status != GSI_OK)
        return status;
    if ((op == GST_AMO_FAND || op == GST_AMO_FOR || op == GST_AMO_FXOR) &&
        region < gst_ucx.n_regions && gst_ucx.moved[pe * gst_ucx.n_regions + region])
        return bitwise_by_cswap(pe, region, offset, op, size, operand, fetched);
    status = target_of(pe, region, offset, &t);
    if (status != GSI_OK)
        return status;
    switch (op) {
    case GST_AMO_FETCH:
        opcode = UCP_ATOMIC_OP_ADD;
        buffer = &zero;
        break;
    case GST_AMO_SET:
    case GST_AMO_SWAP: opcode = UCP_ATOMIC_OP_SWAP; break;
    case GST_AMO_CSWAP:
        /* UCX: compare value in buffer, new value in (and old value out of)
         * the reply buffer. */
        opcode = UCP_ATOMIC_OP_CSWAP;
        buffer = compare;
        memcpy(&reply, operand, size);
        break;
    case GST_AMO_FADD: opcode = UCP_ATOMIC_OP_ADD; break;
    case GST_AMO_FAND: opcode = UCP_ATOMIC_OP_AND; break;
    case GST_AMO_FOR: opcode = UCP_ATOMIC_OP_OR; break;
    case GST_AMO_FXOR: opcode = UCP_ATOMIC_OP_XOR; break;
    default: return GSI_ERR_UNSUPPORTED;
    }
    /* SET, SWAP and CSWAP always take a reply buffer in UCX. */
    if (fetched || op == GST_AMO_SET || op == GST_AMO_SWAP || op == GST_AMO_CSWAP ||
        op == GST_AMO_FETCH) {
        p.op_attr_mask |= UCP_OP_ATTR_FIELD_REPLY_BUFFER;
        p.reply_buffer = op == GST_AMO_CSWAP ? (void *)&reply : (void *)&scratch;
    }
    gst_ucx.rma_issued = 1;
    status = gst_ucx_wait_request(
        ucp_atomic_op_nbx(gst_ucx.ep[pe], opcode, buffer, 1, t.addr, t.rkey, &p));
    if (status == GSI_OK && fetched)
        memcpy(fetched, op == GST_AMO_CSWAP ? (void *)&reply : (void *)&scratch, size);
    return status;
}

/* The worker flush only when UCX was given RMA since the last one: a
 * quiet after nothing but direct copies (or nothing) costs no UCX call. */
static gsi_status_t quiet_locked(void)
{
    ucp_request_param_t p = {0};
    gsi_status_t status = gst_ucx_am_flush(-1);

    if (status != GSI_OK)
        return status;
    gst_ucx.rma_to_am_peer = gst_ucx.am_fenced = 0;
    if (!gst_ucx.rma_issued)
        return GSI_OK;
    gst_ucx.rma_issued = 0;
    gst_ucx.n_staged = 0;
    return gst_ucx_wait_request(ucp_worker_flush_nbx(gst_ucx.worker, &p));
}

/* One peer's active messages are applied in order, so only RMA needs the
 * worker fence.  RMA and messages to one peer are ordered only by
 * completing the earlier: everything, if RMA went first; the messages to
 * that peer, when RMA to it follows (rma_to_peer). */
static gsi_status_t fence_locked(void)
{
    if (gst_ucx.rma_to_am_peer)
        return quiet_locked();
    gst_ucx.am_fenced |= gst_ucx_am_unflushed(-1);
    /* Nothing of ours in UCX's queues: nothing to order. */
    if (!gst_ucx.rma_issued)
        return GSI_OK;
    return ucp_worker_fence(gst_ucx.worker) == UCS_OK ? GSI_OK : GSI_ERR_SYSTEM;
}

unsigned gst_ucx_progress(void)
{
    unsigned n;

    gst_ucx_lock();
    n = gst_ucx_progress_locked();
    gst_ucx_unlock();
    return n;
}

/* pe's (region, offset) where UCX maps it here (see map_direct in
 * ucx.c), or NULL.  Not for a peer that gets our active
 * messages: those are ordered with its RMA under the lock. */
static inline char *direct(int pe, int region, size_t offset)
{
    char *base;

    if (region >= gst_ucx.n_regions || gst_ucx.am_peer[pe])
        return NULL;
    base = gst_ucx.direct[pe * gst_ucx.n_regions + region];
    return base ? base + offset : NULL;
}

/* put: local -> (pe, region, offset); else the other way.  wait: the
 * blocking forms; else the _nbi ones (transport.h). */
static gsi_status_t rma(int put, int wait, int pe, int region, size_t offset, void *local,
                        size_t len)
{
    char *at = direct(pe, region, offset);
    gsi_status_t status;

    if (at) {
        if (put)
            gst_ucx_store(at, local, len);
        else
            gsi_copy(local, at, len);
        return GSI_OK;
    }
    gst_ucx_lock();
    status = put ? put_locked(wait, pe, region, offset, local, len)
                 : get_locked(wait, local, pe, region, offset, len);
    gst_ucx_unlock();
    return status;
}

gsi_status_t gst_ucx_put(int pe, int region, size_t offset, const void *src, size_t len)
{
    return rma(1, 1, pe, region, offset, (void *)(uintptr_t)src, len);
}

gsi_status_t gst_ucx_get(void *dst, int pe, int region, size_t offset, size_t len)
{
    return rma(0, 1, pe, region, offset, dst, len);
}

gsi_status_t gst_ucx_amo(int pe, int region, size_t offset, gst_amo_op_t op, size_t size,
                         const void *operand, const void *compare, void *fetched)
{
    char *at = direct(pe, region, offset);
    gsi_status_t status;

    if (at && (size == 4 || size == 8) && ((uintptr_t)at & (size - 1)) == 0) {
        uint64_t old = gst_ucx_amo_apply(at, op, size, gst_ucx_bits_of(operand, size),
                                         gst_ucx_bits_of(compare, size));

        if (fetched)
            gst_ucx_bits_to(fetched, old, size);
        return GSI_OK;
    }
    gst_ucx_lock();
    status = amo_locked(pe, region, offset, op, size, operand, compare, fetched);
    gst_ucx_unlock();
    return status;
}

static gsi_status_t under_lock(gsi_status_t (*order_locked)(void))
{
    gsi_status_t status;

    gst_ucx_lock();
    status = order_locked();
    gst_ucx_unlock();
    return status;
}

gsi_status_t gst_ucx_fence(void)
{
    return under_lock(fence_locked);
}

gsi_status_t gst_ucx_quiet(void)
{
    return under_lock(quiet_locked);
}

/* ---- non-blocking issue (the proxy's; transport.h) ------------------------------
 *
 * ucp_*_nbx without a wait: a request UCX returns is freed at once, which
 * UCX documents as releasing it when it completes, and the next quiet's
 * worker flush completes it.  What UCX reads later than the call must
 * outlive it: a put's source is the caller's to keep (an nbi put), a p's
 * value and an atomic's operand and reply go into gst_ucx.stage, whose
 * slots are reused only after a worker flush. */

/* A staging slot that lives until the next worker flush; flushes first
 * when all are taken. */
static gsi_status_t stage_take(uint64_t **slot)
{
    gsi_status_t status = GSI_OK;

    if (gst_ucx.n_staged == GST_UCX_STAGE) {
        ucp_request_param_t p = {0};

        status = gst_ucx_wait_request(ucp_worker_flush_nbx(gst_ucx.worker, &p));
        gst_ucx.n_staged = 0;
    }
    *slot = gst_ucx.stage[gst_ucx.n_staged++];
    return status;
}

gsi_status_t gst_ucx_put_nbi(int pe, int region, size_t offset, const void *src, size_t len)
{
    return rma(1, 0, pe, region, offset, (void *)(uintptr_t)src, len);
}

gsi_status_t gst_ucx_get_nbi(void *dst, int pe, int region, size_t offset, size_t len)
{
    return rma(0, 0, pe, region, offset, dst, len);
}

gsi_status_t gst_ucx_p_nbi(int pe, int region, size_t offset, uint64_t value, size_t len)
{
    char *at = direct(pe, region, offset);
    uint64_t *slot;
    gsi_status_t status;

    if (at) {
        gst_ucx_store(at, &value, len);
        return GSI_OK;
    }
    gst_ucx_lock();
    /* Our messages copy the value at once; UCX's RMA reads it later. */
    if (by_am(pe, region, len)) {
        status = gst_ucx_am_put_nbi(pe, region, offset, &value, len);
    } else {
        status = stage_take(&slot);
        if (status == GSI_OK) {
            slot[0] = value;
            status = put_locked(0, pe, region, offset, slot, len);
        }
    }
    gst_ucx_unlock();
    return status;
}

static gsi_status_t amo_nbi_locked(int pe, int region, size_t offset, gst_amo_op_t op, size_t size,
                                   uint64_t operand)
{
    ucp_request_param_t p = {.op_attr_mask = UCP_OP_ATTR_FIELD_DATATYPE,
                             .datatype = ucp_dt_make_contig(size)};
    ucp_atomic_op_t opcode;
    uint64_t *slot;
    gsi_status_t status;
    ucx_target_t t;

    if (by_am(pe, region, size))
        return gst_ucx_am_amo_nbi(pe, region, offset, op, size, operand);
    /* AND, OR, XOR on UCX's shared memory: see bitwise_by_cswap. */
    if (op != GST_AMO_SET && op != GST_AMO_FADD)
        if (region < gst_ucx.n_regions && gst_ucx.moved[pe * gst_ucx.n_regions + region])
            return amo_locked(pe, region, offset, op, size, &operand, NULL, NULL);
    status = rma_to_peer(pe);
    if (status == GSI_OK)
        status = target_of(pe, region, offset, &t);
    if (status == GSI_OK)
        status = stage_take(&slot);
    if (status != GSI_OK)
        return status;
    switch (op) {
    case GST_AMO_SET: opcode = UCP_ATOMIC_OP_SWAP; break;
    case GST_AMO_FADD: opcode = UCP_ATOMIC_OP_ADD; break;
    case GST_AMO_FAND: opcode = UCP_ATOMIC_OP_AND; break;
    case GST_AMO_FOR: opcode = UCP_ATOMIC_OP_OR; break;
    case GST_AMO_FXOR: opcode = UCP_ATOMIC_OP_XOR; break;
    default: return GSI_ERR_UNSUPPORTED;
    }
    /* The little-endian low bytes are the 4-byte operand. */
    slot[0] = operand;
    if (op == GST_AMO_SET) { /* a swap always takes a reply buffer in UCX */
        p.op_attr_mask |= UCP_OP_ATTR_FIELD_REPLY_BUFFER;
        p.reply_buffer = &slot[1];
    }
    return issued(ucp_atomic_op_nbx(gst_ucx.ep[pe], opcode, slot, 1, t.addr, t.rkey, &p));
}

gsi_status_t gst_ucx_amo_nbi(int pe, int region, size_t offset, gst_amo_op_t op, size_t size,
                             uint64_t operand)
{
    char *at = direct(pe, region, offset);
    gsi_status_t status;

    if (op != GST_AMO_SET && op != GST_AMO_FADD && op != GST_AMO_FAND && op != GST_AMO_FOR &&
        op != GST_AMO_FXOR)
        return GSI_ERR_UNSUPPORTED;
    if (size != 4 && size != 8)
        return GSI_ERR_UNSUPPORTED;
    if (at && ((uintptr_t)at & (size - 1)) == 0) {
        (void)gst_ucx_amo_apply(at, op, size, operand, 0);
        return GSI_OK;
    }
    if (!gst_ucx.ep[pe])
        return GSI_ERR_NO_TRANSPORT;
    gst_ucx_lock();
    status = amo_nbi_locked(pe, region, offset, op, size, operand);
    gst_ucx_unlock();
    return status;
}

gsi_status_t gst_ucx_post(void)
{
    gsi_status_t status;

    if (!gst_ucx.am_on || !gst_ucx_am_holding())
        return GSI_OK;
    gst_ucx_lock();
    status = gst_ucx_am_post();
    gst_ucx_unlock();
    return status;
}

#endif /* GSHMEM_HAVE_UCX */
