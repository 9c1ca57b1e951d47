/*
 * coll_bench.h - what the collective benchmarks (bcast_lat, fcollect_lat,
 * alltoall_lat, reduce_lat) share.
 *
 * They use the deprecated active-set forms (shmem_broadcast64, ...), the
 * ones OSHMEM 1.4 has too, over all PEs, at 8 B, 64 KiB and 1 MiB.  Each
 * iteration is: shmem_barrier_all, then one timed call; pSync (and pWrk)
 * arrays alternate between iterations, as the spec asks of back-to-back
 * calls.  A PE's figure is the mean time of its calls; the reported
 * lat_ns is the mean of the PEs' figures (as OSU's "avg latency"), so a
 * root that returns early does not hide the members that wait for it.
 * `bytes` is the size of one PE's contribution: the broadcast array, a
 * member's block of [f]collect, the block one PE sends to another in
 * alltoall, the reduced array.  After the timed loop each program checks
 * the last result and ends the job (bench_fail) if it is wrong.
 *
 * Iterations: -n N (BENCH_ITERS) is the count at 8 B; larger sizes run
 * N / (1 + bytes / 4 KiB) of them, at least COLL_MIN_ITERS; the warm-up
 * (-w) shrinks alike, to no fewer than COLL_MIN_WARMUP calls.
 */
#ifndef GSHMEM_PERFTEST_COLL_BENCH_H
#define GSHMEM_PERFTEST_COLL_BENCH_H

#include "bench.h"

#define COLL_MAX_PES 1024
#define COLL_MIN_ITERS 30
#define COLL_MIN_WARMUP 5

static const long coll_sizes[] = {8, 65536, 1048576};
#define COLL_NSIZES (sizeof coll_sizes / sizeof coll_sizes[0])
#define COLL_MAX_BYTES 1048576L

static long coll_psync[2][SHMEM_REDUCE_SYNC_SIZE > SHMEM_BCAST_SYNC_SIZE ? SHMEM_REDUCE_SYNC_SIZE
                                                                         : SHMEM_BCAST_SYNC_SIZE];
static double coll_means[COLL_MAX_PES]; /* on PE 0: every PE's mean, ns */

/* One call of the collective under test, on `bytes`, iteration i. */
typedef void (*coll_call_fn)(long bytes, long i);

static inline void coll_init(void)
{
    shmem_init();
    for (int p = 0; p < 2; p++)
        for (size_t k = 0; k < sizeof coll_psync[p] / sizeof coll_psync[p][0]; k++)
            coll_psync[p][k] = SHMEM_SYNC_VALUE;
    if (shmem_n_pes() > COLL_MAX_PES) {
        if (shmem_my_pe() == 0)
            fprintf(stderr, "bench: at most %d PEs\n", COLL_MAX_PES);
        shmem_finalize();
        exit(2);
    }
    shmem_barrier_all();
}

static inline long coll_iters(const bench_opts_t *opts, long bytes)
{
    long n = opts->iters / (1 + bytes / 4096);

    return n < COLL_MIN_ITERS ? COLL_MIN_ITERS : n;
}

/* Times `call` at `bytes` and reports the mean over PEs on PE 0. */
static inline void coll_measure(const char *bench, coll_call_fn call, long bytes,
                                const bench_opts_t *opts)
{
    long iters = coll_iters(opts, bytes), warmup = opts->warmup / (1 + bytes / 4096);

    if (warmup < COLL_MIN_WARMUP)
        warmup = COLL_MIN_WARMUP; /* first touches of the buffers fault pages in */
    int64_t total = 0;
    int me = shmem_my_pe(), npes = shmem_n_pes();

    for (long i = 0; i < warmup + iters; i++) {
        shmem_barrier_all();
        int64_t t0 = bench_now_ns();
        call(bytes, i);
        int64_t t1 = bench_now_ns();
        if (i >= warmup)
            total += t1 - t0;
    }
    shmem_double_p(&coll_means[me], (double)total / iters, 0);
    shmem_barrier_all();
    if (me == 0) {
        double sum = 0;
        for (int p = 0; p < npes; p++)
            sum += coll_means[p];
        bench_report(bench, bench_impl(), npes, bytes, iters, "lat_ns", sum / npes);
    }
    shmem_barrier_all();
}

#endif /* GSHMEM_PERFTEST_COLL_BENCH_H */
