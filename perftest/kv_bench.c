/*
 * kv_bench.c - one KV request through libgshmem_kv (gshmem_kv.h), timed:
 * PE 0 pulls (or pushes) K blocks of each of a layer's two regions (K and
 * V) from (to) PE 1, the block ids scattered over the pool as a paged KV
 * cache's are (a fixed shuffle: no two adjacent, so nothing coalesces:
 * the worst case for descriptor-per-block designs), then waits for it.
 * Every byte that moved is checked on the last round.
 *
 * Reported by PE 0, one JSON line each (perftest/bench.h):
 *   kv_read / kv_write    GB/s of the median request ("gbps")
 *   kv_read_lat / ..._lat microseconds of the median request ("lat_us")
 *   kv_read_ops / ..._ops RMA operations the request posted ("ops")
 * Options: -b block bytes (32768), -k blocks per request (256), -n timed
 * requests (200), -w warm-up requests (10), -m read|write (read).
 * perftest/regress.sh runs it as its kv_read figure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <shmem.h>

#include "bench.h"
#include "gshmem_kv.h"
#include "kv_common.h"

#define LAYER_REGIONS 2 /* K and V */

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

static unsigned char pattern(int pe, int region, int64_t block, size_t i)
{
    return (unsigned char)(pe * 131 + region * 17 + block * 7 + (int64_t)i);
}

int main(int argc, char **argv)
{
    size_t block = 32768;
    long k = 256, iters = 200, warmup = 10;
    int write = 0, c, me, id, r;
    int64_t n_blocks, *ids;
    unsigned char *pool[LAYER_REGIONS];
    double *us;
    gshmem_kv_t *kv = NULL;
    gshmem_kv_config_t cfg = {0};
    gshmem_kv_layout_t lay = {0};
    gshmem_kv_xfer_t x = {0};
    gshmem_kv_req_stats_t st = {0};

    shmem_init();
    bench_require_npes(2);
    while ((c = getopt(argc, argv, "b:k:n:w:m:")) != -1) {
        switch (c) {
        case 'b': block = (size_t)atol(optarg); break;
        case 'k': k = atol(optarg); break;
        case 'n': iters = atol(optarg); break;
        case 'w': warmup = atol(optarg); break;
        case 'm': write = strcmp(optarg, "write") == 0; break;
        default:
            if (shmem_my_pe() == 0)
                fprintf(stderr, "usage: kv_bench [-b bytes] [-k blocks] [-n iters] [-w warmup] "
                                "[-m read|write]\n");
            shmem_global_exit(2);
        }
    }
    BENCH_CHECK(block > 0 && k > 0 && iters > 0 && warmup >= 0, "bad options");
    me = shmem_my_pe();
    n_blocks = 2 * k;
    for (r = 0; r < LAYER_REGIONS; r++) {
        pool[r] = (unsigned char *)shmem_malloc((size_t)n_blocks * block);
        BENCH_CHECK(pool[r] != NULL, "shmem_malloc of %lld blocks of %zu bytes",
                    (long long)n_blocks, block);
    }
    ids = (int64_t *)malloc((size_t)k * sizeof(*ids));
    us = (double *)malloc((size_t)iters * sizeof(*us));
    BENCH_CHECK(ids && us, "malloc");
    kv_shuffled_ids(ids, k);
    for (r = 0; r < LAYER_REGIONS; r++)
        for (int64_t b = 0; b < n_blocks; b++)
            for (size_t i = 0; i < block; i++)
                pool[r][(size_t)b * block + i] = pattern(me, r, b, i);

    BENCH_CHECK(gshmem_kv_create(&cfg, &kv) == 0, "gshmem_kv_create: %s", gshmem_kv_error());
    lay.n_layers = 1;
    lay.regions_per_layer = LAYER_REGIONS;
    lay.n_blocks = n_blocks;
    lay.block_bytes = block;
    lay.region_base = (void *const *)pool;
    BENCH_CHECK(gshmem_kv_layout_register(kv, &lay, &id) == 0, "layout_register: %s",
                gshmem_kv_error());
    x.layout = id;
    x.pe = 1;
    x.n_layers = 1;
    x.n = (size_t)k;
    x.local_blocks = ids;
    shmem_barrier_all();
    if (me == 0)
        kv_time_requests(kv, &x, write, warmup, iters, us, &st);
    shmem_barrier_all();
    /* The destination of the last request holds the source's bytes. */
    if (me == (write ? 1 : 0))
        for (r = 0; r < LAYER_REGIONS; r++)
            for (long i = 0; i < k; i++)
                for (size_t j = 0; j < block; j++)
                    BENCH_CHECK(pool[r][(size_t)ids[i] * block + j] ==
                                    pattern(1 - me, r, ids[i], j),
                                "region %d block %lld byte %zu", r, (long long)ids[i], j);
    if (me == 0) {
        const char *name = write ? "kv_write" : "kv_read";
        char bench[32];
        double med, bytes = (double)k * LAYER_REGIONS * (double)block;

        qsort(us, (size_t)iters, sizeof(*us), by_value);
        med = us[iters / 2];
        bench_report(name, bench_impl(), 2, (long)bytes, iters, "gbps", bytes / med / 1e3);
        snprintf(bench, sizeof bench, "%s_lat", name);
        bench_report(bench, bench_impl(), 2, (long)bytes, iters, "lat_us", med);
        snprintf(bench, sizeof bench, "%s_ops", name);
        bench_report(bench, bench_impl(), 2, (long)bytes, iters, "ops", (double)st.ops);
    }
    shmem_barrier_all();
    gshmem_kv_destroy(kv);
    for (r = 0; r < LAYER_REGIONS; r++)
        shmem_free(pool[r]);
    free(ids), free(us);
    shmem_finalize();
    return 0;
}
