/*
 * tests/pe/bad_coll_psync.c - a pSync that is not symmetric (here on the
 * stack) is reported as one line naming the routine, then the job ends.
 */
/* EXPECT: gshmem: PE [0-9]+: shmem_alltoall64: pSync 0x[0-9a-f]+ is not a symmetric array */
#include <shmem.h>
#include <stdio.h>

int main(void)
{
    static long dest[64], src[64];
    long psync[SHMEM_ALLTOALL_SYNC_SIZE];

    for (int k = 0; k < SHMEM_ALLTOALL_SYNC_SIZE; k++)
        psync[k] = SHMEM_SYNC_VALUE;
    shmem_init();
    shmem_alltoall64(dest, src, 1, 0, 0, shmem_n_pes(), psync);
    fprintf(stderr, "bad_coll_psync: the alltoall returned\n");
    shmem_finalize();
    return 0;
}
