/* src/wait.h - how every wait polls: spin briefly, then yield the CPU so that
 * more PEs than cores still make progress, and report a wait that outlives
 * GSHMEM_WAIT_TIMEOUT. */
#ifndef GSI_WAIT_H
#define GSI_WAIT_H

#include <sched.h>
#include <stdint.h>
#include "pe.h"

typedef struct gsi_waiter {
    unsigned polls;
    unsigned long long deadline_ns;  /* 0: not yet computed */
} gsi_waiter_t;

#define GSI_WAITER_INIT {0, 0}

static inline void gsi_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield" ::: "memory");
#endif
}

/* CLOCK_MONOTONIC in nanoseconds: the clock of every timeout and idle
 * policy of the core. */
uint64_t gsi_now_ns(void);

/* Past the spin budget: yield, and check the timeout now and then. */
void gsi_wait_slow(gsi_waiter_t *w, const char *fn, const char *what);

/* Polls re-read at full speed before pausing: a store already on its way
 * from another core lands within them, and a pause would only delay it. */
#define GSI_WAIT_TIGHT 64

/* One poll of a wait loop: for (...; !done; gsi_wait_step(&w, fn, what)); */
static inline void gsi_wait_step(gsi_waiter_t *w, const char *fn, const char *what)
{
    unsigned polls = ++w->polls;

    if (gsi_pe.net_progress)
        gsi_pe.net_progress();
    if (polls >= gsi_pe.spin)
        gsi_wait_slow(w, fn, what);
    else if (polls > GSI_WAIT_TIGHT)
        gsi_cpu_relax();
}

#endif
