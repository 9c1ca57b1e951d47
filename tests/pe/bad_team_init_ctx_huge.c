/*
 * tests/pe/bad_team_init_ctx_huge.c - gshmemx_team_init with num_contexts
 * 2^30 is refused with NVSHMEM's GSHMEMX_ERROR_INVALID_VALUE and one line;
 * it used to make the team.  The program ends the job itself once it has
 * seen the code, so the run passes only with both the line and the code.
 */
/* EXPECT: gshmem: PE [0-9]+: gshmemx_team_init: config->num_contexts is 1073741824: it must be 0 to [0-9]+ */
#include <gshmem.h>
#include <stdio.h>

static gshmemx_team_uniqueid_t uid;

int main(void)
{
    gshmem_team_config_t cfg = GSHMEM_TEAM_CONFIG_INITIALIZER;
    gshmem_team_t team;
    int rc;

    shmem_init();
    if (shmem_my_pe() == 0)
        gshmemx_team_get_uniqueid(&uid);
    shmem_barrier_all();
    shmem_getmem(&cfg.uniqueid, &uid, sizeof(uid), 0);
    cfg.num_contexts = 1 << 30;
    rc = gshmemx_team_init(&team, &cfg, GSHMEM_TEAM_CONFIG_MASK_NUM_CONTEXTS, shmem_n_pes(),
                           shmem_my_pe());
    if (rc == GSHMEMX_ERROR_INVALID_VALUE && team == GSHMEM_TEAM_INVALID)
        shmem_global_exit(1); /* the expected code: end with the line above */
    fprintf(stderr, "bad_team_init_ctx_huge: returned %d, team %d\n", rc, (int)team);
    shmem_finalize();
    return 0;
}
