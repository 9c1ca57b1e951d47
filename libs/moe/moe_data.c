/*
 * moe_data.c - inputs, routing and the sequential reference of the MoE
 * example (no communication; the MPI baseline links it too).
 */
#include "moe_data.h"

#include <stdio.h>
#include <stdlib.h>

/* splitmix64: a tiny, good, seekable generator (one stream per use). */
static uint64_t mix64(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

typedef struct rng {
    uint64_t s;
} rng_t;

static rng_t rng_make(uint64_t seed, uint64_t stream, uint64_t pe)
{
    rng_t r = {mix64(seed ^ mix64(stream * 0x100000001b3ull + pe))};
    return r;
}
static uint64_t rng_next(rng_t *r)
{
    r->s += 0x9e3779b97f4a7c15ull;
    return mix64(r->s);
}
static double rng_unit(rng_t *r)
{
    return (double)(rng_next(r) >> 11) * (1.0 / 9007199254740992.0); /* [0, 1) */
}
static int rng_below(rng_t *r, int n)
{
    return (int)((rng_next(r) >> 33) % (uint64_t)n);
}

const char *moe_mode_name(moe_mode_t mode)
{
    return mode == MOE_LL ? "low-latency" : "normal";
}

const char *moe_route_name(moe_route_kind_t k)
{
    switch (k) {
    case MOE_ROUTE_RANDOM: return "random";
    case MOE_ROUTE_SKEWED: return "skewed";
    case MOE_ROUTE_EMPTY: return "empty";
    case MOE_ROUTE_SPARSE: return "sparse";
    }
    return "?";
}

int moe_route_parse(const char *name)
{
    int k;

    for (k = MOE_ROUTE_RANDOM; k <= MOE_ROUTE_SPARSE; k++)
        if (strcmp(name, moe_route_name((moe_route_kind_t)k)) == 0)
            return k;
    return -1;
}

void moe_shape_str(const moe_shape_t *s, char *buf, size_t len)
{
    snprintf(buf, len,
             "%d tokens/PE, H=%d, top-%d, %d experts (%d per PE), %s dispatch, bf16 combine",
             s->tokens, s->hidden, s->topk, s->experts, s->experts / s->npes,
             s->dtype == MOE_FP8 ? "fp8-e4m3" : "bf16");
}

/* Values of several magnitudes, so the per-128 scales differ. */
void moe_make_tokens(const moe_shape_t *s, int pe, uint64_t seed, moe_bf16_t *x)
{
    rng_t r = rng_make(seed, 1, (uint64_t)pe);
    long n = (long)s->tokens * s->hidden, i;
    float mag = 1.0f;

    for (i = 0; i < n; i++) {
        if (i % MOE_SCALE_BLOCK == 0)
            mag = (float)(0.01 + 8.0 * rng_unit(&r) * rng_unit(&r));
        x[i] = moe_f32_to_bf16((float)(2.0 * rng_unit(&r) - 1.0) * mag);
    }
}

/* Expert for slot k of a token: distinct within the token. */
static int pick_expert(rng_t *r, const moe_shape_t *s, moe_route_kind_t kind, const int32_t *row,
                       int k)
{
    for (;;) {
        int e = rng_below(r, s->experts), j, dup = 0;

        if (kind == MOE_ROUTE_SKEWED && k == 0)
            e = 0;
        if (kind == MOE_ROUTE_EMPTY) {
            e = e - e % 3 + 1; /* only e % 3 == 1 */
            if (e >= s->experts)
                continue;
        }
        for (j = 0; j < k; j++)
            dup |= row[j] == e;
        if (!dup)
            return e;
    }
}

void moe_route_make(const moe_shape_t *s, moe_route_kind_t kind, int pe, uint64_t seed,
                    int32_t *idx, float *w)
{
    rng_t r = rng_make(seed, 2 + (uint64_t)kind, (uint64_t)pe);
    int usable = kind == MOE_ROUTE_EMPTY ? (s->experts + 1) / 3 : s->experts;
    int t, k;

    for (t = 0; t < s->tokens; t++) {
        int32_t *row = idx + (long)t * s->topk;
        float *wr = w + (long)t * s->topk, sum = 0;
        int drop_all = kind == MOE_ROUTE_SPARSE && t % 17 == 3;

        for (k = 0; k < s->topk; k++) {
            row[k] = k < usable ? pick_expert(&r, s, kind, row, k) : -1;
            wr[k] = (float)(0.05 + rng_unit(&r));
            sum += wr[k];
        }
        for (k = 0; k < s->topk; k++) {
            wr[k] /= sum;
            if (drop_all || (kind == MOE_ROUTE_SPARSE && rng_below(&r, 3) == 0))
                row[k] = -1;
        }
    }
}

void moe_pack_token(const moe_shape_t *s, const moe_bf16_t *x, int t, unsigned char *msg)
{
    const moe_bf16_t *row = x + (long)t * s->hidden;
    moe_hdr_t h;
    unsigned char *p = msg + MOE_HDR_BYTES;
    int b, nb = s->hidden / MOE_SCALE_BLOCK;

    memset(&h, 0, sizeof h);
    h.token = t;
    memcpy(msg, &h, sizeof h);
    if (s->dtype == MOE_BF16) {
        memcpy(p, row, 2 * (size_t)s->hidden);
        return;
    }
    for (b = 0; b < nb; b++) {
        float scale = moe_quant_block(row + b * MOE_SCALE_BLOCK, p + b * MOE_SCALE_BLOCK);
        memcpy(p + s->hidden + 4 * b, &scale, 4);
    }
}

void moe_expert_run(const moe_shape_t *s, int expert, const unsigned char *msgs, size_t msg_stride,
                    int n, moe_bf16_t *out, size_t out_stride)
{
    int i;

    for (i = 0; i < n; i++) {
        const unsigned char *p = msgs + (size_t)i * msg_stride + MOE_HDR_BYTES;
        moe_bf16_t *o = (moe_bf16_t *)((unsigned char *)out + (size_t)i * out_stride);

        moe_expert_span(p, s->hidden, s->dtype, expert, o, 0, s->hidden);
    }
}

void moe_reference(const moe_shape_t *s, const moe_bf16_t *x, const int32_t *idx, const float *w,
                   moe_bf16_t *ref)
{
    size_t msg = moe_msg_bytes(s->hidden, s->dtype), row = 2 * (size_t)s->hidden;
    unsigned char *m = (unsigned char *)malloc(msg);
    moe_bf16_t *y = (moe_bf16_t *)malloc(row * (size_t)s->topk);
    const moe_bf16_t **rows = (const moe_bf16_t **)malloc(sizeof(*rows) * (size_t)s->topk);
    int t, k, i;

    for (t = 0; t < s->tokens; t++) {
        const int32_t *ti = idx + (long)t * s->topk;

        moe_pack_token(s, x, t, m);
        for (k = 0; k < s->topk; k++) {
            rows[k] = y + (size_t)k * s->hidden;
            if (ti[k] >= 0)
                moe_expert_run(s, ti[k], m, msg, 1, y + (size_t)k * s->hidden, row);
        }
        for (i = 0; i < s->hidden; i++)
            ref[(long)t * s->hidden + i] = moe_combine_value(ti, w + (long)t * s->topk, s->topk,
                                                             rows, i);
    }
    free(rows);
    free(y);
    free(m);
}

long moe_count_selections(const moe_shape_t *s, const int32_t *idx)
{
    long n = 0, i;

    for (i = 0; i < (long)s->tokens * s->topk; i++)
        n += idx[i] >= 0;
    return n;
}

double moe_dispatch_bytes(const moe_shape_t *s, long selections)
{
    return (double)selections * (double)(MOE_HDR_BYTES + moe_payload_bytes(s->hidden, s->dtype));
}

double moe_combine_bytes(const moe_shape_t *s, long selections)
{
    return (double)selections * (double)moe_comb_bytes(s->hidden);
}

long moe_first_diff(const moe_bf16_t *a, const moe_bf16_t *b, long n)
{
    long i;

    for (i = 0; i < n; i++)
        if (a[i] != b[i])
            return i;
    return -1;
}

int moe_shape_preset(const char *name, int npes, moe_shape_t *s)
{
    memset(s, 0, sizeof *s);
    s->npes = npes, s->dtype = MOE_FP8;
    if (strcmp(name, "deepep") == 0)
        s->tokens = 128, s->hidden = 7168, s->topk = 8, s->experts = 8 * npes;
    else if (strcmp(name, "cpu") == 0)
        s->tokens = 128, s->hidden = 2048, s->topk = 8, s->experts = 8 * npes;
    else if (strcmp(name, "test") == 0)
        s->tokens = 24, s->hidden = 256, s->topk = 4, s->experts = 4 * npes;
    else
        return -1;
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double moe_quantile(const double *v, int n, double p)
{
    double *c, r;
    int i;

    if (n <= 0)
        return 0;
    c = (double *)malloc(sizeof(double) * (size_t)n);
    memcpy(c, v, sizeof(double) * (size_t)n);
    qsort(c, (size_t)n, sizeof(double), cmp_double);
    i = (int)(p * (n - 1) + 0.5);
    r = c[i < 0 ? 0 : i >= n ? n - 1 : i];
    free(c);
    return r;
}

void moe_json_line(const char *what, const char *impl, const char *mode, const char *path,
                   const char *shape, const moe_shape_t *s, double selections, const double *us,
                   int iters, double bytes, int verified)
{
    double med = moe_quantile(us, iters, 0.5), p99 = moe_quantile(us, iters, 0.99);

    printf("{\"bench\":\"moe_%s\",\"impl\":\"%s\",\"mode\":\"%s\",\"path\":\"%s\","
           "\"shape\":\"%s\",\"npes\":%d,\"tokens\":%d,\"hidden\":%d,\"topk\":%d,"
           "\"experts\":%d,\"dtype\":\"%s\",\"selections\":%.1f,\"bytes\":%.0f,"
           "\"iters\":%d,\"median_us\":%.3f,\"p99_us\":%.3f,\"gbps\":%.4f,"
           "\"verified\":%s}\n",
           what, impl, mode, path, shape, s->npes, s->tokens, s->hidden, s->topk, s->experts,
           s->dtype == MOE_FP8 ? "fp8" : "bf16", selections, bytes, iters, med, p99,
           bytes > 0 && med > 0 ? bytes / med / 1e3 : 0.0, verified ? "true" : "false");
    fflush(stdout);
}
