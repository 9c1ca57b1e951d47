/*
 * tests/pe/bad_skip_barrier.c - a PE that skips a barrier and finalizes
 * while the others wait in it.  shmem_finalize's barrier completed theirs,
 * the finalizing PE left, and the others hung in their own finalize
 * forever; now a PE that waits next to the finalizing one reads its
 * "finalizing" flag and ends the job at once, naming it - without
 * GSHMEM_WAIT_TIMEOUT (the harness's timeout would fail a hang).
 */
/* EXPECT: gshmem: PE [0-9]+: shmem_barrier_all: PE 1 called shmem_finalize while this PE waits in shmem_barrier_all */
#include <shmem.h>
#include <stdio.h>

int main(void)
{
    shmem_init();
    if (shmem_n_pes() < 2) {
        fprintf(stderr, "bad_skip_barrier: needs 2 PEs or more\n");
        shmem_finalize();
        return 0;
    }
    if (shmem_my_pe() != 1)
        shmem_barrier_all();
    shmem_finalize();
    return 0;
}
