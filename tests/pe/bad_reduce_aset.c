/*
 * tests/pe/bad_reduce_aset.c - a deprecated _to_all reduction on an active
 * set that reaches past the last PE is reported as one line naming the
 * routine and the set, then the job ends.
 */
/* EXPECT: gshmem: PE [0-9]+: shmem_int_sum_to_all: active set PE_start 0, logPE_stride 0, PE_size [0-9]+ reaches past PE [0-9]+ */
#include <shmem.h>
#include <stdio.h>

static int dest[4], source[4] = {1, 2, 3, 4};
static int pwrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static long psync[SHMEM_REDUCE_SYNC_SIZE];

int main(void)
{
    shmem_init();
    shmem_int_sum_to_all(dest, source, 4, 0, 0, shmem_n_pes() + 1, pwrk, psync);
    fprintf(stderr, "bad_reduce_aset: the reduction returned\n");
    shmem_finalize();
    return 0;
}
