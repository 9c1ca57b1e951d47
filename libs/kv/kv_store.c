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
#include "kv_crc.h"
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
    if ((rc = kv_st_open_files(st, opts, fn)) != 0) {
        store_free(st);
        goto out;
    }
    kv->stores[at] = st;
    *out = st;
out:
    kv_leave(kv);
    return rc;
}

static void drop(gshmem_kv_t *kv, struct gshmem_kv_store *st)
{
    for (int i = 0; i < KV_MAX_FILES; i++)
        if (kv->stores[i] == st)
            kv->stores[i] = NULL;
    store_free(st);
}

int gshmem_kv_store_close(gshmem_kv_t *kv, gshmem_kv_store_t *store)
{
    const char *fn = "gshmem_kv_store_close";
    struct gshmem_kv_store *st;
    int rc = 0;

    if (kv_enter(kv, fn) == NULL)
        return GSHMEM_KV_ERR_HANDLE;
    if ((st = find(kv, store, fn)) == NULL)
        rc = GSHMEM_KV_ERR_HANDLE;
    else if (st->busy)
        rc = kv_fail(GSHMEM_KV_ERR_BUSY, fn, "%s: a call of another thread is on it", st->dir);
    else
        drop(kv, st);
    kv_leave(kv);
    return rc;
}

void kv_stores_close_all(gshmem_kv_t *kv)
{
    for (int i = 0; i < KV_MAX_FILES; i++)
        if (kv->stores[i])
            drop(kv, kv->stores[i]);
}

/* ---- put and get ---- */

/* A call in progress: the store and layout held busy (under the engine's
 * lock), the store's mutex taken.  NULL (and one line) if the handles or
 * the transfer are bad. */
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
    c->p.L->busy++, c->st->busy++;
    kv_leave(kv);
    pthread_mutex_lock(&c->st->mu);
    return 0;
fail:
    free(c->slots);
    kv_leave(kv);
    return rc;
}

/* Ends the call: status rc is returned as it is when no request was made
 * (r NULL), else the request ends with it (the call returns 0). */
static int call_end(kv_call_t *c, kv_req_t *r, int rc, gshmem_kv_req_t *req)
{
    gshmem_kv_t *kv = c->kv;

    pthread_mutex_lock(&kv->lock);
    c->p.L->busy--, c->st->busy--;
    if (r != NULL) {
        kv_req_ended(kv, r, rc);
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
        (*out)->is_read = is_read, (*out)->layout = c->x.layout, (*out)->pe = c->kv->me;
        (*out)->stats.blocks = (uint64_t)c->x.n * (uint64_t)c->p.pieces;
    }
    pthread_mutex_unlock(&c->kv->lock);
    return rc;
}

/* CRC32C of entry i's pieces in memory, in the slot's order. */
static uint32_t entry_crc(const kv_call_t *c, size_t i)
{
    const kv_layout_t *L = c->p.L;
    uint32_t crc = 0;

    for (int l = c->x.layer_first; l < c->x.layer_first + c->x.n_layers; l++)
        for (int r = 0; r < L->rpl; r++)
            if (c->p.mask >> r & 1)
                crc = kv_crc32c(crc,
                                L->base[l * L->rpl + r] +
                                    (size_t)c->x.local_blocks[i] * L->block_stride + c->p.offset,
                                c->p.length);
    return crc;
}

/* The data I/O of the call's blocks at c->slots (only those with keep[i],
 * if keep is not NULL): 0 or GSHMEM_KV_ERR_IO with a line. */
static int data_io(kv_call_t *c, kv_req_t *r, int is_read, const unsigned char *keep,
                   const char *fn)
{
    gshmem_kv_xfer_t x = c->x;
    int64_t *blocks = NULL, *slots = NULL;
    kv_io_t *io = NULL;
    size_t n = 0, n_io = 0;
    int rc;

    blocks = (int64_t *)malloc((x.n ? x.n : 1) * sizeof *blocks);
    slots = (int64_t *)malloc((x.n ? x.n : 1) * sizeof *slots);
    io = (kv_io_t *)malloc((x.n ? x.n : 1) * (size_t)c->p.pieces * sizeof *io);
    if (blocks == NULL || slots == NULL || io == NULL) {
        rc = kv_fail(GSHMEM_KV_ERR_NOMEM, fn, "out of memory for %zu runs",
                     x.n * (size_t)c->p.pieces);
        goto out;
    }
    for (size_t i = 0; i < c->x.n; i++)
        if (keep == NULL || keep[i])
            blocks[n] = c->x.local_blocks[i], slots[n++] = c->slots[i];
    x.n = n, x.local_blocks = blocks, x.remote_blocks = slots;
    if (n == 0) {
        rc = 0;
        goto out;
    }
    if ((rc = kv_file_plan(c->st->data, &x, &c->p, io, &n_io, fn)) != 0)
        goto out;
    r->stats.ops += n_io;
    rc = c->st->data->eng->run(c->st->data, is_read, io, n_io, fn);
    for (size_t i = 0; i < n_io; i++)
        r->stats.bytes += io[i].done;
out:
    free(blocks);
    free(slots);
    free(io);
    return rc;
}

static void fill_rec(kv_call_t *c, int64_t s, const unsigned char *key, uint32_t data_crc)
{
    kv_rec_t *rec = &c->st->slot[s].rec;

    memset(rec, 0, sizeof *rec);
    rec->magic = KV_REC_MAGIC;
    rec->seq = c->st->seq++;
    memcpy(rec->key, key, 16);
    rec->layout_hash = c->p.L->hash;
    rec->data_crc = data_crc;
    rec->region_mask = c->p.mask;
    rec->piece_len = c->p.length;
    rec->layer_first = c->x.layer_first, rec->n_layers = c->x.n_layers;
    rec->crc = kv_st_rec_crc(rec);
}

/* Slots for `need` new entries: free ones first, then the least recently
 * used entries (their records cleared on disk before the slots are
 * reused).  out[0 .. need). */
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
    while (got + n_vict < need) {
        int64_t s = st->lru_tail;

        kv_st_unlink(st, s);
        vict[n_vict++] = s;
    }
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

static int put_locked(kv_call_t *c, const gshmem_kv_key_t *keys, gshmem_kv_req_t *req,
                      const char *fn)
{
    struct gshmem_kv_store *st = c->st;
    size_t n = c->x.n;
    unsigned char *is_new = (unsigned char *)calloc(n ? n : 1, 1);
    int64_t n_new = 0, held = 0, *news = NULL, *order = NULL;
    uint32_t *crcs = NULL;
    kv_req_t *r = NULL;
    int rc = 0;

    if (is_new == NULL)
        return call_end(c, NULL, kv_fail(GSHMEM_KV_ERR_NOMEM, fn, "out of memory"), req);
    /* Which keys are new (the first of a key repeated in the call). */
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
        return call_end(c, NULL,
                        kv_fail(GSHMEM_KV_ERR_RANGE, fn,
                                "%lld keys in one put, the store holds %lld entries (%s)",
                                (long long)(n_new + held), (long long)st->cap, st->dir),
                        req);
    }
    if ((rc = new_req(c, 0, fn, &r)) != 0) {
        free(is_new);
        return call_end(c, NULL, rc, req);
    }
    /* Held keys of this put are the most recent now: never its victims. */
    for (size_t i = 0; i < n; i++) {
        int64_t s;

        if (!is_new[i] && (s = kv_st_lookup(st, keys[i].b)) >= 0)
            kv_st_touch(st, s), st->hits++;
    }
    news = (int64_t *)malloc((size_t)(n_new ? n_new : 1) * sizeof *news);
    order = (int64_t *)malloc((size_t)(n_new ? n_new : 1) * sizeof *order);
    crcs = (uint32_t *)malloc((n ? n : 1) * sizeof *crcs);
    if (news == NULL || order == NULL || crcs == NULL) {
        rc = kv_fail(GSHMEM_KV_ERR_NOMEM, fn, "out of memory");
        goto out;
    }
    if ((rc = take_slots(c, n_new, news, fn)) != 0)
        goto out;
    for (size_t i = 0, k = 0; i < n; i++)
        if (is_new[i]) {
            c->slots[i] = news[k++];
            st->slot[c->slots[i]].state = KV_SLOT_PENDING;
            crcs[i] = entry_crc(c, i);
        }
    r->t_posted = kv_now_ns();
    r->stats.post_ns = r->t_posted - c->t0;
    rc = data_io(c, r, 0, is_new, fn);
    if (rc == 0 && st->sync)
        rc = kv_st_sync(st->data->fd, "data", st, fn);
    if (rc == 0) {
        for (size_t i = 0, k = 0; i < n; i++)
            if (is_new[i]) {
                fill_rec(c, c->slots[i], keys[i].b, crcs[i]);
                order[k++] = c->slots[i];
            }
        rc = kv_st_write_recs(st, order, (size_t)n_new, fn);
        if (rc == 0 && st->sync)
            rc = kv_st_sync(st->idx_fd, "index", st, fn);
    }
    if (rc == 0) {
        for (size_t i = 0; i < n; i++)
            if (is_new[i])
                kv_st_insert(st, c->slots[i]);
    } else if (n_new) {
        /* None of this put's keys is held: records that did reach the disk
         * are cleared (best effort; a slot whose clear fails stays
         * pending, never reused). */
        for (size_t i = 0, k = 0; i < n; i++)
            if (is_new[i])
                order[k++] = c->slots[i];
        kv_st_clear(st, order, (size_t)n_new, fn);
    }
out:
    free(is_new);
    free(news);
    free(order);
    free(crcs);
    return call_end(c, r, rc, req);
}

static int get_locked(kv_call_t *c, const gshmem_kv_key_t *keys, gshmem_kv_req_t *req,
                      const char *fn)
{
    struct gshmem_kv_store *st = c->st;
    size_t n = c->x.n;
    int64_t *bad = NULL, n_bad = 0;
    kv_req_t *r = NULL;
    char hex[33];
    int rc;

    for (size_t i = 0; i < n; i++) {
        int64_t s = kv_st_lookup(st, keys[i].b);
        const kv_rec_t *e;

        if (s < 0) {
            st->misses++;
            return call_end(c, NULL,
                            kv_fail(GSHMEM_KV_ERR_NOT_FOUND, fn, "keys[%zu] %s is not in %s", i,
                                    kv_st_key_hex(keys[i].b, hex), st->dir),
                            req);
        }
        e = &st->slot[s].rec;
        if (e->layout_hash != c->p.L->hash || e->layer_first != c->x.layer_first ||
            e->n_layers != c->x.n_layers || e->region_mask != c->p.mask ||
            e->piece_len != c->p.length)
            return call_end(
                c, NULL,
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
        return call_end(c, NULL, rc, req);
    r->t_posted = kv_now_ns();
    r->stats.post_ns = r->t_posted - c->t0;
    if ((rc = data_io(c, r, 1, NULL, fn)) != 0)
        return call_end(c, r, rc, req);
    if ((bad = (int64_t *)malloc((n ? n : 1) * sizeof *bad)) == NULL)
        return call_end(c, r, kv_fail(GSHMEM_KV_ERR_NOMEM, fn, "out of memory"), req);
    for (size_t i = 0; i < n; i++) {
        int64_t s = c->slots[i];

        if (st->slot[s].state != KV_SLOT_LIVE)
            continue; /* a repeated key found bad already */
        if (entry_crc(c, i) != st->slot[s].rec.data_crc) {
            if (n_bad == 0)
                rc = kv_fail(GSHMEM_KV_ERR_CORRUPT, fn,
                             "keys[%zu] %s (slot %lld of %s/data) fails its checksum: the disk "
                             "lost or damaged it; it is dropped from the store",
                             i, kv_st_key_hex(keys[i].b, hex), (long long)s, st->dir);
            kv_st_unlink(st, s);
            bad[n_bad++] = s;
            continue;
        }
        kv_st_touch(st, s);
        st->hits++;
    }
    if (n_bad) {
        st->dropped += (uint64_t)n_bad;
        if (st->writable)
            kv_st_clear(st, bad, (size_t)n_bad, fn);
        /* Read-only: the slots stay pending here (gone from this view);
         * the record stays for the writer to find. */
    }
    free(bad);
    return call_end(c, r, rc, req);
}

int gshmem_kv_store_put(gshmem_kv_t *kv, gshmem_kv_store_t *store, const gshmem_kv_key_t *keys,
                        const gshmem_kv_xfer_t *xfer, gshmem_kv_req_t *req)
{
    const char *fn = "gshmem_kv_store_put";
    kv_call_t c;
    int rc;

    if ((rc = call_begin(&c, kv, store, keys, xfer, req, 0, fn)) != 0)
        return rc;
    return put_locked(&c, keys, req, fn);
}

int gshmem_kv_store_get(gshmem_kv_t *kv, gshmem_kv_store_t *store, const gshmem_kv_key_t *keys,
                        const gshmem_kv_xfer_t *xfer, gshmem_kv_req_t *req)
{
    const char *fn = "gshmem_kv_store_get";
    kv_call_t c;
    int rc;

    if ((rc = call_begin(&c, kv, store, keys, xfer, req, 1, fn)) != 0)
        return rc;
    return get_locked(&c, keys, req, fn);
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
        int in = kv_st_lookup(st, keys[i].b) >= 0;

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

            if (s >= 0) {
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
