/*
 * tests/pe/bad_dead_peer.c - the last PE dies (SIGKILL: no atexit, no
 * finalize) while the others wait in shmem_wait_until for its store: the
 * job must end within seconds, not at GSHMEM_WAIT_TIMEOUT.  A waiter that
 * finds the process gone says so (src/core/liveness.c); mpirun (it sees
 * a process killed) and the uid bootstrap (its connection closes) usually
 * end the job first, with their own line, which passes too.
 */
/* EXPECT: (PE [0-9]+ \(pid [0-9]+\) ended without shmem_finalize while this PE waits in shmem_[a-z0-9_]*wait_until|exited on signal 9|PE [0-9]+ \(pid [0-9]+ on [^)]*\) died) */
/* EXPECT_WITHIN: 10 */
#define _POSIX_C_SOURCE 200809L
#include <shmem.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

static int flag;

int main(void)
{
    setenv("GSHMEM_WAIT_TIMEOUT", "60", 1);
    shmem_init();
    if (shmem_n_pes() < 2) {
        fprintf(stderr, "bad_dead_peer: needs 2 PEs or more\n");
        shmem_finalize();
        return 0;
    }
    shmem_barrier_all();
    if (shmem_my_pe() == shmem_n_pes() - 1)
        raise(SIGKILL);
    shmem_int_wait_until(&flag, SHMEM_CMP_EQ, 1);
    fprintf(stderr, "bad_dead_peer: shmem_int_wait_until returned\n");
    return 1;
}
