/*
 * tests/pe/bad_coll_bcast_root.c - a team broadcast whose root differs between
 * PEs: every PE names itself.  On two PEs both are roots (8 bytes: the
 * load/store path pushes; the network path sends down the tree), each
 * writes its digest into the other's signal line, and a root that finds
 * another root's digest there ends the job with one line naming both
 * roots (issue 29), never silently different data.
 */
/* EXPECT: gshmem: PE [0-9]+: shmem_broadcastmem: PEs disagree on the root: PE [0-9]+ names PE [0-9]+, this PE names PE [0-9]+ */
/* EXPECT_WITHIN: 10 */
#include <shmem.h>
#include <stdio.h>

int main(void)
{
    static long dest[1], src[1];
    int me;

    shmem_init();
    me = shmem_my_pe();
    shmem_broadcastmem(SHMEM_TEAM_WORLD, dest, src, sizeof src, me);
    shmem_barrier_all();
    fprintf(stderr, "bad_coll_bcast_root: the broadcast returned on PE %d\n", me);
    shmem_finalize();
    return 1;
}
