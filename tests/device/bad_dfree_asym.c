/*
 * tests/device/bad_dfree_asym.c - gshmem_free of different blocks on
 * different PEs is reported: the next gshmem_malloc would reuse a
 * different block on each PE.
 */
/* EXPECT: gshmem: PE [0-9]+: gshmem_free: PE [0-9]+ passed the block at heap offset 0x[0-9a-f]+, this PE the one at 0x[0-9a-f]+ */
#include <gshmem.h>
#include <stdio.h>

int main(void)
{
    void *a, *b;

    shmem_init();
    a = gshmem_malloc(1024);
    b = gshmem_malloc(1024);
    gshmem_free(shmem_my_pe() == 0 ? a : b);
    fprintf(stderr, "bad_dfree_asym: gshmem_free of different blocks returned\n");
    shmem_finalize();
    return 0;
}
