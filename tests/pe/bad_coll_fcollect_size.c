/*
 * tests/pe/bad_coll_fcollect_size.c - a team fcollect whose byte count
 * differs between PEs: the last PE collects half what the others do.  The
 * load/store path compares the digests in the closing barrier's release,
 * the network ring in the first block's signal from the left neighbour:
 * one line naming both counts ends the job (issue 29).
 */
/* EXPECT: gshmem: PE ([0-9]+: shmem_fcollectmem: PEs disagree: PE [13] collects 32 bytes from each PE, this PE 64|[13]: shmem_fcollectmem: PEs disagree: PE [0-9]+ collects 64 bytes from each PE, this PE 32) bytes */
/* EXPECT_WITHIN: 10 */
#include <shmem.h>
#include <stdio.h>

int main(void)
{
    char *dest, *src;
    int me, n;

    shmem_init();
    me = shmem_my_pe(), n = shmem_n_pes();
    dest = shmem_malloc((size_t)n * 64), src = shmem_malloc(64);
    shmem_fcollectmem(SHMEM_TEAM_WORLD, dest, src, me == n - 1 ? 32 : 64);
    shmem_barrier_all();
    fprintf(stderr, "bad_coll_fcollect_size: the fcollect returned on PE %d\n", me);
    shmem_finalize();
    return 1;
}
