/*
 * libs/kv/kv_uring.c - the storage tier's io_uring engine (liburing).  One
 * ring per open file, of the file's queue depth, with the file registered
 * (a fixed file spares the kernel a lookup of the descriptor per
 * operation) and the layouts' memory too (kv_uring_fix.c).  A transfer's
 * runs go in as SQEs, the queue refilled as each completes, and a stream
 * takes the file's next queued request when its list is out; each
 * completion that moved less than asked is prepared again from where it
 * stopped.
 * After a failure no new run starts, but the call returns only when
 * nothing of it is in flight: the memory may be reused once it returns.
 */
#include "kv_uring_fix.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* One SQE is at most this long; the rest goes as a resubmission. */
#define KV_URING_MAX_LEN (1u << 30)

static int setup(uring_t *u, struct gshmem_kv_file *f)
{
    int rc = io_uring_queue_init((unsigned)f->queue_depth, &u->ring, 0);

    if (rc < 0)
        return rc;
    u->live = 1;
    u->fixed = io_uring_register_files(&u->ring, &f->fd, 1) == 0;
    kv_uring_fix_setup(u);
    return 0;
}

static int uring_open(struct gshmem_kv_file *f)
{
    uring_t *u = (uring_t *)calloc(1, sizeof *u);
    int rc;

    if (u == NULL)
        return -ENOMEM;
    if ((rc = setup(u, f)) < 0) {
        free(u);
        return rc;
    }
    pthread_mutex_init(&u->fix_lock, NULL);
    f->eng_state = u;
    return 0;
}

static void prep(uring_t *u, struct io_uring_sqe *sqe, int fd, int is_read, kv_io_t *o)
{
    size_t left = o->len - o->done;
    unsigned len = left > KV_URING_MAX_LEN ? KV_URING_MAX_LEN : (unsigned)left;
    int target = u->fixed ? 0 : fd;

    if (o->fix && u->bufs && is_read) /* a registered buffer: no pinning per I/O */
        io_uring_prep_read_fixed(sqe, target, o->buf + o->done, len, o->off + o->done, o->fix - 1);
    else if (o->fix && u->bufs)
        io_uring_prep_write_fixed(sqe, target, o->buf + o->done, len, o->off + o->done, o->fix - 1);
    else if (is_read)
        io_uring_prep_read(sqe, target, o->buf + o->done, len, o->off + o->done);
    else
        io_uring_prep_write(sqe, target, o->buf + o->done, len, o->off + o->done);
    if (u->fixed)
        io_uring_sqe_set_flags(sqe, IOSQE_FIXED_FILE);
    io_uring_sqe_set_data(sqe, o);
}

static int uring_stream(struct gshmem_kv_file *f, int is_read, kv_io_t *io, size_t n,
                        kv_io_feed_t *feed, const char *fn)
{
    uring_t *u = (uring_t *)f->eng_state;
    unsigned inflight = 0, queued = 0, depth = (unsigned)f->queue_depth;
    size_t next = 0;
    int rc = 0;

    if (u->dead)
        return kv_io_posix.run(f, is_read, io, n, fn); /* the feed's jobs: the caller's */
    for (;;) {
        struct io_uring_sqe *sqe;
        struct io_uring_cqe *cqe;
        kv_io_t *o;
        int s, res;

        /* The list is out and the ring has room: the next one queued, if
         * any (io is not read again once next == n: its job may end). */
        if (rc == 0 && next == n && feed && inflight + queued < depth && feed->more(feed, &io, &n))
            next = 0;
        if (!((rc == 0 && next < n) || inflight || queued))
            break;
        while (rc == 0 && next < n && inflight + queued < depth &&
               (sqe = io_uring_get_sqe(&u->ring)) != NULL)
            prep(u, sqe, f->fd, is_read, &io[next++]), queued++;
        if (queued) {
            do
                s = io_uring_submit(&u->ring);
            while (s == -EINTR);
            if (s < 0 || (unsigned)s < queued) {
                if (rc == 0)
                    rc = kv_fail(GSHMEM_KV_ERR_IO, fn, "io_uring_submit of %u entries for %s: %s",
                                 queued, f->path, strerror(s < 0 ? -s : EAGAIN));
                u->broken = 1;
                s = s < 0 ? 0 : s;
            }
            inflight += (unsigned)s, queued = 0;
        }
        if (inflight == 0)
            break;
        do
            s = io_uring_wait_cqe(&u->ring, &cqe);
        while (s == -EINTR);
        if (s < 0) {
            /* Nothing more can be reaped: the ring is left for close to
             * tear down, the file served by pread/pwrite from here on. */
            u->dead = 1;
            return rc ? rc
                      : kv_fail(GSHMEM_KV_ERR_IO, fn, "io_uring_wait_cqe for %s: %s", f->path,
                                strerror(-s));
        }
        /* One completion, then its place refilled and submitted at once:
         * reaping every ready completion before refilling made random 4 KiB
         * reads 0.85x fio's here (the queue sat below its depth longer). */
        o = (kv_io_t *)io_uring_cqe_get_data(cqe);
        res = cqe->res;
        io_uring_cqe_seen(&u->ring, cqe);
        inflight--;
        if (res <= 0) {
            /* 0: end of file on a read, nothing written (no space) on a write. */
            if (rc == 0)
                rc = kv_io_fail(f, fn, is_read, o, res < 0 ? -res : is_read ? 0 : ENOSPC);
            continue;
        }
        o->done += (size_t)res;
        if (o->done == o->len && feed)
            feed->whole(feed, o);
        else if (o->done < o->len && rc == 0 && (sqe = io_uring_get_sqe(&u->ring)) != NULL)
            prep(u, sqe, f->fd, is_read, o), queued++; /* a short one: the rest */
        else if (o->done < o->len && rc == 0)
            rc = kv_io_fail(f, fn, is_read, o, EAGAIN);
    }
    if (u->broken) {
        /* queue_exit drops the unsubmitted SQEs, which point at this
         * call's memory: they must never go in later. */
        pthread_mutex_lock(&u->fix_lock);
        io_uring_queue_exit(&u->ring);
        kv_uring_fix_forget(u);
        u->broken = 0, u->live = 0;
        if (setup(u, f) < 0)
            u->dead = 1;
        /* I/O of queued requests may name the old ring's buffers: the new
         * one has none, and they go plain. */
        u->bufs = 0;
        pthread_mutex_unlock(&u->fix_lock);
    }
    return rc;
}

static int uring_run(struct gshmem_kv_file *f, int is_read, kv_io_t *io, size_t n, const char *fn)
{
    return uring_stream(f, is_read, io, n, NULL, fn);
}

static void uring_close(struct gshmem_kv_file *f)
{
    uring_t *u = (uring_t *)f->eng_state;

    if (u == NULL)
        return;
    if (u->live)
        io_uring_queue_exit(&u->ring);
    kv_uring_fix_forget(u);
    pthread_mutex_destroy(&u->fix_lock);
    free(u);
    f->eng_state = NULL;
}

const kv_io_engine_t kv_io_uring = {"io_uring",   uring_open,     uring_run,  uring_stream,
                                    kv_uring_fix, kv_uring_unfix, uring_close};
