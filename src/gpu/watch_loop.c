/* src/gpu/watch_loop.c - the GPU watcher's logic (watch_loop.h): the
 * thread, the sticky-error filter, the exit request, the stop at exit.
 * Run by tests/unit/gpu_watch.c with a fake query; on a GPU by watch.c. */
#include "config.h"
#include "gpu/watch_loop.h"

#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "gsd/state.h"

static struct {
    pthread_t thread;
    gsi_watch_ops_t ops;
    const uint64_t *exit_req;
    long period_ms;
    int running;     /* the thread exists (starting/stopping threads only) */
    int stop;        /* atomic: set by gsi_watch_loop_stop */
    int atexit_done; /* the exit handler is registered */
} loop;

int gsi_cu_error_is_sticky(CUresult r)
{
    switch (r) {
    case CUDA_ERROR_ILLEGAL_ADDRESS:
    case CUDA_ERROR_ILLEGAL_INSTRUCTION:
    case CUDA_ERROR_LAUNCH_FAILED:
    case CUDA_ERROR_LAUNCH_TIMEOUT:
    case CUDA_ERROR_MISALIGNED_ADDRESS:
    case CUDA_ERROR_INVALID_ADDRESS_SPACE:
    case CUDA_ERROR_INVALID_PC:
    case CUDA_ERROR_HARDWARE_STACK_ERROR:
    case CUDA_ERROR_ASSERT:
    case CUDA_ERROR_ECC_UNCORRECTABLE:
    case CUDA_ERROR_NVLINK_UNCORRECTABLE:
    case CUDA_ERROR_CONTAINED:
    case CUDA_ERROR_EXTERNAL_DEVICE:
    case CUDA_ERROR_UNKNOWN: return 1;
    default: return 0;
    }
}

static void exit_if_requested(void)
{
    uint64_t req = __atomic_load_n(loop.exit_req, __ATOMIC_ACQUIRE);

    if (req & GSD_EXIT_REQUESTED)
        loop.ops.exit_requested((int)(uint32_t)req);
}

static int stopping(void)
{
    return __atomic_load_n(&loop.stop, __ATOMIC_ACQUIRE);
}

static void *loop_main(void *unused)
{
    struct timespec tick = {loop.period_ms / 1000, (loop.period_ms % 1000) * 1000000L};
    CUresult r;

    (void)unused;
    if (loop.ops.thread_init)
        loop.ops.thread_init();
    while (!stopping()) {
        nanosleep(&tick, NULL);
        if (stopping())
            break;
        exit_if_requested();
        r = loop.ops.query();
        /* An error of this call alone (a capture it was not permitted in,
         * a context going away) is not a failed context: ask again. */
        if (!gsi_cu_error_is_sticky(r))
            continue;
        /* stop was set while the context was being torn down: not a failure. */
        if (stopping())
            break;
        /* The trap of a global exit that came after this tick's first read. */
        exit_if_requested();
        loop.ops.failed(r);
    }
    return NULL;
}

static void stop_at_exit(void)
{
    gsi_watch_loop_stop();
}

int gsi_watch_loop_start(const gsi_watch_ops_t *ops, const uint64_t *exit_req, long period_ms)
{
    int err;

    if (loop.running)
        return 0;
    loop.ops = *ops;
    loop.exit_req = exit_req;
    loop.period_ms = period_ms;
    __atomic_store_n(&loop.stop, 0, __ATOMIC_RELEASE);
    /* Registered after cuInit's own exit handlers, so it runs before them. */
    if (!loop.atexit_done && atexit(stop_at_exit) == 0)
        loop.atexit_done = 1;
    err = pthread_create(&loop.thread, NULL, loop_main, NULL);
    if (err != 0)
        return err;
    loop.running = 1;
    return 0;
}

void gsi_watch_loop_stop(void)
{
    if (!loop.running)
        return;
    __atomic_store_n(&loop.stop, 1, __ATOMIC_RELEASE);
    if (pthread_equal(pthread_self(), loop.thread))
        return; /* exit() from the watcher itself: it stops once it returns */
    pthread_join(loop.thread, NULL);
    loop.running = 0;
}
