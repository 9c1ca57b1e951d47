/*
 * tests/moe/moe_ident.h - the round the MoE handle tests end with: a
 * low-latency bf16 config of 2 experts per PE and top-1 routing, each
 * token to one expert with weight 1; the expert is the identity (recv_x is
 * passed back as its output), so a good combine gives out == x, checked
 * row by row.  The tests make their own buffers from m->cfg and break the
 * calls in between.
 */
#ifndef MOE_IDENT_H
#define MOE_IDENT_H

#include "../pe/pe_test.h"

#include <gshmem_moe.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MOE_IDENT_H_DIM 128
#define MOE_IDENT_N 4 /* tokens per PE */

typedef struct moe_ident {
    gshmem_moe_config_t cfg;
    int E; /* experts */
    uint16_t *x, *recv, *out;
    int32_t *idx, *count;
    float *w;
} moe_ident_t;

/* The config and the arrays, filled; ends the job when out of memory. */
static void moe_ident_init(moe_ident_t *m, const char *prog)
{
    const int H = MOE_IDENT_H_DIM, N = MOE_IDENT_N;
    int L, R;

    memset(m, 0, sizeof *m);
    m->E = 2 * pt_npes, L = m->E / pt_npes, R = pt_npes * N;
    m->cfg.hidden = H, m->cfg.num_experts = m->E, m->cfg.topk = 1, m->cfg.max_tokens_per_pe = N;
    m->cfg.format = GSHMEM_MOE_BF16, m->cfg.mode = GSHMEM_MOE_LOW_LATENCY;
    m->x = malloc((size_t)N * H * 2), m->out = malloc((size_t)N * H * 2);
    m->recv = malloc((size_t)L * R * H * 2), m->idx = malloc(N * 4), m->w = malloc(N * 4);
    m->count = malloc((size_t)L * 4);
    if (!m->x || !m->out || !m->recv || !m->idx || !m->w || !m->count) {
        fprintf(stderr, "%s: PE %d: out of memory\n", prog, pt_me);
        shmem_global_exit(1);
    }
    for (int t = 0; t < N; t++) {
        m->idx[t] = (pt_me * N + t) % m->E, m->w[t] = 1.0f;
        for (int k = 0; k < H; k++)
            m->x[t * H + k] = (uint16_t)(0x3f80 +
                                         ((pt_me * 7 + t * 3 + k) & 0x3f)); /* 1..~1.5 */
    }
}

/* Dispatch b with the good routing (collective). */
static int moe_ident_dispatch(moe_ident_t *m, gshmem_moe_t *b, gshmem_moe_handle_t *h)
{
    return gshmem_moe_dispatch(b, m->x, m->idx, MOE_IDENT_N, m->recv, NULL, m->count, h);
}

/* Combine h's dispatch (collective) and check out == x, row by row. */
static void moe_ident_combine_check(moe_ident_t *m, gshmem_moe_t *b,
                                    const gshmem_moe_handle_t *h)
{
    const int H = MOE_IDENT_H_DIM;

    memset(m->out, 0, (size_t)MOE_IDENT_N * H * 2);
    PT_CHECK_EQ("gshmem_moe_combine", 0, gshmem_moe_combine(b, m->recv, m->w, h, m->out));
    for (int t = 0; t < MOE_IDENT_N; t++)
        for (int k = 0; k < H; k++)
            PT_CHECK_EQ_F("gshmem_moe_combine", m->x[t * H + k], m->out[t * H + k],
                          "out[%d][%d] (the identity expert)", t, k);
}

static void moe_ident_fini(moe_ident_t *m)
{
    free(m->x), free(m->out), free(m->recv), free(m->idx), free(m->w), free(m->count);
}

#endif
