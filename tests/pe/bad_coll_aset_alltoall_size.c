/*
 * tests/pe/bad_coll_aset_alltoall_size.c - a deprecated shmem_alltoall64
 * whose nelems differs between PEs: the last PE sends 1 element to each
 * PE, the others 2.  On 2 PEs the active set is every PE, closed by the
 * world's barrier; on 3 or more it is PEs 1..n-1, closed by the central
 * barrier on pSync (PE 0 stays out).  Either barrier carries the digest,
 * over load/store and over the network (the net twin), and one line naming
 * both sizes ends the job (issue 29), never silently short data.
 */
/* EXPECT: gshmem: PE [0-9]+: shmem_alltoall64: PEs disagree: (PE [13] sends 8 bytes to each PE, this PE 16|PE [0-9]+ sends 16 bytes to each PE, this PE 8) bytes */
/* EXPECT_WITHIN: 10 */
#include <shmem.h>
#include <stdio.h>

static long psync[SHMEM_ALLTOALL_SYNC_SIZE];

int main(void)
{
    static long dest[16], src[16];
    int me, n, start;

    shmem_init();
    me = shmem_my_pe(), n = shmem_n_pes();
    start = n > 2;
    if (me >= start)
        shmem_alltoall64(dest, src, me == n - 1 ? 1 : 2, start, 0, n - start, psync);
    shmem_barrier_all();
    fprintf(stderr, "bad_coll_aset_alltoall_size: the alltoall returned on PE %d\n", me);
    shmem_finalize();
    return 1;
}
