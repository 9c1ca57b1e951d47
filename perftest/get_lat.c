/*
 * get_lat.c - 8-byte get latency from PE 0 to PE 1, two ways:
 *   g_lat       shmem_long_g (value returned)
 *   getmem_lat  shmem_getmem of 8 bytes into a local buffer
 * A get is a full round trip by nature, so the figure is the mean per call,
 * not halved. PE 1 is passive (in a barrier) the whole time, as a one-sided
 * benchmark should be. Every value read is checked.
 */
#include "bench.h"

static long remote_value; /* symmetric: PE 1's copy is the one read */

/* Both loops read what PE 1 stored and fail on any other value, so a get
 * that returns early with stale data cannot pass for a fast one. */
static double time_g(long warmup, long iters, long expect)
{
    int64_t t_start = 0;
    for (long i = 0; i < warmup + iters; i++) {
        if (i == warmup)
            t_start = bench_now_ns();
        long v = shmem_long_g(&remote_value, 1);
        BENCH_CHECK(v == expect, "shmem_long_g returned %ld, want %ld", v, expect);
    }
    return (double)(bench_now_ns() - t_start) / iters;
}

static double time_getmem(long warmup, long iters, long expect)
{
    long local;
    int64_t t_start = 0;
    for (long i = 0; i < warmup + iters; i++) {
        if (i == warmup)
            t_start = bench_now_ns();
        local = 0;
        shmem_getmem(&local, &remote_value, sizeof local, 1);
        BENCH_CHECK(local == expect, "shmem_getmem read %ld, want %ld", local, expect);
    }
    return (double)(bench_now_ns() - t_start) / iters;
}

int main(int argc, char **argv)
{
    shmem_init();
    bench_require_npes(2);

    bench_opts_t opts;
    bench_parse(argc, argv, 100000, 10000, &opts);
    int me = shmem_my_pe();
    const long expect = 0x5eed0001;

    remote_value = (me == 1) ? expect : -1;
    shmem_barrier_all(); /* PE 1's value is in place before PE 0 reads it */
    if (me == 0) {
        double g_ns = time_g(opts.warmup, opts.iters, expect);
        double getmem_ns = time_getmem(opts.warmup, opts.iters, expect);
        bench_report("g_lat", bench_impl(), shmem_n_pes(), (long)sizeof(long), opts.iters, "lat_ns",
                     g_ns);
        bench_report("getmem_lat", bench_impl(), shmem_n_pes(), (long)sizeof(long), opts.iters,
                     "lat_ns", getmem_ns);
    }
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
