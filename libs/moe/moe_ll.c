/*
 * moe_ll.c - low-latency dispatch and combine (DeepEP "LL" style).
 *
 * Dispatch, per warp and token t: quantize t once into send[buf][t] (header
 * {t} + payload); for each of its experts e (PE q = e / L, local expert
 * le), take slot = slot_ctr[e]++ and move the message to q's
 * recv[buf][le][me][slot]: plain stores when gshmem_ptr gives q's copy
 * (streamed on host lanes when q is another PE: moe_warp_send),
 * else putmem_signal_nbi_warp on channel le that also adds 1 to q's
 * recv_arrive[buf][le][me].  On host lanes (a.pull) a load/store q, this
 * PE included, gets no copy: only t, in its recv_tok[buf][le][me][slot],
 * and its expert reads the message in this PE's send[buf][t] (ll_msg).
 * Every PE of a node shares one memory there, so the copy moved bytes the
 * expert then read once more; LL dispatch at the cpu shape, 4 PEs, Xeon:
 * 820 -> 430 us.  A GPU's expert reads its own HBM, so there the message
 * crosses NVLink in dispatch, as DeepEP's does (MOE_PUSH=1: host lanes
 * too, which the tests run).  The last block to finish sends each expert's
 * count as ONE signal, epoch << 32 | proxy << 31 | n: never zero, so an
 * expert that got nothing still hears so, and never reset, since each call
 * waits for its own epoch.  The receiving warps wait for the counts, and
 * for the proxy path also for the arrivals (cumulative, so never reset).
 *
 * Combine mirrors it for proxy peers: the expert output row of message
 * (le, src, i), whose header says token t, goes to src's
 * comb_recv[buf][e][t] with put-with-signal (adds 1 to src's
 * comb_arrive[buf][me]).  A load/store peer gets no copy: after a fence,
 * one signal adds the number of its rows to its comb_arrive[buf][me], and
 * it reads each row where the expert wrote it, expert_out[buf][le][src]
 * [slot] on this PE (it kept the slot from dispatch), in its reduction:
 * the data crosses once, in the reduction's own loads (MOE_PUSH=1
 * copies them into comb_recv instead, as for proxy peers).  Each PE knows
 * how many rows to expect from each PE (what it sent there), waits for
 * them, and reduces each token over its top-k in k order with its weights.
 * Load/store reachability is taken to be mutual (peers on one node map
 * each other's heaps).
 *
 * buf = epoch & 1: two calls can be in flight without a barrier.  That
 * holds for send too: a put of dispatch n through the proxy reads its
 * source when the proxy gets to it, which may be after this PE's dispatch
 * n has returned (that waits for what arrives here, not for what it sent),
 * and a pulled message is read until its reader's combine n, so dispatch
 * n + 1 packs into the other half.  Dispatch n + 2 may reuse the half: it
 * follows combine n, which waited for the counts each destination sends
 * in its combine n, after its expert (and its own combine's reads of the
 * headers) are done with dispatch n's messages.
 */
#include "moe.h"
#include "moe_dev.h"

MOE_DEV size_t ll_ix3(const moe_args_t *a, unsigned buf, int le, int pe)
{
    return ((size_t)buf * (size_t)a->local_experts + (size_t)le) * (size_t)a->s.npes + (size_t)pe;
}

MOE_DEV unsigned char *ll_recv_slot(const moe_args_t *a, unsigned buf, int le, int src, int slot)
{
    return a->b.recv + (ll_ix3(a, buf, le, src) * (size_t)a->s.tokens + (size_t)slot) * a->msg;
}

/* Message i from src to local expert le: in src's send, where the pull
 * left it (a load/store source), else in this PE's recv slot. */
MOE_DEV const unsigned char *ll_msg(const moe_args_t *a, unsigned buf, int le, int src, int i)
{
    const unsigned char *send = moe_pulled_send(a, src);

    if (send == NULL)
        return ll_recv_slot(a, buf, le, src, i);
    return send +
           ((size_t)buf * (size_t)a->s.tokens +
            (size_t)a->b.recv_tok[ll_ix3(a, buf, le, src) * (size_t)a->s.tokens + (size_t)i]) *
               a->msg;
}

MOE_DEV moe_bf16_t *ll_expert_row(const moe_args_t *a, unsigned buf, int le, int src, int slot)
{
    return a->b.expert_out +
           (ll_ix3(a, buf, le, src) * (size_t)a->s.tokens + (size_t)slot) * (size_t)a->s.hidden;
}

MOE_DEV moe_bf16_t *ll_comb_row(const moe_args_t *a, unsigned buf, int e, int t)
{
    size_t i = ((size_t)buf * (size_t)a->s.experts + (size_t)e) * (size_t)a->s.tokens + (size_t)t;

    return a->b.comb_recv + i * (size_t)a->s.hidden;
}

GSHMEM_KERNEL_BOUNDED(moe_ll_dispatch_kernel, moe_args_t, a, MOE_MAX_THREADS)
{
    const moe_warp_t w = moe_warp_self();
    const int N = a.s.tokens, K = a.s.topk, L = a.local_experts, P = a.s.npes, me = a.my_pe;
    const unsigned buf = a.epoch & 1u;
    const int nch = gshmemx_n_channels();
    const unsigned tid = gshmemx_thread_id(), nthr = gshmemx_block_threads();
    int t, k, item;

    /* Slots first, then the messages: the warp takes every slot of its
     * tokens (lane k the token's k-th expert) before it stores a byte to
     * another PE.  A fetch-add between two messages waits on the host for
     * the stores before it (x86 locked instructions drain the store
     * buffer), and a message's stores miss (the slot's line is in the
     * reader's cache from the call before): taken per message, each
     * message's misses were paid one after another.  LL dispatch at the
     * cpu shape, 4 PEs, Xeon (plain stores): 1200 -> 975 us. */
    for (t = (int)w.id; t < a.live; t += (int)w.count)
        for (k = (int)w.lane; k < K; k += (int)w.size) {
            int e = a.b.idx[(size_t)t * K + k];

            if (e >= 0)
                a.b.slot_of[((size_t)buf * N + (size_t)t) * K + k] =
                    (int32_t)moe_fetch_add32(&a.b.slot_ctr[e], 1);
        }
    moe_warp_sync();

    /* Send: one warp per token, its experts in k order. */
    for (t = (int)w.id; t < a.live; t += (int)w.count) {
        unsigned char *msg = a.b.send + ((size_t)buf * N + (size_t)t) * a.msg;

        moe_pack_warp(&w, &a, t, msg);
        for (k = 0; k < K; k++) {
            int e = a.b.idx[(size_t)t * K + k], q, le, slot;
            unsigned char *dst;
            void *p;

            if (e < 0)
                continue;
            q = e / L, le = e % L;
            slot = a.b.slot_of[((size_t)buf * N + (size_t)t) * K + k];
            dst = ll_recv_slot(&a, buf, le, me, slot);
            if (a.pull && (p = gshmem_ptr(&a.b.recv_tok[ll_ix3(&a, buf, le, me) * N + slot], q))) {
                if (w.lane == 0)
                    *(int32_t *)p = t; /* q reads the message here, in send */
            } else if ((p = gshmem_ptr(dst, q)) == NULL)
                gshmemx_putmem_signal_nbi_warp_ch(dst, msg, a.msg,
                                                  &a.b.recv_arrive[ll_ix3(&a, buf, le, me)], 1,
                                                  GSHMEM_SIGNAL_ADD, q, le % nch);
            else if (q != me)
                moe_warp_send(&w, p, msg, a.msg);
            else
                moe_warp_copy(&w, p, msg, a.msg); /* this PE's expert reads it from cache */
        }
    }
    moe_warp_send_done(&w);

    /* Counts: by the last block, once every message is out (its stores
     * fenced), spread over its threads: thread j sends the counts of
     * experts j, j + threads, ... (one signal each, on the expert's
     * channel), so the experts' signals leave in parallel instead of one
     * after another from one thread.  First each PE's total (what combine
     * will expect back from it), then, after a block barrier, the signals,
     * which reset the counters the totals read. */
    if (moe_last_block_all(&a.b.done[0], &a.b.warp_word[w.id - tid / MOE_WARP])) {
        uint32_t *sent = a.b.sent_pe + (size_t)buf * P;
        int e, q;

        for (q = (int)tid; q < P; q += (int)nthr) {
            uint32_t n = 0;
            int le;

            for (le = 0; le < L; le++)
                n += a.b.slot_ctr[q * L + le];
            sent[q] = n;
            a.b.comb_cum[(size_t)buf * P + q] += n;
        }
        gshmemx_syncthreads();
        for (e = (int)tid; e < a.s.experts; e += (int)nthr) {
            uint32_t n = a.b.slot_ctr[e];
            uint64_t *sig = &a.b.recv_sig[ll_ix3(&a, buf, e % L, me)];
            uint64_t proxy;

            q = e / L;
            proxy = gshmem_ptr(sig, q) == NULL;
            a.b.slot_ctr[e] = 0;
            gshmemx_signal_op_ch(sig, (uint64_t)a.epoch << 32 | proxy << 31 | n, GSHMEM_SIGNAL_SET,
                                 q, (e % L) % nch);
        }
    }

    /* Receive: one warp per (local expert, source PE). */
    for (item = (int)w.id; item < L * P; item += (int)w.count) {
        int le = item / P, src = item % P;
        size_t i3 = ll_ix3(&a, buf, le, src);

        if (w.lane == 0) {
            uint64_t v = gshmem_signal_wait_until(&a.b.recv_sig[i3], GSHMEM_CMP_GE,
                                                  (uint64_t)a.epoch << 32);
            uint32_t n = (uint32_t)(v & 0x7fffffffu);

            if ((v >> 31) & 1u) {
                a.b.recv_cum[i3] += n;
                gshmem_signal_wait_until(&a.b.recv_arrive[i3], GSHMEM_CMP_GE, a.b.recv_cum[i3]);
            }
            a.b.recv_n[i3] = (int32_t)n;
        }
    }
}

/* Messages of this call, spread over the warps: runs the body with le,
 * src and i (message i from PE src to local expert le) set. */
#define LL_FOR_EACH_MSG(a, w, buf, ...)                                                       \
    do {                                                                                      \
        unsigned base_ = 0;                                                                   \
        int le, src, i;                                                                       \
        for (le = 0; le < (a).local_experts; le++)                                            \
            for (src = 0; src < (a).s.npes; src++) {                                          \
                int n_ = (a).b.recv_n[ll_ix3(&(a), buf, le, src)];                            \
                for (i = (int)(((w).id + (w).count - base_ % (w).count) % (w).count); i < n_; \
                     i += (int)(w).count) {                                                   \
                    __VA_ARGS__                                                               \
                }                                                                             \
                base_ += (unsigned)n_;                                                        \
            }                                                                                 \
    } while (0)

/* The toy expert: expert e multiplies by e + 1. */
GSHMEM_KERNEL_BOUNDED(moe_ll_expert_kernel, moe_args_t, a, MOE_MAX_THREADS)
{
    const moe_warp_t w = moe_warp_self();
    const unsigned buf = a.epoch & 1u;
    const int H = a.s.hidden;

    LL_FOR_EACH_MSG(a, w, buf, {
        const unsigned char *p = ll_msg(&a, buf, le, src, i) + MOE_HDR_BYTES;
        moe_bf16_t *y = ll_expert_row(&a, buf, le, src, i);
        int e = a.my_pe * a.local_experts + le, h;

        if (w.size == 1)
            moe_expert_span(p, H, a.s.dtype, e, y, 0, H);
        else
            for (h = (int)w.lane; h < H; h += (int)w.size)
                y[h] = moe_expert_value(moe_payload_value(p, H, a.s.dtype, h), e);
    });
}

GSHMEM_KERNEL_BOUNDED(moe_ll_combine_kernel, moe_args_t, a, MOE_MAX_THREADS)
{
    const moe_warp_t w = moe_warp_self();
    const int N = a.s.tokens, K = a.s.topk, L = a.local_experts, P = a.s.npes, me = a.my_pe;
    const int H = a.s.hidden;
    const unsigned buf = a.epoch & 1u;
    const size_t row_bytes = moe_comb_bytes(H);
    const int nch = gshmemx_n_channels();
    const unsigned tid = gshmemx_thread_id(), nthr = gshmemx_block_threads();
    int t, q;

    /* Send each expert output row home. */
    LL_FOR_EACH_MSG(a, w, buf, {
        moe_hdr_t hdr;
        moe_bf16_t *dst, *row = ll_expert_row(&a, buf, le, src, i);
        void *p;

        memcpy(&hdr, ll_msg(&a, buf, le, src, i), sizeof hdr);
        dst = ll_comb_row(&a, buf, me * L + le, hdr.token);
        if ((p = gshmem_ptr(dst, src)) != NULL) {
            if (a.push)
                moe_warp_copy(&w, p, row, row_bytes);
            /* else src reads the row where it is */
        } else
            gshmemx_putmem_signal_nbi_warp_ch(dst, row, row_bytes,
                                              &a.b.comb_arrive[(size_t)buf * P + me], 1,
                                              GSHMEM_SIGNAL_ADD, src, le % nch);
    });

    /* Load/store peers: one count per home PE, after the rows (pushed, or
     * left in expert_out for it to read: the fence covers the expert's
     * stores too). */
    if (moe_last_block_all(&a.b.done[1], &a.b.warp_word[w.id - tid / MOE_WARP])) {
        uint64_t *sig = &a.b.comb_arrive[(size_t)buf * P + me];

        /* One home PE per thread of the last block. */
        for (q = (int)tid; q < P; q += (int)nthr) {
            uint64_t m = 0;
            int le;

            if (gshmem_ptr(sig, q) == NULL)
                continue;
            for (le = 0; le < L; le++)
                m += (uint64_t)a.b.recv_n[ll_ix3(&a, buf, le, q)];
            if (m)
                gshmemx_signal_op_ch(sig, m, GSHMEM_SIGNAL_ADD, q, 0);
        }
    }

    /* Wait for every row due here, then reduce. */
    if (w.lane == 0)
        for (q = 0; q < P; q++)
            gshmem_signal_wait_until(&a.b.comb_arrive[(size_t)buf * P + q], GSHMEM_CMP_GE,
                                     a.b.comb_cum[(size_t)buf * P + q]);
    moe_warp_sync();
    for (t = (int)w.id; t < a.live; t += (int)w.count) {
        const int32_t *ti = a.b.idx + (size_t)t * K;
        const float *tw = a.b.w + (size_t)t * K;
        const moe_bf16_t *rows[MOE_MAX_TOPK];
        moe_bf16_t *o = a.b.out + (size_t)t * H;
        int k, h;

        for (k = 0; k < K; k++) {
            int e = ti[k];

            rows[k] = o;
            if (e >= 0) {
                /* A load/store expert PE's row is read in place (unless pushed). */
                int slot = a.b.slot_of[((size_t)buf * N + (size_t)t) * K + k];
                const moe_bf16_t *r = ll_expert_row(&a, buf, e % L, me, slot);
                const moe_bf16_t *p = a.push ? NULL : (const moe_bf16_t *)gshmem_ptr(r, e / L);

                rows[k] = p ? p : ll_comb_row(&a, buf, e, t);
            }
        }
        if (w.size == 1)
            moe_combine_span(ti, tw, K, rows, o, 0, H);
        else if (moe_combine_vec8_ok(rows, K, o, H))
            for (h = 8 * (int)w.lane; h < H; h += 8 * (int)w.size)
                moe_combine_vec8(ti, tw, K, rows, o, h);
        else
            for (h = (int)w.lane; h < H; h += (int)w.size)
                o[h] = moe_combine_value(ti, tw, K, rows, h);
    }
}

/* The launch shape, per backend, in one place.  On a GPU it follows the
 * SM count, as DeepEP's does: communication kernels take a share of the
 * SMs, with many warps each, and leave the rest to the computation beside
 * them.  Low-latency mode: a quarter of the SMs (33 on an H200's 132), at
 * least 4, 512 threads (16 warps, MOE_MAX_THREADS, the kernels' launch
 * bound) each; normal mode: 24 SMs (DeepEP's default) or all where fewer,
 * 512 threads.  The launch is cooperative, so every block must be
 * resident: one block per SM always is.  These are starting points to
 * tune with the GPU kit (compiled, not run).  On host lanes every lane is
 * a host thread, so one lane per PE (a one-lane warp, whose warp barrier
 * is free) does the work of all.  MOE_BLOCKS / MOE_THREADS override it
 * (the tests run the many-lane code on host lanes too). */
void moe_default_launch(moe_mode_t mode, unsigned *blocks, unsigned *threads)
{
#if defined(__CUDACC__)
    int dev = 0, sms = 0;

    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess || sms < 1)
        sms = 32; /* no answer: a launch that fits any GPU gshmem supports */
    if (mode == MOE_LL)
        *blocks = sms / 4 < 4 ? (unsigned)(sms < 4 ? sms : 4) : (unsigned)(sms / 4);
    else
        *blocks = (unsigned)(sms < 24 ? sms : 24);
    *threads = MOE_MAX_THREADS;
#else
    (void)mode;
    *blocks = 1;
    *threads = 1;
#endif
}

int moe_ll_dispatch(moe_t *m)
{
    m->a.epoch = ++m->epoch_dispatch;
    return MOE_RUN(moe_ll_dispatch_kernel, m);
}

int moe_ll_expert(moe_t *m)
{
    m->a.epoch = m->epoch_dispatch;
    return MOE_RUN(moe_ll_expert_kernel, m);
}

int moe_ll_combine(moe_t *m)
{
    m->a.epoch = ++m->epoch_combine;
    return MOE_RUN(moe_ll_combine_kernel, m);
}

/* moe_quiet: every operation this PE's kernels issued is complete,
 * through the proxy too (device code issued them, so a kernel quiets). */
GSHMEM_KERNEL(moe_quiet_kernel, int, unused)
{
    (void)unused;
    gshmem_quiet();
}

int moe_quiet(void)
{
    int unused = 0;

    return GSHMEM_LAUNCH(moe_quiet_kernel, 1, 1, unused);
}

/* moe_pe_is_p2p: asked from a kernel, where gshmem_ptr lives on a GPU. */
GSHMEM_KERNEL(moe_probe_kernel, uint64_t *, w)
{
    w[1] = gshmem_ptr(w, (int)w[0]) != NULL;
}

int moe_pe_is_p2p(int pe)
{
    uint64_t *w = (uint64_t *)gshmem_calloc(2, sizeof(uint64_t)), v[2] = {(uint64_t)pe, 0};
    int rc;

    if (w == NULL)
        return 0;
    gshmemx_memcpy_to_device(w, v, sizeof v);
    rc = GSHMEM_LAUNCH(moe_probe_kernel, 1, 1, w);
    gshmemx_memcpy_from_device(v, w, sizeof v);
    gshmem_free(w);
    return rc == 0 && v[1] != 0;
}
