/*
 * tests/pe/bad_coll_routine.c - PEs that call different collectives: PE 0
 * broadcasts, the others fcollect, then all meet in shmem_barrier_all.
 * The digest names the routine: where the calls meet (the barrier that
 * closes one of them, or the other's signal) one line naming both ends
 * the job (issue 29).
 */
/* EXPECT: gshmem: PE [0-9]+: shmem_[a-z_]+: PEs disagree: PE [0-9]+ calls (a barrier|an fcollect|a broadcast).*, this PE shmem_[a-z_]+ */
/* EXPECT_WITHIN: 10 */
#include <shmem.h>
#include <stdio.h>

int main(void)
{
    char *dest, *src;
    int me, n;

    shmem_init();
    me = shmem_my_pe(), n = shmem_n_pes();
    dest = shmem_malloc((size_t)n * 8), src = shmem_malloc(8);
    if (me == 0)
        shmem_broadcastmem(SHMEM_TEAM_WORLD, dest, src, 8, 0);
    else
        shmem_fcollectmem(SHMEM_TEAM_WORLD, dest, src, 8);
    shmem_barrier_all();
    fprintf(stderr, "bad_coll_routine: the collectives returned on PE %d\n", me);
    shmem_finalize();
    return 1;
}
