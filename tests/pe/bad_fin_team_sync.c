/*
 * tests/pe/bad_fin_team_sync.c - the last PE finalizes while the others
 * wait in shmem_team_sync on a team split from the world (its barrier
 * words are not the world's, whose finalize flags the world barrier
 * reads): the job ends within seconds with one line naming the
 * finalizing PE, not at GSHMEM_WAIT_TIMEOUT.
 */
/* EXPECT: gshmem: PE 0: shmem_team_sync: PE [0-9]+ called shmem_finalize while this PE waits in shmem_team_sync */
/* EXPECT_WITHIN: 10 */
#include "bad_fin.h"

int main(void)
{
    int finalizer = bad_fin_start("bad_fin_team_sync");
    shmem_team_t team;

    if (shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, shmem_n_pes(), NULL, 0, &team) != 0) {
        fprintf(stderr, "bad_fin_team_sync: shmem_team_split_strided failed\n");
        return 1;
    }
    if (finalizer)
        return bad_fin_finalize("bad_fin_team_sync");
    shmem_team_sync(team);
    return bad_fin_returned("bad_fin_team_sync", "shmem_team_sync");
}
