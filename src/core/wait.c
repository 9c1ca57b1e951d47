/* src/core/wait.c - the slow half of a wait: yield and watch the clock. */
#include "core/wait.h"

#include "base/log.h"
#include "core/liveness.h"

void gsi_wait_slow(gsi_waiter_t *w, const char *fn, const char *what)
{
    sched_yield();
    gsi_wait_check(w, fn, what);
}

/* deadline_ns is the next moment the clock matters: odd, the warning
 * (GSHMEM_WAIT_WARN), even, the timeout (GSHMEM_WAIT_TIMEOUT); NEVER, none
 * left.  So the waiter stays three words, and nothing of this reaches the
 * polls between two checks. */
#define NEVER (~0ULL - 1)

static unsigned long long ns(long long s)
{
    return (unsigned long long)s * 1000000000ULL;
}

void gsi_wait_check(gsi_waiter_t *w, const char *fn, const char *what)
{
    long long timeout = gsi_pe.env.wait_timeout, warn = gsi_pe.env.wait_warn;
    unsigned long long now;
    char seen[192];

    if ((w->polls & 255) || (w->deadline_ns == NEVER && !gsi_pe.env.fail_check))
        return;
    now = gsi_now_ns();
    if (!w->deadline_ns) {
        gsi_live_check(now, 1, 1, fn, what);
        if (warn && (!timeout || warn < timeout))
            w->deadline_ns = (now + ns(warn)) | 1;
        else
            w->deadline_ns = timeout ? (now + ns(timeout)) & ~1ULL : NEVER;
        return;
    }
    /* idle counts the polls since the network last had work for this PE:
     * fewer than the 256 between two checks, and it had some since the
     * last one. */
    gsi_live_check(now, 0, w->idle >= 256, fn, what);
    if (now <= w->deadline_ns || w->deadline_ns == NEVER)
        return;
    if (w->deadline_ns & 1) {
        /* A long wait says what it waits for early, once: a peer that
         * never comes is seen minutes before the timeout ends the job;
         * where the others were last seen tells which. */
        gsi_live_describe(fn, seen, sizeof(seen));
        GSI_WARN("%s: still waiting after %lld s for %s%s", fn, warn, what, seen);
        w->deadline_ns = timeout ? (w->deadline_ns - ns(warn) + ns(timeout)) & ~1ULL : NEVER;
        return;
    }
    /* A peer that never comes (a skipped barrier, a PE stopped or stuck)
     * would hang the job forever; a wait this long ends it with what it
     * waited for.  The default is generous; a program that legitimately
     * waits longer (one PE computing alone) sets it higher, or 0. */
    gsi_fatal(fn,
              "waited more than GSHMEM_WAIT_TIMEOUT=%lld s for %s (raise it, or 0 waits "
              "without a limit)",
              timeout, what);
}
