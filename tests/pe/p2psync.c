/*
 * tests/pe/p2psync.c - point-to-point synchronization: wait_until with every
 * comparison, wait_until_{all,any,some}[_vector] with status masks, test and
 * test_{all,any,some}[_vector], for every type of the p2p table (short and
 * unsigned short included, GSHMEM_P2P_TYPES), and the deprecated shmem_wait,
 * shmem_TYPENAME_wait and shmem_wait_until.
 *
 * The left neighbour writes a known pattern into this PE's ivars.  Round A
 * checks test* before the writes (nothing satisfied), then after a barrier
 * (deterministic answers), then runs the waits, which must return at once.
 * Round B waits while the writes are in flight, so the waits really block.
 * Elements X1 and X2 are masked out by `status` and written values that
 * would change the answer if the mask were ignored.
 */
#include "pe_test.h"
#include <gshmem/typetable.h>
#include <stdint.h>

#define NV 8
#define X1 1
#define X2 5

/* regions of NV ivars each */
enum { R_ALL, R_ANY, R_SOME, R_ALLV, R_ANYV, R_SOMEV, R_CMP, NREG };

static int me, npes, right;
static unsigned char *sym_iv; /* NREG * NV elements of up to 8 bytes */
static const int status[NV] = {0, 1, 0, 0, 0, 1, 0, 0};
static const int all_masked[NV] = {1, 1, 1, 1, 1, 1, 1, 1};

/* wait_until / test with each comparison: ivars of region R_CMP start at
 * cmp_init and become 10. */
static const int cmps[6] = {SHMEM_CMP_EQ, SHMEM_CMP_NE, SHMEM_CMP_GT,
                            SHMEM_CMP_GE, SHMEM_CMP_LT, SHMEM_CMP_LE};
static const char *const cmp_text[6] = {"EQ 10", "NE 0", "GT 9", "GE 10", "LT 50", "LE 10"};
static const int cmp_init[6] = {0, 0, 0, 0, 100, 100};
static const int cmp_value[6] = {10, 0, 9, 10, 50, 10};

/* What the left neighbour writes: element i of region r, or -1 for none. */
static int pattern(int r, int i)
{
    int masked = i == X1 || i == X2;

    switch (r) {
    case R_ALL: return masked ? 99 : 10;
    case R_ANY: return (i == X1 || i == 6) ? 10 : -1;
    case R_SOME: return (i == X2 || i == 2 || i == 6) ? 10 : -1;
    case R_ALLV: return masked ? 99 : 20 + i;
    case R_ANYV: return (i == X1 || i == 6) ? 20 + i : -1;
    case R_SOMEV: return (i == X2 || i == 2 || i == 6) ? 20 + i : -1;
    default: return i < 6 ? 10 : -1;
    }
}

/* `n` indices from wait/test_some: each must be 2 or 6, no repeats. */
static void check_some(const char *routine, size_t n, const size_t *idx, size_t at_least)
{
    size_t k, seen2 = 0, seen6 = 0;

    if (n < at_least || n > 2)
        PT_CHECK_EQ_F(routine, at_least, n, "number of indices returned (2 and 6 satisfy)");
    for (k = 0; k < n && k < 2; k++) {
        if (idx[k] == 2)
            seen2++;
        else if (idx[k] == 6)
            seen6++;
        else
            PT_CHECK_EQ_F(routine, 6, idx[k], "indices[%zu] (only 2 and 6 satisfy)", k);
    }
    PT_CHECK(routine, seen2 <= 1 && seen6 <= 1, "no index returned twice");
}

#define P2P_TEST(T, N)                                                                         \
    static void p2p_##N(int blocking)                                                          \
    {                                                                                          \
        T *iv = (T *)sym_iv;                                                                   \
        T *all = iv + R_ALL * NV, *any = iv + R_ANY * NV, *some = iv + R_SOME * NV;            \
        T *allv = iv + R_ALLV * NV, *anyv = iv + R_ANYV * NV, *somev = iv + R_SOMEV * NV;      \
        T *cmpw = iv + R_CMP * NV;                                                             \
        T vec[NV];                                                                             \
        size_t idx[NV], n;                                                                     \
        int r, i, c;                                                                           \
                                                                                               \
        for (i = 0; i < NV; i++)                                                               \
            vec[i] = (T)(20 + i);                                                              \
        for (r = 0; r < NREG; r++)                                                             \
            for (i = 0; i < NV; i++)                                                           \
                iv[r * NV + i] = (T)(r == R_CMP && i < 6 ? cmp_init[i] : 0);                   \
        shmem_barrier_all();                                                                   \
        if (!blocking) {                                                                       \
            /* nothing written yet: nothing satisfied */                                       \
            PT_CHECK_EQ("shmem_" #N "_test_all", 0,                                            \
                        shmem_##N##_test_all(all, NV, status, SHMEM_CMP_EQ, 10));              \
            PT_CHECK_EQ("shmem_" #N "_test_any", SIZE_MAX,                                     \
                        shmem_##N##_test_any(any, NV, status, SHMEM_CMP_EQ, 10));              \
            PT_CHECK_EQ("shmem_" #N "_test_some", 0,                                           \
                        shmem_##N##_test_some(some, NV, idx, status, SHMEM_CMP_EQ, 10));       \
            PT_CHECK_EQ("shmem_" #N "_test_all_vector", 0,                                     \
                        shmem_##N##_test_all_vector(allv, NV, status, SHMEM_CMP_EQ, vec));     \
            PT_CHECK_EQ("shmem_" #N "_test_any_vector", SIZE_MAX,                              \
                        shmem_##N##_test_any_vector(anyv, NV, status, SHMEM_CMP_EQ, vec));     \
            PT_CHECK_EQ("shmem_" #N "_test_some_vector", 0,                                    \
                        shmem_##N##_test_some_vector(somev, NV, idx, status, SHMEM_CMP_EQ,     \
                                                     vec));                                    \
            for (c = 0; c < 6; c++)                                                            \
                PT_CHECK_EQ_F("shmem_" #N "_test", 0,                                          \
                              shmem_##N##_test(&cmpw[c], cmps[c], (T)cmp_value[c]),            \
                              "test SHMEM_CMP_%s before the write", cmp_text[c]);              \
            shmem_barrier_all();                                                               \
        }                                                                                      \
        for (r = 0; r < NREG; r++)                                                             \
            for (i = 0; i < NV; i++)                                                           \
                if (pattern(r, i) >= 0)                                                        \
                    shmem_##N##_p(&iv[r * NV + i], (T)pattern(r, i), right);                   \
        shmem_quiet();                                                                         \
        if (!blocking) {                                                                       \
            shmem_barrier_all();                                                               \
            /* every write has landed: the answers are known */                                \
            PT_CHECK_EQ("shmem_" #N "_test_all", 1,                                            \
                        shmem_##N##_test_all(all, NV, status, SHMEM_CMP_EQ, 10));              \
            PT_CHECK_EQ_F("shmem_" #N "_test_all", 0,                                          \
                          shmem_##N##_test_all(all, NV, NULL, SHMEM_CMP_EQ, 10),               \
                          "test_all with status NULL (elements %d, %d hold 99)", X1, X2);      \
            PT_CHECK_EQ("shmem_" #N "_test_any", 6,                                            \
                        shmem_##N##_test_any(any, NV, status, SHMEM_CMP_EQ, 10));              \
            n = shmem_##N##_test_any(any, NV, NULL, SHMEM_CMP_EQ, 10);                         \
            PT_CHECK("shmem_" #N "_test_any", n == X1 || n == 6,                               \
                     "index 1 or 6 with status NULL");                                         \
            n = shmem_##N##_test_some(some, NV, idx, status, SHMEM_CMP_EQ, 10);                \
            check_some("shmem_" #N "_test_some", n, idx, 2);                                   \
            PT_CHECK_EQ("shmem_" #N "_test_all_vector", 1,                                     \
                        shmem_##N##_test_all_vector(allv, NV, status, SHMEM_CMP_EQ, vec));     \
            PT_CHECK_EQ("shmem_" #N "_test_any_vector", 6,                                     \
                        shmem_##N##_test_any_vector(anyv, NV, status, SHMEM_CMP_EQ, vec));     \
            n = shmem_##N##_test_some_vector(somev, NV, idx, status, SHMEM_CMP_EQ, vec);       \
            check_some("shmem_" #N "_test_some_vector", n, idx, 2);                            \
            for (c = 0; c < 6; c++)                                                            \
                PT_CHECK_EQ_F("shmem_" #N "_test", 1,                                          \
                              shmem_##N##_test(&cmpw[c], cmps[c], (T)cmp_value[c]),            \
                              "test SHMEM_CMP_%s after the write", cmp_text[c]);               \
            /* an empty wait set */                                                            \
            PT_CHECK_EQ("shmem_" #N "_test_any", SIZE_MAX,                                     \
                        shmem_##N##_test_any(any, NV, all_masked, SHMEM_CMP_EQ, 10));          \
            PT_CHECK_EQ("shmem_" #N "_wait_until_any", SIZE_MAX,                               \
                        shmem_##N##_wait_until_any(any, NV, all_masked, SHMEM_CMP_EQ, 10));    \
            PT_CHECK_EQ("shmem_" #N "_wait_until_some", 0,                                     \
                        shmem_##N##_wait_until_some(some, NV, idx, all_masked, SHMEM_CMP_EQ,   \
                                                    10));                                      \
            shmem_##N##_wait_until_all(all, NV, all_masked, SHMEM_CMP_EQ, 123);                \
        }                                                                                      \
        /* the waits (round B: racing with the writes) */                                      \
        for (c = 0; c < 6; c++) {                                                              \
            shmem_##N##_wait_until(&cmpw[c], cmps[c], (T)cmp_value[c]);                        \
            PT_CHECK_EQ_F("shmem_" #N "_wait_until", 10, cmpw[c],                              \
                          "the ivar once the wait for SHMEM_CMP_%s returned", cmp_text[c]);    \
        }                                                                                      \
        shmem_##N##_wait_until_all(all, NV, status, SHMEM_CMP_EQ, 10);                         \
        for (i = 0; i < NV; i++)                                                               \
            if (!status[i])                                                                    \
                PT_CHECK_EQ_F("shmem_" #N "_wait_until_all", pattern(R_ALL, i), all[i],        \
                              "ivars[%d] once the wait returned", i);                          \
        PT_CHECK_EQ("shmem_" #N "_wait_until_any", 6,                                          \
                    shmem_##N##_wait_until_any(any, NV, status, SHMEM_CMP_EQ, 10));            \
        n = shmem_##N##_wait_until_some(some, NV, idx, status, SHMEM_CMP_EQ, 10);              \
        check_some("shmem_" #N "_wait_until_some", n, idx, blocking ? 1 : 2);                  \
        shmem_##N##_wait_until_all_vector(allv, NV, status, SHMEM_CMP_EQ, vec);                \
        for (i = 0; i < NV; i++)                                                               \
            if (!status[i])                                                                    \
                PT_CHECK_EQ_F("shmem_" #N "_wait_until_all_vector", pattern(R_ALLV, i),        \
                              allv[i], "ivars[%d] once the wait returned", i);                 \
        PT_CHECK_EQ("shmem_" #N "_wait_until_any_vector", 6,                                   \
                    shmem_##N##_wait_until_any_vector(anyv, NV, status, SHMEM_CMP_EQ, vec));   \
        n = shmem_##N##_wait_until_some_vector(somev, NV, idx, status, SHMEM_CMP_EQ, vec);     \
        check_some("shmem_" #N "_wait_until_some_vector", n, idx, blocking ? 1 : 2);           \
        shmem_barrier_all(); /* the next test resets the ivars */                              \
    }
GSHMEM_P2P_TYPES(P2P_TEST)
#undef P2P_TEST

/* Deprecated: shmem_TYPENAME_wait (until != value), shmem_wait and the
 * long-typed shmem_wait_until function (parenthesized, so the C11 generic
 * macro of the same name is not used). */
#define DEPR_WAIT(T, N)                                                                        \
    static void depr_wait_##N(void)                                                            \
    {                                                                                          \
        T *w = (T *)sym_iv;                                                                    \
        *w = 0;                                                                                \
        shmem_barrier_all();                                                                   \
        shmem_##N##_p(w, (T)7, right);                                                         \
        shmem_##N##_wait(w, 0);                                                                \
        PT_CHECK_EQ("shmem_" #N "_wait", 7, *w);                                               \
        shmem_barrier_all();                                                                   \
    }
GSHMEM_WAIT_DEPRECATED_TYPES(DEPR_WAIT)
#undef DEPR_WAIT

static void depr_long_waits(void)
{
    long *w = (long *)sym_iv;

    w[0] = 0;
    w[1] = 0;
    shmem_barrier_all();
    shmem_long_p(&w[0], 5, right);
    shmem_long_p(&w[1], 9, right);
    shmem_wait(&w[0], 0);
    PT_CHECK_EQ("shmem_wait", 5, w[0]);
    (shmem_wait_until)(&w[1], SHMEM_CMP_GE, 9);
    PT_CHECK_EQ("shmem_wait_until", 9, w[1]);
    shmem_barrier_all();
}

int main(void)
{
    PT_START();
    me = pt_me;
    npes = pt_npes;
    right = (me + 1) % npes;
    sym_iv = shmem_malloc(NREG * NV * 8);
    PT_CHECK("shmem_malloc", sym_iv != NULL, "the ivars");
    if (sym_iv == NULL)
        return pt_finish();

#define RUN(T, N)                                                                              \
    p2p_##N(0);                                                                                \
    p2p_##N(1);
    GSHMEM_P2P_TYPES(RUN)
#undef RUN
#define RUN(T, N) depr_wait_##N();
    GSHMEM_WAIT_DEPRECATED_TYPES(RUN)
#undef RUN
    depr_long_waits();

    shmem_free(sym_iv);
    return pt_finish();
}
