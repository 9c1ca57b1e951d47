/*
 * tests/pe/bad_coll_aset_bcast_size.c - a deprecated shmem_broadcast64
 * whose nelems differs between PEs: the last PE expects 1 element, the
 * others 2, from the active set's first PE.  On 2 PEs the active set is
 * every PE; on 3 or more it is PEs 1..n-1 (PE 0 stays out).  8 and 16
 * bytes: the load/store path pushes, and the root stores its digest in the
 * pSync word after each member's BCAST counter; the net twin sends down
 * the tree, closed by a barrier that carries the digest.  One line naming
 * both sizes ends the job (issue 29), never silently short data.
 */
/* EXPECT: gshmem: PE ([13]: shmem_broadcast64: PEs disagree: (the root, PE [0-9]+,|PE [0-9]+) broadcasts 16 bytes, this PE 8|[0-9]+: shmem_broadcast64: PEs disagree: PE [13] broadcasts 8 bytes, this PE 16) bytes */
/* EXPECT_WITHIN: 10 */
#include <shmem.h>
#include <stdio.h>

static long psync[SHMEM_BCAST_SYNC_SIZE];

int main(void)
{
    static long dest[2], src[2];
    int me, n, start;

    shmem_init();
    me = shmem_my_pe(), n = shmem_n_pes();
    start = n > 2;
    if (me >= start)
        shmem_broadcast64(dest, src, me == n - 1 ? 1 : 2, 0, start, 0, n - start, psync);
    shmem_barrier_all();
    fprintf(stderr, "bad_coll_aset_bcast_size: the broadcast returned on PE %d\n", me);
    shmem_finalize();
    return 1;
}
