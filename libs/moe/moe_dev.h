/*
 * moe_dev.h - small device helpers shared by the MoE kernels (moe_ll.c,
 * moe_normal.c): warps, local atomics, the system fence, a warp copy, the
 * grid's "last block" and barrier.  Written once for both backends: CUDA
 * intrinsics under nvcc, GCC atomics on host lanes.
 */
#ifndef MOE_DEV_H
#define MOE_DEV_H

#include "moe_types.h"

#if defined(__CUDACC__)
#define MOE_DEV static __device__ __forceinline__
#else
#define MOE_DEV static inline
#endif

#if !defined(__CUDACC__) && defined(__x86_64__)
#include <emmintrin.h> /* moe_warp_send's streaming stores (SSE2: every x86-64) */
#define MOE_STREAM_STORES 1
#endif

#define MOE_WARP 32u

/* ---- who am I ----------------------------------------------------------- */

typedef struct moe_warp {
    unsigned lane, size; /* lane in the warp, lanes of the warp (the last may be partial) */
    unsigned id, count;  /* warp in the grid, warps in the grid */
} moe_warp_t;

MOE_DEV moe_warp_t moe_warp_self(void)
{
    moe_warp_t w;
    unsigned tid = gshmemx_thread_id(), nt = gshmemx_block_threads();
    unsigned per_block = (nt + MOE_WARP - 1) / MOE_WARP, first = tid - tid % MOE_WARP;

    w.lane = tid % MOE_WARP;
    w.size = nt - first < MOE_WARP ? nt - first : MOE_WARP;
    w.id = gshmemx_block_id() * per_block + tid / MOE_WARP;
    w.count = gshmemx_grid_blocks() * per_block;
    return w;
}

/* ---- atomics on this PE's own memory, and the system fence --------------- */

#if defined(__CUDACC__)
MOE_DEV uint32_t moe_fetch_add32(uint32_t *p, uint32_t v)
{
    return atomicAdd(p, v);
}
MOE_DEV void moe_fence_sys(void)
{
    __threadfence_system();
}
MOE_DEV uint64_t moe_load_acquire(const uint64_t *p)
{
    uint64_t v;
    asm volatile("ld.acquire.sys.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}
MOE_DEV uint32_t moe_load32(const uint32_t *p)
{
    return *(const volatile uint32_t *)p;
}
/* The lanes of the caller's warp: a partial last warp must not name the
 * lanes it lacks. */
MOE_DEV void moe_warp_sync(void)
{
    unsigned tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    unsigned left = blockDim.x * blockDim.y * blockDim.z - (tid & ~31u);

    __syncwarp(left >= 32 ? 0xffffffffu : (1u << left) - 1u);
}
MOE_DEV void moe_pause(void)
{
    __nanosleep(64);
}
#else
#include <sched.h>
MOE_DEV uint32_t moe_fetch_add32(uint32_t *p, uint32_t v)
{
    return __atomic_fetch_add(p, v, __ATOMIC_ACQ_REL);
}
MOE_DEV void moe_fence_sys(void)
{
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
MOE_DEV uint64_t moe_load_acquire(const uint64_t *p)
{
    return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}
MOE_DEV uint32_t moe_load32(const uint32_t *p)
{
    return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}
/* A warp of one lane (the host-lane launch shape) needs no barrier. */
MOE_DEV void moe_warp_sync(void)
{
    if (gshmemx_block_threads() > 1)
        gsd_syncwarp(); /* kernel.h has no public gshmemx_syncwarp (yet) */
}
MOE_DEV void moe_pause(void)
{
    sched_yield();
}
#endif

/* Lane 0's v, for every lane of the warp (through the warp's word). */
MOE_DEV uint64_t moe_warp_bcast(const moe_warp_t *w, uint64_t *word, uint64_t v)
{
    if (w->size == 1)
        return v;
    if (w->lane == 0)
        *(volatile uint64_t *)word = v;
    moe_warp_sync();
    v = *(volatile uint64_t *)word;
    moe_warp_sync();
    return v;
}

/* The warp's lanes copy n bytes (16-byte aligned buffers, n % 16 == 0 for
 * the wide path).  One lane: memcpy. */
MOE_DEV void moe_warp_copy(const moe_warp_t *w, void *dst, const void *src, size_t n)
{
#if !defined(__CUDACC__)
    if (w->size == 1) {
        memcpy(dst, src, n);
        return;
    }
#endif
    if (((uintptr_t)dst | (uintptr_t)src | n) % 16 == 0) {
#if defined(__CUDACC__)
        typedef uint4 v16_t;
#else
        typedef struct {
            uint64_t a, b;
        } v16_t;
#endif
        v16_t *d = (v16_t *)dst;
        const v16_t *s = (const v16_t *)src;
        size_t i;

        for (i = w->lane; i < n / 16; i += w->size)
            d[i] = s[i];
    } else {
        size_t i;
        for (i = w->lane; i < n; i += w->size)
            ((unsigned char *)dst)[i] = ((const unsigned char *)src)[i];
    }
}

/* moe_warp_copy into another PE's memory, whose core reads it next (LL
 * dispatch's messages).  One host lane streams it (non-temporal stores):
 * a plain store reads each line for ownership first, out of the other
 * core's cache where that PE read the slot a call or two before.  The
 * streamed stores are ordered before the counts that follow by
 * moe_warp_send_done, once per call: an sfence per message waits for that
 * message's stores to land before the next one starts (LL dispatch at the
 * cpu shape, 4 PEs, Xeon: 1530 us with a fence per message, 975 with plain
 * stores, 820 streamed with one fence; EPYC, with the fence per message:
 * 830 plain -> 736 streamed).  Not into normal mode's rings, which the
 * receiver copies out at once (790 -> 970 there).  GPU warps and many-lane
 * warps: the warp copy. */
MOE_DEV void moe_warp_send(const moe_warp_t *w, void *dst, const void *src, size_t n)
{
#if defined(MOE_STREAM_STORES)
    if (w->size == 1 && (uintptr_t)dst % 16 == 0) {
        __m128i *d = (__m128i *)dst;
        const char *s = (const char *)src;
        size_t i, m = n / 16;

        for (i = 0; i < m; i++)
            _mm_stream_si128(d + i, _mm_loadu_si128((const __m128i *)(const void *)(s + 16 * i)));
        memcpy((char *)dst + 16 * m, s + 16 * m, n - 16 * m);
        return;
    }
#endif
    moe_warp_copy(w, dst, src, n);
}

/* After a lane's last moe_warp_send of a call: its streamed stores are
 * ordered before its later stores (the counts' release), which the x86
 * memory model does not do for non-temporal stores, nor, by the letter of
 * the manuals, a locked instruction.  Every lane calls it (a lane of a
 * one-lane last warp streams too). */
MOE_DEV void moe_warp_send_done(const moe_warp_t *w)
{
#if defined(MOE_STREAM_STORES)
    if (w->size == 1)
        _mm_sfence();
#else
    (void)w;
#endif
}

/* Where this PE reads what src dispatched to it when that was pulled
 * (moe_args_t.pull, a load/store src): src's send; NULL when it came as a
 * copy.  Both modes' kernels ask here (the host side: moe.c, pulled_send). */
MOE_DEV const unsigned char *moe_pulled_send(const moe_args_t *a, int src)
{
    return a->pull ? (const unsigned char *)gshmem_ptr(a->b.send, src) : NULL;
}

/* ---- the grid ------------------------------------------------------------ */

/* Every thread of the block calls; returns nonzero in thread 0 of the last
 * block to arrive (all blocks' earlier writes are then visible to it).
 * *ctr is back at 0 for the next kernel when it returns nonzero. */
MOE_DEV int moe_last_block(uint32_t *ctr)
{
    int last = 0;

    gshmemx_syncthreads();
    if (gshmemx_thread_id() == 0) {
        moe_fence_sys();
        if (moe_fetch_add32(ctr, 1) == gshmemx_grid_blocks() - 1) {
            moe_fence_sys();
            *(volatile uint32_t *)ctr = 0;
            last = 1;
        }
    }
    return last;
}

/* moe_last_block for every thread of the block: nonzero in all of them in
 * the last block, so that block can spread the per-expert work over its
 * threads.  word is a scratch word of this block's (its first warp's
 * broadcast word): thread 0 writes the answer, the block reads it between
 * two block barriers, the second so that no thread still reads it when
 * warp 0 reuses it. */
MOE_DEV int moe_last_block_all(uint32_t *ctr, uint64_t *word)
{
    int last = moe_last_block(ctr);

    if (gshmemx_thread_id() == 0)
        *(volatile uint64_t *)word = (uint64_t)last;
    gshmemx_syncthreads();
    last = (int)*(volatile uint64_t *)word;
    gshmemx_syncthreads();
    return last;
}

/* A barrier of the whole grid (all blocks are resident: the launch is
 * collective).  *ctr counts arrivals and only grows; gen is this kernel's
 * barrier number times the block count, kept by the caller. */
MOE_DEV void moe_grid_sync(uint32_t *ctr, uint32_t target)
{
    gshmemx_syncthreads();
    if (gshmemx_grid_blocks() > 1 && gshmemx_thread_id() == 0) {
        moe_fence_sys();
        moe_fetch_add32(ctr, 1);
        while ((int32_t)(moe_load32(ctr) - target) < 0)
            moe_pause();
        moe_fence_sys();
    }
    gshmemx_syncthreads();
}

/* ---- shared by both modes ---------------------------------------------- */

/* Token t as a message in send[t]: the warp's lanes share the 128-blocks. */
MOE_DEV void moe_pack_warp(const moe_warp_t *w, const moe_args_t *a, int t, unsigned char *msg)
{
    const int H = a->s.hidden;
    const moe_bf16_t *row = a->b.x + (size_t)t * (size_t)H;
    unsigned char *p = msg + MOE_HDR_BYTES;
    int blk;

    if (w->lane == 0) {
        moe_hdr_t h;
        memset(&h, 0, sizeof h);
        h.token = t;
        memcpy(msg, &h, sizeof h);
    }
    if (a->s.dtype == MOE_FP8) {
        for (blk = (int)w->lane; blk < H / MOE_SCALE_BLOCK; blk += (int)w->size) {
            float scale = moe_quant_block(row + blk * MOE_SCALE_BLOCK, p + blk * MOE_SCALE_BLOCK);
            memcpy(p + H + 4 * blk, &scale, 4);
        }
    } else {
        moe_warp_copy(w, p, row, 2 * (size_t)H);
    }
    moe_warp_sync();
}

#if defined(__CUDACC__)
#define MOE_RUN(kernel, m) GSHMEM_LAUNCH(kernel, (m)->blocks, (m)->threads, (m)->a)
#else
/* Host lanes: a 1 x 1 launch runs on the calling thread (a plain host
 * thread is lane 0 of a one-lane block), which spares a thread start per call. */
#define MOE_RUN(kernel, m)                  \
    ((m)->blocks == 1 && (m)->threads == 1  \
         ? (kernel((void *[]){&(m)->a}), 0) \
         : GSHMEM_LAUNCH(kernel, (m)->blocks, (m)->threads, (m)->a))
#endif

#endif /* MOE_DEV_H */
