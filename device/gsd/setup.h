/*
 * gsd/setup.h - the setup and query routines NVSHMEM declares for device
 * and host code alike (GSD_HD, gsd/cdefs.h):
 *
 *   gshmem_info_get_version   the OpenSHMEM version the library implements (1.6)
 *   gshmem_info_get_name      SHMEM_VENDOR_STRING, at most SHMEM_MAX_NAME_LEN bytes
 *   gshmemx_vendor_get_version_info   the gshmem release (GSHMEM_VERSION_*)
 *   gshmem_global_exit        end the whole job with `status`
 *   gshmemx_mc_ptr            the multicast address of a team's copy of ptr:
 *                             always NULL, as NVSHMEM answers where no NVLink
 *                             SHARP (NVLS) multicast object exists, which
 *                             gshmem never makes
 *   gshmemx_ask_smem          (NVSHMEM 3.8) the shared memory a block must
 *                             give (gshmemx_give_smem) for the library's
 *                             transfers: 0 bytes for every amount, as
 *                             gshmem's transfers stage through no shared
 *                             memory (NVSHMEM's TMA path does)
 * and for device code only:
 *   gshmemx_give_smem(smem, size), gshmemx_release_smem()
 *                             the block's threads hand the library shared
 *                             memory and take it back.  Nothing of it is
 *                             used (see ask_smem); give keeps NVSHMEM's
 *                             promise that the block meets before any of
 *                             its threads goes on, release that nothing of
 *                             the library refers to the memory afterwards
 *                             (nothing ever does)
 */
#ifndef GSD_SETUP_H
#define GSD_SETUP_H

#include "gshmem/constants.h"

#include "cdefs.h"
#include "fatal.h"
#include "group.h"
#include "state.h"
#include "team.h"

GSD_BEGIN_C
/* The library's global exit (host/device.c), for host code and host lanes. */
void gshmemi_global_exit(int status) __attribute__((noreturn));
/* The same from a host lane (device code on host lanes): first the line a
 * GPU thread prints, so both backends say who ended the job. */
void gshmemi_lane_global_exit(int status) __attribute__((noreturn));
/* The status device code's gshmem_global_exit asked for, or -1 (none).  A
 * host routine that sees a kernel's error asks it first: a GPU thread's
 * global exit traps, and the trap must end the job with that status. */
int gshmemi_exit_requested(void);
/* Host code's gshmemx_mc_ptr: checks the team as device code does. */
void *gshmemi_mc_ptr(gshmem_team_t team, const void *ptr);
GSD_END_C

GSD_HD void gshmem_info_get_version(int *major, int *minor)
{
    *major = SHMEM_MAJOR_VERSION;
    *minor = SHMEM_MINOR_VERSION;
}

GSD_HD void gshmem_info_get_name(char *name)
{
    const char *s = SHMEM_VENDOR_STRING;
    int i;

    for (i = 0; i < SHMEM_MAX_NAME_LEN - 1 && s[i]; i++)
        name[i] = s[i];
    name[i] = '\0';
}

GSD_HD void gshmemx_vendor_get_version_info(int *major, int *minor, int *patch)
{
    *major = GSHMEM_VERSION_MAJOR;
    *minor = GSHMEM_VERSION_MINOR;
    *patch = GSHMEM_VERSION_PATCH;
}

/* Host code and host lanes: the library ends the job (every PE, with
 * `status`; from a lane after the line below).  A GPU thread cannot call the host: it stores the request
 * (GSD_EXIT_REQUESTED | status; the first caller's stays) in the state's
 * mapped host word, makes it visible to the CPU, prints the line and traps,
 * so the kernel goes no further.  The PE's watcher (src/gpu/watch.c) reads
 * the word and ends the job with `status` (compiled, not run). */
GSD_HD void gshmem_global_exit(int status)
{
#if defined(GSD_CUDA) && !defined(GSD_NVCC_HOST_PASS)
    atomicCAS((unsigned long long *)GSD_STATE.exit_req, 0ull,
              (unsigned long long)(GSD_EXIT_REQUESTED | (uint32_t)status));
    __threadfence_system();
    printf("gshmem: PE %d: gshmem_global_exit: status %d, from device code\n", (int)GSD_STATE.my_pe,
           status);
    __trap();
#else
#if defined(GSD_HOSTLANE)
    if (gshmemi_lane_self)
        gshmemi_lane_global_exit(status);
#endif
    gshmemi_global_exit(status);
#endif
}

/* NULL for GSHMEM_TEAM_INVALID and for every team (no multicast object
 * exists); an id that names no team of this PE ends the job, as the other
 * team routines of device code do. */
GSD_HD void *gshmemx_mc_ptr(gshmem_team_t team, const void *ptr)
{
#if defined(GSD_NVCC_HOST_PASS)
    return gshmemi_mc_ptr(team, ptr);
#else
#if defined(GSD_HOSTLANE)
    if (!gshmemi_lane_self)
        return gshmemi_mc_ptr(team, ptr);
#endif
    (void)ptr;
    if (team != GSHMEM_TEAM_INVALID)
        (void)gsd_team("gshmemx_mc_ptr", team);
    return NULL;
#endif
}

/* NVSHMEM's nvshmemx_smem_amount_t. */
typedef enum gshmemx_smem_amount {
    GSHMEMX_SMEM_RECOMMENDED = 0,
    GSHMEMX_SMEM_MINIMUM = 1,
    GSHMEMX_SMEM_BARRIERS_ONLY = 2,
    GSHMEMX_SMEM_AMOUNT_MAX = 0x7fffffff
} gshmemx_smem_amount_t;

GSD_HD int gshmemx_ask_smem(gshmemx_smem_amount_t flag)
{
    (void)flag;
    return 0;
}

GSD_FN void gshmemx_give_smem(void *smem, size_t size)
{
    (void)smem;
    (void)size;
    gsd_group_sync(GSD_BLOCK);
}

GSD_FN void gshmemx_release_smem(void)
{
}

#endif /* GSD_SETUP_H */
