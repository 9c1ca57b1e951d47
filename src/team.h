/* src/team.h - teams: an ordered set of world PEs.  SHMEM_TEAM_WORLD and
 * SHMEM_TEAM_SHARED (the PEs of this node) exist from init. */
#ifndef GSI_TEAM_H
#define GSI_TEAM_H

struct gshmem_team {
    int my_pe;      /* this PE's index in the team, -1 if not a member */
    int n_pes;
    int *pes;       /* [n_pes] world PE of each member; NULL for world */
    int n_contexts; /* contexts the team was configured for */
};

extern struct gshmem_team gshmem_team_world, gshmem_team_shared;

/* World PE of member `index` of `team`. */
static inline int gsi_team_world_pe(const struct gshmem_team *team, int index)
{
    return team->pes ? team->pes[index] : index;
}

/* Set up world and shared after the PE state is up; clear them at finalize. */
void gsi_team_init_predefined(void);
void gsi_team_fini_predefined(void);

#endif
