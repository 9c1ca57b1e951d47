/*
 * tests/uid/dead_pe.c - a PE dies mid-run: run by tests/uid/dead_pe.sh.
 *
 *   dead_pe VICTIM [barrier|compute]
 *
 * Every PE prints "dead_pe: PE <n> ready, pid <pid>" once all are up.  PE
 * VICTIM then waits to be killed; the others wait for it in
 * shmem_barrier_all (or compute without calling gshmem).  They must be ended
 * by the library, with a line naming the dead PE; if they ever get past this
 * point they say so and exit 1.
 */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int victim = argc > 1 ? atoi(argv[1]) : 1;
    int compute = argc > 2 && !strcmp(argv[2], "compute");
    int me;

    shmem_init();
    me = shmem_my_pe();
    shmem_barrier_all();
    printf("dead_pe: PE %d ready, pid %d\n", me, (int)getpid());
    fflush(stdout);
    if (me == victim)
        for (;;)
            pause();
    if (compute) {
        volatile unsigned long spins = 0;
        time_t end = time(NULL) + 60;

        while (time(NULL) < end)
            spins++;
        fprintf(stderr, "dead_pe: PE %d computed for 60 s and was not ended\n", me);
        return 1;
    }
    shmem_barrier_all();
    fprintf(stderr, "dead_pe: PE %d left the barrier without PE %d\n", me, victim);
    return 1;
}
