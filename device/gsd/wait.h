/*
 * gsd/wait.h - point-to-point synchronization on this PE's symmetric
 * variables (OpenSHMEM 1.6 / NVSHMEM semantics): wait_until and test in
 * their single, _all, _any, _some and _vector forms.  Every read is an
 * acquire load, so a lane that sees a flag also sees the data put before
 * it; every wait polls through gsd_poll_step (GSHMEM_DEVICE_WAIT_TIMEOUT).
 *
 * status (may be NULL): element i takes part when status[i] == 0.
 * _any: the index of one element that satisfies the comparison; SIZE_MAX
 * when no element takes part (wait) or none satisfies it (test).  Not
 * always the lowest: the spec wants a series of calls to return every
 * satisfied element eventually, so each call of a lane starts its scan one
 * element further than the lane's call before (gsd_any_start): n calls on
 * n satisfied elements return each once.  _some:
 * how many satisfy it, their indices in indices[]; 0 when none takes part.
 * _all of no element: returns at once (test: 1).
 *
 * Building blocks (also for the device collectives; keep them stable):
 *   uint64_t gsd_wait_u64(const char *fn, const uint64_t *addr, int cmp,
 *                         uint64_t value)
 *       wait until *addr cmp value (GSHMEM_CMP_*; a bad one ends the job);
 *       returns the value that satisfied it.  No heap check.
 *   int gsd_cmp_holds(uint64_t v, int cmp, uint64_t ref, int sgn)
 *       v cmp ref, as signed 64-bit values when sgn
 *   void gsd_check_cmp(const char *fn, int cmp)
 *
 * Public families, GSHMEM_P2P_TYPES (T / TYPENAME):
 *   void gshmem_TYPENAME_wait_until(T *ivar, int cmp, T cmp_value)
 *   void gshmem_TYPENAME_wait_until_all(T *ivars, size_t nelems, const int *status,
 *                                       int cmp, T cmp_value)
 *   size_t gshmem_TYPENAME_wait_until_any(same)
 *   size_t gshmem_TYPENAME_wait_until_some(T *ivars, size_t nelems, size_t *indices,
 *                                          const int *status, int cmp, T cmp_value)
 *   ..._all_vector / _any_vector / _some_vector: const T *cmp_values for cmp_value
 *   int gshmem_TYPENAME_test(T *ivar, int cmp, T cmp_value)
 *   int gshmem_TYPENAME_test_all(...), size_t _test_any(...), size_t _test_some(...)
 *   and their _vector forms, with the arguments of the waits
 */
#ifndef GSD_WAIT_H
#define GSD_WAIT_H

#include <stddef.h>
#include <stdint.h>

#include "gshmem/constants.h"

#include "group.h"
#include "path.h"
#include "poll.h"
#include "rows.h"

#define GSHMEM_CMP_EQ SHMEM_CMP_EQ
#define GSHMEM_CMP_NE SHMEM_CMP_NE
#define GSHMEM_CMP_GT SHMEM_CMP_GT
#define GSHMEM_CMP_LE SHMEM_CMP_LE
#define GSHMEM_CMP_LT SHMEM_CMP_LT
#define GSHMEM_CMP_GE SHMEM_CMP_GE

GSD_FN void gsd_check_cmp(const char *fn, int cmp)
{
    if (GSD_UNLIKELY(cmp < GSHMEM_CMP_EQ || cmp > GSHMEM_CMP_GE))
        GSD_FATAL(fn, "cmp %d is not one of GSHMEM_CMP_EQ, _NE, _GT, _GE, _LT, _LE", cmp);
}

GSD_FN const char *gsd_cmp_name(int cmp)
{
    switch (cmp) {
    case GSHMEM_CMP_EQ: return "==";
    case GSHMEM_CMP_NE: return "!=";
    case GSHMEM_CMP_GT: return ">";
    case GSHMEM_CMP_GE: return ">=";
    case GSHMEM_CMP_LT: return "<";
    default: return "<=";
    }
}

GSD_FN int gsd_cmp_holds(uint64_t v, int cmp, uint64_t ref, int sgn)
{
    if (sgn) { /* order signed values as unsigned ones */
        v ^= UINT64_C(1) << 63;
        ref ^= UINT64_C(1) << 63;
    }
    switch (cmp) {
    case GSHMEM_CMP_EQ: return v == ref;
    case GSHMEM_CMP_NE: return v != ref;
    case GSHMEM_CMP_GT: return v > ref;
    case GSHMEM_CMP_GE: return v >= ref;
    case GSHMEM_CMP_LT: return v < ref;
    default: return v <= ref;
    }
}

/* Size-byte integer bits widened to 64: sign-extended when sgn. */
GSD_FN uint64_t gsd_widen(uint64_t raw, size_t size, int sgn)
{
    uint64_t m;

    if (!sgn || size >= 8)
        return raw;
    m = UINT64_C(1) << (8 * size - 1);
    return (raw ^ m) - m;
}

/* An acquire load of the size (2, 4 or 8) bytes at p, zero-extended. */
#if defined(GSD_CUDA)
GSD_FN uint64_t gsd_load_acquire_n(const void *p, size_t size)
{
    unsigned short h;

    switch (size) {
    case 2:
        asm volatile("ld.acquire.sys.global.u16 %0, [%1];" : "=h"(h) : "l"(p) : "memory");
        return h;
    case 4: return gsd_load_acquire32((const uint32_t *)p);
    default: return gsd_load_acquire((const uint64_t *)p);
    }
}
#else
GSD_FN uint64_t gsd_load_acquire_n(const void *p, size_t size)
{
    switch (size) {
    case 1: return __atomic_load_n((const uint8_t *)p, __ATOMIC_ACQUIRE);
    case 2: return __atomic_load_n((const uint16_t *)p, __ATOMIC_ACQUIRE);
    case 4: return __atomic_load_n((const uint32_t *)p, __ATOMIC_ACQUIRE);
    default: return __atomic_load_n((const uint64_t *)p, __ATOMIC_ACQUIRE);
    }
}
#endif

/* The elements a wait or test looks at: nelems of size bytes at ivars,
 * compared (cmp) with ref, or with refs[i] when refs is not NULL. */
typedef struct gsd_ivars {
    const char *ivars;
    size_t nelems, size;
    int sgn, cmp;
    const int *status;
    uint64_t ref;
    const char *refs;
} gsd_ivars_t;

GSD_FN gsd_ivars_t gsd_ivars(const char *fn, const void *ivars, size_t nelems, size_t size, int sgn,
                             const int *status, int cmp, uint64_t ref, const void *refs)
{
    gsd_ivars_t v;

    gsd_check_cmp(fn, cmp);
    if (nelems)
        gsd_sym_check(fn, ivars, nelems * size);
    v.ivars = (const char *)ivars;
    v.nelems = nelems;
    v.size = size;
    v.sgn = sgn;
    v.cmp = cmp;
    v.status = status;
    v.ref = ref;
    v.refs = (const char *)refs;
    return v;
}

GSD_FN int gsd_ivar_in(const gsd_ivars_t *v, size_t i)
{
    return !v->status || v->status[i] == 0;
}

GSD_FN uint64_t gsd_ivar_ref(const gsd_ivars_t *v, size_t i)
{
    return v->refs ? gsd_widen(gsd_bits(v->refs + i * v->size, v->size), v->size, v->sgn) : v->ref;
}

GSD_FN uint64_t gsd_ivar_load(const gsd_ivars_t *v, size_t i)
{
    return gsd_widen(gsd_load_acquire_n(v->ivars + i * v->size, v->size), v->size, v->sgn);
}

/* Elements that take part. */
GSD_FN size_t gsd_ivars_eligible(const gsd_ivars_t *v)
{
    size_t i, n = 0;

    for (i = 0; i < v->nelems; i++)
        n += (size_t)gsd_ivar_in(v, i);
    return n;
}

/* Where this lane's next _any scan starts, out of nelems.  On host lanes a
 * counter of the calling thread (src/gpu/lanes.c); on the GPU one counter
 * per thread of the grid in libgshmem_device.a (device/state.cu), which
 * threads beyond GSD_ANY_LANES share (an atomic add keeps each of their
 * scans on its own start). */
GSD_FN size_t gsd_any_start(size_t nelems)
{
#if defined(GSD_CUDA)
    unsigned lane = (gsd_block_id() * gsd_block_threads() + gsd_thread_id()) % GSD_ANY_LANES;
    size_t t = atomicAdd(&gsd_any_next_d[lane], 1u);
#else
    uint64_t t = gshmemi_lane_any_next++;
#endif

    return nelems ? t % nelems : 0;
}

/* One scan.  first: return at the first match from element `start` on,
 * wrapping around, its index + 1 (0: none).  Else the number of matches,
 * stored in indices when it is not NULL.  *miss becomes the first element
 * that took part and did not match (for the timeout report), *seen its
 * value. */
GSD_FN size_t gsd_ivars_scan(const gsd_ivars_t *v, size_t *indices, int first, size_t start,
                             size_t *miss, uint64_t *seen)
{
    size_t k, found = 0;

    for (k = 0; k < v->nelems; k++) {
        size_t i = first ? (start + k < v->nelems ? start + k : start + k - v->nelems) : k;
        uint64_t x;

        if (!gsd_ivar_in(v, i))
            continue;
        x = gsd_ivar_load(v, i);
        if (!gsd_cmp_holds(x, v->cmp, gsd_ivar_ref(v, i), v->sgn)) {
            if (*miss == SIZE_MAX)
                *miss = i, *seen = x;
            continue;
        }
        if (first)
            return i + 1;
        if (indices)
            indices[found] = i;
        found++;
    }
    return found;
}

/* One poll of a wait on v that has not been satisfied yet. */
GSD_FN void gsd_ivars_poll(gsd_poll_t *w, const char *fn, const char *what, const gsd_ivars_t *v,
                           size_t miss, uint64_t seen)
{
    if (miss == SIZE_MAX)
        miss = 0, seen = v->nelems ? gsd_ivar_load(v, 0) : 0;
    gsd_poll_step(w, fn, what, v->ivars + miss * v->size, gsd_cmp_name(v->cmp),
                  v->nelems ? gsd_ivar_ref(v, miss) : 0, seen);
}

/* mode: 'a' all, 'y' any, 's' some. */
GSD_FN size_t gsd_ivars_wait(const char *fn, const gsd_ivars_t *v, char mode, size_t *indices)
{
    gsd_poll_t w = GSD_POLL_INIT;
    size_t want = gsd_ivars_eligible(v), got, miss, start;
    uint64_t seen = 0;

    if (want == 0)
        return mode == 'y' ? SIZE_MAX : 0;
    start = mode == 'y' ? gsd_any_start(v->nelems) : 0;
    for (;;) {
        miss = SIZE_MAX;
        got = gsd_ivars_scan(v, mode == 's' ? indices : NULL, mode == 'y', start, &miss, &seen);
        if (mode == 'a' ? got == want : got != 0)
            return mode == 'y' ? got - 1 : got;
        gsd_ivars_poll(&w, fn,
                       mode == 'a'   ? "a symmetric variable (of all awaited)"
                       : mode == 'y' ? "a symmetric variable (of any awaited)"
                                     : "a symmetric variable (of some awaited)",
                       v, miss, seen);
    }
}

GSD_FN size_t gsd_ivars_test(const gsd_ivars_t *v, char mode, size_t *indices)
{
    size_t miss = SIZE_MAX, got;
    uint64_t seen;

    got = gsd_ivars_scan(v, mode == 's' ? indices : NULL, mode == 'y',
                         mode == 'y' ? gsd_any_start(v->nelems) : 0, &miss, &seen);
    if (mode == 'a')
        return got == gsd_ivars_eligible(v);
    if (mode == 'y')
        return got ? got - 1 : SIZE_MAX;
    return got;
}

/* Wait until the size-byte integer at ivar satisfies cmp ref; its value. */
GSD_FN uint64_t gsd_wait_value(const char *fn, const void *ivar, size_t size, int sgn, int cmp,
                               uint64_t ref)
{
    gsd_poll_t w = GSD_POLL_INIT;
    uint64_t x;

    gsd_check_cmp(fn, cmp);
    while (!gsd_cmp_holds(x = gsd_widen(gsd_load_acquire_n(ivar, size), size, sgn), cmp, ref, sgn))
        gsd_poll_step(&w, fn, "a symmetric variable", ivar, gsd_cmp_name(cmp), ref, x);
    return x;
}

GSD_FN uint64_t gsd_wait_u64(const char *fn, const uint64_t *addr, int cmp, uint64_t value)
{
    return gsd_wait_value(fn, addr, 8, 0, cmp, value);
}

/* ---- families ------------------------------------------------------------ */

#define GSD_WIDEN(T, x) (GSD_SIGNED(T) ? (uint64_t)(int64_t)(x) : (uint64_t)(x))

/* The _all/_any/_some forms; SFX is empty or _vector, CMPARG the compared
 * value(s) parameter, REF and REFS how gsd_ivars gets them. */
#define GSD_P2P_SETS(T, N, SFX, CMPARG, REF, REFS)                                                \
    GSD_FN void gshmem_##N##_wait_until_all##SFX(T *ivars, size_t nelems, const int *status,      \
                                                 int cmp, CMPARG)                                 \
    {                                                                                             \
        const char *fn = "gshmem_" #N "_wait_until_all" #SFX;                                     \
        gsd_ivars_t v = gsd_ivars(fn, ivars, nelems, sizeof(T), GSD_SIGNED(T), status, cmp, REF,  \
                                  REFS);                                                          \
        gsd_ivars_wait(fn, &v, 'a', NULL);                                                        \
    }                                                                                             \
    GSD_FN size_t gshmem_##N##_wait_until_any##SFX(T *ivars, size_t nelems, const int *status,    \
                                                   int cmp, CMPARG)                               \
    {                                                                                             \
        const char *fn = "gshmem_" #N "_wait_until_any" #SFX;                                     \
        gsd_ivars_t v = gsd_ivars(fn, ivars, nelems, sizeof(T), GSD_SIGNED(T), status, cmp, REF,  \
                                  REFS);                                                          \
        return gsd_ivars_wait(fn, &v, 'y', NULL);                                                 \
    }                                                                                             \
    GSD_FN size_t gshmem_##N##_wait_until_some##SFX(T *ivars, size_t nelems, size_t *indices,     \
                                                    const int *status, int cmp, CMPARG)           \
    {                                                                                             \
        const char *fn = "gshmem_" #N "_wait_until_some" #SFX;                                    \
        gsd_ivars_t v = gsd_ivars(fn, ivars, nelems, sizeof(T), GSD_SIGNED(T), status, cmp, REF,  \
                                  REFS);                                                          \
        return gsd_ivars_wait(fn, &v, 's', indices);                                              \
    }                                                                                             \
    GSD_FN int gshmem_##N##_test_all##SFX(T *ivars, size_t nelems, const int *status, int cmp,    \
                                          CMPARG)                                                 \
    {                                                                                             \
        gsd_ivars_t v = gsd_ivars("gshmem_" #N "_test_all" #SFX, ivars, nelems, sizeof(T),        \
                                  GSD_SIGNED(T), status, cmp, REF, REFS);                         \
        return (int)gsd_ivars_test(&v, 'a', NULL);                                                \
    }                                                                                             \
    GSD_FN size_t gshmem_##N##_test_any##SFX(T *ivars, size_t nelems, const int *status, int cmp, \
                                             CMPARG)                                              \
    {                                                                                             \
        gsd_ivars_t v = gsd_ivars("gshmem_" #N "_test_any" #SFX, ivars, nelems, sizeof(T),        \
                                  GSD_SIGNED(T), status, cmp, REF, REFS);                         \
        return gsd_ivars_test(&v, 'y', NULL);                                                     \
    }                                                                                             \
    GSD_FN size_t gshmem_##N##_test_some##SFX(T *ivars, size_t nelems, size_t *indices,           \
                                              const int *status, int cmp, CMPARG)                 \
    {                                                                                             \
        gsd_ivars_t v = gsd_ivars("gshmem_" #N "_test_some" #SFX, ivars, nelems, sizeof(T),       \
                                  GSD_SIGNED(T), status, cmp, REF, REFS);                         \
        return gsd_ivars_test(&v, 's', indices);                                                  \
    }

#define GSD_P2P_TYPED(T, N)                                                                      \
    GSD_FN void gshmem_##N##_wait_until(T *ivar, int cmp, T cmp_value)                           \
    {                                                                                            \
        const char *fn = "gshmem_" #N "_wait_until";                                             \
        gsd_sym_check(fn, ivar, sizeof(T));                                                      \
        gsd_wait_value(fn, ivar, sizeof(T), GSD_SIGNED(T), cmp, GSD_WIDEN(T, cmp_value));        \
    }                                                                                            \
    GSD_FN int gshmem_##N##_test(T *ivar, int cmp, T cmp_value)                                  \
    {                                                                                            \
        gsd_ivars_t v = gsd_ivars("gshmem_" #N "_test", ivar, 1, sizeof(T), GSD_SIGNED(T), NULL, \
                                  cmp, GSD_WIDEN(T, cmp_value), NULL);                           \
        return (int)gsd_ivars_test(&v, 'a', NULL);                                               \
    }                                                                                            \
    GSD_P2P_SETS(T, N, , T cmp_value, GSD_WIDEN(T, cmp_value), NULL)                             \
    GSD_P2P_SETS(T, N, _vector, const T *cmp_values, 0, cmp_values)
GSHMEM_P2P_TYPES(GSD_P2P_TYPED)

#undef GSD_P2P_TYPED
#undef GSD_P2P_SETS
#undef GSD_WIDEN

#endif /* GSD_WAIT_H */
