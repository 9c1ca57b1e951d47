/*
 * tests/device/wait.c - point-to-point synchronization in device code, for
 * every type of GSHMEM_P2P_TYPES: wait_until with each comparator,
 * wait_until_all/_any/_some and their _vector forms (with status masks),
 * and the test forms of all of them.
 *
 * Each lane owns an area of ivars on every PE.  Three kernels:
 *   before  nothing was poked: every test reports "not yet"; the waits on
 *           no eligible element return at once
 *   run     each lane pokes (gshmem_TYPENAME_p) the area of its partner
 *           lane in the other block on the right neighbour, and waits on
 *           its own area: the waits return, with the right index/count,
 *           and what they waited for is there
 *   after   (after a barrier) every test reports the pokes, indices too
 */
#include "dev_test.h"

#include <gshmem/typetable.h>

#define AREA 32 /* elements per lane and type */
/* Offsets in a lane's area. */
#define E_ONE 0    /* [1] wait_until / test, comparator l % 6 */
#define E_ALL 1    /* [4] status {0,0,1,0}: poke 7 into 0, 1, 3 */
#define E_ANY 5    /* [4] status {1,0,0,0}: [0] holds 7 but is excluded; poke 7 into 2 */
#define E_SOME 9   /* [4] no status: poke 7 into 1 and 3 */
#define E_ALLV 13  /* [4] EQ {1,2,3,4}: poke those */
#define E_ANYV 17  /* [4] EQ {10,11,12,13}: poke 11 into 1 */
#define E_SOMEV 21 /* [4] GE {1,1,1,1}: poke 1 into 0 and 2 */

/* Comparator of lane l's single wait: its initial value, the value poked,
 * and the reference that only the poked value satisfies. */
DT_HD int one_cmp(unsigned l)
{
    static const int c[6] = {GSHMEM_CMP_EQ, GSHMEM_CMP_NE, GSHMEM_CMP_GT,
                             GSHMEM_CMP_GE, GSHMEM_CMP_LT, GSHMEM_CMP_LE};

    return c[l % 6];
}
DT_HD int one_init(unsigned l)
{
    return l % 6 >= 4 ? 9 : 0;
}
DT_HD int one_poke(unsigned l)
{
    return l % 6 >= 4 ? 3 : 5;
}
DT_HD int one_ref(unsigned l)
{
    static const int r[6] = {5, 0, 4, 5, 4, 3};

    return r[l % 6];
}

typedef struct wait_args {
    uint64_t *fails;
    char *ivars; /* [type][lanes][AREA] elements, 8 bytes apart per type slot */
    unsigned lanes;
    int right;
} wait_args_t;

#define AREA_OF(a, ti, T, l)                                                                   \
    ((T *)(void *)((a).ivars + ((size_t)(ti) * (a).lanes + (l)) * AREA * 8))

/* Each type's row number, for its area. */
/* clang-format off: an X-macro list clang-format 14 indents as a staircase */
enum {
#define TI(T, N) TI_##N,
    GSHMEM_P2P_TYPES(TI)
#undef TI
        N_TYPES
};
/* clang-format on */

#define FAMILY(T, N)                                                                           \
    DT_NOINL void init_##N(wait_args_t a, unsigned l)                                          \
    {                                                                                          \
        T *v = AREA_OF(a, TI_##N, T, l);                                                       \
        int i;                                                                                 \
        for (i = 0; i < AREA; i++)                                                             \
            v[i] = 0;                                                                          \
        v[E_ONE] = (T)one_init(l);                                                             \
        v[E_ANY] = 7;                                                                          \
    }                                                                                          \
                                                                                               \
    /* Before any poke: nothing is satisfied. */                                               \
    DT_NOINL void before_##N(wait_args_t a, unsigned l)                                        \
    {                                                                                          \
        T *v = AREA_OF(a, TI_##N, T, l);                                                       \
        const int st_all[4] = {0, 0, 1, 0}, st_any[4] = {1, 0, 0, 0}, none[4] = {1, 1, 1, 1};  \
        const T allv[4] = {1, 2, 3, 4}, anyv[4] = {10, 11, 12, 13}, somev[4] = {1, 1, 1, 1};   \
        size_t idx[4];                                                                         \
                                                                                               \
        DT_CHECK(a.fails, "gshmem_" #N "_test", "before the poke, lane", l, 0,                 \
                 gshmem_##N##_test(v + E_ONE, one_cmp(l), (T)one_ref(l)));                     \
        DT_CHECK(a.fails, "gshmem_" #N "_test_all", "before the poke, lane", l, 0,             \
                 gshmem_##N##_test_all(v + E_ALL, 4, st_all, GSHMEM_CMP_EQ, (T)7));            \
        DT_CHECK(a.fails, "gshmem_" #N "_test_all", "no element eligible, lane", l, 1,         \
                 gshmem_##N##_test_all(v + E_ALL, 4, none, GSHMEM_CMP_EQ, (T)7));              \
        DT_CHECK(a.fails, "gshmem_" #N "_test_any", "before the poke (SIZE_MAX), lane", l,     \
                 (long long)(size_t)SIZE_MAX,                                                  \
                 (long long)gshmem_##N##_test_any(v + E_ANY, 4, st_any, GSHMEM_CMP_EQ, (T)7)); \
        DT_CHECK(a.fails, "gshmem_" #N "_test_some", "before the poke, lane", l, 0,            \
                 gshmem_##N##_test_some(v + E_SOME, 4, idx, NULL, GSHMEM_CMP_EQ, (T)7));       \
        DT_CHECK(a.fails, "gshmem_" #N "_test_all_vector", "before the poke, lane", l, 0,      \
                 gshmem_##N##_test_all_vector(v + E_ALLV, 4, NULL, GSHMEM_CMP_EQ, allv));      \
        DT_CHECK(a.fails, "gshmem_" #N "_test_any_vector", "before the poke (SIZE_MAX), lane", \
                 l, (long long)(size_t)SIZE_MAX,                                               \
                 (long long)gshmem_##N##_test_any_vector(v + E_ANYV, 4, NULL, GSHMEM_CMP_EQ,   \
                                                         anyv));                               \
        DT_CHECK(a.fails, "gshmem_" #N "_test_some_vector", "before the poke, lane", l, 0,     \
                 gshmem_##N##_test_some_vector(v + E_SOMEV, 4, idx, NULL, GSHMEM_CMP_GE,       \
                                               somev));                                        \
        /* waits with no eligible element return at once */                                    \
        gshmem_##N##_wait_until_all(v + E_ALL, 4, none, GSHMEM_CMP_EQ, (T)7);                  \
        DT_CHECK(a.fails, "gshmem_" #N "_wait_until_any", "no element eligible (SIZE_MAX)", l, \
                 (long long)(size_t)SIZE_MAX,                                                  \
                 (long long)gshmem_##N##_wait_until_any(v + E_ANY, 4, none, GSHMEM_CMP_EQ,     \
                                                        (T)7));                                \
        DT_CHECK(a.fails, "gshmem_" #N "_wait_until_some", "no element eligible", l, 0,        \
                 gshmem_##N##_wait_until_some(v + E_SOME, 4, idx, none, GSHMEM_CMP_EQ, (T)7)); \
    }                                                                                          \
                                                                                               \
    /* Poke the right neighbour's area of this lane. */                                        \
    DT_NOINL void poke_##N(wait_args_t a, unsigned l)                                          \
    {                                                                                          \
        T *v = AREA_OF(a, TI_##N, T, l);                                                       \
        int r = a.right;                                                                       \
                                                                                               \
        gshmem_##N##_p(v + E_SOMEV + 2, (T)1, r);                                              \
        gshmem_##N##_p(v + E_ANYV + 1, (T)11, r);                                              \
        gshmem_##N##_p(v + E_ALLV + 3, (T)4, r);                                               \
        gshmem_##N##_p(v + E_ALLV + 0, (T)1, r);                                               \
        gshmem_##N##_p(v + E_SOME + 3, (T)7, r);                                               \
        gshmem_##N##_p(v + E_ANY + 2, (T)7, r);                                                \
        gshmem_##N##_p(v + E_ALL + 3, (T)7, r);                                                \
        gshmem_##N##_p(v + E_ONE, (T)one_poke(l), r);                                          \
        gshmem_##N##_p(v + E_ALL + 0, (T)7, r);                                                \
        gshmem_##N##_p(v + E_ALLV + 1, (T)2, r);                                               \
        gshmem_##N##_p(v + E_SOME + 1, (T)7, r);                                               \
        gshmem_##N##_p(v + E_ALL + 1, (T)7, r);                                                \
        gshmem_##N##_p(v + E_ALLV + 2, (T)3, r);                                               \
        gshmem_##N##_p(v + E_SOMEV + 0, (T)1, r);                                              \
    }                                                                                          \
                                                                                               \
    /* Wait for the left neighbour's pokes. */                                                 \
    DT_NOINL void wait_##N(wait_args_t a, unsigned l)                                          \
    {                                                                                          \
        T *v = AREA_OF(a, TI_##N, T, l);                                                       \
        const int st_all[4] = {0, 0, 1, 0}, st_any[4] = {1, 0, 0, 0};                          \
        const T allv[4] = {1, 2, 3, 4}, anyv[4] = {10, 11, 12, 13}, somev[4] = {1, 1, 1, 1};   \
        size_t idx[4], n, i;                                                                   \
                                                                                               \
        gshmem_##N##_wait_until(v + E_ONE, one_cmp(l), (T)one_ref(l));                         \
        DT_CHECK(a.fails, "gshmem_" #N "_wait_until", "ivar once the wait returned, lane", l,  \
                 one_poke(l), v[E_ONE]);                                                       \
        gshmem_##N##_wait_until_all(v + E_ALL, 4, st_all, GSHMEM_CMP_EQ, (T)7);                \
        DT_CHECK(a.fails, "gshmem_" #N "_wait_until_all", "ivars[0] once it returned", l, 7,   \
                 v[E_ALL]);                                                                    \
        DT_CHECK(a.fails, "gshmem_" #N "_wait_until_all", "ivars[1] once it returned", l, 7,   \
                 v[E_ALL + 1]);                                                                \
        DT_CHECK(a.fails, "gshmem_" #N "_wait_until_all", "ivars[3] once it returned", l, 7,   \
                 v[E_ALL + 3]);                                                                \
        DT_CHECK(a.fails, "gshmem_" #N "_wait_until_any", "the index it returned, lane", l, 2, \
                 (long long)gshmem_##N##_wait_until_any(v + E_ANY, 4, st_any, GSHMEM_CMP_EQ,   \
                                                        (T)7));                                \
        n = gshmem_##N##_wait_until_some(v + E_SOME, 4, idx, NULL, GSHMEM_CMP_EQ, (T)7);       \
        DT_CHECK_TRUE(a.fails, "gshmem_" #N "_wait_until_some", "count is 1 or 2, lane", l,    \
                      n == 1 || n == 2);                                                       \
        for (i = 0; i < n && i < 4; i++)                                                       \
            DT_CHECK_TRUE(a.fails, "gshmem_" #N "_wait_until_some",                            \
                          "indices[i] is 1 or 3 and increasing, lane*16+i", l * 16 + i,        \
                          (idx[i] == 1 || idx[i] == 3) && (i == 0 || idx[i] > idx[i - 1]));    \
        gshmem_##N##_wait_until_all_vector(v + E_ALLV, 4, NULL, GSHMEM_CMP_EQ, allv);          \
        for (i = 0; i < 4; i++)                                                                \
            DT_CHECK(a.fails, "gshmem_" #N "_wait_until_all_vector", "ivars[lane*16+i]",       \
                     l * 16 + i, (long long)i + 1, v[E_ALLV + i]);                             \
        DT_CHECK(a.fails, "gshmem_" #N "_wait_until_any_vector", "the index it returned", l,   \
                 1,                                                                            \
                 (long long)gshmem_##N##_wait_until_any_vector(v + E_ANYV, 4, NULL,            \
                                                               GSHMEM_CMP_EQ, anyv));          \
        n = gshmem_##N##_wait_until_some_vector(v + E_SOMEV, 4, idx, NULL, GSHMEM_CMP_GE,      \
                                                somev);                                        \
        DT_CHECK_TRUE(a.fails, "gshmem_" #N "_wait_until_some_vector", "count is 1 or 2", l,   \
                      n == 1 || n == 2);                                                       \
        for (i = 0; i < n && i < 4; i++)                                                       \
            DT_CHECK_TRUE(a.fails, "gshmem_" #N "_wait_until_some_vector",                     \
                          "indices[i] is 0 or 2 and increasing, lane*16+i", l * 16 + i,        \
                          (idx[i] == 0 || idx[i] == 2) && (i == 0 || idx[i] > idx[i - 1]));    \
    }                                                                                          \
                                                                                               \
    /* The indices 4 calls of an _any form on 4 elements returned, as bits */                  \
    /* (bit 4: one out of range): test_any_vector with refs, or */                             \
    /* wait_until_any EQ 7. */                                                                 \
    DT_NOINL unsigned any_seen_##N(T *v, const int *status, const T *refs, int wait)           \
    {                                                                                          \
        unsigned seen = 0;                                                                     \
        int k;                                                                                 \
        for (k = 0; k < 4; k++) {                                                              \
            size_t i = wait ? gshmem_##N##_wait_until_any(v, 4, status, GSHMEM_CMP_EQ, (T)7)   \
                            : gshmem_##N##_test_any_vector(v, 4, status, GSHMEM_CMP_EQ, refs); \
            seen |= i < 4 ? 1u << i : 16u;                                                     \
        }                                                                                      \
        return seen;                                                                           \
    }                                                                                          \
                                                                                               \
    /* After every poke landed: every test sees it. */                                         \
    DT_NOINL void after_##N(wait_args_t a, unsigned l)                                         \
    {                                                                                          \
        T *v = AREA_OF(a, TI_##N, T, l);                                                       \
        const int st_all[4] = {0, 0, 1, 0}, st_any[4] = {1, 0, 0, 0};                          \
        const T allv[4] = {1, 2, 3, 4}, anyv[4] = {10, 11, 12, 13}, somev[4] = {1, 1, 1, 1};   \
        size_t idx[4] = {9, 9, 9, 9};                                                          \
                                                                                               \
        DT_CHECK(a.fails, "gshmem_" #N "_test", "after the poke, lane", l, 1,                  \
                 gshmem_##N##_test(v + E_ONE, one_cmp(l), (T)one_ref(l)));                     \
        DT_CHECK(a.fails, "gshmem_" #N "_test_all", "after the poke, lane", l, 1,              \
                 gshmem_##N##_test_all(v + E_ALL, 4, st_all, GSHMEM_CMP_EQ, (T)7));            \
        DT_CHECK(a.fails, "gshmem_" #N "_test_all", "ivars[2] (excluded) still 0, lane", l, 0, \
                 gshmem_##N##_test_all(v + E_ALL, 4, NULL, GSHMEM_CMP_EQ, (T)7));              \
        DT_CHECK(a.fails, "gshmem_" #N "_test_any", "after the poke, lane", l, 2,              \
                 (long long)gshmem_##N##_test_any(v + E_ANY, 4, st_any, GSHMEM_CMP_EQ, (T)7)); \
        DT_CHECK(a.fails, "gshmem_" #N "_test_some", "after the poke, lane", l, 2,             \
                 gshmem_##N##_test_some(v + E_SOME, 4, idx, NULL, GSHMEM_CMP_EQ, (T)7));       \
        DT_CHECK(a.fails, "gshmem_" #N "_test_some", "indices[0], lane", l, 1, idx[0]);        \
        DT_CHECK(a.fails, "gshmem_" #N "_test_some", "indices[1], lane", l, 3, idx[1]);        \
        DT_CHECK(a.fails, "gshmem_" #N "_test_all_vector", "after the poke, lane", l, 1,       \
                 gshmem_##N##_test_all_vector(v + E_ALLV, 4, NULL, GSHMEM_CMP_EQ, allv));      \
        DT_CHECK(a.fails, "gshmem_" #N "_test_any_vector", "after the poke, lane", l, 1,       \
                 (long long)gshmem_##N##_test_any_vector(v + E_ANYV, 4, NULL, GSHMEM_CMP_EQ,   \
                                                         anyv));                               \
        DT_CHECK(a.fails, "gshmem_" #N "_test_some_vector", "after the poke, lane", l, 2,      \
                 gshmem_##N##_test_some_vector(v + E_SOMEV, 4, idx, NULL, GSHMEM_CMP_GE,       \
                                               somev));                                        \
        DT_CHECK(a.fails, "gshmem_" #N "_test_some_vector", "indices[0], lane", l, 0, idx[0]); \
        DT_CHECK(a.fails, "gshmem_" #N "_test_some_vector", "indices[1], lane", l, 2, idx[1]); \
        /* _any answers every satisfied element in turn, not always the */                     \
        /* lowest: 4 calls on 4 elements return each satisfied one. */                         \
        DT_CHECK(a.fails, "gshmem_" #N "_test_any_vector", "4 calls: indices seen, lane", l,   \
                 0xf, any_seen_##N(v + E_ALLV, NULL, allv, 0));                                \
        DT_CHECK(a.fails, "gshmem_" #N "_wait_until_any", "4 calls: indices seen, lane", l,    \
                 0xb, any_seen_##N(v + E_ALL, st_all, NULL, 1));                               \
    }
GSHMEM_P2P_TYPES(FAMILY)
#undef FAMILY

enum { PH_INIT, PH_BEFORE, PH_RUN, PH_AFTER };

typedef struct phase_args {
    wait_args_t w;
    int phase;
} phase_args_t;

GSHMEM_KERNEL(wait_kernel, phase_args_t, pa)
{
    unsigned l = dt_lane();
    wait_args_t a = pa.w;

    switch (pa.phase) {
    case PH_INIT:
#define CALL(T, N) init_##N(a, l);
        GSHMEM_P2P_TYPES(CALL)
#undef CALL
        break;
    case PH_BEFORE:
#define CALL(T, N) before_##N(a, l);
        GSHMEM_P2P_TYPES(CALL)
#undef CALL
        break;
    case PH_RUN:
        /* Lane l pokes the area of lane l + lanes/2 (the other block's) on
         * the right neighbour.  Block 0 pokes, then waits; block 1 waits
         * (for block 0's pokes), then pokes: block 0's waits really wait. */
#define CALL(T, N) poke_##N(a, (l + a.lanes / 2) % a.lanes);
        if (gshmemx_block_id() % 2 == 0) {
            GSHMEM_P2P_TYPES(CALL)
        }
#undef CALL
#define CALL(T, N) wait_##N(a, l);
        GSHMEM_P2P_TYPES(CALL)
#undef CALL
#define CALL(T, N) poke_##N(a, (l + a.lanes / 2) % a.lanes);
        if (gshmemx_block_id() % 2 == 1) {
            GSHMEM_P2P_TYPES(CALL)
        }
#undef CALL
        gshmem_quiet();
        break;
    case PH_AFTER:
#define CALL(T, N) after_##N(a, l);
        GSHMEM_P2P_TYPES(CALL)
#undef CALL
        break;
    }
}

int main(void)
{
    phase_args_t pa;
    unsigned threads = 16;
    int ph;

    dt_start();
    pa.w.fails = dt_fails;
    pa.w.lanes = DT_BLOCKS * threads;
    pa.w.right = (dt_me + 1) % dt_npes;
    pa.w.ivars = (char *)dt_malloc((size_t)N_TYPES * pa.w.lanes * AREA * 8);
    for (ph = PH_INIT; ph <= PH_AFTER; ph++) {
        pa.phase = ph;
        DT_LAUNCH(wait_kernel, DT_BLOCKS, threads, pa);
        shmem_barrier_all();
    }
    gshmem_free(pa.w.ivars);
    return dt_finish();
}
