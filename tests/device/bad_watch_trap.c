/*
 * tests/device/bad_watch_trap.c - only the GPU watcher can end this job
 * (issue 30): the last PE starts a kernel that traps (GSD_FATAL) on a
 * non-blocking stream of its own and never synchronizes it; its host then
 * waits in shmem_barrier_all, which the other PEs never enter (they wait
 * for a word nobody sets).  No host thread is in a CUDA call that could
 * see the error, so the job ends only when the watcher finds the failed
 * context; before it exits it synchronizes the context, which flushes the
 * kernel's printf, so the trap's line below must be in the output.  On
 * host lanes the kernel runs on a second host thread and the lane's fatal
 * path ends the job with the same line.  EXPECT_WITHIN: the watcher asks
 * every 100 ms; the waits' own timeouts are 600 s.
 */
/* EXPECT: gshmem: PE [0-9]+: bad_watch_trap: PE [0-9]+ traps on a non-blocking stream */
/* EXPECT_WITHIN: 30 */
#include <gshmem.h>
#include <gshmem_device.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

GSHMEM_KERNEL(watch_trap_kernel, int, me)
{
    GSD_FATAL("bad_watch_trap", "PE %d traps on a non-blocking stream", me);
}

#if !defined(__CUDACC__)
static void *launcher(void *arg)
{
    GSHMEM_LAUNCH(watch_trap_kernel, 1, 1, *(int *)arg);
    return NULL;
}
#endif

/* Starts the trapping kernel and returns without waiting for it. */
static void start_trap(int *me)
{
#if defined(__CUDACC__)
    cudaStream_t s;

    gshmemi_cuda_bind(); /* the PE's GPU on this thread */
    if (cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess) {
        fprintf(stderr, "bad_watch_trap: cudaStreamCreateWithFlags failed\n");
        shmem_global_exit(2);
    }
    watch_trap_kernel<<<1, 1, 0, s>>>(*me);
#else
    pthread_t t;

    if (pthread_create(&t, NULL, launcher, me) != 0) {
        fprintf(stderr, "bad_watch_trap: pthread_create failed\n");
        shmem_global_exit(2);
    }
#endif
}

int main(void)
{
    static int me;
    long *never;

    setenv("GSHMEM_WAIT_TIMEOUT", "600", 1);
    setenv("GSHMEM_DEVICE_WAIT_TIMEOUT", "600", 1);
    shmem_init();
    me = shmem_my_pe();
    never = (long *)shmem_calloc(1, sizeof(long));
    if (never == NULL) {
        fprintf(stderr, "bad_watch_trap: shmem_calloc failed\n");
        shmem_global_exit(2);
    }
    shmem_barrier_all();
    if (me == shmem_n_pes() - 1) {
        start_trap(&me);
        shmem_barrier_all(); /* the other PEs never come (one PE: at once) */
    }
    shmem_long_wait_until(never, SHMEM_CMP_EQ, 1); /* nobody sets it */
    fprintf(stderr, "bad_watch_trap: PE %d: the wait returned: the job went on\n", me);
    return 1;
}
