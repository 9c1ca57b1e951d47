/* bootstrap/wait.c - the bounded waits of bootstrap collectives
 * (bootstrap.h): a rank that never reaches an allgather fails the others'
 * after GSHMEM_WAIT_TIMEOUT, as the core's waits do, instead of holding
 * them in the launcher's fence forever. */
#include "bootstrap.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <time.h>

static long long limit_s, warn_after_s;
static gsb_still_waiting_fn_t still_waiting;

void gsb_set_wait_limits(long long timeout_s, long long warn_s, gsb_still_waiting_fn_t warn)
{
    limit_s = timeout_s > 0 ? timeout_s : 0;
    warn_after_s = warn_s > 0 ? warn_s : 0;
    still_waiting = warn;
}

static int64_t now_ms(clockid_t clock)
{
    struct timespec ts;

    clock_gettime(clock, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void gsb_wait_begin(gsb_wait_t *w)
{
    w->start_ms = now_ms(CLOCK_MONOTONIC);
    w->warned = !still_waiting || !warn_after_s || (limit_s && warn_after_s >= limit_s);
}

/* The next moment this wait must wake (ms, CLOCK_MONOTONIC; -1: none),
 * saying "still waiting" once on the way; -ETIMEDOUT past the timeout. */
static int next_wake(gsb_wait_t *w, const char *bootstrap, const char *what, int64_t now,
                     int64_t *next)
{
    *next = -1;
    if (limit_s && now - w->start_ms >= limit_s * 1000) {
        gsb_set_error("%s: waited more than GSHMEM_WAIT_TIMEOUT=%lld s for %s (raise it, or 0 "
                      "waits without a limit)",
                      bootstrap, limit_s, what);
        return -ETIMEDOUT;
    }
    if (!w->warned && now - w->start_ms >= warn_after_s * 1000) {
        w->warned = 1;
        still_waiting(bootstrap, warn_after_s, what);
    }
    if (!w->warned)
        *next = w->start_ms + warn_after_s * 1000;
    else if (limit_s)
        *next = w->start_ms + limit_s * 1000;
    return 0;
}

int gsb_wait_cond(gsb_wait_t *w, pthread_cond_t *cond, pthread_mutex_t *lock, const char *bootstrap,
                  const char *what)
{
    int64_t now = now_ms(CLOCK_MONOTONIC), next, at;
    struct timespec until;
    int rc = next_wake(w, bootstrap, what, now, &next);

    if (rc)
        return rc;
    if (next < 0) {
        pthread_cond_wait(cond, lock);
        return 0;
    }
    /* The conditions of the bootstraps run on CLOCK_REALTIME (the default). */
    at = now_ms(CLOCK_REALTIME) + (next - now);
    until.tv_sec = at / 1000;
    until.tv_nsec = (long)(at % 1000) * 1000000;
    pthread_cond_timedwait(cond, lock, &until);
    return 0;
}

int gsb_wait_fd(gsb_wait_t *w, int fd, const char *bootstrap, const char *what)
{
    for (;;) {
        struct pollfd p = {.fd = fd, .events = POLLIN};
        int64_t now = now_ms(CLOCK_MONOTONIC), next;
        int rc = next_wake(w, bootstrap, what, now, &next);

        if (rc)
            return rc;
        rc = poll(&p, 1, next < 0 ? -1 : (int)(next - now < INT_MAX ? next - now : INT_MAX));
        /* Readable, closed or failed: the read that follows says which. */
        if (rc > 0 || (rc < 0 && errno != EINTR))
            return 0;
    }
}

int gsb_wait_poll(gsb_wait_t *w, const char *bootstrap, const char *what)
{
    int64_t next;

    return next_wake(w, bootstrap, what, now_ms(CLOCK_MONOTONIC), &next);
}
