/*
 * libs/kv/kv_mbox.h - mailboxes: the signal words and the small messages
 * of include/gshmem_kv.h ("Signal words and small messages").
 *
 * A mailbox is a ring of GSHMEM_KV_MSG_SLOTS slots with many senders and
 * one receiver.  A sender reserves slot t by a compare-and-swap of the
 * ring's tail from t to t + 1, and only while t - head < slots (it reads
 * head first), so a reservation never waits on anyone; it writes the
 * slot's body, then, ordered after it, the slot's seq = t + 1.  The
 * receiver takes slot head % slots when its seq is head + 1, clears seq,
 * then advances head.  A compare-and-swap rather than a fetch-and-add: a
 * sender that found the ring full has reserved nothing, so a full
 * mailbox is an error to that sender and never a hole in the ring.
 *
 * Each engine has two: one on the symmetric heap for the PEs of its job
 * (reached through shmem calls, on whatever path the runtime has), and
 * one in a memfd of its own for peers outside the job, which also holds
 * the signal words: UCX maps it for remote peers (the blob carries its
 * key), and a peer on this host maps the memfd itself (/proc/PID/fd/N,
 * which asks what process_vm_writev asks: the same user, ptrace allowed),
 * because a compare-and-swap cannot be made with process_vm_writev.
 * How a sender reaches a mailbox is an ops table; the ring is the same.
 */
#ifndef KV_MBOX_H
#define KV_MBOX_H

#include "gshmem_kv.h"

#include <stddef.h>
#include <stdint.h>

typedef struct kv_mslot {
    uint64_t seq; /* t + 1 while slot t's message waits; 0: empty */
    uint32_t len;
    int32_t from_pe;
    uint64_t from_engine;
    unsigned char data[GSHMEM_KV_MSG_MAX];
} kv_mslot_t;

typedef struct kv_mbox {
    uint64_t signal[GSHMEM_KV_SIGNAL_WORDS];
    uint64_t tail, pad_tail[7]; /* senders' word, a line of its own */
    uint64_t head, pad_head[7]; /* the receiver's */
    kv_mslot_t slot[GSHMEM_KV_MSG_SLOTS];
} kv_mbox_t;

/* How a sender reaches one mailbox: word and dst are addresses in the
 * mailbox as the ops' target names them.  0 or a GSHMEM_KV_ERR_*. */
typedef struct kv_mbox_ops {
    int (*fetch)(void *ctx, uint64_t *word, uint64_t *out);
    int (*cas)(void *ctx, uint64_t *word, uint64_t expect, uint64_t desired, uint64_t *old);
    int (*put)(void *ctx, void *dst, const void *src, size_t n);
    /* After the puts: *word = v, ordered after them, and complete. */
    int (*publish)(void *ctx, uint64_t *word, uint64_t v);
} kv_mbox_ops_t;

/* One message into mailbox mb (an address of the ops' target), waiting
 * for room until deadline_ns (kv_now_ns's clock).  who names the
 * receiver in lines ("PE 3", "peer 1048576"). */
int kv_mbox_send(const kv_mbox_ops_t *ops, void *ctx, kv_mbox_t *mb, int from_pe,
                 uint64_t from_engine, const void *data, size_t len, uint64_t deadline_ns,
                 const char *who, const char *fn);
/* Takes the oldest waiting message of this process's mailbox mb into
 * *out (peer left for the caller): 1, or 0 when none waits. */
int kv_mbox_take(kv_mbox_t *mb, gshmem_kv_msg_t *out);

/* The ops for a mailbox mapped into this process (a peer's memfd). */
extern const kv_mbox_ops_t kv_mbox_mapped_ops;

#endif /* KV_MBOX_H */
