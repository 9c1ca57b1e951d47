/*
 * tests/pe/bad_coll_aset_range.c - an active set that reaches past the
 * last PE is reported as one line naming the routine, then the job ends.
 */
/* EXPECT: gshmem: PE [0-9]+: shmem_collect32: active set PE_start 0, logPE_stride 0, PE_size [0-9]+ reaches past PE [0-9]+ */
#include <shmem.h>
#include <stdio.h>

static long psync[SHMEM_COLLECT_SYNC_SIZE];

int main(void)
{
    static int dest[64], src[4];

    shmem_init();
    shmem_collect32(dest, src, 4, 0, 0, shmem_n_pes() + 1, psync);
    fprintf(stderr, "bad_coll_aset_range: the collect returned\n");
    shmem_finalize();
    return 0;
}
