/*
 * tests/pe/bad_coll_alltoall_size.c - a team alltoall whose block size
 * differs between PEs: the last PE sends half what the others do.  The
 * barrier that closes the call compares the members' digests (the central
 * barrier's release, the dissemination's flags): one line naming both
 * sizes ends the job (issue 29).
 */
/* EXPECT: gshmem: PE ([0-9]+: shmem_alltoallmem: PEs disagree: PE [13] sends 32 bytes to each PE, this PE 64|[13]: shmem_alltoallmem: PEs disagree: PE [0-9]+ sends 64 bytes to each PE, this PE 32) bytes */
/* EXPECT_WITHIN: 10 */
#include <shmem.h>
#include <stdio.h>

int main(void)
{
    char *dest, *src;
    int me, n;

    shmem_init();
    me = shmem_my_pe(), n = shmem_n_pes();
    dest = shmem_malloc((size_t)n * 64), src = shmem_malloc((size_t)n * 64);
    shmem_alltoallmem(SHMEM_TEAM_WORLD, dest, src, me == n - 1 ? 32 : 64);
    shmem_barrier_all();
    fprintf(stderr, "bad_coll_alltoall_size: the alltoall returned on PE %d\n", me);
    shmem_finalize();
    return 1;
}
