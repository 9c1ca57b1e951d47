/*
 * tests/pe/bad_dead_child.c - a node peer that ends without finalize,
 * seen by the library itself: rank 1 forks before shmem_init, and the
 * child is the PE; the parent, the process the launcher watches, sleeps
 * on.  The PE SIGKILLs itself while PE 0 waits in shmem_wait_until: the
 * launcher sees nothing (bad_dead_peer.c is the case it sees), the dead PE
 * stays a zombie its parent does not reap, and PE 0's failure propagation
 * (src/core/liveness.c) ends the job within seconds, naming it.  The uid
 * bootstrap, whose connection to the PE closes, may end it first.
 */
/* EXPECT: (gshmem: PE 0: shmem_int_wait_until: PE 1 \(pid [0-9]+\) ended without shmem_finalize while this PE waits in shmem_int_wait_until|PE 1 \(pid [0-9]+ on [^)]*\) died) */
/* EXPECT_WITHIN: 10 */
#define _POSIX_C_SOURCE 200809L
#include <shmem.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int flag;

/* This process's rank, from the launcher's environment, before init. */
static int launcher_rank(void)
{
    static const char *const vars[] = {"PMIX_RANK", "OMPI_COMM_WORLD_RANK", "GSHMEM_UID_RANK",
                                       "PMI_RANK", "SLURM_PROCID"};

    for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++)
        if (getenv(vars[i]))
            return atoi(getenv(vars[i]));
    return -1;
}

int main(void)
{
    if (launcher_rank() == 1 && fork() > 0) {
        sleep(40); /* the job ends first: the launcher kills this process */
        return 0;
    }
    setenv("GSHMEM_WAIT_TIMEOUT", "60", 1);
    shmem_init();
    if (shmem_n_pes() < 2) {
        fprintf(stderr, "bad_dead_child: needs 2 PEs or more\n");
        shmem_finalize();
        return 0;
    }
    shmem_barrier_all();
    if (shmem_my_pe() == 1)
        raise(SIGKILL);
    shmem_int_wait_until(&flag, SHMEM_CMP_EQ, 1);
    fprintf(stderr, "bad_dead_child: shmem_int_wait_until returned\n");
    return 1;
}
