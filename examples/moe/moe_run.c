/*
 * moe_run.c - one measured run of dispatch + expert + combine (the example
 * program and perftest/moe_bench share it).  Each timed phase sits between
 * barriers (not timed), so it measures the phase itself: not the skew the
 * untimed expert leaves, nor (PEs sharing cores) a PE that could not run
 * because the PE beside it on its core was busy in the expert.  The calls
 * themselves need no barrier (the tests run them back to back).  A
 * round's time is the slowest PE's; the last round's output is checked
 * against the sequential reference on every PE.
 */
#include "moe_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_us(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec * 1e-3;
}

const char *moe_path_name(void)
{
    int n = shmem_n_pes();

    return n == 1 ? "local" : moe_pe_is_p2p((shmem_my_pe() + 1) % n) ? "load/store" : "proxy";
}

int moe_measure(const moe_shape_t *s, moe_mode_t mode, moe_route_kind_t route, uint64_t seed,
                int warmup, int iters, moe_perf_t *p)
{
    const int me = shmem_my_pe(), N = s->tokens, H = s->hidden, K = s->topk;
    moe_bf16_t *x = (moe_bf16_t *)malloc((size_t)N * H * 2);
    moe_bf16_t *ref = (moe_bf16_t *)malloc((size_t)N * H * 2);
    moe_bf16_t *out = (moe_bf16_t *)malloc((size_t)N * H * 2);
    int32_t *idx = (int32_t *)malloc((size_t)N * K * 4);
    float *w = (float *)malloc((size_t)N * K * 4);
    double *d = (double *)shmem_calloc((size_t)iters + 1, sizeof(double));
    double *c = (double *)shmem_calloc((size_t)iters + 1, sizeof(double));
    long *stat = (long *)shmem_calloc(2, sizeof(long));
    moe_t m;
    int i, rc = -1;

    memset(p, 0, sizeof *p);
    if (!x || !ref || !out || !idx || !w || !d || !c || !stat)
        goto out;
    if (moe_init(&m, s, mode) != 0)
        goto out;
    moe_make_tokens(s, me, seed, x);
    moe_route_make(s, route, me, seed, idx, w);
    gshmemx_memcpy_to_device(m.x, x, (size_t)N * H * 2);
    gshmemx_memcpy_to_device(m.idx, idx, (size_t)N * K * 4);
    gshmemx_memcpy_to_device(m.w, w, (size_t)N * K * 4);

    for (i = -warmup; i < iters; i++) {
        double t0, t1, t2, t3;

        shmem_barrier_all(); /* not timed: every PE starts the phase together */
        t0 = now_us();
        if (moe_dispatch(&m))
            goto fini;
        t1 = now_us();
        shmem_barrier_all();
        if (moe_expert_toy(&m))
            goto fini;
        shmem_barrier_all();
        t2 = now_us();
        if (moe_combine(&m))
            goto fini;
        t3 = now_us();
        if (i >= 0)
            d[i] = t1 - t0, c[i] = t3 - t2;
    }
    gshmemx_memcpy_from_device(out, m.out, (size_t)N * H * 2);
    moe_reference(s, x, idx, w, ref);
    stat[0] = moe_first_diff(out, ref, (long)N * H) < 0 ? 0 : 1;
    stat[1] = moe_count_selections(s, idx);
    shmem_double_max_reduce(SHMEM_TEAM_WORLD, d, d, (size_t)iters);
    shmem_double_max_reduce(SHMEM_TEAM_WORLD, c, c, (size_t)iters);
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, stat, stat, 2);

    p->iters = iters;
    p->dispatch_us = (double *)malloc(sizeof(double) * (size_t)iters);
    p->combine_us = (double *)malloc(sizeof(double) * (size_t)iters);
    p->total_us = (double *)malloc(sizeof(double) * (size_t)iters);
    for (i = 0; i < iters; i++) {
        p->dispatch_us[i] = d[i], p->combine_us[i] = c[i];
        p->total_us[i] = d[i] + c[i];
    }
    p->verified = stat[0] == 0;
    p->selections = (double)stat[1] / s->npes;
    rc = 0;
fini:
    moe_fini(&m);
out:
    shmem_free(stat);
    shmem_free(c);
    shmem_free(d);
    free(w), free(idx), free(out), free(ref), free(x);
    return rc;
}

void moe_perf_free(moe_perf_t *p)
{
    free(p->dispatch_us), free(p->combine_us), free(p->total_us);
    memset(p, 0, sizeof *p);
}
