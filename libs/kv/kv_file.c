/*
 * libs/kv/kv_file.c - the storage tier (gshmem_kv.h, "Storage tier"): the
 * table of open files, open and close, and store and load, which check
 * the transfer as the network path does, plan its runs (one I/O per run
 * of pieces adjacent in memory and in the file) and hand them to the
 * file's engine (kv_io.h) without the engine's lock.
 */
#define _GNU_SOURCE /* O_DIRECT, statx */
#include "kv_io.h"

#include <shmem.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define KV_FILE_FLAGS (GSHMEM_KV_FILE_WRITE | GSHMEM_KV_FILE_CREATE | GSHMEM_KV_FILE_DIRECT)
#define KV_DIRECT_ALIGN_DEFAULT 4096 /* where statx does not say */

int kv_io_fail(const struct gshmem_kv_file *f, const char *fn, int is_read, const kv_io_t *io,
               int err)
{
    return kv_fail(GSHMEM_KV_ERR_IO, fn, "%s of %zu bytes at offset %llu of %s: %s",
                   is_read ? "read" : "write", io->len - io->done,
                   (unsigned long long)(io->off + io->done), f->path,
                   err ? strerror(err) : "end of file (the slot was never stored?)");
}

/* The open file f of kv, or NULL and one line.  Compared by value, never
 * read before it is found. */
static struct gshmem_kv_file *find(gshmem_kv_t *kv, gshmem_kv_file_t *f, const char *fn)
{
    for (int i = 0; i < KV_MAX_FILES; i++)
        if (f != NULL && kv->files[i] == f)
            return f;
    kv_fail(GSHMEM_KV_ERR_HANDLE, fn, "file handle %p is not an open file of this engine",
            (void *)f);
    return NULL;
}

/* O_DIRECT's alignment of memory and of file offsets and lengths. */
static void direct_align(struct gshmem_kv_file *f)
{
    f->mem_align = f->off_align = KV_DIRECT_ALIGN_DEFAULT;
#ifdef STATX_DIOALIGN
    struct statx sx;

    if (statx(f->fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &sx) == 0 &&
        (sx.stx_mask & STATX_DIOALIGN) && sx.stx_dio_mem_align && sx.stx_dio_offset_align) {
        f->mem_align = sx.stx_dio_mem_align;
        f->off_align = sx.stx_dio_offset_align;
    }
#endif
}

/* The file's engine: io_uring unless built without it, forced off, or
 * refused by the kernel (then pread/pwrite). */
static int pick_engine(struct gshmem_kv_file *f, const char *fn)
{
    const char *e = getenv("GSHMEM_KV_FILE_ENGINE");
    int rc;

    if (e && *e && strcmp(e, "auto") && strcmp(e, "posix"))
        return kv_fail(GSHMEM_KV_ERR_INVALID, fn, "GSHMEM_KV_FILE_ENGINE is \"%s\": auto or posix",
                       e);
    f->eng = &kv_io_posix;
#ifdef GSHMEM_HAVE_URING
    if (!(e && !strcmp(e, "posix"))) {
        if ((rc = kv_io_uring.open(f)) == 0) {
            f->eng = &kv_io_uring;
            return 0;
        }
        if (kv_info_on())
            fprintf(stderr, "gshmem: PE %d: %s: io_uring refused (%s): pread/pwrite for %s\n",
                    shmem_my_pe(), fn, strerror(-rc), f->path);
    }
#endif
    rc = f->eng->open(f);
    return rc == 0 ? 0
                   : kv_fail(GSHMEM_KV_ERR_IO, fn, "%s engine for %s: %s", f->eng->name, f->path,
                             strerror(-rc));
}

static int check_opts(const char *path, const gshmem_kv_file_opts_t *o, gshmem_kv_file_t **out,
                      const char *fn)
{
    if (path == NULL || o == NULL || out == NULL)
        return kv_fail(GSHMEM_KV_ERR_INVALID, fn, "%s is NULL",
                       path == NULL ? "path"
                       : o == NULL  ? "opts"
                                    : "out");
    if (o->flags & ~KV_FILE_FLAGS)
        return kv_fail(GSHMEM_KV_ERR_INVALID, fn, "flags 0x%x: unknown bits 0x%x", o->flags,
                       o->flags & ~KV_FILE_FLAGS);
    if ((o->flags & GSHMEM_KV_FILE_CREATE) && !(o->flags & GSHMEM_KV_FILE_WRITE))
        return kv_fail(GSHMEM_KV_ERR_INVALID, fn,
                       "GSHMEM_KV_FILE_CREATE needs GSHMEM_KV_FILE_WRITE");
    if (o->slot_bytes == 0)
        return kv_fail(GSHMEM_KV_ERR_INVALID, fn, "slot_bytes is 0");
    if (o->queue_depth < 0 || o->queue_depth > 4096)
        return kv_fail(GSHMEM_KV_ERR_RANGE, fn, "queue_depth %d is not 0 (64) to 4096",
                       o->queue_depth);
    return 0;
}

void kv_file_free(struct gshmem_kv_file *f)
{
    kv_gds_close(f); /* before the fd it names */
    if (f->eng)
        f->eng->close(f);
    if (f->fd >= 0)
        close(f->fd);
    pthread_mutex_destroy(&f->io_lock);
    f->magic = 0;
    free(f);
}

/* Opens path; 0 or a status with a line. */
static int open_file(struct gshmem_kv_file *f, const char *path, const gshmem_kv_file_opts_t *o,
                     const char *fn)
{
    int oflags = O_CLOEXEC | (f->writable ? O_RDWR : O_RDONLY);
    struct stat st;

    if (o->flags & GSHMEM_KV_FILE_CREATE)
        oflags |= O_CREAT;
    if (f->direct)
        oflags |= O_DIRECT;
    if ((f->fd = open(path, oflags, 0644)) < 0) {
        int e = errno;

        if (e == EINVAL && f->direct)
            return kv_fail(GSHMEM_KV_ERR_INVALID, fn,
                           "%s: the file system refuses O_DIRECT (GSHMEM_KV_FILE_DIRECT)", path);
        return kv_fail(e == ENOENT ? GSHMEM_KV_ERR_NOT_FOUND : GSHMEM_KV_ERR_IO, fn,
                       "cannot open %s%s: %s", path, f->writable ? " for writing" : "",
                       strerror(e));
    }
    if (fstat(f->fd, &st) != 0)
        return kv_fail(GSHMEM_KV_ERR_IO, fn, "fstat of %s: %s", path, strerror(errno));
    if (!S_ISREG(st.st_mode))
        return kv_fail(GSHMEM_KV_ERR_INVALID, fn, "%s is not a regular file", path);
    if (f->writable && o->size > (uint64_t)st.st_size) {
        /* Sparse: blocks are allocated as slots are stored, so a full disk
         * shows at store, as the request's failure. */
        if (ftruncate(f->fd, (off_t)o->size) != 0)
            return kv_fail(GSHMEM_KV_ERR_IO, fn, "cannot extend %s to %llu bytes: %s", path,
                           (unsigned long long)o->size, strerror(errno));
        st.st_size = (off_t)o->size;
    }
    f->n_slots = (int64_t)((uint64_t)st.st_size / f->slot_bytes);
    if (f->direct)
        direct_align(f);
    return 0;
}

int kv_file_new(const char *path, const gshmem_kv_file_opts_t *opts, const char *fn,
                struct gshmem_kv_file **out)
{
    struct gshmem_kv_file *f;
    int rc;

    if ((f = (struct gshmem_kv_file *)calloc(1, sizeof *f)) == NULL)
        return kv_fail(GSHMEM_KV_ERR_NOMEM, fn, "out of memory");
    f->magic = KV_FILE_MAGIC;
    f->fd = -1;
    pthread_mutex_init(&f->io_lock, NULL);
    snprintf(f->path, sizeof f->path, "%s", path);
    f->writable = !!(opts->flags & GSHMEM_KV_FILE_WRITE);
    f->direct = !!(opts->flags & GSHMEM_KV_FILE_DIRECT);
    f->slot_bytes = opts->slot_bytes;
    f->queue_depth = opts->queue_depth ? opts->queue_depth : 64;
    if ((rc = open_file(f, path, opts, fn)) != 0 || (rc = pick_engine(f, fn)) != 0) {
        kv_file_free(f);
        return rc;
    }
    *out = f;
    return 0;
}

int gshmem_kv_file_open(gshmem_kv_t *kv, const char *path, const gshmem_kv_file_opts_t *opts,
                        gshmem_kv_file_t **out)
{
    const char *fn = "gshmem_kv_file_open";
    struct gshmem_kv_file *f;
    int slot = -1, rc;

    if (kv_enter(kv, fn) == NULL)
        return GSHMEM_KV_ERR_HANDLE;
    if ((rc = check_opts(path, opts, out, fn)) != 0)
        goto out;
    for (int i = 0; i < KV_MAX_FILES && slot < 0; i++)
        if (kv->files[i] == NULL)
            slot = i;
    if (slot < 0) {
        rc = kv_fail(GSHMEM_KV_ERR_BUSY, fn, "%d files are open on this engine: close one first",
                     KV_MAX_FILES);
        goto out;
    }
    if ((rc = kv_file_new(path, opts, fn, &f)) != 0)
        goto out;
    if ((rc = kv_file_queue_start(kv, f, fn)) != 0) {
        kv_file_free(f);
        goto out;
    }
    if (kv_info_on())
        fprintf(stderr,
                "gshmem: PE %d: %s: %s: %lld slots of %zu bytes, engine %s (queue depth %d)%s\n",
                kv->me, fn, f->path, (long long)f->n_slots, f->slot_bytes, f->eng->name,
                f->queue_depth, f->direct ? ", O_DIRECT" : "");
    kv->files[slot] = f;
    *out = f;
out:
    kv_leave(kv);
    return rc;
}

/* Out of the table (lock held); the caller stops its thread and frees it. */
static void detach(gshmem_kv_t *kv, struct gshmem_kv_file *f)
{
    for (int i = 0; i < KV_MAX_FILES; i++)
        if (kv->files[i] == f)
            kv->files[i] = NULL;
}

int gshmem_kv_file_close(gshmem_kv_t *kv, gshmem_kv_file_t *file)
{
    const char *fn = "gshmem_kv_file_close";
    struct gshmem_kv_file *f;

    if (kv_enter(kv, fn) == NULL)
        return GSHMEM_KV_ERR_HANDLE;
    if ((f = find(kv, file, fn)) == NULL) {
        kv_leave(kv);
        return GSHMEM_KV_ERR_HANDLE;
    }
    /* Its requests end first (their I/O is bounded); out of the table
     * after, so that no new one is posted meanwhile by another thread. */
    kv_file_queue_drain(kv, f);
    if (find(kv, file, fn) == NULL) { /* another thread closed it while we waited */
        kv_leave(kv);
        return GSHMEM_KV_ERR_HANDLE;
    }
    detach(kv, f);
    kv_leave(kv);
    kv_queue_stop(&f->queue);
    kv_file_free(f);
    return 0;
}

void kv_files_close_all(gshmem_kv_t *kv)
{
    struct gshmem_kv_file *gone[KV_MAX_FILES];
    int n = 0;

    for (int i = 0; i < KV_MAX_FILES; i++)
        if (kv->files[i]) {
            kv_file_queue_drain(kv, kv->files[i]);
            gone[n++] = kv->files[i];
            detach(kv, kv->files[i]);
        }
    /* The threads take the lock to end: stopped without it. */
    pthread_mutex_unlock(&kv->lock);
    for (int i = 0; i < n; i++) {
        kv_queue_stop(&gone[i]->queue);
        kv_file_free(gone[i]);
    }
    pthread_mutex_lock(&kv->lock);
}

const char *gshmem_kv_file_engine(gshmem_kv_t *kv, gshmem_kv_file_t *file)
{
    const char *fn = "gshmem_kv_file_engine", *name = NULL;
    struct gshmem_kv_file *f;

    if (kv_enter(kv, fn) == NULL)
        return NULL;
    if ((f = find(kv, file, fn)) != NULL)
        name = f->eng->name;
    kv_leave(kv);
    return name;
}

int kv_file_check(gshmem_kv_t *kv, struct gshmem_kv_file *f, const gshmem_kv_xfer_t *x,
                  gshmem_kv_req_t *req, int is_read, const char *fn, kv_fplan_t *p)
{
    const int64_t *slots;
    kv_layout_t *L;
    int nreg = 0, rc;

    if (x == NULL || req == NULL)
        return kv_fail(GSHMEM_KV_ERR_INVALID, fn, "%s is NULL", x == NULL ? "xfer" : "req");
    if (!is_read && !f->writable)
        return kv_fail(GSHMEM_KV_ERR_INVALID, fn,
                       "%s was opened read-only (no GSHMEM_KV_FILE_WRITE): nothing can be "
                       "stored to it",
                       f->path);
    if (x->layout < 0 || x->layout >= kv->cfg.max_layouts || !kv->layouts[x->layout].live)
        return kv_fail(GSHMEM_KV_ERR_NOT_FOUND, fn, "layout id %d is not registered", x->layout);
    L = &kv->layouts[x->layout];
    if (x->signal.addr != NULL)
        return kv_fail(GSHMEM_KV_ERR_INVALID, fn, "a signal: a file has no peer to signal");
    if ((rc = kv_check_shape(L, x, fn, &p->mask, &p->offset, &p->length)) != 0)
        return rc;
    p->L = L;
    for (int r = 0; r < L->rpl; r++)
        nreg += (int)(p->mask >> r & 1);
    p->pieces = x->n_layers * nreg;
    if ((size_t)p->pieces > (p->room ? p->room : f->slot_bytes) / p->length)
        return kv_fail(GSHMEM_KV_ERR_RANGE, fn,
                       "%d layers x %d regions x %zu bytes do not fit in %s of %zu bytes (%s)",
                       x->n_layers, nreg, p->length, p->room ? "an entry" : "a slot",
                       p->room ? p->room : f->slot_bytes, f->path);
    slots = x->remote_blocks ? x->remote_blocks : x->local_blocks;
    for (size_t i = 0; i < x->n; i++) {
        if (x->local_blocks[i] < 0 || x->local_blocks[i] >= L->n_blocks)
            return kv_fail(GSHMEM_KV_ERR_RANGE, fn,
                           "local_blocks[%zu] is %lld: layout %d has blocks 0 to %lld", i,
                           (long long)x->local_blocks[i], x->layout, (long long)L->n_blocks - 1);
        if (slots[i] < 0 || slots[i] >= f->n_slots)
            return kv_fail(GSHMEM_KV_ERR_RANGE, fn,
                           "%s[%zu] is slot %lld: %s is too small for it, it holds slots 0 to "
                           "%lld of %zu bytes",
                           x->remote_blocks ? "remote_blocks" : "local_blocks (as the slots)", i,
                           (long long)slots[i], f->path, (long long)f->n_slots - 1, f->slot_bytes);
    }
    return 0;
}

/* O_DIRECT: one piece's address, file offset and length. */
static int check_direct(const struct gshmem_kv_file *f, const char *m, uint64_t off, size_t len,
                        int64_t block, int64_t slot, int staged, const char *fn)
{
    if (len % f->off_align)
        return kv_fail(GSHMEM_KV_ERR_INVALID, fn,
                       "O_DIRECT on %s: the length %zu of each piece is not a multiple of %zu",
                       f->path, len, f->off_align);
    if (!staged && (uintptr_t)m % f->mem_align) /* staged: the staging buffer is aligned */
        return kv_fail(GSHMEM_KV_ERR_INVALID, fn,
                       "O_DIRECT on %s: the address %p (block %lld) is not a multiple of %zu",
                       f->path, (const void *)m, (long long)block, f->mem_align);
    if (off % f->off_align)
        return kv_fail(GSHMEM_KV_ERR_INVALID, fn,
                       "O_DIRECT on %s: the file offset %llu (slot %lld) is not a multiple of %zu",
                       f->path, (unsigned long long)off, (long long)slot, f->off_align);
    return 0;
}

/* The runs of x: block by block, and within a block layer by layer and
 * region by region (the slot's order); a piece that starts where the run
 * ends, in memory and in the file, extends it. */
int kv_file_plan(const struct gshmem_kv_file *f, const gshmem_kv_xfer_t *x, const kv_fplan_t *p,
                 kv_io_t *io, size_t *n_io, const char *fn)
{
    const int64_t *slots = x->remote_blocks ? x->remote_blocks : x->local_blocks;
    const kv_layout_t *L = p->L;
    size_t k = 0;

    for (size_t i = 0; i < x->n; i++) {
        int j = 0;

        for (int l = x->layer_first; l < x->layer_first + x->n_layers; l++)
            for (int r = 0; r < L->rpl; r++) {
                char *m;
                uint64_t off;
                int rc;

                if (!(p->mask >> r & 1))
                    continue;
                m = L->base[l * L->rpl + r] + (size_t)x->local_blocks[i] * L->block_stride +
                    p->offset;
                off = (uint64_t)slots[i] * f->slot_bytes + (uint64_t)j++ * p->length;
                if (f->direct && (rc = check_direct(f, m, off, p->length, x->local_blocks[i],
                                                    slots[i], L->gpu, fn)))
                    return rc;
                if (k && io[k - 1].buf + io[k - 1].len == m &&
                    io[k - 1].off + io[k - 1].len == off) {
                    io[k - 1].len += p->length;
                    continue;
                }
                io[k].buf = m, io[k].off = off, io[k].len = p->length, io[k].done = 0;
                io[k].region = l * L->rpl + r, io[k].fix = 0;
                k++;
            }
    }
    *n_io = k;
    return 0;
}

static int file_xfer(gshmem_kv_t *kv, gshmem_kv_file_t *file, const gshmem_kv_xfer_t *x,
                     gshmem_kv_req_t *req, int is_read, const char *fn)
{
    struct gshmem_kv_file *f;
    kv_fplan_t p = {0};
    kv_io_t *io = NULL;
    kv_job_t *job = NULL;
    size_t n_io = 0;
    uint64_t t0 = kv_now_ns();
    kv_req_t *r;
    int rc;

    if (kv_enter(kv, fn) == NULL)
        return GSHMEM_KV_ERR_HANDLE;
    if ((f = find(kv, file, fn)) == NULL) {
        kv_leave(kv);
        return GSHMEM_KV_ERR_HANDLE;
    }
    if ((rc = kv_file_check(kv, f, x, req, is_read, fn, &p)) != 0)
        goto out;
    io = (kv_io_t *)malloc(x->n * (size_t)p.pieces * sizeof *io);
    job = (kv_job_t *)calloc(1, sizeof *job);
    if (io == NULL || job == NULL) {
        rc = kv_fail(GSHMEM_KV_ERR_NOMEM, fn, "out of memory for %zu runs",
                     x->n * (size_t)p.pieces);
        goto out;
    }
    if ((rc = kv_file_plan(f, x, &p, io, &n_io, fn)) != 0 || (rc = kv_req_alloc(kv, fn, &r)) != 0)
        goto out;
    r->is_read = is_read, r->layout = x->layout, r->pe = kv->me;
    r->io = 1, r->state = KV_REQ_POSTED;
    r->stats.ops = n_io;
    r->stats.blocks = (uint64_t)x->n * (uint64_t)p.pieces;
    r->t_posted = kv_now_ns();
    r->stats.post_ns = r->t_posted - t0;
    /* The file's thread does the I/O and ends the request; the layout and
     * the file stay until then (deregister refuses, close waits). */
    job->r = r, job->L = p.L, job->io = io, job->n_io = n_io;
    job->is_read = is_read, job->fn = fn;
    p.L->busy++, f->busy++;
    kv_queue_add(&f->queue, &job->q);
    io = NULL, job = NULL;
    *req = kv_req_handle(kv, r);
out:
    free(io);
    free(job);
    kv_leave(kv);
    return rc;
}

int gshmem_kv_file_store(gshmem_kv_t *kv, gshmem_kv_file_t *file, const gshmem_kv_xfer_t *xfer,
                         gshmem_kv_req_t *req)
{
    return file_xfer(kv, file, xfer, req, 0, "gshmem_kv_file_store");
}

int gshmem_kv_file_load(gshmem_kv_t *kv, gshmem_kv_file_t *file, const gshmem_kv_xfer_t *xfer,
                        gshmem_kv_req_t *req)
{
    return file_xfer(kv, file, xfer, req, 1, "gshmem_kv_file_load");
}
