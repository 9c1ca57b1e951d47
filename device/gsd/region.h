/*
 * gsd/region.h - NVSHMEM 3.8's RMA regions: a scope, opened and closed by
 * a host thread or by a whole device block, inside which the program lets
 * the library batch its non-blocking puts and gets (the hint
 * GSHMEMX_REGION_HINT_BATCH_RMA):
 *
 *   int gshmemx_region_start(handle *h, const attrs *a)        host code
 *   int gshmemx_region_stop(handle h)                          host code
 *   int gshmemx_region_start_block(handle *h, const attrs *a)  every thread of a block
 *   int gshmemx_region_stop_block(handle h)                    every thread of a block
 *   int gshmemx_region_is_active(uint32_t hints, int *active)  host and device code
 *
 * 0 (GSHMEMX_SUCCESS), or GSHMEMX_ERROR_INVALID_VALUE for a NULL handle or
 * active pointer, hints other than BATCH_RMA, a start where the caller's
 * region is open already, and a stop whose handle is not the open one's;
 * _OUT_OF_MEMORY when a GPU has no free slot.  A start hands out a handle
 * that is never 0 and never repeats.  is_active sets *active to 1 when the
 * caller (its block, in device code) has a region open whose hints hold
 * all of `hints` (NONE: any open region).
 *
 * What the batching changes here: nothing an operation does.  The proxy
 * takes each descriptor as soon as it is published (there is no doorbell
 * to hold back and ring once), and load/store operations are done when
 * they return, so the puts and gets of a region are posted at once and,
 * as everywhere, complete at a quiet.  The region is the program's
 * promise; keeping its handles and state is the library's part.
 *
 * Where the state lives: on host lanes, in the launch's block (every lane
 * of the block sees it), and for host code in the calling thread's own
 * record (src/gpu/lanes.c: gshmemi_region_self); on a GPU, in a table of
 * GSD_REGION_SLOTS slots in device memory (device/state.cu), keyed by the
 * grid's id and the block, so a region a kernel left open is never taken
 * for another grid's.
 */
#ifndef GSD_REGION_H
#define GSD_REGION_H

#include <stddef.h>
#include <stdint.h>

#include "cdefs.h"
#include "group.h"
#include "host_api.h"

typedef uint64_t gshmemx_region_handle_t;
typedef enum gshmemx_region_hint {
    GSHMEMX_REGION_HINT_NONE = 0,
    GSHMEMX_REGION_HINT_BATCH_RMA = 1u << 0
} gshmemx_region_hint_t;
#define GSHMEMX_REGION_ATTRS_RESERVED_BYTES 60
typedef struct gshmemx_region_attrs {
    uint32_t hints;
    char reserved[GSHMEMX_REGION_ATTRS_RESERVED_BYTES];
} gshmemx_region_attrs_t;
GSD_STATIC_ASSERT(sizeof(gshmemx_region_attrs_t) == 64, "NVSHMEM's 64-byte region attributes");
#define GSHMEMX_REGION_ATTRS_INITIALIZER \
    {                                    \
        GSHMEMX_REGION_HINT_NONE,        \
        {                                \
            0                            \
        }                                \
    }

/* One caller's region: handle 0 while none is open. */
typedef struct gsd_region {
    uint64_t handle;
    uint32_t hints;
    int32_t status; /* host lanes: the last start/stop's result, for the block */
} gsd_region_t;

GSD_BEGIN_C
/* The calling thread's record: its block's on a host lane, its own for
 * any other thread (src/gpu/lanes.c). */
gsd_region_t *gshmemi_region_self(void);
/* A new handle: nonzero, never handed out before in this process. */
uint64_t gshmemi_region_next(void);
GSD_END_C

/* ---- the rules, on one record ------------------------------------------- */

GSD_HD int gsd_region_hints_ok(uint32_t hints)
{
    return (hints & ~(uint32_t)GSHMEMX_REGION_HINT_BATCH_RMA) == 0;
}

GSD_HD int gsd_region_check_start(const gsd_region_t *r, const gshmemx_region_handle_t *h,
                                  const gshmemx_region_attrs_t *a)
{
    if (!h || !gsd_region_hints_ok(a ? a->hints : 0) || (r && r->handle != 0))
        return GSHMEMX_ERROR_INVALID_VALUE;
    return GSHMEMX_SUCCESS;
}

GSD_HD int gsd_region_active(const gsd_region_t *r, uint32_t hints, int *active)
{
    if (!active || !gsd_region_hints_ok(hints))
        return GSHMEMX_ERROR_INVALID_VALUE;
    *active = r && r->handle != 0 && (r->hints & hints) == hints;
    return GSHMEMX_SUCCESS;
}

/* ---- host code and host lanes: the thread's or the block's record --------
 * (plain static inline: host functions under nvcc, seen by both passes) */

static inline int gsd_region_start_rec(gsd_region_t *r, gshmemx_region_handle_t *h,
                                       const gshmemx_region_attrs_t *a)
{
    int rc = gsd_region_check_start(r, h, a);

    if (rc == GSHMEMX_SUCCESS) {
        r->hints = a ? a->hints : 0;
        r->handle = gshmemi_region_next();
        *h = r->handle;
    }
    return rc;
}

static inline int gsd_region_stop_rec(gsd_region_t *r, gshmemx_region_handle_t h)
{
    if (r->handle == 0 || r->handle != h)
        return GSHMEMX_ERROR_INVALID_VALUE;
    r->handle = 0;
    r->hints = 0;
    return GSHMEMX_SUCCESS;
}

static inline int gshmemx_region_start(gshmemx_region_handle_t *handle,
                                       const gshmemx_region_attrs_t *attrs)
{
    return gsd_region_start_rec(gshmemi_region_self(), handle, attrs);
}

static inline int gshmemx_region_stop(gshmemx_region_handle_t handle)
{
    return gsd_region_stop_rec(gshmemi_region_self(), handle);
}

/* ---- a GPU's table ------------------------------------------------------- */

#if defined(GSD_CUDA)
#define GSD_REGION_SLOTS 1024u
#define GSD_REGION_PROBE 64u
/* state: 0 free, 1 being filled, 2 open (grid, block and r valid). */
typedef struct gsd_region_slot {
    unsigned long long state;
    unsigned long long grid, block;
    gsd_region_t r;
} gsd_region_slot_t;
extern __device__ gsd_region_slot_t gsd_region_slots_d[GSD_REGION_SLOTS];
extern __device__ unsigned long long gsd_region_gen_d;

GSD_FN unsigned long long gsd_grid_id(void)
{
    unsigned long long g;

    asm volatile("mov.u64 %0, %%gridid;" : "=l"(g));
    return g;
}

GSD_FN unsigned gsd_region_first(unsigned long long grid, unsigned long long block)
{
    return (unsigned)((grid * 0x9e3779b97f4a7c15ull + block) % GSD_REGION_SLOTS);
}

/* The caller's block's open slot, or NULL. */
GSD_FN gsd_region_slot_t *gsd_region_find(void)
{
    unsigned long long grid = gsd_grid_id(), block = gsd_block_id();
    unsigned i, first = gsd_region_first(grid, block);

    for (i = 0; i < GSD_REGION_PROBE; i++) {
        gsd_region_slot_t *s = &gsd_region_slots_d[(first + i) % GSD_REGION_SLOTS];

        if (*(volatile unsigned long long *)&s->state == 2 && s->grid == grid && s->block == block)
            return s;
    }
    return NULL;
}

GSD_FN int gsd_region_claim(gshmemx_region_handle_t *h, const gshmemx_region_attrs_t *a)
{
    unsigned long long grid = gsd_grid_id(), block = gsd_block_id();
    unsigned i, first = gsd_region_first(grid, block);
    gsd_region_slot_t *open = gsd_region_find();
    int rc = gsd_region_check_start(open ? &open->r : NULL, h, a);

    if (rc != GSHMEMX_SUCCESS)
        return rc;
    for (i = 0; i < GSD_REGION_PROBE; i++) {
        gsd_region_slot_t *s = &gsd_region_slots_d[(first + i) % GSD_REGION_SLOTS];

        if (atomicCAS(&s->state, 0ull, 1ull) != 0ull)
            continue;
        s->grid = grid;
        s->block = block;
        s->r.hints = a ? a->hints : 0;
        s->r.handle = atomicAdd(&gsd_region_gen_d, 1ull) + 1ull;
        *h = s->r.handle;
        __threadfence();
        atomicExch(&s->state, 2ull);
        return GSHMEMX_SUCCESS;
    }
    return GSHMEMX_ERROR_OUT_OF_MEMORY;
}

GSD_FN int gsd_region_release(gshmemx_region_handle_t h)
{
    gsd_region_slot_t *s = gsd_region_find();

    if (!s || s->r.handle != h)
        return GSHMEMX_ERROR_INVALID_VALUE;
    s->r.handle = 0;
    __threadfence();
    atomicExch(&s->state, 0ull);
    return GSHMEMX_SUCCESS;
}
#endif

/* ---- device code: the block's region ------------------------------------- */

/* Thread 0 of the block runs op (0 start, 1 stop); every thread returns its
 * result, and a start's handle in *h. */
GSD_FN int gsd_region_block(int op, gshmemx_region_handle_t *h, gshmemx_region_handle_t stop_h,
                            const gshmemx_region_attrs_t *a)
{
#if defined(GSD_CUDA)
    __shared__ int status;
    __shared__ unsigned long long handle;
#endif
    int rc;

    gsd_group_sync(GSD_BLOCK);
    if (gsd_group_rank(GSD_BLOCK) == 0) {
#if defined(GSD_CUDA)
        gshmemx_region_handle_t got = 0;

        status = op == 0 ? gsd_region_claim(h ? &got : NULL, a) : gsd_region_release(stop_h);
        handle = got;
#else
        gsd_region_t *r = gshmemi_region_self();
        gshmemx_region_handle_t got = 0;

        r->status = op == 0 ? gsd_region_start_rec(r, h ? &got : NULL, a)
                            : gsd_region_stop_rec(r, stop_h);
#endif
    }
    gsd_group_sync(GSD_BLOCK);
#if defined(GSD_CUDA)
    rc = status;
    if (op == 0 && rc == GSHMEMX_SUCCESS)
        *h = handle;
#else
    rc = gshmemi_region_self()->status;
    if (op == 0 && rc == GSHMEMX_SUCCESS)
        *h = gshmemi_region_self()->handle;
#endif
    gsd_group_sync(GSD_BLOCK); /* nobody starts the next call before all have read */
    return rc;
}

GSD_FN int gshmemx_region_start_block(gshmemx_region_handle_t *handle,
                                      const gshmemx_region_attrs_t *attrs)
{
    return gsd_region_block(0, handle, 0, attrs);
}

GSD_FN int gshmemx_region_stop_block(gshmemx_region_handle_t handle)
{
    return gsd_region_block(1, NULL, handle, NULL);
}

GSD_HD int gshmemx_region_is_active(uint32_t hints, int *active)
{
#if defined(GSD_CUDA) && !defined(GSD_NVCC_HOST_PASS)
    gsd_region_slot_t *s = gsd_region_find();

    return gsd_region_active(s ? &s->r : NULL, hints, active);
#else
    return gsd_region_active(gshmemi_region_self(), hints, active);
#endif
}

#endif /* GSD_REGION_H */
