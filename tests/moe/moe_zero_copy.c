/*
 * moe_zero_copy.c - the public library's zero-copy round (gshmem_moe.h):
 * dispatch with no recv_x, the toy expert on gshmem_moe_expert_rows' rows
 * in place, combine with no expert_y; against a staged round of the same
 * inputs and the sequential reference, bit for bit, in both modes, fp8 and
 * bf16.  Each PE sends fewer tokens than the buffer's maximum, with x and
 * out exactly that long plus a guard row after out: on host lanes the
 * kernels read x and write out in place, and must touch no row past
 * ntokens.  Also: the rows of a zero-copy dispatch hold what a staged
 * dispatch of the same inputs copies into recv_x (same order, same
 * bytes); expert_rows refuses a local expert out of range and a handle
 * already combined.  Run at 1, 2 and 4 PEs, by load/store and through the
 * proxy (-net twins).  Exit status: 0 pass, 1 fail (a line per failure).
 */
#include "moe_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int me, fails;

#define FAIL(...)                                                                              \
    do {                                                                                       \
        if (fails++ < 20) {                                                                    \
            printf("moe_zero_copy: PE %d: ", me);                                              \
            printf(__VA_ARGS__);                                                               \
            putchar('\n');                                                                     \
            fflush(stdout);                                                                    \
        }                                                                                      \
    } while (0)

#define GUARD 0x5a5a

static void check_out(const char *what, const moe_bf16_t *out, const moe_bf16_t *ref, int n,
                      int H)
{
    long d = moe_first_diff(out, ref, (long)n * H);

    if (d >= 0)
        FAIL("%s: token %ld value %ld: got 0x%04x, the reference 0x%04x", what, d / H, d % H,
             out[d], ref[d]);
    for (int i = 0; i < H; i++)
        if (out[(size_t)n * H + i] != GUARD) {
            FAIL("%s: the row after out[%d] was written (value %d: 0x%04x)", what, n, i,
                 out[(size_t)n * H + i]);
            break;
        }
}

static void run(moe_mode_t mode, moe_dtype_t dt)
{
    const int npes = shmem_n_pes(), N = 24, n = 17, H = 256, K = 4;
    const int L = 4, R = npes * N, G = H / MOE_SCALE_BLOCK;
    const size_t vb = dt == MOE_FP8 ? 1 : 2;
    moe_shape_t s = {0};
    gshmem_moe_config_t cfg = {0};
    gshmem_moe_t *buf = NULL;
    gshmem_moe_handle_t h;
    const gshmem_moe_row_t *rows;
    char what[64];
    moe_bf16_t *x = malloc((size_t)n * H * 2), *ref = malloc((size_t)n * H * 2);
    moe_bf16_t *out = malloc((size_t)(n + 1) * H * 2), *y = malloc((size_t)L * R * H * 2);
    int32_t *idx = malloc((size_t)n * K * 4), cnt[4], cnt0[4];
    float *w = malloc((size_t)n * K * 4), *rs = malloc((size_t)L * R * G * 4);
    unsigned char *rx = malloc((size_t)L * R * H * vb);
    int le, r, c;

    snprintf(what, sizeof what, "%s %s", mode == MOE_LL ? "ll" : "normal",
             dt == MOE_FP8 ? "fp8" : "bf16");
    if (!x || !ref || !out || !y || !idx || !w || !rs || !rx) {
        FAIL("%s: out of memory", what);
        goto out;
    }
    s.tokens = n, s.hidden = H, s.topk = K, s.experts = L * npes, s.npes = npes, s.dtype = dt;
    cfg.hidden = H, cfg.num_experts = L * npes, cfg.topk = K, cfg.max_tokens_per_pe = N;
    cfg.format = dt == MOE_FP8 ? GSHMEM_MOE_FP8 : GSHMEM_MOE_BF16;
    cfg.mode = mode == MOE_LL ? GSHMEM_MOE_LOW_LATENCY : GSHMEM_MOE_NORMAL;
    if (gshmem_moe_create(&cfg, &buf) != 0) {
        FAIL("%s: gshmem_moe_create: %s", what, gshmem_moe_error());
        goto out;
    }
    moe_make_tokens(&s, me, 5, x);
    moe_route_make(&s, MOE_ROUTE_RANDOM, me, 5, idx, w);
    moe_reference(&s, x, idx, w, ref);

    /* Staged: what recv_x holds. */
    for (int i = 0; i < (n + 1) * H; i++)
        out[i] = GUARD;
    if (gshmem_moe_dispatch(buf, x, idx, n, rx, rs, cnt0, &h) != 0) {
        FAIL("%s: staged dispatch: %s", what, gshmem_moe_error());
        goto out;
    }
    moe_toy_experts(&s, L, R, cnt0, rx, rs, y);
    if (gshmem_moe_combine(buf, y, w, &h, out) != 0)
        FAIL("%s: staged combine: %s", what, gshmem_moe_error());
    else
        check_out(what, out, ref, n, H);
    if (gshmem_moe_expert_rows(buf, &h, 0, &rows, &c) != GSHMEM_MOE_ERR_INVALID)
        FAIL("%s: expert_rows of a combined handle was not refused", what);

    /* Zero copy: the same inputs, the rows in place. */
    for (int i = 0; i < (n + 1) * H; i++)
        out[i] = GUARD;
    if (gshmem_moe_dispatch(buf, x, idx, n, NULL, NULL, cnt, &h) != 0) {
        FAIL("%s: zero-copy dispatch: %s", what, gshmem_moe_error());
        goto out;
    }
    if (gshmem_moe_expert_rows(buf, &h, L, &rows, &c) != GSHMEM_MOE_ERR_INVALID)
        FAIL("%s: expert_rows of local expert %d (of %d) was not refused", what, L, L);
    for (le = 0; le < L; le++) {
        if (gshmem_moe_expert_rows(buf, &h, le, &rows, &c) != 0) {
            FAIL("%s: expert_rows(%d): %s", what, le, gshmem_moe_error());
            continue;
        }
        if (c != cnt[le] || c != cnt0[le])
            FAIL("%s: local expert %d: %d rows, recv_count %d, staged %d", what, le, c, cnt[le],
                 cnt0[le]);
        for (r = 0; r < c && r < cnt0[le]; r++) {
            size_t row = (size_t)le * R + (size_t)r;

            if (memcmp(rows[r].x, rx + row * H * vb, (size_t)H * vb) ||
                (dt == MOE_FP8 && memcmp(rows[r].scales, rs + row * G, (size_t)G * 4)) ||
                (dt != MOE_FP8 && rows[r].scales != NULL)) {
                FAIL("%s: local expert %d row %d differs from the staged recv_x", what, le, r);
                break;
            }
            moe_toy_row(&s, me * L + le, rows[r].x, rows[r].scales, rows[r].y);
        }
    }
    if (gshmem_moe_combine(buf, NULL, w, &h, out) != 0)
        FAIL("%s: zero-copy combine: %s", what, gshmem_moe_error());
    else
        check_out(what, out, ref, n, H);
out:
    gshmem_moe_destroy(buf);
    free(x), free(ref), free(out), free(y), free(idx), free(w), free(rs), free(rx);
}

int main(void)
{
    shmem_init();
    me = shmem_my_pe();
    for (int m = MOE_LL; m <= MOE_NORMAL; m++) {
        run((moe_mode_t)m, MOE_FP8);
        run((moe_mode_t)m, MOE_BF16);
    }
    if (me == 0)
        printf("moe_zero_copy: %d PEs%s: both modes, fp8 and bf16: %s\n", shmem_n_pes(),
               getenv("GSHMEM_DISABLE_P2P") ? " (GSHMEM_DISABLE_P2P)" : "",
               fails ? "FAILED" : "all verified");
    shmem_finalize();
    return fails ? 1 : 0;
}
