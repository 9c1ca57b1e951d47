/*
 * gsd/team.h - teams in device code.  A device team id is the host team's
 * slot (gshmemx_team_device_id); GSD_STATE.team[id] is this PE's view of it,
 * a slot of the team table that the host publishes while kernels run
 * (gsd/state.h): every read goes through gsd_team_get, which reads the
 * slot's n_pes with acquire before anything else of it.
 *
 *   gshmem_team_my_pe, gshmem_team_n_pes, gshmem_team_translate_pe
 *       device and host code (GSD_HD)
 */
#ifndef GSD_TEAM_H
#define GSD_TEAM_H

#include "arch.h"
#include "fatal.h"

/* The team in slot `team`, or NULL when the slot holds none on this PE. */
GSD_FN const gsd_team_t *gsd_team_get(gshmem_team_t team)
{
    const gsd_team_t *t;

    if ((unsigned)team >= GSD_MAX_TEAMS || !GSD_STATE.team)
        return NULL;
    t = &GSD_STATE.team[team];
    /* Acquire: the body the host wrote before n_pes is what we read next. */
    return (int32_t)gsd_load_acquire32((const uint32_t *)&t->n_pes) > 0 ? t : NULL;
}

/* The team, or the job ends when `team` names none on this PE. */
GSD_FN const gsd_team_t *gsd_team(const char *fn, gshmem_team_t team)
{
    const gsd_team_t *t = gsd_team_get(team);

    if (GSD_UNLIKELY(!t))
        GSD_FATAL(fn, "team %d is not a valid team on this PE", (int)team);
    return t;
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

/* The queries are GSD_HD: host code asks the library (the host's team
 * table, by slot), device code its slot of the device team table.  Both
 * answer -1 for a slot that holds no team of this PE. */
GSD_BEGIN_C
int gshmemi_team_my_pe(gshmem_team_t team);
int gshmemi_team_n_pes(gshmem_team_t team);
int gshmemi_team_translate_pe(gshmem_team_t src_team, int src_pe, gshmem_team_t dest_team);
GSD_END_C

GSD_HD int gshmem_team_my_pe(gshmem_team_t team)
{
#if defined(GSD_NVCC_HOST_PASS)
    return gshmemi_team_my_pe(team);
#else
#if defined(GSD_HOSTLANE)
    if (!gshmemi_lane_self)
        return gshmemi_team_my_pe(team);
#endif
    {
        const gsd_team_t *t = gsd_team_get(team);

        return t ? t->my_pe : -1;
    }
#endif
}

GSD_HD int gshmem_team_n_pes(gshmem_team_t team)
{
#if defined(GSD_NVCC_HOST_PASS)
    return gshmemi_team_n_pes(team);
#else
#if defined(GSD_HOSTLANE)
    if (!gshmemi_lane_self)
        return gshmemi_team_n_pes(team);
#endif
    {
        const gsd_team_t *t = gsd_team_get(team);

        return t ? t->n_pes : -1;
    }
#endif
}

GSD_HD int gshmem_team_translate_pe(gshmem_team_t src_team, int src_pe, gshmem_team_t dest_team)
{
#if defined(GSD_NVCC_HOST_PASS)
    return gshmemi_team_translate_pe(src_team, src_pe, dest_team);
#else
#if defined(GSD_HOSTLANE)
    if (!gshmemi_lane_self)
        return gshmemi_team_translate_pe(src_team, src_pe, dest_team);
#endif
    {
        const gsd_team_t *src = gsd_team_get(src_team), *dest = gsd_team_get(dest_team);

        if (!src || !dest)
            return -1;
        if (src_pe < 0 || src_pe >= src->n_pes)
            return -1;
        return gsd_team_index(dest, gsd_team_pe(src, src_pe));
    }
#endif
}

#endif /* GSD_TEAM_H */
