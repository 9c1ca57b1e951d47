/*
 * moe_run.c - one measured run of dispatch + expert + combine (the example
 * program and perftest/moe_bench share it), through the public library
 * (gshmem_moe.h), either zero copy (the expert reads and writes the rows in
 * place, gshmem_moe_expert_rows) or staged (recv_x and expert_y arrays of
 * the caller, as the Python package's calls are): the times include the
 * library's copies of the way chosen.  Each timed phase sits between
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
    int n = shmem_n_pes(), p2p;
    long *w;

    if (n == 1)
        return "local";
    w = (long *)shmem_malloc(sizeof *w);
    p2p = w && shmem_ptr(w, (shmem_my_pe() + 1) % n) != NULL;
    shmem_free(w);
    return p2p ? "load/store" : "proxy";
}

void moe_toy_row(const moe_shape_t *s, int e, const void *x, const float *sc, moe_bf16_t *y)
{
    /* The MPI baseline's expert loop (moe_expert_span, by 128-blocks): a
     * loop of its own that looked the scale up per value took twice as long. */
    moe_expert_vals((const unsigned char *)x, (const unsigned char *)sc, s->dtype, e, y, 0,
                    s->hidden);
}

void moe_toy_experts(const moe_shape_t *s, int L, int R, const int32_t *count,
                     const unsigned char *vals, const float *scales, moe_bf16_t *y)
{
    const int H = s->hidden, G = H / MOE_SCALE_BLOCK, me = shmem_my_pe();
    const size_t vb = s->dtype == MOE_FP8 ? 1 : 2;
    int le, r;

    for (le = 0; le < L; le++)
        for (r = 0; r < count[le]; r++) {
            const size_t row = (size_t)le * R + (size_t)r;

            moe_toy_row(s, me * L + le, vals + row * H * vb,
                        s->dtype == MOE_FP8 ? scales + row * G : NULL, y + row * H);
        }
}

/* The same over the rows in place (zero copy): 0, or the library's status. */
static int toy_experts_in_place(const moe_shape_t *s, const gshmem_moe_t *b,
                                const gshmem_moe_handle_t *h, int L)
{
    const int me = shmem_my_pe();
    const gshmem_moe_row_t *rows;
    int le, r, n, rc;

    for (le = 0; le < L; le++) {
        if ((rc = gshmem_moe_expert_rows(b, h, le, &rows, &n)) != 0)
            return rc;
        for (r = 0; r < n; r++)
            moe_toy_row(s, me * L + le, rows[r].x, rows[r].scales, rows[r].y);
    }
    return 0;
}

int moe_measure(const moe_shape_t *s, moe_mode_t mode, moe_route_kind_t route, uint64_t seed,
                int warmup, int iters, int zero_copy, moe_perf_t *p)
{
    const int me = shmem_my_pe(), N = s->tokens, H = s->hidden, K = s->topk;
    const int L = s->experts / s->npes, R = s->npes * N;
    const size_t vb = s->dtype == MOE_FP8 ? 1 : 2;
    const gshmem_moe_config_t cfg = {
        .hidden = H,
        .num_experts = s->experts,
        .topk = K,
        .max_tokens_per_pe = N,
        .format = s->dtype == MOE_FP8 ? GSHMEM_MOE_FP8 : GSHMEM_MOE_BF16,
        .mode = mode == MOE_LL ? GSHMEM_MOE_LOW_LATENCY : GSHMEM_MOE_NORMAL,
    };
    moe_bf16_t *x = (moe_bf16_t *)malloc((size_t)N * H * 2);
    moe_bf16_t *ref = (moe_bf16_t *)malloc((size_t)N * H * 2);
    moe_bf16_t *out = (moe_bf16_t *)malloc((size_t)N * H * 2);
    int32_t *idx = (int32_t *)malloc((size_t)N * K * 4);
    float *w = (float *)malloc((size_t)N * K * 4);
    unsigned char *rx = (unsigned char *)malloc((size_t)L * R * H * vb);
    float *rs = (float *)malloc((size_t)L * R * (H / MOE_SCALE_BLOCK) * 4);
    moe_bf16_t *y = (moe_bf16_t *)malloc((size_t)L * R * H * 2);
    int32_t *cnt = (int32_t *)malloc((size_t)L * 4);
    double *d = (double *)shmem_calloc((size_t)iters + 1, sizeof(double));
    double *c = (double *)shmem_calloc((size_t)iters + 1, sizeof(double));
    double *e = (double *)shmem_calloc((size_t)iters + 1, sizeof(double));
    long *stat = (long *)shmem_calloc(2, sizeof(long));
    gshmem_moe_t *b = NULL;
    gshmem_moe_handle_t h;
    int i, rc = -1;

    memset(p, 0, sizeof *p);
    if (!x || !ref || !out || !idx || !w || !rx || !rs || !y || !cnt || !d || !c || !e || !stat)
        goto out;
    if (gshmem_moe_create(&cfg, &b) != 0)
        goto out;
    moe_make_tokens(s, me, seed, x);
    moe_route_make(s, route, me, seed, idx, w);

    for (i = -warmup; i < iters; i++) {
        double t0, t1, te0, te1, t2, t3;

        shmem_barrier_all(); /* not timed: every PE starts the phase together */
        t0 = now_us();
        if (gshmem_moe_dispatch(b, x, idx, N, zero_copy ? NULL : rx, zero_copy ? NULL : rs, cnt,
                                &h))
            goto fini;
        t1 = now_us();
        shmem_barrier_all();
        te0 = now_us();
        if (zero_copy) {
            if (toy_experts_in_place(s, b, &h, L))
                goto fini;
        } else
            moe_toy_experts(s, L, R, cnt, rx, rs, y);
        te1 = now_us();
        shmem_barrier_all();
        t2 = now_us();
        if (gshmem_moe_combine(b, zero_copy ? NULL : y, w, &h, out))
            goto fini;
        t3 = now_us();
        if (i >= 0)
            d[i] = t1 - t0, e[i] = te1 - te0, c[i] = t3 - t2;
    }
    moe_reference(s, x, idx, w, ref);
    stat[0] = moe_first_diff(out, ref, (long)N * H) < 0 ? 0 : 1;
    stat[1] = moe_count_selections(s, idx);
    shmem_double_max_reduce(SHMEM_TEAM_WORLD, d, d, (size_t)iters);
    shmem_double_max_reduce(SHMEM_TEAM_WORLD, c, c, (size_t)iters);
    shmem_double_max_reduce(SHMEM_TEAM_WORLD, e, e, (size_t)iters);
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, stat, stat, 2);

    p->iters = iters;
    p->dispatch_us = (double *)malloc(sizeof(double) * (size_t)iters);
    p->combine_us = (double *)malloc(sizeof(double) * (size_t)iters);
    p->total_us = (double *)malloc(sizeof(double) * (size_t)iters);
    p->expert_us = (double *)malloc(sizeof(double) * (size_t)iters);
    p->layer_us = (double *)malloc(sizeof(double) * (size_t)iters);
    if (!p->dispatch_us || !p->combine_us || !p->total_us || !p->expert_us || !p->layer_us) {
        moe_perf_free(p);
        goto fini;
    }
    for (i = 0; i < iters; i++) {
        p->dispatch_us[i] = d[i], p->combine_us[i] = c[i], p->expert_us[i] = e[i];
        p->total_us[i] = d[i] + c[i], p->layer_us[i] = d[i] + e[i] + c[i];
    }
    p->verified = stat[0] == 0;
    p->selections = (double)stat[1] / s->npes;
    rc = 0;
fini:
    gshmem_moe_destroy(b);
out:
    shmem_free(stat);
    shmem_free(e);
    shmem_free(c);
    shmem_free(d);
    free(cnt), free(y), free(rs), free(rx);
    free(w), free(idx), free(out), free(ref), free(x);
    return rc;
}

void moe_perf_free(moe_perf_t *p)
{
    free(p->dispatch_us), free(p->combine_us), free(p->total_us);
    free(p->expert_us), free(p->layer_us);
    memset(p, 0, sizeof *p);
}
