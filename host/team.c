/* host/team.c - Team Management Routines, and shmem_team_sync. */
#include "api.h"

#include "coll/coll.h"
#include "coll/sync.h"

/* SHMEM_TEAM_INVALID, or a team this PE does not belong to, is no team:
 * the routines answer it as the spec says (-1, nonzero, no team made).  A
 * handle that is neither that nor a live team (destroyed, or never made:
 * "otherwise invalid", undefined in the spec) ends the job with one line,
 * before anything reads through it. */
static int team_ok(const char *fn, shmem_team_t team)
{
    team = gsi_team_check(fn, team);
    return team != SHMEM_TEAM_INVALID && team->my_pe >= 0;
}

int pshmem_team_my_pe(shmem_team_t team)
{
    const char *fn = "shmem_team_my_pe";

    gsi_check_init(fn);
    return team_ok(fn, team) ? team->my_pe : -1;
}
GSI_ALIAS(shmem_team_my_pe)

int pshmem_team_n_pes(shmem_team_t team)
{
    const char *fn = "shmem_team_n_pes";

    gsi_check_init(fn);
    return team_ok(fn, team) ? team->n_pes : -1;
}
GSI_ALIAS(shmem_team_n_pes)

int pshmem_team_get_config(shmem_team_t team, long config_mask, shmem_team_config_t *config)
{
    const char *fn = "shmem_team_get_config";

    gsi_check_init(fn);
    if (!team_ok(fn, team) || !config)
        return -1;
    if (config_mask & SHMEM_TEAM_NUM_CONTEXTS)
        config->num_contexts = team->n_contexts;
    return 0;
}
GSI_ALIAS(shmem_team_get_config)

int pshmem_team_translate_pe(shmem_team_t src_team, int src_pe, shmem_team_t dest_team)
{
    const char *fn = "shmem_team_translate_pe";

    gsi_check_init(fn);
    if (!team_ok(fn, src_team) || !team_ok(fn, dest_team) || src_pe < 0 ||
        src_pe >= src_team->n_pes)
        return -1;
    return gsi_team_index(dest_team, gsi_team_world_pe(src_team, src_pe));
}
GSI_ALIAS(shmem_team_translate_pe)

static int contexts_of(const shmem_team_config_t *config, long mask)
{
    return config && (mask & SHMEM_TEAM_NUM_CONTEXTS) ? config->num_contexts : 0;
}

int pshmem_team_split_strided(shmem_team_t parent_team, int start, int stride, int size,
                              const shmem_team_config_t *config, long config_mask,
                              shmem_team_t *new_team)
{
    const char *fn = "shmem_team_split_strided";
    /* Wide: (size - 1) * stride overflows an int for stride 2^30 and
     * size 3 or more, and may wrap back into range. */
    long long last = (long long)start + ((long long)size - 1) * stride;

    gsi_check_init(fn);
    if (!new_team)
        gsi_fatal(fn, "new_team is NULL");
    *new_team = SHMEM_TEAM_INVALID;
    if (!team_ok(fn, parent_team))
        return -1;
    if (size < 1 || start < 0 || start >= parent_team->n_pes || last < 0 ||
        last >= parent_team->n_pes || (stride == 0 && size > 1)) {
        GSI_WARN("%s: start %d, stride %d, size %d do not select PEs of a %d-PE parent team",
                 fn, start, stride, size, parent_team->n_pes);
        return -1;
    }
    return gsi_team_split(fn, parent_team, start, stride, size,
                          contexts_of(config, config_mask), new_team) == GSI_OK
               ? 0
               : -1;
}
GSI_ALIAS(shmem_team_split_strided)

int pshmem_team_split_2d(shmem_team_t parent_team, int xrange,
                         const shmem_team_config_t *xaxis_config, long xaxis_mask,
                         shmem_team_t *xaxis_team, const shmem_team_config_t *yaxis_config,
                         long yaxis_mask, shmem_team_t *yaxis_team)
{
    const char *fn = "shmem_team_split_2d";

    gsi_check_init(fn);
    if (!xaxis_team || !yaxis_team)
        gsi_fatal(fn, "xaxis_team or yaxis_team is NULL");
    *xaxis_team = *yaxis_team = SHMEM_TEAM_INVALID;
    if (!team_ok(fn, parent_team))
        return -1;
    if (xrange < 1) {
        GSI_WARN("%s: xrange %d is not positive", fn, xrange);
        return -1;
    }
    if (xrange > parent_team->n_pes)
        xrange = parent_team->n_pes;
    return gsi_team_split_2d(fn, parent_team, xrange, contexts_of(xaxis_config, xaxis_mask),
                             contexts_of(yaxis_config, yaxis_mask), xaxis_team,
                             yaxis_team) == GSI_OK
               ? 0
               : -1;
}
GSI_ALIAS(shmem_team_split_2d)

void pshmem_team_destroy(shmem_team_t team)
{
    const char *fn = "shmem_team_destroy";

    gsi_check_init(fn);
    if (team == SHMEM_TEAM_INVALID)
        return;
    if (team == SHMEM_TEAM_WORLD || team == SHMEM_TEAM_SHARED || team == SHMEMX_TEAM_NODE)
        gsi_fatal(fn, "SHMEM_TEAM_WORLD, SHMEM_TEAM_SHARED and SHMEMX_TEAM_NODE cannot be "
                      "destroyed");
    /* A second destroy is reported here, before the barrier it would hang in. */
    gsi_team_check(fn, team);
    /* "This routine destroys all shareable contexts created from the
     * referenced team"; private ones are the program's to destroy first. */
    gsi_ctx_drop_team(fn, team);
    gsi_team_destroy(fn, team);
}
GSI_ALIAS(shmem_team_destroy)

int pshmem_team_sync(shmem_team_t team)
{
    const char *fn = "shmem_team_sync";

    gsi_check_init(fn);
    if (!team_ok(fn, team))
        return -1;
    gsi_team_barrier_agree(fn, team, 0, gsi_call_digest(GSI_CALL_BARRIER, 0, 0));
    return 0;
}
GSI_ALIAS(shmem_team_sync)
