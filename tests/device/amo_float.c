/*
 * tests/device/amo_float.c - NVSHMEM 3.8's floating-point atomics
 * (gsd/amo_float.h): gshmemx_{float,double,half}_atomic_add and _fetch_add,
 * gshmem_half_atomic_fetch, _set and _swap, from every lane of every PE on
 * the words of every PE, then once more from host code.
 *
 *   add          every lane adds 1 (half: the two halves of one word, +1
 *                and +2 at once, so each keeps the other's updates): the
 *                totals are exact (small integers are exact in each type)
 *   fetch_add    every value fetched is INIT + k * step, k in range, and
 *                the fetched values sum to a permutation's sum
 *   half swap    the values fetched plus the final one sum to what was
 *                swapped in plus INIT; the word's other half (a constant,
 *                read by half_atomic_fetch) is untouched
 *   half set     a slot per lane, fetched back after a quiet
 * Host code: each PE adds 1 (float, double, half) to every PE's words and
 * fetch-adds; swap and set and fetch of a half, checked after a barrier.
 */
#include "dev_test.h"

#define INIT 5
#define KONST 7 /* the half next to the swap half, never changed */

/* The 8-byte words. */
enum { W_FADD, W_FFADD, W_DADD, W_DFADD, W_HADD, W_HSWAP, W_HOST, N_WORDS };

typedef struct fl_args {
    uint64_t *fails;
    uint64_t *words; /* [N_WORDS] */
    uint64_t *sets;  /* [npes][lanes] halves, a 4-byte slot each */
    uint64_t *sums;  /* [4]: fetched float, double, half, swapped half (local) */
    int me, npes;
    unsigned lanes;
} fl_args_t;

#define F(a, w) ((float *)(void *)&(a).words[w])
#define D(a, w) ((double *)(void *)&(a).words[w])
#define H(a, w) ((gshmem_half_t *)(void *)&(a).words[w])
#define HF(x) gshmemx_half_to_float(x)
#define FH(x) gshmemx_float_to_half((float)(x))
#define HB(b) HF(gshmemx_half_from_bits(b))
#define BH(x) gshmemx_half_bits(FH(x))

DT_HD unsigned long long swap_val(int p, unsigned l, unsigned lanes)
{
    return (unsigned long long)p * lanes + l + 1;
}

DT_NOINL void run(fl_args_t a, int t, unsigned l)
{
    unsigned long long n = (unsigned long long)a.npes * a.lanes;
    gshmem_half_t *slot = (gshmem_half_t *)(void *)&a.sets[(size_t)a.me * a.lanes + l];
    float f;
    double d;
    gshmem_half_t h;

    gshmemx_float_atomic_add(F(a, W_FADD), 1.0f, t);
    f = gshmemx_float_atomic_fetch_add(F(a, W_FFADD), 1.0f, t);
    DT_CHECK_TRUE(a.fails, "gshmemx_float_atomic_fetch_add", "fetched value in range", t,
                  f >= INIT && f < INIT + n && f == (float)(long long)f);
    gsd_fetch_add(&a.sums[0], (uint64_t)f);
    gshmemx_double_atomic_add(D(a, W_DADD), 1.0, t);
    d = gshmemx_double_atomic_fetch_add(D(a, W_DFADD), 1.0, t);
    DT_CHECK_TRUE(a.fails, "gshmemx_double_atomic_fetch_add", "fetched value in range", t,
                  d >= INIT && d < INIT + n && d == (double)(long long)d);
    gsd_fetch_add(&a.sums[1], (uint64_t)d);
    /* both halves of one word at once: +1 on [0], fetch_add +2 on [1] */
    gshmemx_half_atomic_add(H(a, W_HADD), FH(1), t);
    h = gshmemx_half_atomic_fetch_add(H(a, W_HADD) + 1, FH(2), t);
    DT_CHECK_TRUE(a.fails, "gshmemx_half_atomic_fetch_add", "fetched value in range", t,
                  HF(h) >= INIT && HF(h) < INIT + 2 * n && ((long long)HF(h) - INIT) % 2 == 0);
    gsd_fetch_add(&a.sums[2], (uint64_t)HF(h));
    h = gshmem_half_atomic_swap(H(a, W_HSWAP), FH(swap_val(a.me, l, a.lanes)), t);
    gsd_fetch_add(&a.sums[3], (uint64_t)HF(h));
    DT_CHECK(a.fails, "gshmem_half_atomic_fetch", "the constant half of PE", t, KONST,
             HF(gshmem_half_atomic_fetch(H(a, W_HSWAP) + 1, t)));
    gshmem_half_atomic_set(slot, FH(swap_val(a.me, l, a.lanes)), t);
    gshmem_quiet();
    DT_CHECK(a.fails, "gshmem_half_atomic_set", "slot fetched back from PE", t,
             swap_val(a.me, l, a.lanes), HF(gshmem_half_atomic_fetch(slot, t)));
}

GSHMEM_KERNEL(fl_kernel, fl_args_t, a)
{
    unsigned l = dt_lane();
    int i;

    for (i = 0; i < a.npes; i++)
        run(a, (a.me + i) % a.npes, l);
    gshmem_quiet();
}

/* The words' start values, host side. */
static void init_words(fl_args_t *a)
{
    uint64_t w[N_WORDS];
    float f = INIT;
    double d = INIT;
    uint16_t h[4]; /* halves' bits: a half has no memcpy-able C++ form */

    memset(w, 0, sizeof(w));
    memcpy(&w[W_FADD], &f, sizeof(f));
    memcpy(&w[W_FFADD], &f, sizeof(f));
    memcpy(&w[W_DADD], &d, sizeof(d));
    memcpy(&w[W_DFADD], &d, sizeof(d));
    h[0] = h[1] = BH(INIT);
    h[2] = h[3] = BH(0);
    memcpy(&w[W_HADD], h, sizeof(h));
    h[0] = BH(INIT);
    h[1] = BH(KONST);
    memcpy(&w[W_HSWAP], h, sizeof(h));
    memcpy(&w[W_HOST], &f, sizeof(f));
    dt_to_dev(a->words, w, sizeof(w));
}

/* Sum over all PEs of this PE's x (host collective on host memory). */
static unsigned long long all_sum(unsigned long long x)
{
    static unsigned long long *src, *dst;
    unsigned long long r;

    if (!src) {
        src = (unsigned long long *)shmem_malloc(2 * sizeof(*src));
        dst = src + 1;
    }
    *src = x;
    shmem_barrier_all();
    shmem_ulonglong_sum_reduce(SHMEM_TEAM_WORLD, dst, src, 1);
    r = *dst;
    shmem_barrier_all();
    return r;
}

/* The permutation sum of INIT, INIT + step, ..., INIT + (n - 1) step. */
static unsigned long long perm(unsigned long long n, unsigned step)
{
    return n * INIT + step * n * (n - 1) / 2;
}

static void check_kernel_run(fl_args_t *a)
{
    unsigned long long n = (unsigned long long)a->npes * a->lanes, s = 0;
    uint64_t w[N_WORDS], sums[4];
    float f;
    double d;
    uint16_t h[4]; /* halves' bits: a half has no memcpy-able C++ form */
    int i;

    dt_from_dev(w, a->words, sizeof(w));
    dt_from_dev(sums, a->sums, sizeof(sums));
    memcpy(&f, &w[W_FADD], sizeof(f));
    PT_CHECK_EQ_F("gshmemx_float_atomic_add", INIT + n, (unsigned long long)f, "total");
    memcpy(&f, &w[W_FFADD], sizeof(f));
    PT_CHECK_EQ_F("gshmemx_float_atomic_fetch_add", INIT + n, (unsigned long long)f, "total");
    memcpy(&d, &w[W_DADD], sizeof(d));
    PT_CHECK_EQ_F("gshmemx_double_atomic_add", INIT + n, (unsigned long long)d, "total");
    memcpy(&d, &w[W_DFADD], sizeof(d));
    PT_CHECK_EQ_F("gshmemx_double_atomic_fetch_add", INIT + n, (unsigned long long)d, "total");
    memcpy(h, &w[W_HADD], sizeof(h));
    PT_CHECK_EQ_F("gshmemx_half_atomic_add", INIT + n, (unsigned long long)HB(h[0]), "total");
    PT_CHECK_EQ_F("gshmemx_half_atomic_fetch_add", INIT + 2 * n, (unsigned long long)HB(h[1]),
                  "total of the word's other half");
    PT_CHECK_EQ_F("gshmemx_half_atomic_add", 0, (unsigned long long)HB(h[2]) + HB(h[3]),
                  "the next word untouched");
    /* each PE's word gave every PE's lanes a permutation */
    PT_CHECK_EQ_F("gshmemx_float_atomic_fetch_add", perm(n, 1) * a->npes, all_sum(sums[0]),
                  "sum of the values fetched over all PEs");
    PT_CHECK_EQ_F("gshmemx_double_atomic_fetch_add", perm(n, 1) * a->npes, all_sum(sums[1]),
                  "sum of the values fetched over all PEs");
    PT_CHECK_EQ_F("gshmemx_half_atomic_fetch_add", perm(n, 2) * a->npes, all_sum(sums[2]),
                  "sum of the values fetched over all PEs");
    memcpy(h, &w[W_HSWAP], sizeof(h));
    PT_CHECK_EQ_F("gshmem_half_atomic_swap", KONST, (unsigned long long)HB(h[1]),
                  "the word's other half");
    /* every lane of every PE swapped swap_val(p, l) into each PE's half */
    for (i = 0; i < a->npes; i++)
        s += swap_val(i, 0, a->lanes) * a->lanes + a->lanes * (a->lanes - 1) / 2;
    PT_CHECK_EQ_F("gshmem_half_atomic_swap", (s + INIT) * a->npes,
                  all_sum(sums[3]) + all_sum((unsigned long long)HB(h[0])),
                  "values fetched over all PEs plus the final ones");
}

/* Host code calls the same names (NVSHMEM's are __host__ __device__). */
static void host_calls(fl_args_t *a)
{
    uint64_t w[N_WORDS];
    float f;
    double d;
    uint16_t h[4]; /* halves' bits: a half has no memcpy-able C++ form */
    int t;

    init_words(a);
    shmem_barrier_all();
    for (t = 0; t < a->npes; t++) {
        gshmemx_float_atomic_add(F(*a, W_FADD), 1.0f, t);
        gshmemx_double_atomic_fetch_add(D(*a, W_DFADD), 0.5, t);
        gshmemx_half_atomic_add(H(*a, W_HADD), FH(1), t);
        gshmemx_half_atomic_fetch_add(H(*a, W_HADD) + 1, FH(0.5), t);
    }
    if (a->me == 0)
        for (t = 0; t < a->npes; t++) {
            PT_CHECK_EQ_F("gshmem_half_atomic_swap (host)", INIT,
                          (long long)HF(gshmem_half_atomic_swap(H(*a, W_HSWAP), FH(9), t)),
                          "the old value");
            gshmem_half_atomic_set(H(*a, W_HSWAP) + 2, FH(11), t);
            PT_CHECK_EQ_F("gshmem_half_atomic_fetch (host)", KONST,
                          (long long)HF(gshmem_half_atomic_fetch(H(*a, W_HSWAP) + 1, t)),
                          "the constant half");
            PT_CHECK_EQ_F("gshmemx_float_atomic_fetch_add (host)", INIT,
                          (long long)gshmemx_float_atomic_fetch_add(F(*a, W_HOST), 2.0f, t),
                          "the old value");
        }
    shmem_barrier_all();
    dt_from_dev(w, a->words, sizeof(w));
    memcpy(&f, &w[W_FADD], sizeof(f));
    PT_CHECK_EQ_F("gshmemx_float_atomic_add (host)", INIT + a->npes, (long long)f, "total");
    memcpy(&d, &w[W_DFADD], sizeof(d));
    PT_CHECK_EQ_F("gshmemx_double_atomic_fetch_add (host)", (INIT * 2 + a->npes),
                  (long long)(d * 2), "twice the total");
    memcpy(h, &w[W_HADD], sizeof(h));
    PT_CHECK_EQ_F("gshmemx_half_atomic_add (host)", INIT + a->npes, (long long)HB(h[0]),
                  "total");
    PT_CHECK_EQ_F("gshmemx_half_atomic_fetch_add (host)", INIT * 2 + a->npes,
                  (long long)(HB(h[1]) * 2), "twice the total");
    memcpy(h, &w[W_HSWAP], sizeof(h));
    PT_CHECK_EQ_F("gshmem_half_atomic_swap (host)", 9, (long long)HB(h[0]), "the new value");
    PT_CHECK_EQ_F("gshmem_half_atomic_set (host)", 11, (long long)HB(h[2]), "the new value");
    memcpy(&f, &w[W_HOST], sizeof(f));
    PT_CHECK_EQ_F("gshmemx_float_atomic_fetch_add (host)", INIT + 2, (long long)f, "total");
}

int main(void)
{
    fl_args_t a;

    dt_start();
    a.fails = dt_fails;
    a.me = dt_me;
    a.npes = dt_npes;
    a.lanes = DT_BLOCKS * dt_threads();
    a.words = (uint64_t *)dt_malloc(N_WORDS * sizeof(uint64_t));
    a.sets = (uint64_t *)dt_malloc((size_t)dt_npes * a.lanes * sizeof(uint64_t));
    a.sums = (uint64_t *)dt_malloc(4 * sizeof(uint64_t));
    dt_fill(a.sums, 0, 4 * sizeof(uint64_t));
    dt_fill(a.sets, 0, (size_t)dt_npes * a.lanes * sizeof(uint64_t));
    init_words(&a);
    shmem_barrier_all();
    DT_LAUNCH(fl_kernel, DT_BLOCKS, dt_threads(), a);
    shmem_barrier_all();
    check_kernel_run(&a);
    shmem_barrier_all();
    host_calls(&a);
    shmem_barrier_all();
    gshmem_free(a.sums);
    gshmem_free(a.sets);
    gshmem_free(a.words);
    return dt_finish();
}
