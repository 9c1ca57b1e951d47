/*
 * gsd/poll.h - every device-side wait loop: pause politely, and end the job
 * with a report of which wait, on which PE, the value expected and the
 * value seen, once GSHMEM_DEVICE_WAIT_TIMEOUT has passed.
 */
#ifndef GSD_POLL_H
#define GSD_POLL_H

#include <stdint.h>

#include "arch.h"
#include "fatal.h"

typedef struct gsd_poll {
    unsigned polls;
    uint64_t start_ns; /* 0 until the first slow poll */
} gsd_poll_t;

#define GSD_POLL_INIT \
    {                 \
        0, 0          \
    }

/* The clock is read once every 1024 polls only. */
GSD_FN void gsd_poll_step(gsd_poll_t *w, const char *fn, const char *what, const void *addr,
                          const char *cmp, uint64_t expected, uint64_t seen)
{
    gsd_pause(&w->polls);
    if (GSD_LIKELY((w->polls & 1023u) != 0 || GSD_STATE.wait_timeout_ns == 0))
        return;
    if (w->start_ns == 0) {
        w->start_ns = gsd_clock_ns();
        return;
    }
    if (GSD_UNLIKELY(gsd_clock_ns() - w->start_ns > GSD_STATE.wait_timeout_ns))
        GSD_FATAL(fn,
                  "%s at %p did not reach %s %llu within GSHMEM_DEVICE_WAIT_TIMEOUT "
                  "(%llu s): it holds %llu",
                  what, addr, cmp, (unsigned long long)expected,
                  (unsigned long long)(GSD_STATE.wait_timeout_ns / 1000000000ull),
                  (unsigned long long)seen);
}

#endif /* GSD_POLL_H */
