/*
 * tests/pe/bad_dead_peer_mt.c - as bad_dead_peer, at SHMEM_THREAD_MULTIPLE,
 * and the last PE leaves with _exit(0) (no finalize, no atexit, and a
 * status the launcher does not count as a failure): only the waiters can
 * tell.  At THREAD_MULTIPLE the liveness records are off (several threads,
 * one record), but the node peers' processes are still watched, so the
 * waiter names the dead PE within seconds, not at GSHMEM_WAIT_TIMEOUT.
 * mpirun notices a process that initialized PMIx and left without
 * finalizing, and often ends the job first with its own line ("exiting
 * improperly"), which passes too; srun does not (a task that exits 0 is
 * done), and there the waiter's line is the only one.
 */
/* EXPECT: (PE [0-9]+ \(pid [0-9]+\) ended without shmem_finalize while this PE waits in shmem_[a-z0-9_]*wait_until|exiting improperly) */
/* EXPECT_WITHIN: 10 */
#define _POSIX_C_SOURCE 200809L
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int flag;

int main(void)
{
    int provided = -1;

    setenv("GSHMEM_WAIT_TIMEOUT", "60", 1);
    shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided);
    if (shmem_n_pes() < 2 || provided != SHMEM_THREAD_MULTIPLE) {
        fprintf(stderr, "bad_dead_peer_mt: needs 2 PEs or more and THREAD_MULTIPLE (got %d)\n",
                provided);
        shmem_finalize();
        return 0;
    }
    shmem_barrier_all();
    if (shmem_my_pe() == shmem_n_pes() - 1)
        _exit(0);
    shmem_int_wait_until(&flag, SHMEM_CMP_EQ, 1);
    fprintf(stderr, "bad_dead_peer_mt: shmem_int_wait_until returned\n");
    return 1;
}
