/*
 * tests/pe/bad_team_init_noid.c - gshmemx_team_init with a config that
 * holds no unique id is refused with NVSHMEM's GSHMEMX_ERROR_INVALID_VALUE
 * and one line.  The program ends the job itself once it has seen the
 * code, so the run passes only with both the line and the code.
 */
/* EXPECT: gshmem: PE [0-9]+: gshmemx_team_init: the config's uniqueid is not set \(gshmemx_team_get_uniqueid\) */
#include <gshmem.h>
#include <stdio.h>

int main(void)
{
    gshmem_team_config_t cfg = GSHMEM_TEAM_CONFIG_INITIALIZER;
    gshmem_team_t team;
    int rc;

    shmem_init();
    rc = gshmemx_team_init(&team, &cfg, 0, shmem_n_pes(), shmem_my_pe());
    if (rc == GSHMEMX_ERROR_INVALID_VALUE && team == GSHMEM_TEAM_INVALID)
        shmem_global_exit(1); /* the expected code: end with the line above */
    fprintf(stderr, "bad_team_init_noid: returned %d, team %d\n", rc, (int)team);
    shmem_finalize();
    return 0;
}
