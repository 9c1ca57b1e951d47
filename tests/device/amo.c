/*
 * tests/device/amo.c - every device AMO over every type of its family
 * (gshmem/typetable.h: GSHMEM_AMO_STD_TYPES for add, fetch_add, inc,
 * fetch_inc and compare_swap; GSHMEM_AMO_EXT_TYPES for fetch, set and swap;
 * GSHMEM_AMO_BIT_TYPES for and, or, xor and their fetch forms), with
 * concurrency: every lane of every PE works on the same word of every PE.
 *
 *   add, inc, compare_swap   exact totals (compare_swap: an increment loop
 *                            by a few lanes per PE)
 *   fetch_add, fetch_inc     exact totals; every value fetched is in range
 *                            and the fetched values sum to what a
 *                            permutation of init .. init+N-1 sums to
 *   swap                     the values fetched plus the final one sum to
 *                            what was swapped in plus the initial value
 *   fetch                    a word nobody changes
 *   set                      a word per lane, fetched back after a quiet
 *   and, or, xor (+ fetch)   each lane clears / sets / flips one bit
 * Then a hammer: every lane of every PE fetch_incs one word on PE 0 and
 * adds to one word on the last PE, K times each.
 */
#include "dev_test.h"

#include <gshmem/typetable.h>

/* One 8-byte word per (type, op): the combos. */
/* clang-format off: an X-macro list clang-format 14 indents as a staircase */
enum {
#define C_STD(T, N)                                                                            \
    C_##N##_add, C_##N##_fetch_add, C_##N##_inc, C_##N##_fetch_inc, C_##N##_cswap,
    GSHMEM_AMO_STD_TYPES(C_STD)
#undef C_STD
#define C_EXT(T, N) C_##N##_fetch, C_##N##_swap, C_##N##_set,
        GSHMEM_AMO_EXT_TYPES(C_EXT)
#undef C_EXT
#define C_BIT(T, N)                                                                            \
    C_##N##_and, C_##N##_or, C_##N##_xor, C_##N##_fetch_and, C_##N##_fetch_or,                 \
        C_##N##_fetch_xor,
            GSHMEM_AMO_BIT_TYPES(C_BIT)
#undef C_BIT
                N_COMBO
};
/* clang-format on */

#define INIT 5      /* initial value of the counting words */
#define CAS_LANES 4 /* lanes per PE that run the compare_swap loop */
#define CAS_K 3     /* increments each of them makes per target */
#define HAMMER_K 16

typedef struct amo_args {
    uint64_t *fails;
    uint64_t *words;  /* [N_COMBO] */
    uint64_t *sets;   /* [N_COMBO][npes][lanes]: the set words */
    uint64_t *sums;   /* [N_COMBO]: this PE's sum of the values fetched (local) */
    uint64_t *hammer; /* [2] */
    int me, npes;
    unsigned lanes; /* per PE */
} amo_args_t;

#define WORD(a, c, T) ((T *)(void *)&(a).words[c])
#define SUM(a, c, x) gsd_fetch_add(&(a).sums[c], (uint64_t)(int64_t)(x))

/* The bit lane l of PE p owns in a word of `bits` bits. */
DT_HD unsigned bit_of(int p, unsigned l, unsigned bits)
{
    return ((unsigned)p * 7u + l) % bits;
}
/* What lane l of PE p swaps in: 1 .. N, distinct. */
DT_HD long long swap_val(int p, unsigned l, unsigned lanes)
{
    return (long long)p * lanes + l + 1;
}
DT_HD unsigned add_val(unsigned l)
{
    return l % 3 + 1;
}

/* ---- the kernel: every lane, every target, every combo ------------------ */

#define RUN_STD(T, N)                                                                          \
    DT_NOINL void run_std_##N(amo_args_t a, int t, unsigned l)                                 \
    {                                                                                          \
        unsigned long long n = (unsigned long long)a.npes * a.lanes;                           \
        T x;                                                                                   \
        int k;                                                                                 \
                                                                                               \
        gshmem_##N##_atomic_add(WORD(a, C_##N##_add, T), (T)add_val(l), t);                    \
        x = gshmem_##N##_atomic_fetch_add(WORD(a, C_##N##_fetch_add, T), (T)1, t);             \
        DT_CHECK_TRUE(a.fails, "gshmem_" #N "_atomic_fetch_add", "fetched value in range", t,  \
                      (long long)x >= INIT && (unsigned long long)(long long)x < INIT + n);    \
        SUM(a, C_##N##_fetch_add, x);                                                          \
        gshmem_##N##_atomic_inc(WORD(a, C_##N##_inc, T), t);                                   \
        x = gshmem_##N##_atomic_fetch_inc(WORD(a, C_##N##_fetch_inc, T), t);                   \
        DT_CHECK_TRUE(a.fails, "gshmem_" #N "_atomic_fetch_inc", "fetched value in range", t,  \
                      (long long)x >= INIT && (unsigned long long)(long long)x < INIT + n);    \
        SUM(a, C_##N##_fetch_inc, x);                                                          \
        if (l < CAS_LANES)                                                                     \
            for (k = 0; k < CAS_K; k++) {                                                      \
                T cur = (T)INIT, got;                                                          \
                                                                                               \
                while ((got = gshmem_##N##_atomic_compare_swap(WORD(a, C_##N##_cswap, T), cur, \
                                                               (T)(cur + 1), t)) != cur)       \
                    cur = got;                                                                 \
            }                                                                                  \
    }
GSHMEM_AMO_STD_TYPES(RUN_STD)
#undef RUN_STD

#define RUN_EXT(T, N)                                                                          \
    DT_NOINL void run_ext_##N(amo_args_t a, int t, unsigned l)                                 \
    {                                                                                          \
        T *s = (T *)(void *)&a.sets[((size_t)C_##N##_set * a.npes + a.me) * a.lanes + l];      \
        T x, v = (T)swap_val(a.me, l, a.lanes);                                                \
                                                                                               \
        x = gshmem_##N##_atomic_fetch(WORD(a, C_##N##_fetch, T), t);                           \
        DT_CHECK(a.fails, "gshmem_" #N "_atomic_fetch", "the constant word of PE", t,          \
                 (T)(C_##N##_fetch % 50 + 7), x);                                              \
        x = gshmem_##N##_atomic_swap(WORD(a, C_##N##_swap, T), v, t);                          \
        SUM(a, C_##N##_swap, x);                                                               \
        gshmem_##N##_atomic_set(s, v, t);                                                      \
        gshmem_quiet();                                                                        \
        DT_CHECK(a.fails, "gshmem_" #N "_atomic_set", "the lane's word, fetched from PE", t,   \
                 v, gshmem_##N##_atomic_fetch(s, t));                                          \
    }
GSHMEM_AMO_EXT_TYPES(RUN_EXT)
#undef RUN_EXT

#define RUN_BIT(T, N)                                                                          \
    DT_NOINL void run_bit_##N(amo_args_t a, int t, unsigned l)                                 \
    {                                                                                          \
        T m = (T)((uint64_t)1 << bit_of(a.me, l, 8 * sizeof(T)));                              \
                                                                                               \
        gshmem_##N##_atomic_and(WORD(a, C_##N##_and, T), (T)~m, t);                            \
        gshmem_##N##_atomic_or(WORD(a, C_##N##_or, T), m, t);                                  \
        gshmem_##N##_atomic_xor(WORD(a, C_##N##_xor, T), m, t);                                \
        (void)gshmem_##N##_atomic_fetch_and(WORD(a, C_##N##_fetch_and, T), (T)~m, t);          \
        (void)gshmem_##N##_atomic_fetch_or(WORD(a, C_##N##_fetch_or, T), m, t);                \
        (void)gshmem_##N##_atomic_fetch_xor(WORD(a, C_##N##_fetch_xor, T), m, t);              \
    }
GSHMEM_AMO_BIT_TYPES(RUN_BIT)
#undef RUN_BIT

GSHMEM_KERNEL(amo_kernel, amo_args_t, a)
{
    unsigned l = dt_lane();
    int i, t;

    for (i = 0; i < a.npes; i++) {
        t = (a.me + i) % a.npes; /* every PE, starting at a different one */
#define CALL_STD(T, N) run_std_##N(a, t, l);
        GSHMEM_AMO_STD_TYPES(CALL_STD)
#undef CALL_STD
#define CALL_EXT(T, N) run_ext_##N(a, t, l);
        GSHMEM_AMO_EXT_TYPES(CALL_EXT)
#undef CALL_EXT
#define CALL_BIT(T, N) run_bit_##N(a, t, l);
        GSHMEM_AMO_BIT_TYPES(CALL_BIT)
#undef CALL_BIT
    }
    for (i = 0; i < HAMMER_K; i++) {
        uint64_t x = gshmem_uint64_atomic_fetch_inc(&a.hammer[0], 0);

        DT_CHECK_TRUE(a.fails, "gshmem_uint64_atomic_fetch_inc", "hammer value in range", i,
                      x < (uint64_t)HAMMER_K * a.npes * a.lanes);
        gshmem_int_atomic_add((int *)(void *)&a.hammer[1], 3, a.npes - 1);
    }
    gshmem_quiet();
}

/* ---- set up, and check the words once everyone is done ----------------- */

GSHMEM_KERNEL(init_kernel, amo_args_t, a)
{
    int c;

    for (c = 0; c < N_COMBO; c++)
        a.words[c] = 0;
#define INIT_STD(T, N)                                                                         \
    *WORD(a, C_##N##_add, T) = (T)INIT;                                                        \
    *WORD(a, C_##N##_fetch_add, T) = (T)INIT;                                                  \
    *WORD(a, C_##N##_inc, T) = (T)INIT;                                                        \
    *WORD(a, C_##N##_fetch_inc, T) = (T)INIT;                                                  \
    *WORD(a, C_##N##_cswap, T) = (T)INIT;
    GSHMEM_AMO_STD_TYPES(INIT_STD)
#undef INIT_STD
#define INIT_EXT(T, N) *WORD(a, C_##N##_fetch, T) = (T)(C_##N##_fetch % 50 + 7);
    GSHMEM_AMO_EXT_TYPES(INIT_EXT)
#undef INIT_EXT
#define INIT_BIT(T, N)                                                                         \
    *WORD(a, C_##N##_and, T) = (T) ~(T)0;                                                      \
    *WORD(a, C_##N##_fetch_and, T) = (T) ~(T)0;
    GSHMEM_AMO_BIT_TYPES(INIT_BIT)
#undef INIT_BIT
    a.hammer[0] = a.hammer[1] = 0;
    gshmem_quiet();
}

GSHMEM_KERNEL(check_kernel, amo_args_t, a)
{
    unsigned long long n = (unsigned long long)a.npes * a.lanes, adds = 0, cas;
    unsigned l;
    int p;

    for (l = 0; l < a.lanes; l++)
        adds += add_val(l);
    adds *= (unsigned long long)a.npes;
    cas = (unsigned long long)a.npes * (a.lanes < CAS_LANES ? a.lanes : CAS_LANES) * CAS_K;
#define CHECK_STD(T, N)                                                                        \
    DT_CHECK(a.fails, "gshmem_" #N "_atomic_add", "final word", 0, (T)(INIT + adds),           \
             *WORD(a, C_##N##_add, T));                                                        \
    DT_CHECK(a.fails, "gshmem_" #N "_atomic_fetch_add", "final word", 0, (T)(INIT + n),        \
             *WORD(a, C_##N##_fetch_add, T));                                                  \
    DT_CHECK(a.fails, "gshmem_" #N "_atomic_inc", "final word", 0, (T)(INIT + n),              \
             *WORD(a, C_##N##_inc, T));                                                        \
    DT_CHECK(a.fails, "gshmem_" #N "_atomic_fetch_inc", "final word", 0, (T)(INIT + n),        \
             *WORD(a, C_##N##_fetch_inc, T));                                                  \
    DT_CHECK(a.fails, "gshmem_" #N "_atomic_compare_swap", "final word", 0, (T)(INIT + cas),   \
             *WORD(a, C_##N##_cswap, T));
    GSHMEM_AMO_STD_TYPES(CHECK_STD)
#undef CHECK_STD
#define CHECK_EXT(T, N)                                                                        \
    DT_CHECK(a.fails, "gshmem_" #N "_atomic_fetch", "constant word", 0,                        \
             (T)(C_##N##_fetch % 50 + 7), *WORD(a, C_##N##_fetch, T));                         \
    SUM(a, C_##N##_swap, *WORD(a, C_##N##_swap, T)); /* the last value swapped in */           \
    for (p = 0; p < a.npes; p++)                                                               \
        for (l = 0; l < a.lanes; l++)                                                          \
            DT_CHECK(a.fails, "gshmem_" #N "_atomic_set", "the word of PE*65536+lane",         \
                     p * 65536 + l, (T)swap_val(p, l, a.lanes),                                \
                     *(T *)(void *)&a.sets[((size_t)C_##N##_set * a.npes + p) * a.lanes + l]);
    GSHMEM_AMO_EXT_TYPES(CHECK_EXT)
#undef CHECK_EXT
#define CHECK_BIT(T, N)                                                                        \
    {                                                                                          \
        T m = 0, x = 0;                                                                        \
        for (p = 0; p < a.npes; p++)                                                           \
            for (l = 0; l < a.lanes; l++) {                                                    \
                T b = (T)((uint64_t)1 << bit_of(p, l, 8 * sizeof(T)));                         \
                m = (T)(m | b);                                                                \
                x = (T)(x ^ b);                                                                \
            }                                                                                  \
        DT_CHECK(a.fails, "gshmem_" #N "_atomic_and", "final word", 0, (T)~m,                  \
                 *WORD(a, C_##N##_and, T));                                                    \
        DT_CHECK(a.fails, "gshmem_" #N "_atomic_fetch_and", "final word", 0, (T)~m,            \
                 *WORD(a, C_##N##_fetch_and, T));                                              \
        DT_CHECK(a.fails, "gshmem_" #N "_atomic_or", "final word", 0, m,                       \
                 *WORD(a, C_##N##_or, T));                                                     \
        DT_CHECK(a.fails, "gshmem_" #N "_atomic_fetch_or", "final word", 0, m,                 \
                 *WORD(a, C_##N##_fetch_or, T));                                               \
        DT_CHECK(a.fails, "gshmem_" #N "_atomic_xor", "final word", 0, x,                      \
                 *WORD(a, C_##N##_xor, T));                                                    \
        DT_CHECK(a.fails, "gshmem_" #N "_atomic_fetch_xor", "final word", 0, x,                \
                 *WORD(a, C_##N##_fetch_xor, T));                                              \
    }
    GSHMEM_AMO_BIT_TYPES(CHECK_BIT)
#undef CHECK_BIT
    if (a.me == 0)
        DT_CHECK(a.fails, "gshmem_uint64_atomic_fetch_inc", "hammer word on PE 0", 0,
                 (unsigned long long)HAMMER_K * n, a.hammer[0]);
    if (a.me == a.npes - 1)
        DT_CHECK(a.fails, "gshmem_int_atomic_add", "hammer word on the last PE", 0,
                 3ll * HAMMER_K * (long long)n, *(int *)(void *)&a.hammer[1]);
}

/* The combos whose fetched values are summed, and what the sum over all
 * PEs must be: fetch_add and fetch_inc fetch each of INIT .. INIT+N-1 once
 * per target; swap fetches each value but the last, which check_kernel adds. */
static int summed(int c, unsigned long long n, int npes, unsigned long long *want)
{
    switch (c) {
#define SUM_STD(T, N)                                                                          \
    case C_##N##_fetch_add:                                                                    \
    case C_##N##_fetch_inc:                                                                    \
        *want = (unsigned long long)npes * (n * INIT + n * (n - 1) / 2);                       \
        return 1;
        GSHMEM_AMO_STD_TYPES(SUM_STD)
#undef SUM_STD
#define SUM_EXT(T, N)                                                                          \
    case C_##N##_swap: *want = (unsigned long long)npes * (n * (n + 1) / 2); return 1;
        GSHMEM_AMO_EXT_TYPES(SUM_EXT)
#undef SUM_EXT
    }
    return 0;
}

static const char *const combo_name[N_COMBO] = {
#define N_STD(T, N)                                                                            \
    "gshmem_" #N "_atomic_add", "gshmem_" #N "_atomic_fetch_add", "gshmem_" #N "_atomic_inc",  \
        "gshmem_" #N "_atomic_fetch_inc", "gshmem_" #N "_atomic_compare_swap",
    GSHMEM_AMO_STD_TYPES(N_STD)
#undef N_STD
#define N_EXT(T, N)                                                                            \
    "gshmem_" #N "_atomic_fetch", "gshmem_" #N "_atomic_swap", "gshmem_" #N "_atomic_set",
        GSHMEM_AMO_EXT_TYPES(N_EXT)
#undef N_EXT
#define N_BIT(T, N)                                                                            \
    "gshmem_" #N "_atomic_and", "gshmem_" #N "_atomic_or", "gshmem_" #N "_atomic_xor",         \
        "gshmem_" #N "_atomic_fetch_and", "gshmem_" #N "_atomic_fetch_or",                     \
        "gshmem_" #N "_atomic_fetch_xor",
            GSHMEM_AMO_BIT_TYPES(N_BIT)
#undef N_BIT
};

int main(void)
{
    unsigned threads = 32;
    unsigned long long n, want;
    uint64_t *h_sum, *tot, *loc;
    amo_args_t a;
    int c;

    dt_start();
    a.fails = dt_fails;
    a.me = dt_me;
    a.npes = dt_npes;
    a.lanes = threads;
    n = (unsigned long long)dt_npes * threads;
    a.words = (uint64_t *)dt_malloc(N_COMBO * sizeof(uint64_t));
    a.sets = (uint64_t *)dt_malloc((size_t)N_COMBO * dt_npes * threads * sizeof(uint64_t));
    a.sums = (uint64_t *)dt_malloc(N_COMBO * sizeof(uint64_t));
    a.hammer = (uint64_t *)dt_malloc(2 * sizeof(uint64_t));
    dt_fill(a.sums, 0, N_COMBO * sizeof(uint64_t));
    dt_fill(a.sets, 0, (size_t)N_COMBO * dt_npes * threads * sizeof(uint64_t));
    DT_LAUNCH(init_kernel, 1, 1, a);
    shmem_barrier_all();
    DT_LAUNCH(amo_kernel, 1, threads, a);
    shmem_barrier_all();
    DT_LAUNCH(check_kernel, 1, 1, a);

    /* the fetched sums, over all PEs (host collectives on host memory) */
    h_sum = (uint64_t *)dt_copy_back(a.sums, N_COMBO * sizeof(uint64_t));
    loc = (uint64_t *)shmem_malloc(N_COMBO * sizeof(uint64_t));
    tot = (uint64_t *)shmem_malloc(N_COMBO * sizeof(uint64_t));
    memcpy(loc, h_sum, N_COMBO * sizeof(uint64_t));
    shmem_barrier_all();
    shmem_uint64_sum_reduce(SHMEM_TEAM_WORLD, tot, loc, N_COMBO);
    for (c = 0; c < N_COMBO; c++)
        if (summed(c, n, dt_npes, &want))
            PT_CHECK_EQ_F(combo_name[c], want, (unsigned long long)tot[c],
                          "sum of the values fetched over all PEs (and the final one: swap)");
    free(h_sum);
    shmem_barrier_all();
    shmem_free(tot);
    shmem_free(loc);
    gshmem_free(a.hammer);
    gshmem_free(a.sums);
    gshmem_free(a.sets);
    gshmem_free(a.words);
    return dt_finish();
}
