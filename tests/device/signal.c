/*
 * tests/device/signal.c - put-with-signal from device code (mem, typed:
 * int, double, uint8, bfloat16, half, and sized forms; blocking and _nbi;
 * GSHMEM_SIGNAL_SET and _ADD; thread, warp and block scope),
 * gshmemx_signal_op, gshmem_signal_fetch and gshmem_signal_wait_until.
 *
 * Order: every unit (lane, warp or block) sends M messages to its right
 * neighbour, each with a signal word of its own, back to back, then
 * receives its left neighbour's M messages in order: it waits for each
 * signal and checks every byte of that message at once - put-with-signal
 * promises the data is there when the signal is.  Concurrency: every lane
 * of every PE adds to one signal word on every PE (exact totals).  A token
 * goes around the ring of PEs, once per lane, forwarded by signal_op (SET
 * and ADD alternately) after signal_wait_until sees it.
 */
#include "dev_test.h"

enum { SC_THREAD, SC_WARP, SC_BLOCK, N_SC };

/* Message variants: the routine family and its element size. */
enum { V_MEM, V_INT, V_DOUBLE, V_UINT8, V_BF16, V_HALF, V_16, V_32, V_64, V_128, NV };
#define M (4 * NV) /* messages per unit: every variant x {SET, ADD} x {blocking, nbi} */

DT_HD size_t var_es(int v)
{
    switch (v) {
    case V_INT: return sizeof(int);
    case V_DOUBLE: return sizeof(double);
    case V_BF16: return sizeof(gshmem_bfloat16_t);
    case V_HALF: return sizeof(gshmem_half_t);
    case V_16: return 2;
    case V_32: return 4;
    case V_64: return 8;
    case V_128: return 16;
    }
    return 1;
}

/* Message m of a unit: its variant, signal op, blocking or not, elements. */
DT_HD int msg_var(int m)
{
    return m % NV;
}
DT_HD int msg_add(int m)
{
    return (m / NV) % 2;
}
DT_HD int msg_nbi(int m)
{
    return (m / (2 * NV)) % 2;
}
DT_HD size_t msg_nel(int m, unsigned unit, size_t slot)
{
    size_t max = slot / var_es(msg_var(m));

    return 1 + ((size_t)m * 5 + (size_t)unit * 3) % max;
}
/* The signal value of message m from PE pe's unit: distinct everywhere. */
DT_HD uint64_t msg_sig(int pe, unsigned unit, int m)
{
    return (uint64_t)(pe + 1) << 32 | (uint64_t)unit << 8 | (uint64_t)(m + 1);
}

#define SCOPED(sc, f, args)                                                                    \
    do {                                                                                       \
        if ((sc) == SC_THREAD)                                                                 \
            gshmem_##f args;                                                                   \
        else if ((sc) == SC_WARP)                                                              \
            gshmemx_##f##_warp args;                                                           \
        else                                                                                   \
            gshmemx_##f##_block args;                                                          \
    } while (0)

#define PUT_SIGNAL(sc, nbi, f, args)                                                           \
    do {                                                                                       \
        if (nbi)                                                                               \
            SCOPED(sc, f##_signal_nbi, args);                                                  \
        else                                                                                   \
            SCOPED(sc, f##_signal, args);                                                      \
    } while (0)

/* One function per variant (kept out of line under nvcc: see DT_NOINL). */
#define SEND_FN(NAME, f, T)                                                                    \
    DT_NOINL void NAME(int sc, int nbi, int op, char *d, const char *s, size_t nel,            \
                       uint64_t *sig, uint64_t sv, int pe)                                     \
    {                                                                                          \
        PUT_SIGNAL(sc, nbi, f, ((T *)d, (const T *)s, nel, sig, sv, op, pe));                  \
    }
SEND_FN(send_mem, putmem, void)
SEND_FN(send_int, int_put, int)
SEND_FN(send_double, double_put, double)
SEND_FN(send_uint8, uint8_put, uint8_t)
SEND_FN(send_bf16, bfloat16_put, gshmem_bfloat16_t)
SEND_FN(send_half, half_put, gshmem_half_t)
SEND_FN(send_16, put16, void)
SEND_FN(send_32, put32, void)
SEND_FN(send_64, put64, void)
SEND_FN(send_128, put128, void)
#undef SEND_FN

DT_FN void send(int sc, int m, char *d, const char *s, size_t nel, uint64_t *sig, uint64_t sv,
                int pe)
{
    int op = msg_add(m) ? GSHMEM_SIGNAL_ADD : GSHMEM_SIGNAL_SET, nbi = msg_nbi(m);

    switch (msg_var(m)) {
    case V_MEM: send_mem(sc, nbi, op, d, s, nel, sig, sv, pe); break;
    case V_INT: send_int(sc, nbi, op, d, s, nel, sig, sv, pe); break;
    case V_DOUBLE: send_double(sc, nbi, op, d, s, nel, sig, sv, pe); break;
    case V_UINT8: send_uint8(sc, nbi, op, d, s, nel, sig, sv, pe); break;
    case V_BF16: send_bf16(sc, nbi, op, d, s, nel, sig, sv, pe); break;
    case V_HALF: send_half(sc, nbi, op, d, s, nel, sig, sv, pe); break;
    case V_16: send_16(sc, nbi, op, d, s, nel, sig, sv, pe); break;
    case V_32: send_32(sc, nbi, op, d, s, nel, sig, sv, pe); break;
    case V_64: send_64(sc, nbi, op, d, s, nel, sig, sv, pe); break;
    case V_128: send_128(sc, nbi, op, d, s, nel, sig, sv, pe); break;
    }
}

DT_HD const char *var_name(int v)
{
    switch (v) {
    case V_INT: return "gshmem_int_put_signal";
    case V_DOUBLE: return "gshmem_double_put_signal";
    case V_UINT8: return "gshmem_uint8_put_signal";
    case V_BF16: return "gshmem_bfloat16_put_signal";
    case V_HALF: return "gshmem_half_put_signal";
    case V_16: return "gshmem_put16_signal";
    case V_32: return "gshmem_put32_signal";
    case V_64: return "gshmem_put64_signal";
    case V_128: return "gshmem_put128_signal";
    }
    return "gshmem_putmem_signal";
}

typedef struct order_args {
    uint64_t *fails;
    char *src, *dst;     /* [units][M][slot] */
    uint64_t *sig;       /* [units][M] */
    uint64_t *tally;     /* [1]: ADDs from every lane of every PE */
    uint64_t *tally_sig; /* [1]: put_signal ADDs from every lane of every PE */
    uint64_t *tally_src; /* [lanes]: what this PE's lanes send there */
    char *tally_dst;     /* [npes][lanes] 8-byte slots of those put_signals */
    int scope;
    unsigned units;
    unsigned long slot;
    int me, npes, left, right;
} order_args_t;

GSHMEM_KERNEL(order_kernel, order_args_t, a)
{
    int sc = a.scope, m, pe;
    unsigned unit, k, nk;
    uint64_t total;

    if (sc == SC_THREAD)
        unit = dt_lane(), k = 0, nk = 1;
    else if (sc == SC_WARP)
        unit = gshmemx_block_id() * dt_warps() + dt_warp_id(), k = dt_warp_lane(),
        nk = dt_warp_lanes();
    else
        unit = gshmemx_block_id(), k = gshmemx_thread_id(), nk = gshmemx_block_threads();

    for (m = 0; m < M; m++) {
        size_t off = ((size_t)unit * M + m) * a.slot;

        send(sc, m, a.dst + off, a.src + off, msg_nel(m, unit, a.slot), &a.sig[unit * M + m],
             msg_sig(a.me, unit, m), a.right);
    }
    for (m = 0; m < M; m++) {
        size_t off = ((size_t)unit * M + m) * a.slot, n, i;
        uint64_t want = msg_sig(a.left, unit, m), got;
        const char *what = msg_add(m) ? "signal (ADD)" : "signal (SET)";

        got = gshmem_signal_wait_until(&a.sig[unit * M + m], GSHMEM_CMP_EQ, want);
        DT_CHECK(a.fails, "gshmem_signal_wait_until", what, m, want, got);
        DT_CHECK(a.fails, "gshmem_signal_fetch", what, m, want,
                 gshmem_signal_fetch(&a.sig[unit * M + m]));
        n = msg_nel(m, unit, a.slot) * var_es(msg_var(m));
        for (i = k; i < n; i += nk) {
            unsigned char got_b = (unsigned char)a.dst[off + i];

            if (got_b != dt_pat(a.left, off + i))
                DT_CHECK(a.fails, var_name(msg_var(m)),
                         "dest byte seen once its signal showed (message*65536+byte)",
                         (long)m * 65536 + (long)i, dt_pat(a.left, off + i), got_b);
        }
        /* bytes past the message stay untouched */
        for (i = n + k; i < a.slot; i += nk)
            if ((unsigned char)a.dst[off + i] != DT_SENT)
                DT_CHECK(a.fails, var_name(msg_var(m)), "byte past the message",
                         (long)m * 65536 + (long)i, DT_SENT, (unsigned char)a.dst[off + i]);
    }

    /* Every lane ADDs 1 to every PE's tally, by signal_op and by put_signal. */
    a.tally_src[dt_lane()] = (uint64_t)a.me << 32 | dt_lane();
    for (pe = 0; pe < a.npes; pe++) {
        gshmemx_signal_op(a.tally, 1, GSHMEM_SIGNAL_ADD, pe);
        gshmem_putmem_signal_nbi(a.tally_dst + ((size_t)a.me * dt_lanes() + dt_lane()) * 8,
                                 &a.tally_src[dt_lane()], 8, a.tally_sig, 1, GSHMEM_SIGNAL_ADD,
                                 pe);
    }
    total = (uint64_t)a.npes * dt_lanes();
    DT_CHECK(a.fails, "gshmem_signal_wait_until", "tally of every lane's signal_op ADD", 0,
             total, gshmem_signal_wait_until(a.tally, GSHMEM_CMP_GE, total));
    DT_CHECK(a.fails, "gshmem_signal_wait_until", "tally of every lane's put_signal ADD", 0,
             total, gshmem_signal_wait_until(a.tally_sig, GSHMEM_CMP_GE, total));
    /* the put_signals' data is there once their ADDs all showed */
    for (pe = 0; pe < a.npes; pe++) {
        unsigned l = dt_lane();
        uint64_t v = *(const uint64_t *)(a.tally_dst + ((size_t)pe * dt_lanes() + l) * 8);

        DT_CHECK(a.fails, "gshmem_putmem_signal_nbi", "tally data from PE*65536+lane",
                 (long)pe * 65536 + l, (uint64_t)pe << 32 | l, v);
    }
    gshmem_quiet();
}

/* The token ring: one token per lane, R laps. */
#define R 6

typedef struct ring_args {
    uint64_t *fails;
    uint64_t *ring; /* [lanes] */
    int me, npes, right;
} ring_args_t;

GSHMEM_KERNEL(ring_kernel, ring_args_t, a)
{
    unsigned l = dt_lane();
    int r;

    for (r = 0; r < R; r++) {
        uint64_t k = (uint64_t)r * a.npes + a.me, got;

        got = gshmem_signal_wait_until(&a.ring[l], r % 3 == 2 ? GSHMEM_CMP_GE : GSHMEM_CMP_EQ,
                                       k);
        DT_CHECK(a.fails, "gshmem_signal_wait_until", "the token, lane*256+lap", l * 256 + r, k,
                 got);
        DT_CHECK(a.fails, "gshmem_signal_fetch", "the token, lane*256+lap", l * 256 + r, k,
                 gshmem_signal_fetch(&a.ring[l]));
        if (r % 2) /* the right neighbour holds its value of the last lap: k + 1 - npes */
            gshmemx_signal_op(&a.ring[l], (uint64_t)a.npes, GSHMEM_SIGNAL_ADD, a.right);
        else
            gshmemx_signal_op(&a.ring[l], k + 1, GSHMEM_SIGNAL_SET, a.right);
    }
    gshmem_quiet();
}

int main(void)
{
    static const unsigned long slot[N_SC] = {128, 1024, 4096};
    unsigned threads, units[N_SC], lanes;
    size_t bytes = 0, sigs = 0;
    order_args_t a;
    ring_args_t ra;
    uint64_t *h;
    unsigned i;
    int sc;

    dt_start();
    threads = dt_threads();
    lanes = DT_BLOCKS * threads;
    units[SC_THREAD] = lanes;
    units[SC_WARP] = DT_BLOCKS * ((threads + DT_WARP - 1) / DT_WARP);
    units[SC_BLOCK] = DT_BLOCKS;
    for (sc = 0; sc < N_SC; sc++) {
        if ((size_t)units[sc] * M * slot[sc] > bytes)
            bytes = (size_t)units[sc] * M * slot[sc];
        if ((size_t)units[sc] * M > sigs)
            sigs = (size_t)units[sc] * M;
    }
    a.fails = dt_fails;
    a.src = (char *)dt_malloc(bytes);
    a.dst = (char *)dt_malloc(bytes);
    a.sig = (uint64_t *)dt_malloc(sigs * sizeof(uint64_t));
    a.tally = (uint64_t *)dt_malloc(2 * sizeof(uint64_t));
    a.tally_sig = a.tally + 1;
    a.tally_src = (uint64_t *)dt_malloc(lanes * sizeof(uint64_t));
    a.tally_dst = (char *)dt_malloc((size_t)dt_npes * lanes * 8);
    a.me = dt_me;
    a.npes = dt_npes;
    a.left = (dt_me + dt_npes - 1) % dt_npes;
    a.right = (dt_me + 1) % dt_npes;
    dt_fill_pat(a.src, bytes, dt_me, 0);

    for (sc = 0; sc < N_SC; sc++) {
        uint64_t t[2];

        dt_fill(a.dst, DT_SENT, bytes);
        dt_fill(a.sig, 0, sigs * sizeof(uint64_t));
        dt_fill(a.tally, 0, 2 * sizeof(uint64_t));
        dt_fill(a.tally_dst, 0, (size_t)dt_npes * lanes * 8);
        shmem_barrier_all();
        a.scope = sc;
        a.units = units[sc];
        a.slot = slot[sc];
        DT_LAUNCH(order_kernel, DT_BLOCKS, threads, a);
        shmem_barrier_all();
        dt_from_dev(t, a.tally, sizeof t);
        PT_CHECK_EQ_F("gshmemx_signal_op", (uint64_t)dt_npes * lanes, t[0],
                      "tally after the %d-scope kernel", sc);
        PT_CHECK_EQ_F("gshmem_putmem_signal_nbi", (uint64_t)dt_npes * lanes, t[1],
                      "ADD tally after the %d-scope kernel", sc);
    }

    ra.fails = dt_fails;
    ra.ring = (uint64_t *)dt_malloc(lanes * sizeof(uint64_t));
    ra.me = dt_me;
    ra.npes = dt_npes;
    ra.right = a.right;
    dt_fill(ra.ring, 0, lanes * sizeof(uint64_t));
    shmem_barrier_all();
    DT_LAUNCH(ring_kernel, DT_BLOCKS, threads, ra);
    shmem_barrier_all();
    h = (uint64_t *)dt_copy_back(ra.ring, lanes * sizeof(uint64_t));
    for (i = 0; i < lanes; i++)
        PT_CHECK_EQ_F("gshmemx_signal_op",
                      dt_me == 0 ? (uint64_t)R * dt_npes : (uint64_t)(R - 1) * dt_npes + dt_me,
                      h[i], "lane %u's token after %d laps", i, R);
    free(h);
    shmem_barrier_all();
    gshmem_free(ra.ring);
    gshmem_free(a.tally_dst);
    gshmem_free(a.tally_src);
    gshmem_free(a.tally);
    gshmem_free(a.sig);
    gshmem_free(a.dst);
    gshmem_free(a.src);
    return dt_finish();
}
