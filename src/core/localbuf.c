/* src/core/localbuf.c - the registered local buffers (localbuf.h): a table
 * sorted by address, under a mutex (registration is rare and off the data
 * path; the transport keeps its own copy of what its data path reads). */
#include "config.h"
#include "core/localbuf.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/pe.h"
#include "net/transport.h"

typedef struct localbuf {
    uintptr_t addr;
    size_t len;
    void *handle; /* the transport's (mem_reg), or NULL */
} localbuf_t;

static struct {
    pthread_mutex_t lock;
    localbuf_t *buf;
    int n, cap;
} lb = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* Index of the first buffer at or above addr. */
static int lower_bound(uintptr_t addr)
{
    int lo = 0, hi = lb.n;

    while (lo < hi) {
        int mid = (lo + hi) / 2;

        if (lb.buf[mid].addr < addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Whether [a, a + len) overlaps buffer i (which exists). */
static int overlaps(int i, uintptr_t a, size_t len)
{
    return a < lb.buf[i].addr + lb.buf[i].len && lb.buf[i].addr < a + len;
}

/* Whether every page of [a, a + len) is mapped in this process: msync with
 * MS_ASYNC writes nothing back and fails with ENOMEM where part of the
 * range is not mapped (one system call, whatever the length; any
 * protection counts, as a GPU's reserved address ranges are PROT_NONE). */
static int mapped(uintptr_t a, size_t len)
{
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t start = a & ~(page - 1);

    return msync((void *)start, a + len - start, MS_ASYNC) == 0 || errno != ENOMEM;
}

gsi_status_t gsi_localbuf_add(void *addr, size_t len, char *err, size_t errlen)
{
    uintptr_t a = (uintptr_t)addr;
    gsi_status_t status = GSI_OK;
    void *handle = NULL;
    int i;

    if (!addr || len == 0 || a + len < a) {
        snprintf(err, errlen, "%p, %zu bytes: %s", addr, len,
                 !addr      ? "the address is NULL"
                 : len == 0 ? "the length is 0"
                            : "the range wraps");
        return GSI_ERR_INVALID;
    }
    if (!mapped(a, len)) {
        snprintf(err, errlen, "%p, %zu bytes: part of the range is not mapped in this process",
                 addr, len);
        return GSI_ERR_INVALID;
    }
    pthread_mutex_lock(&lb.lock);
    i = lower_bound(a);
    for (int j = i - 1; j <= i; j++) {
        if (j >= 0 && j < lb.n && overlaps(j, a, len)) {
            snprintf(err, errlen, "%p, %zu bytes, overlaps the buffer registered at %p (%zu bytes)",
                     addr, len, (void *)lb.buf[j].addr, lb.buf[j].len);
            status = GSI_ERR_INVALID;
            goto out;
        }
    }
    if (lb.n == lb.cap) {
        int cap = lb.cap ? 2 * lb.cap : 8;
        localbuf_t *grown = realloc(lb.buf, (size_t)cap * sizeof(*grown));

        if (!grown) {
            snprintf(err, errlen, "out of memory for the table of registered buffers");
            status = GSI_ERR_NOMEM;
            goto out;
        }
        lb.buf = grown;
        lb.cap = cap;
    }
    /* Under the lock, so that a second registration of the same range
     * cannot slip in between the check and the insertion. */
    if (gsi_pe.net && gsi_pe.net->mem_reg) {
        status = gsi_pe.net->mem_reg(addr, len, &handle, err, errlen);
        if (status != GSI_OK)
            goto out;
    }
    memmove(&lb.buf[i + 1], &lb.buf[i], (size_t)(lb.n - i) * sizeof(lb.buf[0]));
    lb.buf[i] = (localbuf_t){.addr = a, .len = len, .handle = handle};
    lb.n++;
out:
    pthread_mutex_unlock(&lb.lock);
    return status;
}

static void release(const localbuf_t *b)
{
    if (b->handle && gsi_pe.net && gsi_pe.net->mem_dereg)
        gsi_pe.net->mem_dereg(b->handle);
}

gsi_status_t gsi_localbuf_remove(void *addr)
{
    uintptr_t a = (uintptr_t)addr;
    gsi_status_t status = GSI_ERR_INVALID;
    int i;

    pthread_mutex_lock(&lb.lock);
    i = lower_bound(a);
    if (i < lb.n && lb.buf[i].addr == a) {
        release(&lb.buf[i]);
        memmove(&lb.buf[i], &lb.buf[i + 1], (size_t)(lb.n - i - 1) * sizeof(lb.buf[0]));
        lb.n--;
        status = GSI_OK;
    }
    pthread_mutex_unlock(&lb.lock);
    return status;
}

void gsi_localbuf_remove_all(void)
{
    pthread_mutex_lock(&lb.lock);
    for (int i = 0; i < lb.n; i++)
        release(&lb.buf[i]);
    free(lb.buf);
    lb.buf = NULL;
    lb.n = lb.cap = 0;
    pthread_mutex_unlock(&lb.lock);
}
