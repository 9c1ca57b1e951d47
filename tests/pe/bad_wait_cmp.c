/*
 * tests/pe/bad_wait_cmp.c - a comparison that is not one of SHMEM_CMP_*
 * is reported instead of waiting forever.
 */
/* EXPECT: gshmem: PE 0: shmem_long_wait_until: cmp 99 is not one of */
#include <shmem.h>
#include <stdio.h>

int main(void)
{
    long *x;

    shmem_init();
    x = shmem_calloc(1, sizeof(long));
    if (shmem_my_pe() == 0)
        shmem_long_wait_until(x, 99, 0);
    shmem_barrier_all();
    fprintf(stderr, "bad_wait_cmp: shmem_long_wait_until with cmp 99 returned\n");
    shmem_free(x);
    shmem_finalize();
    return 0;
}
