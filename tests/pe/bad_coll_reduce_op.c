/*
 * tests/pe/bad_coll_reduce_op.c - a team reduction whose operator differs
 * between PEs: the last PE takes the maximum while the others sum.  The
 * digest carries a hash of the routine's name, which names its operator
 * and type: one line naming this PE's routine ends the job (issue 29).
 */
/* EXPECT: gshmem: PE ([0-9]+: shmem_int_sum_reduce: PEs disagree: PE [13] calls a reduction of another operator or type than shmem_int_sum_reduce|[13]: shmem_int_max_reduce: PEs disagree: PE [0-9]+ calls a reduction of another operator or type than shmem_int_max_reduce) */
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
    if (me == n - 1)
        shmem_int_max_reduce(SHMEM_TEAM_WORLD, dest, src, 8);
    else
        shmem_int_sum_reduce(SHMEM_TEAM_WORLD, dest, src, 8);
    shmem_barrier_all();
    fprintf(stderr, "bad_coll_reduce_op: the reduction returned on PE %d\n", me);
    shmem_finalize();
    return 1;
}
