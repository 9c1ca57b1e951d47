/* src/core/heap_keep.h - a PE's own heap kept mapped past finalize, for
 * views of it that outlive the library (a binding's tensors: Python's
 * gshmem.empty returns a torch tensor over heap memory, and torch frees it
 * when the program drops it, which may be after gshmem.finalize).
 *
 * A binding arms a hold before shmem_finalize (gsi_heap_hold); every heap
 * that finalize takes down (the host heap, the device heap) then hands its
 * local mapping to the hold instead of unmapping it (gsi_heap_hold_take),
 * while everything else goes as usual: peers, the network's registrations,
 * the allocator.  The views keep their bytes and reach only local memory.
 * gsi_heap_hold_drop unmaps what the hold took (or disarms it when finalize
 * has not run yet).  Holds are looked up in a table before use, so a stale
 * or garbage handle is refused, never followed. */
#ifndef GSI_HEAP_KEEP_H
#define GSI_HEAP_KEEP_H

#include "base/status.h"

typedef struct gsi_heap_hold gsi_heap_hold_t;
/* Undoes one kept mapping: called from gsi_heap_hold_drop. */
typedef void (*gsi_heap_unmap_fn_t)(void *arg);

/* Arms a hold for the next finalize of this process (at most one armed at a
 * time: a second call returns the same hold). */
gsi_status_t gsi_heap_hold(const char *fn, gsi_heap_hold_t **hold);
/* For a heap's owner in finalize: when a hold is armed, it takes the
 * mapping (unmap(arg) runs at its drop) and this returns 1; else 0, and the
 * owner unmaps as usual. */
int gsi_heap_hold_take(gsi_heap_unmap_fn_t unmap, void *arg);
/* End of finalize: the armed hold, if any, is no longer armed. */
void gsi_heap_hold_disarm(void);
/* Unmaps what the hold took; GSI_ERR_INVALID for a handle that is not a
 * live hold. */
gsi_status_t gsi_heap_hold_drop(const char *fn, gsi_heap_hold_t *hold);

#endif
