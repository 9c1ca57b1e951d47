/*
 * libs/kv/kv_uring_fix.c - the io_uring engine's registered buffers.  An
 * O_DIRECT read or write of user memory pins its pages for the I/O and
 * unpins them after; a registered buffer is pinned once, and an I/O that
 * names it (READ_FIXED / WRITE_FIXED) skips that.  The file's thread
 * registers a layout's regions in the ring's sparse table the first time
 * the layout meets the file (kv_uring_fix), and deregister of the layout
 * drops them (kv_uring_unfix): a layout is pinned while it is registered
 * and a file is open, not longer.  Pinning counts against RLIMIT_MEMLOCK
 * (without CAP_IPC_LOCK): a layout that does not fit goes plain, and
 * SHMEM_INFO says so once.
 */
#include "kv_uring_fix.h"

#include <errno.h>
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

void kv_uring_fix_setup(uring_t *u)
{
    memset(u->slot_gen, 0, sizeof u->slot_gen);
    u->bufs = io_uring_register_buffers_sparse(&u->ring, KV_URING_BUFS) == 0;
}

void kv_uring_fix_forget(uring_t *u)
{
    for (int i = 0; i < u->n_fixes; i++)
        free(u->fixes[i].first);
    free(u->fixes);
    u->fixes = NULL, u->n_fixes = 0;
    memset(u->slot_gen, 0, sizeof u->slot_gen);
}

/* n consecutive free slots, marked gen's: the first, or -1. */
static int take_slots(uring_t *u, int n, uint64_t gen)
{
    for (int at = 0, run = 0; at < KV_URING_BUFS; at++) {
        run = u->slot_gen[at] ? 0 : run + 1;
        if (run == n) {
            for (int k = at - n + 1; k <= at; k++)
                u->slot_gen[k] = gen;
            return at - n + 1;
        }
    }
    return -1;
}

/* Empties slot k in the kernel's table (an empty iovec unregisters). */
static void clear_slot(uring_t *u, int k)
{
    static const struct iovec none = {NULL, 0};

    io_uring_register_buffers_update_tag(&u->ring, (unsigned)k, &none, NULL, 1);
}

/* Empties the slots of gen's registration, in the table and the kernel's. */
static void drop_slots(uring_t *u, uint64_t gen)
{
    for (int k = 0; k < KV_URING_BUFS; k++)
        if (u->slot_gen[k] == gen) {
            if (u->bufs)
                clear_slot(u, k);
            u->slot_gen[k] = 0;
        }
}

/* L's registration in the table, made at its first sight: every region
 * whose chunks fit registered, the others (and all, when the kernel says
 * no) left plain.  NULL only when out of memory. */
static uring_fix_t *find_or_add(uring_t *u, struct gshmem_kv_file *f, const kv_layout_t *L)
{
    uring_fix_t *x, *grown;
    int failed = 0, err = 0;

    for (int i = 0; i < u->n_fixes; i++)
        if (u->fixes[i].gen == L->gen)
            return &u->fixes[i];
    grown = (uring_fix_t *)realloc(u->fixes, (size_t)(u->n_fixes + 1) * sizeof *grown);
    if (grown == NULL)
        return NULL;
    u->fixes = grown;
    x = &u->fixes[u->n_fixes];
    if ((x->first = (int *)malloc((size_t)L->n_regions * sizeof(int))) == NULL)
        return NULL;
    x->gen = L->gen, x->n_regions = L->n_regions;
    u->n_fixes++;
    for (int r = 0; r < L->n_regions; r++) {
        int chunks = (int)((L->span + (1ull << KV_URING_BUF_SHIFT) - 1) >> KV_URING_BUF_SHIFT);
        struct iovec iov[8];
        int first, rc = 0;

        x->first[r] = -1;
        if (!u->bufs || failed || chunks > 8 || (first = take_slots(u, chunks, L->gen)) < 0) {
            failed = 1;
            continue;
        }
        for (int c = 0; c < chunks; c++) {
            size_t at = (size_t)c << KV_URING_BUF_SHIFT, left = L->span - at;

            iov[c].iov_base = L->base[r] + at;
            iov[c].iov_len = left < (1ull << KV_URING_BUF_SHIFT) ? left
                                                                 : 1ull << KV_URING_BUF_SHIFT;
        }
        rc = io_uring_register_buffers_update_tag(&u->ring, (unsigned)first, iov, NULL,
                                                  (unsigned)chunks);
        if (rc != chunks) {
            /* Nothing of this region may stay half registered. */
            for (int k = first; k < first + chunks; k++)
                u->slot_gen[k] = 0;
            for (int k = first; k < first + rc; k++) /* rc > 0: some went in */
                clear_slot(u, k);
            err = rc < 0 ? -rc : EAGAIN;
            failed = 1;
            continue;
        }
        x->first[r] = first;
    }
    if (!failed && kv_info_on())
        fprintf(stderr,
                "gshmem: PE %d: io_uring: a layout of %d regions of %zu bytes registered "
                "with %s\n",
                shmem_my_pe(), L->n_regions, L->span, f->path);
    if (failed && kv_info_on())
        fprintf(stderr,
                "gshmem: PE %d: io_uring: a layout of %d regions of %zu bytes is not all "
                "registered with %s (%s): its I/O pins its pages as it goes\n",
                shmem_my_pe(), L->n_regions, L->span, f->path,
                !u->bufs ? "no table of registered buffers in this kernel"
                : err    ? strerror(err)
                         : "more than the table's slots");
    return x;
}

void kv_uring_fix(struct gshmem_kv_file *f, const kv_layout_t *L, kv_io_t *io, size_t n)
{
    uring_t *u = (uring_t *)f->eng_state;
    uring_fix_t *x;

    pthread_mutex_lock(&u->fix_lock);
    x = u->live && u->bufs && !u->dead ? find_or_add(u, f, L) : NULL;
    for (size_t i = 0; i < n; i++) {
        kv_io_t *o = &io[i];
        size_t at;
        int r = o->region;

        o->fix = 0;
        if (x == NULL || r < 0 || r >= x->n_regions || x->first[r] < 0)
            continue;
        at = (size_t)(o->buf - L->base[r]);
        /* Inside one 1 GiB chunk of the region, or plain (a run merged
         * across regions adjacent in memory is not inside one). */
        if (at >= L->span || o->len > L->span - at ||
            (at >> KV_URING_BUF_SHIFT) != ((at + o->len - 1) >> KV_URING_BUF_SHIFT))
            continue;
        o->fix = x->first[r] + (int)(at >> KV_URING_BUF_SHIFT) + 1;
    }
    pthread_mutex_unlock(&u->fix_lock);
}

void kv_uring_unfix(struct gshmem_kv_file *f, uint64_t gen)
{
    uring_t *u = (uring_t *)f->eng_state;

    if (u == NULL)
        return;
    pthread_mutex_lock(&u->fix_lock);
    for (int i = 0; i < u->n_fixes; i++)
        if (u->fixes[i].gen == gen) {
            if (u->live)
                drop_slots(u, gen);
            free(u->fixes[i].first);
            u->fixes[i] = u->fixes[--u->n_fixes];
            break;
        }
    pthread_mutex_unlock(&u->fix_lock);
}
