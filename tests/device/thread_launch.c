/*
 * tests/device/thread_launch.c - kernels launched from a thread other than
 * the one that called shmem_init (issue 17).  On a GPU the PE's context is
 * current only on threads the library has bound, so a launch or an
 * *_on_stream call from a fresh pthread used the CUDA runtime's own
 * current device; the archive now binds the PE's GPU first
 * (gshmemi_cuda_bind).  Host lanes cannot show that difference: here it
 * checks that a launch from a second thread runs and moves data (each
 * lane p's its PE number into its right neighbour's block).  On a GPU,
 * tests/gpu/run.sh runs it as CUDA (compiled here, not run).
 */
#include <pthread.h>

#include "dev_test.h"

#define N 96

typedef struct ring_args {
    int *buf; /* [N] */
    int me, right;
} ring_args_t;

GSHMEM_KERNEL(ring_kernel, ring_args_t, a)
{
    int i;

    for (i = (int)gshmemx_thread_id(); i < N; i += (int)gshmemx_block_threads())
        gshmem_int_p(&a.buf[i], a.me * 1000 + i, a.right);
    gshmem_quiet();
}

static ring_args_t args;
static int launch_rc = -1;

static void *launcher(void *unused)
{
    (void)unused;
    launch_rc = GSHMEM_LAUNCH(ring_kernel, 1, dt_threads(), args);
    return NULL;
}

int main(void)
{
    pthread_t t;
    int prov = -1, left, i, bad = 0, rc, *got;

    shmem_init_thread(SHMEM_THREAD_MULTIPLE, &prov);
    pt_setup();
    if (prov < SHMEM_THREAD_SERIALIZED)
        return pt_skip("SHMEM_THREAD_SERIALIZED is not provided");
    dt_me = pt_me;
    dt_npes = pt_npes;
    dt_fails = (uint64_t *)gshmem_calloc(1, sizeof(uint64_t));
    PT_CHECK("gshmem_calloc", dt_fails != NULL, "the device failure counter");
    if (!dt_fails)
        return pt_finish();
    left = (dt_me + dt_npes - 1) % dt_npes;
    args.buf = (int *)dt_malloc(N * sizeof(int));
    args.me = dt_me;
    args.right = (dt_me + 1) % dt_npes;
    dt_fill(args.buf, 0, N * sizeof(int));
    shmem_barrier_all();

    rc = pthread_create(&t, NULL, launcher, NULL);
    PT_CHECK_EQ("pthread_create", 0, rc);
    if (rc == 0)
        pthread_join(t, NULL);
    PT_CHECK_EQ_F("GSHMEM_LAUNCH", 0, launch_rc, "from a second thread");
    shmem_barrier_all();
    got = (int *)dt_copy_back(args.buf, N * sizeof(int));
    for (i = 0; i < N; i++)
        bad += got[i] != left * 1000 + i;
    PT_CHECK_EQ_F("gshmem_int_p", 0, bad,
                  "ints from PE %d's kernel (launched on a second thread)", left);
    free(got);
    shmem_barrier_all();
    gshmem_free(args.buf);
    return dt_finish();
}
