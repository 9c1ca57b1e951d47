/*
 * tests/pe/bad_team_destroyed.c - a team used after shmem_team_destroy is
 * reported as one line naming the routine and the handle, then the job
 * ends (no hang in a barrier of a slot that is gone, no read of freed
 * memory).
 */
/* EXPECT: gshmem: PE [0-9]+: shmem_team_sync: team handle 0x[0-9a-f]+ is not a live team \(destroyed, or never created\) */
#include <shmem.h>
#include <stdio.h>

int main(void)
{
    shmem_team_t team;

    shmem_init();
    if (shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, shmem_n_pes(), NULL, 0, &team) != 0) {
        fprintf(stderr, "bad_team_destroyed: the split failed\n");
        return 1;
    }
    shmem_team_destroy(team);
    shmem_team_sync(team);
    fprintf(stderr, "bad_team_destroyed: shmem_team_sync on a destroyed team returned\n");
    shmem_finalize();
    return 0;
}
