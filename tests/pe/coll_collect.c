/*
 * tests/pe/coll_collect.c - concatenation: shmem_TYPENAME_fcollect and
 * shmem_TYPENAME_collect for every standard RMA type (generated from
 * typetable.h), shmem_fcollectmem, shmem_collectmem, and the deprecated
 * shmem_[f]collect32/64, each checked against the sequential reference
 * (the members' sources one after the other, in member order):
 *  - on every team of coll_test.h, at several sizes and nelems 0;
 *  - collect with sizes that differ between members, some of them 0;
 *  - fcollect in place: each member's source is its own block of dest;
 *  - nothing past the concatenation is written; static arrays work too;
 *  - pSync is SHMEM_SYNC_VALUE again after every deprecated call, also
 *    after back-to-back calls that alternate two pSync arrays;
 *  - SHMEM_TEAM_INVALID returns nonzero.
 */
#include "coll_test.h"

static const size_t typed_sizes[] = {0, 1, 7, 1000};
static const size_t mem_sizes[] = {0, 1, 100, 10000};

/* collect: member m contributes this many elements (scale 0: small). */
static size_t collect_count(int m, int salt, size_t scale)
{
    return scale ? (size_t)(m % 3) * scale + scale / 2 : (size_t)((m * 3 + salt) % 5);
}

static void check_tail(const char *routine, const void *end, const char *what)
{
    const unsigned char *p = end;

    for (int k = 0; k < 8; k++)
        PT_CHECK_EQ_F(routine, CT_POISON, p[k], "byte %d past the collected data (%s)", k,
                      what);
}

/* {f,}collect_TYPENAME(team, nelems or scale, salt): one checked call each. */
#define CT_COLLECT(T, N)                                                                       \
    static void fcollect_##N(shmem_team_t team, size_t nelems, int salt)                       \
    {                                                                                          \
        const char *routine = "shmem_" #N "_fcollect";                                         \
        T *s = (T *)ct_src, *d = (T *)ct_dst;                                                  \
        int me = shmem_team_my_pe(team), n = shmem_team_n_pes(team), rc;                       \
                                                                                               \
        for (size_t i = 0; i < nelems; i++)                                                    \
            s[i] = CT_VAL(T, me, i, salt);                                                     \
        memset(d, CT_POISON, (size_t)n *nelems * sizeof(T) + 8);                               \
        shmem_team_sync(team);                                                                 \
        rc = shmem_##N##_fcollect(team, d, s, nelems);                                         \
        PT_CHECK_EQ_F(routine, 0, rc, "return value (nelems %zu)", nelems);                    \
        for (int m = 0; m < n; m++)                                                            \
            for (size_t i = 0; i < nelems; i++)                                                \
                PT_CHECK_EQ_F(routine, CT_VAL(T, m, i, salt), d[(size_t)m * nelems + i],       \
                              "dest[%zu]: element %zu of member %d of %d", m *nelems + i, i,   \
                              m, n);                                                           \
        check_tail(routine, d + (size_t)n * nelems, "typed");                                  \
    }                                                                                          \
    static void collect_##N(shmem_team_t team, size_t scale, int salt)                         \
    {                                                                                          \
        const char *routine = "shmem_" #N "_collect";                                          \
        T *s = (T *)ct_src, *d = (T *)ct_dst;                                                  \
        int me = shmem_team_my_pe(team), n = shmem_team_n_pes(team), rc;                       \
        size_t mine = collect_count(me, salt, scale), total = 0, at = 0;                       \
                                                                                               \
        for (int m = 0; m < n; m++)                                                            \
            total += collect_count(m, salt, scale);                                            \
        for (size_t i = 0; i < mine; i++)                                                      \
            s[i] = CT_VAL(T, me, i, salt);                                                     \
        memset(d, CT_POISON, total * sizeof(T) + 8);                                           \
        shmem_team_sync(team);                                                                 \
        rc = shmem_##N##_collect(team, d, s, mine);                                            \
        PT_CHECK_EQ_F(routine, 0, rc, "return value (nelems %zu)", mine);                      \
        for (int m = 0; m < n; m++)                                                            \
            for (size_t i = 0; i < collect_count(m, salt, scale); i++, at++)                   \
                PT_CHECK_EQ_F(routine, CT_VAL(T, m, i, salt), d[at],                           \
                              "dest[%zu]: element %zu of member %d of %d", at, i, m, n);       \
        check_tail(routine, d + total, "typed");                                               \
    }
GSHMEM_RMA_TYPES(CT_COLLECT)
#undef CT_COLLECT

static void typed_all(shmem_team_t team, int salt)
{
    for (size_t k = 0; k < sizeof typed_sizes / sizeof *typed_sizes; k++) {
#define CT_CALL(T, N)                                                                          \
    if (ct_type_on(#N))                                                                        \
        fcollect_##N(team, typed_sizes[k], salt + (int)k);
        GSHMEM_RMA_TYPES(CT_CALL)
#undef CT_CALL
    }
    for (size_t scale = 0; scale <= 600; scale += 600) {
#define CT_CALL(T, N)                                                                          \
    if (ct_type_on(#N))                                                                        \
        collect_##N(team, scale, salt + (int)scale);
        GSHMEM_RMA_TYPES(CT_CALL)
#undef CT_CALL
    }
}

static void mem_all(shmem_team_t team, int salt)
{
    unsigned char *s = (unsigned char *)ct_src, *d = (unsigned char *)ct_dst;
    int me = shmem_team_my_pe(team), n = shmem_team_n_pes(team), rc;

    for (size_t k = 0; k < sizeof mem_sizes / sizeof *mem_sizes; k++) {
        size_t nb = mem_sizes[k], total = 0, at = 0;
        size_t mine = (size_t)(me + 1) * nb / 2; /* collect: member m has (m+1)*nb/2 bytes */

        /* fcollectmem */
        for (size_t i = 0; i < nb; i++)
            s[i] = CT_VAL(unsigned char, me, i, salt);
        memset(d, CT_POISON, (size_t)n * nb + 8);
        shmem_team_sync(team);
        rc = shmem_fcollectmem(team, d, s, nb);
        PT_CHECK_EQ_F("shmem_fcollectmem", 0, rc, "return value (%zu bytes)", nb);
        for (int m = 0; m < n; m++)
            for (size_t i = 0; i < nb; i++)
                if (d[m * nb + i] != CT_VAL(unsigned char, m, i, salt)) {
                    PT_CHECK_EQ_F("shmem_fcollectmem", CT_VAL(unsigned char, m, i, salt),
                                  d[m * nb + i], "byte %zu of member %d's %zu", i, m, nb);
                    break;
                }
        check_tail("shmem_fcollectmem", d + n * nb, "mem");

        /* collectmem */
        for (int m = 0; m < n; m++)
            total += (size_t)(m + 1) * nb / 2;
        for (size_t i = 0; i < mine; i++)
            s[i] = CT_VAL(unsigned char, me, i, salt + 1);
        memset(d, CT_POISON, total + 8);
        shmem_team_sync(team);
        rc = shmem_collectmem(team, d, s, mine);
        PT_CHECK_EQ_F("shmem_collectmem", 0, rc, "return value (%zu bytes)", mine);
        for (int m = 0; m < n; m++) {
            size_t theirs = (size_t)(m + 1) * nb / 2;

            for (size_t i = 0; i < theirs; i++)
                if (d[at + i] != CT_VAL(unsigned char, m, i, salt + 1)) {
                    PT_CHECK_EQ_F("shmem_collectmem", CT_VAL(unsigned char, m, i, salt + 1),
                                  d[at + i], "byte %zu of member %d's %zu", i, m, theirs);
                    break;
                }
            at += theirs;
        }
        check_tail("shmem_collectmem", d + total, "mem");
    }
}

/* fcollect in place: the source is this member's block of dest. */
static void in_place(shmem_team_t team)
{
    int me = shmem_team_my_pe(team), n = shmem_team_n_pes(team);
    long *d = (long *)ct_dst;

    for (int i = 0; i < n * 16; i++)
        d[i] = i / 16 == me ? CT_VAL(long, me, i % 16, 3) : -1;
    shmem_team_sync(team);
    shmem_long_fcollect(team, d, d + me * 16, 16);
    for (int i = 0; i < n * 16; i++)
        PT_CHECK_EQ_F("shmem_long_fcollect", CT_VAL(long, i / 16, i % 16, 3), d[i],
                      "dest[%d], source = this member's block of dest", i);
}

/* Static (global) arrays are symmetric too. */
static void static_arrays(void)
{
    static long src[8], dest[8 * 64];
    int n = pt_npes;

    for (int i = 0; i < 8; i++)
        src[i] = CT_VAL(long, pt_me, i, 4);
    shmem_barrier_all();
    shmem_long_fcollect(SHMEM_TEAM_WORLD, dest, src, 8);
    for (int i = 0; i < n * 8 && i < 8 * 64; i++)
        PT_CHECK_EQ_F("shmem_long_fcollect", CT_VAL(long, i / 8, i % 8, 4), dest[i],
                      "dest[%d] of static arrays", i);
}

static void teams(void)
{
    for (int t = 0; t < CT_TEAMS; t++) {
        shmem_team_t team = ct_team[t];

        shmem_barrier_all(); /* one team at a time: they share the scratch buffers */
        if (team == SHMEM_TEAM_INVALID)
            continue;
        typed_all(team, t * 7);
        mem_all(team, t * 7 + 1);
        in_place(team);
    }
    shmem_barrier_all();
}

/* The deprecated forms: one checked call of each over active set a. */
static void aset_one(const ct_aset_t *a, int bits, int fixed, size_t nelems, int call)
{
    static const char *const names[2][2] = {{"shmem_collect32", "shmem_collect64"},
                                            {"shmem_fcollect32", "shmem_fcollect64"}};
    const char *routine = names[fixed][bits == 64];
    size_t size = (size_t)bits / 8, total = 0, at = 0;
    int me = (pt_me - a->start) >> a->log_stride;
    size_t mine = fixed ? nelems : (size_t)(me % 2) * nelems + 1;
    long *psync = ct_psync[call % 2];

    for (int m = 0; m < a->size; m++)
        total += fixed ? nelems : (size_t)(m % 2) * nelems + 1;
    for (size_t i = 0; i < mine; i++) {
        if (bits == 32)
            ((int32_t *)ct_src)[i] = CT_VAL(int32_t, me, i, call);
        else
            ((int64_t *)ct_src)[i] = CT_VAL(int64_t, me, i, call);
    }
    memset(ct_dst, CT_POISON, total * size + 8);
    ct_aset_sync(a);
    if (fixed && bits == 32)
        shmem_fcollect32(ct_dst, ct_src, mine, a->start, a->log_stride, a->size, psync);
    else if (fixed)
        shmem_fcollect64(ct_dst, ct_src, mine, a->start, a->log_stride, a->size, psync);
    else if (bits == 32)
        shmem_collect32(ct_dst, ct_src, mine, a->start, a->log_stride, a->size, psync);
    else
        shmem_collect64(ct_dst, ct_src, mine, a->start, a->log_stride, a->size, psync);
    for (int m = 0; m < a->size; m++) {
        size_t theirs = fixed ? nelems : (size_t)(m % 2) * nelems + 1;

        for (size_t i = 0; i < theirs; i++, at++) {
            long long got = bits == 32 ? ((int32_t *)ct_dst)[at] : ((int64_t *)ct_dst)[at];

            PT_CHECK_EQ_F(routine, CT_VAL(long long, m, i, call), got,
                          "dest[%zu]: element %zu of member %d over %s", at, i, m, a->name);
        }
    }
    check_tail(routine, ct_dst + total * size, a->name);
    ct_aset_sync(a);
    ct_check_psync(routine, "after the call");
}

/* Back to back, no synchronization between: distinct dest regions,
 * pSync arrays alternating. */
static void aset_back_to_back(const ct_aset_t *a)
{
    enum { CALLS = 8, NELEMS = 6 };
    int me = (pt_me - a->start) >> a->log_stride;
    int64_t *s = (int64_t *)ct_src, *d = (int64_t *)ct_dst;
    size_t region = (size_t)a->size * NELEMS;

    for (int c = 0; c < CALLS; c++)
        for (int i = 0; i < NELEMS; i++)
            s[c * NELEMS + i] = CT_VAL(int64_t, me, i, 60 + c);
    for (size_t i = 0; i < CALLS * region; i++)
        d[i] = -1;
    ct_aset_sync(a);
    for (int c = 0; c < CALLS; c++) {
        if (c % 2)
            shmem_fcollect64(d + c * region, s + c * NELEMS, NELEMS, a->start, a->log_stride,
                             a->size, ct_psync[c % 2]);
        else
            shmem_collect64(d + c * region, s + c * NELEMS, NELEMS, a->start, a->log_stride,
                            a->size, ct_psync[c % 2]);
    }
    ct_aset_sync(a);
    for (int c = 0; c < CALLS; c++)
        for (size_t i = 0; i < region; i++)
            PT_CHECK_EQ_F(c % 2 ? "shmem_fcollect64" : "shmem_collect64",
                          CT_VAL(int64_t, (int)(i / NELEMS), i % NELEMS, 60 + c),
                          d[c * region + i], "dest[%zu] of back-to-back call %d over %s", i, c,
                          a->name);
    ct_check_psync("shmem_[f]collect64", "after back-to-back calls");
}

static void asets(void)
{
    static const size_t sizes[] = {0, 1, 9, 3000};

    for (int k = 0; k < CT_ASETS; k++) {
        const ct_aset_t *a = &ct_aset[k];
        int call = 0; /* the same on every member */

        shmem_barrier_all(); /* one active set at a time: they share the pSync arrays */
        if (!ct_in_aset(a, pt_me))
            continue;
        for (size_t z = 0; z < sizeof sizes / sizeof *sizes; z++)
            for (int fixed = 0; fixed < 2; fixed++) {
                aset_one(a, 32, fixed, sizes[z], call++);
                aset_one(a, 64, fixed, sizes[z], call++);
            }
        aset_back_to_back(a);
    }
    shmem_barrier_all();
}

static void invalid_team(void)
{
    long s[2] = {1, 2}, *d = (long *)ct_dst;
    shmem_team_t bad = SHMEM_TEAM_INVALID;

    PT_CHECK("shmem_collectmem", shmem_collectmem(bad, d, s, 8) != 0, "nonzero");
    PT_CHECK("shmem_fcollectmem", shmem_fcollectmem(bad, d, s, 8) != 0, "nonzero");
    PT_CHECK("shmem_long_collect", shmem_long_collect(bad, d, s, 2) != 0, "nonzero");
    PT_CHECK("shmem_long_fcollect", shmem_long_fcollect(bad, d, s, 2) != 0, "nonzero");
}

int main(void)
{
    CT_SETUP();
    if (pt_npes <= 64)
        static_arrays();
    teams();
    asets();
    invalid_team();
    return ct_finish();
}
