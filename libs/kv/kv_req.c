/*
 * libs/kv/kv_req.c - requests.  A handle is (generation << 32 | index + 1)
 * into the engine's table, checked (index in range, the slot's magic and
 * generation, not free) before the slot is used, so a freed or made-up
 * handle is an error line.  Free slots are a list, so a post takes one in
 * constant time.
 *
 * Progress: a request is complete when a quiet begun after its post has
 * returned (every put and get of this PE is then done).  A pass takes the
 * newest post number under the lock, quiets without it, then ends the
 * requests at the front of the posted list (kept in post order) up to that
 * number; the reads among them that carry a signal move to the pass's own
 * chain, which sends their signals, quiets again and ends them.  Passes
 * run inside test, wait and poll, or on the engine's progress thread.
 * Ended requests join the completion queue (a list through the table,
 * oldest first) until polled or freed.
 */
#include "kv_impl.h"

#include <shmem.h>

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static kv_req_t *lookup(gshmem_kv_t *kv, gshmem_kv_req_t h, const char *fn)
{
    uint64_t idx = (h & 0xffffffffu) - 1;
    kv_req_t *r;

    if ((h & 0xffffffffu) == 0 || idx >= (uint64_t)kv->cfg.max_requests) {
        kv_fail(GSHMEM_KV_ERR_HANDLE, fn, "request handle 0x%llx is not a request of this engine",
                (unsigned long long)h);
        return NULL;
    }
    r = &kv->reqs[idx];
    if (r->magic != KV_REQ_MAGIC || r->gen != (uint32_t)(h >> 32) || r->state == KV_REQ_FREE) {
        kv_fail(GSHMEM_KV_ERR_HANDLE, fn,
                "request handle 0x%llx is not a live request (freed, or never made)",
                (unsigned long long)h);
        return NULL;
    }
    return r;
}

/* After the lock was let go (a progress pass, a wait): is r still the
 * request of handle h?  Another thread may have freed it meanwhile. */
static int gone(const kv_req_t *r, gshmem_kv_req_t h, const char *fn)
{
    if (r->gen == (uint32_t)(h >> 32) && r->state != KV_REQ_FREE)
        return 0;
    kv_fail(GSHMEM_KV_ERR_HANDLE, fn, "request 0x%llx was freed by another thread meanwhile",
            (unsigned long long)h);
    return 1;
}

gshmem_kv_req_t kv_req_handle(const gshmem_kv_t *kv, const kv_req_t *r)
{
    return (uint64_t)r->gen << 32 | (uint64_t)(r - kv->reqs + 1);
}

void kv_req_init(gshmem_kv_t *kv)
{
    for (int i = 0; i < kv->cfg.max_requests; i++)
        kv->reqs[i].lk_next = i + 1 < kv->cfg.max_requests ? i + 1 : -1;
    kv->free_head = 0;
    kv->posted_head = kv->posted_tail = -1;
    kv->rposted_head = kv->rposted_tail = -1;
    kv->cq_head = kv->cq_tail = -1;
}

int kv_req_alloc(gshmem_kv_t *kv, const char *fn, kv_req_t **out)
{
    kv_req_t *r;

    if (kv->free_head < 0)
        return kv_fail(GSHMEM_KV_ERR_BUSY, fn,
                       "all %d requests of the engine are live: free some (gshmem_kv_req_free)",
                       kv->cfg.max_requests);
    r = &kv->reqs[kv->free_head];
    kv->free_head = r->lk_next;
    memset(r, 0, sizeof *r);
    r->magic = KV_REQ_MAGIC;
    r->gen = kv->next_gen++;
    if (kv->next_gen == 0)
        kv->next_gen = 1;
    r->lk_prev = r->lk_next = r->cq_prev = r->cq_next = -1;
    *out = r;
    return 0;
}

void kv_req_release(gshmem_kv_t *kv, kv_req_t *r)
{
    free(r->line);
    r->line = NULL;
    r->state = KV_REQ_FREE;
    r->lk_next = kv->free_head;
    kv->free_head = (int)(r - kv->reqs);
}

/* Requests to PEs are in the posted list (in post order: a quiet ends a
 * prefix of it); requests to peers outside the job in the rposted list
 * (each ends with its own flush). */
void kv_req_posted(gshmem_kv_t *kv, kv_req_t *r)
{
    int i = (int)(r - kv->reqs), remote = kv_is_remote(r->pe);
    int *head = remote ? &kv->rposted_head : &kv->posted_head;
    int *tail = remote ? &kv->rposted_tail : &kv->posted_tail;

    r->state = KV_REQ_POSTED;
    r->lk_prev = *tail, r->lk_next = -1;
    if (*tail >= 0)
        kv->reqs[*tail].lk_next = i;
    else
        *head = i;
    *tail = i;
    if (remote)
        kv->n_rposted++;
    else
        kv->n_posted++;
}

static void posted_remove(gshmem_kv_t *kv, kv_req_t *r)
{
    int remote = kv_is_remote(r->pe);
    int *head = remote ? &kv->rposted_head : &kv->posted_head;
    int *tail = remote ? &kv->rposted_tail : &kv->posted_tail;

    if (r->lk_prev >= 0)
        kv->reqs[r->lk_prev].lk_next = r->lk_next;
    else
        *head = r->lk_next;
    if (r->lk_next >= 0)
        kv->reqs[r->lk_next].lk_prev = r->lk_prev;
    else
        *tail = r->lk_prev;
    r->lk_prev = r->lk_next = -1;
    if (remote)
        kv->n_rposted--;
    else
        kv->n_posted--;
}

static void cq_push(gshmem_kv_t *kv, kv_req_t *r)
{
    int i = (int)(r - kv->reqs);

    r->cq_prev = kv->cq_tail, r->cq_next = -1, r->in_cq = 1;
    if (kv->cq_tail >= 0)
        kv->reqs[kv->cq_tail].cq_next = i;
    else
        kv->cq_head = i;
    kv->cq_tail = i;
}

static void cq_remove(gshmem_kv_t *kv, kv_req_t *r)
{
    if (!r->in_cq)
        return;
    if (r->cq_prev >= 0)
        kv->reqs[r->cq_prev].cq_next = r->cq_next;
    else
        kv->cq_head = r->cq_next;
    if (r->cq_next >= 0)
        kv->reqs[r->cq_next].cq_prev = r->cq_prev;
    else
        kv->cq_tail = r->cq_prev;
    r->cq_prev = r->cq_next = -1, r->in_cq = 0;
}

/* r has left the posted list (or a pass's chain); failed: the error of
 * its transfer, or 0. */
static void end(gshmem_kv_t *kv, kv_req_t *r, uint64_t now, int failed)
{
    r->state = KV_REQ_ENDED;
    r->status = failed ? failed : r->canceled ? GSHMEM_KV_ERR_CANCELED : 0;
    r->stats.xfer_ns = now - r->t_posted;
    kv->layouts[r->layout].busy--;
    cq_push(kv, r);
}

void kv_req_ended(gshmem_kv_t *kv, kv_req_t *r, int status)
{
    r->state = KV_REQ_ENDED;
    r->status = status;
    r->stats.xfer_ns = kv_now_ns() - r->t_posted;
    cq_push(kv, r);
    pthread_cond_broadcast(&kv->done_cv);
}

static void send_signal(const kv_req_t *r)
{
    if (r->sig.op == GSHMEM_KV_SIGNAL_SET)
        shmem_signal_set(r->sig.addr, r->sig.value, r->pe);
    else
        shmem_signal_add(r->sig.addr, r->sig.value, r->pe);
}

void kv_remote_pass(gshmem_kv_t *kv)
{
    int next, ended = 0;

    for (int i = kv->rposted_head; i >= 0; i = next) {
        kv_req_t *r = &kv->reqs[i];
        int st = kv_net_req_status(kv, r);

        next = r->lk_next;
        if (st == GSHMEM_KV_INPROGRESS)
            continue;
        posted_remove(kv, r);
        end(kv, r, kv_now_ns(), st);
        ended = 1;
    }
    if (ended)
        pthread_cond_broadcast(&kv->done_cv);
}

void kv_progress(gshmem_kv_t *kv)
{
    uint64_t hi = kv->seq, now;
    int chain = -1, last = -1, next;

    /* Also with nothing posted: a peer's puts over tcp (its data, its
     * signal, its message) land as this side's worker runs. */
    kv_net_progress(kv);
    if (kv->n_rposted)
        kv_remote_pass(kv);
    if (kv->n_posted == 0)
        return;
    kv_leave(kv);
    shmem_quiet();
    pthread_mutex_lock(&kv->lock);
    now = kv_now_ns();
    /* The posted list is in post order: what the quiet covered comes first. */
    for (int i = kv->posted_head; i >= 0 && kv->reqs[i].seq <= hi; i = next) {
        kv_req_t *r = &kv->reqs[i];

        next = r->lk_next;
        posted_remove(kv, r);
        if (r->is_read && r->sig.addr && !r->canceled) {
            r->state = KV_REQ_SIGNALING;
            if (last >= 0)
                kv->reqs[last].lk_next = i;
            else
                chain = i;
            last = i;
            kv->n_signaling++;
        } else {
            end(kv, r, now, 0);
        }
    }
    if (chain >= 0) {
        /* The chain is this pass's: no other pass, cancel or free touches a
         * signalling request, so the signals go out without the lock. */
        kv_leave(kv);
        for (int i = chain; i >= 0; i = kv->reqs[i].lk_next)
            send_signal(&kv->reqs[i]);
        shmem_quiet();
        pthread_mutex_lock(&kv->lock);
        now = kv_now_ns();
        for (int i = chain; i >= 0; i = next) {
            next = kv->reqs[i].lk_next;
            kv->reqs[i].lk_next = -1;
            kv->n_signaling--;
            end(kv, &kv->reqs[i], now, 0);
        }
    }
    pthread_cond_broadcast(&kv->done_cv);
}

void kv_drain(gshmem_kv_t *kv)
{
    uint64_t t0 = kv_now_ns(), limit = (uint64_t)kv->cfg.default_timeout_ms * 1000000u;

    /* A peer outside the job that hangs gets the engine's default timeout;
     * then kv_net_destroy's close ends its requests. */
    while (kv->n_posted || kv->n_signaling || (kv->n_rposted && kv_now_ns() - t0 < limit)) {
        kv_progress(kv);
        if (kv->n_posted == 0 && kv->n_signaling) {
            kv_leave(kv);
            sched_yield(); /* another thread's pass holds signalling requests */
            pthread_mutex_lock(&kv->lock);
        }
    }
}

static void *thread_main(void *arg)
{
    gshmem_kv_t *kv = (gshmem_kv_t *)arg;

    pthread_mutex_lock(&kv->lock);
    while (!kv->stop) {
        if (kv->n_posted == 0) {
            pthread_cond_wait(&kv->work_cv, &kv->lock);
            continue;
        }
        kv_progress(kv);
    }
    pthread_mutex_unlock(&kv->lock);
    return NULL;
}

int kv_thread_start(gshmem_kv_t *kv)
{
    int e = pthread_create(&kv->thread, NULL, thread_main, kv);

    if (e != 0)
        return kv_fail(GSHMEM_KV_ERR_NOMEM, "gshmem_kv_create",
                       "cannot start the progress thread: %s", strerror(e));
    kv->thread_on = 1;
    return 0;
}

void kv_thread_stop(gshmem_kv_t *kv)
{
    if (!kv->thread_on)
        return;
    pthread_mutex_lock(&kv->lock);
    kv->stop = 1;
    pthread_cond_broadcast(&kv->work_cv);
    pthread_mutex_unlock(&kv->lock);
    pthread_join(kv->thread, NULL);
    kv->thread_on = 0;
}

int gshmem_kv_test(gshmem_kv_t *kv, gshmem_kv_req_t req)
{
    const char *fn = "gshmem_kv_test";
    kv_req_t *r;
    int rc;

    if (kv_enter(kv, fn) == NULL)
        return GSHMEM_KV_ERR_HANDLE;
    if ((r = lookup(kv, req, fn)) == NULL) {
        kv_leave(kv);
        return GSHMEM_KV_ERR_HANDLE;
    }
    if (r->state != KV_REQ_ENDED && !kv->thread_on)
        kv_progress(kv);
    if (gone(r, req, fn))
        rc = GSHMEM_KV_ERR_HANDLE;
    else
        rc = r->state == KV_REQ_ENDED ? r->status : GSHMEM_KV_INPROGRESS;
    if (rc < 0 && rc != GSHMEM_KV_ERR_HANDLE && r->line)
        kv_set_error(r->line);
    kv_leave(kv);
    return rc;
}

static void deadline_of(uint64_t ns, struct timespec *ts)
{
    clock_gettime(CLOCK_MONOTONIC, ts);
    ns += (uint64_t)ts->tv_nsec;
    ts->tv_sec += (time_t)(ns / 1000000000ull);
    ts->tv_nsec = (long)(ns % 1000000000ull);
}

int gshmem_kv_wait(gshmem_kv_t *kv, gshmem_kv_req_t req, int64_t timeout_ns)
{
    const char *fn = "gshmem_kv_wait";
    struct timespec until;
    uint64_t t0 = kv_now_ns(), limit;
    kv_req_t *r;
    int rc;

    if (kv_enter(kv, fn) == NULL)
        return GSHMEM_KV_ERR_HANDLE;
    if ((r = lookup(kv, req, fn)) == NULL) {
        kv_leave(kv);
        return GSHMEM_KV_ERR_HANDLE;
    }
    if (timeout_ns < GSHMEM_KV_WAIT_DEFAULT) {
        kv_leave(kv);
        return kv_fail(GSHMEM_KV_ERR_INVALID, fn,
                       "timeout_ns %lld is negative (GSHMEM_KV_WAIT_DEFAULT is -1)",
                       (long long)timeout_ns);
    }
    limit = timeout_ns == GSHMEM_KV_WAIT_DEFAULT ? (uint64_t)kv->cfg.default_timeout_ms * 1000000u
                                                 : (uint64_t)timeout_ns;
    deadline_of(limit, &until);
    while (r->state != KV_REQ_ENDED) {
        /* A storage request ends on its file's thread, which signals. */
        if (kv->thread_on || r->io) {
            int e = pthread_cond_timedwait(&kv->done_cv, &kv->lock, &until);

            if (gone(r, req, fn)) {
                kv_leave(kv);
                return GSHMEM_KV_ERR_HANDLE;
            }
            if (e == ETIMEDOUT && r->state != KV_REQ_ENDED)
                break;
            continue;
        }
        kv_progress(kv);
        if (gone(r, req, fn)) {
            kv_leave(kv);
            return GSHMEM_KV_ERR_HANDLE;
        }
        if (r->state == KV_REQ_ENDED || kv_now_ns() - t0 >= limit)
            break;
        kv_leave(kv);
        sched_yield(); /* another thread's pass is sending its signal */
        pthread_mutex_lock(&kv->lock);
        if (gone(r, req, fn)) {
            kv_leave(kv);
            return GSHMEM_KV_ERR_HANDLE;
        }
    }
    if (r->state == KV_REQ_ENDED) {
        rc = r->status;
        if (rc < 0 && r->line)
            kv_set_error(r->line);
    } else
        rc = kv_fail(GSHMEM_KV_ERR_TIMEOUT, fn,
                     "request 0x%llx (a %s of %llu bytes with PE %d) is not complete after %llu ns",
                     (unsigned long long)req, r->is_read ? "read" : "write",
                     (unsigned long long)r->stats.bytes, r->pe, (unsigned long long)limit);
    kv_leave(kv);
    return rc;
}

int gshmem_kv_cancel(gshmem_kv_t *kv, gshmem_kv_req_t req)
{
    const char *fn = "gshmem_kv_cancel";
    kv_req_t *r;
    int rc = 0;

    if (kv_enter(kv, fn) == NULL)
        return GSHMEM_KV_ERR_HANDLE;
    if ((r = lookup(kv, req, fn)) == NULL)
        rc = GSHMEM_KV_ERR_HANDLE;
    else if (r->state != KV_REQ_POSTED)
        rc = kv_fail(GSHMEM_KV_ERR_STATE, fn, "request 0x%llx has %s: there is nothing to cancel",
                     (unsigned long long)req,
                     r->state == KV_REQ_ENDED ? "ended already" : "its data complete already");
    else
        r->canceled = 1;
    kv_leave(kv);
    return rc;
}

int gshmem_kv_poll(gshmem_kv_t *kv, gshmem_kv_completion_t *done, size_t max, size_t *n)
{
    const char *fn = "gshmem_kv_poll";
    size_t k = 0;

    if (kv_enter(kv, fn) == NULL)
        return GSHMEM_KV_ERR_HANDLE;
    if (n == NULL || (done == NULL && max > 0)) {
        kv_leave(kv);
        return kv_fail(GSHMEM_KV_ERR_INVALID, fn, "%s is NULL", n == NULL ? "n" : "done");
    }
    if (!kv->thread_on)
        kv_progress(kv);
    while (k < max && kv->cq_head >= 0) {
        kv_req_t *r = &kv->reqs[kv->cq_head];

        done[k].req = kv_req_handle(kv, r);
        done[k].status = r->status;
        k++;
        cq_remove(kv, r);
    }
    *n = k;
    kv_leave(kv);
    return 0;
}

int gshmem_kv_req_stats(gshmem_kv_t *kv, gshmem_kv_req_t req, gshmem_kv_req_stats_t *stats)
{
    const char *fn = "gshmem_kv_req_stats";
    kv_req_t *r;
    int rc = 0;

    if (kv_enter(kv, fn) == NULL)
        return GSHMEM_KV_ERR_HANDLE;
    if ((r = lookup(kv, req, fn)) == NULL)
        rc = GSHMEM_KV_ERR_HANDLE;
    else if (stats == NULL)
        rc = kv_fail(GSHMEM_KV_ERR_INVALID, fn, "stats is NULL");
    else
        *stats = r->stats;
    kv_leave(kv);
    return rc;
}

int gshmem_kv_req_free(gshmem_kv_t *kv, gshmem_kv_req_t req)
{
    const char *fn = "gshmem_kv_req_free";
    kv_req_t *r;
    int rc = 0;

    if (kv_enter(kv, fn) == NULL)
        return GSHMEM_KV_ERR_HANDLE;
    if ((r = lookup(kv, req, fn)) == NULL) {
        rc = GSHMEM_KV_ERR_HANDLE;
    } else if (r->state != KV_REQ_ENDED) {
        rc = kv_fail(GSHMEM_KV_ERR_STATE, fn,
                     "request 0x%llx is in progress: test, wait or cancel it first",
                     (unsigned long long)req);
    } else {
        cq_remove(kv, r);
        kv_req_release(kv, r);
    }
    kv_leave(kv);
    return rc;
}
