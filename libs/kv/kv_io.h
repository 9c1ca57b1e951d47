/*
 * libs/kv/kv_io.h - the storage tier's open file and the small table of
 * operations each I/O engine provides (kv_posix.c: pread/pwrite,
 * kv_uring.c: io_uring), so that kv_file.c plans a transfer once and
 * either engine carries it out, on the file's I/O thread
 * (kv_file_queue.c).
 */
#ifndef KV_IO_H
#define KV_IO_H

#include "config.h" /* GSHMEM_HAVE_URING */
#include "kv_impl.h"
#include "kv_queue.h"

#include <stddef.h>
#include <stdint.h>

#define KV_FILE_MAGIC 0x6b7666696c656d67ull /* "kvfilemg" */

/* One read or write: a run of bytes adjacent in memory and in the file. */
typedef struct kv_io {
    char *buf;
    uint64_t off;
    size_t len;
    size_t done; /* bytes moved so far (short reads and writes go on from here) */
    void *owner; /* a stream's: the job the I/O is of (kv_file_queue.c) */
    int region;  /* the layout region buf lies in (kv_file_plan) */
    int fix;     /* io_uring: registered buffer index + 1, 0: none (the engine's fix) */
} kv_io_t;

/* What a stream (the engine's stream op) is fed from: the file's queue,
 * job after job, so that the engine's queue never drains between requests
 * (fio's iodepth never does), and each request ends when its last I/O
 * does, not when the run does. */
typedef struct kv_io_feed {
    /* The next I/O list of the run's direction in *io, *n: nonzero, or 0
     * when nothing more is queued now. */
    int (*more)(struct kv_io_feed *feed, kv_io_t **io, size_t *n);
    /* o has moved all its bytes; the engine touches it no more. */
    void (*whole)(struct kv_io_feed *feed, kv_io_t *o);
} kv_io_feed_t;

struct gshmem_kv_file;

/* One request of a file, queued for its I/O thread (kv_file_queue.c). */
typedef struct kv_job {
    kv_qnode_t q; /* first: the queue's link */
    kv_req_t *r;
    kv_layout_t *L;
    kv_io_t *io; /* [n_io], owned by the job */
    size_t n_io;
    int is_read;
    const char *fn;
    /* A stream's (kv_file_queue.c): its I/Os not yet whole, and its
     * neighbours among the stream's jobs not yet ended. */
    size_t left;
    struct kv_job *prev_taken, *next_taken;
} kv_job_t;

typedef struct kv_io_engine {
    const char *name;
    /* 0 when the engine can serve f (f->fd open), else -errno, no line: the
     * caller decides whether to fall back. */
    int (*open)(struct gshmem_kv_file *f);
    /* Carries out io[0..n) and returns when none is in flight: 0, or
     * GSHMEM_KV_ERR_IO with one line (fn's) for the first failure. */
    int (*run)(struct gshmem_kv_file *f, int is_read, kv_io_t *io, size_t n, const char *fn);
    /* run, then what feed gives while the run goes on (NULL: the engine
     * has no stream; its runs are batched instead).  Same status. */
    int (*stream)(struct gshmem_kv_file *f, int is_read, kv_io_t *io, size_t n, kv_io_feed_t *feed,
                  const char *fn);
    /* Registers L's regions with f's engine, once per layout (its
     * buffers then need no pinning per I/O), and sets io[i].fix for each
     * I/O inside one registered buffer.  A layout that cannot be
     * registered (the locked-memory limit) goes plain, said once under
     * SHMEM_INFO.  NULL: the engine registers nothing. */
    void (*fix)(struct gshmem_kv_file *f, const kv_layout_t *L, kv_io_t *io, size_t n);
    /* Drops what fix registered of the layout of registration gen (its
     * deregister: nothing of it is in flight).  Any thread. */
    void (*unfix)(struct gshmem_kv_file *f, uint64_t gen);
    void (*close)(struct gshmem_kv_file *f);
} kv_io_engine_t;

extern const kv_io_engine_t kv_io_posix;

/* kv_stage.c: io[0 .. n) of a layout in GPU memory, through host memory
 * around f's engine (the engine's run's contract). */
int kv_stage_run(struct gshmem_kv_file *f, int is_read, kv_io_t *io, size_t n, const char *fn);
/* kv_gds.c: the same through cuFile, device memory to the file directly:
 * 1 when cuFile is not there (stage instead), else the run's status. */
int kv_gds_run(struct gshmem_kv_file *f, int is_read, kv_io_t *io, size_t n, const char *fn);
void kv_gds_close(struct gshmem_kv_file *f);
#ifdef GSHMEM_HAVE_URING
extern const kv_io_engine_t kv_io_uring;
#endif

struct gshmem_kv_file {
    uint64_t magic;
    int fd;
    int writable, direct;
    size_t slot_bytes;
    int64_t n_slots; /* slots wholly inside the file */
    size_t mem_align,
        off_align; /* O_DIRECT: what every address, offset, length must be a multiple of */
    int queue_depth;
    const kv_io_engine_t *eng;
    void *eng_state; /* the engine's own (the ring) */
    void *gds;       /* the cuFile handle of a GPU layout's I/O (kv_gds.c) */
    int gds_tried;
    int busy;                /* stores and loads in progress (under the engine's lock) */
    pthread_mutex_t io_lock; /* one transfer at a time uses the engine's state */
    char path[256];          /* for the lines (truncated) */
    /* gshmem_kv_file_open's files (not the block store's data file): the
     * queue of requests and the thread that carries them out; the queue
     * is under the engine's lock. */
    kv_queue_t queue;
};

/* kv_file_queue.c.  start: the thread of f (0, or a status with a line);
 * drain: waits, the lock held and released while waiting, until none of
 * f's requests is queued or running.  Jobs go in by kv_queue_add and the
 * thread ends by kv_queue_stop (kv_queue.h). */
int kv_file_queue_start(gshmem_kv_t *kv, struct gshmem_kv_file *f, const char *fn);
void kv_file_queue_drain(gshmem_kv_t *kv, struct gshmem_kv_file *f);

/* What a checked transfer is: the layout, the regions, the slice, the
 * pieces per slot. */
typedef struct kv_fplan {
    size_t
        room; /* in: bytes the pieces of a block may take; 0: a slot (the block store: an entry) */
    kv_layout_t *L;
    uint32_t mask;
    size_t offset, length;
    int pieces;
} kv_fplan_t;

/* kv_file.c's parts that the block store (kv_store.c) uses on its data
 * file, which is no handle of the engine's table.  kv_file_new opens path
 * as gshmem_kv_file_open does (0, or a status with a line); kv_file_free
 * closes it.  kv_file_check checks a transfer against f (the slots are
 * remote_blocks, else local_blocks) and fills p; kv_file_plan turns it into
 * io[0 .. *n_io) (room for n * p->pieces), one per run adjacent in memory
 * and in the file, checking O_DIRECT's alignment. */
int kv_file_new(const char *path, const gshmem_kv_file_opts_t *opts, const char *fn,
                struct gshmem_kv_file **out);
void kv_file_free(struct gshmem_kv_file *f);
int kv_file_check(gshmem_kv_t *kv, struct gshmem_kv_file *f, const gshmem_kv_xfer_t *x,
                  gshmem_kv_req_t *req, int is_read, const char *fn, kv_fplan_t *p);
int kv_file_plan(const struct gshmem_kv_file *f, const gshmem_kv_xfer_t *x, const kv_fplan_t *p,
                 kv_io_t *io, size_t *n_io, const char *fn);

/* The failure line of one I/O: "write of 4096 bytes at offset 8192 of
 * path: No space left on device" (err: an errno value). */
int kv_io_fail(const struct gshmem_kv_file *f, const char *fn, int is_read, const kv_io_t *io,
               int err);

#endif /* KV_IO_H */
