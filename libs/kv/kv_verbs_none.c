/*
 * libs/kv/kv_verbs_none.c - kv_verbs.h where libgshmem_kv was built
 * without librdmacm (or libibverbs): GSHMEM_KV_VERBS is refused with a
 * line at the first call that starts the net, so no kv_vb_t exists and
 * nothing below kv_vb_open is ever reached with one.
 */
#include "kv_impl.h"
#include "kv_verbs.h"

#include <errno.h>
#include <netdb.h>
#include <sys/socket.h>

int kv_vb_open(kv_vb_t **out, const char *where, void *mbox, size_t len, const char *fn)
{
    struct addrinfo hints = {.ai_flags = AI_NUMERICHOST, .ai_socktype = SOCK_STREAM}, *ai = NULL;
    int e = getaddrinfo(where, NULL, &hints, &ai);

    (void)out, (void)mbox, (void)len;
    if (e != 0) /* as kv_verbs.c says it */
        return kv_fail(GSHMEM_KV_ERR_INVALID, fn,
                       "GSHMEM_KV_VERBS=%s is not a numeric IPv4 or IPv6 address of this host: %s",
                       where, gai_strerror(e));
    freeaddrinfo(ai);
    return kv_fail(GSHMEM_KV_ERR_UNSUPPORTED, fn,
                   "GSHMEM_KV_VERBS=%s: this libgshmem_kv was built without librdmacm "
                   "(apt-get install librdmacm-dev, then configure again)",
                   where);
}

/* Called with NULL only (kv_net.c's cleanups). */
void kv_vb_close(kv_vb_t *vb)
{
    (void)vb;
}

/* The rest take a kv_vb_t or a QP, which cannot exist here: kv_net.c
 * calls them only with n->vb or q->vqp set.  They fail as a dead QP would. */
void kv_vb_addr(const kv_vb_t *vb, kv_vb_addr_t *a)
{
    (void)vb;
    *a = (kv_vb_addr_t){{0}, 0, {0}, 0, 0};
}

int kv_vb_fd(const kv_vb_t *vb)
{
    (void)vb;
    return -1;
}

int kv_vb_cq_fd(const kv_vb_t *vb)
{
    (void)vb;
    return -1;
}

int kv_vb_arm(kv_vb_t *vb)
{
    (void)vb;
    return 0;
}

void kv_vb_events(kv_vb_t *vb)
{
    (void)vb;
}

int kv_vb_poll(kv_vb_t *vb)
{
    (void)vb;
    return 0;
}

int kv_vb_reg(kv_vb_t *vb, void *addr, size_t len, int gpu, kv_vmr_t **out, const char *fn)
{
    (void)vb, (void)addr, (void)len, (void)gpu, (void)out;
    return kv_fail(GSHMEM_KV_ERR_UNSUPPORTED, fn, "built without librdmacm");
}

void kv_vb_dereg(kv_vmr_t *m)
{
    (void)m;
}

uint32_t kv_vb_lkey(const kv_vmr_t *m)
{
    (void)m;
    return 0;
}

uint32_t kv_vb_rkey(const kv_vmr_t *m)
{
    (void)m;
    return 0;
}

int kv_vb_connect(kv_vb_t *vb, const kv_vb_addr_t *a, uint64_t deadline_ns, kv_vqp_t **out,
                  const char *fn)
{
    (void)vb, (void)a, (void)deadline_ns, (void)out;
    return kv_fail(GSHMEM_KV_ERR_UNSUPPORTED, fn, "built without librdmacm");
}

void kv_vb_disconnect(kv_vb_t *vb, kv_vqp_t *c)
{
    (void)vb, (void)c;
}

int kv_vb_rdma(kv_vqp_t *c, int is_read, void *local, uint32_t lkey, uint64_t raddr, uint32_t rkey,
               size_t len)
{
    (void)c, (void)is_read, (void)local, (void)lkey, (void)raddr, (void)rkey, (void)len;
    return EPIPE;
}

int kv_vb_signal(kv_vqp_t *c, int add, uint64_t value, uint64_t raddr, uint32_t rkey)
{
    (void)c, (void)add, (void)value, (void)raddr, (void)rkey;
    return EPIPE;
}

int kv_vb_fetch(kv_vqp_t *c, uint64_t raddr, uint32_t rkey, uint64_t *out, uint64_t deadline_ns)
{
    (void)c, (void)raddr, (void)rkey, (void)out, (void)deadline_ns;
    return EPIPE;
}

int kv_vb_cas(kv_vqp_t *c, uint64_t raddr, uint32_t rkey, uint64_t expect, uint64_t desired,
              uint64_t *old, uint64_t deadline_ns)
{
    (void)c, (void)raddr, (void)rkey, (void)expect, (void)desired, (void)old, (void)deadline_ns;
    return EPIPE;
}

int kv_vb_write(kv_vqp_t *c, uint64_t raddr, uint32_t rkey, const void *src, size_t n,
                uint64_t deadline_ns)
{
    (void)c, (void)raddr, (void)rkey, (void)src, (void)n, (void)deadline_ns;
    return EPIPE;
}

int kv_vb_flush(kv_vqp_t *c, uint64_t *seq)
{
    (void)c;
    *seq = 0;
    return EPIPE;
}

uint64_t kv_vb_completed(const kv_vqp_t *c)
{
    (void)c;
    return 0;
}

int kv_vb_dead(const kv_vqp_t *c)
{
    (void)c;
    return 1;
}

const char *kv_vb_why(const kv_vqp_t *c)
{
    (void)c;
    return "built without librdmacm";
}

const char *kv_vb_peer_name(const kv_vqp_t *c)
{
    (void)c;
    return "?";
}
