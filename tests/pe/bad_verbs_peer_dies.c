/*
 * tests/pe/bad_verbs_peer_dies.c - over gst_verbs, a PE killed mid-run
 * makes its peer's next completion fail: the survivor prints one line
 * naming the dead PE and the verbs status, and the job ends (no hang).
 * Run only over verbs (the rig: tests/rdma/tests.list): through P2P the puts to a
 * dead PE's mapping would still succeed.
 */
/* EXPECT: gshmem: PE 0: gst_verbs: PE 1: work completion failed: */
#include <shmem.h>
#include <signal.h>
#include <stdio.h>

static long buf[1024];

int main(void)
{
    shmem_init();
    shmem_barrier_all();
    if (shmem_my_pe() == 1)
        raise(SIGKILL);
    for (long i = 0; i < 100000000; i++)
        shmem_putmem(buf, buf, sizeof(buf), 1);
    fprintf(stderr, "bad_verbs_peer_dies: 1e8 puts to a dead PE succeeded\n");
    shmem_finalize();
    return 0;
}
