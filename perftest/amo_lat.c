/*
 * amo_lat.c - shmem_long_atomic_fetch_add latency from PE 0 on PE 1.
 *
 * PE 0 adds 1 to PE 1's counter and waits for the old value each time (a
 * fetching AMO is a round trip, so the figure is the mean per call, not
 * halved). Each returned value must be exactly the previous count, and PE 1
 * checks the final total, so a lost or duplicated update fails the run.
 */
#include "bench.h"

static long counter; /* symmetric: PE 1's copy is the target */

int main(int argc, char **argv)
{
    shmem_init();
    bench_require_npes(2);

    bench_opts_t opts;
    bench_parse(argc, argv, 100000, 10000, &opts);
    int me = shmem_my_pe();
    long total = opts.warmup + opts.iters;

    counter = 0;
    shmem_barrier_all(); /* PE 1's counter is zero before the first add */
    if (me == 0) {
        int64_t t_start = 0;
        for (long i = 0; i < total; i++) {
            if (i == opts.warmup)
                t_start = bench_now_ns();
            long old = shmem_long_atomic_fetch_add(&counter, 1, 1);
            BENCH_CHECK(old == i, "fetch_add returned %ld, want %ld", old, i);
        }
        int64_t elapsed = bench_now_ns() - t_start;
        bench_report("fetch_add_lat", bench_impl(), shmem_n_pes(), (long)sizeof(long), opts.iters,
                     "lat_ns", (double)elapsed / opts.iters);
    }
    shmem_barrier_all(); /* completes PE 0's updates before PE 1 looks */
    if (me == 1)
        BENCH_CHECK(counter == total, "PE 1 counter is %ld, want %ld", counter, total);
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
