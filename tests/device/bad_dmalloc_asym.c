/*
 * tests/device/bad_dmalloc_asym.c - gshmem_malloc of a different size on one
 * PE is reported without SHMEM_DEBUG, as shmem_malloc's is: the PEs' device
 * heaps would part from here on, and a put lands in the wrong object while
 * the program exits 0.
 */
/* EXPECT: gshmem: PE [0-9]+: gshmem_malloc: PE [0-9]+ asked for [0-9]+ bytes, this PE for [0-9]+ */
#include <gshmem.h>
#include <stdio.h>

int main(void)
{
    void *p;

    shmem_init();
    p = gshmem_malloc(shmem_my_pe() == 0 ? 1024 : 2048);
    fprintf(stderr, "bad_dmalloc_asym: gshmem_malloc of different sizes returned %p\n", p);
    gshmem_free(p);
    shmem_finalize();
    return 0;
}
