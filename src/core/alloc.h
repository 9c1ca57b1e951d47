/* src/core/alloc.h - the deterministic allocator of a symmetric heap.
 *
 * It hands out offsets in [0, size).  Its bookkeeping lives in private
 * memory, never in the heap, so a remote write cannot corrupt it, and the
 * same sequence of calls gives the same offsets on every PE. */
#ifndef GSI_ALLOC_H
#define GSI_ALLOC_H

#include <stddef.h>
#include "base/status.h"

typedef struct gsi_block {
    size_t offset;
    size_t size;
    int used;
} gsi_block_t;

typedef struct gsi_alloc {
    gsi_block_t *blocks; /* sorted by offset, covering [0, size) */
    size_t count, capacity;
    size_t size;
    size_t in_use; /* bytes in used blocks */
} gsi_alloc_t;

#define GSI_ALLOC_MIN_ALIGN 64 /* cache line: two allocations never share one */

gsi_status_t gsi_alloc_init(gsi_alloc_t *a, size_t size);
void gsi_alloc_fini(gsi_alloc_t *a);

/* First fit, aligned to max(align, GSI_ALLOC_MIN_ALIGN) (align a power of two). */
gsi_status_t gsi_alloc_get(gsi_alloc_t *a, size_t size, size_t align, size_t *offset);
/* Release the block at `offset`; GSI_ERR_INVALID if no block starts there. */
gsi_status_t gsi_alloc_put(gsi_alloc_t *a, size_t offset);
/* Size of the used block at `offset`, 0 if none. */
size_t gsi_alloc_size(const gsi_alloc_t *a, size_t offset);
/* Grow or shrink in place when the neighbour allows; GSI_ERR_NOMEM if not. */
gsi_status_t gsi_alloc_resize(gsi_alloc_t *a, size_t offset, size_t size);
/* The largest free block. */
size_t gsi_alloc_largest_free(const gsi_alloc_t *a);

#endif
