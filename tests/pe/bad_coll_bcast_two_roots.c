/*
 * tests/pe/bad_coll_bcast_two_roots.c - a team broadcast of 64 KiB, above
 * GSHMEM_BCAST_PUSH_MAX (16 KiB), where the last PE names itself root and
 * the others name PE 0.  The load/store path pulls: each root publishes
 * READY on its own word and waits for ACKs that the other root never
 * sends.  A root finds the other's READY of the same call and ends the job
 * with one line naming both roots (issue 29), not a wait timeout; the net
 * twin sends down the tree (2 PEs), whose roots see each other's signal, or
 * scatters (4 PEs), where a member finds the other root's digest.
 */
/* EXPECT: gshmem: PE [0-9]+: shmem_broadcastmem: PEs disagree on the root: (PE [0-9]+ names PE [13], this PE names PE 0|PE [0-9]+ names PE 0, this PE names PE [13]) */
/* EXPECT_WITHIN: 10 */
#include <shmem.h>
#include <stdio.h>

int main(void)
{
    char *dest, *src;
    int me, n;

    shmem_init();
    me = shmem_my_pe(), n = shmem_n_pes();
    dest = shmem_malloc(65536), src = shmem_malloc(65536);
    shmem_broadcastmem(SHMEM_TEAM_WORLD, dest, src, 65536, me == n - 1 ? me : 0);
    shmem_barrier_all();
    fprintf(stderr, "bad_coll_bcast_two_roots: the broadcast returned on PE %d\n", me);
    shmem_finalize();
    return 1;
}
