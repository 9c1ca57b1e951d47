/*
 * tests/pe/bad_mismatch_coll.c - mismatched collectives: PE 0 waits in
 * shmem_barrier_all, the others in shmem_team_sync on a team split from
 * the world (other barrier words: neither call can complete).  No PE
 * finalizes, every PE waits; the job ends within seconds with one line
 * saying where each PE waits, not at GSHMEM_WAIT_TIMEOUT.
 */
/* EXPECT: gshmem: PE 0: shmem_barrier_all: every PE waits and none can make progress: PE 0 in shmem_barrier_all, PE 1 in shmem_team_sync */
/* EXPECT_WITHIN: 10 */
#define _POSIX_C_SOURCE 200809L
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    shmem_team_t team;

    setenv("GSHMEM_WAIT_TIMEOUT", "60", 1);
    shmem_init();
    if (shmem_n_pes() < 2) {
        fprintf(stderr, "bad_mismatch_coll: needs 2 PEs or more\n");
        shmem_finalize();
        return 0;
    }
    if (shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, shmem_n_pes(), NULL, 0, &team) != 0) {
        fprintf(stderr, "bad_mismatch_coll: shmem_team_split_strided failed\n");
        return 1;
    }
    if (shmem_my_pe() == 0)
        shmem_barrier_all();
    else
        shmem_team_sync(team);
    fprintf(stderr, "bad_mismatch_coll: a mismatched collective returned\n");
    return 1;
}
