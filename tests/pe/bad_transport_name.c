/*
 * tests/pe/bad_transport_name.c - GSHMEM_TRANSPORT other than auto, ucx, verbs or
 * node is rejected at shmem_init with one line, also where no peer needs
 * the network.
 */
/* EXPECT: gshmem: PE [0-9?]+: shmem_init: GSHMEM_TRANSPORT=tcp: expected auto, ucx, verbs or node */
#define _POSIX_C_SOURCE 200809L
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    setenv("GSHMEM_TRANSPORT", "tcp", 1);
    shmem_init();
    fprintf(stderr, "bad_transport_name: shmem_init accepted GSHMEM_TRANSPORT=tcp\n");
    shmem_finalize();
    return 0;
}
