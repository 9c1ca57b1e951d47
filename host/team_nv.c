/* host/team_nv.c - NVSHMEM's team routines on device team ids
 * (device/gsd/host_api.h: gshmem_team_split_strided, gshmem_team_split_2d,
 * gshmem_team_get_config, gshmem_team_destroy): the OpenSHMEM routines of
 * host/team.c on the host team of each id, NVSHMEM's config translated. */
#include "api.h"

#pragma GCC visibility push(default)
#include "gsd/host_api.h"
#pragma GCC visibility pop

/* The OpenSHMEM config of an NVSHMEM one (num_contexts is all both have);
 * -1 when config is given but not made from GSHMEM_TEAM_CONFIG_INITIALIZER. */
static int to_shmem(const char *fn, const gshmem_team_config_t *config, long mask,
                    shmem_team_config_t *out, long *out_mask)
{
    *out_mask = 0;
    out->num_contexts = 0;
    if (!config || !(mask & GSHMEM_TEAM_CONFIG_MASK_NUM_CONTEXTS))
        return 0;
    if (config->version != GSHMEM_TEAM_CONFIG_VERSION) {
        GSI_WARN("%s: config->version is %d, not GSHMEM_TEAM_CONFIG_VERSION (make the config "
                 "from GSHMEM_TEAM_CONFIG_INITIALIZER)",
                 fn, config->version);
        return -1;
    }
    out->num_contexts = config->num_contexts;
    *out_mask = SHMEM_TEAM_NUM_CONTEXTS;
    return 0;
}

/* The device id of a new host team; GSHMEM_TEAM_INVALID for none. */
static gshmem_team_t device_id(shmem_team_t team)
{
    return team == SHMEM_TEAM_INVALID ? GSHMEM_TEAM_INVALID : gshmemx_team_device_id(team);
}

int gshmem_team_split_strided(gshmem_team_t parent_team, int PE_start, int PE_stride,
                              int PE_size, const gshmem_team_config_t *config,
                              long config_mask, gshmem_team_t *new_team)
{
    const char *fn = "gshmem_team_split_strided";
    shmem_team_config_t c;
    shmem_team_t made;
    long mask;
    int rc;

    gsi_check_init(fn);
    if (!new_team)
        gsi_fatal(fn, "new_team is NULL");
    *new_team = GSHMEM_TEAM_INVALID;
    if (to_shmem(fn, config, config_mask, &c, &mask) != 0)
        return GSHMEMX_ERROR_INVALID_VALUE;
    rc = pshmem_team_split_strided(gshmemx_team_host(parent_team), PE_start, PE_stride,
                                   PE_size, &c, mask, &made);
    *new_team = device_id(made);
    return rc;
}

int gshmem_team_split_2d(gshmem_team_t parent_team, int xrange,
                         const gshmem_team_config_t *xaxis_config, long xaxis_mask,
                         gshmem_team_t *xaxis_team, const gshmem_team_config_t *yaxis_config,
                         long yaxis_mask, gshmem_team_t *yaxis_team)
{
    const char *fn = "gshmem_team_split_2d";
    shmem_team_config_t xc, yc;
    shmem_team_t x, y;
    long xm, ym;
    int rc;

    gsi_check_init(fn);
    if (!xaxis_team || !yaxis_team)
        gsi_fatal(fn, "xaxis_team or yaxis_team is NULL");
    *xaxis_team = *yaxis_team = GSHMEM_TEAM_INVALID;
    if (to_shmem(fn, xaxis_config, xaxis_mask, &xc, &xm) != 0 ||
        to_shmem(fn, yaxis_config, yaxis_mask, &yc, &ym) != 0)
        return GSHMEMX_ERROR_INVALID_VALUE;
    rc = pshmem_team_split_2d(gshmemx_team_host(parent_team), xrange, &xc, xm, &x, &yc, ym,
                              &y);
    *xaxis_team = device_id(x);
    *yaxis_team = device_id(y);
    return rc;
}

/* NVSHMEM's config of the team: its version, its contexts; no unique id
 * (0), as a config passed to a split would have. */
void gshmem_team_get_config(gshmem_team_t team, gshmem_team_config_t *config)
{
    const char *fn = "gshmem_team_get_config";
    gshmem_team_config_t init = GSHMEM_TEAM_CONFIG_INITIALIZER;
    shmem_team_config_t c = {0};

    gsi_check_init(fn);
    if (!config) {
        GSI_WARN("%s: config is NULL", fn);
        return;
    }
    if (pshmem_team_get_config(gshmemx_team_host(team), SHMEM_TEAM_NUM_CONTEXTS, &c) != 0) {
        GSI_WARN("%s: team %d is no team of this PE", fn, (int)team);
        return;
    }
    init.num_contexts = c.num_contexts;
    *config = init;
}

void gshmem_team_destroy(gshmem_team_t team)
{
    gsi_check_init("gshmem_team_destroy");
    pshmem_team_destroy(gshmemx_team_host(team));
}
