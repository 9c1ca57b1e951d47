/*
 * tests/pe/bad_hca_abc.c - GSHMEM_HCA=abc (a name no device has) is refused at
 * shmem_init with one line, whatever the transport: with P2P, over UCX
 * (the -net twin), and on one PE.  It used to be taken silently unless
 * the verbs transport started (tests/pe/bad_hca.c).
 */
/* EXPECT: gshmem: PE [0-9?]+: shmem_init: GSHMEM_HCA=abc: no such RDMA device on this node */
#define _POSIX_C_SOURCE 200809L
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    setenv("GSHMEM_HCA", "abc", 1);
    shmem_init();
    fprintf(stderr, "bad_hca_abc: shmem_init accepted GSHMEM_HCA=abc\n");
    shmem_finalize();
    return 0;
}
