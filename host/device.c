/* host/device.c - the host-side routines of the device API
 * (device/gsd/host_api.h): the device heap, collective like the symmetric
 * heap (host/mem.c), the device id of a team, the init status; and the host
 * parts of the GSD_HD routines (gsd/team.h, gsd/setup.h), which answer
 * from the host's teams what device code reads in the device team table. */
#include "api.h"
#include "alloc_call.h"

#include <stdint.h>
#include <stdlib.h>

#include "bootstrap/bootstrap.h"
#include "coll/sync.h"
#include "gpu/device.h"

#pragma GCC visibility push(default)
#include "gsd/host_api.h"
#include "gsd/setup.h"
#pragma GCC visibility pop

/* SHMEM_DEBUG: prove that every PE got the same offset. */
static void check_symmetric(const char *fn, const void *ptr)
{
    long long mine, *all;

    if (!gsi_pe.env.debug)
        return;
    mine = ptr ? gsi_device_heap_offset(ptr) : -1;
    all = calloc((size_t)gsi_pe.n_pes, sizeof(*all));
    if (!all || gsi_pe.boot->allgather(&mine, all, sizeof(mine)) != 0)
        gsi_fatal(fn, "cannot check the allocation's symmetry");
    for (int pe = 0; pe < gsi_pe.n_pes; pe++)
        if (all[pe] != mine)
            gsi_fatal(fn,
                      "PE %d got device heap offset %lld, this PE %lld: every PE must make "
                      "the same allocation calls in the same order",
                      pe, all[pe], mine);
    free(all);
}

/* zero: clear the block before the barrier, after which peers may write it. */
static void *alloc_collective(const char *fn, size_t size, size_t align, int zero)
{
    const gsi_alloc_call_t *call;
    void *ptr = NULL;

    gsi_check_init(fn);
    call = gsi_alloc_announce(GSI_ALLOC_DEVICE, size, align, 0);
    if (size)
        ptr = gsi_device_heap_alloc(fn, size, align);
    if (ptr && zero)
        gsi_device_memzero(ptr, size);
    check_symmetric(fn, ptr);
    gsi_barrier_world(fn, 1);
    gsi_alloc_compare(fn, call);
    return ptr;
}

void *gshmem_malloc(size_t size)
{
    return alloc_collective("gshmem_malloc", size, 0, 0);
}

void *gshmem_calloc(size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size)
        return alloc_collective("gshmem_calloc", 0, 0, 0);
    return alloc_collective("gshmem_calloc", count * size, 0, 1);
}

void *gshmem_align(size_t alignment, size_t size)
{
    if (alignment == 0 || (alignment & (alignment - 1)))
        return alloc_collective("gshmem_align", 0, 0, 0);
    return alloc_collective("gshmem_align", size, alignment, 0);
}

void gshmem_free(void *ptr)
{
    const char *fn = "gshmem_free";
    const gsi_alloc_call_t *call;
    long long off;

    gsi_check_init(fn);
    /* Named first: a foreign pointer would also differ from the peers'. */
    off = ptr ? gsi_device_heap_offset(ptr) : -1;
    if (ptr && off < 0)
        gsi_fatal(fn, "%p was not returned by gshmem_malloc (or was freed already)", ptr);
    call = gsi_alloc_announce(GSI_ALLOC_DEVICE, 0, 0, ptr ? (uint64_t)off + 1 : 0);
    gsi_barrier_release(fn);
    gsi_alloc_compare(fn, call);
    if (ptr && gsi_device_heap_free(ptr) != GSI_OK)
        gsi_fatal(fn, "%p was not returned by gshmem_malloc (or was freed already)", ptr);
}

gshmem_team_t gshmemx_team_device_id(shmem_team_t team)
{
    if (team == SHMEM_TEAM_INVALID)
        return GSHMEM_TEAM_INVALID;
    gsi_check_init("gshmemx_team_device_id");
    return gsi_team_check("gshmemx_team_device_id", team)->slot;
}

int gshmemx_init_status(void)
{
    switch (__atomic_load_n(&gsi_pe.stage, __ATOMIC_ACQUIRE)) {
    case 1: return GSHMEM_STATUS_IS_BOOTSTRAPPED;
    case 2: return GSHMEM_STATUS_IS_INITIALIZED;
    default: return GSHMEM_STATUS_NOT_INITIALIZED;
    }
}

/* A device team id as host code passes it: the team in that slot, or NULL
 * (GSHMEM_TEAM_INVALID, a free slot, a team this PE is not in). */
static const struct gshmem_team *slot_team(const char *fn, gshmem_team_t team)
{
    gsi_check_init(fn);
    return team < 0 || team >= GSD_MAX_TEAMS ? NULL : gsi_team_of_slot(team);
}

int gshmemi_team_my_pe(gshmem_team_t team)
{
    const struct gshmem_team *t = slot_team("gshmem_team_my_pe", team);

    return t ? t->my_pe : -1;
}

int gshmemi_team_n_pes(gshmem_team_t team)
{
    const struct gshmem_team *t = slot_team("gshmem_team_n_pes", team);

    return t ? t->n_pes : -1;
}

int gshmemi_team_translate_pe(gshmem_team_t src_team, int src_pe, gshmem_team_t dest_team)
{
    const char *fn = "gshmem_team_translate_pe";
    const struct gshmem_team *src = slot_team(fn, src_team), *dest = slot_team(fn, dest_team);

    if (!src || !dest || src_pe < 0 || src_pe >= src->n_pes)
        return -1;
    return gsi_team_index(dest, gsi_team_world_pe(src, src_pe));
}

void gshmemi_global_exit(int status)
{
    gsi_global_exit(status);
}

int gshmemi_exit_requested(void)
{
    return gsi_device_exit_request();
}

void gshmemi_lane_global_exit(int status)
{
    GSI_WARN("gshmem_global_exit: status %d, from device code", status);
    gsi_global_exit(status);
}

void *gshmemi_mc_ptr(gshmem_team_t team, const void *ptr)
{
    const char *fn = "gshmemx_mc_ptr";

    (void)ptr;
    if (team != GSHMEM_TEAM_INVALID && !slot_team(fn, team))
        gsi_fatal(fn, "team %d is not a valid team on this PE", (int)team);
    return NULL; /* no multicast object exists (gsd/setup.h) */
}

/* CUDA modules and libraries the program loaded itself (NVSHMEM's
 * nvshmemx_cumodule_init / nvshmemx_culibrary_init): their own copy of the
 * device state is filled now and kept current until _finalize or
 * shmem_finalize (src/gpu/module.c). */
int gshmemx_cumodule_init(gshmemx_cumodule_t module)
{
    gsi_check_init("gshmemx_cumodule_init");
    gsi_device_module("gshmemx_cumodule_init", 0, module, 1);
    return 0;
}

int gshmemx_cumodule_finalize(gshmemx_cumodule_t module)
{
    gsi_check_init("gshmemx_cumodule_finalize");
    gsi_device_module("gshmemx_cumodule_finalize", 0, module, 0);
    return 0;
}

int gshmemx_culibrary_init(gshmemx_culibrary_t library)
{
    gsi_check_init("gshmemx_culibrary_init");
    gsi_device_module("gshmemx_culibrary_init", 1, library, 1);
    return 0;
}

int gshmemx_culibrary_finalize(gshmemx_culibrary_t library)
{
    gsi_check_init("gshmemx_culibrary_finalize");
    gsi_device_module("gshmemx_culibrary_finalize", 1, library, 0);
    return 0;
}
