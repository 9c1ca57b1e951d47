/*
 * gshmem/generic_cxx.h - the type-generic names for C++: the C11 names
 * (shmem_put, shmem_atomic_add, shmem_sum_reduce, ...) as inline overloads
 * that forward to the typed C routines, with the same optional leading
 * shmem_ctx_t.
 *
 * Overloads are generated from the *_GENERIC_TYPES rows of typetable.h
 * (distinct C types only: an overload per typedef would be a redefinition)
 * and the parameter lists of gshmem/shapes.h, so they cannot disagree with
 * the declarations.  Included by shmem.h after them, outside extern "C".
 */
#ifndef GSHMEM_GENERIC_CXX_H
#define GSHMEM_GENERIC_CXX_H

/* NAME(params) forwards to FN(args); with GSHMEM_CXX_CTX also
 * NAME(ctx, params) to CTX_FN(ctx, args).  `return` of a void call is
 * valid C++. */
#define GSHMEM_CXX(ret, name, fn, params, args)                                \
    GSHMEM_EXTENSION inline ret name(GSHMEM_UNPAREN params)                    \
    {                                                                          \
        return fn(GSHMEM_UNPAREN args);                                        \
    }
#define GSHMEM_CXX_CTX(ret, name, fn, ctx_fn, params, args)                    \
    GSHMEM_CXX(ret, name, fn, params, args)                                    \
    GSHMEM_EXTENSION inline ret name(shmem_ctx_t ctx, GSHMEM_UNPAREN params)   \
    {                                                                          \
        return ctx_fn(ctx, GSHMEM_UNPAREN args);                               \
    }

/* RMA and put-with-signal. */
#define GSHMEM_CXX_RMA(T, N)                                                   \
    GSHMEM_CXX_CTX(void, shmem_put, shmem_##N##_put, shmem_ctx_##N##_put,      \
                   (GSHMEM_PARAMS_RMA(T)), (GSHMEM_ARGS_RMA))                  \
    GSHMEM_CXX_CTX(void, shmem_p, shmem_##N##_p, shmem_ctx_##N##_p,            \
                   (GSHMEM_PARAMS_STORE(T)), (GSHMEM_ARGS_STORE))              \
    GSHMEM_CXX_CTX(void, shmem_iput, shmem_##N##_iput, shmem_ctx_##N##_iput,   \
                   (GSHMEM_PARAMS_STRIDED(T)), (GSHMEM_ARGS_STRIDED))          \
    GSHMEM_CXX_CTX(void, shmem_ibput, shmem_##N##_ibput,                       \
                   shmem_ctx_##N##_ibput, (GSHMEM_PARAMS_BLOCKED(T)),          \
                   (GSHMEM_ARGS_BLOCKED))                                      \
    GSHMEM_CXX_CTX(void, shmem_get, shmem_##N##_get, shmem_ctx_##N##_get,      \
                   (GSHMEM_PARAMS_RMA(T)), (GSHMEM_ARGS_RMA))                  \
    GSHMEM_CXX_CTX(T, shmem_g, shmem_##N##_g, shmem_ctx_##N##_g,               \
                   (GSHMEM_PARAMS_LOAD(T)), (GSHMEM_ARGS_LOAD))                \
    GSHMEM_CXX_CTX(void, shmem_iget, shmem_##N##_iget, shmem_ctx_##N##_iget,   \
                   (GSHMEM_PARAMS_STRIDED(T)), (GSHMEM_ARGS_STRIDED))          \
    GSHMEM_CXX_CTX(void, shmem_ibget, shmem_##N##_ibget,                       \
                   shmem_ctx_##N##_ibget, (GSHMEM_PARAMS_BLOCKED(T)),          \
                   (GSHMEM_ARGS_BLOCKED))                                      \
    GSHMEM_CXX_CTX(void, shmem_put_nbi, shmem_##N##_put_nbi,                   \
                   shmem_ctx_##N##_put_nbi, (GSHMEM_PARAMS_RMA(T)),            \
                   (GSHMEM_ARGS_RMA))                                          \
    GSHMEM_CXX_CTX(void, shmem_get_nbi, shmem_##N##_get_nbi,                   \
                   shmem_ctx_##N##_get_nbi, (GSHMEM_PARAMS_RMA(T)),            \
                   (GSHMEM_ARGS_RMA))                                          \
    GSHMEM_CXX_CTX(void, shmem_put_signal, shmem_##N##_put_signal,             \
                   shmem_ctx_##N##_put_signal, (GSHMEM_PARAMS_PUT_SIGNAL(T)),  \
                   (GSHMEM_ARGS_PUT_SIGNAL))                                   \
    GSHMEM_CXX_CTX(void, shmem_put_signal_nbi, shmem_##N##_put_signal_nbi,     \
                   shmem_ctx_##N##_put_signal_nbi,                             \
                   (GSHMEM_PARAMS_PUT_SIGNAL(T)), (GSHMEM_ARGS_PUT_SIGNAL))
GSHMEM_RMA_GENERIC_TYPES(GSHMEM_CXX_RMA)
#undef GSHMEM_CXX_RMA

/* The signal routines take uint64_t only: the C names already cover the
 * form without ctx. */
inline void shmem_signal_add(shmem_ctx_t ctx, uint64_t *sig_addr,
                             uint64_t signal, int pe)
{
    shmem_ctx_signal_add(ctx, sig_addr, signal, pe);
}
inline void shmem_signal_set(shmem_ctx_t ctx, uint64_t *sig_addr,
                             uint64_t signal, int pe)
{
    shmem_ctx_signal_set(ctx, sig_addr, signal, pe);
}

/* AMO: extended types. */
#define GSHMEM_CXX_AMO_EXT(T, N)                                               \
    GSHMEM_CXX_CTX(T, shmem_atomic_fetch, shmem_##N##_atomic_fetch,            \
                   shmem_ctx_##N##_atomic_fetch, (GSHMEM_PARAMS_LOAD(T)),      \
                   (GSHMEM_ARGS_LOAD))                                         \
    GSHMEM_CXX_CTX(void, shmem_atomic_set, shmem_##N##_atomic_set,             \
                   shmem_ctx_##N##_atomic_set, (GSHMEM_PARAMS_STORE(T)),       \
                   (GSHMEM_ARGS_STORE))                                        \
    GSHMEM_CXX_CTX(T, shmem_atomic_swap, shmem_##N##_atomic_swap,              \
                   shmem_ctx_##N##_atomic_swap, (GSHMEM_PARAMS_STORE(T)),      \
                   (GSHMEM_ARGS_STORE))                                        \
    GSHMEM_CXX_CTX(void, shmem_atomic_fetch_nbi, shmem_##N##_atomic_fetch_nbi, \
                   shmem_ctx_##N##_atomic_fetch_nbi,                           \
                   (GSHMEM_PARAMS_LOAD_NBI(T)), (GSHMEM_ARGS_LOAD_NBI))        \
    GSHMEM_CXX_CTX(void, shmem_atomic_swap_nbi, shmem_##N##_atomic_swap_nbi,   \
                   shmem_ctx_##N##_atomic_swap_nbi,                            \
                   (GSHMEM_PARAMS_STORE_NBI(T)), (GSHMEM_ARGS_STORE_NBI))
GSHMEM_AMO_EXT_GENERIC_TYPES(GSHMEM_CXX_AMO_EXT)
#undef GSHMEM_CXX_AMO_EXT

/* AMO: standard types. */
#define GSHMEM_CXX_AMO_STD(T, N)                                               \
    GSHMEM_CXX_CTX(T, shmem_atomic_compare_swap,                               \
                   shmem_##N##_atomic_compare_swap,                            \
                   shmem_ctx_##N##_atomic_compare_swap,                        \
                   (GSHMEM_PARAMS_CSWAP(T)), (GSHMEM_ARGS_CSWAP))              \
    GSHMEM_CXX_CTX(T, shmem_atomic_fetch_inc, shmem_##N##_atomic_fetch_inc,    \
                   shmem_ctx_##N##_atomic_fetch_inc, (GSHMEM_PARAMS_INC(T)),   \
                   (GSHMEM_ARGS_INC))                                          \
    GSHMEM_CXX_CTX(void, shmem_atomic_inc, shmem_##N##_atomic_inc,             \
                   shmem_ctx_##N##_atomic_inc, (GSHMEM_PARAMS_INC(T)),         \
                   (GSHMEM_ARGS_INC))                                          \
    GSHMEM_CXX_CTX(T, shmem_atomic_fetch_add, shmem_##N##_atomic_fetch_add,    \
                   shmem_ctx_##N##_atomic_fetch_add, (GSHMEM_PARAMS_STORE(T)), \
                   (GSHMEM_ARGS_STORE))                                        \
    GSHMEM_CXX_CTX(void, shmem_atomic_add, shmem_##N##_atomic_add,             \
                   shmem_ctx_##N##_atomic_add, (GSHMEM_PARAMS_STORE(T)),       \
                   (GSHMEM_ARGS_STORE))                                        \
    GSHMEM_CXX_CTX(void, shmem_atomic_compare_swap_nbi,                        \
                   shmem_##N##_atomic_compare_swap_nbi,                        \
                   shmem_ctx_##N##_atomic_compare_swap_nbi,                    \
                   (GSHMEM_PARAMS_CSWAP_NBI(T)), (GSHMEM_ARGS_CSWAP_NBI))      \
    GSHMEM_CXX_CTX(void, shmem_atomic_fetch_inc_nbi,                           \
                   shmem_##N##_atomic_fetch_inc_nbi,                           \
                   shmem_ctx_##N##_atomic_fetch_inc_nbi,                       \
                   (GSHMEM_PARAMS_INC_NBI(T)), (GSHMEM_ARGS_INC_NBI))          \
    GSHMEM_CXX_CTX(void, shmem_atomic_fetch_add_nbi,                           \
                   shmem_##N##_atomic_fetch_add_nbi,                           \
                   shmem_ctx_##N##_atomic_fetch_add_nbi,                       \
                   (GSHMEM_PARAMS_STORE_NBI(T)), (GSHMEM_ARGS_STORE_NBI))
GSHMEM_AMO_STD_GENERIC_TYPES(GSHMEM_CXX_AMO_STD)
#undef GSHMEM_CXX_AMO_STD

/* AMO: bitwise types. */
#define GSHMEM_CXX_AMO_BIT(T, N)                                               \
    GSHMEM_CXX_CTX(T, shmem_atomic_fetch_and, shmem_##N##_atomic_fetch_and,    \
                   shmem_ctx_##N##_atomic_fetch_and, (GSHMEM_PARAMS_STORE(T)), \
                   (GSHMEM_ARGS_STORE))                                        \
    GSHMEM_CXX_CTX(void, shmem_atomic_and, shmem_##N##_atomic_and,             \
                   shmem_ctx_##N##_atomic_and, (GSHMEM_PARAMS_STORE(T)),       \
                   (GSHMEM_ARGS_STORE))                                        \
    GSHMEM_CXX_CTX(T, shmem_atomic_fetch_or, shmem_##N##_atomic_fetch_or,      \
                   shmem_ctx_##N##_atomic_fetch_or, (GSHMEM_PARAMS_STORE(T)),  \
                   (GSHMEM_ARGS_STORE))                                        \
    GSHMEM_CXX_CTX(void, shmem_atomic_or, shmem_##N##_atomic_or,               \
                   shmem_ctx_##N##_atomic_or, (GSHMEM_PARAMS_STORE(T)),        \
                   (GSHMEM_ARGS_STORE))                                        \
    GSHMEM_CXX_CTX(T, shmem_atomic_fetch_xor, shmem_##N##_atomic_fetch_xor,    \
                   shmem_ctx_##N##_atomic_fetch_xor, (GSHMEM_PARAMS_STORE(T)), \
                   (GSHMEM_ARGS_STORE))                                        \
    GSHMEM_CXX_CTX(void, shmem_atomic_xor, shmem_##N##_atomic_xor,             \
                   shmem_ctx_##N##_atomic_xor, (GSHMEM_PARAMS_STORE(T)),       \
                   (GSHMEM_ARGS_STORE))                                        \
    GSHMEM_CXX_CTX(void, shmem_atomic_fetch_and_nbi,                           \
                   shmem_##N##_atomic_fetch_and_nbi,                           \
                   shmem_ctx_##N##_atomic_fetch_and_nbi,                       \
                   (GSHMEM_PARAMS_STORE_NBI(T)), (GSHMEM_ARGS_STORE_NBI))      \
    GSHMEM_CXX_CTX(void, shmem_atomic_fetch_or_nbi,                            \
                   shmem_##N##_atomic_fetch_or_nbi,                            \
                   shmem_ctx_##N##_atomic_fetch_or_nbi,                        \
                   (GSHMEM_PARAMS_STORE_NBI(T)), (GSHMEM_ARGS_STORE_NBI))      \
    GSHMEM_CXX_CTX(void, shmem_atomic_fetch_xor_nbi,                           \
                   shmem_##N##_atomic_fetch_xor_nbi,                           \
                   shmem_ctx_##N##_atomic_fetch_xor_nbi,                       \
                   (GSHMEM_PARAMS_STORE_NBI(T)), (GSHMEM_ARGS_STORE_NBI))
GSHMEM_AMO_BIT_GENERIC_TYPES(GSHMEM_CXX_AMO_BIT)
#undef GSHMEM_CXX_AMO_BIT

/* Deprecated AMO names. */
#define GSHMEM_CXX_AMO_DEPR_EXT(T, N)                                          \
    GSHMEM_CXX(T, shmem_fetch, shmem_##N##_fetch, (GSHMEM_PARAMS_LOAD(T)),     \
               (GSHMEM_ARGS_LOAD))                                             \
    GSHMEM_CXX(void, shmem_set, shmem_##N##_set, (GSHMEM_PARAMS_STORE(T)),     \
               (GSHMEM_ARGS_STORE))                                            \
    GSHMEM_CXX(T, shmem_swap, shmem_##N##_swap, (GSHMEM_PARAMS_STORE(T)),      \
               (GSHMEM_ARGS_STORE))
GSHMEM_AMO_DEPR_EXT_TYPES(GSHMEM_CXX_AMO_DEPR_EXT)
#undef GSHMEM_CXX_AMO_DEPR_EXT

#define GSHMEM_CXX_AMO_DEPR_STD(T, N)                                          \
    GSHMEM_CXX(T, shmem_cswap, shmem_##N##_cswap, (GSHMEM_PARAMS_CSWAP(T)),    \
               (GSHMEM_ARGS_CSWAP))                                            \
    GSHMEM_CXX(T, shmem_finc, shmem_##N##_finc, (GSHMEM_PARAMS_INC(T)),        \
               (GSHMEM_ARGS_INC))                                              \
    GSHMEM_CXX(void, shmem_inc, shmem_##N##_inc, (GSHMEM_PARAMS_INC(T)),       \
               (GSHMEM_ARGS_INC))                                              \
    GSHMEM_CXX(T, shmem_fadd, shmem_##N##_fadd, (GSHMEM_PARAMS_STORE(T)),      \
               (GSHMEM_ARGS_STORE))                                            \
    GSHMEM_CXX(void, shmem_add, shmem_##N##_add, (GSHMEM_PARAMS_STORE(T)),     \
               (GSHMEM_ARGS_STORE))
GSHMEM_AMO_DEPR_STD_TYPES(GSHMEM_CXX_AMO_DEPR_STD)
#undef GSHMEM_CXX_AMO_DEPR_STD

/* Team collectives. */
inline int shmem_sync(shmem_team_t team)
{
    return shmem_team_sync(team);
}

#define GSHMEM_CXX_COLL(T, N)                                                  \
    GSHMEM_CXX(int, shmem_alltoall, shmem_##N##_alltoall,                      \
               (GSHMEM_PARAMS_TEAM_COPY(T)), (GSHMEM_ARGS_TEAM_COPY))          \
    GSHMEM_CXX(int, shmem_alltoalls, shmem_##N##_alltoalls,                    \
               (GSHMEM_PARAMS_TEAM_STRIDED(T)), (GSHMEM_ARGS_TEAM_STRIDED))    \
    GSHMEM_CXX(int, shmem_broadcast, shmem_##N##_broadcast,                    \
               (GSHMEM_PARAMS_TEAM_BCAST(T)), (GSHMEM_ARGS_TEAM_BCAST))        \
    GSHMEM_CXX(int, shmem_collect, shmem_##N##_collect,                        \
               (GSHMEM_PARAMS_TEAM_COPY(T)), (GSHMEM_ARGS_TEAM_COPY))          \
    GSHMEM_CXX(int, shmem_fcollect, shmem_##N##_fcollect,                      \
               (GSHMEM_PARAMS_TEAM_COPY(T)), (GSHMEM_ARGS_TEAM_COPY))
GSHMEM_RMA_GENERIC_TYPES(GSHMEM_CXX_COLL)
#undef GSHMEM_CXX_COLL

/* OP is the whole suffix (and_reduce): a bare `and` is an operator in C++. */
#define GSHMEM_CXX_REDUCE(OP, T, N)                                            \
    GSHMEM_CXX(int, shmem_##OP, shmem_##N##_##OP,                              \
               (GSHMEM_PARAMS_TEAM_REDUCE(T)), (GSHMEM_ARGS_TEAM_REDUCE))
#define GSHMEM_CXX_REDUCE_BIT(T, N)                                            \
    GSHMEM_CXX_REDUCE(and_reduce, T, N)                                        \
    GSHMEM_CXX_REDUCE(or_reduce, T, N)                                         \
    GSHMEM_CXX_REDUCE(xor_reduce, T, N)
#define GSHMEM_CXX_REDUCE_MINMAX(T, N)                                         \
    GSHMEM_CXX_REDUCE(max_reduce, T, N)                                        \
    GSHMEM_CXX_REDUCE(min_reduce, T, N)
#define GSHMEM_CXX_REDUCE_ARITH(T, N)                                          \
    GSHMEM_CXX_REDUCE(sum_reduce, T, N)                                        \
    GSHMEM_CXX_REDUCE(prod_reduce, T, N)                                       \
    GSHMEM_CXX(int, shmem_sum_inscan, shmem_##N##_sum_inscan,                  \
               (GSHMEM_PARAMS_TEAM_COPY(T)), (GSHMEM_ARGS_TEAM_COPY))          \
    GSHMEM_CXX(int, shmem_sum_exscan, shmem_##N##_sum_exscan,                  \
               (GSHMEM_PARAMS_TEAM_COPY(T)), (GSHMEM_ARGS_TEAM_COPY))
GSHMEM_REDUCE_BIT_GENERIC_TYPES(GSHMEM_CXX_REDUCE_BIT)
GSHMEM_REDUCE_MINMAX_GENERIC_TYPES(GSHMEM_CXX_REDUCE_MINMAX)
GSHMEM_REDUCE_ARITH_GENERIC_TYPES(GSHMEM_CXX_REDUCE_ARITH)
#undef GSHMEM_CXX_REDUCE_ARITH
#undef GSHMEM_CXX_REDUCE_MINMAX
#undef GSHMEM_CXX_REDUCE_BIT
#undef GSHMEM_CXX_REDUCE

/* Point-to-point synchronization.  shmem_wait_until is a template on the
 * comparison value's type: a plain overload for long would redeclare the
 * deprecated C routine shmem_wait_until(long *, int, long), while a
 * template may sit beside it (for long * the routine, which does the same,
 * wins an exact match). */
#define GSHMEM_CXX_P2P(T, N)                                                   \
    template <typename V>                                                      \
    inline void shmem_wait_until(T *ivar, int cmp, V cmp_value)                \
    {                                                                          \
        shmem_##N##_wait_until(ivar, cmp, static_cast<T>(cmp_value));          \
    }                                                                          \
    GSHMEM_CXX(void, shmem_wait_until_all, shmem_##N##_wait_until_all,         \
               (GSHMEM_PARAMS_WAIT_SET(T)), (GSHMEM_ARGS_WAIT_SET))            \
    GSHMEM_CXX(size_t, shmem_wait_until_any, shmem_##N##_wait_until_any,       \
               (GSHMEM_PARAMS_WAIT_SET(T)), (GSHMEM_ARGS_WAIT_SET))            \
    GSHMEM_CXX(size_t, shmem_wait_until_some, shmem_##N##_wait_until_some,     \
               (GSHMEM_PARAMS_WAIT_SOME(T)), (GSHMEM_ARGS_WAIT_SOME))          \
    GSHMEM_CXX(void, shmem_wait_until_all_vector,                              \
               shmem_##N##_wait_until_all_vector,                              \
               (GSHMEM_PARAMS_WAIT_SET_VECTOR(T)),                             \
               (GSHMEM_ARGS_WAIT_SET_VECTOR))                                  \
    GSHMEM_CXX(size_t, shmem_wait_until_any_vector,                            \
               shmem_##N##_wait_until_any_vector,                              \
               (GSHMEM_PARAMS_WAIT_SET_VECTOR(T)),                             \
               (GSHMEM_ARGS_WAIT_SET_VECTOR))                                  \
    GSHMEM_CXX(size_t, shmem_wait_until_some_vector,                           \
               shmem_##N##_wait_until_some_vector,                             \
               (GSHMEM_PARAMS_WAIT_SOME_VECTOR(T)),                            \
               (GSHMEM_ARGS_WAIT_SOME_VECTOR))                                 \
    GSHMEM_CXX(int, shmem_test, shmem_##N##_test, (GSHMEM_PARAMS_WAIT(T)),     \
               (GSHMEM_ARGS_WAIT))                                             \
    GSHMEM_CXX(int, shmem_test_all, shmem_##N##_test_all,                      \
               (GSHMEM_PARAMS_WAIT_SET(T)), (GSHMEM_ARGS_WAIT_SET))            \
    GSHMEM_CXX(size_t, shmem_test_any, shmem_##N##_test_any,                   \
               (GSHMEM_PARAMS_WAIT_SET(T)), (GSHMEM_ARGS_WAIT_SET))            \
    GSHMEM_CXX(size_t, shmem_test_some, shmem_##N##_test_some,                 \
               (GSHMEM_PARAMS_WAIT_SOME(T)), (GSHMEM_ARGS_WAIT_SOME))          \
    GSHMEM_CXX(int, shmem_test_all_vector, shmem_##N##_test_all_vector,        \
               (GSHMEM_PARAMS_WAIT_SET_VECTOR(T)),                             \
               (GSHMEM_ARGS_WAIT_SET_VECTOR))                                  \
    GSHMEM_CXX(size_t, shmem_test_any_vector, shmem_##N##_test_any_vector,     \
               (GSHMEM_PARAMS_WAIT_SET_VECTOR(T)),                             \
               (GSHMEM_ARGS_WAIT_SET_VECTOR))                                  \
    GSHMEM_CXX(size_t, shmem_test_some_vector, shmem_##N##_test_some_vector,   \
               (GSHMEM_PARAMS_WAIT_SOME_VECTOR(T)),                            \
               (GSHMEM_ARGS_WAIT_SOME_VECTOR))
GSHMEM_P2P_GENERIC_TYPES(GSHMEM_CXX_P2P)
#undef GSHMEM_CXX_P2P

#undef GSHMEM_CXX_CTX
#undef GSHMEM_CXX

#endif /* GSHMEM_GENERIC_CXX_H */
