/* src/core/heap.h - the host symmetric heap: a memfd reserved once at its full
 * size (pages committed on first touch), the user's allocations first, the
 * library's sync area after them (same offset on every PE). */
#ifndef GSI_HEAP_H
#define GSI_HEAP_H

#include <stddef.h>
#include "base/status.h"

/* user_size bytes for shmem_malloc, then internal_size bytes for the
 * library's sync area (gsi_pe.sync: its layout is the collectives' own). */
gsi_status_t gsi_heap_create(const char *fn, size_t user_size, size_t internal_size);
void gsi_heap_destroy(void);

/* Local halves of the collective allocation routines: deterministic, so
 * every PE that makes the same calls gets the same addresses.  NULL when
 * the heap has no room (and a hint naming SHMEM_SYMMETRIC_SIZE is logged). */
void *gsi_heap_alloc(const char *fn, size_t size, size_t align);
/* GSI_ERR_INVALID when ptr is not a live allocation. */
gsi_status_t gsi_heap_free(void *ptr);
/* In place when possible, else allocate + copy + free; NULL when no room
 * (ptr stays valid). */
void *gsi_heap_realloc(const char *fn, void *ptr, size_t size);
/* Is ptr a live allocation's start? */
int gsi_heap_owns(const void *ptr);

#endif
