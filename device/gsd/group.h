/*
 * gsd/group.h - the thread groups of the device API and the cooperative
 * copy they share.
 *
 *   GSD_THREAD  the calling thread alone (gshmem_putmem, ...)
 *   GSD_WARP    the caller's warp: every lane calls with the same arguments
 *               (gshmemx_putmem_warp, ...); the last warp of a block may be
 *               partial
 *   GSD_BLOCK   the caller's block: every thread calls (..._block)
 *
 * gsd_group_rank/size/sync: this lane's index in the group, the group's
 * lanes, the group's barrier (none for GSD_THREAD).
 *
 * gsd_copy(g, dst, src, n): the group's lanes together copy n bytes, each
 * lane a strided share, in 16/8/4/2/1-byte chunks (the widest both
 * addresses can be aligned to).  No barrier: callers end with
 * gsd_group_sync(g) before the copy may be relied on.
 */
#ifndef GSD_GROUP_H
#define GSD_GROUP_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "arch.h"

enum { GSD_THREAD = 0, GSD_WARP = 1, GSD_BLOCK = 2 }; /* a group: an int */

GSD_FN unsigned gsd_group_rank(int g)
{
    return g == GSD_THREAD ? 0u : g == GSD_WARP ? gsd_lane_id() : gsd_thread_id();
}

GSD_FN unsigned gsd_group_size(int g)
{
    return g == GSD_THREAD ? 1u : g == GSD_WARP ? gsd_warp_threads() : gsd_block_threads();
}

GSD_FN void gsd_group_sync(int g)
{
    if (g == GSD_WARP)
        gsd_syncwarp();
    else if (g == GSD_BLOCK)
        gsd_syncthreads();
}

#if defined(GSD_CUDA)
typedef uint4 gsd_v16_t;
#else
typedef struct gsd_v16 {
    uint64_t lo, hi;
} gsd_v16_t;
#endif

GSD_FN void gsd_copy_bytes(unsigned rank, unsigned size, char *d, const char *s, size_t n)
{
    size_t i;

    for (i = rank; i < n; i += size)
        d[i] = s[i];
}

/* Bytes up to a W-aligned d, then W-byte chunks (s is as misaligned as d). */
#define GSD_COPY_CHUNKS(U, W)                                        \
    do {                                                             \
        size_t h_ = (size_t)(-(uintptr_t)d & (W - 1)), c_, i_;       \
        if (h_ > n)                                                  \
            h_ = n;                                                  \
        gsd_copy_bytes(rank, size, d, s, h_);                        \
        d += h_, s += h_, n -= h_;                                   \
        c_ = n / W;                                                  \
        for (i_ = rank; i_ < c_; i_ += size)                         \
            ((U *)(void *)d)[i_] = ((const U *)(const void *)s)[i_]; \
        d += c_ * W, s += c_ * W, n -= c_ * W;                       \
    } while (0)

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
    unsigned rank = gsd_group_rank(g), size = gsd_group_size(g);
    char *d = (char *)dst;
    const char *s = (const char *)src;
    uintptr_t mis = (uintptr_t)d ^ (uintptr_t)s;

    if (n >= 16 && (mis & 15) == 0)
        GSD_COPY_CHUNKS(gsd_v16_t, 16);
    else if (n >= 8 && (mis & 7) == 0)
        GSD_COPY_CHUNKS(uint64_t, 8);
    else if (n >= 4 && (mis & 3) == 0)
        GSD_COPY_CHUNKS(uint32_t, 4);
    else if (n >= 2 && (mis & 1) == 0)
        GSD_COPY_CHUNKS(uint16_t, 2);
    gsd_copy_bytes(rank, size, d, s, n);
}
#endif
#undef GSD_COPY_CHUNKS

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
 * back (float and double keep their representation). */
GSD_FN uint64_t gsd_bits(const void *v, size_t size)
{
    uint64_t b = 0;

    memcpy(&b, v, size); /* little-endian: the low bytes */
    return b;
}

GSD_FN void gsd_unbits(void *v, uint64_t b, size_t size)
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
