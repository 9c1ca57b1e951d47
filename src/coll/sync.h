/* src/coll/sync.h - the library's own symmetric state, at the end of the heap
 * (same offset on every PE): one slot of synchronization words per team.
 * A team's barrier and collectives use its slot on its members only, so
 * disjoint teams (the rows of a 2-D split) can share a slot index. */
#ifndef GSI_SYNC_H
#define GSI_SYNC_H

#include <stdint.h>

#include "core/liveness.h"
#include "gsd/state.h"

#define GSI_MAX_TEAMS 64      /* slots; GSHMEM_MAX_TEAMS may lower the limit */
#define GSI_BARRIER_ROUNDS 32 /* log2 of the largest team */
#define GSI_COLL_WORDS 64     /* per-slot words the collectives own */
#define GSI_WHERE_MAX 64      /* members whose CPU the central barrier tracks */
/* coll[GSI_SIG_SEQ] of a team's slot numbers this PE's collective calls on
 * the team (src/coll/coll_sig.h); the finalize barrier publishes the
 * world's (src/coll/barrier.c). */
#define GSI_SIG_SEQ 31

typedef struct gsi_flag {
    _Alignas(64) uint64_t value; /* one cache line per flag */
} gsi_flag_t;

/* The central barrier's release, on the team's root: the epoch last
 * completed, and beside it in the same line the digest of the arguments of
 * the collective that barrier closes and the member that released it
 * (issue 29): the members that read the release read these too, at no
 * extra cost. */
typedef struct gsi_release {
    _Alignas(64) uint64_t value;
    uint64_t digest; /* the releasing member's digest (src/coll/coll.h) */
    uint64_t by;     /* that member's index in the team */
} gsi_release_t;

typedef struct gsi_team_sync {
    gsi_flag_t barrier[GSI_BARRIER_ROUNDS]; /* dissemination: the round's partner writes */
    gsi_flag_t arrived;                     /* central, on the team's root: arrivals, ever */
    gsi_release_t released;                 /* central, on the root: last barrier completed */
    gsi_flag_t agree;                       /* team creation: this PE's free slots */
    gsi_flag_t coll[GSI_COLL_WORDS];        /* collectives' signals (src/coll/coll_*.c) */
    uint64_t where[GSI_WHERE_MAX];          /* central, on the root: epoch << 16 | CPU of
                                                  member i at its last arrival */
} gsi_team_sync_t;

/* What one collective allocation call asked for (host/alloc_call.c): each PE
 * writes its own before the call's barrier, and reads its neighbour's
 * after it.  Two of them, by the call's parity: a neighbour already in the
 * next call cannot overwrite the one being read, and cannot get further
 * before this PE reaches that call's barrier. */
typedef struct gsi_alloc_call {
    uint64_t seq;    /* this PE's allocation calls so far, this one included */
    uint64_t heap;   /* GSI_ALLOC_HEAP (shmem_malloc, ...), GSI_ALLOC_DEVICE (gshmem_malloc) */
    uint64_t size;   /* bytes asked for (shmem_free: 0) */
    uint64_t align;  /* shmem_align's alignment, 0 for the others */
    uint64_t offset; /* shmem_free, shmem_realloc: the block's heap offset + 1; else 0 */
} gsi_alloc_call_t;

/* This PE's offer to join a team made from a unique id (gshmemx_team_init,
 * src/coll/team_init.c): free and idx_npes are written first, uid last
 * (release), and read by the other would-be members in that order. */
typedef struct gsi_team_offer {
    uint64_t free;     /* this PE's free slots */
    uint64_t idx_npes; /* index in the team << 32 | the team's size */
    uint64_t uid;      /* the team's unique id; 0: no offer */
} gsi_team_offer_t;

typedef struct gsi_sync {
    gsi_team_sync_t team[GSI_MAX_TEAMS]; /* slot 0: world, 1: shared */
    uint64_t free_slots;                 /* this PE's view; published for agreement */
    gsi_alloc_call_t alloc[2];           /* this PE's last allocation calls, by parity */
    gsi_team_offer_t offer;              /* gshmemx_team_init */
    gsi_live_t live;                     /* where this PE waits (core/liveness.h) */
} gsi_sync_t;

/* The area: gsi_sync_t, then the device collectives' gsd_sync_t (device
 * code on host lanes addresses it in peers' heaps, src/gpu/devmem_host.c). */
#define GSI_DEV_SYNC_OFFSET (((sizeof(gsi_sync_t) + 4095) / 4096) * 4096)
#define GSI_SYNC_AREA_SIZE (GSI_DEV_SYNC_OFFSET + ((sizeof(gsd_sync_t) + 4095) / 4096) * 4096)

struct gshmem_team;

/* Barrier over the team's members; with `complete`, first completes this
 * PE's outstanding operations (shmem_barrier_all) - without, only
 * synchronizes (shmem_sync, shmem_sync_all). */
void gsi_team_barrier(const char *fn, struct gshmem_team *team, int complete);

/* gsi_team_barrier whose members compare `digest`, the arguments of the
 * collective it closes (src/coll/coll.h; 0 compares nothing).  Returns 0,
 * or the digest of a member that disagrees, its index in the team in *by
 * (src/coll/barrier.c says which members compare); the caller reports it
 * (gsi_team_barrier_agree, src/coll/coll_sync.c). */
uint64_t gsi_team_barrier_check(const char *fn, struct gshmem_team *team, int complete,
                                uint64_t digest, int *by);

/* The CPU member i of the team ran on when it last reached the team's
 * barrier; -1 where the barrier does not track CPUs (fewer PEs than cores
 * here, a member not mapped, or more members than GSI_WHERE_MAX). */
int gsi_team_member_cpu(const struct gshmem_team *team, int i);

/* The world barrier, as used by init, allocation and shmem_barrier_all. */
void gsi_barrier_world(const char *fn, int complete);

/* shmem_finalize's barrier over the world: this PE's operations complete,
 * then a dissemination whose flags say "finalizing" (src/coll/barrier.c),
 * so that it completes no barrier or collective a PE skipped. */
void gsi_barrier_finalize(const char *fn);

/* A PE that waits in world barrier `epoch` (or, with epoch 0, in world
 * collective number `seq`) that a PE it can see finalizing skipped:
 * report it, naming that PE, and end the job.  Cheap: it reads log2(n)
 * words of this PE's memory. */
void gsi_world_check_finalized(const char *fn, uint64_t epoch, uint64_t seq);

/* The barrier before symmetric memory is freed or moved: this PE's
 * operations complete first, those device code queued for the proxy
 * included, so that none lands in what a later allocation holds. */
void gsi_barrier_release(const char *fn);

#endif
