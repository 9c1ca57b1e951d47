/*
 * moe.h - MoE expert-parallel dispatch and combine on the gshmem device API.
 *
 * Every PE holds `tokens` tokens of `hidden` values and E / npes experts
 * (global expert e lives on PE e / (E/npes) as local expert e % (E/npes)).
 * Dispatch sends each token to the PEs of its top-k experts; the experts
 * run there; combine brings the outputs back and sums them, weighted by the
 * top-k weights, on the token's own PE.
 *
 * Two modes, same API, same results (bit for bit):
 *
 *   MOE_LL (low latency, DeepEP "LL" style): one message per (token,
 *     expert) = 16-byte header + payload, put by one warp straight into
 *     the destination's slot recv[local_expert][src_pe][slot]; the per-
 *     expert counts follow as one signal each, encoded so that zero tokens
 *     still signal.  Combine sends the expert rows back the same way to
 *     proxy peers; a load/store peer instead reads them where the expert
 *     wrote them (no copy: its reduction is the transfer), once the expert
 *     PE's signal says they are complete.  Symmetric buffers are double-
 *     buffered by call parity, so consecutive calls need no barrier.
 *   MOE_NORMAL (throughput): each token goes once to each destination PE
 *     (with the list of its local experts there), in chunks through a
 *     credit-controlled ring per (PE pair, channel) with head/tail counters
 *     advanced by atomic adds; the rows come back through rings from proxy
 *     peers, and are read in place on load/store peers.  The ring space
 *     does not grow with the batch.  One batch in flight at a time.
 *
 * Peers reachable by load/store (gshmem_ptr != NULL) are written with
 * plain stores; the others through the proxy channels, one per local
 * expert (LL) or per token range (normal), with put-with-signal.
 *
 * Use (every call is collective over the world, like gshmem_malloc):
 *   moe_t m;
 *   moe_init(&m, &shape, MOE_LL);
 *   gshmemx_memcpy_to_device(m.x, ...); ... m.idx, m.w      (inputs)
 *   moe_dispatch(&m);        received tokens: moe_recv_* below
 *   moe_expert_toy(&m);      (or your experts: read moe_recv_*, write moe_expert_row)
 *   moe_combine(&m);         m.out: [tokens][hidden] bf16
 *   moe_fini(&m);
 * Low-latency mode: each dispatch must be followed by its combine before
 * the dispatch after next (two batches may be in flight, not three);
 * normal mode: before the next dispatch.
 */
#ifndef MOE_H
#define MOE_H

#include "moe_types.h"

/* The most threads a block of the dispatch, expert and combine kernels is
 * launched with: their launch bound (__launch_bounds__), so the compiler
 * keeps each thread within 65536 / 512 = 128 registers and the default
 * 512-thread launch fits an SM.  MOE_THREADS above it is refused. */
#define MOE_MAX_THREADS 512
#define MOE_MAX_TOPK 32 /* experts per token: moe_init and gshmem_moe_create check it */

#if defined(__cplusplus)
extern "C" {
#endif

/* 0, or -1 with a line on stderr (bad shape, no heap room).  Collective. */
int moe_init(moe_t *m, const moe_shape_t *s, moe_mode_t mode);
void moe_fini(moe_t *m);

/* Collective calls; 0 or -1 (the launch failed). */
int moe_dispatch(moe_t *m);
int moe_expert_toy(moe_t *m);
int moe_combine(moe_t *m);

/* After moe_dispatch, on the host: how many tokens local expert le got
 * from PE src, and token i of them: its message (header + payload) and
 * the row its expert output goes to (bf16 [hidden]).  Host-lane pointers;
 * on a GPU device pointers (recv counts are copied back). */
int moe_recv_count(moe_t *m, int le, int src);
const unsigned char *moe_recv_msg(moe_t *m, int le, int src, int i);
moe_bf16_t *moe_expert_row(moe_t *m, int le, int src, int i);
/* Normal mode: the message of token t from src whose record (header,
 * payload, selections) is rec: rec, or where a pull left it (src's send). */
const unsigned char *moe_nm_msg(const moe_t *m, int src, int t, const unsigned char *rec);

/* Whether this PE reaches pe by load/store (gshmem_ptr from a kernel, so it
 * answers for the GPU too).  Collective (it allocates a probe word). */
int moe_pe_is_p2p(int pe);

#if defined(__cplusplus)
}
#endif

#endif /* MOE_H */
