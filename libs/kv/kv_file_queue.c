/*
 * libs/kv/kv_file_queue.c - the storage tier's asynchrony: each file open
 * through gshmem_kv_file_open has a thread that carries out its requests
 * in post order, so that store and load return as soon as the transfer is
 * checked and planned, and the request ends later as a network one does
 * (test, wait, poll, cancel).  The engine's run (io_uring or pread/pwrite)
 * is unchanged: the thread calls it as store and load used to.
 *
 * Why a thread per file and not the ring's own completions: the pread
 * fallback needs a thread anyway, one thread keeps both engines alike, and
 * a file's requests are serialized by its engine's state already.  The
 * queue is under the engine's lock; the I/O is done without it.  An engine
 * with a stream op (io_uring) is fed the queued requests of one direction
 * while it runs, and each request ends when its last I/O does (stream_run);
 * pread/pwrite takes the requests queued behind one another in the same
 * direction as one run (run_batch).  Either way the engine's queue stays
 * full across the requests' boundaries: a request of queue-depth blocks
 * alone drains it at its end, and fio's iodepth never drains.
 */
#include "kv_io.h"

#include <stdlib.h>
#include <string.h>

#define KV_BATCH_MAX_IO 4096 /* I/Os of queued requests carried out as one run */

/* Carries out jobs b[0 .. n) (same direction), lock not held: one run of
 * all their I/Os, so that the engine's queue stays full across the
 * requests' boundaries (a request of queue-depth blocks alone drains it
 * at its end: fio's iodepth never does).  On a failure, each job not
 * wholly done goes again alone, from where it stopped, so that the
 * failure and its line are its own.  rc[i]: job i's status. */
static void run_batch(struct gshmem_kv_file *f, kv_job_t **b, int n, int *rc)
{
    kv_io_t *all = NULL;
    size_t total = 0, k = 0;
    int brc;

    for (int i = 0; i < n; i++)
        total += b[i]->n_io, rc[i] = 0;
    if (n == 1 && b[0]->L->gpu) { /* alone: the worker never batches it */
        if ((rc[0] = kv_stage_run(f, b[0]->is_read, b[0]->io, b[0]->n_io, b[0]->fn)) != 0)
            b[0]->r->line = strdup(gshmem_kv_error());
        return;
    }
    if (n > 1 && (all = (kv_io_t *)malloc(total * sizeof *all)) != NULL) {
        for (int i = 0; i < n; i++, k += b[i - 1]->n_io)
            memcpy(all + k, b[i]->io, b[i]->n_io * sizeof *all);
        kv_set_quiet(1); /* a failure is said once, by the retry below */
        brc = f->eng->run(f, b[0]->is_read, all, total, b[0]->fn);
        kv_set_quiet(0);
        k = 0;
        for (int i = 0; i < n; i++, k += b[i - 1]->n_io)
            memcpy(b[i]->io, all + k, b[i]->n_io * sizeof *all);
        free(all);
        if (brc == 0)
            return;
    }
    for (int i = 0; i < n; i++) {
        int whole = 1;

        for (size_t j = 0; j < b[i]->n_io && whole; j++)
            whole = b[i]->io[j].done == b[i]->io[j].len;
        if (!whole && (rc[i] = f->eng->run(f, b[i]->is_read, b[i]->io, b[i]->n_io, b[i]->fn)))
            /* The line was this thread's: the request keeps it for the
             * thread that harvests the failure (test, wait). */
            b[i]->r->line = strdup(gshmem_kv_error());
    }
}

static void end_job(gshmem_kv_t *kv, struct gshmem_kv_file *f, kv_job_t *j, int rc)
{
    uint64_t moved = 0;

    for (size_t i = 0; i < j->n_io; i++)
        moved += j->io[i].done;
    if (rc == 0 && j->r->canceled)
        rc = GSHMEM_KV_ERR_CANCELED;
    j->r->stats.bytes = moved;
    j->L->busy--, f->busy--;
    kv_req_ended(kv, j->r, rc);
    free(j->io);
    free(j);
}

/* ---- the stream (an engine with a stream op: io_uring) ------------------ */

typedef struct stream {
    kv_io_feed_t feed; /* first: the engine's callbacks get it */
    gshmem_kv_t *kv;
    struct gshmem_kv_file *f;
    int is_read;
    kv_job_t *first, *last; /* the jobs taken and not yet ended, in order */
} stream_t;

/* A job joins the stream: its I/Os point back at it. */
static void stream_take(stream_t *st, kv_job_t *j)
{
    for (size_t i = 0; i < j->n_io; i++)
        j->io[i].owner = j;
    j->left = j->n_io;
    j->prev_taken = st->last, j->next_taken = NULL;
    *(st->last ? &st->last->next_taken : &st->first) = j;
    st->last = j;
}

/* A job leaves the stream's list (it ends: end_job frees it). */
static void stream_drop(stream_t *st, kv_job_t *j)
{
    *(j->prev_taken ? &j->prev_taken->next_taken : &st->first) = j->next_taken;
    *(j->next_taken ? &j->next_taken->prev_taken : &st->last) = j->prev_taken;
}

/* The next queued job of the stream's direction, of a host layout and not
 * canceled (a canceled one ends at once, having moved nothing), with I/O
 * to do (one without ends at once, done). */
static int stream_more(kv_io_feed_t *feed, kv_io_t **io, size_t *n)
{
    stream_t *st = (stream_t *)feed;
    gshmem_kv_t *kv = st->kv;
    kv_job_t *j;
    int got = 0;

    pthread_mutex_lock(&kv->lock);
    while (!got && (j = (kv_job_t *)kv_queue_peek(&st->f->queue)) != NULL &&
           j->is_read == st->is_read && !j->L->gpu) {
        kv_queue_take(&st->f->queue);
        if (j->r->canceled || j->n_io == 0) {
            end_job(kv, st->f, j, j->r->canceled ? GSHMEM_KV_ERR_CANCELED : 0);
            continue;
        }
        stream_take(st, j);
        *io = j->io, *n = j->n_io, got = 1;
    }
    pthread_mutex_unlock(&kv->lock);
    if (got && st->f->eng->fix) /* not under the lock: it may pin a layout */
        st->f->eng->fix(st->f, j->L, j->io, j->n_io);
    return got;
}

/* An I/O is whole: its job ends with its last one. */
static void stream_whole(kv_io_feed_t *feed, kv_io_t *o)
{
    stream_t *st = (stream_t *)feed;
    kv_job_t *j = (kv_job_t *)o->owner;

    if (--j->left)
        return;
    stream_drop(st, j);
    pthread_mutex_lock(&st->kv->lock);
    end_job(st->kv, st->f, j, 0);
    pthread_mutex_unlock(&st->kv->lock);
}

/* Carries out j (taken, not canceled) and whatever joins it while the
 * engine's queue is busy; the engine's lock is held on entry and on
 * return, not during the I/O.  After a failure the engine takes no more
 * jobs and drains; each job of the stream not yet ended then goes again
 * alone, from where it stopped, so that a failure and its line are its own
 * (as run_batch's).  The stream's own status is not needed: every job's
 * is its own. */
static void stream_run(gshmem_kv_t *kv, struct gshmem_kv_file *f, kv_job_t *j)
{
    stream_t st = {{stream_more, stream_whole}, kv, f, j->is_read, NULL, NULL};
    kv_job_t *k;

    stream_take(&st, j);
    pthread_mutex_unlock(&kv->lock);
    pthread_mutex_lock(&f->io_lock);
    if (f->eng->fix)
        f->eng->fix(f, j->L, j->io, j->n_io);
    kv_set_quiet(1); /* a failure is said once, by the retry below */
    (void)f->eng->stream(f, j->is_read, j->io, j->n_io, &st.feed, j->fn);
    kv_set_quiet(0);
    while ((k = st.first) != NULL) {
        int whole = 1, krc = 0;

        stream_drop(&st, k);
        for (size_t i = 0; i < k->n_io && whole; i++)
            whole = k->io[i].done == k->io[i].len;
        if (!whole && (krc = f->eng->run(f, k->is_read, k->io, k->n_io, k->fn)) != 0)
            k->r->line = strdup(gshmem_kv_error());
        pthread_mutex_lock(&kv->lock);
        end_job(kv, f, k, krc);
        pthread_mutex_unlock(&kv->lock);
    }
    pthread_mutex_unlock(&f->io_lock);
    pthread_mutex_lock(&kv->lock);
}

static void *worker(void *arg)
{
    struct gshmem_kv_file *f = (struct gshmem_kv_file *)arg;
    gshmem_kv_t *kv = f->queue.kv;
    kv_job_t *b[64], *next;
    int rc[64];

    pthread_mutex_lock(&kv->lock);
    for (;;) {
        size_t total;
        int n = 0;

        if ((b[0] = (kv_job_t *)kv_queue_take(&f->queue)) == NULL)
            break;
        if (b[0]->r->canceled) { /* not started: ends having moved nothing */
            end_job(kv, f, b[0], GSHMEM_KV_ERR_CANCELED);
            continue;
        }
        if (f->eng->stream && !b[0]->L->gpu) {
            stream_run(kv, f, b[0]);
            continue;
        }
        /* The first job, and those queued behind it in the same direction
         * (none canceled), up to the bounds. */
        total = b[0]->n_io, n = 1;
        while (!b[0]->L->gpu && n < 64 && (next = (kv_job_t *)kv_queue_peek(&f->queue)) != NULL &&
               next->is_read == b[0]->is_read && !next->r->canceled && !next->L->gpu &&
               total + next->n_io <= KV_BATCH_MAX_IO) {
            b[n++] = (kv_job_t *)kv_queue_take(&f->queue);
            total += next->n_io;
        }
        pthread_mutex_unlock(&kv->lock);
        pthread_mutex_lock(&f->io_lock);
        run_batch(f, b, n, rc);
        pthread_mutex_unlock(&f->io_lock);
        pthread_mutex_lock(&kv->lock);
        for (int i = 0; i < n; i++)
            end_job(kv, f, b[i], rc[i]);
    }
    pthread_mutex_unlock(&kv->lock);
    return NULL;
}

int kv_file_queue_start(gshmem_kv_t *kv, struct gshmem_kv_file *f, const char *fn)
{
    return kv_queue_start(&f->queue, kv, worker, f, f->path, fn);
}

void kv_file_queue_drain(gshmem_kv_t *kv, struct gshmem_kv_file *f)
{
    while (f->busy)
        pthread_cond_wait(&kv->done_cv, &kv->lock);
}
