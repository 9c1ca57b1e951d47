/*
 * tests/pe/bad_coll_reduce_count.c - a team reduction whose element count
 * differs between PEs: the last PE reduces half what the others do.  The
 * reduction's first barrier compares the members' digests before any
 * member reads another's source: one line naming both counts ends the
 * job (issue 29).
 */
/* EXPECT: gshmem: PE ([0-9]+: shmem_int_sum_reduce: PEs disagree: PE [13] reduces 4 elements, this PE 8|[13]: shmem_int_sum_reduce: PEs disagree: PE [0-9]+ reduces 8 elements, this PE 4) elements */
/* EXPECT_WITHIN: 10 */
#include <shmem.h>
#include <stdio.h>

int main(void)
{
    int *dest, *src;
    int me, n;

    shmem_init();
    me = shmem_my_pe(), n = shmem_n_pes();
    dest = shmem_calloc(8, sizeof(int)), src = shmem_calloc(8, sizeof(int));
    shmem_int_sum_reduce(SHMEM_TEAM_WORLD, dest, src, me == n - 1 ? 4 : 8);
    shmem_barrier_all();
    fprintf(stderr, "bad_coll_reduce_count: the reduction returned on PE %d\n", me);
    shmem_finalize();
    return 1;
}
