/*
 * tests/pe/coll_test.h - what the data-collective tests share: the teams
 * they run on, the active sets of the deprecated forms, the value every
 * element should have, and symmetric scratch buffers.
 *
 * Built a second time with COLL_NET defined (the *_net programs): then
 * GSHMEM_COLL_P2P=0 is set before shmem_init, which forces the network
 * algorithms (tree, ring, chain, puts and signals) although every PE is
 * mapped.
 */
#ifndef COLL_TEST_H
#define COLL_TEST_H

#include "pe_test.h"

/* The teams: world, the even PEs (strided), all but PE 0, the rows and
 * the columns of a 2-D split with rows of 2.  A PE that is not in a team
 * holds SHMEM_TEAM_INVALID for it. */
enum { CT_WORLD, CT_EVEN, CT_NOT0, CT_ROW, CT_COL, CT_TEAMS };
static shmem_team_t ct_team[CT_TEAMS];

/* Active sets: (PE_start, logPE_stride, PE_size); PE_size 0: skipped. */
typedef struct ct_aset {
    const char *name;
    int start, log_stride, size;
} ct_aset_t;
static ct_aset_t ct_aset[4];
#define CT_ASETS 4

PT_UNUSED static int ct_in_aset(const ct_aset_t *a, int pe)
{
    int stride = 1 << a->log_stride, d = pe - a->start;

    return a->size > 0 && d >= 0 && d % stride == 0 && d / stride < a->size;
}

/* Under the network transport (GSHMEM_DISABLE_P2P=1, the .net twins of
 * these tests) every put and signal is a network operation: the typed
 * checks then cover one type of each size (the library moves bytes; the
 * type only sets how many), and the loops run fewer rounds. */
static int ct_light;

PT_UNUSED static int ct_type_on(const char *typename)
{
    static const char *const reps[] = {"char",       "short", "int",   "long",
                                       "longdouble", "float", "double"};

    if (!ct_light)
        return 1;
    for (size_t k = 0; k < sizeof reps / sizeof *reps; k++)
        if (strcmp(typename, reps[k]) == 0)
            return 1;
    return 0;
}

/* Scratch: CT_BYTES per buffer, 64-byte aligned, symmetric. */
#define CT_BYTES (320 * 1024)
static char *ct_src, *ct_dst;

/* pSync arrays of the calls under test, used in turn: back to
 * SHMEM_SYNC_VALUE after every call.  The tests synchronize an active set
 * between calls with shmem_sync on a third one (consecutive shmem_sync
 * calls may share a pSync). */
static long ct_psync[2][SHMEM_SYNC_SIZE];
static long ct_psync_sync[SHMEM_SYNC_SIZE];

PT_UNUSED static void ct_aset_sync(const ct_aset_t *a)
{
    shmem_sync(a->start, a->log_stride, a->size, ct_psync_sync);
}

/* Element i of the data that team member `pe` contributes (salt varies it
 * between calls): small integers, exact in every RMA type. */
#define CT_VAL(T, pe, i, salt) ((T)((((long)(pe)*37 + (long)(i)*11 + (salt)*5) % 113) + 1))
#define CT_POISON 0x5a /* fill byte of dest before a call: no element equals it */

/* The program's start: CT_SETUP() names it in the verdict. */
#define CT_SETUP() ct_setup_(__FILE__)

PT_UNUSED static void ct_setup_(const char *file)
{
    shmem_team_config_t *none = NULL;
    int half;

#ifdef COLL_NET
    setenv("GSHMEM_COLL_P2P", "0", 1);
#endif
    shmem_init();
    pt_setup_(file);
    ct_light = getenv("GSHMEM_DISABLE_P2P") && atoi(getenv("GSHMEM_DISABLE_P2P"));
    half = (pt_npes + 1) / 2;
    for (int t = 0; t < CT_TEAMS; t++)
        ct_team[t] = SHMEM_TEAM_INVALID;
    ct_team[CT_WORLD] = SHMEM_TEAM_WORLD;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, half, none, 0, &ct_team[CT_EVEN]);
    if (pt_npes > 1)
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 1, pt_npes - 1, none, 0,
                                 &ct_team[CT_NOT0]);
    shmem_team_split_2d(SHMEM_TEAM_WORLD, 2, none, 0, &ct_team[CT_ROW], none, 0,
                        &ct_team[CT_COL]);

    ct_aset[0] = (ct_aset_t){"all PEs", 0, 0, pt_npes};
    ct_aset[1] = (ct_aset_t){"even PEs", 0, 1, half};
    ct_aset[2] = (ct_aset_t){"PEs 1..n-1", 1, 0, pt_npes - 1};
    ct_aset[3] = (ct_aset_t){"the last PE", pt_npes - 1, 0, 1};

    for (int k = 0; k < SHMEM_SYNC_SIZE; k++)
        ct_psync[0][k] = ct_psync[1][k] = ct_psync_sync[k] = SHMEM_SYNC_VALUE;
    ct_src = shmem_align(64, CT_BYTES);
    ct_dst = shmem_align(64, CT_BYTES);
    if (!ct_src || !ct_dst) {
        fprintf(stderr, "FAIL PE %d: shmem_align: scratch buffers: expected memory, got NULL\n",
                pt_me);
        shmem_global_exit(1);
    }
    shmem_barrier_all();
}

/* Every word of both pSync arrays is SHMEM_SYNC_VALUE again (no member
 * may be in a call on them). */
PT_UNUSED static void ct_check_psync(const char *routine, const char *when)
{
    for (int p = 0; p < 2; p++)
        for (int k = 0; k < SHMEM_SYNC_SIZE; k++)
            PT_CHECK_EQ_F(routine, SHMEM_SYNC_VALUE, ct_psync[p][k], "pSync%d[%d] %s", p, k,
                          when);
}

PT_UNUSED static int ct_finish(void)
{
    shmem_barrier_all();
    for (int t = CT_EVEN; t < CT_TEAMS; t++)
        if (ct_team[t] != SHMEM_TEAM_INVALID)
            shmem_team_destroy(ct_team[t]);
    shmem_free(ct_src);
    shmem_free(ct_dst);
    return pt_finish();
}

#endif /* COLL_TEST_H */
