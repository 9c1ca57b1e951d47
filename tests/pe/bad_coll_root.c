/*
 * tests/pe/bad_coll_root.c - a team broadcast from a PE_root that is not a
 * member of the team is reported as one line naming the routine and the
 * valid range, then the job ends.
 */
/* EXPECT: gshmem: PE [0-9]+: shmem_broadcastmem: PE_root [0-9]+ is not a PE of the team \(0\.\.[0-9]+\) */
#include <shmem.h>
#include <stdio.h>

int main(void)
{
    static long dest[4], src[4];

    shmem_init();
    shmem_broadcastmem(SHMEM_TEAM_WORLD, dest, src, sizeof src, shmem_n_pes());
    fprintf(stderr, "bad_coll_root: the broadcast returned\n");
    shmem_finalize();
    return 0;
}
