/*
 * tests/pe/bad_skip_coll.c - a PE that skips a collective on the world
 * (a reduction, which needs every member) and finalizes while the others
 * wait in it: they end the job at once with a line naming it.
 */
/* EXPECT: gshmem: PE [0-9]+: shmem_long_sum_reduce: PE 1 called shmem_finalize while this PE waits in shmem_long_sum_reduce */
#include <shmem.h>
#include <stdio.h>

static long source[4], dest[4];

int main(void)
{
    shmem_init();
    if (shmem_n_pes() < 2) {
        fprintf(stderr, "bad_skip_coll: needs 2 PEs or more\n");
        shmem_finalize();
        return 0;
    }
    if (shmem_my_pe() != 1)
        shmem_long_sum_reduce(SHMEM_TEAM_WORLD, dest, source, 4);
    shmem_finalize();
    return 0;
}
