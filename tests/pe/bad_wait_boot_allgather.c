/*
 * tests/pe/bad_wait_boot_allgather.c - a wait inside the bootstrap's
 * allgather honours GSHMEM_WAIT_TIMEOUT.  With SHMEM_DEBUG=1, shmem_malloc
 * proves its symmetry with one allgather before its barrier; here every PE
 * but the last calls it, and the last never does (it sleeps, outside the
 * library).  The callers waited in the launcher's fence forever; now they
 * end the job after GSHMEM_WAIT_TIMEOUT=5 s with one line naming the
 * routine and what it waited for.
 */
/* EXPECT: gshmem: PE [0-9]+: shmem_malloc: cannot check the allocation's symmetry: [a-z0-9]+: waited more than GSHMEM_WAIT_TIMEOUT=5 s for every PE to reach exchange [0-9]+ */
/* The line comes once GSHMEM_WAIT_TIMEOUT has passed, on purpose: */
/* EXPECT_WITHIN: 20 */
#define _POSIX_C_SOURCE 200809L
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(void)
{
    setenv("GSHMEM_WAIT_TIMEOUT", "5", 1);
    setenv("SHMEM_DEBUG", "1", 1);
    shmem_init();
    if (shmem_my_pe() == shmem_n_pes() - 1) {
        sleep(40); /* never calls it; the others' timeout ends the job first */
        fprintf(stderr, "bad_wait_boot_allgather: the job outlived the callers' timeout\n");
        return 1;
    }
    shmem_malloc(4096);
    fprintf(stderr, "bad_wait_boot_allgather: shmem_malloc returned\n");
    return 1;
}
