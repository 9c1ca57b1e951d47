/*
 * gshmem/generic_c11.h - the C11 type-generic names (spec "C11 bindings"):
 * shmem_put(dest, source, nelems, pe) calls shmem_long_put when dest is a
 * long *, and shmem_put(ctx, dest, ...) calls shmem_ctx_long_put.
 *
 * Each name is a macro that selects a function designator with _Generic and
 * calls it with the macro's arguments, so every argument is evaluated once
 * and the routines keep their prototypes.  The selection is on the first
 * argument's type (the second for team collectives, whose first is the
 * team); a shmem_ctx_t first argument selects again, on the second
 * argument, among the shmem_ctx_ routines.  A type with no routine is a
 * compile error.  Associations come from the *_GENERIC_TYPES rows of
 * typetable.h, which hold only distinct C types (int64_t is long).
 *
 * So these names cannot be used inside an expansion of the typetable.h list
 * they select from (the preprocessor never expands a macro within itself):
 * code that generates per-type code from those lists calls the typed
 * routines (shmem_long_put) instead.
 *
 * Included by shmem.h after the declarations; see gshmem/cdefs.h for
 * GSHMEM_NO_GENERIC.
 */
#ifndef GSHMEM_GENERIC_C11_H
#define GSHMEM_GENERIC_C11_H

/* First and second argument of a list; the padding keeps a short list from
 * leaving `...` empty, which C11 does not allow. */
#define GSHMEM_ARG1(...) GSHMEM_ARG1_(__VA_ARGS__, 0)
#define GSHMEM_ARG1_(a, ...) a
#define GSHMEM_ARG2(...) GSHMEM_ARG2_(__VA_ARGS__, 0, 0)
#define GSHMEM_ARG2_(a, b, ...) b

/* The default of the selection on the second argument.  That selection is
 * compiled even when the first argument is not a context, and then the
 * second may be anything (the value of shmem_p(dest, value, pe)); it is
 * taken only when a ctx call's second argument has no routine, and calling
 * it with arguments is a compile error that names it.  Never defined. */
void gshmem_generic_no_routine_for_this_type(void);

/* The selections.  For operation OP, GSHMEM_A_OP(TYPE, TYPENAME) gives the
 * association `, TYPE *: shmem_TYPENAME_OP` and GSHMEM_C_OP the one for
 * shmem_ctx_TYPENAME_OP; LIST is a type list of typetable.h. */
#define GSHMEM_SELECT(LIST, OP, ...)                                           \
    _Generic((GSHMEM_ARG1(__VA_ARGS__)) LIST(GSHMEM_A_##OP))

#define GSHMEM_SELECT_TEAM(LIST, OP, ...)                                      \
    _Generic((GSHMEM_ARG2(__VA_ARGS__)) LIST(GSHMEM_A_##OP))

#define GSHMEM_SELECT_CTX(LIST, OP, ...)                                       \
    _Generic((GSHMEM_ARG1(__VA_ARGS__)) LIST(GSHMEM_A_##OP),                   \
             shmem_ctx_t: _Generic((GSHMEM_ARG2(__VA_ARGS__))                  \
                                       LIST(GSHMEM_C_##OP),                    \
                                   default: gshmem_generic_no_routine_for_this_type))

/* Select, then call with the same arguments. */
#define GSHMEM_CALL(LIST, OP, ...) GSHMEM_SELECT(LIST, OP, __VA_ARGS__)(__VA_ARGS__)
#define GSHMEM_CALL_TEAM(LIST, OP, ...)                                        \
    GSHMEM_SELECT_TEAM(LIST, OP, __VA_ARGS__)(__VA_ARGS__)
#define GSHMEM_CALL_CTX(LIST, OP, ...)                                         \
    GSHMEM_SELECT_CTX(LIST, OP, __VA_ARGS__)(__VA_ARGS__)

/* RMA */
#define GSHMEM_A_put(T, N) , T *: shmem_##N##_put
#define GSHMEM_C_put(T, N) , T *: shmem_ctx_##N##_put
#define GSHMEM_A_p(T, N) , T *: shmem_##N##_p
#define GSHMEM_C_p(T, N) , T *: shmem_ctx_##N##_p
#define GSHMEM_A_iput(T, N) , T *: shmem_##N##_iput
#define GSHMEM_C_iput(T, N) , T *: shmem_ctx_##N##_iput
#define GSHMEM_A_ibput(T, N) , T *: shmem_##N##_ibput
#define GSHMEM_C_ibput(T, N) , T *: shmem_ctx_##N##_ibput
#define GSHMEM_A_get(T, N) , T *: shmem_##N##_get
#define GSHMEM_C_get(T, N) , T *: shmem_ctx_##N##_get
#define GSHMEM_A_g(T, N) , T *: shmem_##N##_g, const T *: shmem_##N##_g
#define GSHMEM_C_g(T, N) , T *: shmem_ctx_##N##_g, const T *: shmem_ctx_##N##_g
#define GSHMEM_A_iget(T, N) , T *: shmem_##N##_iget
#define GSHMEM_C_iget(T, N) , T *: shmem_ctx_##N##_iget
#define GSHMEM_A_ibget(T, N) , T *: shmem_##N##_ibget
#define GSHMEM_C_ibget(T, N) , T *: shmem_ctx_##N##_ibget
#define GSHMEM_A_put_nbi(T, N) , T *: shmem_##N##_put_nbi
#define GSHMEM_C_put_nbi(T, N) , T *: shmem_ctx_##N##_put_nbi
#define GSHMEM_A_get_nbi(T, N) , T *: shmem_##N##_get_nbi
#define GSHMEM_C_get_nbi(T, N) , T *: shmem_ctx_##N##_get_nbi

#define shmem_put(...) GSHMEM_CALL_CTX(GSHMEM_RMA_GENERIC_TYPES, put, __VA_ARGS__)
#define shmem_p(...) GSHMEM_CALL_CTX(GSHMEM_RMA_GENERIC_TYPES, p, __VA_ARGS__)
#define shmem_iput(...) GSHMEM_CALL_CTX(GSHMEM_RMA_GENERIC_TYPES, iput, __VA_ARGS__)
#define shmem_ibput(...) GSHMEM_CALL_CTX(GSHMEM_RMA_GENERIC_TYPES, ibput, __VA_ARGS__)
#define shmem_get(...) GSHMEM_CALL_CTX(GSHMEM_RMA_GENERIC_TYPES, get, __VA_ARGS__)
#define shmem_g(...) GSHMEM_CALL_CTX(GSHMEM_RMA_GENERIC_TYPES, g, __VA_ARGS__)
#define shmem_iget(...) GSHMEM_CALL_CTX(GSHMEM_RMA_GENERIC_TYPES, iget, __VA_ARGS__)
#define shmem_ibget(...) GSHMEM_CALL_CTX(GSHMEM_RMA_GENERIC_TYPES, ibget, __VA_ARGS__)
#define shmem_put_nbi(...) GSHMEM_CALL_CTX(GSHMEM_RMA_GENERIC_TYPES, put_nbi, __VA_ARGS__)
#define shmem_get_nbi(...) GSHMEM_CALL_CTX(GSHMEM_RMA_GENERIC_TYPES, get_nbi, __VA_ARGS__)

/* AMO */
#define GSHMEM_A_atomic_fetch(T, N)                                            \
    , T *: shmem_##N##_atomic_fetch, const T *: shmem_##N##_atomic_fetch
#define GSHMEM_C_atomic_fetch(T, N)                                            \
    , T *: shmem_ctx_##N##_atomic_fetch, const T *: shmem_ctx_##N##_atomic_fetch
#define GSHMEM_A_atomic_set(T, N) , T *: shmem_##N##_atomic_set
#define GSHMEM_C_atomic_set(T, N) , T *: shmem_ctx_##N##_atomic_set
#define GSHMEM_A_atomic_swap(T, N) , T *: shmem_##N##_atomic_swap
#define GSHMEM_C_atomic_swap(T, N) , T *: shmem_ctx_##N##_atomic_swap
#define GSHMEM_A_atomic_compare_swap(T, N) , T *: shmem_##N##_atomic_compare_swap
#define GSHMEM_C_atomic_compare_swap(T, N) , T *: shmem_ctx_##N##_atomic_compare_swap
#define GSHMEM_A_atomic_fetch_inc(T, N) , T *: shmem_##N##_atomic_fetch_inc
#define GSHMEM_C_atomic_fetch_inc(T, N) , T *: shmem_ctx_##N##_atomic_fetch_inc
#define GSHMEM_A_atomic_inc(T, N) , T *: shmem_##N##_atomic_inc
#define GSHMEM_C_atomic_inc(T, N) , T *: shmem_ctx_##N##_atomic_inc
#define GSHMEM_A_atomic_fetch_add(T, N) , T *: shmem_##N##_atomic_fetch_add
#define GSHMEM_C_atomic_fetch_add(T, N) , T *: shmem_ctx_##N##_atomic_fetch_add
#define GSHMEM_A_atomic_add(T, N) , T *: shmem_##N##_atomic_add
#define GSHMEM_C_atomic_add(T, N) , T *: shmem_ctx_##N##_atomic_add
#define GSHMEM_A_atomic_fetch_and(T, N) , T *: shmem_##N##_atomic_fetch_and
#define GSHMEM_C_atomic_fetch_and(T, N) , T *: shmem_ctx_##N##_atomic_fetch_and
#define GSHMEM_A_atomic_and(T, N) , T *: shmem_##N##_atomic_and
#define GSHMEM_C_atomic_and(T, N) , T *: shmem_ctx_##N##_atomic_and
#define GSHMEM_A_atomic_fetch_or(T, N) , T *: shmem_##N##_atomic_fetch_or
#define GSHMEM_C_atomic_fetch_or(T, N) , T *: shmem_ctx_##N##_atomic_fetch_or
#define GSHMEM_A_atomic_or(T, N) , T *: shmem_##N##_atomic_or
#define GSHMEM_C_atomic_or(T, N) , T *: shmem_ctx_##N##_atomic_or
#define GSHMEM_A_atomic_fetch_xor(T, N) , T *: shmem_##N##_atomic_fetch_xor
#define GSHMEM_C_atomic_fetch_xor(T, N) , T *: shmem_ctx_##N##_atomic_fetch_xor
#define GSHMEM_A_atomic_xor(T, N) , T *: shmem_##N##_atomic_xor
#define GSHMEM_C_atomic_xor(T, N) , T *: shmem_ctx_##N##_atomic_xor

#define shmem_atomic_fetch(...) GSHMEM_CALL_CTX(GSHMEM_AMO_EXT_GENERIC_TYPES, atomic_fetch, __VA_ARGS__)
#define shmem_atomic_set(...) GSHMEM_CALL_CTX(GSHMEM_AMO_EXT_GENERIC_TYPES, atomic_set, __VA_ARGS__)
#define shmem_atomic_swap(...) GSHMEM_CALL_CTX(GSHMEM_AMO_EXT_GENERIC_TYPES, atomic_swap, __VA_ARGS__)
#define shmem_atomic_compare_swap(...) GSHMEM_CALL_CTX(GSHMEM_AMO_STD_GENERIC_TYPES, atomic_compare_swap, __VA_ARGS__)
#define shmem_atomic_fetch_inc(...) GSHMEM_CALL_CTX(GSHMEM_AMO_STD_GENERIC_TYPES, atomic_fetch_inc, __VA_ARGS__)
#define shmem_atomic_inc(...) GSHMEM_CALL_CTX(GSHMEM_AMO_STD_GENERIC_TYPES, atomic_inc, __VA_ARGS__)
#define shmem_atomic_fetch_add(...) GSHMEM_CALL_CTX(GSHMEM_AMO_STD_GENERIC_TYPES, atomic_fetch_add, __VA_ARGS__)
#define shmem_atomic_add(...) GSHMEM_CALL_CTX(GSHMEM_AMO_STD_GENERIC_TYPES, atomic_add, __VA_ARGS__)
#define shmem_atomic_fetch_and(...) GSHMEM_CALL_CTX(GSHMEM_AMO_BIT_GENERIC_TYPES, atomic_fetch_and, __VA_ARGS__)
#define shmem_atomic_and(...) GSHMEM_CALL_CTX(GSHMEM_AMO_BIT_GENERIC_TYPES, atomic_and, __VA_ARGS__)
#define shmem_atomic_fetch_or(...) GSHMEM_CALL_CTX(GSHMEM_AMO_BIT_GENERIC_TYPES, atomic_fetch_or, __VA_ARGS__)
#define shmem_atomic_or(...) GSHMEM_CALL_CTX(GSHMEM_AMO_BIT_GENERIC_TYPES, atomic_or, __VA_ARGS__)
#define shmem_atomic_fetch_xor(...) GSHMEM_CALL_CTX(GSHMEM_AMO_BIT_GENERIC_TYPES, atomic_fetch_xor, __VA_ARGS__)
#define shmem_atomic_xor(...) GSHMEM_CALL_CTX(GSHMEM_AMO_BIT_GENERIC_TYPES, atomic_xor, __VA_ARGS__)

/* Nonblocking AMOs select on the fetch buffer. */
#define GSHMEM_A_atomic_fetch_nbi(T, N) , T *: shmem_##N##_atomic_fetch_nbi
#define GSHMEM_C_atomic_fetch_nbi(T, N) , T *: shmem_ctx_##N##_atomic_fetch_nbi
#define GSHMEM_A_atomic_compare_swap_nbi(T, N) , T *: shmem_##N##_atomic_compare_swap_nbi
#define GSHMEM_C_atomic_compare_swap_nbi(T, N) , T *: shmem_ctx_##N##_atomic_compare_swap_nbi
#define GSHMEM_A_atomic_swap_nbi(T, N) , T *: shmem_##N##_atomic_swap_nbi
#define GSHMEM_C_atomic_swap_nbi(T, N) , T *: shmem_ctx_##N##_atomic_swap_nbi
#define GSHMEM_A_atomic_fetch_inc_nbi(T, N) , T *: shmem_##N##_atomic_fetch_inc_nbi
#define GSHMEM_C_atomic_fetch_inc_nbi(T, N) , T *: shmem_ctx_##N##_atomic_fetch_inc_nbi
#define GSHMEM_A_atomic_fetch_add_nbi(T, N) , T *: shmem_##N##_atomic_fetch_add_nbi
#define GSHMEM_C_atomic_fetch_add_nbi(T, N) , T *: shmem_ctx_##N##_atomic_fetch_add_nbi
#define GSHMEM_A_atomic_fetch_and_nbi(T, N) , T *: shmem_##N##_atomic_fetch_and_nbi
#define GSHMEM_C_atomic_fetch_and_nbi(T, N) , T *: shmem_ctx_##N##_atomic_fetch_and_nbi
#define GSHMEM_A_atomic_fetch_or_nbi(T, N) , T *: shmem_##N##_atomic_fetch_or_nbi
#define GSHMEM_C_atomic_fetch_or_nbi(T, N) , T *: shmem_ctx_##N##_atomic_fetch_or_nbi
#define GSHMEM_A_atomic_fetch_xor_nbi(T, N) , T *: shmem_##N##_atomic_fetch_xor_nbi
#define GSHMEM_C_atomic_fetch_xor_nbi(T, N) , T *: shmem_ctx_##N##_atomic_fetch_xor_nbi

#define shmem_atomic_fetch_nbi(...) GSHMEM_CALL_CTX(GSHMEM_AMO_EXT_GENERIC_TYPES, atomic_fetch_nbi, __VA_ARGS__)
#define shmem_atomic_compare_swap_nbi(...) GSHMEM_CALL_CTX(GSHMEM_AMO_STD_GENERIC_TYPES, atomic_compare_swap_nbi, __VA_ARGS__)
#define shmem_atomic_swap_nbi(...) GSHMEM_CALL_CTX(GSHMEM_AMO_EXT_GENERIC_TYPES, atomic_swap_nbi, __VA_ARGS__)
#define shmem_atomic_fetch_inc_nbi(...) GSHMEM_CALL_CTX(GSHMEM_AMO_STD_GENERIC_TYPES, atomic_fetch_inc_nbi, __VA_ARGS__)
#define shmem_atomic_fetch_add_nbi(...) GSHMEM_CALL_CTX(GSHMEM_AMO_STD_GENERIC_TYPES, atomic_fetch_add_nbi, __VA_ARGS__)
#define shmem_atomic_fetch_and_nbi(...) GSHMEM_CALL_CTX(GSHMEM_AMO_BIT_GENERIC_TYPES, atomic_fetch_and_nbi, __VA_ARGS__)
#define shmem_atomic_fetch_or_nbi(...) GSHMEM_CALL_CTX(GSHMEM_AMO_BIT_GENERIC_TYPES, atomic_fetch_or_nbi, __VA_ARGS__)
#define shmem_atomic_fetch_xor_nbi(...) GSHMEM_CALL_CTX(GSHMEM_AMO_BIT_GENERIC_TYPES, atomic_fetch_xor_nbi, __VA_ARGS__)

/* Deprecated AMO names: no context forms. */
#define GSHMEM_A_fetch(T, N) , T *: shmem_##N##_fetch, const T *: shmem_##N##_fetch
#define GSHMEM_A_set(T, N) , T *: shmem_##N##_set
#define GSHMEM_A_swap(T, N) , T *: shmem_##N##_swap
#define GSHMEM_A_cswap(T, N) , T *: shmem_##N##_cswap
#define GSHMEM_A_finc(T, N) , T *: shmem_##N##_finc
#define GSHMEM_A_inc(T, N) , T *: shmem_##N##_inc
#define GSHMEM_A_fadd(T, N) , T *: shmem_##N##_fadd
#define GSHMEM_A_add(T, N) , T *: shmem_##N##_add

#define shmem_fetch(...) GSHMEM_CALL(GSHMEM_AMO_DEPR_EXT_TYPES, fetch, __VA_ARGS__)
#define shmem_set(...) GSHMEM_CALL(GSHMEM_AMO_DEPR_EXT_TYPES, set, __VA_ARGS__)
#define shmem_swap(...) GSHMEM_CALL(GSHMEM_AMO_DEPR_EXT_TYPES, swap, __VA_ARGS__)
#define shmem_cswap(...) GSHMEM_CALL(GSHMEM_AMO_DEPR_STD_TYPES, cswap, __VA_ARGS__)
#define shmem_finc(...) GSHMEM_CALL(GSHMEM_AMO_DEPR_STD_TYPES, finc, __VA_ARGS__)
#define shmem_inc(...) GSHMEM_CALL(GSHMEM_AMO_DEPR_STD_TYPES, inc, __VA_ARGS__)
#define shmem_fadd(...) GSHMEM_CALL(GSHMEM_AMO_DEPR_STD_TYPES, fadd, __VA_ARGS__)
#define shmem_add(...) GSHMEM_CALL(GSHMEM_AMO_DEPR_STD_TYPES, add, __VA_ARGS__)

/* Signaling.  shmem_signal_add and shmem_signal_set are also the names of
 * the routines; inside its own expansion a macro name is not expanded
 * again, so (shmem_signal_add) there is the routine. */
#define GSHMEM_A_put_signal(T, N) , T *: shmem_##N##_put_signal
#define GSHMEM_C_put_signal(T, N) , T *: shmem_ctx_##N##_put_signal
#define GSHMEM_A_put_signal_nbi(T, N) , T *: shmem_##N##_put_signal_nbi
#define GSHMEM_C_put_signal_nbi(T, N) , T *: shmem_ctx_##N##_put_signal_nbi

#define shmem_put_signal(...) GSHMEM_CALL_CTX(GSHMEM_RMA_GENERIC_TYPES, put_signal, __VA_ARGS__)
#define shmem_put_signal_nbi(...) GSHMEM_CALL_CTX(GSHMEM_RMA_GENERIC_TYPES, put_signal_nbi, __VA_ARGS__)
#define shmem_signal_add(...)                                                  \
    _Generic((GSHMEM_ARG1(__VA_ARGS__)), shmem_ctx_t: shmem_ctx_signal_add,    \
             default: (shmem_signal_add))(__VA_ARGS__)
#define shmem_signal_set(...)                                                  \
    _Generic((GSHMEM_ARG1(__VA_ARGS__)), shmem_ctx_t: shmem_ctx_signal_set,    \
             default: (shmem_signal_set))(__VA_ARGS__)

/* Team collectives select on dest, the second argument. */
#define GSHMEM_A_alltoall(T, N) , T *: shmem_##N##_alltoall
#define GSHMEM_A_alltoalls(T, N) , T *: shmem_##N##_alltoalls
#define GSHMEM_A_broadcast(T, N) , T *: shmem_##N##_broadcast
#define GSHMEM_A_collect(T, N) , T *: shmem_##N##_collect
#define GSHMEM_A_fcollect(T, N) , T *: shmem_##N##_fcollect
#define GSHMEM_A_and_reduce(T, N) , T *: shmem_##N##_and_reduce
#define GSHMEM_A_or_reduce(T, N) , T *: shmem_##N##_or_reduce
#define GSHMEM_A_xor_reduce(T, N) , T *: shmem_##N##_xor_reduce
#define GSHMEM_A_max_reduce(T, N) , T *: shmem_##N##_max_reduce
#define GSHMEM_A_min_reduce(T, N) , T *: shmem_##N##_min_reduce
#define GSHMEM_A_sum_reduce(T, N) , T *: shmem_##N##_sum_reduce
#define GSHMEM_A_prod_reduce(T, N) , T *: shmem_##N##_prod_reduce
#define GSHMEM_A_sum_inscan(T, N) , T *: shmem_##N##_sum_inscan
#define GSHMEM_A_sum_exscan(T, N) , T *: shmem_##N##_sum_exscan

#define shmem_alltoall(...) GSHMEM_CALL_TEAM(GSHMEM_RMA_GENERIC_TYPES, alltoall, __VA_ARGS__)
#define shmem_alltoalls(...) GSHMEM_CALL_TEAM(GSHMEM_RMA_GENERIC_TYPES, alltoalls, __VA_ARGS__)
#define shmem_broadcast(...) GSHMEM_CALL_TEAM(GSHMEM_RMA_GENERIC_TYPES, broadcast, __VA_ARGS__)
#define shmem_collect(...) GSHMEM_CALL_TEAM(GSHMEM_RMA_GENERIC_TYPES, collect, __VA_ARGS__)
#define shmem_fcollect(...) GSHMEM_CALL_TEAM(GSHMEM_RMA_GENERIC_TYPES, fcollect, __VA_ARGS__)
#define shmem_and_reduce(...) GSHMEM_CALL_TEAM(GSHMEM_REDUCE_BIT_GENERIC_TYPES, and_reduce, __VA_ARGS__)
#define shmem_or_reduce(...) GSHMEM_CALL_TEAM(GSHMEM_REDUCE_BIT_GENERIC_TYPES, or_reduce, __VA_ARGS__)
#define shmem_xor_reduce(...) GSHMEM_CALL_TEAM(GSHMEM_REDUCE_BIT_GENERIC_TYPES, xor_reduce, __VA_ARGS__)
#define shmem_max_reduce(...) GSHMEM_CALL_TEAM(GSHMEM_REDUCE_MINMAX_GENERIC_TYPES, max_reduce, __VA_ARGS__)
#define shmem_min_reduce(...) GSHMEM_CALL_TEAM(GSHMEM_REDUCE_MINMAX_GENERIC_TYPES, min_reduce, __VA_ARGS__)
#define shmem_sum_reduce(...) GSHMEM_CALL_TEAM(GSHMEM_REDUCE_ARITH_GENERIC_TYPES, sum_reduce, __VA_ARGS__)
#define shmem_prod_reduce(...) GSHMEM_CALL_TEAM(GSHMEM_REDUCE_ARITH_GENERIC_TYPES, prod_reduce, __VA_ARGS__)
#define shmem_sum_inscan(...) GSHMEM_CALL_TEAM(GSHMEM_REDUCE_ARITH_GENERIC_TYPES, sum_inscan, __VA_ARGS__)
#define shmem_sum_exscan(...) GSHMEM_CALL_TEAM(GSHMEM_REDUCE_ARITH_GENERIC_TYPES, sum_exscan, __VA_ARGS__)

/* shmem_sync(team) is shmem_team_sync; the deprecated active-set routine
 * shmem_sync(PE_start, logPE_stride, PE_size, pSync) keeps its name.  The
 * two are told apart by their number of arguments. */
#define GSHMEM_NARGS_1_OR_4(...) GSHMEM_NARGS_1_OR_4_(__VA_ARGS__, 4, 3, 2, 1, 0)
#define GSHMEM_NARGS_1_OR_4_(a, b, c, d, n, ...) n
#define GSHMEM_PASTE(a, b) GSHMEM_PASTE_(a, b)
#define GSHMEM_PASTE_(a, b) a##b
#define GSHMEM_SYNC_1 shmem_team_sync
#define GSHMEM_SYNC_4 (shmem_sync)
#define shmem_sync(...)                                                        \
    GSHMEM_PASTE(GSHMEM_SYNC_, GSHMEM_NARGS_1_OR_4(__VA_ARGS__))(__VA_ARGS__)

/* Point-to-point synchronization.  The generic shmem_wait_until replaces
 * the deprecated routine of that name; for long * it calls
 * shmem_long_wait_until, which does the same. */
#define GSHMEM_A_wait_until(T, N) , T *: shmem_##N##_wait_until
#define GSHMEM_A_wait_until_all(T, N) , T *: shmem_##N##_wait_until_all
#define GSHMEM_A_wait_until_any(T, N) , T *: shmem_##N##_wait_until_any
#define GSHMEM_A_wait_until_some(T, N) , T *: shmem_##N##_wait_until_some
#define GSHMEM_A_wait_until_all_vector(T, N) , T *: shmem_##N##_wait_until_all_vector
#define GSHMEM_A_wait_until_any_vector(T, N) , T *: shmem_##N##_wait_until_any_vector
#define GSHMEM_A_wait_until_some_vector(T, N) , T *: shmem_##N##_wait_until_some_vector
#define GSHMEM_A_test(T, N) , T *: shmem_##N##_test
#define GSHMEM_A_test_all(T, N) , T *: shmem_##N##_test_all
#define GSHMEM_A_test_any(T, N) , T *: shmem_##N##_test_any
#define GSHMEM_A_test_some(T, N) , T *: shmem_##N##_test_some
#define GSHMEM_A_test_all_vector(T, N) , T *: shmem_##N##_test_all_vector
#define GSHMEM_A_test_any_vector(T, N) , T *: shmem_##N##_test_any_vector
#define GSHMEM_A_test_some_vector(T, N) , T *: shmem_##N##_test_some_vector

#define shmem_wait_until(...) GSHMEM_CALL(GSHMEM_P2P_GENERIC_TYPES, wait_until, __VA_ARGS__)
#define shmem_wait_until_all(...) GSHMEM_CALL(GSHMEM_P2P_GENERIC_TYPES, wait_until_all, __VA_ARGS__)
#define shmem_wait_until_any(...) GSHMEM_CALL(GSHMEM_P2P_GENERIC_TYPES, wait_until_any, __VA_ARGS__)
#define shmem_wait_until_some(...) GSHMEM_CALL(GSHMEM_P2P_GENERIC_TYPES, wait_until_some, __VA_ARGS__)
#define shmem_wait_until_all_vector(...) GSHMEM_CALL(GSHMEM_P2P_GENERIC_TYPES, wait_until_all_vector, __VA_ARGS__)
#define shmem_wait_until_any_vector(...) GSHMEM_CALL(GSHMEM_P2P_GENERIC_TYPES, wait_until_any_vector, __VA_ARGS__)
#define shmem_wait_until_some_vector(...) GSHMEM_CALL(GSHMEM_P2P_GENERIC_TYPES, wait_until_some_vector, __VA_ARGS__)
#define shmem_test(...) GSHMEM_CALL(GSHMEM_P2P_GENERIC_TYPES, test, __VA_ARGS__)
#define shmem_test_all(...) GSHMEM_CALL(GSHMEM_P2P_GENERIC_TYPES, test_all, __VA_ARGS__)
#define shmem_test_any(...) GSHMEM_CALL(GSHMEM_P2P_GENERIC_TYPES, test_any, __VA_ARGS__)
#define shmem_test_some(...) GSHMEM_CALL(GSHMEM_P2P_GENERIC_TYPES, test_some, __VA_ARGS__)
#define shmem_test_all_vector(...) GSHMEM_CALL(GSHMEM_P2P_GENERIC_TYPES, test_all_vector, __VA_ARGS__)
#define shmem_test_any_vector(...) GSHMEM_CALL(GSHMEM_P2P_GENERIC_TYPES, test_any_vector, __VA_ARGS__)
#define shmem_test_some_vector(...) GSHMEM_CALL(GSHMEM_P2P_GENERIC_TYPES, test_some_vector, __VA_ARGS__)

#endif /* GSHMEM_GENERIC_C11_H */
