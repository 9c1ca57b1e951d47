/*
 * libs/kv/kv_verbs.h - peers outside the job over RDMA verbs (kv_net.c's
 * third path, beside the same-host copy and UCX), where GSHMEM_KV_VERBS
 * names this host's address on an RDMA device.
 *
 * Connections are RC QPs made with librdmacm: the engine listens on that
 * address, its blob carries the address and a random token, and a peer
 * that adds the blob connects with the token as the request's private
 * data; a request without it is rejected, so only a holder of the blob
 * (which the listener's secret or the framework's side channel guards)
 * gets a QP into this engine's protection domain, the only way to use its
 * memory keys.  Each side posts on the QP it connected (reads, writes, the
 * signal's atomic): RDMA is one-sided, the QP it accepted only answers.
 * A peer whose process ends sends a disconnect (the kernel closes its
 * ids), which fails this side's QP to it at once; a peer that vanishes
 * fails it by the QP's retry timeout.
 *
 * Work requests are chained per QP and posted KV_VB_CHAIN at a time (one
 * doorbell), the last of each chain signaled; a work request's id is its
 * QP's count of requests posted, so a completion says "everything up to
 * here is done" (RC completes in order) and a transfer is done when its
 * QP's completed count reaches the count its last request had.  Every
 * call is made with the engine's lock held.
 */
#ifndef KV_VERBS_H
#define KV_VERBS_H

#include <stddef.h>
#include <stdint.h>

typedef struct kv_vb kv_vb_t;   /* the engine's: device, PD, CQ, listener */
typedef struct kv_vqp kv_vqp_t; /* one peer's QP, connected by this side */
typedef struct ibv_mr kv_vmr_t; /* one registered range (rdma-core's own) */

#define KV_VB_TOKEN 16

/* What the blob carries (all zero: the process has no verbs path). */
typedef struct kv_vb_addr {
    uint8_t sa[28];  /* the listener's sockaddr_in or sockaddr_in6 */
    uint32_t sa_len; /* 0: none */
    uint8_t token[KV_VB_TOKEN];
    uint32_t mbox_rkey, zero;
} kv_vb_addr_t;

/* Opens the device that holds address where (GSHMEM_KV_VERBS), listens
 * there and registers the mailbox (mbox, len) for remote writes and
 * atomics: 0, or a GSHMEM_KV_ERR_* with the line said. */
int kv_vb_open(kv_vb_t **out, const char *where, void *mbox, size_t len, const char *fn);
void kv_vb_close(kv_vb_t *vb);
void kv_vb_addr(const kv_vb_t *vb, kv_vb_addr_t *a);
/* The connection manager's fd: readable when kv_vb_events has work. */
int kv_vb_fd(const kv_vb_t *vb);
/* The completion channel's fd: readable after kv_vb_arm when a
 * signaled work request completes. */
int kv_vb_cq_fd(const kv_vb_t *vb);
/* Before sleeping on that fd: takes its events, arms it, reaps: 1 when
 * something completed meanwhile (progress again instead of sleeping). */
int kv_vb_arm(kv_vb_t *vb);
/* Accepts and drops connections, marks QPs whose peer disconnected:
 * never waits. */
void kv_vb_events(kv_vb_t *vb);
/* Reaps completions: advances each QP's completed count, fails a QP on an
 * error completion; returns how many it reaped. */
int kv_vb_poll(kv_vb_t *vb);

/* A range for local and remote access (GPU memory: through a dma-buf of
 * the CUDA driver, else ibv_reg_mr where nvidia_peermem is loaded). */
int kv_vb_reg(kv_vb_t *vb, void *addr, size_t len, int gpu, kv_vmr_t **out, const char *fn);
void kv_vb_dereg(kv_vmr_t *m);
uint32_t kv_vb_lkey(const kv_vmr_t *m);
uint32_t kv_vb_rkey(const kv_vmr_t *m);

/* Connects to a peer's listener (its blob's a), waiting until deadline_ns
 * (kv_now_ns's clock). */
int kv_vb_connect(kv_vb_t *vb, const kv_vb_addr_t *a, uint64_t deadline_ns, kv_vqp_t **out,
                  const char *fn);
/* Disconnects and frees (its requests in flight end as failed). */
void kv_vb_disconnect(kv_vb_t *vb, kv_vqp_t *c);

/* Queues one RDMA read or write (posted when the chain fills, or at
 * kv_vb_flush); 0, or an errno with why in kv_vb_why. */
int kv_vb_rdma(kv_vqp_t *c, int is_read, void *local, uint32_t lkey, uint64_t raddr, uint32_t rkey,
               size_t len);
/* Queues an 8-byte atomic add (fetched into scratch) or a write of value,
 * fenced after what the QP has in flight. */
int kv_vb_signal(kv_vqp_t *c, int add, uint64_t value, uint64_t raddr, uint32_t rkey);
/* The mailbox's small operations, waited for (deadline_ns): a read of a
 * word, a compare-and-swap, a write of n bytes (copied, n up to 4 KiB). */
int kv_vb_fetch(kv_vqp_t *c, uint64_t raddr, uint32_t rkey, uint64_t *out, uint64_t deadline_ns);
int kv_vb_cas(kv_vqp_t *c, uint64_t raddr, uint32_t rkey, uint64_t expect, uint64_t desired,
              uint64_t *old, uint64_t deadline_ns);
int kv_vb_write(kv_vqp_t *c, uint64_t raddr, uint32_t rkey, const void *src, size_t n,
                uint64_t deadline_ns);
/* Posts what is queued, the last signaled: 0 with *seq the count that ends
 * it (done when kv_vb_completed reaches it), or an errno (kv_vb_why). */
int kv_vb_flush(kv_vqp_t *c, uint64_t *seq);
uint64_t kv_vb_completed(const kv_vqp_t *c);
/* Whether c failed (a completion in error, a disconnect), and why. */
int kv_vb_dead(const kv_vqp_t *c);
const char *kv_vb_why(const kv_vqp_t *c);
/* "10.66.0.1:40123", for lines. */
const char *kv_vb_peer_name(const kv_vqp_t *c);

#endif
