/*
 * tests/pe/bad_hca_notopo.c - GSHMEM_HCA=abc with GSHMEM_TOPO=0 (no
 * topology is loaded) is still refused at shmem_init with one line, the
 * device looked up in sysfs: with P2P, over UCX (the -net twin), and on
 * one PE.  It used to be taken silently.
 */
/* EXPECT: gshmem: PE [0-9?]+: shmem_init: GSHMEM_HCA=abc: no such RDMA device on this node */
#define _POSIX_C_SOURCE 200809L
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    setenv("GSHMEM_TOPO", "0", 1);
    setenv("GSHMEM_HCA", "abc", 1);
    shmem_init();
    fprintf(stderr, "bad_hca_notopo: shmem_init accepted GSHMEM_HCA=abc\n");
    shmem_finalize();
    return 0;
}
