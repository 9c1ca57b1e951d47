/* src/core/wait.h - how every wait polls: spin briefly, then yield the CPU so that
 * more PEs than cores still make progress, and report a wait that outlives
 * GSHMEM_WAIT_TIMEOUT. */
#ifndef GSI_WAIT_H
#define GSI_WAIT_H

#include <sched.h>
#include <stdint.h>

#include "base/clock.h"
#include "core/pe.h"

typedef struct gsi_waiter {
    unsigned polls;                 /* all of them: the timeout's clock */
    unsigned idle;                  /* since the network last had work for this PE */
    unsigned long long deadline_ns; /* next check of the clock (wait.c); 0: not yet computed */
} gsi_waiter_t;

#define GSI_WAITER_INIT \
    {                   \
        0, 0, 0         \
    }

static inline void gsi_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield" ::: "memory");
#endif
}

/* Past the spin budget: yield, and check the timeout now and then. */
void gsi_wait_slow(gsi_waiter_t *w, const char *fn, const char *what);

/* Say once what a wait still waits for after GSHMEM_WAIT_WARN, and report
 * a wait that outlived GSHMEM_WAIT_TIMEOUT (checks the clock on every
 * 256th poll). */
void gsi_wait_check(gsi_waiter_t *w, const char *fn, const char *what);

/* Polls re-read at full speed before pausing: a store already on its way
 * from another core lands within them, and a pause would only delay it. */
#define GSI_WAIT_TIGHT 64

/* One poll of a wait loop: for (...; !done; gsi_wait_step(&w, fn, what)); */
static inline void gsi_wait_step(gsi_waiter_t *w, const char *fn, const char *what)
{
    unsigned idle = ++w->idle;

    w->polls++;
    if (gsi_pe.net_progress && gsi_pe.net_progress()) {
        /* Serving peers' operations: a yield now would delay the next
         * answer (a TCP get from a PE waiting in a barrier took 11.8 us
         * with a yield per poll, 10.5 us without), so the spin budget
         * starts again. */
        w->idle = 0;
        gsi_wait_check(w, fn, what);
        return;
    }
    if (idle >= gsi_pe.spin)
        gsi_wait_slow(w, fn, what);
    else if (idle > GSI_WAIT_TIGHT)
        gsi_cpu_relax();
}

#endif
