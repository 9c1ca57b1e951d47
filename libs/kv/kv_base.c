/*
 * libs/kv/kv_base.c - what every part of the library uses: the table of
 * live engines (a handle is looked up there before it is read), the error
 * line, the status messages, the clock.
 */
#include "kv_impl.h"

#include <shmem.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

static __thread char kv_err[512];
static __thread int kv_quiet; /* kv_fail keeps its line without printing it */

/* Live engines: a handle is one of these, compared by value (never read
 * before it is found here). */
static pthread_mutex_t kv_table_lock = PTHREAD_MUTEX_INITIALIZER;
static gshmem_kv_t *kv_table[KV_MAX_ENGINES];

const char *gshmem_kv_error(void)
{
    return kv_err;
}

const char *gshmem_kv_status_str(int status)
{
    switch (status) {
#define KV_STATUS_CASE(NAME, VALUE, MSG) \
    case VALUE: return MSG;
        GSHMEM_KV_STATUS_MAP(KV_STATUS_CASE)
#undef KV_STATUS_CASE
    }
    return "unknown status";
}

int kv_fail(int status, const char *fn, const char *fmt, ...)
{
    int n, pe = -1, init = 0;
    va_list ap;

    shmem_query_initialized(&init);
    if (init)
        pe = shmem_my_pe();
    if (pe >= 0)
        n = snprintf(kv_err, sizeof kv_err, "gshmem: PE %d: %s: ", pe, fn);
    else
        n = snprintf(kv_err, sizeof kv_err, "gshmem: %s: ", fn);
    va_start(ap, fmt);
    vsnprintf(kv_err + n, sizeof kv_err - (size_t)n, fmt, ap);
    va_end(ap);
    if (!kv_quiet)
        fprintf(stderr, "%s\n", kv_err);
    return status;
}

void kv_set_quiet(int on)
{
    kv_quiet = on;
}

int kv_info_on(void)
{
    const char *v = getenv("SHMEM_INFO");

    return v && (!strcmp(v, "1") || !strcasecmp(v, "yes") || !strcasecmp(v, "true") ||
                 !strcasecmp(v, "on"));
}

void kv_set_error(const char *line)
{
    snprintf(kv_err, sizeof kv_err, "%s", line);
}

uint64_t kv_now_ns(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

gshmem_kv_t *kv_enter(gshmem_kv_t *kv, const char *fn)
{
    gshmem_kv_t *found = NULL;

    pthread_mutex_lock(&kv_table_lock);
    for (int i = 0; kv != NULL && i < KV_MAX_ENGINES; i++)
        if (kv_table[i] == kv && kv->magic == KV_MAGIC)
            found = kv;
    if (found)
        pthread_mutex_lock(&found->lock);
    pthread_mutex_unlock(&kv_table_lock);
    if (!found)
        kv_fail(GSHMEM_KV_ERR_HANDLE, fn,
                "engine handle %p is not a live engine (destroyed, or never created)", (void *)kv);
    return found;
}

void kv_leave(gshmem_kv_t *kv)
{
    pthread_mutex_unlock(&kv->lock);
}

int kv_table_add(gshmem_kv_t *kv)
{
    int ok = 0;

    pthread_mutex_lock(&kv_table_lock);
    for (int i = 0; !ok && i < KV_MAX_ENGINES; i++)
        if (kv_table[i] == NULL)
            kv_table[i] = kv, ok = 1;
    pthread_mutex_unlock(&kv_table_lock);
    return ok;
}

int kv_table_remove(gshmem_kv_t *kv)
{
    int found = 0;

    pthread_mutex_lock(&kv_table_lock);
    for (int i = 0; kv != NULL && i < KV_MAX_ENGINES; i++)
        if (kv_table[i] == kv)
            kv_table[i] = NULL, found = 1;
    pthread_mutex_unlock(&kv_table_lock);
    return found;
}
