/*
 * libs/kv/kv_queue.h - a queue of jobs and the thread that serves it, under
 * the engine's lock: each storage-tier file's (kv_file_queue.c) and each
 * block store's (kv_store_io.c).  A job begins with a kv_qnode_t; what a
 * job is and how it is served is the owner's.
 */
#ifndef KV_QUEUE_H
#define KV_QUEUE_H

#include "kv_impl.h"

#include <pthread.h>

typedef struct kv_qnode {
    struct kv_qnode *next;
} kv_qnode_t;

typedef struct kv_queue {
    gshmem_kv_t *kv;
    kv_qnode_t *head, *tail;
    pthread_cond_t cv; /* a job, or stop (with the engine's lock) */
    pthread_t thread;
    int on, stop;
} kv_queue_t;

/* Starts main(arg) on a thread of its own: 0, or a status with a line
 * naming what (the file or store it serves). */
int kv_queue_start(kv_queue_t *q, gshmem_kv_t *kv, void *(*main)(void *), void *arg,
                   const char *what, const char *fn);
/* With the engine's lock held: n at the tail, the thread woken. */
void kv_queue_add(kv_queue_t *q, kv_qnode_t *n);
/* For the thread, with the engine's lock held: waits for a job and takes
 * it from the head; NULL once stopped with nothing queued. */
kv_qnode_t *kv_queue_take(kv_queue_t *q);
/* The job at the head, not taken (NULL: none). */
static inline kv_qnode_t *kv_queue_peek(const kv_queue_t *q)
{
    return q->head;
}
/* Without the engine's lock, the queue drained: ends the thread. */
void kv_queue_stop(kv_queue_t *q);

#endif /* KV_QUEUE_H */
