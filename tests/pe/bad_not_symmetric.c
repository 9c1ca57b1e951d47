/*
 * tests/pe/bad_not_symmetric.c - a put whose destination is not symmetric
 * (private malloc memory) is reported, not carried out.
 */
/* EXPECT: gshmem: PE 0: shmem_putmem: .*is not in symmetric memory */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    long *dest = malloc(4 * sizeof(long));
    long src[4] = {1, 2, 3, 4};

    shmem_init();
    if (shmem_my_pe() == 0)
        shmem_putmem(dest, src, sizeof src, shmem_n_pes() - 1);
    shmem_barrier_all();
    fprintf(stderr, "bad_not_symmetric: the put to a private address returned\n");
    shmem_finalize();
    free(dest);
    return 0;
}
