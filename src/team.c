/* src/team.c - the predefined teams. */
#include "team.h"

#include <stddef.h>

#include "pe.h"

struct gshmem_team gshmem_team_world = {.my_pe = -1};
struct gshmem_team gshmem_team_shared = {.my_pe = -1};

void gsi_team_init_predefined(void)
{
    gshmem_team_world.my_pe = gsi_pe.my_pe;
    gshmem_team_world.n_pes = gsi_pe.n_pes;
    gshmem_team_world.pes = NULL;

    gshmem_team_shared.n_pes = gsi_pe.n_local;
    gshmem_team_shared.pes = gsi_pe.local_pes;
    gshmem_team_shared.my_pe = -1;
    for (int i = 0; i < gsi_pe.n_local; i++)
        if (gsi_pe.local_pes[i] == gsi_pe.my_pe)
            gshmem_team_shared.my_pe = i;
}

void gsi_team_fini_predefined(void)
{
    gshmem_team_world = (struct gshmem_team){.my_pe = -1};
    gshmem_team_shared = (struct gshmem_team){.my_pe = -1};
}
