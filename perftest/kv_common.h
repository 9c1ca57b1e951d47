/*
 * kv_common.h - what kv_bench.c (in one job) and kv_xjob.c (between two)
 * share: the scattered block ids of a request and the timed request loop.
 * Static, as bench.h is, so each program stays one translation unit.
 */
#ifndef GSHMEM_PERFTEST_KV_COMMON_H
#define GSHMEM_PERFTEST_KV_COMMON_H

#include <stdlib.h>

#include "bench.h"
#include "gshmem_kv.h"

/* Every other block, 0 .. 2k-2, in a fixed shuffled order: no two adjacent,
 * so nothing coalesces (the worst case for descriptor-per-block designs). */
static inline void kv_shuffled_ids(int64_t *ids, long k)
{
    for (long i = 0; i < k; i++)
        ids[i] = 2 * i;
    srand(7);
    for (long i = k - 1; i > 0; i--) {
        long j = rand() % (i + 1);
        int64_t t = ids[i];

        ids[i] = ids[j], ids[j] = t;
    }
}

/* warmup + iters requests of x, each posted and waited for; us[] gets the
 * timed ones (microseconds), *st the last one's statistics. */
static inline void kv_time_requests(gshmem_kv_t *kv, const gshmem_kv_xfer_t *x, int write,
                                    long warmup, long iters, double *us, gshmem_kv_req_stats_t *st)
{
    for (long it = -warmup; it < iters; it++) {
        gshmem_kv_req_t req;
        int64_t t0 = bench_now_ns();
        int rc = write ? gshmem_kv_write(kv, x, &req) : gshmem_kv_read(kv, x, &req);

        BENCH_CHECK(rc == 0, "post: %s", gshmem_kv_error());
        BENCH_CHECK(gshmem_kv_wait(kv, req, GSHMEM_KV_WAIT_DEFAULT) == 0, "wait: %s",
                    gshmem_kv_error());
        if (it >= 0)
            us[it] = (double)(bench_now_ns() - t0) / 1e3;
        if (it == iters - 1)
            gshmem_kv_req_stats(kv, req, st);
        gshmem_kv_req_free(kv, req);
    }
}

#endif
