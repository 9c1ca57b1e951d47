/*
 * tests/pe/bad_topo_gpu.c - a GSHMEM_GPU that names no GPU of the node ends
 * the job at shmem_init with one line naming the value and what it may be.
 */
/* EXPECT: gshmem: PE [0-9?]+: shmem_init: GSHMEM_GPU=99: no such GPU \(the node has [0-9]+ GPUs; give auto, none, an index from gshmem-info --topology or a PCI bus id\) */
#define _POSIX_C_SOURCE 200809L
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    setenv("GSHMEM_GPU", "99", 1);
    shmem_init();
    fprintf(stderr, "bad_topo_gpu: shmem_init accepted GSHMEM_GPU=99\n");
    shmem_finalize();
    return 0;
}
