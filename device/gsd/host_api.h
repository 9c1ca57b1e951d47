/*
 * gsd/host_api.h - the host-side routines of the device API, called from
 * host code (not from kernels):
 *
 *   gshmem_malloc, gshmem_calloc, gshmem_align, gshmem_free
 *       the device heap (GPU memory with CUDA; on host lanes the symmetric
 *       heap of shmem_malloc).  Collective over the world, like
 *       shmem_malloc / shmem_free: every PE makes the same calls in the
 *       same order and gets the same offset; each call ends (malloc) or
 *       starts (free) with a barrier.  NULL on every PE when there is no
 *       room (size 0, a bad alignment, or count * size overflowing, too).
 *   gshmemx_team_device_id
 *       the id device code uses for a host team (GSHMEM_TEAM_INVALID for
 *       SHMEM_TEAM_INVALID).
 */
#ifndef GSD_HOST_API_H
#define GSD_HOST_API_H

#include <stddef.h>

#include <gshmem/types.h>

#include "cdefs.h"
#include "state.h"

GSD_BEGIN_C
void *gshmem_malloc(size_t size);
void *gshmem_calloc(size_t count, size_t size);
void *gshmem_align(size_t alignment, size_t size);
void gshmem_free(void *ptr);
gshmem_team_t gshmemx_team_device_id(shmem_team_t team);
GSD_END_C

#endif /* GSD_HOST_API_H */
