/* src/core/heap.c - the host symmetric heap and its allocator. */
#include "core/heap.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/log.h"
#include "base/memfd.h"
#include "core/alloc.h"
#include "core/heap_keep.h"
#include "core/pe.h"

/* Every PE asks for its heap at this address, so that symmetric heap
 * objects usually share one virtual address on all PEs, as programs ported
 * from other SHMEMs sometimes assume.  Translation never relies on it: it
 * goes by offset, so a PE that got another address works all the same. */
#define GSI_HEAP_ADDRESS ((void *)0x100000000000ULL) /* 16 TiB */

static gsi_alloc_t allocator;
/* Allocation is collective and rare: a lock keeps SHMEM_THREAD_MULTIPLE safe. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

gsi_status_t gsi_heap_create(const char *fn, size_t user_size, size_t internal_size)
{
    gsi_region_t *heap = &gsi_pe.region[GSI_REGION_HEAP];
    size_t user = (user_size + 4095) & ~(size_t)4095;
    size_t total = user + internal_size;
    void *base;
    int fd;
    gsi_status_t status;

    (void)fn;
    status = gsi_memfd_create("gshmem-heap", total, GSI_HEAP_ADDRESS, &fd, &base);
    if (status != GSI_OK)
        return status;
    status = gsi_alloc_init(&allocator, user);
    if (status != GSI_OK)
        goto err_unmap;
    heap->base = (uintptr_t)base;
    heap->size = total;
    heap->user_size = user; /* the sync area after it is the library's alone */
    heap->fd = fd;
    gsi_pe.sync = (struct gsi_sync *)((char *)base + user);
    return GSI_OK;

err_unmap:
    gsi_memfd_unmap(base, total);
    close(fd);
    return status;
}

typedef struct kept_range {
    void *base;
    size_t size;
} kept_range_t;

static void unmap_kept(void *arg)
{
    kept_range_t *k = arg;

    gsi_memfd_unmap(k->base, k->size);
    free(k);
}

void gsi_heap_destroy(void)
{
    gsi_region_t *heap = &gsi_pe.region[GSI_REGION_HEAP];
    kept_range_t *kept = malloc(sizeof(*kept));

    gsi_alloc_fini(&allocator);
    /* A binding's views of the heap outlive finalize (core/heap_keep.h):
     * the mapping stays theirs; the descriptor can go, the mapping keeps
     * the memory. */
    if (kept)
        *kept = (kept_range_t){(void *)heap->base, heap->size};
    if (!kept || !gsi_heap_hold_take(unmap_kept, kept)) {
        free(kept);
        gsi_memfd_unmap((void *)heap->base, heap->size);
    }
    close(heap->fd);
    heap->base = 0;
    heap->size = 0;
    heap->user_size = 0;
    heap->fd = -1;
    gsi_pe.sync = NULL;
}

/* The user's allocations start the heap, so alignment of offsets is
 * alignment of addresses (the heap is mapped on a GSI_MEMFD_ALIGN boundary);
 * the sync area follows them. */
static char *user_base(void)
{
    return (char *)gsi_pe.region[GSI_REGION_HEAP].base;
}

static void hint_exhausted(const char *fn, size_t size)
{
    GSI_WARN("%s: the symmetric heap has no room for %zu bytes (%zu of %zu in use, largest "
             "free block %zu): raise SHMEM_SYMMETRIC_SIZE",
             fn, size, allocator.in_use, allocator.size, gsi_alloc_largest_free(&allocator));
}

void *gsi_heap_alloc(const char *fn, size_t size, size_t align)
{
    size_t offset;
    gsi_status_t status;

    pthread_mutex_lock(&lock);
    status = gsi_alloc_get(&allocator, size, align, &offset);
    if (status != GSI_OK)
        hint_exhausted(fn, size);
    pthread_mutex_unlock(&lock);
    return status == GSI_OK ? user_base() + offset : NULL;
}

static int offset_of(const void *ptr, size_t *offset)
{
    uintptr_t p = (uintptr_t)ptr, base = (uintptr_t)user_base();

    if (p < base || p - base >= allocator.size)
        return 0;
    *offset = p - base;
    return 1;
}

gsi_status_t gsi_heap_free(void *ptr)
{
    size_t offset;
    gsi_status_t status = GSI_ERR_INVALID;

    pthread_mutex_lock(&lock);
    if (offset_of(ptr, &offset))
        status = gsi_alloc_put(&allocator, offset);
    pthread_mutex_unlock(&lock);
    return status;
}

int gsi_heap_owns(const void *ptr)
{
    size_t offset;
    int owns;

    pthread_mutex_lock(&lock);
    owns = offset_of(ptr, &offset) && gsi_alloc_size(&allocator, offset) > 0;
    pthread_mutex_unlock(&lock);
    return owns;
}

void *gsi_heap_realloc(const char *fn, void *ptr, size_t size)
{
    size_t offset, old_size, new_offset;
    void *moved = NULL;

    pthread_mutex_lock(&lock);
    if (!offset_of(ptr, &offset) || !(old_size = gsi_alloc_size(&allocator, offset)))
        goto out;
    if (gsi_alloc_resize(&allocator, offset, size) == GSI_OK) {
        moved = ptr;
        goto out;
    }
    if (gsi_alloc_get(&allocator, size, 0, &new_offset) != GSI_OK) {
        hint_exhausted(fn, size);
        goto out;
    }
    moved = user_base() + new_offset;
    memcpy(moved, ptr, old_size < size ? old_size : size);
    gsi_alloc_put(&allocator, offset);
out:
    pthread_mutex_unlock(&lock);
    return moved;
}
