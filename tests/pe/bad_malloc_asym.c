/*
 * tests/pe/bad_malloc_asym.c - shmem_malloc of a different size on one PE
 * is reported without SHMEM_DEBUG: the PEs' addresses would part from here
 * on, and puts and gets land in the wrong objects.
 */
/* EXPECT: gshmem: PE [0-9]+: shmem_malloc: PE [0-9]+ asked for [0-9]+ bytes, this PE for [0-9]+ */
#include <shmem.h>
#include <stdio.h>

int main(void)
{
    void *p;

    shmem_init();
    p = shmem_malloc(shmem_my_pe() == 0 ? 1024 : 2048);
    fprintf(stderr, "bad_malloc_asym: shmem_malloc of different sizes returned %p\n", p);
    shmem_free(p);
    shmem_finalize();
    return 0;
}
