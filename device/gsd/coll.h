/*
 * gsd/coll.h - device collectives on teams: barrier and sync, broadcast,
 * fcollect, alltoall, reductions, each for a thread, a warp or a block
 * (NVSHMEM's nvshmem_X, nvshmemx_X_warp, nvshmemx_X_block).  One caller
 * group per PE and team at a time, as in NVSHMEM.
 *
 * They are written on the point-to-point building blocks (gsd_put, gsd_get,
 * gsd_amo, gsd_wait_u64), so the same code runs over load/store and over
 * the proxy channels:
 *   sync       dissemination: in round k, add 1 to the round-k counter of
 *              member me + 2^k (a release), wait until ours reaches the
 *              epoch (an acquire)
 *   barrier    quiet, then sync
 *   broadcast  sync; the root puts into every member; barrier
 *   fcollect   sync; each member puts its block into every member; barrier
 *   alltoall   sync; each member puts block j into member j; barrier
 *   reduce     sync; chunk by chunk (the team's scratch area): get every
 *              member's chunk in member order and combine (the same order
 *              on every PE, so floating-point results agree), sync, store;
 *              bfloat16 and half combine in float, rounded at each step
 *   reducescatter  the same loop on block `my team index` of every
 *              member's source (nreduce elements a block)
 *
 * Public families: gshmem_TYPENAME_{broadcast,fcollect,alltoall} (+
 * gshmemx_..._warp, _block) for GSD_RMA_TYPES, the mem forms;
 * gshmem_TYPENAME_{and,or,xor}_{reduce,reducescatter} for
 * GSHMEM_REDUCE_BIT_TYPES; gshmem_TYPENAME_{min,max,sum,prod}_{reduce,
 * reducescatter} (+ _warp, _block) for GSD_REDUCE_MINMAX_TYPES and
 * GSD_REDUCE_FLOAT16_TYPES (rows.h).
 *
 * Host code may call the thread forms of the team collectives too, as
 * NVSHMEM's (__host__ __device__): gshmem_barrier, gshmem_team_sync, the
 * broadcast, fcollect and alltoall names and their mem forms, the
 * reductions and reduce-scatters.  In a CUDA build the host pass queues
 * the _on_stream form (gsd/stream.h) on the default stream and waits for
 * it, as NVSHMEM's host collectives do; on host lanes host code runs the
 * device routine itself (what _on_stream does there).  The barrier's host
 * form first completes the host's own puts (shmem_quiet): NVSHMEM's
 * barrier is quiet, then sync.  All return 0, as NVSHMEM's.
 */
#ifndef GSD_COLL_H
#define GSD_COLL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "shmem.h" /* shmem_quiet: the barrier's host form */

#include "gshmem/typetable.h"
#include "amo.h"
#include "group.h"
#include "order.h"
#include "rma.h"
#include "rows.h"
#include "team.h"
#include "wait.h"

/* GSHMEM_REDUCE_MINMAX_TYPES, less long double under nvcc (rows.h). */
#define GSD_REDUCE_MINMAX_NOLD_TYPES(X) \
    X(char, char)                       \
    X(signed char, schar)               \
    X(short, short)                     \
    X(int, int)                         \
    X(long, long)                       \
    X(long long, longlong)              \
    X(ptrdiff_t, ptrdiff)               \
    X(float, float)                     \
    X(double, double)                   \
    GSHMEM_REDUCE_BIT_TYPES(X)
/* The check, as in rows.h: every row above is a row of the table, and the
 * table has exactly one row more, longdouble. */
#define GSD_RED_ROW_NAME(T, N) gsd_red_row_##N,
enum gsd_red_rows { GSHMEM_REDUCE_MINMAX_TYPES(GSD_RED_ROW_NAME) gsd_red_rows_n };
#define GSD_RED_ROW_ONE(T, N) +(gsd_red_row_##N >= 0)
GSD_STATIC_ASSERT(0 GSD_REDUCE_MINMAX_NOLD_TYPES(GSD_RED_ROW_ONE) + (gsd_red_row_longdouble >= 0) ==
                      gsd_red_rows_n,
                  "GSD_REDUCE_MINMAX_NOLD_TYPES is GSHMEM_REDUCE_MINMAX_TYPES less longdouble");
#undef GSD_RED_ROW_ONE
#undef GSD_RED_ROW_NAME

#if defined(GSD_CUDA)
#define GSD_REDUCE_MINMAX_TYPES(X) GSD_REDUCE_MINMAX_NOLD_TYPES(X)
#else
#define GSD_REDUCE_MINMAX_TYPES(X) GSHMEM_REDUCE_MINMAX_TYPES(X)
#endif

/* ---- synchronization ---------------------------------------------------- */

/* One arrival: add 1 to the round counter ctr on PE pe, release-ordered.
 * With 3 or more PEs a member learns of some arrivals only through others:
 * round k+1's add must carry everything this PE saw in rounds <= k (the
 * writes before the barrier of the PEs whose adds it acquired), or a PE
 * released through it could read their data stale.
 *   load/store: a release AMO (cumulative in PTX), so no fence before it;
 *   proxy: the descriptor's publication is a release store (seq, in
 *          gsd_chan_publish) and the proxy acquires it before it issues the
 *          AMO, so the network add too comes after all this PE saw. */
GSD_FN void gsd_sync_arrive(const char *fn, uint64_t *ctr, int pe)
{
    uint64_t off = gsd_heap_offset(fn, ctr, sizeof(*ctr), pe);
    uint64_t *p = (uint64_t *)gsd_peer_addr(ctr, off, pe);

    if (p)
        gsd_fetch_add_release(p, 1);
    else
        gsd_push(gsd_chan_pick(fn, NULL, pe), GSD_OP_AMO, GSD_AMO_FADD, pe, off, NULL, 8, 1, 0,
                 GSD_NO_RET);
}

/* The dissemination rounds, by the group's leader. */
GSD_FN void gsd_team_sync_leader(const char *fn, gshmem_team_t team)
{
    const gsd_team_t *tm = gsd_team(fn, team);
    gsd_team_sync_t *s = &GSD_STATE.sync->team[team];
    uint64_t epoch = ++s->epoch;
    int n = tm->n_pes, me = tm->my_pe;

    for (int k = 0, d = 1; d < n; k++, d <<= 1) {
        gsd_sync_arrive(fn, &s->barrier[k], gsd_team_pe(tm, (me + d) % n));
        gsd_wait_u64(fn, &s->barrier[k], GSHMEM_CMP_GE, epoch);
    }
}

/* Every member's group has arrived; with `complete`, this PE's puts,
 * gets and AMOs are complete first (barrier), else only ordered (sync).
 * No fence around the rounds: the group barrier orders the group's
 * accesses before the leader's, round 0's release arrival orders them
 * before it (sync's ordering), each round's acquire wait and the closing
 * group barrier order what the leader saw before every lane's later
 * accesses. */
GSD_FN void gsd_coll_sync(const char *fn, int group, gshmem_team_t team, int complete)
{
    gsd_group_sync(group);
    if (gsd_group_rank(group) == 0) {
        if (complete)
            gsd_quiet_all();
        gsd_team_sync_leader(fn, team);
    }
    gsd_group_sync(group);
}

/* The host pass of a team collective (the file's comment): RC, what the
 * _on_stream routine returned once its kernel was queued on the default
 * stream, after that stream is done; a failed kernel ends the job with one
 * line naming FN (device/stream_coll.cu). */
#if defined(GSD_NVCC_HOST_PASS)
GSD_BEGIN_C
int gshmemi_coll_host_wait(const char *fn, int rc);
int gshmemx_barrier_on_stream(gshmem_team_t team, cudaStream_t stream);
int gshmemx_team_sync_on_stream(gshmem_team_t team, cudaStream_t stream);
int gshmemx_broadcastmem_on_stream(gshmem_team_t team, void *dest, const void *source,
                                   size_t nelems, int PE_root, cudaStream_t stream);
int gshmemx_fcollectmem_on_stream(gshmem_team_t team, void *dest, const void *source, size_t nelems,
                                  cudaStream_t stream);
int gshmemx_alltoallmem_on_stream(gshmem_team_t team, void *dest, const void *source, size_t nelems,
                                  cudaStream_t stream);
GSD_END_C
#endif

/* gshmem_barrier (complete) and gshmem_team_sync, from device or host code
 * (the file's comment). */
GSD_HD int gsd_team_sync_hd(const char *fn, gshmem_team_t team, int complete)
{
#if defined(GSD_NVCC_HOST_PASS)
    if (!complete)
        return gshmemi_coll_host_wait(fn, gshmemx_team_sync_on_stream(team, 0));
    shmem_quiet();
    return gshmemi_coll_host_wait(fn, gshmemx_barrier_on_stream(team, 0));
#else
#if defined(GSD_HOSTLANE)
    if (complete && !gshmemi_lane_self)
        shmem_quiet();
#endif
    gsd_coll_sync(fn, GSD_THREAD, team, complete);
    return 0;
#endif
}

#define GSD_SYNC_FORMS(SUFFIX, GROUP)                                                \
    GSD_FN void gshmem##SUFFIX##_barrier_all(void)                                   \
    {                                                                                \
        gsd_coll_sync("gshmem" #SUFFIX "_barrier_all", GROUP, GSHMEM_TEAM_WORLD, 1); \
    }                                                                                \
    GSD_HD int gshmem##SUFFIX##_barrier(gshmem_team_t team)                          \
    {                                                                                \
        return gsd_team_sync_hd("gshmem" #SUFFIX "_barrier", team, 1);               \
    }                                                                                \
    GSD_FN void gshmem##SUFFIX##_sync_all(void)                                      \
    {                                                                                \
        gsd_coll_sync("gshmem" #SUFFIX "_sync_all", GROUP, GSHMEM_TEAM_WORLD, 0);    \
    }                                                                                \
    GSD_HD int gshmem##SUFFIX##_team_sync(gshmem_team_t team)                        \
    {                                                                                \
        return gsd_team_sync_hd("gshmem" #SUFFIX "_team_sync", team, 0);             \
    }
GSD_SYNC_FORMS(, GSD_THREAD)
#undef GSD_SYNC_FORMS
#define GSD_SYNC_FORMS_X(SUFFIX, GROUP)                                             \
    GSD_FN void gshmemx_barrier_all_##SUFFIX(void)                                  \
    {                                                                               \
        gsd_coll_sync("gshmemx_barrier_all_" #SUFFIX, GROUP, GSHMEM_TEAM_WORLD, 1); \
    }                                                                               \
    GSD_FN int gshmemx_barrier_##SUFFIX(gshmem_team_t team)                         \
    {                                                                               \
        gsd_coll_sync("gshmemx_barrier_" #SUFFIX, GROUP, team, 1);                  \
        return 0;                                                                   \
    }                                                                               \
    GSD_FN void gshmemx_sync_all_##SUFFIX(void)                                     \
    {                                                                               \
        gsd_coll_sync("gshmemx_sync_all_" #SUFFIX, GROUP, GSHMEM_TEAM_WORLD, 0);    \
    }                                                                               \
    GSD_FN int gshmemx_team_sync_##SUFFIX(gshmem_team_t team)                       \
    {                                                                               \
        gsd_coll_sync("gshmemx_team_sync_" #SUFFIX, GROUP, team, 0);                \
        return 0;                                                                   \
    }
GSD_SYNC_FORMS_X(warp, GSD_WARP)
GSD_SYNC_FORMS_X(block, GSD_BLOCK)
#undef GSD_SYNC_FORMS_X
/* NVSHMEM's warpgroup barriers: every lane of the caller's warpgroup calls
 * (gsd/arch.h: 4 warps).  The team forms return 0, as NVSHMEM's do. */
GSD_FN int gshmemx_barrier_warpgroup(gshmem_team_t team)
{
    gsd_coll_sync("gshmemx_barrier_warpgroup", GSD_WARPGROUP, team, 1);
    return 0;
}
GSD_FN void gshmemx_barrier_all_warpgroup(void)
{
    gsd_coll_sync("gshmemx_barrier_all_warpgroup", GSD_WARPGROUP, GSHMEM_TEAM_WORLD, 1);
}

/* ---- data movement ------------------------------------------------------ */

GSD_FN int gsd_broadcast(const char *fn, int group, gshmem_team_t team, void *dest, const void *src,
                         size_t nbytes, int root)
{
    const gsd_team_t *tm = gsd_team(fn, team);

    if (GSD_UNLIKELY(root < 0 || root >= tm->n_pes))
        GSD_FATAL(fn, "root %d is out of range: the team has PEs 0 to %d", root, tm->n_pes - 1);
    gsd_coll_sync(fn, group, team, 0);
    if (tm->my_pe == root)
        for (int i = 1; i <= tm->n_pes; i++) /* the root's own dest last */
            gsd_put(fn, group, dest, src, nbytes, gsd_team_pe(tm, (root + i) % tm->n_pes), 1, NULL);
    gsd_coll_sync(fn, group, team, 1);
    return 0;
}

GSD_FN int gsd_fcollect(const char *fn, int group, gshmem_team_t team, void *dest, const void *src,
                        size_t nbytes)
{
    const gsd_team_t *tm = gsd_team(fn, team);
    int me = tm->my_pe;

    gsd_coll_sync(fn, group, team, 0);
    for (int i = 1; i <= tm->n_pes; i++)
        gsd_put(fn, group, (char *)dest + (size_t)me * nbytes, src, nbytes,
                gsd_team_pe(tm, (me + i) % tm->n_pes), 1, NULL);
    gsd_coll_sync(fn, group, team, 1);
    return 0;
}

GSD_FN int gsd_alltoall(const char *fn, int group, gshmem_team_t team, void *dest, const void *src,
                        size_t nbytes)
{
    const gsd_team_t *tm = gsd_team(fn, team);
    int me = tm->my_pe;

    gsd_coll_sync(fn, group, team, 0);
    for (int i = 1; i <= tm->n_pes; i++) {
        int j = (me + i) % tm->n_pes;

        gsd_put(fn, group, (char *)dest + (size_t)me * nbytes,
                (const char *)src + (size_t)j * nbytes, nbytes, gsd_team_pe(tm, j), 1, NULL);
    }
    gsd_coll_sync(fn, group, team, 1);
    return 0;
}

/* The host pass queues the mem form's _on_stream routine (bytes). */
#if defined(GSD_NVCC_HOST_PASS)
#define GSD_COPY_HD(KIND, ...) \
    (void)group;               \
    return gshmemi_coll_host_wait(fn, gshmemx_##KIND##mem_on_stream(__VA_ARGS__, 0))
#else
#define GSD_COPY_HD(KIND, ...) return gsd_##KIND(fn, group, __VA_ARGS__)
#endif
GSD_HD int gsd_broadcast_hd(const char *fn, int group, gshmem_team_t team, void *dest,
                            const void *src, size_t nbytes, int root)
{
    GSD_COPY_HD(broadcast, team, dest, src, nbytes, root);
}
GSD_HD int gsd_fcollect_hd(const char *fn, int group, gshmem_team_t team, void *dest,
                           const void *src, size_t nbytes)
{
    GSD_COPY_HD(fcollect, team, dest, src, nbytes);
}
GSD_HD int gsd_alltoall_hd(const char *fn, int group, gshmem_team_t team, void *dest,
                           const void *src, size_t nbytes)
{
    GSD_COPY_HD(alltoall, team, dest, src, nbytes);
}
#undef GSD_COPY_HD

/* Typed and mem names: X(T, N) rows of the RMA types the device supports;
 * the thread forms host-callable (QUAL GSD_HD, the file's comment). */
#define GSD_COLL_TYPED(T, N)                                                                  \
    GSD_COLL_TYPED_GROUP(GSD_HD, T, sizeof(T), gshmem_##N##_broadcast, gshmem_##N##_fcollect, \
                         gshmem_##N##_alltoall, GSD_THREAD)                                   \
    GSD_COLL_TYPED_GROUP(GSD_FN, T, sizeof(T), gshmemx_##N##_broadcast_warp,                  \
                         gshmemx_##N##_fcollect_warp, gshmemx_##N##_alltoall_warp, GSD_WARP)  \
    GSD_COLL_TYPED_GROUP(GSD_FN, T, sizeof(T), gshmemx_##N##_broadcast_block,                 \
                         gshmemx_##N##_fcollect_block, gshmemx_##N##_alltoall_block, GSD_BLOCK)
/* SIZE: bytes per element (1 for the mem forms). */
#define GSD_COLL_TYPED_GROUP(QUAL, T, SIZE, BCAST, FCOLLECT, ALLTOALL, GROUP)           \
    QUAL int BCAST(gshmem_team_t team, T *dest, const T *src, size_t nelems, int root)  \
    {                                                                                   \
        return gsd_broadcast_hd(#BCAST, GROUP, team, dest, src, nelems * (SIZE), root); \
    }                                                                                   \
    QUAL int FCOLLECT(gshmem_team_t team, T *dest, const T *src, size_t nelems)         \
    {                                                                                   \
        return gsd_fcollect_hd(#FCOLLECT, GROUP, team, dest, src, nelems * (SIZE));     \
    }                                                                                   \
    QUAL int ALLTOALL(gshmem_team_t team, T *dest, const T *src, size_t nelems)         \
    {                                                                                   \
        return gsd_alltoall_hd(#ALLTOALL, GROUP, team, dest, src, nelems * (SIZE));     \
    }
GSD_RMA_TYPES(GSD_COLL_TYPED)
GSD_COLL_TYPED_GROUP(GSD_HD, void, 1, gshmem_broadcastmem, gshmem_fcollectmem, gshmem_alltoallmem,
                     GSD_THREAD)
GSD_COLL_TYPED_GROUP(GSD_FN, void, 1, gshmemx_broadcastmem_warp, gshmemx_fcollectmem_warp,
                     gshmemx_alltoallmem_warp, GSD_WARP)
GSD_COLL_TYPED_GROUP(GSD_FN, void, 1, gshmemx_broadcastmem_block, gshmemx_fcollectmem_block,
                     gshmemx_alltoallmem_block, GSD_BLOCK)
#undef GSD_COLL_TYPED
#undef GSD_COLL_TYPED_GROUP

/* ---- reductions --------------------------------------------------------- */

#define GSD_RED_HALF (GSD_SCRATCH_BYTES / 2)

/* The chunk loop every reduction shares; COMBINE(acc, x) folds one value.
 * BLOCK: which block of n elements of every member's source is reduced:
 * 0 for a reduction, the caller's team index for a reduce-scatter (member
 * i reduces block i).  dest may be the reduced block itself (in place),
 * else disjoint from every block. */
#define GSD_REDUCE_BODY(T, COMBINE, BLOCK)                                                     \
    const gsd_team_t *tm = gsd_team(fn, team);                                                 \
    const T *from = src + (size_t)(BLOCK)*n;                                                   \
    unsigned char *scratch = GSD_STATE.sync->team[team].scratch;                               \
    T *acc = (T *)scratch, *tmp = (T *)(scratch + GSD_RED_HALF);                               \
    size_t per = GSD_RED_HALF / sizeof(T);                                                     \
    unsigned rank = gsd_group_rank(group), size = gsd_group_size(group);                       \
                                                                                               \
    gsd_coll_sync(fn, group, team, 0);                                                         \
    for (size_t off = 0; off < n; off += per) {                                                \
        size_t cnt = n - off < per ? n - off : per;                                            \
                                                                                               \
        gsd_get(fn, group, acc, from + off, cnt * sizeof(T), gsd_team_pe(tm, 0), 0, NULL);     \
        for (int j = 1; j < tm->n_pes; j++) {                                                  \
            gsd_get(fn, group, tmp, from + off, cnt * sizeof(T), gsd_team_pe(tm, j), 0, NULL); \
            for (size_t i = rank; i < cnt; i += size) {                                        \
                T x = tmp[i];                                                                  \
                COMBINE(acc[i], x);                                                            \
            }                                                                                  \
            gsd_group_sync(group);                                                             \
        }                                                                                      \
        /* every member has read this chunk of every source: dest may alias it */              \
        gsd_coll_sync(fn, group, team, 0);                                                     \
        for (size_t i = rank; i < cnt; i += size)                                              \
            dest[off + i] = acc[i];                                                            \
        gsd_group_sync(group);                                                                 \
    }                                                                                          \
    return 0;

#define GSD_COMBINE_AND(a, x) ((a) &= (x))
#define GSD_COMBINE_OR(a, x) ((a) |= (x))
#define GSD_COMBINE_XOR(a, x) ((a) ^= (x))
#define GSD_COMBINE_MIN(a, x) ((a) = (x) < (a) ? (x) : (a))
#define GSD_COMBINE_MAX(a, x) ((a) = (x) > (a) ? (x) : (a))
#define GSD_COMBINE_SUM(a, x) ((a) += (x))
#define GSD_COMBINE_PROD(a, x) ((a) *= (x))

/* One generic function per (type, op): scatter 0 reduces block 0 of every
 * source (reduce), 1 block `my team index` (reducescatter: NVSHMEM's
 * nvshmem_TYPENAME_OP_reducescatter(team, dest, source, nreduce), where
 * source holds one block of nreduce per member and member i's dest gets
 * the reduction of block i of every member's source).  The three group
 * forms of each call it. */
/* The thread form's body and, for the host pass, its _on_stream routine's
 * declaration (the file's comment). */
#if defined(GSD_NVCC_HOST_PASS)
#define GSD_REDUCE_HOST_DECL(T, N, OP, KIND)                                                \
    GSD_EXTERN_C int gshmemx_##N##_##OP##_##KIND##_on_stream(gshmem_team_t, T *, const T *, \
                                                             size_t, cudaStream_t);
#define GSD_REDUCE_THREAD(N, OP, KIND, SCATTER)                   \
    return gshmemi_coll_host_wait("gshmem_" #N "_" #OP "_" #KIND, \
                                  gshmemx_##N##_##OP##_##KIND##_on_stream(team, dest, src, n, 0))
#else
#define GSD_REDUCE_HOST_DECL(T, N, OP, KIND)
#define GSD_REDUCE_THREAD(N, OP, KIND, SCATTER)                                                    \
    return gsd_##N##_##OP##_reduce("gshmem_" #N "_" #OP "_" #KIND, GSD_THREAD, team, dest, src, n, \
                                   SCATTER)
#endif
#define GSD_REDUCE_FORMS(T, N, OP, KIND, SCATTER)                                                 \
    GSD_REDUCE_HOST_DECL(T, N, OP, KIND)                                                          \
    GSD_HD int gshmem_##N##_##OP##_##KIND(gshmem_team_t team, T *dest, const T *src, size_t n)    \
    {                                                                                             \
        GSD_REDUCE_THREAD(N, OP, KIND, SCATTER);                                                  \
    }                                                                                             \
    GSD_FN int gshmemx_##N##_##OP##_##KIND##_warp(gshmem_team_t team, T *dest, const T *src,      \
                                                  size_t n)                                       \
    {                                                                                             \
        return gsd_##N##_##OP##_reduce("gshmemx_" #N "_" #OP "_" #KIND "_warp", GSD_WARP, team,   \
                                       dest, src, n, SCATTER);                                    \
    }                                                                                             \
    GSD_FN int gshmemx_##N##_##OP##_##KIND##_block(gshmem_team_t team, T *dest, const T *src,     \
                                                   size_t n)                                      \
    {                                                                                             \
        return gsd_##N##_##OP##_reduce("gshmemx_" #N "_" #OP "_" #KIND "_block", GSD_BLOCK, team, \
                                       dest, src, n, SCATTER);                                    \
    }
#define GSD_REDUCE_OP(T, N, OP, COMBINE)                                                       \
    GSD_FN int gsd_##N##_##OP##_reduce(const char *fn, int group, gshmem_team_t team, T *dest, \
                                       const T *src, size_t n, int scatter)                    \
    {                                                                                          \
        GSD_REDUCE_BODY(T, COMBINE, scatter ? tm->my_pe : 0)                                   \
    }                                                                                          \
    GSD_REDUCE_FORMS(T, N, OP, reduce, 0)                                                      \
    GSD_REDUCE_FORMS(T, N, OP, reducescatter, 1)

#define GSD_REDUCE_BIT(T, N)                  \
    GSD_REDUCE_OP(T, N, and, GSD_COMBINE_AND) \
    GSD_REDUCE_OP(T, N, or, GSD_COMBINE_OR)   \
    GSD_REDUCE_OP(T, N, xor, GSD_COMBINE_XOR)
#define GSD_REDUCE_ARITH(T, N)                \
    GSD_REDUCE_OP(T, N, min, GSD_COMBINE_MIN) \
    GSD_REDUCE_OP(T, N, max, GSD_COMBINE_MAX) \
    GSD_REDUCE_OP(T, N, sum, GSD_COMBINE_SUM) \
    GSD_REDUCE_OP(T, N, prod, GSD_COMBINE_PROD)
GSHMEM_REDUCE_BIT_TYPES(GSD_REDUCE_BIT)
GSD_REDUCE_MINMAX_TYPES(GSD_REDUCE_ARITH)
#undef GSD_REDUCE_BIT
#undef GSD_REDUCE_ARITH

/* bfloat16 and half (GSD_REDUCE_FLOAT16_TYPES) as NVSHMEM reduces them: it
 * combines two values in the type itself (op1 + op2 on __half and
 * __nv_bfloat16, one correctly rounded operation) and keeps the result in
 * that type, so every combining step rounds.  Here a step converts both
 * values to float, computes, and rounds to nearest even back
 * (gshmem/float16.h).  That is the same bits: float's 24-bit significand
 * holds a product of two 16-bit values exactly, and is at least twice the
 * 16-bit significand plus 2 bits, so a sum rounded first to float and then
 * to the 16-bit type equals the sum rounded once (no double-rounding
 * error).  min and max compare in float and keep one of the two values.
 * The combine macros get only the two lvalues, so the format is told from
 * their type: C++ (nvcc, or a C++ host-lane build) by overloads, C by the
 * GNU builtin the host-lane compilers (gcc, clang) have. */
#if defined(__cplusplus)
GSD_FN int gsd_f16_is_half(const gshmem_bfloat16_t *)
{
    return 0;
}
GSD_FN int gsd_f16_is_half(const gshmem_half_t *)
{
    return 1;
}
#define GSD_F16_IS_HALF(lv) gsd_f16_is_half(&(lv))
#else
#define GSD_F16_IS_HALF(lv) __builtin_types_compatible_p(__typeof__(lv), gshmem_half_t)
#endif

GSD_FN float gsd_f16_get(const void *p, int is_half)
{
    uint16_t b;

    memcpy(&b, p, sizeof b);
    return is_half ? gshmemx_half_to_float(gshmemx_half_from_bits(b))
                   : gshmemx_bfloat16_to_float(gshmemx_bfloat16_from_bits(b));
}

/* p is an element of a 16-bit type, so 2-byte aligned.  On the GPU it is
 * stored as one 16-bit word: nvcc 13.0 turns the two byte stores of
 * memcpy(p, &b, 2) into a float-to-integer conversion of the low byte
 * (F2I.U8.F16 of the value the conversion just made: ptxas takes the
 * register for an f16), which the GPU kit saw as every bf16/half sum and
 * product with a wrong low byte. */
GSD_FN void gsd_f16_set(void *p, float f, int is_half)
{
    uint16_t b = is_half ? gshmemx_half_bits(gshmemx_float_to_half(f))
                         : gshmemx_bfloat16_bits(gshmemx_float_to_bfloat16(f));

#if defined(GSD_CUDA)
    *(uint16_t *)p = b;
#else
    memcpy(p, &b, sizeof b);
#endif
}

#define GSD_F16_GET(lv) gsd_f16_get(&(lv), GSD_F16_IS_HALF(lv))
#define GSD_F16_SET(lv, f) gsd_f16_set(&(lv), (f), GSD_F16_IS_HALF(lv))
#define GSD_COMBINE_F16_MIN(a, x) ((a) = GSD_F16_GET(x) < GSD_F16_GET(a) ? (x) : (a))
#define GSD_COMBINE_F16_MAX(a, x) ((a) = GSD_F16_GET(x) > GSD_F16_GET(a) ? (x) : (a))
#define GSD_COMBINE_F16_SUM(a, x) GSD_F16_SET(a, GSD_F16_GET(a) + GSD_F16_GET(x))
#define GSD_COMBINE_F16_PROD(a, x) GSD_F16_SET(a, GSD_F16_GET(a) * GSD_F16_GET(x))

#define GSD_REDUCE_F16(T, N)                      \
    GSD_REDUCE_OP(T, N, min, GSD_COMBINE_F16_MIN) \
    GSD_REDUCE_OP(T, N, max, GSD_COMBINE_F16_MAX) \
    GSD_REDUCE_OP(T, N, sum, GSD_COMBINE_F16_SUM) \
    GSD_REDUCE_OP(T, N, prod, GSD_COMBINE_F16_PROD)
GSD_REDUCE_FLOAT16_TYPES(GSD_REDUCE_F16)
#undef GSD_REDUCE_F16
#undef GSD_REDUCE_OP
#undef GSD_REDUCE_FORMS
#undef GSD_REDUCE_HOST_DECL
#undef GSD_REDUCE_THREAD

/* MAXLOC over (value x, index y) pairs, NVSHMEM's
 * nvshmemx_double2_maxloc_reduce_block: dest[i] is the pair of largest x
 * among the members' src[i]; of equal x, the one with the smallest y (so
 * every PE picks the same pair whatever the order).  Any n (NVSHMEM
 * expects 1).  double2 is CUDA's vector type; host lanes declare a struct
 * of its layout under its name, so one source serves both backends. */
#if defined(GSD_HOSTLANE)
typedef struct gsd_double2 {
    double x, y;
} __attribute__((aligned(16))) double2;
#endif
#define GSD_COMBINE_MAXLOC(a, v) \
    ((a) = ((v).x > (a).x || ((v).x == (a).x && (v).y < (a).y)) ? (v) : (a))
GSD_FN int gsd_double2_maxloc_reduce(const char *fn, int group, gshmem_team_t team, double2 *dest,
                                     const double2 *src, size_t n)
{
    GSD_REDUCE_BODY(double2, GSD_COMBINE_MAXLOC, 0)
}
GSD_FN int gshmemx_double2_maxloc_reduce_block(gshmem_team_t team, double2 *dest,
                                               const double2 *src, size_t n)
{
    return gsd_double2_maxloc_reduce("gshmemx_double2_maxloc_reduce_block", GSD_BLOCK, team, dest,
                                     src, n);
}
#undef GSD_COMBINE_MAXLOC

#endif /* GSD_COLL_H */
