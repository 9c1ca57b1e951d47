/*
 * device_lat.c - latency of the device API, PE 0 -> PE 1, timed inside the
 * kernel (device_bench.h):
 *
 *   dev_put_lat          putmem_nbi of 8 B or 4 KiB + gshmem_quiet, one after
 *                        the other, by a thread, a warp (32 lanes) or a block
 *                        (64 lanes); the mean time per put + quiet
 *   dev_p_pingpong       gshmem_long_p + gshmem_long_wait_until between two
 *                        lanes (thread): half the mean round trip
 *   dev_signal_pingpong  putmem_signal of 8 B (SET) + gshmem_signal_wait_until,
 *                        by a thread, a warp or a block on each side: half
 *                        the mean round trip
 *   dev_amo_lat          gshmem_long_atomic_fetch_add of 1 on PE 1's counter
 *                        by one thread, each waiting for its fetched value:
 *                        the mean time per atomic (NVSHMEM's twin reports
 *                        the same name)
 *
 * -n iterations (thread scope; warp and block do a quarter), -w warm-up.
 * P2P or proxy as the environment says (GSHMEM_DISABLE_P2P=1: proxy).
 * The data of the last put, every ping-pong value and every fetched value
 * are checked.
 */
#include "device_bench.h"

#define WARP_LANES 32
#define BLOCK_LANES 64

typedef struct lat_args {
    db_clock_t *clk;
    char *src, *dst; /* 4 KiB each */
    long *flag;      /* [2]: PE 1 waits on [0], PE 0 on [1] */
    uint64_t *sig;   /* [2]: the same for the signal ping-pong */
    long *ctr;       /* PE 1's fetch-add counter */
    long iters, warmup;
    size_t bytes;
    int scope, me;
    uint64_t *bad; /* ping-pong values seen out of turn */
} lat_args_t;

GSHMEM_KERNEL(put_lat_kernel, lat_args_t, a)
{
    unsigned lead = gshmemx_thread_id() == 0;
    long i;

    for (i = 0; i < a.warmup + a.iters; i++) {
        if (i == a.warmup)
            db_gate(a.clk, gshmemx_block_threads());
        DB_SCOPED(a.scope, putmem_nbi, (a.dst, a.src, a.bytes, 1));
        if (lead)
            gshmem_quiet();
    }
    db_done(a.clk);
}

GSHMEM_KERNEL(p_pingpong_kernel, lat_args_t, a)
{
    long i;

    for (i = 1; i <= a.warmup + a.iters; i++) {
        if (i == a.warmup + 1 && a.me == 0)
            db_gate(a.clk, 1);
        if (a.me == 0) {
            gshmem_long_p(&a.flag[0], i, 1);
            gshmem_long_wait_until(&a.flag[1], GSHMEM_CMP_EQ, i);
        } else {
            gshmem_long_wait_until(&a.flag[0], GSHMEM_CMP_EQ, i);
            gshmem_long_p(&a.flag[1], i, 0);
        }
    }
    if (a.me == 0)
        db_done(a.clk);
}

GSHMEM_KERNEL(signal_pingpong_kernel, lat_args_t, a)
{
    uint64_t i, got;

    for (i = 1; i <= (uint64_t)(a.warmup + a.iters); i++) {
        if (i == (uint64_t)a.warmup + 1 && a.me == 0)
            db_gate(a.clk, gshmemx_block_threads());
        if (a.me == 0) {
            DB_SCOPED(a.scope, putmem_signal,
                      (a.dst, a.src, 8, &a.sig[0], i, GSHMEM_SIGNAL_SET, 1));
            got = gshmem_signal_wait_until(&a.sig[1], GSHMEM_CMP_EQ, i);
        } else {
            got = gshmem_signal_wait_until(&a.sig[0], GSHMEM_CMP_EQ, i);
            DB_SCOPED(a.scope, putmem_signal,
                      (a.dst, a.src, 8, &a.sig[1], i, GSHMEM_SIGNAL_SET, 0));
        }
        if (got != i)
            gsd_fetch_add(a.bad, 1);
    }
    if (a.me == 0)
        db_done(a.clk);
    gshmem_quiet();
}

GSHMEM_KERNEL(amo_lat_kernel, lat_args_t, a)
{
    long i;

    for (i = 0; i < a.warmup + a.iters; i++) {
        if (i == a.warmup)
            db_gate(a.clk, 1);
        if (gshmem_long_atomic_fetch_add(a.ctr, 1, 1) != i)
            gsd_fetch_add(a.bad, 1);
    }
    db_done(a.clk);
}

static unsigned lanes_of(int scope)
{
    return scope == DB_THREAD ? 1u : scope == DB_WARP ? WARP_LANES : BLOCK_LANES;
}

int main(int argc, char **argv)
{
    static const size_t sizes[] = {8, 4096};
    bench_opts_t opts;
    lat_args_t a;
    int me, sc;
    unsigned si;
    uint64_t bad;

    shmem_init();
    bench_require_npes(2);
    bench_parse(argc, argv, 2000, 200, &opts);
    me = shmem_my_pe();
    a.me = me;
    a.clk = (db_clock_t *)db_malloc(sizeof(db_clock_t));
    a.src = (char *)db_malloc(4096);
    a.dst = (char *)db_malloc(4096);
    a.flag = (long *)db_malloc(2 * sizeof(long));
    a.sig = (uint64_t *)db_malloc(2 * sizeof(uint64_t));
    a.bad = (uint64_t *)db_malloc(sizeof(uint64_t));
    a.ctr = (long *)db_malloc(sizeof(long));
    db_fill_pat(a.src, 4096);
    a.warmup = opts.warmup;

    /* put + quiet */
    for (sc = 0; sc < DB_N_SCOPES; sc++)
        for (si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
            a.scope = sc;
            a.bytes = sizes[si];
            a.iters = sc == DB_THREAD ? opts.iters : (opts.iters + 3) / 4;
            db_clock_reset(a.clk);
            shmem_barrier_all();
            if (me == 0) {
                DB_LAUNCH(put_lat_kernel, 1, lanes_of(sc), a);
                db_report("dev_put_lat", db_scope_name[sc], (long)a.bytes, a.iters, "lat_ns",
                          db_clock_ns(a.clk) / (double)a.iters);
            }
            shmem_barrier_all();
            if (me == 1) {
                unsigned char h[4096];
                size_t i;

                gshmemx_memcpy_from_device(h, a.dst, a.bytes);
                for (i = 0; i < a.bytes; i++)
                    BENCH_CHECK(h[i] == db_pat(i), "dev_put_lat: byte %zu of the put", i);
            }
        }

    /* p ping-pong: thread */
    a.iters = opts.iters;
    a.scope = DB_THREAD;
    gshmemx_memcpy_to_device(a.flag, "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 2 * sizeof(long));
    db_clock_reset(a.clk);
    shmem_barrier_all();
    if (me < 2)
        DB_LAUNCH(p_pingpong_kernel, 1, 1, a);
    if (me == 0)
        db_report("dev_p_pingpong", "thread", (long)sizeof(long), a.iters, "lat_ns",
                  db_clock_ns(a.clk) / (double)a.iters / 2.0);
    shmem_barrier_all();

    /* put-with-signal ping-pong */
    for (sc = 0; sc < DB_N_SCOPES; sc++) {
        a.scope = sc;
        a.iters = sc == DB_THREAD ? opts.iters : (opts.iters + 3) / 4;
        gshmemx_memcpy_to_device(a.sig, "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 2 * sizeof(uint64_t));
        gshmemx_memcpy_to_device(a.bad, "\0\0\0\0\0\0\0\0", sizeof(uint64_t));
        db_clock_reset(a.clk);
        shmem_barrier_all();
        if (me < 2)
            DB_LAUNCH(signal_pingpong_kernel, 1, lanes_of(sc), a);
        gshmemx_memcpy_from_device(&bad, a.bad, sizeof bad);
        BENCH_CHECK(bad == 0, "dev_signal_pingpong: %llu values seen out of turn",
                    (unsigned long long)bad);
        if (me == 0)
            db_report("dev_signal_pingpong", db_scope_name[sc], 8, a.iters, "lat_ns",
                      db_clock_ns(a.clk) / (double)a.iters / 2.0);
        shmem_barrier_all();
    }

    /* fetch-add latency: thread */
    a.iters = opts.iters;
    a.scope = DB_THREAD;
    gshmemx_memcpy_to_device(a.ctr, "\0\0\0\0\0\0\0\0", sizeof(long));
    gshmemx_memcpy_to_device(a.bad, "\0\0\0\0\0\0\0\0", sizeof(uint64_t));
    db_clock_reset(a.clk);
    shmem_barrier_all();
    if (me == 0) {
        DB_LAUNCH(amo_lat_kernel, 1, 1, a);
        gshmemx_memcpy_from_device(&bad, a.bad, sizeof bad);
        BENCH_CHECK(bad == 0, "dev_amo_lat: %llu fetched values out of sequence",
                    (unsigned long long)bad);
        db_report("dev_amo_lat", "thread", (long)sizeof(long), a.iters, "lat_ns",
                  db_clock_ns(a.clk) / (double)a.iters);
    }
    shmem_barrier_all();
    if (me == 1) {
        long got;

        gshmemx_memcpy_from_device(&got, a.ctr, sizeof got);
        BENCH_CHECK(got == a.warmup + a.iters, "dev_amo_lat: counter %ld, expected %ld", got,
                    a.warmup + a.iters);
    }

    gshmem_free(a.ctr);
    gshmem_free(a.bad);
    gshmem_free(a.sig);
    gshmem_free(a.flag);
    gshmem_free(a.dst);
    gshmem_free(a.src);
    gshmem_free(a.clk);
    shmem_finalize();
    return 0;
}
