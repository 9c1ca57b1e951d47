/*
 * libs/kv/kv_store_io.c - the block store's I/O thread: each put and get
 * is checked and decided by its call under the store's mutex (kv_store.c:
 * which keys are new, their slots, the victims cleared, the slots a get
 * reads pinned), then queued here, where its bytes and records are
 * written or read without any lock, and its request ended.
 *
 * Why the work splits there: everything that decides (the index) stays
 * under the mutex and in post order, and what takes time (the data, the
 * CRCs, the records' writes) runs beside other calls.  A put's slots are
 * INFLIGHT and a get's slots pinned meanwhile, so no other call reuses or
 * frees them; the thread touches only what its job owns until it takes
 * the mutex to commit.
 */
#include "kv_crc.h"
#include "kv_store.h"

#include <stdlib.h>
#include <string.h>

uint32_t kv_st_entry_crc(const kv_fplan_t *p, const gshmem_kv_xfer_t *x, int64_t block)
{
    const kv_layout_t *L = p->L;
    uint32_t crc = 0;

    for (int l = x->layer_first; l < x->layer_first + x->n_layers; l++)
        for (int r = 0; r < L->rpl; r++)
            if (p->mask >> r & 1)
                crc = kv_crc32c(crc,
                                L->base[l * L->rpl + r] + (size_t)block * L->block_stride +
                                    p->offset,
                                p->length);
    return crc;
}

void kv_st_job_free(kv_sjob_t *j)
{
    if (j == NULL)
        return;
    free(j->blocks);
    free(j->slots);
    free(j->crcs);
    free(j->seqs);
    free(j->index);
    free(j);
}

/* The job's bytes through the data file's engine: 0 or GSHMEM_KV_ERR_IO
 * with a line. */
static int data_io(struct gshmem_kv_store *st, kv_sjob_t *j)
{
    gshmem_kv_xfer_t x = j->x;
    kv_io_t *io;
    size_t n_io = 0;
    int rc;

    if (j->n == 0)
        return 0;
    if ((io = (kv_io_t *)malloc(j->n * (size_t)j->p.pieces * sizeof *io)) == NULL)
        return kv_fail(GSHMEM_KV_ERR_NOMEM, j->fn, "out of memory for %zu runs",
                       j->n * (size_t)j->p.pieces);
    x.n = j->n, x.local_blocks = j->blocks, x.remote_blocks = j->slots;
    if ((rc = kv_file_plan(st->data, &x, &j->p, io, &n_io, j->fn)) == 0) {
        j->r->stats.ops += n_io;
        rc = st->data->eng->run(st->data, j->is_read, io, n_io, j->fn);
        for (size_t i = 0; i < n_io; i++)
            j->r->stats.bytes += io[i].done;
    }
    free(io);
    return rc;
}

/* A put: CRCs, data, records (each slot INFLIGHT: its key and sequence
 * number set by the call, nothing else of it touched by anyone else),
 * then under the mutex each slot live, or, on a failure, none of them. */
static int put(struct gshmem_kv_store *st, kv_sjob_t *j)
{
    int rc = 0;

    for (size_t i = 0; i < j->n; i++) {
        kv_rec_t *rec = &st->slot[j->slots[i]].rec;

        /* Field by field: the key is read by other calls' lookups. */
        rec->data_crc = kv_st_entry_crc(&j->p, &j->x, j->blocks[i]);
        rec->layout_hash = j->p.L->hash;
        rec->region_mask = j->p.mask;
        rec->piece_len = j->p.length;
        rec->layer_first = j->x.layer_first, rec->n_layers = j->x.n_layers;
        rec->magic = KV_REC_MAGIC;
        rec->crc = kv_st_rec_crc(rec);
    }
    rc = data_io(st, j);
    if (rc == 0 && st->sync)
        rc = kv_st_sync(st->data->fd, "data", st, j->fn);
    if (rc == 0 && (rc = kv_st_write_recs(st, j->slots, j->n, j->fn)) == 0 && st->sync)
        rc = kv_st_sync(st->idx_fd, "index", st, j->fn);
    pthread_mutex_lock(&st->mu);
    for (size_t i = 0; i < j->n; i++)
        if (rc == 0)
            kv_st_commit(st, j->slots[i]);
        else
            kv_st_cancel(st, j->slots[i]);
    /* None of the put's keys is held: records that did reach the disk are
     * cleared (best effort; a slot whose clear fails stays pending). */
    if (rc != 0) {
        kv_set_quiet(1);
        kv_st_clear(st, j->slots, j->n, j->fn);
        kv_set_quiet(0);
    }
    pthread_mutex_unlock(&st->mu);
    return rc;
}

/* A get: data, then each entry's CRC against the one its record had when
 * the get was posted; under the mutex, a failing entry (still the same
 * entry: its sequence number) dropped, every slot unpinned. */
static int get(struct gshmem_kv_store *st, kv_sjob_t *j)
{
    int64_t *bad = (int64_t *)malloc((j->n ? j->n : 1) * sizeof *bad), n_bad = 0;
    char hex[33];
    int rc = data_io(st, j), said = 0;

    pthread_mutex_lock(&st->mu);
    for (size_t i = 0; i < j->n && rc == 0; i++) {
        int64_t s = j->slots[i];
        kv_slot_t *e = &st->slot[s];

        if (kv_st_entry_crc(&j->p, &j->x, j->blocks[i]) == j->crcs[i]) {
            st->hits++;
            continue;
        }
        if (!said++)
            kv_fail(GSHMEM_KV_ERR_CORRUPT, j->fn,
                    "keys[%zu] %s (slot %lld of %s/data) fails its checksum: the disk lost or "
                    "damaged it; it is dropped from the store",
                    j->index[i], kv_st_key_hex(e->rec.key, hex), (long long)s, st->dir);
        if (e->state == KV_SLOT_LIVE && e->rec.seq == j->seqs[i]) {
            kv_st_unlink(st, s);
            st->dropped++;
            if (bad)
                bad[n_bad++] = s;
        }
    }
    /* Read-only: a dropped entry's slot stays pending here (gone from this
     * view); its record stays for the writer to find. */
    if (n_bad && st->writable)
        kv_st_clear(st, bad, (size_t)n_bad, j->fn);
    for (size_t i = 0; i < j->n; i++)
        kv_st_unpin(st, j->slots[i]);
    pthread_mutex_unlock(&st->mu);
    free(bad);
    return rc ? rc : said ? GSHMEM_KV_ERR_CORRUPT : 0;
}

static void *worker(void *arg)
{
    struct gshmem_kv_store *st = (struct gshmem_kv_store *)arg;
    gshmem_kv_t *kv = st->queue.kv;
    kv_sjob_t *j;

    pthread_mutex_lock(&kv->lock);
    while ((j = (kv_sjob_t *)kv_queue_take(&st->queue)) != NULL) {
        int rc;

        pthread_mutex_unlock(&kv->lock);
        rc = j->is_read ? get(st, j) : put(st, j);
        /* The line was this thread's: the request keeps it for the thread
         * that harvests the failure (test, wait). */
        if (rc != 0)
            j->r->line = strdup(gshmem_kv_error());
        pthread_mutex_lock(&kv->lock);
        j->p.L->busy--, st->busy--;
        kv_req_ended(kv, j->r, rc);
        kv_st_job_free(j);
    }
    pthread_mutex_unlock(&kv->lock);
    return NULL;
}

int kv_st_queue_start(gshmem_kv_t *kv, struct gshmem_kv_store *st, const char *fn)
{
    return kv_queue_start(&st->queue, kv, worker, st, st->dir, fn);
}

void kv_st_queue_drain(gshmem_kv_t *kv, struct gshmem_kv_store *st)
{
    while (st->busy)
        pthread_cond_wait(&kv->done_cv, &kv->lock);
}
