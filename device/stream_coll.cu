/*
 * device/stream_coll.cu - the stream-ordered collectives (gsd/stream.h):
 * team barrier and sync, broadcast, fcollect, alltoall (the reductions
 * and reduce-scatters are in stream_reduce.cu).  Each queues one kernel of one block on the caller's
 * stream that calls the device routine's _block form (the block's threads
 * share the copies and the combining; one group per PE and team at a time,
 * which stream order gives), so it can be captured into a CUDA graph and
 * nothing synchronizes the host.  They return 0 once it is queued: the
 * device routine's checks (team, root, addresses) end the job from the
 * kernel, as they do in any kernel.
 *
 * One generic kernel per family, on bytes: the typed names are stamped
 * from the type table onto the mem forms.
 */
#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime.h>

#include "cuda_archive.h"
#include "cuda_hooks.h" /* gshmemi_cuda_bind: the PE's GPU on the calling thread */
#include "gshmem_device.h"

#define STREAM_THREADS 512u

/* The host form of a team collective (gsd/coll.h): its kernel was queued on
 * the default stream by the _on_stream routine that returned rc; that
 * stream done, rc.  A failed kernel (a device routine's check ends it) ends
 * the job here with one line naming fn. */
extern "C" int gshmemi_coll_host_wait(const char *fn, int rc)
{
    cudaError_t e = cudaStreamSynchronize(0);

    if (e != cudaSuccess) {
        gsd_cuda_report(fn, "%s", cudaGetErrorString(e));
        gsd_cuda_exit_failed();
    }
    return rc;
}

enum { OS_BARRIER, OS_TEAM_SYNC };

static __global__ void team_k(int op, gshmem_team_t team)
{
    if (op == OS_BARRIER)
        gshmem_barrier(team);
    else
        gshmem_team_sync(team);
}

extern "C" int gshmemx_barrier_on_stream(gshmem_team_t team, cudaStream_t stream)
{
    gshmemi_cuda_bind();
    team_k<<<1, 1, 0, stream>>>(OS_BARRIER, team);
    gsd_cuda_check_launch("gshmemx_barrier_on_stream");
    return 0;
}

extern "C" int gshmemx_team_sync_on_stream(gshmem_team_t team, cudaStream_t stream)
{
    gshmemi_cuda_bind();
    team_k<<<1, 1, 0, stream>>>(OS_TEAM_SYNC, team);
    gsd_cuda_check_launch("gshmemx_team_sync_on_stream");
    return 0;
}

static __global__ void barrier_all_k(int sync)
{
    if (sync)
        gshmem_sync_all();
    else
        gshmem_barrier_all();
}

extern "C" void gshmemx_barrier_all_on_stream(cudaStream_t stream)
{
    gshmemi_cuda_bind();
    barrier_all_k<<<1, 1, 0, stream>>>(0);
    gsd_cuda_check_launch("gshmemx_barrier_all_on_stream");
}

extern "C" void gshmemx_sync_all_on_stream(cudaStream_t stream)
{
    gshmemi_cuda_bind();
    barrier_all_k<<<1, 1, 0, stream>>>(1);
    gsd_cuda_check_launch("gshmemx_sync_all_on_stream");
}

/* ---- broadcast, fcollect, alltoall, on bytes ------------------------------ */

enum { OS_BCAST, OS_FCOLLECT, OS_ALLTOALL };

static __global__ void copy_k(int op, gshmem_team_t team, void *dest, const void *source,
                              size_t nbytes, int root)
{
    switch (op) {
    case OS_BCAST: gshmemx_broadcastmem_block(team, dest, source, nbytes, root); break;
    case OS_FCOLLECT: gshmemx_fcollectmem_block(team, dest, source, nbytes); break;
    default: gshmemx_alltoallmem_block(team, dest, source, nbytes); break;
    }
}

static int copy_on_stream(int op, gshmem_team_t team, void *dest, const void *source, size_t nbytes,
                          int root, cudaStream_t stream, const char *fn)
{
    gshmemi_cuda_bind();
    copy_k<<<1, STREAM_THREADS, 0, stream>>>(op, team, dest, source, nbytes, root);
    gsd_cuda_check_launch(fn);
    return 0;
}

/* NAME after gshmemx_ and before _on_stream; SZ bytes an element. */
#define OS_BCAST_FN(NAME, T, SZ)                                                               \
    extern "C" int gshmemx_##NAME##_on_stream(gshmem_team_t team, T *dest, const T *source,    \
                                              size_t nelems, int PE_root, cudaStream_t stream) \
    {                                                                                          \
        return copy_on_stream(OS_BCAST, team, dest, source, nelems * (SZ), PE_root, stream,    \
                              "gshmemx_" #NAME "_on_stream");                                  \
    }
#define OS_COPY_FN(NAME, OP, T, SZ)                                                         \
    extern "C" int gshmemx_##NAME##_on_stream(gshmem_team_t team, T *dest, const T *source, \
                                              size_t nelems, cudaStream_t stream)           \
    {                                                                                       \
        return copy_on_stream(OP, team, dest, source, nelems * (SZ), 0, stream,             \
                              "gshmemx_" #NAME "_on_stream");                               \
    }
#define OS_COLL_TYPED(T, N)                             \
    OS_BCAST_FN(N##_broadcast, T, sizeof(T))            \
    OS_COPY_FN(N##_fcollect, OS_FCOLLECT, T, sizeof(T)) \
    OS_COPY_FN(N##_alltoall, OS_ALLTOALL, T, sizeof(T))
GSD_RMA_TYPES(OS_COLL_TYPED)
OS_BCAST_FN(broadcastmem, void, 1)
OS_COPY_FN(fcollectmem, OS_FCOLLECT, void, 1)
OS_COPY_FN(alltoallmem, OS_ALLTOALL, void, 1)
#undef OS_COLL_TYPED
#undef OS_COPY_FN
#undef OS_BCAST_FN
