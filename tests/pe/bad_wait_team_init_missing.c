/*
 * tests/pe/bad_wait_team_init_missing.c - gshmemx_team_init of every PE on
 * all but the last PE, which never calls it (it sleeps, outside the
 * library).  The members waited for its offer forever, GSHMEM_WAIT_TIMEOUT
 * or not; now they end the job after GSHMEM_WAIT_TIMEOUT=5 s with one line
 * naming the routine and what they waited for.
 */
/* EXPECT: gshmem: PE [0-9]+: gshmemx_team_init: waited more than GSHMEM_WAIT_TIMEOUT=5 s for the members of team 0x[0-9a-f]+ to call gshmemx_team_init \(1 of 2 found\) */
/* The line comes once GSHMEM_WAIT_TIMEOUT has passed, on purpose: */
/* EXPECT_WITHIN: 20 */
#define _POSIX_C_SOURCE 200809L
#include <gshmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static gshmemx_team_uniqueid_t uid;

int main(void)
{
    gshmem_team_config_t cfg = GSHMEM_TEAM_CONFIG_INITIALIZER;
    gshmem_team_t team;
    int rc;

    setenv("GSHMEM_WAIT_TIMEOUT", "5", 1);
    shmem_init();
    if (shmem_my_pe() == 0)
        gshmemx_team_get_uniqueid(&uid);
    shmem_barrier_all();
    shmem_getmem(&cfg.uniqueid, &uid, sizeof(uid), 0);
    if (shmem_my_pe() == shmem_n_pes() - 1) {
        sleep(40); /* never joins; the others' timeout ends the job first */
        fprintf(stderr, "bad_wait_team_init_missing: the job outlived the members' timeout\n");
        return 1;
    }
    rc = gshmemx_team_init(&team, &cfg, 0, shmem_n_pes(), shmem_my_pe());
    fprintf(stderr, "bad_wait_team_init_missing: gshmemx_team_init returned %d\n", rc);
    return 1;
}
