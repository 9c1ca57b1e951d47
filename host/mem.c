/* host/mem.c - Memory Management Routines.  Each is collective over the
 * world: the allocator is deterministic, so every PE gets the same address,
 * and a barrier keeps a PE from touching memory a peer has not allocated yet
 * or has already freed. */
#include "api.h"
#include "alloc_call.h"

#include <stdlib.h>
#include <string.h>

#include "bootstrap/bootstrap.h"
#include "coll/sync.h"
#include "core/heap.h"

/* Before the call's barrier (host/alloc_call.h).  block: the block freed
 * or resized, or NULL. */
static const gsi_alloc_call_t *announce_call(size_t size, size_t align, const void *block)
{
    return gsi_alloc_announce(GSI_ALLOC_HEAP, size, align,
                              block
                                  ? (uintptr_t)block - gsi_pe.region[GSI_REGION_HEAP].base + 1
                                  : 0);
}

/* SHMEM_DEBUG: prove that every PE got the same address. */
static void check_symmetric(const char *fn, const void *ptr)
{
    uintptr_t mine, *all;

    if (!gsi_pe.env.debug)
        return;
    mine = ptr ? (uintptr_t)ptr - gsi_pe.region[GSI_REGION_HEAP].base : 0;
    all = calloc((size_t)gsi_pe.n_pes, sizeof(*all));
    if (!all || gsi_pe.boot->allgather(&mine, all, sizeof(mine)) != 0)
        gsi_fatal(fn, "cannot check the allocation's symmetry: %s", gsb_error());
    for (int pe = 0; pe < gsi_pe.n_pes; pe++)
        if (all[pe] != mine)
            gsi_fatal(fn,
                      "PE %d got heap offset %#lx, this PE %#lx: every PE must make the "
                      "same allocation calls in the same order",
                      pe, (unsigned long)all[pe], (unsigned long)mine);
    free(all);
}

/* zero: clear the block before the barrier, after which peers may write it. */
static void *alloc_collective(const char *fn, size_t size, size_t align, int zero)
{
    const gsi_alloc_call_t *call;
    void *ptr = NULL;

    gsi_check_init(fn);
    call = announce_call(size, align, NULL);
    if (size)
        ptr = gsi_heap_alloc(fn, size, align);
    if (ptr && zero)
        memset(ptr, 0, size);
    check_symmetric(fn, ptr);
    gsi_barrier_world(fn, 1);
    gsi_alloc_compare(fn, call);
    return ptr;
}

void *pshmem_malloc(size_t size)
{
    return alloc_collective("shmem_malloc", size, 0, 0);
}
GSI_ALIAS(shmem_malloc)

void *pshmem_malloc_with_hints(size_t size, long hints)
{
    /* The hints (SHMEM_MALLOC_ATOMICS_REMOTE, ..._SIGNAL_REMOTE) change
     * nothing here: every allocation already suits atomics and signals. */
    if (hints & ~(long)(SHMEM_MALLOC_ATOMICS_REMOTE | SHMEM_MALLOC_SIGNAL_REMOTE))
        GSI_DEBUG("shmem_malloc_with_hints: unknown hints %#lx ignored", hints);
    return alloc_collective("shmem_malloc_with_hints", size, 0, 0);
}
GSI_ALIAS(shmem_malloc_with_hints)

void *pshmem_calloc(size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size)
        return alloc_collective("shmem_calloc", 0, 0, 0);
    return alloc_collective("shmem_calloc", count * size, 0, 1);
}
GSI_ALIAS(shmem_calloc)

void *pshmem_align(size_t alignment, size_t size)
{
    if (alignment == 0 || (alignment & (alignment - 1)))
        return alloc_collective("shmem_align", 0, 0, 0);
    return alloc_collective("shmem_align", size, alignment, 0);
}
GSI_ALIAS(shmem_align)

void pshmem_free(void *ptr)
{
    const char *fn = "shmem_free";
    const gsi_alloc_call_t *call;

    gsi_check_init(fn);
    /* Named first: a foreign pointer would also differ from the peers'. */
    if (ptr && !gsi_heap_owns(ptr))
        gsi_fatal(fn, "%p was not returned by shmem_malloc (or was freed already)", ptr);
    call = announce_call(0, 0, ptr);
    gsi_barrier_release(fn);
    gsi_alloc_compare(fn, call);
    if (ptr && gsi_heap_free(ptr) != GSI_OK)
        gsi_fatal(fn, "%p was not returned by shmem_malloc (or was freed already)", ptr);
}
GSI_ALIAS(shmem_free)

void *pshmem_realloc(void *ptr, size_t size)
{
    const char *fn = "shmem_realloc";
    const gsi_alloc_call_t *call;
    void *moved;

    if (!ptr)
        return alloc_collective(fn, size, 0, 0);
    gsi_check_init(fn);
    if (!gsi_heap_owns(ptr))
        gsi_fatal(fn, "%p was not returned by shmem_malloc (or was freed already)", ptr);
    if (size == 0) {
        pshmem_free(ptr);
        return NULL;
    }
    /* No peer may still be writing the old block when it moves. */
    call = announce_call(size, 0, ptr);
    gsi_barrier_release(fn);
    gsi_alloc_compare(fn, call);
    moved = gsi_heap_realloc(fn, ptr, size);
    check_symmetric(fn, moved);
    gsi_barrier_world(fn, 1);
    return moved;
}
GSI_ALIAS(shmem_realloc)

void *pshmalloc(size_t size)
{
    return alloc_collective("shmalloc", size, 0, 0);
}
GSI_ALIAS(shmalloc)

void pshfree(void *ptr)
{
    pshmem_free(ptr);
}
GSI_ALIAS(shfree)

void *pshrealloc(void *ptr, size_t size)
{
    return pshmem_realloc(ptr, size);
}
GSI_ALIAS(shrealloc)

void *pshmemalign(size_t alignment, size_t size)
{
    return pshmem_align(alignment, size);
}
GSI_ALIAS(shmemalign)
