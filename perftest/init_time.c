/*
 * init_time.c - how long shmem_init() takes.
 *
 *   init_time       shmem_init() alone, timed on each PE; the max over PEs
 *                   is reported, since the job waits for its slowest PE.
 *   launch_to_init  only if BENCH_T0_NS is set (the launcher's start, from
 *                   `date +%s%N` in the shell): launcher + exec + dynamic
 *                   loading + shmem_init, max over PEs. compare.sh sets it.
 *
 * Times are gathered on PE 0 through a symmetric array, which also shows
 * that the heap and puts work right after init.
 */
#include "bench.h"

int main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    int64_t t_before = bench_now_ns();
    shmem_init();
    int64_t t_after = bench_now_ns();
    int64_t wall_after = bench_realtime_ns();

    int me = shmem_my_pe();
    int npes = shmem_n_pes();
    long launch_t0 = bench_env_long("BENCH_T0_NS", 0);

    /* [pe] = init duration, [npes + pe] = launch-to-init duration */
    long *times = shmem_malloc(2 * (size_t)npes * sizeof(long));
    BENCH_CHECK(times != NULL, "shmem_malloc of %d longs failed", 2 * npes);
    shmem_long_p(&times[me], (long)(t_after - t_before), 0);
    shmem_long_p(&times[npes + me], launch_t0 ? (long)(wall_after - launch_t0) : 0, 0);
    shmem_barrier_all(); /* barrier_all completes the puts above */

    if (me == 0) {
        long init_max = 0, launch_max = 0;
        for (int pe = 0; pe < npes; pe++) {
            if (times[pe] > init_max)
                init_max = times[pe];
            if (times[npes + pe] > launch_max)
                launch_max = times[npes + pe];
        }
        bench_report("init_time", bench_impl(), npes, 0, 1, "lat_ns", (double)init_max);
        if (launch_t0)
            bench_report("launch_to_init", bench_impl(), npes, 0, 1, "lat_ns", (double)launch_max);
    }
    shmem_barrier_all();
    shmem_free(times);
    shmem_finalize();
    return 0;
}
