/*
 * tests/device/order.c - gshmem_fence and gshmem_quiet from device code,
 * and their channel forms (gshmemx_fence_ch, gshmemx_quiet_ch with
 * gshmemx_putmem_nbi_ch and gshmemx_signal_op_ch).
 *
 * fence: each lane sends M messages to its right neighbour, each a
 * putmem_nbi (or a run of p's, or a put on a named channel), a fence, then
 * a flag raised to m + 1 (one flag per channel used: fence orders a channel,
 * not one channel against another).  The receiving lane waits for the flag
 * to reach each m + 1 in turn and checks message m at once: the fence kept
 * the data ahead of the flag.
 * quiet: each lane puts (nbi) a block into every PE, quiets, then adds 1 to
 * every PE's counter; once a PE's counter shows every lane of every PE,
 * all their blocks are there.  A lane also reads its blocks back with
 * gets after the quiet, and does the same with a channel's quiet.
 */
#include "dev_test.h"

#define M 16
#define SLOT 512 /* bytes per message */
#define QSLOT 256

enum { V_PUT, V_P, V_CH, NV };

DT_HD size_t msg_len(int m, unsigned l)
{
    return 8 * (1 + ((size_t)m * 11 + l * 5) % (SLOT / 8));
}
DT_HD size_t q_len(unsigned l, int pe)
{
    return 1 + ((size_t)l * 37 + (size_t)pe * 13) % QSLOT;
}

typedef struct order_args {
    uint64_t *fails;
    char *src;       /* [lanes][M][SLOT]: this PE's pattern */
    char *data;      /* [lanes][M][SLOT] */
    uint64_t *flag;  /* [lanes][2]: raised by the default channel's messages, by channel ch's */
    char *qsrc;      /* [lanes][QSLOT]: this PE's pattern */
    char *qdata;     /* [npes][lanes][QSLOT] */
    char *qback;     /* [lanes][QSLOT]: what the gets read back */
    uint64_t *count; /* [2] */
    int me, npes, left, right;
} order_args_t;

GSHMEM_KERNEL(fence_kernel, order_args_t, a)
{
    unsigned l = dt_lane(), lanes = dt_lanes();
    int m, ch = (int)(l % (unsigned)gshmemx_n_channels());

    for (m = 0; m < M; m++) {
        size_t off = ((size_t)l * M + m) * SLOT, n = msg_len(m, l), i;

        switch (m % NV) {
        case V_PUT:
            gshmem_putmem_nbi(a.data + off, a.src + off, n, a.right);
            gshmem_fence();
            gshmem_uint64_p(&a.flag[2 * l], (uint64_t)m + 1, a.right);
            break;
        case V_P:
            for (i = 0; i < n; i += 8)
                gshmem_uint64_p((uint64_t *)(void *)(a.data + off + i),
                                *(const uint64_t *)(const void *)(a.src + off + i), a.right);
            gshmem_fence();
            gshmem_uint64_p(&a.flag[2 * l], (uint64_t)m + 1, a.right);
            break;
        case V_CH:
            gshmemx_putmem_nbi_ch(a.data + off, a.src + off, n, a.right, ch);
            gshmemx_fence_ch(ch);
            gshmemx_signal_op_ch(&a.flag[2 * l + 1], (uint64_t)m + 1, GSHMEM_SIGNAL_SET,
                                 a.right, ch);
            break;
        }
    }
    for (m = 0; m < M; m++) {
        size_t off = ((size_t)l * M + m) * SLOT, n = msg_len(m, l), i, bad = 0, first = 0;

        gshmem_uint64_wait_until(&a.flag[2 * l + (m % NV == V_CH)], GSHMEM_CMP_GE,
                                 (uint64_t)m + 1);
        for (i = 0; i < n; i++)
            if ((unsigned char)a.data[off + i] != dt_pat(a.left, off + i) && bad++ == 0)
                first = i;
        if (bad)
            DT_CHECK(a.fails,
                     m % NV == V_PUT ? "gshmem_fence (putmem_nbi)"
                     : m % NV == V_P ? "gshmem_fence (uint64_p)"
                                     : "gshmemx_fence_ch (putmem_nbi_ch)",
                     "bytes wrong once the flag passed message (lane*256+m), first at",
                     (long)(l * 256 + m) * 100000 + (long)first, 0, bad);
    }
    (void)lanes;
    gshmem_quiet();
}

GSHMEM_KERNEL(quiet_kernel, order_args_t, a)
{
    unsigned l = dt_lane(), lanes = dt_lanes();
    int pe, i, ch = (int)(l % (unsigned)gshmemx_n_channels());
    uint64_t total = (uint64_t)a.npes * lanes;
    size_t k;

    /* gshmem_quiet: put into every PE, quiet, read back, count */
    for (i = 0; i < a.npes; i++) {
        pe = (a.me + i) % a.npes;
        gshmem_putmem_nbi(a.qdata + ((size_t)a.me * lanes + l) * QSLOT,
                          a.qsrc + (size_t)l * QSLOT, q_len(l, pe), pe);
    }
    gshmem_quiet();
    for (pe = 0; pe < a.npes; pe++) {
        size_t n = q_len(l, pe), bad = 0;

        gshmem_getmem(a.qback + (size_t)l * QSLOT, a.qdata + ((size_t)a.me * lanes + l) * QSLOT,
                      n, pe);
        for (k = 0; k < n; k++)
            bad += a.qback[(size_t)l * QSLOT + k] != a.qsrc[(size_t)l * QSLOT + k];
        DT_CHECK(a.fails, "gshmem_quiet", "bytes not there after the quiet, on PE*65536+lane",
                 pe * 65536 + l, 0, bad);
        gshmemx_signal_op(&a.count[0], 1, GSHMEM_SIGNAL_ADD, pe);
    }
    gshmem_signal_wait_until(&a.count[0], GSHMEM_CMP_GE, total);
    for (pe = 0; pe < a.npes; pe++) {
        const char *d = a.qdata + ((size_t)pe * lanes + l) * QSLOT;
        size_t n = q_len(l, a.me), bad = 0;

        for (k = 0; k < n; k++)
            bad += (unsigned char)d[k] != dt_pat(pe, (size_t)l * QSLOT + k);
        DT_CHECK(a.fails, "gshmem_quiet",
                 "bytes from PE*65536+lane not there once its count showed", pe * 65536 + l, 0,
                 bad);
    }

    /* gshmemx_quiet_ch: the same on a named channel, into the next block */
    for (i = 0; i < a.npes; i++) {
        pe = (a.me + i) % a.npes;
        gshmemx_putmem_nbi_ch(a.data + ((size_t)a.me * lanes + l) * QSLOT,
                              a.qsrc + (size_t)l * QSLOT, q_len(l, pe), pe, ch);
    }
    gshmemx_quiet_ch(ch);
    for (pe = 0; pe < a.npes; pe++)
        gshmemx_signal_op(&a.count[1], 1, GSHMEM_SIGNAL_ADD, pe);
    gshmem_signal_wait_until(&a.count[1], GSHMEM_CMP_GE, total);
    for (pe = 0; pe < a.npes; pe++) {
        const char *d = a.data + ((size_t)pe * lanes + l) * QSLOT;
        size_t n = q_len(l, a.me), bad = 0;

        for (k = 0; k < n; k++)
            bad += (unsigned char)d[k] != dt_pat(pe, (size_t)l * QSLOT + k);
        DT_CHECK(a.fails, "gshmemx_quiet_ch",
                 "bytes from PE*65536+lane not there once its count showed", pe * 65536 + l, 0,
                 bad);
    }
    gshmem_quiet();
}

int main(void)
{
    unsigned threads = dt_npes <= 2 ? 32 : 16, lanes;
    size_t bytes;
    order_args_t a;

    dt_start();
    threads = dt_npes <= 2 ? 32 : 16;
    lanes = DT_BLOCKS * threads;
    bytes = (size_t)lanes * M * SLOT;
    if ((size_t)dt_npes * lanes * QSLOT > bytes)
        bytes = (size_t)dt_npes * lanes * QSLOT;
    a.fails = dt_fails;
    a.me = dt_me;
    a.npes = dt_npes;
    a.left = (dt_me + dt_npes - 1) % dt_npes;
    a.right = (dt_me + 1) % dt_npes;
    a.src = (char *)dt_malloc(bytes);
    a.data = (char *)dt_malloc(bytes);
    a.flag = (uint64_t *)dt_malloc(2 * lanes * sizeof(uint64_t));
    a.qsrc = (char *)dt_malloc((size_t)lanes * QSLOT);
    a.qdata = (char *)dt_malloc((size_t)dt_npes * lanes * QSLOT);
    a.qback = (char *)dt_malloc((size_t)lanes * QSLOT);
    a.count = (uint64_t *)dt_malloc(2 * sizeof(uint64_t));
    dt_fill_pat(a.src, bytes, dt_me, 0);
    dt_fill(a.data, DT_SENT, bytes);
    dt_fill(a.flag, 0, 2 * lanes * sizeof(uint64_t));
    shmem_barrier_all();
    DT_LAUNCH(fence_kernel, DT_BLOCKS, threads, a);
    shmem_barrier_all();

    dt_fill_pat(a.qsrc, (size_t)lanes * QSLOT, dt_me, 0);
    dt_fill(a.qdata, DT_SENT, (size_t)dt_npes * lanes * QSLOT);
    dt_fill(a.data, DT_SENT, bytes);
    dt_fill(a.count, 0, 2 * sizeof(uint64_t));
    shmem_barrier_all();
    DT_LAUNCH(quiet_kernel, DT_BLOCKS, threads, a);
    shmem_barrier_all();

    gshmem_free(a.count);
    gshmem_free(a.qback);
    gshmem_free(a.qdata);
    gshmem_free(a.qsrc);
    gshmem_free(a.flag);
    gshmem_free(a.data);
    gshmem_free(a.src);
    return dt_finish();
}
