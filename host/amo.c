/* host/amo.c - Atomic Memory Operations.
 *
 * Per type, a few core operations (fetch, set, swap, compare-swap, fetch-add,
 * fetch-and/or/xor) are native atomics on the P2P mapping, or one transport
 * call.  Every public name - blocking, _nbi, with and without a context, and
 * the deprecated spellings - is a one-line use of those cores, generated from
 * the AMO rows of include/gshmem/typetable.h. */
#include "api.h"

#define GSI_UNPAREN(...) __VA_ARGS__

/* A public routine returning a value, with its context twin and aliases;
 * the variadic tail is the body of its core (it may hold commas). */
#define GSI_AMO_RET(RET, N, NAME, PARAMS, ARGS, ...)                                         \
    static inline RET amo_##NAME##_##N(const char *fn, GSI_UNPAREN PARAMS)                   \
        __VA_ARGS__ RET pshmem_ctx_##N##_atomic_##NAME(shmem_ctx_t ctx, GSI_UNPAREN PARAMS)  \
    {                                                                                        \
        pe = gsi_ctx_pe(__func__ + 1, ctx, pe);                                              \
        return amo_##NAME##_##N("shmem_ctx_" #N "_atomic_" #NAME, GSI_UNPAREN ARGS);         \
    }                                                                                        \
    RET pshmem_##N##_atomic_##NAME(GSI_UNPAREN PARAMS)                                       \
    {                                                                                        \
        return amo_##NAME##_##N("shmem_" #N "_atomic_" #NAME, GSI_UNPAREN ARGS);             \
    }                                                                                        \
    GSI_ALIAS(shmem_ctx_##N##_atomic_##NAME)                                                 \
    GSI_ALIAS(shmem_##N##_atomic_##NAME)

/* A public routine returning nothing. */
#define GSI_AMO_VOID(N, NAME, PARAMS, ARGS, ...)                                             \
    static inline void amo_##NAME##_##N(const char *fn, GSI_UNPAREN PARAMS)                  \
        __VA_ARGS__ void pshmem_ctx_##N##_atomic_##NAME(shmem_ctx_t ctx, GSI_UNPAREN PARAMS) \
    {                                                                                        \
        pe = gsi_ctx_pe(__func__ + 1, ctx, pe);                                              \
        amo_##NAME##_##N("shmem_ctx_" #N "_atomic_" #NAME, GSI_UNPAREN ARGS);                \
    }                                                                                        \
    void pshmem_##N##_atomic_##NAME(GSI_UNPAREN PARAMS)                                      \
    {                                                                                        \
        amo_##NAME##_##N("shmem_" #N "_atomic_" #NAME, GSI_UNPAREN ARGS);                    \
    }                                                                                        \
    GSI_ALIAS(shmem_ctx_##N##_atomic_##NAME)                                                 \
    GSI_ALIAS(shmem_##N##_atomic_##NAME)

/* An AMO's operand must be naturally aligned: over the P2P mapping a
 * misaligned one would pass (x86 atomics tolerate it, slowly, or tear
 * across a cache line), over UCX it fails as a bare system-call error. */
static inline void check_aligned(const char *fn, const void *addr, size_t size)
{
    if (__builtin_expect(((uintptr_t)addr & (size - 1)) != 0, 0))
        gsi_fatal(fn, "address %p is not aligned to the %zu-byte size of %s", addr, size, fn);
}

/* The target of an AMO: the mapped location, or NULL and *t for the network. */
#define GSI_AMO_TARGET(T, addr, pe, t)                                                       \
    (gsi_check_init(fn), check_aligned(fn, (addr), sizeof(T)),                               \
     (T *)gsi_amo_target(fn, (addr), sizeof(T), (pe), (t)))

/* The _nbi forms return through `fetch`, a local pointer. */
#define GSI_FETCH_TO(fetch, call)                                                            \
    do {                                                                                     \
        gsi_check_local(fn, "fetch", (fetch), sizeof(*(fetch)));                             \
        *(fetch) = (call);                                                                   \
    } while (0)

/* --- fetch, set, swap: the extended AMO types (float and double too) ---- */
#define GSI_AMO_EXT(T, N)                                                                    \
    GSI_AMO_RET(T, N, fetch, (const T *source, int pe), (source, pe), {                      \
        gsi_target_t t;                                                                      \
        T *p = GSI_AMO_TARGET(T, source, pe, &t), r;                                         \
        if (p)                                                                               \
            __atomic_load(p, &r, __ATOMIC_SEQ_CST);                                          \
        else                                                                                 \
            gsi_net_amo(fn, &t, pe, GST_AMO_FETCH, sizeof(T), NULL, NULL, &r);               \
        return r;                                                                            \
    })                                                                                       \
    GSI_AMO_VOID(N, set, (T * dest, T value, int pe), (dest, value, pe), {                   \
        gsi_target_t t;                                                                      \
        T *p = GSI_AMO_TARGET(T, dest, pe, &t);                                              \
        if (p)                                                                               \
            __atomic_store(p, &value, __ATOMIC_SEQ_CST);                                     \
        else                                                                                 \
            gsi_net_amo(fn, &t, pe, GST_AMO_SET, sizeof(T), &value, NULL, NULL);             \
    })                                                                                       \
    GSI_AMO_RET(T, N, swap, (T * dest, T value, int pe), (dest, value, pe), {                \
        gsi_target_t t;                                                                      \
        T *p = GSI_AMO_TARGET(T, dest, pe, &t), r;                                           \
        if (p)                                                                               \
            __atomic_exchange(p, &value, &r, __ATOMIC_SEQ_CST);                              \
        else                                                                                 \
            gsi_net_amo(fn, &t, pe, GST_AMO_SWAP, sizeof(T), &value, NULL, &r);              \
        return r;                                                                            \
    })                                                                                       \
    GSI_AMO_VOID(N, fetch_nbi, (T * fetch, const T *source, int pe), (fetch, source, pe),    \
                 { GSI_FETCH_TO(fetch, amo_fetch_##N(fn, source, pe)); })                    \
    GSI_AMO_VOID(N, swap_nbi, (T * fetch, T * dest, T value, int pe),                        \
                 (fetch, dest, value, pe),                                                   \
                 { GSI_FETCH_TO(fetch, amo_swap_##N(fn, dest, value, pe)); })
GSHMEM_AMO_EXT_TYPES(GSI_AMO_EXT)

/* --- compare_swap, fetch_inc, inc, fetch_add, add: standard AMO types --- */
#define GSI_AMO_STD(T, N)                                                                    \
    GSI_AMO_RET(T, N, compare_swap, (T * dest, T cond, T value, int pe),                     \
                (dest, cond, value, pe), {                                                   \
                    gsi_target_t t;                                                          \
                    T *p = GSI_AMO_TARGET(T, dest, pe, &t), r = cond;                        \
                    if (p)                                                                   \
                        __atomic_compare_exchange(p, &r, &value, 0, __ATOMIC_SEQ_CST,        \
                                                  __ATOMIC_SEQ_CST);                         \
                    else                                                                     \
                        gsi_net_amo(fn, &t, pe, GST_AMO_CSWAP, sizeof(T), &value, &cond,     \
                                    &r);                                                     \
                    return r;                                                                \
                })                                                                           \
    GSI_AMO_RET(T, N, fetch_add, (T * dest, T value, int pe), (dest, value, pe), {           \
        gsi_target_t t;                                                                      \
        T *p = GSI_AMO_TARGET(T, dest, pe, &t), r;                                           \
        if (p)                                                                               \
            return __atomic_fetch_add(p, value, __ATOMIC_SEQ_CST);                           \
        gsi_net_amo(fn, &t, pe, GST_AMO_FADD, sizeof(T), &value, NULL, &r);                  \
        return r;                                                                            \
    })                                                                                       \
    GSI_AMO_VOID(N, add, (T * dest, T value, int pe), (dest, value, pe),                     \
                 { (void)amo_fetch_add_##N(fn, dest, value, pe); })                          \
    GSI_AMO_RET(T, N, fetch_inc, (T * dest, int pe), (dest, pe),                             \
                { return amo_fetch_add_##N(fn, dest, (T)1, pe); })                           \
    GSI_AMO_VOID(N, inc, (T * dest, int pe), (dest, pe),                                     \
                 { (void)amo_fetch_add_##N(fn, dest, (T)1, pe); })                           \
    GSI_AMO_VOID(N, compare_swap_nbi, (T * fetch, T * dest, T cond, T value, int pe),        \
                 (fetch, dest, cond, value, pe),                                             \
                 { GSI_FETCH_TO(fetch, amo_compare_swap_##N(fn, dest, cond, value, pe)); })  \
    GSI_AMO_VOID(N, fetch_inc_nbi, (T * fetch, T * dest, int pe), (fetch, dest, pe),         \
                 { GSI_FETCH_TO(fetch, amo_fetch_add_##N(fn, dest, (T)1, pe)); })            \
    GSI_AMO_VOID(N, fetch_add_nbi, (T * fetch, T * dest, T value, int pe),                   \
                 (fetch, dest, value, pe),                                                   \
                 { GSI_FETCH_TO(fetch, amo_fetch_add_##N(fn, dest, value, pe)); })
GSHMEM_AMO_STD_TYPES(GSI_AMO_STD)

/* --- and, or, xor: bitwise AMO types --------------------------------------- */
#define GSI_AMO_BITOP(T, N, OP, GST_OP)                                                      \
    GSI_AMO_RET(T, N, fetch_##OP, (T * dest, T value, int pe), (dest, value, pe), {          \
        gsi_target_t t;                                                                      \
        T *p = GSI_AMO_TARGET(T, dest, pe, &t), r;                                           \
        if (p)                                                                               \
            return __atomic_fetch_##OP(p, value, __ATOMIC_SEQ_CST);                          \
        gsi_net_amo(fn, &t, pe, GST_OP, sizeof(T), &value, NULL, &r);                        \
        return r;                                                                            \
    })                                                                                       \
    GSI_AMO_VOID(N, OP, (T * dest, T value, int pe), (dest, value, pe),                      \
                 { (void)amo_fetch_##OP##_##N(fn, dest, value, pe); })                       \
    GSI_AMO_VOID(N, fetch_##OP##_nbi, (T * fetch, T * dest, T value, int pe),                \
                 (fetch, dest, value, pe),                                                   \
                 { GSI_FETCH_TO(fetch, amo_fetch_##OP##_##N(fn, dest, value, pe)); })
#define GSI_AMO_BIT(T, N)                                                                    \
    GSI_AMO_BITOP(T, N, and, GST_AMO_FAND)                                                   \
    GSI_AMO_BITOP(T, N, or, GST_AMO_FOR)                                                     \
    GSI_AMO_BITOP(T, N, xor, GST_AMO_FXOR)
GSHMEM_AMO_BIT_TYPES(GSI_AMO_BIT)

/* --- deprecated names (no context forms) ----------------------------------- */
#define GSI_AMO_DEPR_RET(T, N, OLD, NEW, PARAMS, ARGS)                                       \
    T pshmem_##N##_##OLD(GSI_UNPAREN PARAMS)                                                 \
    {                                                                                        \
        return amo_##NEW##_##N("shmem_" #N "_" #OLD, GSI_UNPAREN ARGS);                      \
    }                                                                                        \
    GSI_ALIAS(shmem_##N##_##OLD)
#define GSI_AMO_DEPR_VOID(N, OLD, NEW, PARAMS, ARGS)                                         \
    void pshmem_##N##_##OLD(GSI_UNPAREN PARAMS)                                              \
    {                                                                                        \
        amo_##NEW##_##N("shmem_" #N "_" #OLD, GSI_UNPAREN ARGS);                             \
    }                                                                                        \
    GSI_ALIAS(shmem_##N##_##OLD)

#define GSI_AMO_DEPR_EXT(T, N)                                                               \
    GSI_AMO_DEPR_RET(T, N, fetch, fetch, (const T *source, int pe), (source, pe))            \
    GSI_AMO_DEPR_VOID(N, set, set, (T * dest, T value, int pe), (dest, value, pe))           \
    GSI_AMO_DEPR_RET(T, N, swap, swap, (T * dest, T value, int pe), (dest, value, pe))
GSHMEM_AMO_DEPR_EXT_TYPES(GSI_AMO_DEPR_EXT)

#define GSI_AMO_DEPR_STD(T, N)                                                               \
    GSI_AMO_DEPR_RET(T, N, cswap, compare_swap, (T * dest, T cond, T value, int pe),         \
                     (dest, cond, value, pe))                                                \
    GSI_AMO_DEPR_RET(T, N, finc, fetch_inc, (T * dest, int pe), (dest, pe))                  \
    GSI_AMO_DEPR_VOID(N, inc, inc, (T * dest, int pe), (dest, pe))                           \
    GSI_AMO_DEPR_RET(T, N, fadd, fetch_add, (T * dest, T value, int pe), (dest, value, pe))  \
    GSI_AMO_DEPR_VOID(N, add, add, (T * dest, T value, int pe), (dest, value, pe))
GSHMEM_AMO_DEPR_STD_TYPES(GSI_AMO_DEPR_STD)
