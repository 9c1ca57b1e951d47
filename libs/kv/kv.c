/*
 * libs/kv/kv.c - the engine: its config, create and destroy.
 */
#include "kv_impl.h"

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
    if (out == NULL)
        return kv_fail(GSHMEM_KV_ERR_INVALID, fn, "out is NULL");
    if (cfg)
        c = *cfg;
    c.max_layouts = c.max_layouts ? c.max_layouts : 8;
    c.max_regions = c.max_regions ? c.max_regions : 1024;
    c.max_requests = c.max_requests ? c.max_requests : 1024;
    c.default_timeout_ms = c.default_timeout_ms ? c.default_timeout_ms : 5000;
    shmem_query_thread(&level);
    if ((rc = check_config(&c, level)) != 0)
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
    kv->layouts = (kv_layout_t *)calloc((size_t)c.max_layouts, sizeof(kv_layout_t));
    kv->reqs = (kv_req_t *)calloc((size_t)c.max_requests, sizeof(kv_req_t));
    /* Collective: every PE gets here with the same config or none does
     * (a config refused above is refused on every PE that passed it). */
    if ((rc = kv_dir_create(kv)) != 0)
        goto err_free;
    if (kv->layouts == NULL || kv->reqs == NULL) {
        rc = kv_fail(GSHMEM_KV_ERR_NOMEM, fn, "out of memory for %d layouts and %d requests",
                     c.max_layouts, c.max_requests);
        goto err_dir;
    }
    kv_req_init(kv);
    if (!kv_table_add(kv)) {
        rc = kv_fail(GSHMEM_KV_ERR_BUSY, fn, "%d engines exist already: destroy one first",
                     KV_MAX_ENGINES);
        goto err_dir;
    }
    kv->magic = KV_MAGIC;
    if (c.progress_thread && (rc = kv_thread_start(kv)) != 0)
        goto err_table;
    *out = kv;
    return 0;

err_table:
    kv_table_remove(kv);
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
    kv_thread_stop(kv);
    pthread_mutex_lock(&kv->lock);
    kv_drain(kv);
    for (int id = 0; id < kv->cfg.max_layouts; id++)
        kv_layout_drop(kv, id);
    pthread_mutex_unlock(&kv->lock);
    kv_dir_destroy(kv); /* collective */
    engine_free(kv);
    return 0;
}
