/*
 * moe_normal.c - normal-mode (throughput) dispatch and combine: tokens
 * grouped per destination PE into chunks that flow through a credit-
 * controlled ring per (source, destination, channel).
 *
 * Streams: the tokens of a PE are cut into C ranges (channels); stream
 * (q, c) carries range c's records to PE q.  Dispatch record: header
 * {token, selections} + payload + selection list (k << 16 | local expert),
 * once per (token, destination PE) however many of its experts live there.
 * Combine record: header {token, k} + the expert's bf16 output row.
 *
 * The ring of stream (src -> dst, c) lives on dst: S record slots, and a
 * tail counter the sender advances by atomic add (signal ADD) after each
 * chunk; the receiver copies records out and hands credit back by adding
 * to head, a counter on the sender.  Positions are cumulative over calls
 * (nothing is reset).  Load/store peers: records are written in place, then
 * a fence and the tail add; proxy peers: records are built in a local
 * staging copy of the ring and go as ONE put-with-signal per chunk on proxy
 * channel c.  A dispatch stream ends with a signal, epoch << 40 | records
 * this call (the receiver cannot know how many); a combine receiver knows
 * how many rows to expect from its own routing.  The receiver of a whole
 * dispatch stream acks the call to its sender (d_ack), and a sender starts
 * a stream only once the previous call's is acked: a PE whose combine
 * needs nothing from a peer (no tokens, or all its experts its own) can be
 * a call ahead of that peer, and its records and fin would land among
 * those of the call the peer is still receiving (the fin overwritten, the
 * peer waiting for it for ever).
 *
 * On host lanes (a.pull) a load/store stream has no ring and no payload:
 * the sender writes each record's header and selections into the
 * destination's rec and rec_list, where the ring's copy-out would have
 * put them, and the fin carries the count; the destination's expert reads
 * the payload in the sender's send (nm_payload), which the sender packs
 * again only after a combine that waited for this PE's c_ready, sent once
 * its expert was done (nm_dispatch_send_pull).  GPUs push through the
 * rings, so their experts read their own memory.
 *
 * In combine, a load/store home gets no rows at all: it reads them where
 * the expert wrote them (expert_out on the expert PE) in its reduction,
 * once that PE's c_ready signal carries this call's epoch (MOE_PUSH=1
 * sends them through the rings instead, as to proxy peers).
 *
 * One batch at a time: each dispatch is followed by its combine before the
 * next dispatch (the received records and expert rows are single buffers).
 *
 * Every warp owns some streams in both directions and loops over them
 * without blocking, so one warp (the host-lane launch) or many (a GPU) make
 * progress the same way, and a full ring never deadlocks.
 */
#include "moe.h"
#include "moe_dev.h"

#define NM_EPOCH_BITS 40

enum { NM_D_SENT = 0, NM_D_CONS = 1, NM_C_SENT = 2, NM_C_CONS = 3 };

typedef struct nm_ctx {
    moe_warp_t w;
    const moe_args_t *a;
    int P, C, S, N, K, L, me, nch, per;
    size_t pay; /* payload bytes */
} nm_ctx_t;

MOE_DEV nm_ctx_t nm_ctx(const moe_args_t *a)
{
    nm_ctx_t x;

    x.w = moe_warp_self();
    x.a = a;
    x.P = a->s.npes, x.C = a->streams, x.S = a->ring_slots, x.N = a->s.tokens;
    x.K = a->s.topk, x.L = a->local_experts, x.me = a->my_pe;
    x.nch = gshmemx_n_channels();
    x.per = (x.N + x.C - 1) / x.C;
    x.pay = moe_payload_bytes(a->s.hidden, a->s.dtype);
    return x;
}

MOE_DEV uint64_t *nm_cnt(const nm_ctx_t *x, int which, int pe, int c)
{
    return &x->a->b.cnt[((size_t)which * x->P + (size_t)pe) * x->C + (size_t)c];
}

MOE_DEV moe_stream_t *nm_st(const nm_ctx_t *x, int recv, int pe, int c)
{
    return &x->a->b.st[((size_t)recv * x->P + (size_t)pe) * x->C + (size_t)c];
}

MOE_DEV unsigned char *nm_slot(const nm_ctx_t *x, unsigned char *ring, size_t rec, int pe, int c,
                               uint64_t pos)
{
    return ring + (((size_t)pe * x->C + (size_t)c) * x->S + (size_t)(pos % (uint64_t)x->S)) * rec;
}

MOE_DEV int nm_end(const nm_ctx_t *x, int c)
{
    int e = (c + 1) * x->per;
    return e < x->N ? e : x->N;
}

/* Token t's payload from src, as this PE's expert reads it: in src's send
 * when pulled (moe_pulled_send), else in the record rec holds. */
MOE_DEV const unsigned char *nm_payload(const nm_ctx_t *x, int src, int t)
{
    const unsigned char *send = moe_pulled_send(x->a, src);

    return (send ? send + (size_t)t * x->a->msg
                 : x->a->b.rec + ((size_t)src * x->N + (size_t)t) * x->a->drec) +
           MOE_HDR_BYTES;
}

/* Stream bookkeeping both kernels share: reset this call's state of my
 * streams.  A dispatch sender starts at its range's first token, a combine
 * sender at its first received record. */
MOE_DEV void nm_reset(const nm_ctx_t *x, int dispatch)
{
    int s;

    if (x->w.lane == 0)
        for (s = (int)x->w.id; s < x->P * x->C; s += (int)x->w.count) {
            int pe = s / x->C, c = s % x->C, r;

            for (r = 0; r < 2; r++) {
                moe_stream_t *st = nm_st(x, r, pe, c);
                st->cursor = r == 0 && dispatch ? c * x->per : 0;
                st->sel = 0, st->done = 0, st->expect = 0, st->n_call = 0;
            }
        }
    moe_warp_sync();
}

/* A chunk of n records at positions [pos, pos + n) of stream (q, c) is
 * written (in q's ring, or in the staging copy): make it q's. */
MOE_DEV void nm_flush(const nm_ctx_t *x, unsigned char *ring, unsigned char *stage, size_t rec,
                      uint64_t *tail, int q, int c, uint64_t pos, uint32_t n, int p2p)
{
    uint64_t *t = &tail[(size_t)x->me * x->C + (size_t)c];

    moe_warp_sync();
    if (p2p) {
        if (x->w.lane == 0) {
            moe_fence_sys();
            gshmemx_signal_op_ch(t, n, GSHMEM_SIGNAL_ADD, q, c % x->nch);
        }
    } else {
        gshmemx_putmem_signal_nbi_warp_ch(nm_slot(x, ring, rec, x->me, c, pos),
                                          nm_slot(x, stage, rec, q, c, pos), n * rec, t, n,
                                          GSHMEM_SIGNAL_ADD, q, c % x->nch);
    }
}

/* ---- dispatch ------------------------------------------------------------ */

/* Token t's selections of PE q's experts, k << 16 | local expert, in k
 * order, into sel; returns how many (0: t sends q nothing). */
MOE_DEV int nm_selections(const nm_ctx_t *x, int t, int q, int32_t *sel)
{
    int k, ns = 0;

    for (k = 0; k < x->K; k++) {
        int e = x->a->b.idx[(size_t)t * x->K + k];
        if (e >= 0 && e / x->L == q)
            sel[ns++] = k << 16 | e % x->L;
    }
    return ns;
}

/* Whether q's previous call on stream (q, c) is still being received. */
MOE_DEV int nm_unacked(const nm_ctx_t *x, int q, int c, uint64_t *word)
{
    const moe_args_t *a = x->a;

    return moe_warp_bcast(&x->w, word,
                          moe_load_acquire(&a->b.d_ack[(size_t)q * x->C + (size_t)c])) +
               1 <
           a->epoch;
}

/* Send stream (q, c) pulled (moe_pulled_send): no ring.  q keeps one record per
 * (source, token) in rec anyway, which the ring's copy-out filled; here I
 * write each record's header and selections there myself, and its token in
 * q's rec_list, and the fin carries the count.  The payload stays in my
 * send, where q's expert reads it.  The whole stream in one step: nothing
 * limits it but the channel's tokens.  (Through the ring, these 48-byte
 * records cost a credit round and a copy each chunk: normal dispatch at the
 * cpu shape, 4 PEs, Xeon, pulled: 575 us through the ring, 475 without.) */
MOE_DEV int nm_dispatch_send_pull(const nm_ctx_t *x, int q, int c, uint64_t *word)
{
    const moe_args_t *a = x->a;
    moe_stream_t *st = nm_st(x, 0, q, c);

    if (st->done || nm_unacked(x, q, c, word))
        return 0;
    if (x->w.lane == 0) {
        int32_t *list = (int32_t *)
            gshmem_ptr(&a->b.rec_list[((size_t)x->me * x->C + (size_t)c) * (size_t)x->per], q);
        uint32_t n = 0;
        int t;

        for (t = c * x->per; t < nm_end(x, c); t++) {
            int32_t sel[MOE_MAX_TOPK];
            int ns = nm_selections(x, t, q, sel);
            unsigned char *r;
            moe_hdr_t h;

            if (ns == 0)
                continue;
            r = (unsigned char *)gshmem_ptr(a->b.rec + ((size_t)x->me * x->N + (size_t)t) * a->drec,
                                            q);
            memset(&h, 0, sizeof h);
            h.token = t, h.reserved[0] = ns;
            memcpy(r, &h, sizeof h);
            memcpy(r + MOE_HDR_BYTES + x->pay, sel, 4 * (size_t)ns); /* readers stop at ns */
            list[n++] = t;
        }
        moe_fence_sys(); /* the records before the fin */
        gshmemx_signal_op_ch(&a->b.d_fin[(size_t)x->me * x->C + c],
                             (uint64_t)a->epoch << NM_EPOCH_BITS | n, GSHMEM_SIGNAL_SET, q,
                             c % x->nch);
        st->n_call = n, st->done = 1;
    }
    moe_warp_sync();
    return 1;
}

/* Receive stream (src, c) pulled: the fin says how many records src wrote. */
MOE_DEV int nm_dispatch_recv_pull(const nm_ctx_t *x, int src, int c, uint64_t *word)
{
    const moe_args_t *a = x->a;
    moe_stream_t *st = nm_st(x, 1, src, c);
    const size_t ix = (size_t)src * x->C + (size_t)c;
    uint64_t fin;

    if (st->done)
        return 0;
    fin = moe_warp_bcast(&x->w, word, moe_load_acquire(&a->b.d_fin[ix]));
    if (fin >> NM_EPOCH_BITS != a->epoch)
        return 0;
    if (x->w.lane == 0) {
        a->b.rec_n[ix] = (int32_t)(fin & ((1ull << NM_EPOCH_BITS) - 1));
        st->n_call = (uint64_t)a->b.rec_n[ix], st->done = 1;
        gshmemx_signal_op_ch(&a->b.d_ack[(size_t)x->me * x->C + c], a->epoch, GSHMEM_SIGNAL_SET,
                             src, c % x->nch);
    }
    moe_warp_sync();
    return 1;
}

/* One step of send stream (q, c): as many records as credit and one chunk
 * allow (a chunk does not wrap the ring).  Returns 1 if it moved. */
MOE_DEV int nm_dispatch_send(const nm_ctx_t *x, int q, int c, uint64_t *word)
{
    const moe_args_t *a = x->a;
    moe_stream_t *st = nm_st(x, 0, q, c);
    uint64_t *sent = nm_cnt(x, NM_D_SENT, q, c), pos = *sent;
    uint64_t head = moe_warp_bcast(&x->w, word,
                                   moe_load_acquire(&a->b.d_head[(size_t)q * x->C + c]));
    int end = nm_end(x, c), p2p = gshmem_ptr(a->b.d_ring, q) != NULL;
    uint32_t n = 0, room = (uint32_t)(x->S - (pos - head));

    if (st->done || nm_unacked(x, q, c, word))
        return 0;
    if (room > (uint32_t)a->chunk)
        room = (uint32_t)a->chunk;
    while (st->cursor < end && n < room) {
        int t = st->cursor, k;
        int32_t sel[MOE_MAX_TOPK];
        int ns = nm_selections(x, t, q, sel);
        unsigned char *r;
        uint64_t at = pos + n;

        moe_warp_sync(); /* every lane has read st->cursor */
        if (x->w.lane == 0)
            st->cursor = t + 1;
        if (ns == 0) {
            moe_warp_sync();
            continue;
        }
        r = p2p ? (unsigned char *)gshmem_ptr(nm_slot(x, a->b.d_ring, a->drec, x->me, c, at), q)
                : nm_slot(x, a->b.d_stage, a->drec, q, c, at);
        moe_warp_copy(&x->w, r, a->b.send + (size_t)t * a->msg, MOE_HDR_BYTES + x->pay);
        moe_warp_sync();
        if (x->w.lane == 0) {
            moe_hdr_t h;
            memset(&h, 0, sizeof h);
            h.token = t, h.reserved[0] = ns;
            memcpy(r, &h, sizeof h);
            for (k = ns; k < x->K; k++)
                sel[k] = -1;
            memcpy(r + MOE_HDR_BYTES + x->pay, sel, 4 * (size_t)x->K);
        }
        n++;
        if ((at + 1) % (uint64_t)x->S == 0)
            break;
    }
    if (n) {
        nm_flush(x, a->b.d_ring, a->b.d_stage, a->drec, a->b.d_tail, q, c, pos, n, p2p);
        if (x->w.lane == 0)
            *sent = pos + n, st->n_call += n;
    }
    moe_warp_sync();
    if (st->cursor >= end) {
        if (x->w.lane == 0) {
            uint64_t fin = (uint64_t)a->epoch << NM_EPOCH_BITS | st->n_call;
            gshmemx_signal_op_ch(&a->b.d_fin[(size_t)x->me * x->C + c], fin, GSHMEM_SIGNAL_SET, q,
                                 c % x->nch);
            st->done = 1;
        }
        moe_warp_sync();
        return 1;
    }
    return n != 0;
}

/* One step of receive stream (src, c): copy out what has landed, give the
 * credit back, and see whether the stream is over. */
MOE_DEV int nm_dispatch_recv(const nm_ctx_t *x, int src, int c, uint64_t *word)
{
    const moe_args_t *a = x->a;
    moe_stream_t *st = nm_st(x, 1, src, c);
    uint64_t *cons = nm_cnt(x, NM_D_CONS, src, c), pos = *cons, n, i;
    const size_t ix = (size_t)src * x->C + (size_t)c;
    uint64_t tail, fin;

    if (st->done)
        return 0;
    tail = moe_warp_bcast(&x->w, word, moe_load_acquire(&a->b.d_tail[ix]));
    n = tail - pos;
    for (i = 0; i < n; i++) {
        const unsigned char *r = nm_slot(x, a->b.d_ring, a->drec, src, c, pos + i);
        moe_hdr_t h;

        memcpy(&h, r, sizeof h);
        moe_warp_copy(&x->w, a->b.rec + ((size_t)src * x->N + (size_t)h.token) * a->drec, r,
                      a->drec);
        if (x->w.lane == 0)
            a->b.rec_list[ix * (size_t)x->per + (size_t)a->b.rec_n[ix]++] = h.token;
    }
    moe_warp_sync();
    if (n && x->w.lane == 0) {
        *cons = tail, st->n_call += n;
        moe_fence_sys(); /* the copies are done before the slots are handed back */
        gshmemx_signal_op_ch(&a->b.d_head[(size_t)x->me * x->C + c], n, GSHMEM_SIGNAL_ADD, src,
                             c % x->nch);
    }
    moe_warp_sync();
    fin = moe_warp_bcast(&x->w, word, moe_load_acquire(&a->b.d_fin[ix]));
    if (fin >> NM_EPOCH_BITS == a->epoch && (fin & ((1ull << NM_EPOCH_BITS) - 1)) == st->n_call) {
        if (x->w.lane == 0) {
            st->done = 1;
            gshmemx_signal_op_ch(&a->b.d_ack[(size_t)x->me * x->C + c], a->epoch, GSHMEM_SIGNAL_SET,
                                 src, c % x->nch);
        }
        moe_warp_sync();
        return 1;
    }
    moe_warp_sync();
    return n != 0;
}

/* Drive every stream of this warp, sending and receiving, until all are
 * done: the dispatch's (combine 0) or the combine's (1).  A warp that makes
 * no progress pauses; after GSHMEM_DEVICE_WAIT_TIMEOUT without any, the
 * job ends with a report. */
MOE_DEV int nm_combine_send(const nm_ctx_t *x, int hp, int c, uint64_t *word);
MOE_DEV int nm_combine_recv(const nm_ctx_t *x, int q, int c, uint64_t *word);

MOE_DEV void nm_drive(const nm_ctx_t *x, int combine, uint64_t *word)
{
    gsd_poll_t poll = GSD_POLL_INIT;

    for (;;) {
        int busy = 0, moved = 0;

        for (int s = (int)x->w.id; s < x->P * x->C; s += (int)x->w.count) {
            int q = s / x->C, c = s % x->C;

            if (combine)
                moved |= nm_combine_send(x, q, c, word) | nm_combine_recv(x, q, c, word);
            else if (moe_pulled_send(x->a, q)) /* load/store is mutual: both ways */
                moved |= nm_dispatch_send_pull(x, q, c, word) |
                         nm_dispatch_recv_pull(x, q, c, word);
            else
                moved |= nm_dispatch_send(x, q, c, word) | nm_dispatch_recv(x, q, c, word);
            busy |= !nm_st(x, 0, q, c)->done || !nm_st(x, 1, q, c)->done;
        }
        if (!busy)
            break;
        if (moved)
            poll.polls = 0, poll.start_ns = 0;
        else
            gsd_poll_step(&poll, combine ? "moe normal-mode combine" : "moe normal-mode dispatch",
                          "the streams of this warp", word, "done", 1, 0);
    }
}

GSHMEM_KERNEL_BOUNDED(moe_nm_dispatch_kernel, moe_args_t, a, MOE_MAX_THREADS)
{
    const nm_ctx_t x = nm_ctx(&a);
    uint64_t *word = &a.b.warp_word[x.w.id];
    int t, s;

    for (t = (int)x.w.id; t < a.live; t += (int)x.w.count)
        moe_pack_warp(&x.w, &a, t, a.b.send + (size_t)t * a.msg);
    nm_reset(&x, 1);
    if (x.w.lane == 0)
        for (s = (int)x.w.id; s < x.P * x.C; s += (int)x.w.count)
            a.b.rec_n[s] = 0;
    moe_grid_sync(&a.b.done[2], a.epoch * gshmemx_grid_blocks());

    nm_drive(&x, 0, word);
}

/* ---- the toy expert ------------------------------------------------------ */

GSHMEM_KERNEL_BOUNDED(moe_nm_expert_kernel, moe_args_t, a, MOE_MAX_THREADS)
{
    const nm_ctx_t x = nm_ctx(&a);
    const int H = a.s.hidden;
    unsigned base = 0;
    int s, r, j, h;

    for (s = 0; s < x.P * x.C; s++) {
        int n = a.b.rec_n[s], src = s / x.C;

        for (r = (int)((x.w.id + x.w.count - base % x.w.count) % x.w.count); r < n;
             r += (int)x.w.count) {
            int t = a.b.rec_list[(size_t)s * x.per + r];
            const unsigned char *rec = a.b.rec + ((size_t)src * x.N + (size_t)t) * a.drec;
            const unsigned char *pay = nm_payload(&x, src, t);
            const int32_t *sel = (const int32_t *)(rec + MOE_HDR_BYTES + x.pay);
            moe_hdr_t hd;

            memcpy(&hd, rec, sizeof hd);
            for (j = 0; j < hd.reserved[0]; j++) {
                int e = x.me * x.L + (sel[j] & 0xffff);
                size_t row = ((size_t)src * x.N + (size_t)t) * (size_t)a.sel_max + (size_t)j;
                moe_bf16_t *y = a.b.expert_out + row * H;

                if (x.w.size == 1)
                    moe_expert_span(pay, H, a.s.dtype, e, y, 0, H);
                else
                    for (h = (int)x.w.lane; h < H; h += (int)x.w.size)
                        y[h] = moe_expert_value(moe_payload_value(pay, H, a.s.dtype, h), e);
            }
        }
        base += (unsigned)n;
    }
}

/* ---- combine ------------------------------------------------------------- */

/* Send stream (h, c): the rows of the tokens home PE h sent on channel c. */
MOE_DEV int nm_combine_send(const nm_ctx_t *x, int hp, int c, uint64_t *word)
{
    const moe_args_t *a = x->a;
    moe_stream_t *st = nm_st(x, 0, hp, c);
    const size_t ix = (size_t)hp * x->C + (size_t)c, row = moe_comb_bytes(a->s.hidden);
    uint64_t *sent = nm_cnt(x, NM_C_SENT, hp, c), pos = *sent;
    uint64_t head = moe_warp_bcast(&x->w, word, moe_load_acquire(&a->b.c_head[ix]));
    int p2p = gshmem_ptr(a->b.c_ring, hp) != NULL, entries = a->b.rec_n[ix];
    uint32_t n = 0, room = (uint32_t)(x->S - (pos - head));

    if (st->done)
        return 0;
    if (room > (uint32_t)a->chunk)
        room = (uint32_t)a->chunk;
    while (st->cursor < entries && n < room) {
        int t = a->b.rec_list[ix * (size_t)x->per + (size_t)st->cursor], j = st->sel;
        const unsigned char *rec = a->b.rec + ((size_t)hp * x->N + (size_t)t) * a->drec;
        moe_hdr_t h;
        int32_t sel;
        unsigned char *r;
        uint64_t at = pos + n;

        memcpy(&h, rec, sizeof h);
        memcpy(&sel, rec + MOE_HDR_BYTES + x->pay + 4 * (size_t)j, 4);
        r = p2p ? (unsigned char *)gshmem_ptr(nm_slot(x, a->b.c_ring, a->crec, x->me, c, at), hp)
                : nm_slot(x, a->b.c_stage, a->crec, hp, c, at);
        moe_warp_copy(&x->w, r + MOE_HDR_BYTES,
                      a->b.expert_out +
                          (((size_t)hp * x->N + (size_t)t) * (size_t)a->sel_max + (size_t)j) *
                              (size_t)a->s.hidden,
                      row);
        moe_warp_sync();
        if (x->w.lane == 0) {
            moe_hdr_t o;
            memset(&o, 0, sizeof o);
            o.token = t, o.reserved[0] = sel >> 16;
            memcpy(r, &o, sizeof o);
            if (j + 1 < h.reserved[0])
                st->sel = j + 1;
            else
                st->sel = 0, st->cursor++;
        }
        moe_warp_sync();
        n++;
        if ((at + 1) % (uint64_t)x->S == 0)
            break;
    }
    if (n) {
        nm_flush(x, a->b.c_ring, a->b.c_stage, a->crec, a->b.c_tail, hp, c, pos, n, p2p);
        if (x->w.lane == 0)
            *sent = pos + n, st->n_call += n;
    }
    moe_warp_sync();
    if (st->cursor >= entries) {
        if (x->w.lane == 0)
            st->done = 1;
        moe_warp_sync();
        return 1;
    }
    return n != 0;
}

/* Receive stream (q, c): rows of my channel-c tokens from expert PE q. */
MOE_DEV int nm_combine_recv(const nm_ctx_t *x, int q, int c, uint64_t *word)
{
    const moe_args_t *a = x->a;
    moe_stream_t *st = nm_st(x, 1, q, c);
    const size_t ix = (size_t)q * x->C + (size_t)c, row = moe_comb_bytes(a->s.hidden);
    uint64_t *cons = nm_cnt(x, NM_C_CONS, q, c), pos = *cons, n, i, tail;

    if (st->done)
        return 0;
    tail = moe_warp_bcast(&x->w, word, moe_load_acquire(&a->b.c_tail[ix]));
    n = tail - pos;
    for (i = 0; i < n; i++) {
        const unsigned char *r = nm_slot(x, a->b.c_ring, a->crec, q, c, pos + i);
        moe_hdr_t h;
        size_t at;

        memcpy(&h, r, sizeof h);
        at = (size_t)h.token * x->K + (size_t)h.reserved[0]; /* (token, k) */
        moe_warp_copy(&x->w, a->b.comb_rows + at * a->s.hidden, r + MOE_HDR_BYTES, row);
    }
    moe_warp_sync();
    if (n && x->w.lane == 0) {
        *cons = tail, st->n_call += n;
        moe_fence_sys();
        gshmemx_signal_op_ch(&a->b.c_head[(size_t)x->me * x->C + c], n, GSHMEM_SIGNAL_ADD, q,
                             c % x->nch);
    }
    moe_warp_sync();
    if (st->n_call >= (uint64_t)st->expect) {
        if (x->w.lane == 0)
            st->done = 1;
        moe_warp_sync();
        return 1;
    }
    return n != 0;
}

GSHMEM_KERNEL_BOUNDED(moe_nm_combine_kernel, moe_args_t, a, MOE_MAX_THREADS)
{
    const nm_ctx_t x = nm_ctx(&a);
    uint64_t *word = &a.b.warp_word[x.w.id];
    const int H = a.s.hidden;
    int s, t, k, h, q;

    nm_reset(&x, 0);
    /* Load/store homes read my rows in place: tell them they are complete
     * (the expert kernel has ended; the fence orders its stores). */
    if (!a.push && x.w.id == 0 && x.w.lane == 0) {
        moe_fence_sys();
        for (q = 0; q < x.P; q++)
            if (gshmem_ptr(a.b.c_ready, q) != NULL)
                gshmemx_signal_op_ch(&a.b.c_ready[x.me], a.epoch, GSHMEM_SIGNAL_SET, q, 0);
    }
    /* What each receive stream is due: my channel-c tokens' experts on q
     * (none from a load/store q, nor any to send it, unless pushing). */
    if (x.w.lane == 0)
        for (s = (int)x.w.id; s < x.P * x.C; s += (int)x.w.count) {
            int c = s % x.C, n = 0;

            q = s / x.C;
            if (!a.push && gshmem_ptr(a.b.c_ready, q) != NULL) {
                nm_st(&x, 0, q, c)->done = 1;
                continue;
            }
            for (t = c * x.per; t < nm_end(&x, c); t++)
                for (k = 0; k < x.K; k++) {
                    int e = a.b.idx[(size_t)t * x.K + k];
                    n += e >= 0 && e / x.L == q;
                }
            nm_st(&x, 1, q, c)->expect = n;
        }
    moe_warp_sync();

    nm_drive(&x, 1, word);
    moe_grid_sync(&a.b.done[3], a.epoch * gshmemx_grid_blocks());
    if (!a.push && x.w.lane == 0)
        for (q = 0; q < x.P; q++)
            if (gshmem_ptr(a.b.c_ready, q) != NULL)
                gshmem_signal_wait_until(&a.b.c_ready[q], GSHMEM_CMP_GE, a.epoch);
    moe_warp_sync();

    for (t = (int)x.w.id; t < a.live; t += (int)x.w.count) {
        const int32_t *ti = a.b.idx + (size_t)t * x.K;
        const float *tw = a.b.w + (size_t)t * x.K;
        const moe_bf16_t *rows[MOE_MAX_TOPK];
        moe_bf16_t *o = a.b.out + (size_t)t * H;

        for (k = 0; k < x.K; k++) {
            const moe_bf16_t *r = NULL;
            int e = ti[k], j, n;

            if (e >= 0 && !a.push) { /* in place on a load/store expert PE: */
                q = e / x.L;         /* [me][t][j], j = k's place in t's list for q */
                for (j = n = 0; j < k; j++)
                    n += ti[j] >= 0 && ti[j] / x.L == q;
                r = (const moe_bf16_t *)gshmem_ptr(a.b.expert_out +
                                                       (((size_t)x.me * x.N + (size_t)t) *
                                                            (size_t)a.sel_max +
                                                        (size_t)n) *
                                                           H,
                                                   q);
            }
            rows[k] = r ? r : a.b.comb_rows + ((size_t)t * x.K + (size_t)k) * H;
        }
        if (x.w.size == 1)
            moe_combine_span(ti, tw, x.K, rows, o, 0, H);
        else
            for (h = (int)x.w.lane; h < H; h += (int)x.w.size)
                o[h] = moe_combine_value(ti, tw, x.K, rows, h);
    }
}

int moe_nm_dispatch(moe_t *m)
{
    m->a.epoch = ++m->epoch_dispatch;
    return MOE_RUN(moe_nm_dispatch_kernel, m);
}

int moe_nm_expert(moe_t *m)
{
    m->a.epoch = m->epoch_dispatch;
    return MOE_RUN(moe_nm_expert_kernel, m);
}

int moe_nm_combine(moe_t *m)
{
    m->a.epoch = ++m->epoch_combine;
    return MOE_RUN(moe_nm_combine_kernel, m);
}
