/*
 * libs/kv/kv_impl.h - the engine's state, shared by the library's files
 * (never installed).  Built on the public API only: shmem.h, shmemx.h and
 * gshmem.h.
 *
 *   kv_base.c   the table of live engines, the error line, the clock
 *   kv.c        the engine: config, create, destroy
 *   kv_layout.c layouts: the directory on the symmetric heap, register,
 *               deregister, hash
 *   kv_xfer.c   read/write: checks, coalescing, posting
 *   kv_req.c    requests: the table of handles, progress (a quiet), test,
 *               wait, cancel, the completion queue, the progress thread
 *   kv_file.c   the storage tier: open, close, store, load (kv_io.h)
 *   kv_queue.c  a queue of jobs and its thread (the file's, the store's)
 *   kv_file_queue.c  each file's I/O thread, which ends its requests
 *   kv_posix.c  its pread/pwrite engine
 *   kv_uring.c  its io_uring engine (built with liburing)
 *   kv_store.c  the block store: keys, the index, LRU, crash safety, on a
 *               data file of the storage tier's (kv_crc.c: its CRC32C)
 *   kv_net.c    peers outside the job: the blob, UCX (built with UCX;
 *               kv_net_none.c otherwise)
 *   kv_verbs.c  ... and over RDMA verbs, where GSHMEM_KV_VERBS says
 *               (built with librdmacm; kv_verbs_none.c otherwise)
 *   kv_listen.c listen and connect: the blob over TCP, authenticated
 *   kv_mbox.c   mailboxes: signal words and small messages (kv_mbox.h)
 *   kv_cuda.c   GPU memory: is an address device memory, the copies
 *   kv_stage.c  the storage tier for a GPU layout, through host memory
 */
#ifndef KV_IMPL_H
#define KV_IMPL_H

#include "gshmem_kv.h"

#include <pthread.h>
#include <stdint.h>

#define KV_MAGIC 0x6b76656e67696e65ull     /* "kvengine" */
#define KV_REQ_MAGIC 0x6b767265716d6167ull /* "kvreqmag" */
#define KV_MAX_ENGINES 16
#define KV_MAX_RPL 8    /* regions per layer */
#define KV_MAX_FILES 64 /* storage-tier files open at once, per engine */

struct gshmem_kv_file;          /* kv_io.h */
struct gshmem_kv_store;         /* kv_store.c */
struct kv_mbox;                 /* kv_mbox.h */
typedef struct kv_net kv_net_t; /* kv_net.c */

/* One slot of the directory: what a PE publishes of its layout of one id,
 * followed by max_regions region offsets (from the directory's own
 * address: the heap is at the same offset on every PE; for a layout on
 * the device heap, from the engine's anchor there, gshmem_kv.ddir). */
typedef struct kv_dir_rec {
    uint64_t state; /* KV_DIR_* */
    uint64_t hash;
    int64_t n_blocks;
    uint64_t block_bytes, block_stride;
    int32_t n_layers, regions_per_layer;
    uint64_t symmetric; /* 1: every region is symmetric memory */
    uint64_t probe;     /* written at each region's start during register */
    uint64_t device;    /* 1: the regions are on the device heap (offsets from ddir) */
} kv_dir_rec_t;

#define KV_DIR_EMPTY 0
#define KV_DIR_READY 1
#define KV_DIR_REFUSED 2 /* this PE's register failed: every PE returns an error */

/* What this PE knows of a peer's layout of one id. */
typedef struct kv_peer {
    uint64_t hash;
    int64_t n_blocks;
    size_t block_stride;
    int symmetric;
    int off_heap; /* region off_heap - 1 did not hold its probe: not on the heap */
    char **base;  /* [n_regions] in this PE's symmetric addresses; NULL: unreachable */
} kv_peer_t;

typedef struct kv_layout {
    int live;
    uint64_t hash;
    int n_layers, rpl, n_regions;
    int64_t n_blocks;
    size_t block_bytes, block_stride;
    char **base; /* [n_regions] */
    void **reg;  /* spans registered with gshmemx_buffer_register */
    int n_reg;
    kv_peer_t *peer;      /* [npes] */
    int busy;             /* requests in progress on it */
    unsigned char *saved; /* [n_regions][probe_len]: the bytes the probes cover */
    size_t probe_len;
    int gpu;      /* every region is CUDA device memory (kv_cuda.h) */
    int dheap;    /* ... on the device heap (gshmem_malloc): PEs reach it */
    size_t span;  /* of each region: (n_blocks - 1) x stride + block bytes */
    uint64_t gen; /* this registration's number, never reused (a file's
                     engine keeps its buffers by it) */
} kv_layout_t;

enum { KV_REQ_FREE = 0, KV_REQ_POSTED, KV_REQ_SIGNALING, KV_REQ_ENDED };

typedef struct kv_req {
    uint64_t magic;
    uint32_t gen;                                     /* the handle's upper half; never 0 */
    int state, status, canceled, is_read, layout, pe; /* pe: or a peer_add id */
    void *flush;      /* a peer outside the job: the UCX flush that ends it */
    int net_status;   /* ... or the error that ended it first */
    uint64_t net_seq; /* over verbs: its QP's completed count that ends it, + 1 (0: none) */
    gshmem_kv_signal_t sig;
    int sig_sent; /* a read's signal to a peer outside the job is on its way */
    uint64_t seq; /* post order: a quiet begun after seq covers it */
    uint64_t t_posted;
    gshmem_kv_req_stats_t stats;
    int io;                      /* a storage-tier request: its file's I/O thread ends it */
    char *line;                  /* the failure's line, from the thread that saw it (malloc'd) */
    int lk_prev, lk_next;        /* the free list, the posted list or a pass's chain */
    int cq_prev, cq_next, in_cq; /* the completion queue, by index */
} kv_req_t;

struct gshmem_kv {
    uint64_t magic;
    gshmem_kv_config_t cfg;
    int me, npes;
    pthread_mutex_t lock;
    pthread_cond_t done_cv; /* a request ended */
    pthread_cond_t work_cv; /* a request was posted, or stop */
    char *dir;              /* symmetric: max_layouts slots */
    char *ddir;             /* symmetric, on the device heap (gshmem_malloc): its anchor */
    size_t dir_slot;        /* bytes per slot */
    kv_layout_t *layouts;   /* [max_layouts] */
    kv_req_t *reqs;         /* [max_requests] */
    uint32_t next_gen;
    uint64_t seq;
    int free_head;                /* free slots, through lk_next */
    int posted_head, posted_tail; /* KV_REQ_POSTED, in post order (seq) */
    int n_posted, n_signaling;
    int rposted_head, rposted_tail, n_rposted; /* to peers outside the job: no order */
    kv_net_t *net;                             /* NULL until local_info or peer_add */
    struct kv_listen *listen;                  /* kv_listen.c; NULL: not listening */
    int cq_head, cq_tail;
    int thread_on, stop;
    pthread_t thread;
    struct gshmem_kv_file *files[KV_MAX_FILES];   /* open files; a handle is one of these */
    struct gshmem_kv_store *stores[KV_MAX_FILES]; /* open block stores, likewise */
    struct kv_mbox *mbox;                         /* symmetric: the mailbox of the job's PEs */
    struct kv_mbox *xmbox; /* in xmbox_fd: signal words, the mailbox of peers outside */
    int xmbox_fd;
};

/* kv_base.c */
/* One line "gshmem: PE n: fn: ..." on stderr and in gshmem_kv_error();
 * returns status. */
int kv_fail(int status, const char *fn, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* line becomes the calling thread's gshmem_kv_error() (not printed again). */
void kv_set_error(const char *line);
/* on: this thread's kv_fail lines are kept but not printed (a try whose
 * failure is retried, and said, by the retry). */
void kv_set_quiet(int on);
/* SHMEM_INFO asks for the library's notes (1, yes, true or on). */
int kv_info_on(void);
/* The live engine kv, locked; NULL (and one line) if kv is not one. */
gshmem_kv_t *kv_enter(gshmem_kv_t *kv, const char *fn);
void kv_leave(gshmem_kv_t *kv);
/* 0 when KV_MAX_ENGINES are live already. */
int kv_table_add(gshmem_kv_t *kv);
/* Takes kv out of the table: 1 if it was there. */
int kv_table_remove(gshmem_kv_t *kv);
uint64_t kv_now_ns(void);

/* kv_layout.c */
int kv_dir_create(gshmem_kv_t *kv);
void kv_dir_destroy(gshmem_kv_t *kv);
kv_dir_rec_t *kv_dir_rec(gshmem_kv_t *kv, int id);
/* Drops layout id here (not collective): its registrations, its memory. */
void kv_layout_drop(gshmem_kv_t *kv, int id);
/* The part of a transfer that names pieces of layout L, the same for the
 * network (kv_xfer.c) and a file (kv_file.c): the layer range, the regions,
 * the slice, a block count and the local block list.  0 with *mask,
 * *offset and *length set (the defaults filled in), or a kv_fail status. */
int kv_check_shape(const kv_layout_t *L, const gshmem_kv_xfer_t *x, const char *fn, uint32_t *mask,
                   size_t *offset, size_t *length);

/* kv_req.c */
/* Every slot free, the lists empty (create). */
void kv_req_init(gshmem_kv_t *kv);
int kv_req_alloc(gshmem_kv_t *kv, const char *fn, kv_req_t **out);
/* Back to the free slots: a request freed, or one allocated and never
 * posted (the block store's, when a check after the allocation fails). */
void kv_req_release(gshmem_kv_t *kv, kv_req_t *r);
/* A request just posted (state, seq and stats set) joins the posted list. */
void kv_req_posted(gshmem_kv_t *kv, kv_req_t *r);
gshmem_kv_req_t kv_req_handle(const gshmem_kv_t *kv, const kv_req_t *r);
/* A storage-tier request whose I/O is over (kv_file.c) ends now with
 * status and joins the completion queue. */
void kv_req_ended(gshmem_kv_t *kv, kv_req_t *r, int status);
/* Completes what is posted (called with the lock held; drops it around
 * the quiets). */
void kv_progress(gshmem_kv_t *kv);
int kv_thread_start(gshmem_kv_t *kv);
void kv_thread_stop(gshmem_kv_t *kv);
/* Completes everything in progress (destroy). */
void kv_drain(gshmem_kv_t *kv);

/* A pass over the requests to peers outside the job: each whose flush
 * has ended ends (lock held; kv_net.c's thread calls it too). */
void kv_remote_pass(gshmem_kv_t *kv);

/* kv_net.c (kv_net_none.c without UCX): peers outside the job */
static inline int kv_is_remote(int pe)
{
    return pe >= GSHMEM_KV_PEER_REMOTE;
}
/* The peer's side of layout x->layout, one UCX key per region of it, and
 * this side's UCX memory handle per region (NULL each for a peer copied
 * to directly); 0, or a kv_fail status (no such peer, gone, no such
 * layout, memory its path cannot reach, a failed mapping). */
int kv_net_plan(gshmem_kv_t *kv, const gshmem_kv_xfer_t *x, const char *fn, kv_peer_t **P,
                void ***keys, void ***memh);
/* One get or put of a run (memh: the local side's handle); a failure is
 * kept in r->net_status. */
void kv_net_op(gshmem_kv_t *kv, kv_req_t *r, int is_read, void *local, const char *remote,
               size_t len, void *key, void *memh);
/* After the runs: the flush whose end is the request's. */
void kv_net_flush(gshmem_kv_t *kv, kv_req_t *r);
/* GSHMEM_KV_INPROGRESS, 0, or the error that ended r. */
int kv_net_req_status(gshmem_kv_t *kv, kv_req_t *r);
/* This engine's blob, malloc'd (lock held). */
int kv_net_blob(gshmem_kv_t *kv, unsigned char **out, size_t *len, const char *fn);
/* gshmem_kv_peer_add's work (lock held). */
int kv_net_add(gshmem_kv_t *kv, const void *info, size_t len, int *peer, const char *fn);
/* Progresses the worker (lock held). */
void kv_net_progress(gshmem_kv_t *kv);
/* Unmaps layout id from UCX (its drop). */
void kv_net_layout_drop(gshmem_kv_t *kv, int id);
/* Stops the thread, closes every peer, frees the worker (lock held). */
void kv_net_destroy(gshmem_kv_t *kv);

/* kv_mbox.c */
/* The mailbox outside peers reach (not collective); a line on failure. */
int kv_mbox_create(gshmem_kv_t *kv, const char *fn);
void kv_mbox_destroy(gshmem_kv_t *kv);
/* addr's index among this engine's signal words, or -1. */
int kv_signal_index(const gshmem_kv_t *kv, const uint64_t *addr);

/* kv_net.c: a message to peer id (lock held); the peer id whose engine
 * is `engine`, or -1. */
int kv_net_msg_send(gshmem_kv_t *kv, int peer, const void *data, size_t len, uint64_t deadline_ns,
                    const char *fn);
int kv_net_peer_of(gshmem_kv_t *kv, uint64_t engine);

/* kv_listen.c: stops the listener (destroy, without the lock). */
void kv_listen_stop(gshmem_kv_t *kv);

/* kv_file.c */
/* Closes every file left open (destroy). */
void kv_files_close_all(gshmem_kv_t *kv);

/* kv_store.c: closes every block store left open (destroy). */
void kv_stores_close_all(gshmem_kv_t *kv);

#endif /* KV_IMPL_H */
