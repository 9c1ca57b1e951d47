/*
 * libs/kv/kv_xfer.c - read (pull) and write (push).  Every argument is
 * checked before anything moves; then the blocks are walked layer by
 * layer and region by region, and each run of blocks adjacent on both
 * sides (the next block starts where the last one's slice ended, here and
 * at the peer) goes as one non-blocking get or put.  A write's signal
 * follows its data behind a fence; a read's is sent by progress once the
 * data is here (kv_req.c).
 */
#include "kv_cuda.h"
#include "kv_impl.h"

#include <shmem.h>

typedef struct kv_plan {
    kv_layout_t *L;
    kv_peer_t *P;
    void **keys; /* a peer outside the job: a UCX key per region; NULL: a PE */
    void **memh; /* ... and this side's UCX handle per region (NULL: direct) */
    uint32_t mask;
    size_t offset, length;
} kv_plan_t;

static int check_blocks(gshmem_kv_t *kv, const gshmem_kv_xfer_t *x, const kv_plan_t *p,
                        const char *fn)
{
    const int64_t *rb = x->remote_blocks ? x->remote_blocks : x->local_blocks;

    for (size_t i = 0; i < x->n; i++) {
        if (x->local_blocks[i] < 0 || x->local_blocks[i] >= p->L->n_blocks)
            return kv_fail(GSHMEM_KV_ERR_RANGE, fn,
                           "local_blocks[%zu] is %lld: this PE's layout %d has blocks 0 to %lld", i,
                           (long long)x->local_blocks[i], x->layout, (long long)p->L->n_blocks - 1);
        if (rb[i] < 0 || rb[i] >= p->P->n_blocks)
            return kv_fail(GSHMEM_KV_ERR_RANGE, fn,
                           "%s[%zu] is %lld: PE %d's layout %d has blocks 0 to %lld",
                           x->remote_blocks ? "remote_blocks" : "local_blocks (as the remote ids)",
                           i, (long long)rb[i], x->pe, x->layout, (long long)p->P->n_blocks - 1);
    }
    return 0;
}

static int check_signal(const gshmem_kv_t *kv, const gshmem_kv_xfer_t *x, int outside,
                        const char *fn)
{
    const gshmem_kv_signal_t *s = &x->signal;

    if (s->addr == NULL)
        return 0;
    if ((uintptr_t)s->addr % 8)
        return kv_fail(GSHMEM_KV_ERR_INVALID, fn, "signal address %p is not 8-byte aligned",
                       (void *)s->addr);
    if (s->op != GSHMEM_KV_SIGNAL_SET && s->op != GSHMEM_KV_SIGNAL_ADD)
        return kv_fail(GSHMEM_KV_ERR_INVALID, fn,
                       "signal op %d is neither GSHMEM_KV_SIGNAL_SET (0) nor _ADD (1)", s->op);
    if (outside && kv_signal_index(kv, s->addr) < 0)
        return kv_fail(GSHMEM_KV_ERR_INVALID, fn,
                       "peer %d is outside the job: its signal is one of this engine's signal "
                       "words (gshmem_kv_signal_word), and %p is not",
                       x->pe, (void *)s->addr);
    if (!outside && !shmem_addr_accessible(s->addr, x->pe))
        return kv_fail(GSHMEM_KV_ERR_NOT_FOUND, fn, "signal address %p is not symmetric memory",
                       (void *)s->addr);
    /* The signal is a host atomic or store at the peer, which the runtime
     * refuses on a node peer's GPU memory by ending the job. */
    if (!outside && kv_cuda_is_device(s->addr))
        return kv_fail(GSHMEM_KV_ERR_INVALID, fn,
                       "signal address %p is on the device heap: a transfer's signal is a host "
                       "atomic, on host memory (shmem_malloc)",
                       (void *)s->addr);
    return 0;
}

static int check(gshmem_kv_t *kv, const gshmem_kv_xfer_t *x, gshmem_kv_req_t *req, const char *fn,
                 kv_plan_t *p)
{
    kv_layout_t *L;
    kv_peer_t *P;
    int rc;

    if (x == NULL || req == NULL)
        return kv_fail(GSHMEM_KV_ERR_INVALID, fn, "%s is NULL", x == NULL ? "xfer" : "req");
    if (x->layout < 0 || x->layout >= kv->cfg.max_layouts || !kv->layouts[x->layout].live)
        return kv_fail(GSHMEM_KV_ERR_NOT_FOUND, fn, "layout id %d is not registered", x->layout);
    L = &kv->layouts[x->layout];
    if (L->gpu && !L->dheap && !kv_is_remote(x->pe))
        return kv_fail(GSHMEM_KV_ERR_UNSUPPORTED, fn,
                       "layout %d is GPU memory off the device heap: between PEs of the job a "
                       "GPU layout lies on the device heap (gshmem_malloc), which the runtime "
                       "reaches; other GPU memory (a framework's tensors) moves to peers outside "
                       "the job (gshmem_kv_peer_add, gshmem_kv_connect: UCX with CUDA support) "
                       "and to the storage tier",
                       x->layout);
    if (kv_is_remote(x->pe)) {
        if ((rc = kv_net_plan(kv, x, fn, &P, &p->keys, &p->memh)) != 0)
            return rc;
    } else if (x->pe < 0 || x->pe >= kv->npes) {
        return kv_fail(GSHMEM_KV_ERR_RANGE, fn, "PE %d is out of range: the job has PEs 0 to %d",
                       x->pe, kv->npes - 1);
    } else {
        P = &L->peer[x->pe];
    }
    if (P->hash != L->hash)
        return kv_fail(GSHMEM_KV_ERR_MISMATCH, fn,
                       "PE %d's layout %d has hash 0x%016llx, this PE's has 0x%016llx (layers, "
                       "regions per layer or block bytes differ)",
                       x->pe, x->layout, (unsigned long long)P->hash, (unsigned long long)L->hash);
    if (P->base == NULL && P->off_heap)
        return kv_fail(GSHMEM_KV_ERR_NOT_FOUND, fn,
                       "PE %d's layout %d: region %d is symmetric memory but not on the heap "
                       "(static data or a buffer registered as symmetric?): only the symmetric "
                       "heap can be the remote side of a transfer",
                       x->pe, x->layout, P->off_heap - 1);
    if (P->base == NULL)
        return kv_fail(GSHMEM_KV_ERR_NOT_FOUND, fn,
                       "PE %d's layout %d is not on the symmetric heap: it can be only the local "
                       "side of a transfer",
                       x->pe, x->layout);
    if ((rc = kv_check_shape(L, x, fn, &p->mask, &p->offset, &p->length)) != 0)
        return rc;
    p->L = L, p->P = P;
    if (check_blocks(kv, x, p, fn) != 0)
        return GSHMEM_KV_ERR_RANGE;
    return check_signal(kv, x, p->keys != NULL, fn);
}

/* One run: a non-blocking get or put to a PE, a UCX one to a peer outside
 * the job (region: the run's region, for its key). */
static void emit(gshmem_kv_t *kv, const gshmem_kv_xfer_t *x, const kv_plan_t *p, kv_req_t *r,
                 int is_read, char *local, char *remote, size_t len, int region)
{
    if (p->keys)
        kv_net_op(kv, r, is_read, local, remote, len, p->keys[region],
                  p->memh ? p->memh[region] : NULL);
    else if (is_read)
        shmem_getmem_nbi(local, remote, len, x->pe);
    else
        shmem_putmem_nbi(remote, local, len, x->pe);
}

/* Posts the runs; returns the operations posted, adds the bytes.  A run
 * to a peer outside the job stays inside one region (one key). */
static uint64_t post(gshmem_kv_t *kv, const gshmem_kv_xfer_t *x, const kv_plan_t *p, kv_req_t *req,
                     int is_read, uint64_t *bytes)
{
    const int64_t *rb = x->remote_blocks ? x->remote_blocks : x->local_blocks;
    const size_t ls = p->L->block_stride, rs = p->P->block_stride, len = p->length;
    char *run_l = NULL, *run_r = NULL;
    size_t run = 0;
    uint64_t ops = 0;
    int run_region = 0;

    for (int l = x->layer_first; l < x->layer_first + x->n_layers; l++)
        for (int r = 0; r < p->L->rpl; r++) {
            const int region = l * p->L->rpl + r;
            char *lb, *rbase;

            if (!(p->mask >> r & 1))
                continue;
            lb = p->L->base[region] + p->offset;
            rbase = p->P->base[region] + p->offset;
            for (size_t i = 0; i < x->n; i++) {
                char *la = lb + (size_t)x->local_blocks[i] * ls;
                char *ra = rbase + (size_t)rb[i] * rs;

                if (run && la == run_l + run && ra == run_r + run &&
                    (!p->keys || region == run_region)) {
                    run += len;
                    continue;
                }
                if (run) {
                    emit(kv, x, p, req, is_read, run_l, run_r, run, run_region);
                    ops++, *bytes += run;
                }
                run_l = la, run_r = ra, run = len, run_region = region;
            }
        }
    if (run) {
        emit(kv, x, p, req, is_read, run_l, run_r, run, run_region);
        ops++, *bytes += run;
    }
    return ops;
}

static int xfer(gshmem_kv_t *kv, const gshmem_kv_xfer_t *x, gshmem_kv_req_t *req, int is_read,
                const char *fn)
{
    kv_plan_t p = {0};
    kv_req_t *r;
    uint64_t t0, bytes = 0, ops;
    int rc, nreg = 0;

    if (kv_enter(kv, fn) == NULL)
        return GSHMEM_KV_ERR_HANDLE;
    if ((rc = check(kv, x, req, fn, &p)) != 0 || (rc = kv_req_alloc(kv, fn, &r)) != 0) {
        kv_leave(kv);
        return rc;
    }
    t0 = kv_now_ns();
    r->pe = x->pe, r->is_read = is_read, r->sig = x->signal, r->sig_sent = 0;
    r->layout = x->layout; /* kv_net_op reads its memory's kind */
    ops = post(kv, x, &p, r, is_read, &bytes);
    if (p.keys)
        kv_net_flush(kv, r); /* with a write's signal, ordered after the data */
    else if (!is_read && x->signal.addr) {
        shmem_fence(); /* the signal after every put of the request */
        if (x->signal.op == GSHMEM_KV_SIGNAL_SET)
            shmem_signal_set(x->signal.addr, x->signal.value, x->pe);
        else
            shmem_signal_add(x->signal.addr, x->signal.value, x->pe);
    }
    for (int b = 0; b < p.L->rpl; b++)
        nreg += (int)(p.mask >> b & 1);
    r->stats.bytes = bytes, r->stats.ops = ops;
    r->stats.blocks = (uint64_t)x->n * (uint64_t)x->n_layers * (uint64_t)nreg;
    r->t_posted = kv_now_ns();
    r->stats.post_ns = r->t_posted - t0;
    r->seq = ++kv->seq;
    kv_req_posted(kv, r);
    p.L->busy++;
    pthread_cond_signal(&kv->work_cv);
    *req = kv_req_handle(kv, r);
    kv_leave(kv);
    return 0;
}

int gshmem_kv_read(gshmem_kv_t *kv, const gshmem_kv_xfer_t *xfer_, gshmem_kv_req_t *req)
{
    return xfer(kv, xfer_, req, 1, "gshmem_kv_read");
}

int gshmem_kv_write(gshmem_kv_t *kv, const gshmem_kv_xfer_t *xfer_, gshmem_kv_req_t *req)
{
    return xfer(kv, xfer_, req, 0, "gshmem_kv_write");
}
