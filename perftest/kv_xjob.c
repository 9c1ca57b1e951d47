/*
 * kv_xjob.c - one KV request between two jobs (peers outside the job:
 * gshmem_kv_listen / gshmem_kv_connect), timed; perftest/kv_compare.sh
 * runs it beside NIXL (kv_nixl.py) on the same shape.
 *
 *   kv_xjob serve DIR  (1 PE) registers a cache of L layers x K,V x N
 *                      blocks of B bytes (private memory, pattern-filled),
 *                      listens (secret $GSHMEM_KV_SECRET), writes its
 *                      address to DIR/addr and waits for DIR/done.
 *   kv_xjob pull DIR   (1 PE) connects (timed), then times requests of k
 *                      scattered blocks (a fixed shuffle of every other
 *                      block: nothing coalesces, one operation per block,
 *                      layer and region) of every layer, read or write;
 *                      checks every byte of the last one; writes DIR/done.
 *
 *   -m notify          how soon the server learns that a write has
 *                      landed: the puller writes the k blocks with a
 *                      signal that sets the server's signal word 0 to the
 *                      post's time (CLOCK_MONOTONIC: both sides are on
 *                      one host), waits for its end, pauses 2 ms; the
 *                      server spins on the word (polling the engine, as
 *                      NIXL's receiver polls get_new_notifs) and prints
 *                      kv_notify_lat,
 *                      the median of (time it saw the word - the post's
 *                      time).  perftest/kv_notify.sh sets it beside NIXL's
 *                      notification (kv_nixl.py -m notify).
 *
 * Options (both roles the same): -b block bytes (32768), -k blocks per
 * request (128), -l layers (1), -N blocks per region (2k+1), -n timed
 * requests (50), -w warm-up (5), -m read|write|notify (read).  JSON lines
 * (pull side; the server's for notify): kv_xjob_<mode> "gbps" and
 * "lat_us" of the median request, "ops", and kv_connect "lat_us".
 * BENCH_IMPL names the side (gshmem-direct, gshmem-ucx).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <shmem.h>

#include "bench.h"
#include "gshmem_kv.h"
#include "kv_common.h"

#define REGIONS 2

static size_t block = 32768;
static long k = 128, layers = 1, n_blocks = 0, iters = 50, warmup = 5;
static int write_mode, notify_mode;

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

static unsigned char pattern(int side, long region, int64_t b, size_t i)
{
    return (unsigned char)(side * 131 + region * 17 + b * 7 + (int64_t)(i >> 3) + (int64_t)i);
}

static const char *file_of(const char *dir, const char *name)
{
    static char buf[4096];

    snprintf(buf, sizeof buf, "%s/%s", dir, name);
    return buf;
}

static void await(const char *path)
{
    struct stat st;

    for (int i = 0; stat(path, &st) != 0; i++) {
        BENCH_CHECK(i < 120 * 200, "%s did not appear in 120 s", path);
        usleep(5000);
    }
}

/* The cache, filled with side's pattern, registered. */
static unsigned char **cache_make(gshmem_kv_t *kv, int side, int *id)
{
    unsigned char **base = malloc((size_t)(layers * REGIONS) * sizeof(*base));
    gshmem_kv_layout_t lay = {0};

    BENCH_CHECK(base != NULL, "malloc");
    for (long r = 0; r < layers * REGIONS; r++) {
        base[r] = aligned_alloc(4096, (size_t)n_blocks * block);
        BENCH_CHECK(base[r] != NULL, "aligned_alloc of %ld blocks of %zu bytes", n_blocks, block);
        for (int64_t b = 0; b < n_blocks; b++)
            for (size_t i = 0; i < block; i++)
                base[r][(size_t)b * block + i] = pattern(side, r, b, i);
    }
    lay.n_layers = (int)layers, lay.regions_per_layer = REGIONS, lay.n_blocks = n_blocks;
    lay.block_bytes = block, lay.region_base = (void *const *)base;
    BENCH_CHECK(gshmem_kv_layout_register(kv, &lay, id) == 0, "layout_register: %s",
                gshmem_kv_error());
    return base;
}

/* notify, the server's side: each value the puller's signals leave in
 * word 0 is a post's time; the median of how long after it this side saw
 * it, over what it saw until the puller's done file (a value overwritten
 * before this side looked, on a loaded machine, is only missed). */
static void watch_signals(gshmem_kv_t *kv, const char *dir)
{
    const uint64_t *word = gshmem_kv_signal_word(kv, 0);
    long cap = warmup + iters, seen = 0;
    double *us = malloc((size_t)cap * sizeof(*us));
    uint64_t last = 0, v;
    int64_t t_end = bench_now_ns() + 120 * (int64_t)1000000000;
    struct stat st;
    size_t n;

    BENCH_CHECK(word && us, "gshmem_kv_signal_word: %s", gshmem_kv_error());
    for (long spins = 0; seen < cap; spins++) {
        /* The word, and the engine's progress between looks (as NIXL's
         * receiver calls get_new_notifs): over tcp, this side's UCX worker
         * must run for the peer's put to land. */
        if ((v = __atomic_load_n(word, __ATOMIC_ACQUIRE)) != last) {
            us[seen++] = (double)(bench_now_ns() - (int64_t)v) / 1e3;
            last = v;
            continue;
        }
        gshmem_kv_poll(kv, NULL, 0, &n);
        if (spins % 4096 == 0 && stat(file_of(dir, "done"), &st) == 0)
            break;
        BENCH_CHECK(bench_now_ns() < t_end, "no end in 120 s (%ld signals seen)", seen);
    }
    BENCH_CHECK(seen > warmup, "%ld signals seen, %ld of them warm-up", seen, warmup);
    qsort(us + warmup, (size_t)(seen - warmup), sizeof(*us), by_value);
    bench_report("kv_notify_lat", bench_impl(), 2,
                 (long)((double)k * (double)(layers * REGIONS) * (double)block), seen - warmup,
                 "lat_us", us[warmup + (seen - warmup) / 2]);
    free(us);
}

static void serve(gshmem_kv_t *kv, const char *dir, const char *secret)
{
    char where[300], tmp[4096];
    int id;
    FILE *f;

    cache_make(kv, 0, &id);
    BENCH_CHECK(gshmem_kv_listen(kv, "127.0.0.1:0", secret, where, sizeof where) == 0, "listen: %s",
                gshmem_kv_error());
    f = fopen(file_of(dir, "addr.tmp"), "w");
    BENCH_CHECK(f && fputs(where, f) >= 0 && fclose(f) == 0, "writing the address");
    snprintf(tmp, sizeof tmp, "%s", file_of(dir, "addr.tmp")); /* file_of's buffer is one */
    BENCH_CHECK(rename(tmp, file_of(dir, "addr")) == 0, "rename");
    if (notify_mode)
        watch_signals(kv, dir);
    await(file_of(dir, "done"));
}

/* notify, the puller's side: a write of the blocks whose signal carries
 * the post's time, then a pause while the server notes it. */
static void post_signalled(gshmem_kv_t *kv, gshmem_kv_xfer_t *x)
{
    gshmem_kv_req_t req;

    x->signal.addr = gshmem_kv_signal_word(kv, 0);
    x->signal.op = GSHMEM_KV_SIGNAL_SET;
    for (long it = -warmup; it < iters; it++) {
        x->signal.value = (uint64_t)bench_now_ns();
        BENCH_CHECK(gshmem_kv_write(kv, x, &req) == 0, "write: %s", gshmem_kv_error());
        BENCH_CHECK(gshmem_kv_wait(kv, req, GSHMEM_KV_WAIT_DEFAULT) == 0, "wait: %s",
                    gshmem_kv_error());
        gshmem_kv_req_free(kv, req);
        usleep(2000);
    }
}

static void pull(gshmem_kv_t *kv, const char *dir, const char *secret)
{
    char where[300] = {0};
    unsigned char **mine;
    int64_t *ids = malloc((size_t)k * sizeof(*ids));
    double *us = malloc((size_t)iters * sizeof(*us)), med, bytes;
    gshmem_kv_xfer_t x = {0};
    gshmem_kv_req_stats_t st = {0};
    int id, peer;
    int64_t t0;
    FILE *f;

    BENCH_CHECK(ids && us, "malloc");
    mine = cache_make(kv, 1, &id);
    await(file_of(dir, "addr"));
    f = fopen(file_of(dir, "addr"), "r");
    BENCH_CHECK(f && fgets(where, sizeof where, f), "reading the address");
    fclose(f);
    t0 = bench_now_ns();
    BENCH_CHECK(gshmem_kv_connect(kv, where, secret, 0, &peer) == 0, "connect: %s",
                gshmem_kv_error());
    bench_report("kv_connect", bench_impl(), 2, 0, 1, "lat_us",
                 (double)(bench_now_ns() - t0) / 1e3);
    kv_shuffled_ids(ids, k);
    x.layout = id, x.pe = peer, x.n_layers = (int)layers, x.n = (size_t)k, x.local_blocks = ids;
    if (notify_mode) {
        post_signalled(kv, &x);
        f = fopen(file_of(dir, "done"), "w");
        BENCH_CHECK(f && fclose(f) == 0, "writing done");
        return;
    }
    kv_time_requests(kv, &x, write_mode, warmup, iters, us, &st);
    if (!write_mode) /* a read: the blocks here hold the server's bytes */
        for (long r = 0; r < layers * REGIONS; r++)
            for (long i = 0; i < k; i++)
                for (size_t j = 0; j < block; j++)
                    BENCH_CHECK(mine[r][(size_t)ids[i] * block + j] == pattern(0, r, ids[i], j),
                                "region %ld block %lld byte %zu", r, (long long)ids[i], j);
    qsort(us, (size_t)iters, sizeof(*us), by_value);
    med = us[iters / 2];
    bytes = (double)k * (double)(layers * REGIONS) * (double)block;
    bench_report(write_mode ? "kv_xjob_write" : "kv_xjob_read", bench_impl(), 2, (long)bytes, iters,
                 "gbps", bytes / med / 1e3);
    bench_report(write_mode ? "kv_xjob_write_lat" : "kv_xjob_read_lat", bench_impl(), 2,
                 (long)bytes, iters, "lat_us", med);
    bench_report(write_mode ? "kv_xjob_write_ops" : "kv_xjob_read_ops", bench_impl(), 2,
                 (long)bytes, iters, "ops", (double)st.ops);
    f = fopen(file_of(dir, "done"), "w");
    BENCH_CHECK(f && fclose(f) == 0, "writing done");
}

int main(int argc, char **argv)
{
    const char *secret = getenv("GSHMEM_KV_SECRET");
    gshmem_kv_t *kv = NULL;
    int c;

    shmem_init();
    while ((c = getopt(argc, argv, "b:k:l:N:n:w:m:")) != -1) {
        switch (c) {
        case 'b': block = (size_t)atol(optarg); break;
        case 'k': k = atol(optarg); break;
        case 'l': layers = atol(optarg); break;
        case 'N': n_blocks = atol(optarg); break;
        case 'n': iters = atol(optarg); break;
        case 'w': warmup = atol(optarg); break;
        case 'm':
            write_mode = strcmp(optarg, "write") == 0;
            notify_mode = strcmp(optarg, "notify") == 0;
            break;
        default: BENCH_CHECK(0, "unknown option");
        }
    }
    if (n_blocks == 0)
        n_blocks = 2 * k + 1;
    BENCH_CHECK(argc - optind == 2 && secret && block > 0 && k > 0 && layers > 0 &&
                    n_blocks >= 2 * k && iters > 0,
                "usage: GSHMEM_KV_SECRET=... kv_xjob [-b B] [-k K] [-l L] [-N N] [-n iters] "
                "[-w warmup] [-m read|write|notify] serve|pull DIR");
    BENCH_CHECK(gshmem_kv_create(NULL, &kv) == 0, "create: %s", gshmem_kv_error());
    if (strcmp(argv[optind], "serve") == 0)
        serve(kv, argv[optind + 1], secret);
    else
        pull(kv, argv[optind + 1], secret);
    gshmem_kv_destroy(kv);
    shmem_finalize();
    return 0;
}
