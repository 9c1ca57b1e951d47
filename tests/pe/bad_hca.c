/*
 * tests/pe/bad_hca.c - GSHMEM_TRANSPORT=verbs with a GSHMEM_HCA that names
 * no device ends the job with one line naming the variable (or, in a build
 * without libibverbs, saying the build has no verbs transport), on a host
 * with RDMA devices and on one without.  Every peer is reached through the
 * network (GSHMEM_DISABLE_P2P=1), so the transport starts.
 */
/* EXPECT: gshmem: PE [0-9?]+: shmem_init: ((transport verbs: )?GSHMEM_HCA=nosuch0(:1)?: no such RDMA device|GSHMEM_TRANSPORT=verbs: this build has no verbs transport) */
#define _POSIX_C_SOURCE 200809L
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    setenv("GSHMEM_TRANSPORT", "verbs", 1);
    setenv("GSHMEM_HCA", "nosuch0", 1);
    setenv("GSHMEM_DISABLE_P2P", "1", 1);
    shmem_init();
    fprintf(stderr, "bad_hca: shmem_init accepted GSHMEM_HCA=nosuch0\n");
    shmem_finalize();
    return 0;
}
