/*
 * gsd/amo_float.h - NVSHMEM 3.8's floating-point atomics, host and device
 * (GSD_HD, as NVSHMEM's are __host__ __device__):
 *
 *   void gshmemx_TYPENAME_atomic_add(T *dest, T value, int pe)
 *   T gshmemx_TYPENAME_atomic_fetch_add(T *dest, T value, int pe)
 *       TYPENAME float, double, half: dest += value, rounded in T (half:
 *       the sum in float rounded to nearest even, the bits __hadd gives)
 *   T gshmem_half_atomic_fetch(const T *source, int pe)
 *   void gshmem_half_atomic_set(T *dest, T value, int pe)
 *   T gshmem_half_atomic_swap(T *dest, T value, int pe)
 *
 * Each is a compare-and-swap loop on the aligned 4- or 8-byte word that
 * holds the value (a half is half of a 4-byte word; the loop keeps the
 * other half as it finds it).  Why a loop and not a native float add: the
 * proxy channel and the network transports carry integer AMOs only, and
 * one path gives the same results over load/store peers and the proxy.
 * Device code and host lanes use gsd_amo (gsd/amo.h); nvcc's host pass the
 * host API's uint32/uint64 fetch and compare_swap on the same word (the
 * host API reaches the device heap).
 */
#ifndef GSD_AMO_FLOAT_H
#define GSD_AMO_FLOAT_H

#include <stddef.h>
#include <stdint.h>

#include "gshmem/float16.h"

#include "amo.h"
#include "rows.h"

/* What the loop does with the old value: add, or put the new one. */
typedef enum gsd_fop { GSD_FOP_ADD, GSD_FOP_SWAP } gsd_fop_t;

/* old + value of `size` (2 half, 4 float, 8 double) in bits, rounded in
 * the type. */
GSD_HD uint64_t gsd_fadd_bits(size_t size, uint64_t old, uint64_t value)
{
    if (size == 2)
        return gshmemx_half_bits(
            gshmemx_float_to_half(gshmemx_half_to_float(gshmemx_half_from_bits((uint16_t)old)) +
                                  gshmemx_half_to_float(gshmemx_half_from_bits((uint16_t)value))));
    if (size == 4) {
        float a, b;
        uint32_t a32 = (uint32_t)old, b32 = (uint32_t)value;

        memcpy(&a, &a32, 4);
        memcpy(&b, &b32, 4);
        a += b;
        memcpy(&a32, &a, 4);
        return a32;
    } else {
        double a, b;

        memcpy(&a, &old, 8);
        memcpy(&b, &value, 8);
        a += b;
        memcpy(&old, &a, 8);
        return old;
    }
}

#if defined(GSD_NVCC_HOST_PASS)
#include <stdio.h>

#include "shmem.h"

/* The word's fetch (fetch) or compare_swap, through the host API. */
static inline uint64_t gsd_fword(const char *fn, int fetch, size_t wsize, void *w, uint64_t cmp,
                                 uint64_t value, int pe)
{
    (void)fn;
    if (wsize == 4)
        return fetch ? shmem_uint32_atomic_fetch((uint32_t *)w, pe)
                     : shmem_uint32_atomic_compare_swap((uint32_t *)w, (uint32_t)cmp,
                                                        (uint32_t)value, pe);
    return fetch ? shmem_uint64_atomic_fetch((uint64_t *)w, pe)
                 : shmem_uint64_atomic_compare_swap((uint64_t *)w, cmp, value, pe);
}

static inline void gsd_falign(const char *fn, const void *dest, size_t size)
{
    if (((uintptr_t)dest & (size - 1)) != 0) {
        fprintf(stderr, "gshmem: PE %d: %s: address %p is not aligned to its %u-byte type\n",
                shmem_my_pe(), fn, dest, (unsigned)size);
        shmem_global_exit(1);
    }
}
#else
GSD_FN uint64_t gsd_fword(const char *fn, int fetch, size_t wsize, void *w, uint64_t cmp,
                          uint64_t value, int pe)
{
    return fetch ? gsd_amo(fn, GSD_AMO_FETCH, wsize, w, 0, 0, pe, 1)
                 : gsd_amo(fn, GSD_AMO_CSWAP, wsize, w, value, cmp, pe, 1);
}

GSD_FN void gsd_falign(const char *fn, const void *dest, size_t size)
{
    if (GSD_UNLIKELY(((uintptr_t)dest & (size - 1)) != 0))
        GSD_FATAL(fn, "address %p is not aligned to its %u-byte type", dest, (unsigned)size);
}
#endif

/* op on the `size`-byte value at symmetric dest on pe; returns its old bits.
 * fetch only: one fetch of the word, no loop. */
GSD_HD uint64_t gsd_famo(const char *fn, gsd_fop_t op, size_t size, void *dest, uint64_t value,
                         int pe, int fetch_only)
{
    size_t wsize = size == 8 ? 8 : 4;
    uintptr_t a = (uintptr_t)dest;
    void *w = (void *)(a & ~(uintptr_t)(wsize - 1));
    unsigned shift = (unsigned)(a - (uintptr_t)w) * 8u;
    uint64_t mask = size == 8 ? ~(uint64_t)0 : ((uint64_t)1 << (size * 8)) - 1;
    uint64_t old, cur, next, got;

    gsd_falign(fn, dest, size);
    old = gsd_fword(fn, 1, wsize, w, 0, 0, pe);
    for (;;) {
        cur = (old >> shift) & mask;
        if (fetch_only)
            return cur;
        next = op == GSD_FOP_ADD ? gsd_fadd_bits(size, cur, value) : value;
        next = (old & ~(mask << shift)) | ((next & mask) << shift);
        got = gsd_fword(fn, 0, wsize, w, old, next, pe);
        if (got == old)
            return cur;
        old = got;
    }
}

#define GSD_FBITS(T, x) gsd_bits(&(x), sizeof(T))

/* The typed forms (TYPENAME N, type T). */
#define GSD_AMO_FADD(T, N)                                                                       \
    GSD_HD void gshmemx_##N##_atomic_add(T *dest, T value, int pe)                               \
    {                                                                                            \
        gsd_famo("gshmemx_" #N "_atomic_add", GSD_FOP_ADD, sizeof(T), dest, GSD_FBITS(T, value), \
                 pe, 0);                                                                         \
    }                                                                                            \
    GSD_HD T gshmemx_##N##_atomic_fetch_add(T *dest, T value, int pe)                            \
    {                                                                                            \
        T old;                                                                                   \
        gsd_unbits(&old,                                                                         \
                   gsd_famo("gshmemx_" #N "_atomic_fetch_add", GSD_FOP_ADD, sizeof(T), dest,     \
                            GSD_FBITS(T, value), pe, 0),                                         \
                   sizeof(T));                                                                   \
        return old;                                                                              \
    }
GSD_AMO_FLOAT_TYPES(GSD_AMO_FADD)

GSD_HD gshmem_half_t gshmem_half_atomic_fetch(const gshmem_half_t *source, int pe)
{
    return gshmemx_half_from_bits((uint16_t)gsd_famo("gshmem_half_atomic_fetch", GSD_FOP_SWAP, 2,
                                                     (void *)(uintptr_t)source, 0, pe, 1));
}
GSD_HD void gshmem_half_atomic_set(gshmem_half_t *dest, gshmem_half_t value, int pe)
{
    gsd_famo("gshmem_half_atomic_set", GSD_FOP_SWAP, 2, dest, gshmemx_half_bits(value), pe, 0);
}
GSD_HD gshmem_half_t gshmem_half_atomic_swap(gshmem_half_t *dest, gshmem_half_t value, int pe)
{
    return gshmemx_half_from_bits((uint16_t)gsd_famo("gshmem_half_atomic_swap", GSD_FOP_SWAP, 2,
                                                     dest, gshmemx_half_bits(value), pe, 0));
}

#undef GSD_AMO_FADD
#undef GSD_FBITS

#endif /* GSD_AMO_FLOAT_H */
