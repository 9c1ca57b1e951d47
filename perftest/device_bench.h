/*
 * device_bench.h - what the device-API benchmarks (device_*.c) share: the
 * kernel-side clock and start gate, scopes, the mode, and JSON lines.
 *
 * The programs are written once for both backends, like tests/device: the
 * C compiler builds them for host lanes (make), nvcc for a GPU
 * (gshmemcc -x cu).  Kernels time themselves with the device clock (the
 * gsd_ layer's gsd_clock_ns: CLOCK_MONOTONIC on host lanes, %globaltimer on
 * a GPU), between a gate every timed lane passes at once and the last
 * lane's end, so launch costs are not in the figures.
 *
 * Every line is bench.h's, plus the device fields:
 *   {"bench":"dev_put_lat","impl":"gshmem","npes":2,"bytes":8,"iters":2000,
 *    "scope":"warp","mode":"proxy","proxy_threads":1,"lat_ns":812.4}
 * mode: "p2p" (peers by load/store) or "proxy" (GSHMEM_DISABLE_P2P=1: the
 * proxy channels and UCX); proxy_threads: GSHMEM_PROXY_THREADS (1 if unset).
 */
#ifndef GSHMEM_PERFTEST_DEVICE_BENCH_H
#define GSHMEM_PERFTEST_DEVICE_BENCH_H

#include "bench.h"

#include <gshmem.h>

#if defined(__CUDACC__)
#define DB_FN static __device__ inline
#define DB_HD static __host__ __device__ inline
#else
#define DB_FN static inline
#define DB_HD static inline
#endif

enum { DB_THREAD, DB_WARP, DB_BLOCK, DB_N_SCOPES };
static const char *const db_scope_name[DB_N_SCOPES] = {"thread", "warp", "block"};

/* Calls f (e.g. putmem_nbi) at a scope: gshmem_f, gshmemx_f_warp, _block. */
#define DB_SCOPED(sc, f, args)        \
    do {                              \
        if ((sc) == DB_THREAD)        \
            gshmem_##f args;          \
        else if ((sc) == DB_WARP)     \
            gshmemx_##f##_warp args;  \
        else                          \
            gshmemx_##f##_block args; \
    } while (0)

/* A kernel's clock words, in the device heap: zero them before a launch. */
typedef struct db_clock {
    uint64_t gate;      /* lanes that reached the gate */
    uint64_t not_start; /* ~(earliest start): atomic max of ~t */
    uint64_t end;       /* latest end */
    uint64_t pad;
} db_clock_t;

/* Every one of `lanes` lanes calls this: it returns once all have arrived,
 * and the clock starts. */
DB_FN void db_gate(db_clock_t *c, unsigned lanes)
{
    unsigned polls = 0;

    gsd_fetch_add(&c->gate, 1);
    while (gsd_load_acquire(&c->gate) < lanes)
        gsd_pause(&polls);
    gsd_atomic_max(&c->not_start, ~gsd_clock_ns());
}

/* Every timed lane calls this when it is done. */
DB_FN void db_done(db_clock_t *c)
{
    gsd_atomic_max(&c->end, gsd_clock_ns());
}

DB_HD unsigned char db_pat(uint64_t off)
{
    return (unsigned char)(off * 131u + (off >> 9) + 7u);
}

/* ---- host side ----------------------------------------------------------- */

static inline void db_clock_reset(db_clock_t *c)
{
    db_clock_t z;

    memset(&z, 0, sizeof z);
    gshmemx_memcpy_to_device(c, &z, sizeof z);
}

/* Nanoseconds from the gate to the last db_done. */
static inline double db_clock_ns(const db_clock_t *c)
{
    db_clock_t h;

    gshmemx_memcpy_from_device(&h, c, sizeof h);
    return (double)(h.end - ~h.not_start);
}

static inline const char *db_mode(void)
{
    const char *v = getenv("GSHMEM_DISABLE_P2P");

    return v && (!strcmp(v, "1") || !strcmp(v, "yes") || !strcmp(v, "true") || !strcmp(v, "on"))
               ? "proxy"
               : "p2p";
}

static inline long db_proxy_threads(void)
{
    return bench_env_long("GSHMEM_PROXY_THREADS", 1);
}

static inline void db_report(const char *bench, const char *scope, long bytes, long iters,
                             const char *metric, double value)
{
    fputs("{\"bench\":\"", stdout);
    bench_json_str(bench);
    fputs("\",\"impl\":\"", stdout);
    bench_json_str(bench_impl());
    printf("\",\"npes\":%d,\"bytes\":%ld,\"iters\":%ld,\"scope\":\"%s\",\"mode\":\"%s\","
           "\"proxy_threads\":%ld,\"%s\":%.3f}\n",
           shmem_n_pes(), bytes, iters, scope, db_mode(), db_proxy_threads(), metric, value);
    fflush(stdout);
}

/* Device memory or the end of the run. */
static inline void *db_malloc(size_t n)
{
    void *p = gshmem_malloc(n);

    BENCH_CHECK(p != NULL, "gshmem_malloc(%zu) returned NULL", n);
    return p;
}

static inline void db_fill_pat(void *dev, size_t n)
{
    unsigned char *h = (unsigned char *)malloc(n);
    size_t i;

    BENCH_CHECK(h != NULL, "malloc(%zu)", n);
    for (i = 0; i < n; i++)
        h[i] = db_pat(i);
    gshmemx_memcpy_to_device(dev, h, n);
    free(h);
}

/* Launch, or end the run. */
#define DB_LAUNCH(kernel, blocks, threads, args)                                                  \
    do {                                                                                          \
        int db_rc_ = GSHMEM_LAUNCH(kernel, (blocks), (threads), args);                            \
        BENCH_CHECK(db_rc_ == 0, "GSHMEM_LAUNCH(%s, %u, %u) failed", #kernel, (unsigned)(blocks), \
                    (unsigned)(threads));                                                         \
    } while (0)

#endif /* GSHMEM_PERFTEST_DEVICE_BENCH_H */
