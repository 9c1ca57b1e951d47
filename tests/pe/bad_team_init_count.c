/*
 * tests/pe/bad_team_init_count.c - gshmemx_team_init with the same unique
 * id on every PE but a team size that differs: the last PE makes a team of
 * one PE fewer than the others.  It comes last (after a second's sleep),
 * so the others' offers are up when it reads them and the first it reads
 * disagrees with it: one line naming both sizes ends the job, never a
 * team made of the wrong members or a wait.
 */
/* EXPECT: gshmem: PE [0-9]+: gshmemx_team_init: PEs disagree: PE [0-9]+ makes team 0x[0-9a-f]+ of [0-9]+ PEs, this PE of [0-9]+ */
#define _POSIX_C_SOURCE 200809L
#include <gshmem.h>
#include <stdio.h>
#include <unistd.h>

static gshmemx_team_uniqueid_t uid;

int main(void)
{
    gshmem_team_config_t cfg = GSHMEM_TEAM_CONFIG_INITIALIZER;
    gshmem_team_t team;
    int me, n, last, rc;

    shmem_init();
    me = shmem_my_pe(), n = shmem_n_pes(), last = me == n - 1;
    if (me == 0)
        gshmemx_team_get_uniqueid(&uid);
    shmem_barrier_all();
    shmem_getmem(&cfg.uniqueid, &uid, sizeof(uid), 0);
    if (last)
        sleep(1); /* the others' offers are up first */
    rc = gshmemx_team_init(&team, &cfg, 0, last ? n - 1 : n, last ? n - 2 : me);
    fprintf(stderr, "bad_team_init_count: gshmemx_team_init returned %d on PE %d\n", rc, me);
    return 1;
}
