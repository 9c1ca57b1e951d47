/*
 * libs/kv/kv_store_index.c - the block store's index (kv_store.h): in
 * memory a hash of keys and an LRU list over the slots; on disk a header
 * and one 64-byte record per slot, each with its own CRC32C.
 *
 * Why a record per slot at a fixed place, and not a log: a put is then
 * one data write and one record write per block, recovery reads one
 * array, and nothing ever needs compacting.  The records are written only
 * after the bytes they describe (kv_store.c), and a victim's record is
 * cleared before its slot is reused, so a process killed anywhere leaves
 * no record pointing at half-written data.
 */
#define _GNU_SOURCE /* qsort_r */
#include "kv_crc.h"
#include "kv_store.h"

#include <shmem.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- keys, the hash, the LRU list ---- */

static uint64_t key_hash(const unsigned char *k)
{
    uint64_t a, b;

    memcpy(&a, k, 8);
    memcpy(&b, k + 8, 8);
    a ^= b * 0x9e3779b97f4a7c15ull;
    return a ^ (a >> 29);
}

const char *kv_st_key_hex(const unsigned char *k, char *buf)
{
    for (int i = 0; i < 16; i++)
        sprintf(buf + 2 * i, "%02x", k[i]);
    return buf;
}

int64_t kv_st_lookup(const struct gshmem_kv_store *st, const unsigned char *k)
{
    for (int64_t s = st->bucket[key_hash(k) & st->mask]; s >= 0; s = st->slot[s].h_next)
        if (!memcmp(st->slot[s].rec.key, k, 16))
            return s;
    return -1;
}

static void lru_unlink(struct gshmem_kv_store *st, int64_t s)
{
    kv_slot_t *e = &st->slot[s];

    if (e->lru_prev >= 0)
        st->slot[e->lru_prev].lru_next = e->lru_next;
    else
        st->lru_head = e->lru_next;
    if (e->lru_next >= 0)
        st->slot[e->lru_next].lru_prev = e->lru_prev;
    else
        st->lru_tail = e->lru_prev;
}

static void lru_front(struct gshmem_kv_store *st, int64_t s)
{
    kv_slot_t *e = &st->slot[s];

    e->lru_prev = -1;
    e->lru_next = st->lru_head;
    if (st->lru_head >= 0)
        st->slot[st->lru_head].lru_prev = s;
    st->lru_head = s;
    if (st->lru_tail < 0)
        st->lru_tail = s;
}

void kv_st_touch(struct gshmem_kv_store *st, int64_t s)
{
    lru_unlink(st, s);
    lru_front(st, s);
}

/* Slot s (its record set) becomes a live entry, the most recent. */
void kv_st_insert(struct gshmem_kv_store *st, int64_t s)
{
    /* A put's two steps at once: found by its key, then live. */
    kv_st_reserve(st, s);
    kv_st_commit(st, s);
}

/* Live entry s leaves the hash and the list; the slot is PENDING until
 * its record is cleared on disk (then it is freed). */
static void hash_del(struct gshmem_kv_store *st, int64_t s);

void kv_st_unlink(struct gshmem_kv_store *st, int64_t s)
{
    hash_del(st, s);
    lru_unlink(st, s);
    st->slot[s].state = KV_SLOT_PENDING;
    st->entries--;
}

void kv_st_reserve(struct gshmem_kv_store *st, int64_t s)
{
    uint64_t b = key_hash(st->slot[s].rec.key) & st->mask;

    st->slot[s].state = KV_SLOT_INFLIGHT;
    st->slot[s].cleared = 0;
    st->slot[s].h_next = st->bucket[b];
    st->bucket[b] = s;
}

void kv_st_commit(struct gshmem_kv_store *st, int64_t s)
{
    st->slot[s].state = KV_SLOT_LIVE;
    lru_front(st, s);
    st->entries++;
}

static void hash_del(struct gshmem_kv_store *st, int64_t s)
{
    int64_t *p = &st->bucket[key_hash(st->slot[s].rec.key) & st->mask];

    while (*p != s)
        p = &st->slot[*p].h_next;
    *p = st->slot[s].h_next;
}

void kv_st_cancel(struct gshmem_kv_store *st, int64_t s)
{
    hash_del(st, s);
    st->slot[s].state = KV_SLOT_PENDING;
}

static void slot_free(struct gshmem_kv_store *st, int64_t s)
{
    st->slot[s].state = KV_SLOT_FREE;
    st->free_slots[st->n_free++] = s;
}

void kv_st_unpin(struct gshmem_kv_store *st, int64_t s)
{
    if (--st->slot[s].pins == 0 && st->slot[s].state == KV_SLOT_PENDING && st->slot[s].cleared)
        slot_free(st, s);
}

/* ---- the index file ---- */

uint32_t kv_st_rec_crc(const kv_rec_t *r)
{
    kv_rec_t c = *r;

    c.crc = 0;
    return kv_crc32c(0, &c, sizeof c);
}

static uint64_t rec_off(int64_t s)
{
    return KV_IDX_HDR + (uint64_t)s * sizeof(kv_rec_t);
}

static int pwrite_all(int fd, const void *buf, size_t len, uint64_t off)
{
    const char *p = (const char *)buf;

    while (len) {
        ssize_t w = pwrite(fd, p, len, (off_t)off);

        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return w < 0 ? errno : EIO;
        p += w, len -= (size_t)w, off += (uint64_t)w;
    }
    return 0;
}

/* Writes the records of slots s[0 .. n) as they are in memory (a free or
 * pending slot's is zeros: cleared), one write per run of adjacent slots.
 * 0, or a status with a line. */
int kv_st_write_recs(struct gshmem_kv_store *st, const int64_t *s, size_t n, const char *fn)
{
    kv_rec_t buf[64];

    for (size_t i = 0; i < n;) {
        size_t k = 0;
        int err;

        do {
            if (st->slot[s[i + k]].state == KV_SLOT_LIVE || st->slot[s[i + k]].rec.magic)
                buf[k] = st->slot[s[i + k]].rec;
            else
                memset(&buf[k], 0, sizeof buf[k]);
            k++;
        } while (i + k < n && k < 64 && s[i + k] == s[i + k - 1] + 1);
        if ((err = pwrite_all(st->idx_fd, buf, k * sizeof buf[0], rec_off(s[i]))) != 0)
            return kv_fail(GSHMEM_KV_ERR_IO, fn,
                           "write of %zu index records at slot %lld of %s/index: %s", k,
                           (long long)s[i], st->dir, strerror(err));
        i += k;
    }
    return 0;
}

int kv_st_sync(int fd, const char *what, const struct gshmem_kv_store *st, const char *fn)
{
    if (fdatasync(fd) != 0)
        return kv_fail(GSHMEM_KV_ERR_IO, fn, "fdatasync of %s/%s: %s", st->dir, what,
                       strerror(errno));
    return 0;
}

/* Pending slots s[0 .. n) (entries just unlinked): their records cleared
 * on disk, then the slots freed.  A failed clear keeps them pending (never
 * reused: their old records may still be valid on disk). */
int kv_st_clear(struct gshmem_kv_store *st, const int64_t *s, size_t n, const char *fn)
{
    int rc;

    for (size_t i = 0; i < n; i++)
        memset(&st->slot[s[i]].rec, 0, sizeof st->slot[s[i]].rec);
    if ((rc = kv_st_write_recs(st, s, n, fn)) != 0 ||
        (st->sync && (rc = kv_st_sync(st->idx_fd, "index", st, fn)) != 0))
        return rc;
    for (size_t i = 0; i < n; i++) {
        st->slot[s[i]].cleared = 1;
        if (st->slot[s[i]].pins == 0)
            slot_free(st, s[i]);
    }
    return 0;
}

static uint32_t hdr_crc(const kv_idx_hdr_t *h)
{
    kv_idx_hdr_t c = *h;

    c.crc = 0;
    return kv_crc32c(0, &c, sizeof c);
}

/* A new store in an empty index: the records (zeros) and the data file
 * first, the header last, so that a store cut short by a crash or a full
 * disk has no header and is made anew by the next CREATE. */
static int create_store(struct gshmem_kv_store *st, const char *data_path, const char *fn)
{
    char hbuf[KV_IDX_HDR] = {0};
    kv_idx_hdr_t h = {0};
    uint64_t bytes = (uint64_t)st->cap * st->slot_bytes;
    int fd, err;

    if (ftruncate(st->idx_fd, (off_t)rec_off(st->cap)) != 0)
        return kv_fail(GSHMEM_KV_ERR_IO, fn, "cannot size %s/index for %lld records: %s", st->dir,
                       (long long)st->cap, strerror(errno));
    if ((fd = open(data_path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)) < 0)
        return kv_fail(GSHMEM_KV_ERR_IO, fn, "cannot create %s: %s", data_path, strerror(errno));
    /* Allocated now: a disk too small for the capacity fails here, not in
     * the middle of a put. */
    err = posix_fallocate(fd, 0, (off_t)bytes);
    if (err == 0 && fsync(fd) != 0)
        err = errno;
    close(fd);
    if (err != 0) {
        unlink(data_path);
        if (ftruncate(st->idx_fd, 0) != 0) { /* nothing more to undo */
        }
        return kv_fail(GSHMEM_KV_ERR_IO, fn,
                       "cannot allocate %llu bytes (%lld entries of %zu) for %s: %s",
                       (unsigned long long)bytes, (long long)st->cap, st->slot_bytes, data_path,
                       strerror(err));
    }
    memcpy(h.magic, KV_IDX_MAGIC, 8);
    h.version = KV_IDX_VERSION;
    h.entry_bytes = st->entry_bytes, h.slot_bytes = st->slot_bytes, h.capacity = st->cap;
    h.crc = hdr_crc(&h);
    memcpy(hbuf, &h, sizeof h);
    if ((err = pwrite_all(st->idx_fd, hbuf, sizeof hbuf, 0)) != 0 || fdatasync(st->idx_fd) != 0)
        return kv_fail(GSHMEM_KV_ERR_IO, fn, "cannot write the header of %s/index: %s", st->dir,
                       strerror(err ? err : errno));
    return 0;
}

/* The header of an existing index, checked against the options. */
static int read_header(struct gshmem_kv_store *st, const gshmem_kv_store_opts_t *o, off_t size,
                       const char *fn)
{
    kv_idx_hdr_t h;

    if (pread(st->idx_fd, &h, sizeof h, 0) != (ssize_t)sizeof h || memcmp(h.magic, KV_IDX_MAGIC, 8))
        return kv_fail(GSHMEM_KV_ERR_INVALID, fn, "%s/index is not the index of a block store",
                       st->dir);
    if (h.crc != hdr_crc(&h) || h.version != KV_IDX_VERSION || h.capacity < 1 ||
        h.entry_bytes == 0 || h.slot_bytes < h.entry_bytes || h.slot_bytes % KV_SLOT_ALIGN)
        return kv_fail(GSHMEM_KV_ERR_CORRUPT, fn,
                       "the header of %s/index fails its checksum (damaged): the store cannot "
                       "be opened; remove %s to start anew",
                       st->dir, st->dir);
    if (o->entry_bytes && o->entry_bytes != h.entry_bytes)
        return kv_fail(GSHMEM_KV_ERR_MISMATCH, fn,
                       "%s holds entries of %llu bytes; opened with entry_bytes %zu (0: as made)",
                       st->dir, (unsigned long long)h.entry_bytes, o->entry_bytes);
    if (o->capacity && o->capacity != h.capacity)
        return kv_fail(GSHMEM_KV_ERR_MISMATCH, fn,
                       "%s holds %lld entries; opened with capacity %lld (0: as made)", st->dir,
                       (long long)h.capacity, (long long)o->capacity);
    st->entry_bytes = h.entry_bytes, st->slot_bytes = h.slot_bytes, st->cap = h.capacity;
    if ((uint64_t)size < rec_off(st->cap))
        return kv_fail(GSHMEM_KV_ERR_CORRUPT, fn,
                       "%s/index is %lld bytes, too short for its %lld records (truncated?)",
                       st->dir, (long long)size, (long long)st->cap);
    return 0;
}

static int by_seq(const void *a, const void *b, void *arg)
{
    const kv_slot_t *s = (const kv_slot_t *)arg;
    uint64_t x = s[*(const int64_t *)a].rec.seq, y = s[*(const int64_t *)b].rec.seq;

    return (x > y) - (x < y);
}

/* The records: each valid one a live entry, the rest free; a record that
 * fails its check is dropped (and cleared, when writable). */
static int load_records(struct gshmem_kv_store *st, const char *fn)
{
    kv_rec_t *buf = (kv_rec_t *)malloc(KV_READ_CHUNK * sizeof *buf);
    int64_t *live = (int64_t *)malloc((size_t)st->cap * sizeof *live), n_live = 0;
    int64_t *bad = (int64_t *)malloc((size_t)st->cap * sizeof *bad), n_bad = 0;
    int rc = 0;

    if (buf == NULL || live == NULL || bad == NULL) {
        rc = kv_fail(GSHMEM_KV_ERR_NOMEM, fn, "out of memory for %lld index records",
                     (long long)st->cap);
        goto out;
    }
    for (int64_t base = 0; base < st->cap; base += KV_READ_CHUNK) {
        int64_t k = st->cap - base < KV_READ_CHUNK ? st->cap - base : KV_READ_CHUNK;
        size_t want = (size_t)k * sizeof *buf;

        if (pread(st->idx_fd, buf, want, (off_t)rec_off(base)) != (ssize_t)want) {
            rc = kv_fail(GSHMEM_KV_ERR_IO, fn, "read of %s/index: %s", st->dir,
                         strerror(errno ? errno : EIO));
            goto out;
        }
        for (int64_t i = 0; i < k; i++) {
            const kv_rec_t *r = &buf[i];
            int64_t s = base + i;

            if (r->magic == 0 && r->crc == 0 && r->seq == 0)
                continue; /* free */
            if (r->magic != KV_REC_MAGIC || r->crc != kv_st_rec_crc(r) || r->n_layers < 1 ||
                r->region_mask == 0 || r->piece_len == 0 || r->piece_len > st->entry_bytes) {
                bad[n_bad++] = s;
                continue;
            }
            st->slot[s].rec = *r;
            live[n_live++] = s;
        }
    }
    /* LRU: oldest put first, each pushed to the front. */
    qsort_r(live, (size_t)n_live, sizeof *live, by_seq, st->slot);
    for (int64_t i = 0; i < n_live; i++) {
        int64_t s = live[i], other = kv_st_lookup(st, st->slot[s].rec.key);

        if (other >= 0) { /* the same key twice: cannot come from a put; keep the newer */
            kv_st_unlink(st, other);
            bad[n_bad++] = other;
        }
        kv_st_insert(st, s);
        if (st->slot[s].rec.seq >= st->seq)
            st->seq = st->slot[s].rec.seq + 1;
    }
    if (n_bad) {
        fprintf(stderr,
                "gshmem: PE %d: %s: %s/index: %lld record%s failed %s check (torn or damaged) "
                "and %s dropped\n",
                shmem_my_pe(), fn, st->dir, (long long)n_bad, n_bad == 1 ? "" : "s",
                n_bad == 1 ? "its" : "their", n_bad == 1 ? "was" : "were");
        st->dropped += (uint64_t)n_bad;
        for (int64_t i = 0; i < n_bad; i++)
            st->slot[bad[i]].state = KV_SLOT_PENDING;
        if (st->writable) {
            if ((rc = kv_st_clear(st, bad, (size_t)n_bad, fn)) != 0)
                goto out;
        }
    }
    /* The free stack, lowest slot on top: puts fill the data file in order.
     * Made anew: the clear above pushed the dropped slots already. */
    st->n_free = 0;
    for (int64_t s = st->cap - 1; s >= 0; s--)
        if (st->slot[s].state == KV_SLOT_FREE)
            st->free_slots[st->n_free++] = s;
out:
    free(buf);
    free(live);
    free(bad);
    return rc;
}

int kv_st_open_files(struct gshmem_kv_store *st, const gshmem_kv_store_opts_t *o, const char *fn)
{
    char idx_path[300], data_path[300];
    gshmem_kv_file_opts_t fo = {0};
    struct stat sb;
    int create = !!(o->flags & GSHMEM_KV_STORE_CREATE), rc;

    snprintf(idx_path, sizeof idx_path, "%s/index", st->dir);
    snprintf(data_path, sizeof data_path, "%s/data", st->dir);
    if (create && mkdir(st->dir, 0755) != 0 && errno != EEXIST)
        return kv_fail(GSHMEM_KV_ERR_IO, fn, "cannot make the directory %s: %s", st->dir,
                       strerror(errno));
    st->idx_fd = open(idx_path,
                      (st->writable ? O_RDWR : O_RDONLY) | (create ? O_CREAT : 0) | O_CLOEXEC,
                      0644);
    if (st->idx_fd < 0) {
        int e = errno;

        if (e == ENOENT)
            return kv_fail(GSHMEM_KV_ERR_NOT_FOUND, fn,
                           "no block store at %s (GSHMEM_KV_STORE_CREATE makes one)", st->dir);
        return kv_fail(GSHMEM_KV_ERR_IO, fn, "cannot open %s%s: %s", idx_path,
                       st->writable ? " for writing" : "", strerror(e));
    }
    /* One writer: the lock lives with this open file (another open, even
     * in this process, conflicts) and goes when it closes or the process
     * dies. */
    if (flock(st->idx_fd, (st->writable ? LOCK_EX : LOCK_SH) | LOCK_NB) != 0)
        return kv_fail(GSHMEM_KV_ERR_BUSY, fn,
                       "%s is open %s (by this process or another): a block store has one "
                       "writer, and no reader beside it",
                       st->dir, st->writable ? "already" : "for writing");
    if (fstat(st->idx_fd, &sb) != 0)
        return kv_fail(GSHMEM_KV_ERR_IO, fn, "fstat of %s: %s", idx_path, strerror(errno));
    if (sb.st_size == 0) {
        if (!create)
            return kv_fail(GSHMEM_KV_ERR_INVALID, fn,
                           "%s is empty: no block store there (GSHMEM_KV_STORE_CREATE makes one)",
                           idx_path);
        if (o->entry_bytes == 0 || o->capacity == 0)
            return kv_fail(GSHMEM_KV_ERR_INVALID, fn,
                           "a new block store needs entry_bytes and capacity (%zu, %lld)",
                           o->entry_bytes, (long long)o->capacity);
        st->entry_bytes = o->entry_bytes, st->cap = o->capacity;
        st->slot_bytes = (o->entry_bytes + KV_SLOT_ALIGN - 1) / KV_SLOT_ALIGN * KV_SLOT_ALIGN;
        if ((rc = create_store(st, data_path, fn)) != 0)
            return rc;
    } else if ((rc = read_header(st, o, sb.st_size, fn)) != 0)
        return rc;
    fo.flags = (st->writable ? GSHMEM_KV_FILE_WRITE : 0) |
               ((o->flags & GSHMEM_KV_STORE_DIRECT) ? GSHMEM_KV_FILE_DIRECT : 0);
    fo.slot_bytes = st->slot_bytes;
    fo.queue_depth = o->queue_depth;
    if ((rc = kv_file_new(data_path, &fo, fn, &st->data)) != 0)
        return rc;
    if (st->data->n_slots < st->cap)
        return kv_fail(GSHMEM_KV_ERR_CORRUPT, fn,
                       "%s holds %lld slots, the index %lld (truncated?): remove %s to start anew",
                       data_path, (long long)st->data->n_slots, (long long)st->cap, st->dir);
    st->slot = (kv_slot_t *)calloc((size_t)st->cap, sizeof *st->slot);
    st->free_slots = (int64_t *)malloc((size_t)st->cap * sizeof *st->free_slots);
    for (st->mask = 1; st->mask < (uint64_t)st->cap; st->mask <<= 1) {
    }
    st->bucket = (int64_t *)malloc(st->mask * sizeof *st->bucket);
    st->mask--;
    if (st->slot == NULL || st->free_slots == NULL || st->bucket == NULL)
        return kv_fail(GSHMEM_KV_ERR_NOMEM, fn, "out of memory for %lld entries",
                       (long long)st->cap);
    for (uint64_t b = 0; b <= st->mask; b++)
        st->bucket[b] = -1;
    st->lru_head = st->lru_tail = -1;
    return load_records(st, fn);
}
