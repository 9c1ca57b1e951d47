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
 * queue is under the engine's lock; the I/O is done without it.
 */
#include "kv_io.h"

#include <stdlib.h>
#include <string.h>

static void *worker(void *arg)
{
    struct gshmem_kv_file *f = (struct gshmem_kv_file *)arg;
    gshmem_kv_t *kv = f->kv;

    pthread_mutex_lock(&kv->lock);
    for (;;) {
        kv_job_t *j;
        uint64_t moved = 0;
        int rc = GSHMEM_KV_ERR_CANCELED;

        while (f->jobs == NULL && !f->stop)
            pthread_cond_wait(&f->job_cv, &kv->lock);
        if (f->jobs == NULL)
            break;
        j = f->jobs;
        if ((f->jobs = j->next) == NULL)
            f->jobs_tail = NULL;
        if (!j->r->canceled) {
            pthread_mutex_unlock(&kv->lock);
            pthread_mutex_lock(&f->io_lock);
            rc = f->eng->run(f, j->is_read, j->io, j->n_io, j->fn);
            pthread_mutex_unlock(&f->io_lock);
            /* The line was this thread's: the request keeps it for the
             * thread that harvests the failure (test, wait). */
            if (rc != 0)
                j->r->line = strdup(gshmem_kv_error());
            pthread_mutex_lock(&kv->lock);
            if (rc == 0 && j->r->canceled)
                rc = GSHMEM_KV_ERR_CANCELED;
        }
        for (size_t i = 0; i < j->n_io; i++)
            moved += j->io[i].done;
        j->r->stats.bytes = moved;
        j->L->busy--, f->busy--;
        kv_req_ended(kv, j->r, rc);
        free(j->io);
        free(j);
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
