/*
 * gsd/signal.h - put-with-signal and signals from device code.
 *
 * Load/store peers: the group copies, meets at its barrier, then lane 0
 * applies the signal with one release: SET a release store, ADD a release
 * atomic add.  No fence: the group barrier orders the other lanes' copies
 * before lane 0 (bar.sync / __syncwarp order memory among their threads),
 * and PTX release is cumulative, so the copies are visible before the
 * signal to whoever acquires it.  Proxy peers: lane 0 pushes ONE
 * GSD_OP_PUT_SIGNAL descriptor (the proxy puts, orders, signals; aux2 is the
 * signal op), a blocking form waits for the channel's quiet, then the group
 * meets.  A lone signal (gshmemx_signal_op) through the proxy is a
 * non-fetching 8-byte GSD_OP_AMO (GSD_AMO_SET or GSD_AMO_FADD).
 *
 * Building blocks (also for the device collectives; keep them stable):
 *   void gsd_signal(const char *fn, uint64_t *sig, uint64_t value, int sig_op,
 *                   int pe, gsd_channel_t *chan)
 *   void gsd_put_signal(const char *fn, int g, void *dest, const void *src,
 *                       size_t nbytes, uint64_t *sig, uint64_t value, int sig_op,
 *                       int pe, int nbi, gsd_channel_t *chan)
 *       sig: a symmetric, 8-byte aligned word on pe; sig_op GSHMEM_SIGNAL_SET or
 *       _ADD (another value ends the job); chan NULL: the default channel.
 *
 * Public families (T/TYPENAME: GSHMEM_RMA_TYPES, less long double under
 * nvcc; BITS 8 .. 128):
 *   gshmem_TYPENAME_put_signal[_nbi](T *dest, const T *source, size_t nelems,
 *                                    uint64_t *sig_addr, uint64_t signal, int sig_op, int pe)
 *   gshmem_putBITS_signal[_nbi](void *dest, const void *source, size_t nelems, ...)
 *   gshmem_putmem_signal[_nbi](void *dest, const void *source, size_t nbytes, ...)
 *   gshmemx_..._put_signal[_nbi]_{warp,block} of each (gshmemx_putmem_signal_nbi_warp, ...)
 *   void gshmemx_signal_op(uint64_t *sig_addr, uint64_t signal, int sig_op, int pe)
 *   uint64_t gshmem_signal_fetch(const uint64_t *sig_addr)
 *   uint64_t gshmem_signal_wait_until(uint64_t *sig_addr, int cmp, uint64_t cmp_value)
 *   MoE extensions, an explicit channel ch (0 .. gshmemx_n_channels()-1):
 *   gshmemx_putmem_signal_nbi_ch(void *dest, const void *source, size_t nbytes,
 *                                uint64_t *sig_addr, uint64_t signal, int sig_op, int pe, int ch)
 *   gshmemx_putmem_signal_nbi_warp_ch, gshmemx_putmem_signal_nbi_block_ch (same)
 *   void gshmemx_signal_op_ch(uint64_t *sig_addr, uint64_t signal, int sig_op, int pe, int ch)
 *   void gshmemx_signal_counted_reset(uint64_t *signal_addr)   (NVSHMEM 3.8; host too)
 *       this PE's signal word back to 0, for its next round of signals: a
 *       release store (what was read before it is not reordered after it).
 *       nvcc's host pass: the host API's atomic set on this PE (the word is
 *       device memory there).
 */
#ifndef GSD_SIGNAL_H
#define GSD_SIGNAL_H

#include <stddef.h>
#include <stdint.h>

#include "gshmem/constants.h"

#include "group.h"
#include "path.h"
#include "rows.h"
#include "wait.h"

#if defined(GSD_NVCC_HOST_PASS)
#include "shmem.h"
#endif

#define GSHMEM_SIGNAL_SET SHMEM_SIGNAL_SET
#define GSHMEM_SIGNAL_ADD SHMEM_SIGNAL_ADD

GSD_STATIC_ASSERT(GSD_SIGNAL_SET == GSHMEM_SIGNAL_SET && GSD_SIGNAL_ADD == GSHMEM_SIGNAL_ADD,
                  "descriptors carry the public signal op values");

GSD_FN void gsd_check_sig_op(const char *fn, int sig_op)
{
    if (GSD_UNLIKELY(sig_op != GSHMEM_SIGNAL_SET && sig_op != GSHMEM_SIGNAL_ADD))
        GSD_FATAL(fn, "sig_op %d is not GSHMEM_SIGNAL_SET or GSHMEM_SIGNAL_ADD", sig_op);
}

/* Signal word sig of pe (checked: symmetric, in the heap or a registered
 * buffer, and aligned): its offset and region, and pe's copy mapped here
 * (NULL: via the proxy). */
GSD_FN uint64_t *gsd_sig_peer(const char *fn, const uint64_t *sig, int pe, uint64_t *off,
                              unsigned *region)
{
    void *p = gsd_sym_peer(fn, sig, sizeof(*sig), pe, off, region);

    if (GSD_UNLIKELY(((uintptr_t)sig & 7) != 0))
        GSD_FATAL(fn, "signal address %p is not 8-byte aligned", (const void *)sig);
    return (uint64_t *)p;
}

/* The local signal word a fetch or wait reads, checked as above. */
GSD_FN void gsd_sig_check(const char *fn, const uint64_t *sig)
{
    uint64_t off;
    unsigned region;

    (void)gsd_sig_peer(fn, sig, GSD_STATE.my_pe, &off, &region);
}

GSD_FN void gsd_signal_store(uint64_t *p, uint64_t value, int sig_op)
{
    if (sig_op == GSHMEM_SIGNAL_SET)
        gsd_store_release(p, value);
    else
        gsd_fetch_add_release(p, value);
}

GSD_FN void gsd_signal(const char *fn, uint64_t *sig, uint64_t value, int sig_op, int pe,
                       gsd_channel_t *chan)
{
    uint64_t off;
    unsigned region;
    uint64_t *p;

    gsd_check_pe(fn, pe);
    gsd_check_sig_op(fn, sig_op);
    if ((p = gsd_sig_peer(fn, sig, pe, &off, &region)) != NULL)
        gsd_signal_store(p, value, sig_op);
    else
        gsd_push_at(gsd_chan_pick(fn, chan, pe), GSD_OP_AMO, region,
                    sig_op == GSHMEM_SIGNAL_SET ? GSD_AMO_SET : GSD_AMO_FADD, pe, off, NULL, 8,
                    value, 0, GSD_NO_RET);
}

GSD_FN void gsd_put_signal(const char *fn, int g, void *dest, const void *src, size_t nbytes,
                           uint64_t *sig, uint64_t value, int sig_op, int pe, int nbi,
                           gsd_channel_t *chan)
{
    uint64_t off = 0, soff;
    unsigned region, sregion;
    uint64_t *s;
    void *d = NULL;

    gsd_check_pe(fn, pe);
    gsd_check_sig_op(fn, sig_op);
    s = gsd_sig_peer(fn, sig, pe, &soff, &sregion);
    region = sregion; /* a put of no bytes names the signal's region */
    if (nbytes)
        d = gsd_sym_peer(fn, dest, nbytes, pe, &off, &region);
    gsd_group_sync(g);
    if (s) { /* pe is a load/store peer: its heap and registered buffers are mapped */
        if (nbytes)
            gsd_copy(g, d, src, nbytes);
        gsd_group_sync(g);
        if (gsd_group_rank(g) == 0)
            gsd_signal_store(s, value, sig_op); /* the release orders the copy */
        return;
    }
    if (gsd_group_rank(g) == 0) {
        gsd_channel_t *c = gsd_chan_pick(fn, chan, pe);

        gsd_push_sig(c, GSD_OP_PUT_SIGNAL, region, sregion, (unsigned)sig_op, pe, off, src, nbytes,
                     value, soff, GSD_NO_RET);
        if (!nbi)
            gsd_chan_quiet(c);
    }
    gsd_group_sync(g);
}

/* ---- families ------------------------------------------------------------ */

#define GSD_PUT_SIGNAL_(NAME, GROUP, NBI, T, SZ)                                                   \
    GSD_FN void NAME(T *dest, const T *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, \
                     int sig_op, int pe)                                                           \
    {                                                                                              \
        gsd_put_signal(#NAME, GROUP, dest, source, nelems *(SZ), sig_addr, signal, sig_op, pe,     \
                       NBI, NULL);                                                                 \
    }

#define GSD_PUT_SIGNAL(STEM, T, SZ)                                \
    GSD_PUT_SIGNAL_(gshmem_##STEM, GSD_THREAD, 0, T, SZ)           \
    GSD_PUT_SIGNAL_(gshmem_##STEM##_nbi, GSD_THREAD, 1, T, SZ)     \
    GSD_PUT_SIGNAL_(gshmemx_##STEM##_warp, GSD_WARP, 0, T, SZ)     \
    GSD_PUT_SIGNAL_(gshmemx_##STEM##_block, GSD_BLOCK, 0, T, SZ)   \
    GSD_PUT_SIGNAL_(gshmemx_##STEM##_nbi_warp, GSD_WARP, 1, T, SZ) \
    GSD_PUT_SIGNAL_(gshmemx_##STEM##_nbi_block, GSD_BLOCK, 1, T, SZ)

#define GSD_PUT_SIGNAL_TYPED_(T, N) GSD_PUT_SIGNAL(N##_put_signal, T, sizeof(T))
GSD_RMA_TYPES(GSD_PUT_SIGNAL_TYPED_)

#define GSD_PUT_SIGNAL_SIZED(BITS, BYTES) GSD_PUT_SIGNAL(put##BITS##_signal, void, BYTES)
GSHMEM_SIZES(GSD_PUT_SIGNAL_SIZED)

GSD_PUT_SIGNAL(putmem_signal, void, 1)

#undef GSD_PUT_SIGNAL_SIZED
#undef GSD_PUT_SIGNAL_TYPED_
#undef GSD_PUT_SIGNAL
#undef GSD_PUT_SIGNAL_

/* MoE: non-blocking put-with-signal on a named channel. */
#define GSD_PUT_SIGNAL_CH(NAME, GROUP)                                                      \
    GSD_FN void NAME(void *dest, const void *source, size_t nelems, uint64_t *sig_addr,     \
                     uint64_t signal, int sig_op, int pe, int ch)                           \
    {                                                                                       \
        gsd_put_signal(#NAME, GROUP, dest, source, nelems, sig_addr, signal, sig_op, pe, 1, \
                       gsd_chan_arg(#NAME, ch));                                            \
    }
GSD_PUT_SIGNAL_CH(gshmemx_putmem_signal_nbi_ch, GSD_THREAD)
GSD_PUT_SIGNAL_CH(gshmemx_putmem_signal_nbi_warp_ch, GSD_WARP)
GSD_PUT_SIGNAL_CH(gshmemx_putmem_signal_nbi_block_ch, GSD_BLOCK)
#undef GSD_PUT_SIGNAL_CH

GSD_FN void gshmemx_signal_op(uint64_t *sig_addr, uint64_t signal, int sig_op, int pe)
{
    gsd_signal("gshmemx_signal_op", sig_addr, signal, sig_op, pe, NULL);
}

GSD_HD void gshmemx_signal_counted_reset(uint64_t *signal_addr)
{
#if defined(GSD_NVCC_HOST_PASS)
    shmem_uint64_atomic_set(signal_addr, 0, shmem_my_pe());
#else
    gsd_store_release(signal_addr, 0);
#endif
}

GSD_FN void gshmemx_signal_op_ch(uint64_t *sig_addr, uint64_t signal, int sig_op, int pe, int ch)
{
    gsd_signal("gshmemx_signal_op_ch", sig_addr, signal, sig_op, pe,
               gsd_chan_arg("gshmemx_signal_op_ch", ch));
}

GSD_FN uint64_t gshmem_signal_fetch(const uint64_t *sig_addr)
{
    gsd_sig_check("gshmem_signal_fetch", sig_addr);
    return gsd_load_acquire(sig_addr);
}

GSD_FN uint64_t gshmem_signal_wait_until(uint64_t *sig_addr, int cmp, uint64_t cmp_value)
{
    const char *fn = "gshmem_signal_wait_until";

    gsd_sig_check(fn, sig_addr);
    return gsd_wait_u64(fn, sig_addr, cmp, cmp_value);
}

#endif /* GSD_SIGNAL_H */
