/*
 * gsd/group.h - the thread groups of the device API and the cooperative
 * copy they share.
 *
 *   GSD_THREAD  the calling thread alone (gshmem_putmem, ...)
 *   GSD_WARP    the caller's warp: every lane calls with the same arguments
 *               (gshmemx_putmem_warp, ...); the last warp of a block may be
 *               partial
 *   GSD_BLOCK   the caller's block: every thread calls (..._block)
 *   GSD_WARPGROUP  the caller's 4 warps (gsd/arch.h): every lane calls
 *               (..._warpgroup)
 *
 * gsd_group_rank/size/sync: this lane's index in the group, the group's
 * lanes, the group's barrier (none for GSD_THREAD).
 *
 * gsd_copy(g, dst, src, n): the group's lanes together copy n bytes (no
 * overlap), on the GPU each lane a strided share of 16/8/4/2-byte chunks
 * (the widest both addresses can be aligned to) with several loads in
 * flight, bytes for the misaligned head and tail (gsd_copy_strided); on
 * host lanes one memcpy share each.  No barrier: callers end with
 * gsd_group_sync(g) before the copy may be relied on.
 */
#ifndef GSD_GROUP_H
#define GSD_GROUP_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "arch.h"

/* No aliasing between the pointers so qualified (GCC, Clang and nvcc all
 * spell it so, in C and C++). */
#define GSD_RESTRICT __restrict__

enum { GSD_THREAD = 0, GSD_WARP = 1, GSD_BLOCK = 2, GSD_WARPGROUP = 3 }; /* a group: an int */

GSD_FN unsigned gsd_group_rank(int g)
{
    return g == GSD_THREAD      ? 0u
           : g == GSD_WARP      ? gsd_lane_id()
           : g == GSD_WARPGROUP ? gsd_warpgroup_rank()
                                : gsd_thread_id();
}

GSD_FN unsigned gsd_group_size(int g)
{
    return g == GSD_THREAD      ? 1u
           : g == GSD_WARP      ? gsd_warp_threads()
           : g == GSD_WARPGROUP ? gsd_warpgroup_threads()
                                : gsd_block_threads();
}

GSD_FN void gsd_group_sync(int g)
{
    if (g == GSD_WARP)
        gsd_syncwarp();
    else if (g == GSD_BLOCK)
        gsd_syncthreads();
    else if (g == GSD_WARPGROUP)
        gsd_syncwarpgroup();
}

#if defined(GSD_CUDA)
typedef uint4 gsd_v16_t;
/* One chunk: a plain (coherent) load or store of the chunk's type, which
 * nvcc makes one vector instruction (ld/st.v4.u32 for 16 bytes). */
#define GSD_CP_LD(v, p) ((v) = *(p))
#define GSD_CP_ST(p, v) (*(p) = (v))
#define GSD_PRAGMA_UNROLL _Pragma("unroll")
#else
typedef struct gsd_v16 {
    uint64_t lo, hi;
} gsd_v16_t;
/* Host lanes: memcpy of a fixed size, so no access breaks C's aliasing
 * rules (the compiler makes it one or two moves). */
#define GSD_CP_LD(v, p) memcpy(&(v), (p), sizeof(v))
#define GSD_CP_ST(p, v) memcpy((p), &(v), sizeof(v))
#define GSD_PRAGMA_UNROLL
#endif

/* Chunks each lane has in flight: a lane issues this many independent
 * loads before its first store, so one lane's latency is paid once per
 * group of chunks and not once per chunk (16 bytes x 4 = 64 bytes a lane,
 * 2 KiB a warp). */
#define GSD_COPY_UNROLL 4

GSD_FN void gsd_copy_bytes(unsigned rank, unsigned size, char *GSD_RESTRICT d,
                           const char *GSD_RESTRICT s, size_t n)
{
    size_t i;

    for (i = rank; i < n; i += size)
        d[i] = s[i];
}

/* c chunks of type U, both pointers aligned to it: lane `rank` of `size`
 * copies chunks rank, rank + size, ... (adjacent lanes touch adjacent
 * chunks: coalesced on the GPU), GSD_COPY_UNROLL of them loaded before
 * any is stored, then the remainder one by one. */
#define GSD_COPY_ALIGNED(NAME, U)                                                              \
    GSD_FN void NAME(unsigned rank, unsigned size, U *GSD_RESTRICT d, const U *GSD_RESTRICT s, \
                     size_t c)                                                                 \
    {                                                                                          \
        size_t i = rank, step = size;                                                          \
        unsigned j;                                                                            \
                                                                                               \
        for (; i + (GSD_COPY_UNROLL - 1) * step < c; i += GSD_COPY_UNROLL * step) {            \
            U v[GSD_COPY_UNROLL];                                                              \
            GSD_PRAGMA_UNROLL                                                                  \
            for (j = 0; j < GSD_COPY_UNROLL; j++)                                              \
                GSD_CP_LD(v[j], &s[i + j * step]);                                             \
            GSD_PRAGMA_UNROLL                                                                  \
            for (j = 0; j < GSD_COPY_UNROLL; j++)                                              \
                GSD_CP_ST(&d[i + j * step], v[j]);                                             \
        }                                                                                      \
        for (; i < c; i += step) {                                                             \
            U v;                                                                               \
            GSD_CP_LD(v, &s[i]);                                                               \
            GSD_CP_ST(&d[i], v);                                                               \
        }                                                                                      \
    }
GSD_COPY_ALIGNED(gsd_copy_u16, gsd_v16_t)
GSD_COPY_ALIGNED(gsd_copy_u8, uint64_t)
GSD_COPY_ALIGNED(gsd_copy_u4, uint32_t)
GSD_COPY_ALIGNED(gsd_copy_u2, uint16_t)
#undef GSD_COPY_ALIGNED
#undef GSD_PRAGMA_UNROLL
#undef GSD_CP_ST
#undef GSD_CP_LD

/* The lanes' strided copy (the GPU's gsd_copy; host lanes compile it too,
 * and tests/device/copy_align.c runs it there for every alignment).  The
 * width W is the widest of 16, 8, 4, 2 that d and s can both be aligned to
 * ((d ^ s) has no bit below W); the head up to a W-aligned d and the tail
 * after the last whole chunk are bytes, so any d, s and n work.  d and s
 * must not overlap (memcpy's rule), which is what lets the loads run
 * ahead of the stores.
 *
 * Plain loads, not ld.global.nc: the non-coherent path is legal only for
 * data no thread writes while the kernel runs, and neither source is:
 * a put's is often written by the same kernel just before, a get's is a
 * peer's memory that the peer writes before it signals. */
GSD_FN void gsd_copy_strided(unsigned rank, unsigned size, void *GSD_RESTRICT dst,
                             const void *GSD_RESTRICT src, size_t n)
{
    char *d = (char *)dst;
    const char *s = (const char *)src;
    uintptr_t mis = (uintptr_t)d ^ (uintptr_t)s;
    size_t w = (mis & 15) == 0  ? 16
               : (mis & 7) == 0 ? 8
               : (mis & 3) == 0 ? 4
               : (mis & 1) == 0 ? 2
                                : 1;
    size_t head, c;

    if (w == 1 || n < w) {
        gsd_copy_bytes(rank, size, d, s, n);
        return;
    }
    head = (size_t)(-(uintptr_t)d & (w - 1));
    if (head > n)
        head = n;
    gsd_copy_bytes(rank, size, d, s, head);
    d += head, s += head, n -= head;
    c = n / w;
    switch (w) {
    case 16:
        gsd_copy_u16(rank, size, (gsd_v16_t *)(void *)d, (const gsd_v16_t *)(const void *)s, c);
        break;
    case 8:
        gsd_copy_u8(rank, size, (uint64_t *)(void *)d, (const uint64_t *)(const void *)s, c);
        break;
    case 4:
        gsd_copy_u4(rank, size, (uint32_t *)(void *)d, (const uint32_t *)(const void *)s, c);
        break;
    default:
        gsd_copy_u2(rank, size, (uint16_t *)(void *)d, (const uint16_t *)(const void *)s, c);
        break;
    }
    gsd_copy_bytes(rank, size, d + c * w, s + c * w, n - c * w);
}

#if defined(GSD_HOSTLANE)
/* Host lanes are CPU threads: each copies one contiguous, cache-line
 * aligned share with memcpy (interleaved 16-byte chunks would make the
 * lanes' caches fight over every line). */
GSD_FN void gsd_copy(int g, void *dst, const void *src, size_t n)
{
    size_t rank = gsd_group_rank(g), size = gsd_group_size(g);
    size_t share = ((n + size - 1) / size + 63) & ~(size_t)63;
    size_t lo = rank * share, hi = lo + share;

    if (lo >= n)
        return;
    memcpy((char *)dst + lo, (const char *)src + lo, (hi < n ? hi : n) - lo);
}
#else
GSD_FN void gsd_copy(int g, void *dst, const void *src, size_t n)
{
    gsd_copy_strided(gsd_group_rank(g), gsd_group_size(g), dst, src, n);
}
#endif

/* One element of an iput/iget: size 1, 2, 4, 8 or 16 bytes (or any). */
GSD_FN void gsd_copy_elem(void *d, const void *s, size_t size)
{
    switch (size) {
    case 1: memcpy(d, s, 1); break;
    case 2: memcpy(d, s, 2); break;
    case 4: memcpy(d, s, 4); break;
    case 8: memcpy(d, s, 8); break;
    case 16: memcpy(d, s, 16); break;
    default: memcpy(d, s, size); break;
    }
}

/* A 4- or 8-byte value as the bits an AMO or a descriptor carries, and
 * back (float and double keep their representation).  Host code too
 * (gsd/amo_float.h). */
GSD_HD uint64_t gsd_bits(const void *v, size_t size)
{
    uint64_t b = 0;

    memcpy(&b, v, size); /* little-endian: the low bytes */
    return b;
}

GSD_HD void gsd_unbits(void *v, uint64_t b, size_t size)
{
    memcpy(v, &b, size);
}

/* One value of `size` bytes stored at / loaded from p in a single access,
 * for p and g by load/store: another lane may wait on that word, or update
 * it atomically, at the same time.  The GPU: volatile, which PTX makes a
 * relaxed access.  Host lanes: an __atomic access for 1, 2, 4 and 8 bytes
 * (a plain or volatile one racing with an atomic is undefined in C); wider
 * values (long double) are copied, there being no atomic that wide.  The
 * store releases: a lane whose wait (an acquire load) sees the value may
 * then read the word with a plain load, as programs do, and that read must
 * happen after the store (on x86 a release store is a plain mov).  The
 * load is relaxed: g orders nothing, gshmem_fence and gshmem_quiet do. */
#if defined(GSD_CUDA)
#define GSD_VALUE_STORE(T, p, v) (*(volatile T *)(p) = (v))
#define GSD_VALUE_LOAD(T, v, p) ((v) = *(const volatile T *)(p))
#else
#define GSD_VALUE_STORE(T, p, v) gsd_store_value((p), &(v), sizeof(T))
#define GSD_VALUE_LOAD(T, v, p) gsd_load_value(&(v), (p), sizeof(T))

GSD_FN void gsd_store_value(void *p, const void *v, size_t size)
{
    uint8_t b;
    uint16_t h;
    uint32_t w;
    uint64_t d;

    switch (size) {
    case 1:
        memcpy(&b, v, 1);
        __atomic_store_n((uint8_t *)p, b, __ATOMIC_RELEASE);
        break;
    case 2:
        memcpy(&h, v, 2);
        __atomic_store_n((uint16_t *)p, h, __ATOMIC_RELEASE);
        break;
    case 4:
        memcpy(&w, v, 4);
        __atomic_store_n((uint32_t *)p, w, __ATOMIC_RELEASE);
        break;
    case 8:
        memcpy(&d, v, 8);
        __atomic_store_n((uint64_t *)p, d, __ATOMIC_RELEASE);
        break;
    default: memcpy(p, v, size); break;
    }
}

GSD_FN void gsd_load_value(void *v, const void *p, size_t size)
{
    uint8_t b;
    uint16_t h;
    uint32_t w;
    uint64_t d;

    switch (size) {
    case 1:
        b = __atomic_load_n((const uint8_t *)p, __ATOMIC_RELAXED);
        memcpy(v, &b, 1);
        break;
    case 2:
        h = __atomic_load_n((const uint16_t *)p, __ATOMIC_RELAXED);
        memcpy(v, &h, 2);
        break;
    case 4:
        w = __atomic_load_n((const uint32_t *)p, __ATOMIC_RELAXED);
        memcpy(v, &w, 4);
        break;
    case 8:
        d = __atomic_load_n((const uint64_t *)p, __ATOMIC_RELAXED);
        memcpy(v, &d, 8);
        break;
    default: memcpy(v, p, size); break;
    }
}
#endif

#endif /* GSD_GROUP_H */
