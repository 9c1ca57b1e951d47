/*
 * libs/kv/kv_store.c - the block store (gshmem_kv.h, "Block store"): KV
 * blocks under 128-bit keys in a directory, on a data file of the storage
 * tier's (kv_io.h) and an index of one checksummed record per slot
 * (kv_store_index.c).  This file: the calls.
 *
 * Why a put never writes over a live entry's bytes and writes each
 * record only after the bytes it describes: a process killed anywhere
 * then leaves no record pointing at half-written data.  The data CRC
 * only guards against what the disk itself loses; every get checks it.
 *
 * Locks: the store's mutex (mu) serializes its calls and is held across
 * their I/O; the engine's lock is taken inside it, never the other way
 * round, and never across I/O, so the network path goes on meanwhile.
 */
#include "kv_store.h"

#include <shmem.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int check_opts(const char *dir, const gshmem_kv_store_opts_t *o, gshmem_kv_store_t **out,
                      const char *fn)
{
    const unsigned all = GSHMEM_KV_STORE_WRITE | GSHMEM_KV_STORE_CREATE | GSHMEM_KV_STORE_DIRECT |
                         GSHMEM_KV_STORE_SYNC;

    if (dir == NULL || o == NULL || out == NULL)
        return kv_fail(GSHMEM_KV_ERR_INVALID, fn, "%s is NULL",
                       dir == NULL ? "dir"
                       : o == NULL ? "opts"
                                   : "out");
    if (strlen(dir) >= sizeof(((struct gshmem_kv_store *)0)->dir))
        return kv_fail(GSHMEM_KV_ERR_INVALID, fn, "dir \"%.40s...\" is longer than %zu characters",
                       dir, sizeof(((struct gshmem_kv_store *)0)->dir) - 1);
    if (o->flags & ~all)
        return kv_fail(GSHMEM_KV_ERR_INVALID, fn, "flags 0x%x: unknown bits 0x%x", o->flags,
                       o->flags & ~all);
    if ((o->flags & GSHMEM_KV_STORE_CREATE) && !(o->flags & GSHMEM_KV_STORE_WRITE))
        return kv_fail(GSHMEM_KV_ERR_INVALID, fn,
                       "GSHMEM_KV_STORE_CREATE needs GSHMEM_KV_STORE_WRITE");
    if (o->capacity < 0 || o->capacity > ((int64_t)1 << 40))
        return kv_fail(GSHMEM_KV_ERR_RANGE, fn, "capacity %lld is not 0 to 2^40",
                       (long long)o->capacity);
    if (o->entry_bytes > ((size_t)1 << 40))
        return kv_fail(GSHMEM_KV_ERR_RANGE, fn, "entry_bytes %zu is above 2^40", o->entry_bytes);
    if (o->queue_depth < 0 || o->queue_depth > 4096)
        return kv_fail(GSHMEM_KV_ERR_RANGE, fn, "queue_depth %d is not 0 (64) to 4096",
                       o->queue_depth);
    return 0;
}

/* Opens (or makes) the store in st->dir; 0 or a status with a line. */
static int find_slot_of_table(gshmem_kv_t *kv)
{
    for (int i = 0; i < KV_MAX_FILES; i++)
        if (kv->stores[i] == NULL)
            return i;
    return -1;
}

static struct gshmem_kv_store *find(gshmem_kv_t *kv, gshmem_kv_store_t *s, const char *fn)
{
    for (int i = 0; i < KV_MAX_FILES; i++)
        if (s != NULL && kv->stores[i] == s)
            return s;
    kv_fail(GSHMEM_KV_ERR_HANDLE, fn, "store handle %p is not an open block store of this engine",
            (void *)s);
    return NULL;
}

static void store_free(struct gshmem_kv_store *st)
{
    if (st->data)
        kv_file_free(st->data);
    if (st->idx_fd >= 0)
        close(st->idx_fd); /* lets go of the flock */
    free(st->slot);
    free(st->bucket);
    free(st->free_slots);
    pthread_mutex_destroy(&st->mu);
    st->magic = 0;
    free(st);
}

int gshmem_kv_store_open(gshmem_kv_t *kv, const char *dir, const gshmem_kv_store_opts_t *opts,
                         gshmem_kv_store_t **out)
{
    const char *fn = "gshmem_kv_store_open";
    struct gshmem_kv_store *st;
    int at, rc;

    if (kv_enter(kv, fn) == NULL)
        return GSHMEM_KV_ERR_HANDLE;
    if ((rc = check_opts(dir, opts, out, fn)) != 0)
        goto out;
    if ((at = find_slot_of_table(kv)) < 0) {
        rc = kv_fail(GSHMEM_KV_ERR_BUSY, fn, "%d block stores are open on this engine: close one",
                     KV_MAX_FILES);
        goto out;
    }
    if ((st = (struct gshmem_kv_store *)calloc(1, sizeof *st)) == NULL) {
        rc = kv_fail(GSHMEM_KV_ERR_NOMEM, fn, "out of memory");
        goto out;
    }
    st->magic = KV_STORE_MAGIC;
    st->idx_fd = -1;
    pthread_mutex_init(&st->mu, NULL);
    snprintf(st->dir, sizeof st->dir, "%s", dir);
    st->writable = !!(opts->flags & GSHMEM_KV_STORE_WRITE);
    st->sync = !!(opts->flags & GSHMEM_KV_STORE_SYNC);
    if ((rc = kv_st_open_files(st, opts, fn)) != 0 || (rc = kv_st_queue_start(kv, st, fn)) != 0) {
        store_free(st);
        goto out;
    }
    kv->stores[at] = st;
    *out = st;
out:
    kv_leave(kv);
    return rc;
}

/* Out of the table (lock held); the caller stops its thread and frees it. */
static void detach(gshmem_kv_t *kv, struct gshmem_kv_store *st)
{
    for (int i = 0; i < KV_MAX_FILES; i++)
        if (kv->stores[i] == st)
            kv->stores[i] = NULL;
}

int gshmem_kv_store_close(gshmem_kv_t *kv, gshmem_kv_store_t *store)
{
    const char *fn = "gshmem_kv_store_close";
    struct gshmem_kv_store *st;

    if (kv_enter(kv, fn) == NULL)
        return GSHMEM_KV_ERR_HANDLE;
    if ((st = find(kv, store, fn)) == NULL) {
        kv_leave(kv);
        return GSHMEM_KV_ERR_HANDLE;
    }
    /* Its puts and gets end first; then out of the table. */
    kv_st_queue_drain(kv, st);
    if (find(kv, store, fn) == NULL) { /* another thread closed it while we waited */
        kv_leave(kv);
        return GSHMEM_KV_ERR_HANDLE;
    }
    detach(kv, st);
    kv_leave(kv);
    kv_queue_stop(&st->queue);
    store_free(st);
    return 0;
}

void kv_stores_close_all(gshmem_kv_t *kv)
{
    struct gshmem_kv_store *gone[KV_MAX_FILES];
    int n = 0;

    for (int i = 0; i < KV_MAX_FILES; i++)
        if (kv->stores[i]) {
            kv_st_queue_drain(kv, kv->stores[i]);
            gone[n++] = kv->stores[i];
            detach(kv, kv->stores[i]);
        }
    /* The threads take the lock to end: stopped without it. */
    pthread_mutex_unlock(&kv->lock);
    for (int i = 0; i < n; i++) {
        kv_queue_stop(&gone[i]->queue);
        store_free(gone[i]);
    }
    pthread_mutex_lock(&kv->lock);
}

/* ---- put and get ---- */

/* A call in progress: the store and layout held busy (under the engine's
 * lock), the store's mutex taken. */
typedef struct kv_call {
    gshmem_kv_t *kv;
    struct gshmem_kv_store *st;
    kv_fplan_t p;
    gshmem_kv_xfer_t x; /* the caller's, remote_blocks = slot ids */
    int64_t *slots;     /* [n] */
    uint64_t t0;
} kv_call_t;

static int call_begin(kv_call_t *c, gshmem_kv_t *kv, gshmem_kv_store_t *store,
                      const gshmem_kv_key_t *keys, const gshmem_kv_xfer_t *x, gshmem_kv_req_t *req,
                      int is_read, const char *fn)
{
    int rc;

    memset(c, 0, sizeof *c);
    c->t0 = kv_now_ns();
    c->kv = kv;
    if (kv_enter(kv, fn) == NULL)
        return GSHMEM_KV_ERR_HANDLE;
    if ((c->st = find(kv, store, fn)) == NULL) {
        kv_leave(kv);
        return GSHMEM_KV_ERR_HANDLE;
    }
    if (keys == NULL || x == NULL || req == NULL) {
        rc = kv_fail(GSHMEM_KV_ERR_INVALID, fn, "%s is NULL",
                     keys == NULL ? "keys"
                     : x == NULL  ? "xfer"
                                  : "req");
        goto fail;
    }
    if (x->remote_blocks != NULL) {
        rc = kv_fail(GSHMEM_KV_ERR_INVALID, fn,
                     "xfer.remote_blocks is set: the store chooses its slots (pass NULL)");
        goto fail;
    }
    if (!is_read && !c->st->writable) {
        rc = kv_fail(GSHMEM_KV_ERR_INVALID, fn,
                     "%s was opened read-only (no GSHMEM_KV_STORE_WRITE): nothing can be put",
                     c->st->dir);
        goto fail;
    }
    if (x->n > (size_t)1 << 32) {
        rc = kv_fail(GSHMEM_KV_ERR_RANGE, fn, "n %zu is above 2^32", x->n);
        goto fail;
    }
    if ((c->slots = (int64_t *)calloc(x->n ? x->n : 1, sizeof *c->slots)) == NULL) {
        rc = kv_fail(GSHMEM_KV_ERR_NOMEM, fn, "out of memory for %zu keys", x->n);
        goto fail;
    }
    c->x = *x;
    c->x.remote_blocks = c->slots; /* slot 0 for now: the shape and block checks */
    c->p.room = c->st->entry_bytes;
    if ((rc = kv_file_check(kv, c->st->data, &c->x, req, 1, fn, &c->p)) != 0)
        goto fail;
    if (c->p.L->gpu) {
        /* Each block's checksum is computed from its bytes by the CPU. */
        rc = kv_fail(GSHMEM_KV_ERR_UNSUPPORTED, fn,
                     "layout %d is in GPU memory: the block store keeps host-memory layouts "
                     "(the storage tier, gshmem_kv_file_store/load, takes GPU layouts)",
                     x->layout);
        goto fail;
    }
    c->p.L->busy++, c->st->busy++;
    kv_leave(kv);
    pthread_mutex_lock(&c->st->mu);
    return 0;
fail:
    free(c->slots);
    kv_leave(kv);
    return rc;
}

/* Ends the call.  job: queued for the I/O thread, which ends r and lets
 * go of the store and layout; else r (if any) ends now with rc and the
 * call returns 0, or, without r, returns rc. */
static int call_end(kv_call_t *c, kv_req_t *r, kv_sjob_t *job, int rc, gshmem_kv_req_t *req)
{
    gshmem_kv_t *kv = c->kv;

    pthread_mutex_lock(&kv->lock);
    if (job) {
        kv_queue_add(&c->st->queue, &job->q);
    } else {
        c->p.L->busy--, c->st->busy--;
        if (r != NULL)
            kv_req_ended(kv, r, rc);
        pthread_cond_broadcast(&kv->done_cv); /* a close may wait for busy */
    }
    if (r != NULL) {
        *req = kv_req_handle(kv, r);
        rc = 0;
    }
    pthread_mutex_unlock(&kv->lock);
    pthread_mutex_unlock(&c->st->mu);
    free(c->slots);
    return rc;
}

static int new_req(kv_call_t *c, int is_read, const char *fn, kv_req_t **out)
{
    int rc;

    pthread_mutex_lock(&c->kv->lock);
    rc = kv_req_alloc(c->kv, fn, out);
    if (rc == 0) {
        kv_req_t *r = *out;

        r->is_read = is_read, r->layout = c->x.layout, r->pe = c->kv->me;
        r->io = 1, r->state = KV_REQ_POSTED;
        r->stats.blocks = (uint64_t)c->x.n * (uint64_t)c->p.pieces;
    }
    pthread_mutex_unlock(&c->kv->lock);
    return rc;
}

/* A job of n entries for the I/O thread, or NULL (out of memory). */
static kv_sjob_t *job_new(const kv_call_t *c, kv_req_t *r, int is_read, size_t n, const char *fn)
{
    kv_sjob_t *j = (kv_sjob_t *)calloc(1, sizeof *j);
    size_t m = n ? n : 1;

    if (j == NULL)
        return NULL;
    j->is_read = is_read, j->r = r, j->p = c->p, j->x = c->x, j->fn = fn;
    j->blocks = (int64_t *)malloc(m * sizeof *j->blocks);
    j->slots = (int64_t *)malloc(m * sizeof *j->slots);
    j->index = (size_t *)malloc(m * sizeof *j->index);
    if (is_read) {
        j->crcs = (uint32_t *)malloc(m * sizeof *j->crcs);
        j->seqs = (uint64_t *)malloc(m * sizeof *j->seqs);
    }
    if (!j->blocks || !j->slots || !j->index || (is_read && (!j->crcs || !j->seqs))) {
        kv_st_job_free(j);
        return NULL;
    }
    return j;
}

/* Slots for `need` new entries: free ones first, then the least recently
 * used entries no get is reading (their records cleared on disk before
 * the slots are reused).  out[0 .. need), or a status (and nothing taken). */
static int take_slots(kv_call_t *c, int64_t need, int64_t *out, const char *fn)
{
    struct gshmem_kv_store *st = c->st;
    int64_t got = 0, n_vict = 0, *vict = NULL;
    int rc;

    while (got < need && st->n_free > 0)
        out[got++] = st->free_slots[--st->n_free];
    if (got == need)
        return 0;
    if ((vict = (int64_t *)calloc((size_t)(need - got), sizeof *vict)) == NULL) {
        st->n_free += got; /* the free slots taken go back */
        return kv_fail(GSHMEM_KV_ERR_NOMEM, fn, "out of memory");
    }
    for (int64_t s = st->lru_tail; s >= 0 && got + n_vict < need; s = st->slot[s].lru_prev)
        if (st->slot[s].pins == 0)
            vict[n_vict++] = s;
    if (got + n_vict < need) {
        st->n_free += got;
        free(vict);
        return kv_fail(GSHMEM_KV_ERR_BUSY, fn,
                       "%s: %lld new keys, and only %lld slots are free or held by entries no "
                       "get is reading (the others are being put or read)",
                       st->dir, (long long)need, (long long)(got + n_vict));
    }
    for (int64_t i = 0; i < n_vict; i++)
        kv_st_unlink(st, vict[i]);
    st->evictions += (uint64_t)n_vict;
    /* A failed clear leaves the victims pending (gone, never reused) and
     * gives the free slots taken back. */
    if ((rc = kv_st_clear(st, vict, (size_t)n_vict, fn)) == 0)
        for (int64_t i = 0; i < n_vict; i++)
            out[got++] = st->free_slots[--st->n_free];
    else
        st->n_free += got;
    free(vict);
    return rc;
}

static int put_begin(kv_call_t *c, const gshmem_kv_key_t *keys, gshmem_kv_req_t *req,
                     const char *fn)
{
    struct gshmem_kv_store *st = c->st;
    size_t n = c->x.n;
    unsigned char *is_new = (unsigned char *)calloc(n ? n : 1, 1);
    int64_t n_new = 0, held = 0, *news = NULL;
    kv_sjob_t *job = NULL;
    kv_req_t *r = NULL;
    int rc = 0;

    if (is_new == NULL)
        return call_end(c, NULL, NULL, kv_fail(GSHMEM_KV_ERR_NOMEM, fn, "out of memory"), req);
    /* Which keys are new (the first of a key repeated in the call); a key
     * held or being put already is kept as it is. */
    for (size_t i = 0; i < n; i++) {
        int dup = 0;

        if (kv_st_lookup(st, keys[i].b) >= 0) {
            held++;
            continue;
        }
        for (size_t j = 0; j < i && !dup; j++)
            dup = is_new[j] && !memcmp(keys[j].b, keys[i].b, 16);
        if (!dup)
            is_new[i] = 1, n_new++;
    }
    if (n_new + held > st->cap) {
        free(is_new);
        return call_end(c, NULL, NULL,
                        kv_fail(GSHMEM_KV_ERR_RANGE, fn,
                                "%lld keys in one put, the store holds %lld entries (%s)",
                                (long long)(n_new + held), (long long)st->cap, st->dir),
                        req);
    }
    if ((rc = new_req(c, 0, fn, &r)) != 0) {
        free(is_new);
        return call_end(c, NULL, NULL, rc, req);
    }
    r->t_posted = kv_now_ns();
    r->stats.post_ns = r->t_posted - c->t0;
    news = (int64_t *)malloc((size_t)(n_new ? n_new : 1) * sizeof *news);
    if (news == NULL || (n_new && (job = job_new(c, r, 0, (size_t)n_new, fn)) == NULL)) {
        rc = kv_fail(GSHMEM_KV_ERR_NOMEM, fn, "out of memory");
        goto out;
    }
    /* Held keys of this put are the most recent now (never its victims:
     * pinned while the slots are taken). */
    for (size_t i = 0; i < n; i++) {
        int64_t s;

        if (!is_new[i] && (s = kv_st_lookup(st, keys[i].b)) >= 0 &&
            st->slot[s].state == KV_SLOT_LIVE) {
            kv_st_touch(st, s);
            st->slot[s].pins++;
        }
        if (!is_new[i])
            st->hits++;
    }
    rc = take_slots(c, n_new, news, fn);
    for (size_t i = 0; i < n; i++) {
        int64_t s;

        if (!is_new[i] && (s = kv_st_lookup(st, keys[i].b)) >= 0 &&
            st->slot[s].state == KV_SLOT_LIVE)
            st->slot[s].pins--;
    }
    if (rc != 0)
        goto out;
    for (size_t i = 0, k = 0; i < n; i++)
        if (is_new[i]) {
            int64_t s = news[k];
            kv_rec_t *rec = &st->slot[s].rec;

            memset(rec, 0, sizeof *rec);
            memcpy(rec->key, keys[i].b, 16);
            rec->seq = st->seq++;
            kv_st_reserve(st, s);
            job->blocks[k] = c->x.local_blocks[i], job->slots[k] = s, job->index[k] = i;
            k++;
        }
    if (job)
        job->n = (size_t)n_new;
out:
    free(is_new);
    free(news);
    kv_st_job_free(rc != 0 ? job : NULL);
    if (rc != 0) { /* refused before any I/O: the call's status, no request */
        pthread_mutex_lock(&c->kv->lock);
        kv_req_release(c->kv, r);
        pthread_mutex_unlock(&c->kv->lock);
        return call_end(c, NULL, NULL, rc, req);
    }
    return call_end(c, r, job, 0, req); /* job NULL: nothing new, r ends now */
}

static int get_begin(kv_call_t *c, const gshmem_kv_key_t *keys, gshmem_kv_req_t *req,
                     const char *fn)
{
    struct gshmem_kv_store *st = c->st;
    size_t n = c->x.n;
    kv_sjob_t *job;
    kv_req_t *r = NULL;
    char hex[33];
    int rc;

    for (size_t i = 0; i < n; i++) {
        int64_t s = kv_st_lookup(st, keys[i].b);
        const kv_rec_t *e;

        if (s < 0 || st->slot[s].state != KV_SLOT_LIVE) {
            st->misses++;
            return call_end(c, NULL, NULL,
                            kv_fail(GSHMEM_KV_ERR_NOT_FOUND, fn, "keys[%zu] %s is not in %s%s", i,
                                    kv_st_key_hex(keys[i].b, hex), st->dir,
                                    s >= 0 ? " (its put has not ended yet)" : ""),
                            req);
        }
        e = &st->slot[s].rec;
        if (e->layout_hash != c->p.L->hash || e->layer_first != c->x.layer_first ||
            e->n_layers != c->x.n_layers || e->region_mask != c->p.mask ||
            e->piece_len != c->p.length)
            return call_end(
                c, NULL, NULL,
                kv_fail(GSHMEM_KV_ERR_MISMATCH, fn,
                        "keys[%zu] %s was put as layers %d..%d, regions 0x%x, slices of %llu "
                        "bytes, layout hash %016llx; this get asks layers %d..%d, regions 0x%x, "
                        "%zu bytes, hash %016llx",
                        i, kv_st_key_hex(keys[i].b, hex), e->layer_first,
                        e->layer_first + e->n_layers - 1, e->region_mask,
                        (unsigned long long)e->piece_len, (unsigned long long)e->layout_hash,
                        c->x.layer_first, c->x.layer_first + c->x.n_layers - 1, c->p.mask,
                        c->p.length, (unsigned long long)c->p.L->hash),
                req);
        c->slots[i] = s;
    }
    if ((rc = new_req(c, 1, fn, &r)) != 0)
        return call_end(c, NULL, NULL, rc, req);
    r->t_posted = kv_now_ns();
    r->stats.post_ns = r->t_posted - c->t0;
    if ((job = job_new(c, r, 1, n, fn)) == NULL) {
        pthread_mutex_lock(&c->kv->lock);
        kv_req_release(c->kv, r);
        pthread_mutex_unlock(&c->kv->lock);
        return call_end(c, NULL, NULL, kv_fail(GSHMEM_KV_ERR_NOMEM, fn, "out of memory"), req);
    }
    /* Pinned until the thread has read them: no put takes them meanwhile. */
    for (size_t i = 0; i < n; i++) {
        kv_slot_t *e = &st->slot[c->slots[i]];

        e->pins++;
        kv_st_touch(st, c->slots[i]);
        job->blocks[i] = c->x.local_blocks[i], job->slots[i] = c->slots[i], job->index[i] = i;
        job->crcs[i] = e->rec.data_crc, job->seqs[i] = e->rec.seq;
    }
    job->n = n;
    return call_end(c, r, job, 0, req);
}

int gshmem_kv_store_put(gshmem_kv_t *kv, gshmem_kv_store_t *store, const gshmem_kv_key_t *keys,
                        const gshmem_kv_xfer_t *xfer, gshmem_kv_req_t *req)
{
    const char *fn = "gshmem_kv_store_put";
    kv_call_t c;
    int rc;

    if ((rc = call_begin(&c, kv, store, keys, xfer, req, 0, fn)) != 0)
        return rc;
    return put_begin(&c, keys, req, fn);
}

int gshmem_kv_store_get(gshmem_kv_t *kv, gshmem_kv_store_t *store, const gshmem_kv_key_t *keys,
                        const gshmem_kv_xfer_t *xfer, gshmem_kv_req_t *req)
{
    const char *fn = "gshmem_kv_store_get";
    kv_call_t c;
    int rc;

    if ((rc = call_begin(&c, kv, store, keys, xfer, req, 1, fn)) != 0)
        return rc;
    return get_begin(&c, keys, req, fn);
}

/* ---- contains, evict, stats ---- */

/* The store found and held busy, its mutex taken (no layout involved). */
static struct gshmem_kv_store *key_begin(gshmem_kv_t *kv, gshmem_kv_store_t *store,
                                         const gshmem_kv_key_t *keys, size_t n, const char *fn,
                                         int *rc)
{
    struct gshmem_kv_store *st;

    *rc = 0;
    if (kv_enter(kv, fn) == NULL) {
        *rc = GSHMEM_KV_ERR_HANDLE;
        return NULL;
    }
    if ((st = find(kv, store, fn)) == NULL)
        *rc = GSHMEM_KV_ERR_HANDLE;
    else if (keys == NULL && n > 0)
        *rc = kv_fail(GSHMEM_KV_ERR_INVALID, fn, "keys is NULL");
    if (*rc) {
        kv_leave(kv);
        return NULL;
    }
    st->busy++;
    kv_leave(kv);
    pthread_mutex_lock(&st->mu);
    return st;
}

static void key_end(gshmem_kv_t *kv, struct gshmem_kv_store *st)
{
    pthread_mutex_lock(&kv->lock);
    st->busy--;
    pthread_cond_broadcast(&kv->done_cv); /* a close may wait for busy */
    pthread_mutex_unlock(&kv->lock);
    pthread_mutex_unlock(&st->mu);
}

int64_t gshmem_kv_store_contains(gshmem_kv_t *kv, gshmem_kv_store_t *store,
                                 const gshmem_kv_key_t *keys, size_t n, unsigned char *present)
{
    struct gshmem_kv_store *st;
    int64_t prefix = -1;
    int rc;

    if ((st = key_begin(kv, store, keys, n, "gshmem_kv_store_contains", &rc)) == NULL)
        return rc;
    for (size_t i = 0; i < n; i++) {
        int64_t s = kv_st_lookup(st, keys[i].b);
        int in = s >= 0 && st->slot[s].state == KV_SLOT_LIVE; /* not a put in flight */

        if (present)
            present[i] = (unsigned char)in;
        if (in)
            st->hits++;
        else
            st->misses++;
        if (!in && prefix < 0)
            prefix = (int64_t)i;
    }
    key_end(kv, st);
    return prefix < 0 ? (int64_t)n : prefix;
}

int64_t gshmem_kv_store_evict(gshmem_kv_t *kv, gshmem_kv_store_t *store,
                              const gshmem_kv_key_t *keys, size_t n)
{
    const char *fn = "gshmem_kv_store_evict";
    struct gshmem_kv_store *st;
    int64_t *gone = NULL, n_gone = 0;
    int rc;

    if ((st = key_begin(kv, store, keys, n, fn, &rc)) == NULL)
        return rc;
    if (!st->writable)
        rc = kv_fail(GSHMEM_KV_ERR_INVALID, fn,
                     "%s was opened read-only (no GSHMEM_KV_STORE_WRITE): nothing can be evicted",
                     st->dir);
    else if ((gone = (int64_t *)malloc((n ? n : 1) * sizeof *gone)) == NULL)
        rc = kv_fail(GSHMEM_KV_ERR_NOMEM, fn, "out of memory");
    if (rc == 0) {
        for (size_t i = 0; i < n; i++) {
            int64_t s = kv_st_lookup(st, keys[i].b);

            if (s >= 0 && st->slot[s].state == KV_SLOT_LIVE) { /* not a put in flight */
                kv_st_unlink(st, s);
                gone[n_gone++] = s;
            }
        }
        rc = kv_st_clear(st, gone, (size_t)n_gone, fn);
    }
    free(gone);
    key_end(kv, st);
    return rc ? rc : n_gone;
}

int gshmem_kv_store_stats(gshmem_kv_t *kv, gshmem_kv_store_t *store, gshmem_kv_store_stats_t *stats)
{
    struct gshmem_kv_store *st;
    int rc;

    if ((st = key_begin(kv, store, NULL, 0, "gshmem_kv_store_stats", &rc)) == NULL)
        return rc;
    if (stats == NULL)
        rc = kv_fail(GSHMEM_KV_ERR_INVALID, "gshmem_kv_store_stats", "stats is NULL");
    else {
        stats->capacity = st->cap, stats->entries = st->entries;
        stats->entry_bytes = st->entry_bytes;
        stats->hits = st->hits, stats->misses = st->misses;
        stats->evictions = st->evictions, stats->dropped = st->dropped;
    }
    key_end(kv, st);
    return rc;
}
