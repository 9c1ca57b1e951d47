/*
 * tests/pe/bad_team_garbage.c - a handle that was never a team (here a
 * pointer to zeroed heap memory, which looks like a team of PE 0) is
 * reported as one line naming the routine and the handle, then the job
 * ends; nothing is read through it.
 */
/* EXPECT: gshmem: PE [0-9]+: shmem_team_sync: team handle 0x[0-9a-f]+ is not a live team \(destroyed, or never created\) */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    shmem_team_t team = (shmem_team_t)calloc(1, 256);

    shmem_init();
    shmem_team_sync(team);
    fprintf(stderr, "bad_team_garbage: shmem_team_sync on a heap pointer returned\n");
    shmem_finalize();
    free(team);
    return 0;
}
