/*
 * barrier_lat.c - shmem_barrier_all latency at any number of PEs.
 *
 * Every PE runs the same loop; PE 0 reports the mean time per barrier.
 * Barriers are back to back, so the figure includes the skew the barrier
 * itself leaves between PEs, as it would in a bulk-synchronous code.
 */
#include "bench.h"

int main(int argc, char **argv)
{
    shmem_init();

    bench_opts_t opts;
    bench_parse(argc, argv, 20000, 1000, &opts);
    long total = opts.warmup + opts.iters;
    int64_t t_start = 0;

    for (long i = 0; i < total; i++) {
        if (i == opts.warmup)
            t_start = bench_now_ns();
        shmem_barrier_all();
    }
    int64_t elapsed = bench_now_ns() - t_start;

    if (shmem_my_pe() == 0)
        bench_report("barrier_all_lat", bench_impl(), shmem_n_pes(), 0, opts.iters, "lat_ns",
                     (double)elapsed / opts.iters);
    shmem_finalize();
    return 0;
}
