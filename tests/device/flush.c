/*
 * tests/device/flush.c - NVSHMEM 3.8's gshmemx_flush family and
 * gshmemx_signal_counted_reset.
 *
 * flush: a source buffer may be reused once the flush returns.  Each unit
 * (lane: gshmemx_flush; warp: _warp; block: _block) writes round r's bytes
 * into ONE source slot, put_nbi's them to slot r of the right PE, flushes,
 * and overwrites the source for round r + 1.  After a quiet and a barrier
 * every round's slot must hold that round's bytes: a flush that returned
 * before the proxy read the source would show a later round's bytes (the
 * -net twin sends every put through the proxy).  Then host code: put_nbi,
 * gshmemx_flush, overwrite; put_nbi, gshmemx_flush_on_stream, overwrite.
 *
 * counted_reset: every lane of the left PE adds 1 to this PE's signal word
 * of that lane K times; the lane waits for K, resets the word and reads 0;
 * a second launch does the same and must see K again, not 2K.  Host code
 * resets a word that holds K.
 */
#include "dev_test.h"

enum { SC_THREAD, SC_WARP, SC_BLOCK, N_SC };
#define R 4      /* rounds */
#define SLOT 256 /* bytes a lane sends per round (more than a descriptor carries inline) */
#define K 3      /* signal adds per lane per launch */

typedef struct fl_args {
    uint64_t *fails;
    unsigned char *src; /* [lanes][SLOT]: the one source slot of each lane */
    unsigned char *dst; /* [R][lanes][SLOT] */
    uint64_t *sig;      /* [lanes] */
    int sc, me, right, left;
} fl_args_t;

DT_HD unsigned char val(int pe, int sc, int r, unsigned lane, unsigned i)
{
    return (unsigned char)(pe * 31 + sc * 17 + r * 7 + lane * 3 + i + 1);
}

DT_FN void fill(unsigned char *p, int pe, int sc, int r, unsigned lane)
{
    unsigned i;

    for (i = 0; i < SLOT; i++)
        p[i] = val(pe, sc, r, lane, i);
}

GSHMEM_KERNEL(flush_kernel, fl_args_t, a)
{
    unsigned l = dt_lane();
    size_t lanes = dt_lanes();
    unsigned char *src = a.src + (size_t)l * SLOT;
    int r;

    for (r = 0; r < R; r++) {
        unsigned char *dst = a.dst + ((size_t)r * lanes + l) * SLOT;

        fill(src, a.me, a.sc, r, l);
        switch (a.sc) {
        case SC_THREAD:
            gshmem_putmem_nbi(dst, src, SLOT, a.right);
            gshmemx_flush();
            break;
        case SC_WARP: {
            /* the warp's slots are consecutive: one put for the warp */
            size_t w0 = (size_t)gshmemx_block_id() * gshmemx_block_threads() +
                        (size_t)dt_warp_id() * DT_WARP;

            gshmemx_putmem_nbi_warp(a.dst + ((size_t)r * lanes + w0) * SLOT, a.src + w0 * SLOT,
                                    (size_t)dt_warp_lanes() * SLOT, a.right);
            gshmemx_flush_warp();
            break;
        }
        default: {
            size_t b0 = (size_t)gshmemx_block_id() * gshmemx_block_threads();

            gshmemx_putmem_nbi_block(a.dst + ((size_t)r * lanes + b0) * SLOT, a.src + b0 * SLOT,
                                     (size_t)gshmemx_block_threads() * SLOT, a.right);
            gshmemx_flush_block();
            break;
        }
        }
        /* the source is reusable now: the next round overwrites it */
    }
    fill(src, 0, 0, 0, 0); /* scribble once more after the last flush */
    gshmem_quiet();
}

GSHMEM_KERNEL(reset_kernel, fl_args_t, a)
{
    unsigned l = dt_lane();
    int k;

    for (k = 0; k < K; k++)
        gshmemx_signal_op(&a.sig[l], 1, GSHMEM_SIGNAL_ADD, a.right);
    DT_CHECK(a.fails, "gshmem_signal_wait_until", "the lane's signal word", l, K,
             gshmem_signal_wait_until(&a.sig[l], GSHMEM_CMP_GE, K));
    gshmemx_signal_counted_reset(&a.sig[l]);
    DT_CHECK(a.fails, "gshmemx_signal_counted_reset", "the word after the reset", l, 0,
             gshmem_signal_fetch(&a.sig[l]));
    gshmem_quiet();
}

static void check_rounds(const fl_args_t *a, size_t lanes, const char *fn)
{
    unsigned char *h = (unsigned char *)dt_copy_back(a->dst, (size_t)R * lanes * SLOT);
    int r, bad = 0;
    size_t l, i;

    for (r = 0; r < R; r++)
        for (l = 0; l < lanes && !bad; l++)
            for (i = 0; i < SLOT && !bad; i++) {
                unsigned char want = val(a->left, a->sc, r, (unsigned)l, (unsigned)i);
                unsigned char got = h[((size_t)r * lanes + l) * SLOT + i];

                if (want != got) {
                    PT_CHECK_EQ_F(fn, want, got, "round %d, lane %zu, byte %zu", r, l, i);
                    bad = 1;
                }
            }
    free(h);
}

/* Host code: put_nbi, flush (or flush_on_stream), overwrite the source. */
static void host_flush(fl_args_t *a, int on_stream)
{
    const char *fn = on_stream ? "gshmemx_flush_on_stream" : "gshmemx_flush (host)";
    unsigned char buf[SLOT], got[SLOT];
    int r;
    unsigned i;

    for (r = 0; r < R; r++) {
        for (i = 0; i < SLOT; i++)
            buf[i] = val(a->me, 3 + on_stream, r, 0, i);
        dt_to_dev(a->src, buf, SLOT);
        gshmem_putmem_nbi(a->dst + (size_t)r * SLOT, a->src, SLOT, a->right);
        if (on_stream)
            gshmemx_flush_on_stream(0);
        else
            gshmemx_flush();
    }
    dt_fill(a->src, 0, SLOT);
    shmem_quiet();
#if defined(__CUDACC__)
    cudaDeviceSynchronize();
#endif
    shmem_barrier_all();
    for (r = 0; r < R; r++) {
        dt_from_dev(got, a->dst + (size_t)r * SLOT, SLOT);
        for (i = 0; i < SLOT; i++)
            if (got[i] != val(a->left, 3 + on_stream, r, 0, i)) {
                PT_CHECK_EQ_F(fn, val(a->left, 3 + on_stream, r, 0, i), got[i],
                              "round %d, byte %u", r, i);
                break;
            }
    }
    shmem_barrier_all();
}

int main(void)
{
    unsigned threads, lanes;
    uint64_t k = K, h;
    fl_args_t a;
    int sc;

    dt_start();
    threads = dt_threads();
    lanes = DT_BLOCKS * threads;
    a.fails = dt_fails;
    a.me = dt_me;
    a.right = (dt_me + 1) % dt_npes;
    a.left = (dt_me + dt_npes - 1) % dt_npes;
    a.src = (unsigned char *)dt_malloc((size_t)lanes * SLOT);
    a.dst = (unsigned char *)dt_malloc((size_t)R * lanes * SLOT);
    a.sig = (uint64_t *)dt_malloc(lanes * sizeof(uint64_t));

    for (sc = 0; sc < N_SC; sc++) {
        static const char *const fn[N_SC] = {"gshmemx_flush", "gshmemx_flush_warp",
                                             "gshmemx_flush_block"};

        a.sc = sc;
        dt_fill(a.dst, 0, (size_t)R * lanes * SLOT);
        shmem_barrier_all();
        DT_LAUNCH(flush_kernel, DT_BLOCKS, threads, a);
        shmem_barrier_all();
        check_rounds(&a, lanes, fn[sc]);
        shmem_barrier_all();
    }
    host_flush(&a, 0);
    host_flush(&a, 1);

    dt_fill(a.sig, 0, lanes * sizeof(uint64_t));
    shmem_barrier_all();
    DT_LAUNCH(reset_kernel, DT_BLOCKS, threads, a);
    shmem_barrier_all();
    DT_LAUNCH(reset_kernel, DT_BLOCKS, threads, a); /* K again, not 2K */
    shmem_barrier_all();
    dt_to_dev(a.sig, &k, sizeof(k));
    gshmemx_signal_counted_reset(a.sig);
    dt_from_dev(&h, a.sig, sizeof(h));
    PT_CHECK_EQ_F("gshmemx_signal_counted_reset (host)", 0, (unsigned long long)h,
                  "the word after the reset");
    shmem_barrier_all();
    gshmem_free(a.sig);
    gshmem_free(a.dst);
    gshmem_free(a.src);
    return dt_finish();
}
