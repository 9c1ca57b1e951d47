/*
 * libs/kv/kv_mbox.c - the mailbox ring (kv_mbox.h), the engine's two
 * mailboxes, and gshmem_kv_signal_word, gshmem_kv_msg_send and
 * gshmem_kv_msg_recv.  The ops for peers outside the job are kv_net.c's.
 */
#define _GNU_SOURCE
#include "kv_impl.h"
#include "kv_mbox.h"

#include <shmem.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

_Static_assert(sizeof(kv_mslot_t) == 1024, "a slot is 1 KiB: 24 bytes of header and the message");
_Static_assert(offsetof(kv_mbox_t, tail) % 64 == 0 && offsetof(kv_mbox_t, head) % 64 == 0,
               "tail and head on lines of their own");

#define KV_MBOX_BODY (offsetof(kv_mslot_t, data) - offsetof(kv_mslot_t, len))
#define KV_ROOM_SLEEP_NS 50000 /* between two looks at a full mailbox's head */

/* ---- the ring ------------------------------------------------------------------- */

int kv_mbox_send(const kv_mbox_ops_t *ops, void *ctx, kv_mbox_t *mb, int from_pe,
                 uint64_t from_engine, const void *data, size_t len, uint64_t deadline_ns,
                 const char *who, const char *fn)
{
    kv_mslot_t body;
    uint64_t t, h, old;
    int rc;

    if ((rc = ops->fetch(ctx, &mb->tail, &t)) != 0)
        return rc;
    for (;;) {
        if ((rc = ops->fetch(ctx, &mb->head, &h)) != 0)
            return rc;
        if (t - h >= GSHMEM_KV_MSG_SLOTS) {
            struct timespec ts = {0, KV_ROOM_SLEEP_NS};

            if (kv_now_ns() >= deadline_ns)
                return kv_fail(GSHMEM_KV_ERR_BUSY, fn,
                               "%s's mailbox is full: %d messages wait that it has not received "
                               "(gshmem_kv_msg_recv)",
                               who, GSHMEM_KV_MSG_SLOTS);
            nanosleep(&ts, NULL);
            if ((rc = ops->fetch(ctx, &mb->tail, &t)) != 0)
                return rc;
            continue;
        }
        if ((rc = ops->cas(ctx, &mb->tail, t, t + 1, &old)) != 0)
            return rc;
        if (old == t)
            break;
        t = old; /* another sender took t: try the next */
    }
    body.len = (uint32_t)len;
    body.from_pe = from_pe;
    body.from_engine = from_engine;
    if (len)
        memcpy(body.data, data, len);
    if ((rc = ops->put(ctx, &mb->slot[t % GSHMEM_KV_MSG_SLOTS].len, &body.len,
                       KV_MBOX_BODY + len)) != 0)
        return rc;
    return ops->publish(ctx, &mb->slot[t % GSHMEM_KV_MSG_SLOTS].seq, t + 1);
}

int kv_mbox_take(kv_mbox_t *mb, gshmem_kv_msg_t *out)
{
    uint64_t h = __atomic_load_n(&mb->head, __ATOMIC_RELAXED); /* this process's own */
    kv_mslot_t *s = &mb->slot[h % GSHMEM_KV_MSG_SLOTS];
    size_t len;

    if (__atomic_load_n(&s->seq, __ATOMIC_ACQUIRE) != h + 1)
        return 0;
    /* The sender wrote len; a peer outside the job that holds the key
     * could write anything: never copy past the slot. */
    len = s->len <= GSHMEM_KV_MSG_MAX ? s->len : GSHMEM_KV_MSG_MAX;
    out->pe = s->from_pe;
    out->engine = s->from_engine;
    out->len = len;
    memcpy(out->data, s->data, len);
    __atomic_store_n(&s->seq, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&mb->head, h + 1, __ATOMIC_RELEASE); /* the slot is free again */
    return 1;
}

/* ---- a mailbox mapped here (a peer's memfd) ------------------------------------- */

static int mapped_fetch(void *ctx, uint64_t *word, uint64_t *out)
{
    (void)ctx;
    *out = __atomic_load_n(word, __ATOMIC_ACQUIRE);
    return 0;
}

static int mapped_cas(void *ctx, uint64_t *word, uint64_t expect, uint64_t desired, uint64_t *old)
{
    (void)ctx;
    __atomic_compare_exchange_n(word, &expect, desired, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
    *old = expect; /* the value seen: expect itself when the swap happened */
    return 0;
}

static int mapped_put(void *ctx, void *dst, const void *src, size_t n)
{
    (void)ctx;
    memcpy(dst, src, n);
    return 0;
}

static int mapped_publish(void *ctx, uint64_t *word, uint64_t v)
{
    (void)ctx;
    __atomic_store_n(word, v, __ATOMIC_RELEASE);
    return 0;
}

const kv_mbox_ops_t kv_mbox_mapped_ops = {.fetch = mapped_fetch,
                                          .cas = mapped_cas,
                                          .put = mapped_put,
                                          .publish = mapped_publish};

/* ---- a PE of the job: the symmetric mailbox, through the runtime ---------------- */

static int pe_fetch(void *ctx, uint64_t *word, uint64_t *out)
{
    *out = shmem_uint64_atomic_fetch(word, (int)(intptr_t)ctx);
    return 0;
}

static int pe_cas(void *ctx, uint64_t *word, uint64_t expect, uint64_t desired, uint64_t *old)
{
    *old = shmem_uint64_atomic_compare_swap(word, expect, desired, (int)(intptr_t)ctx);
    return 0;
}

static int pe_put(void *ctx, void *dst, const void *src, size_t n)
{
    shmem_putmem(dst, src, n, (int)(intptr_t)ctx);
    return 0;
}

static int pe_publish(void *ctx, uint64_t *word, uint64_t v)
{
    shmem_fence(); /* the body first */
    shmem_uint64_atomic_set(word, v, (int)(intptr_t)ctx);
    shmem_quiet();
    return 0;
}

static const kv_mbox_ops_t pe_ops = {.fetch = pe_fetch,
                                     .cas = pe_cas,
                                     .put = pe_put,
                                     .publish = pe_publish};

/* ---- the engine's mailboxes ----------------------------------------------------- */

int kv_mbox_create(gshmem_kv_t *kv, const char *fn)
{
    kv->xmbox_fd = memfd_create("gshmem-kv-mailbox", MFD_CLOEXEC);
    if (kv->xmbox_fd < 0 || ftruncate(kv->xmbox_fd, (off_t)sizeof(kv_mbox_t)) != 0) {
        int e = errno;

        if (kv->xmbox_fd >= 0)
            close(kv->xmbox_fd);
        kv->xmbox_fd = -1;
        return kv_fail(GSHMEM_KV_ERR_NOMEM, fn, "a memfd of %zu bytes for the mailbox: %s",
                       sizeof(kv_mbox_t), strerror(e));
    }
    kv->xmbox = (kv_mbox_t *)mmap(NULL, sizeof(kv_mbox_t), PROT_READ | PROT_WRITE, MAP_SHARED,
                                  kv->xmbox_fd, 0);
    if (kv->xmbox == MAP_FAILED) {
        int e = errno;

        kv->xmbox = NULL;
        close(kv->xmbox_fd);
        kv->xmbox_fd = -1;
        return kv_fail(GSHMEM_KV_ERR_NOMEM, fn, "mapping the mailbox: %s", strerror(e));
    }
    return 0;
}

void kv_mbox_destroy(gshmem_kv_t *kv)
{
    if (kv->xmbox)
        munmap(kv->xmbox, sizeof(kv_mbox_t));
    if (kv->xmbox_fd >= 0)
        close(kv->xmbox_fd);
    kv->xmbox = NULL;
    kv->xmbox_fd = -1;
}

uint64_t *gshmem_kv_signal_word(gshmem_kv_t *kv, int i)
{
    const char *fn = "gshmem_kv_signal_word";
    uint64_t *w;

    if (kv_enter(kv, fn) == NULL)
        return NULL;
    w = i >= 0 && i < GSHMEM_KV_SIGNAL_WORDS ? &kv->xmbox->signal[i] : NULL;
    kv_leave(kv);
    if (!w)
        kv_fail(GSHMEM_KV_ERR_RANGE, fn, "signal word %d is not 0 to %d", i,
                GSHMEM_KV_SIGNAL_WORDS - 1);
    return w;
}

int kv_signal_index(const gshmem_kv_t *kv, const uint64_t *addr)
{
    uintptr_t a = (uintptr_t)addr, b = (uintptr_t)kv->xmbox->signal;

    if (a < b || a >= b + sizeof kv->xmbox->signal || (a - b) % sizeof(uint64_t))
        return -1;
    return (int)((a - b) / sizeof(uint64_t));
}

int gshmem_kv_msg_send(gshmem_kv_t *kv, int peer, const void *data, size_t len)
{
    const char *fn = "gshmem_kv_msg_send";
    char who[32];
    uint64_t deadline;
    int rc;

    if (kv_enter(kv, fn) == NULL)
        return GSHMEM_KV_ERR_HANDLE;
    deadline = kv_now_ns() + (uint64_t)kv->cfg.default_timeout_ms * 1000000u;
    if (data == NULL && len > 0)
        rc = kv_fail(GSHMEM_KV_ERR_INVALID, fn, "data is NULL and len is %zu", len);
    else if (len > GSHMEM_KV_MSG_MAX)
        rc = kv_fail(GSHMEM_KV_ERR_RANGE, fn, "a message of %zu bytes: at most %d", len,
                     GSHMEM_KV_MSG_MAX);
    else if (kv_is_remote(peer))
        rc = kv_net_msg_send(kv, peer, data, len, deadline, fn);
    else if (peer < 0 || peer >= kv->npes)
        rc = kv_fail(GSHMEM_KV_ERR_RANGE, fn,
                     "%d is neither a PE of this job (0 to %d) nor a peer of gshmem_kv_peer_add",
                     peer, kv->npes - 1);
    else {
        snprintf(who, sizeof who, "PE %d", peer);
        rc = kv_mbox_send(&pe_ops, (void *)(intptr_t)peer, kv->mbox, kv->me, 0, data, len, deadline,
                          who, fn);
    }
    kv_leave(kv);
    return rc;
}

int gshmem_kv_msg_recv(gshmem_kv_t *kv, gshmem_kv_msg_t *msgs, size_t max, size_t *n)
{
    const char *fn = "gshmem_kv_msg_recv";
    size_t k = 0;

    if (kv_enter(kv, fn) == NULL)
        return GSHMEM_KV_ERR_HANDLE;
    if (n == NULL || (msgs == NULL && max > 0)) {
        kv_leave(kv);
        return kv_fail(GSHMEM_KV_ERR_INVALID, fn, "%s is NULL", n ? "msgs" : "n");
    }
    while (k < max && kv_mbox_take(kv->mbox, &msgs[k])) {
        msgs[k].peer = msgs[k].pe;
        k++;
    }
    kv_net_progress(kv); /* a peer's puts over tcp land as this side answers */
    while (k < max && kv_mbox_take(kv->xmbox, &msgs[k])) {
        msgs[k].peer = kv_net_peer_of(kv, msgs[k].engine);
        k++;
    }
    *n = k;
    kv_leave(kv);
    return 0;
}
