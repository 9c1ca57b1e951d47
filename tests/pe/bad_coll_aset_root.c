/*
 * tests/pe/bad_coll_aset_root.c - a deprecated broadcast whose PE_root is
 * not below PE_size is reported as one line, then the job ends.
 */
/* EXPECT: gshmem: PE [0-9]+: shmem_broadcast32: PE_root [0-9]+ is not a PE of the active set \(0\.\.[0-9]+\) */
#include <shmem.h>
#include <stdio.h>

static long psync[SHMEM_BCAST_SYNC_SIZE];

int main(void)
{
    static int dest[4], src[4];
    int npes;

    shmem_init();
    npes = shmem_n_pes();
    shmem_broadcast32(dest, src, 4, npes, 0, 0, npes, psync);
    fprintf(stderr, "bad_coll_aset_root: the broadcast returned\n");
    shmem_finalize();
    return 0;
}
