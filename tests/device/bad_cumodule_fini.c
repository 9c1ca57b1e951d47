/*
 * tests/device/bad_cumodule_fini.c - finalizing a CUDA module that was never
 * initialized is reported (gshmem: PE n: gshmemx_cumodule_finalize: CUDA
 * module 0x... was not initialized ...).
 */
/* EXPECT: gshmem: PE [0-9]+: gshmemx_cumodule_finalize: CUDA module 0x[0-9a-f]+ was not initialized */
#include <gshmem.h>
#include <gshmem_device.h>
#include <stdio.h>

static int handle;

int main(void)
{
    shmem_init();
    gshmemx_cumodule_finalize(&handle);
    printf("bad_cumodule_fini: the finalize returned\n");
    shmem_finalize();
    return 0;
}
