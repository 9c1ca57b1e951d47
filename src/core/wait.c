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
    if (gsi_now_ns() > w->deadline_ns)
        gsi_fatal(fn, "waited more than GSHMEM_WAIT_TIMEOUT=%lld s for %s", gsi_pe.env.wait_timeout,
                  what);
}
