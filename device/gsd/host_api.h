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
 *   gshmemx_init_status
 *       how far this process's init has come: GSHMEM_STATUS_NOT_INITIALIZED
 *       (before shmem_init, and again after the last shmem_finalize),
 *       _IS_BOOTSTRAPPED (the bootstrap is up, init is under way on
 *       another thread), _IS_INITIALIZED.  NVSHMEM's two "multiple PEs per
 *       GPU" answers (_LIMITED_MPG, _FULL_MPG) have their values here but
 *       are never returned: gshmem does not detect PEs sharing a GPU.
 *   gshmemx_buffer_register, gshmemx_buffer_unregister,
 *   gshmemx_buffer_unregister_all
 *       bring-your-own local buffers: [addr, addr + length) of any memory
 *       of this process becomes a registered local source or destination
 *       of RMA and device RMA with any PE.  Load/store peers need nothing;
 *       the network transport (UCX) maps it once and its puts and gets use
 *       that registration.  Local, not collective.  0 (GSHMEMX_SUCCESS), or
 *       GSHMEMX_ERROR_INVALID_VALUE with one line on stderr for a NULL
 *       address, a length of 0, a range that overlaps a registered one
 *       (registering it twice, too), or unregistering an address that
 *       starts no registered buffer; _OUT_OF_MEMORY; _INTERNAL when the
 *       transport fails.  Unregister only after the operations that use the
 *       buffer are complete (a quiet).  shmem_finalize unregisters what is
 *       left.
 *   gshmemx_buffer_register_symmetric, gshmemx_buffer_unregister_symmetric
 *       NVSHMEM's symmetric registration: collective over all PEs, each
 *       passing its own buffer of the same size (flags: 0).  The buffer
 *       must be a writable MAP_SHARED mapping of a file whose descriptor
 *       stays open while it is registered (a memfd; memfd_create + mmap),
 *       as node peers map it through /proc/<pid>/fd.  Returns buf_ptr
 *       itself, now a symmetric address: host RMA, atomics, signals and
 *       waits, and device RMA reach every PE's buffer at the same offset
 *       (node peers by load/store, others through the network).  NULL, with
 *       one line on every PE, when all 8 slots are taken.  Misuse ends the
 *       job with one line: NULL, size 0, private or anonymous memory,
 *       sizes or registration order differing across PEs, nonzero flags.
 *       gshmemx_buffer_register_symmetric_at_preferred_address(buf_ptr,
 *       size, preferred_addr, flags) is the same: NVSHMEM remaps at an
 *       address of its choosing (preferred_addr a hint), here the buffer's
 *       own address is the symmetric one, so the hint is unused.
 *       Unregister (collective, same pointer and size) completes every
 *       operation, synchronizes, then takes the region away; 0 on success;
 *       a pointer not registered ends the job with one line.
 *       shmem_finalize unregisters what is left.
 *   gshmemx_team_get_uniqueid, gshmemx_team_init
 *       a team of any set of PEs, NVSHMEM's way: one PE gets a unique id,
 *       the program hands it to the others by any means, and each of the
 *       npes members calls gshmemx_team_init with a config holding the id
 *       and its own index (0..npes-1) in the new team; the call is
 *       collective over the members only, and *team is the new team's
 *       device id.  0; GSHMEMX_ERROR_INVALID_VALUE and one line for a NULL
 *       team or config, a config not made from GSHMEM_TEAM_CONFIG_INITIALIZER,
 *       no unique id, npes or the index out of range (*team is then
 *       GSHMEM_TEAM_INVALID); GSHMEMX_ERROR_OUT_OF_MEMORY on every member
 *       when no team slot is free on all of them.  Members that disagree on
 *       npes, or take the same index, end the job with one line.
 *   gshmemx_team_host
 *       the host handle of a device team id (shmem_team_sync,
 *       shmem_team_destroy, ...): SHMEM_TEAM_INVALID when the id names no
 *       team of this PE.
 *   gshmem_team_split_strided, gshmem_team_split_2d, gshmem_team_get_config,
 *   gshmem_team_destroy
 *       NVSHMEM 3.8's team routines (nvshmem_team_t is the device team id):
 *       shmem_team_split_strided, _split_2d, _get_config and _destroy on
 *       gshmemx_team_host(team), their new teams' device ids out.  A
 *       split returns what the OpenSHMEM one returns (0; nonzero, no team)
 *       and GSHMEM_TEAM_INVALID where this PE is no member;
 *       GSHMEMX_ERROR_INVALID_VALUE and one line for a config (with
 *       GSHMEM_TEAM_CONFIG_MASK_NUM_CONTEXTS) not made from
 *       GSHMEM_TEAM_CONFIG_INITIALIZER.  get_config fills NVSHMEM's config
 *       (version, num_contexts; uniqueid 0); a team this PE is not in
 *       leaves it unchanged with one line.
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
#include <stdio.h>

#include <gshmem/types.h>

#include "cdefs.h"
#include "state.h"

/* NVSHMEM's nvshmemx_init_status_t values. */
enum {
    GSHMEM_STATUS_NOT_INITIALIZED = 0,
    GSHMEM_STATUS_IS_BOOTSTRAPPED = 1,
    GSHMEM_STATUS_IS_INITIALIZED = 2,
    GSHMEM_STATUS_LIMITED_MPG = 3,
    GSHMEM_STATUS_FULL_MPG = 4,
    GSHMEM_STATUS_INVALID = 0x7fffffff
};

/* NVSHMEM's nvshmemx_status return codes. */
enum gshmemx_status {
    GSHMEMX_SUCCESS = 0,
    GSHMEMX_ERROR_INVALID_VALUE = 1,
    GSHMEMX_ERROR_OUT_OF_MEMORY = 2,
    GSHMEMX_ERROR_NOT_SUPPORTED = 3,
    GSHMEMX_ERROR_SYMMETRY = 4,
    GSHMEMX_ERROR_GPU_NOT_SELECTED = 5,
    GSHMEMX_ERROR_COLLECTIVE_LAUNCH_FAILED = 6,
    GSHMEMX_ERROR_INTERNAL = 7,
    GSHMEMX_ERROR_SENTINEL = 0x7fffffff
};

/* The name of status code STATUS ("GSHMEMX_SUCCESS", ...);
 * "GSHMEMX_ERROR_<unknown>" for any other value.  Host and device code. */
GSD_HD const char *gshmemx_status_string(int status)
{
    switch (status) {
    case GSHMEMX_SUCCESS: return "GSHMEMX_SUCCESS";
    case GSHMEMX_ERROR_INVALID_VALUE: return "GSHMEMX_ERROR_INVALID_VALUE";
    case GSHMEMX_ERROR_OUT_OF_MEMORY: return "GSHMEMX_ERROR_OUT_OF_MEMORY";
    case GSHMEMX_ERROR_NOT_SUPPORTED: return "GSHMEMX_ERROR_NOT_SUPPORTED";
    case GSHMEMX_ERROR_SYMMETRY: return "GSHMEMX_ERROR_SYMMETRY";
    case GSHMEMX_ERROR_GPU_NOT_SELECTED: return "GSHMEMX_ERROR_GPU_NOT_SELECTED";
    case GSHMEMX_ERROR_COLLECTIVE_LAUNCH_FAILED: return "GSHMEMX_ERROR_COLLECTIVE_LAUNCH_FAILED";
    case GSHMEMX_ERROR_INTERNAL: return "GSHMEMX_ERROR_INTERNAL";
    default: return "GSHMEMX_ERROR_<unknown>";
    }
}

/* Host code: "FILE:LINE: " and the printf-style message on stderr (NVSHMEM's
 * NVSHMEMI_ERROR_PRINT). */
#define GSHMEMX_ERROR_PRINT(...)                        \
    do {                                                \
        fprintf(stderr, "%s:%d: ", __FILE__, __LINE__); \
        fprintf(stderr, __VA_ARGS__);                   \
    } while (0)

/* NVSHMEM's team config (nvshmem_team_config_t, version 2): 64 bytes. */
typedef uint64_t gshmemx_team_uniqueid_t;
typedef struct gshmem_team_config {
    int version; /* GSHMEM_TEAM_CONFIG_VERSION */
    int num_contexts;
    gshmemx_team_uniqueid_t uniqueid; /* 0: none */
    char padding[48];
} gshmem_team_config_t;
#define GSHMEM_TEAM_CONFIG_VERSION ((2 << 16) + 64)
#define GSHMEM_TEAM_CONFIG_INITIALIZER    \
    {                                     \
        GSHMEM_TEAM_CONFIG_VERSION, 0, 0, \
        {                                 \
            0                             \
        }                                 \
    }
#define GSHMEM_TEAM_CONFIG_MASK_NUM_CONTEXTS 0x1L
#define GSHMEM_TEAM_CONFIG_MASK_UNIQUEID 0x2L

GSD_BEGIN_C
void *gshmem_malloc(size_t size);
void *gshmem_calloc(size_t count, size_t size);
void *gshmem_align(size_t alignment, size_t size);
void gshmem_free(void *ptr);
gshmem_team_t gshmemx_team_device_id(shmem_team_t team);
int gshmemx_init_status(void);
int gshmemx_buffer_register(void *addr, size_t length);
int gshmemx_buffer_unregister(void *addr);
void gshmemx_buffer_unregister_all(void);
void *gshmemx_buffer_register_symmetric(void *buf_ptr, size_t size, int flags);
void *gshmemx_buffer_register_symmetric_at_preferred_address(void *buf_ptr, size_t size,
                                                             void *preferred_addr, int flags);
int gshmemx_buffer_unregister_symmetric(void *mmap_ptr, size_t size);
int gshmemx_team_get_uniqueid(gshmemx_team_uniqueid_t *uniqueid);
int gshmemx_team_init(gshmem_team_t *team, gshmem_team_config_t *config, long config_mask, int npes,
                      int pe_idx_in_team);
shmem_team_t gshmemx_team_host(gshmem_team_t team);
int gshmem_team_split_strided(gshmem_team_t parent_team, int PE_start, int PE_stride, int PE_size,
                              const gshmem_team_config_t *config, long config_mask,
                              gshmem_team_t *new_team);
int gshmem_team_split_2d(gshmem_team_t parent_team, int xrange,
                         const gshmem_team_config_t *xaxis_config, long xaxis_mask,
                         gshmem_team_t *xaxis_team, const gshmem_team_config_t *yaxis_config,
                         long yaxis_mask, gshmem_team_t *yaxis_team);
void gshmem_team_get_config(gshmem_team_t team, gshmem_team_config_t *config);
void gshmem_team_destroy(gshmem_team_t team);
typedef void *gshmemx_cumodule_t;  /* a CUmodule */
typedef void *gshmemx_culibrary_t; /* a CUlibrary */
int gshmemx_cumodule_init(gshmemx_cumodule_t module);
int gshmemx_cumodule_finalize(gshmemx_cumodule_t module);
int gshmemx_culibrary_init(gshmemx_culibrary_t library);
int gshmemx_culibrary_finalize(gshmemx_culibrary_t library);
GSD_END_C

#endif /* GSD_HOST_API_H */
