/*
 * tests/moe/moe_handle_checks.c - combine refuses a handle that is not its own
 * dispatch's, before it reads anything through it: one made by another
 * buffer, and one whose token count was changed (negative, past the
 * buffer, one off).  It used to copy num_tokens rows of weights into a
 * staging array of max_tokens_per_pe rows: a large count wrote past it, a
 * negative one left the output untouched and returned 0.  After the
 * refusals the right handle still combines, and every output row is
 * checked (the expert is the identity and each token has one expert with
 * weight 1, so out == x).
 */
#include "../pe/pe_test.h"

#include <gshmem_moe.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define H 128
#define N 4 /* tokens per PE */

int main(void)
{
    gshmem_moe_config_t cfg = {0};
    gshmem_moe_t *a = NULL, *b = NULL;
    gshmem_moe_handle_t h, bad;
    int L, R, E;
    uint16_t *x, *recv, *out;
    int32_t *idx, *count;
    float *w;

    PT_START();
    E = 2 * pt_npes, L = E / pt_npes, R = pt_npes * N;
    cfg.hidden = H, cfg.num_experts = E, cfg.topk = 1, cfg.max_tokens_per_pe = N;
    cfg.format = GSHMEM_MOE_BF16, cfg.mode = GSHMEM_MOE_LOW_LATENCY;
    PT_CHECK_EQ("gshmem_moe_create", 0, gshmem_moe_create(&cfg, &a));
    PT_CHECK_EQ("gshmem_moe_create", 0, gshmem_moe_create(&cfg, &b));
    x = malloc((size_t)N * H * 2), out = malloc((size_t)N * H * 2);
    recv = malloc((size_t)L * R * H * 2), idx = malloc(N * 4), w = malloc(N * 4);
    count = malloc((size_t)L * 4);
    if (!a || !b || !x || !out || !recv || !idx || !w || !count) {
        fprintf(stderr, "moe_handle_checks: PE %d: setup failed\n", pt_me);
        shmem_global_exit(1);
    }
    for (int t = 0; t < N; t++) {
        idx[t] = (pt_me * N + t) % E, w[t] = 1.0f;
        for (int k = 0; k < H; k++)
            x[t * H + k] = (uint16_t)(0x3f80 +
                                      ((pt_me * 7 + t * 3 + k) & 0x3f)); /* 1.0..~1.5 */
    }
    PT_CHECK_EQ("gshmem_moe_dispatch", 0,
                gshmem_moe_dispatch(a, x, idx, N, recv, NULL, count, &h));
    PT_CHECK_EQ("gshmem_moe_combine (another buffer's handle)", GSHMEM_MOE_ERR_INVALID,
                gshmem_moe_combine(b, recv, w, &h, out));
    PT_CHECK("gshmem_moe_error",
             strstr(gshmem_moe_error(), "made by another buffer's dispatch") != NULL,
             "the line names the other buffer");
    bad = h, bad.num_tokens = -1;
    PT_CHECK_EQ("gshmem_moe_combine (num_tokens -1)", GSHMEM_MOE_ERR_INVALID,
                gshmem_moe_combine(a, recv, w, &bad, out));
    bad = h, bad.num_tokens = 1 << 28;
    PT_CHECK_EQ("gshmem_moe_combine (num_tokens 2^28)", GSHMEM_MOE_ERR_INVALID,
                gshmem_moe_combine(a, recv, w, &bad, out));
    bad = h, bad.num_tokens = N - 1;
    PT_CHECK_EQ("gshmem_moe_combine (num_tokens one short)", GSHMEM_MOE_ERR_INVALID,
                gshmem_moe_combine(a, recv, w, &bad, out));
    PT_CHECK("gshmem_moe_error", strstr(gshmem_moe_error(), "a changed handle") != NULL,
             "the line names the count");
    bad = h, bad.buffer = 0;
    PT_CHECK_EQ("gshmem_moe_expert_rows (tag 0)", GSHMEM_MOE_ERR_INVALID,
                gshmem_moe_expert_rows(a, &bad, 0, &(const gshmem_moe_row_t *){NULL},
                                       &(int){0}));
    /* The handle itself still works: every PE combines (collective). */
    memset(out, 0, (size_t)N * H * 2);
    PT_CHECK_EQ("gshmem_moe_combine", 0, gshmem_moe_combine(a, recv, w, &h, out));
    for (int t = 0; t < N; t++)
        for (int k = 0; k < H; k++)
            PT_CHECK_EQ_F("gshmem_moe_combine", x[t * H + k], out[t * H + k],
                          "out[%d][%d] (the identity expert)", t, k);
    gshmem_moe_destroy(b);
    gshmem_moe_destroy(a);
    free(x), free(out), free(recv), free(idx), free(w), free(count);
    return pt_finish();
}
