/*
 * tests/device/ring.c - a stress of the device paths across PEs: every lane
 * of every PE sends M messages of mixed sizes (1 byte to 1 KiB) and mixed
 * routines to PEs in turn (itself included), each message with a signal
 * word of its own; every receiving lane waits for each signal meant for it
 * and checks every byte of that message at once (and that the bytes past
 * it are untouched).  At the end every signal word holds exactly its tag
 * (an ADD delivered twice would not) and each PE's byte counter, which
 * every message adds its length to, is exact.  In the proxy mode (the
 * -net.net twin) all of it goes through the channels: lost, duplicated or
 * reordered descriptors show as a wait that times out, a wrong tag or
 * count, or data missing when its signal is there.
 *
 * Built as ring_tiny with -DRING_TINY, the program sets GSHMEM_PROXY_RING=16
 * (and two channels, two proxy threads) before shmem_init: every channel
 * wraps again and again and producers wait for credit all the time.
 */
#include "dev_test.h"

#define M 192     /* messages per lane */
#define SLOT 1024 /* bytes per message slot */

enum {
    V_SIG_SET_NBI,
    V_SIG_ADD,
    V_U64_SIG_ADD_NBI,
    V_PUT_FENCE,
    V_P_FENCE,
    V_BLOCKING_FENCE,
    V_CH,
    NV
};

DT_HD size_t msg_len(int s, unsigned l, int m)
{
    static const unsigned short tab[8] = {1, 3, 8, 17, 64, 255, 512, 1024};

    return tab[((unsigned)m * 3u + l + (unsigned)s) % 8u];
}
DT_HD int msg_var(unsigned l, int m)
{
    return (int)((l + (unsigned)m) % NV);
}
DT_HD int msg_dest(int s, unsigned l, int m, int npes)
{
    return (int)(((unsigned)s + 1u + (l + (unsigned)m) % (unsigned)npes) % (unsigned)npes);
}
DT_HD uint64_t msg_tag(int s, unsigned l, int m)
{
    return (uint64_t)(s + 1) << 40 | (uint64_t)l << 16 | (uint64_t)(m + 1);
}

typedef struct ring_args {
    uint64_t *fails;
    char *src;       /* [lanes][M][SLOT]: this PE's pattern */
    char *data;      /* [npes][lanes][M][SLOT] */
    uint64_t *sig;   /* [npes][lanes][M] */
    uint64_t *bytes; /* [1]: lengths of the messages received */
    int me, npes;
    unsigned lanes;
} ring_args_t;

DT_FN size_t slot_of(int s, unsigned l, int m, unsigned lanes)
{
    return ((size_t)s * lanes + l) * M + (size_t)m;
}

/* Message m of this lane (kept out of line under nvcc: see DT_NOINL). */
DT_NOINL void send(const ring_args_t *a, unsigned l, int m)
{
    int r = msg_dest(a->me, l, m, a->npes);
    int ch = (int)((l + (unsigned)m) % (unsigned)gshmemx_n_channels());
    size_t n = msg_len(a->me, l, m), k = slot_of(a->me, l, m, a->lanes), i;
    char *d = a->data + k * SLOT;
    const char *s = a->src + ((size_t)l * M + m) * SLOT;
    uint64_t *sig = &a->sig[k], tag = msg_tag(a->me, l, m);

    switch (msg_var(l, m)) {
    case V_SIG_SET_NBI:
        gshmem_putmem_signal_nbi(d, s, n, sig, tag, GSHMEM_SIGNAL_SET, r);
        break;
    case V_SIG_ADD: gshmem_putmem_signal(d, s, n, sig, tag, GSHMEM_SIGNAL_ADD, r); break;
    case V_U64_SIG_ADD_NBI: /* whole words, then the tail as bytes */
        if (n >= 8)
            gshmem_uint64_put_signal_nbi((uint64_t *)(void *)d,
                                         (const uint64_t *)(const void *)s, n / 8, sig, tag - 1,
                                         GSHMEM_SIGNAL_ADD, r);
        gshmem_putmem_nbi(d + n / 8 * 8, s + n / 8 * 8, n % 8, r);
        gshmem_fence();
        gshmemx_signal_op(sig, n >= 8 ? 1 : tag, GSHMEM_SIGNAL_ADD, r);
        break;
    case V_PUT_FENCE:
        gshmem_putmem_nbi(d, s, n, r);
        gshmem_fence();
        gshmemx_signal_op(sig, tag, GSHMEM_SIGNAL_SET, r);
        break;
    case V_P_FENCE: /* every p size: 8, then 4, 2, 1 for the tail */
#define P_AT(T, N) gshmem_##N##_p((T *)(void *)(d + i), *(const T *)(const void *)(s + i), r)
        for (i = 0; i + 8 <= n; i += 8)
            P_AT(uint64_t, uint64);
        if (i + 4 <= n)
            P_AT(uint32_t, uint32), i += 4;
        if (i + 2 <= n)
            P_AT(uint16_t, uint16), i += 2;
        if (i < n)
            P_AT(uint8_t, uint8);
#undef P_AT
        gshmem_fence();
        gshmemx_signal_op(sig, tag, GSHMEM_SIGNAL_ADD, r);
        break;
    case V_BLOCKING_FENCE:
        gshmem_char_put(d, s, n, r);
        gshmem_fence();
        gshmemx_signal_op(sig, tag, GSHMEM_SIGNAL_SET, r);
        break;
    case V_CH: gshmemx_putmem_signal_nbi_ch(d, s, n, sig, tag, GSHMEM_SIGNAL_SET, r, ch); break;
    }
    gshmem_uint64_atomic_add(a->bytes, n, r);
}

/* Wait for, and check, message m of (sender s, lane l). */
DT_NOINL void receive(const ring_args_t *a, int s, unsigned l, int m)
{
    size_t n = msg_len(s, l, m), k = slot_of(s, l, m, a->lanes), i, bad = 0;
    unsigned char fe = 0, fa = 0;
    const unsigned char *d = (const unsigned char *)a->data + k * SLOT;
    uint64_t tag = msg_tag(s, l, m), base = ((uint64_t)l * M + (uint64_t)m) * SLOT;

    DT_CHECK(a->fails, "gshmem_signal_wait_until", "the tag of message (PE*1e6+lane*1000+m)",
             s * 1000000 + l * 1000 + m, tag,
             gshmem_signal_wait_until(&a->sig[k], GSHMEM_CMP_EQ, tag));
    for (i = 0; i < SLOT; i++) {
        unsigned char e = i < n ? dt_pat(s, base + i) : (unsigned char)DT_SENT;

        if (d[i] != e && bad++ == 0)
            fe = e, fa = d[i];
    }
    if (bad)
        DT_CHECK(a->fails, "ring",
                 "first wrong byte once the signal showed, message (PE*1e6+lane*1000+m)",
                 s * 1000000 + l * 1000 + m, fe, fa);
}

GSHMEM_KERNEL(ring_kernel, ring_args_t, a)
{
    unsigned l = dt_lane();
    int m, s;

    for (m = 0; m < M; m++)
        send(&a, l, m);
    for (s = 0; s < a.npes; s++)
        for (m = 0; m < M; m++)
            if (msg_dest(s, l, m, a.npes) == a.me)
                receive(&a, s, l, m);
    gshmem_quiet();
}

/* After everyone is done: tags exact, no stray signal, the byte count. */
GSHMEM_KERNEL(final_kernel, ring_args_t, a)
{
    unsigned l = dt_lane();
    uint64_t want = 0;
    int m, s;
    unsigned ll;

    for (s = 0; s < a.npes; s++)
        for (m = 0; m < M; m++) {
            int mine = msg_dest(s, l, m, a.npes) == a.me;

            DT_CHECK(a.fails, "ring", "signal word after the run (PE*1e6+lane*1000+m)",
                     s * 1000000 + l * 1000 + m, mine ? msg_tag(s, l, m) : 0,
                     a.sig[slot_of(s, l, m, a.lanes)]);
        }
    if (l != 0)
        return;
    for (s = 0; s < a.npes; s++)
        for (ll = 0; ll < a.lanes; ll++)
            for (m = 0; m < M; m++)
                if (msg_dest(s, ll, m, a.npes) == a.me)
                    want += msg_len(s, ll, m);
    DT_CHECK(a.fails, "gshmem_uint64_atomic_add", "bytes received, counted by every sender", 0,
             want, *a.bytes);
}

int main(void)
{
    unsigned threads;
    ring_args_t a;
    size_t nslots;

#ifdef RING_TINY
    setenv("GSHMEM_PROXY_RING", "16", 1);
    setenv("GSHMEM_PROXY_CHANNELS", "2", 1);
    setenv("GSHMEM_PROXY_THREADS", "2", 1);
#endif
    /* a lost message shows as a report of the wait, not as the harness's timeout */
    setenv("GSHMEM_DEVICE_WAIT_TIMEOUT", "40", 0);
    dt_start();
#if defined(RING_TINY) && !defined(__CUDACC__)
    if (gshmemi_state.n_chan > 0)
        PT_CHECK_EQ("GSHMEM_PROXY_RING", 16, gshmemi_state.chan[0].size);
#endif
    threads = dt_npes <= 2 ? 32 : 16;
    a.fails = dt_fails;
    a.me = dt_me;
    a.npes = dt_npes;
    a.lanes = DT_BLOCKS * threads;
    nslots = (size_t)dt_npes * a.lanes * M;
    a.src = (char *)dt_malloc((size_t)a.lanes * M * SLOT);
    a.data = (char *)dt_malloc(nslots * SLOT);
    a.sig = (uint64_t *)dt_malloc(nslots * sizeof(uint64_t));
    a.bytes = (uint64_t *)dt_malloc(sizeof(uint64_t));
    dt_fill_pat(a.src, (size_t)a.lanes * M * SLOT, dt_me, 0);
    dt_fill(a.data, DT_SENT, nslots * SLOT);
    dt_fill(a.sig, 0, nslots * sizeof(uint64_t));
    dt_fill(a.bytes, 0, sizeof(uint64_t));
    shmem_barrier_all();
    DT_LAUNCH(ring_kernel, DT_BLOCKS, threads, a);
    shmem_barrier_all();
    DT_LAUNCH(final_kernel, DT_BLOCKS, threads, a);
    shmem_barrier_all();
    gshmem_free(a.bytes);
    gshmem_free(a.sig);
    gshmem_free(a.data);
    gshmem_free(a.src);
    return dt_finish();
}
