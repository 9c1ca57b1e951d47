/*
 * generic.c - each type-generic name calls the routine of its arguments'
 * type, with and without a leading context: the C11 _Generic macros when
 * compiled as C, the overloads when compiled as C++ (overload.cpp includes
 * this file).
 *
 * Two kinds of check.  At compile time, a wrong selection passes a pointer
 * of the wrong type or the wrong number of arguments (an error under
 * -Werror), and EXPECT_TYPE checks what value-returning names return.  At
 * run time, linked with stubs.cpp (every routine, recording its own name),
 * CALL checks that the routine called is exactly the one named, which also
 * catches a selection of a routine with the same signature (put_nbi for
 * get_nbi).  The per-type functions are generated from the spec's type
 * lists (spec_types.h); the spot checks name typedefs explicitly.
 * generic.sh builds and runs it.
 */
#include <shmem.h>

#include <stdio.h>
#include <string.h>

#include "spec_types.h"

#ifdef __cplusplus
#include <type_traits>
#define EXPECT_TYPE(expr, T)                                                  \
    static_assert(std::is_same<decltype(expr), T>::value, #expr " is not " #T)
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define EXPECT_TYPE(expr, T)                                                  \
    _Static_assert(_Generic((expr), T : 1, default : 0), #expr " is not " #T)
#else
#error "generic.c tests the C11 bindings: compile with -std=c11 or later"
#endif

/* Set by every stub routine to its own name (stubs.cpp). */
#ifdef __cplusplus
extern "C" const char *gshmem_test_last_call;
#else
extern const char *gshmem_test_last_call;
#endif

static int checks, failures;

static void expect_call(const char *call, const char *want)
{
    const char *got = gshmem_test_last_call ? gshmem_test_last_call : "(none)";
    checks++;
    if (strcmp(got, want) != 0) {
        printf("FAIL %s called %s, expected %s\n", call, got, want);
        failures++;
    }
    gshmem_test_last_call = NULL;
}

/* In C++, shmem_wait_until(long *, int, long) is the deprecated routine of
 * that name (an overload may not redeclare it), which does what
 * shmem_long_wait_until does. */
static const char *wait_until_routine(const char *typed)
{
#ifdef __cplusplus
    if (strcmp(typed, "shmem_long_wait_until") == 0)
        return "shmem_wait_until";
#endif
    return typed;
}

/* Evaluate expr (a call) and check which routine it reached.  The stubs'
 * return values are zeros; they are not used. */
#define CALL(expr, want) ((void)(expr), expect_call(#expr, want))

/* RMA, put-with-signal, team data movement: the standard RMA types. */
#define TEST_RMA(T, N)                                                        \
    static void test_rma_##N(shmem_ctx_t ctx, shmem_team_t team,              \
                             uint64_t *sig)                                   \
    {                                                                         \
        static T dest[8], source[8];                                          \
        const T *csource = source;                                            \
        CALL(shmem_put(dest, source, 8, 1), "shmem_" #N "_put");              \
        CALL(shmem_put(ctx, dest, csource, 8, 1), "shmem_ctx_" #N "_put");    \
        CALL(shmem_p(dest, (T)1, 1), "shmem_" #N "_p");                       \
        CALL(shmem_p(ctx, dest, (T)1, 1), "shmem_ctx_" #N "_p");              \
        CALL(shmem_iput(dest, source, 2, 2, 4, 1), "shmem_" #N "_iput");      \
        CALL(shmem_iput(ctx, dest, source, 2, 2, 4, 1),                       \
             "shmem_ctx_" #N "_iput");                                        \
        CALL(shmem_ibput(dest, source, 2, 2, 2, 2, 1), "shmem_" #N "_ibput"); \
        CALL(shmem_ibput(ctx, dest, source, 2, 2, 2, 2, 1),                   \
             "shmem_ctx_" #N "_ibput");                                       \
        CALL(shmem_get(dest, source, 8, 1), "shmem_" #N "_get");              \
        CALL(shmem_get(ctx, dest, source, 8, 1), "shmem_ctx_" #N "_get");     \
        EXPECT_TYPE(shmem_g(source, 1), T);                                   \
        EXPECT_TYPE(shmem_g(ctx, csource, 1), T);                             \
        CALL(shmem_g(csource, 1), "shmem_" #N "_g");                          \
        CALL(shmem_g(ctx, source, 1), "shmem_ctx_" #N "_g");                  \
        CALL(shmem_iget(dest, source, 2, 2, 4, 1), "shmem_" #N "_iget");      \
        CALL(shmem_iget(ctx, dest, source, 2, 2, 4, 1),                       \
             "shmem_ctx_" #N "_iget");                                        \
        CALL(shmem_ibget(dest, source, 2, 2, 2, 2, 1), "shmem_" #N "_ibget"); \
        CALL(shmem_ibget(ctx, dest, source, 2, 2, 2, 2, 1),                   \
             "shmem_ctx_" #N "_ibget");                                       \
        CALL(shmem_put_nbi(dest, source, 8, 1), "shmem_" #N "_put_nbi");      \
        CALL(shmem_put_nbi(ctx, dest, source, 8, 1),                          \
             "shmem_ctx_" #N "_put_nbi");                                     \
        CALL(shmem_get_nbi(dest, source, 8, 1), "shmem_" #N "_get_nbi");      \
        CALL(shmem_get_nbi(ctx, dest, source, 8, 1),                          \
             "shmem_ctx_" #N "_get_nbi");                                     \
        CALL(shmem_put_signal(dest, source, 8, sig, 1, SHMEM_SIGNAL_SET, 1),  \
             "shmem_" #N "_put_signal");                                      \
        CALL(shmem_put_signal(ctx, dest, source, 8, sig, 1, SHMEM_SIGNAL_ADD, \
                              1),                                             \
             "shmem_ctx_" #N "_put_signal");                                  \
        CALL(shmem_put_signal_nbi(dest, source, 8, sig, 1, SHMEM_SIGNAL_SET,  \
                                  1),                                         \
             "shmem_" #N "_put_signal_nbi");                                  \
        CALL(shmem_put_signal_nbi(ctx, dest, source, 8, sig, 1,               \
                                  SHMEM_SIGNAL_SET, 1),                       \
             "shmem_ctx_" #N "_put_signal_nbi");                              \
        EXPECT_TYPE(shmem_alltoall(team, dest, source, 1), int);              \
        EXPECT_TYPE(shmem_alltoalls(team, dest, source, 1, 1, 1), int);       \
        EXPECT_TYPE(shmem_broadcast(team, dest, source, 8, 0), int);          \
        EXPECT_TYPE(shmem_collect(team, dest, source, 1), int);               \
        EXPECT_TYPE(shmem_fcollect(team, dest, source, 1), int);              \
        CALL(shmem_alltoall(team, dest, csource, 1),                          \
             "shmem_" #N "_alltoall");                                        \
        CALL(shmem_alltoalls(team, dest, source, 1, 1, 1),                    \
             "shmem_" #N "_alltoalls");                                       \
        CALL(shmem_broadcast(team, dest, source, 8, 0),                       \
             "shmem_" #N "_broadcast");                                       \
        CALL(shmem_collect(team, dest, source, 1), "shmem_" #N "_collect");   \
        CALL(shmem_fcollect(team, dest, source, 1), "shmem_" #N "_fcollect"); \
        CALL(shmem_max_reduce(team, dest, source, 8),                         \
             "shmem_" #N "_max_reduce");                                      \
        CALL(shmem_min_reduce(team, dest, source, 8),                         \
             "shmem_" #N "_min_reduce");                                      \
        test_arith_##N(team);                                                 \
    }

/* SUM/PROD reductions and scans: the RMA types and the complex ones.
 * __extension__: C++ has no _Complex, but GNU compilers accept it. */
#define TEST_ARITH(T, N)                                                      \
    static void test_arith_##N(shmem_team_t team)                             \
    {                                                                         \
        __extension__ static T dest[4], source[4];                            \
        EXPECT_TYPE(shmem_sum_reduce(team, dest, source, 4), int);            \
        EXPECT_TYPE(shmem_sum_exscan(team, dest, source, 4), int);            \
        CALL(shmem_sum_reduce(team, dest, source, 4),                         \
             "shmem_" #N "_sum_reduce");                                      \
        CALL(shmem_prod_reduce(team, dest, source, 4),                        \
             "shmem_" #N "_prod_reduce");                                     \
        CALL(shmem_sum_inscan(team, dest, source, 4),                         \
             "shmem_" #N "_sum_inscan");                                      \
        CALL(shmem_sum_exscan(team, dest, source, 4),                         \
             "shmem_" #N "_sum_exscan");                                      \
    }
SPEC_RMA_TYPES(TEST_ARITH)
SPEC_COMPLEX_TYPES(TEST_ARITH)
SPEC_RMA_TYPES(TEST_RMA)

/* AND/OR/XOR reductions. */
#define TEST_REDUCE_BIT(T, N)                                                 \
    static void test_reduce_bit_##N(shmem_team_t team)                        \
    {                                                                         \
        static T dest[4], source[4];                                          \
        EXPECT_TYPE(shmem_and_reduce(team, dest, source, 4), int);            \
        CALL(shmem_and_reduce(team, dest, source, 4),                         \
             "shmem_" #N "_and_reduce");                                      \
        CALL(shmem_or_reduce(team, dest, source, 4),                          \
             "shmem_" #N "_or_reduce");                                       \
        CALL(shmem_xor_reduce(team, dest, source, 4),                         \
             "shmem_" #N "_xor_reduce");                                      \
    }
SPEC_REDUCE_BIT_TYPES(TEST_REDUCE_BIT)

/* AMOs on the extended, standard and bitwise types. */
#define TEST_AMO_EXT(T, N)                                                    \
    static void test_amo_ext_##N(shmem_ctx_t ctx)                             \
    {                                                                         \
        static T dest, fetch;                                                 \
        const T *cdest = &dest;                                               \
        EXPECT_TYPE(shmem_atomic_fetch(&dest, 1), T);                         \
        EXPECT_TYPE(shmem_atomic_fetch(ctx, cdest, 1), T);                    \
        EXPECT_TYPE(shmem_atomic_swap(&dest, (T)1, 1), T);                    \
        CALL(shmem_atomic_fetch(cdest, 1), "shmem_" #N "_atomic_fetch");      \
        CALL(shmem_atomic_fetch(ctx, &dest, 1),                               \
             "shmem_ctx_" #N "_atomic_fetch");                                \
        CALL(shmem_atomic_set(&dest, (T)1, 1), "shmem_" #N "_atomic_set");    \
        CALL(shmem_atomic_set(ctx, &dest, (T)1, 1),                           \
             "shmem_ctx_" #N "_atomic_set");                                  \
        CALL(shmem_atomic_swap(&dest, (T)1, 1), "shmem_" #N "_atomic_swap");  \
        CALL(shmem_atomic_swap(ctx, &dest, (T)1, 1),                          \
             "shmem_ctx_" #N "_atomic_swap");                                 \
        CALL(shmem_atomic_fetch_nbi(&fetch, cdest, 1),                        \
             "shmem_" #N "_atomic_fetch_nbi");                                \
        CALL(shmem_atomic_fetch_nbi(ctx, &fetch, &dest, 1),                   \
             "shmem_ctx_" #N "_atomic_fetch_nbi");                            \
        CALL(shmem_atomic_swap_nbi(&fetch, &dest, (T)1, 1),                   \
             "shmem_" #N "_atomic_swap_nbi");                                 \
        CALL(shmem_atomic_swap_nbi(ctx, &fetch, &dest, (T)1, 1),              \
             "shmem_ctx_" #N "_atomic_swap_nbi");                             \
    }
SPEC_AMO_EXT_TYPES(TEST_AMO_EXT)

#define TEST_AMO_STD(T, N)                                                    \
    static void test_amo_std_##N(shmem_ctx_t ctx)                             \
    {                                                                         \
        static T dest, fetch;                                                 \
        EXPECT_TYPE(shmem_atomic_compare_swap(&dest, (T)0, (T)1, 1), T);      \
        EXPECT_TYPE(shmem_atomic_fetch_inc(ctx, &dest, 1), T);                \
        EXPECT_TYPE(shmem_atomic_fetch_add(&dest, (T)1, 1), T);               \
        CALL(shmem_atomic_compare_swap(&dest, (T)0, (T)1, 1),                 \
             "shmem_" #N "_atomic_compare_swap");                             \
        CALL(shmem_atomic_compare_swap(ctx, &dest, (T)0, (T)1, 1),            \
             "shmem_ctx_" #N "_atomic_compare_swap");                         \
        CALL(shmem_atomic_fetch_inc(&dest, 1),                                \
             "shmem_" #N "_atomic_fetch_inc");                                \
        CALL(shmem_atomic_fetch_inc(ctx, &dest, 1),                           \
             "shmem_ctx_" #N "_atomic_fetch_inc");                            \
        CALL(shmem_atomic_inc(&dest, 1), "shmem_" #N "_atomic_inc");          \
        CALL(shmem_atomic_inc(ctx, &dest, 1), "shmem_ctx_" #N "_atomic_inc"); \
        CALL(shmem_atomic_fetch_add(&dest, (T)1, 1),                          \
             "shmem_" #N "_atomic_fetch_add");                                \
        CALL(shmem_atomic_fetch_add(ctx, &dest, (T)1, 1),                     \
             "shmem_ctx_" #N "_atomic_fetch_add");                            \
        CALL(shmem_atomic_add(&dest, (T)1, 1), "shmem_" #N "_atomic_add");    \
        CALL(shmem_atomic_add(ctx, &dest, (T)1, 1),                           \
             "shmem_ctx_" #N "_atomic_add");                                  \
        CALL(shmem_atomic_compare_swap_nbi(&fetch, &dest, (T)0, (T)1, 1),     \
             "shmem_" #N "_atomic_compare_swap_nbi");                         \
        CALL(shmem_atomic_compare_swap_nbi(ctx, &fetch, &dest, (T)0, (T)1,    \
                                           1),                                \
             "shmem_ctx_" #N "_atomic_compare_swap_nbi");                     \
        CALL(shmem_atomic_fetch_inc_nbi(&fetch, &dest, 1),                    \
             "shmem_" #N "_atomic_fetch_inc_nbi");                            \
        CALL(shmem_atomic_fetch_inc_nbi(ctx, &fetch, &dest, 1),               \
             "shmem_ctx_" #N "_atomic_fetch_inc_nbi");                        \
        CALL(shmem_atomic_fetch_add_nbi(&fetch, &dest, (T)1, 1),              \
             "shmem_" #N "_atomic_fetch_add_nbi");                            \
        CALL(shmem_atomic_fetch_add_nbi(ctx, &fetch, &dest, (T)1, 1),         \
             "shmem_ctx_" #N "_atomic_fetch_add_nbi");                        \
    }
SPEC_AMO_STD_TYPES(TEST_AMO_STD)

#define TEST_AMO_BIT(T, N)                                                    \
    static void test_amo_bit_##N(shmem_ctx_t ctx)                             \
    {                                                                         \
        static T dest, fetch;                                                 \
        EXPECT_TYPE(shmem_atomic_fetch_and(&dest, (T)1, 1), T);               \
        EXPECT_TYPE(shmem_atomic_fetch_or(ctx, &dest, (T)1, 1), T);           \
        EXPECT_TYPE(shmem_atomic_fetch_xor(&dest, (T)1, 1), T);               \
        CALL(shmem_atomic_fetch_and(&dest, (T)1, 1),                          \
             "shmem_" #N "_atomic_fetch_and");                                \
        CALL(shmem_atomic_fetch_and(ctx, &dest, (T)1, 1),                     \
             "shmem_ctx_" #N "_atomic_fetch_and");                            \
        CALL(shmem_atomic_and(&dest, (T)1, 1), "shmem_" #N "_atomic_and");    \
        CALL(shmem_atomic_and(ctx, &dest, (T)1, 1),                           \
             "shmem_ctx_" #N "_atomic_and");                                  \
        CALL(shmem_atomic_fetch_or(&dest, (T)1, 1),                           \
             "shmem_" #N "_atomic_fetch_or");                                 \
        CALL(shmem_atomic_fetch_or(ctx, &dest, (T)1, 1),                      \
             "shmem_ctx_" #N "_atomic_fetch_or");                             \
        CALL(shmem_atomic_or(&dest, (T)1, 1), "shmem_" #N "_atomic_or");      \
        CALL(shmem_atomic_or(ctx, &dest, (T)1, 1),                            \
             "shmem_ctx_" #N "_atomic_or");                                   \
        CALL(shmem_atomic_fetch_xor(&dest, (T)1, 1),                          \
             "shmem_" #N "_atomic_fetch_xor");                                \
        CALL(shmem_atomic_fetch_xor(ctx, &dest, (T)1, 1),                     \
             "shmem_ctx_" #N "_atomic_fetch_xor");                            \
        CALL(shmem_atomic_xor(&dest, (T)1, 1), "shmem_" #N "_atomic_xor");    \
        CALL(shmem_atomic_xor(ctx, &dest, (T)1, 1),                           \
             "shmem_ctx_" #N "_atomic_xor");                                  \
        CALL(shmem_atomic_fetch_and_nbi(&fetch, &dest, (T)1, 1),              \
             "shmem_" #N "_atomic_fetch_and_nbi");                            \
        CALL(shmem_atomic_fetch_and_nbi(ctx, &fetch, &dest, (T)1, 1),         \
             "shmem_ctx_" #N "_atomic_fetch_and_nbi");                        \
        CALL(shmem_atomic_fetch_or_nbi(&fetch, &dest, (T)1, 1),               \
             "shmem_" #N "_atomic_fetch_or_nbi");                             \
        CALL(shmem_atomic_fetch_or_nbi(ctx, &fetch, &dest, (T)1, 1),          \
             "shmem_ctx_" #N "_atomic_fetch_or_nbi");                         \
        CALL(shmem_atomic_fetch_xor_nbi(&fetch, &dest, (T)1, 1),              \
             "shmem_" #N "_atomic_fetch_xor_nbi");                            \
        CALL(shmem_atomic_fetch_xor_nbi(ctx, &fetch, &dest, (T)1, 1),         \
             "shmem_ctx_" #N "_atomic_fetch_xor_nbi");                        \
    }
SPEC_AMO_BIT_TYPES(TEST_AMO_BIT)

/* Deprecated AMO names (no context forms). */
#define TEST_AMO_DEPR_EXT(T, N)                                               \
    static void test_amo_depr_ext_##N(void)                                   \
    {                                                                         \
        static T dest;                                                        \
        const T *cdest = &dest;                                               \
        EXPECT_TYPE(shmem_fetch(cdest, 1), T);                                \
        EXPECT_TYPE(shmem_swap(&dest, (T)1, 1), T);                           \
        CALL(shmem_fetch(&dest, 1), "shmem_" #N "_fetch");                    \
        CALL(shmem_set(&dest, (T)1, 1), "shmem_" #N "_set");                  \
        CALL(shmem_swap(&dest, (T)1, 1), "shmem_" #N "_swap");                \
    }
SPEC_AMO_DEPR_EXT_TYPES(TEST_AMO_DEPR_EXT)

#define TEST_AMO_DEPR_STD(T, N)                                               \
    static void test_amo_depr_std_##N(void)                                   \
    {                                                                         \
        static T dest;                                                        \
        EXPECT_TYPE(shmem_cswap(&dest, (T)0, (T)1, 1), T);                    \
        EXPECT_TYPE(shmem_finc(&dest, 1), T);                                 \
        EXPECT_TYPE(shmem_fadd(&dest, (T)1, 1), T);                           \
        CALL(shmem_cswap(&dest, (T)0, (T)1, 1), "shmem_" #N "_cswap");        \
        CALL(shmem_finc(&dest, 1), "shmem_" #N "_finc");                      \
        CALL(shmem_inc(&dest, 1), "shmem_" #N "_inc");                        \
        CALL(shmem_fadd(&dest, (T)1, 1), "shmem_" #N "_fadd");                \
        CALL(shmem_add(&dest, (T)1, 1), "shmem_" #N "_add");                  \
    }
SPEC_AMO_DEPR_STD_TYPES(TEST_AMO_DEPR_STD)

/* Point-to-point synchronization. */
#define TEST_P2P(T, N)                                                        \
    static void test_p2p_##N(void)                                            \
    {                                                                         \
        static T ivars[4], cmp_values[4];                                     \
        static size_t indices[4];                                             \
        static const int status[4] = {0};                                     \
        const T *ccmp = cmp_values;                                           \
        EXPECT_TYPE(shmem_wait_until_any(ivars, 4, status, 1, (T)1), size_t); \
        EXPECT_TYPE(shmem_wait_until_some(ivars, 4, indices, status, 1,       \
                                          (T)1),                              \
                    size_t);                                                  \
        EXPECT_TYPE(shmem_wait_until_any_vector(ivars, 4, status, 1, ccmp),   \
                    size_t);                                                  \
        EXPECT_TYPE(shmem_wait_until_some_vector(ivars, 4, indices, status,   \
                                                 1, ccmp),                    \
                    size_t);                                                  \
        EXPECT_TYPE(shmem_test(ivars, SHMEM_CMP_LT, (T)1), int);              \
        EXPECT_TYPE(shmem_test_all(ivars, 4, status, 1, (T)1), int);          \
        EXPECT_TYPE(shmem_test_any(ivars, 4, status, 1, (T)1), size_t);       \
        EXPECT_TYPE(shmem_test_some(ivars, 4, indices, status, 1, (T)1),      \
                    size_t);                                                  \
        EXPECT_TYPE(shmem_test_all_vector(ivars, 4, status, 1, ccmp), int);   \
        EXPECT_TYPE(shmem_test_any_vector(ivars, 4, status, 1, ccmp),         \
                    size_t);                                                  \
        EXPECT_TYPE(shmem_test_some_vector(ivars, 4, indices, status, 1,      \
                                           ccmp),                             \
                    size_t);                                                  \
        CALL(shmem_wait_until(ivars, SHMEM_CMP_EQ, (T)1),                     \
             wait_until_routine("shmem_" #N "_wait_until"));                  \
        CALL(shmem_wait_until_all(ivars, 4, status, SHMEM_CMP_NE, (T)1),      \
             "shmem_" #N "_wait_until_all");                                  \
        CALL(shmem_wait_until_all(ivars, 4, NULL, SHMEM_CMP_NE, (T)1),        \
             "shmem_" #N "_wait_until_all");                                  \
        CALL(shmem_wait_until_any(ivars, 4, status, SHMEM_CMP_GT, (T)1),      \
             "shmem_" #N "_wait_until_any");                                  \
        CALL(shmem_wait_until_some(ivars, 4, indices, status, 1, (T)1),       \
             "shmem_" #N "_wait_until_some");                                 \
        CALL(shmem_wait_until_all_vector(ivars, 4, status, 1, ccmp),          \
             "shmem_" #N "_wait_until_all_vector");                           \
        CALL(shmem_wait_until_any_vector(ivars, 4, status, 1, cmp_values),    \
             "shmem_" #N "_wait_until_any_vector");                           \
        CALL(shmem_wait_until_some_vector(ivars, 4, indices, status, 1,       \
                                          ccmp),                              \
             "shmem_" #N "_wait_until_some_vector");                          \
        CALL(shmem_test(ivars, SHMEM_CMP_LE, (T)1), "shmem_" #N "_test");     \
        CALL(shmem_test_all(ivars, 4, status, 1, (T)1),                       \
             "shmem_" #N "_test_all");                                        \
        CALL(shmem_test_any(ivars, 4, status, 1, (T)1),                       \
             "shmem_" #N "_test_any");                                        \
        CALL(shmem_test_some(ivars, 4, indices, status, 1, (T)1),             \
             "shmem_" #N "_test_some");                                       \
        CALL(shmem_test_all_vector(ivars, 4, status, 1, ccmp),                \
             "shmem_" #N "_test_all_vector");                                 \
        CALL(shmem_test_any_vector(ivars, 4, status, 1, ccmp),                \
             "shmem_" #N "_test_any_vector");                                 \
        CALL(shmem_test_some_vector(ivars, 4, indices, status, 1, ccmp),      \
             "shmem_" #N "_test_some_vector");                                \
    }
SPEC_P2P_TYPES(TEST_P2P)

/* Typedef names select their routines (int64_t is long here, so
 * shmem_long_* is the routine reached), and the names shared with routines
 * keep both meanings. */
static void test_spot_checks(shmem_ctx_t ctx, shmem_team_t team)
{
    static int8_t i8[4];
    static uint8_t u8[4];
    static int32_t i32;
    static long lvar, psync[SHMEM_BARRIER_SYNC_SIZE];
    static uint64_t sig;
    static size_t sz;
    static ptrdiff_t pd;

    EXPECT_TYPE(shmem_g(&sz, 1), size_t);
    EXPECT_TYPE(shmem_atomic_fetch_add(&pd, 1, 1), ptrdiff_t);
    EXPECT_TYPE(shmem_atomic_fetch_and(&i32, 1, 1), int32_t);
    CALL(shmem_put(SHMEM_CTX_DEFAULT, i8, i8, 4, 1), "shmem_ctx_schar_put");
    CALL(shmem_atomic_fetch_and(ctx, &i32, 1, 1),
         "shmem_ctx_int32_atomic_fetch_and");
    CALL(shmem_and_reduce(team, i8, i8, 4), "shmem_int8_and_reduce");
    CALL(shmem_or_reduce(SHMEM_TEAM_WORLD, u8, u8, 4),
         "shmem_uchar_or_reduce");

    CALL(shmem_signal_add(&sig, 1, 1), "shmem_signal_add");
    CALL(shmem_signal_add(ctx, &sig, 1, 1), "shmem_ctx_signal_add");
    CALL(shmem_signal_set(&sig, 1, 1), "shmem_signal_set");
    CALL(shmem_signal_set(ctx, &sig, 1, 1), "shmem_ctx_signal_set");

    EXPECT_TYPE(shmem_sync(team), int);
    CALL(shmem_sync(SHMEM_TEAM_SHARED), "shmem_team_sync");
    CALL(shmem_sync(0, 0, 2, psync), "shmem_sync");

    CALL(shmem_wait_until(&sz, SHMEM_CMP_EQ, 1), "shmem_ulong_wait_until");
    CALL(shmem_wait(&lvar, 0), "shmem_wait");
    CALL(shmem_wait_until(&lvar, SHMEM_CMP_EQ, 1L),
         wait_until_routine("shmem_long_wait_until"));

    /* The routines behind the shared names still have addresses. */
    void (*wait_until)(long *, int, long) = &shmem_wait_until;
    void (*sync)(int, int, int, long *) = &shmem_sync;
    void (*signal_add)(uint64_t *, uint64_t, int) = &shmem_signal_add;
    CALL(wait_until(&lvar, SHMEM_CMP_EQ, 1), "shmem_wait_until");
    CALL(sync(0, 0, 2, psync), "shmem_sync");
    CALL(signal_add(&sig, 1, 1), "shmem_signal_add");
}

#define RUN_RMA(T, N) test_rma_##N(ctx, team, &sig);
#define RUN_ARITH(T, N) test_arith_##N(team);
#define RUN_REDUCE_BIT(T, N) test_reduce_bit_##N(team);
#define RUN_AMO_EXT(T, N) test_amo_ext_##N(ctx);
#define RUN_AMO_STD(T, N) test_amo_std_##N(ctx);
#define RUN_AMO_BIT(T, N) test_amo_bit_##N(ctx);
#define RUN_AMO_DEPR_EXT(T, N) test_amo_depr_ext_##N();
#define RUN_AMO_DEPR_STD(T, N) test_amo_depr_std_##N();
#define RUN_P2P(T, N) test_p2p_##N();

int main(void)
{
    static uint64_t sig;
    shmem_ctx_t ctx = SHMEM_CTX_DEFAULT;
    shmem_team_t team = SHMEM_TEAM_WORLD;

    SPEC_RMA_TYPES(RUN_RMA)
    SPEC_COMPLEX_TYPES(RUN_ARITH)
    SPEC_REDUCE_BIT_TYPES(RUN_REDUCE_BIT)
    SPEC_AMO_EXT_TYPES(RUN_AMO_EXT)
    SPEC_AMO_STD_TYPES(RUN_AMO_STD)
    SPEC_AMO_BIT_TYPES(RUN_AMO_BIT)
    SPEC_AMO_DEPR_EXT_TYPES(RUN_AMO_DEPR_EXT)
    SPEC_AMO_DEPR_STD_TYPES(RUN_AMO_DEPR_STD)
    SPEC_P2P_TYPES(RUN_P2P)
    test_spot_checks(ctx, team);

    printf("%s: %d calls checked, %d wrong\n",
#ifdef __cplusplus
           "overload.cpp",
#else
           "generic.c",
#endif
           checks, failures);
    return failures == 0 ? 0 : 1;
}
