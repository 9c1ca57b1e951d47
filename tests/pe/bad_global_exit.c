/*
 * tests/pe/bad_global_exit.c - shmem_global_exit from one PE ends the whole
 * job with a nonzero status while the other PEs wait in a barrier (they
 * must not hang).  Expected to fail: the line below is the program's own.
 */
/* EXPECT: bad_global_exit: PE [0-9]+ calls shmem_global_exit\(3\) */
#include <shmem.h>
#include <stdio.h>

int main(void)
{
    int me, npes;

    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    if (me == npes - 1) {
        fprintf(stderr, "bad_global_exit: PE %d calls shmem_global_exit(3)\n", me);
        fflush(stderr);
        shmem_global_exit(3);
    }
    shmem_barrier_all();
    fprintf(stderr, "bad_global_exit: PE %d left the barrier\n", me);
    shmem_finalize();
    return 0;
}
