/* host/team_uid.c - teams of any set of PEs from a unique id
 * (device/gsd/host_api.h: gshmemx_team_get_uniqueid, gshmemx_team_init),
 * and the host handle of a device team id (gshmemx_team_host). */
#include "api.h"

#include <sys/random.h>

#pragma GCC visibility push(default)
#include "gsd/host_api.h"
#pragma GCC visibility pop

_Static_assert(sizeof(gshmem_team_config_t) == 64, "NVSHMEM's 64-byte team config");

int gshmemx_team_get_uniqueid(gshmemx_team_uniqueid_t *uniqueid)
{
    const char *fn = "gshmemx_team_get_uniqueid";
    uint64_t id = 0;

    gsi_check_init(fn);
    if (!uniqueid) {
        GSI_WARN("%s: uniqueid is NULL", fn);
        return GSHMEMX_ERROR_INVALID_VALUE;
    }
    /* Random, so ids from different PEs (or calls) do not meet; 0 is "none". */
    while (id == 0)
        if (getrandom(&id, sizeof(id), 0) != (ssize_t)sizeof(id))
            gsi_fatal(fn, "getrandom failed");
    *uniqueid = id;
    return GSHMEMX_SUCCESS;
}

int gshmemx_team_init(gshmem_team_t *team, gshmem_team_config_t *config, long config_mask,
                      int npes, int pe_idx_in_team)
{
    const char *fn = "gshmemx_team_init";
    struct gshmem_team *made;
    char err[256] = "";
    gsi_status_t status;
    int n_contexts;

    gsi_check_init(fn);
    if (team)
        *team = GSHMEM_TEAM_INVALID;
    if (!team || !config) {
        GSI_WARN("%s: %s is NULL", fn, !team ? "team" : "config");
        return GSHMEMX_ERROR_INVALID_VALUE;
    }
    if (config->version != GSHMEM_TEAM_CONFIG_VERSION) {
        GSI_WARN("%s: config->version is %d, not GSHMEM_TEAM_CONFIG_VERSION (make the config "
                 "from GSHMEM_TEAM_CONFIG_INITIALIZER)",
                 fn, config->version);
        return GSHMEMX_ERROR_INVALID_VALUE;
    }
    n_contexts = config_mask & GSHMEM_TEAM_CONFIG_MASK_NUM_CONTEXTS ? config->num_contexts
                                                                    : 0;
    if (n_contexts < 0 || n_contexts > GSI_CTX_POOL) {
        GSI_WARN("%s: config->num_contexts is %d: it must be 0 to %d (the contexts that can "
                 "exist at once)",
                 fn, n_contexts, GSI_CTX_POOL);
        return GSHMEMX_ERROR_INVALID_VALUE;
    }
    status = gsi_team_create_uid(fn, config->uniqueid, npes, pe_idx_in_team, n_contexts,
                                 &made, err, sizeof(err));
    if (status != GSI_OK) {
        GSI_WARN("%s: %s", fn, err);
        return status == GSI_ERR_INVALID ? GSHMEMX_ERROR_INVALID_VALUE
                                         : GSHMEMX_ERROR_OUT_OF_MEMORY;
    }
    *team = made->slot;
    return GSHMEMX_SUCCESS;
}

shmem_team_t gshmemx_team_host(gshmem_team_t team)
{
    gsi_check_init("gshmemx_team_host");
    return team < 0 || team >= GSD_MAX_TEAMS ? SHMEM_TEAM_INVALID : gsi_team_of_slot(team);
}
