/*
 * libs/kv/kv_direct.h - peers outside the job on this host, reached by
 * process_vm_readv/writev (one copy, no mapping, no UCX): kv_net.c uses it
 * for a peer whose blob names this machine's boot and pid namespace, once
 * a probe read of its memory has worked (same user, ptrace allowed).
 * Runs of a transfer are batched, up to KV_IOV to a call; the copies are
 * done by the time the request is posted, as for load/store PEs.  A peer
 * whose process ended fails at once (ESRCH), which UCX's shared-memory
 * transports could not tell (with peer failure detection on, UCX 1.13
 * gives them up for tcp over loopback: 7 times slower here).
 * GSHMEM_KV_DIRECT=0 turns it off (UCX for every peer).
 */
#ifndef KV_DIRECT_H
#define KV_DIRECT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/uio.h>

#define KV_IOV 256
#define KV_HOST_ID 40 /* /proc/sys/kernel/random/boot_id: 36 characters */

/* What the blob carries to say where its process lives. */
typedef struct kv_host {
    char boot[KV_HOST_ID];
    uint64_t pidns; /* the inode of /proc/self/ns/pid */
    int32_t pid, zero;
} kv_host_t;

typedef struct kv_batch {
    pid_t pid;
    int is_read, n;
    size_t bytes;
    struct iovec l[KV_IOV], r[KV_IOV];
} kv_batch_t;

/* This process's host id. */
void kv_host_self(kv_host_t *h);
/* 1 when a peer of host id h can be reached directly: the same boot and
 * pid namespace, not turned off, and a read of one byte at probe works. */
int kv_direct_usable(const kv_host_t *h, const void *probe);
/* Adds one run (copying the batch out first when it is full or goes the
 * other way or to another process); 0 or an errno. */
int kv_direct_add(kv_batch_t *b, pid_t pid, int is_read, void *local, const void *remote,
                  size_t len);
/* Copies what is batched; 0 or an errno (ESRCH: the process ended). */
int kv_direct_flush(kv_batch_t *b);

#endif
