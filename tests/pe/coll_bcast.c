/*
 * tests/pe/coll_bcast.c - broadcast: shmem_TYPENAME_broadcast for every
 * standard RMA type (generated from typetable.h), shmem_broadcastmem and
 * the deprecated shmem_broadcast32/64, each checked element by element
 * against the root's data:
 *  - on every team of coll_test.h, from every root, at sizes on both sides
 *    of GSHMEM_BCAST_PUSH_MAX (16K: the root pushes below, members pull
 *    above), and nelems 0;
 *  - the root's dest receives the data too (team form) or is left alone
 *    (deprecated form); nothing past nelems is written;
 *  - pSync is SHMEM_SYNC_VALUE again after every deprecated call, also
 *    after back-to-back calls that alternate two pSync arrays;
 *  - SHMEM_TEAM_INVALID returns nonzero.
 */
#include "coll_test.h"

static const size_t typed_sizes[] = {0, 1, 13, 3000}; /* 3000 doubles: 24000 B, pulled */
static const size_t mem_sizes[] = {0, 1, 100, 16384, 16385, 200000};

static void check_tail(const char *routine, const void *end, const char *what)
{
    const unsigned char *p = end;

    for (int k = 0; k < 8; k++)
        PT_CHECK_EQ_F(routine, CT_POISON, p[k], "byte %d past the end of dest (%s)", k, what);
}

/* bcast_TYPENAME(team, root, nelems, salt): one checked call. */
#define CT_BCAST(T, N)                                                                         \
    static void bcast_##N(shmem_team_t team, int root, size_t nelems, int salt)                \
    {                                                                                          \
        const char *routine = "shmem_" #N "_broadcast";                                        \
        T *s = (T *)ct_src, *d = (T *)ct_dst;                                                  \
        int me = shmem_team_my_pe(team), rc;                                                   \
                                                                                               \
        for (size_t i = 0; i < nelems; i++)                                                    \
            s[i] = CT_VAL(T, me, i, salt);                                                     \
        memset(d, CT_POISON, nelems * sizeof(T) + 8);                                          \
        shmem_team_sync(team);                                                                 \
        rc = shmem_##N##_broadcast(team, d, s, nelems, root);                                  \
        PT_CHECK_EQ_F(routine, 0, rc, "return value (root %d, nelems %zu)", root, nelems);     \
        for (size_t i = 0; i < nelems; i++)                                                    \
            PT_CHECK_EQ_F(routine, CT_VAL(T, root, i, salt), d[i],                             \
                          "dest[%zu] of %zu from root %d of %d", i, nelems, root,              \
                          shmem_team_n_pes(team));                                             \
        check_tail(routine, d + nelems, "typed");                                              \
    }
GSHMEM_RMA_TYPES(CT_BCAST)
#undef CT_BCAST

static void typed_all(shmem_team_t team, int root, size_t nelems, int salt)
{
#define CT_CALL(T, N)                                                                          \
    if (ct_type_on(#N))                                                                        \
        bcast_##N(team, root, nelems, salt);
    GSHMEM_RMA_TYPES(CT_CALL)
#undef CT_CALL
}

static void mem_one(shmem_team_t team, int root, size_t nbytes, int salt)
{
    unsigned char *s = (unsigned char *)ct_src, *d = (unsigned char *)ct_dst;
    int me = shmem_team_my_pe(team), rc;

    for (size_t i = 0; i < nbytes; i++)
        s[i] = CT_VAL(unsigned char, me, i, salt);
    memset(d, CT_POISON, nbytes + 8);
    shmem_team_sync(team);
    rc = shmem_broadcastmem(team, d, s, nbytes, root);
    PT_CHECK_EQ_F("shmem_broadcastmem", 0, rc, "return value (root %d, %zu bytes)", root,
                  nbytes);
    for (size_t i = 0; i < nbytes; i++)
        if (d[i] != CT_VAL(unsigned char, root, i, salt)) {
            PT_CHECK_EQ_F("shmem_broadcastmem", CT_VAL(unsigned char, root, i, salt), d[i],
                          "dest[%zu] of %zu bytes from root %d", i, nbytes, root);
            break;
        }
    check_tail("shmem_broadcastmem", d + nbytes, "mem");
}

/* In place on the root: source and dest the same array. */
static void in_place(shmem_team_t team, int root)
{
    long *d = (long *)ct_dst;
    int me = shmem_team_my_pe(team);

    for (int i = 0; i < 64; i++)
        d[i] = me == root ? CT_VAL(long, root, i, 9) : -1;
    shmem_team_sync(team);
    shmem_long_broadcast(team, d, d, 64, root);
    for (int i = 0; i < 64; i++)
        PT_CHECK_EQ_F("shmem_long_broadcast", CT_VAL(long, root, i, 9), d[i],
                      "dest[%d], source == dest, root %d", i, root);
}

static void teams(void)
{
    for (int t = 0; t < CT_TEAMS; t++) {
        shmem_team_t team = ct_team[t];

        /* one team at a time: they share the scratch buffers */
        shmem_barrier_all();
        if (team == SHMEM_TEAM_INVALID)
            continue;
        for (int root = 0; root < shmem_team_n_pes(team); root++) {
            for (size_t k = 0; k < sizeof typed_sizes / sizeof *typed_sizes; k++)
                typed_all(team, root, typed_sizes[k], t + root + (int)k);
            for (size_t k = 0; k < sizeof mem_sizes / sizeof *mem_sizes; k++)
                mem_one(team, root, mem_sizes[k], t * 3 + root + (int)k);
            in_place(team, root);
        }
    }
    shmem_barrier_all();
}

/* The deprecated forms: one checked call over active set a. */
static void aset_one(const ct_aset_t *a, int bits, int root, size_t nelems, int call)
{
    const char *routine = bits == 32 ? "shmem_broadcast32" : "shmem_broadcast64";
    size_t size = (size_t)bits / 8;
    int me = (pt_me - a->start) >> a->log_stride;
    long *psync = ct_psync[call % 2];

    for (size_t i = 0; i < nelems; i++) {
        if (bits == 32)
            ((int32_t *)ct_src)[i] = CT_VAL(int32_t, me, i, call);
        else
            ((int64_t *)ct_src)[i] = CT_VAL(int64_t, me, i, call);
    }
    memset(ct_dst, CT_POISON, nelems * size + 8);
    ct_aset_sync(a);
    if (bits == 32)
        shmem_broadcast32(ct_dst, ct_src, nelems, root, a->start, a->log_stride, a->size,
                          psync);
    else
        shmem_broadcast64(ct_dst, ct_src, nelems, root, a->start, a->log_stride, a->size,
                          psync);
    for (size_t i = 0; i < nelems; i++) {
        long long got = bits == 32 ? ((int32_t *)ct_dst)[i] : ((int64_t *)ct_dst)[i];

        if (me == root)
            PT_CHECK_EQ_F(routine, CT_POISON * 0x01010101LL, got & 0xffffffffLL,
                          "root's dest[%zu] (must be left alone) over %s", i, a->name);
        else
            PT_CHECK_EQ_F(routine, CT_VAL(long long, root, i, call), got,
                          "dest[%zu] of %zu from root %d over %s", i, nelems, root, a->name);
    }
    check_tail(routine, ct_dst + nelems * size, a->name);
    ct_aset_sync(a);
    ct_check_psync(routine, "after the call");
}

/* Back to back, no synchronization between: distinct dest and source
 * regions per call, roots in turn, pSync arrays alternating. */
static void aset_back_to_back(const ct_aset_t *a)
{
    enum { CALLS = 8, NELEMS = 40 };
    int me = (pt_me - a->start) >> a->log_stride;
    int64_t *s = (int64_t *)ct_src, *d = (int64_t *)ct_dst;

    for (int c = 0; c < CALLS; c++)
        for (int i = 0; i < NELEMS; i++)
            s[c * NELEMS + i] = CT_VAL(int64_t, me, i, 50 + c);
    for (int i = 0; i < CALLS * NELEMS; i++)
        d[i] = -1;
    ct_aset_sync(a);
    for (int c = 0; c < CALLS; c++)
        shmem_broadcast64(d + c * NELEMS, s + c * NELEMS, NELEMS, c % a->size, a->start,
                          a->log_stride, a->size, ct_psync[(c + 1) % 2]);
    ct_aset_sync(a);
    for (int c = 0; c < CALLS; c++)
        for (int i = 0; i < NELEMS; i++)
            PT_CHECK_EQ_F("shmem_broadcast64",
                          me == c % a->size ? -1 : CT_VAL(int64_t, c % a->size, i, 50 + c),
                          d[c * NELEMS + i], "dest[%d] of back-to-back call %d over %s", i, c,
                          a->name);
    ct_check_psync("shmem_broadcast64", "after back-to-back calls");
}

static void asets(void)
{
    static const size_t sizes[] = {0, 1, 9, 5000}; /* 5000 * 4: 20000 B, pulled */
    for (int k = 0; k < CT_ASETS; k++) {
        const ct_aset_t *a = &ct_aset[k];
        int call = 0; /* the same on every member */

        /* one active set at a time: they share the pSync arrays */
        shmem_barrier_all();
        if (!ct_in_aset(a, pt_me))
            continue;
        for (int root = 0; root < a->size; root++)
            for (size_t z = 0; z < sizeof sizes / sizeof *sizes; z++) {
                aset_one(a, 32, root, sizes[z], call++);
                aset_one(a, 64, root, sizes[z], call++);
            }
        aset_back_to_back(a);
    }
    shmem_barrier_all();
}

static void invalid_team(void)
{
    long s[2] = {1, 2}, *d = (long *)ct_dst;

    PT_CHECK("shmem_broadcastmem", shmem_broadcastmem(SHMEM_TEAM_INVALID, d, s, 8, 0) != 0,
             "nonzero for SHMEM_TEAM_INVALID");
    PT_CHECK("shmem_long_broadcast", shmem_long_broadcast(SHMEM_TEAM_INVALID, d, s, 2, 0) != 0,
             "nonzero for SHMEM_TEAM_INVALID");
}

int main(void)
{
    CT_SETUP();
    teams();
    asets();
    invalid_team();
    return ct_finish();
}
