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
 * queue is under the engine's lock; the I/O is done without it.  Requests
 * queued behind one another in the same direction go to the engine as
 * one run (run_batch says why).
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

static void *worker(void *arg)
{
    struct gshmem_kv_file *f = (struct gshmem_kv_file *)arg;
    gshmem_kv_t *kv = f->kv;
    kv_job_t *b[64];
    int rc[64];

    pthread_mutex_lock(&kv->lock);
    for (;;) {
        size_t total;
        int n = 0;

        while (f->jobs == NULL && !f->stop)
            pthread_cond_wait(&f->job_cv, &kv->lock);
        if (f->jobs == NULL)
            break;
        /* The first job, and those queued behind it in the same direction
         * (none canceled), up to the bounds. */
        do {
            b[n] = f->jobs;
            if ((f->jobs = b[n]->next) == NULL)
                f->jobs_tail = NULL;
            total = (n ? total : 0) + b[n]->n_io;
            n++;
        } while (!b[0]->r->canceled && f->jobs && n < 64 && f->jobs->is_read == b[0]->is_read &&
                 !f->jobs->r->canceled && total + f->jobs->n_io <= KV_BATCH_MAX_IO);
        if (b[0]->r->canceled) { /* not started: ends having moved nothing */
            end_job(kv, f, b[0], GSHMEM_KV_ERR_CANCELED);
            continue;
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
    f->kv = kv;
    pthread_cond_init(&f->job_cv, NULL);
    if (pthread_create(&f->thread, NULL, worker, f) != 0) {
        pthread_cond_destroy(&f->job_cv);
        return kv_fail(GSHMEM_KV_ERR_NOMEM, fn, "cannot start the I/O thread of %s", f->path);
    }
    f->thread_on = 1;
    return 0;
}

void kv_file_queue_add(struct gshmem_kv_file *f, kv_job_t *j)
{
    j->next = NULL;
    if (f->jobs_tail)
        f->jobs_tail->next = j;
    else
        f->jobs = j;
    f->jobs_tail = j;
    pthread_cond_signal(&f->job_cv);
}

void kv_file_queue_drain(gshmem_kv_t *kv, struct gshmem_kv_file *f)
{
    while (f->busy)
        pthread_cond_wait(&kv->done_cv, &kv->lock);
}

void kv_file_queue_stop(gshmem_kv_t *kv, struct gshmem_kv_file *f)
{
    if (!f->thread_on)
        return;
    pthread_mutex_lock(&kv->lock);
    f->stop = 1;
    pthread_cond_signal(&f->job_cv);
    pthread_mutex_unlock(&kv->lock);
    pthread_join(f->thread, NULL);
    pthread_cond_destroy(&f->job_cv);
    f->thread_on = 0;
}
