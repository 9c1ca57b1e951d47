/*
 * moe_inflight.c - two low-latency dispatches in flight through the public
 * library (gshmem_moe.h), as a serving stack pipelines micro-batches:
 * dispatch A, dispatch B, the experts of both, combine A, combine B, each
 * output checked against the sequential reference bit for bit, for fp8
 * and bf16 and over three such pairs (so both buffer parities carry the
 * first of a pair).  A and B have different tokens and routings: a B that
 * overwrote A's staged rows or routing (one send buffer for both: the race
 * the Python tests once hit over UCX) makes A's combine wrong.  Also, on
 * every PE: a third dispatch while two wait is refused, and so is
 * combining B before A (GSHMEM_MOE_ERR_INVALID, nothing sent, the pair
 * still completes).  Run at 2 and 4 PEs by load/store and with
 * GSHMEM_DISABLE_P2P=1 (every peer through the proxy: -net twins).
 * Exit status: 0 pass, 1 fail (one line per failed check).
 */
#include "moe_run.h"

#include <stdio.h>
#include <stdlib.h>

static int me, fails;

#define FAIL(...)                                                                              \
    do {                                                                                       \
        if (fails++ < 20) {                                                                    \
            printf("moe_inflight: PE %d: ", me);                                               \
            printf(__VA_ARGS__);                                                               \
            putchar('\n');                                                                     \
            fflush(stdout);                                                                    \
        }                                                                                      \
    } while (0)

/* One micro-batch: its inputs, what dispatch handed back, the expert's
 * output and combine's. */
typedef struct batch {
    moe_bf16_t *x, *y, *out, *ref;
    int32_t *idx, *count;
    float *w, *scales;
    unsigned char *vals;
    gshmem_moe_handle_t h;
} batch_t;

static int batch_alloc(batch_t *b, const moe_shape_t *s, int L, int R)
{
    const size_t N = (size_t)s->tokens, H = (size_t)s->hidden, K = (size_t)s->topk;

    b->x = malloc(N * H * 2), b->out = malloc(N * H * 2), b->ref = malloc(N * H * 2);
    b->idx = malloc(N * K * 4), b->w = malloc(N * K * 4), b->count = malloc((size_t)L * 4);
    b->vals = malloc((size_t)L * R * H * 2);
    b->scales = malloc((size_t)L * R * (H / MOE_SCALE_BLOCK) * 4);
    b->y = malloc((size_t)L * R * H * 2);
    return b->x && b->out && b->ref && b->idx && b->w && b->count && b->vals && b->scales &&
           b->y;
}

static void batch_free(batch_t *b)
{
    free(b->x), free(b->out), free(b->ref), free(b->idx), free(b->w), free(b->count);
    free(b->vals), free(b->scales), free(b->y);
}

static void run_pairs(moe_dtype_t dt)
{
    const int npes = shmem_n_pes();
    moe_shape_t s = {0};
    gshmem_moe_config_t cfg = {0};
    gshmem_moe_t *buf = NULL;
    batch_t b[2] = {{0}};
    const char *fmt = dt == MOE_FP8 ? "fp8" : "bf16";
    int L, R, pair, i;

    s.tokens = 24, s.hidden = 256, s.topk = 4, s.experts = 4 * npes, s.npes = npes;
    s.dtype = dt;
    L = s.experts / npes, R = npes * s.tokens;
    cfg.hidden = s.hidden, cfg.num_experts = s.experts, cfg.topk = s.topk;
    cfg.max_tokens_per_pe = s.tokens;
    cfg.format = dt == MOE_FP8 ? GSHMEM_MOE_FP8 : GSHMEM_MOE_BF16;
    cfg.mode = GSHMEM_MOE_LOW_LATENCY;
    if (!batch_alloc(&b[0], &s, L, R) || !batch_alloc(&b[1], &s, L, R)) {
        FAIL("%s: out of memory", fmt);
        goto out;
    }
    if (gshmem_moe_create(&cfg, &buf) != 0) {
        FAIL("%s: gshmem_moe_create: %s", fmt, gshmem_moe_error());
        goto out;
    }
    for (pair = 0; pair < 3; pair++) {
        gshmem_moe_handle_t extra;

        for (i = 0; i < 2; i++) {
            /* Different seeds, and A random while B is skewed: B's rows
             * and counts differ from A's everywhere. */
            uint64_t seed = 77u + 10u * (unsigned)pair + (unsigned)i;
            moe_route_kind_t route = i == 0 ? MOE_ROUTE_RANDOM : MOE_ROUTE_SKEWED;

            moe_make_tokens(&s, me, seed, b[i].x);
            moe_route_make(&s, route, me, seed, b[i].idx, b[i].w);
            moe_reference(&s, b[i].x, b[i].idx, b[i].w, b[i].ref);
        }
        for (i = 0; i < 2; i++)
            if (gshmem_moe_dispatch(buf, b[i].x, b[i].idx, s.tokens, b[i].vals, b[i].scales,
                                    b[i].count, &b[i].h) != 0)
                FAIL("%s, pair %d: dispatch %c: %s", fmt, pair, 'A' + i, gshmem_moe_error());
        if (gshmem_moe_dispatch(buf, b[0].x, b[0].idx, s.tokens, b[0].vals, b[0].scales,
                                b[0].count, &extra) != GSHMEM_MOE_ERR_INVALID)
            FAIL("%s, pair %d: a third dispatch in flight was not refused", fmt, pair);
        for (i = 0; i < 2; i++)
            moe_toy_experts(&s, L, R, b[i].count, b[i].vals, b[i].scales, b[i].y);
        if (gshmem_moe_combine(buf, b[1].y, b[1].w, &b[1].h, b[1].out) !=
            GSHMEM_MOE_ERR_INVALID)
            FAIL("%s, pair %d: combining B before A was not refused", fmt, pair);
        for (i = 0; i < 2; i++) {
            long d;

            if (gshmem_moe_combine(buf, b[i].y, b[i].w, &b[i].h, b[i].out) != 0) {
                FAIL("%s, pair %d: combine %c: %s", fmt, pair, 'A' + i, gshmem_moe_error());
                continue;
            }
            d = moe_first_diff(b[i].out, b[i].ref, (long)s.tokens * s.hidden);
            if (d >= 0)
                FAIL("%s, pair %d: combine %c, token %ld value %ld: got 0x%04x, the "
                     "reference 0x%04x",
                     fmt, pair, 'A' + i, d / s.hidden, d % s.hidden, b[i].out[d], b[i].ref[d]);
        }
    }
out:
    gshmem_moe_destroy(buf);
    batch_free(&b[0]);
    batch_free(&b[1]);
}

int main(void)
{
    shmem_init();
    me = shmem_my_pe();
    run_pairs(MOE_FP8);
    run_pairs(MOE_BF16);
    if (me == 0)
        printf("moe_inflight: %d PEs%s: two dispatches in flight, 3 pairs x fp8/bf16: %s\n",
               shmem_n_pes(), getenv("GSHMEM_DISABLE_P2P") ? " (GSHMEM_DISABLE_P2P)" : "",
               fails ? "FAILED" : "all verified");
    shmem_finalize();
    return fails ? 1 : 0;
}
