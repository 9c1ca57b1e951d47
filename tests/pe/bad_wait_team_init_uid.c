/*
 * tests/pe/bad_wait_team_init_uid.c - gshmemx_team_init of every PE where
 * the PEs disagree on the team: each passes a unique id of its own, so none
 * finds the others' offers.  Every PE waited forever, GSHMEM_WAIT_TIMEOUT or
 * not; now the job ends after GSHMEM_WAIT_TIMEOUT=5 s with one line naming
 * the routine and what it waited for.  GSHMEM_FAIL_CHECK=0: failure
 * propagation would see every PE waiting and end it sooner, with another
 * line; this test is about the timeout.
 */
/* EXPECT: gshmem: PE [0-9]+: gshmemx_team_init: waited more than GSHMEM_WAIT_TIMEOUT=5 s for the members of team 0x[0-9a-f]+ to call gshmemx_team_init \(1 of 2 found\) */
/* The line comes once GSHMEM_WAIT_TIMEOUT has passed, on purpose: */
/* EXPECT_WITHIN: 20 */
#define _POSIX_C_SOURCE 200809L
#include <gshmem.h>
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    gshmem_team_config_t cfg = GSHMEM_TEAM_CONFIG_INITIALIZER;
    gshmem_team_t team;
    int rc;

    setenv("GSHMEM_WAIT_TIMEOUT", "5", 1);
    setenv("GSHMEM_FAIL_CHECK", "0", 1);
    shmem_init();
    gshmemx_team_get_uniqueid(&cfg.uniqueid); /* one of its own: no two agree */
    rc = gshmemx_team_init(&team, &cfg, 0, shmem_n_pes(), shmem_my_pe());
    fprintf(stderr, "bad_wait_team_init_uid: gshmemx_team_init returned %d\n", rc);
    return 1;
}
