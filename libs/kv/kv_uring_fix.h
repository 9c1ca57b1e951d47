/*
 * libs/kv/kv_uring_fix.h - the io_uring engine's state, shared by its run
 * (kv_uring.c) and its registered buffers (kv_uring_fix.c).
 */
#ifndef KV_URING_FIX_H
#define KV_URING_FIX_H

#include "kv_io.h"

#include <liburing.h>
#include <pthread.h>

/* The ring's table of registered buffers (sparse, filled per layout). */
#define KV_URING_BUFS 1024
/* One registered buffer is at most 1 GiB (the kernel's bound): a longer
 * region takes consecutive slots. */
#define KV_URING_BUF_SHIFT 30

/* What one layout has in the table: region i's first slot (-1: none). */
typedef struct uring_fix {
    uint64_t gen;
    int n_regions;
    int *first;
} uring_fix_t;

typedef struct uring {
    struct io_uring ring;
    int fixed;  /* the file is registered: SQEs name index 0 */
    int broken; /* SQEs left unsubmitted in the ring: rebuild it before reuse */
    int dead;   /* could not be rebuilt: pread/pwrite from here on */
    int live;   /* the ring exists (close exits it) */
    /* Registered buffers (kv_uring_fix.c), under fix_lock, which is taken
     * alone (never with another lock held inside it).  bufs: the table was
     * made (a kernel without sparse tables has none); a ring rebuilt after
     * a failure has none either, and no I/O named for the old one counts. */
    pthread_mutex_t fix_lock;
    int bufs;
    uint64_t slot_gen[KV_URING_BUFS]; /* 0: free */
    uring_fix_t *fixes;
    int n_fixes;
} uring_t;

/* The table of a new ring (setup), and the registrations forgotten when
 * the ring goes (close, rebuild). */
void kv_uring_fix_setup(uring_t *u);
void kv_uring_fix_forget(uring_t *u);
void kv_uring_fix(struct gshmem_kv_file *f, const kv_layout_t *L, kv_io_t *io, size_t n);
void kv_uring_unfix(struct gshmem_kv_file *f, uint64_t gen);

#endif /* KV_URING_FIX_H */
