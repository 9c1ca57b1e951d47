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
 * error once there is one.  So the thread asks it every WATCH_MS; the
 * thread, the filter of sticky errors and the stop at exit are
 * watch_loop.c. */
#include "config.h"
#include "gpu/watch.h"

#include <stdio.h>

#include "base/log.h"
#include "core/pe.h"
#include "gpu/cuda/cuda.h"
#include "gpu/cuda/cuda_driver.h"
#include "gpu/watch_loop.h"

/* How often the context is asked: a failure ends the job within this plus
 * the bootstrap's abort, and 10 queries a second cost nothing. */
#define WATCH_MS 100

static CUstream watch_stream; /* ours, always empty */

/* The watcher's thread: this PE's context, and the relaxed capture mode:
 * in the default (global) mode its query, while a user thread captures a
 * stream in global mode (torch.cuda.graph's default), would be refused and
 * would invalidate that capture. */
static void watch_thread_init(void)
{
    CUstreamCaptureMode mode = CU_STREAM_CAPTURE_MODE_RELAXED;

    gsi_cuda_bind_thread();
    GSI_CU(cuThreadExchangeStreamCaptureMode)(&mode);
}

static CUresult watch_query(void)
{
    return GSI_CU(cuStreamQuery)(watch_stream);
}

/* A sticky error: the trap's device printf is flushed by a context
 * synchronize (which returns the same error at once), and stdout before
 * the line and the job's end. */
static void watch_failed(CUresult r)
{
    GSI_CU(cuCtxSynchronize)();
    fflush(stdout);
    gsi_fatal("GPU watcher",
              "the GPU context of this PE failed (a kernel trapped or faulted): %s; "
              "ending the job",
              gsi_cu_error(r));
}

/* Device code asked for the global exit: the GPU thread printed the PE's
 * line before it trapped. */
static void watch_exit_requested(int status)
{
    GSI_CU(cuCtxSynchronize)();
    fflush(stdout);
    gsi_global_exit(status);
}

static const gsi_watch_ops_t watch_ops = {.thread_init = watch_thread_init,
                                          .query = watch_query,
                                          .failed = watch_failed,
                                          .exit_requested = watch_exit_requested};

void gsi_watch_start(const char *fn, const uint64_t *exit_req)
{
    CUresult r;
    int err;

    if (!gsi_cuda.ctx || watch_stream)
        return; /* host lanes, or already watching */
    gsi_cuda_bind_thread();
    r = GSI_CU(cuStreamCreate)(&watch_stream, CU_STREAM_NON_BLOCKING);
    if (r != CUDA_SUCCESS)
        gsi_fatal(fn, "the GPU watcher's stream: cuStreamCreate: %s", gsi_cu_error(r));
    err = gsi_watch_loop_start(&watch_ops, exit_req, WATCH_MS);
    if (err != 0)
        goto err_stream;
    return;

err_stream:
    GSI_CU(cuStreamDestroy)(watch_stream);
    watch_stream = NULL;
    gsi_fatal(fn, "cannot start the GPU watcher thread: error %d", err);
}

void gsi_watch_stop(void)
{
    if (!watch_stream)
        return;
    gsi_watch_loop_stop();
    GSI_CU(cuStreamDestroy)(watch_stream);
    watch_stream = NULL;
}
