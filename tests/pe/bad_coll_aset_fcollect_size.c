/*
 * tests/pe/bad_coll_aset_fcollect_size.c - a deprecated shmem_fcollect64
 * whose nelems differs between PEs: the last PE collects 1 element from
 * each PE, the others 2.  On 2 PEs the active set is every PE; on 3 or
 * more it is PEs 1..n-1 (PE 0 stays out).  The load/store path closes
 * with a barrier that carries the digest; the net twin's ring has no
 * barrier, and the left neighbour's digest rides the pSync word after
 * RING.  One line naming both sizes ends the job (issue 29), never
 * silently short data.
 */
/* EXPECT: gshmem: PE ([0-9]+: shmem_fcollect64: PEs disagree: PE [13] collects 8 bytes from each PE, this PE 16|[13]: shmem_fcollect64: PEs disagree: PE [0-9]+ collects 16 bytes from each PE, this PE 8) bytes */
/* EXPECT_WITHIN: 10 */
#include <shmem.h>
#include <stdio.h>

static long psync[SHMEM_COLLECT_SYNC_SIZE];

int main(void)
{
    static long dest[16], src[2];
    int me, n, start;

    shmem_init();
    me = shmem_my_pe(), n = shmem_n_pes();
    start = n > 2;
    if (me >= start)
        shmem_fcollect64(dest, src, me == n - 1 ? 1 : 2, start, 0, n - start, psync);
    shmem_barrier_all();
    fprintf(stderr, "bad_coll_aset_fcollect_size: the fcollect returned on PE %d\n", me);
    shmem_finalize();
    return 1;
}
