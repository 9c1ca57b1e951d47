/*
 * libs/kv/kv_net.c - peers outside the job (gshmem_kv_local_info,
 * gshmem_kv_peer_add, gshmem_kv_peer_remove; the header says what they
 * promise).  The engine has a UCX context and worker of its own, made at
 * the first of those calls: the runtime's transport reaches only the PEs of
 * this job, and its keys are exchanged through the job's bootstrap.
 *
 * Memory.  A layout is mapped with ucp_mem_map region by region (each
 * region one range: blocks - 1 strides and a block) when a blob first
 * describes it, and unmapped with the layout; the blob carries each
 * region's address and packed key.  Nothing else of this process is
 * reachable through the worker.  A layout in GPU memory is mapped as
 * UCS_MEMORY_TYPE_CUDA where the context says it moves that memory type
 * (a UCX built with CUDA: cuda_copy, cuda_ipc, GPUDirect RDMA); where it
 * does not, the blob still names the layout, flagged without keys, so a
 * transfer to it is refused with a line that says why on either side.
 *
 * Same host.  A peer whose blob names this boot and pid namespace, and
 * whose memory a probe can read, is copied to and from directly
 * (kv_direct.c: process_vm_readv/writev, batched), with no UCX on the data
 * path: faster than UCX's choice here, and a dead process fails at once.
 *
 * Transfers.  kv_xfer.c walks the blocks as for a PE and calls kv_net_op
 * for each run (runs do not cross regions: each has its own key); then
 * kv_net_flush posts one flush of the peer's endpoint, whose end is the
 * request's (kv_req.c polls it with kv_net_req_status).  A put or get that
 * UCX refuses at once is kept in the request and ends it with the error.
 *
 * Threads.  The worker is SERIALIZED: every use holds the engine's lock.
 * A thread of the engine progresses it (and ends remote requests) from the
 * first local_info or peer_add on, sleeping on the worker's event fd when
 * nothing happens: a peer's gets and puts over tcp, and the wire-up of its
 * endpoint, need this side to answer.
 *
 * RDMA verbs.  Where GSHMEM_KV_VERBS names this host's address on an RDMA
 * device, the engine also listens there (kv_verbs.c), registers each
 * layout with that device when a blob first describes it, and the blob
 * carries the address, a token and each region's rkey.  A peer whose blob
 * has them, and that is not copied to directly, gets an RC QP connected by
 * this side instead of a UCX endpoint: its reads, writes, signals (an
 * atomic add, or a write, fenced after the data) and messages (reads,
 * compare-and-swaps and writes on its mailbox) are work requests of ours,
 * with no thread of the peer in the path; a request ends when its QP's
 * completions reach its last work request.  Why beside UCX, which also
 * drives RDMA NICs: one registration per layout and one doorbell per 32
 * runs, no wire-up protocol that needs UCX on both sides' terms (UCX 1.13
 * needs ud_verbs to wire rc_verbs up, and that fails on some RoCE GIDs:
 * tests/rdma/README.md), and a disconnect that fails requests at once.
 *
 * Signals and messages.  The engine's mailbox for peers outside the job
 * (kv_mbox.h) is mapped with ucp_mem_map at the worker's start; the blob
 * carries its address, its memfd's number and its key.  A peer on this
 * host that is copied to directly maps that memfd (it cannot make a
 * compare-and-swap with process_vm_writev); any other goes through UCX's
 * atomics and puts on the key.  A write's signal follows its runs behind
 * a worker fence (a direct peer's: after the copies, which are done when
 * they return); a read's goes once the read's flush has ended, and a
 * second flush ends the request.
 *
 * Blob (native byte order; a peer of another byte order fails the magic):
 *   u64 magic, u32 version, u32 total length, u64 nonce, i32 pe,
 *   i32 layouts, u32 address length, u32 0, the host (kv_direct.h: boot
 *   id, pid namespace, pid), u64 mailbox address, i32 its memfd, u32 its
 *   key's length, the verbs listener (kv_verbs.h's kv_vb_addr_t: all zero
 *   without), the worker address (padded to 8), the mailbox's key
 *   (padded to 8), then per layout: i32 id, i32 layers, i32 regions per layer,
 *   u32 flags (KV_LAY_*), u64 hash, i64 blocks, u64 block bytes, u64 stride,
 *   then per region: u64 address, u32 key length, u32 verbs rkey (0: none),
 *   the key (padded to 8; none with KV_LAY_NOKEY).
 */
#include "kv_impl.h"
#include "kv_direct.h"
#include "kv_mbox.h"
#include "kv_verbs.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <sys/mman.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ucp/api/ucp.h>

#define KV_INFO_MAGIC 0x4f464e49564b5347ull /* "GSKVINFO" */
#define KV_INFO_VERSION 5
#define KV_LAY_GPU 1u      /* the layout is GPU memory */
#define KV_LAY_NOKEY 2u    /* ... which its process's UCX cannot map: no keys */
#define KV_MAX_RPEERS 1024 /* peer ids are never reused: adds per engine */
#define KV_MAX_INFO_LAYOUTS 4096
#define KV_MAX_KEY 65536 /* a packed key longer than this is not one */
#define KV_CLOSE_WAIT_NS 5000000000ull
#define KV_IDLE_POLL_MS 50 /* the thread's sleep between checks of stop */

typedef struct kv_rlayout {
    int id;
    kv_peer_t P;     /* hash, blocks, stride; base: the peer's addresses */
    ucp_rkey_h *key; /* [regions] */
    void **vkey;     /* [regions]: verbs rkeys, as kv_xfer.c passes keys (0: none) */
    int n_regions;
    unsigned flags; /* KV_LAY_* */
} kv_rlayout_t;

typedef struct kv_rpeer {
    int live;
    int pe;       /* its PE in its own job (for lines) */
    pid_t direct; /* on this host and reachable by process_vm_*: its pid; 0: UCX */
    ucp_ep_h ep;
    ucs_status_t failed; /* UCS_OK while it works */
    kv_rlayout_t *lay;
    int n_lay;
    uint64_t nonce;      /* its engine's id: who a message is from */
    kv_mbox_t *mbox;     /* its mailbox: at its address (UCX), or mapped here (direct) */
    ucp_rkey_h mbox_key; /* UCX */
    kv_mbox_t *mbox_map; /* direct: the mapping of its memfd */
    kv_vqp_t *vqp;       /* over verbs: the QP this side connected */
    uint32_t mbox_vkey;  /* ... and its mailbox's rkey */
} kv_rpeer_t;

struct kv_net {
    ucp_context_h ctx;
    ucp_worker_h worker;
    int efd;
    int cuda; /* the context moves CUDA memory (ucp_context_query) */
    uint64_t nonce;
    ucp_mem_h **memh;    /* [max_layouts][regions]: the layouts a blob described */
    ucp_mem_h mbox_memh; /* the engine's mailbox for peers outside the job */
    kv_vb_t *vb;         /* verbs (GSHMEM_KV_VERBS), or NULL */
    kv_vmr_t ***vmr;     /* [max_layouts][regions]: their verbs registrations */
    kv_rpeer_t *peer;    /* [KV_MAX_RPEERS] */
    int n_peers;         /* ids handed out */
    pthread_t thread;
    int thread_on, stop;
    kv_batch_t batch; /* the runs of the post in progress to a direct peer */
};

static int ucx_fail(const char *fn, const char *what, ucs_status_t st)
{
    return kv_fail(GSHMEM_KV_ERR_NOMEM, fn, "UCX %s: %s", what, ucs_status_string(st));
}

/* ---- the worker and its thread ------------------------------------------------- */

static void *net_thread(void *arg)
{
    gshmem_kv_t *kv = (gshmem_kv_t *)arg;
    kv_net_t *n = kv->net;
    struct pollfd pfd[3] = {{.fd = n->efd, .events = POLLIN},
                            {.fd = n->vb ? kv_vb_fd(n->vb) : -1, .events = POLLIN},
                            {.fd = n->vb ? kv_vb_cq_fd(n->vb) : -1, .events = POLLIN}};

    pthread_mutex_lock(&kv->lock);
    while (!n->stop) {
        while (ucp_worker_progress(n->worker))
            ;
        if (n->vb) { /* connections to accept, peers that left; completions */
            kv_vb_events(n->vb);
            kv_vb_poll(n->vb);
        }
        kv_remote_pass(kv);
        if (ucp_worker_arm(n->worker) == UCS_ERR_BUSY)
            continue; /* events came in meanwhile */
        if (n->vb && kv_vb_arm(n->vb))
            continue; /* ... or completions */
        pthread_mutex_unlock(&kv->lock);
        poll(pfd, 3, KV_IDLE_POLL_MS);
        pthread_mutex_lock(&kv->lock);
    }
    pthread_mutex_unlock(&kv->lock);
    return NULL;
}

/* The context, worker and thread, at the first call that needs them
 * (lock held). */
static int net_up(gshmem_kv_t *kv, const char *fn)
{
    ucp_params_t p = {.field_mask = UCP_PARAM_FIELD_FEATURES,
                      .features = UCP_FEATURE_RMA | UCP_FEATURE_AMO64 | UCP_FEATURE_WAKEUP};
    ucp_worker_params_t wp = {.field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE,
                              .thread_mode = UCS_THREAD_MODE_SERIALIZED};
    ucp_config_t *cfg;
    kv_net_t *n;
    ucs_status_t st;
    int e, rc;

    if (kv->net)
        return 0;
    n = (kv_net_t *)calloc(1, sizeof *n);
    if (n)
        n->memh = (ucp_mem_h **)calloc((size_t)kv->cfg.max_layouts, sizeof(ucp_mem_h *));
    if (n)
        n->peer = (kv_rpeer_t *)calloc(KV_MAX_RPEERS, sizeof(kv_rpeer_t));
    if (n)
        n->vmr = (kv_vmr_t ***)calloc((size_t)kv->cfg.max_layouts, sizeof(kv_vmr_t **));
    if (!n || !n->memh || !n->peer || !n->vmr) {
        rc = kv_fail(GSHMEM_KV_ERR_NOMEM, fn, "out of memory");
        goto err_free;
    }
    if ((st = ucp_config_read(NULL, NULL, &cfg)) != UCS_OK) {
        rc = ucx_fail(fn, "ucp_config_read", st);
        goto err_free;
    }
    /* Over tcp, UCX 1.13 emulates a get with active messages of
     * TCP_TX_SEG_SIZE bytes (8K by default): KV blocks of 64 KiB and more
     * move 2-4 times faster in 64K pieces (the receive side's default
     * segment), 4 KiB blocks as before (perftest/README.md, kv_compare).
     * The key goes to every transport's table without its prefix, and
     * only tcp's has it (TCP_TX_SEG_SIZE; "TCP_TX_SEG_SIZE" itself is
     * accepted and ignored).  A UCX_TCP_TX_SEG_SIZE of the user's wins. */
    if (!getenv("UCX_TCP_TX_SEG_SIZE"))
        (void)ucp_config_modify(cfg, "TX_SEG_SIZE", "64K");
    st = ucp_init(&p, cfg, &n->ctx);
    ucp_config_release(cfg);
    if (st != UCS_OK) {
        rc = ucx_fail(fn, "ucp_init", st);
        goto err_free;
    }
    {
        ucp_context_attr_t a = {.field_mask = UCP_ATTR_FIELD_MEMORY_TYPES};

        n->cuda = ucp_context_query(n->ctx, &a) == UCS_OK &&
                  (a.memory_types & UCS_BIT(UCS_MEMORY_TYPE_CUDA)) != 0;
    }
    if ((st = ucp_worker_create(n->ctx, &wp, &n->worker)) != UCS_OK) {
        rc = ucx_fail(fn, "ucp_worker_create", st);
        goto err_ctx;
    }
    if ((st = ucp_worker_get_efd(n->worker, &n->efd)) != UCS_OK) {
        rc = ucx_fail(fn, "ucp_worker_get_efd", st);
        goto err_worker;
    }
    {
        ucp_mem_map_params_t mp = {.field_mask = UCP_MEM_MAP_PARAM_FIELD_ADDRESS |
                                                 UCP_MEM_MAP_PARAM_FIELD_LENGTH,
                                   .address = kv->xmbox,
                                   .length = sizeof(kv_mbox_t)};

        if ((st = ucp_mem_map(n->ctx, &mp, &n->mbox_memh)) != UCS_OK) {
            rc = ucx_fail(fn, "ucp_mem_map of the mailbox", st);
            goto err_worker;
        }
    }
    {
        const char *where = getenv("GSHMEM_KV_VERBS");

        if (where && *where && strcmp(where, "off") != 0 &&
            (rc = kv_vb_open(&n->vb, where, kv->xmbox, sizeof(kv_mbox_t), fn)) != 0)
            goto err_mbox;
    }
    n->nonce = kv_now_ns() ^ ((uint64_t)getpid() << 32) ^ (uint64_t)(uintptr_t)n;
    kv->net = n;
    if ((e = pthread_create(&n->thread, NULL, net_thread, kv)) != 0) {
        kv->net = NULL;
        rc = kv_fail(GSHMEM_KV_ERR_NOMEM, fn, "cannot start the UCX progress thread: %s",
                     strerror(e));
        goto err_mbox;
    }
    n->thread_on = 1;
    return 0;

err_mbox:
    kv_vb_close(n->vb);
    ucp_mem_unmap(n->ctx, n->mbox_memh);
err_worker:
    ucp_worker_destroy(n->worker);
err_ctx:
    ucp_cleanup(n->ctx);
err_free:
    if (n)
        free(n->memh), free(n->peer), free(n->vmr);
    free(n);
    return rc;
}

/* ---- local memory ------------------------------------------------------------ */

static size_t span_of(const kv_layout_t *L)
{
    return (size_t)(L->n_blocks - 1) * L->block_stride + L->block_bytes;
}

static int map_layout(gshmem_kv_t *kv, int id, const char *fn)
{
    kv_layout_t *L = &kv->layouts[id];
    ucp_mem_h *m;

    if (kv->net->memh[id])
        return 0;
    m = (ucp_mem_h *)calloc((size_t)L->n_regions, sizeof(ucp_mem_h));
    if (!m)
        return kv_fail(GSHMEM_KV_ERR_NOMEM, fn, "out of memory");
    for (int r = 0; r < L->n_regions; r++) {
        ucp_mem_map_params_t mp = {.field_mask = UCP_MEM_MAP_PARAM_FIELD_ADDRESS |
                                                 UCP_MEM_MAP_PARAM_FIELD_LENGTH,
                                   .address = L->base[r],
                                   .length = span_of(L)};
        ucs_status_t st;

        /* GPU memory: said, not left to UCX's detection (whose cache of
         * memory types a framework's allocator can outrun). */
        if (L->gpu) {
            mp.field_mask |= UCP_MEM_MAP_PARAM_FIELD_MEMORY_TYPE;
            mp.memory_type = UCS_MEMORY_TYPE_CUDA;
        }
        st = ucp_mem_map(kv->net->ctx, &mp, &m[r]);

        if (st != UCS_OK) {
            while (r-- > 0)
                ucp_mem_unmap(kv->net->ctx, m[r]);
            free(m);
            return kv_fail(GSHMEM_KV_ERR_NOMEM, fn,
                           "UCX ucp_mem_map of layout %d's region %d (%zu bytes at %p): %s", id, r,
                           span_of(L), (void *)L->base[r], ucs_status_string(st));
        }
    }
    kv->net->memh[id] = m;
    return 0;
}

/* The layout's verbs registrations, once (net up with verbs). */
static int vb_map_layout(gshmem_kv_t *kv, int id, const char *fn)
{
    kv_layout_t *L = &kv->layouts[id];
    kv_vmr_t **m;
    int rc;

    if (kv->net->vmr[id])
        return 0;
    if (!(m = (kv_vmr_t **)calloc((size_t)L->n_regions, sizeof(kv_vmr_t *))))
        return kv_fail(GSHMEM_KV_ERR_NOMEM, fn, "out of memory");
    for (int r = 0; r < L->n_regions; r++)
        if ((rc = kv_vb_reg(kv->net->vb, L->base[r], span_of(L), L->gpu, &m[r], fn)) != 0) {
            while (r-- > 0)
                kv_vb_dereg(m[r]);
            free(m);
            return rc;
        }
    kv->net->vmr[id] = m;
    return 0;
}

void kv_net_layout_drop(gshmem_kv_t *kv, int id)
{
    ucp_mem_h *m = kv->net ? kv->net->memh[id] : NULL;
    kv_vmr_t **v = kv->net ? kv->net->vmr[id] : NULL;

    for (int r = 0; v && r < kv->layouts[id].n_regions; r++)
        kv_vb_dereg(v[r]);
    if (v) {
        free(v);
        kv->net->vmr[id] = NULL;
    }
    if (!m)
        return;
    for (int r = 0; r < kv->layouts[id].n_regions; r++)
        ucp_mem_unmap(kv->net->ctx, m[r]);
    free(m);
    kv->net->memh[id] = NULL;
}

/* ---- the blob ---------------------------------------------------------------- */

typedef struct cursor {
    unsigned char *p; /* NULL: only count */
    size_t at, cap;
    const unsigned char *in;
} cursor_t;

static size_t pad8(size_t n)
{
    return (n + 7) & ~(size_t)7;
}

static void put_bytes(cursor_t *c, const void *src, size_t n)
{
    if (c->p && c->at + pad8(n) <= c->cap) {
        memcpy(c->p + c->at, src, n);
        memset(c->p + c->at + n, 0, pad8(n) - n);
    }
    c->at += pad8(n);
}

/* Reads n bytes (padded); NULL when the blob ends first. */
static const void *take(cursor_t *c, size_t n)
{
    const void *q;

    if (n > c->cap || c->at > c->cap - pad8(n))
        return NULL;
    q = c->in + c->at;
    c->at += pad8(n);
    return q;
}

typedef struct info_head {
    uint64_t magic;
    uint32_t version, length;
    uint64_t nonce;
    int32_t pe, n_layouts;
    uint32_t addr_len, zero;
    kv_host_t host;  /* where the process lives: a peer on this host copies directly */
    uint64_t mbox;   /* the mailbox's address */
    int32_t mbox_fd; /* its memfd, which a direct peer maps */
    uint32_t mbox_key_len;
    kv_vb_addr_t vb; /* the verbs listener; all zero: none */
} info_head_t;

typedef struct info_layout {
    int32_t id, n_layers, rpl;
    uint32_t flags; /* KV_LAY_* */
    uint64_t hash;
    int64_t n_blocks;
    uint64_t block_bytes, stride;
} info_layout_t;

typedef struct info_region {
    uint64_t addr;
    uint32_t key_len, vkey; /* vkey: the verbs rkey, 0: none */
} info_region_t;

/* Writes (or with c->p NULL, sizes) the blob; lock held, net up. */
static int write_info(gshmem_kv_t *kv, cursor_t *c, const char *fn)
{
    ucp_address_t *addr;
    size_t addr_len;
    info_head_t h = {.magic = KV_INFO_MAGIC,
                     .version = KV_INFO_VERSION,
                     .nonce = kv->net->nonce,
                     .pe = kv->me};
    ucs_status_t st = ucp_worker_get_address(kv->net->worker, &addr, &addr_len);
    size_t head_at = c->at, mkey_len;
    void *mkey;
    int rc = 0;

    if (st != UCS_OK)
        return ucx_fail(fn, "ucp_worker_get_address", st);
    if ((st = ucp_rkey_pack(kv->net->ctx, kv->net->mbox_memh, &mkey, &mkey_len)) != UCS_OK) {
        ucp_worker_release_address(kv->net->worker, addr);
        return ucx_fail(fn, "ucp_rkey_pack of the mailbox", st);
    }
    for (int id = 0; id < kv->cfg.max_layouts; id++)
        h.n_layouts += kv->layouts[id].live;
    h.addr_len = (uint32_t)addr_len;
    kv_host_self(&h.host);
    h.mbox = (uint64_t)(uintptr_t)kv->xmbox;
    h.mbox_fd = kv->xmbox_fd;
    h.mbox_key_len = (uint32_t)mkey_len;
    if (kv->net->vb)
        kv_vb_addr(kv->net->vb, &h.vb);
    put_bytes(c, &h, sizeof h);
    put_bytes(c, addr, addr_len);
    put_bytes(c, mkey, mkey_len);
    ucp_worker_release_address(kv->net->worker, addr);
    ucp_rkey_buffer_release(mkey);
    for (int id = 0; id < kv->cfg.max_layouts && rc == 0; id++) {
        kv_layout_t *L = &kv->layouts[id];
        const unsigned nokey = L->gpu && !kv->net->cuda ? KV_LAY_NOKEY : 0;
        info_layout_t il = {id,      L->n_layers, L->rpl,         (L->gpu ? KV_LAY_GPU : 0) | nokey,
                            L->hash, L->n_blocks, L->block_bytes, L->block_stride};

        if (!L->live)
            continue;
        if (!nokey && (rc = map_layout(kv, id, fn)) != 0)
            break;
        if (kv->net->vb && L->gpu) {
            /* GPU memory that the NIC cannot register (no dma-buf, no
             * nvidia_peermem) goes without verbs keys: a transfer to it is
             * refused with the registration's line, the rest still move. */
            kv_set_quiet(1);
            vb_map_layout(kv, id, fn);
            kv_set_quiet(0);
        } else if (kv->net->vb && (rc = vb_map_layout(kv, id, fn)) != 0)
            break;
        put_bytes(c, &il, sizeof il);
        for (int r = 0; r < L->n_regions; r++) {
            void *key;
            size_t key_len;
            info_region_t ir;

            const uint32_t vkey = kv->net->vb && kv->net->vmr[id] ? kv_vb_rkey(kv->net->vmr[id][r])
                                                                  : 0;

            if (nokey) { /* the address only: the peer's line names it */
                ir = (info_region_t){(uint64_t)(uintptr_t)L->base[r], 0, vkey};
                put_bytes(c, &ir, sizeof ir);
                continue;
            }
            st = ucp_rkey_pack(kv->net->ctx, kv->net->memh[id][r], &key, &key_len);
            if (st != UCS_OK) {
                rc = ucx_fail(fn, "ucp_rkey_pack", st);
                break;
            }
            ir = (info_region_t){(uint64_t)(uintptr_t)L->base[r], (uint32_t)key_len, vkey};
            put_bytes(c, &ir, sizeof ir);
            put_bytes(c, key, key_len);
            ucp_rkey_buffer_release(key);
        }
    }
    if (rc == 0 && c->p && c->at <= c->cap)
        ((info_head_t *)(c->p + head_at))->length = (uint32_t)(c->at - head_at);
    return rc;
}

int kv_net_blob(gshmem_kv_t *kv, unsigned char **out, size_t *len, const char *fn)
{
    cursor_t c = {0};
    int rc;

    if ((rc = net_up(kv, fn)) != 0 || (rc = write_info(kv, &c, fn)) != 0)
        return rc;
    c = (cursor_t){.p = (unsigned char *)malloc(c.at), .cap = c.at};
    if (!c.p)
        return kv_fail(GSHMEM_KV_ERR_NOMEM, fn, "out of memory for a blob of %zu bytes", c.cap);
    if ((rc = write_info(kv, &c, fn)) != 0 || c.at != c.cap) {
        free(c.p);
        return rc ? rc : kv_fail(GSHMEM_KV_ERR_STATE, fn, "the blob changed size while made");
    }
    *out = c.p, *len = c.at;
    return 0;
}

int gshmem_kv_local_info(gshmem_kv_t *kv, void *buf, size_t cap, size_t *len)
{
    const char *fn = "gshmem_kv_local_info";
    cursor_t c = {0};
    int rc;

    if (kv_enter(kv, fn) == NULL)
        return GSHMEM_KV_ERR_HANDLE;
    if (len == NULL) {
        kv_leave(kv);
        return kv_fail(GSHMEM_KV_ERR_INVALID, fn, "len is NULL");
    }
    if ((rc = net_up(kv, fn)) != 0 || (rc = write_info(kv, &c, fn)) != 0)
        goto out;
    *len = c.at;
    if (buf == NULL)
        goto out;
    if (cap < c.at) {
        rc = kv_fail(GSHMEM_KV_ERR_RANGE, fn,
                     "the blob is %zu bytes, buf has room for %zu "
                     "(call with buf NULL for the size)",
                     c.at, cap);
        goto out;
    }
    c = (cursor_t){.p = (unsigned char *)buf, .cap = cap};
    rc = write_info(kv, &c, fn);
out:
    kv_leave(kv);
    return rc;
}

/* ---- peers --------------------------------------------------------------------- */

static void on_ep_error(void *arg, ucp_ep_h ep, ucs_status_t status)
{
    kv_rpeer_t *q = (kv_rpeer_t *)arg;

    (void)ep;
    if (q->failed == UCS_OK)
        q->failed = status == UCS_OK ? UCS_ERR_CONNECTION_RESET : status;
}

static void rpeer_free_keys(kv_rpeer_t *q)
{
    for (int i = 0; i < q->n_lay; i++) {
        kv_rlayout_t *rl = &q->lay[i];

        for (int r = 0; rl->key && r < rl->n_regions; r++)
            if (rl->key[r])
                ucp_rkey_destroy(rl->key[r]);
        free(rl->key);
        free(rl->vkey);
        free(rl->P.base);
    }
    free(q->lay);
    q->lay = NULL, q->n_lay = 0;
}

/* Closes q's endpoint: its operations in flight end with an error (lock
 * held; the lock is let go around the progress, so the peer slot is
 * marked dead first). */
static void rpeer_close(gshmem_kv_t *kv, kv_rpeer_t *q)
{
    ucp_request_param_t prm = {.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS,
                               .flags = UCP_EP_CLOSE_FLAG_FORCE};
    ucs_status_ptr_t req;
    uint64_t t0 = kv_now_ns();

    rpeer_free_keys(q);
    if (q->mbox_map)
        munmap(q->mbox_map, sizeof(kv_mbox_t));
    q->mbox_map = NULL;
    if (q->mbox_key)
        ucp_rkey_destroy(q->mbox_key);
    q->mbox_key = NULL;
    if (q->vqp) { /* its work requests in flight end in error with the QP */
        kv_vb_disconnect(kv->net->vb, q->vqp);
        q->vqp = NULL;
        if (q->failed == UCS_OK)
            q->failed = UCS_ERR_CANCELED;
    }
    if (!q->ep)
        return;
    req = ucp_ep_close_nbx(q->ep, &prm);
    q->ep = NULL;
    if (q->failed == UCS_OK)
        q->failed = UCS_ERR_CANCELED;
    if (!UCS_PTR_IS_PTR(req))
        return;
    while (ucp_request_check_status(req) == UCS_INPROGRESS && kv_now_ns() - t0 < KV_CLOSE_WAIT_NS)
        ucp_worker_progress(kv->net->worker);
    ucp_request_free(req);
}

static int parse_layout(gshmem_kv_t *kv, kv_rpeer_t *q, cursor_t *c, int k, const char *fn)
{
    const info_layout_t *il = (const info_layout_t *)take(c, sizeof *il);
    gshmem_kv_layout_t shape = {0};
    kv_rlayout_t *rl = &q->lay[k];

    if (!il)
        return kv_fail(GSHMEM_KV_ERR_INVALID, fn, "the blob ends inside layout %d", k);
    shape.n_layers = il->n_layers, shape.regions_per_layer = il->rpl;
    shape.block_bytes = il->block_bytes;
    if (il->id < 0 || il->n_layers < 1 || il->rpl < 1 || il->rpl > KV_MAX_RPL ||
        (il->flags & ~(KV_LAY_GPU | KV_LAY_NOKEY)) != 0 || il->flags == KV_LAY_NOKEY ||
        il->n_layers > (1 << 20) / il->rpl || il->n_blocks < 1 || il->block_bytes < 1 ||
        il->stride < il->block_bytes || gshmem_kv_layout_hash(&shape) != il->hash)
        return kv_fail(GSHMEM_KV_ERR_INVALID, fn,
                       "the blob's layout %d is malformed (id %d, %d layers of %d regions, %lld "
                       "blocks of %llu bytes %llu apart, hash 0x%016llx, flags 0x%x)",
                       k, il->id, il->n_layers, il->rpl, (long long)il->n_blocks,
                       (unsigned long long)il->block_bytes, (unsigned long long)il->stride,
                       (unsigned long long)il->hash, il->flags);
    rl->id = il->id;
    rl->flags = il->flags;
    rl->n_regions = il->n_layers * il->rpl;
    rl->P.hash = il->hash, rl->P.n_blocks = il->n_blocks, rl->P.block_stride = il->stride;
    rl->P.symmetric = 1;
    rl->P.base = (char **)calloc((size_t)rl->n_regions, sizeof(char *));
    rl->key = (ucp_rkey_h *)calloc((size_t)rl->n_regions, sizeof(ucp_rkey_h));
    rl->vkey = (void **)calloc((size_t)rl->n_regions, sizeof(void *));
    if (!rl->P.base || !rl->key || !rl->vkey)
        return kv_fail(GSHMEM_KV_ERR_NOMEM, fn, "out of memory");
    for (int r = 0; r < rl->n_regions; r++) {
        const info_region_t *ir = (const info_region_t *)take(c, sizeof *ir);
        const void *key = ir && ir->key_len <= KV_MAX_KEY ? take(c, ir->key_len) : NULL;
        ucs_status_t st;

        if (!key)
            return kv_fail(GSHMEM_KV_ERR_INVALID, fn, "the blob ends inside region %d of layout %d",
                           r, rl->id);
        if ((ir->key_len == 0) != ((rl->flags & KV_LAY_NOKEY) != 0))
            return kv_fail(GSHMEM_KV_ERR_INVALID, fn,
                           "the blob's region %d of layout %d has a key of %u bytes, and the "
                           "layout says it has %s",
                           r, rl->id, ir->key_len, rl->flags & KV_LAY_NOKEY ? "none" : "one");
        rl->P.base[r] = (char *)(uintptr_t)ir->addr;
        rl->vkey[r] = (void *)(uintptr_t)ir->vkey;
        if (!q->ep || (rl->flags & KV_LAY_NOKEY))
            continue; /* checking only; a direct peer, which needs no key; no key */
        if ((st = ucp_ep_rkey_unpack(q->ep, key, &rl->key[r])) != UCS_OK)
            return kv_fail(GSHMEM_KV_ERR_INVALID, fn,
                           "the blob's key of region %d of layout %d: UCX ucp_ep_rkey_unpack: %s",
                           r, rl->id, ucs_status_string(st));
    }
    (void)kv;
    return 0;
}

/* Every layout of the blob at c into q->lay (keys unpacked when q has an
 * endpoint), and nothing after the last. */
static int parse_layouts(gshmem_kv_t *kv, kv_rpeer_t *q, cursor_t *c, int n, const char *fn)
{
    int rc;

    q->lay = (kv_rlayout_t *)calloc((size_t)n + 1, sizeof(kv_rlayout_t));
    if (!q->lay)
        return kv_fail(GSHMEM_KV_ERR_NOMEM, fn, "out of memory");
    for (int k = 0; k < n; k++) {
        q->n_lay = k + 1;
        if ((rc = parse_layout(kv, q, c, k, fn)) != 0)
            return rc;
    }
    if (c->at != c->cap)
        return kv_fail(GSHMEM_KV_ERR_INVALID, fn, "the blob has %zu bytes after its last layout",
                       c->cap - c->at);
    return 0;
}

/* A direct peer's mailbox: its memfd, mapped here; NULL when that is
 * refused (then the peer goes through UCX). */
static kv_mbox_t *map_peer_mbox(const info_head_t *h)
{
    char path[64];
    void *m;
    int fd;

    if (h->mbox_fd < 0)
        return NULL;
    snprintf(path, sizeof path, "/proc/%d/fd/%d", (int)h->host.pid, (int)h->mbox_fd);
    if ((fd = open(path, O_RDWR | O_CLOEXEC)) < 0)
        return NULL;
    m = mmap(NULL, sizeof(kv_mbox_t), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    return m == MAP_FAILED ? NULL : (kv_mbox_t *)m;
}

/* Whether q is copied to directly: on this host, readable by
 * process_vm_readv (probed at a host address of its: a host layout's
 * first region, else its mailbox), and with no GPU layout on either side
 * that UCX or verbs could move (process_vm_* reach host memory only; UCX's
 * cuda_ipc and an RDMA NIC's dma-buf reach both, so such a peer takes them
 * for everything). */
static int direct_ok(gshmem_kv_t *kv, const kv_rpeer_t *q, const info_head_t *h)
{
    const void *probe = q->mbox;
    int gpu = 0;

    for (int i = q->n_lay - 1; i >= 0; i--) {
        if (q->lay[i].flags & KV_LAY_GPU)
            gpu = 1;
        else
            probe = q->lay[i].P.base[0];
    }
    for (int id = 0; id < kv->cfg.max_layouts; id++)
        gpu |= kv->layouts[id].live && kv->layouts[id].gpu;
    return !(gpu && (kv->net->cuda || (kv->net->vb && h->vb.sa_len))) &&
           kv_direct_usable(&h->host, probe);
}

int kv_net_add(gshmem_kv_t *kv, const void *info, size_t len, int *peer, const char *fn)
{
    cursor_t c = {.in = (const unsigned char *)info, .cap = len};
    size_t after_addr = 0;
    const info_head_t *h;
    const void *addr, *mkey;
    kv_rpeer_t *q;
    int rc = 0;

    h = (const info_head_t *)take(&c, sizeof *h);
    if (!h || h->magic != KV_INFO_MAGIC || h->version != KV_INFO_VERSION)
        return kv_fail(GSHMEM_KV_ERR_INVALID, fn,
                       "%zu bytes are not a blob of gshmem_kv_local_info (version %d)", len,
                       KV_INFO_VERSION);
    if (h->length != len || h->n_layouts < 0 || h->n_layouts > KV_MAX_INFO_LAYOUTS ||
        !(addr = take(&c, h->addr_len)) || h->mbox_key_len > KV_MAX_KEY ||
        !(mkey = take(&c, h->mbox_key_len))) {
        return kv_fail(
            GSHMEM_KV_ERR_INVALID, fn,
            "the blob says it has %u bytes (and %d layouts), and it has %zu: cut short or "
            "changed on the way",
            h->length, h->n_layouts, len);
    }
    after_addr = c.at;
    if ((rc = net_up(kv, fn)) != 0)
        return rc;
    if (kv->net->n_peers == KV_MAX_RPEERS)
        return kv_fail(GSHMEM_KV_ERR_BUSY, fn, "this engine has added %d peers, its most",
                       KV_MAX_RPEERS);
    q = &kv->net->peer[kv->net->n_peers];
    memset(q, 0, sizeof *q);
    q->pe = h->pe;
    q->nonce = h->nonce;
    q->mbox = (kv_mbox_t *)(uintptr_t)h->mbox;
    /* The layouts first without an endpoint (checks, addresses): a peer
     * on this host that this process may read is copied to directly, and
     * gets no UCX endpoint at all (an endpoint closed before its wire-up
     * ends makes UCX 1.13 abort the other side: ucp_request.c's assertion
     * "got REP message"). */
    if ((rc = parse_layouts(kv, q, &c, h->n_layouts, fn)) != 0)
        goto err_close;
    if (direct_ok(kv, q, h) && (q->mbox_map = map_peer_mbox(h)) != NULL) {
        q->direct = (pid_t)h->host.pid;
        goto done;
    }
    if (kv->net->vb && h->vb.sa_len != 0) {
        /* Both sides have verbs: an RC QP, no UCX endpoint. */
        uint64_t deadline = kv_now_ns() + (uint64_t)kv->cfg.default_timeout_ms * 1000000u;

        if ((rc = kv_vb_connect(kv->net->vb, &h->vb, deadline, &q->vqp, fn)) != 0)
            goto err_close;
        q->mbox_vkey = h->vb.mbox_rkey;
        if (kv_info_on())
            fprintf(stderr, "gshmem: PE %d: %s: peer %d (PE %d of its job) over verbs, %s\n",
                    kv->me, fn, GSHMEM_KV_PEER_REMOTE + kv->net->n_peers, q->pe,
                    kv_vb_peer_name(q->vqp));
        goto done;
    }
    rpeer_free_keys(q);
    c.at = after_addr;
    {
        ucp_ep_params_t ep = {.field_mask = UCP_EP_PARAM_FIELD_REMOTE_ADDRESS |
                                            UCP_EP_PARAM_FIELD_ERR_HANDLING_MODE |
                                            UCP_EP_PARAM_FIELD_ERR_HANDLER,
                              .address = (const ucp_address_t *)addr,
                              .err_mode = UCP_ERR_HANDLING_MODE_PEER,
                              .err_handler = {.cb = on_ep_error, .arg = q}};
        ucs_status_t st = ucp_ep_create(kv->net->worker, &ep, &q->ep);

        if (st != UCS_OK) {
            q->ep = NULL;
            return kv_fail(GSHMEM_KV_ERR_INVALID, fn, "UCX ucp_ep_create to the blob's worker: %s",
                           ucs_status_string(st));
        }
    }
    {
        ucs_status_t st = ucp_ep_rkey_unpack(q->ep, mkey, &q->mbox_key);

        if (st != UCS_OK) {
            q->mbox_key = NULL;
            rc = kv_fail(GSHMEM_KV_ERR_INVALID, fn,
                         "the blob's mailbox key: UCX ucp_ep_rkey_unpack: %s",
                         ucs_status_string(st));
            goto err_close;
        }
    }
    if ((rc = parse_layouts(kv, q, &c, h->n_layouts, fn)) != 0)
        goto err_close;
done:
    q->live = 1;
    *peer = GSHMEM_KV_PEER_REMOTE + kv->net->n_peers++;
    return 0;

err_close:
    rpeer_close(kv, q);
    memset(q, 0, sizeof *q);
    return rc;
}

int gshmem_kv_peer_add(gshmem_kv_t *kv, const void *info, size_t len, int *peer)
{
    const char *fn = "gshmem_kv_peer_add";
    int rc;

    if (kv_enter(kv, fn) == NULL)
        return GSHMEM_KV_ERR_HANDLE;
    if (info == NULL || peer == NULL)
        rc = kv_fail(GSHMEM_KV_ERR_INVALID, fn, "%s is NULL", info ? "peer" : "info");
    else
        rc = kv_net_add(kv, info, len, peer, fn);
    kv_leave(kv);
    return rc;
}

/* The live peer of id, or NULL and a line. */
static kv_rpeer_t *rpeer(gshmem_kv_t *kv, int id, const char *fn)
{
    int i = id - GSHMEM_KV_PEER_REMOTE;

    if (!kv->net || i < 0 || i >= kv->net->n_peers) {
        kv_fail(GSHMEM_KV_ERR_RANGE, fn,
                "%d is neither a PE of this job (0 to %d) nor a peer of gshmem_kv_peer_add", id,
                kv->npes - 1);
        return NULL;
    }
    if (!kv->net->peer[i].live) {
        kv_fail(GSHMEM_KV_ERR_PEER, fn, "peer %d was removed", id);
        return NULL;
    }
    return &kv->net->peer[i];
}

int gshmem_kv_peer_remove(gshmem_kv_t *kv, int id)
{
    const char *fn = "gshmem_kv_peer_remove";
    kv_rpeer_t *q;

    if (kv_enter(kv, fn) == NULL)
        return GSHMEM_KV_ERR_HANDLE;
    if ((q = rpeer(kv, id, fn)) == NULL) {
        kv_leave(kv);
        return kv->net && id - GSHMEM_KV_PEER_REMOTE < kv->net->n_peers &&
                       id >= GSHMEM_KV_PEER_REMOTE
                   ? GSHMEM_KV_ERR_PEER
                   : GSHMEM_KV_ERR_RANGE;
    }
    q->live = 0;
    rpeer_close(kv, q);
    kv_remote_pass(kv); /* its requests end now */
    kv_leave(kv);
    return 0;
}

/* ---- transfers ----------------------------------------------------------------- */

/* Whether q failed: a verbs QP's failure is taken into q->failed here. */
static int gone(kv_rpeer_t *q)
{
    if (q->failed == UCS_OK && q->vqp && kv_vb_dead(q->vqp))
        q->failed = UCS_ERR_CONNECTION_RESET;
    return q->failed != UCS_OK;
}

/* Posts q's queued work requests: the request's net_seq (the QP's count
 * that ends it, plus one: 0 is none), or 0 when the QP failed. */
static uint64_t vb_flush(kv_rpeer_t *q)
{
    uint64_t seq;

    return kv_vb_flush(q->vqp, &seq) == 0 ? seq + 1 : 0;
}

/* Why q failed, for lines. */
static const char *gone_why(const kv_rpeer_t *q)
{
    return q->vqp && kv_vb_dead(q->vqp) ? kv_vb_why(q->vqp) : ucs_status_string(q->failed);
}

/* A transfer with GPU memory on either side: refused, with the side and
 * the reason, where the path cannot carry it. */
static int plan_gpu(gshmem_kv_t *kv, const kv_rpeer_t *q, const kv_rlayout_t *rl,
                    const gshmem_kv_xfer_t *x, const char *fn)
{
    const int mine = kv->layouts[x->layout].gpu, theirs = (rl->flags & KV_LAY_GPU) != 0;

    if (!mine && !theirs)
        return 0;
    if (q->vqp) /* verbs: registered through a dma-buf (or nvidia_peermem) at the blob */
        return 0;
    if (mine && !kv->net->cuda)
        return kv_fail(GSHMEM_KV_ERR_UNSUPPORTED, fn,
                       "layout %d is GPU memory, and this process's UCX moves host memory only "
                       "(built without CUDA: a UCX with cuda_copy and cuda_ipc, such as PyPI's "
                       "libucx-cu12, first on the library path, moves it)",
                       x->layout);
    if (rl->flags & KV_LAY_NOKEY)
        return kv_fail(GSHMEM_KV_ERR_UNSUPPORTED, fn,
                       "peer %d's layout %d is GPU memory, and its process's UCX moves host "
                       "memory only (built without CUDA): it gave no keys for it",
                       x->pe, x->layout);
    if (q->direct && !kv->net->cuda)
        return kv_fail(GSHMEM_KV_ERR_UNSUPPORTED, fn,
                       "peer %d's layout %d is GPU memory, and this process's UCX moves host "
                       "memory only (built without CUDA), so this peer on the same host is "
                       "copied to with process_vm_readv/writev, which reach host memory only",
                       x->pe, x->layout);
    if (q->direct)
        return kv_fail(GSHMEM_KV_ERR_UNSUPPORTED, fn,
                       "peer %d is on this host and copied to with process_vm_readv/writev, "
                       "which reach host memory only; layout %d is GPU memory here, "
                       "registered after the peer was added (add the peer again: a peer with "
                       "GPU memory on either side goes through UCX)",
                       x->pe, x->layout);
    return 0;
}

int kv_net_plan(gshmem_kv_t *kv, const gshmem_kv_xfer_t *x, const char *fn, kv_peer_t **P,
                void ***keys, void ***memh)
{
    kv_rpeer_t *q = rpeer(kv, x->pe, fn);

    if (!q)
        return x->pe >= GSHMEM_KV_PEER_REMOTE && kv->net &&
                       x->pe - GSHMEM_KV_PEER_REMOTE < kv->net->n_peers
                   ? GSHMEM_KV_ERR_PEER
                   : GSHMEM_KV_ERR_RANGE;
    if (gone(q))
        return kv_fail(GSHMEM_KV_ERR_PEER, fn, "peer %d (PE %d of its job) is gone: %s", x->pe,
                       q->pe, gone_why(q));
    for (int i = 0; i < q->n_lay; i++)
        if (q->lay[i].id == x->layout) {
            int rc;

            *P = &q->lay[i].P;
            *keys = (void **)q->lay[i].key;
            *memh = NULL;
            if ((rc = plan_gpu(kv, q, &q->lay[i], x, fn)) != 0 || q->direct)
                return rc;
            if (q->vqp) {
                /* Its rkeys; this side's registrations (made at the
                 * first blob, or now). */
                for (int r = 0; r < q->lay[i].n_regions; r++)
                    if (!q->lay[i].vkey[r])
                        return kv_fail(q->lay[i].flags & KV_LAY_GPU ? GSHMEM_KV_ERR_UNSUPPORTED
                                                                    : GSHMEM_KV_ERR_INVALID,
                                       fn,
                                       "peer %d's blob has no verbs key for region %d of "
                                       "layout %d%s",
                                       x->pe, r, x->layout,
                                       q->lay[i].flags & KV_LAY_GPU
                                           ? " (GPU memory its RDMA device could not register: "
                                             "no dma-buf from its CUDA driver, no nvidia_peermem)"
                                           : "");
                if ((rc = vb_map_layout(kv, x->layout, fn)) != 0)
                    return rc;
                *keys = q->lay[i].vkey;
                *memh = (void **)kv->net->vmr[x->layout];
                return 0;
            }
            /* This side mapped too (once per layout), its handle passed
             * with each run: an RDMA transport then uses the layout's own
             * registration instead of a lookup in (or a registration into)
             * UCX's cache per operation, and GPU memory is known as such.
             * (Over tcp, UCX 1.13 emulates puts and gets with active
             * messages either way: no difference measured there.) */
            if ((rc = map_layout(kv, x->layout, fn)) != 0)
                return rc;
            *memh = (void **)kv->net->memh[x->layout];
            return 0;
        }
    return kv_fail(GSHMEM_KV_ERR_NOT_FOUND, fn,
                   "peer %d's blob has no layout %d (registered after the blob was made?)", x->pe,
                   x->layout);
}

/* A direct copy failed with errno e: the request's status, and a peer
 * whose process ended is failed for good. */
static int direct_fail(kv_rpeer_t *q, kv_req_t *r, int e)
{
    if (e == ESRCH)
        q->failed = UCS_ERR_CONNECTION_RESET;
    return kv_fail(GSHMEM_KV_ERR_PEER, r->is_read ? "gshmem_kv_read" : "gshmem_kv_write",
                   "peer %d (PE %d of its job, pid %d on this host): %s", r->pe, q->pe,
                   (int)q->direct,
                   e == ESRCH    ? "its process ended"
                   : e == EFAULT ? "a block is not mapped there any more (its layout "
                                   "was deregistered?)"
                                 : strerror(e));
}

void kv_net_op(gshmem_kv_t *kv, kv_req_t *r, int is_read, void *local, const char *remote,
               size_t len, void *key, void *memh)
{
    kv_rpeer_t *q = &kv->net->peer[r->pe - GSHMEM_KV_PEER_REMOTE];
    ucp_ep_h ep = q->ep;
    ucp_request_param_t prm = {.op_attr_mask = 0};
    ucs_status_ptr_t s;
    int e;

    if (r->net_status != 0)
        return; /* an operation failed already: the request ends with it */
    if (memh) {
        prm.op_attr_mask |= UCP_OP_ATTR_FIELD_MEMH;
        prm.memh = (ucp_mem_h)memh;
    }
    if (kv->layouts[r->layout].gpu) { /* the local side's kind, said */
        prm.op_attr_mask |= UCP_OP_ATTR_FIELD_MEMORY_TYPE;
        prm.memory_type = UCS_MEMORY_TYPE_CUDA;
    }
    if (q->direct) {
        if ((e = kv_direct_add(&kv->net->batch, q->direct, is_read, local, remote, len)) != 0)
            r->net_status = direct_fail(q, r, e);
        return;
    }
    if (q->vqp) {
        if (kv_vb_rdma(q->vqp, is_read, local, kv_vb_lkey((kv_vmr_t *)memh),
                       (uint64_t)(uintptr_t)remote, (uint32_t)(uintptr_t)key, len) != 0)
            r->net_status = kv_fail(GSHMEM_KV_ERR_PEER,
                                    is_read ? "gshmem_kv_read" : "gshmem_kv_write",
                                    "peer %d (PE %d of its job): %s", r->pe, q->pe,
                                    kv_vb_why(q->vqp));
        return;
    }
    s = is_read ? ucp_get_nbx(ep, local, len, (uint64_t)(uintptr_t)remote, (ucp_rkey_h)key, &prm)
                : ucp_put_nbx(ep, local, len, (uint64_t)(uintptr_t)remote, (ucp_rkey_h)key, &prm);
    if (UCS_PTR_IS_PTR(s))
        ucp_request_free(s); /* the flush covers it */
    else if (UCS_PTR_IS_ERR(s))
        r->net_status = kv_fail(GSHMEM_KV_ERR_PEER, is_read ? "gshmem_kv_read" : "gshmem_kv_write",
                                "UCX %s to peer %d: %s", is_read ? "get" : "put", r->pe,
                                ucs_status_string(UCS_PTR_STATUS(s)));
}

/* r's signal to q: word kv_signal_index(r->sig.addr) of q's engine.  A
 * direct peer's is done on return; a UCX one is covered by the next
 * flush (its operand is the request's own, which outlives the flush). */
static void send_signal(gshmem_kv_t *kv, kv_rpeer_t *q, kv_req_t *r)
{
    int i = kv_signal_index(kv, r->sig.addr);
    ucp_request_param_t prm = {.op_attr_mask = UCP_OP_ATTR_FIELD_DATATYPE,
                               .datatype = ucp_dt_make_contig(sizeof(uint64_t))};
    uint64_t remote = (uint64_t)(uintptr_t)&q->mbox->signal[i];
    ucs_status_ptr_t s;

    if (q->direct) {
        uint64_t *w = &q->mbox_map->signal[i];

        if (r->sig.op == GSHMEM_KV_SIGNAL_SET)
            __atomic_store_n(w, r->sig.value, __ATOMIC_RELEASE);
        else
            __atomic_fetch_add(w, r->sig.value, __ATOMIC_ACQ_REL);
        return;
    }
    if (q->vqp) {
        if (kv_vb_signal(q->vqp, r->sig.op != GSHMEM_KV_SIGNAL_SET, r->sig.value, remote,
                         q->mbox_vkey) != 0)
            r->net_status = kv_fail(GSHMEM_KV_ERR_PEER,
                                    r->is_read ? "gshmem_kv_read" : "gshmem_kv_write",
                                    "the signal to peer %d (PE %d of its job): %s", r->pe, q->pe,
                                    kv_vb_why(q->vqp));
        return;
    }
    if (r->sig.op == GSHMEM_KV_SIGNAL_SET)
        s = ucp_put_nbx(q->ep, &r->sig.value, sizeof(uint64_t), remote, q->mbox_key, &prm);
    else
        s = ucp_atomic_op_nbx(q->ep, UCP_ATOMIC_OP_ADD, &r->sig.value, 1, remote, q->mbox_key,
                              &prm);
    if (UCS_PTR_IS_PTR(s))
        ucp_request_free(s);
    else if (UCS_PTR_IS_ERR(s))
        r->net_status = kv_fail(GSHMEM_KV_ERR_PEER,
                                r->is_read ? "gshmem_kv_read" : "gshmem_kv_write",
                                "UCX signal to peer %d: %s", r->pe,
                                ucs_status_string(UCS_PTR_STATUS(s)));
}

void kv_net_flush(gshmem_kv_t *kv, kv_req_t *r)
{
    kv_rpeer_t *q = &kv->net->peer[r->pe - GSHMEM_KV_PEER_REMOTE];
    ucp_ep_h ep = q->ep;
    ucp_request_param_t prm = {.op_attr_mask = 0};
    ucs_status_ptr_t s;
    int e;

    if (q->direct) {
        /* The last runs; what a failed run left batched is dropped. */
        e = kv_direct_flush(&kv->net->batch);
        if (e != 0 && r->net_status == 0)
            r->net_status = direct_fail(q, r, e);
        kv->net->batch.n = 0;
        if (r->net_status == 0 && !r->is_read && r->sig.addr)
            send_signal(kv, q, r); /* the copies are done */
        return;
    }
    if (r->net_status != 0)
        return;
    if (q->vqp) {
        if (!r->is_read && r->sig.addr)
            send_signal(kv, q, r); /* fenced after the writes, on the same QP */
        if (r->net_status == 0 && (r->net_seq = vb_flush(q)) == 0)
            r->net_status = kv_fail(GSHMEM_KV_ERR_PEER,
                                    r->is_read ? "gshmem_kv_read" : "gshmem_kv_write",
                                    "peer %d (PE %d of its job): %s", r->pe, q->pe,
                                    kv_vb_why(q->vqp));
        return;
    }
    if (!r->is_read && r->sig.addr) {
        ucp_worker_fence(kv->net->worker); /* the signal after every run */
        send_signal(kv, q, r);
        if (r->net_status != 0)
            return;
    }
    s = ucp_ep_flush_nbx(ep, &prm);
    if (UCS_PTR_IS_PTR(s))
        r->flush = s;
    else if (UCS_PTR_IS_ERR(s))
        r->net_status = GSHMEM_KV_ERR_PEER;
}

int kv_net_req_status(gshmem_kv_t *kv, kv_req_t *r)
{
    kv_rpeer_t *q = &kv->net->peer[r->pe - GSHMEM_KV_PEER_REMOTE];
    ucs_status_t st;

    if (r->net_seq) {
        /* Over verbs: done when the QP's completions reach its last work
         * request; failed when the QP did first (or is gone: removed).
         * The CQ was polled just before this pass (kv_net_progress, the
         * net thread), not once per request. */
        if (q->vqp && kv_vb_completed(q->vqp) + 1 < r->net_seq && !kv_vb_dead(q->vqp))
            return GSHMEM_KV_INPROGRESS;
        if ((!q->vqp || kv_vb_completed(q->vqp) + 1 < r->net_seq) && r->net_status == 0)
            r->net_status = kv_fail(GSHMEM_KV_ERR_PEER, "gshmem_kv",
                                    "a %s of %llu bytes with peer %d (PE %d of its job) failed: %s",
                                    r->is_read ? "read" : "write",
                                    (unsigned long long)r->stats.bytes, r->pe, q->pe,
                                    q->vqp ? kv_vb_why(q->vqp) : "the peer was removed");
        r->net_seq = 0;
    }
    if (r->flush) {
        /* Also when the peer failed or was removed: UCX ends the flush
         * with an error, and a request in flight is never freed. */
        if ((st = ucp_request_check_status(r->flush)) == UCS_INPROGRESS)
            return GSHMEM_KV_INPROGRESS;
        ucp_request_free(r->flush);
        r->flush = NULL;
        if (st != UCS_OK && r->net_status == 0)
            r->net_status = kv_fail(GSHMEM_KV_ERR_PEER, "gshmem_kv",
                                    "a %s of %llu bytes with peer %d (PE %d of its job) failed: %s",
                                    r->is_read ? "read" : "write",
                                    (unsigned long long)r->stats.bytes, r->pe, q->pe,
                                    ucs_status_string(st));
    }
    /* A read's signal: "I have read your blocks", once they are here. */
    if (r->net_status == 0 && r->is_read && r->sig.addr && !r->canceled && !r->sig_sent) {
        ucp_request_param_t prm = {.op_attr_mask = 0};
        ucs_status_ptr_t s;

        r->sig_sent = 1;
        send_signal(kv, q, r);
        if (q->direct || r->net_status != 0)
            return r->net_status;
        if (q->vqp) {
            if ((r->net_seq = vb_flush(q)) != 0)
                return GSHMEM_KV_INPROGRESS;
            return r->net_status = kv_fail(GSHMEM_KV_ERR_PEER, "gshmem_kv_read",
                                           "the signal to peer %d (PE %d of its job): %s", r->pe,
                                           q->pe, kv_vb_why(q->vqp));
        }
        s = ucp_ep_flush_nbx(q->ep, &prm);
        if (UCS_PTR_IS_PTR(s)) {
            r->flush = s;
            return GSHMEM_KV_INPROGRESS;
        }
        if (UCS_PTR_IS_ERR(s))
            r->net_status = kv_fail(GSHMEM_KV_ERR_PEER, "gshmem_kv_read",
                                    "UCX flush of the signal to peer %d: %s", r->pe,
                                    ucs_status_string(UCS_PTR_STATUS(s)));
    }
    return r->net_status;
}

void kv_net_progress(gshmem_kv_t *kv)
{
    if (!kv->net)
        return;
    while (ucp_worker_progress(kv->net->worker))
        ;
    /* Completions only: the connection manager's events (accepts,
     * disconnects) are the net thread's, woken by their fd, so a waiter's
     * loop makes no system call for them. */
    if (kv->net->vb)
        kv_vb_poll(kv->net->vb);
}

void kv_net_destroy(gshmem_kv_t *kv)
{
    kv_net_t *n = kv->net;

    if (!n)
        return;
    if (n->thread_on) {
        n->stop = 1;
        pthread_mutex_unlock(&kv->lock);
        pthread_join(n->thread, NULL);
        pthread_mutex_lock(&kv->lock);
    }
    for (int i = 0; i < n->n_peers; i++) {
        n->peer[i].live = 0;
        rpeer_close(kv, &n->peer[i]);
    }
    /* The closes end what was in flight; a flush UCX never ends is left
     * (leaked), never freed under it. */
    for (uint64_t t0 = kv_now_ns(); kv->n_rposted && kv_now_ns() - t0 < KV_CLOSE_WAIT_NS;) {
        ucp_worker_progress(n->worker);
        kv_remote_pass(kv);
    }
    for (int id = 0; id < kv->cfg.max_layouts; id++)
        kv_net_layout_drop(kv, id);
    kv_vb_close(n->vb); /* after the layouts' registrations, on its PD */
    ucp_mem_unmap(n->ctx, n->mbox_memh);
    ucp_worker_destroy(n->worker);
    ucp_cleanup(n->ctx);
    free(n->memh), free(n->peer), free(n->vmr);
    free(n);
    kv->net = NULL;
}

/* ---- messages ------------------------------------------------------------------- */

/* How kv_mbox_send reaches a UCX peer's mailbox: each operation waits for
 * its end (the lock held, progressing the worker), until the deadline.
 * Operands and results live in the peer's slot (scratch), never on a
 * stack that a late completion could write. */
typedef struct ucx_mctx {
    gshmem_kv_t *kv;
    kv_rpeer_t *q;
    uint64_t deadline;
    const char *fn;
    uint64_t *scratch; /* [4] */
} ucx_mctx_t;

static int ucx_mwait(ucx_mctx_t *m, ucs_status_ptr_t s, const char *what)
{
    ucs_status_t st = UCS_OK;

    if (UCS_PTR_IS_ERR(s))
        st = UCS_PTR_STATUS(s);
    else if (s != NULL) {
        while ((st = ucp_request_check_status(s)) == UCS_INPROGRESS && m->q->failed == UCS_OK &&
               kv_now_ns() < m->deadline)
            ucp_worker_progress(m->kv->net->worker);
        ucp_request_free(s); /* still in progress: released when it ends */
        if (st == UCS_INPROGRESS) {
            st = m->q->failed != UCS_OK ? m->q->failed : UCS_ERR_TIMED_OUT;
            /* Nothing of this message may land later, half written. */
            rpeer_close(m->kv, m->q);
        }
    }
    if (st == UCS_OK)
        return 0;
    if (m->q->failed == UCS_OK)
        m->q->failed = st;
    return kv_fail(st == UCS_ERR_TIMED_OUT ? GSHMEM_KV_ERR_TIMEOUT : GSHMEM_KV_ERR_PEER, m->fn,
                   "UCX %s of a message to peer PE %d of its job: %s", what, m->q->pe,
                   ucs_status_string(st));
}

static int ucx_mfetch(void *ctx, uint64_t *word, uint64_t *out)
{
    ucx_mctx_t *m = (ucx_mctx_t *)ctx;
    ucp_request_param_t prm = {.op_attr_mask = 0};
    int rc = ucx_mwait(m,
                       ucp_get_nbx(m->q->ep, &m->scratch[0], sizeof(uint64_t),
                                   (uint64_t)(uintptr_t)word, m->q->mbox_key, &prm),
                       "get");

    *out = m->scratch[0];
    return rc;
}

static int ucx_mcas(void *ctx, uint64_t *word, uint64_t expect, uint64_t desired, uint64_t *old)
{
    ucx_mctx_t *m = (ucx_mctx_t *)ctx;
    ucp_request_param_t prm = {.op_attr_mask = UCP_OP_ATTR_FIELD_DATATYPE |
                                               UCP_OP_ATTR_FIELD_REPLY_BUFFER,
                               .datatype = ucp_dt_make_contig(sizeof(uint64_t)),
                               .reply_buffer = &m->scratch[1]};
    int rc;

    /* UCX: the value compared in buffer, the new one in (and the old one
     * out of) the reply buffer. */
    m->scratch[2] = expect;
    m->scratch[1] = desired;
    rc = ucx_mwait(m,
                   ucp_atomic_op_nbx(m->q->ep, UCP_ATOMIC_OP_CSWAP, &m->scratch[2], 1,
                                     (uint64_t)(uintptr_t)word, m->q->mbox_key, &prm),
                   "compare-and-swap");
    *old = m->scratch[1];
    return rc;
}

static int ucx_mput(void *ctx, void *dst, const void *src, size_t n)
{
    ucx_mctx_t *m = (ucx_mctx_t *)ctx;
    ucp_request_param_t prm = {.op_attr_mask = 0};

    return ucx_mwait(m,
                     ucp_put_nbx(m->q->ep, src, n, (uint64_t)(uintptr_t)dst, m->q->mbox_key, &prm),
                     "put");
}

static int ucx_mpublish(void *ctx, uint64_t *word, uint64_t v)
{
    ucx_mctx_t *m = (ucx_mctx_t *)ctx;
    ucp_request_param_t prm = {.op_attr_mask = 0};
    int rc;

    ucp_worker_fence(m->kv->net->worker); /* the body first */
    m->scratch[3] = v;
    rc = ucx_mwait(m,
                   ucp_put_nbx(m->q->ep, &m->scratch[3], sizeof(uint64_t),
                               (uint64_t)(uintptr_t)word, m->q->mbox_key, &prm),
                   "put");
    return rc ? rc : ucx_mwait(m, ucp_ep_flush_nbx(m->q->ep, &prm), "flush");
}

static const kv_mbox_ops_t ucx_mbox_ops = {.fetch = ucx_mfetch,
                                           .cas = ucx_mcas,
                                           .put = ucx_mput,
                                           .publish = ucx_mpublish};

/* ... and a verbs peer's: each operation waited for, in order on its QP
 * (so the body has landed before the seq is written). */
static int vb_mfail(ucx_mctx_t *m, int e, const char *what)
{
    if (m->q->failed == UCS_OK)
        m->q->failed = UCS_ERR_CONNECTION_RESET;
    return kv_fail(e == ETIMEDOUT ? GSHMEM_KV_ERR_TIMEOUT : GSHMEM_KV_ERR_PEER, m->fn,
                   "RDMA %s of a message to peer PE %d of its job: %s", what, m->q->pe,
                   kv_vb_why(m->q->vqp));
}

static int vb_mfetch(void *ctx, uint64_t *word, uint64_t *out)
{
    ucx_mctx_t *m = (ucx_mctx_t *)ctx;
    int e = kv_vb_fetch(m->q->vqp, (uint64_t)(uintptr_t)word, m->q->mbox_vkey, out, m->deadline);

    return e ? vb_mfail(m, e, "read") : 0;
}

static int vb_mcas(void *ctx, uint64_t *word, uint64_t expect, uint64_t desired, uint64_t *old)
{
    ucx_mctx_t *m = (ucx_mctx_t *)ctx;
    int e = kv_vb_cas(m->q->vqp, (uint64_t)(uintptr_t)word, m->q->mbox_vkey, expect, desired, old,
                      m->deadline);

    return e ? vb_mfail(m, e, "compare-and-swap") : 0;
}

static int vb_mput(void *ctx, void *dst, const void *src, size_t n)
{
    ucx_mctx_t *m = (ucx_mctx_t *)ctx;
    int e = kv_vb_write(m->q->vqp, (uint64_t)(uintptr_t)dst, m->q->mbox_vkey, src, n, m->deadline);

    return e ? vb_mfail(m, e, "write") : 0;
}

static int vb_mpublish(void *ctx, uint64_t *word, uint64_t v)
{
    return vb_mput(ctx, word, &v, sizeof v);
}

static const kv_mbox_ops_t vb_mbox_ops = {.fetch = vb_mfetch,
                                          .cas = vb_mcas,
                                          .put = vb_mput,
                                          .publish = vb_mpublish};

int kv_net_msg_send(gshmem_kv_t *kv, int peer, const void *data, size_t len, uint64_t deadline_ns,
                    const char *fn)
{
    kv_rpeer_t *q = rpeer(kv, peer, fn);
    static __thread uint64_t scratch[4];
    ucx_mctx_t m = {kv, q, deadline_ns, fn, scratch};
    char who[64];

    if (!q)
        return kv->net && peer - GSHMEM_KV_PEER_REMOTE < kv->net->n_peers ? GSHMEM_KV_ERR_PEER
                                                                          : GSHMEM_KV_ERR_RANGE;
    if (q->failed == UCS_OK && q->direct && kill(q->direct, 0) != 0 && errno == ESRCH)
        q->failed = UCS_ERR_CONNECTION_RESET;
    if (gone(q))
        return kv_fail(GSHMEM_KV_ERR_PEER, fn, "peer %d (PE %d of its job) is gone: %s", peer,
                       q->pe, gone_why(q));
    snprintf(who, sizeof who, "peer %d (PE %d of its job)", peer, q->pe);
    if (q->direct)
        return kv_mbox_send(&kv_mbox_mapped_ops, NULL, q->mbox_map, kv->me, kv->net->nonce, data,
                            len, deadline_ns, who, fn);
    if (q->vqp)
        return kv_mbox_send(&vb_mbox_ops, &m, q->mbox, kv->me, kv->net->nonce, data, len,
                            deadline_ns, who, fn);
    return kv_mbox_send(&ucx_mbox_ops, &m, q->mbox, kv->me, kv->net->nonce, data, len, deadline_ns,
                        who, fn);
}

int kv_net_peer_of(gshmem_kv_t *kv, uint64_t engine)
{
    for (int i = 0; kv->net && i < kv->net->n_peers; i++)
        if (kv->net->peer[i].live && kv->net->peer[i].nonce == engine)
            return GSHMEM_KV_PEER_REMOTE + i;
    return -1;
}
