/*
 * tests/pe/bad_coll_bcast_size.c - a team broadcast whose byte count
 * differs between PEs: the last PE broadcasts half what the others do.
 * Both counts are above GSHMEM_BCAST_PUSH_MAX (16 KiB), so the load/store
 * path pulls, and the root's READY word carries its digest; its net twin
 * (GSHMEM_DISABLE_P2P=1) sends down the tree, and the parent's signal word
 * carries it (on 4 PEs the last PE's parent is PE 2, not the root): one
 * line naming both counts ends the job, never silently short data
 * (issue 29).
 */
/* EXPECT: gshmem: PE [13]: shmem_broadcastmem: PEs disagree: (the root, PE 0,|PE [0-9]+) broadcasts 65536 bytes, this PE 32768 bytes */
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
    shmem_broadcastmem(SHMEM_TEAM_WORLD, dest, src, me == n - 1 ? 32768 : 65536, 0);
    shmem_barrier_all();
    fprintf(stderr, "bad_coll_bcast_size: the broadcast returned on PE %d\n", me);
    shmem_finalize();
    return 1;
}
