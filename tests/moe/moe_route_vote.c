/*
 * tests/moe/moe_route_vote.c - one PE's dispatch refuses its routing (an
 * expert past num_experts) while its peers dispatch good ones, and one PE's
 * combine refuses a changed handle while its peers combine (issue 29, the
 * first row).  Before, the refusing PE printed its line and returned while
 * its peers waited for its tokens until GSHMEM_WAIT_TIMEOUT (600 s); a
 * program that went on from the error code hung the job.  Now every PE
 * votes before anything is sent: every PE's call returns
 * GSHMEM_MOE_ERR_INVALID, the refusing PE with its own reason and the
 * others naming it, and the buffer is as it was: the same calls with good
 * arguments then dispatch and combine every token (the expert is the
 * identity, one expert of weight 1 per token, so out == x).
 */
#include "../pe/pe_test.h"

#include <gshmem_moe.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define H 128
#define N 4 /* tokens per PE */

static int has(const char *what)
{
    return strstr(gshmem_moe_error(), what) != NULL;
}

/* PT_CHECK of the last line, which it prints when the check fails. */
#define CHECK_LINE(cond, text)                                                                 \
    do {                                                                                       \
        int ok_ = (cond);                                                                      \
        if (!ok_)                                                                              \
            fprintf(stderr, "moe_route_vote: PE %d: the line: %s\n", pt_me,                    \
                    gshmem_moe_error());                                                       \
        PT_CHECK("gshmem_moe_error", ok_, text);                                               \
    } while (0)

int main(void)
{
    gshmem_moe_config_t cfg = {0};
    gshmem_moe_t *b = NULL;
    gshmem_moe_handle_t h, bad;
    int L, R, E, last, rc;
    uint16_t *x, *recv, *out;
    int32_t *idx, *count;
    float *w;
    char want[128];

    PT_START();
    E = 2 * pt_npes, L = E / pt_npes, R = pt_npes * N;
    last = pt_me == pt_npes - 1;
    cfg.hidden = H, cfg.num_experts = E, cfg.topk = 1, cfg.max_tokens_per_pe = N;
    cfg.format = GSHMEM_MOE_BF16, cfg.mode = GSHMEM_MOE_LOW_LATENCY;
    PT_CHECK_EQ("gshmem_moe_create", 0, gshmem_moe_create(&cfg, &b));
    x = malloc((size_t)N * H * 2), out = malloc((size_t)N * H * 2);
    recv = malloc((size_t)L * R * H * 2), idx = malloc(N * 4), w = malloc(N * 4);
    count = malloc((size_t)L * 4);
    if (!b || !x || !out || !recv || !idx || !w || !count) {
        fprintf(stderr, "moe_route_vote: PE %d: setup failed\n", pt_me);
        shmem_global_exit(1);
    }
    for (int t = 0; t < N; t++) {
        idx[t] = (pt_me * N + t) % E, w[t] = 1.0f;
        for (int k = 0; k < H; k++)
            x[t * H + k] = (uint16_t)(0x3f80 + ((pt_me * 5 + t * 3 + k) & 0x3f));
    }
    snprintf(want, sizeof want, "PE %d refused its arguments", pt_npes - 1);

    /* The last PE's routing names expert E: refused there, voided on all. */
    if (last)
        idx[1] = E;
    rc = gshmem_moe_dispatch(b, x, idx, N, recv, NULL, count, &h);
    PT_CHECK_EQ("gshmem_moe_dispatch (one PE's routing bad)", GSHMEM_MOE_ERR_INVALID, rc);
    if (last)
        CHECK_LINE(has("topk_idx[1][0] = ") && has(" is not -1 or an expert"),
                   "the refusing PE says why");
    else
        CHECK_LINE(has(want) && has("so no PE dispatched"), "the others name it");
    if (last)
        idx[1] = (pt_me * N + 1) % E;

    /* The buffer is as it was: a good dispatch, then a combine that the
     * last PE refuses (its handle's count changed). */
    PT_CHECK_EQ("gshmem_moe_dispatch", 0,
                gshmem_moe_dispatch(b, x, idx, N, recv, NULL, count, &h));
    bad = h;
    if (last)
        bad.num_tokens = N - 1;
    rc = gshmem_moe_combine(b, recv, w, &bad, out);
    PT_CHECK_EQ("gshmem_moe_combine (one PE's handle changed)", GSHMEM_MOE_ERR_INVALID, rc);
    if (!last)
        CHECK_LINE(has(want) && has("so no PE combined"), "the others name it");

    /* The dispatch is still live on every PE: the right handle combines. */
    memset(out, 0, (size_t)N * H * 2);
    PT_CHECK_EQ("gshmem_moe_combine", 0, gshmem_moe_combine(b, recv, w, &h, out));
    for (int t = 0; t < N; t++)
        for (int k = 0; k < H; k++)
            PT_CHECK_EQ_F("gshmem_moe_combine", x[t * H + k], out[t * H + k],
                          "out[%d][%d] (the identity expert)", t, k);
    gshmem_moe_destroy(b);
    free(x), free(out), free(recv), free(idx), free(w), free(count);
    return pt_finish();
}
