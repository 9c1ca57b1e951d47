/* src/base/clock.h - CLOCK_MONOTONIC in nanoseconds: the clock of every
 * timeout and idle policy, in the core (waits, liveness, the proxy) and in
 * the transports below it (gst_verbs' wait bound). */
#ifndef GSI_CLOCK_H
#define GSI_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline uint64_t gsi_now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

#endif
