/*
 * libs/kv/kv_net_none.c - peers outside the job in a build without UCX:
 * their calls return GSHMEM_KV_ERR_UNSUPPORTED with a line, and nothing
 * else of the engine knows the difference (kv_net.c is the real one).
 */
#include "kv_impl.h"

#include <stddef.h>

static int unsupported(gshmem_kv_t *kv, const char *fn)
{
    if (kv_enter(kv, fn) == NULL)
        return GSHMEM_KV_ERR_HANDLE;
    kv_leave(kv);
    return kv_fail(GSHMEM_KV_ERR_UNSUPPORTED, fn,
                   "this libgshmem_kv was built without UCX (install libucx-dev and rebuild): "
                   "no peers outside the job");
}

int gshmem_kv_local_info(gshmem_kv_t *kv, void *buf, size_t cap, size_t *len)
{
    (void)buf, (void)cap, (void)len;
    return unsupported(kv, "gshmem_kv_local_info");
}

int gshmem_kv_peer_add(gshmem_kv_t *kv, const void *info, size_t len, int *peer)
{
    (void)info, (void)len, (void)peer;
    return unsupported(kv, "gshmem_kv_peer_add");
}

int gshmem_kv_peer_remove(gshmem_kv_t *kv, int peer)
{
    (void)peer;
    return unsupported(kv, "gshmem_kv_peer_remove");
}

int kv_net_blob(gshmem_kv_t *kv, unsigned char **out, size_t *len, const char *fn)
{
    (void)kv, (void)out, (void)len;
    return kv_fail(GSHMEM_KV_ERR_UNSUPPORTED, fn,
                   "this libgshmem_kv was built without UCX: no peers outside the job");
}

int kv_net_add(gshmem_kv_t *kv, const void *info, size_t len, int *peer, const char *fn)
{
    (void)info, (void)len, (void)peer;
    return kv_net_blob(kv, NULL, NULL, fn);
}

int kv_net_plan(gshmem_kv_t *kv, const gshmem_kv_xfer_t *x, const char *fn, kv_peer_t **P,
                void ***keys, void ***memh)
{
    (void)kv, (void)P, (void)keys, (void)memh;
    return kv_fail(GSHMEM_KV_ERR_RANGE, fn,
                   "PE %d is out of range (and this build has no peers "
                   "outside the job: no UCX)",
                   x->pe);
}

/* Never reached: no request to a peer outside the job is ever posted. */
void kv_net_op(gshmem_kv_t *kv, kv_req_t *r, int is_read, void *local, const char *remote,
               size_t len, void *key, void *memh)
{
    (void)kv, (void)r, (void)is_read, (void)local, (void)remote, (void)len, (void)key, (void)memh;
}

void kv_net_flush(gshmem_kv_t *kv, kv_req_t *r)
{
    (void)kv, (void)r;
}

int kv_net_req_status(gshmem_kv_t *kv, kv_req_t *r)
{
    (void)kv, (void)r;
    return 0;
}

void kv_net_progress(gshmem_kv_t *kv)
{
    (void)kv;
}

void kv_net_layout_drop(gshmem_kv_t *kv, int id)
{
    (void)kv, (void)id;
}

void kv_net_destroy(gshmem_kv_t *kv)
{
    (void)kv;
}

int kv_net_msg_send(gshmem_kv_t *kv, int peer, const void *data, size_t len, uint64_t deadline_ns,
                    const char *fn)
{
    (void)kv, (void)data, (void)len, (void)deadline_ns;
    return kv_fail(GSHMEM_KV_ERR_RANGE, fn,
                   "%d is not a PE of this job (and this build has no peers outside the job: no "
                   "UCX)",
                   peer);
}

/* Without UCX no engine outside the job can reach this one's mailbox. */
int kv_net_peer_of(gshmem_kv_t *kv, uint64_t engine)
{
    (void)kv, (void)engine;
    return -1;
}
