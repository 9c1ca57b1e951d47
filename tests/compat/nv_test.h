/*
 * tests/compat/nv_test.h - the checks of the NVSHMEM-named test programs.
 *
 * These programs are written the way an NVSHMEM program is, through
 * <gshmem/compat/nvshmem.h>; gshmem's own names appear only where NVSHMEM
 * has no portable spelling: kernels are GSHMEM_KERNEL / GSHMEM_LAUNCH (a
 * kernel written once for CUDA and host lanes) and thread indices are
 * gshmemx_thread_id() / gshmemx_block_threads() (threadIdx.x, blockDim.x).
 * Each program's exit status is its verdict: 0 pass, 1 fail.
 */
#ifndef NV_TEST_H
#define NV_TEST_H

#include <gshmem/compat/nvshmem.h>
#include <stdio.h>

static int nv_fails;

/* A stream as the _on_stream routines take it: CUDA's, or on host lanes
 * gshmemx_stream_t (their calls are done on return). */
#if defined(__CUDACC__)
typedef cudaStream_t stream_t;
#define STREAM_SYNC(s) cudaStreamSynchronize(s)
#else
typedef void *stream_t; /* host lanes: gshmemx_stream_t */
#define STREAM_SYNC(s) ((void)(s))
#endif

/* NV_CHECK(what, idx, expected, actual): print both values on a mismatch
 * (the first 10 of each PE). */
#define NV_CHECK(what, idx, exp, act)                                                          \
    do {                                                                                       \
        long long nv_e_ = (long long)(exp), nv_a_ = (long long)(act);                          \
        if (nv_e_ != nv_a_ && nv_fails++ < 10)                                                 \
            fprintf(stderr, "FAIL PE %d: %s[%d] (%s:%d): expected %lld, got %lld\n",           \
                    nvshmem_my_pe(), (what), (int)(idx), __FILE__, __LINE__, nv_e_, nv_a_);    \
    } while (0)

/* The verdict, printed once per PE. */
static inline int nv_done(const char *prog)
{
    int me = nvshmem_my_pe();

    if (nv_fails)
        fprintf(stderr, "%s: PE %d: %d checks failed\n", prog, me, nv_fails);
    else if (me == 0)
        printf("%s: ok on %d PEs\n", prog, nvshmem_n_pes());
    return nv_fails ? 1 : 0;
}

#endif /* NV_TEST_H */
