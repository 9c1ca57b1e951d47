/*
 * tests/device/bad_culib_twice.c - initializing the same CUDA library twice
 * is reported (gshmem: PE n: gshmemx_culibrary_init: CUDA library 0x...
 * is initialized already), not silently taken.
 */
/* EXPECT: gshmem: PE [0-9]+: gshmemx_culibrary_init: CUDA library 0x[0-9a-f]+ is initialized already */
#include <gshmem.h>
#include <gshmem_device.h>
#include <stdio.h>

static int handle;

int main(void)
{
    shmem_init();
    gshmemx_culibrary_init(&handle);
    gshmemx_culibrary_init(&handle);
    printf("bad_culib_twice: the second init returned\n");
    shmem_finalize();
    return 0;
}
