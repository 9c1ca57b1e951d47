/*
 * libs/kv/kv.c - the engine: its config, create and destroy.
 */
#include "kv_impl.h"
#include "kv_mbox.h"

#include <shmem.h>

#include <stdlib.h>
#include <time.h>

static int check_config(const gshmem_kv_config_t *c, int thread_level)
{
    const char *fn = "gshmem_kv_create";

    if (c->max_layouts < 1 || c->max_layouts > 64)
        return kv_fail(GSHMEM_KV_ERR_INVALID, fn, "max_layouts %d is not 1 to 64", c->max_layouts);
    if (c->max_regions < 1 || c->max_regions > (1 << 20))
        return kv_fail(GSHMEM_KV_ERR_INVALID, fn, "max_regions %d is not 1 to %d", c->max_regions,
                       1 << 20);
    if (c->max_requests < 1 || c->max_requests > (1 << 24))
        return kv_fail(GSHMEM_KV_ERR_INVALID, fn, "max_requests %d is not 1 to %d", c->max_requests,
                       1 << 24);
    if (c->progress_thread != 0 && c->progress_thread != 1)
        return kv_fail(GSHMEM_KV_ERR_INVALID, fn, "progress_thread %d is neither 0 nor 1",
                       c->progress_thread);
    if (c->progress_thread && thread_level != SHMEM_THREAD_MULTIPLE)
        return kv_fail(GSHMEM_KV_ERR_INVALID, fn,
                       "progress_thread needs SHMEM_THREAD_MULTIPLE (shmem_init_thread); this "
                       "PE has thread level %d",
                       thread_level);
    if (c->default_timeout_ms < 0)
        return kv_fail(GSHMEM_KV_ERR_INVALID, fn, "default_timeout_ms %lld is negative",
                       (long long)c->default_timeout_ms);
    return 0;
}

/* Frees what create made (not collective: the directory goes first). */
static void engine_free(gshmem_kv_t *kv)
{
    pthread_cond_destroy(&kv->done_cv);
    pthread_cond_destroy(&kv->work_cv);
    pthread_mutex_destroy(&kv->lock);
    free(kv->layouts);
    free(kv->reqs);
    kv->magic = 0;
    free(kv);
}

/* The vote of create, before anything else is collective: each PE
 * publishes whether its config passed and the directory's shape (which
 * must be the same everywhere: the directory is one symmetric
 * allocation), a barrier, every PE reads every vote.  So a config refused
 * on one PE fails create on every PE instead of leaving the others in the
 * directory's allocation.  0, or the error status with its line. */
static int create_vote(const gshmem_kv_config_t *c, int rc, const char *fn)
{
    int npes = shmem_n_pes();
    uint64_t mine, *word = (uint64_t *)shmem_calloc(1, sizeof(uint64_t));
    uint64_t *all = (uint64_t *)malloc((size_t)npes * sizeof(uint64_t));
    int bad = -1;

    if (word == NULL) /* the same on every PE */
        return rc ? rc : kv_fail(GSHMEM_KV_ERR_NOMEM, fn, "no room on the symmetric heap");
    /* bit 63: refused; then max_layouts (7 bits), max_regions (21 bits) */
    mine = (rc ? 1ull << 63 : 0) | (uint64_t)(c->max_layouts & 0x7f) << 21 |
           (uint64_t)(c->max_regions & 0x1fffff);
    *word = mine;
    shmem_barrier_all();
    for (int p = 0; all && p < npes; p++)
        shmem_getmem_nbi(&all[p], word, sizeof(uint64_t), p);
    shmem_quiet();
    for (int p = 0; p < npes && bad < 0; p++) {
        uint64_t v = all ? all[p] : shmem_uint64_atomic_fetch(word, p);

        if (v != mine || (v >> 63))
            bad = p;
        if (rc == 0 && bad >= 0 && (v >> 63))
            rc = kv_fail(GSHMEM_KV_ERR_INVALID, fn,
                         "PE %d refused its config (its own line says why): no PE makes the "
                         "engine",
                         p);
        else if (rc == 0 && bad >= 0)
            rc = kv_fail(GSHMEM_KV_ERR_INVALID, fn,
                         "PE %d asks for max_layouts %d and max_regions %d, this PE for %d and "
                         "%d: they size one symmetric directory and must be the same on every PE",
                         p, (int)(v >> 21 & 0x7f), (int)(v & 0x1fffff), c->max_layouts,
                         c->max_regions);
    }
    free(all);
    shmem_free(word); /* collective: also keeps every read ahead of any reuse */
    return rc;
}

int gshmem_kv_create(const gshmem_kv_config_t *cfg, gshmem_kv_t **out)
{
    const char *fn = "gshmem_kv_create";
    gshmem_kv_config_t c = {0};
    pthread_condattr_t ca;
    gshmem_kv_t *kv;
    int init = 0, level = SHMEM_THREAD_SINGLE, rc;

    shmem_query_initialized(&init);
    if (!init)
        return kv_fail(GSHMEM_KV_ERR_INVALID, fn, "called before shmem_init");
    if (cfg)
        c = *cfg;
    c.max_layouts = c.max_layouts ? c.max_layouts : 8;
    c.max_regions = c.max_regions ? c.max_regions : 1024;
    c.max_requests = c.max_requests ? c.max_requests : 1024;
    c.default_timeout_ms = c.default_timeout_ms ? c.default_timeout_ms : 5000;
    shmem_query_thread(&level);
    if (out == NULL)
        rc = kv_fail(GSHMEM_KV_ERR_INVALID, fn, "out is NULL");
    else
        rc = check_config(&c, level);
    if ((rc = create_vote(&c, rc, fn)) != 0)
        return rc;
    kv = (gshmem_kv_t *)calloc(1, sizeof *kv);
    if (kv == NULL)
        return kv_fail(GSHMEM_KV_ERR_NOMEM, fn, "out of memory");
    kv->cfg = c;
    kv->me = shmem_my_pe(), kv->npes = shmem_n_pes();
    kv->next_gen = 1;
    pthread_mutex_init(&kv->lock, NULL);
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&kv->done_cv, &ca);
    pthread_cond_init(&kv->work_cv, &ca);
    pthread_condattr_destroy(&ca);
    kv->xmbox_fd = -1;
    kv->layouts = (kv_layout_t *)calloc((size_t)c.max_layouts, sizeof(kv_layout_t));
    kv->reqs = (kv_req_t *)calloc((size_t)c.max_requests, sizeof(kv_req_t));
    /* Collective: every PE has voted for the same directory. */
    if ((rc = kv_dir_create(kv)) != 0)
        goto err_free;
    if (kv->layouts == NULL || kv->reqs == NULL) {
        rc = kv_fail(GSHMEM_KV_ERR_NOMEM, fn, "out of memory for %d layouts and %d requests",
                     c.max_layouts, c.max_requests);
        goto err_dir;
    }
    /* Collective, as the directory: the same on every PE. */
    kv->mbox = (struct kv_mbox *)shmem_calloc(1, sizeof(kv_mbox_t));
    if (kv->mbox == NULL) {
        rc = kv_fail(GSHMEM_KV_ERR_NOMEM, fn,
                     "no room on the symmetric heap for a mailbox of %zu "
                     "bytes",
                     sizeof(kv_mbox_t));
        goto err_dir;
    }
    if ((rc = kv_mbox_create(kv, fn)) != 0)
        goto err_mbox;
    kv_req_init(kv);
    if (!kv_table_add(kv)) {
        rc = kv_fail(GSHMEM_KV_ERR_BUSY, fn, "%d engines exist already: destroy one first",
                     KV_MAX_ENGINES);
        goto err_xmbox;
    }
    kv->magic = KV_MAGIC;
    if (c.progress_thread && (rc = kv_thread_start(kv)) != 0)
        goto err_table;
    *out = kv;
    return 0;

err_table:
    kv_table_remove(kv);
err_xmbox:
    kv_mbox_destroy(kv);
err_mbox:
    shmem_free(kv->mbox);
err_dir:
    kv_dir_destroy(kv);
err_free:
    engine_free(kv);
    return rc;
}

int gshmem_kv_destroy(gshmem_kv_t *kv)
{
    const char *fn = "gshmem_kv_destroy";

    if (kv_enter(kv, fn) == NULL)
        return GSHMEM_KV_ERR_HANDLE;
    kv_leave(kv);
    /* Out of the table first: no other call finds it from here on. */
    if (!kv_table_remove(kv))
        return kv_fail(GSHMEM_KV_ERR_HANDLE, fn, "engine %p is being destroyed by another thread",
                       (void *)kv);
    kv_listen_stop(kv); /* no new peer from here on */
    kv_thread_stop(kv);
    pthread_mutex_lock(&kv->lock);
    kv_drain(kv);
    kv_net_destroy(kv); /* peers outside the job: closed, their keys freed */
    kv_stores_close_all(kv);
    kv_files_close_all(kv);
    for (int id = 0; id < kv->cfg.max_layouts; id++)
        kv_layout_drop(kv, id);
    kv_mbox_destroy(kv);
    pthread_mutex_unlock(&kv->lock);
    shmem_free(kv->mbox); /* collective */
    kv_dir_destroy(kv);   /* collective */
    engine_free(kv);
    return 0;
}
