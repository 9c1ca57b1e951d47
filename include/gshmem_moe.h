/*
 * gshmem_moe.h - MoE expert-parallel dispatch and combine (libgshmem_moe).
 *
 * The DeepEP-style all-to-all of libs/moe as a library: a buffer is made
 * for one shape (hidden size, experts, top-k, tokens per PE at most, payload
 * format, mode); dispatch sends each token to the PEs of its top-k experts
 * and hands back, per local expert, the tokens it received packed one after
 * the other; the caller runs its experts on them; combine sends the expert
 * outputs back and sums them on each token's PE, weighted by the top-k
 * weights.  Every call is collective over the world, like shmem_malloc.
 *
 * Layouts (L = local experts = num_experts / npes, P = npes, N = max tokens
 * per PE, H = hidden):
 *   x        [ntokens][H] bf16 (uint16 bit patterns), ntokens <= N
 *   topk_idx [ntokens][topk] int32 (int64 for gshmem_moe_dispatch_i64),
 *            global expert ids, -1 = none; the experts of one token must
 *            be distinct
 *   topk_w   [ntokens][topk] float
 *   recv_x   [L][P * N][H]: bf16 (2 bytes) or fp8 e4m3 (1 byte) values
 *   recv_scales [L][P * N][H / 128] float (fp8 only: value = q * scale)
 *   recv_count  [L] int32: the first recv_count[le] rows of recv_x[le] are
 *            valid, ordered by source PE, then by source token index
 *   expert_y [L][P * N][H] bf16: the expert outputs, in recv_x's order
 *   out      [ntokens][H] bf16
 * Global expert e lives on PE e / L as local expert e % L.
 *
 * Modes: GSHMEM_MOE_LOW_LATENCY (one message per (token, expert), double
 * buffered: up to two dispatches may wait for their combine) and
 * GSHMEM_MOE_NORMAL (each token once per destination PE, through credit
 * rings: one dispatch at a time).  Both give the same results bit for bit.
 * Combines must come in the order of their dispatches.
 *
 * Zero copy (DeepEP's zero-copy combine): dispatch with recv_x (and
 * recv_scales) NULL copies nothing out; gshmem_moe_expert_rows then gives,
 * per local expert, its rows in recv_x's order as pointers into the
 * library's buffers: the payload and scales to read and the row to write
 * the expert's H bf16 outputs to; combine with expert_y NULL takes the
 * outputs from there.  The pointers hold until that dispatch's combine.
 *
 * Memory: the pointers above are host memory.  The library stages them
 * into its own symmetric buffers (gshmem_malloc, through gshmemx_memcpy_*);
 * on host lanes its kernels read x and write out in place instead.  The
 * zero-copy rows are where the kernels run: host memory on host lanes,
 * device memory in the CUDA build.
 * libgshmem_moe.so is built for host lanes: its kernels run on host
 * threads.  A CUDA build of gshmem also installs libgshmem_moe_cuda.so, the
 * same API with the kernels on the GPU, device-linked inside the library
 * (a program or Python links or loads it like any shared library; compiled,
 * not run).  Errors: 0, or
 * GSHMEM_MOE_ERR_INVALID (a bad argument on this PE or another: every PE
 * returns it, and none sent anything) or
 * GSHMEM_MOE_ERR_FAILED (no heap room, a
 * launch failed); gshmem_moe_error() gives the line, also printed on stderr.
 */
#ifndef GSHMEM_MOE_H
#define GSHMEM_MOE_H

#include <stddef.h>
#include <stdint.h>

#if defined(__cplusplus)
extern "C" {
#endif

#define GSHMEM_MOE_API __attribute__((visibility("default")))

#define GSHMEM_MOE_ERR_FAILED (-1)
#define GSHMEM_MOE_ERR_INVALID (-2)

typedef enum gshmem_moe_mode {
    GSHMEM_MOE_LOW_LATENCY = 0,
    GSHMEM_MOE_NORMAL = 1
} gshmem_moe_mode_t;

typedef enum gshmem_moe_format {
    GSHMEM_MOE_FP8 = 0,
    GSHMEM_MOE_BF16 = 1
} gshmem_moe_format_t;

typedef struct gshmem_moe_config {
    int hidden;            /* multiple of 128 */
    int num_experts;       /* multiple of the PE count */
    int topk;              /* 1 .. num_experts */
    int max_tokens_per_pe; /* >= 1 */
    gshmem_moe_format_t format;
    gshmem_moe_mode_t mode;
} gshmem_moe_config_t;

/* What ties a combine to its dispatch: which call it was, how many tokens
 * this PE sent, and which buffer made it.  Plain data, filled by dispatch;
 * combine and the zero-copy calls refuse a handle that another buffer made
 * or whose fields do not match what this buffer's dispatch recorded. */
typedef struct gshmem_moe_handle {
    uint32_t epoch; /* the dispatch's number, from 1 (0: no dispatch) */
    int num_tokens;
    uint32_t buffer; /* the buffer's tag (never 0) */
} gshmem_moe_handle_t;

typedef struct gshmem_moe gshmem_moe_t;

/* One received row, zero copy (gshmem_moe_expert_rows). */
typedef struct gshmem_moe_row {
    const void *x;       /* H payload values: fp8 e4m3 (1 byte) or bf16 (2) */
    const float *scales; /* fp8: its H / 128 scales; NULL for bf16 */
    uint16_t *y;         /* where the expert writes its H bf16 outputs */
} gshmem_moe_row_t;

/* Collective.  0 and *out, or a negative status (bad config, no heap room). */
GSHMEM_MOE_API int gshmem_moe_create(const gshmem_moe_config_t *cfg,
                                     gshmem_moe_t **out);
/* Collective; NULL is a no-op. */
GSHMEM_MOE_API void gshmem_moe_destroy(gshmem_moe_t *b);

GSHMEM_MOE_API int gshmem_moe_local_experts(const gshmem_moe_t *b);
/* Rows of recv_x per local expert (P * N). */
GSHMEM_MOE_API int gshmem_moe_recv_rows(const gshmem_moe_t *b);

/* Collective.  recv_scales may be NULL for bf16 (must not be for fp8);
 * recv_x NULL: no copy out (zero copy, gshmem_moe_expert_rows). */
GSHMEM_MOE_API int gshmem_moe_dispatch(gshmem_moe_t *b, const uint16_t *x,
                                       const int32_t *topk_idx, int ntokens,
                                       void *recv_x, float *recv_scales,
                                       int32_t *recv_count,
                                       gshmem_moe_handle_t *handle);

/* gshmem_moe_dispatch with int64 topk_idx (DeepEP's and torch's index
 * type), checked at its full width: no caller-side narrowing copy. */
GSHMEM_MOE_API int gshmem_moe_dispatch_i64(gshmem_moe_t *b, const uint16_t *x,
                                           const int64_t *topk_idx, int ntokens,
                                           void *recv_x, float *recv_scales,
                                           int32_t *recv_count,
                                           gshmem_moe_handle_t *handle);

/* Collective.  handle: what dispatch filled, the oldest not yet combined;
 * topk_w [handle->num_tokens][topk]; expert_y NULL: the outputs were
 * written through gshmem_moe_expert_rows' y pointers. */
GSHMEM_MOE_API int gshmem_moe_combine(gshmem_moe_t *b, const uint16_t *expert_y,
                                      const float *topk_w,
                                      const gshmem_moe_handle_t *handle,
                                      uint16_t *out);

/* After a dispatch, until its combine: local expert le's *count rows, in
 * recv_x's order (zero copy; see above). */
GSHMEM_MOE_API int gshmem_moe_expert_rows(const gshmem_moe_t *b,
                                          const gshmem_moe_handle_t *handle,
                                          int le, const gshmem_moe_row_t **rows,
                                          int *count);
/* After a dispatch: for row r of local expert le, the source PE and token. */
GSHMEM_MOE_API int gshmem_moe_recv_source(const gshmem_moe_t *b,
                                          const gshmem_moe_handle_t *handle,
                                          int le, int r, int *src_pe,
                                          int *src_token);

/* Collective, for bindings that check a call's arguments themselves (the
 * Python package): this PE refuses its dispatch (combine 0) or combine
 * (combine 1), having said why, and takes part in that call's vote in its
 * place, so that every other PE's call returns GSHMEM_MOE_ERR_INVALID
 * naming this PE instead of waiting for its tokens.  Returns
 * GSHMEM_MOE_ERR_INVALID.  (dispatch and combine vote by themselves: every
 * PE says whether it refused its arguments before anything is sent.) */
GSHMEM_MOE_API int gshmem_moe_refuse(gshmem_moe_t *b, int combine);

/* The last error's line ("gshmem: PE n: gshmem_moe_dispatch: ..."), or "". */
GSHMEM_MOE_API const char *gshmem_moe_error(void);

#if defined(__cplusplus)
}
#endif

#endif /* GSHMEM_MOE_H */
