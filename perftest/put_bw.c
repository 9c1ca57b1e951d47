/*
 * put_bw.c - shmem_putmem bandwidth PE 0 -> PE 1, 8 B to 4 MiB (doubling),
 * and local memcpy bandwidth for the same sizes in the same run.
 *
 * For each size PE 0 issues windows of puts to the same destination, each
 * window closed by shmem_quiet, so the figure counts only completed data.
 * Window: 64 puts up to 16 KiB (enough to hide per-call latency), 8 above.
 * Windows per size: enough to move BENCH_BW_BYTES (-b, default 256 MiB),
 * at least 10 and at most BENCH_ITERS (-n, default 1000).
 *
 * memcpy_bw runs the identical loop with memcpy into a private buffer (the
 * floor a shared-memory put can hope for: "putmem >= 0.9x memcpy").
 * After each size PE 1 checks the bytes it received.
 * MBps = 1e6 bytes per second.
 */
#include "bench.h"

#define MIN_BYTES 8L
#define MAX_BYTES (4L << 20)

/* Called through a volatile pointer so the compiler cannot drop or merge
 * the repeated copies to the same destination. */
static void *(*volatile copy_fn)(void *, const void *, size_t) = memcpy;

static long window_for(long bytes)
{
    return bytes <= 16384 ? 64 : 8;
}

static long windows_for(long bytes, const bench_opts_t *opts)
{
    long w = opts->bw_bytes / (bytes * window_for(bytes));
    if (w > opts->iters)
        w = opts->iters;
    return w < 10 ? 10 : w;
}

/* Byte pattern that differs per size, so data left by the previous size
 * cannot pass the check. */
static unsigned char pattern(long bytes, long i)
{
    return (unsigned char)(i * 7 + bytes);
}

static double put_mbps(char *dst, const char *src, long bytes, long windows)
{
    long window = window_for(bytes);
    /* one untimed window: first-touch faults and connection setup */
    for (long k = 0; k < window; k++)
        shmem_putmem(dst, src, (size_t)bytes, 1);
    shmem_quiet();

    int64_t t_start = bench_now_ns();
    for (long w = 0; w < windows; w++) {
        for (long k = 0; k < window; k++)
            shmem_putmem(dst, src, (size_t)bytes, 1);
        shmem_quiet();
    }
    int64_t elapsed = bench_now_ns() - t_start;
    return (double)bytes * window * windows * 1e3 / (double)elapsed;
}

static double memcpy_mbps(char *dst, const char *src, long bytes, long windows)
{
    long window = window_for(bytes);
    copy_fn(dst, src, (size_t)bytes);

    int64_t t_start = bench_now_ns();
    for (long w = 0; w < windows; w++)
        for (long k = 0; k < window; k++)
            copy_fn(dst, src, (size_t)bytes);
    int64_t elapsed = bench_now_ns() - t_start;
    return (double)bytes * window * windows * 1e3 / (double)elapsed;
}

int main(int argc, char **argv)
{
    shmem_init();
    bench_require_npes(2);

    bench_opts_t opts;
    bench_parse(argc, argv, 1000, 0, &opts);
    int me = shmem_my_pe();

    char *dst = shmem_malloc(MAX_BYTES); /* symmetric: PE 1's copy is written */
    char *src = malloc(MAX_BYTES);
    char *copy_dst = malloc(MAX_BYTES);
    BENCH_CHECK(dst != NULL && src != NULL && copy_dst != NULL, "allocating 3 x %ld bytes failed",
                MAX_BYTES);
    memset(dst, 0, MAX_BYTES);
    memset(copy_dst, 0, MAX_BYTES);
    shmem_barrier_all();

    for (long bytes = MIN_BYTES; bytes <= MAX_BYTES; bytes *= 2) {
        long windows = windows_for(bytes, &opts);
        long calls = windows * window_for(bytes);
        if (me == 0) {
            for (long i = 0; i < bytes; i++)
                src[i] = (char)pattern(bytes, i);
            double put = put_mbps(dst, src, bytes, windows);
            double copy = memcpy_mbps(copy_dst, src, bytes, windows);
            bench_report("put_bw", bench_impl(), shmem_n_pes(), bytes, calls, "MBps", put);
            bench_report("memcpy_bw", bench_impl(), shmem_n_pes(), bytes, calls, "MBps", copy);
        }
        shmem_barrier_all(); /* PE 0's quiet made the data visible; now check it */
        if (me == 1)
            for (long i = 0; i < bytes; i++)
                BENCH_CHECK((unsigned char)dst[i] == pattern(bytes, i),
                            "size %ld: byte %ld is %u, want %u", bytes, i, (unsigned char)dst[i],
                            pattern(bytes, i));
        shmem_barrier_all();
    }

    free(copy_dst);
    free(src);
    shmem_free(dst);
    shmem_finalize();
    return 0;
}
