/* src/gpu/watch.h - the GPU watcher: a thread that notices, without
 * waiting for any kernel, that this PE's GPU context has failed (a kernel
 * trapped, e.g. a device-side fatal error, or faulted) and ends the whole
 * job with one line naming the PE and the CUDA error.  Without it a trap
 * on one PE leaves its peers spinning in device waits until their own
 * GSHMEM_DEVICE_WAIT_TIMEOUT (300 s by default).
 *
 * It also ends the job for device code's gshmem_global_exit: a GPU thread
 * stores GSD_EXIT_REQUESTED | status in a word of mapped host memory
 * (gsd_state_t.exit_req) and then traps; the watcher reads the word every
 * tick and, before it reports a failed context, once more, so the job ends
 * with that status and not as a failure.
 *
 * Started by gsi_device_init once the GPU backend is up, stopped by
 * gsi_device_fini before the context goes; both are no-ops on host lanes
 * (a lane's fatal error ends the job itself) and in builds without CUDA. */
#ifndef GSI_WATCH_H
#define GSI_WATCH_H

#ifdef GSHMEM_HAVE_CUDA
#include <stdint.h>

/* Starts the thread when this PE uses a GPU; a failure to start it is
 * fatal (fn names the caller in the line).  exit_req: the host's address
 * of the device state's exit word (see above). */
void gsi_watch_start(const char *fn, const uint64_t *exit_req);
/* Stops and joins it; safe when it was never started. */
void gsi_watch_stop(void);
#else
static inline void gsi_watch_start(const char *fn, const uint64_t *exit_req)
{
    (void)fn;
    (void)exit_req;
}
static inline void gsi_watch_stop(void)
{
}
#endif

#endif
