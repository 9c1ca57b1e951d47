/* progress.c - a PE that computes without calling gshmem does not stall its
 * peers: while PE 1 spins for 2 s, PE 0 puts to it, gets from it and adds
 * to it; each operation must finish in well under the 2 s (the bound, 500
 * ms, only tells "progressed" from "waited for the target"). Over the
 * network transport this needs the progress thread. */
#include <time.h>

#include "pe_test.h"

static long target[64];
static long counter;

static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(void)
{
    long value[64];
    double worst = 0;

    PT_START();
    if (pt_npes < 2)
        return pt_finish();
    for (int i = 0; i < 64; i++)
        value[i] = 1000 + i;
    shmem_barrier_all();
    if (pt_me == 1) {
        double end = now_s() + 2.0;
        volatile unsigned long spin = 0;

        while (now_s() < end)
            spin++; /* computing: no gshmem call */
    } else if (pt_me == 0) {
        double t0 = now_s() + 0.2;

        while (now_s() < t0)
            ; /* let PE 1 start computing */
        for (int round = 0; round < 20; round++) {
            double start = now_s(), took;
            long got;

            shmem_long_put(target, value, 64, 1);
            shmem_quiet();
            got = shmem_long_g(&target[63], 1);
            shmem_long_atomic_add(&counter, 1, 1);
            shmem_quiet();
            took = now_s() - start;
            if (took > worst)
                worst = took;
            PT_CHECK_EQ("shmem_long_g", 1063, got);
        }
        PT_CHECK("put/get/add to a computing PE", worst < 0.5,
                 "each round under 0.5 s while the target computes");
        if (worst >= 0.5)
            fprintf(stderr, "slowest round: %.3f s\n", worst);
    }
    shmem_barrier_all();
    if (pt_me == 1)
        PT_CHECK_EQ("shmem_long_atomic_add", 20, counter);
    return pt_finish();
}
