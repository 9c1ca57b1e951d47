/*
 * tests/pe/slow_peer.c - no false alarm from failure propagation: PE 1
 * computes (sleeps) 3 s outside the library while PE 0 waits in
 * shmem_wait_until with GSHMEM_FAIL_CHECK=1, then stores the value.  A
 * PE outside every wait is never taken for stuck, so the wait must simply
 * return.  The others wait in a barrier meanwhile.
 */
#define _POSIX_C_SOURCE 200809L
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int flag;

int main(void)
{
    int me, n;

    setenv("GSHMEM_FAIL_CHECK", "1", 1);
    setenv("GSHMEM_WAIT_TIMEOUT", "60", 1);
    shmem_init();
    me = shmem_my_pe();
    n = shmem_n_pes();
    if (n < 2) {
        shmem_finalize();
        return 0;
    }
    shmem_barrier_all();
    if (me == 1) {
        sleep(3);
        shmem_int_atomic_set(&flag, 1, 0);
    } else if (me == 0) {
        shmem_int_wait_until(&flag, SHMEM_CMP_EQ, 1);
    }
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
