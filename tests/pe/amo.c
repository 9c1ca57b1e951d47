/*
 * tests/pe/amo.c - the atomic memory operations: every op of every type
 * group (standard, extended, bitwise), blocking and nonblocking, with and
 * without a context, and the deprecated names; generated from the type
 * table (GSHMEM_AMO_*_TYPES).
 *
 * All PEs hit the same words at once, so the checks are on exact totals:
 * K increments from each of N PEs leave exactly N*K, the fetched values
 * of a counter are distinct (their sum is known), one compare_swap wins a
 * race, swaps hand every value on exactly once, each PE's bit survives the
 * others' and/or/xor.
 */
#include "pe_test.h"
#include <gshmem/typetable.h>

#define K 8    /* operations per PE per target word */
#define ADDV 3 /* the add operand */
#define MAXPE 64
#define NWORDS (4 * MAXPE)

static int me, npes;
static unsigned char *sym_t; /* NWORDS T words, 8-byte aligned */
static long long *sym_acc;   /* [64]: sums of fetched values, on the target */
static int *sym_wins;        /* [64]: compare_swap winners, on the target */

/* Zero the shared words (each PE its own) and wait for everybody. */
static void reset(void)
{
    memset(sym_t, 0, NWORDS * 8);
    memset(sym_acc, 0, 64 * sizeof(long long));
    memset(sym_wins, 0, 64 * sizeof(int));
    shmem_barrier_all();
}

static void settle(shmem_ctx_t ctx)
{
    shmem_ctx_quiet(ctx);
    shmem_quiet();
    shmem_barrier_all();
}

/* ---- standard AMO types: fetch_inc, inc, fetch_add, add (+ nbi, ctx) ---- */

#if PT_SPEC >= 105
#define STD_NBI_CASES(N)                                                                       \
    case 8:                                                                                    \
        shmem_##N##_atomic_fetch_inc_nbi(&v, &w[op], pe);                                      \
        shmem_quiet();                                                                         \
        break;                                                                                 \
    case 9:                                                                                    \
        shmem_##N##_atomic_fetch_add_nbi(&v, &w[op], ADDV, pe);                                \
        shmem_quiet();                                                                         \
        break;                                                                                 \
    case 10:                                                                                   \
        shmem_ctx_##N##_atomic_fetch_inc_nbi(ctx, &v, &w[op], pe);                             \
        shmem_ctx_quiet(ctx);                                                                  \
        break;                                                                                 \
    case 11:                                                                                   \
        shmem_ctx_##N##_atomic_fetch_add_nbi(ctx, &v, &w[op], ADDV, pe);                       \
        shmem_ctx_quiet(ctx);                                                                  \
        break;
#define STD_OPS 12
#define CSWAP_NBI_CASES(T, N)                                                                  \
    case 2:                                                                                    \
        shmem_##N##_atomic_compare_swap_nbi(&v, &w[op], (T)0, (T)(me + 1), pe);                \
        shmem_quiet();                                                                         \
        break;                                                                                 \
    case 3:                                                                                    \
        shmem_ctx_##N##_atomic_compare_swap_nbi(ctx, &v, &w[op], (T)0, (T)(me + 1), pe);       \
        shmem_ctx_quiet(ctx);                                                                  \
        break;
#define CSWAP_OPS 4
#else
#define STD_NBI_CASES(N)
#define STD_OPS 8
#define CSWAP_NBI_CASES(T, N)
#define CSWAP_OPS 2
#endif

#define STD_TEST(T, N)                                                                         \
    static void std_##N(shmem_ctx_t ctx)                                                       \
    {                                                                                          \
        static const char *const name[] = {"shmem_" #N "_atomic_fetch_inc",                    \
                                           "shmem_" #N "_atomic_inc",                          \
                                           "shmem_" #N "_atomic_fetch_add",                    \
                                           "shmem_" #N "_atomic_add",                          \
                                           "shmem_ctx_" #N "_atomic_fetch_inc",                \
                                           "shmem_ctx_" #N "_atomic_inc",                      \
                                           "shmem_ctx_" #N "_atomic_fetch_add",                \
                                           "shmem_ctx_" #N "_atomic_add",                      \
                                           "shmem_" #N "_atomic_fetch_inc_nbi",                \
                                           "shmem_" #N "_atomic_fetch_add_nbi",                \
                                           "shmem_ctx_" #N "_atomic_fetch_inc_nbi",            \
                                           "shmem_ctx_" #N "_atomic_fetch_add_nbi"};           \
        static const char *const cs_name[] = {"shmem_" #N "_atomic_compare_swap",              \
                                              "shmem_ctx_" #N "_atomic_compare_swap",          \
                                              "shmem_" #N "_atomic_compare_swap_nbi",          \
                                              "shmem_ctx_" #N "_atomic_compare_swap_nbi"};     \
        static const int step[] = {1, 1, ADDV, ADDV, 1, 1, ADDV, ADDV, 1, ADDV, 1, ADDV};      \
        static const int fetches[] = {1, 0, 1, 0, 1, 0, 1, 0, 1, 1, 1, 1};                     \
        T *w = (T *)sym_t;                                                                     \
        T last[MAXPE], cs_got[CSWAP_OPS][MAXPE];                                               \
        long long m = (long long)npes * K;                                                     \
        int op, r, k;                                                                          \
                                                                                               \
        reset();                                                                               \
        for (op = 0; op < STD_OPS; op++)                                                       \
            for (r = 0; r < K; r++)                                                            \
                for (k = 0; k < npes; k++) {                                                   \
                    int pe = (me + k) % npes;                                                  \
                    T v = 0;                                                                   \
                    switch (op) {                                                              \
                    case 0: v = shmem_##N##_atomic_fetch_inc(&w[op], pe); break;               \
                    case 1: shmem_##N##_atomic_inc(&w[op], pe); break;                         \
                    case 2: v = shmem_##N##_atomic_fetch_add(&w[op], ADDV, pe); break;         \
                    case 3: shmem_##N##_atomic_add(&w[op], ADDV, pe); break;                   \
                    case 4: v = shmem_ctx_##N##_atomic_fetch_inc(ctx, &w[op], pe); break;      \
                    case 5: shmem_ctx_##N##_atomic_inc(ctx, &w[op], pe); break;                \
                    case 6: v = shmem_ctx_##N##_atomic_fetch_add(ctx, &w[op], ADDV, pe);       \
                        break;                                                                 \
                    case 7:                                                                    \
                        shmem_ctx_##N##_atomic_add(ctx, &w[op], ADDV, pe);                     \
                        break;                                                                 \
                        STD_NBI_CASES(N)                                                       \
                    }                                                                          \
                    if (!fetches[op])                                                          \
                        continue;                                                              \
                    /* a PE's fetches from one word only grow, below the total */              \
                    if (r > 0 && !(v > last[pe]))                                              \
                        PT_CHECK_EQ_F(name[op], last[pe] + step[op], v,                        \
                                      "fetch %d from PE %d (must exceed the previous)", r,     \
                                      pe);                                                     \
                    if ((long long)v >= m * step[op] || (long long)v % step[op] != 0)          \
                        PT_CHECK_EQ_F(name[op], 0, v,                                          \
                                      "fetch %d from PE %d (a multiple of %d below %lld)", r,  \
                                      pe, step[op], m *step[op]);                              \
                    last[pe] = v;                                                              \
                    shmem_longlong_atomic_add(&sym_acc[op], (long long)v, pe);                 \
                }                                                                              \
        settle(ctx);                                                                           \
        for (op = 0; op < STD_OPS; op++) {                                                     \
            PT_CHECK_EQ_F(name[op], m *step[op], w[op], "the word after %d PEs x %d ops",      \
                          npes, K);                                                            \
            if (fetches[op])                                                                   \
                PT_CHECK_EQ_F(name[op], step[op] * m * (m - 1) / 2, sym_acc[op],               \
                              "the sum of all fetched values (each one exactly once)");        \
        }                                                                                      \
                                                                                               \
        /* compare_swap race: exactly one PE swaps 0 for its id on each word */                \
        reset();                                                                               \
        for (op = 0; op < CSWAP_OPS; op++)                                                     \
            for (k = 0; k < npes; k++) {                                                       \
                int pe = (me + k) % npes;                                                      \
                T v = 0;                                                                       \
                switch (op) {                                                                  \
                case 0: v = shmem_##N##_atomic_compare_swap(&w[op], 0, (T)(me + 1), pe);       \
                    break;                                                                     \
                case 1:                                                                        \
                    v = shmem_ctx_##N##_atomic_compare_swap(ctx, &w[op], 0, (T)(me + 1), pe);  \
                    break;                                                                     \
                    CSWAP_NBI_CASES(T, N)                                                      \
                }                                                                              \
                cs_got[op][pe] = v;                                                            \
                if (v == 0)                                                                    \
                    shmem_int_atomic_inc(&sym_wins[op], pe);                                   \
            }                                                                                  \
        settle(ctx);                                                                           \
        for (op = 0; op < CSWAP_OPS; op++) {                                                   \
            PT_CHECK_EQ_F(cs_name[op], 1, sym_wins[op], "PEs that swapped 0 for their id");    \
            for (k = 0; k < npes; k++)                                                         \
                if (cs_got[op][k] != 0)                                                        \
                    PT_CHECK_EQ_F(cs_name[op], shmem_##N##_g(&w[op], k), cs_got[op][k],        \
                                  "value a losing PE fetched from PE %d (the winner's id)",    \
                                  k);                                                          \
        }                                                                                      \
        shmem_barrier_all();                                                                   \
                                                                                               \
        /* compare_swap as a lock-free increment of PE 0's word, K times each */               \
        for (r = 0; r < K; r++) {                                                              \
            T cur = shmem_##N##_atomic_fetch(&w[CSWAP_OPS], 0), got;                           \
            while ((got = shmem_##N##_atomic_compare_swap(&w[CSWAP_OPS], cur, (T)(cur + 1),    \
                                                          0)) != cur)                          \
                cur = got;                                                                     \
        }                                                                                      \
        shmem_barrier_all();                                                                   \
        if (me == 0)                                                                           \
            PT_CHECK_EQ_F("shmem_" #N "_atomic_compare_swap", m, w[CSWAP_OPS],                 \
                          "the word after %d PEs x %d retried increments", npes, K);           \
        shmem_barrier_all();                                                                   \
    }
GSHMEM_AMO_STD_TYPES(STD_TEST)
#undef STD_TEST

/* ---- extended AMO types: fetch, set, swap (+ nbi, ctx) ---- */

#if PT_SPEC >= 105
#define EXT_FETCH_NBI_CASES(N)                                                                 \
    case 2:                                                                                    \
        shmem_##N##_atomic_fetch_nbi(&v, &w[q], pe);                                           \
        shmem_quiet();                                                                         \
        break;                                                                                 \
    case 3:                                                                                    \
        shmem_ctx_##N##_atomic_fetch_nbi(ctx, &v, &w[q], pe);                                  \
        shmem_ctx_quiet(ctx);                                                                  \
        break;
#define EXT_SWAP_NBI_CASES(T, N)                                                               \
    case 2:                                                                                    \
        shmem_##N##_atomic_swap_nbi(&v, &x[op], (T)(me + 1), pe);                              \
        shmem_quiet();                                                                         \
        break;                                                                                 \
    case 3:                                                                                    \
        shmem_ctx_##N##_atomic_swap_nbi(ctx, &v, &x[op], (T)(me + 1), pe);                     \
        shmem_ctx_quiet(ctx);                                                                  \
        break;
#define EXT_NBI_OPS 4
#else
#define EXT_FETCH_NBI_CASES(N)
#define EXT_SWAP_NBI_CASES(T, N)
#define EXT_NBI_OPS 2
#endif

/* w[0..npes): set by op 0, w[npes..2npes): by op 1; x[]: swap words. */
#define EXT_TEST(T, N)                                                                         \
    static void ext_##N(shmem_ctx_t ctx)                                                       \
    {                                                                                          \
        static const char *const set_name[] = {"shmem_" #N "_atomic_set",                      \
                                               "shmem_ctx_" #N "_atomic_set"};                 \
        static const char *const fetch_name[] = {"shmem_" #N "_atomic_fetch",                  \
                                                 "shmem_ctx_" #N "_atomic_fetch",              \
                                                 "shmem_" #N "_atomic_fetch_nbi",              \
                                                 "shmem_ctx_" #N "_atomic_fetch_nbi"};         \
        static const char *const swap_name[] = {"shmem_" #N "_atomic_swap",                    \
                                                "shmem_ctx_" #N "_atomic_swap",                \
                                                "shmem_" #N "_atomic_swap_nbi",                \
                                                "shmem_ctx_" #N "_atomic_swap_nbi"};           \
        T *w = (T *)sym_t, *x = w + 2 * MAXPE;                                                 \
        int op, k, q;                                                                          \
                                                                                               \
        reset();                                                                               \
        for (k = 0; k < npes; k++) {                                                           \
            int pe = (me + k) % npes;                                                          \
            shmem_##N##_atomic_set(&w[me], (T)(me * 8 + pe + 1), pe);                          \
            shmem_ctx_##N##_atomic_set(ctx, &w[npes + me], (T)(me * 8 + pe + 2), pe);          \
        }                                                                                      \
        settle(ctx);                                                                           \
        for (op = 0; op < 2; op++)                                                             \
            for (q = 0; q < npes; q++)                                                         \
                PT_CHECK_EQ_F(set_name[op], q * 8 + me + 1 + op, w[op * npes + q],             \
                              "word set by PE %d", q);                                         \
        for (op = 0; op < EXT_NBI_OPS; op++)                                                   \
            for (k = 0; k < npes; k++)                                                         \
                for (q = 0; q < npes; q++) {                                                   \
                    int pe = (me + k) % npes;                                                  \
                    T v = 0;                                                                   \
                    switch (op) {                                                              \
                    case 0: v = shmem_##N##_atomic_fetch(&w[q], pe); break;                    \
                    case 1:                                                                    \
                        v = shmem_ctx_##N##_atomic_fetch(ctx, &w[q], pe);                      \
                        break;                                                                 \
                        EXT_FETCH_NBI_CASES(N)                                                 \
                    }                                                                          \
                    PT_CHECK_EQ_F(fetch_name[op], q * 8 + pe + 1, v,                           \
                                  "word of PE %d that PE %d set", pe, q);                      \
                }                                                                              \
        shmem_barrier_all();                                                                   \
                                                                                               \
        /* swap race: the ids and the initial 0 each come out exactly once */                  \
        for (op = 0; op < EXT_NBI_OPS; op++)                                                   \
            for (k = 0; k < npes; k++) {                                                       \
                int pe = (me + k) % npes;                                                      \
                T v = 0;                                                                       \
                switch (op) {                                                                  \
                case 0: v = shmem_##N##_atomic_swap(&x[op], (T)(me + 1), pe); break;           \
                case 1:                                                                        \
                    v = shmem_ctx_##N##_atomic_swap(ctx, &x[op], (T)(me + 1), pe);             \
                    break;                                                                     \
                    EXT_SWAP_NBI_CASES(T, N)                                                   \
                }                                                                              \
                if (!(v == 0 || (v >= 1 && v <= (T)npes && v != (T)(me + 1))))                 \
                    PT_CHECK_EQ_F(swap_name[op], 0, v,                                         \
                                  "value swapped out of PE %d (0 or another PE's id)", pe);    \
                shmem_longlong_atomic_add(&sym_acc[op], (long long)v, pe);                     \
            }                                                                                  \
        settle(ctx);                                                                           \
        for (op = 0; op < EXT_NBI_OPS; op++)                                                   \
            PT_CHECK_EQ_F(swap_name[op], (long long)npes *(npes + 1) / 2,                      \
                          sym_acc[op] + (long long)x[op],                                      \
                          "values swapped out plus the last one in");                          \
        shmem_barrier_all();                                                                   \
    }
GSHMEM_AMO_EXT_TYPES(EXT_TEST)
#undef EXT_TEST

/* ---- bitwise AMO types: and, or, xor, fetch_* (+ nbi, ctx) ---- */

enum { AND, OR, XOR };
static const int bit_kind[] = {AND, OR, XOR, AND, OR, XOR, AND, OR, XOR,
                               AND, OR, XOR, AND, OR, XOR, AND, OR, XOR};
static const int bit_fetches[] = {0, 0, 0, 1, 1, 1, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1};
#if PT_SPEC >= 105
#define BIT_OPS 18
#define BIT_NBI_CASES(N)                                                                       \
    case 12:                                                                                   \
        shmem_##N##_atomic_fetch_and_nbi(&v, &w[op], opnd, pe);                                \
        shmem_quiet();                                                                         \
        break;                                                                                 \
    case 13:                                                                                   \
        shmem_##N##_atomic_fetch_or_nbi(&v, &w[op], opnd, pe);                                 \
        shmem_quiet();                                                                         \
        break;                                                                                 \
    case 14:                                                                                   \
        shmem_##N##_atomic_fetch_xor_nbi(&v, &w[op], opnd, pe);                                \
        shmem_quiet();                                                                         \
        break;                                                                                 \
    case 15:                                                                                   \
        shmem_ctx_##N##_atomic_fetch_and_nbi(ctx, &v, &w[op], opnd, pe);                       \
        shmem_ctx_quiet(ctx);                                                                  \
        break;                                                                                 \
    case 16:                                                                                   \
        shmem_ctx_##N##_atomic_fetch_or_nbi(ctx, &v, &w[op], opnd, pe);                        \
        shmem_ctx_quiet(ctx);                                                                  \
        break;                                                                                 \
    case 17:                                                                                   \
        shmem_ctx_##N##_atomic_fetch_xor_nbi(ctx, &v, &w[op], opnd, pe);                       \
        shmem_ctx_quiet(ctx);                                                                  \
        break;
#else
#define BIT_OPS 12
#define BIT_NBI_CASES(N)
#endif

#define BIT_TEST(T, N)                                                                         \
    static void bit_##N(shmem_ctx_t ctx)                                                       \
    {                                                                                          \
        static const char *const name[] = {"shmem_" #N "_atomic_and",                          \
                                           "shmem_" #N "_atomic_or",                           \
                                           "shmem_" #N "_atomic_xor",                          \
                                           "shmem_" #N "_atomic_fetch_and",                    \
                                           "shmem_" #N "_atomic_fetch_or",                     \
                                           "shmem_" #N "_atomic_fetch_xor",                    \
                                           "shmem_ctx_" #N "_atomic_and",                      \
                                           "shmem_ctx_" #N "_atomic_or",                       \
                                           "shmem_ctx_" #N "_atomic_xor",                      \
                                           "shmem_ctx_" #N "_atomic_fetch_and",                \
                                           "shmem_ctx_" #N "_atomic_fetch_or",                 \
                                           "shmem_ctx_" #N "_atomic_fetch_xor",                \
                                           "shmem_" #N "_atomic_fetch_and_nbi",                \
                                           "shmem_" #N "_atomic_fetch_or_nbi",                 \
                                           "shmem_" #N "_atomic_fetch_xor_nbi",                \
                                           "shmem_ctx_" #N "_atomic_fetch_and_nbi",            \
                                           "shmem_ctx_" #N "_atomic_fetch_or_nbi",             \
                                           "shmem_ctx_" #N "_atomic_fetch_xor_nbi"};           \
        T *w = (T *)sym_t;                                                                     \
        T bit = (T)((T)1 << me), all = 0;                                                      \
        int op, k;                                                                             \
                                                                                               \
        for (k = 0; k < npes; k++)                                                             \
            all |= (T)((T)1 << k);                                                             \
        reset();                                                                               \
        for (op = 0; op < BIT_OPS; op++)                                                       \
            w[op] = bit_kind[op] == AND ? (T) ~(T)0 : (T)0;                                    \
        shmem_barrier_all();                                                                   \
        for (op = 0; op < BIT_OPS; op++)                                                       \
            for (k = 0; k < npes; k++) {                                                       \
                int pe = (me + k) % npes;                                                      \
                T opnd = bit_kind[op] == AND ? (T)~bit : bit;                                  \
                T v = 0;                                                                       \
                switch (op) {                                                                  \
                case 0: shmem_##N##_atomic_and(&w[op], opnd, pe); break;                       \
                case 1: shmem_##N##_atomic_or(&w[op], opnd, pe); break;                        \
                case 2: shmem_##N##_atomic_xor(&w[op], opnd, pe); break;                       \
                case 3: v = shmem_##N##_atomic_fetch_and(&w[op], opnd, pe); break;             \
                case 4: v = shmem_##N##_atomic_fetch_or(&w[op], opnd, pe); break;              \
                case 5: v = shmem_##N##_atomic_fetch_xor(&w[op], opnd, pe); break;             \
                case 6: shmem_ctx_##N##_atomic_and(ctx, &w[op], opnd, pe); break;              \
                case 7: shmem_ctx_##N##_atomic_or(ctx, &w[op], opnd, pe); break;               \
                case 8: shmem_ctx_##N##_atomic_xor(ctx, &w[op], opnd, pe); break;              \
                case 9: v = shmem_ctx_##N##_atomic_fetch_and(ctx, &w[op], opnd, pe); break;    \
                case 10: v = shmem_ctx_##N##_atomic_fetch_or(ctx, &w[op], opnd, pe); break;    \
                case 11:                                                                       \
                    v = shmem_ctx_##N##_atomic_fetch_xor(ctx, &w[op], opnd, pe);               \
                    break;                                                                     \
                    BIT_NBI_CASES(N)                                                           \
                }                                                                              \
                /* before this PE's op its own bit is still in the initial state */            \
                if (bit_fetches[op])                                                           \
                    PT_CHECK_EQ_F(name[op], bit_kind[op] == AND ? bit : (T)0, (T)(v & bit),    \
                                  "own bit of the value fetched from PE %d", pe);              \
            }                                                                                  \
        settle(ctx);                                                                           \
        for (op = 0; op < BIT_OPS; op++)                                                       \
            PT_CHECK_EQ_F(name[op], bit_kind[op] == AND ? (T)~all : all, w[op],                \
                          "the word after every PE applied its bit");                          \
        shmem_barrier_all();                                                                   \
    }
GSHMEM_AMO_BIT_TYPES(BIT_TEST)
#undef BIT_TEST

/* ---- deprecated names ---- */

#define DEPR_STD_TEST(T, N)                                                                    \
    static void depr_std_##N(void)                                                             \
    {                                                                                          \
        T *w = (T *)sym_t;                                                                     \
        long long m = (long long)npes * K;                                                     \
        int r, k;                                                                              \
                                                                                               \
        reset();                                                                               \
        for (r = 0; r < K; r++)                                                                \
            for (k = 0; k < npes; k++) {                                                       \
                int pe = (me + k) % npes;                                                      \
                T v = shmem_##N##_finc(&w[0], pe);                                             \
                shmem_longlong_atomic_add(&sym_acc[0], (long long)v, pe);                      \
                shmem_##N##_inc(&w[1], pe);                                                    \
                v = shmem_##N##_fadd(&w[2], ADDV, pe);                                         \
                shmem_longlong_atomic_add(&sym_acc[2], (long long)v, pe);                      \
                shmem_##N##_add(&w[3], ADDV, pe);                                              \
            }                                                                                  \
        for (k = 0; k < npes; k++)                                                             \
            if (shmem_##N##_cswap(&w[4], 0, (T)(me + 1), k) == 0)                              \
                shmem_int_atomic_inc(&sym_wins[4], k);                                         \
        shmem_barrier_all();                                                                   \
        PT_CHECK_EQ("shmem_" #N "_finc", m, w[0]);                                             \
        PT_CHECK_EQ("shmem_" #N "_finc", m *(m - 1) / 2, sym_acc[0]);                          \
        PT_CHECK_EQ("shmem_" #N "_inc", m, w[1]);                                              \
        PT_CHECK_EQ("shmem_" #N "_fadd", m *ADDV, w[2]);                                       \
        PT_CHECK_EQ("shmem_" #N "_fadd", ADDV *m *(m - 1) / 2, sym_acc[2]);                    \
        PT_CHECK_EQ("shmem_" #N "_add", m *ADDV, w[3]);                                        \
        PT_CHECK_EQ("shmem_" #N "_cswap", 1, sym_wins[4]);                                     \
        shmem_barrier_all();                                                                   \
    }
GSHMEM_AMO_DEPR_STD_TYPES(DEPR_STD_TEST)
#undef DEPR_STD_TEST

#define DEPR_EXT_TEST(T, N)                                                                    \
    static void depr_ext_##N(void)                                                             \
    {                                                                                          \
        T *w = (T *)sym_t;                                                                     \
        int k;                                                                                 \
                                                                                               \
        reset();                                                                               \
        for (k = 0; k < npes; k++)                                                             \
            shmem_##N##_set(&w[me], (T)(me * 8 + k + 1), k);                                   \
        shmem_barrier_all();                                                                   \
        for (k = 0; k < npes; k++)                                                             \
            PT_CHECK_EQ_F("shmem_" #N "_fetch", (me + 1) % npes * 8 + k + 1,                   \
                          shmem_##N##_fetch(&w[(me + 1) % npes], k),                           \
                          "word of PE %d set by PE %d", k, (me + 1) % npes);                   \
        for (k = 0; k < npes; k++) {                                                           \
            T v = shmem_##N##_swap(&w[MAXPE], (T)(me + 1), k);                                 \
            shmem_longlong_atomic_add(&sym_acc[0], (long long)v, k);                           \
        }                                                                                      \
        shmem_barrier_all();                                                                   \
        PT_CHECK_EQ_F("shmem_" #N "_swap", (long long)npes *(npes + 1) / 2,                    \
                      sym_acc[0] + (long long)w[MAXPE],                                        \
                      "values swapped out plus the last one in");                              \
        shmem_barrier_all();                                                                   \
    }
GSHMEM_AMO_DEPR_EXT_TYPES(DEPR_EXT_TEST)
#undef DEPR_EXT_TEST

int main(void)
{
    shmem_ctx_t ctx;

    PT_START();
    me = pt_me;
    npes = pt_npes;
    if (npes > 32) /* the bitwise test gives each PE a bit of a 32-bit word */
        return pt_skip("more than 32 PEs");
    sym_t = shmem_malloc(NWORDS * 8 + 64 * sizeof(long long) + 64 * sizeof(int));
    PT_CHECK("shmem_malloc", sym_t != NULL, "the test words");
    if (sym_t == NULL)
        return pt_finish();
    sym_acc = (long long *)(sym_t + NWORDS * 8);
    sym_wins = (int *)(sym_acc + 64);
    ctx = pt_ctx_create();

#define RUN(T, N) std_##N(ctx);
    GSHMEM_AMO_STD_TYPES(RUN)
#undef RUN
#define RUN(T, N) ext_##N(ctx);
    GSHMEM_AMO_EXT_TYPES(RUN)
#undef RUN
#define RUN(T, N) bit_##N(ctx);
    GSHMEM_AMO_BIT_TYPES(RUN)
#undef RUN
#define RUN(T, N) depr_std_##N();
    GSHMEM_AMO_DEPR_STD_TYPES(RUN)
#undef RUN
#define RUN(T, N) depr_ext_##N();
    GSHMEM_AMO_DEPR_EXT_TYPES(RUN)
#undef RUN

    if (ctx != SHMEM_CTX_DEFAULT)
        shmem_ctx_destroy(ctx);
    shmem_free(sym_t);
    return pt_finish();
}
