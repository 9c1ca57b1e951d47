/*
 * tests/pe/start_pes_no_finalize.c - a program initialized by the
 * deprecated start_pes that returns from main without shmem_finalize: the
 * specification finalizes it implicitly at exit (collectively), so the job
 * exits 0 - under mpirun it failed with "called init but exited without
 * finalize".
 */
#include "pe_test.h"

static long box;

int main(void)
{
    int peer;

    start_pes(0);
    pt_setup();
    peer = (pt_me + 1) % pt_npes;
    shmem_long_p(&box, pt_me, peer);
    shmem_barrier_all();
    PT_CHECK_EQ("shmem_long_p", (pt_me + pt_npes - 1) % pt_npes, box);
    return pt_verdict(); /* no shmem_finalize */
}
