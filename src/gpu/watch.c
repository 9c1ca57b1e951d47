/* src/gpu/watch.c - the GPU watcher (watch.h).  Compiled, not run: the
 * development machine has no GPU.
 *
 * How a failed context is seen without blocking: an error that corrupts a
 * context (CUDA_ERROR_ILLEGAL_ADDRESS, _ILLEGAL_INSTRUCTION from __trap,
 * _LAUNCH_FAILED, ...) is "sticky": from the moment the GPU raises it every
 * driver call on that context returns it, whichever stream it names.
 * cuStreamQuery on a stream of our own, to which nothing is ever queued,
 * returns CUDA_SUCCESS at once while the context is healthy, never waits
 * for the program's kernels (the stream is non-blocking, so it is not
 * ordered with the legacy default stream either), and returns the sticky
 * error once there is one.  So the thread asks it every WATCH_MS. */
#include "config.h"
#include "gpu/watch.h"

#include <pthread.h>
#include <time.h>

#include "base/log.h"
#include "core/pe.h"
#include "gpu/cuda/cuda.h"
#include "gpu/cuda/cuda_driver.h"

/* How often the context is asked: a failure ends the job within this plus
 * the bootstrap's abort, and 10 queries a second cost nothing. */
#define WATCH_MS 100

static struct {
    pthread_t thread;
    CUstream stream;          /* ours, always empty */
    const uint64_t *exit_req; /* device gshmem_global_exit's word (watch.h) */
    int running;              /* the thread exists (init/fini thread only) */
    int stop;                 /* atomic: set by gsi_watch_stop */
} watch;

/* Device code asked for the global exit: end the job with its status.  The
 * GPU thread printed the PE's line before it trapped. */
static void exit_if_requested(void)
{
    uint64_t req = __atomic_load_n(watch.exit_req, __ATOMIC_ACQUIRE);

    if (req & GSD_EXIT_REQUESTED)
        gsi_global_exit((int)(uint32_t)req);
}

static void *watch_main(void *unused)
{
    struct timespec tick = {0, WATCH_MS * 1000000L};
    CUresult r;

    (void)unused;
    gsi_cuda_bind_thread();
    while (!__atomic_load_n(&watch.stop, __ATOMIC_ACQUIRE)) {
        nanosleep(&tick, NULL);
        exit_if_requested();
        r = GSI_CU(cuStreamQuery)(watch.stream);
        /* NOT_READY cannot happen on an empty stream; taken as healthy. */
        if (r == CUDA_SUCCESS || r == CUDA_ERROR_NOT_READY)
            continue;
        /* stop was set while the context was being torn down: not a failure. */
        if (__atomic_load_n(&watch.stop, __ATOMIC_ACQUIRE))
            break;
        /* The trap of a global exit that came after this tick's first read. */
        exit_if_requested();
        gsi_fatal("GPU watcher",
                  "the GPU context of this PE failed (a kernel trapped or faulted): %s; "
                  "ending the job",
                  gsi_cu_error(r));
    }
    return NULL;
}

void gsi_watch_start(const char *fn, const uint64_t *exit_req)
{
    CUresult r;
    int err;

    if (!gsi_cuda.ctx || watch.running)
        return; /* host lanes, or already watching */
    gsi_cuda_bind_thread();
    r = GSI_CU(cuStreamCreate)(&watch.stream, CU_STREAM_NON_BLOCKING);
    if (r != CUDA_SUCCESS)
        gsi_fatal(fn, "the GPU watcher's stream: cuStreamCreate: %s", gsi_cu_error(r));
    watch.exit_req = exit_req;
    __atomic_store_n(&watch.stop, 0, __ATOMIC_RELEASE);
    err = pthread_create(&watch.thread, NULL, watch_main, NULL);
    if (err != 0)
        goto err_stream;
    watch.running = 1;
    return;

err_stream:
    GSI_CU(cuStreamDestroy)(watch.stream);
    watch.stream = NULL;
    gsi_fatal(fn, "cannot start the GPU watcher thread: error %d", err);
}

void gsi_watch_stop(void)
{
    if (!watch.running)
        return;
    __atomic_store_n(&watch.stop, 1, __ATOMIC_RELEASE);
    pthread_join(watch.thread, NULL);
    GSI_CU(cuStreamDestroy)(watch.stream);
    watch.stream = NULL;
    watch.running = 0;
}
