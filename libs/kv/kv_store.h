/*
 * libs/kv/kv_store.h - the block store's state and its index, shared by
 * kv_store.c (the calls: open, close, put, get, contains, evict, stats:
 * checks and the index's changes, then a job queued), kv_store_io.c (the
 * store's I/O thread: each job's data and records) and kv_store_index.c
 * (the index in memory, a hash and an LRU list over the slots, and on
 * disk, a header and a record per slot).  Never installed.
 */
#ifndef KV_STORE_H
#define KV_STORE_H

#include "kv_io.h"

#include <stdint.h>

#define KV_STORE_MAGIC 0x6b7673746f72656dull /* "kvstorem" */
#define KV_IDX_MAGIC "gshkvst1"
#define KV_IDX_VERSION 1u
#define KV_IDX_HDR 4096u /* the header's room: the records start page aligned */
#define KV_REC_MAGIC 0x6b767263u
#define KV_SLOT_ALIGN 4096u /* slots stay O_DIRECT-able whatever the store was made with */
#define KV_READ_CHUNK 65536 /* records read at once at open */

typedef struct kv_idx_hdr {
    char magic[8];
    uint32_t version;
    uint32_t crc; /* of the header with crc 0 */
    uint64_t entry_bytes, slot_bytes;
    int64_t capacity;
} kv_idx_hdr_t;

/* One slot's record, as on disk (64 bytes, this host's byte order). */
typedef struct kv_rec {
    uint32_t magic; /* KV_REC_MAGIC; 0: a free slot */
    uint32_t crc;   /* of the record with crc 0 */
    uint64_t seq;   /* put order: the LRU order after a reopen */
    unsigned char key[16];
    uint64_t layout_hash;
    uint32_t data_crc; /* of the entry's pieces, in slot order */
    uint32_t region_mask;
    uint64_t piece_len;
    int32_t layer_first, n_layers;
} kv_rec_t;

_Static_assert(sizeof(kv_rec_t) == 64, "an index record is 64 bytes");

/* A slot: FREE (no record on disk, reusable); INFLIGHT (a put's, its key
 * in the hash, its bytes and record being written); LIVE (in the hash and
 * the LRU list); PENDING (out of both: its record being cleared, or
 * cleared while gets still read it, or a clear failed: never reused). */
enum { KV_SLOT_FREE = 0, KV_SLOT_LIVE, KV_SLOT_INFLIGHT, KV_SLOT_PENDING };

typedef struct kv_slot {
    kv_rec_t rec;
    int state;
    int pins;                   /* gets queued or running on it: never a victim, freed after */
    int cleared;                /* PENDING: its record is zeros on disk */
    int64_t lru_prev, lru_next; /* LIVE: the LRU list, most recent first */
    int64_t h_next;             /* LIVE, INFLIGHT: the hash chain */
} kv_slot_t;

/* A put or get for the store's I/O thread (kv_store_io.c): what moves,
 * decided under the store's mutex by the call. */
typedef struct kv_sjob {
    kv_qnode_t q; /* first: the queue's link */
    int is_read;
    kv_req_t *r;
    kv_fplan_t p;       /* the layout, regions, slice, pieces */
    gshmem_kv_xfer_t x; /* its layer range; local_blocks = blocks, remote_blocks = slots */
    size_t n;
    int64_t *blocks, *slots; /* [n]: only the put's new keys; every key of a get */
    uint32_t *crcs;          /* get: each record's data CRC, read when posted */
    uint64_t *seqs;          /* get: each record's sequence number (the entry it checks) */
    size_t *index;           /* [n]: the key's place in the caller's list (lines) */
    const char *fn;
} kv_sjob_t;

struct gshmem_kv_store {
    uint64_t magic;
    struct gshmem_kv_file *data;
    int idx_fd;
    int writable, sync;
    size_t entry_bytes, slot_bytes;
    int64_t cap;
    kv_slot_t *slot; /* [cap] */
    int64_t *bucket; /* [mask + 1]: hash chains' heads, -1 empty */
    uint64_t mask;
    int64_t *free_slots; /* a stack, lowest slot on top at open */
    int64_t n_free;
    int64_t lru_head, lru_tail, entries;
    uint64_t seq;
    uint64_t hits, misses, evictions, dropped;
    int busy; /* calls and jobs, under the engine's lock (close waits) */
    pthread_mutex_t mu;
    char dir[240];
    kv_queue_t queue; /* the I/O thread's (kv_queue.h) */
};

/* kv_store_index.c: the index in memory (the store's mutex held). */
/* The slot of key k, or -1. */
int64_t kv_st_lookup(const struct gshmem_kv_store *st, const unsigned char *k);
/* Live slot s becomes the most recently used. */
void kv_st_touch(struct gshmem_kv_store *st, int64_t s);
/* Slot s (its record set) becomes a live entry, the most recent. */
void kv_st_insert(struct gshmem_kv_store *st, int64_t s);
/* Live entry s leaves the hash and the list: PENDING until its record is
 * cleared on disk (kv_st_clear). */
void kv_st_unlink(struct gshmem_kv_store *st, int64_t s);
/* A put's slot s (rec.key set): INFLIGHT, found by its key. */
void kv_st_reserve(struct gshmem_kv_store *st, int64_t s);
/* INFLIGHT s, its record written: a live entry, the most recent. */
void kv_st_commit(struct gshmem_kv_store *st, int64_t s);
/* INFLIGHT s whose put failed: out of the hash, PENDING (then cleared). */
void kv_st_cancel(struct gshmem_kv_store *st, int64_t s);
/* A get is done with s: freed if it was the last and s was cleared. */
void kv_st_unpin(struct gshmem_kv_store *st, int64_t s);
/* k as 32 hex digits in buf[33]. */
const char *kv_st_key_hex(const unsigned char *k, char *buf);

/* ... and on disk: 0, or a status with a line. */
uint32_t kv_st_rec_crc(const kv_rec_t *r);
/* The records of slots s[0 .. n) as they are in memory (a slot that is
 * not live and has no record set: zeros). */
int kv_st_write_recs(struct gshmem_kv_store *st, const int64_t *s, size_t n, const char *fn);
int kv_st_sync(int fd, const char *what, const struct gshmem_kv_store *st, const char *fn);
/* Pending slots s[0 .. n): records cleared on disk, then freed (a pinned
 * one when its last get ends); on a failure they stay pending (never
 * reused: their old records may stand). */
int kv_st_clear(struct gshmem_kv_store *st, const int64_t *s, size_t n, const char *fn);
/* Opens or makes the index and data files of st->dir (st->writable,
 * st->sync set), checks them against o, and loads the records. */
int kv_st_open_files(struct gshmem_kv_store *st, const gshmem_kv_store_opts_t *o, const char *fn);

/* kv_store_io.c: the I/O thread (start: 0 or a status with a line; drain:
 * the engine's lock held, released while waiting for the store's calls
 * and jobs to end).  Jobs go in by kv_queue_add, the thread ends by
 * kv_queue_stop (kv_queue.h). */
int kv_st_queue_start(gshmem_kv_t *kv, struct gshmem_kv_store *st, const char *fn);
void kv_st_queue_drain(gshmem_kv_t *kv, struct gshmem_kv_store *st);
/* CRC32C of block `block`'s pieces in memory, in the slot's order. */
uint32_t kv_st_entry_crc(const kv_fplan_t *p, const gshmem_kv_xfer_t *x, int64_t block);
void kv_st_job_free(kv_sjob_t *j);

#endif /* KV_STORE_H */
