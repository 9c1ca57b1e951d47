/*
 * tests/pe/generic.c - the C11 type-generic names (built with -std=c11):
 * shmem_put/p/iput/ibput/get/g/iget/ibget/put_nbi/get_nbi, the
 * shmem_atomic_* names (blocking and nbi), shmem_put_signal[_nbi],
 * shmem_signal_add/set, shmem_wait_until*, shmem_test* and the deprecated
 * shmem_fetch ... shmem_add, each in its plain and its context-first form.
 *
 * A generic name selects its routine from a *_GENERIC_TYPES row of
 * typetable.h, and a macro cannot expand inside an expansion of itself, so
 * the per-type tests here are generated from the other rows (GSHMEM_RMA_TYPES
 * and so on, which also hold the typedef'd names such as int64_t and size_t,
 * checking that they select correctly too).  The deprecated generic names
 * select from the only rows that list their types, so they are called with
 * long and double alone.
 */
#include "pe_test.h"
#include <gshmem/typetable.h>

#if !defined(__STDC_VERSION__) || __STDC_VERSION__ < 201112L
#error "generic.c tests the C11 generic names: build it with -std=c11"
#endif

static int me, npes, left, right, lleft;
static unsigned char *sym; /* 64 elements of up to 16 bytes */
static uint64_t *sig;

/* Where the puts of rma_N land: the source element, or -1 (untouched). */
static const int put_src[33] = {0,  1, 2,  3, 0,  1, 2, 3,  0, 1, 0,  1, 0, 1,  0, -1, 1,
                                -1, 0, -1, 1, -1, 0, 1, -1, 2, 3, -1, 0, 1, -1, 2, 3};

#define GEN_RMA(T, N)                                                                          \
    static void rma_##N(shmem_ctx_t ctx)                                                       \
    {                                                                                          \
        T *d = (T *)sym, src[4], got[4];                                                       \
        int i, f;                                                                              \
                                                                                               \
        for (i = 0; i < 4; i++)                                                                \
            src[i] = (T)(me * 10 + i + 1);                                                     \
        for (i = 0; i < 40; i++)                                                               \
            d[i] = 0;                                                                          \
        sig[0] = 0;                                                                            \
        shmem_barrier_all();                                                                   \
        shmem_put(d, src, 4, right);                                                           \
        shmem_put(ctx, d + 4, src, 4, right);                                                  \
        shmem_p(d + 8, src[0], right);                                                         \
        shmem_p(ctx, d + 9, src[1], right);                                                    \
        shmem_put_nbi(d + 10, src, 2, right);                                                  \
        shmem_put_nbi(ctx, d + 12, src, 2, right);                                             \
        shmem_iput(d + 14, src, 2, 1, 2, right);                                               \
        shmem_iput(ctx, d + 18, src, 2, 1, 2, right);                                          \
        shmem_ibput(d + 22, src, 3, 2, 2, 2, right);                                           \
        shmem_ibput(ctx, d + 28, src, 3, 2, 2, 2, right);                                      \
        shmem_put_signal(d + 34, src, 1, sig, 1, SHMEM_SIGNAL_ADD, right);                     \
        shmem_put_signal(ctx, d + 35, src + 1, 1, sig, 1, SHMEM_SIGNAL_ADD, right);            \
        shmem_put_signal_nbi(d + 36, src + 2, 1, sig, 1, SHMEM_SIGNAL_ADD, right);             \
        shmem_put_signal_nbi(ctx, d + 37, src + 3, 1, sig, 1, SHMEM_SIGNAL_ADD, right);        \
        shmem_quiet();                                                                         \
        shmem_ctx_quiet(ctx);                                                                  \
        shmem_signal_wait_until(sig, SHMEM_CMP_EQ, 4);                                         \
        for (i = 34; i < 38; i++)                                                              \
            PT_CHECK_EQ_F("shmem_put_signal (C11, " #N ")", left * 10 + i - 33, d[i],          \
                          "dest[%d] once the signal showed", i);                               \
        shmem_barrier_all();                                                                   \
        for (i = 0; i < 33; i++)                                                               \
            PT_CHECK_EQ_F("shmem_put/p/iput/ibput (C11, " #N ")",                              \
                          put_src[i] < 0 ? 0 : left * 10 + put_src[i] + 1, d[i],               \
                          "dest[%d] written by PE %d", i, left);                               \
        /* gets from the left PE, whose d holds what its left PE put */                        \
        for (f = 0; f < 10; f++) {                                                             \
            for (i = 0; i < 4; i++)                                                            \
                got[i] = 0;                                                                    \
            switch (f) {                                                                       \
            case 0: shmem_get(got, d, 4, left); break;                                         \
            case 1: shmem_get(ctx, got, d, 4, left); break;                                    \
            case 2:                                                                            \
                for (i = 0; i < 4; i++)                                                        \
                    got[i] = shmem_g(d + i, left);                                             \
                break;                                                                         \
            case 3:                                                                            \
                for (i = 0; i < 4; i++)                                                        \
                    got[i] = shmem_g(ctx, d + i, left);                                        \
                break;                                                                         \
            case 4:                                                                            \
                shmem_get_nbi(got, d, 4, left);                                                \
                shmem_quiet();                                                                 \
                break;                                                                         \
            case 5:                                                                            \
                shmem_get_nbi(ctx, got, d, 4, left);                                           \
                shmem_ctx_quiet(ctx);                                                          \
                break;                                                                         \
            case 6: shmem_iget(got, d, 1, 4, 4, left); break;                                  \
            case 7: shmem_iget(ctx, got, d, 1, 4, 4, left); break;                             \
            case 8: shmem_ibget(got, d, 2, 4, 2, 2, left); break;                              \
            case 9: shmem_ibget(ctx, got, d, 2, 4, 2, 2, left); break;                         \
            }                                                                                  \
            for (i = 0; i < 4; i++) {                                                          \
                /* iget reads d[0], d[4], d[8], d[12]: all source element 0;  */               \
                /* ibget reads d[0], d[1], d[4], d[5]: source elements 0, 1, 0, 1 */           \
                int s = f == 6 || f == 7 ? 0 : f == 8 || f == 9 ? i % 2 : i;                   \
                PT_CHECK_EQ_F("shmem_get/g/iget/ibget (C11, " #N ")", lleft * 10 + s + 1,      \
                              got[i], "form %d, element %d from PE %d", f, i, left);           \
            }                                                                                  \
        }                                                                                      \
        shmem_barrier_all();                                                                   \
    }
GSHMEM_RMA_TYPES(GEN_RMA)
#undef GEN_RMA

#define GEN_AMO_STD(T, N)                                                                      \
    static void amo_std_##N(shmem_ctx_t ctx)                                                   \
    {                                                                                          \
        T *w = (T *)sym, v[4], f[3];                                                           \
        int i;                                                                                 \
                                                                                               \
        for (i = 0; i < 4; i++)                                                                \
            w[i] = 0;                                                                          \
        shmem_barrier_all();                                                                   \
        shmem_atomic_add(&w[0], 2, right);                                                     \
        shmem_atomic_add(ctx, &w[0], 3, right);                                                \
        shmem_atomic_inc(&w[0], right);                                                        \
        shmem_atomic_inc(ctx, &w[0], right);                                                   \
        v[0] = shmem_atomic_fetch_add(&w[1], 1, right);                                        \
        v[1] = shmem_atomic_fetch_add(ctx, &w[1], 1, right);                                   \
        v[2] = shmem_atomic_fetch_inc(&w[1], right);                                           \
        v[3] = shmem_atomic_fetch_inc(ctx, &w[1], right);                                      \
        for (i = 0; i < 4; i++)                                                                \
            PT_CHECK_EQ_F("shmem_atomic_fetch_add/fetch_inc (C11, " #N ")", i, v[i],           \
                          "fetch %d", i);                                                      \
        shmem_atomic_fetch_add_nbi(&f[0], &w[2], 5, right);                                    \
        shmem_quiet();                                                                         \
        shmem_atomic_fetch_inc_nbi(ctx, &f[1], &w[2], right);                                  \
        shmem_ctx_quiet(ctx);                                                                  \
        shmem_atomic_compare_swap_nbi(&f[2], &w[3], 0, 9, right);                              \
        shmem_quiet();                                                                         \
        PT_CHECK_EQ("shmem_atomic_fetch_add_nbi (C11, " #N ")", 0, f[0]);                      \
        PT_CHECK_EQ("shmem_atomic_fetch_inc_nbi (C11, " #N ")", 5, f[1]);                      \
        PT_CHECK_EQ("shmem_atomic_compare_swap_nbi (C11, " #N ")", 0, f[2]);                   \
        v[0] = shmem_atomic_compare_swap(&w[3], 9, 10, right);                                 \
        v[1] = shmem_atomic_compare_swap(ctx, &w[3], 10, 11, right);                           \
        v[2] = shmem_atomic_compare_swap(&w[3], 99, 12, right); /* no swap */                  \
        PT_CHECK_EQ("shmem_atomic_compare_swap (C11, " #N ")", 9, v[0]);                       \
        PT_CHECK_EQ("shmem_atomic_compare_swap (C11, " #N ")", 10, v[1]);                      \
        PT_CHECK_EQ("shmem_atomic_compare_swap (C11, " #N ")", 11, v[2]);                      \
        shmem_ctx_quiet(ctx);                                                                  \
        shmem_barrier_all();                                                                   \
        PT_CHECK_EQ("shmem_atomic_add/inc (C11, " #N ")", 7, w[0]);                            \
        PT_CHECK_EQ("shmem_atomic_fetch_add/fetch_inc (C11, " #N ")", 4, w[1]);                \
        PT_CHECK_EQ("shmem_atomic_fetch_add_nbi/fetch_inc_nbi (C11, " #N ")", 6, w[2]);        \
        PT_CHECK_EQ("shmem_atomic_compare_swap (C11, " #N ")", 11, w[3]);                      \
        shmem_barrier_all();                                                                   \
    }
GSHMEM_AMO_STD_TYPES(GEN_AMO_STD)
#undef GEN_AMO_STD

#define GEN_AMO_EXT(T, N)                                                                      \
    static void amo_ext_##N(shmem_ctx_t ctx)                                                   \
    {                                                                                          \
        T *w = (T *)sym, v[4], f = 0;                                                          \
                                                                                               \
        w[0] = w[1] = w[2] = 0;                                                                \
        shmem_barrier_all();                                                                   \
        shmem_atomic_set(&w[0], 5, right);                                                     \
        shmem_atomic_set(ctx, &w[1], 6, right);                                                \
        shmem_ctx_quiet(ctx);                                                                  \
        shmem_barrier_all();                                                                   \
        PT_CHECK_EQ("shmem_atomic_set (C11, " #N ")", 5, w[0]);                                \
        PT_CHECK_EQ("shmem_atomic_set (C11, " #N ")", 6, w[1]);                                \
        PT_CHECK_EQ("shmem_atomic_fetch (C11, " #N ")", 5, shmem_atomic_fetch(&w[0], left));   \
        PT_CHECK_EQ("shmem_atomic_fetch (C11, " #N ")", 6,                                     \
                    shmem_atomic_fetch(ctx, &w[1], left));                                     \
        shmem_atomic_fetch_nbi(&f, &w[0], left);                                               \
        shmem_quiet();                                                                         \
        PT_CHECK_EQ("shmem_atomic_fetch_nbi (C11, " #N ")", 5, f);                             \
        shmem_atomic_fetch_nbi(ctx, &f, &w[1], left);                                          \
        shmem_ctx_quiet(ctx);                                                                  \
        PT_CHECK_EQ("shmem_atomic_fetch_nbi (C11, " #N ")", 6, f);                             \
        v[0] = shmem_atomic_swap(&w[2], 7, right);                                             \
        v[1] = shmem_atomic_swap(ctx, &w[2], 8, right);                                        \
        shmem_atomic_swap_nbi(&v[2], &w[2], 9, right);                                         \
        shmem_quiet();                                                                         \
        shmem_atomic_swap_nbi(ctx, &v[3], &w[2], 10, right);                                   \
        shmem_ctx_quiet(ctx);                                                                  \
        PT_CHECK_EQ("shmem_atomic_swap (C11, " #N ")", 0, v[0]);                               \
        PT_CHECK_EQ("shmem_atomic_swap (C11, " #N ")", 7, v[1]);                               \
        PT_CHECK_EQ("shmem_atomic_swap_nbi (C11, " #N ")", 8, v[2]);                           \
        PT_CHECK_EQ("shmem_atomic_swap_nbi (C11, " #N ")", 9, v[3]);                           \
        shmem_barrier_all();                                                                   \
        PT_CHECK_EQ("shmem_atomic_swap (C11, " #N ")", 10, w[2]);                              \
        shmem_barrier_all();                                                                   \
    }
GSHMEM_AMO_EXT_TYPES(GEN_AMO_EXT)
#undef GEN_AMO_EXT

/* One word per operation pair, so that no two non-commuting updates meet. */
#define GEN_AMO_BIT(T, N)                                                                      \
    static void amo_bit_##N(shmem_ctx_t ctx)                                                   \
    {                                                                                          \
        T *w = (T *)sym, v[12];                                                                \
        const T ones = (T) ~(T)0;                                                              \
        int i;                                                                                 \
                                                                                               \
        for (i = 0; i < 9; i++)                                                                \
            w[i] = (i % 3 == 1) ? ones : 0; /* the and words start all ones */                 \
        shmem_barrier_all();                                                                   \
        shmem_atomic_or(&w[0], 1, right);                                                      \
        shmem_atomic_or(ctx, &w[0], 2, right);                                                 \
        shmem_atomic_and(&w[1], (T) ~(T)1, right);                                             \
        shmem_atomic_and(ctx, &w[1], (T) ~(T)2, right);                                        \
        shmem_atomic_xor(&w[2], 1, right);                                                     \
        shmem_atomic_xor(ctx, &w[2], 2, right);                                                \
        v[0] = shmem_atomic_fetch_or(&w[3], 4, right);                                         \
        v[1] = shmem_atomic_fetch_or(ctx, &w[3], 8, right);                                    \
        v[2] = shmem_atomic_fetch_and(&w[4], (T) ~(T)4, right);                                \
        v[3] = shmem_atomic_fetch_and(ctx, &w[4], (T) ~(T)8, right);                           \
        v[4] = shmem_atomic_fetch_xor(&w[5], 4, right);                                        \
        v[5] = shmem_atomic_fetch_xor(ctx, &w[5], 8, right);                                   \
        shmem_atomic_fetch_or_nbi(&v[6], &w[6], 16, right);                                    \
        shmem_quiet();                                                                         \
        shmem_atomic_fetch_or_nbi(ctx, &v[7], &w[6], 32, right);                               \
        shmem_ctx_quiet(ctx);                                                                  \
        shmem_atomic_fetch_and_nbi(&v[8], &w[7], (T) ~(T)16, right);                           \
        shmem_quiet();                                                                         \
        shmem_atomic_fetch_and_nbi(ctx, &v[9], &w[7], (T) ~(T)32, right);                      \
        shmem_ctx_quiet(ctx);                                                                  \
        shmem_atomic_fetch_xor_nbi(&v[10], &w[8], 16, right);                                  \
        shmem_quiet();                                                                         \
        shmem_atomic_fetch_xor_nbi(ctx, &v[11], &w[8], 32, right);                             \
        shmem_ctx_quiet(ctx);                                                                  \
        PT_CHECK_EQ("shmem_atomic_fetch_or (C11, " #N ")", 0, v[0]);                           \
        PT_CHECK_EQ("shmem_atomic_fetch_or (C11, " #N ")", 4, v[1]);                           \
        PT_CHECK_EQ("shmem_atomic_fetch_and (C11, " #N ")", ones, v[2]);                       \
        PT_CHECK_EQ("shmem_atomic_fetch_and (C11, " #N ")", (T) ~(T)4, v[3]);                  \
        PT_CHECK_EQ("shmem_atomic_fetch_xor (C11, " #N ")", 0, v[4]);                          \
        PT_CHECK_EQ("shmem_atomic_fetch_xor (C11, " #N ")", 4, v[5]);                          \
        PT_CHECK_EQ("shmem_atomic_fetch_or_nbi (C11, " #N ")", 0, v[6]);                       \
        PT_CHECK_EQ("shmem_atomic_fetch_or_nbi (C11, " #N ")", 16, v[7]);                      \
        PT_CHECK_EQ("shmem_atomic_fetch_and_nbi (C11, " #N ")", ones, v[8]);                   \
        PT_CHECK_EQ("shmem_atomic_fetch_and_nbi (C11, " #N ")", (T) ~(T)16, v[9]);             \
        PT_CHECK_EQ("shmem_atomic_fetch_xor_nbi (C11, " #N ")", 0, v[10]);                     \
        PT_CHECK_EQ("shmem_atomic_fetch_xor_nbi (C11, " #N ")", 16, v[11]);                    \
        shmem_barrier_all();                                                                   \
        PT_CHECK_EQ("shmem_atomic_or (C11, " #N ")", 3, w[0]);                                 \
        PT_CHECK_EQ("shmem_atomic_and (C11, " #N ")", (T) ~(T)3, w[1]);                        \
        PT_CHECK_EQ("shmem_atomic_xor (C11, " #N ")", 3, w[2]);                                \
        PT_CHECK_EQ("shmem_atomic_fetch_or (C11, " #N ")", 12, w[3]);                          \
        PT_CHECK_EQ("shmem_atomic_fetch_and (C11, " #N ")", (T) ~(T)12, w[4]);                 \
        PT_CHECK_EQ("shmem_atomic_fetch_xor (C11, " #N ")", 12, w[5]);                         \
        PT_CHECK_EQ("shmem_atomic_fetch_or_nbi (C11, " #N ")", 48, w[6]);                      \
        PT_CHECK_EQ("shmem_atomic_fetch_and_nbi (C11, " #N ")", (T) ~(T)48, w[7]);             \
        PT_CHECK_EQ("shmem_atomic_fetch_xor_nbi (C11, " #N ")", 48, w[8]);                     \
        shmem_barrier_all();                                                                   \
    }
GSHMEM_AMO_BIT_TYPES(GEN_AMO_BIT)
#undef GEN_AMO_BIT

/* The left neighbour writes 1 into w[0..4]; the waits and tests here. */
#define GEN_P2P(T, N)                                                                          \
    static void p2p_##N(void)                                                                  \
    {                                                                                          \
        static const int status[4] = {0, 0, 1, 0};                                             \
        T *w = (T *)sym, ones[4] = {1, 1, 1, 1};                                               \
        size_t idx[4], n;                                                                      \
        int i;                                                                                 \
                                                                                               \
        for (i = 0; i < 5; i++)                                                                \
            w[i] = 0;                                                                          \
        shmem_barrier_all();                                                                   \
        PT_CHECK_EQ("shmem_test (C11, " #N ")", 0, shmem_test(&w[0], SHMEM_CMP_EQ, 1));        \
        shmem_barrier_all();                                                                   \
        for (i = 0; i < 5; i++)                                                                \
            shmem_p(&w[i], (T)1, right);                                                       \
        shmem_wait_until(&w[0], SHMEM_CMP_EQ, 1);                                              \
        PT_CHECK_EQ("shmem_wait_until (C11, " #N ")", 1, w[0]);                                \
        shmem_wait_until_all(&w[1], 4, status, SHMEM_CMP_EQ, 1);                               \
        n = shmem_wait_until_any(&w[1], 4, status, SHMEM_CMP_EQ, 1);                           \
        PT_CHECK("shmem_wait_until_any (C11, " #N ")", n < 4 && n != 2,                        \
                 "an index of the wait set");                                                  \
        n = shmem_wait_until_some(&w[1], 4, idx, status, SHMEM_CMP_EQ, 1);                     \
        PT_CHECK("shmem_wait_until_some (C11, " #N ")", n >= 1 && n <= 3, "1 to 3 indices");   \
        shmem_wait_until_all_vector(&w[1], 4, status, SHMEM_CMP_EQ, ones);                     \
        n = shmem_wait_until_any_vector(&w[1], 4, status, SHMEM_CMP_EQ, ones);                 \
        PT_CHECK("shmem_wait_until_any_vector (C11, " #N ")", n < 4 && n != 2,                 \
                 "an index of the wait set");                                                  \
        n = shmem_wait_until_some_vector(&w[1], 4, idx, status, SHMEM_CMP_EQ, ones);           \
        PT_CHECK("shmem_wait_until_some_vector (C11, " #N ")", n >= 1 && n <= 3,               \
                 "1 to 3 indices");                                                            \
        shmem_quiet();                                                                         \
        shmem_barrier_all();                                                                   \
        PT_CHECK_EQ("shmem_test (C11, " #N ")", 1, shmem_test(&w[0], SHMEM_CMP_EQ, 1));        \
        PT_CHECK_EQ("shmem_test_all (C11, " #N ")", 1,                                         \
                    shmem_test_all(&w[1], 4, NULL, SHMEM_CMP_EQ, 1));                          \
        n = shmem_test_any(&w[1], 4, status, SHMEM_CMP_EQ, 1);                                 \
        PT_CHECK("shmem_test_any (C11, " #N ")", n < 4 && n != 2, "an index of the wait set"); \
        PT_CHECK_EQ("shmem_test_some (C11, " #N ")", 3,                                        \
                    shmem_test_some(&w[1], 4, idx, status, SHMEM_CMP_EQ, 1));                  \
        PT_CHECK_EQ("shmem_test_all_vector (C11, " #N ")", 1,                                  \
                    shmem_test_all_vector(&w[1], 4, status, SHMEM_CMP_EQ, ones));              \
        n = shmem_test_any_vector(&w[1], 4, status, SHMEM_CMP_EQ, ones);                       \
        PT_CHECK("shmem_test_any_vector (C11, " #N ")", n < 4 && n != 2,                       \
                 "an index of the wait set");                                                  \
        PT_CHECK_EQ("shmem_test_some_vector (C11, " #N ")", 3,                                 \
                    shmem_test_some_vector(&w[1], 4, idx, status, SHMEM_CMP_EQ, ones));        \
        shmem_barrier_all();                                                                   \
    }
GSHMEM_P2P_TYPES(GEN_P2P)
#undef GEN_P2P

static void signals(shmem_ctx_t ctx)
{
    sig[0] = sig[1] = 0;
    shmem_barrier_all();
    shmem_signal_add(&sig[0], 1, right);
    shmem_signal_add(ctx, &sig[0], 2, right);
    shmem_signal_set(&sig[1], 5, right);
    shmem_ctx_quiet(ctx);
    PT_CHECK_EQ("shmem_signal_add (C11)", 3, shmem_signal_wait_until(&sig[0], SHMEM_CMP_EQ, 3));
    PT_CHECK_EQ("shmem_signal_set (C11)", 5, shmem_signal_wait_until(&sig[1], SHMEM_CMP_EQ, 5));
    shmem_barrier_all();
    shmem_signal_set(ctx, &sig[1], 6, right);
    shmem_ctx_quiet(ctx);
    PT_CHECK_EQ("shmem_signal_set (C11)", 6, shmem_signal_wait_until(&sig[1], SHMEM_CMP_EQ, 6));
    shmem_barrier_all();
}

/* Deprecated generic names, with long (and double for fetch/set/swap). */
static void deprecated(void)
{
    long *w = (long *)sym;
    double *d = (double *)(sym + 8 * sizeof(long));

    w[0] = w[1] = w[2] = 0;
    d[0] = d[1] = 0;
    shmem_barrier_all();
    PT_CHECK_EQ("shmem_finc (C11)", 0, shmem_finc(&w[0], right));
    shmem_inc(&w[0], right);
    PT_CHECK_EQ("shmem_fadd (C11)", 0, shmem_fadd(&w[1], 3, right));
    shmem_add(&w[1], 4, right);
    PT_CHECK_EQ("shmem_cswap (C11)", 0, shmem_cswap(&w[2], 0, 9, right));
    shmem_set(&d[0], 2.5, right);
    shmem_quiet();
    PT_CHECK_EQ("shmem_swap (C11)", 0.0, shmem_swap(&d[1], 1.5, right));
    shmem_barrier_all();
    PT_CHECK_EQ("shmem_inc (C11)", 2, w[0]);
    PT_CHECK_EQ("shmem_add (C11)", 7, w[1]);
    PT_CHECK_EQ("shmem_cswap (C11)", 9, w[2]);
    PT_CHECK_EQ("shmem_fetch (C11)", 2.5, shmem_fetch(&d[0], left));
    PT_CHECK_EQ("shmem_fetch (C11)", 1.5, shmem_fetch(&d[1], me));
    shmem_barrier_all();
}

int main(void)
{
    shmem_ctx_t ctx;

    PT_START();
    me = pt_me;
    npes = pt_npes;
    left = (me + npes - 1) % npes;
    lleft = (left + npes - 1) % npes;
    right = (me + 1) % npes;
    sym = shmem_malloc(64 * 16);
    sig = shmem_malloc(2 * sizeof(uint64_t));
    PT_CHECK("shmem_malloc", sym != NULL && sig != NULL, "the buffers");
    if (sym == NULL || sig == NULL)
        return pt_finish();
    ctx = pt_ctx_create();

#define RUN(T, N) rma_##N(ctx);
    GSHMEM_RMA_TYPES(RUN)
#undef RUN
#define RUN(T, N) amo_std_##N(ctx);
    GSHMEM_AMO_STD_TYPES(RUN)
#undef RUN
#define RUN(T, N) amo_ext_##N(ctx);
    GSHMEM_AMO_EXT_TYPES(RUN)
#undef RUN
#define RUN(T, N) amo_bit_##N(ctx);
    GSHMEM_AMO_BIT_TYPES(RUN)
#undef RUN
#define RUN(T, N) p2p_##N();
    GSHMEM_P2P_TYPES(RUN)
#undef RUN
    signals(ctx);
    deprecated();

    if (ctx != SHMEM_CTX_DEFAULT)
        shmem_ctx_destroy(ctx);
    shmem_free(sig);
    shmem_free(sym);
    return pt_finish();
}
