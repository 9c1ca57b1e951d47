/*
 * p_pingpong.c - 8-byte shmem_long_p ping-pong between PE 0 and PE 1.
 *
 * Round i: PE 0 writes i into PE 1's `flag` and waits until its own `flag`
 * equals i; PE 1 waits for i and writes it back. Reported: half the mean
 * round trip, i.e. the one-way latency of a blocking put seen by a waiter.
 * Each value differs from the previous one, so a wait can never be satisfied
 * by a stale write. No quiet in the loop: the spec's delivery guarantee plus
 * the waiter's progress is what applications rely on, and what we time.
 */
#include "bench.h"

static long flag; /* symmetric: written only by the other PE */

int main(int argc, char **argv)
{
    shmem_init();
    bench_require_npes(2);

    bench_opts_t opts;
    bench_parse(argc, argv, 100000, 10000, &opts);
    int me = shmem_my_pe();
    long total = opts.warmup + opts.iters;
    int64_t t_start = 0;

    shmem_barrier_all(); /* both PEs are inside the loop's preconditions */
    if (me == 0) {
        for (long i = 1; i <= total; i++) {
            if (i == opts.warmup + 1)
                t_start = bench_now_ns();
            shmem_long_p(&flag, i, 1);
            shmem_long_wait_until(&flag, SHMEM_CMP_EQ, i);
        }
        int64_t elapsed = bench_now_ns() - t_start;
        bench_report("p_pingpong", bench_impl(), shmem_n_pes(), (long)sizeof(long), opts.iters,
                     "lat_ns", (double)elapsed / opts.iters / 2.0);
    } else if (me == 1) {
        for (long i = 1; i <= total; i++) {
            shmem_long_wait_until(&flag, SHMEM_CMP_EQ, i);
            shmem_long_p(&flag, i, 0);
        }
    }
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
