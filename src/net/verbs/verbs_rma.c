/* src/net/verbs/verbs_rma.c - the data path: posting a WR through its QP's
 * window, the one completion poller every waiter uses, the bounce slots,
 * put as RDMA WRITE, get as RDMA READ, fence and quiet.
 *
 * Operations do not wait unless their caller needs the result:
 *   - a put that fits the QP's inline size is copied by the provider at
 *     post, and one outside every registered region is copied into a bounce
 *     slot: both return at once (the slot is held until its WR completes);
 *     a put from registered memory waits for its WR (the source must be
 *     reusable on return), put_nbi from it does not;
 *   - a get waits for its READ; get_nbi into registered memory does not,
 *     into other memory it is a blocking get;
 *   - quiet waits, QP by QP, until every WR posted is complete.
 * The ordering rules relied on (from the InfiniBand Architecture Spec vol.
 * 1, ch. 9 and 10, RC transport): the responder executes the requests of
 * one QP in the order they were posted, so WRITEs and atomics to one PE
 * land in order (put-with-signal is a put then an atomic on the same QP,
 * and needs nothing more); a READ or atomic may still be in flight when a
 * later request executes, so fence waits for the READs/atomics
 * outstanding (gst_verbs_fence says why not IBV_SEND_FENCE); and the send
 * queue completes in order, so a successful signalled completion means
 * every earlier WR of that QP completed too (verbs_window.h).  wr_id is
 * (PE, WR number), so any poller retires any QP's completions, and a
 * waiter waits on its QP's completed count, never on seeing its own wr_id
 * (another thread may have polled it).  Everything runs under gst_verbs.lock, polling included;
 * RDMA needs no CPU at the target, so waiting with it held cannot stall a
 * peer.  A failed completion (retry exceeded: the peer is gone; a
 * protection error; a QP in error) is one line naming the peer and the
 * verbs status, and the job ends. */
#include "config.h"

#ifdef GSHMEM_HAVE_VERBS

#include <sched.h>
#include <string.h>

#include "base/clock.h"
#include "base/log.h"
#include "net/verbs/verbs_state.h"

#define WAIT_SPIN 64
#define POLL_BATCH 16
/* wr_id: the PE in the bits above SEQ_BITS, the WR's number below. */
#define SEQ_BITS 48
#define SEQ_MASK ((1ull << SEQ_BITS) - 1)

static int is_rd(enum ibv_wr_opcode opcode)
{
    return opcode == IBV_WR_RDMA_READ || opcode == IBV_WR_ATOMIC_FETCH_AND_ADD ||
           opcode == IBV_WR_ATOMIC_CMP_AND_SWP;
}

/* Poll a batch of completions and retire them, QP by QP. */
static unsigned poll_cq(void)
{
    struct ibv_wc wc[POLL_BATCH];
    int n = ibv_poll_cq(gst_verbs.cq, POLL_BATCH, wc);

    if (n < 0)
        gsi_fatal("gst_verbs", "ibv_poll_cq failed");
    for (int i = 0; i < n; i++) {
        int pe = (int)(wc[i].wr_id >> SEQ_BITS);

        if (wc[i].status != IBV_WC_SUCCESS)
            gsi_fatal("gst_verbs",
                      "PE %d: work completion failed: %s (status %d, vendor error "
                      "0x%x)",
                      pe, ibv_wc_status_str(wc[i].status), (int)wc[i].status, wc[i].vendor_err);
        if (pe >= 0 && pe < gst_verbs.n_pes)
            gst_verbs_window_retire(&gst_verbs.win[pe], wc[i].wr_id & SEQ_MASK);
    }
    return (unsigned)n;
}

/* A zero-length signalled WRITE to pe: its completion retires every WR
 * posted before it.  Its target is the start of any chunk pe registered
 * (a WR was posted to pe, so one exists). */
static void post_marker(int pe)
{
    struct ibv_send_wr wr = {.num_sge = 0, .opcode = IBV_WR_RDMA_WRITE};

    for (int r = 0; r < GST_MAX_REGIONS; r++) {
        const gst_verbs_region_t *reg = &gst_verbs.region[r];

        if (reg->n_chunks == 0 || !reg->peer_base)
            continue;
        wr.wr.rdma.remote_addr = reg->peer_base[pe] + reg->chunk[0].start;
        wr.wr.rdma.rkey = reg->chunk[0].rkey[pe];
        (void)gst_verbs_post(pe, &wr, 1);
        return;
    }
    gsi_fatal("gst_verbs", "PE %d: WRs outstanding but no region to complete them on", pe);
}

/* A wait that has seen no completion for a second or more, once a second:
 * a QP whose peer or link failed reports it by an error completion, but
 * the rig's rxe (Debian 6.1) gives none when a killed peer's QP goes before
 * its MRs: it neither retries nor fails, the QP stays in RTS, and WRs
 * posted after it go unanswered too (tests/pe/bad_verbs_peer_dies: 2 to 4
 * rig runs in 20; the others fail with a remote access error, the peer's
 * MRs gone first).  The QP's state and GSHMEM_WAIT_TIMEOUT turn that into
 * one line instead of a hang. */
static void check_stall(int pe, uint64_t seq, uint64_t idle_ns)
{
    const gst_verbs_window_t *w = &gst_verbs.win[pe];
    struct ibv_qp_attr attr;
    struct ibv_qp_init_attr init;
    int state = -1;

    if (ibv_query_qp(gst_verbs.qp[pe], &attr, IBV_QP_STATE, &init) == 0)
        state = (int)attr.qp_state;
    if (state == IBV_QPS_ERR || state == IBV_QPS_SQE)
        gsi_fatal("gst_verbs",
                  "PE %d: the connection to it failed: its QP %u is in the error state, with "
                  "WRs %llu to %llu outstanding and no completion saying why (the peer or the "
                  "link is gone)",
                  pe, gst_verbs.qp[pe]->qp_num, (unsigned long long)w->completed + 1,
                  (unsigned long long)w->posted);
    if (gst_verbs.wait_timeout > 0 && idle_ns >= (uint64_t)gst_verbs.wait_timeout * 1000000000ull)
        gsi_fatal("gst_verbs",
                  "PE %d: no completion for %d s (GSHMEM_WAIT_TIMEOUT) while waiting for WR "
                  "%llu: WRs %llu to %llu outstanding, QP %u in state %d (the peer or the link "
                  "is gone, or the device stalled)",
                  pe, gst_verbs.wait_timeout, (unsigned long long)seq,
                  (unsigned long long)w->completed + 1, (unsigned long long)w->posted,
                  gst_verbs.qp[pe]->qp_num, state);
}

void gst_verbs_wait(int pe, uint64_t seq)
{
    gst_verbs_window_t *w = &gst_verbs.win[pe];
    unsigned polls = 0;
    uint64_t idle_since = 0, next_check = 0;

    if (w->completed >= seq)
        return;
    /* No CQ entry would come for seq: make one come after it. */
    if (w->last_signalled < seq)
        post_marker(pe);
    while (w->completed < seq) {
        if (poll_cq()) {
            polls = 0;
            idle_since = 0;
        } else if (++polls > WAIT_SPIN) {
            sched_yield();
            /* The clock only in the slow path: every 1024 idle polls. */
            if ((polls & 1023) == 0) {
                uint64_t t = gsi_now_ns();

                if (!idle_since) {
                    idle_since = t;
                    next_check = t + 1000000000ull;
                } else if (t >= next_check) {
                    check_stall(pe, seq, t - idle_since);
                    next_check = t + 1000000000ull;
                }
            }
        }
    }
}

uint64_t gst_verbs_post(int pe, struct ibv_send_wr *wr, int want_signal)
{
    gst_verbs_window_t *w = &gst_verbs.win[pe];
    int rd = is_rd(wr->opcode);
    struct ibv_send_wr *bad = NULL;
    gst_verbs_wr_plan_t plan;
    uint64_t blocker;
    int rc;

    /* The blocker is signalled or followed by a signalled WR (the window's
     * rules), so this wait ends. */
    while ((blocker = gst_verbs_window_blocker(w, rd, gst_verbs.sq_depth, gst_verbs.rd_atomic)))
        gst_verbs_wait(pe, blocker);
    plan = gst_verbs_window_post(w, rd, want_signal, gst_verbs.sq_depth);
    wr->wr_id = (uint64_t)pe << SEQ_BITS | plan.seq;
    wr->next = NULL;
    if (plan.signalled)
        wr->send_flags |= IBV_SEND_SIGNALED;
    rc = ibv_post_send(gst_verbs.qp[pe], wr, &bad);
    if (rc)
        gsi_fatal("gst_verbs", "posting to PE %d failed: ibv_post_send: %s (QP %u)", pe,
                  strerror(rc), gst_verbs.qp[pe]->qp_num);
    return plan.seq;
}

void gst_verbs_quiet_locked(void)
{
    for (int pe = 0; gst_verbs.qp && pe < gst_verbs.n_pes; pe++)
        if (gst_verbs.qp[pe])
            gst_verbs_wait(pe, gst_verbs.win[pe].posted);
}

gsi_status_t gst_verbs_quiet(void)
{
    pthread_mutex_lock(&gst_verbs.lock);
    gst_verbs_quiet_locked();
    pthread_mutex_unlock(&gst_verbs.lock);
    return GSI_OK;
}

/* A WR after a READ or atomic that is still outstanding could execute
 * before it: fence waits for the QP's last READ/atomic (WRITEs need
 * nothing).  Not IBV_SEND_FENCE on the next WR: on the rig's rxe (Debian
 * 6.1) a QP whose send queue held a fenced WR stalled with it and the
 * atomics before it uncompleted (tests/device/ring-np2). */
gsi_status_t gst_verbs_fence(void)
{
    pthread_mutex_lock(&gst_verbs.lock);
    for (int pe = 0; gst_verbs.qp && pe < gst_verbs.n_pes; pe++) {
        gst_verbs_window_t *w = &gst_verbs.win[pe];

        if (gst_verbs.qp[pe] && gst_verbs_window_rd_out(w))
            gst_verbs_wait(pe, gst_verbs_window_rd_last(w));
    }
    pthread_mutex_unlock(&gst_verbs.lock);
    return GSI_OK;
}

/* A free bounce slot, waiting for the oldest one's WR where none is. */
static unsigned take_slot(void)
{
    for (unsigned i = 0; i < GST_VERBS_SLOTS; i++) {
        unsigned k = (gst_verbs.next_slot + i) % GST_VERBS_SLOTS;
        gst_verbs_slot_t *s = &gst_verbs.slot[k];

        if (s->seq == 0 || gst_verbs.win[s->pe].completed >= s->seq) {
            s->seq = 0;
            gst_verbs.next_slot = (k + 1) % GST_VERBS_SLOTS;
            return k;
        }
    }
    {
        unsigned k = gst_verbs.next_slot;
        gst_verbs_slot_t *s = &gst_verbs.slot[k];

        gst_verbs_wait(s->pe, s->seq);
        s->seq = 0;
        gst_verbs.next_slot = (k + 1) % GST_VERBS_SLOTS;
        return k;
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

/* How an operation may treat its local memory. */
enum mode {
    BLOCKING, /* the local memory is the caller's again on return */
    NBI,      /* it stays put until the next quiet */
    VALUE     /* it is gone on return (p_nbi's value): copy it at post */
};

/* One WRITE of at most one chunk (and one slot where it bounces). */
static void write_piece(int pe, uint64_t raddr, uint32_t rkey, const char *src, size_t len,
                        struct ibv_mr *mr, enum mode mode)
{
    struct ibv_sge sge = {.addr = (uintptr_t)src, .length = (uint32_t)len};
    struct ibv_send_wr wr = {.sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_RDMA_WRITE};
    uint64_t seq;

    wr.wr.rdma.remote_addr = raddr;
    wr.wr.rdma.rkey = rkey;
    if (len <= gst_verbs.max_inline) {
        wr.send_flags = IBV_SEND_INLINE; /* the provider copies it at post */
        (void)gst_verbs_post(pe, &wr, 0);
    } else if (mr && mode != VALUE) {
        sge.lkey = mr->lkey;
        seq = gst_verbs_post(pe, &wr, mode == BLOCKING);
        if (mode == BLOCKING)
            gst_verbs_wait(pe, seq);
    } else {
        unsigned k = take_slot();
        char *slot = gst_verbs.bounce + (size_t)k * GST_VERBS_SLOT;

        memcpy(slot, src, len);
        sge.addr = (uintptr_t)slot;
        sge.lkey = gst_verbs.bounce_mr->lkey;
        gst_verbs.slot[k].pe = pe;
        gst_verbs.slot[k].seq = gst_verbs_post(pe, &wr, 1);
    }
}

/* One READ of at most one chunk (and one slot where it bounces). */
static void read_piece(int pe, uint64_t raddr, uint32_t rkey, char *dst, size_t len,
                       struct ibv_mr *mr, enum mode mode)
{
    struct ibv_sge sge = {.addr = (uintptr_t)dst, .length = (uint32_t)len};
    struct ibv_send_wr wr = {.sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_RDMA_READ};
    uint64_t seq;

    wr.wr.rdma.remote_addr = raddr;
    wr.wr.rdma.rkey = rkey;
    if (mr) {
        sge.lkey = mr->lkey;
        seq = gst_verbs_post(pe, &wr, 1);
        if (mode == BLOCKING)
            gst_verbs_wait(pe, seq);
    } else {
        unsigned k = take_slot();
        char *slot = gst_verbs.bounce + (size_t)k * GST_VERBS_SLOT;

        sge.addr = (uintptr_t)slot;
        sge.lkey = gst_verbs.bounce_mr->lkey;
        seq = gst_verbs_post(pe, &wr, 1);
        gst_verbs.slot[k].pe = pe;
        gst_verbs.slot[k].seq = seq;
        gst_verbs_wait(pe, seq);
        memcpy(dst, slot, len);
    }
}

static gsi_status_t rma(int write, int pe, int region, size_t offset, char *local, size_t len,
                        enum mode mode)
{
    gsi_status_t status = GSI_OK;

    pthread_mutex_lock(&gst_verbs.lock);
    while (len) {
        struct ibv_mr *mr;
        uint64_t raddr;
        uint32_t rkey;
        size_t n;

        status = remote(pe, region, offset, len, &raddr, &rkey, &n);
        if (status != GSI_OK)
            break;
        if (n > gst_verbs.port.attr.max_msg_sz)
            n = gst_verbs.port.attr.max_msg_sz;
        mr = mode == VALUE ? NULL : gst_verbs_local_mr(local, n);
        if (!mr && n > GST_VERBS_SLOT)
            n = GST_VERBS_SLOT;
        if (write)
            write_piece(pe, raddr, rkey, local, n, mr, mode);
        else
            read_piece(pe, raddr, rkey, local, n, mr, mode);
        offset += n;
        local += n;
        len -= n;
    }
    pthread_mutex_unlock(&gst_verbs.lock);
    return status;
}

gsi_status_t gst_verbs_put(int pe, int region, size_t offset, const void *src, size_t len)
{
    return rma(1, pe, region, offset, (char *)(uintptr_t)src, len, BLOCKING);
}

gsi_status_t gst_verbs_get(void *dst, int pe, int region, size_t offset, size_t len)
{
    return rma(0, pe, region, offset, dst, len, BLOCKING);
}

gsi_status_t gst_verbs_put_nbi(int pe, int region, size_t offset, const void *src, size_t len)
{
    return rma(1, pe, region, offset, (char *)(uintptr_t)src, len, NBI);
}

gsi_status_t gst_verbs_get_nbi(void *dst, int pe, int region, size_t offset, size_t len)
{
    return rma(0, pe, region, offset, dst, len, NBI);
}

gsi_status_t gst_verbs_p_nbi(int pe, int region, size_t offset, uint64_t value, size_t len)
{
    if (len > sizeof(value))
        return GSI_ERR_INVALID;
    /* Little-endian hosts: the value's low len bytes come first. */
    return rma(1, pe, region, offset, (char *)&value, len, VALUE);
}

#endif
