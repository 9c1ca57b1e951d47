/*
 * tests/device/capture_watch.c - a program thread captures on-stream calls
 * into a CUDA graph in the global capture mode (torch.cuda.graph's
 * default) for about 3 s while the GPU watcher runs (issue 30): the
 * watcher's queries, every 100 ms, must neither invalidate the capture
 * nor end the job, and the graph must then do what the calls say.  Each
 * round puts round + 1 into slot `round` of the right neighbour's words;
 * a barrier on the stream ends the graph, and every PE checks what its
 * left neighbour put.  On host lanes there is no capture: the on-stream
 * routines run at once, and the check is the same.
 */
#include <gshmem.h>
#include <gshmem_device.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define ROUNDS 300 /* 10 ms apart: about 3 s, 30 of the watcher's ticks */

static void sleep_ms(long ms)
{
    struct timespec t = {0, ms * 1000000L};

    nanosleep(&t, NULL);
}

int main(void)
{
    static long vals[ROUNDS], got[ROUNDS];
    long *words, *src;
    int me, npes, right, fails = 0;
    gshmemx_stream_t s = 0;
#if defined(__CUDACC__)
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    cudaError_t e;
#endif

    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    right = (me + 1) % npes;
    words = (long *)gshmem_calloc(ROUNDS, sizeof(long));
    src = (long *)gshmem_calloc(ROUNDS, sizeof(long));
    if (!words || !src) {
        fprintf(stderr, "capture_watch: gshmem_calloc failed\n");
        shmem_global_exit(2);
    }
    for (int r = 0; r < ROUNDS; r++)
        vals[r] = r + 1;
    gshmemx_memcpy_to_device(src, vals, sizeof(vals));
    shmem_barrier_all();
#if defined(__CUDACC__)
    gshmemi_cuda_bind();
    if (cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess ||
        cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) != cudaSuccess) {
        fprintf(stderr, "FAIL PE %d: cannot begin a capture\n", me);
        shmem_global_exit(1);
    }
#endif
    for (int r = 0; r < ROUNDS; r++) {
        gshmemx_putmem_on_stream(&words[r], &src[r], sizeof(long), right, s);
        sleep_ms(10);
    }
    gshmemx_barrier_all_on_stream(s);
#if defined(__CUDACC__)
    e = cudaStreamEndCapture(s, &graph);
    if (e != cudaSuccess) {
        fprintf(stderr, "FAIL PE %d: cudaStreamEndCapture: %s (the capture was invalidated)\n",
                me, cudaGetErrorString(e));
        shmem_global_exit(1);
    }
    e = cudaGraphInstantiate(&exec, graph, 0);
    if (e == cudaSuccess)
        e = cudaGraphLaunch(exec, s);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(s);
    if (e != cudaSuccess) {
        fprintf(stderr, "FAIL PE %d: the captured graph: %s\n", me, cudaGetErrorString(e));
        shmem_global_exit(1);
    }
#endif
    gshmemx_memcpy_from_device(got, words, sizeof(got));
    for (int r = 0; r < ROUNDS; r++)
        if (got[r] != vals[r] && fails++ < 5)
            fprintf(stderr, "FAIL PE %d: word %d: expected %ld, got %ld\n", me, r, vals[r],
                    got[r]);
    printf("capture_watch: PE %d: %d rounds captured, %s\n", me, ROUNDS,
           fails ? "FAILED" : "all arrived");
    shmem_barrier_all();
    gshmem_free(src);
    gshmem_free(words);
    shmem_finalize();
    return fails ? 1 : 0;
}
