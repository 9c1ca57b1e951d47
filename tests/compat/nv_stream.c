/*
 * tests/compat/nv_stream.c - NVSHMEM's stream-ordered host calls: a kernel
 * fills a buffer, nvshmemx_putmem_on_stream sends it to the right PE,
 * nvshmemx_quiet_on_stream and nvshmemx_barrier_all_on_stream order it, and
 * nvshmemx_signal_op_on_stream / nvshmemx_signal_wait_until_on_stream pass
 * a signal around the ring.  On a GPU the calls are queued on the stream
 * and the program synchronizes it; on host lanes they run at once.
 */
#include "nv_test.h"

#include <stdint.h>

#define N 2048u

struct fill_args {
    int *src;
    int base;
};

GSHMEM_KERNEL(fill, struct fill_args, a)
{
    for (unsigned i = gshmemx_thread_id(); i < N; i += gshmemx_block_threads())
        a.src[i] = a.base + (int)i;
}

int main(void)
{
    stream_t s = 0;

    nvshmem_init();
    int me = nvshmem_my_pe(), npes = nvshmem_n_pes();
    int right = (me + 1) % npes, left = (me + npes - 1) % npes;
    struct fill_args fa;
    int *dst = (int *)nvshmem_calloc(N, sizeof(int));
    uint64_t *sig = (uint64_t *)nvshmem_calloc(1, sizeof(uint64_t));
    fa.src = (int *)nvshmem_malloc(N * sizeof(int));
    fa.base = me * 100000;
    NV_CHECK("nvshmem_malloc != NULL", 0, 1, dst && sig && fa.src);
    NV_CHECK("GSHMEM_LAUNCH(fill)", 0, 0, GSHMEM_LAUNCH(fill, 1, 64, fa));

    nvshmemx_putmem_on_stream(dst, fa.src, N * sizeof(int), right, s);
    nvshmemx_quiet_on_stream(s);
    nvshmemx_barrier_all_on_stream(s);
    nvshmemx_signal_op_on_stream(sig, (uint64_t)me + 1, NVSHMEM_SIGNAL_SET, right, s);
    nvshmemx_signal_wait_until_on_stream(sig, NVSHMEM_CMP_EQ, (uint64_t)left + 1, s);
    STREAM_SYNC(s);

    for (unsigned i = 0; i < N; i++)
        NV_CHECK("dst (nvshmemx_putmem_on_stream from the left)", i, left * 100000 + (int)i,
                 nvshmem_int_g(dst + i, me));
    NV_CHECK("sig (nvshmemx_signal_op_on_stream from the left)", 0, left + 1,
             (long long)nvshmem_signal_fetch(sig));

    nvshmem_barrier_all();
    nvshmem_free(fa.src);
    nvshmem_free(sig);
    nvshmem_free(dst);
    int rc = nv_done("nv_stream");
    nvshmem_finalize();
    return rc;
}
