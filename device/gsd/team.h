/*
 * gsd/team.h - teams in device code.  A device team id is the host team's
 * slot (gshmemx_team_device_id); GSD_STATE.team[id] is this PE's view of it.
 */
#ifndef GSD_TEAM_H
#define GSD_TEAM_H

#include "fatal.h"

/* The team, or the job ends when `team` names none on this PE. */
GSD_FN const gsd_team_t *gsd_team(const char *fn, gshmem_team_t team)
{
    if (GSD_UNLIKELY((unsigned)team >= GSD_MAX_TEAMS || GSD_STATE.team[team].n_pes <= 0))
        GSD_FATAL(fn, "team %d is not a valid team on this PE", (int)team);
    return &GSD_STATE.team[team];
}

/* World PE of member i. */
GSD_FN int gsd_team_pe(const gsd_team_t *tm, int i)
{
    return tm->pes ? tm->pes[i] : tm->start + i * tm->stride;
}

/* Index in the team of world PE `pe`, -1 when it is no member. */
GSD_FN int gsd_team_index(const gsd_team_t *tm, int pe)
{
    if (tm->pes) {
        for (int i = 0; i < tm->n_pes; i++)
            if (tm->pes[i] == pe)
                return i;
        return -1;
    }
    if (tm->stride == 0)
        return pe == tm->start ? 0 : -1;
    if ((pe - tm->start) % tm->stride != 0)
        return -1;
    {
        int i = (pe - tm->start) / tm->stride;

        return i >= 0 && i < tm->n_pes ? i : -1;
    }
}

GSD_FN int gshmem_team_my_pe(gshmem_team_t team)
{
    return (unsigned)team < GSD_MAX_TEAMS && GSD_STATE.team[team].n_pes > 0
               ? GSD_STATE.team[team].my_pe
               : -1;
}

GSD_FN int gshmem_team_n_pes(gshmem_team_t team)
{
    return (unsigned)team < GSD_MAX_TEAMS && GSD_STATE.team[team].n_pes > 0
               ? GSD_STATE.team[team].n_pes
               : -1;
}

GSD_FN int gshmem_team_translate_pe(gshmem_team_t src_team, int src_pe, gshmem_team_t dest_team)
{
    const gsd_team_t *src, *dest;

    if (gshmem_team_n_pes(src_team) < 0 || gshmem_team_n_pes(dest_team) < 0)
        return -1;
    src = &GSD_STATE.team[src_team];
    dest = &GSD_STATE.team[dest_team];
    if (src_pe < 0 || src_pe >= src->n_pes)
        return -1;
    return gsd_team_index(dest, gsd_team_pe(src, src_pe));
}

#endif /* GSD_TEAM_H */
