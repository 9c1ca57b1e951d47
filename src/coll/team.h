/* src/coll/team.h - teams: an ordered set of world PEs with a slot of symmetric
 * synchronization state (src/coll/sync.h).  SHMEM_TEAM_WORLD (slot 0) and
 * SHMEM_TEAM_SHARED (slot 1, the PEs whose memory is mapped here) and
 * SHMEMX_TEAM_NODE (slot 2, the PEs of this host, mapped or not) exist from init; others
 * are split from a parent, collectively over the parent only. */
#ifndef GSI_TEAM_H
#define GSI_TEAM_H

#include <stddef.h>
#include <stdint.h>

#include "base/status.h"

struct gsi_team_sync;

/* gshmem_team.live of a team that exists; anything else is no team. */
#define GSI_TEAM_LIVE 0x7465616du /* "team" */
#define GSI_TEAM_BUILDING 1u      /* taken from the pool, being filled in */

struct gshmem_team {
    uint32_t live; /* GSI_TEAM_LIVE from creation to destruction */
    int my_pe;     /* this PE's index in the team */
    int n_pes;
    int start, stride; /* member i is world PE start + i * stride, when strided */
    int strided;
    int *pes;            /* [n_pes] world PE of each member (NULL when strided) */
    int slot;            /* index of the team's gsi_team_sync_t */
    int n_contexts;      /* contexts the team was configured for */
    int all_p2p;         /* every member's memory is mapped here */
    uint64_t epoch;      /* barriers this PE has entered on the team */
    uint64_t coll_epoch; /* collectives this PE has entered on the team */
};

extern struct gshmem_team gshmem_team_world, gshmem_team_shared, gshmem_team_node;

/* Every team split from a parent lives in this table (the predefined ones
 * are the three globals above), so a handle can be checked without reading
 * memory that may not be there: a handle is a team only if it is one of
 * those addresses, and its entry says GSI_TEAM_LIVE.  A destroyed team's
 * entry stays dead until the table has come round to it again (entries are
 * taken in turn), so a stale handle is reported, not silently taken for a
 * newer team.  At most GSHMEM_MAX_TEAMS (64) teams exist at once. */
#define GSI_TEAM_POOL 256
extern struct gshmem_team gsi_team_pool[GSI_TEAM_POOL];

_Noreturn void gsi_fatal_team(const char *fn, const void *team) __attribute__((cold));

/* Whether a handle that is not SHMEM_TEAM_INVALID is a team that exists. */
static inline int gsi_team_is_live(const struct gshmem_team *team)
{
    uintptr_t off = (uintptr_t)team - (uintptr_t)gsi_team_pool;

    if (team != &gshmem_team_world && team != &gshmem_team_shared && team != &gshmem_team_node &&
        (off >= sizeof(gsi_team_pool) || off % sizeof(gsi_team_pool[0])))
        return 0;
    return __atomic_load_n(&team->live, __ATOMIC_ACQUIRE) == GSI_TEAM_LIVE;
}

/* The team behind a handle: NULL for SHMEM_TEAM_INVALID (NULL), which the
 * routines that accept it answer as the spec says; a handle that is no
 * live team (destroyed, never created, not a team at all) ends the job
 * with one line naming `fn`. */
static inline struct gshmem_team *gsi_team_check(const char *fn, struct gshmem_team *team)
{
    if (team && __builtin_expect(!gsi_team_is_live(team), 0))
        gsi_fatal_team(fn, team);
    return team;
}

/* Told of every team made (team) and destroyed (NULL) in slot `slot`, after
 * the predefined ones: the device API mirrors teams for device code
 * (src/gpu/device.c sets it; teams never call up into the GPU layer). */
extern void (*gsi_team_observer)(int slot, const struct gshmem_team *team);

/* World PE of member `index` of `team`. */
static inline int gsi_team_world_pe(const struct gshmem_team *team, int index)
{
    return team->strided ? team->start + index * team->stride : team->pes[index];
}

/* The live team of this PE in sync slot `slot` (the device API's team id),
 * NULL when there is none. */
struct gshmem_team *gsi_team_of_slot(int slot);

/* Index in `team` of world PE `pe`, -1 if it is no member. */
int gsi_team_index(const struct gshmem_team *team, int pe);

/* The team's slot of synchronization words on this PE. */
struct gsi_team_sync *gsi_team_sync(const struct gshmem_team *team);

/* Set up world and shared after the PE state is up; clear them at finalize. */
void gsi_team_init_predefined(void);
void gsi_team_fini_predefined(void);

/* Collective over `parent`: members of the parent with index
 * start + i * stride, i < size, form *team; on the others *team is NULL.
 * A second team from the same call is returned through team2 for 2-D
 * splits (NULL: none).  Fails with GSI_ERR_NOMEM, identically on every
 * parent member, when no team slot is free. */
gsi_status_t gsi_team_split(const char *fn, struct gshmem_team *parent, int start, int stride,
                            int size, int n_contexts, struct gshmem_team **team);

/* The 2-D split: rows of xrange parent members, and the columns. */
gsi_status_t gsi_team_split_2d(const char *fn, struct gshmem_team *parent, int xrange,
                               int x_contexts, int y_contexts, struct gshmem_team **xteam,
                               struct gshmem_team **yteam);

/* Collective over the n members pes[0..n-1] (world PEs, this one at
 * pes[my_index]), who have agreed on a slot free on all of them
 * (gshmemx_team_init, team_init.c): *team, or GSI_ERR_NOMEM. */
gsi_status_t gsi_team_from_pes(const int *pes, int n, int my_index, int slot, int n_contexts,
                               struct gshmem_team **team);

/* Collective over the npes PEs that call it with the same unique id uid
 * (nonzero), each with its own index `idx` in the new team: they find one
 * another through their sync areas, agree on a slot and make *team.  On
 * bad arguments GSI_ERR_INVALID with err filled in, before any exchange;
 * GSI_ERR_NOMEM, identically on every member, when no slot is free. */
gsi_status_t gsi_team_create_uid(const char *fn, uint64_t uid, int npes, int idx, int n_contexts,
                                 struct gshmem_team **team, char *err, size_t errlen);

/* Collective over the team: free its slot and memory; the handle is dead
 * from then on. */
void gsi_team_destroy(const char *fn, struct gshmem_team *team);

#endif
