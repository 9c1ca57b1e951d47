/*
 * gsd/rma.h - remote memory access from device code (NVSHMEM's RMA with
 * nvshmem_ -> gshmem_, nvshmemx_ -> gshmemx_).
 *
 * Load/store peers: the group's lanes copy cooperatively, then meet at the
 * group's barrier, so the data is out of the source when any lane returns.
 * Proxy peers: lane 0 of the group pushes ONE descriptor (offsets in the
 * device heap's region), a blocking form also waits for that channel's
 * quiet, then the group meets.  Group forms also meet on entry, so data
 * another lane of the group wrote into the source is what travels.
 *
 * Building blocks (also for the device collectives; keep them stable):
 *
 *   void gsd_put(const char *fn, int g, void *dest, const void *src,
 *                size_t nbytes, int pe, int nbi, gsd_channel_t *chan)
 *   void gsd_get(const char *fn, int g, void *dest, const void *src,
 *                size_t nbytes, int pe, int nbi, gsd_channel_t *chan)
 *       dest (put) / src (get) is symmetric, on pe; the other side is any
 *       local memory.  fn names the public routine in error lines.  nbi: 0
 *       blocks until the local buffer may be reused (put) or holds the data
 *       (get); 1 leaves that to a quiet.  chan: the proxy channel, NULL for
 *       the caller's default (unused for load/store peers).
 *   void gsd_iput / gsd_iget(const char *fn, int g, void *dest,
 *                const void *src, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,
 *                size_t size, int pe)
 *       strided, blocking; strides count elements of size bytes.  Through
 *       the proxy lane 0 of the group pushes one descriptor for the whole
 *       run (GSD_OP_IPUT/IGET; a plain PUT/GET when both strides are 1).
 *
 * Public families, from the type table (T/TYPENAME: GSHMEM_RMA_TYPES, less
 * long double under nvcc; BITS: 8 16 32 64 128):
 *   gshmem_TYPENAME_{put,get}[_nbi](T *dest, const T *source, size_t nelems, int pe)
 *   gshmem_{put,get}BITS[_nbi](void *dest, const void *source, size_t nelems, int pe)
 *   gshmem_{put,get}mem[_nbi](void *dest, const void *source, size_t nbytes, int pe)
 *   gshmem_TYPENAME_i{put,get}(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst,
 *                              size_t nelems, int pe), gshmem_i{put,get}BITS(void *...)
 *   gshmem_TYPENAME_p(T *dest, T value, int pe), T gshmem_TYPENAME_g(const T *source, int pe)
 *   gshmemx_..._{warp,block} of every put, get, put_nbi, get_nbi, iput, iget above
 *       (gshmemx_TYPENAME_put_nbi_warp, gshmemx_put32_block, gshmemx_getmem_warp,
 *       gshmemx_iget64_block, ...); p and g have none
 *   MoE extensions, an explicit channel ch in 0 .. gshmemx_n_channels()-1:
 *   gshmemx_putmem_nbi_ch(void *dest, const void *source, size_t nbytes, int pe, int ch)
 *   gshmemx_putmem_nbi_warp_ch, gshmemx_putmem_nbi_block_ch (same arguments)
 *
 * g through the proxy: a GSD_OP_GET descriptor with a return slot (ret !=
 * GSD_NO_RET, local 0): the proxy writes the len (<= 8) bytes into the
 * slot's value, low bytes first.
 */
#ifndef GSD_RMA_H
#define GSD_RMA_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "group.h"
#include "path.h"
#include "rows.h"

/* The one body of gsd_put and gsd_get: sym is the symmetric side (on pe),
 * local the other; op GSD_OP_PUT copies local -> sym, GSD_OP_GET back. */
GSD_FN void gsd_rma(const char *fn, int g, uint32_t op, const void *sym, const void *local,
                    size_t nbytes, int pe, int nbi, gsd_channel_t *chan)
{
    uint64_t off;
    unsigned region;
    void *r;

    gsd_check_pe(fn, pe);
    if (nbytes == 0)
        return;
    r = gsd_sym_peer(fn, sym, nbytes, pe, &off, &region);
    gsd_group_sync(g);
    if (r) {
        if (op == GSD_OP_PUT)
            gsd_copy(g, r, local, nbytes);
        else
            gsd_copy(g, (void *)(uintptr_t)local, r, nbytes);
    } else if (gsd_group_rank(g) == 0) {
        gsd_channel_t *c = gsd_chan_pick(fn, chan, pe);

        gsd_push_at(c, op, region, 0, pe, off, local, nbytes, 0, 0, GSD_NO_RET);
        if (!nbi)
            gsd_chan_quiet(c);
    }
    gsd_group_sync(g);
}

GSD_FN void gsd_put(const char *fn, int g, void *dest, const void *src, size_t nbytes, int pe,
                    int nbi, gsd_channel_t *chan)
{
    gsd_rma(fn, g, GSD_OP_PUT, dest, src, nbytes, pe, nbi, chan);
}

GSD_FN void gsd_get(const char *fn, int g, void *dest, const void *src, size_t nbytes, int pe,
                    int nbi, gsd_channel_t *chan)
{
    gsd_rma(fn, g, GSD_OP_GET, src, dest, nbytes, pe, nbi, chan);
}

/* A strided run's first element on pe (gsd_sym_peer's answer); its last
 * one must be in the same region (a region is contiguous, so then every
 * element is). */
GSD_FN void *gsd_strided_peer(const char *fn, const void *first, ptrdiff_t stride, size_t nelems,
                              size_t size, int pe, uint64_t *off, unsigned *region)
{
    void *r = gsd_sym_peer(fn, first, size, pe, off, region);
    const char *last = (const char *)first + (ptrdiff_t)(nelems - 1) * stride * (ptrdiff_t)size;
    uint64_t last_off;
    unsigned last_region;

    gsd_sym_peer(fn, last, size, pe, &last_off, &last_region);
    if (GSD_UNLIKELY(last_region != *region))
        GSD_FATAL(fn, "the strided run from %p to %p (PE %d) leaves its symmetric region", first,
                  (const void *)last, pe);
    return r;
}

/* put: 1 for iput, 0 for iget.  sym is the symmetric side (dest of an iput,
 * source of an iget) with stride sym_st; loc the local side. */
GSD_FN void gsd_strided(const char *fn, int put, int g, void *sym, ptrdiff_t sym_st, void *loc,
                        ptrdiff_t loc_st, size_t nelems, size_t size, int pe)
{
    unsigned rank, lanes, region;
    uint64_t off;
    size_t i;
    char *r;

    gsd_check_pe(fn, pe);
    if (nelems == 0)
        return;
    r = (char *)gsd_strided_peer(fn, sym, sym_st, nelems, size, pe, &off, &region);
    rank = gsd_group_rank(g);
    lanes = gsd_group_size(g);
    gsd_group_sync(g);
    if (r) {
        for (i = rank; i < nelems; i += lanes) {
            char *s = r + (ptrdiff_t)i * sym_st * (ptrdiff_t)size;
            char *l = (char *)loc + (ptrdiff_t)i * loc_st * (ptrdiff_t)size;

            if (put)
                gsd_copy_elem(s, l, size);
            else
                gsd_copy_elem(l, s, size);
        }
    } else {
        /* One descriptor for the whole run, from the group's lane 0: the
         * proxy walks the strides (GSD_OP_IPUT/IGET in gsd/channel.h). */
        if (rank == 0) {
            gsd_channel_t *c = gsd_chan_pick(fn, NULL, pe);

            if (sym_st == 1 && loc_st == 1)
                gsd_push_at(c, put ? GSD_OP_PUT : GSD_OP_GET, region, 0, pe, off, loc,
                            nelems * size, 0, 0, GSD_NO_RET);
            else
                gsd_push_at(c, put ? GSD_OP_IPUT : GSD_OP_IGET, region, (unsigned)size, pe, off,
                            loc, nelems, (uint64_t)(sym_st * (ptrdiff_t)size),
                            (uint64_t)(loc_st * (ptrdiff_t)size), GSD_NO_RET);
            gsd_chan_quiet(c);
        }
    }
    gsd_group_sync(g);
}

GSD_FN void gsd_iput(const char *fn, int g, void *dest, const void *src, ptrdiff_t dst,
                     ptrdiff_t sst, size_t nelems, size_t size, int pe)
{
    gsd_strided(fn, 1, g, dest, dst, (void *)(uintptr_t)src, sst, nelems, size, pe);
}

GSD_FN void gsd_iget(const char *fn, int g, void *dest, const void *src, ptrdiff_t dst,
                     ptrdiff_t sst, size_t nelems, size_t size, int pe)
{
    gsd_strided(fn, 0, g, (void *)(uintptr_t)src, sst, dest, dst, nelems, size, pe);
}

/* p and g through the proxy (the load/store path is the typed functions'
 * own single access, GSD_VALUE_STORE / _LOAD in group.h).  size <= 8 travels in the descriptor or a return
 * slot; a larger value (long double, host lanes only) as a blocking put
 * from / get into the caller's variable. */
GSD_FN void gsd_p_proxy(const char *fn, unsigned region, uint64_t off, const void *value,
                        size_t size, int pe)
{
    gsd_channel_t *c = gsd_chan_pick(fn, NULL, pe);

    if (size <= 8) {
        gsd_push_at(c, GSD_OP_P, region, 0, pe, off, NULL, size, gsd_bits(value, size), 0,
                    GSD_NO_RET);
    } else {
        gsd_push_at(c, GSD_OP_PUT, region, 0, pe, off, value, size, 0, 0, GSD_NO_RET);
        gsd_chan_quiet(c);
    }
}

GSD_FN void gsd_g_proxy(const char *fn, void *out, unsigned region, uint64_t off, size_t size,
                        int pe)
{
    gsd_channel_t *c = gsd_chan_pick(fn, NULL, pe);

    if (size <= 8) {
        uint64_t r = gsd_ret_take(c);

        gsd_push_at(c, GSD_OP_GET, region, 0, pe, off, NULL, size, 0, 0, r);
        gsd_unbits(out, gsd_ret_wait(c, r, fn), size);
    } else {
        gsd_push_at(c, GSD_OP_GET, region, 0, pe, off, out, size, 0, 0, GSD_NO_RET);
        gsd_chan_quiet(c);
    }
}

/* ---- host code of a CUDA build ---------------------------------------------
 * NVSHMEM's thread forms of put, get, their _nbi, iput, iget, p and g are
 * host-callable too (of every type, bfloat16 and half included).  nvcc's
 * host pass gives them the host API's routines on the same bytes (the host
 * API reaches the device heap: host RMA on it goes through the copy engine),
 * its device pass the device code below.  Host lanes compile the device
 * code only: a host thread runs it as a lane would. */
#if defined(GSD_NVCC_HOST_PASS)
#include "shmem.h"

static inline void gsd_host_put(void *dest, const void *src, size_t n, int pe, int nbi)
{
    if (nbi)
        shmem_putmem_nbi(dest, src, n, pe);
    else
        shmem_putmem(dest, src, n, pe);
}

static inline void gsd_host_get(void *dest, const void *src, size_t n, int pe, int nbi)
{
    if (nbi)
        shmem_getmem_nbi(dest, src, n, pe);
    else
        shmem_getmem(dest, src, n, pe);
}

/* size: 1, 2, 4, 8 (the types) or 16 (iput128). */
static inline void gsd_host_iput(void *dest, const void *src, ptrdiff_t dst, ptrdiff_t sst,
                                 size_t n, size_t size, int pe)
{
    switch (size) {
    case 1: shmem_iput8(dest, src, dst, sst, n, pe); break;
    case 2: shmem_iput16(dest, src, dst, sst, n, pe); break;
    case 4: shmem_iput32(dest, src, dst, sst, n, pe); break;
    case 8: shmem_iput64(dest, src, dst, sst, n, pe); break;
    default: shmem_iput128(dest, src, dst, sst, n, pe); break;
    }
}

static inline void gsd_host_iget(void *dest, const void *src, ptrdiff_t dst, ptrdiff_t sst,
                                 size_t n, size_t size, int pe)
{
    switch (size) {
    case 1: shmem_iget8(dest, src, dst, sst, n, pe); break;
    case 2: shmem_iget16(dest, src, dst, sst, n, pe); break;
    case 4: shmem_iget32(dest, src, dst, sst, n, pe); break;
    case 8: shmem_iget64(dest, src, dst, sst, n, pe); break;
    default: shmem_iget128(dest, src, dst, sst, n, pe); break;
    }
}

#define GSD_XFER_HD(OP, NAME, NBI, T, SZ)                             \
    GSD_HD void NAME(T *dest, const T *source, size_t nelems, int pe) \
    {                                                                 \
        gsd_host_##OP(dest, source, nelems *(SZ), pe, NBI);           \
    }
#define GSD_STRIDED_HD(OP, NAME, T, SZ)                                                     \
    GSD_HD void NAME(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, \
                     int pe)                                                                \
    {                                                                                       \
        gsd_host_##OP(dest, source, dst, sst, nelems, SZ, pe);                              \
    }
#define GSD_PG(T, N)                                     \
    GSD_HD void gshmem_##N##_p(T *dest, T value, int pe) \
    {                                                    \
        shmem_putmem(dest, &value, sizeof(T), pe);       \
    }                                                    \
    GSD_HD T gshmem_##N##_g(const T *source, int pe)     \
    {                                                    \
        T v;                                             \
        shmem_getmem(&v, source, sizeof(T), pe);         \
        return v;                                        \
    }
#else
#define GSD_XFER_HD(OP, NAME, NBI, T, SZ)                                       \
    GSD_HD void NAME(T *dest, const T *source, size_t nelems, int pe)           \
    {                                                                           \
        gsd_##OP(#NAME, GSD_THREAD, dest, source, nelems *(SZ), pe, NBI, NULL); \
    }
#define GSD_STRIDED_HD(OP, NAME, T, SZ)                                                     \
    GSD_HD void NAME(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, \
                     int pe)                                                                \
    {                                                                                       \
        gsd_##OP(#NAME, GSD_THREAD, dest, source, dst, sst, nelems, SZ, pe);                \
    }
#define GSD_PG(T, N)                                                           \
    GSD_HD void gshmem_##N##_p(T *dest, T value, int pe)                       \
    {                                                                          \
        const char *fn = "gshmem_" #N "_p";                                    \
        uint64_t off;                                                          \
        unsigned region;                                                       \
        T *r;                                                                  \
        gsd_check_pe(fn, pe);                                                  \
        r = (T *)gsd_sym_peer(fn, dest, sizeof(T), pe, &off, &region);         \
        if (r)                                                                 \
            GSD_VALUE_STORE(T, r, value);                                      \
        else                                                                   \
            gsd_p_proxy(fn, region, off, &value, sizeof(T), pe);               \
    }                                                                          \
    GSD_HD T gshmem_##N##_g(const T *source, int pe)                           \
    {                                                                          \
        const char *fn = "gshmem_" #N "_g";                                    \
        uint64_t off;                                                          \
        unsigned region;                                                       \
        const T *r;                                                            \
        T v;                                                                   \
        gsd_check_pe(fn, pe);                                                  \
        r = (const T *)gsd_sym_peer(fn, source, sizeof(T), pe, &off, &region); \
        if (r)                                                                 \
            GSD_VALUE_LOAD(T, v, r);                                           \
        else                                                                   \
            gsd_g_proxy(fn, &v, region, off, sizeof(T), pe);                   \
        return v;                                                              \
    }
#endif

/* ---- families ------------------------------------------------------------
 * STEM is the name after gshmem_ / gshmemx_ (float_put, put32, putmem);
 * T the element type (void for sized and mem forms), SZ its size.  The
 * thread forms are GSD_HD (above), the _warp and _block ones device only. */

#define GSD_XFER_(OP, NAME, GROUP, NBI, T, SZ)                             \
    GSD_FN void NAME(T *dest, const T *source, size_t nelems, int pe)      \
    {                                                                      \
        gsd_##OP(#NAME, GROUP, dest, source, nelems *(SZ), pe, NBI, NULL); \
    }

#define GSD_XFER(OP, STEM, T, SZ)                                \
    GSD_XFER_HD(OP, gshmem_##STEM, 0, T, SZ)                     \
    GSD_XFER_HD(OP, gshmem_##STEM##_nbi, 1, T, SZ)               \
    GSD_XFER_(OP, gshmemx_##STEM##_warp, GSD_WARP, 0, T, SZ)     \
    GSD_XFER_(OP, gshmemx_##STEM##_block, GSD_BLOCK, 0, T, SZ)   \
    GSD_XFER_(OP, gshmemx_##STEM##_nbi_warp, GSD_WARP, 1, T, SZ) \
    GSD_XFER_(OP, gshmemx_##STEM##_nbi_block, GSD_BLOCK, 1, T, SZ)

#define GSD_STRIDED_(OP, NAME, GROUP, T, SZ)                                                \
    GSD_FN void NAME(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, \
                     int pe)                                                                \
    {                                                                                       \
        gsd_##OP(#NAME, GROUP, dest, source, dst, sst, nelems, SZ, pe);                     \
    }

#define GSD_STRIDED(OP, STEM, T, SZ)                         \
    GSD_STRIDED_HD(OP, gshmem_##STEM, T, SZ)                 \
    GSD_STRIDED_(OP, gshmemx_##STEM##_warp, GSD_WARP, T, SZ) \
    GSD_STRIDED_(OP, gshmemx_##STEM##_block, GSD_BLOCK, T, SZ)

#define GSD_RMA_TYPED_(T, N)                  \
    GSD_XFER(put, N##_put, T, sizeof(T))      \
    GSD_XFER(get, N##_get, T, sizeof(T))      \
    GSD_STRIDED(iput, N##_iput, T, sizeof(T)) \
    GSD_STRIDED(iget, N##_iget, T, sizeof(T)) \
    GSD_PG(T, N)
GSD_RMA_TYPES(GSD_RMA_TYPED_)

#define GSD_RMA_SIZED(BITS, BYTES)             \
    GSD_XFER(put, put##BITS, void, BYTES)      \
    GSD_XFER(get, get##BITS, void, BYTES)      \
    GSD_STRIDED(iput, iput##BITS, void, BYTES) \
    GSD_STRIDED(iget, iget##BITS, void, BYTES)
GSHMEM_SIZES(GSD_RMA_SIZED)

GSD_XFER(put, putmem, void, 1)
GSD_XFER(get, getmem, void, 1)

#undef GSD_RMA_SIZED
#undef GSD_RMA_TYPED_
#undef GSD_PG
#undef GSD_STRIDED
#undef GSD_STRIDED_
#undef GSD_STRIDED_HD
#undef GSD_XFER
#undef GSD_XFER_
#undef GSD_XFER_HD

/* MoE: non-blocking puts on a named channel. */
#define GSD_PUT_CH(NAME, GROUP)                                                      \
    GSD_FN void NAME(void *dest, const void *source, size_t nelems, int pe, int ch)  \
    {                                                                                \
        gsd_put(#NAME, GROUP, dest, source, nelems, pe, 1, gsd_chan_arg(#NAME, ch)); \
    }
GSD_PUT_CH(gshmemx_putmem_nbi_ch, GSD_THREAD)
GSD_PUT_CH(gshmemx_putmem_nbi_warp_ch, GSD_WARP)
GSD_PUT_CH(gshmemx_putmem_nbi_block_ch, GSD_BLOCK)
#undef GSD_PUT_CH

#endif /* GSD_RMA_H */
