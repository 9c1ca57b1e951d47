/*
 * libs/kv/kv_queue.c - the job queue and its thread (kv_queue.h).
 */
#include "kv_queue.h"

int kv_queue_start(kv_queue_t *q, gshmem_kv_t *kv, void *(*main)(void *), void *arg,
                   const char *what, const char *fn)
{
    q->kv = kv;
    q->head = q->tail = NULL;
    q->stop = 0;
    pthread_cond_init(&q->cv, NULL);
    if (pthread_create(&q->thread, NULL, main, arg) != 0) {
        pthread_cond_destroy(&q->cv);
        return kv_fail(GSHMEM_KV_ERR_NOMEM, fn, "cannot start the I/O thread of %s", what);
    }
    q->on = 1;
    return 0;
}

void kv_queue_add(kv_queue_t *q, kv_qnode_t *n)
{
    n->next = NULL;
    if (q->tail)
        q->tail->next = n;
    else
        q->head = n;
    q->tail = n;
    pthread_cond_signal(&q->cv);
}

kv_qnode_t *kv_queue_take(kv_queue_t *q)
{
    kv_qnode_t *n;

    while (q->head == NULL && !q->stop)
        pthread_cond_wait(&q->cv, &q->kv->lock);
    if ((n = q->head) != NULL && (q->head = n->next) == NULL)
        q->tail = NULL;
    return n;
}

void kv_queue_stop(kv_queue_t *q)
{
    if (!q->on)
        return;
    pthread_mutex_lock(&q->kv->lock);
    q->stop = 1;
    pthread_cond_signal(&q->cv);
    pthread_mutex_unlock(&q->kv->lock);
    pthread_join(q->thread, NULL);
    pthread_cond_destroy(&q->cv);
    q->on = 0;
}
