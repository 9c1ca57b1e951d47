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
 *   gshmemx_cumodule_init / _finalize, gshmemx_culibrary_init / _finalize
 *       a CUDA module (cuModuleLoad) or library (cuLibraryLoad) that the
 *       program loaded itself, device-linked with libgshmem_device.a on its
 *       own, has its own copy of the device state: init fills it (after
 *       shmem_init) and keeps it current (teams) until _finalize or
 *       shmem_finalize.  Return 0; a NULL handle, a second init, a finalize
 *       without init, or a module without gsd_state_d end the job with one
 *       line.  The handles are CUmodule / CUlibrary (void * here, so host
 *       code needs no cuda.h).  On host lanes every shared object's kernels
 *       read libgshmem.so's one state: the calls check and record only.
 *       GPU path compiled, not run.
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
typedef void *gshmemx_cumodule_t;  /* a CUmodule */
typedef void *gshmemx_culibrary_t; /* a CUlibrary */
int gshmemx_cumodule_init(gshmemx_cumodule_t module);
int gshmemx_cumodule_finalize(gshmemx_cumodule_t module);
int gshmemx_culibrary_init(gshmemx_culibrary_t library);
int gshmemx_culibrary_finalize(gshmemx_culibrary_t library);
GSD_END_C

#endif /* GSD_HOST_API_H */
