/*
 * gsd/arch.h - the portability layer: atomics and fences at system scope
 * (visible to the other PEs' processes, the proxy thread and the NIC), the
 * thread/warp/block queries and barriers, a clock and a polite pause.
 * CUDA intrinsics on the GPU; GCC atomics and the host-lane launcher's
 * per-thread record (src/gpu/lanes.c) on host lanes.
 */
#ifndef GSD_ARCH_H
#define GSD_ARCH_H

#include <stdint.h>

#include "cdefs.h"
#include "channel.h"

#if defined(GSD_HOSTLANE)
#include <sched.h>

GSD_BEGIN_C
/* What a host lane knows of itself (set by the launcher, src/gpu/lanes.c).
 * A thread that no launcher started (main, or any other) is thread 0 of a
 * one-thread block of a one-block grid, so the thread-scope device
 * functions work from any host thread. */
typedef struct gsd_lane {
    unsigned tid, ntid;         /* flat thread index in the block, threads per block */
    unsigned bid, nbid;         /* flat block index in the grid, blocks */
    unsigned tid3[3], ntid3[3]; /* threadIdx, blockDim */
    unsigned bid3[3], nbid3[3]; /* blockIdx, gridDim */
    struct gsd_lane_block *block;
} gsd_lane_t;

extern __thread gsd_lane_t *gshmemi_lane_self;
/* Where the calling thread's next _any scan starts (gsd/wait.h). */
extern __thread uint64_t gshmemi_lane_any_next;
/* Barriers of the calling lane's block and warp (lanes.c). */
void gshmemi_lane_syncthreads(void);
void gshmemi_lane_syncwarp(void);
void gshmemi_lane_syncwarpgroup(void);
/* CLOCK_MONOTONIC in ns (a call: strict ISO C modes hide clock_gettime). */
uint64_t gshmemi_lane_clock_ns(void);
/* A wait's polls: spin to 64, yield to 64 + 1024, then nap (gsd_pause). */
#define GSD_PAUSE_FIRST_NAP (64 + 1024 + 1)
/* Sleep a few microseconds: a wait that has yielded long enough.  polls:
 * the wait's count so far (GSD_PAUSE_FIRST_NAP at its first nap), which
 * tells the launcher a lane has entered a long wait (src/gpu/lanes.c). */
void gshmemi_lane_nap(unsigned polls);
/* Drive the network for operations aimed at this PE (a waiting lane). */
void gshmemi_lane_progress(void);
/* Wake the proxy thread sleeping on *word, once (src/gpu/proxy.c). */
void gshmemi_proxy_wake(uint32_t *word);
GSD_END_C
#endif

#define GSD_WARP_SIZE 32u
/* A warpgroup (Hopper's, NVSHMEM's _warpgroup scope): 4 consecutive warps,
 * the last of a block partial when the block's threads are not a multiple
 * of 128. */
#define GSD_WARPGROUP_SIZE 128u

/* ---- lanes -------------------------------------------------------------- */

#if defined(GSD_CUDA)
GSD_FN unsigned gsd_thread_id(void)
{
    return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
GSD_FN unsigned gsd_block_threads(void)
{
    return blockDim.x * blockDim.y * blockDim.z;
}
GSD_FN unsigned gsd_block_id(void)
{
    return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
}
GSD_FN unsigned gsd_grid_blocks(void)
{
    return gridDim.x * gridDim.y * gridDim.z;
}
GSD_FN void gsd_syncthreads(void)
{
    __syncthreads();
}
/* The lanes that exist: the last warp of a block may be partial, and
 * __syncwarp's mask must name no lane that is not there. */
GSD_FN void gsd_syncwarp(void)
{
    unsigned first = gsd_thread_id() & ~31u, n = gsd_block_threads() - first;

    __syncwarp(n >= 32 ? 0xffffffffu : (1u << n) - 1);
}
/* Named barrier 1 + warpgroup index (0 is __syncthreads'; a block has at
 * most 1024 threads, so at most 8 warpgroups and ids up to 8 of the 16).
 * bar.sync counts whole warps: a partial last warp counts as 32. */
GSD_FN void gsd_syncwarpgroup(void)
{
    unsigned tid = gsd_thread_id(), first = tid & ~(GSD_WARPGROUP_SIZE - 1);
    unsigned n = gsd_block_threads() - first;

    n = n < GSD_WARPGROUP_SIZE ? (n + 31u) & ~31u : GSD_WARPGROUP_SIZE;
    asm volatile("bar.sync %0, %1;" ::"r"(1u + tid / GSD_WARPGROUP_SIZE), "r"(n) : "memory");
}
#else
GSD_FN unsigned gsd_thread_id(void)
{
    return gshmemi_lane_self ? gshmemi_lane_self->tid : 0;
}
GSD_FN unsigned gsd_block_threads(void)
{
    return gshmemi_lane_self ? gshmemi_lane_self->ntid : 1;
}
GSD_FN unsigned gsd_block_id(void)
{
    return gshmemi_lane_self ? gshmemi_lane_self->bid : 0;
}
GSD_FN unsigned gsd_grid_blocks(void)
{
    return gshmemi_lane_self ? gshmemi_lane_self->nbid : 1;
}
GSD_FN void gsd_syncthreads(void)
{
    if (gshmemi_lane_self)
        gshmemi_lane_syncthreads();
    else
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
GSD_FN void gsd_syncwarp(void)
{
    if (gshmemi_lane_self)
        gshmemi_lane_syncwarp();
    else
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
GSD_FN void gsd_syncwarpgroup(void)
{
    if (gshmemi_lane_self)
        gshmemi_lane_syncwarpgroup();
    else
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
#endif

/* Lane within the warp, and the lanes of the caller's warp (the last warp
 * of a block may be partial).  Warps are formed from consecutive flat
 * thread indices, as CUDA forms them. */
GSD_FN unsigned gsd_lane_id(void)
{
    return gsd_thread_id() % GSD_WARP_SIZE;
}
GSD_FN unsigned gsd_warp_threads(void)
{
    unsigned first = gsd_thread_id() - gsd_lane_id(), n = gsd_block_threads() - first;

    return n < GSD_WARP_SIZE ? n : GSD_WARP_SIZE;
}
/* The same for the caller's warpgroup. */
GSD_FN unsigned gsd_warpgroup_rank(void)
{
    return gsd_thread_id() % GSD_WARPGROUP_SIZE;
}
GSD_FN unsigned gsd_warpgroup_threads(void)
{
    unsigned first = gsd_thread_id() - gsd_warpgroup_rank(), n = gsd_block_threads() - first;

    return n < GSD_WARPGROUP_SIZE ? n : GSD_WARPGROUP_SIZE;
}

/* ---- atomics and fences (system scope) ---------------------------------- */

#if defined(GSD_CUDA)
GSD_FN uint64_t gsd_load_acquire(const uint64_t *p)
{
    uint64_t v;

    asm volatile("ld.acquire.sys.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}
GSD_FN uint32_t gsd_load_acquire32(const uint32_t *p)
{
    uint32_t v;

    asm volatile("ld.acquire.sys.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}
GSD_FN void gsd_store_release(uint64_t *p, uint64_t v)
{
    asm volatile("st.release.sys.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}
GSD_FN uint64_t gsd_load_relaxed(const uint64_t *p)
{
    return *(const volatile uint64_t *)p;
}
/* Relaxed: a ticket or a counter whose value alone matters. */
GSD_FN uint64_t gsd_fetch_add(uint64_t *p, uint64_t v)
{
    return atomicAdd_system((unsigned long long *)p, (unsigned long long)v);
}
/* Release: every access this thread made, and every write it has seen
 * (PTX release is cumulative), is visible before the add to a thread whose
 * acquire sees it - a signal ADD, a barrier arrival, with no fence before. */
GSD_FN uint64_t gsd_fetch_add_release(uint64_t *p, uint64_t v)
{
    uint64_t old;

    asm volatile("atom.release.sys.global.add.u64 %0, [%1], %2;"
                 : "=l"(old)
                 : "l"(p), "l"(v)
                 : "memory");
    return old;
}
GSD_FN void gsd_atomic_max(uint64_t *p, uint64_t v)
{
    atomicMax_system((unsigned long long *)p, (unsigned long long)v);
}
/* fence.sc.sys: orders every earlier access before every later one, stores
 * before later loads included (what gshmem_quiet promises). */
GSD_FN void gsd_fence(void)
{
    __threadfence_system();
}
/* fence.acq_rel.sys: earlier accesses before later writes (with a later
 * strong write it is a release pattern), and earlier reads before later
 * accesses; no store -> load order (what gshmem_fence promises). */
GSD_FN void gsd_fence_acq_rel(void)
{
    asm volatile("fence.acq_rel.sys;" ::: "memory");
}

/* 4- and 8-byte AMOs on memory this PE can address (own heap or a P2P peer's). */
GSD_FN uint32_t gsd_amo32(gsd_amo_op_t op, uint32_t *p, uint32_t v, uint32_t cmp)
{
    switch (op) {
    case GSD_AMO_FETCH: return atomicOr_system(p, 0u);
    case GSD_AMO_SET: atomicExch_system(p, v); return 0;
    case GSD_AMO_SWAP: return atomicExch_system(p, v);
    case GSD_AMO_CSWAP: return atomicCAS_system(p, cmp, v);
    case GSD_AMO_FADD: return atomicAdd_system(p, v);
    case GSD_AMO_FAND: return atomicAnd_system(p, v);
    case GSD_AMO_FOR: return atomicOr_system(p, v);
    case GSD_AMO_FXOR: return atomicXor_system(p, v);
    }
    return 0;
}
GSD_FN uint64_t gsd_amo64(gsd_amo_op_t op, uint64_t *p64, uint64_t v, uint64_t cmp)
{
    unsigned long long *p = (unsigned long long *)p64;

    switch (op) {
    case GSD_AMO_FETCH: return atomicOr_system(p, 0ull);
    case GSD_AMO_SET: atomicExch_system(p, (unsigned long long)v); return 0;
    case GSD_AMO_SWAP: return atomicExch_system(p, (unsigned long long)v);
    case GSD_AMO_CSWAP: return atomicCAS_system(p, (unsigned long long)cmp, (unsigned long long)v);
    case GSD_AMO_FADD: return atomicAdd_system(p, (unsigned long long)v);
    case GSD_AMO_FAND: return atomicAnd_system(p, (unsigned long long)v);
    case GSD_AMO_FOR: return atomicOr_system(p, (unsigned long long)v);
    case GSD_AMO_FXOR: return atomicXor_system(p, (unsigned long long)v);
    }
    return 0;
}

GSD_FN uint64_t gsd_clock_ns(void)
{
    uint64_t t;

    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}
/* One poll of a wait loop. */
GSD_FN void gsd_pause(unsigned *polls)
{
    if (++*polls > 64)
        __nanosleep(100);
}
#else
GSD_FN uint64_t gsd_load_acquire(const uint64_t *p)
{
    return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}
GSD_FN uint32_t gsd_load_acquire32(const uint32_t *p)
{
    return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}
GSD_FN void gsd_store_release(uint64_t *p, uint64_t v)
{
    __atomic_store_n(p, v, __ATOMIC_RELEASE);
}
GSD_FN uint64_t gsd_load_relaxed(const uint64_t *p)
{
    return __atomic_load_n(p, __ATOMIC_RELAXED);
}
GSD_FN uint64_t gsd_fetch_add(uint64_t *p, uint64_t v)
{
    return __atomic_fetch_add(p, v, __ATOMIC_ACQ_REL);
}
GSD_FN uint64_t gsd_fetch_add_release(uint64_t *p, uint64_t v)
{
    return __atomic_fetch_add(p, v, __ATOMIC_RELEASE);
}
GSD_FN void gsd_atomic_max(uint64_t *p, uint64_t v)
{
    uint64_t cur = __atomic_load_n(p, __ATOMIC_RELAXED);

    while (cur < v &&
           !__atomic_compare_exchange_n(p, &cur, v, 1, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
        ;
}
GSD_FN void gsd_fence(void)
{
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
GSD_FN void gsd_fence_acq_rel(void)
{
    __atomic_thread_fence(__ATOMIC_ACQ_REL);
}

#define GSD_AMO_BODY(p, v, cmp)                                                         \
    switch (op) {                                                                       \
    case GSD_AMO_FETCH: return __atomic_load_n(p, __ATOMIC_SEQ_CST);                    \
    case GSD_AMO_SET: __atomic_store_n(p, v, __ATOMIC_SEQ_CST); return 0;               \
    case GSD_AMO_SWAP: return __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST);              \
    case GSD_AMO_CSWAP:                                                                 \
        __atomic_compare_exchange_n(p, &cmp, v, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); \
        return cmp;                                                                     \
    case GSD_AMO_FADD: return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST);               \
    case GSD_AMO_FAND: return __atomic_fetch_and(p, v, __ATOMIC_SEQ_CST);               \
    case GSD_AMO_FOR: return __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST);                 \
    case GSD_AMO_FXOR: return __atomic_fetch_xor(p, v, __ATOMIC_SEQ_CST);               \
    }                                                                                   \
    return 0;

/* 4- and 8-byte AMOs on memory this PE can address (own heap or a P2P peer's). */
GSD_FN uint32_t gsd_amo32(gsd_amo_op_t op, uint32_t *p, uint32_t v, uint32_t cmp)
{
    GSD_AMO_BODY(p, v, cmp)
}
GSD_FN uint64_t gsd_amo64(gsd_amo_op_t op, uint64_t *p, uint64_t v, uint64_t cmp)
{
    GSD_AMO_BODY(p, v, cmp)
}
#undef GSD_AMO_BODY

GSD_FN uint64_t gsd_clock_ns(void)
{
    return gshmemi_lane_clock_ns();
}
/* One poll of a wait loop: spin briefly, then yield, so that more lanes
 * and PEs than cores still make progress; a wait that has yielded for long
 * naps, so hundreds of waiting lanes do not keep every core busy. */
GSD_FN void gsd_pause(unsigned *polls)
{
    if (++*polls >= GSD_PAUSE_FIRST_NAP) {
        gshmemi_lane_progress();
        gshmemi_lane_nap(*polls);
    } else if (*polls > 64) {
        if ((*polls & 15) == 0)
            gshmemi_lane_progress();
        sched_yield();
    }
#if defined(__x86_64__) || defined(__i386__)
    else
        __builtin_ia32_pause();
#endif
}
#endif

#endif /* GSD_ARCH_H */
