/*
 * tests/device/team_init_full.c - gshmemx_team_init when no team slot is
 * free (issue 18): it returns GSHMEMX_ERROR_OUT_OF_MEMORY on every member,
 * leaves GSHMEM_TEAM_INVALID in *team and does not end the job; once a team
 * is destroyed the next gshmemx_team_init succeeds in the freed slot.
 * GSHMEM_MAX_TEAMS=4 leaves one slot past WORLD, SHARED and NODE.
 */
#include "dev_test.h"

static uint64_t uid_sym[3]; /* symmetric (static data): PE 0's ids */

static gshmem_team_t make(const char *what, uint64_t uid, int expect)
{
    gshmem_team_config_t cfg = GSHMEM_TEAM_CONFIG_INITIALIZER;
    gshmem_team_t t = 7; /* overwritten on success and on failure */

    cfg.uniqueid = uid;
    PT_CHECK_EQ_F("gshmemx_team_init", expect,
                  gshmemx_team_init(&t, &cfg, GSHMEM_TEAM_CONFIG_MASK_UNIQUEID, dt_npes, dt_me),
                  "%s", what);
    if (expect != GSHMEMX_SUCCESS)
        PT_CHECK_EQ_F("gshmemx_team_init", GSHMEM_TEAM_INVALID, t, "%s: *team", what);
    else
        PT_CHECK_EQ_F("gshmem_team_n_pes", dt_npes, gshmem_team_n_pes(t), "%s", what);
    return t;
}

int main(void)
{
    gshmem_team_t first, second;
    int i;

    setenv("GSHMEM_MAX_TEAMS", "4", 1);
    dt_start();
    if (dt_me == 0)
        for (i = 0; i < 3; i++)
            PT_CHECK_EQ("gshmemx_team_get_uniqueid", 0, gshmemx_team_get_uniqueid(&uid_sym[i]));
    shmem_uint64_broadcast(SHMEM_TEAM_WORLD, uid_sym, uid_sym, 3, 0);

    first = make("the fourth team (the last free slot)", uid_sym[0], GSHMEMX_SUCCESS);
    make("a fifth team (no slot is free)", uid_sym[1], GSHMEMX_ERROR_OUT_OF_MEMORY);
    /* The job goes on: the existing team still works. */
    PT_CHECK_EQ("shmem_team_sync", 0, shmem_team_sync(gshmemx_team_host(first)));
    shmem_team_destroy(gshmemx_team_host(first));
    second = make("a team after the destroy", uid_sym[2], GSHMEMX_SUCCESS);
    PT_CHECK_EQ("gshmemx_team_init (the freed slot)", first, second);
    shmem_team_destroy(gshmemx_team_host(second));
    shmem_barrier_all();
    return dt_finish();
}
