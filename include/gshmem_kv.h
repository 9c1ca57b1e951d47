/*
 * gshmem_kv.h - KV-cache transfer between the PEs of a gshmem job
 * (libgshmem_kv), for disaggregated prefill and decode.
 *
 * An engine (gshmem_kv_create) is made collectively inside a gshmem job.
 * Each PE registers its paged KV cache once as a layout: n_layers layers
 * of regions_per_layer regions (2: K and V; 1: MLA's joint latent), each
 * region an array of n_blocks blocks of block_bytes, block_stride apart,
 * at region_base[layer * regions_per_layer + region].  A transfer names a
 * peer PE, a layer range, the regions, a list of block ids on each side
 * and optionally a byte slice of each block (the heads of one
 * tensor-parallel rank); the library turns that into one RMA operation per
 * run of blocks that are adjacent on both sides (coalescing), with no
 * descriptor per block.
 *
 * Memory.  A layout that peers read or write (the remote side of a
 * transfer) lies on the symmetric heap (shmem_malloc, shmem_align,
 * shmem_calloc) or the device heap (gshmem_malloc): peers find it at the
 * same offset, so nothing but the layout's shape and offsets is exchanged,
 * once, at registration.  A layout in any other host memory of the process
 * (malloc, mmap, a framework's tensor) is registered with the runtime
 * (gshmemx_buffer_register) and can be the local side of transfers only.
 * GPU memory (CUDA device memory; a layout is all GPU or all host): between
 * PEs on the device heap only; with peers outside the job any allocation,
 * through a UCX built with CUDA (else a transfer to or from it fails
 * GSHMEM_KV_ERR_UNSUPPORTED with a line that names the side); to and from
 * the storage tier always.
 * Register checks that each peer's regions are where their offsets say: it
 * writes a random probe over the first (up to 8) bytes of each region and
 * puts the bytes back before it returns, so nothing may use the memory
 * during the call.  Symmetric memory off the heap (static data, buffers
 * registered as symmetric) fails that check wherever its distance from the
 * heap differs between PEs: such a peer is refused as the remote side,
 * never written at the wrong place.
 *
 * Layout hash.  gshmem_kv_layout_hash covers what two sides must agree on
 * (layers, regions per layer, block bytes); block counts and strides are
 * each side's own.  A transfer to a peer whose layout of the same id has
 * another hash is refused (GSHMEM_KV_ERR_MISMATCH) with a line naming both.
 *
 * Signals.  A transfer may carry a signal: a 64-bit word at the peer
 * (symmetric, 8-byte aligned) that is set to or incremented by a value
 * after the data.  A write's signal goes out behind its data, ordered by a
 * fence, as put-with-signal orders it: when the peer sees the signal, the
 * blocks are there.  A read's signal goes to the PE read from once the
 * data has arrived here ("I have read your blocks"), and is complete
 * before the request is.
 *
 * Requests.  read and write post the operations and return a request
 * handle; test, wait (with a timeout) and the completion queue (poll)
 * report its end; req_stats gives bytes, operations posted and the post
 * and transfer times; req_free releases it.  Completion is what a quiet
 * gives: when a request is done, its data is in place at both sides (and
 * its signal delivered).  Without a progress thread (the default) the
 * operations complete when this PE calls test, wait or poll (on
 * load/store peers the data has moved inside read/write already); with
 * cfg.progress_thread (needs SHMEM_THREAD_MULTIPLE) a thread of the engine
 * completes them, and test returns GSHMEM_KV_INPROGRESS until then.
 * Cancel of a request in progress: the operations already posted still
 * complete (an issued RDMA write cannot be taken back), a read's signal is
 * not sent, and the request ends as GSHMEM_KV_ERR_CANCELED.
 *
 * Threads.  Every call on an engine takes the engine's lock; calls from
 * several threads need SHMEM_THREAD_MULTIPLE, as any gshmem call does.
 *
 * Errors.  0 is success, negative values are errors (GSHMEM_KV_STATUS_MAP);
 * each error also prints one line on stderr ("gshmem: PE n:
 * gshmem_kv_read: ..."), which gshmem_kv_error() returns until the
 * calling thread's next error.  A bad argument changes nothing.  Engine
 * handles and request handles are looked up in the library's tables before
 * any use, so a destroyed, freed or made-up handle is an error line, never
 * a crash.
 */
#ifndef GSHMEM_KV_H
#define GSHMEM_KV_H

#include <stddef.h>
#include <stdint.h>

#if defined(__cplusplus)
extern "C" {
#endif

#define GSHMEM_KV_API __attribute__((visibility("default")))

/* X(NAME, value, message): the status codes, written once. */
#define GSHMEM_KV_STATUS_MAP(X)                                                \
    X(OK, 0, "success")                                                        \
    X(INPROGRESS, 1, "in progress")                                            \
    X(ERR_INVALID, -1, "invalid argument")                                     \
    X(ERR_HANDLE, -2, "not a live handle")                                     \
    X(ERR_NOT_FOUND, -3, "not registered")                                     \
    X(ERR_RANGE, -4, "out of range")                                           \
    X(ERR_MISMATCH, -5, "layouts differ")                                      \
    X(ERR_TIMEOUT, -6, "timed out")                                            \
    X(ERR_CANCELED, -7, "canceled")                                            \
    X(ERR_STATE, -8, "not allowed in the request's state")                     \
    X(ERR_BUSY, -9, "resources in use")                                        \
    X(ERR_NOMEM, -10, "out of memory")                                         \
    X(ERR_IO, -11, "storage I/O failed")                                       \
    X(ERR_PEER, -12, "the peer is gone")                                       \
    X(ERR_UNSUPPORTED, -13, "not supported by this build")                     \
    X(ERR_AUTH, -14, "the other side does not know the secret")                \
    X(ERR_CORRUPT, -15, "stored data failed its checksum")

#define GSHMEM_KV_STATUS_ENUM_(NAME, VALUE, MSG) GSHMEM_KV_##NAME = (VALUE),
enum { GSHMEM_KV_STATUS_MAP(GSHMEM_KV_STATUS_ENUM_) GSHMEM_KV_STATUS_END_ = 0 };
#undef GSHMEM_KV_STATUS_ENUM_

typedef struct gshmem_kv_config {
    int max_layouts;  /* layouts registered at once; 0: 8 */
    int max_regions;  /* n_layers * regions_per_layer of a layout; 0: 1024 */
    int max_requests; /* requests not yet freed; 0: 1024 */
    int progress_thread; /* 1: a thread completes requests (SHMEM_THREAD_MULTIPLE) */
    int64_t
        default_timeout_ms; /* gshmem_kv_wait's GSHMEM_KV_WAIT_DEFAULT; 0: 5000 */
} gshmem_kv_config_t;

typedef struct gshmem_kv_layout {
    int n_layers;          /* >= 1 */
    int regions_per_layer; /* 1 .. 8: 2 for K and V, 1 for MLA */
    int64_t n_blocks;      /* >= 1 */
    size_t block_bytes;    /* >= 1 */
    size_t block_stride; /* bytes from one block to the next; 0: block_bytes */
    /* [n_layers * regions_per_layer]: region r of layer l at [l * regions_per_layer + r] */
    void *const *region_base;
} gshmem_kv_layout_t;

/* The signal of a transfer: *addr at the peer is set to, or incremented
 * by, value after the data.  addr NULL: no signal.  To a PE of the job,
 * addr is symmetric memory.  To a peer outside the job (no symmetric
 * memory is shared), addr is one of this engine's own signal words,
 * gshmem_kv_signal_word(kv, i), and names word i of the peer's engine,
 * as a symmetric address names the same object at every PE. */
#define GSHMEM_KV_SIGNAL_SET 0
#define GSHMEM_KV_SIGNAL_ADD 1
typedef struct gshmem_kv_signal {
    uint64_t *addr; /* symmetric, 8-byte aligned; or a signal word (above) */
    uint64_t value;
    int op; /* GSHMEM_KV_SIGNAL_SET or _ADD */
} gshmem_kv_signal_t;

/* One transfer: blocks local_blocks[i] here and remote_blocks[i] at pe, of
 * layers [layer_first, layer_first + n_layers), regions in region_mask,
 * bytes [offset, offset + length) of each block. */
typedef struct gshmem_kv_xfer {
    int layout; /* a layout id; the peer's layout of the same id is the other side */
    int pe; /* the peer: a PE (this PE itself is allowed) or a gshmem_kv_peer_add id */
    int layer_first;
    int n_layers;         /* >= 1 */
    uint32_t region_mask; /* bit r: region r; 0: every region */
    size_t offset; /* slice of each block; offset + length <= block_bytes */
    size_t length; /* 0: to the end of the block */
    size_t n;      /* blocks, >= 1 */
    const int64_t *local_blocks;  /* [n] */
    const int64_t *remote_blocks; /* [n]; NULL: the same ids as local_blocks */
    gshmem_kv_signal_t signal;
} gshmem_kv_xfer_t;

/* A request: a handle the engine's table resolves (0 is never one). */
typedef uint64_t gshmem_kv_req_t;

typedef struct gshmem_kv_req_stats {
    uint64_t bytes;  /* data bytes moved (both directions count once) */
    uint64_t blocks; /* n * layers * regions */
    uint64_t ops; /* RMA operations posted after coalescing (signal excluded) */
    uint64_t post_ns; /* inside gshmem_kv_read / _write */
    uint64_t xfer_ns; /* from the end of the post to the completion seen */
} gshmem_kv_req_stats_t;

/* One entry of the completion queue. */
typedef struct gshmem_kv_completion {
    gshmem_kv_req_t req;
    int status; /* 0, GSHMEM_KV_ERR_CANCELED */
} gshmem_kv_completion_t;

typedef struct gshmem_kv gshmem_kv_t;

/* Collective over the world (it allocates on the symmetric heap), after
 * shmem_init.  cfg NULL: the defaults.  max_layouts and max_regions must
 * be the same on every PE; a config refused on one PE fails the call on
 * every PE (each with a line), none is left waiting. */
GSHMEM_KV_API int gshmem_kv_create(const gshmem_kv_config_t *cfg,
                                   gshmem_kv_t **out);
/* Collective.  Completes what is in flight, deregisters every layout,
 * frees every request; no other thread may be inside a call on the engine.
 * A handle that is not a live engine (destroyed already) is
 * GSHMEM_KV_ERR_HANDLE and one line. */
GSHMEM_KV_API int gshmem_kv_destroy(gshmem_kv_t *kv);

/* Collective: every PE registers its own layout (same call order gives
 * the same ids).  *id is the layout's id, the same on every PE.  A layout
 * refused on one PE fails the call on every PE (each with a line). */
GSHMEM_KV_API int gshmem_kv_layout_register(gshmem_kv_t *kv,
                                            const gshmem_kv_layout_t *layout,
                                            int *id);
/* Collective.  GSHMEM_KV_ERR_BUSY while a request on it is in progress
 * here. */
GSHMEM_KV_API int gshmem_kv_layout_deregister(gshmem_kv_t *kv, int id);
/* The compatibility hash of a layout (0 for NULL). */
GSHMEM_KV_API uint64_t gshmem_kv_layout_hash(const gshmem_kv_layout_t *layout);

/* Pull (read: the peer's blocks into this PE's) or push (write: this PE's
 * into the peer's).  Every argument is checked before any data moves. */
GSHMEM_KV_API int gshmem_kv_read(gshmem_kv_t *kv, const gshmem_kv_xfer_t *xfer,
                                 gshmem_kv_req_t *req);
GSHMEM_KV_API int gshmem_kv_write(gshmem_kv_t *kv, const gshmem_kv_xfer_t *xfer,
                                  gshmem_kv_req_t *req);

/* 0 when done, GSHMEM_KV_INPROGRESS, GSHMEM_KV_ERR_CANCELED. */
GSHMEM_KV_API int gshmem_kv_test(gshmem_kv_t *kv, gshmem_kv_req_t req);
/* As test, waiting at most timeout_ns (GSHMEM_KV_WAIT_DEFAULT: the
 * engine's default) for the end: GSHMEM_KV_ERR_TIMEOUT after that, and
 * the request is still live. */
#define GSHMEM_KV_WAIT_DEFAULT (-1)
GSHMEM_KV_API int gshmem_kv_wait(gshmem_kv_t *kv, gshmem_kv_req_t req,
                                 int64_t timeout_ns);
/* A request in progress: 0, and it ends canceled.  A request that has
 * ended already: GSHMEM_KV_ERR_STATE and one line. */
GSHMEM_KV_API int gshmem_kv_cancel(gshmem_kv_t *kv, gshmem_kv_req_t req);
/* Completes what is in flight, then moves up to max ended requests from
 * the completion queue (oldest first) to done[]; *n: how many. */
GSHMEM_KV_API int gshmem_kv_poll(gshmem_kv_t *kv, gshmem_kv_completion_t *done,
                                 size_t max, size_t *n);
GSHMEM_KV_API int gshmem_kv_req_stats(gshmem_kv_t *kv, gshmem_kv_req_t req,
                                      gshmem_kv_req_stats_t *stats);
/* Releases an ended request (and its queue entry, if not polled):
 * GSHMEM_KV_ERR_STATE while it is in progress. */
GSHMEM_KV_API int gshmem_kv_req_free(gshmem_kv_t *kv, gshmem_kv_req_t req);

/*
 * Peers outside the job: another gshmem job, a decode server started
 * later.  gshmem_kv_local_info describes this PE's engine in a blob: its
 * UCX worker address and, for every layout registered at that time, the
 * layout's shape and hash, its regions' addresses and the UCX keys that
 * let a holder of the blob read and write them.  The application carries
 * the blob over a side channel of its own (vLLM's handshake, a file, a
 * socket); gshmem_kv_peer_add on the other side makes a peer of it and
 * returns a peer id (>= GSHMEM_KV_PEER_REMOTE, never a PE number) that a
 * transfer names in xfer.pe, with the layout ids of the side that made the
 * blob.  Anyone who holds the blob can reach those layouts: keep it on a
 * channel you trust.  A layout registered after the blob was made is not in
 * it (make another).  Not collective; each PE has its own blob.
 *
 * Such transfers go through the engine's own UCX worker (shared memory or
 * cma on one host, tcp or RDMA between hosts, as UCX_TLS allows), one get
 * or put per run of adjacent blocks, and end with a flush: a request is
 * complete when its data is in place at both sides.  The engine runs a
 * thread that progresses the worker from the first local_info or peer_add
 * on (a peer's gets and puts over tcp need this side to answer them).  A
 * signal to such a peer names one of its signal words (below).  When
 * the peer's process ends or its connection fails, its requests end with
 * GSHMEM_KV_ERR_PEER and later transfers to it are refused; remove it, and
 * add the blob of its replacement.  Built without UCX, these calls return
 * GSHMEM_KV_ERR_UNSUPPORTED.
 *
 * With GSHMEM_KV_VERBS set to this host's address on an RDMA device (on
 * both sides), a peer that is not on this host goes over RC QPs of the
 * engine's own instead of UCX (librdmacm; the blob then also carries the
 * listener's address, a token a connection must present, and RDMA keys):
 * the same calls, statuses and signals, with no thread of the peer in the
 * path.  A bad or unusable address fails the first of these calls with
 * GSHMEM_KV_ERR_INVALID or GSHMEM_KV_ERR_UNSUPPORTED and a line.
 */
#define GSHMEM_KV_PEER_REMOTE (1 << 20)
/* buf NULL: *len is the blob's size and nothing is written; else at most
 * cap bytes (GSHMEM_KV_ERR_RANGE when the blob is longer). */
GSHMEM_KV_API int gshmem_kv_local_info(gshmem_kv_t *kv, void *buf, size_t cap,
                                       size_t *len);
/* A malformed or truncated blob is GSHMEM_KV_ERR_INVALID and one line. */
GSHMEM_KV_API int gshmem_kv_peer_add(gshmem_kv_t *kv, const void *info,
                                     size_t len, int *peer);
/* Ends the peer's requests in progress (GSHMEM_KV_ERR_PEER), closes its
 * connection and frees its keys; the id is not reused. */
GSHMEM_KV_API int gshmem_kv_peer_remove(gshmem_kv_t *kv, int peer);

/*
 * Signal words and small messages.  Every engine has GSHMEM_KV_SIGNAL_WORDS
 * 64-bit words, zero at create, that peers outside the job signal (see
 * gshmem_kv_signal_t); this process reads and waits on them as plain
 * memory (shmem_uint64_wait_until does not apply: they are not symmetric).
 *
 * gshmem_kv_msg_send puts up to GSHMEM_KV_MSG_MAX bytes in a peer's
 * mailbox (a PE of the job, or a peer of peer_add: the blob carries the
 * mailbox) and returns once they are there; messages from one sender
 * arrive in the order sent, and after the data of every request of that
 * sender that had completed before the send.  A full mailbox
 * (GSHMEM_KV_MSG_SLOTS messages not yet received) makes the send wait, at
 * most the engine's default timeout, then GSHMEM_KV_ERR_BUSY.
 * gshmem_kv_msg_recv moves up to max waiting messages to msgs[] (oldest
 * first, each with who sent it) and never waits: *n may be 0.  This is
 * what NIXL's notifications are for ("request 17's blocks are read"),
 * without a string to parse for the counts a signal carries.
 */
#define GSHMEM_KV_SIGNAL_WORDS 64
#define GSHMEM_KV_MSG_MAX 1000
#define GSHMEM_KV_MSG_SLOTS 64
typedef struct gshmem_kv_msg {
    int peer; /* a PE of this job, a peer id of this engine, or -1: an engine
                 outside the job that this one has not added */
    int pe;   /* the sender's PE in its own job */
    uint64_t engine; /* the sender engine's id (0: a PE of this job) */
    size_t len;
    unsigned char data[GSHMEM_KV_MSG_MAX];
} gshmem_kv_msg_t;
/* This engine's signal word i (0 <= i < GSHMEM_KV_SIGNAL_WORDS), or NULL
 * and a line. */
GSHMEM_KV_API uint64_t *gshmem_kv_signal_word(gshmem_kv_t *kv, int i);
GSHMEM_KV_API int gshmem_kv_msg_send(gshmem_kv_t *kv, int peer,
                                     const void *data, size_t len);
GSHMEM_KV_API int gshmem_kv_msg_recv(gshmem_kv_t *kv, gshmem_kv_msg_t *msgs,
                                     size_t max, size_t *n);

/*
 * Listen and connect: the blob's exchange, authenticated, for processes
 * that have no channel of their own.  gshmem_kv_listen starts a thread of
 * the engine that accepts TCP connections at address ("host:port"; host
 * empty: every interface; port 0: a free one; NULL: ":0") and writes where
 * it listens to bound ("host:port", the host name for every interface;
 * bound NULL: not written).  gshmem_kv_connect reaches such a listener;
 * both sides prove they know the same secret (a challenge and an
 * HMAC-SHA256 each way over fresh nonces: the secret never crosses the
 * wire and a recorded exchange does not replay); the listener then sends
 * its blob under a MAC, made when the connection comes (the layouts
 * registered then), and connect adds it as gshmem_kv_peer_add does: *peer.
 * A secret has at least 16 characters.  Not collective; one listener per
 * engine, stopped by destroy.
 *
 * Errors: a wrong secret is GSHMEM_KV_ERR_AUTH at connect (and a line at
 * the listener); nothing listening there, GSHMEM_KV_ERR_PEER; no answer
 * within timeout_ms (0: the engine's default timeout),
 * GSHMEM_KV_ERR_TIMEOUT.  A listener serves one connection at a time, each
 * message within 5 s.
 */
GSHMEM_KV_API int gshmem_kv_listen(gshmem_kv_t *kv, const char *address,
                                   const char *secret, char *bound,
                                   size_t bound_len);
GSHMEM_KV_API int gshmem_kv_connect(gshmem_kv_t *kv, const char *address,
                                    const char *secret, int64_t timeout_ms,
                                    int *peer);

/*
 * Storage tier.  A file of slots, each holding one block of a transfer,
 * that a PE stores its layout's blocks to and loads them back from, with
 * the transfer descriptor and the requests of the network path (one call
 * site serves both): gshmem_kv_file_store is a write to the file,
 * gshmem_kv_file_load a read from it.  Local to the PE (nothing
 * collective, nothing symmetric: any registered layout).
 *
 * The descriptor: local_blocks are the layout's blocks, remote_blocks the
 * file's slots (NULL: the same ids); layer_first, n_layers, region_mask,
 * offset and length as for a network transfer; pe is not used; a signal
 * is refused (a file has no peer to signal).
 *
 * File format.  Slot k is the bytes [k * slot_bytes, (k + 1) * slot_bytes)
 * of the file; no header.  Within a slot, the pieces of the block, each
 * `length` bytes (the slice): layer by layer from layer_first, and within a
 * layer region by region (those in region_mask, ascending); piece j at
 * j * length.  n_layers * regions * length must fit in slot_bytes.  A
 * load must name the layer range, regions and slice length of the store
 * that wrote the slots (the file holds no description of itself).
 *
 * I/O.  Each run of blocks adjacent in memory and in the file (consecutive
 * blocks at consecutive slots, one piece per slot; or pieces of a block
 * adjacent in memory) is one read or write.  The engine is io_uring where
 * the library was built with liburing and the kernel allows it (the
 * request's operations in one submission of up to queue_depth entries, the
 * file registered), else pread/pwrite; GSHMEM_KV_FILE_ENGINE=posix forces
 * the latter.  Short reads and writes are resubmitted.  Store and load
 * return once the transfer is checked and planned; the file's own I/O
 * thread carries out its requests in post order, without the engine's
 * lock, and ends each as a network request ends (test, wait, poll,
 * req_stats; cancel ends one that has not started yet, having moved
 * nothing).  Close waits for the file's requests in flight; so does
 * destroy.  A failed I/O (no space, an I/O error, a slot past the end of
 * the file on load) prints one line and ends the request
 * GSHMEM_KV_ERR_IO (the test or wait that returns it makes the line the
 * caller's gshmem_kv_error()): nothing is reported stored that is not.
 *
 * GSHMEM_KV_FILE_DIRECT opens the file O_DIRECT (no page cache): every
 * memory address, file offset and length of the transfer must then be a
 * multiple of the file system's alignment (statx's dio alignment, else
 * 4096); a transfer that is not is refused (GSHMEM_KV_ERR_INVALID, a line
 * naming the value) before any I/O.  A file system that refuses O_DIRECT
 * (older tmpfs) fails the open.
 */
#define GSHMEM_KV_FILE_WRITE 1u /* open read-write (store); else read-only */
#define GSHMEM_KV_FILE_CREATE                                                  \
    2u /* create the file when missing (needs _WRITE) */
#define GSHMEM_KV_FILE_DIRECT 4u /* O_DIRECT */

typedef struct gshmem_kv_file_opts {
    unsigned flags;    /* GSHMEM_KV_FILE_* */
    size_t slot_bytes; /* bytes per slot, >= 1 */
    uint64_t
        size; /* _WRITE: a shorter file is extended to size bytes (sparse); 0: as it is */
    int queue_depth; /* io_uring entries, 1 .. 4096; 0: 64 */
} gshmem_kv_file_opts_t;

typedef struct gshmem_kv_file gshmem_kv_file_t;

/* Not collective.  The slots a transfer may name are those wholly inside
 * the file as opened (after the extension to size). */
GSHMEM_KV_API int gshmem_kv_file_open(gshmem_kv_t *kv, const char *path,
                                      const gshmem_kv_file_opts_t *opts,
                                      gshmem_kv_file_t **out);
/* Waits for the file's requests in flight, then closes it.  The engine's
 * destroy closes the files left open. */
GSHMEM_KV_API int gshmem_kv_file_close(gshmem_kv_t *kv, gshmem_kv_file_t *file);
GSHMEM_KV_API int gshmem_kv_file_store(gshmem_kv_t *kv, gshmem_kv_file_t *file,
                                       const gshmem_kv_xfer_t *xfer,
                                       gshmem_kv_req_t *req);
GSHMEM_KV_API int gshmem_kv_file_load(gshmem_kv_t *kv, gshmem_kv_file_t *file,
                                      const gshmem_kv_xfer_t *xfer,
                                      gshmem_kv_req_t *req);
/* "io_uring" or "pread/pwrite": the file's engine; NULL (and a line) for a
 * handle that is not an open file of kv. */
GSHMEM_KV_API const char *gshmem_kv_file_engine(gshmem_kv_t *kv,
                                                gshmem_kv_file_t *file);

/*
 * Block store: KV blocks kept on local storage under 128-bit keys (the hash
 * of a token prefix chunk, as LMCache and vLLM's prefix cache name them),
 * for prefix reuse.  A directory holds two files: "data", capacity slots of
 * entry_bytes (rounded up to 4096), and "index", a header and one 64-byte
 * record per slot.  Not collective; any registered layout.
 *
 * An entry is one block's pieces over a layer range, regions and slice (a
 * storage-tier slot's format) with its shape: a get must name the same
 * layout shape (hash), layer range, regions and slice length as the put
 * (else GSHMEM_KV_ERR_MISMATCH, before any I/O).
 *
 * put stores xfer->local_blocks[i] under keys[i] (xfer: layout, layers,
 * regions, slice, n, local_blocks; remote_blocks NULL, no signal).  A key
 * the store holds already is kept as it is (a key names its content) and
 * counts as a hit.  When the store is full the least recently used entries
 * go (never a key of the same put); a put of more new keys than the
 * capacity is refused.  get loads keys[i] into local_blocks[i]; a key not
 * held is GSHMEM_KV_ERR_NOT_FOUND before any I/O (ask contains first).
 * Both return a request once the keys are checked and the slots chosen;
 * the store's own I/O thread moves the bytes and writes the records, in
 * post order, and ends it (test, wait, poll).  A key is held from the end
 * of its put's request (contains and get do not see it before; a second
 * put of it meanwhile keeps the first).  An entry a get has yet to read is
 * never evicted: a put that could only make room by evicting such entries
 * is refused (GSHMEM_KV_ERR_BUSY).  A failed I/O ends the request
 * GSHMEM_KV_ERR_IO and none of that put's keys is held.
 *
 * Crash safety.  A put writes each block to a free slot (a victim's record
 * is cleared first), then the block's record: key, shape, length, CRC32C
 * of the bytes, a sequence number and the record's own CRC32C.  A process
 * killed at any point (kill -9) leaves every record describing bytes
 * written before it.  At open, a record that fails its own check (torn,
 * damaged) is dropped, with a line; a get whose bytes fail the record's
 * CRC (the disk lost them) ends GSHMEM_KV_ERR_CORRUPT with a line and the
 * entry is dropped: nothing torn is ever returned as good.
 * GSHMEM_KV_STORE_SYNC also fdatasyncs the data before the records and
 * the index after them, so that a put that ended survives power loss too.
 * LRU order is the put order across a reopen (gets are not written).
 *
 * One writer: an open with GSHMEM_KV_STORE_WRITE locks the index (flock)
 * exclusively, a read-only open shares it; an open that conflicts, in
 * this process or another, is GSHMEM_KV_ERR_BUSY with a line.  Thread
 * safe: the store's calls are serialized (not their I/O).  Close and the
 * engine's destroy wait for the store's requests in flight.
 */
#define GSHMEM_KV_STORE_WRITE 1u  /* put and evict; else read-only */
#define GSHMEM_KV_STORE_CREATE 2u /* create dir and the store when missing */
#define GSHMEM_KV_STORE_DIRECT 4u /* O_DIRECT data (aligned memory) */
#define GSHMEM_KV_STORE_SYNC 8u   /* fdatasync at each put and evict */

typedef struct gshmem_kv_key {
    unsigned char b[16];
} gshmem_kv_key_t;

typedef struct gshmem_kv_store_opts {
    unsigned flags; /* GSHMEM_KV_STORE_* */
    size_t
        entry_bytes; /* bytes an entry may hold: a new store's; else 0 or the same */
    int64_t capacity; /* entries: a new store's; else 0 or the same */
    int queue_depth;  /* io_uring entries, 1 .. 4096; 0: 64 */
} gshmem_kv_store_opts_t;

typedef struct gshmem_kv_store_stats {
    int64_t capacity, entries;
    size_t entry_bytes;
    uint64_t hits,
        misses;         /* keys asked by contains and get, puts of held keys */
    uint64_t evictions; /* LRU victims */
    uint64_t dropped;   /* records dropped at open, entries failing a get */
} gshmem_kv_store_stats_t;

typedef struct gshmem_kv_store gshmem_kv_store_t;

GSHMEM_KV_API int gshmem_kv_store_open(gshmem_kv_t *kv, const char *dir,
                                       const gshmem_kv_store_opts_t *opts,
                                       gshmem_kv_store_t **out);
/* Waits for the store's requests in flight, then closes it.  The engine's
 * destroy closes the stores left open. */
GSHMEM_KV_API int gshmem_kv_store_close(gshmem_kv_t *kv,
                                        gshmem_kv_store_t *store);
GSHMEM_KV_API int gshmem_kv_store_put(gshmem_kv_t *kv, gshmem_kv_store_t *store,
                                      const gshmem_kv_key_t *keys,
                                      const gshmem_kv_xfer_t *xfer,
                                      gshmem_kv_req_t *req);
GSHMEM_KV_API int gshmem_kv_store_get(gshmem_kv_t *kv, gshmem_kv_store_t *store,
                                      const gshmem_kv_key_t *keys,
                                      const gshmem_kv_xfer_t *xfer,
                                      gshmem_kv_req_t *req);
/* How many of keys[0 .. n), from the first, the store holds (a prefix
 * hit's length), >= 0, or a status.  present, if not NULL: [n], 1 for
 * each key held. */
GSHMEM_KV_API int64_t gshmem_kv_store_contains(gshmem_kv_t *kv,
                                               gshmem_kv_store_t *store,
                                               const gshmem_kv_key_t *keys,
                                               size_t n,
                                               unsigned char *present);
/* Drops the keys held (the others are ignored): how many, or a status. */
GSHMEM_KV_API int64_t gshmem_kv_store_evict(gshmem_kv_t *kv,
                                            gshmem_kv_store_t *store,
                                            const gshmem_kv_key_t *keys,
                                            size_t n);
GSHMEM_KV_API int gshmem_kv_store_stats(gshmem_kv_t *kv,
                                        gshmem_kv_store_t *store,
                                        gshmem_kv_store_stats_t *stats);

/* The calling thread's last error line, or "". */
GSHMEM_KV_API const char *gshmem_kv_error(void);
/* The message of a status code ("layouts differ"). */
GSHMEM_KV_API const char *gshmem_kv_status_str(int status);

#if defined(__cplusplus)
}
#endif

#endif /* GSHMEM_KV_H */
