/*
 * tests/pe/bad_reduce_overlap.c - dest and source of a reduction must be
 * the same array or disjoint ones; a partial overlap is reported as one
 * line naming the routine, then the job ends.
 */
/* EXPECT: gshmem: PE [0-9]+: shmem_long_sum_reduce: dest 0x[0-9a-f]+ and source 0x[0-9a-f]+ overlap: they must be the same array or disjoint */
#include <shmem.h>
#include <stdio.h>

static long buf[8];

int main(void)
{
    shmem_init();
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, buf + 1, buf, 4);
    fprintf(stderr, "bad_reduce_overlap: the reduction returned\n");
    shmem_finalize();
    return 0;
}
