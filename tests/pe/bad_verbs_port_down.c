/*
 * tests/pe/bad_verbs_port_down.c - over gst_verbs, the RDMA port going down
 * mid-run ends the job with one line naming the port, although nothing the
 * PEs do fails: on rxe the host's own traffic still flows with the netdev
 * down, and the PEs here mostly wait in barriers, polling no CQ.  Run by
 * tests/rdma/port_down.sh in the soft-RoCE guest, which takes the port's
 * netdev down once every PE is past init (the file named by
 * PORT_DOWN_READY exists) and brings it back up afterwards.
 */
/* EXPECT: gshmem: PE [0-9]+: gst_verbs: port [0-9]+ of [A-Za-z0-9_]+ went down */
/* The port goes down when the rig's script sees the PEs past init (polled each second): */
/* EXPECT_WITHIN: 30 */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static long buf[64];

int main(void)
{
    const char *ready = getenv("PORT_DOWN_READY");

    shmem_init();
    shmem_barrier_all();
    if (shmem_my_pe() == 0 && ready) {
        FILE *f = fopen(ready, "w");

        if (f)
            fclose(f);
    }
    /* About 120 s of puts and barriers; the port goes down long before. */
    for (int i = 0; i < 1200; i++) {
        shmem_putmem(buf, buf, sizeof(buf), (shmem_my_pe() + 1) % shmem_n_pes());
        shmem_barrier_all();
        usleep(100000);
    }
    fprintf(stderr, "bad_verbs_port_down: PE %d: 120 s with the port down and no error\n",
            shmem_my_pe());
    shmem_finalize();
    return 0;
}
