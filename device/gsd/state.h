/*
 * gsd/state.h - the structs shared by device code and the host library:
 * this PE's device state, its teams, the symmetric sync area of the device
 * collectives.  The layout is part of the ABI between libgshmem and code
 * compiled against these headers (sizes asserted below).
 */
#ifndef GSD_STATE_H
#define GSD_STATE_H

#include <stddef.h>
#include <stdint.h>

#include "cdefs.h"
#include "channel.h"

#define GSD_MAX_TEAMS 64        /* = GSI_MAX_TEAMS: a device team id is the host team's slot */
#define GSD_BARRIER_ROUNDS 32   /* log2 of the largest team */
#define GSD_COLL_WORDS 32       /* per-team signal words of the device collectives */
#define GSD_SCRATCH_BYTES 16384 /* per-team scratch of the device reductions */

/* A team as device code sees it: member i is world PE start + i * stride,
 * or pes[i] when pes is not NULL.  n_pes == 0: no team in this slot.
 *
 * One slot of the team table (gsd_state_t.team), which lives in device
 * global memory (host memory on host lanes), not in the constant state, so
 * that a team made or destroyed while kernels run rewrites only its own
 * slot.  n_pes is the slot's publication word and comes last: the host
 * writes the body first and then n_pes with release order (a destroy sets
 * n_pes to 0 first); device code reads n_pes with acquire (gsd_team_get)
 * and only then the body, so it never sees a body half written. */
typedef struct gsd_team {
    const int32_t *pes; /* device-visible; NULL when strided */
    int32_t my_pe;      /* this PE's index in the team */
    int32_t start, stride;
    int32_t n_pes; /* the publication word: written last, read first */
} gsd_team_t;

/* One team's words in the device sync area (symmetric: same offset on every
 * PE; on the GPU it lies in the device heap). */
typedef struct gsd_team_sync {
    uint64_t barrier[GSD_BARRIER_ROUNDS]; /* dissemination: round k's partner adds 1 */
    uint64_t epoch;                       /* device barriers this PE entered (local only) */
    uint64_t coll_epoch;                  /* device collectives this PE entered (local only) */
    uint64_t coll[GSD_COLL_WORDS];        /* collectives' signals */
    uint64_t pad[6];
    unsigned char scratch[GSD_SCRATCH_BYTES];
} gsd_team_sync_t;

typedef struct gsd_sync {
    gsd_team_sync_t team[GSD_MAX_TEAMS];
} gsd_sync_t;

/* Buffers the program registered as symmetric
 * (gshmemx_buffer_register_symmetric), as device RMA finds them: a table
 * of GSD_MAX_XREG slots, device-visible, published slot by slot like the
 * team table (size 0 while a slot is empty or being written; device code
 * reads size with acquire first).  Host lanes only: on a GPU the buffers
 * are host memory that kernels cannot load or store, and the table stays
 * empty. */
#define GSD_MAX_XREG 8
typedef struct gsd_xreg {
    uint64_t base;             /* this PE's buffer */
    const uint64_t *peer_base; /* [n_pes] pe's buffer mapped here; 0: via proxy */
    int32_t region;            /* its region index in descriptors */
    int32_t pad;
    uint64_t size; /* last: 0 = empty */
} gsd_xreg_t;

/* flags */
#define GSD_HAVE_PROXY 1u /* some peer is reached through the proxy channels */

/* gsd_state_t.exit_req: 0 until device code calls gshmem_global_exit, then
 * GSD_EXIT_REQUESTED | (uint32_t)status (the first caller's). */
#define GSD_EXIT_REQUESTED (1ull << 32)

typedef struct gsd_state {
    int32_t my_pe, n_pes;
    uint32_t flags;
    int32_t heap_region; /* region index of the device heap in descriptors */
    uint64_t heap_base;  /* this PE's device heap */
    uint64_t heap_size;
    const uint64_t *peer_base; /* [n_pes] pe's device heap mapped here; 0: via proxy */
    gsd_channel_t *chan;       /* [n_chan] proxy channels (device-visible) */
    int32_t n_chan;
    int32_t pad0;
    uint64_t wait_timeout_ns; /* device waits end the job after this long; 0: never */
    gsd_sync_t *sync;         /* symmetric: this PE's device sync area */
    /* [GSD_MAX_TEAMS] the team table, device-visible, published slot by
     * slot (gsd_team_t): the state itself is written once at init (and
     * cleared at finalize), never while kernels may run. */
    gsd_team_t *team;
    /* A word of mapped host memory (device-visible address): a GPU
     * thread's gshmem_global_exit stores its request here before it traps,
     * and the PE's watcher (src/gpu/watch.c) ends the job with that status.
     * Host lanes do not use it (the lane calls the library itself). */
    uint64_t *exit_req;
    gsd_xreg_t *xreg; /* [GSD_MAX_XREG] registered symmetric buffers */
} gsd_state_t;

/* The ABI: an archive or program built against another layout is refused
 * at init (the CUDA hooks carry sizeof(gsd_state_t)).  gsd_state_t became
 * 80 bytes when the team table moved out of it (issue 17), 88 with the
 * device global exit's word, 96 with the registered buffers' table (both
 * issue 18). */
GSD_STATIC_ASSERT(sizeof(gsd_team_t) == 24, "gsd_team_t layout");
GSD_STATIC_ASSERT(offsetof(gsd_team_t, n_pes) == 20, "gsd_team_t: n_pes is the last word");
GSD_STATIC_ASSERT(sizeof(gsd_team_sync_t) % 64 == 0, "gsd_team_sync_t keeps cache-line alignment");
GSD_STATIC_ASSERT(offsetof(gsd_state_t, team) == 72, "gsd_state_t layout");
GSD_STATIC_ASSERT(offsetof(gsd_state_t, exit_req) == 80, "gsd_state_t layout");
GSD_STATIC_ASSERT(offsetof(gsd_state_t, xreg) == 88, "gsd_state_t layout");
GSD_STATIC_ASSERT(sizeof(gsd_state_t) == 96, "gsd_state_t layout");
GSD_STATIC_ASSERT(sizeof(gsd_xreg_t) == 32, "gsd_xreg_t layout");

/* Team ids in device code (NVSHMEM's nvshmem_team_t): the host team's slot. */
typedef int32_t gshmem_team_t;
#define GSHMEM_TEAM_INVALID (-1)
#define GSHMEM_TEAM_WORLD 0
#define GSHMEM_TEAM_SHARED 1
#define GSHMEMX_TEAM_NODE 2

/* Counters of the device _any waits and tests (gsd/wait.h): where each
 * GPU thread's next scan starts.  Threads of the grid map onto them by
 * their flat index modulo GSD_ANY_LANES. */
#define GSD_ANY_LANES 65536u

#if defined(GSD_CUDA)
#if defined(__CUDACC_RDC__) /* defined in libgshmem_device.a: relocatable code only */
extern __constant__ gsd_state_t gsd_state_d;
extern __device__ unsigned int gsd_any_next_d[GSD_ANY_LANES];
#endif
#else
GSD_BEGIN_C
extern gsd_state_t gshmemi_state;
GSD_END_C
#endif

#endif /* GSD_STATE_H */
