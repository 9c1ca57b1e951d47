/*
 * tests/pe/bad_free.c - shmem_free of a pointer that shmem_malloc did not
 * return (a stack address) is reported.
 */
/* EXPECT: gshmem: PE [0-9]+: shmem_free: .*was not returned by shmem_malloc */
#include <shmem.h>
#include <stdio.h>

int main(void)
{
    long local[2];

    shmem_init();
    shmem_free(local);
    fprintf(stderr, "bad_free: shmem_free of a stack address returned\n");
    shmem_finalize();
    return 0;
}
