/*
 * tests/pe/bad_fin_team_bcast.c - the last PE, the root, finalizes while
 * the others wait in a broadcast on a team split from the world: the job
 * ends within seconds with one line naming the finalizing PE, not at
 * GSHMEM_WAIT_TIMEOUT.
 */
/* EXPECT: gshmem: PE 0: shmem_[a-z0-9_]*broadcast[a-z0-9_]*: PE [0-9]+ called shmem_finalize while this PE waits in shmem_[a-z0-9_]*broadcast */
/* EXPECT_WITHIN: 10 */
#include "bad_fin.h"

static long src[8], dest[8];

int main(void)
{
    int finalizer = bad_fin_start("bad_fin_team_bcast");
    shmem_team_t team;

    if (shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, shmem_n_pes(), NULL, 0, &team) != 0) {
        fprintf(stderr, "bad_fin_team_bcast: shmem_team_split_strided failed\n");
        return 1;
    }
    if (finalizer)
        return bad_fin_finalize("bad_fin_team_bcast");
    shmem_long_broadcast(team, dest, src, 8, shmem_team_n_pes(team) - 1);
    return bad_fin_returned("bad_fin_team_bcast", "shmem_long_broadcast");
}
