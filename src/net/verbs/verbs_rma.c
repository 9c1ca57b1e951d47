/* src/net/verbs/verbs_rma.c - the data path: posting a WR, waiting for its
 * completion, put as RDMA WRITE and get as RDMA READ.
 *
 * Every operation is signalled and waited for before the call returns, so
 * a put's source is free to reuse, a get's data is there, and at most one
 * WR per QP is outstanding (the send queue cannot overrun).  A source or
 * destination inside a registered region goes directly; any other goes
 * through the bounce buffer, in GST_VERBS_BOUNCE pieces.  Puts that fit the
 * QP's inline size go inline.  A failed completion (retry exceeded: the peer
 * is gone; a protection error; a QP in error) is one line naming the peer
 * and the verbs status, and the job ends. */
#include "config.h"

#ifdef GSHMEM_HAVE_VERBS

#include <sched.h>
#include <string.h>

#include "base/log.h"
#include "net/verbs/verbs_state.h"

#define WAIT_SPIN 64

gsi_status_t gst_verbs_post_wait(int pe, struct ibv_send_wr *wr)
{
    struct ibv_send_wr *bad = NULL;
    struct ibv_wc wc;
    unsigned polls = 0;
    int n, rc;

    wr->wr_id = ++gst_verbs.wr_seq;
    wr->send_flags |= IBV_SEND_SIGNALED;
    rc = ibv_post_send(gst_verbs.qp[pe], wr, &bad);
    if (rc)
        gsi_fatal("gst_verbs", "posting to PE %d failed: ibv_post_send: %s (QP %u)", pe,
                  strerror(rc), gst_verbs.qp[pe]->qp_num);
    for (;;) {
        n = ibv_poll_cq(gst_verbs.cq, 1, &wc);
        if (n < 0)
            gsi_fatal("gst_verbs", "ibv_poll_cq failed while waiting on PE %d", pe);
        if (n == 0) {
            if (++polls > WAIT_SPIN)
                sched_yield();
            continue;
        }
        if (wc.status != IBV_WC_SUCCESS)
            gsi_fatal("gst_verbs",
                      "PE %d: work completion failed: %s (status %d, vendor error "
                      "0x%x)",
                      pe, ibv_wc_status_str(wc.status), (int)wc.status, wc.vendor_err);
        if (wc.wr_id == wr->wr_id)
            return GSI_OK;
    }
}

/* The remote address and rkey of (region, offset) on pe, and how many bytes
 * from there stay inside that chunk. */
static gsi_status_t remote(int pe, int region, size_t offset, size_t len, uint64_t *addr,
                           uint32_t *rkey, size_t *room)
{
    const gst_verbs_chunk_t *c = gst_verbs_find_chunk(region, offset);

    if (!c || !gst_verbs.qp || pe < 0 || pe >= gst_verbs.n_pes || !gst_verbs.qp[pe])
        return GSI_ERR_INVALID;
    *addr = gst_verbs.region[region].peer_base[pe] + offset;
    *rkey = c->rkey[pe];
    *room = c->start + c->len - offset;
    if (*room > len)
        *room = len;
    return GSI_OK;
}

/* One WRITE or READ of at most one chunk and one bounce buffer. */
static gsi_status_t transfer(enum ibv_wr_opcode opcode, int pe, uint64_t raddr, uint32_t rkey,
                             char *local, size_t len)
{
    struct ibv_mr *mr = gst_verbs_local_mr(local, len);
    struct ibv_sge sge = {.addr = (uintptr_t)local, .length = (uint32_t)len};
    struct ibv_send_wr wr = {.sg_list = &sge, .num_sge = 1, .opcode = opcode};
    gsi_status_t status;

    wr.wr.rdma.remote_addr = raddr;
    wr.wr.rdma.rkey = rkey;
    if (opcode == IBV_WR_RDMA_WRITE && len <= gst_verbs.max_inline) {
        wr.send_flags = IBV_SEND_INLINE; /* the provider copies it at post */
    } else if (mr) {
        sge.lkey = mr->lkey;
    } else {
        sge.addr = (uintptr_t)gst_verbs.bounce;
        sge.lkey = gst_verbs.bounce_mr->lkey;
        if (opcode == IBV_WR_RDMA_WRITE)
            memcpy(gst_verbs.bounce, local, len);
    }
    status = gst_verbs_post_wait(pe, &wr);
    if (status == GSI_OK && opcode == IBV_WR_RDMA_READ && !mr)
        memcpy(local, gst_verbs.bounce, len);
    return status;
}

static gsi_status_t rma(enum ibv_wr_opcode opcode, int pe, int region, size_t offset, char *local,
                        size_t len)
{
    gsi_status_t status = GSI_OK;

    pthread_mutex_lock(&gst_verbs.lock);
    while (len && status == GSI_OK) {
        uint64_t raddr;
        uint32_t rkey;
        size_t n;

        status = remote(pe, region, offset, len, &raddr, &rkey, &n);
        if (status != GSI_OK)
            break;
        if (n > GST_VERBS_BOUNCE && !gst_verbs_local_mr(local, n))
            n = GST_VERBS_BOUNCE;
        if (n > gst_verbs.port.attr.max_msg_sz)
            n = gst_verbs.port.attr.max_msg_sz;
        status = transfer(opcode, pe, raddr, rkey, local, n);
        offset += n;
        local += n;
        len -= n;
    }
    pthread_mutex_unlock(&gst_verbs.lock);
    return status;
}

gsi_status_t gst_verbs_put(int pe, int region, size_t offset, const void *src, size_t len)
{
    return rma(IBV_WR_RDMA_WRITE, pe, region, offset, (char *)(uintptr_t)src, len);
}

gsi_status_t gst_verbs_get(void *dst, int pe, int region, size_t offset, size_t len)
{
    return rma(IBV_WR_RDMA_READ, pe, region, offset, dst, len);
}

#endif
