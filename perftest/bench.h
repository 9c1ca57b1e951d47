/*
 * bench.h - helpers shared by the perftest programs: clock, options, JSON lines.
 *
 * Everything here is static so each program stays one translation unit and
 * builds with any OpenSHMEM compiler wrapper (gshmemcc, oshcc) unchanged.
 * Only OpenSHMEM 1.4 calls are used, so Open MPI 4.1's OSHMEM builds them.
 *
 * A program that does not use SHMEM (raw_shm_pingpong.c) defines
 * BENCH_NO_SHMEM before including this file.
 *
 * Options, in order of precedence (command line wins over environment):
 *   -n N   / BENCH_ITERS=N    timed iterations (per size for put_bw: windows)
 *   -w N   / BENCH_WARMUP=N   untimed warm-up iterations
 *   -b B   / BENCH_BW_BYTES=B put_bw: bytes to move per message size
 *   BENCH_IMPL=name           overrides the "impl" field of every line
 */
#ifndef GSHMEM_PERFTEST_BENCH_H
#define GSHMEM_PERFTEST_BENCH_H

#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* clock_gettime, getopt under -std=c11 */
#endif

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef BENCH_NO_SHMEM
#include <shmem.h>
#endif

typedef struct bench_opts {
    long iters;    /* timed iterations */
    long warmup;   /* untimed iterations before timing starts */
    long bw_bytes; /* put_bw: data volume per message size */
} bench_opts_t;

/* Monotonic nanoseconds: immune to NTP steps, comparable within one host. */
static inline int64_t bench_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Wall-clock nanoseconds: used only to compare with a launch time taken by
 * the shell (date +%s%N) in another process. */
static inline int64_t bench_realtime_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static inline long bench_env_long(const char *name, long fallback)
{
    const char *s = getenv(name);
    if (s == NULL || *s == '\0')
        return fallback;
    char *end;
    long v = strtol(s, &end, 0);
    if (*end != '\0' || v < 0) {
        fprintf(stderr, "bench: ignoring %s=%s (want a non-negative integer)\n", name, s);
        return fallback;
    }
    return v;
}

/* Defaults come from the program; environment then argv override them.
 * Every PE parses the same argv, so all PEs agree on the loop counts. */
static inline void bench_parse(int argc, char **argv, long def_iters, long def_warmup,
                               bench_opts_t *opts)
{
    opts->iters = bench_env_long("BENCH_ITERS", def_iters);
    opts->warmup = bench_env_long("BENCH_WARMUP", def_warmup);
    opts->bw_bytes = bench_env_long("BENCH_BW_BYTES", 256L << 20);

    int c;
    while ((c = getopt(argc, argv, "n:w:b:h")) != -1) {
        switch (c) {
        case 'n': opts->iters = atol(optarg); break;
        case 'w': opts->warmup = atol(optarg); break;
        case 'b': opts->bw_bytes = atol(optarg); break;
        default:
            fprintf(stderr, "usage: %s [-n iters] [-w warmup] [-b bw_bytes_per_size]\n", argv[0]);
            exit(c == 'h' ? 0 : 2);
        }
    }
    if (opts->iters < 1)
        opts->iters = 1;
}

/* Writes s as a JSON string body: the vendor string is free text. */
static inline void bench_json_str(const char *s)
{
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            putchar('\\');
        if ((unsigned char)*s >= 0x20)
            putchar(*s);
    }
}

/* One measurement, one line: {"bench":..,"impl":..,"npes":..,"bytes":..,
 * "iters":..,"<metric>":value}. Flushed at once so a later crash in
 * shmem_finalize cannot lose figures already measured. */
static inline void bench_report(const char *bench, const char *impl, int npes, long bytes,
                                long iters, const char *metric, double value)
{
    fputs("{\"bench\":\"", stdout);
    bench_json_str(bench);
    fputs("\",\"impl\":\"", stdout);
    bench_json_str(impl);
    printf("\",\"npes\":%d,\"bytes\":%ld,\"iters\":%ld,\"%s\":%.3f}\n", npes, bytes, iters, metric,
           value);
    fflush(stdout);
}

/* Ends the program from PE 0's verdict; used when a result is wrong so a
 * broken implementation never reports a (meaningless) fast figure. */
#define BENCH_CHECK(cond, ...)                                    \
    do {                                                          \
        if (!(cond)) {                                            \
            fprintf(stderr, "bench: check failed: " __VA_ARGS__); \
            fputc('\n', stderr);                                  \
            bench_fail();                                         \
        }                                                         \
    } while (0)

#ifndef BENCH_NO_SHMEM

static inline void bench_fail(void)
{
    shmem_global_exit(1);
    exit(1); /* not reached */
}

/* "impl": BENCH_IMPL if set, else the library's own name (1.4 API). */
static inline const char *bench_impl(void)
{
    static char name[SHMEM_MAX_NAME_LEN + 1];
    const char *env = getenv("BENCH_IMPL");
    if (env != NULL && *env != '\0')
        return env;
    if (name[0] == '\0')
        shmem_info_get_name(name);
    return name;
}

/* Most programs need exactly PEs 0 and 1; extra PEs just wait in barriers. */
static inline void bench_require_npes(int min_npes)
{
    if (shmem_n_pes() < min_npes) {
        if (shmem_my_pe() == 0)
            fprintf(stderr, "bench: needs at least %d PEs, got %d\n", min_npes, shmem_n_pes());
        shmem_finalize();
        exit(2);
    }
}

#else

static inline void bench_fail(void)
{
    exit(1);
}

#endif /* BENCH_NO_SHMEM */

#endif /* GSHMEM_PERFTEST_BENCH_H */
