/*
 * tests/pe/bad_team_double_destroy.c - destroying a team twice is reported
 * as one line naming the routine and the handle, then the job ends.
 */
/* EXPECT: gshmem: PE [0-9]+: shmem_team_destroy: team handle 0x[0-9a-f]+ is not a live team \(destroyed, or never created\) */
#include <shmem.h>
#include <stdio.h>

int main(void)
{
    shmem_team_t team;

    shmem_init();
    if (shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, shmem_n_pes(), NULL, 0, &team) != 0) {
        fprintf(stderr, "bad_team_double_destroy: the split failed\n");
        return 1;
    }
    shmem_team_destroy(team);
    shmem_team_destroy(team);
    fprintf(stderr, "bad_team_double_destroy: the second shmem_team_destroy returned\n");
    shmem_finalize();
    return 0;
}
