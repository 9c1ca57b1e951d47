/*
 * tests/pe/coll_fcollect_wrap.c - fcollects whose call numbers have come
 * round (mod 2^15, the tag of the collectives' one-writer words) to that of
 * an earlier fcollect.  Over the network on a team, each member's first
 * block from its left neighbour is announced by a tagged word (the ring's
 * first word, src/coll/coll_collect.c); the wait for it also accepts the
 * neighbour's next call's tag (it may be one call ahead).  Broadcasts in
 * between count as calls too, so after 2^15 - 2 of them the next fcollect's
 * "next" tag, and after 2^15 - 1 its own tag, is the tag a word left from
 * the earlier fcollect carries.  PE 0 (the left neighbour of PE 1) comes
 * late to each such fcollect: a stale word would let PE 1 return before
 * PE 0's block had landed.  The word goes back to 0 once read (issue 29),
 * so every member gets every block.  On load/store (no ring) it is a plain
 * fcollect test.  ~3 s on 2 PEs (at 3 PEs on 2 cores over the network, 55 s: 2 PEs only).
 */
#include <unistd.h>

#include "pe_test.h"

#define N 64

static long src[N], dest[N * 8];

static int fcollect_late(int round)
{
    int bad = 0;

    for (int i = 0; i < N; i++)
        src[i] = (long)round << 32 | (long)pt_me << 16 | i;
    for (int i = 0; i < N * pt_npes; i++)
        dest[i] = -1;
    shmem_barrier_all(); /* every dest reset before any block lands (no call counted) */
    if (pt_me == 0)
        usleep(300 * 1000);
    shmem_long_fcollect(SHMEM_TEAM_WORLD, dest, src, N);
    for (int pe = 0; pe < pt_npes; pe++)
        for (int i = 0; i < N; i++)
            bad += dest[pe * N + i] != ((long)round << 32 | (long)pe << 16 | i);
    return bad;
}

static void fillers(int count)
{
    for (int k = 0; k < count; k++)
        shmem_long_broadcast(SHMEM_TEAM_WORLD, dest, src, 1, 0);
}

int main(void)
{
    PT_START();
    if (pt_npes > 8)
        return pt_finish();
    PT_CHECK_EQ("shmem_long_fcollect", 0, fcollect_late(1));
    fillers(32766); /* the next fcollect's "next" tag is the first one's */
    PT_CHECK_EQ("shmem_long_fcollect, next tag come round", 0, fcollect_late(2));
    fillers(32767); /* the next fcollect's own tag is the second one's */
    PT_CHECK_EQ("shmem_long_fcollect, tag come round", 0, fcollect_late(3));
    return pt_finish();
}
