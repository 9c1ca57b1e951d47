/*
 * device_rate.c - message rate of device puts, PE 0 -> PE 1: dev_msg_rate.
 *
 * BLOCKS x THREADS (4 x 8) lanes on PE 0 each issue -n (default 4000) 8-byte
 * gshmem_putmem_nbi to distinct words of PE 1, then gshmem_quiet; the rate
 * is the messages over the time from the moment every lane is ready to the
 * last quiet, in millions per second (Mmsgps).  Run in the proxy mode
 * (GSHMEM_DISABLE_P2P=1) it is the proxy path's rate: the blocks spread over
 * GSHMEM_PROXY_CHANNELS channels (block id % channels), which
 * GSHMEM_PROXY_THREADS threads drain - device_bench.sh runs it with 1, 2
 * and 4.  PE 1 checks every word.
 */
#include "device_bench.h"

#define BLOCKS 4
#define THREADS 8

typedef struct rate_args {
    db_clock_t *clk;
    uint64_t *src; /* [lanes * n]: the values */
    uint64_t *dst; /* [lanes * n] */
    long n;        /* messages per lane */
} rate_args_t;

DB_HD uint64_t val(uint64_t i)
{
    return i * 0x9e3779b97f4a7c15ull + 1;
}

GSHMEM_KERNEL(rate_kernel, rate_args_t, a)
{
    unsigned lanes = gshmemx_grid_blocks() * gshmemx_block_threads();
    uint64_t l = gshmemx_block_id() * gshmemx_block_threads() + gshmemx_thread_id();
    long k;

    db_gate(a.clk, lanes);
    for (k = 0; k < a.n; k++) {
        uint64_t i = l * (uint64_t)a.n + (uint64_t)k;

        gshmem_putmem_nbi(&a.dst[i], &a.src[i], 8, 1);
    }
    gshmem_quiet();
    db_done(a.clk);
}

int main(int argc, char **argv)
{
    bench_opts_t opts;
    rate_args_t a;
    size_t words, i;
    uint64_t *h;
    int me;

    shmem_init();
    bench_require_npes(2);
    bench_parse(argc, argv, 4000, 0, &opts);
    me = shmem_my_pe();
    a.n = opts.iters;
    words = (size_t)BLOCKS * THREADS * (size_t)a.n;
    a.clk = (db_clock_t *)db_malloc(sizeof(db_clock_t));
    a.src = (uint64_t *)db_malloc(words * sizeof(uint64_t));
    a.dst = (uint64_t *)db_malloc(words * sizeof(uint64_t));
    h = (uint64_t *)malloc(words * sizeof(uint64_t));
    BENCH_CHECK(h != NULL, "malloc");
    for (i = 0; i < words; i++)
        h[i] = val(i);
    gshmemx_memcpy_to_device(a.src, h, words * sizeof(uint64_t));
    memset(h, 0, words * sizeof(uint64_t));
    gshmemx_memcpy_to_device(a.dst, h, words * sizeof(uint64_t));
    db_clock_reset(a.clk);
    shmem_barrier_all();
    if (me == 0) {
        DB_LAUNCH(rate_kernel, BLOCKS, THREADS, a);
        db_report("dev_msg_rate", "thread", 8, (long)words, "Mmsgps",
                  (double)words * 1e3 / db_clock_ns(a.clk));
    }
    shmem_barrier_all();
    if (me == 1) {
        gshmemx_memcpy_from_device(h, a.dst, words * sizeof(uint64_t));
        for (i = 0; i < words; i++)
            BENCH_CHECK(h[i] == val(i), "dev_msg_rate: word %zu", i);
    }
    free(h);
    gshmem_free(a.dst);
    gshmem_free(a.src);
    gshmem_free(a.clk);
    shmem_finalize();
    return 0;
}
