/* src/core/wait.c - the slow half of a wait: yield and watch the clock. */
#include "core/wait.h"

#include <time.h>

#include "base/log.h"

uint64_t gsi_now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void gsi_wait_slow(gsi_waiter_t *w, const char *fn, const char *what)
{
    sched_yield();
    gsi_wait_check(w, fn, what);
}

void gsi_wait_check(gsi_waiter_t *w, const char *fn, const char *what)
{
    if (!gsi_pe.env.wait_timeout || (w->polls & 255))
        return;
    if (!w->deadline_ns) {
        w->deadline_ns = gsi_now_ns() + (unsigned long long)gsi_pe.env.wait_timeout * 1000000000ULL;
        return;
    }
    /* A peer that never comes (a skipped barrier, a PE stopped or stuck)
     * would hang the job forever; a wait this long ends it with what it
     * waited for.  The default is generous; a program that legitimately
     * waits longer (one PE computing alone) sets it higher, or 0. */
    if (gsi_now_ns() > w->deadline_ns)
        gsi_fatal(fn,
                  "waited more than GSHMEM_WAIT_TIMEOUT=%lld s for %s (raise it, or 0 waits "
                  "without a limit)",
                  gsi_pe.env.wait_timeout, what);
}
