/*
 * tests/pe/bad_hca_neg.c - GSHMEM_HCA=-1 (a negative number) is refused at
 * shmem_init with one line, whatever the transport: with P2P, over UCX
 * (the -net twin), and on one PE.  It used to be taken silently unless
 * the verbs transport started (tests/pe/bad_hca.c).
 */
/* EXPECT: gshmem: PE [0-9?]+: shmem_init: GSHMEM_HCA=-1: no such RDMA device on this node */
#define _POSIX_C_SOURCE 200809L
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    setenv("GSHMEM_HCA", "-1", 1);
    shmem_init();
    fprintf(stderr, "bad_hca_neg: shmem_init accepted GSHMEM_HCA=-1\n");
    shmem_finalize();
    return 0;
}
