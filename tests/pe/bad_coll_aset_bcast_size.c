/*
 * tests/pe/bad_coll_aset_bcast_size.c - a deprecated shmem_broadcast64
 * whose nelems differs between PEs: the last PE expects 1 element, the
 * others 2, from the active set's first PE.  On 2 PEs the active set is
 * every PE; on 3 or more it is PEs 1..n-1 (PE 0 stays out).  32 and 64
 * KiB, above GSHMEM_BCAST_PUSH_MAX: the load/store path pulls, and the
 * root's READY carries its digest (an active set's push path has no check:
 * with two pSync arrays in alternation a later call's root may push to a
 * member still in this call, src/coll/coll_bcast.c); the net twin sends
 * down the tree, closed by a barrier that carries the digest.  One line
 * naming both sizes ends the job (issue 29), never silently short data.
 */
/* EXPECT: gshmem: PE ([13]: shmem_broadcast64: PEs disagree: (the root, PE [0-9]+,|PE [0-9]+) broadcasts 65536 bytes, this PE 32768|[0-9]+: shmem_broadcast64: PEs disagree: PE [13] broadcasts 32768 bytes, this PE 65536) bytes */
/* EXPECT_WITHIN: 10 */
#include <shmem.h>
#include <stdio.h>

static long psync[SHMEM_BCAST_SYNC_SIZE];

int main(void)
{
    static long dest[8192], src[8192];
    int me, n, start;

    shmem_init();
    me = shmem_my_pe(), n = shmem_n_pes();
    start = n > 2;
    if (me >= start)
        shmem_broadcast64(dest, src, me == n - 1 ? 4096 : 8192, 0, start, 0, n - start, psync);
    shmem_barrier_all();
    fprintf(stderr, "bad_coll_aset_bcast_size: the broadcast returned on PE %d\n", me);
    shmem_finalize();
    return 1;
}
