/*
 * device_bw.c - bandwidth of device puts and gets between PE 0 and PE 1:
 * dev_put_bw (PE 0 writes PE 1's buffer) and dev_get_bw (PE 0 reads it).
 *
 * Message sizes 8 B to 1 MiB, doubling.  A kernel of BLOCKS x THREADS lanes
 * on PE 0 splits the messages of a size among its units - each lane
 * (thread scope), each warp (warp) or each block (block) - which issue
 * gshmem_putmem_nbi / gshmemx_putmem_nbi_warp / _block (getmem_nbi for the
 * gets) in windows of WIN, each window closed by gshmem_quiet.  Timed inside the kernel, from the
 * moment every lane is ready to the last quiet (device_bench.h).  The
 * messages cover a 4 MiB destination (again and again for the large
 * sizes); the receiving side (PE 1 for puts, PE 0 for gets) checks every
 * byte it got.
 *
 * -b bytes to move per size (default 16 MiB); the message count per size is
 * kept within [64, -n] (default 20000; warp and block scope: -n / 16, as
 * each of their puts costs group barriers, which on host lanes means every
 * lane of the group gets a core), so small sizes end in time through the
 * proxy.  MBps is 10^6 bytes per second.
 */
#include "device_bench.h"

#define BLOCKS 2
#define THREADS 32      /* per block: the thread scope's lanes */
#define WIDE_THREADS 64 /* per block at warp and block scope: 2 warps */
#define WIN 64          /* puts per unit between quiets */
#define BUF (4u << 20)
#define MAX_SIZE (1u << 20)

typedef struct bw_args {
    db_clock_t *clk;
    char *src, *dst; /* BUF each */
    size_t size;     /* bytes per message */
    long msgs;       /* messages, over all units */
    int scope;
    int get; /* 1: PE 0 reads PE 1's src into its own dst */
} bw_args_t;

GSHMEM_KERNEL(bw_kernel, bw_args_t, a)
{
    unsigned unit, units, lead;
    long k, n;

    if (a.scope == DB_THREAD)
        unit = gshmemx_block_id() * gshmemx_block_threads() + gshmemx_thread_id(),
        units = gshmemx_grid_blocks() * gshmemx_block_threads(), lead = 1;
    else if (a.scope == DB_WARP)
        unit = gshmemx_block_id() * (gshmemx_block_threads() / 32) + gshmemx_thread_id() / 32,
        units = gshmemx_grid_blocks() * (gshmemx_block_threads() / 32),
        lead = gshmemx_thread_id() % 32 == 0;
    else
        unit = gshmemx_block_id(), units = gshmemx_grid_blocks(), lead = gshmemx_thread_id() == 0;
    /* unit u sends messages u, u + units, ... */
    n = a.msgs > (long)unit ? (a.msgs - (long)unit + (long)units - 1) / (long)units : 0;
    db_gate(a.clk, gshmemx_grid_blocks() * gshmemx_block_threads());
    for (k = 0; k < n; k++) {
        size_t off = ((size_t)(unit + (unsigned long)k * units) * a.size) % BUF;

        if (a.get)
            DB_SCOPED(a.scope, getmem_nbi, (a.dst + off, a.src + off, a.size, 1));
        else
            DB_SCOPED(a.scope, putmem_nbi, (a.dst + off, a.src + off, a.size, 1));
        if (lead && (k + 1) % WIN == 0)
            gshmem_quiet();
    }
    if (lead)
        gshmem_quiet();
    db_done(a.clk);
}

int main(int argc, char **argv)
{
    bench_opts_t opts;
    bw_args_t a;
    size_t size;
    int me, sc, get;

    shmem_init();
    bench_require_npes(2);
    bench_parse(argc, argv, 20000, 0, &opts);
    if (getenv("BENCH_BW_BYTES") == NULL && opts.bw_bytes == 256L << 20)
        opts.bw_bytes = 16L << 20; /* bench.h's default is for host puts */
    me = shmem_my_pe();
    a.clk = (db_clock_t *)db_malloc(sizeof(db_clock_t));
    a.src = (char *)db_malloc(BUF);
    a.dst = (char *)db_malloc(BUF);
    db_fill_pat(a.src, BUF);

    for (get = 0; get < 2; get++)
        for (sc = 0; sc < DB_N_SCOPES; sc++)
            for (size = 8; size <= MAX_SIZE; size *= 2) {
                unsigned threads = sc == DB_THREAD ? THREADS : WIDE_THREADS;
                long msgs = opts.bw_bytes / (long)size;
                size_t covered;

                /* a warp or block put costs a few group barriers: fewer of them */
                if (msgs > (sc == DB_THREAD ? opts.iters : opts.iters / 16))
                    msgs = sc == DB_THREAD ? opts.iters : opts.iters / 16;
                if (msgs < 64)
                    msgs = 64;
                a.size = size;
                a.msgs = msgs;
                a.scope = sc;
                a.get = get;
                db_clock_reset(a.clk);
                if (me == (get ? 0 : 1))
                    gshmemx_memcpy_to_device(a.dst, a.src + 1, 64); /* not the pattern */
                shmem_barrier_all();
                if (me == 0) {
                    DB_LAUNCH(bw_kernel, BLOCKS, threads, a);
                    db_report(get ? "dev_get_bw" : "dev_put_bw", db_scope_name[sc], (long)size,
                              msgs, "MBps", (double)msgs * (double)size * 1e3 / db_clock_ns(a.clk));
                }
                shmem_barrier_all();
                covered = (size_t)msgs * size < BUF ? (size_t)msgs * size : BUF;
                if (me == (get ? 0 : 1)) {
                    unsigned char *h = (unsigned char *)malloc(covered);
                    size_t i;

                    gshmemx_memcpy_from_device(h, a.dst, covered);
                    for (i = 0; i < covered; i++)
                        BENCH_CHECK(h[i] == db_pat(i), "%s %s %zu B: byte %zu",
                                    get ? "dev_get_bw" : "dev_put_bw", db_scope_name[sc], size, i);
                    free(h);
                }
            }
    gshmem_free(a.dst);
    gshmem_free(a.src);
    gshmem_free(a.clk);
    shmem_finalize();
    return 0;
}
