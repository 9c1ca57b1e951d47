/*
 * tests/device/bad_dmalloc_mixed.c - one PE calls shmem_malloc where the
 * others call gshmem_malloc of the same size: the calls are counted
 * together, so the heap that differs is named.
 */
/* EXPECT: gshmem: PE [0-9]+: g?shmem_malloc: PE [0-9]+ allocates from the (device|symmetric) heap */
#include <gshmem.h>
#include <stdio.h>

int main(void)
{
    void *p;

    shmem_init();
    p = shmem_my_pe() == 0 ? shmem_malloc(1024) : gshmem_malloc(1024);
    fprintf(stderr, "bad_dmalloc_mixed: mixed allocation calls returned %p\n", p);
    shmem_finalize();
    return 0;
}
