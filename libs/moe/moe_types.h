/*
 * moe_types.h - what the kernels (moe_dev.h, moe_ll.c, moe_normal.c) and
 * their host side (moe.h, moe.c) share: the buffers, the kernel arguments
 * and the state of one MoE instance.  Apart from moe.h so that the device
 * helpers need no host entry point (scripts/layers.py: no include circle
 * longer than three modules).
 */
#ifndef MOE_TYPES_H
#define MOE_TYPES_H

#include <gshmem.h> /* the host API and the device API (gshmem_device.h) */

#include "moe_data.h"

#if defined(__cplusplus)
extern "C" {
#endif

/* Everything the kernels touch: device memory (symmetric where a peer
 * writes it).  Sizes: N tokens, K top-k, E experts, L = E / npes local
 * experts, P PEs, C channels, S ring slots. */
typedef struct moe_bufs {
    /* inputs and output (this PE) */
    moe_bf16_t *x;       /* [N][H] */
    int32_t *idx;        /* [N][K], -1: no expert */
    float *w;            /* [N][K] */
    moe_bf16_t *out;     /* [N][H] */
    unsigned char *send; /* LL [2][N], normal [N] messages: token t quantized, header {t} */

    /* LL */
    unsigned char *recv;    /* sym [2][L][P][N] messages */
    int32_t *recv_tok;      /* sym [2][L][P][N] pull: message i's token in its source's send */
    uint64_t *recv_sig;     /* sym [2][L][P] count: epoch << 32 | proxy << 31 | n */
    uint64_t *recv_arrive;  /* sym [2][L][P] messages landed (proxy path), cumulative */
    moe_bf16_t *comb_recv;  /* sym [2][E][N][H] expert e's output for token t */
    uint64_t *comb_arrive;  /* sym [2][P] combine rows landed from PE q, cumulative */
    moe_bf16_t *expert_out; /* LL: sym [2][L][P][N][H]; normal: [P][N][J][H] */
    int32_t *slot_of;       /* LL: [2][N][K] the slot dispatch took for (t, k) */
    int32_t *recv_n;        /* [2][L][P] messages received this call */
    uint64_t *recv_cum;     /* [2][L][P] expected recv_arrive */
    uint64_t *comb_cum;     /* [2][P] expected comb_arrive */
    uint32_t *slot_ctr;     /* [E] slots taken this call */
    uint32_t *sent_pe;      /* [2][P] messages sent to PE q this call */

    /* normal */
    unsigned char *d_ring;  /* sym [P src][C][S] dispatch records */
    uint64_t *d_tail;       /* sym [P src][C] records written (by src) */
    uint64_t *d_fin;        /* sym [P src][C] epoch << 40 | records this call */
    uint64_t *d_head;       /* sym [P dst][C] records consumed by dst (credit) */
    uint64_t *d_ack;        /* sym [P dst][C] the last call dst received whole from me */
    unsigned char *d_stage; /* sym [P dst][C][S] proxy source copies */
    unsigned char *c_ring;  /* sym [P src][C][S] combine records */
    uint64_t *c_tail;       /* sym [P src][C] */
    uint64_t *c_head;       /* sym [P dst][C] */
    uint64_t *c_ready;      /* sym [P] epoch: expert PE q's rows are readable in place */
    unsigned char *c_stage; /* sym [P dst][C][S] */
    uint64_t *cnt;          /* [4][P][C] cumulative: d_sent, d_cons, c_sent, c_cons */
    unsigned char *rec;     /* [P][N] received dispatch records */
    int32_t *rec_list;      /* [P][C][N/C] tokens received per stream, in order */
    int32_t *rec_n;         /* [P][C] entries of rec_list */
    moe_bf16_t *comb_rows;  /* [N][K][H] combine rows received, by (token, k) */
    struct moe_stream *st;  /* [2 send/recv][P][C] per-stream progress of this call */

    /* grid coordination */
    uint32_t *done;      /* [4] blocks finished, grid barrier */
    uint64_t *warp_word; /* [warps] per-warp broadcast */
} moe_bufs_t;

/* Normal mode: one direction of one (PE, channel) stream in this call. */
typedef struct moe_stream {
    int32_t cursor; /* send: next token (dispatch) or rec_list entry (combine) */
    int32_t sel;    /* combine send: next selection of that entry */
    int32_t done;
    int32_t expect;  /* combine receive: records due */
    uint64_t n_call; /* records moved this call */
} moe_stream_t;

/* What a kernel gets (by value). */
typedef struct moe_args {
    moe_bufs_t b;
    moe_shape_t s;
    int my_pe, local_experts;
    int streams, ring_slots, chunk, sel_max; /* normal: channels C, S, records per chunk, J */
    int push;            /* combine: copy rows to load/store peers too (MOE_PUSH=1) */
    int pull;            /* dispatch: load/store peers read the payload in the
                          * source's send (host lanes, unless MOE_PUSH=1) */
    uint32_t epoch;      /* this call's number, from 1 */
    int live;            /* tokens 0 .. live - 1 are this call's (<= N): the only ones packed
                          * and written to out, so x and out may be the caller's arrays */
    uint64_t msg;        /* LL message bytes */
    uint64_t drec, crec; /* normal: dispatch and combine record bytes */
} moe_args_t;

typedef struct moe {
    moe_args_t a;
    moe_mode_t mode;
    moe_bf16_t *x, *out; /* = a.b.x, a.b.out */
    int32_t *idx;
    float *w;
    unsigned blocks, threads; /* launch shape (moe_init picks it per backend) */
    uint32_t epoch_dispatch, epoch_combine;
    void *allocs[48];
    int n_allocs;
} moe_t;

#if defined(__cplusplus)
}
#endif

#endif /* MOE_TYPES_H */
