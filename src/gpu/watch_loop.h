/* src/gpu/watch_loop.h - the GPU watcher's logic (watch.c is its CUDA
 * half): a thread that asks the context's state every period, ends the job
 * on a sticky error, honours device gshmem_global_exit's request word, and
 * is stopped by gsi_watch_loop_stop or, at the latest, at process exit.
 * Driven through function pointers so that tests/unit/gpu_watch.c runs it
 * with a fake query and no GPU. */
#ifndef GSI_WATCH_LOOP_H
#define GSI_WATCH_LOOP_H

#include <stdint.h>
#include <cuda.h>

typedef struct gsi_watch_ops {
    void (*thread_init)(void);          /* first, on the watcher's thread */
    CUresult (*query)(void);            /* the context's state, never waits */
    void (*failed)(CUresult r);         /* a sticky error: ends the job */
    void (*exit_requested)(int status); /* device global_exit: ends the job */
} gsi_watch_ops_t;

/* Whether r leaves the context unusable for good ("sticky": a kernel
 * trapped or faulted, an uncorrectable memory error, unknown).  Errors of
 * the call alone are not: a capture that the call invalidated or was not
 * permitted in, NOT_READY, a context being torn down. */
int gsi_cu_error_is_sticky(CUresult r);

/* Starts the thread (0, or the pthread_create error).  exit_req: a word
 * whose GSD_EXIT_REQUESTED bit asks for exit_requested(low 32 bits); read
 * every tick and once more before a failure is reported.  The first start
 * registers an atexit handler that stops and joins the thread, so a
 * program that exits without shmem_finalize is not reported as a failed
 * context when the driver's own exit handlers tear it down. */
int gsi_watch_loop_start(const gsi_watch_ops_t *ops, const uint64_t *exit_req, long period_ms);
/* Stops and joins it; safe when it is not running, and from the watcher
 * itself (then it only asks it to stop). */
void gsi_watch_loop_stop(void);

#endif
