/*
 * tests/pe/bad_fin_lock.c - the last PE takes a lock and finalizes holding
 * it while the others wait in shmem_set_lock: the job ends within seconds
 * with one line naming the finalizing PE, not at GSHMEM_WAIT_TIMEOUT.
 */
/* EXPECT: gshmem: PE 0: shmem_set_lock: PE [0-9]+ called shmem_finalize while this PE waits in shmem_set_lock */
/* EXPECT_WITHIN: 10 */
#include "bad_fin.h"

static long lock;

int main(void)
{
    int finalizer = bad_fin_start("bad_fin_lock");

    if (finalizer)
        shmem_set_lock(&lock);
    shmem_barrier_all(); /* the lock is taken */
    if (finalizer)
        return bad_fin_finalize("bad_fin_lock");
    shmem_set_lock(&lock);
    return bad_fin_returned("bad_fin_lock", "shmem_set_lock");
}
