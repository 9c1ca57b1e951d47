/*
 * tests/pe/bad_coll_stride.c - alltoalls with a stride below 1 is reported
 * as one line naming the routine and both strides, then the job ends.
 */
/* EXPECT: gshmem: PE [0-9]+: shmem_alltoallsmem: strides dst 0 and sst 1 must be at least 1 */
#include <shmem.h>
#include <stdio.h>

int main(void)
{
    static char dest[64], src[64];

    shmem_init();
    shmem_alltoallsmem(SHMEM_TEAM_WORLD, dest, src, 0, 1, 4);
    fprintf(stderr, "bad_coll_stride: the alltoalls returned\n");
    shmem_finalize();
    return 0;
}
