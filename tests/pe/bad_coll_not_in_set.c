/*
 * tests/pe/bad_coll_not_in_set.c - a PE that calls a deprecated collective
 * of an active set it does not belong to is reported as one line, then
 * the job ends (PE 0, the only member, waits in a barrier: it must not
 * hang).  Needs 2 PEs or more.
 */
/* EXPECT: gshmem: PE [1-9][0-9]*: shmem_fcollect64: PE [1-9][0-9]* is not in the active set PE_start 0, logPE_stride 0, PE_size 1 */
#include <shmem.h>
#include <stdio.h>

static long psync[SHMEM_COLLECT_SYNC_SIZE];

int main(void)
{
    static long dest[4], src[4];

    shmem_init();
    shmem_fcollect64(dest, src, 4, 0, 0, 1, psync);
    shmem_barrier_all();
    fprintf(stderr, "bad_coll_not_in_set: PE %d returned\n", shmem_my_pe());
    shmem_finalize();
    return 0;
}
