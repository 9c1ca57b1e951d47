/*
 * gsd/amo.h - atomic memory operations from device code, per thread (no
 * warp or block forms, as in NVSHMEM).  4- and 8-byte types: native system-
 * scope atomics on load/store peers, else one GSD_OP_AMO descriptor on the
 * caller's default channel; a fetching one takes a return slot and waits
 * for the proxy's reply.
 *
 * Building block (also for the device collectives; keep it stable):
 *   uint64_t gsd_amo(const char *fn, gsd_amo_op_t op, size_t size, void *dest,
 *                    uint64_t value, uint64_t cmp, int pe, int fetch)
 *       op on the size (4 or 8) bytes at symmetric dest on pe; value and
 *       cmp as their low size bytes (gsd_bits); returns the old value
 *       (zero-extended) when fetch, else 0 without waiting.
 *
 * Public families (NVSHMEM's names, nvshmem_ -> gshmem_):
 *   GSHMEM_AMO_STD_TYPES: void gshmem_TYPENAME_atomic_inc(T *dest, int pe)
 *     T gshmem_TYPENAME_atomic_fetch_inc(T *dest, int pe)
 *     void gshmem_TYPENAME_atomic_add(T *dest, T value, int pe)
 *     T gshmem_TYPENAME_atomic_fetch_add(T *dest, T value, int pe)
 *     T gshmem_TYPENAME_atomic_compare_swap(T *dest, T cond, T value, int pe)
 *   GSHMEM_AMO_EXT_TYPES: T gshmem_TYPENAME_atomic_fetch(const T *source, int pe)
 *     void gshmem_TYPENAME_atomic_set(T *dest, T value, int pe)
 *     T gshmem_TYPENAME_atomic_swap(T *dest, T value, int pe)
 *   GSHMEM_AMO_BIT_TYPES: void gshmem_TYPENAME_atomic_{and,or,xor}(T *dest, T value, int pe)
 *     T gshmem_TYPENAME_atomic_fetch_{and,or,xor}(T *dest, T value, int pe)
 */
#ifndef GSD_AMO_H
#define GSD_AMO_H

#include <stddef.h>
#include <stdint.h>

#include "group.h"
#include "path.h"
#include "rows.h"

GSD_FN uint64_t gsd_amo(const char *fn, gsd_amo_op_t op, size_t size, void *dest, uint64_t value,
                        uint64_t cmp, int pe, int fetch)
{
    gsd_channel_t *c;
    uint64_t off, r;
    unsigned region;
    void *p;

    gsd_check_pe(fn, pe);
    p = gsd_sym_peer(fn, dest, size, pe, &off, &region);
    if (GSD_UNLIKELY((size != 4 && size != 8) || ((uintptr_t)dest & (size - 1)) != 0))
        GSD_FATAL(fn, "address %p is not aligned to its %u-byte type", dest, (unsigned)size);
    if (p)
        return size == 4 ? gsd_amo32(op, (uint32_t *)p, (uint32_t)value, (uint32_t)cmp)
                         : gsd_amo64(op, (uint64_t *)p, value, cmp);
    c = gsd_chan_pick(fn, NULL, pe);
    if (!fetch) {
        gsd_push_at(c, GSD_OP_AMO, region, (unsigned)op, pe, off, NULL, size, value, cmp,
                    GSD_NO_RET);
        return 0;
    }
    r = gsd_ret_take(c);
    gsd_push_at(c, GSD_OP_AMO, region, (unsigned)op, pe, off, NULL, size, value, cmp, r);
    return gsd_ret_wait(c, r, fn);
}

/* The typed forms: OPND is the operand (an expression of the arguments). */
#define GSD_AMO_FETCHING(T, N, OP, NAME, PARAMS, OPND, CMP)                                       \
    GSD_FN T gshmem_##N##_atomic_##NAME PARAMS                                                    \
    {                                                                                             \
        T v = (OPND), c = (CMP), old;                                                             \
        gsd_unbits(&old,                                                                          \
                   gsd_amo("gshmem_" #N "_atomic_" #NAME, OP, sizeof(T), (void *)(uintptr_t)dest, \
                           gsd_bits(&v, sizeof(T)), gsd_bits(&c, sizeof(T)), pe, 1),              \
                   sizeof(T));                                                                    \
        return old;                                                                               \
    }
#define GSD_AMO_PLAIN(T, N, OP, NAME, PARAMS, OPND)                                             \
    GSD_FN void gshmem_##N##_atomic_##NAME PARAMS                                               \
    {                                                                                           \
        T v = (OPND);                                                                           \
        gsd_amo("gshmem_" #N "_atomic_" #NAME, OP, sizeof(T), dest, gsd_bits(&v, sizeof(T)), 0, \
                pe, 0);                                                                         \
    }

#define GSD_AMO_STD(T, N)                                                                     \
    GSD_AMO_PLAIN(T, N, GSD_AMO_FADD, inc, (T * dest, int pe), (T)1)                          \
    GSD_AMO_FETCHING(T, N, GSD_AMO_FADD, fetch_inc, (T * dest, int pe), (T)1, (T)0)           \
    GSD_AMO_PLAIN(T, N, GSD_AMO_FADD, add, (T * dest, T value, int pe), value)                \
    GSD_AMO_FETCHING(T, N, GSD_AMO_FADD, fetch_add, (T * dest, T value, int pe), value, (T)0) \
    GSD_AMO_FETCHING(T, N, GSD_AMO_CSWAP, compare_swap, (T * dest, T cond, T value, int pe),  \
                     value, cond)
GSHMEM_AMO_STD_TYPES(GSD_AMO_STD)

#define GSD_AMO_EXT(T, N)                                                             \
    GSD_AMO_FETCHING(T, N, GSD_AMO_FETCH, fetch, (const T *dest, int pe), (T)0, (T)0) \
    GSD_AMO_PLAIN(T, N, GSD_AMO_SET, set, (T * dest, T value, int pe), value)         \
    GSD_AMO_FETCHING(T, N, GSD_AMO_SWAP, swap, (T * dest, T value, int pe), value, (T)0)
GSHMEM_AMO_EXT_TYPES(GSD_AMO_EXT)

#define GSD_AMO_BIT(T, N)                                                                     \
    GSD_AMO_PLAIN(T, N, GSD_AMO_FAND, and, (T * dest, T value, int pe), value)                \
    GSD_AMO_PLAIN(T, N, GSD_AMO_FOR, or, (T * dest, T value, int pe), value)                  \
    GSD_AMO_PLAIN(T, N, GSD_AMO_FXOR, xor, (T * dest, T value, int pe), value)                \
    GSD_AMO_FETCHING(T, N, GSD_AMO_FAND, fetch_and, (T * dest, T value, int pe), value, (T)0) \
    GSD_AMO_FETCHING(T, N, GSD_AMO_FOR, fetch_or, (T * dest, T value, int pe), value, (T)0)   \
    GSD_AMO_FETCHING(T, N, GSD_AMO_FXOR, fetch_xor, (T * dest, T value, int pe), value, (T)0)
GSHMEM_AMO_BIT_TYPES(GSD_AMO_BIT)

#undef GSD_AMO_BIT
#undef GSD_AMO_EXT
#undef GSD_AMO_STD
#undef GSD_AMO_PLAIN
#undef GSD_AMO_FETCHING

#endif /* GSD_AMO_H */
