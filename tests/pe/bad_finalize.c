/*
 * tests/pe/bad_finalize.c - one shmem_finalize more than there were
 * shmem_init calls is reported.
 */
/* EXPECT: gshmem: PE [0-9?]+: shmem_finalize: called before shmem_init \(or after the last shmem_finalize\) */
#include <shmem.h>
#include <stdio.h>

int main(void)
{
    shmem_init();
    shmem_finalize();
    shmem_finalize();
    fprintf(stderr, "bad_finalize: the extra shmem_finalize returned\n");
    return 0;
}
