/*
 * tests/pe/coll_alltoall.c - exchange: shmem_TYPENAME_alltoall and
 * shmem_TYPENAME_alltoalls for every standard RMA type (generated from
 * typetable.h), shmem_alltoallmem, shmem_alltoallsmem, and the deprecated
 * shmem_alltoall[s]32/64, each checked against the sequential reference
 * (block j of member i's source lands in block i of member j's dest):
 *  - on every team of coll_test.h, at several sizes and nelems 0;
 *  - alltoalls with contiguous and strided source and dest: the elements
 *    between the strided ones are not written;
 *  - nothing past the last block is written;
 *  - pSync is SHMEM_SYNC_VALUE again after every deprecated call, also
 *    after back-to-back calls that alternate two pSync arrays;
 *  - SHMEM_TEAM_INVALID returns nonzero.
 */
#include "coll_test.h"

static const size_t typed_sizes[] = {0, 1, 5, 500};
static const size_t mem_sizes[] = {0, 1, 64, 5000};
static const ptrdiff_t strides[][2] = {{1, 1}, {2, 3}, {3, 1}}; /* dst, sst */
static const size_t strided_sizes[] = {0, 1, 4, 50};

/* The value of element k of the block member `from` sends to member `to`. */
#define CT_A2A(T, from, to, nelems, k, salt)                                                   \
    CT_VAL(T, from, (size_t)(to) * (nelems) + (k), salt)

static int poisoned(const void *p, size_t size)
{
    const unsigned char *b = p;

    for (size_t k = 0; k < size; k++)
        if (b[k] != CT_POISON)
            return 0;
    return 1;
}

#define CT_ALLTOALL(T, N)                                                                      \
    static void alltoall_##N(shmem_team_t team, size_t nelems, int salt)                       \
    {                                                                                          \
        const char *routine = "shmem_" #N "_alltoall";                                         \
        T *s = (T *)ct_src, *d = (T *)ct_dst;                                                  \
        int me = shmem_team_my_pe(team), n = shmem_team_n_pes(team), rc;                       \
                                                                                               \
        for (int j = 0; j < n; j++)                                                            \
            for (size_t k = 0; k < nelems; k++)                                                \
                s[j * nelems + k] = CT_A2A(T, me, j, nelems, k, salt);                         \
        memset(d, CT_POISON, (size_t)n *nelems * sizeof(T) + 8);                               \
        shmem_team_sync(team);                                                                 \
        rc = shmem_##N##_alltoall(team, d, s, nelems);                                         \
        PT_CHECK_EQ_F(routine, 0, rc, "return value (nelems %zu)", nelems);                    \
        for (int i = 0; i < n; i++)                                                            \
            for (size_t k = 0; k < nelems; k++)                                                \
                PT_CHECK_EQ_F(routine, CT_A2A(T, i, me, nelems, k, salt), d[i * nelems + k],   \
                              "element %zu of the block from member %d", k, i);                \
        PT_CHECK(routine, poisoned(d + (size_t)n * nelems, 8), "nothing written past dest");   \
    }                                                                                          \
    static void alltoalls_##N(shmem_team_t team, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,  \
                              int salt)                                                        \
    {                                                                                          \
        const char *routine = "shmem_" #N "_alltoalls";                                        \
        T *s = (T *)ct_src, *d = (T *)ct_dst;                                                  \
        int me = shmem_team_my_pe(team), n = shmem_team_n_pes(team), rc;                       \
        size_t blocks = (size_t)n * nelems;                                                    \
                                                                                               \
        for (int j = 0; j < n; j++)                                                            \
            for (size_t k = 0; k < nelems; k++)                                                \
                s[(j * nelems + k) * sst] = CT_A2A(T, me, j, nelems, k, salt);                 \
        memset(d, CT_POISON, blocks *dst * sizeof(T) + 8);                                     \
        shmem_team_sync(team);                                                                 \
        rc = shmem_##N##_alltoalls(team, d, s, dst, sst, nelems);                              \
        PT_CHECK_EQ_F(routine, 0, rc, "return value (nelems %zu)", nelems);                    \
        for (size_t x = 0; x < blocks * dst; x++) {                                            \
            if (x % dst)                                                                       \
                PT_CHECK(routine, poisoned(d + x, sizeof(T)), "a gap left alone");             \
            else                                                                               \
                PT_CHECK_EQ_F(routine,                                                         \
                              CT_A2A(T, x / dst / nelems, me, nelems, x / dst % nelems, salt), \
                              d[x], "dest[%zu], dst %td sst %td nelems %zu", x, dst, sst,      \
                              nelems);                                                         \
        }                                                                                      \
        PT_CHECK(routine, poisoned(d + blocks * dst, 8), "nothing written past dest");         \
    }
GSHMEM_RMA_TYPES(CT_ALLTOALL)
#undef CT_ALLTOALL

static void typed_all(shmem_team_t team, int salt)
{
    for (size_t k = 0; k < sizeof typed_sizes / sizeof *typed_sizes; k++) {
#define CT_CALL(T, N)                                                                          \
    if (ct_type_on(#N))                                                                        \
        alltoall_##N(team, typed_sizes[k], salt + (int)k);
        GSHMEM_RMA_TYPES(CT_CALL)
#undef CT_CALL
    }
    for (size_t p = 0; p < sizeof strides / sizeof *strides; p++)
        for (size_t k = 0; k < sizeof strided_sizes / sizeof *strided_sizes; k++) {
            if (ct_light && strided_sizes[k] > 8)
                continue; /* one network put per element */
#define CT_CALL(T, N)                                                                          \
    if (ct_type_on(#N))                                                                        \
        alltoalls_##N(team, strides[p][0], strides[p][1], strided_sizes[k],                    \
                      salt + (int)(p + k));
            GSHMEM_RMA_TYPES(CT_CALL)
#undef CT_CALL
        }
}

static void mem_all(shmem_team_t team, int salt)
{
    unsigned char *s = (unsigned char *)ct_src, *d = (unsigned char *)ct_dst;
    int me = shmem_team_my_pe(team), n = shmem_team_n_pes(team), rc;

    for (size_t z = 0; z < sizeof mem_sizes / sizeof *mem_sizes; z++) {
        size_t nb = mem_sizes[z];

        for (int j = 0; j < n; j++)
            for (size_t k = 0; k < nb; k++)
                s[j * nb + k] = CT_A2A(unsigned char, me, j, nb, k, salt);
        memset(d, CT_POISON, (size_t)n * nb + 8);
        shmem_team_sync(team);
        rc = shmem_alltoallmem(team, d, s, nb);
        PT_CHECK_EQ_F("shmem_alltoallmem", 0, rc, "return value (%zu bytes)", nb);
        for (int i = 0; i < n; i++)
            for (size_t k = 0; k < nb; k++)
                if (d[i * nb + k] != CT_A2A(unsigned char, i, me, nb, k, salt)) {
                    PT_CHECK_EQ_F("shmem_alltoallmem",
                                  CT_A2A(unsigned char, i, me, nb, k, salt), d[i * nb + k],
                                  "byte %zu of the block from member %d", k, i);
                    break;
                }
        PT_CHECK("shmem_alltoallmem", poisoned(d + n * nb, 8), "nothing written past dest");

        /* alltoallsmem: bytes, dst 2, sst 3 */
        for (int j = 0; j < n; j++)
            for (size_t k = 0; k < nb; k++)
                s[(j * nb + k) * 3] = CT_A2A(unsigned char, me, j, nb, k, salt + 1);
        memset(d, CT_POISON, (size_t)n * nb * 2 + 8);
        shmem_team_sync(team);
        rc = shmem_alltoallsmem(team, d, s, 2, 3, nb);
        PT_CHECK_EQ_F("shmem_alltoallsmem", 0, rc, "return value (%zu bytes)", nb);
        for (int i = 0; i < n; i++)
            for (size_t k = 0; k < nb; k++) {
                size_t x = (i * nb + k) * 2;

                if (d[x] != CT_A2A(unsigned char, i, me, nb, k, salt + 1) ||
                    d[x + 1] != CT_POISON) {
                    PT_CHECK_EQ_F("shmem_alltoallsmem",
                                  CT_A2A(unsigned char, i, me, nb, k, salt + 1), d[x],
                                  "byte %zu of the block from member %d (dst 2, sst 3)", k, i);
                    PT_CHECK_EQ_F("shmem_alltoallsmem", CT_POISON, d[x + 1],
                                  "the gap after byte %zu from member %d", k, i);
                    break;
                }
            }
    }
}

static void teams(void)
{
    for (int t = 0; t < CT_TEAMS; t++) {
        shmem_team_t team = ct_team[t];

        shmem_barrier_all(); /* one team at a time: they share the scratch buffers */
        if (team == SHMEM_TEAM_INVALID)
            continue;
        typed_all(team, t * 5);
        mem_all(team, t * 5 + 2);
    }
    shmem_barrier_all();
}

/* The deprecated forms: one checked call over active set a; strided when
 * dst > 0 (alltoalls), else alltoall. */
static void aset_one(const ct_aset_t *a, int bits, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,
                     int call)
{
    static const char *const names[2][2] = {{"shmem_alltoall32", "shmem_alltoall64"},
                                            {"shmem_alltoalls32", "shmem_alltoalls64"}};
    int strided = dst > 0;
    const char *routine = names[strided][bits == 64];
    size_t size = (size_t)bits / 8, blocks = (size_t)a->size * nelems;
    ptrdiff_t ds = strided ? dst : 1, ss = strided ? sst : 1;
    int me = (pt_me - a->start) >> a->log_stride;
    long *psync = ct_psync[call % 2];

    for (int j = 0; j < a->size; j++)
        for (size_t k = 0; k < nelems; k++) {
            size_t x = (j * nelems + k) * ss;

            if (bits == 32)
                ((int32_t *)ct_src)[x] = CT_A2A(int32_t, me, j, nelems, k, call);
            else
                ((int64_t *)ct_src)[x] = CT_A2A(int64_t, me, j, nelems, k, call);
        }
    memset(ct_dst, CT_POISON, blocks * ds * size + 8);
    ct_aset_sync(a);
    if (!strided && bits == 32)
        shmem_alltoall32(ct_dst, ct_src, nelems, a->start, a->log_stride, a->size, psync);
    else if (!strided)
        shmem_alltoall64(ct_dst, ct_src, nelems, a->start, a->log_stride, a->size, psync);
    else if (bits == 32)
        shmem_alltoalls32(ct_dst, ct_src, dst, sst, nelems, a->start, a->log_stride, a->size,
                          psync);
    else
        shmem_alltoalls64(ct_dst, ct_src, dst, sst, nelems, a->start, a->log_stride, a->size,
                          psync);
    for (size_t x = 0; x < blocks * ds; x++) {
        long long got = bits == 32 ? ((int32_t *)ct_dst)[x] : ((int64_t *)ct_dst)[x];

        if (x % ds)
            PT_CHECK(routine, poisoned(ct_dst + x * size, size), "a gap left alone");
        else
            PT_CHECK_EQ_F(routine,
                          CT_A2A(long long, x / ds / nelems, me, nelems, x / ds % nelems, call),
                          got, "dest[%zu] over %s", x, a->name);
    }
    PT_CHECK(routine, poisoned(ct_dst + blocks * ds * size, 8), "nothing written past dest");
    ct_aset_sync(a);
    ct_check_psync(routine, "after the call");
}

/* Back to back, no synchronization between: distinct dest regions,
 * pSync arrays alternating. */
static void aset_back_to_back(const ct_aset_t *a)
{
    enum { CALLS = 8, NELEMS = 3 };
    int me = (pt_me - a->start) >> a->log_stride;
    int64_t *s = (int64_t *)ct_src, *d = (int64_t *)ct_dst;
    size_t region = (size_t)a->size * NELEMS;

    for (int c = 0; c < CALLS; c++)
        for (int j = 0; j < a->size; j++)
            for (int k = 0; k < NELEMS; k++)
                s[c * region + j * NELEMS + k] = CT_A2A(int64_t, me, j, NELEMS, k, 70 + c);
    for (size_t i = 0; i < CALLS * region; i++)
        d[i] = -1;
    ct_aset_sync(a);
    for (int c = 0; c < CALLS; c++)
        shmem_alltoall64(d + c * region, s + c * region, NELEMS, a->start, a->log_stride,
                         a->size, ct_psync[c % 2]);
    ct_aset_sync(a);
    for (int c = 0; c < CALLS; c++)
        for (size_t i = 0; i < region; i++)
            PT_CHECK_EQ_F("shmem_alltoall64",
                          CT_A2A(int64_t, (int)(i / NELEMS), me, NELEMS, i % NELEMS, 70 + c),
                          d[c * region + i], "dest[%zu] of back-to-back call %d over %s", i, c,
                          a->name);
    ct_check_psync("shmem_alltoall64", "after back-to-back calls");
}

static void asets(void)
{
    static const size_t sizes[] = {0, 1, 7, 400};

    for (int k = 0; k < CT_ASETS; k++) {
        const ct_aset_t *a = &ct_aset[k];
        int call = 0; /* the same on every member */

        shmem_barrier_all(); /* one active set at a time: they share the pSync arrays */
        if (!ct_in_aset(a, pt_me))
            continue;
        for (size_t z = 0; z < sizeof sizes / sizeof *sizes; z++) {
            aset_one(a, 32, 0, 0, sizes[z], call++);
            aset_one(a, 64, 0, 0, sizes[z], call++);
            aset_one(a, 32, 2, 3, sizes[z], call++);
            aset_one(a, 64, 1, 2, sizes[z], call++);
        }
        aset_back_to_back(a);
    }
    shmem_barrier_all();
}

static void invalid_team(void)
{
    long s[8] = {0}, *d = (long *)ct_dst;
    shmem_team_t bad = SHMEM_TEAM_INVALID;

    PT_CHECK("shmem_alltoallmem", shmem_alltoallmem(bad, d, s, 8) != 0, "nonzero");
    PT_CHECK("shmem_alltoallsmem", shmem_alltoallsmem(bad, d, s, 1, 1, 8) != 0, "nonzero");
    PT_CHECK("shmem_long_alltoall", shmem_long_alltoall(bad, d, s, 1) != 0, "nonzero");
    PT_CHECK("shmem_long_alltoalls", shmem_long_alltoalls(bad, d, s, 1, 1, 1) != 0, "nonzero");
}

int main(void)
{
    CT_SETUP();
    teams();
    asets();
    invalid_team();
    return ct_finish();
}
